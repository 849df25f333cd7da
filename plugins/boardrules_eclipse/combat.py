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
   *Point Defense* (RotA rare technology; ../shared/rules/eclipse-rota-rules.md §1 and
   eclipse.md §4 case 14): after the enemy has rolled and placed the missile hits of one ship
   type, and before they land, every cannon die of this side's living ships rolls once; each die
   that hits (natural 6, never a natural 1, else die + computer >= 6; shields do not count)
   destroys one incoming missile of this side's choice (an antimatter die with the Antimatter
   Splitter up to four: its damage split among missiles). Optimal play chooses which; a fixed
   policy destroys the largest missiles first, those aimed at the largest, then most damaged
   ship first [X]. Every missile volley meets point defense (the "per ship type" reading).
6. *Regeneration* (Morph Shield, regenerating Ancients; RotA, eclipse-rota-rules.md): after every
   engagement round each ship of a type with ``regenerate = r`` repairs ``r`` damage. Repairs
   can undo progress, so these battles are solved iteratively (floats only, to within 1e-13).
7. The battle ends when one side has no ships. If neither side has a cannon left (so nothing can
   ever change), or, with regeneration, the battle can never end, it is a stalemate, resolved by :class:`Stalemate` — by default a defender
   win, as in ../shared/rules/eclipse-combat-oracle.md (the 1st-edition wording is unconfirmed,
   eclipse.md §4 case 16).

Rounds in which nothing changes may repeat for ever. They are handled exactly: every change of a
battle state strictly increases the *progress* measure (total damage on living ships plus hull+1
for every destroyed ship), so the chain of round-start states is acyclic apart from self-loops,
and a state left with probability ``1 - p_stay`` passes on its mass divided by ``1 - p_stay``
(the geometric series), states being visited in increasing progress.

Who assigns hits how is a *policy* per side: the NPC rule (:data:`NPC_POLICY`, or
:data:`NPC_SPREAD_POLICY` where the rule leaves a choice, :class:`NpcTies`), the focus-fire
heuristic (:data:`FOCUS_FIRE_POLICY`, the default for players), or optimal play
(:data:`OPTIMAL_POLICY`; winning is defined in :class:`OptimalPolicy`). Optimal play is solved
exactly as a two-player zero-sum stochastic game with perfect information: every battle state
that any assignment can reach is enumerated, then the attacker's value (P(win) + P(draw)/2) is
computed in decreasing progress, each side taking the best of its options after every roll, with
the same closed form for the "nothing hit" cycle of a round. When both sides play optimally,
assignments that leave the enemy strictly less damaged than another option are dropped: more
damage on the enemy never lowers a side's value, since the damaged side's choices and dice can
be mirrored in the less damaged one. Cost grows with the number of battle states (the product
of both sides' damage patterns); a work budget stops oversized problems with
:class:`CombatTooLarge` (see ``bench/bench_combat.py`` for timings).

Input limits (:data:`MAX_SHIPS`, :data:`MAX_STAT`, :data:`MAX_DICE`, :data:`MAX_RUNS`) keep
hostile fleets from exhausting the process; dice probabilities are exact integer counts over
``6**dice``, so no float overflows however many dice roll.

Not modelled: retreat (under the winning objective it never helps the side that retreats, see
:class:`OptimalPolicy`), population bombing, more than two parties.
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
from operator import mul
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
    "NpcTies",
    "OptimalPolicy",
    "NPC_POLICY",
    "NPC_SPREAD_POLICY",
    "FOCUS_FIRE_POLICY",
    "DEFAULT_POLICY",
    "OPTIMAL_POLICY",
    "POLICIES",
    "policy",
    "CombatTooLarge",
    "MAX_SHIPS",
    "MAX_STAT",
    "MAX_DICE",
    "MAX_RUNS",
    "DEFAULT_BUDGET",
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
    if any(not 1 <= v <= MAX_DICE for v in value):
        raise ValueError(f"{attribute.name}: die damage must be an integer from 1 to {MAX_DICE}, got {value}")
    if len(value) > MAX_DICE:
        raise ValueError(f"{attribute.name}: at most {MAX_DICE} dice per ship, got {len(value)}")


def _check_stat(_inst: object, attribute: attrs.Attribute, value: int) -> None:
    if not 0 <= value <= MAX_STAT:
        raise ValueError(f"{attribute.name} must be an integer from 0 to {MAX_STAT}, got {value}")


@attrs.frozen
class ShipType:
    """One ship blueprint as it fights.

    ``initiative``, ``hull`` (extra hit points: destroyed when damage > hull), ``computer`` (added to
    the die) and ``shield`` (its magnitude, subtracted from enemy dice: a Gauss Shield is 1) are
    integers from 0 to :data:`MAX_STAT`. ``cannons`` and ``missiles`` list the damage of each die
    (1 = ion, 2 = plasma, 4 = antimatter; at most :data:`MAX_DICE` dice of at most that damage),
    kept sorted largest first. ``regenerate``: damage removed from each ship of this type after
    every engagement round (Morph Shield, regenerating Ancients; RotA). Raises ``ValueError`` for
    a value out of range.
    """

    name: str
    size: SizeClass = attrs.field(converter=SizeClass)
    initiative: int = attrs.field(validator=_check_stat)
    hull: int = attrs.field(validator=_check_stat)
    computer: int = attrs.field(default=0, validator=_check_stat)
    shield: int = attrs.field(default=0, validator=_check_stat)
    cannons: tuple[int, ...] = attrs.field(default=(), converter=_dice, validator=_check_dice)
    missiles: tuple[int, ...] = attrs.field(default=(), converter=_dice, validator=_check_dice)
    regenerate: int = attrs.field(default=0, validator=_check_stat)

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
    total = sum(count for _, count in value)
    if total > MAX_SHIPS:
        raise ValueError(f"a fleet has at most {MAX_SHIPS} ships, got {total}")


@attrs.frozen
class Fleet:
    """One side of a battle: ``ships`` is a tuple of ``(ShipType, count)`` with distinct names.

    Side flags: ``antimatter_splitter``, ``distortion_shield`` and ``point_defense`` (RotA rare
    technologies, see the module docstring) and ``npc`` (Ancients / GCDS / ancient cruisers and dreadnoughts: chooses
    :data:`NPC_POLICY` when no policy is given). Raises ``ValueError`` for a repeated name, a
    count below 1 or more than :data:`MAX_SHIPS` ships.
    """

    ships: tuple[tuple[ShipType, int], ...] = attrs.field(converter=_groups, validator=_check_groups)
    antimatter_splitter: bool = False
    distortion_shield: bool = False
    npc: bool = False
    point_defense: bool = False

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


Placement: TypeAlias = tuple[tuple[tuple[int, tuple[int, ...]], ...], ...]
"""Where the hits of one volley go before they land: per enemy ship type, per living ship (sorted
largest first) its damage and the damage of each hit placed on it (largest first)."""


def _canonical(entries: Iterable[Iterable[tuple[int, Iterable[int]]]]) -> Placement:
    return tuple(
        tuple(sorted(((d, tuple(sorted(hs, reverse=True))) for d, hs in ship_list), reverse=True))
        for ship_list in entries
    )


def land(ships: Sequence[ShipType], placement: Placement) -> SideState:
    """The enemy's state once every placed hit lands: destroyed ships (damage > hull) removed."""
    return tuple(
        tuple(sorted((d + sum(hs) for d, hs in entries if d + sum(hs) <= ships[t].hull), reverse=True))
        for t, entries in enumerate(placement)
    )


def _greedy_place(
    ships: Sequence[ShipType],
    state: SideState,
    hits: Sequence[Hit],
    priority: PriorityKey,
    leftover: PriorityKey | None = None,
) -> Placement:
    """Kill the highest-``priority`` ship the remaining hits can destroy (cheapest way), repeat;
    then put each left-over hit, largest first, on the living ship it can reach that ranks highest
    by ``leftover`` (default ``priority``), re-ranking after every hit."""
    # [type, damage with the hits placed so far, damage before the volley, hits placed]
    alive: list[list] = [[t, d, d, []] for t, damages in enumerate(state) for d in damages]
    done: list[list] = []
    remaining = list(hits)

    def ordered(key: PriorityKey) -> list[list]:
        return sorted(alive, key=lambda s: key(ships[s[0]], s[0], s[1]), reverse=True)

    while remaining and alive:
        for ship in ordered(priority):
            t, d = ship[0], ship[1]
            usable = [(i, h) for i, h in enumerate(remaining) if t in h.targets]
            chosen = _cheapest_kill(usable, ships[t].hull + 1 - d) if usable else None
            if chosen is not None:
                alive.remove(ship)
                done.append(ship)
                ship[3].extend(remaining[i].damage for i in chosen)
                drop = set(chosen)
                remaining = [h for i, h in enumerate(remaining) if i not in drop]
                break
        else:
            break
    # No remaining subset can destroy a ship any more, so piling or spreading kills nothing.
    for hit in remaining:
        for ship in ordered(leftover or priority):
            if ship[0] in hit.targets:
                ship[1] += hit.damage
                ship[3].append(hit.damage)
                break
    entries: list[list[tuple[int, list[int]]]] = [[] for _ in state]
    for t, _, d0, placed in alive + done:
        entries[t].append((d0, placed))
    return _canonical(entries)


class NpcTies(enum.Enum):
    """Where the NPC rule leaves a choice: hits that destroy nothing, among equally large ships.

    ``CONCENTRATE`` (the default) piles them on the most damaged of the largest ships, so the
    next volley may finish it; ``SPREAD`` puts each hit on the least damaged of the largest ships
    it can reach. The rule text ("inflict as much damage as possible, largest first",
    ../shared/rules/eclipse.md §2.5) does not say which; both are our choice [X].
    """

    CONCENTRATE = "concentrate"
    SPREAD = "spread"


@attrs.frozen
class NpcPolicy:
    """The NPC targeting rule (Ancients, GCDS, RotA ancient ships): destroy the largest ship you
    can, largest first; if none can be destroyed, do the most damage to the largest ships
    (eclipse.md §2.5 "NPC hit assignment"; Second-Dawn text, believed identical in 1st ed).

    "Largest" is :attr:`SizeClass.rank`, ties broken by the most damaged ship, then fleet order.
    A kill uses the hits of least total damage (then fewest dice, then narrowest targets).
    ``ties`` (:class:`NpcTies`) settles hits that destroy nothing among equally large ships.
    """

    ties: NpcTies = attrs.field(default=NpcTies.CONCENTRATE, converter=NpcTies)

    @property
    def name(self) -> str:
        return "npc" if self.ties is NpcTies.CONCENTRATE else f"npc-{self.ties.value}"

    @staticmethod
    def priority(ship: ShipType, index: int, damage: int) -> tuple:
        return (ship.size.rank, damage, -index)

    @staticmethod
    def spread(ship: ShipType, index: int, damage: int) -> tuple:
        return (ship.size.rank, -damage, -index)

    def assign(self, ships: Sequence[ShipType], state: SideState, hits: Sequence[Hit]) -> SideState:
        return land(ships, self.place(ships, state, hits))

    def place(self, ships: Sequence[ShipType], state: SideState, hits: Sequence[Hit]) -> Placement:
        """Where the hits go, before they land (point defense needs it)."""
        leftover = self.spread if self.ties is NpcTies.SPREAD else None
        return _greedy_place(ships, state, hits, self.priority, leftover)


@attrs.frozen
class FocusFirePolicy:
    """The "focus fire" heuristic for players: repeatedly destroy the ship with the most firepower
    per damage point still needed to destroy it (:attr:`ShipType.firepower` / (hull + 1 - damage)),
    ties to the larger, then more damaged ship; left-over hits are piled on the living ship ranked
    highest by the same key, so damage concentrates instead of spreading.

    A heuristic, not optimal play (see :data:`OPTIMAL_POLICY`); in forced situations (all oracle
    battles) it agrees with the NPC rule.
    """

    name: str = "focus-fire"

    @staticmethod
    def priority(ship: ShipType, index: int, damage: int) -> tuple:
        need = max(1, ship.hull + 1 - damage)
        return (ship.firepower / need, ship.size.rank, damage, -index)

    def assign(self, ships: Sequence[ShipType], state: SideState, hits: Sequence[Hit]) -> SideState:
        return land(ships, self.place(ships, state, hits))

    def place(self, ships: Sequence[ShipType], state: SideState, hits: Sequence[Hit]) -> Placement:
        """Where the hits go, before they land (point defense needs it)."""
        return _greedy_place(ships, state, hits, self.priority)


@attrs.frozen
class OptimalPolicy:
    """Optimal play: every hit assignment of this side maximises its own chance of winning, given
    the rest of the battle (the other side optimal too, or playing its fixed policy).

    *Winning* means being the side left in the hex: the attacker wins when every defending ship is
    destroyed; the defender wins when every attacking ship is destroyed, and also a stalemate
    under :attr:`Stalemate.DEFENDER_WINS` or :attr:`Stalemate.ATTACKER_DESTROYED`. A draw
    (:attr:`Stalemate.DRAW`) counts half a win for each side, so the battle is a two-player
    zero-sum stochastic game with value ``P(attacker wins) + P(draw) / 2``, which the attacker
    maximises and the defender minimises. Surviving ships do not count.

    Retreat is not a decision here: under this objective it never helps the side that retreats
    (a retreating ship type gives up its fire and, once gone, no longer shields its fleet, and a
    side whose last ships leave has lost), so optimal play never retreats.

    Not a :class:`Policy`: the choice depends on the whole battle state, so only
    :func:`combat_odds` and :func:`simulate_odds` can play it (they solve the game exactly first).
    Among equally good assignments the first in canonical state order is taken.
    """

    name: str = "optimal"


NPC_POLICY = NpcPolicy()
"""The NPC rule, concentrating hits that destroy nothing (:class:`NpcTies`)."""
NPC_SPREAD_POLICY = NpcPolicy(NpcTies.SPREAD)
"""The NPC rule, spreading hits that destroy nothing over equally large ships."""
FOCUS_FIRE_POLICY = FocusFirePolicy()
DEFAULT_POLICY = FOCUS_FIRE_POLICY
"""The policy of a player fleet when none is given: :data:`FOCUS_FIRE_POLICY`."""
OPTIMAL_POLICY = OptimalPolicy()

AnyPolicy: TypeAlias = "Policy | OptimalPolicy"

POLICIES: dict[str, AnyPolicy] = {
    p.name: p for p in (OPTIMAL_POLICY, FOCUS_FIRE_POLICY, NPC_POLICY, NPC_SPREAD_POLICY)
}
"""Every shipped policy by name: ``optimal``, ``focus-fire``, ``npc``, ``npc-spread``."""


def policy(name: str) -> AnyPolicy:
    """The shipped policy called ``name`` (:data:`POLICIES`); ``ValueError`` naming the choices."""
    try:
        return POLICIES[name.strip().lower()]
    except KeyError:
        raise ValueError(f"unknown policy {name!r}; choose one of {', '.join(POLICIES)}") from None


# ------------------------------------------------------------------------------------------ limits

MAX_SHIPS = 60
"""Most ships in one fleet (three allied players' full supplies are 54, eclipse-data.md §4)."""
MAX_STAT = 99
"""Largest initiative, hull, computer or shield value accepted."""
MAX_DICE = 16
"""Most cannon dice, and most missile dice, on one ship type; a die deals at most this damage too."""
MAX_RUNS = 1_000_000
"""Most Monte-Carlo battles in one :func:`simulate_odds` call."""
MAX_SIM_ROUNDS = 1_000
"""Most engagement rounds of one Monte-Carlo battle; one still going then (regeneration healing
what the enemy's dice can deal) counts as a stalemate, as the exact solver counts a battle that
can never end. A battle that ends only after this many rounds has a negligible share."""
DEFAULT_BUDGET = 4_000_000
"""Default work budget of :func:`combat_odds`: battle states visited plus dice outcomes and hit
assignments enumerated. Enough for every supply-limited battle with the fixed policies (the
largest, upgraded supply against upgraded supply, needs about 1.3 million) and for 7 against 9
ships with optimal play on both sides (about 2.8 million); a few seconds to a minute of work."""


class CombatTooLarge(ValueError):
    """An exact solution would exceed the work budget; use :func:`simulate_odds` or a larger budget."""


# ------------------------------------------------------------------------------------------ solver

BattleState: TypeAlias = tuple[SideState, SideState]  # (attacker, defender)
Roll: TypeAlias = tuple[tuple[Hit, ...], Number]  # the hits of one volley and their probability


class _Act(NamedTuple):
    side: int  # 0 attacker, 1 defender
    index: int
    ship: ShipType


def _dominates(a: SideState, b: SideState) -> bool:
    """``a`` can be reached from ``b`` by adding damage (destroying ships included)."""
    for da, db in zip(a, b):
        if len(da) > len(db):
            return False
        # Destroyed ships are best taken from b's most damaged; then pair survivors by rank.
        for x, y in zip(reversed(da), reversed(db)):
            if x < y:
                return False
    return True


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


class _Battle:
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
        # Optimal play: value (attacker's win + half a draw) before each cannon activation of a
        # round-start state, and before each missile activation.
        self._rows: list[dict[int, dict[int, Number]]] = []
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
                f"more than {self.budget:,} steps of work; use Monte-Carlo (simulate_odds, --mc) or "
                "smaller fleets"
            )

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
            self.tick(len(hits))
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
            partial = self._maximal(nxt) if self.prune else nxt
        found = tuple(sorted(partial))
        self._options[key] = found
        return found

    def _maximal(self, states: set[SideState]) -> set[SideState]:
        """The states no other state dominates (a dominating state sorts first: it has no more
        living ships and, with as many, no less damage)."""

        def dealt(st: SideState) -> tuple[int, int]:
            return (-sum(map(len, st)), sum(map(sum, st)))

        kept: list[SideState] = []
        for st in sorted(states, key=dealt, reverse=True):
            self.tick(1 + len(kept))
            if not any(_dominates(k, st) for k in kept):
                kept.append(st)
        return set(kept)

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

    def terminal_value(self, state: BattleState) -> Number | None:
        """The attacker's value of a battle that is over in ``state``, else ``None``."""
        if self.finished(state):
            o = self.outcome(state)
        elif not self.armed(state):
            o = self.outcome(state, stalemate=True)
        else:
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
        return self._rows[pos][self._ids[0][state[0]]][self._ids[1][state[1]]]

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

    # -- point defense -------------------------------------------------------------------------
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
        patterns, successors first (a volley only ever adds damage)."""
        one, zero = self.one, 0 * self.one
        acts = self.cannon_acts
        n = len(acts)
        empty = [self.sid(side, tuple(() for _ in fleet.ships)) for side, fleet in enumerate(self.fleets)]
        counts = self._counts
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
        cannon_types = [{a.index for a in acts if a.side == side} for side in (0, 1)]
        armed = [
            {i: any(counts[side][i][t] for t in cannon_types[side]) for i in closure[side]} for side in (0, 1)
        ]
        rows: list[dict[int, dict[int, Number]]] = [{} for _ in acts]  # rows[k][a][d]
        cols: list[dict[int, dict[int, Number]]] = [{} for _ in acts]  # cols[k][d][a]
        self._rows = rows
        work = 0

        def row(k: int, a: int) -> dict[int, Number]:
            r = rows[k].get(a)
            if r is None:
                r = rows[k][a] = {empty[1]: one}
            return r

        def col(k: int, d: int) -> dict[int, Number]:
            c = cols[k].get(d)
            if c is None:
                c = cols[k][d] = {empty[0]: zero}
            return c

        for a, d in ((a, d) for d in closure[1] for a in closure[0]):
            if not (armed[0][a] or armed[1][d]):
                continue
            self.tick(work)
            work = 1
            c: list[Number] = []
            q: list[Number] = []
            for k, act in enumerate(acts):
                side = act.side
                shooters = counts[side][a if side == 0 else d][act.index]
                if not shooters:
                    c.append(zero)
                    q.append(one)
                    continue
                t = self.trans(k, shooters, d if side == 0 else a)
                work += len(t.forced) + len(t.choices)
                if side == 0:
                    get = row((k + 1) % n, a).__getitem__
                    best = max
                else:
                    get = col((k + 1) % n, d).__getitem__
                    best = min
                ck = sum(map(mul, t.forced_p, map(get, t.forced)), zero)
                if t.choices:
                    ck += sum(map(mul, t.choice_p, [best(map(get, ids)) for ids in t.choices]), zero)
                c.append(ck)
                q.append(t.miss)
            # x_k = c_k + q_k x_{k+1} around the round (x_n = x_0), solved in closed form.
            num, loop = zero, one
            for k in range(n):
                num += loop * c[k]
                loop *= q[k]
            x = nxt = num / (one - loop)
            row(0, a)[d] = col(0, d)[a] = x
            for k in range(n - 1, 0, -1):
                nxt = c[k] + q[k] * nxt
                row(k, a)[d] = col(k, d)[a] = nxt

    def regenerated(self, state: BattleState) -> BattleState:
        """``state`` after the end of an engagement round: regenerating ships repair."""
        if not self.regen:
            return state
        return tuple(  # type: ignore[return-value]
            tuple(
                tuple(sorted((max(0, d - ship.regenerate) for d in ds), reverse=True)) if ship.regenerate else ds
                for ship, ds in zip(fleet.types, side)
            )
            for fleet, side in zip(self.fleets, state)
        )

    def next_node(self, state: BattleState, pos: int) -> tuple[BattleState, int]:
        """Where the battle goes once cannon activation ``pos`` has left ``state``."""
        if pos + 1 < len(self.cannon_acts):
            return state, pos + 1
        return self.regenerated(state), 0

    def _iterate_values(self, post_missiles: list[BattleState]) -> None:
        """Engagement-round values with regeneration, which can undo damage, so states no longer
        follow one order: value iteration (Gauss-Seidel sweeps, most damaged states first) over
        every state any choice and repair can reach, until no value moves by 1e-13. Values start
        at the stalemate's, so play that can never end the battle scores as a stalemate."""
        acts = self.cannon_acts
        zero = 0 * self.one
        seen = set(post_missiles)
        stack = list(seen)
        while stack:
            state = stack.pop()
            self.tick()
            found = [self.regenerated(state)]
            for act in acts:
                shooters = len(state[act.side][act.index])
                enemy = state[1 - act.side]
                for hits, _ in self.rolls(act, enemy, shooters, False) if shooters else ():
                    for e in self.options(act, enemy, hits):
                        new = self.merge(state, act, e)
                        found += (new, self.regenerated(new))
            for new in found:
                if new not in seen and self.terminal_value(new) is None:
                    seen.add(new)
                    stack.append(new)
        stale = self.one / 2 if self.stalemate is Stalemate.DRAW else zero
        values = self._node_value = {state: [stale] * len(acts) for state in seen}
        order = sorted(seen, key=self.progress, reverse=True)
        while True:
            delta = 0.0
            for state in order:
                x = values[state]
                for k in range(len(acts) - 1, -1, -1):
                    act = acts[k]
                    shooters = len(state[act.side][act.index])
                    unchanged = self.value(*self.next_node(state, k), False)
                    v = unchanged
                    if shooters:
                        v = zero
                        for hits, p in self.rolls(act, state[1 - act.side], shooters, False):
                            v += p * (self.choose(state, act, k, False, hits)[1] if hits else unchanged)
                    delta = max(delta, abs(v - x[k]))
                    x[k] = v
                self.tick(len(acts))
            if delta < 1e-13:
                return

    def _solve_regen(self, start: dict[BattleState, Number]) -> dict[Outcome, Number]:
        """Outcome distribution with regeneration: the battle's mass is pushed one activation at a
        time until less than 1e-15 of it is still fighting. Mass in a state from which the battle
        can never end (damage repaired as fast as it can be dealt) is scored as a stalemate."""
        acts = self.cannon_acts
        edges: dict[tuple[BattleState, int], list[tuple[tuple[BattleState, int], Number]] | None] = {}
        stack = [(state, 0) for state in start]
        seen = set(stack)
        while stack:
            node = stack.pop()
            state, k = node
            self.tick()
            if self.finished(state) or (k == 0 and not self.armed(state)):
                edges[node] = None
                continue
            act = acts[k]
            moves = self.moves(state, k, False) if state[act.side][act.index] else [(state[1 - act.side], self.one)]
            edges[node] = out = [(self.next_node(self.merge(state, act, e), k), p) for e, p in moves]
            for nxt, _ in out:
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
        before: dict[tuple[BattleState, int], list[tuple[BattleState, int]]] = {}
        for node, out in edges.items():
            for nxt, _ in out or ():
                before.setdefault(nxt, []).append(node)
        can_end = {node for node, out in edges.items() if out is None}
        stack = list(can_end)
        while stack:
            for node in before.get(stack.pop(), ()):
                if node not in can_end:
                    can_end.add(node)
                    stack.append(node)
        outcomes: dict[Outcome, Number] = {}
        mass: dict[tuple[BattleState, int], Number] = {(state, 0): p for state, p in start.items()}
        while mass and sum(mass.values()) > 1e-15:
            nxt_mass: dict[tuple[BattleState, int], Number] = {}
            for node, m in mass.items():
                out = edges[node]
                if out is None or node not in can_end:
                    o = self.outcome(node[0], stalemate=not self.finished(node[0]))
                    outcomes[o] = outcomes.get(o, 0) + m
                    continue
                for nxt, p in out:
                    nxt_mass[nxt] = nxt_mass.get(nxt, 0) + m * p
            self.tick(len(mass))
            mass = nxt_mass
        return outcomes

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

    # -- Monte-Carlo ---------------------------------------------------------------------------
    def fire_random(self, state: BattleState, pos: int, rng: random.Random, missile: bool) -> BattleState:
        act = (self.missile_acts if missile else self.cannon_acts)[pos]
        shooters = len(state[act.side][act.index])
        if shooters == 0:
            return state
        enemy = state[1 - act.side]
        table = self.faces(act, enemy, missile)
        per_die = act.ship.missiles if missile else act.ship.cannons
        rnd = rng.random
        rolled = [(d, table[int(rnd() * 6)]) for _ in range(shooters) for d in per_die]
        hits = self.make_hits(act, rolled, missile)
        if missile and hits and self.point_defense(act, enemy):
            if self.optimal[act.side]:
                placement = self.pd_volley(state, pos, hits)[2]
            else:
                placement = self.placements(act, enemy, hits, False)[0]
            k = sum(kills for f, kills in self.pd_faces(1 - act.side, enemy) if int(rnd() * 6) < f)
            new_enemy = self.pd_land(state, pos, placement, k)
        elif self.optimal[act.side] and hits:
            new_enemy = self.choose(state, act, pos, missile, hits)[0]
        else:
            new_enemy = self.assign(act, enemy, hits)
        return self.merge(state, act, new_enemy)

    def simulate(self, rng: random.Random) -> Outcome:
        state = self.start
        for pos in range(len(self.missile_acts)):
            if self.finished(state):
                return self.outcome(state)
            state = self.fire_random(state, pos, rng, missile=True)
        for _ in range(MAX_SIM_ROUNDS):
            if self.finished(state):
                return self.outcome(state)
            if not self.armed(state):
                return self.outcome(state, stalemate=True)
            for pos in range(len(self.cannon_acts)):
                state = self.fire_random(state, pos, rng, missile=False)
                if self.finished(state):
                    return self.outcome(state)
            state = self.regenerated(state)
        return self.outcome(state, stalemate=True)


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
    attacker_policy: AnyPolicy | None = None,
    defender_policy: AnyPolicy | None = None,
    *,
    stalemate: Stalemate | str = Stalemate.DEFENDER_WINS,
    fractions: bool = False,
    budget: int = DEFAULT_BUDGET,
) -> Odds:
    """Exact outcome distribution of a battle between ``attacker`` and ``defender``.

    Policies default to :data:`NPC_POLICY` for an ``npc`` fleet and :data:`DEFAULT_POLICY`
    otherwise; :data:`OPTIMAL_POLICY` on one side makes it play its best against the other side's
    policy, on both sides solves the zero-sum game (see :class:`OptimalPolicy` for what winning
    means). ``stalemate`` scores battles nobody can finish (:class:`Stalemate`). With
    ``fractions=True`` the probabilities are exact ``Fraction`` values (slower) instead of floats.
    Returns an :class:`Odds` with ``runs=None``. Raises ``ValueError`` if both fleets are empty,
    :class:`CombatTooLarge` (a ``ValueError``) when the work would exceed ``budget`` (battle states
    plus enumerated dice outcomes and assignments), and ``TypeError`` for an object that is not a
    policy.
    """
    one: Number = Fraction(1) if fractions else 1.0
    battle = _Battle(attacker, defender, attacker_policy, defender_policy, Stalemate(stalemate), one, budget)
    return Odds(attacker, defender, _sorted_outcomes(battle.solve()), battle.stalemate, None)


def simulate_odds(
    attacker: Fleet,
    defender: Fleet,
    attacker_policy: AnyPolicy | None = None,
    defender_policy: AnyPolicy | None = None,
    *,
    runs: int = 10_000,
    seed: int | random.Random | None = 0,
    stalemate: Stalemate | str = Stalemate.DEFENDER_WINS,
    budget: int = DEFAULT_BUDGET,
) -> Odds:
    """Monte-Carlo estimate of :func:`combat_odds` from ``runs`` simulated battles.

    ``seed`` is an int (or ``None``) for a fresh :class:`random.Random`, or a ``Random`` to use.
    A side playing :data:`OPTIMAL_POLICY` first has the game solved exactly (within ``budget``),
    then follows those choices in every simulated battle. Returns an :class:`Odds` whose
    probabilities are frequencies and whose ``runs`` is set, so :meth:`Odds.std_error` gives the
    standard error of any probability derived from it. Raises ``ValueError`` unless
    ``1 <= runs <= MAX_RUNS``, or if both fleets are empty; :class:`CombatTooLarge` as
    :func:`combat_odds`.
    """
    if not 1 <= runs <= MAX_RUNS:
        raise ValueError(f"runs must be between 1 and {MAX_RUNS:,}, got {runs}")
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    battle = _Battle(attacker, defender, attacker_policy, defender_policy, Stalemate(stalemate), 1.0, budget)
    if any(battle.optimal):
        battle.solve_values()
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
    "point-defense": "point_defense",
    "pd": "point_defense",
    "npc": "npc",
    "player": "player",
}
_COUNT = re.compile(r"(\d+)\s*(?:[x×*]\s*)?")
_NAME = re.compile(r"([A-Za-z][\w\-]*)(?::([A-Za-z][\w\-]*))?")
_STATS = re.compile(
    r"([+-]?\d+)\s*/\s*([+-]?\d+)\s*/\s*([+-]?\d+)\s*/\s*([+-]?\d+)(?:\s*/\s*(\d+))?(?:\s+(.*))?", re.S
)
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
    regenerate = int(sm.group(5) or 0)
    cannon_text = sm.group(6) or ""
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
        regenerate=regenerate,
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
    * shields may be written negative as printed (``-1``) or as a magnitude (``1``);
    * a fifth stat is regeneration, the damage each ship repairs after every engagement round:
      ``1 ancient:ancient-cruiser(3/5/+2/0/1; 2O)``.

    Flags: ``+splitter`` (Antimatter Splitter), ``+distortion`` (Distortion Shield),
    ``+point-defense`` or ``+pd`` (Point Defense), ``+npc``
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
    regen = f"/{ship.regenerate}" if ship.regenerate else ""
    spec = f"{ship.initiative}/{ship.hull}/+{ship.computer}/{ship.shield}{regen}; {_format_dice(ship.cannons)}"
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
    if fleet.point_defense:
        items.append("+point-defense")
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
