"""Regeneration (Morph Shield, regenerating Ancients; RotA): repairs undo damage, so battle states
no longer follow one order and "nothing changed" is not the only cycle. Both solvers work on the
graph of nodes ``(state, activation)``, split into strongly connected components (a component
holds the states with the same ships alive whose damage can go up and down) and solved one
component at a time, successors first, each by one linear system instead of iteration:

* :meth:`_Regeneration._solve_regen` (the outcome distribution for fixed choices): the expected
  visits ``y`` of a component's nodes solve ``y = inflow + Q^T y``;
* :meth:`_Regeneration._iterate_values` (optimal play): strategy iteration — fix every choice,
  solve the component's values exactly, let each side switch to strictly better choices, repeat
  until nobody switches; checked against the value-iteration equations, which finish the job if a
  component does not settle.

Under fixed choices, nodes from which the battle can never end (damage repaired as fast as it
can be dealt) take the stalemate's value, as value iteration started at the stalemate's value
gives.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

import numpy as np

from .engine import BattleState
from .outcomes import Number, Outcome, Stalemate

Node = tuple[BattleState, int]

MAX_STRATEGY_ROUNDS = 100
"""Most strategy-improvement rounds per component before plain value iteration takes over."""


def strongly_connected(n: int, succ: Callable[[int], Sequence[int]]) -> list[list[int]]:
    """Tarjan's algorithm, iteratively, on nodes ``0..n-1``: the strongly connected components,
    every component after all the components it has edges into (successors first)."""
    index = [-1] * n
    low = [0] * n
    on_stack = [False] * n
    stack: list[int] = []
    out: list[list[int]] = []
    counter = 0
    for root in range(n):
        if index[root] >= 0:
            continue
        work = [(root, iter(succ(root)))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack[root] = True
        while work:
            v, it = work[-1]
            for w in it:
                if index[w] < 0:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack[w] = True
                    work.append((w, iter(succ(w))))
                    break
                if on_stack[w] and index[w] < low[v]:
                    low[v] = index[w]
            else:
                work.pop()
                if work and low[v] < low[work[-1][0]]:
                    low[work[-1][0]] = low[v]
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on_stack[w] = False
                        comp.append(w)
                        if w == v:
                            break
                    out.append(comp)
    return out


def reaching(n: int, arcs: Sequence[Sequence[int]], goals: Iterable[int]) -> set[int]:
    """The nodes ``0..n-1`` with a path (``arcs[i]``: the nodes ``i`` leads to) into ``goals``."""
    back: list[list[int]] = [[] for _ in range(n)]
    for i, out in enumerate(arcs):
        for j in out:
            back[j].append(i)
    found = set(goals)
    todo = list(found)
    while todo:
        for i in back[todo.pop()]:
            if i not in found:
                found.add(i)
                todo.append(i)
    return found


class _Regeneration:
    """Regeneration methods of :class:`~.battle._Battle`."""

    def _regen_nodes(self, starts: Sequence[BattleState]) -> tuple[list[Node], dict[Node, int]]:
        """Every node ``(state, activation)`` of a living, armed battle that any choice and
        repair can reach from ``starts`` (before the first activation), numbered."""
        acts = self.cannon_acts
        nodes: list[Node] = []
        ids: dict[Node, int] = {}

        def add(node: Node) -> None:
            if node not in ids and self.terminal_value(node[0]) is None:
                ids[node] = len(nodes)
                nodes.append(node)

        for state in starts:
            add((state, 0))
        i = 0
        while i < len(nodes):
            state, k = nodes[i]
            i += 1
            act = acts[k]
            add(self.next_node(state, k))
            shooters = len(state[act.side][act.index])
            enemy = state[1 - act.side]
            rolls = self.rolls(act, enemy, shooters, False) if shooters else []
            self.tick(1 + len(rolls))   # (each roll's options looked up: many dice, many rolls)
            for hits, _ in rolls:
                if hits:
                    options = self.options(act, enemy, hits)
                    self.tick(len(options))   # (an optimal side's many: each is followed)
                    for e in options:
                        add(self.next_node(self.merge(state, act, e), k))
        return nodes, ids

    def _iterate_values(self, post_missiles: list[BattleState]) -> None:
        """Engagement-round values with regeneration under optimal play: the value (attacker's
        win + half a draw) of every node, component by component (see the module docstring)."""
        acts = self.cannon_acts
        nodes, ids = self._regen_nodes(post_missiles)
        stale = self.one / 2 if self.stalemate is Stalemate.DRAW else 0 * self.one
        x = [stale] * len(nodes)
        # Per node: its entries (probability, targets); a target is a node id, or -1 - j for the
        # known value consts[j] of a battle that is over. An entry with several targets is a
        # choice: the attacker takes the largest value, the defender the smallest.
        consts: list[Number] = []
        const_ids: dict[BattleState, int] = {}

        def target(node: Node) -> int:
            i = ids.get(node)
            if i is not None:
                return i
            j = const_ids.get(node[0])
            if j is None:
                j = const_ids[node[0]] = len(consts)
                consts.append(self.value(node[0], node[1], False))
            return -1 - j

        entries: list[list[tuple[Number, tuple[int, ...]]]] = []
        maximise: list[bool] = []
        for state, k in nodes:
            act = acts[k]
            shooters = len(state[act.side][act.index])
            unchanged = target(self.next_node(state, k))
            row: list[tuple[Number, tuple[int, ...]]] = []
            if not shooters:
                row.append((self.one, (unchanged,)))
            for hits, p in self.rolls(act, state[1 - act.side], shooters, False) if shooters else ():
                if not hits:
                    row.append((p, (unchanged,)))
                    continue
                row.append((p, tuple(target(self.next_node(self.merge(state, act, e), k))
                                     for e in self.options(act, state[1 - act.side], hits))))
            self.tick(len(row))
            entries.append(row)
            maximise.append(act.side == 0)

        def val(t: int) -> Number:
            return x[t] if t >= 0 else consts[-1 - t]

        def succ(i: int) -> list[int]:
            return [t for _, ts in entries[i] for t in ts if t >= 0]

        for comp in strongly_connected(len(nodes), succ):
            self._solve_component(comp, entries, maximise, x, val, stale)
        self._node_value = values = {}
        for (state, k), v in zip(nodes, x):
            values.setdefault(state, [stale] * len(acts))[k] = v

    def _solve_component(
        self,
        comp: list[int],
        entries: list[list[tuple[Number, tuple[int, ...]]]],
        maximise: list[bool],
        x: list[Number],
        val: Callable[[int], Number],
        stale: Number,
    ) -> None:
        """Values of one component's nodes (written into ``x``), successors' values known."""
        if len(comp) == 1 and comp[0] not in succ_set(entries[comp[0]]):
            i = comp[0]
            pick = max if maximise[i] else min
            x[i] = sum((p * pick(map(val, ts)) for p, ts in entries[i]), 0 * self.one)
            return
        local = {node: j for j, node in enumerate(comp)}
        m = len(comp)
        # choice[i][e]: the target node i's entry e takes (greedy on the stalemate values first).
        choice = {i: [self._best(ts, maximise[i], val) for _, ts in entries[i]] for i in comp}
        for _ in range(MAX_STRATEGY_ROUNDS):
            self._policy_values(comp, local, entries, choice, x, val, stale)
            switched = False
            for i in comp:
                better = maximise[i]
                for e, (_, ts) in enumerate(entries[i]):
                    if len(ts) == 1:
                        continue
                    best = self._best(ts, better, val)
                    now = val(choice[i][e])
                    if (val(best) > now + 1e-13) if better else (val(best) < now - 1e-13):
                        choice[i][e] = best
                        switched = True
            self.tick(m)
            if not switched:
                break
        # Check (and if need be finish) with value iteration: Gauss-Seidel sweeps to 1e-13.
        while True:
            delta = 0.0
            for i in comp:
                pick = max if maximise[i] else min
                v = sum((p * pick(map(val, ts)) for p, ts in entries[i]), 0 * self.one)
                delta = max(delta, abs(v - x[i]))
                x[i] = v
            self.tick(m)
            if delta < 1e-13:
                return

    @staticmethod
    def _best(targets: tuple[int, ...], maximise: bool, val: Callable[[int], Number]) -> int:
        return (max if maximise else min)(targets, key=val)

    def _policy_values(
        self,
        comp: list[int],
        local: dict[int, int],
        entries: list[list[tuple[Number, tuple[int, ...]]]],
        choice: dict[int, list[int]],
        x: list[Number],
        val: Callable[[int], Number],
        stale: Number,
    ) -> None:
        """The component's values with every choice fixed (``choice``): nodes that cannot leave
        the component take the stalemate's value, the others solve ``(I - M) x = b``."""
        m = len(comp)
        inner: list[list[tuple[int, Number]]] = [[] for _ in range(m)]
        b = np.zeros(m)
        exits = []
        for j, i in enumerate(comp):
            for (p, _), t in zip(entries[i], choice[i]):
                lj = local.get(t) if t >= 0 else None
                if lj is None:
                    b[j] += p * val(t)
                    exits.append(j)
                else:
                    inner[j].append((lj, p))
        live = reaching(m, [[lj for lj, _ in arcs] for arcs in inner], exits)
        order = sorted(live)
        pos = {j: r for r, j in enumerate(order)}
        self.tick_solve(len(order))
        a = np.eye(len(order))
        rhs = b[order] if order else b[:0]
        for r, j in enumerate(order):
            for lj, p in inner[j]:
                if lj in pos:
                    a[r, pos[lj]] -= p
                else:
                    rhs[r] += p * stale
        solved = np.linalg.solve(a, rhs) if order else rhs
        for j, i in enumerate(comp):
            x[i] = float(solved[pos[j]]) if j in pos else stale

    def _solve_regen(self, start: dict[BattleState, Number]) -> dict[Outcome, Number]:
        """Outcome distribution with regeneration: the battle's mass flows through the
        components in order, each component's expected visits solved as one linear system. Mass
        in a node from which the battle can never end is scored as a stalemate."""
        acts = self.cannon_acts
        nodes, ids = self._regen_nodes(list(start))
        outcomes: dict[Outcome, Number] = {}

        def settle(state: BattleState, m: Number) -> None:
            o = self.outcome(state, stalemate=not self.finished(state))
            outcomes[o] = outcomes.get(o, 0) + m

        edges: list[list[tuple[int, Number]]] = []
        ended: list[list[tuple[BattleState, Number]]] = []
        for state, k in nodes:
            act = acts[k]
            moves = self.moves(state, k, False) if state[act.side][act.index] else [(state[1 - act.side], self.one)]
            out: list[tuple[int, Number]] = []
            over: list[tuple[BattleState, Number]] = []
            for e, p in moves:
                nxt = self.next_node(self.merge(state, act, e), k)
                i = ids.get(nxt)
                if i is None:
                    over.append((nxt[0], p))
                else:
                    out.append((i, p))
            self.tick(len(moves))
            edges.append(out)
            ended.append(over)
        # Nodes from which the battle can end.
        can_end = reaching(len(nodes), [[j for j, _ in out] for out in edges],
                           [i for i, over in enumerate(ended) if over])
        mass = [0.0] * len(nodes)
        for state, p in start.items():
            i = ids.get((state, 0))
            if i is None:
                settle(state, p)
            else:
                mass[i] += p
        comps = strongly_connected(len(nodes), lambda i: [j for j, _ in edges[i]])
        for comp in reversed(comps):  # predecessors first
            if comp[0] not in can_end:
                for i in comp:
                    if mass[i]:
                        settle(nodes[i][0], mass[i])
                continue
            if len(comp) > 1 or any(j == comp[0] for j, _ in edges[comp[0]]):
                local = {i: r for r, i in enumerate(comp)}
                self.tick_solve(len(comp))
                a = np.eye(len(comp))
                for r, i in enumerate(comp):
                    for j, p in edges[i]:
                        if j in local:
                            a[local[j], r] -= p
                visits = np.linalg.solve(a, np.array([mass[i] for i in comp]))
                for r, i in enumerate(comp):
                    mass[i] = float(visits[r])
            inside = set(comp)
            for i in comp:
                m = mass[i]
                for j, p in edges[i]:
                    if j not in inside:
                        mass[j] += m * p
                for state, p in ended[i]:
                    settle(state, m * p)
        return outcomes


def succ_set(row: list[tuple[Number, tuple[int, ...]]]) -> set[int]:
    """Every node id an entry list can lead to."""
    return {t for _, ts in row for t in ts}
