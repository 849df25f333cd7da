"""Exact and Monte-Carlo combat odds for Eclipse, first edition (+ Rise of the Ancients parts).

Entry points
------------
* :func:`combat_odds` — the exact probability of every battle outcome (who wins and how many ships
  of each type survive on each side), computed by forward propagation over canonical battle states.
* :func:`simulate_odds` — the same result shape estimated by Monte-Carlo with a seeded
  :class:`random.Random`; :meth:`Odds.std_error` gives standard errors.
* :func:`parse_fleet` / :func:`format_fleet` — the compact text notation (see :func:`parse_fleet`).
* :func:`outcome_rows` / :func:`survival_rows` — an :class:`Odds` as rows of strings for a table.

Combat rules modelled (first edition; sources: ../shared/rules/eclipse.md §2.5 and §4, the Rise of
the Ancients rulebook for the rare technologies):

1. Missiles: every ship type with missile dice fires them once, in initiative order, before the
   first engagement round.
2. Engagement rounds, repeated: every ship type fires all its cannons, in initiative order (higher
   first; ties go to the defender; ties within one side go in fleet order).
3. A die hits on a natural 6, never on a natural 1, otherwise when
   ``die + attacker's computer - target's shield >= 6``. Ion (Y) = 1 damage, plasma (O) = 2,
   antimatter (R) = 4. A ship is destroyed when its damage exceeds its hull value.
4. One die's damage goes to one ship, except that a side with the *Antimatter Splitter* rare
   technology may split each antimatter **cannon** die's 4 damage freely among ships that this die
   hits (RotA rulebook, rare technologies: the roll must hit every ship that receives damage).
   This is modelled by turning each such die into four 1-damage hits with the same targets.
5. *Distortion Shield* (RotA rare technology): enemy missiles get -2 to hit this side (a natural 6
   still hits).
6. The battle ends when one side has no ships. If neither side has a cannon left (so nothing can
   ever change) the battle is a stalemate, resolved by :class:`Stalemate` — by default a defender
   win, as in ../shared/rules/eclipse-combat-oracle.md (the 1st-edition wording is unconfirmed,
   eclipse.md §4 case 16).

Rounds in which nothing changes may repeat for ever. They are handled exactly: every change of a
battle state strictly increases the *progress* measure (total damage on living ships plus hull+1
for every destroyed ship), so the chain of round-start states is acyclic apart from self-loops,
and a state left with probability ``1 - p_stay`` passes on its mass divided by ``1 - p_stay``
(the geometric series), states being visited in increasing progress.

Not modelled: retreat, point defense, regeneration (Morph Shield and regenerating ancients),
population bombing, more than two parties.
"""

from __future__ import annotations

import enum
import heapq
import itertools
import math
import random
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from fractions import Fraction
from typing import NamedTuple, Protocol, TypeAlias, runtime_checkable

import attrs

__all__ = [
    "SizeClass",
    "ShipType",
    "Fleet",
    "Side",
    "Stalemate",
    "Outcome",
    "Odds",
    "Hit",
    "SideState",
    "Policy",
    "NpcPolicy",
    "FocusFirePolicy",
    "NPC_POLICY",
    "DEFAULT_POLICY",
    "PRESETS",
    "preset",
    "combat_odds",
    "simulate_odds",
    "parse_fleet",
    "format_fleet",
    "format_ship",
    "outcome_rows",
    "survival_rows",
    "OUTCOME_HEADERS",
    "SURVIVAL_HEADERS",
]

ION, PLASMA, ANTIMATTER = 1, 2, 4
"""Damage of one die by colour: yellow, orange, red (eclipse-data.md §3, tile art)."""

_DIE_LETTER = {"Y": ION, "O": PLASMA, "R": ANTIMATTER}
_LETTER_DIE = {v: k for k, v in _DIE_LETTER.items()}


class SizeClass(enum.Enum):
    """What kind of hull a ship type is; ``rank`` orders them for "largest ship" rules.

    Ranks follow the blueprint slot count (interceptor 4 < starbase 5 < cruiser 6 < dreadnought 8,
    eclipse-data.md §4); the NPC ranks are a documented choice (NPCs never fight each other).
    """

    INTERCEPTOR = "interceptor"
    STARBASE = "starbase"
    CRUISER = "cruiser"
    DREADNOUGHT = "dreadnought"
    ANCIENT = "ancient"
    ANCIENT_CRUISER = "ancient-cruiser"
    ANCIENT_DREADNOUGHT = "ancient-dreadnought"
    GCDS = "gcds"

    @property
    def rank(self) -> int:
        return _RANK[self]

    @property
    def is_npc(self) -> bool:
        return self in _NPC_CLASSES


_RANK = {
    SizeClass.INTERCEPTOR: 1,
    SizeClass.STARBASE: 2,
    SizeClass.CRUISER: 3,
    SizeClass.ANCIENT: 3,
    SizeClass.ANCIENT_CRUISER: 3,
    SizeClass.DREADNOUGHT: 4,
    SizeClass.ANCIENT_DREADNOUGHT: 4,
    SizeClass.GCDS: 5,
}
_NPC_CLASSES = frozenset(
    {SizeClass.ANCIENT, SizeClass.ANCIENT_CRUISER, SizeClass.ANCIENT_DREADNOUGHT, SizeClass.GCDS}
)


def _dice(value: Iterable[int]) -> tuple[int, ...]:
    return tuple(sorted((int(v) for v in value), reverse=True))


def _check_dice(_inst: object, attribute: attrs.Attribute, value: tuple[int, ...]) -> None:
    if any(v < 1 for v in value):
        raise ValueError(f"{attribute.name}: die damage must be a positive integer, got {value}")


@attrs.frozen
class ShipType:
    """One ship blueprint as it fights.

    ``initiative``, ``hull`` (extra hit points: destroyed when damage > hull), ``computer`` (added to
    the die) and ``shield`` (its magnitude, subtracted from enemy dice: a Gauss Shield is 1) are
    non-negative integers. ``cannons`` and ``missiles`` list the damage of each die (1 = ion,
    2 = plasma, 4 = antimatter), kept sorted largest first. Raises ``ValueError`` for negative stats
    or non-positive dice.
    """

    name: str
    size: SizeClass = attrs.field(converter=SizeClass)
    initiative: int = attrs.field(validator=attrs.validators.ge(0))
    hull: int = attrs.field(validator=attrs.validators.ge(0))
    computer: int = attrs.field(default=0, validator=attrs.validators.ge(0))
    shield: int = attrs.field(default=0, validator=attrs.validators.ge(0))
    cannons: tuple[int, ...] = attrs.field(default=(), converter=_dice, validator=_check_dice)
    missiles: tuple[int, ...] = attrs.field(default=(), converter=_dice, validator=_check_dice)

    @property
    def firepower(self) -> float:
        """Expected cannon damage per round against an unshielded target (a targeting heuristic)."""
        faces = min(5, max(1, self.computer + 1))
        return sum(self.cannons) * faces / 6


def _groups(value: Iterable[tuple[ShipType, int]]) -> tuple[tuple[ShipType, int], ...]:
    return tuple((ship, int(count)) for ship, count in value)


def _check_groups(_inst: object, _attr: attrs.Attribute, value: tuple[tuple[ShipType, int], ...]) -> None:
    names = [ship.name for ship, _ in value]
    if len(set(names)) != len(names):
        raise ValueError(f"a fleet lists each ship type once, got names {names}")
    for ship, count in value:
        if not isinstance(ship, ShipType):
            raise ValueError(f"not a ShipType: {ship!r}")
        if count < 1:
            raise ValueError(f"{ship.name}: count must be at least 1, got {count}")


@attrs.frozen
class Fleet:
    """One side of a battle: ``ships`` is a tuple of ``(ShipType, count)`` with distinct names.

    Side flags: ``antimatter_splitter`` and ``distortion_shield`` (RotA rare technologies, see the
    module docstring) and ``npc`` (Ancients / GCDS / ancient cruisers and dreadnoughts: chooses
    :data:`NPC_POLICY` when no policy is given). Raises ``ValueError`` for a repeated name or a
    count below 1.
    """

    ships: tuple[tuple[ShipType, int], ...] = attrs.field(converter=_groups, validator=_check_groups)
    antimatter_splitter: bool = False
    distortion_shield: bool = False
    npc: bool = False

    @property
    def types(self) -> tuple[ShipType, ...]:
        return tuple(ship for ship, _ in self.ships)

    @property
    def counts(self) -> tuple[int, ...]:
        return tuple(count for _, count in self.ships)

    def __str__(self) -> str:
        return format_fleet(self)


class Side(enum.Enum):
    ATTACKER = "attacker"
    DEFENDER = "defender"


class Stalemate(enum.Enum):
    """How a battle neither side can finish (no cannons left on either side) is scored.

    ``DEFENDER_WINS`` (default, the oracle's convention): defender wins, both keep their ships.
    ``DRAW``: no winner, both keep their ships. ``ATTACKER_DESTROYED``: defender wins and the
    attacker's ships are lost (Second Dawn's rule when the attacker cannot retreat — a candidate
    for the 1st edition, unconfirmed).
    """

    DEFENDER_WINS = "defender-wins"
    DRAW = "draw"
    ATTACKER_DESTROYED = "attacker-destroyed"


@attrs.frozen(order=True)
class Outcome:
    """One end of a battle: ``winner`` (``None`` for a draw) and the surviving ship count of each
    ship type on each side, in fleet order."""

    winner: Side | None = attrs.field(order=lambda w: "" if w is None else w.value)
    attacker: tuple[int, ...]
    defender: tuple[int, ...]


Number: TypeAlias = "float | Fraction"


@attrs.frozen
class Odds:
    """The distribution of battle outcomes.

    ``outcomes`` maps :class:`Outcome` to probability (floats, or ``Fraction`` when asked for);
    the probabilities sum to 1. ``runs`` is ``None`` for an exact result, else the number of
    Monte-Carlo battles behind the estimates.
    """

    attacker: Fleet
    defender: Fleet
    outcomes: Mapping[Outcome, Number]
    stalemate: Stalemate = Stalemate.DEFENDER_WINS
    runs: int | None = None

    @property
    def exact(self) -> bool:
        return self.runs is None

    def win_probability(self, side: Side | str | None) -> Number:
        """P(``side`` wins); ``None`` gives P(draw)."""
        side = None if side is None else Side(side)
        return sum((p for o, p in self.outcomes.items() if o.winner is side), 0)

    def survival(self, side: Side | str, ship: str | int, at_least: int = 1) -> Number:
        """P(at least ``at_least`` ships of type ``ship`` (name or index) on ``side`` survive the
        battle), whoever wins. Raises ``KeyError`` for an unknown ship name."""
        side = Side(side)
        fleet = self.attacker if side is Side.ATTACKER else self.defender
        index = ship if isinstance(ship, int) else _index_of(fleet, ship)
        total: Number = 0
        for outcome, p in self.outcomes.items():
            counts = outcome.attacker if side is Side.ATTACKER else outcome.defender
            if counts[index] >= at_least:
                total += p
        return total

    def std_error(self, p: float) -> float:
        """Standard error of a probability ``p`` estimated from ``runs`` battles (0 if exact)."""
        if self.runs is None:
            return 0.0
        p = float(p)
        return math.sqrt(max(p * (1 - p), 0.0) / self.runs)

    def total(self) -> Number:
        return sum(self.outcomes.values(), 0)


def _index_of(fleet: Fleet, name: str) -> int:
    for i, ship in enumerate(fleet.types):
        if ship.name.lower() == name.lower():
            return i
    raise KeyError(f"no ship type named {name!r} in fleet {format_fleet(fleet)}")


# --------------------------------------------------------------------------------------- policies

SideState: TypeAlias = tuple[tuple[int, ...], ...]
"""Damage on each living ship of one side: per ship type (fleet order) a tuple of damages sorted
largest first. Ships of one type with equal damage are interchangeable, so this is canonical."""


class Hit(NamedTuple):
    """One die (or, with the Antimatter Splitter, one point of a split antimatter die) that hit:
    its ``damage`` and the ``targets`` — indices of the enemy ship types this roll hits."""

    damage: int
    targets: tuple[int, ...]


@runtime_checkable
class Policy(Protocol):
    """How a side assigns the hits of one volley (one ship type firing).

    ``assign(ships, state, hits)`` receives the enemy's ship types, the enemy's :data:`SideState`
    and the hits (sorted largest damage first, then narrowest targets) and returns the enemy's new
    state: every hit goes to at most one living ship of a type in its ``targets`` (damage beyond
    destruction is lost; a hit may be dropped only when it can reach no living ship); destroyed
    ships are removed. It must be deterministic and pure — results are memoised.
    """

    name: str

    def assign(self, ships: Sequence[ShipType], state: SideState, hits: Sequence[Hit]) -> SideState: ...


PriorityKey: TypeAlias = Callable[[ShipType, int, int], tuple]


def _cheapest_kill(usable: list[tuple[int, Hit]], need: int) -> list[int] | None:
    """Positions (into the caller's hit list) of hits totalling >= ``need`` with the least total
    damage, then the fewest dice, using the narrowest hits of each damage value; None if impossible."""
    if sum(h.damage for _, h in usable) < need:
        return None
    by_value: dict[int, list[tuple[int, Hit]]] = {}
    for pos, hit in usable:
        by_value.setdefault(hit.damage, []).append((pos, hit))
    values = sorted(by_value)
    for v in values:
        by_value[v].sort(key=lambda ph: (len(ph[1].targets), ph[0]))
    ranges = [range(min(len(by_value[v]), -(-need // v)) + 1) for v in values]
    best: tuple[int, int] | None = None
    best_counts: tuple[int, ...] = ()
    for counts in itertools.product(*ranges):
        dealt = sum(c * v for c, v in zip(counts, values))
        if dealt < need:
            continue
        key = (dealt, sum(counts))
        if best is None or key < best:
            best, best_counts = key, counts
    chosen: list[int] = []
    for v, c in zip(values, best_counts):
        chosen.extend(pos for pos, _ in by_value[v][:c])
    return chosen


def _greedy_assign(
    ships: Sequence[ShipType], state: SideState, hits: Sequence[Hit], priority: PriorityKey
) -> SideState:
    """Kill the highest-priority ship the remaining hits can destroy (cheapest way), repeat; then
    put every left-over hit on the highest-priority living ship it can reach."""
    alive = [[t, d] for t, damages in enumerate(state) for d in damages]
    remaining = list(hits)

    def ordered() -> list[list[int]]:
        return sorted(alive, key=lambda s: priority(ships[s[0]], s[0], s[1]), reverse=True)

    while remaining and alive:
        for ship in ordered():
            t, d = ship
            usable = [(i, h) for i, h in enumerate(remaining) if t in h.targets]
            chosen = _cheapest_kill(usable, ships[t].hull + 1 - d) if usable else None
            if chosen is not None:
                alive.remove(ship)
                drop = set(chosen)
                remaining = [h for i, h in enumerate(remaining) if i not in drop]
                break
        else:
            break
    if remaining and alive:
        order = ordered()
        for hit in remaining:
            for ship in order:
                if ship[0] in hit.targets:
                    ship[1] += hit.damage
                    break
    result: list[list[int]] = [[] for _ in state]
    for t, d in alive:
        result[t].append(d)
    return tuple(tuple(sorted(ds, reverse=True)) for ds in result)


@attrs.frozen
class NpcPolicy:
    """The NPC targeting rule (Ancients, GCDS, RotA ancient ships): destroy the largest ship you
    can, largest first; if none can be destroyed, do the most damage to the largest ships
    (eclipse.md §2.5 "NPC hit assignment"; Second-Dawn text, believed identical in 1st ed).

    "Largest" is :attr:`SizeClass.rank`, ties broken by the most damaged ship, then fleet order.
    A kill uses the hits of least total damage (then fewest dice, then narrowest targets).
    """

    name: str = "npc"

    @staticmethod
    def priority(ship: ShipType, index: int, damage: int) -> tuple:
        return (ship.size.rank, damage, -index)

    def assign(self, ships: Sequence[ShipType], state: SideState, hits: Sequence[Hit]) -> SideState:
        return _greedy_assign(ships, state, hits, self.priority)


@attrs.frozen
class FocusFirePolicy:
    """Default player policy ("focus fire"): repeatedly destroy the ship with the most firepower
    per damage point still needed to destroy it (:attr:`ShipType.firepower` / (hull + 1 - damage)),
    ties to the larger, then more damaged ship; left-over hits are piled on the living ship ranked
    highest by the same key, so damage concentrates instead of spreading.

    A heuristic, not optimal play; in forced situations (all oracle battles) it agrees with the NPC
    rule.
    """

    name: str = "focus-fire"

    @staticmethod
    def priority(ship: ShipType, index: int, damage: int) -> tuple:
        need = max(1, ship.hull + 1 - damage)
        return (ship.firepower / need, ship.size.rank, damage, -index)

    def assign(self, ships: Sequence[ShipType], state: SideState, hits: Sequence[Hit]) -> SideState:
        return _greedy_assign(ships, state, hits, self.priority)


NPC_POLICY = NpcPolicy()
DEFAULT_POLICY = FocusFirePolicy()


# ------------------------------------------------------------------------------------------ solver

BattleState: TypeAlias = tuple[SideState, SideState]  # (attacker, defender)


class _Act(NamedTuple):
    side: int  # 0 attacker, 1 defender
    index: int
    ship: ShipType


class _Battle:
    """Shared machinery of the exact solver and the simulator for one pair of fleets."""

    def __init__(
        self,
        attacker: Fleet,
        defender: Fleet,
        attacker_policy: Policy | None,
        defender_policy: Policy | None,
        stalemate: Stalemate,
        one: Number,
    ) -> None:
        if not attacker.ships and not defender.ships:
            raise ValueError("both fleets are empty")
        self.fleets = (attacker, defender)
        self.policies = tuple(
            p if p is not None else (NPC_POLICY if f.npc else DEFAULT_POLICY)
            for p, f in ((attacker_policy, attacker), (defender_policy, defender))
        )
        for p in self.policies:
            if not isinstance(p, Policy):
                raise TypeError(f"not a Policy: {p!r}")
        self.stalemate = Stalemate(stalemate)
        self.one = one
        self.sixth = one / 6
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
        self._volleys: dict[tuple, list[tuple[SideState, Number]]] = {}
        self._assign: dict[tuple, SideState] = {}

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
        if not hits:
            return enemy
        key = (act.side, enemy, hits)
        new = self._assign.get(key)
        if new is None:
            types = self.fleets[1 - act.side].types
            new = self.policies[act.side].assign(types, enemy, hits)
            new = tuple(tuple(sorted(ds, reverse=True)) for ds in new)
            self._assign[key] = new
        return new

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

    def progress(self, state: BattleState) -> int:
        total = 0
        for fleet, side in zip(self.fleets, state):
            for (ship, count), ds in zip(fleet.ships, side):
                total += sum(ds) + (count - len(ds)) * (ship.hull + 1)
        return total

    # -- exact -------------------------------------------------------------------------------
    def volley(self, act: _Act, enemy: SideState, shooters: int, missile: bool) -> list[tuple[SideState, Number]]:
        key = (act.side, act.index, shooters, enemy, missile)
        cached = self._volleys.get(key)
        if cached is not None:
            return cached
        table = self.faces(act, enemy, missile)
        cats: dict[tuple[int, ...], int] = {}
        for targets in table:
            cats[targets] = cats.get(targets, 0) + 1
        categories = list(cats.items())  # (targets, faces)
        probs = [self.sixth * n for _, n in categories]
        per_die = act.ship.missiles if missile else act.ship.cannons
        by_damage: dict[int, int] = {}
        for d in per_die:
            by_damage[d] = by_damage.get(d, 0) + shooters
        group_outcomes = []
        for damage, n in by_damage.items():
            options = []
            for split in _compositions(n, len(categories)):
                p = math.factorial(n) * self.one
                for c, q in zip(split, probs):
                    if c:
                        p = p * q**c / math.factorial(c)
                rolled = [(damage, categories[i][0]) for i, c in enumerate(split) for _ in range(c)]
                options.append((rolled, p))
            group_outcomes.append(options)
        result: dict[SideState, Number] = {}
        for combo in itertools.product(*group_outcomes):
            p = self.one
            rolled: list[tuple[int, tuple[int, ...]]] = []
            for part, q in combo:
                p = p * q
                rolled.extend(part)
            new = self.assign(act, enemy, self.make_hits(act, rolled, missile))
            result[new] = result.get(new, 0) + p
        out = list(result.items())
        self._volleys[key] = out
        return out

    def phase(self, dist: dict[BattleState, Number], acts: list[_Act], missile: bool) -> dict[BattleState, Number]:
        for act in acts:
            nxt: dict[BattleState, Number] = {}
            for state, p in dist.items():
                shooters = len(state[act.side][act.index])
                if shooters == 0 or self.finished(state):
                    nxt[state] = nxt.get(state, 0) + p
                    continue
                enemy = state[1 - act.side]
                for new_enemy, q in self.volley(act, enemy, shooters, missile):
                    new = (state[0], new_enemy) if act.side == 0 else (new_enemy, state[1])
                    nxt[new] = nxt.get(new, 0) + p * q  # type: ignore[index]
            dist = nxt
        return dist

    def solve(self) -> dict[Outcome, Number]:
        outcomes: dict[Outcome, Number] = {}

        def settle(state: BattleState, p: Number) -> bool:
            if self.finished(state):
                o = self.outcome(state)
            elif not self.armed(state):
                o = self.outcome(state, stalemate=True)
            else:
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
                a = inflow[state] = [0] * n if n else [0]
                heapq.heappush(heap, (self.progress(state), next(counter), state))
            a[step] += p

        start = {self.start: self.one}
        if self.missile_acts:
            start = self.phase(start, self.missile_acts, missile=True)
        for state, p in start.items():
            push(state, 0, p)
        while heap:
            _, _, state = heapq.heappop(heap)
            a = inflow.pop(state)
            if not self.armed(state):
                settle(state, sum(a, 0 * self.one))
                continue
            moves: list[list[tuple[BattleState, Number, Outcome | None]]] = []
            q: list[Number] = []
            for act in acts:
                shooters = len(state[act.side][act.index])
                if not shooters:
                    moves.append([])
                    q.append(self.one)
                    continue
                enemy = state[1 - act.side]
                out = []
                stay: Number = 0 * self.one
                for new_enemy, p in self.volley(act, enemy, shooters, False):
                    if new_enemy == enemy:
                        stay += p
                        continue
                    new = (state[0], new_enemy) if act.side == 0 else (new_enemy, state[1])
                    done = None if any(new_enemy) else self.outcome(new)  # type: ignore[arg-type]
                    out.append((new, p, done))
                moves.append(out)
                q.append(stay)
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
                nxt = (k + 1) % n
                for new, p, done in moves[k]:
                    if done is not None:
                        outcomes[done] = outcomes.get(done, 0) + x * p
                        continue
                    b = inflow.get(new)
                    if b is None:
                        b = inflow[new] = [0] * n
                        heapq.heappush(heap, (self.progress(new), next(counter), new))
                    b[nxt] += x * p
        return outcomes

    # -- Monte-Carlo ---------------------------------------------------------------------------
    def fire_random(self, state: BattleState, act: _Act, rng: random.Random, missile: bool) -> BattleState:
        shooters = len(state[act.side][act.index])
        if shooters == 0:
            return state
        enemy = state[1 - act.side]
        table = self.faces(act, enemy, missile)
        per_die = act.ship.missiles if missile else act.ship.cannons
        rnd = rng.random
        rolled = [(d, table[int(rnd() * 6)]) for _ in range(shooters) for d in per_die]
        new_enemy = self.assign(act, enemy, self.make_hits(act, rolled, missile))
        return (state[0], new_enemy) if act.side == 0 else (new_enemy, state[1])

    def simulate(self, rng: random.Random) -> Outcome:
        state = self.start
        for act in self.missile_acts:
            if self.finished(state):
                return self.outcome(state)
            state = self.fire_random(state, act, rng, missile=True)
        while True:
            if self.finished(state):
                return self.outcome(state)
            if not self.armed(state):
                return self.outcome(state, stalemate=True)
            for act in self.cannon_acts:
                state = self.fire_random(state, act, rng, missile=False)
                if self.finished(state):
                    return self.outcome(state)


def _compositions(n: int, k: int) -> Iterator[tuple[int, ...]]:
    """All ``k``-tuples of non-negative integers summing to ``n``."""
    if k == 1:
        yield (n,)
        return
    for first in range(n, -1, -1):
        for rest in _compositions(n - first, k - 1):
            yield (first, *rest)


def _sorted_outcomes(outcomes: dict[Outcome, Number]) -> dict[Outcome, Number]:
    return dict(sorted(outcomes.items(), key=lambda kv: kv[0]))


def combat_odds(
    attacker: Fleet,
    defender: Fleet,
    attacker_policy: Policy | None = None,
    defender_policy: Policy | None = None,
    *,
    stalemate: Stalemate | str = Stalemate.DEFENDER_WINS,
    fractions: bool = False,
) -> Odds:
    """Exact outcome distribution of a battle between ``attacker`` and ``defender``.

    Policies default to :data:`NPC_POLICY` for an ``npc`` fleet and :data:`DEFAULT_POLICY`
    otherwise. ``stalemate`` scores battles nobody can finish (:class:`Stalemate`). With
    ``fractions=True`` the probabilities are exact ``Fraction`` values (slower) instead of floats.
    Returns an :class:`Odds` with ``runs=None``. Raises ``ValueError`` if both fleets are empty and
    ``TypeError`` for an object that is not a :class:`Policy`.
    """
    one: Number = Fraction(1) if fractions else 1.0
    battle = _Battle(attacker, defender, attacker_policy, defender_policy, Stalemate(stalemate), one)
    return Odds(attacker, defender, _sorted_outcomes(battle.solve()), battle.stalemate, None)


def simulate_odds(
    attacker: Fleet,
    defender: Fleet,
    attacker_policy: Policy | None = None,
    defender_policy: Policy | None = None,
    *,
    runs: int = 10_000,
    seed: int | random.Random | None = 0,
    stalemate: Stalemate | str = Stalemate.DEFENDER_WINS,
) -> Odds:
    """Monte-Carlo estimate of :func:`combat_odds` from ``runs`` simulated battles.

    ``seed`` is an int (or ``None``) for a fresh :class:`random.Random`, or a ``Random`` to use.
    Returns an :class:`Odds` whose probabilities are frequencies and whose ``runs`` is set, so
    :meth:`Odds.std_error` gives the standard error of any probability derived from it.
    Raises ``ValueError`` if ``runs < 1`` or both fleets are empty.
    """
    if runs < 1:
        raise ValueError(f"runs must be at least 1, got {runs}")
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    battle = _Battle(attacker, defender, attacker_policy, defender_policy, Stalemate(stalemate), 1.0)
    counts: dict[Outcome, int] = {}
    for _ in range(runs):
        o = battle.simulate(rng)
        counts[o] = counts.get(o, 0) + 1
    freq = {o: c / runs for o, c in counts.items()}
    return Odds(attacker, defender, _sorted_outcomes(freq), battle.stalemate, runs)


# ---------------------------------------------------------------------------------------- notation

PRESETS: dict[str, ShipType] = {
    # 1st-edition default blueprints, eclipse-data.md §4 (boards; stats D: calculator presets agree).
    "interceptor": ShipType("interceptor", SizeClass.INTERCEPTOR, 3, 0, 0, 0, (ION,)),
    "cruiser": ShipType("cruiser", SizeClass.CRUISER, 2, 1, 1, 0, (ION,)),
    "dreadnought": ShipType("dreadnought", SizeClass.DREADNOUGHT, 1, 2, 1, 0, (ION, ION)),
    "starbase": ShipType("starbase", SizeClass.STARBASE, 4, 2, 1, 0, (ION,)),
    # NPCs, eclipse-data.md §5 (tile art): Ancient 2/1/+1/0 2 ion; 1st-edition GCDS 0/7/+1/0 4 ion.
    "ancient": ShipType("ancient", SizeClass.ANCIENT, 2, 1, 1, 0, (ION, ION)),
    "gcds": ShipType("gcds", SizeClass.GCDS, 0, 7, 1, 0, (ION,) * 4),
}


def preset(name: str) -> ShipType:
    """The 1st-edition default ship ``name`` (see :data:`PRESETS`); ``KeyError`` if unknown."""
    return PRESETS[name.lower()]


_FLAGS = {
    "splitter": "antimatter_splitter",
    "antimatter-splitter": "antimatter_splitter",
    "distortion": "distortion_shield",
    "distortion-shield": "distortion_shield",
    "npc": "npc",
    "player": "player",
}
_COUNT = re.compile(r"(\d+)\s*(?:[x×*]\s*)?")
_NAME = re.compile(r"([A-Za-z][\w\-]*)(?::([A-Za-z][\w\-]*))?")
_STATS = re.compile(r"([+-]?\d+)\s*/\s*([+-]?\d+)\s*/\s*([+-]?\d+)\s*/\s*([+-]?\d+)(?:\s+(.*))?", re.S)
_DIE = re.compile(r"(\d*)([YORyor])")


def _parse_dice(text: str, where: str) -> tuple[int, ...]:
    compact = re.sub(r"[\s+]", "", text)
    if compact in ("", "-", "0"):
        return ()
    dice: list[int] = []
    pos = 0
    while pos < len(compact):
        m = _DIE.match(compact, pos)
        if not m:
            raise ValueError(
                f"{where}: bad dice {text.strip()!r}; write e.g. '2Y', '1O 1R' or 'YYR' "
                "(Y = ion, O = plasma, R = antimatter; '-' for none)"
            )
        count = int(m.group(1)) if m.group(1) else 1
        dice.extend([_DIE_LETTER[m.group(2).upper()]] * count)
        pos = m.end()
    return tuple(dice)


def _parse_group(item: str) -> tuple[ShipType, int]:
    text = item.strip()
    pos = 0
    count = 1
    m = _COUNT.match(text)
    if m:
        count = int(m.group(1))
        pos = m.end()
    m = _NAME.match(text, pos)
    if not m:
        raise ValueError(f"{item.strip()!r}: expected '[count] name[:class] [(init/hull/computer/shield; cannons; missiles)]'")
    name, cls = m.group(1), m.group(2)
    rest = text[m.end():].strip()
    if count < 1:
        raise ValueError(f"{item.strip()!r}: count must be at least 1")
    if not rest:
        if cls is not None or name.lower() not in PRESETS:
            raise ValueError(
                f"{item.strip()!r}: give stats '(init/hull/computer/shield; cannons; missiles)' "
                f"or use a preset name ({', '.join(PRESETS)})"
            )
        return PRESETS[name.lower()], count
    if rest.startswith("("):
        if not rest.endswith(")"):
            raise ValueError(f"{item.strip()!r}: unbalanced parenthesis")
        rest = rest[1:-1].strip()
    parts = rest.split(";")
    if len(parts) > 3:
        raise ValueError(f"{item.strip()!r}: too many ';' (stats; cannons; missiles)")
    sm = _STATS.fullmatch(parts[0].strip())
    if not sm:
        raise ValueError(f"{item.strip()!r}: stats must be init/hull/computer/shield, e.g. 3/0/+1/-1")
    init, hull, comp, shield = (int(sm.group(i)) for i in range(1, 5))
    cannon_text = sm.group(5) or ""
    if len(parts) >= 2:
        if cannon_text.strip():
            raise ValueError(f"{item.strip()!r}: cannons given twice")
        cannon_text = parts[1]
    missile_text = parts[2] if len(parts) == 3 else ""
    if init < 0 or hull < 0 or comp < 0:
        raise ValueError(f"{item.strip()!r}: initiative, hull and computer cannot be negative")
    size_name = (cls or name).lower()
    try:
        size = SizeClass(size_name)
    except ValueError:
        raise ValueError(
            f"{item.strip()!r}: unknown size class {size_name!r}; name the ship after a class or "
            f"write name:class with class one of {', '.join(s.value for s in SizeClass)}"
        ) from None
    ship = ShipType(
        name=name,
        size=size,
        initiative=init,
        hull=hull,
        computer=comp,
        shield=abs(shield),  # printed shields are negative (Gauss -1); accept either sign
        cannons=_parse_dice(cannon_text, item.strip()),
        missiles=_parse_dice(missile_text, item.strip()),
    )
    return ship, count


def parse_fleet(text: str) -> Fleet:
    """Parse the fleet notation: comma-separated ship groups and ``+flag`` items.

    A group is ``[count[x]] name[:class] [(init/hull/computer/shield; cannons; missiles)]``:

    * ``2 interceptor`` — a preset (:data:`PRESETS`: interceptor, cruiser, dreadnought, starbase,
      ancient, gcds);
    * ``2 interceptor(3/0/+1/0; 1O)`` or ``2 interceptor 3/0/+1/0 1O`` — custom stats; the name is
      the size class unless written ``name:class`` (``3 raider:interceptor(...)``);
    * dice: ``Y`` ion, ``O`` plasma, ``R`` antimatter, with optional counts: ``2Y``, ``YYR``,
      ``1O 1Y``; ``-`` or nothing for none. Missiles are the third field: ``(2/1/1/0; Y; 2O)``.
    * shields may be written negative as printed (``-1``) or as a magnitude (``1``).

    Flags: ``+splitter`` (Antimatter Splitter), ``+distortion`` (Distortion Shield), ``+npc``
    (use the NPC targeting rule; implied when every ship is an NPC class unless ``+player`` is
    given). Example:
    ``"1 dreadnought(1/2/+1/0; 2R), +splitter"``. Returns a :class:`Fleet`; raises ``ValueError``
    (with the offending item) for anything else, including an empty fleet.
    """
    if not isinstance(text, str):
        raise ValueError(f"fleet text must be a string, got {type(text).__name__}")
    items = _split_top(text)
    groups: list[tuple[ShipType, int]] = []
    flags: dict[str, bool] = {}
    for item in items:
        stripped = item.strip()
        if not stripped:
            raise ValueError(f"empty item in fleet {text!r}")
        if stripped.startswith("+"):
            flag = stripped[1:].strip().lower()
            if flag not in _FLAGS:
                raise ValueError(f"unknown flag {stripped!r}; known: {', '.join('+' + f for f in _FLAGS)}")
            flags[_FLAGS[flag]] = True
            continue
        ship, count = _parse_group(stripped)
        for i, (other, n) in enumerate(groups):
            if other.name.lower() == ship.name.lower():
                if other != ship:
                    raise ValueError(f"{stripped!r}: ship name {ship.name!r} used with different stats")
                groups[i] = (other, n + count)
                break
        else:
            groups.append((ship, count))
    if not groups:
        raise ValueError(f"no ships in fleet {text!r}")
    player = flags.pop("player", False)
    if player and flags.get("npc"):
        raise ValueError(f"fleet {text!r} has both +npc and +player")
    if not player and all(ship.size.is_npc for ship, _ in groups):
        flags["npc"] = True
    return Fleet(tuple(groups), **flags)


def _split_top(text: str) -> list[str]:
    items, depth, current = [], 0, []
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth < 0:
                raise ValueError(f"unbalanced ')' in fleet {text!r}")
        if ch == "," and depth == 0:
            items.append("".join(current))
            current = []
        else:
            current.append(ch)
    if depth:
        raise ValueError(f"unbalanced '(' in fleet {text!r}")
    items.append("".join(current))
    return items


def _format_dice(dice: tuple[int, ...]) -> str:
    if not dice:
        return "-"
    parts = []
    for damage in sorted(set(dice), reverse=True):
        letter = _LETTER_DIE.get(damage)
        if letter is None:
            raise ValueError(f"no die letter for damage {damage}")
        parts.append(f"{dice.count(damage)}{letter}")
    return " ".join(parts)


def format_ship(ship: ShipType) -> str:
    """``name[:class](init/hull/+computer/shield; cannons[; missiles])`` — parseable."""
    label = ship.name if ship.name.lower() == ship.size.value else f"{ship.name}:{ship.size.value}"
    spec = f"{ship.initiative}/{ship.hull}/+{ship.computer}/{ship.shield}; {_format_dice(ship.cannons)}"
    if ship.missiles:
        spec += f"; {_format_dice(ship.missiles)}"
    return f"{label}({spec})"


def format_fleet(fleet: Fleet) -> str:
    """The notation of :func:`parse_fleet` for ``fleet`` (round-trips)."""
    items = [f"{count} {format_ship(ship)}" for ship, count in fleet.ships]
    if fleet.antimatter_splitter:
        items.append("+splitter")
    if fleet.distortion_shield:
        items.append("+distortion")
    all_npc = all(ship.size.is_npc for ship, _ in fleet.ships)
    if fleet.npc and not all_npc:
        items.append("+npc")
    elif not fleet.npc and all_npc:
        items.append("+player")
    return ", ".join(items)


# ------------------------------------------------------------------------------------------ tables

OUTCOME_HEADERS = ("winner", "attacker survivors", "defender survivors", "probability")
SURVIVAL_HEADERS = ("side", "ship", "survivors >=", "probability")


def _survivors(fleet: Fleet, counts: tuple[int, ...]) -> str:
    parts = [f"{n} {ship.name}" for ship, n in zip(fleet.types, counts) if n]
    return ", ".join(parts) if parts else "-"


def _prob(odds: Odds, p: Number) -> str:
    text = f"{float(p):.4f}"
    if odds.runs is not None:
        text += f" ± {odds.std_error(float(p)):.4f}"
    return text


def outcome_rows(odds: Odds) -> list[tuple[str, str, str, str]]:
    """Rows under :data:`OUTCOME_HEADERS`: first one row per winner (``attacker``, ``defender``,
    ``draw`` if possible) with survivors ``all outcomes``, then every outcome, most likely first.
    Probabilities have four decimals, with ``± standard error`` for a Monte-Carlo result."""
    rows: list[tuple[str, str, str, str]] = []
    winners: list[Side | None] = [Side.ATTACKER, Side.DEFENDER]
    if any(o.winner is None for o in odds.outcomes):
        winners.append(None)
    for w in winners:
        rows.append(("draw" if w is None else w.value, "all outcomes", "", _prob(odds, odds.win_probability(w))))
    for o, p in sorted(odds.outcomes.items(), key=lambda kv: -float(kv[1])):
        rows.append(
            (
                "draw" if o.winner is None else o.winner.value,
                _survivors(odds.attacker, o.attacker),
                _survivors(odds.defender, o.defender),
                _prob(odds, p),
            )
        )
    return rows


def survival_rows(odds: Odds) -> list[tuple[str, str, str, str]]:
    """Rows under :data:`SURVIVAL_HEADERS`: P(at least k ships of each type survive), per side,
    type and k = 1..count."""
    rows = []
    for side, fleet in ((Side.ATTACKER, odds.attacker), (Side.DEFENDER, odds.defender)):
        for i, (ship, count) in enumerate(fleet.ships):
            for k in range(1, count + 1):
                rows.append((side.value, ship.name, str(k), _prob(odds, odds.survival(side, i, k))))
    return rows
