"""Point defense RotA rare technology: cannons firing at incoming missiles."""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from fractions import Fraction


from .outcomes import Number
from .policies import Hit, Placement, SideState, _canonical, land
from .ships import ANTIMATTER
from .engine import BattleState, _Act


class _PointDefense:
    """Point defense methods of :class:`~.battle._Battle`."""

    def point_defense(self, act: _Act, enemy: SideState) -> bool:
        """Whether the enemy's point defense meets ``act``'s missiles (it needs a living cannon)."""
        fleet = self.fleets[1 - act.side]
        return fleet.point_defense and any(ds and fleet.types[t].cannons for t, ds in enumerate(enemy))

    def pd_faces(self, side: int, st: SideState) -> list[tuple[int, int]]:
        """Per point-defense die of ``side`` in ``st`` (fleet order, cannon by cannon): how many
        of its six faces hit a missile (the natural 6, and die + computer >= 6 from 2 up; shields
        do not count) and how many missiles a hit destroys: one, or with the Antimatter Splitter
        up to four for an antimatter die (its damage split among missiles [S RotA seed])."""
        fleet = self.fleets[side]
        return [
            (1 + min(4, ship.computer), ANTIMATTER if fleet.antimatter_splitter and die == ANTIMATTER else 1)
            for ship, ds in zip(fleet.types, st)
            for _ in range(len(ds))
            for die in ship.cannons
        ]

    def pd_dist(self, side: int, st: SideState) -> list[tuple[int, Number]]:
        """Distribution of the number of missiles ``side``'s point defense destroys."""
        faces = self.pd_faces(side, st)
        ways = [1]
        for f, kills in faces:  # exact integer counts over 6**dice
            ways = [a * (6 - f) + (ways[i - kills] * f if i >= kills else 0)
                    for i, a in enumerate(ways + [0] * kills)]
        total = 6 ** len(faces)
        if isinstance(self.one, Fraction):
            return [(k, Fraction(w, total)) for k, w in enumerate(ways) if w]
        return [(k, w / total) for k, w in enumerate(ways) if w]

    def placements(self, act: _Act, enemy: SideState, hits: tuple[Hit, ...], every: bool) -> list[Placement]:
        """Where ``act``'s side may place ``hits``: every way (``every``) or its policy's way."""
        types = self.fleets[1 - act.side].types
        if not every:
            return [self.policies[act.side].place(types, enemy, hits)]  # type: ignore[union-attr]
        partial = {tuple(tuple((d, ()) for d in ds) for ds in enemy)}
        for hit in hits:
            nxt: set[Placement] = set()
            grown = 0
            for pl in partial:
                self.tick(1 + len(nxt) - grown)
                grown = len(nxt)
                for t in hit.targets:
                    for i, (d, hs) in enumerate(pl[t]):
                        if i and pl[t][i - 1] == (d, hs):
                            continue  # the same as the previous, identical ship
                        ships = list(pl[t])
                        ships[i] = (d, hs + (hit.damage,))
                        nxt.add(_canonical(pl[:t] + (tuple(ships),) + pl[t + 1:]))
            partial = nxt
        return sorted(partial)

    def removals(self, side: int, placement: Placement, k: int | None, every: bool) -> list[SideState]:
        """The states ``side`` may leave by destroying ``k`` placed missiles (all if fewer; any
        number when ``k`` is None): every choice (``every``) or the fixed rule's (largest missile,
        then the largest, most damaged target first)."""
        types = self.fleets[side].types
        items = [
            (t, i, h)
            for t, entries in enumerate(placement)
            for i, (_, hs) in enumerate(entries)
            for h in range(len(hs))
        ]

        def without(chosen: Iterable[tuple[int, int, int]]) -> SideState:
            entries = [[(d, list(hs)) for d, hs in ships] for ships in placement]
            for t, i, h in sorted(chosen, reverse=True):
                del entries[t][i][1][h]
            return land(types, _canonical(entries))

        sizes = range(len(items) + 1) if k is None else [min(k, len(items))]
        if not every:
            key = lambda x: (-placement[x[0]][x[1]][1][x[2]], -types[x[0]].size.rank, -placement[x[0]][x[1]][0])  # noqa: E731
            return [without(sorted(items, key=key)[: sizes[0]])]
        found: set[SideState] = set()
        for size in sizes:
            for chosen in itertools.combinations(items, size):
                self.tick()
                found.add(without(chosen))
        return sorted(found)

    def pd_land(self, state: BattleState, pos: int, placement: Placement, k: int) -> SideState:
        """The enemy's state after missile activation ``pos``'s ``placement`` meets ``k`` point
        defense hits, the defending side choosing which missiles to destroy."""
        act = self.missile_acts[pos]
        outs = self.removals(1 - act.side, placement, k, self.optimal[1 - act.side])
        if len(outs) == 1:
            return outs[0]
        sign = 1 if act.side == 0 else -1  # the point-defense side minimises the firing side's value
        return min(outs, key=lambda e: sign * self.value(self.merge(state, act, e), pos + 1, True))

    def pd_volley(self, state: BattleState, pos: int, hits: tuple[Hit, ...]) -> tuple[list[tuple[SideState, Number]], Number, Placement]:
        """Missile activation ``pos``'s ``hits`` against point defense: the distribution of the
        enemy's state, its value for the attacker (optimal play present, else 0) and the placement
        the firing side chose."""
        key = (state, pos, hits)
        found = self._pd.get(key)
        if found is not None:
            return found
        act = self.missile_acts[pos]
        enemy = state[1 - act.side]
        valued = any(self.optimal)
        sign = 1 if act.side == 0 else -1
        best: tuple[list[tuple[SideState, Number]], Number, Placement] | None = None
        for placement in self.placements(act, enemy, hits, self.optimal[act.side]):
            dist: dict[SideState, Number] = {}
            total = 0 * self.one
            for k, pk in self.pd_dist(1 - act.side, enemy):
                new = self.pd_land(state, pos, placement, k)
                dist[new] = dist.get(new, 0) + pk
                if valued:
                    total += pk * self.value(self.merge(state, act, new), pos + 1, True)
            if best is None or sign * total > sign * best[1]:
                best = (list(dist.items()), total, placement)
        assert best is not None
        self._pd[key] = best
        return best
