"""One battle's state machine, shared by the solvers, the simulator and play primitives:
activation order, dice faces, rolls, hit options, outcomes, regeneration, the work budget."""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Iterator, Sequence
from fractions import Fraction
from operator import ge
from typing import Any, NamedTuple, TypeAlias

import attrs

from .outcomes import Number, Outcome, Side, Stalemate
from .notation import format_fleet
from .policies import DEFAULT_POLICY, NPC_POLICY, AnyPolicy, Hit, OptimalPolicy, Policy, SideState
from .ships import ANTIMATTER, Fleet, ShipType


MAX_RUNS = 1_000_000
"""Most Monte-Carlo battles in one :func:`simulate_odds` call."""
MAX_SIM_ROUNDS = 1_000
"""Most engagement rounds of one Monte-Carlo battle; one still going then (regeneration healing
what the enemy's dice can deal) counts as a stalemate, as the exact solver counts a battle that
can never end. A battle that ends only after this many rounds has a negligible share."""
DEFAULT_BUDGET = 4_000_000
"""Default work budget of :func:`combat_odds`: battle states visited plus dice outcomes and hit
assignments enumerated (a fixed policy's assignment counts its hits times the living enemy
ships). Enough for every supply-limited battle with the fixed policies (the largest, upgraded
supply against upgraded supply, needs about 1.7 million) and for 7 against 9
ships with optimal play on both sides (about 2.9 million, about a second of CPU)."""


DEFAULT_SIM_BUDGET = 50_000_000
"""Default Monte-Carlo work budget of :func:`simulate_odds`: dice rolled plus activations fired,
over all its battles (about 6 µs of CPU each on the reference machine, so a few minutes at most).
A million battles of two interceptors against an Ancient need about 15 million."""


ESTIMATE_MARGIN = 100
"""A regenerating battle is refused before any work when its work estimate exceeds the budget
this many times (:meth:`_Engine.check_estimate`; the estimate was 0.5 to 26 times the work of the
regenerating battles that finish within the default budget)."""

REACH_MARGIN = 1.25
"""A battle without regeneration is refused before any work when its reach estimate
(:meth:`_Engine.reach_estimate`) exceeds the budget this many times. Measured with
``bench/bench_combat.py``'s battles and same-ship fleets up to 60 a side: the estimate is 0.9-1.0
times the work of same-ship fleets, 0.5-4.5 times with optimal play, 2.3 times for the upgraded
supplies (3.9 million, solved in about 7 s of CPU) and 0.08-0.3 times for mixed fleets under a
fixed policy (its single-hit walk misses states several hits at once reach), so those may still
meet the budget: 1.25 keeps every battle the budget finishes and refuses 60 against 60
interceptors (6.9 million) in about 10 ms."""
REACH_CAP = 2_000
"""Most damage states of one side the reach estimate walks (the solvable battles above reach at
most 1,350); a side past it is refused at once (about 0.5 s of CPU at worst)."""


class CombatTooLarge(ValueError):
    """An exact solution (or a Monte-Carlo run) would exceed its work budget: use
    :func:`simulate_odds`, fewer battles or a larger budget."""


# ------------------------------------------------------------------------------------------ solver

BattleState: TypeAlias = tuple[SideState, SideState]  # (attacker, defender)
Roll: TypeAlias = tuple[tuple[Hit, ...], Number]  # the hits of one volley and their probability


class _Act(NamedTuple):
    side: int  # 0 attacker, 1 defender
    index: int
    ship: ShipType


def _damage_vector(st: SideState, hulls: Sequence[int], counts: Sequence[int]) -> tuple[int, ...]:
    """``st`` as one flat vector: per ship type, the living ships' damage least first, then
    ``hull + 1`` for each destroyed ship. ``a`` dominates ``b`` (``a`` can be reached from ``b`` by adding damage) exactly when
    ``a``'s vector is at least ``b``'s everywhere: a's i-th least damaged ship must be at least as
    damaged as b's, and a destroyed ship (hull + 1) is at least any damage, while a living ship of
    ``a`` facing a destroyed one of ``b`` (a has more ships) is less."""
    out: list[int] = []
    for ds, hull, count in zip(st, hulls, counts):
        out.extend(reversed(ds))
        out.extend([hull + 1] * (count - len(ds)))
    return tuple(out)


@attrs.define
class _Trans:
    """One cannon volley at one enemy side state, for optimal play: the hit lists that leave the
    firing side no choice (probability, enemy id), those that do (probability, enemy ids to
    choose from), the probability that nothing hits, and every enemy id it can lead to."""

    forced_p: list
    forced: list[int]
    choice_p: list
    choices: list[tuple[int, ...]]
    miss: Number
    reach: set[int]


class _Engine:
    """Shared machinery of the exact solver and the simulator for one pair of fleets."""

    def __init__(
        self,
        attacker: Fleet,
        defender: Fleet,
        attacker_policy: AnyPolicy | None,
        defender_policy: AnyPolicy | None,
        stalemate: Stalemate,
        one: Number,
        budget: int = DEFAULT_BUDGET,
    ) -> None:
        if not attacker.ships and not defender.ships:
            raise ValueError("both fleets are empty")
        self.fleets = (attacker, defender)
        self.policies = tuple(
            p if p is not None else (NPC_POLICY if f.npc else DEFAULT_POLICY)
            for p, f in ((attacker_policy, attacker), (defender_policy, defender))
        )
        for p in self.policies:
            if not isinstance(p, (Policy, OptimalPolicy)):
                raise TypeError(f"not a Policy: {p!r}")
        self.optimal = tuple(isinstance(p, OptimalPolicy) for p in self.policies)
        # Dropping dominated assignments is sound when both sides choose optimally (more damage on
        # the enemy never lowers a side's value); a fixed policy may react non-monotonically.
        self.prune = all(self.optimal)
        self.stalemate = Stalemate(stalemate)
        self.one = one
        self.budget = budget
        self.work = 0
        acts = [
            _Act(side, i, ship)
            for side, fleet in enumerate(self.fleets)
            for i, ship in enumerate(fleet.types)
        ]
        # Higher initiative first; ties: defender (side 1) first; then fleet order.
        acts.sort(key=lambda a: (-a.ship.initiative, -a.side, a.index))
        self.acts = acts  # every ship type, in activation order (types without cannons retreat)
        self.missile_acts = [a for a in acts if a.ship.missiles]
        self.cannon_acts = [a for a in acts if a.ship.cannons]
        self.start: BattleState = tuple(  # type: ignore[assignment]
            tuple((0,) * count for count in fleet.counts) for fleet in self.fleets
        )
        self._faces: dict[tuple, list[tuple[int, ...]]] = {}
        self._rolls: dict[tuple, list[Roll]] = {}
        self._volleys: dict[tuple, list[tuple[SideState, Number]]] = {}
        self._assign: dict[tuple, SideState] = {}
        self._options: dict[tuple, tuple[SideState, ...]] = {}
        self._vectors: tuple[dict, dict] = ({}, {})  # per side: state -> (sum, _damage_vector)
        # Optimal play: value (attacker's win + half a draw) before each cannon activation of a
        # round-start state, and before each missile activation.
        self._table: Any = None  # optimal play: rounds.solve_rounds's V[k, a, d] and local indices
        self._local: list[dict[SideState, int]] = []
        self.exact = isinstance(one, Fraction)
        self._missile_value: list[dict[BattleState, Number]] = []
        self._ids: tuple[dict[SideState, int], dict[SideState, int]] = ({}, {})
        self._states: tuple[list[SideState], list[SideState]] = ([], [])
        self._counts: tuple[list[tuple[int, ...]], list[tuple[int, ...]]] = ([], [])
        self._trans: dict[tuple[int, int, int], tuple] = {}
        self._pd: dict[tuple, tuple] = {}
        self.regen = any(ship.regenerate for fleet in self.fleets for ship in fleet.types)
        if self.regen and isinstance(one, Fraction):
            raise ValueError("regeneration makes the exact solution iterative: use floats, not fractions")
        self._node_value: dict[BattleState, list[Number]] = {}
        self._repaired: dict[BattleState, BattleState] = {}   # regenerated()'s, memoised
        self._solved = False
        for side, fleet in enumerate(self.fleets):
            policy_ = self.policies[side]
            if self.fleets[1 - side].point_defense and any(fleet.types[i].missiles for i in range(len(fleet.ships))) \
                    and not self.optimal[side] and not hasattr(policy_, "place"):
                raise TypeError(f"{policy_!r} cannot fire missiles at point defense: it has no place() method")

    def tick(self, amount: int = 1) -> None:
        self.work += amount
        if self.work > self.budget:
            raise CombatTooLarge(
                f"exact odds of {format_fleet(self.fleets[0])} vs {format_fleet(self.fleets[1])} need "
                f"more than {self.budget:,} steps of work (the battle has up to {self.state_bound():,} "
                "states); use Monte-Carlo (simulate_odds, --mc) or smaller fleets"
            )

    def tick_solve(self, m: int) -> None:
        """Charge a dense ``m`` by ``m`` linear solve: its m² entries, and its m³ multiply-adds at
        ten thousand a step (numpy's, against the solver's Python steps of about a microsecond)."""
        self.tick(m * m + m**3 // 10_000)

    def check_estimate(self) -> None:
        """Refuse up front (:class:`CombatTooLarge`) a battle whose :meth:`work_estimate` is more
        than :data:`ESTIMATE_MARGIN` times the budget, before any work: only with regeneration,
        where repair spreads damage over the ships so the battle reaches most of its states (a
        fixed policy without it piles damage on few ships and reaches a tiny share of them); a
        battle without regeneration is refused when its :meth:`reach_estimate` is more than
        :data:`REACH_MARGIN` times the budget."""
        if not self.regen:
            reach = self.reach_estimate()
            if reach > REACH_MARGIN * self.budget:
                why = (f"would need about {reach:.2g} steps of work, more than {REACH_MARGIN} times the "
                       f"budget of {self.budget:,}" if math.isfinite(reach) else
                       f"would reach more than {REACH_CAP:,} damage states of one side")
                raise CombatTooLarge(
                    f"exact odds of {format_fleet(self.fleets[0])} vs {format_fleet(self.fleets[1])} {why} "
                    f"(the battle has up to {_count(self.state_bound(reachable=True))} states); "
                    "use Monte-Carlo (simulate_odds, --mc) or smaller fleets"
                )
            return
        estimate = self.work_estimate()
        if estimate > ESTIMATE_MARGIN * self.budget:
            raise CombatTooLarge(
                f"exact odds of {format_fleet(self.fleets[0])} vs {format_fleet(self.fleets[1])} would "
                f"need about {estimate:.2g} steps of work, more than {ESTIMATE_MARGIN} times the budget of "
                f"{self.budget:,} (the battle has up to {self.state_bound(reachable=True):,} states); "
                "use Monte-Carlo (simulate_odds, --mc) or smaller fleets"
            )

    def work_estimate(self) -> int:
        """A cheap estimate of the solver's work, before any is done: :meth:`state_bound` (each
        ship's damage levels counted as only those the enemy's dice and its own repair can make)
        times the work of one engagement round from a state with every ship alive (each armed
        type's distinct rolls, each charged its hits times the enemy's ships, as :meth:`assign`
        is). An overestimate where a battle ends before reaching most of its states."""
        per_round = 0
        for act in self.missile_acts + self.cannon_acts:
            count = self.fleets[act.side].counts[act.index]
            enemy_fleet = self.fleets[1 - act.side]
            enemy = tuple((0,) * c for c in enemy_fleet.counts)
            categories = len(set(self.faces(act, enemy, False)))
            dice = act.ship.missiles + act.ship.cannons
            rolls = math.prod(math.comb(dice.count(v) * count + categories - 1, categories - 1)
                              for v in set(dice))
            per_round += rolls * (1 + len(dice) * count * sum(enemy_fleet.counts))
        return self.state_bound(reachable=True) * max(1, per_round)

    def reach_estimate(self) -> float:
        """The solver's work estimated from the damage states each side can reach (a battle
        without regeneration), before any of it is done: :meth:`side_reach` of both sides; the
        assignments (each state a side reaches, times each distinct volley of the enemy's full
        fleet; a fixed policy weighs a quarter of the volley's hits times the living ships, as
        :meth:`assign` charges, an optimal side half its hits) plus the battle states (pairs of
        side states) times the distinct cannon volleys of half the shooters. ``inf`` when a side
        reaches more than :data:`REACH_CAP` states."""
        reach = [self.side_reach(side) for side in (0, 1)]
        if None in reach:
            return math.inf
        r0, r1 = reach[0] or 0, reach[1] or 0
        assign = push = 0
        for missile, act in [(True, a) for a in self.missile_acts] + [(False, a) for a in self.cannon_acts]:
            count = self.fleets[act.side].counts[act.index]
            enemy_fleet = self.fleets[1 - act.side]
            enemy = tuple((0,) * c for c in enemy_fleet.counts)
            categories = len(set(self.faces(act, enemy, missile)))
            dice = act.ship.missiles if missile else act.ship.cannons

            def distinct(shooters: int) -> int:
                return math.prod(math.comb(dice.count(v) * shooters + categories - 1, categories - 1)
                                 for v in set(dice))
            hits = len(dice) * count
            weigh = hits // 2 if self.optimal[act.side] else hits * sum(enemy_fleet.counts) // 4
            assign += (r1 if act.side == 0 else r0) * distinct(count) * max(1, weigh)
            if not missile:
                push += r0 * r1 * distinct((count + 1) // 2)
        return float(assign + push)

    def side_reach(self, side: int) -> int | None:
        """How many damage states of ``side`` the enemy's hits can lead to, one hit at a time
        (every die's damage at every target set a face gives; a fixed policy places it by its
        rule, an optimal side on any ship), or ``None`` past :data:`REACH_CAP`."""
        fleet = self.fleets[side]
        hulls = [ship.hull for ship in fleet.types]
        start = tuple((0,) * c for c in fleet.counts)
        seen, todo = {start}, [start]
        acts = [a for a in self.acts if a.side != side]
        optimal = self.optimal[1 - side]
        splitter = self.fleets[1 - side].antimatter_splitter
        while todo:
            st = todo.pop()
            for act in acts:
                for missile, dice in ((True, act.ship.missiles), (False, act.ship.cannons)):
                    damages = set(dice)
                    if not missile and splitter and ANTIMATTER in damages:
                        damages.add(1)
                    for targets in set(self.faces(act, st, missile)):
                        for damage in damages if targets else ():
                            if optimal:
                                found = set()
                                for t in targets:
                                    for d in set(st[t]):
                                        rest = list(st[t])
                                        rest.remove(d)
                                        if d + damage <= hulls[t]:
                                            rest.append(d + damage)
                                            rest.sort(reverse=True)
                                        found.add(st[:t] + (tuple(rest),) + st[t + 1:])
                            else:
                                placed = self.policies[act.side].assign(  # type: ignore[union-attr]
                                    fleet.types, st, (Hit(damage, targets),))
                                found = {tuple(tuple(sorted(ds, reverse=True)) for ds in placed)}
                            for new in found - seen:
                                seen.add(new)
                                todo.append(new)
                                if len(seen) > REACH_CAP:
                                    return None
        return len(seen)

    def _damage_levels(self, side: int, ship: ShipType) -> int:
        """How many damages 0..hull a ship of ``side`` can carry (from 0, adding any damage an
        enemy die deals, 1 for each part of a split antimatter die, and removing its repair)."""
        enemy = self.fleets[1 - side]
        steps = {d for s in enemy.types for d in s.cannons + s.missiles}
        if enemy.antimatter_splitter and ANTIMATTER in steps:
            steps.add(1)
        seen, todo = {0}, [0]
        while todo:
            d = todo.pop()
            nxt = [d + s for s in steps if d + s <= ship.hull]
            if ship.regenerate:
                nxt.append(max(0, d - ship.regenerate))
            for n in nxt:
                if n not in seen:
                    seen.add(n)
                    todo.append(n)
        return len(seen)

    def state_bound(self, reachable: bool = False) -> int:
        """How many battle states there can be: per ship type, the multisets of its ships' damage
        (0 to hull, or destroyed), multiplied over both fleets (an upper bound: not all are
        reached)."""
        if not reachable:
            return math.prod(math.comb(count + ship.hull + 1, ship.hull + 1)
                             for fleet in self.fleets for ship, count in fleet.ships)
        levels = [(count, self._damage_levels(side, ship) + 1)   # (+1: destroyed)
                  for side, fleet in enumerate(self.fleets) for ship, count in fleet.ships]
        return math.prod(math.comb(count + n - 1, n - 1) for count, n in levels)

    # -- helpers -----------------------------------------------------------------------------
    def faces(self, act: _Act, enemy: SideState, missile: bool) -> list[tuple[int, ...]]:
        """``faces[r-1]``: enemy type indices a roll of ``r`` hits."""
        alive = tuple(j for j, ds in enumerate(enemy) if ds)
        key = (act.side, act.index, alive, missile)
        table = self._faces.get(key)
        if table is None:
            target_fleet = self.fleets[1 - act.side]
            extra = 2 if (missile and target_fleet.distortion_shield) else 0
            comp = act.ship.computer
            table = []
            for r in range(1, 7):
                if r == 1:
                    table.append(())
                elif r == 6:
                    table.append(alive)
                else:
                    table.append(
                        tuple(j for j in alive if r + comp - target_fleet.types[j].shield - extra >= 6)
                    )
            self._faces[key] = table
        return table

    def make_hits(self, act: _Act, rolled: Iterable[tuple[int, tuple[int, ...]]], missile: bool) -> tuple[Hit, ...]:
        split = (not missile) and self.fleets[act.side].antimatter_splitter
        hits: list[Hit] = []
        for damage, targets in rolled:
            if not targets:
                continue
            if split and damage == ANTIMATTER:
                hits.extend([Hit(1, targets)] * ANTIMATTER)
            else:
                hits.append(Hit(damage, targets))
        hits.sort(key=lambda h: (-h.damage, len(h.targets), h.targets))
        return tuple(hits)

    def assign(self, act: _Act, enemy: SideState, hits: tuple[Hit, ...]) -> SideState:
        """The enemy's state after ``act``'s fixed policy assigns ``hits``."""
        if not hits:
            return enemy
        key = (act.side, enemy, hits)
        new = self._assign.get(key)
        if new is None:
            # a fixed policy weighs each hit against each living enemy ship: charged so (a huge
            # fleet's few volleys cost as much as a small one's many, and meet the budget soon)
            self.tick(len(hits) * max(1, sum(map(len, enemy))))
            types = self.fleets[1 - act.side].types
            new = self.policies[act.side].assign(types, enemy, hits)  # type: ignore[union-attr]
            new = tuple(tuple(sorted(ds, reverse=True)) for ds in new)
            self._assign[key] = new
        return new

    def options(self, act: _Act, enemy: SideState, hits: tuple[Hit, ...]) -> tuple[SideState, ...]:
        """Every enemy state the firing side may leave after assigning ``hits`` (for a fixed
        policy, the one it picks), in canonical order; dominated ones dropped when pruning."""
        if not self.optimal[act.side]:
            return (self.assign(act, enemy, hits),)
        key = (act.side, enemy, hits)
        found = self._options.get(key)
        if found is not None:
            return found
        hulls = [ship.hull for ship in self.fleets[1 - act.side].types]
        partial = {enemy}
        for hit in hits:
            nxt: set[SideState] = set()
            grown = 0
            for st in partial:
                self.tick(1 + len(nxt) - grown)  # as it grows, so one step cannot run away
                grown = len(nxt)
                placed = False
                for t in hit.targets:
                    ds = st[t]
                    for d in set(ds):
                        placed = True
                        rest = list(ds)
                        rest.remove(d)
                        if d + hit.damage <= hulls[t]:
                            rest.append(d + hit.damage)
                            rest.sort(reverse=True)
                        nxt.add(st[:t] + (tuple(rest),) + st[t + 1:])
                if not placed:  # every ship this die can reach is already destroyed
                    nxt.add(st)
            self.tick(len(nxt) - grown)
            partial = self._maximal(nxt, 1 - act.side) if self.prune else nxt
        found = tuple(sorted(partial))
        self._options[key] = found
        return found

    def _maximal(self, states: set[SideState], side: int) -> set[SideState]:
        """The states of ``side`` no other state dominates (:func:`_damage_vector`: compared as
        flat vectors; a dominating state sorts first, having the larger vector sum)."""
        cache = self._vectors[side]
        vectors = []
        for st in states:
            found = cache.get(st)
            if found is None:
                fleet = self.fleets[side]
                v = _damage_vector(st, [ship.hull for ship in fleet.types], fleet.counts)
                found = cache[st] = (sum(v), v)
            vectors.append((found[0], found[1], st))
        vectors.sort(key=lambda svs: svs[0], reverse=True)
        kept: list[tuple[int, ...]] = []
        out: set[SideState] = set()
        for _, v, st in vectors:
            self.tick(1 + len(kept))
            if not any(all(map(ge, k, v)) for k in kept):
                kept.append(v)
                out.add(st)
        return out

    @staticmethod
    def finished(state: BattleState) -> bool:
        return not any(state[0]) or not any(state[1])

    def armed(self, state: BattleState) -> bool:
        return any(state[a.side][a.index] for a in self.cannon_acts)

    def outcome(self, state: BattleState, stalemate: bool = False) -> Outcome:
        att = tuple(len(ds) for ds in state[0])
        dfn = tuple(len(ds) for ds in state[1])
        if stalemate:
            if self.stalemate is Stalemate.DRAW:
                return Outcome(None, att, dfn)
            if self.stalemate is Stalemate.ATTACKER_DESTROYED:
                return Outcome(Side.DEFENDER, (0,) * len(att), dfn)
            return Outcome(Side.DEFENDER, att, dfn)
        if not any(state[1]) and any(state[0]):
            return Outcome(Side.ATTACKER, att, dfn)
        # Defender survives, or both sides are gone (cannot happen in sequential fire, kept safe).
        return Outcome(Side.DEFENDER, att, dfn)

    def side_progress(self, side: int, st: SideState) -> int:
        """Damage dealt to one side so far, a destroyed ship counting its hull + 1."""
        return sum(
            sum(ds) + (count - len(ds)) * (ship.hull + 1)
            for (ship, count), ds in zip(self.fleets[side].ships, st)
        )

    def progress(self, state: BattleState) -> int:
        return self.side_progress(0, state[0]) + self.side_progress(1, state[1])

    @staticmethod
    def merge(state: BattleState, act: _Act, new_enemy: SideState) -> BattleState:
        return (state[0], new_enemy) if act.side == 0 else (new_enemy, state[1])

    # -- exact -------------------------------------------------------------------------------
    def rolls(self, act: _Act, enemy: SideState, shooters: int, missile: bool) -> list[Roll]:
        """The distinct hit lists one volley of ``shooters`` ships of ``act`` can produce, with
        their probabilities (exact integer counts over ``6**dice``: no float overflow)."""
        table = self.faces(act, enemy, missile)
        key = (act.side, act.index, shooters, table[-1], missile)
        cached = self._rolls.get(key)
        if cached is not None:
            return cached
        cats: dict[tuple[int, ...], int] = {}
        for targets in table:
            cats[targets] = cats.get(targets, 0) + 1
        categories = list(cats.items())  # (targets, faces)
        per_die = act.ship.missiles if missile else act.ship.cannons
        by_damage: dict[int, int] = {}
        for d in per_die:
            by_damage[d] = by_damage.get(d, 0) + shooters
        group_outcomes = []
        for damage, n in by_damage.items():
            options = []
            for split in _compositions(n, len(categories)):
                ways = math.factorial(n)
                for c, (_, faces) in zip(split, categories):
                    ways = ways // math.factorial(c) * faces**c
                rolled = [(damage, categories[i][0]) for i, c in enumerate(split) for _ in range(c)]
                options.append((rolled, ways))
                self.tick(n)
            group_outcomes.append(options)
        counts: dict[tuple[Hit, ...], int] = {}
        for combo in itertools.product(*group_outcomes):
            ways = 1
            rolled: list[tuple[int, tuple[int, ...]]] = []
            for part, w in combo:
                ways *= w
                rolled.extend(part)
            hits = self.make_hits(act, rolled, missile)
            self.tick(len(rolled))
            counts[hits] = counts.get(hits, 0) + ways
        total = 6 ** sum(by_damage.values())
        if isinstance(self.one, Fraction):
            out: list[Roll] = [(h, Fraction(w, total)) for h, w in counts.items()]
        else:
            out = [(h, w / total) for h, w in counts.items()]  # int / int: correctly rounded
        self._rolls[key] = out
        return out

    def volley(self, act: _Act, enemy: SideState, shooters: int, missile: bool) -> list[tuple[SideState, Number]]:
        """Distribution of the enemy's state after one volley under ``act``'s fixed policy."""
        key = (act.side, act.index, shooters, enemy, missile)
        cached = self._volleys.get(key)
        if cached is not None:
            return cached
        result: dict[SideState, Number] = {}
        for hits, p in self.rolls(act, enemy, shooters, missile):
            new = self.assign(act, enemy, hits)
            result[new] = result.get(new, 0) + p
        out = list(result.items())
        self._volleys[key] = out
        return out

    def moves(self, state: BattleState, pos: int, missile: bool) -> list[tuple[SideState, Number]]:
        """Distribution of the enemy's state after activation ``pos`` (of the missile or cannon
        sequence) fires from ``state``; an optimal side picks its best option per roll."""
        act = (self.missile_acts if missile else self.cannon_acts)[pos]
        enemy = state[1 - act.side]
        shooters = len(state[act.side][act.index])
        result: dict[SideState, Number] = {}
        if missile and self.point_defense(act, enemy):
            for hits, p in self.rolls(act, enemy, shooters, missile):
                for new, q in self.pd_volley(state, pos, hits)[0] if hits else [(enemy, self.one)]:
                    result[new] = result.get(new, 0) + p * q
            return list(result.items())
        if not self.optimal[act.side]:
            return self.volley(act, enemy, shooters, missile)
        for hits, p in self.rolls(act, enemy, shooters, missile):
            new = self.choose(state, act, pos, missile, hits)[0] if hits else enemy
            result[new] = result.get(new, 0) + p
        return list(result.items())

    def ending(self, state: BattleState) -> Outcome | None:
        """The outcome of a battle that is over in ``state`` (a side destroyed, or no cannon left
        on either side: a stalemate), else ``None``."""
        if self.finished(state):
            return self.outcome(state)
        if not self.armed(state):
            return self.outcome(state, stalemate=True)
        return None

    def terminal_value(self, state: BattleState) -> Number | None:
        """The attacker's value of a battle that is over in ``state``, else ``None``."""
        o = self.ending(state)
        if o is None:
            return None
        if o.winner is None:
            return self.one / 2
        return self.one if o.winner is Side.ATTACKER else 0 * self.one

    def value(self, state: BattleState, pos: int, missile: bool) -> Number:
        """The attacker's value (win + half a draw, optimal play) before activation ``pos``."""
        if missile:
            if pos < len(self.missile_acts):
                return self._missile_value[pos][state]
            pos = 0
        v = self.terminal_value(state)
        if v is not None:
            return v
        if self.regen:
            return self._node_value[state][pos]
        v = self._table[pos, self._local[0][state[0]], self._local[1][state[1]]]
        return v if self.exact else float(v)

    def choose(self, state: BattleState, act: _Act, pos: int, missile: bool, hits: tuple[Hit, ...]) -> tuple[SideState, Number]:
        """The optimal side's best option for ``hits`` and its value for the attacker."""
        best: tuple[SideState, Number] | None = None
        for new_enemy in self.options(act, state[1 - act.side], hits):
            if missile:
                v = self.value(self.merge(state, act, new_enemy), pos + 1, True)
            else:
                v = self.value(*self.next_node(self.merge(state, act, new_enemy), pos), False)
            if best is None or (v > best[1] if act.side == 0 else v < best[1]):
                best = (new_enemy, v)
        assert best is not None
        return best

    def regenerated(self, state: BattleState) -> BattleState:
        """``state`` after the end of an engagement round: regenerating ships repair."""
        if not self.regen:
            return state
        found = self._repaired.get(state)
        if found is None:
            self.tick(sum(map(len, state[0])) + sum(map(len, state[1])))   # every living ship repairs
            found = self._repaired[state] = tuple(  # type: ignore[assignment]
                tuple(
                    tuple(sorted((max(0, d - ship.regenerate) for d in ds), reverse=True)) if ship.regenerate else ds
                    for ship, ds in zip(fleet.types, side)
                )
                for fleet, side in zip(self.fleets, state)
            )
        return found

    def next_node(self, state: BattleState, pos: int) -> tuple[BattleState, int]:
        """Where the battle goes once cannon activation ``pos`` has left ``state``."""
        if pos + 1 < len(self.cannon_acts):
            return state, pos + 1
        return self.regenerated(state), 0


def _count(n: int) -> str:
    """``n`` with thousands separators, or in scientific notation past 15 digits."""
    return f"{n:,}" if n < 10**15 else f"{n:.3g}"


def _compositions(n: int, k: int) -> Iterator[tuple[int, ...]]:
    """All ``k``-tuples of non-negative integers summing to ``n``."""
    if k == 1:
        yield (n,)
        return
    for first in range(n, -1, -1):
        for rest in _compositions(n - first, k - 1):
            yield (first, *rest)
