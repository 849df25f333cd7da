"""The exact outcome distribution by forward propagation over battle states."""

from __future__ import annotations

import heapq
import itertools


from .outcomes import Number, Outcome
from .engine import BattleState, _Act


class _Exact:
    """Exact-solver methods of :class:`~.battle._Battle`."""

    def phase(self, dist: dict[BattleState, Number], acts: list[_Act], missile: bool) -> dict[BattleState, Number]:
        for pos, act in enumerate(acts):
            nxt: dict[BattleState, Number] = {}
            for state, p in dist.items():
                shooters = len(state[act.side][act.index])
                if shooters == 0 or self.finished(state):
                    nxt[state] = nxt.get(state, 0) + p
                    continue
                for new_enemy, q in self.moves(state, pos, missile):
                    new = self.merge(state, act, new_enemy)
                    nxt[new] = nxt.get(new, 0) + p * q  # type: ignore[index]
            dist = nxt
        return dist

    def solve(self) -> dict[Outcome, Number]:
        if any(self.optimal):
            self.solve_values()
        outcomes: dict[Outcome, Number] = {}

        def settle(state: BattleState, p: Number) -> bool:
            o = self.ending(state)
            if o is None:
                return False
            outcomes[o] = outcomes.get(o, 0) + p
            return True

        # Nodes are (state, step): the battle is in ``state`` and activation ``step`` of the
        # engagement round fires next. Inflow into a state comes only from states of lower
        # progress, so states are finished in increasing progress. The nodes of one state form a
        # cycle of "nothing changed" steps (probabilities q_k), solved in closed form:
        # x_0 = (a_0 + sum_{j>=1} a_j q_j...q_{n-1}) / (1 - q_0...q_{n-1}),  x_k = a_k + q_{k-1} x_{k-1}.
        acts = self.cannon_acts
        n = len(acts)
        inflow: dict[BattleState, list[Number]] = {}
        heap: list[tuple[int, int, BattleState]] = []
        counter = itertools.count()

        def push(state: BattleState, step: int, p: Number) -> None:
            if self.finished(state):
                o = self.outcome(state)
                outcomes[o] = outcomes.get(o, 0) + p
                return
            a = inflow.get(state)
            if a is None:
                self.tick()
                a = inflow[state] = [0] * n if n else [0]
                heapq.heappush(heap, (self.progress(state), next(counter), state))
            a[step] += p

        start = {self.start: self.one}
        if self.missile_acts:
            start = self.phase(start, self.missile_acts, missile=True)
        if self.regen:
            return self._solve_regen(start)
        for state, p in start.items():
            push(state, 0, p)
        while heap:
            _, _, state = heapq.heappop(heap)
            a = inflow.pop(state)
            if not self.armed(state):
                settle(state, sum(a, 0 * self.one))
                continue
            moves: list[list[tuple[BattleState, Number]]] = []
            q: list[Number] = []
            for k, act in enumerate(acts):
                if not state[act.side][act.index]:
                    moves.append([])
                    q.append(self.one)
                    continue
                enemy = state[1 - act.side]
                out = []
                stay: Number = 0 * self.one
                for new_enemy, p in self.moves(state, k, False):
                    if new_enemy == enemy:
                        stay += p
                    else:
                        out.append((self.merge(state, act, new_enemy), p))
                moves.append(out)
                q.append(stay)
                self.tick(len(out))
            loop = self.one
            for qk in q:
                loop = loop * qk
            total = a[0]
            tail = self.one
            for j in range(n - 1, 0, -1):
                tail = tail * q[j]
                total = total + a[j] * tail
            x = total / (self.one - loop)
            for k in range(n):
                if k:
                    x = a[k] + q[k - 1] * x
                for new, p in moves[k]:
                    push(new, (k + 1) % n, x * p)
        return outcomes


def _sorted_outcomes(outcomes: dict[Outcome, Number]) -> dict[Outcome, Number]:
    return dict(sorted(outcomes.items(), key=lambda kv: kv[0]))
