"""Gaia Project move notation of the largest online play site (boardgamers.space).

Parses the site's move lines (``"terrans build m 9A1."``, ``"nevlas build lab 0x1. tech sci.
up sci (1 ⇒ 2)."``) into frozen attrs objects and prints them back in one canonical form.

Rule source: ``rules/gaia-notation.md`` §2 (grammar §2.2, command meanings §2.3, hex names §2.4,
annotations §2.5), itself written from the site's engine (boardgamers/gaia-project).

* :func:`parse_line` -> :class:`Line` (``actor``, ``commands``, ``closed``). The site's
  annotations (power logs ``(a/b/c/d ⇒ e/f/g/h)``, ``using area1: 4, …``, ``returning boosterN``,
  ``(from 4B4)``, ``(n ⇒ m)``) are recognised and dropped, so a raw record line and its
  ``moves_clean`` twin parse to equal objects.
* ``str(line)`` is the canonical text: ``"<actor> <cmd>. <cmd>"`` plus ``"."`` when the turn was
  closed; ``parse_line(str(x)) == x``. For annotation-free site lines the canonical text is the
  site's own text.
* Errors are :class:`NotationError` (a :class:`ValueError`) carrying the 1-based ``column`` and the
  offending ``fragment``.

Hexes keep the style they were written in (:class:`HexRef`: ``9A1`` or ``-3x4``) and resolve to
axial coordinates with :meth:`HexRef.resolve` given a map or placement (:mod:`.geometry`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import ClassVar

import attrs

from boardrules.quoting import brief_text, excerpt, read_whole

from . import geometry
from .geometry import GaiaMap, Hex, MapPlacement

__all__ = [
    "NotationError",
    "FACTIONS",
    "site_factions",
    "BUILDINGS",
    "TRACKS",
    "BOARD_ACTIONS",
    "BOOSTERS",
    "FEDERATION_TILES",
    "STD_TECH_POSITIONS",
    "TECH_POSITIONS",
    "BRAINSTONE_TARGETS",
    "RESOURCES",
    "SET_TYPES",
    "HexRef",
    "Reward",
    "Command",
    "Init",
    "Rotate",
    "SetTile",
    "ChooseFaction",
    "Bid",
    "Build",
    "ChooseBooster",
    "Pass",
    "Up",
    "Action",
    "Special",
    "Federation",
    "SwapPI",
    "Tech",
    "Cover",
    "LostPlanet",
    "FedTile",
    "Brainstone",
    "Spend",
    "Burn",
    "Charge",
    "Decline",
    "Income",
    "EndTurn",
    "COMMAND_CLASSES",
    "Line",
    "parse_line",
    "parse_lines",
    "parse_command",
    "parse_rewards",
    "format_rewards",
    "strip_annotations",
]


SHOWN = 60
"""A record's text in a message is quoted escaped and at most about this long (:func:`quoted`):
a hostile line may be megabytes long or paint the terminal with escape sequences."""


def quoted(text: object) -> str:
    """``text`` (a record's) for a message: ``repr``-like, control characters and escape
    sequences as escapes, cut to about :data:`SHOWN` characters with ``...``."""
    return brief_text(text, SHOWN)


class NotationError(ValueError):
    """A move line that does not follow the notation.

    Attributes: ``line`` (the full text), ``column`` (1-based position of the problem),
    ``fragment`` (the offending text), ``reason`` (short explanation).
    """

    def __init__(self, reason: str, line: str, column: int, fragment: str) -> None:
        self.reason = reason
        self.line = line
        self.column = column
        self.fragment = fragment
        shown, at = excerpt(line, column, SHOWN)
        super().__init__(f"{reason} at column {column}: {quoted(fragment)}\n  {shown}\n  {' ' * at}^")

    def __reduce__(self):  # keep picklable (pytest-xdist, multiprocessing)
        return (type(self), (self.reason, self.line, self.column, self.fragment))


# --------------------------------------------------------------------------------------------
# Vocabulary (gaia-notation.md §2.2)

FACTIONS: tuple[str, ...] = (
    "terrans", "lantids", "hadsch-hallas", "ivits", "geodens", "baltaks", "xenos", "gleens",
    "taklons", "ambas", "firaks", "bescods", "nevlas", "itars",
)  # fmt: skip
BUILDINGS: tuple[str, ...] = ("m", "ts", "lab", "PI", "ac1", "ac2", "gf", "sp")
TRACKS: tuple[str, ...] = ("terra", "nav", "int", "gaia", "eco", "sci")
BOARD_ACTIONS: tuple[str, ...] = (*(f"power{i}" for i in range(1, 8)), "qic1", "qic2", "qic3")
BOOSTERS: tuple[str, ...] = tuple(f"booster{i}" for i in range(1, 11))
FEDERATION_TILES: tuple[str, ...] = tuple(f"fed{i}" for i in range(1, 7))
STD_TECH_POSITIONS: tuple[str, ...] = (*TRACKS, "free1", "free2", "free3")
TECH_POSITIONS: tuple[str, ...] = (*STD_TECH_POSITIONS, *(f"adv-{t}" for t in TRACKS))
BRAINSTONE_TARGETS: tuple[str, ...] = ("area1", "area2", "area3", "gaia", "discard")
SET_TYPES: tuple[str, ...] = (
    "booster", "techTile", "advTechTile", "terraformingFederation", "roundScoringTile",
    "finalScoringTile", "mapTile",
)  # fmt: skip
#: Resource codes of reward text (§2.2): c credits, o ore, k knowledge, q QIC, pw power,
#: t token, tg token in Gaia area, t-a3 token area III -> Gaia (Nevlas), gf gaiaformer, vp,
#: step / range+3 / space-station / swap-PI / down-lab / up-lowest / tech (special actions),
#: ~ nothing.
RESOURCES: tuple[str, ...] = (
    "c", "o", "k", "q", "pw", "t", "tg", "t-a3", "gf", "vp", "step", "range+3", "space-station",
    "swap-PI", "down-lab", "up-lowest", "tech", "~",
)  # fmt: skip
_SEAT_RE = re.compile(r"p[1-5]")
MAX_DIGITS = 18   # (a count on a line: the rules' numbers fit in 64 bits)


def site_factions() -> frozenset[str]:
    """The faction names a line may use: the site's own (:data:`FACTIONS`) and those the
    installed modules add for factions the site does not have (the ``factions`` of their replay
    contribution, :mod:`.replay`), read once per set of registered plugins."""
    from boardrules.plugins import manager
    return _site_factions(frozenset(manager().get_plugins()))


@functools.lru_cache(maxsize=4)
def _site_factions(_registered: frozenset) -> frozenset[str]:
    from .replay_hooks import contributed_factions
    return frozenset(FACTIONS) | contributed_factions()


def _faction(_inst: object, _attr: attrs.Attribute, value: object) -> None:
    if value not in site_factions():
        raise ValueError(f"{quoted(value)} is not a faction")


def _in(values: Sequence[str], what: str) -> Callable[[object, attrs.Attribute, object], None]:
    allowed = frozenset(values)

    def check(_inst: object, _attr: attrs.Attribute, value: object) -> None:
        if value not in allowed:
            raise ValueError(f"{quoted(value)} is not a {what}")

    return check


def _token(_inst: object, attr: attrs.Attribute, value: object) -> None:
    if not isinstance(value, str) or not re.fullmatch(r"[^\s.]+", value):
        raise ValueError(f"{attr.name} must be one word without '.', not {quoted(value)}")


def _nonneg(_inst: object, attr: attrs.Attribute, value: object) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"{attr.name} must be a non-negative int, not {quoted(value)}")


# --------------------------------------------------------------------------------------------
# Values


_HEX_NAME_RE = re.compile(r"(10|[1-9])(A(?:1[01]|[0-9])|B[0-5]|C)")
_HEX_AXIAL_RE = re.compile(r"(-?[0-9]+)x(-?[0-9]+)")


@attrs.frozen
class HexRef:
    """A hex as written: by name (``"9A1"``: sector number + ring position) or axial (``"-3x4"``).

    Exactly one of ``name`` / ``axial`` is set. Two refs to the same hex in different styles are
    *not* equal (the written style is kept); compare ``resolve(...)`` results for geometry.
    """

    name: str | None = None
    axial: Hex | None = None

    def __attrs_post_init__(self) -> None:
        if (self.name is None) == (self.axial is None):
            raise ValueError("HexRef needs exactly one of name / axial")
        if self.name is not None and not _HEX_NAME_RE.fullmatch(self.name):
            raise ValueError(f"not a hex name: {quoted(self.name)}")

    @classmethod
    def parse(cls, text: str) -> HexRef:
        """``"9A1"``, ``"3C"`` or ``"-3x4"``; raises :class:`ValueError` otherwise."""
        if _HEX_NAME_RE.fullmatch(text):
            return cls(name=text)
        m = _HEX_AXIAL_RE.fullmatch(text)
        if m:
            return cls(axial=Hex(int(m.group(1)), int(m.group(2))))
        raise ValueError(f"not a hex (like 9A1, 3C or -3x4): {quoted(text)}")

    @classmethod
    def of(cls, h: Hex) -> HexRef:
        """An axial-style reference to ``h``."""
        return cls(axial=h)

    @property
    def is_axial(self) -> bool:
        return self.axial is not None

    @property
    def sector(self) -> int | None:
        """Sector number of a named ref (``9`` for ``9A1``), None for axial refs."""
        m = _HEX_NAME_RE.fullmatch(self.name) if self.name else None
        return int(m.group(1)) if m else None

    @property
    def position(self) -> str | None:
        """Ring position of a named ref (``"A1"``, ``"B3"``, ``"C"``), None for axial refs."""
        m = _HEX_NAME_RE.fullmatch(self.name) if self.name else None
        return m.group(2) if m else None

    def resolve(self, where: GaiaMap | MapPlacement) -> Hex:
        """Axial coordinate on a built map or placement; :class:`geometry.GeometryError` if the
        sector is not placed (axial refs are returned as they are, unchecked on a placement)."""
        if self.axial is not None:
            if isinstance(where, GaiaMap) and self.axial not in where:
                raise geometry.GeometryError(f"hex {self.axial} is not on the map")
            return self.axial
        assert self.name is not None
        if isinstance(where, GaiaMap):
            return where.axial(self.name)
        return geometry.parse_hex_name(self.name, where)

    def __str__(self) -> str:
        return self.name if self.name is not None else str(self.axial)


@attrs.frozen
class Reward:
    """One reward item ``(count, resource)``: ``"4pw"`` -> ``Reward(4, "pw")``.

    ``count`` is None when written without a number (``"q"`` in ``special q``); use
    :attr:`amount` for the number meant (1). Iterable: ``count, resource = reward``.
    """

    count: int | None = attrs.field(
        validator=attrs.validators.optional(_nonneg)  # type: ignore[arg-type]
    )
    resource: str = attrs.field(validator=_in(RESOURCES, "resource code"))

    @property
    def amount(self) -> int:
        """The count, 1 when omitted."""
        return 1 if self.count is None else self.count

    def __iter__(self) -> Iterator[object]:
        return iter((self.count, self.resource))

    def __str__(self) -> str:
        return self.resource if self.count is None else f"{self.count}{self.resource}"


_REWARD_RE = re.compile(r"([0-9]*)(.+)")


def parse_rewards(text: str) -> tuple[Reward, ...]:
    """``"1t,4pw"`` -> ``(Reward(1,"t"), Reward(4,"pw"))``; :class:`ValueError` if malformed."""
    out = []
    for item in text.split(","):
        m = _REWARD_RE.fullmatch(item)
        if not m or m.group(2) not in RESOURCES:
            raise ValueError(f"not a reward (like 4pw, 1q, step, range+3): {quoted(item)}")
        out.append(Reward(int(m.group(1)) if m.group(1) else None, m.group(2)))
    return tuple(out)


def format_rewards(rewards: Iterable[Reward]) -> str:
    """Inverse of :func:`parse_rewards`."""
    return ",".join(str(r) for r in rewards)


def _rewards_field() -> tuple[Reward, ...]:
    return attrs.field(converter=tuple, validator=_nonempty_rewards)


def _nonempty_rewards(_inst: object, attr: attrs.Attribute, value: tuple) -> None:
    if not value or not all(isinstance(r, Reward) for r in value):
        raise ValueError(f"{attr.name} must be a non-empty tuple of Reward")


# --------------------------------------------------------------------------------------------
# Commands


@attrs.frozen
class Command:
    """Base of all command classes; ``keyword`` is the first word of the command."""

    keyword: ClassVar[str] = ""

    def args(self) -> tuple[str, ...]:
        """The words after the keyword, in canonical form."""
        return ()

    def __str__(self) -> str:
        return " ".join((self.keyword, *self.args()))


@attrs.frozen
class Init(Command):
    """``init <players> <seed>``: line 1 of every record (players 2..5, seed any non-space text)."""

    keyword: ClassVar[str] = "init"
    players: int = attrs.field(validator=_nonneg)
    seed: str = attrs.field(validator=attrs.validators.matches_re(r"\S+"))

    def args(self) -> tuple[str, ...]:
        return (str(self.players), self.seed)


@attrs.frozen
class Rotate(Command):
    """``rotate <centre> <n> …``: setup sector rotations (``advancedRules``), n sixth-turns cw."""

    keyword: ClassVar[str] = "rotate"
    turns: tuple[tuple[HexRef, int], ...] = attrs.field(converter=lambda v: tuple(tuple(x) for x in v))

    def args(self) -> tuple[str, ...]:
        return tuple(w for h, n in self.turns for w in (str(h), str(n)))


@attrs.frozen
class SetTile(Command):
    """``set <type> <position> to <option>`` (``customBoardSetup``)."""

    keyword: ClassVar[str] = "set"
    kind: str = attrs.field(validator=_in(SET_TYPES, "set type"))
    position: str = attrs.field(validator=_token)
    option: str = attrs.field(validator=_token)

    def args(self) -> tuple[str, ...]:
        return (self.kind, self.position, "to", self.option)


@attrs.frozen
class ChooseFaction(Command):
    """``faction <name>``: a seat picks its faction."""

    keyword: ClassVar[str] = "faction"
    faction: str = attrs.field(validator=_faction)

    def args(self) -> tuple[str, ...]:
        return (self.faction,)


@attrs.frozen
class Bid(Command):
    """``bid <faction> <n>`` (auction variants)."""

    keyword: ClassVar[str] = "bid"
    faction: str = attrs.field(validator=_faction)
    amount: int = attrs.field(validator=_nonneg)

    def args(self) -> tuple[str, ...]:
        return (self.faction, str(self.amount))


@attrs.frozen
class Build(Command):
    """``build <building> <hex>``: m, ts, lab, PI, ac1, ac2, gf (gaiaformer), sp (space station)."""

    keyword: ClassVar[str] = "build"
    building: str = attrs.field(validator=_in(BUILDINGS, "building"))
    hex: HexRef = attrs.field(validator=attrs.validators.instance_of(HexRef))

    def args(self) -> tuple[str, ...]:
        return (self.building, str(self.hex))


@attrs.frozen
class ChooseBooster(Command):
    """``booster <boosterN>``: initial booster pick during setup."""

    keyword: ClassVar[str] = "booster"
    booster: str = attrs.field(validator=_in(BOOSTERS, "booster"))

    def args(self) -> tuple[str, ...]:
        return (self.booster,)


@attrs.frozen
class Pass(Command):
    """``pass [boosterN]`` (no booster in round 6)."""

    keyword: ClassVar[str] = "pass"
    booster: str | None = attrs.field(
        default=None, validator=attrs.validators.optional(_in(BOOSTERS, "booster"))
    )

    def args(self) -> tuple[str, ...]:
        return () if self.booster is None else (self.booster,)


@attrs.frozen
class Up(Command):
    """``up <track>``: a research step (main action, or a follow-up)."""

    keyword: ClassVar[str] = "up"
    track: str = attrs.field(validator=_in(TRACKS, "research track"))

    def args(self) -> tuple[str, ...]:
        return (self.track,)


@attrs.frozen
class Action(Command):
    """``action <powerN|qicN>``: a board action."""

    keyword: ClassVar[str] = "action"
    action: str = attrs.field(validator=_in(BOARD_ACTIONS, "board action"))

    def args(self) -> tuple[str, ...]:
        return (self.action,)


@attrs.frozen
class Special(Command):
    """``special <rewards>``: a once-per-round action named by its reward text (``4pw``, ``q``…)."""

    keyword: ClassVar[str] = "special"
    rewards: tuple[Reward, ...] = _rewards_field()

    def args(self) -> tuple[str, ...]:
        return (format_rewards(self.rewards),)


@attrs.frozen
class Federation(Command):
    """``federation <hex>,<hex>,… <fedN>``: form a federation and take a token."""

    keyword: ClassVar[str] = "federation"
    hexes: tuple[HexRef, ...] = attrs.field(converter=tuple)
    tile: str = attrs.field(validator=_in(FEDERATION_TILES, "federation tile"))

    @hexes.validator
    def _check_hexes(self, _attr: attrs.Attribute, value: tuple) -> None:
        if not value or not all(isinstance(h, HexRef) for h in value):
            raise ValueError("federation needs at least one HexRef")

    def args(self) -> tuple[str, ...]:
        return (",".join(str(h) for h in self.hexes), self.tile)


@attrs.frozen
class SwapPI(Command):
    """``swap-PI <hex>`` (Ambas, after ``special swap-PI``)."""

    keyword: ClassVar[str] = "swap-PI"
    hex: HexRef = attrs.field(validator=attrs.validators.instance_of(HexRef))

    def args(self) -> tuple[str, ...]:
        return (str(self.hex),)


@attrs.frozen
class Tech(Command):
    """``tech <pos>``: take the tech tile at a slot (``nav``, ``free2``, ``adv-sci``…)."""

    keyword: ClassVar[str] = "tech"
    pos: str = attrs.field(validator=_in(TECH_POSITIONS, "tech position"))

    def args(self) -> tuple[str, ...]:
        return (self.pos,)


@attrs.frozen
class Cover(Command):
    """``cover <pos>``: the standard tile an advanced tile covers."""

    keyword: ClassVar[str] = "cover"
    pos: str = attrs.field(validator=_in(STD_TECH_POSITIONS, "standard tech position"))

    def args(self) -> tuple[str, ...]:
        return (self.pos,)


@attrs.frozen
class LostPlanet(Command):
    """``lostPlanet <hex>``: place the Lost Planet (after navigation 5)."""

    keyword: ClassVar[str] = "lostPlanet"
    hex: HexRef = attrs.field(validator=attrs.validators.instance_of(HexRef))

    def args(self) -> tuple[str, ...]:
        return (str(self.hex),)


@attrs.frozen
class FedTile(Command):
    """``fedtile <fedN>``: which owned token to re-score (qic2)."""

    keyword: ClassVar[str] = "fedtile"
    tile: str = attrs.field(validator=_in(FEDERATION_TILES, "federation tile"))

    def args(self) -> tuple[str, ...]:
        return (self.tile,)


@attrs.frozen
class Brainstone(Command):
    """``brainstone <area1|area2|area3|gaia|discard>`` (Taklons)."""

    keyword: ClassVar[str] = "brainstone"
    dest: str = attrs.field(validator=_in(BRAINSTONE_TARGETS, "brainstone destination"))

    def args(self) -> tuple[str, ...]:
        return (self.dest,)


@attrs.frozen
class Spend(Command):
    """``spend <rewards> for <rewards>``: a free conversion (``spend 4pw for 1q``)."""

    keyword: ClassVar[str] = "spend"
    cost: tuple[Reward, ...] = _rewards_field()
    gain: tuple[Reward, ...] = _rewards_field()

    def args(self) -> tuple[str, ...]:
        return (format_rewards(self.cost), "for", format_rewards(self.gain))


@attrs.frozen
class Burn(Command):
    """``burn <n>``: burn power (n tokens removed from area II, n moved to area III)."""

    keyword: ClassVar[str] = "burn"
    amount: int = attrs.field(validator=_nonneg)

    def args(self) -> tuple[str, ...]:
        return (str(self.amount),)


@attrs.frozen
class Charge(Command):
    """``charge <offer>``: accept a leech offer (``2pw``, ``1t,4pw``, ``2pw,1t`` for Taklons)."""

    keyword: ClassVar[str] = "charge"
    offer: tuple[Reward, ...] = _rewards_field()

    def args(self) -> tuple[str, ...]:
        return (format_rewards(self.offer),)


@attrs.frozen
class Decline(Command):
    """``decline [what]``: refuse a leech offer (``3pw``), the Itars trade, an optional step.

    ``what`` is kept as written (None when omitted); :attr:`rewards` parses it when it is reward
    text.
    """

    keyword: ClassVar[str] = "decline"
    what: str | None = attrs.field(default=None, validator=attrs.validators.optional(_token))

    @property
    def rewards(self) -> tuple[Reward, ...] | None:
        """``what`` as rewards, or None if absent or not reward text."""
        if self.what is None:
            return None
        try:
            return parse_rewards(self.what)
        except ValueError:
            return None

    def args(self) -> tuple[str, ...]:
        return () if self.what is None else (self.what,)


@attrs.frozen
class Income(Command):
    """``income <rewards>``: pick the next income item when order matters (``income 4pw``)."""

    keyword: ClassVar[str] = "income"
    rewards: tuple[Reward, ...] = _rewards_field()

    def args(self) -> tuple[str, ...]:
        return (format_rewards(self.rewards),)


@attrs.frozen
class EndTurn(Command):
    """``endturn``: explicitly end the turn."""

    keyword: ClassVar[str] = "endturn"


COMMAND_CLASSES: tuple[type[Command], ...] = (
    Init, Rotate, SetTile, ChooseFaction, Bid, Build, ChooseBooster, Pass, Up, Action, Special,
    Federation, SwapPI, Tech, Cover, LostPlanet, FedTile, Brainstone, Spend, Burn, Charge,
    Decline, Income, EndTurn,
)  # fmt: skip


@attrs.frozen
class Line:
    """One record line: ``actor`` (seat ``"p1"``… or faction; None only for the ``init`` line),
    the ``commands`` in order, and ``closed`` (the turn was closed with a trailing ``.``)."""

    actor: str | None = attrs.field()
    commands: tuple[Command, ...] = attrs.field(converter=tuple)
    closed: bool = False

    @actor.validator
    def _check_actor(self, _attr: attrs.Attribute, value: str | None) -> None:
        if value is not None and not (_SEAT_RE.fullmatch(value) or value in site_factions()):
            raise ValueError(f"actor must be p1..p5 or a faction, not {quoted(value)}")

    @property
    def seat(self) -> int | None:
        """1-based seat for ``pN`` actors, else None."""
        return int(self.actor[1:]) if self.actor and _SEAT_RE.fullmatch(self.actor) else None

    @property
    def faction(self) -> str | None:
        """Faction name for faction actors, else None."""
        return None if self.actor is None or _SEAT_RE.fullmatch(self.actor) else self.actor

    def __str__(self) -> str:
        body = ". ".join(str(c) for c in self.commands) + ("." if self.closed else "")
        return body if self.actor is None else f"{self.actor} {body}"


# --------------------------------------------------------------------------------------------
# Parser (hand-written; one pass over whitespace-separated words per '.'-separated part)

# Words are split on spaces and tabs only (as boardrules.quoting.move_words): ``\s`` also matches
# a vertical tab, a no-break space, a line separator..., which made an odd line another move.
_BLANKS = " \t"
_S = "[ \t]"
_BOWL = r"[0-9]+(?:,B)?"
_BOWLS = rf"{_BOWL}/{_BOWL}/{_BOWL}/{_BOWL}"
_POWER_LOG = rf"\({_S}*{_BOWLS}{_S}*⇒{_S}*{_BOWLS}{_S}*\)"
_AREA = r"(?:area[123]|gaia|brainstone)"
_ANNOTATIONS = (
    re.compile(rf"{_S}+{_POWER_LOG}"),
    # (possessive, as replay's _USING: a repeated group keeps a backtracking entry per repetition)
    re.compile(rf"{_S}+using{_S}+{_AREA}:{_S}*[0-9]+(?:{_S}*+,{_S}*+{_AREA}:{_S}*+[0-9]++)*+"),
    re.compile(rf"{_S}+returning{_S}+booster[0-9]+"),
    re.compile(rf"{_S}+\(from{_S}+[^\s()]+\)"),
    re.compile(rf"{_S}+\({_S}*-?[0-9]+{_S}*⇒{_S}*-?[0-9]+{_S}*\)"),
)
_POWER_LOG_PART = re.compile(rf"{_S}*{_POWER_LOG}{_S}*")
_WORD = re.compile(r"[^ \t]+")


class _Part:
    """Words of one command part with their 0-based columns in the full line."""

    def __init__(self, line: str, start: int, text: str) -> None:
        self.line = line
        self.start = start
        self.text = text
        self.words = [(m.group(), start + m.start()) for m in _WORD.finditer(text)]
        self.i = 1  # words[0] is the keyword

    def error(self, reason: str, col0: int, fragment: str) -> NotationError:
        return NotationError(reason, self.line, col0 + 1, fragment)

    def end_col(self) -> int:
        return self.start + len(self.text.rstrip(_BLANKS))

    def next(self, what: str) -> tuple[str, int]:
        if self.i >= len(self.words):
            raise self.error(f"missing {what} after {self.words[0][0]!r}", self.end_col(), self.text.strip())
        w = self.words[self.i]
        self.i += 1
        return w

    def has_more_args(self) -> bool:
        """True if a further word that is not the start of an annotation follows."""
        if self.i >= len(self.words):
            return False
        prev, prev_col = self.words[self.i - 1]
        rest = self.line[prev_col + len(prev) : self.start + len(self.text)]
        return not any(a.match(rest) for a in _ANNOTATIONS)

    def choice(self, values: Sequence[str], what: str) -> str:
        w, col = self.next(what)
        if w not in values:
            raise self.error(f"unknown {what}", col, w)
        return w

    def integer(self, what: str, signed: bool = False) -> int:
        w, col = self.next(what)
        if not re.fullmatch(r"-?[0-9]+" if signed else r"[0-9]+", w):
            raise self.error(f"expected {what} (an integer)", col, w)
        digits = len(w.lstrip("-"))
        if digits > MAX_DIGITS:   # (int() refuses past 4300 digits, in Python's terms)
            raise self.error(f"{what}: a number of {digits} digits is too long (at most {MAX_DIGITS})", col, w)
        return int(w)

    def hex(self, what: str = "hex") -> HexRef:
        w, col = self.next(what)
        return self._hex_word(w, col)

    def _hex_word(self, w: str, col: int) -> HexRef:
        try:
            return HexRef.parse(w)
        except ValueError:
            raise self.error("expected a hex like 9A1, 3C or -3x4", col, w) from None

    def hexes(self) -> tuple[HexRef, ...]:
        w, col = self.next("hex list")
        out, off = [], 0
        for item in w.split(","):
            out.append(self._hex_word(item, col + off))
            off += len(item) + 1
        return tuple(out)

    def rewards(self, what: str = "rewards") -> tuple[Reward, ...]:
        w, col = self.next(what)
        off = 0
        for item in w.split(","):
            try:
                parse_rewards(item)
            except ValueError:
                raise self.error(f"bad {what} item (like 4pw, 1q, step)", col + off, item) from None
            off += len(item) + 1
        return parse_rewards(w)

    def literal(self, word: str) -> None:
        w, col = self.next(repr(word))
        if w != word:
            raise self.error(f"expected {word!r}", col, w)

    def token(self, what: str) -> str:
        return self.next(what)[0]

    def finish(self) -> None:
        """The rest of the part must be annotations only (dropped)."""
        if self.i >= len(self.words):
            return
        pos = self.words[self.i - 1][1] + len(self.words[self.i - 1][0])
        end = self.start + len(self.text)
        while pos < end:
            rest = self.line[pos:end]
            if not rest.strip(_BLANKS):
                return
            for ann in _ANNOTATIONS:
                m = ann.match(rest)
                if m:
                    pos += m.end()
                    break
            else:
                m2 = _WORD.search(rest)
                assert m2 is not None
                raise self.error("unexpected text", pos + m2.start(), m2.group())


def _p_rotate(p: _Part) -> Rotate:
    turns = []
    while True:
        turns.append((p.hex("sector centre"), p.integer("rotation count", signed=True)))
        if not p.has_more_args():
            return Rotate(tuple(turns))


def _p_set(p: _Part) -> SetTile:
    kind = p.choice(SET_TYPES, "set type")
    position = p.token("position")
    p.literal("to")
    return SetTile(kind, position, p.token("option"))


def _p_decline(p: _Part) -> Decline:
    return Decline(p.token("what") if p.has_more_args() else None)


def _p_pass(p: _Part) -> Pass:
    return Pass(p.choice(BOOSTERS, "booster") if p.has_more_args() else None)


def _p_spend(p: _Part) -> Spend:
    cost = p.rewards("cost")
    p.literal("for")
    return Spend(cost, p.rewards("gain"))


_PARSERS: dict[str, Callable[[_Part], Command]] = {
    "rotate": _p_rotate,
    "set": _p_set,
    "faction": lambda p: ChooseFaction(p.choice(site_factions(), "faction")),
    "bid": lambda p: Bid(p.choice(site_factions(), "faction"), p.integer("bid")),
    "build": lambda p: Build(p.choice(BUILDINGS, "building"), p.hex()),
    "booster": lambda p: ChooseBooster(p.choice(BOOSTERS, "booster")),
    "pass": _p_pass,
    "up": lambda p: Up(p.choice(TRACKS, "research track")),
    "action": lambda p: Action(p.choice(BOARD_ACTIONS, "board action")),
    "special": lambda p: Special(p.rewards()),
    "federation": lambda p: Federation(p.hexes(), p.choice(FEDERATION_TILES, "federation tile")),
    "swap-PI": lambda p: SwapPI(p.hex()),
    "tech": lambda p: Tech(p.choice(TECH_POSITIONS, "tech position")),
    "cover": lambda p: Cover(p.choice(STD_TECH_POSITIONS, "standard tech position")),
    "lostPlanet": lambda p: LostPlanet(p.hex()),
    "fedtile": lambda p: FedTile(p.choice(FEDERATION_TILES, "federation tile")),
    "brainstone": lambda p: Brainstone(p.choice(BRAINSTONE_TARGETS, "brainstone destination")),
    "spend": _p_spend,
    "burn": lambda p: Burn(p.integer("burn amount")),
    "charge": lambda p: Charge(p.rewards("offer")),
    "decline": _p_decline,
    "income": lambda p: Income(p.rewards()),
    "endturn": lambda p: EndTurn(),
}


def _parse_part(line: str, start: int, text: str) -> Command:
    part = _Part(line, start, text)
    if not part.words:
        raise NotationError("empty command", line, start + 1, text)
    kw, col = part.words[0]
    parser = _PARSERS.get(kw)
    if parser is None:
        if kw == "init":
            raise part.error("'init' must be the whole line", col, kw)
        raise part.error("unknown command", col, kw)
    try:
        cmd = parser(part)
    except NotationError:
        raise
    except (ValueError, TypeError) as e:  # a validator of the command class
        raise part.error(f"invalid {kw!r} command ({e})", col, text.strip()) from None
    part.finish()
    return cmd


def _split_parts(line: str, start: int) -> Iterator[tuple[int, str, bool]]:
    """Yield (start column, text, followed_by_dot) for the '.'-separated parts of line[start:]."""
    pos = start
    while True:
        dot = line.find(".", pos)
        if dot < 0:
            yield pos, line[pos:], False
            return
        yield pos, line[pos:dot], True
        pos = dot + 1


def parse_line(text: str) -> Line:
    """Parse one move line (raw with annotations, or clean) into a :class:`Line`.

    Raises :class:`NotationError` (with column and offending text) on anything outside the
    notation of gaia-notation.md §2.2; annotations of §2.5 are accepted and dropped.
    """
    if not isinstance(text, str):
        raise TypeError(f"parse_line needs a str, not {type(text).__name__}")
    line = text.rstrip("\r\n")
    m = _WORD.search(line)
    if m is None:
        raise NotationError("empty line", line, 1, line)
    head, col = m.group(), m.start()
    if head == "init":
        words = list(_WORD.finditer(line))
        if len(words) != 3:
            at = words[3] if len(words) > 3 else None
            raise NotationError(
                "expected 'init <players> <seed>'",
                line,
                (at.start() if at else len(line)) + 1,
                at.group() if at else line.strip(),
            )
        count = read_whole(words[1].group())
        if count is None or count < 0:
            raise NotationError("expected the player count", line, words[1].start() + 1, words[1].group())
        return Line(None, (Init(count, words[2].group()),), False)
    if not (_SEAT_RE.fullmatch(head) or head in site_factions()):
        raise NotationError("expected a seat (p1..p5) or a faction", line, col + 1, head)

    commands: list[Command] = []
    closed = False
    for start, part, dotted in _split_parts(line, m.end()):
        if _POWER_LOG_PART.fullmatch(part):
            continue  # a power log written as its own part
        if not part.strip(_BLANKS):
            if not commands and not dotted:
                raise NotationError("no command after the actor", line, col + 1, head)
            if dotted or not commands:
                raise NotationError("empty command", line, start + 1, part if part else ".")
            if start < len(line) and line[start:].strip(_BLANKS):
                raise NotationError("empty command", line, start + 1, part)
            continue  # the empty tail after the closing '.'
        commands.append(_parse_part(line, start, part))
        closed = dotted
    if not commands:
        raise NotationError("no command after the actor", line, m.end() + 1, line[m.end():].strip() or head)
    return Line(head, tuple(commands), closed)


def parse_lines(lines: Iterable[str]) -> list[Line]:
    """Parse many lines; a :class:`NotationError` gets ``line N:`` prefixed to its reason."""
    out = []
    for n, text in enumerate(lines, 1):
        try:
            out.append(parse_line(text))
        except NotationError as e:
            raise NotationError(f"line {n}: {e.reason}", e.line, e.column, e.fragment) from None
    return out


def parse_command(text: str) -> Command:
    """Parse a single command without actor (``"build m 9A1"``); :class:`NotationError`."""
    if "." in text.strip(_BLANKS).rstrip("."):
        i = text.index(".")
        raise NotationError("one command expected, found '.'", text, i + 1, ".")
    body = text.strip(_BLANKS).rstrip(".")
    if _WORD.findall(body)[:1] == ["init"]:
        cmd = parse_line(body).commands[0]
        return cmd
    return _parse_part(body, 0, body)


# --------------------------------------------------------------------------------------------
# Text-level annotation stripping (§2.5)

_STRIP_STEPS = _ANNOTATIONS  # §2.5 order: power log, using, returning, (from), (n ⇒ m)


def strip_annotations(text: str) -> str:
    """Remove the site's annotations from a raw line, text only, in the order of §2.5.

    Power logs, ``using …``, ``returning …``, ``(from …)``, ``(n ⇒ m)``; then a part left empty
    by a removed power log is dropped and doubled spaces are collapsed. For the shared records
    ``strip_annotations(raw) == clean``.
    """
    out = text
    for rx in _STRIP_STEPS:
        out = rx.sub("", out)
    out = re.sub(rf"\.{_S}*\.", ".", out)  # "x. (log)." -> "x. ." -> "x."
    out = re.sub(r" {2,}", " ", out)
    return out.rstrip()
