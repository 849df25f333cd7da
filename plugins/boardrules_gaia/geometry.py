"""Gaia Project map geometry: axial hexes, the ten sector tiles, hex names, map building, validity.

Coordinates are axial ``(q, r)`` with the implicit cube third ``s = -q - r``, the system the
online play site (boardgamers/gaia-project) uses in its records (``q x r`` hex names such as
``-3x4``). Distances are in hexes.

Rule sources:

* sector contents, rotation rule and the "mirrored" reading: ``rules/gaia-project.md`` §11;
* hex naming ``<sector><A|B><i>|C``, ring offsets and standard sector centres:
  ``rules/gaia-notation.md`` §2.4;
* map validity (no two adjacent planets of the same *home* type; gaia, transdim and empty are
  exempt) and the legacy stricter check: ``rules/gaia-notation.md`` §2.6 and the site's engine
  (``engine/src/map.ts`` in boardgamers/gaia-project);
* the list of legacy seeds whose sector tiles are read mirrored: same engine file.

Planet letters are those of the record files (``setup.map.hexes[].planet``):
``r`` terra, ``o`` oxide, ``v`` volcanic, ``d`` desert, ``s`` swamp, ``t`` titanium, ``i`` ice,
``g`` Gaia, ``m`` transdim, ``e`` empty space (the ``·`` of the §11 table). ``l`` (lost planet)
never occurs on a dealt map; it appears only when the Lost Planet is placed during play.

This module knows nothing about the engine; the engine calls it.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Iterator, Mapping

import attrs

__all__ = [
    "Hex",
    "DIRECTIONS",
    "PLANETS",
    "HOME_PLANETS",
    "EMPTY",
    "RING_POSITIONS",
    "RING_OFFSETS",
    "SECTOR_TABLE",
    "SECTOR_TABLE_SOURCE",
    "SMALL_MAP_SECTORS",
    "BIG_MAP_SECTORS",
    "CENTRES_7",
    "CENTRES_10",
    "XSHAPE_SECTORS",
    "CENTRES_XSHAPE",
    "LEGACY_CENTRES_7",
    "LEGACY_CENTRES_10",
    "LAYOUTS",
    "LEGACY_MIRRORED_SEEDS",
    "SectorPlacement",
    "MapPlacement",
    "MapHex",
    "GaiaMap",
    "GeometryError",
    "sector_number",
    "sector_contents",
    "ring_position_of",
    "hex_name",
    "parse_hex_name",
    "build_map",
    "map_from_hexes",
    "apply_rotations",
    "is_valid_map",
    "deal_map",
    "deal_placement",
    "standard_centres",
    "layout_centres",
    "layout_sectors",
    "seed_is_mirrored",
]


class GeometryError(ValueError):
    """A hex name, sector name, placement or coordinate that does not fit the map."""


# --------------------------------------------------------------------------------------------
# Axial hexes


@attrs.frozen(order=True)
class Hex:
    """An axial hex coordinate ``(q, r)``; ``s = -q - r`` is derived.

    Frozen, hashable and ordered (by ``q`` then ``r``). ``str(Hex(-3, 4)) == "-3x4"``, the
    site's legacy coordinate notation.
    """

    q: int
    r: int

    @property
    def s(self) -> int:
        """The cube coordinate ``-q - r``."""
        return -self.q - self.r

    def __add__(self, other: Hex) -> Hex:
        return Hex(self.q + other.q, self.r + other.r)

    def __sub__(self, other: Hex) -> Hex:
        return Hex(self.q - other.q, self.r - other.r)

    def __str__(self) -> str:
        return f"{self.q}x{self.r}"

    def distance(self, other: Hex) -> int:
        """Number of hex steps between ``self`` and ``other`` (cube distance)."""
        d = self - other
        return max(abs(d.q), abs(d.r), abs(d.s))

    def neighbours(self) -> tuple[Hex, ...]:
        """The six adjacent hexes, in the order of :data:`DIRECTIONS`."""
        return tuple(self + d for d in DIRECTIONS)

    def rotate_right(self, times: int = 1, center: Hex | None = None) -> Hex:
        """Rotate ``times`` sixth-turns "clockwise" (the site's sense) around ``center``.

        One sixth-turn maps offset ``(dq, dr)`` to ``(-dr, dq + dr)``: ring position ``A_i``
        goes to ``A_(i+2)`` and ``B_i`` to ``B_(i+1)`` (gaia-notation.md §2.4). ``times`` may be
        any integer (taken mod 6; negative turns the other way).
        """
        c = center if center is not None else Hex(0, 0)
        dq, dr = self.q - c.q, self.r - c.r
        for _ in range(times % 6):
            dq, dr = -dr, dq + dr
        return Hex(c.q + dq, c.r + dr)

    def within(self, radius: int) -> Iterator[Hex]:
        """All hexes at distance ``<= radius`` from ``self`` (``radius >= 0``)."""
        for dq in range(-radius, radius + 1):
            for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
                yield Hex(self.q + dq, self.r + dr)

    @classmethod
    def parse(cls, text: str) -> Hex:
        """Parse the site's ``q x r`` form (``"-3x4"``); raises :class:`GeometryError`."""
        m = re.fullmatch(r"(-?[0-9]+)x(-?[0-9]+)", text)
        if not m:
            raise GeometryError(f"not an axial hex 'qxr': {text!r}")
        return cls(int(m.group(1)), int(m.group(2)))


#: Unit steps to the six neighbours (B0..B5 offsets, in ring order).
DIRECTIONS: tuple[Hex, ...] = (Hex(1, 0), Hex(0, 1), Hex(-1, 1), Hex(-1, 0), Hex(0, -1), Hex(1, -1))

# --------------------------------------------------------------------------------------------
# Planets and the sector table

EMPTY = "e"
#: Planet letter -> planet name (record-file letters).
PLANETS: Mapping[str, str] = {
    "r": "terra",
    "o": "oxide",
    "v": "volcanic",
    "d": "desert",
    "s": "swamp",
    "t": "titanium",
    "i": "ice",
    "g": "gaia",
    "m": "transdim",
    "e": "empty",
    "l": "lost",
}
#: The seven home planet types (the ones the validity rule is about).
HOME_PLANETS: frozenset[str] = frozenset("rovdsti")

#: Ring positions in table order: A0..A11 (distance 2), B0..B5 (distance 1), C (centre).
RING_POSITIONS: tuple[str, ...] = (
    *(f"A{i}" for i in range(12)),
    *(f"B{i}" for i in range(6)),
    "C",
)

#: Axial offset of each ring position from its sector centre (gaia-notation.md §2.4).
RING_OFFSETS: Mapping[str, Hex] = {
    "A0": Hex(2, 0), "A1": Hex(1, 1), "A2": Hex(0, 2), "A3": Hex(-1, 2), "A4": Hex(-2, 2),
    "A5": Hex(-2, 1), "A6": Hex(-2, 0), "A7": Hex(-1, -1), "A8": Hex(0, -2), "A9": Hex(1, -2),
    "A10": Hex(2, -2), "A11": Hex(2, -1),
    "B0": Hex(1, 0), "B1": Hex(0, 1), "B2": Hex(-1, 1), "B3": Hex(-1, 0), "B4": Hex(0, -1),
    "B5": Hex(1, -1),
    "C": Hex(0, 0),
}  # fmt: skip
_POSITION_OF_OFFSET: Mapping[Hex, str] = {v: k for k, v in RING_OFFSETS.items()}

SECTOR_TABLE_SOURCE = (
    "rules/gaia-project.md §11 'Map sectors (planet per hex at rotation 0)', as encoded by the "
    "boardgamers/gaia-project reference engine; '·' written as 'e'"
)

# One string per sector: 19 letters in RING_POSITIONS order (A0..A11, B0..B5, C) at rotation 0,
# unmirrored. Source: SECTOR_TABLE_SOURCE.
_SECTOR_ROWS: Mapping[str, str] = {
    #     A0..........A11  B0..B5    C
    "1":  "eeemevoeedee" "ereees" "e",
    "2":  "teedemeoeeev" "eieese" "e",
    "3":  "meeteedreeee" "eeieeg" "e",
    "4":  "teeereeeeiee" "oeseve" "e",
    "5A": "iemoeedveeee" "eeeeeg" "e",
    "5B": "iemoeeeveeee" "eeeeeg" "e",
    "6A": "emeedmeeeeee" "ereges" "e",
    "6B": "emeedmeeeeee" "eregee" "e",
    "7A": "eseeeeteeeme" "oegege" "e",
    "7B": "eeeeeeteeeme" "gesege" "e",
    "8":  "remeeeemeeee" "ieteve" "e",
    "9":  "emieeeeeseev" "eegete" "e",
    "10": "emmeeeeoreee" "eegeed" "e",
}  # fmt: skip
#: Sector name -> planet letter per ring position, at rotation 0, unmirrored.
SECTOR_TABLE: Mapping[str, Mapping[str, str]] = {
    name: dict(zip(RING_POSITIONS, row, strict=True)) for name, row in _SECTOR_ROWS.items()
}

#: Sectors of the 2-player map (7 sectors, B sides of 5-7) and the 3-5 player map (10, A sides).
SMALL_MAP_SECTORS: tuple[str, ...] = ("1", "2", "3", "4", "5B", "6B", "7B")
BIG_MAP_SECTORS: tuple[str, ...] = ("1", "2", "3", "4", "5A", "6A", "7A", "8", "9", "10")

#: Standard sector centres in placement order (gaia-notation.md §2.4).
CENTRES_7: tuple[Hex, ...] = (
    Hex(0, 0), Hex(5, -2), Hex(2, 3), Hex(-3, 5), Hex(-5, 2), Hex(-2, -3), Hex(3, -5),
)  # fmt: skip
CENTRES_10: tuple[Hex, ...] = (*CENTRES_7, Hex(-1, 8), Hex(-6, 10), Hex(-8, 7))

#: The site's x-shape layout (option ``layout: "xshape"``, any player count): sectors 1-8 (A sides
#: of 5-7) on the 7-sector ring without its last centre plus the two centres beside ``-6x10``
#: (boardgamers/gaia-project ``engine/src/map.ts``, ``xConfiguration``). Its maps must pass the
#: same validity rule as the standard maps (:func:`is_valid_map`).
XSHAPE_SECTORS: tuple[str, ...] = ("1", "2", "3", "4", "5A", "6A", "7A", "8")
CENTRES_XSHAPE: tuple[Hex, ...] = (*CENTRES_7[:6], Hex(-1, 8), Hex(-8, 7))

#: The site's older centre order, used for a map given as a sector list *without* centres (old
#: records; same engine file, ``smallCenters`` / ``bigCenters`` in ``load``).
LEGACY_CENTRES_7: tuple[Hex, ...] = (
    Hex(5, -2), Hex(2, 3), Hex(3, -5), Hex(0, 0), Hex(-3, 5), Hex(-2, -3), Hex(-5, 2),
)  # fmt: skip
LEGACY_CENTRES_10: tuple[Hex, ...] = (
    Hex(5, -2), Hex(2, 3), Hex(-1, 8), Hex(3, -5), Hex(0, 0), Hex(-3, 5), Hex(-6, 10), Hex(-2, -3),
    Hex(-5, 2), Hex(-8, 7),
)  # fmt: skip

#: Map layouts the site offers that we lay out (its option ``layout``); ``"balanced"`` is not one.
LAYOUTS: tuple[str, ...] = ("standard", "xshape")

#: Seeds for which the site reads every sector tile mirrored regardless of ``map.mirror``
#: (a compatibility list for old games). Fact taken from boardgamers/gaia-project
#: ``engine/src/map.ts`` (``load``). Nine of the eighteen shared records are such games.
LEGACY_MIRRORED_SEEDS: frozenset[str] = frozenset({
    "Gianluigi-Buffon", "randomSeed", "12", "9876", "yellow-paint-8951", "green-jeans-8458",
    "Fastgame01", "zadbd", "bosco-marcuzzo3", "Alex-Del-Pieroooooo", "SGAMBATA", "djfjjv4k",
    "randomSeed2", "randomseed", "polite-food-8474", "waiting-fabs-1", "curious-stay-2150",
    "Three", "GaiaRocks", "SalmurOnTheBoard",
})  # fmt: skip


def seed_is_mirrored(seed: str | None, mirror_flag: bool = False) -> bool:
    """Whether the site reads sector tiles mirrored for a game with this seed / map flag."""
    return bool(mirror_flag) or (seed is not None and seed in LEGACY_MIRRORED_SEEDS)


def standard_centres(n_sectors: int) -> tuple[Hex, ...]:
    """Standard centres for a 7- or 10-sector map; raises :class:`GeometryError` otherwise."""
    if n_sectors == 7:
        return CENTRES_7
    if n_sectors == 10:
        return CENTRES_10
    raise GeometryError(f"no standard layout with {n_sectors} sectors (7 or 10)")


def layout_centres(n_sectors: int) -> tuple[Hex, ...]:
    """Centres in placement order of the layout with ``n_sectors`` sectors: 7 and 10 standard,
    8 the x-shape layout; raises :class:`GeometryError` otherwise."""
    if n_sectors == len(CENTRES_XSHAPE):
        return CENTRES_XSHAPE
    return standard_centres(n_sectors)


def layout_sectors(layout: str, players: int) -> tuple[tuple[str, ...], tuple[Hex, ...]]:
    """``(sector tiles, centres)`` of a site layout for a player count; :class:`GeometryError`
    for a layout not in :data:`LAYOUTS`."""
    if layout == "xshape":
        return XSHAPE_SECTORS, CENTRES_XSHAPE
    if layout != "standard":
        raise GeometryError(f"unknown map layout {layout!r} (known: {', '.join(LAYOUTS)})")
    return (SMALL_MAP_SECTORS, CENTRES_7) if players <= 2 else (BIG_MAP_SECTORS, CENTRES_10)


def sector_number(sector: str) -> int:
    """``"5A"`` -> 5, ``"10"`` -> 10: the number used in hex names (side letter dropped)."""
    m = re.fullmatch(r"([0-9]+)[AB]?", sector)
    if not m:
        raise GeometryError(f"not a sector name: {sector!r}")
    return int(m.group(1))


def _check_sector(sector: str) -> None:
    if sector not in SECTOR_TABLE:
        raise GeometryError(f"unknown sector {sector!r} (known: {', '.join(SECTOR_TABLE)})")


def sector_contents(sector: str, rotation: int = 0, mirror: bool = False) -> dict[str, str]:
    """Planet letter at each map ring position of ``sector`` after ``rotation`` sixth-turns.

    ``mirror`` first reads each ring the opposite way (A_i takes the printed A_(12-i), B_i the
    printed B_(6-i); A0, B0 and C unchanged), then rotation moves A_i to A_(i+2r mod 12) and B_i
    to B_(i+r mod 6) (gaia-project.md §11). Raises :class:`GeometryError` for an unknown sector.
    """
    _check_sector(sector)
    printed = SECTOR_TABLE[sector]
    out = {"C": printed["C"]}
    for i in range(12):
        src = (12 - i) % 12 if mirror else i
        out[f"A{(i + 2 * rotation) % 12}"] = printed[f"A{src}"]
    for i in range(6):
        src = (6 - i) % 6 if mirror else i
        out[f"B{(i + rotation) % 6}"] = printed[f"B{src}"]
    return out


def ring_position_of(h: Hex, center: Hex) -> str | None:
    """Ring position name (``"A3"``, ``"B0"``, ``"C"``) of ``h`` relative to ``center``, or None."""
    return _POSITION_OF_OFFSET.get(h - center)


# --------------------------------------------------------------------------------------------
# Placements and maps


@attrs.frozen
class SectorPlacement:
    """One sector tile on the map: tile name (``"5A"``), rotation in sixth-turns (0-5), centre."""

    sector: str
    rotation: int = attrs.field(converter=lambda v: int(v) % 6)
    center: Hex

    @property
    def number(self) -> int:
        """The sector number used in hex names."""
        return sector_number(self.sector)


@attrs.frozen
class MapPlacement:
    """All sector placements of a map plus the ``mirror`` reading flag (record ``placement``)."""

    sectors: tuple[SectorPlacement, ...] = attrs.field(converter=tuple)
    mirror: bool = False

    @classmethod
    def from_json(cls, data: Mapping) -> MapPlacement:
        """From the records' / site's ``{"sectors": [{"sector", "rotation", "center"}], "mirror"}``.

        A missing ``center`` takes the centre of that index in the site's older centre order
        (:data:`LEGACY_CENTRES_7` / :data:`LEGACY_CENTRES_10`); missing ``mirror`` is False.
        Raises :class:`GeometryError` for a sector list without centres of another length.
        """
        raw = list(data["sectors"])
        centres: tuple[Hex, ...] = ()
        if any("center" not in s for s in raw):
            legacy = {7: LEGACY_CENTRES_7, 10: LEGACY_CENTRES_10}
            if len(raw) not in legacy:
                raise GeometryError(f"a sector list without centres must have 7 or 10 sectors, not {len(raw)}")
            centres = legacy[len(raw)]
        sectors = []
        for i, s in enumerate(raw):
            c = s.get("center")
            center = Hex(int(c["q"]), int(c["r"])) if c is not None else centres[i]
            sectors.append(SectorPlacement(str(s["sector"]), int(s.get("rotation", 0)), center))
        return cls(tuple(sectors), bool(data.get("mirror") or False))

    def to_json(self) -> dict:
        """Inverse of :meth:`from_json` (centre with its cube ``s``)."""
        return {
            "sectors": [
                {
                    "sector": p.sector,
                    "rotation": p.rotation,
                    "center": {"q": p.center.q, "r": p.center.r, "s": p.center.s},
                }
                for p in self.sectors
            ],
            "mirror": self.mirror,
        }


@attrs.frozen
class MapHex:
    """One hex of a built map: name (``"9A1"``), axial coordinate, sector tile name, planet letter."""

    name: str
    hex: Hex
    sector: str
    planet: str

    @property
    def q(self) -> int:
        return self.hex.q

    @property
    def r(self) -> int:
        return self.hex.r


def hex_name(h: Hex, placement: MapPlacement) -> str:
    """The site's name (``"9A1"``, ``"3C"``) of axial ``h``; :class:`GeometryError` if off-map."""
    for p in placement.sectors:
        pos = ring_position_of(h, p.center)
        if pos is not None:
            return f"{p.number}{pos}"
    raise GeometryError(f"hex {h} is not on the map")


_NAME_RE = re.compile(r"([0-9]{1,2})(A(?:1[01]|[0-9])|B[0-5]|C)")


def parse_hex_name(name: str, placement: MapPlacement) -> Hex:
    """Axial coordinate of ``"9A1"`` (or an axial ``"-3x4"``) on the given placement.

    Raises :class:`GeometryError` for malformed names or a sector number not on the map.
    """
    m = _NAME_RE.fullmatch(name)
    if m is None:
        return Hex.parse(name)
    number, pos = int(m.group(1)), m.group(2)
    for p in placement.sectors:
        if p.number == number:
            return p.center + RING_OFFSETS[pos]
    raise GeometryError(f"sector {number} of hex {name!r} is not on the map")


@attrs.frozen
class GaiaMap:
    """A built map: every hex with name, axial coordinate, sector and planet.

    Built with :func:`build_map`. ``hexes`` is sorted by name in the records' order (string
    order), lookups are by name (``by_name``) or coordinate (``by_hex``).
    """

    placement: MapPlacement
    mirrored: bool
    hexes: tuple[MapHex, ...]
    by_name: Mapping[str, MapHex] = attrs.field(eq=False, repr=False)
    by_hex: Mapping[Hex, MapHex] = attrs.field(eq=False, repr=False)

    def __contains__(self, h: object) -> bool:
        return h in self.by_hex

    def __getitem__(self, key: Hex | str) -> MapHex:
        """Look up by :class:`Hex` or by name; raises :class:`KeyError`."""
        return self.by_hex[key] if isinstance(key, Hex) else self.by_name[key]

    def __iter__(self) -> Iterator[MapHex]:
        return iter(self.hexes)

    def __len__(self) -> int:
        return len(self.hexes)

    def planet(self, h: Hex) -> str:
        """Planet letter at ``h``; :class:`KeyError` if off-map."""
        return self.by_hex[h].planet

    def axial(self, name: str) -> Hex:
        """Axial coordinate of a hex name or ``qxr`` text on this map; :class:`GeometryError`."""
        mh = self.by_name.get(name)
        if mh is not None:
            return mh.hex
        h = parse_hex_name(name, self.placement)
        if h not in self.by_hex:
            raise GeometryError(f"hex {name!r} is not on the map")
        return h

    def name(self, h: Hex) -> str:
        """Name of the on-map hex ``h``; :class:`GeometryError` if off-map."""
        mh = self.by_hex.get(h)
        if mh is None:
            raise GeometryError(f"hex {h} is not on the map")
        return mh.name

    def neighbours(self, h: Hex) -> tuple[Hex, ...]:
        """On-map neighbours of ``h``."""
        return tuple(n for n in h.neighbours() if n in self.by_hex)

    def within(self, h: Hex, distance: int) -> tuple[Hex, ...]:
        """On-map hexes at distance ``<= distance`` from ``h``."""
        return tuple(n for n in h.within(distance) if n in self.by_hex)

    def is_valid(self, legacy: bool = False) -> bool:
        """See :func:`is_valid_map`."""
        return is_valid_map(self, legacy=legacy)


def _make_map(placement: MapPlacement, mirrored: bool, hexes: Iterable[MapHex]) -> GaiaMap:
    hs = tuple(sorted(hexes, key=lambda m: m.name))
    by_hex: dict[Hex, MapHex] = {}
    for mh in hs:
        if mh.hex in by_hex:
            raise GeometryError(f"sectors overlap at {mh.hex} ({by_hex[mh.hex].name}, {mh.name})")
        by_hex[mh.hex] = mh
    by_name = {mh.name: mh for mh in hs}
    if len(by_name) != len(hs):
        raise GeometryError("two sectors with the same number on one map")
    return GaiaMap(placement, mirrored, hs, by_name, by_hex)


def map_from_hexes(hexes: Iterable[MapHex], placement: MapPlacement, mirrored: bool = False) -> GaiaMap:
    """A :class:`GaiaMap` from an explicit hex list (e.g. a record's ``setup.map.hexes``).

    Raises :class:`GeometryError` if two hexes share a coordinate or a name.
    """
    return _make_map(placement, mirrored, hexes)


def build_map(placement: MapPlacement, mirror: bool | None = None) -> GaiaMap:
    """Build every hex of the map from a placement.

    ``mirror`` overrides ``placement.mirror`` (use :func:`seed_is_mirrored` for the site's legacy
    seeds). Raises :class:`GeometryError` on unknown sectors, overlapping sectors or repeated
    sector numbers.
    """
    mirrored = placement.mirror if mirror is None else mirror
    out = []
    for p in placement.sectors:
        contents = sector_contents(p.sector, p.rotation, mirrored)
        number = p.number
        for pos in RING_POSITIONS:
            out.append(MapHex(f"{number}{pos}", p.center + RING_OFFSETS[pos], p.sector, contents[pos]))
    return _make_map(placement, mirrored, out)


def apply_rotations(placement: MapPlacement, rotations: Iterable[tuple[Hex, int]]) -> MapPlacement:
    """Placement after the setup ``rotate`` command: add sixth-turns to the sectors at the centres.

    ``rotations`` is ``(centre, times)`` pairs, times in clockwise sixth-turns (the ``rotate``
    command of gaia-notation.md §2.2). Raises :class:`GeometryError` if a centre is not a
    sector centre.
    """
    sectors = list(placement.sectors)
    for centre, times in rotations:
        for i, p in enumerate(sectors):
            if p.center == centre:
                sectors[i] = attrs.evolve(p, rotation=p.rotation + times)
                break
        else:
            raise GeometryError(f"{centre} is not the centre of a sector")
    return attrs.evolve(placement, sectors=tuple(sectors))


def is_valid_map(gmap: GaiaMap, legacy: bool = False) -> bool:
    """The map validity rule: no two adjacent hexes hold the same home planet type.

    Gaia, transdim and empty hexes are exempt (the site's "German" rule). ``legacy=True`` applies
    the site's older stricter check instead: no two adjacent non-empty hexes of *different
    sectors* with the same planet letter (gaia and transdim included).
    """
    if not legacy:
        return not _homes_adjacent({(mh.hex.q, mh.hex.r): mh.planet for mh in gmap.hexes})
    for mh in gmap.hexes:
        for n in mh.hex.neighbours():
            other = gmap.by_hex.get(n)
            if other is None or other.planet != mh.planet:
                continue
            if mh.planet != EMPTY and other.sector != mh.sector:
                return False
    return True


_STEPS = tuple((d.q, d.r) for d in DIRECTIONS)


def _homes_adjacent(planet_at: Mapping[tuple[int, int], str]) -> bool:
    """Whether two adjacent hexes hold the same home planet type (``planet_at``: axial
    ``(q, r)`` -> planet letter of every hex): what :func:`is_valid_map` refuses, on plain
    tuples (a dealt map is checked before its hexes are built)."""
    for (q, r), letter in planet_at.items():
        if letter in HOME_PLANETS:
            for dq, dr in _STEPS:
                if planet_at.get((q + dq, r + dr)) == letter:
                    return True
    return False


def _planets_of(placement: MapPlacement) -> dict[tuple[int, int], str]:
    """Axial ``(q, r)`` -> planet letter of every hex :func:`build_map` would build."""
    out = {}
    for p in placement.sectors:
        contents = sector_contents(p.sector, p.rotation, placement.mirror)
        cq, cr = p.center.q, p.center.r
        for pos, off in RING_OFFSETS.items():
            out[(cq + off.q, cr + off.r)] = contents[pos]
    return out


def deal_map(
    rng: random.Random,
    players: int,
    *,
    mirror: bool = False,
    max_tries: int = 10_000,
    layout: str = "standard",
) -> GaiaMap:
    """Deal a random valid standard map: shuffle the sector tiles, random rotations, retry.

    2 players use :data:`SMALL_MAP_SECTORS` on :data:`CENTRES_7`, 3-5 players
    :data:`BIG_MAP_SECTORS` on :data:`CENTRES_10` (rules/gaia-notation.md §2.4/§2.6); ``layout``
    ``"xshape"``: :data:`XSHAPE_SECTORS` on :data:`CENTRES_XSHAPE` for any count. This is our
    own generator driven by ``rng``; it does not reproduce the site's PRNG. Raises
    :class:`GeometryError` for a bad player count or if no valid map is found in ``max_tries``.
    The map of :func:`deal_placement`'s placement (the same draws).
    """
    return build_map(deal_placement(rng, players, mirror=mirror, max_tries=max_tries, layout=layout))


def deal_placement(
    rng: random.Random,
    players: int,
    *,
    mirror: bool = False,
    max_tries: int = 10_000,
    layout: str = "standard",
) -> MapPlacement:
    """The placement :func:`deal_map` builds, without building its hexes (for a caller that
    builds the map its own way, e.g. from a cache). The same arguments and errors."""
    if not 1 <= players <= 5:
        raise GeometryError(f"player count must be 1..5, not {players}")
    names, centres = layout_sectors(layout, players)
    for _ in range(max_tries):
        order = list(names)
        rng.shuffle(order)
        placement = MapPlacement(
            tuple(SectorPlacement(s, rng.randrange(6), c) for s, c in zip(order, centres, strict=True)),
            mirror,
        )
        # (checked on the planet letters: only the valid placement's hexes are built)
        if not _homes_adjacent(_planets_of(placement)):
            return placement
    raise GeometryError(f"no valid map found in {max_tries} tries")
