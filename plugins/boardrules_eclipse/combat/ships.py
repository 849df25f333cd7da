"""Ship types and fleets as they fight: size classes, blueprint statistics, side flags and
the input limits moved from combat.py."""

from __future__ import annotations

import enum
from collections.abc import Iterable

import attrs


# ------------------------------------------------------------------------------------------ limits

MAX_SHIPS = 60
"""Most ships in one fleet (three allied players' full supplies are 54, eclipse-data.md §4)."""
MAX_STAT = 99
"""Largest initiative, hull, computer or shield value accepted."""
MAX_DICE = 16
"""Most cannon dice, and most missile dice, on one ship type; a die deals at most this damage too."""


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
        from .notation import format_fleet  # notation imports this module

        return format_fleet(self)
