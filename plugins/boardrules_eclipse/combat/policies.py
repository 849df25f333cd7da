"""Hit-assignment policies: the NPC rule, focus fire, and the optimal-play marker."""

from __future__ import annotations

import enum
import itertools
from collections.abc import Callable, Iterable, Sequence
from typing import NamedTuple, Protocol, TypeAlias, runtime_checkable

import attrs

from .ships import ShipType


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
        group = by_value[v]   # (in position order: sorted already when the widths never shrink)
        if any(len(a[1].targets) > len(b[1].targets) for a, b in zip(group, group[1:])):
            group.sort(key=lambda ph: (len(ph[1].targets), ph[0]))
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

    ranks: dict[tuple[PriorityKey, int, int], tuple] = {}   # a ship's rank: by type and damage

    def rank(key: PriorityKey, t: int, d: int) -> tuple:
        found = ranks.get((key, t, d))
        if found is None:
            found = ranks[key, t, d] = key(ships[t], t, d)
        return found

    def ordered(key: PriorityKey) -> list[list]:
        return sorted(alive, key=lambda s: rank(key, s[0], s[1]), reverse=True)

    # One pass in rank order does what "kill the best killable ship, start again" does: ranks do
    # not change while ships are only destroyed, and a ship the hits cannot destroy (their total
    # is short of what it needs) stays out of reach of fewer hits, as do ships like it.
    out_of_reach: set[tuple[int, int]] = set()   # (type, damage)
    for ship in ordered(priority):
        t, d = ship[0], ship[1]
        if not remaining:
            break
        if (t, d) in out_of_reach:
            continue
        usable = [(i, h) for i, h in enumerate(remaining) if t in h.targets]
        chosen = _cheapest_kill(usable, ships[t].hull + 1 - d) if usable else None
        if chosen is None:
            out_of_reach.add((t, d))
            continue
        alive.remove(ship)
        done.append(ship)
        ship[3].extend(remaining[i].damage for i in chosen)
        drop = set(chosen)
        remaining = [h for i, h in enumerate(remaining) if i not in drop]
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
