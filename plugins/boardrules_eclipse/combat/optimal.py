"""Optimal play: the battle solved as a two-player zero-sum stochastic game."""

from __future__ import annotations

from collections.abc import Iterator


from .policies import SideState
from .engine import BattleState, _Trans
from .rounds import solve_rounds


class _Optimal:
    """Optimal-play methods of :class:`~.battle._Battle`."""

    def successors(self, state: BattleState, pos: int) -> Iterator[BattleState]:
        """Every state missile activation ``pos`` may leave (misses included)."""
        act = self.missile_acts[pos]
        enemy = state[1 - act.side]
        shooters = len(state[act.side][act.index])
        yield state
        if shooters and not self.finished(state):
            pd = self.point_defense(act, enemy)
            for hits, _ in self.rolls(act, enemy, shooters, True):
                if pd and hits:
                    news = {
                        new
                        for placement in self.placements(act, enemy, hits, True)
                        for new in self.removals(1 - act.side, placement, None, True)
                    }
                else:
                    news = set(self.options(act, enemy, hits))
                for new_enemy in news:
                    yield self.merge(state, act, new_enemy)

    def sid(self, side: int, st: SideState) -> int:
        """The id of one side's state (ids keep the value tables' keys small and fast)."""
        ids = self._ids[side]
        i = ids.get(st)
        if i is None:
            i = ids[st] = len(self._counts[side])
            self._counts[side].append(tuple(len(ds) for ds in st))
            self._states[side].append(st)
        return i

    def trans(self, pos: int, shooters: int, enemy: int) -> _Trans:
        """Cannon activation ``pos`` fired by ``shooters`` ships at the enemy side state ``enemy``
        (an id), as :class:`_Trans`."""
        key = (pos, shooters, enemy)
        found = self._trans.get(key)
        if found is None:
            act = self.cannon_acts[pos]
            st = self._states[1 - act.side][enemy]
            found = _Trans([], [], [], [], 0 * self.one, set())
            for hits, p in self.rolls(act, st, shooters, False):
                if not hits:
                    found.miss += p
                    continue
                ids = tuple(self.sid(1 - act.side, e) for e in self.options(act, st, hits))
                found.reach.update(ids)
                if len(ids) == 1:
                    found.forced_p.append(p)
                    found.forced.append(ids[0])
                else:
                    found.choice_p.append(p)
                    found.choices.append(ids)
            self.tick(len(found.forced) + len(found.choices))
            self._trans[key] = found
        return found

    def solve_values(self) -> None:
        """Solve the game for optimal play: enumerate every battle state either side's choices can
        reach, then compute the attacker's value backwards, in decreasing progress."""
        if self._solved:
            return
        self._solved = True
        zero = 0 * self.one
        layers: list[set[BattleState]] = [{self.start}]
        for j in range(len(self.missile_acts)):
            layer: set[BattleState] = set()
            for state in layers[-1]:
                layer.update(self.successors(state, j))
            self.tick(len(layer))
            layers.append(layer)
        if self.regen:
            self._iterate_values([st for st in layers[-1] if self.terminal_value(st) is None])
        else:
            self._solve_cannon_values(layers[-1])
        self._missile_value = [{} for _ in self.missile_acts]
        for j in range(len(self.missile_acts) - 1, -1, -1):
            act = self.missile_acts[j]
            for state in layers[j]:
                shooters = len(state[act.side][act.index])
                if shooters == 0 or self.finished(state):
                    v = self.value(state, j + 1, True)
                else:
                    v = zero
                    pd = self.point_defense(act, state[1 - act.side])
                    for hits, p in self.rolls(act, state[1 - act.side], shooters, True):
                        if hits and pd:
                            v += p * self.pd_volley(state, j, hits)[1]
                        elif hits:
                            v += p * self.choose(state, act, j, True, hits)[1]
                        else:
                            v += p * self.value(state, j + 1, True)
                self._missile_value[j][state] = v

    def _solve_cannon_values(self, post_missiles: set[BattleState]) -> None:
        """Engagement-round values without regeneration: every armed pair of reachable damage
        patterns, successors first (a volley only ever adds damage; :func:`.rounds.solve_rounds`)."""
        acts = self.cannon_acts
        empty = [self.sid(side, tuple(() for _ in fleet.ships)) for side, fleet in enumerate(self.fleets)]
        # Each side's damage patterns that any volley can reach (any number of shooters); every
        # armed pair of them is solved, in an order where successors come first: defender
        # patterns by decreasing progress, and within one, attacker patterns by decreasing
        # progress (a volley adds damage to one side and leaves the other as it is).
        post = [s for s in post_missiles if self.terminal_value(s) is None]
        closure: list[list[int]] = []
        for side in (0, 1):
            found = {self.sid(side, s[side]) for s in post}
            stack = list(found)
            while stack:
                st = stack.pop()
                self.tick()
                for k, act in enumerate(acts):
                    if act.side == side:
                        continue
                    for shooters in range(1, self.fleets[act.side].counts[act.index] + 1):
                        for e in self.trans(k, shooters, st).reach:
                            if e not in found and e != empty[side]:
                                found.add(e)
                                stack.append(e)
            prog = {i: self.side_progress(side, self._states[side][i]) for i in found}
            closure.append(sorted(found, key=prog.__getitem__, reverse=True))
        self._table, self._local = solve_rounds(self, closure, empty)
