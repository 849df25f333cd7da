"""Load the normalized Gaia Project record files (``../shared/gaia-records/*.json``).

Each file is one real game from the largest online play site (format: the records' README and
``rules/gaia-notation.md`` §3). :func:`load_record` turns one into frozen attrs objects:

* ``players``, ``factions`` (seat order), ``options`` (as given to the site's engine), ``seed``;
* ``setup``: the map placement and every hex, the dealt tiles, and how many leading lines
  (``init`` plus any ``rotate``/``set``) the setup already accounts for;
* ``lines`` / ``raw_lines``: the move lines *after* those leading lines, parsed with
  :mod:`.notation` from ``moves_clean`` / ``moves`` (they are equal objects);
* ``final``: the reference engine's state after the last move.

Quirk documented here (checked by the tests): ``setup.map.placement`` gives the rotations *before*
the leading ``rotate`` line, while ``setup.map.hexes`` is the map *after* it; and nine of the
eighteen games are read mirrored because their seed is on the site's legacy list
(:data:`.geometry.LEGACY_MIRRORED_SEEDS`) although ``placement.mirror`` is false.
:meth:`Record.build_map` applies both.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, NotRequired, TypedDict

import attrs

from boardrules.jsonshape import Expected, ShapeError, strict_converter, structure, whole
from boardrules.runtime import MAX_NUMBER
from boardrules.quoting import brief_text, escape
from boardrules.record import RecordFileError, read_record_file

from . import geometry
from .geometry import GaiaMap, Hex, MapHex, MapPlacement
from .notation import Line, NotationError, Rotate, parse_line, quoted, site_factions

__all__ = [
    "RecordError",
    "Tiles",
    "Setup",
    "PowerBowls",
    "TechHeld",
    "FederationHeld",
    "PlayerFinal",
    "FinalState",
    "Record",
    "load_record",
    "list_records",
    "load_records",
]


#: The research tracks in the site's order, and the slots of the tech tiles dealt at setup.
TRACK_ORDER = ("terra", "nav", "int", "gaia", "eco", "sci")
STD_SLOTS = (*TRACK_ORDER, "free1", "free2", "free3")
ADV_SLOTS = tuple(f"adv-{t}" for t in TRACK_ORDER)


#: Most move lines in a record (the longest real game of the shared records has 410).
MAX_LINES = 20_000
#: The longest move line, in characters (the shared records' and cases' longest has 329). A line is
#: held word by word as it is read, about 36 bytes a character: one of 20 MB took 880 MB.
MAX_LINE = 2_000


class RecordError(ValueError):
    """A record file that is missing a field or holds an unparsable value (names file and field)."""


@attrs.frozen
class Tiles:
    """Tiles dealt at setup.

    ``boosters``: booster names in play (players + 3); ``tech``: slot (terra…sci, free1-3) ->
    ``techN``; ``adv_tech``: slot (adv-terra…adv-sci) -> ``advtechN``; ``terraforming_federation``:
    the ``fedN`` token on the terraforming track; ``round_scoring``: 6 ``scoreN`` for rounds 1-6;
    ``final_scoring``: the 2 final scoring tile names.
    """

    boosters: tuple[str, ...]
    tech: dict[str, str]
    adv_tech: dict[str, str]
    terraforming_federation: str
    round_scoring: tuple[str, ...]
    final_scoring: tuple[str, ...]


@attrs.frozen
class Setup:
    """Map and tiles after the first ``consumes_leading_moves`` lines (see module doc)."""

    placement: MapPlacement
    hexes: tuple[MapHex, ...]
    tiles: Tiles
    consumes_leading_moves: int
    #: the faction boards dealt to the seats by the module ``random-factions`` (home planet
    #: letters, seat order; ``dealtBoards``, written by our export only), else empty
    dealt_boards: tuple[str, ...] = ()


@attrs.frozen
class PowerBowls:
    """Power tokens per area (Taklons' brainstone is not counted; see ``PlayerFinal.brainstone``)."""

    area1: int
    area2: int
    area3: int
    gaia: int


@attrs.frozen
class TechHeld:
    """A tech tile owned: tile (``tech4``/``advtech12``), slot it came from, enabled (not covered)."""

    tile: str
    pos: str
    enabled: bool


@attrs.frozen
class FederationHeld:
    """A federation token owned; ``green`` = not yet used (face up)."""

    tile: str
    green: bool


@attrs.frozen
class PlayerFinal:
    """One player's state after the last move (units: resource counts and VP)."""

    player: int
    faction: str
    vp: int
    credits: int
    ore: int
    knowledge: int
    qic: int
    power: PowerBowls
    brainstone: str | None
    research: dict[str, int]
    buildings: dict[str, int]
    gaiaformers: int
    gaiaformers_in_gaia: int
    satellites: int
    booster: str | None
    techs: tuple[TechHeld, ...]
    federations: tuple[FederationHeld, ...]
    bid: int


@attrs.frozen
class FinalState:
    """The reference engine's state after the last move."""

    ended: bool
    phase: str
    round: int
    players: tuple[PlayerFinal, ...]


@attrs.frozen
class Record:
    """One game record; see the module docstring. ``lines`` are the moves to replay."""

    name: str
    path: Path
    source: str
    kind: str
    players: int
    factions: tuple[str, ...]
    options: dict[str, Any]
    seed: str
    setup: Setup
    moves_raw: tuple[str, ...]
    moves_clean: tuple[str, ...]
    leading_lines: tuple[Line, ...]
    lines: tuple[Line, ...]
    raw_lines: tuple[Line, ...]
    final: FinalState
    final_in_file: dict[str, Any] | None
    final_vp_in_file: tuple[dict[str, Any], ...] | None

    @property
    def mirrored(self) -> bool:
        """Whether the site reads the sector tiles mirrored for this game (flag or legacy seed)."""
        return geometry.seed_is_mirrored(self.seed, self.setup.placement.mirror)

    def rotations(self) -> tuple[tuple[Hex, int], ...]:
        """``(centre, sixth-turns)`` of the ``rotate`` commands among the leading lines."""
        out = []
        for line in self.leading_lines:
            for cmd in line.commands:
                if isinstance(cmd, Rotate):
                    out.extend((ref.resolve(self.setup.placement), n) for ref, n in cmd.turns)
        return tuple(out)

    def placement_after_setup(self) -> MapPlacement:
        """``setup.placement`` with the leading ``rotate`` commands applied."""
        return geometry.apply_rotations(self.setup.placement, self.rotations())

    def build_map(self) -> GaiaMap:
        """The map computed from the placement (rotations and mirroring applied)."""
        return geometry.build_map(self.placement_after_setup(), mirror=self.mirrored)

    def file_map(self) -> GaiaMap:
        """The map exactly as listed in ``setup.map.hexes``."""
        return geometry.map_from_hexes(self.setup.hexes, self.placement_after_setup(), self.mirrored)


# The shape of a record file (what :func:`load_record` reads), checked before it is read: a value
# of the wrong type is named with its path (a record with "players": true, a move that is a number,
# a hex's "q" that is a text was a traceback, or silently read as 1, "7", ...).
_Centre = TypedDict("_Centre", {"q": int, "r": int})
_Sector = TypedDict("_Sector", {"sector": str, "rotation": NotRequired[int], "center": NotRequired[_Centre]})
_Placement = TypedDict("_Placement", {"sectors": list[_Sector], "mirror": NotRequired["bool | None"]})
_MapHexShape = TypedDict("_MapHexShape", {"name": str, "q": int, "r": int, "sector": str, "planet": "str | None"})
_Map = TypedDict("_Map", {"placement": _Placement, "hexes": list[_MapHexShape]})
_Tiles = TypedDict("_Tiles", {"boosters": list[str], "techTiles": dict[str, str], "advTechTiles": dict[str, str],
                              "terraformingFederation": str, "roundScoring": list[str], "finalScoring": list[str]})
_Setup = TypedDict("_Setup", {"map": _Map, "consumesLeadingMoves": int, "tiles": _Tiles,
                              "dealtBoards": NotRequired[list[str]]})
_Power = TypedDict("_Power", {"area1": int, "area2": int, "area3": int, "gaia": int})
_Tech = TypedDict("_Tech", {"tile": str, "pos": str, "enabled": bool})
_Federation = TypedDict("_Federation", {"tile": str, "green": bool})
_Player = TypedDict("_Player", {
    "player": int, "faction": str, "victoryPoints": int, "credits": int, "ores": int, "knowledge": int,
    "qics": int, "power": _Power, "brainstone": NotRequired["str | None"], "research": dict[str, int],
    "buildings": dict[str, int], "gaiaformers": int, "gaiaformersInGaia": int, "satellites": int,
    "booster": NotRequired["str | None"], "techs": list[_Tech], "federations": list[_Federation],
    "bid": NotRequired["int | None"]})
_Final = TypedDict("_Final", {"ended": bool, "phase": str, "round": int, "players": list[_Player]})
_RecordShape = TypedDict("_RecordShape", {
    "players": int, "factions": list[str], "options": NotRequired["dict[str, Any] | None"],
    "moves": list[str], "moves_clean": list[str], "setup": _Setup, "final": _Final,
    "source": NotRequired[str], "kind": NotRequired[str],
    "finalInFile": NotRequired["dict[str, Any] | None"],
    "finalVPInFile": NotRequired["list[dict[str, Any]] | None"]})
_shapes = strict_converter()


def _bounded(kind: type, expected: str, bound: str, within: Any) -> Any:
    """A structure hook for ``kind`` (a text, a whole number) that names a value of another type
    as :func:`~boardrules.jsonshape.strict_converter` does, and one past its bound (``within``
    false) so: a hostile record's hex or sector name of a megabyte was quoted whole in the
    messages that named it, a VP count of 4,000 digits in the final state's differences."""
    def hook(value: Any, _: Any) -> Any:
        if not (isinstance(value, kind) and (kind is str or whole(value))):
            raise Expected(expected, value)
        if not within(value):
            raise Expected(bound, value)
        return value
    return hook


_shapes.register_structure_hook(str, _bounded(str, "a text", f"a text of at most {MAX_LINE} characters",
                                              lambda v: len(v) <= MAX_LINE))
_shapes.register_structure_hook(int, _bounded(int, "a whole number", f"a whole number within ±{MAX_NUMBER}",
                                              lambda v: abs(v) <= MAX_NUMBER))


# --------------------------------------------------------------------------------------------


def _get(d: Mapping, key: str, where: str) -> Any:
    try:
        return d[key]
    except (KeyError, TypeError):
        raise RecordError(f"{where}: missing field {key!r}") from None


def _tiles(d: Mapping, where: str) -> Tiles:
    return Tiles(
        boosters=tuple(_get(d, "boosters", where)),
        tech=dict(_get(d, "techTiles", where)),
        adv_tech=dict(_get(d, "advTechTiles", where)),
        terraforming_federation=str(_get(d, "terraformingFederation", where)),
        round_scoring=tuple(_get(d, "roundScoring", where)),
        final_scoring=tuple(_get(d, "finalScoring", where)),
    )


def _player(d: Mapping, where: str) -> PlayerFinal:
    pw = _get(d, "power", where)
    return PlayerFinal(
        player=int(_get(d, "player", where)),
        faction=str(_get(d, "faction", where)),
        vp=int(_get(d, "victoryPoints", where)),
        credits=int(_get(d, "credits", where)),
        ore=int(_get(d, "ores", where)),
        knowledge=int(_get(d, "knowledge", where)),
        qic=int(_get(d, "qics", where)),
        power=PowerBowls(*(int(_get(pw, k, where + ".power")) for k in ("area1", "area2", "area3", "gaia"))),
        brainstone=d.get("brainstone"),
        research={k: int(v) for k, v in _get(d, "research", where).items()},
        buildings={k: int(v) for k, v in _get(d, "buildings", where).items()},
        gaiaformers=int(_get(d, "gaiaformers", where)),
        gaiaformers_in_gaia=int(_get(d, "gaiaformersInGaia", where)),
        satellites=int(_get(d, "satellites", where)),
        booster=d.get("booster"),
        techs=tuple(TechHeld(t["tile"], t["pos"], bool(t["enabled"])) for t in _get(d, "techs", where)),
        federations=tuple(
            FederationHeld(f["tile"], bool(f["green"])) for f in _get(d, "federations", where)
        ),
        bid=int(d.get("bid") or 0),
    )


def _lines(texts: tuple[str, ...], path: Path, field: str, first: int) -> tuple[Line, ...]:
    out = []
    for i, text in enumerate(texts, first):
        try:
            out.append(parse_line(text))
        except NotationError as e:
            raise RecordError(f"{escape(path.name)}: {field}[{i}]: {e}") from None
    return tuple(out)


def load_record(path: str | Path, data: Any = None) -> Record:
    """Load and parse one record file (``data``: its JSON, already read; else the file is read,
    at most ``LIMITS.max_record_bytes`` of it, as :func:`boardrules.replay.replay_file` reads).

    Raises :class:`RecordError` (a :class:`ValueError`) on a missing field or a value of the wrong
    type (naming its path, the value and what was expected), an unparsable move line (with its
    index and the notation error), more than :data:`MAX_LINES` lines or one of more than
    :data:`MAX_LINE` characters, ``moves``/``moves_clean`` of
    different length, or player counts that disagree;
    :class:`OSError` for unreadable files, :class:`RecordError` for one too large or no JSON
    (a device such as ``/dev/zero`` was read without end).
    """
    path = Path(path)
    where = escape(path.name)
    if data is None:
        try:
            data = read_record_file(path)
        except RecordFileError as err:
            raise RecordError(f"{where}: {err}") from None
    for field in ("moves", "moves_clean"):   # (said so before the shape's bound on every text)
        texts = data.get(field) if isinstance(data, dict) else None
        long = next((i for i, t in enumerate(texts) if isinstance(t, str) and len(t) > MAX_LINE),
                    None) if isinstance(texts, list) else None
        if long is not None:
            raise RecordError(f"{where}: $.{field}[{long}] is {len(texts[long])} characters long; a move "
                              f"line has at most {MAX_LINE}")
    try:
        structure(_shapes, data, _RecordShape)
    except ShapeError as err:
        raise RecordError(f"{where}: {err}") from None
    setup_d = _get(data, "setup", where)
    map_d = _get(setup_d, "map", where + ".setup")
    placement = MapPlacement.from_json(_get(map_d, "placement", where + ".setup.map"))
    hexes = tuple(
        MapHex(h["name"], Hex(int(h["q"]), int(h["r"])), str(h["sector"]), h["planet"])
        for h in _get(map_d, "hexes", where + ".setup.map")
    )
    n_lead = int(_get(setup_d, "consumesLeadingMoves", where + ".setup"))
    tiles = _tiles(_get(setup_d, "tiles", where + ".setup"), where + ".setup.tiles")
    setup = Setup(placement, hexes, tiles, n_lead, tuple(str(b) for b in setup_d.get("dealtBoards", ())))

    raw = tuple(_get(data, "moves", where))
    clean = tuple(_get(data, "moves_clean", where))
    if len(clean) > MAX_LINES:   # (each is parsed before the replay: 200,000 took 250 MB)
        raise RecordError(f"{where}: $.moves_clean has {len(clean)} lines; a record has at most {MAX_LINES}")
    if len(raw) != len(clean):
        raise RecordError(f"{where}: moves ({len(raw)}) and moves_clean ({len(clean)}) differ in length")
    if not 1 <= n_lead <= len(clean):  # (a slice would quietly take none or all of the moves)
        raise RecordError(f"{where}: $.setup.consumesLeadingMoves is {n_lead}: it counts the leading "
                          f"lines the setup accounts for, from 1 ('init') to the {len(clean)} moves")
    leading = _lines(clean[:n_lead], path, "moves_clean", 0)
    if not leading or not leading[0].commands or leading[0].actor is not None:
        raise RecordError(f"{where}: the first line must be 'init <players> <seed>'")
    seed = leading[0].commands[0].seed  # type: ignore[attr-defined]

    players, factions = data["players"], tuple(data["factions"])
    known = site_factions()
    unknown = [f for f in factions if f not in known]
    if unknown:   # (refused before the replay: it stopped at the first move of such a seat)
        raise RecordError(f"{where}: $.factions names factions neither the site nor a module knows: "
                          f"{', '.join(brief_text(f, 40) for f in unknown)}; the known factions are "
                          f"{', '.join(sorted(known))}")
    if leading[0].commands[0].players != players or len(factions) != players:  # type: ignore[attr-defined]
        raise RecordError(f"{where}: $.players is {players}, the first line "
                          f"{quoted(clean[0])} and $.factions lists {len(factions)}: they must agree")
    for field, slots in (("techTiles", STD_SLOTS), ("advTechTiles", ADV_SLOTS)):
        missing = [s for s in slots if s not in setup_d["tiles"][field]]
        if missing:
            raise RecordError(f"{where}: $.setup.tiles.{field} has no tile for {', '.join(missing)}")
    final_d = _get(data, "final", where)
    final = FinalState(
        ended=bool(_get(final_d, "ended", where + ".final")),
        phase=str(_get(final_d, "phase", where + ".final")),
        round=int(_get(final_d, "round", where + ".final")),
        players=tuple(
            _player(p, f"{where}.final.players[{i}]")
            for i, p in enumerate(_get(final_d, "players", where + ".final"))
        ),
    )
    vp_in_file = data.get("finalVPInFile")
    return Record(
        name=path.stem,
        path=path,
        source=str(data.get("source", "")),
        kind=str(data.get("kind", "")),
        players=players,
        factions=factions,
        options=dict(data.get("options") or {}),
        seed=seed,
        setup=setup,
        moves_raw=raw,
        moves_clean=clean,
        leading_lines=leading,
        lines=_lines(clean[n_lead:], path, "moves_clean", n_lead),
        raw_lines=_lines(raw[n_lead:], path, "moves", n_lead),
        final=final,
        final_in_file=data.get("finalInFile"),
        final_vp_in_file=tuple(vp_in_file) if vp_in_file is not None else None,
    )


def list_records(folder: str | Path) -> list[Path]:
    """All record files in ``folder`` (``*.json`` except ``INDEX.json``), sorted by name."""
    folder = Path(folder)
    return sorted(p for p in folder.glob("*.json") if p.name != "INDEX.json")


def load_records(folder: str | Path) -> Iterator[Record]:
    """:func:`load_record` over :func:`list_records`."""
    for p in list_records(folder):
        yield load_record(p)
