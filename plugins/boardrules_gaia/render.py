"""An SVG picture of a Gaia Project game's map (the ``map`` renderer).

:func:`render_map` draws the map as the rules keep it in the state (see ``rules/README.md``):
``hexes`` and ``map_layout`` (the sector tiles, rebuilt by :mod:`.primitives`), ``planet[h]``
(planet letter, ``"l"`` once the Lost Planet is placed), ``bld[h]`` / ``owner_at[h]`` (structures),
``gf_at[h]`` (Gaiaformers), ``guest_at[h]`` (a guest mine on someone else's planet, the Lantids'),
``station_at[h]`` (Ivits space stations), per player ``myfaction``, ``satellites`` and
``fed_groups`` (each federation as its hex names, satellites included). Each player's pieces
are in the colour of their faction's home planet.

The SVG is written by hand. Its structure is stable, so that tests and other tools can read it:

* every map hex is one ``<polygon class="hex" data-hex="3A11">`` — the only polygons in the
  picture;
* a structure is one element of class ``building <kind> pN`` (kind ``mine``, ``ts``, ``lab``,
  ``pi``, ``ac1``, ``ac2``; ``pN`` the 1-based player; a Lantids mine on a shared planet also
  has class ``shared``), drawn over a black outline of class ``halo``; a Gaiaformer is
  ``gaiaformer pN``, a satellite ``satellite pN``, a space station ``station pN``, a
  federation one ``<path class="federation pN">``; each player's legend entry is a group of
  class ``legend-player pN``;
* planets are circles of class ``planet planet-<letter>``.

Pointy-top hexes, screen y downwards: axial direction ``(1, 0)`` is east and ``(0, 1)``
south-east, the clockwise sense of :meth:`.geometry.Hex.rotate_right`.
"""

from __future__ import annotations

import math
from html import escape

from . import geometry as G

SIZE = 22.0                      # hex radius (centre to corner), in SVG units
SQ3 = math.sqrt(3.0)
LEGEND_W = 250.0
MARGIN = 16.0

#: Planet letter -> (fill, outline). Colours of the printed planets: terra is blue, oxide red,
#: volcanic orange (gaia-project.md §3 calls terra "red"; the boards and the play site do not).
PLANET_COLOURS = {
    "r": ("#2f78d8", "#7fb2f0"),   # terra
    "o": ("#d8322a", "#f08a7a"),   # oxide
    "v": ("#f08c1e", "#ffc078"),   # volcanic
    "d": ("#f2dc2e", "#c2a81c"),   # desert
    "s": ("#7a5326", "#b0803f"),   # swamp
    "t": ("#8c8c96", "#c8c8d2"),   # titanium
    "i": ("#f4f8fc", "#7fd0d8"),   # ice
    "g": ("#3cbf4a", "#1c6a28"),   # Gaia
    "m": ("#9b4fe0", "#c9a0f5"),   # transdim
    "l": ("#141438", "#c8c8ff"),   # the Lost Planet
}
SPACE_FILL = "#0d1030"
SPACE_STROKE = "#2c3266"
SECTOR_STROKE = "#5a64a8"
BACKGROUND = "#070818"
TEXT = "#e8eaf6"
DIM_TEXT = "#7c84b4"

#: Names shown in the legend where the rules' id is not simply capitalised.
FACTION_NAMES = {"hadsch_hallas": "Hadsch Hallas", "baltaks": "Bal T'aks"}
BUILDING_NAMES = {"mine": "mine", "ts": "trading station", "lab": "research lab",
                  "pi": "planetary institute", "ac1": "academy (knowledge)",
                  "ac2": "academy (QIC)"}
#: Seat colours for players who have no faction yet (during setup).
SEAT_COLOURS = ("#e0e0e0", "#b0b0b0", "#909090", "#707070")


def render_map(game) -> str:
    """SVG text of ``game``'s map: planets, structures, Gaiaformers, satellites, federations,
    hex names and a legend with each player's faction and VP. Works at any point of a game
    (before the map is dealt it draws only the legend)."""
    v = game.state.values
    layout = v.get(("v", "map_layout")) or ()
    gmap = _gaia_map(tuple(layout)) if layout else None
    hexes = list(gmap.hexes) if gmap else []
    centre = {mh.name: _pixel(mh.q, mh.r) for mh in hexes}
    xs = [x for x, _ in centre.values()] or [0.0]
    ys = [y for _, y in centre.values()] or [0.0]
    min_x, max_x = min(xs) - SIZE * SQ3 / 2 - MARGIN, max(xs) + SIZE * SQ3 / 2 + MARGIN
    min_y, max_y = min(ys) - SIZE - MARGIN, max(ys) + SIZE + MARGIN
    players = range(game.players)
    colour = {p: _player_colour(game, p) for p in players}

    out = _Svg()

    # space hexes, with the sector borders drawn over them
    out.add('<g class="hexes">')
    for mh in hexes:
        x, y = centre[mh.name]
        out.add(f'<polygon class="hex" data-hex="{mh.name}" data-sector="{mh.sector}" '
                f'points="{_corners(x, y, SIZE)}" fill="{SPACE_FILL}" stroke="{SPACE_STROKE}" '
                f'stroke-width="0.8"><title>{_hex_title(game, mh.name)}</title></polygon>')
    out.add("</g>")
    by_sector: dict = {}
    for mh in hexes:
        by_sector.setdefault(mh.sector, set()).add((mh.q, mh.r))
    out.add(f'<path class="sectors" fill="none" stroke="{SECTOR_STROKE}" stroke-width="1.6" '
            f'd="{" ".join(_outline(cells, 1.0) for cells in by_sector.values())}"/>')

    # federations: their hexes tinted, their outline dashed, in the owner's colour
    for p in players:
        for code in v.get(("v", "fed_groups", p)) or ():
            cells = set()
            for name in code.split(","):
                mh = gmap.by_name.get(name) if gmap else None
                if mh is not None:
                    cells.add((mh.q, mh.r))
            tint = " ".join(_hex_path(*_pixel(q, r), SIZE) for q, r in cells)
            out.add(f'<path class="federation-area p{p + 1}" d="{tint}" fill="{colour[p]}" '
                    f'fill-opacity="0.16" stroke="none"/>')
            out.add(f'<path class="federation p{p + 1}" d="{_outline(cells, 0.86)}" fill="none" '
                    f'stroke="{colour[p]}" stroke-width="2.2" stroke-dasharray="5 3">'
                    f'<title>federation of {escape(_player_label(game, p))}</title></path>')

    # planets, hex names
    for mh in hexes:
        x, y = centre[mh.name]
        letter = v.get(("v", "planet", mh.name), G.EMPTY)
        if letter != G.EMPTY:
            fill, edge = PLANET_COLOURS.get(letter, ("#ffffff", "#000000"))
            r = SIZE * (0.42 if letter == "m" else 0.56)
            name = G.PLANETS.get(letter, letter)
            out.add(f'<circle class="planet planet-{letter}" cx="{_n(x)}" cy="{_n(y)}" r="{_n(r)}" '
                    f'fill="{fill}" stroke="{edge}" stroke-width="1.4"><title>{mh.name}: {name}'
                    f'</title></circle>')
            if letter == "l":
                out.add(f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(r * 0.45)}" fill="none" '
                        f'stroke="{edge}" stroke-width="1"/>')
        out.add(f'<text class="hex-name" x="{_n(x)}" y="{_n(y + SIZE * 0.8)}" font-size="5.2" '
                f'text-anchor="middle" fill="{DIM_TEXT}" font-family="sans-serif">{mh.name}</text>')

    # Gaiaformers, structures, satellites
    for mh in hexes:
        x, y = centre[mh.name]
        gf = v.get(("v", "gf_at", mh.name))
        if gf is not None:
            out.add(f'<circle class="gaiaformer p{gf + 1}" cx="{_n(x)}" cy="{_n(y)}" '
                    f'r="{_n(SIZE * 0.68)}" fill="none" stroke="{colour[gf]}" stroke-width="3" '
                    f'stroke-dasharray="4 2"><title>Gaiaformer of '
                    f'{escape(_player_label(game, gf))}</title></circle>')
        b, owner = v.get(("v", "bld", mh.name)), v.get(("v", "owner_at", mh.name))
        if b is not None and owner is not None:
            out.add(_building(b, f"building {b} p{owner + 1}", x, y, colour[owner],
                              f"{BUILDING_NAMES.get(b, b)} of {_player_label(game, owner)}"))
        shared = v.get(("v", "guest_at", mh.name))        # a Lantids mine beside the owner's
        if shared is not None:
            out.add(_building("mine", f"building mine p{shared + 1} shared", x + SIZE * 0.46,
                              y - SIZE * 0.4, colour[shared],
                              f"mine of {_player_label(game, shared)} (shared planet)", 0.62))
        station = v.get(("v", "station_at", mh.name))    # an Ivits space station
        if station is not None:
            out.add(_station(f"station p{station + 1}", x, y, colour[station],
                             f"space station of {_player_label(game, station)}"))
    for p in players:
        for name in v.get(("v", "satellites", p)) or ():
            if name not in centre:
                continue
            x, y = centre[name]
            a = 2 * math.pi * p / max(game.players, 1) - math.pi / 2
            sx, sy = x + SIZE * 0.34 * math.cos(a), y + SIZE * 0.34 * math.sin(a)
            out.add(f'<circle class="satellite p{p + 1}" cx="{_n(sx)}" cy="{_n(sy)}" '
                    f'r="{_n(SIZE * 0.17)}" fill="{colour[p]}" stroke="#f4f4f4" stroke-width="0.8">'
                    f'<title>satellite of {escape(_player_label(game, p))}</title></circle>')

    legend_bottom = _legend(out, game, colour, max_x, min_y)
    width = max_x - min_x + LEGEND_W
    height = max(max_y, legend_bottom + MARGIN) - min_y
    out.open(width, height, min_x, min_y, f"{game.ruleset.title}: map", BACKGROUND)
    return out.text()


# ---- pieces -----------------------------------------------------------------------------------

def _building(kind: str, cls: str, x: float, y: float, fill: str, title: str,
              scale: float = 1.0) -> str:
    """One structure as one element of class ``cls`` (after a black halo of class ``halo``
    that keeps it visible on a planet of its own colour): mine a small house, trading station
    a square, lab a triangle, planetary institute a large rounded square, academy a diamond
    (the QIC academy with a hole)."""
    s = SIZE * scale
    tag, extra = "path", ""
    if kind == "mine":
        w, h = s * 0.66, s * 0.6
        geom = (f'd="M{_n(x - w / 2)},{_n(y + h / 2)} L{_n(x + w / 2)},{_n(y + h / 2)} '
                f'L{_n(x + w / 2)},{_n(y - h / 8)} L{_n(x)},{_n(y - h / 2 - h / 6)} '
                f'L{_n(x - w / 2)},{_n(y - h / 8)} Z"')
    elif kind in ("ts", "pi"):
        a = s * (0.72 if kind == "ts" else 0.98)
        tag = "rect"
        geom = (f'x="{_n(x - a / 2)}" y="{_n(y - a / 2)}" width="{_n(a)}" height="{_n(a)}"'
                + (f' rx="{_n(a * 0.28)}"' if kind == "pi" else ""))
    elif kind == "lab":
        a = s * 0.9
        geom = (f'd="M{_n(x)},{_n(y - a * 0.58)} L{_n(x + a / 2)},{_n(y + a * 0.32)} '
                f'L{_n(x - a / 2)},{_n(y + a * 0.32)} Z"')
    elif kind in ("ac1", "ac2"):
        a = s * 0.6
        d = (f"M{_n(x)},{_n(y - a)} L{_n(x + a * 0.8)},{_n(y)} L{_n(x)},{_n(y + a)} "
             f"L{_n(x - a * 0.8)},{_n(y)} Z")
        if kind == "ac2":
            r = a * 0.28
            d += (f" M{_n(x - r)},{_n(y)} a{_n(r)},{_n(r)} 0 1,0 {_n(2 * r)},0 "
                  f"a{_n(r)},{_n(r)} 0 1,0 {_n(-2 * r)},0 Z")
        geom, extra = f'd="{d}"', ' fill-rule="evenodd"'
    else:
        tag, geom = "circle", f'cx="{_n(x)}" cy="{_n(y)}" r="{_n(s * 0.3)}"'
    halo = (f'<{tag} class="halo" {geom} fill="none" stroke="#000" '
            f'stroke-width="{_n(5 * scale)}" stroke-linejoin="round"/>')
    piece = (f'<{tag} class="{cls}" {geom}{extra} fill="{fill}" stroke="#f4f4f4" '
             f'stroke-width="{_n(1.1 * scale)}" stroke-linejoin="round">'
             f"<title>{escape(title)}</title></{tag}>")
    return halo + piece


def _station(cls: str, x: float, y: float, fill: str, title: str, scale: float = 1.0) -> str:
    """A space station: a four-pointed star."""
    a, b = SIZE * 0.42 * scale, SIZE * 0.13 * scale
    d = (f"M{_n(x)},{_n(y - a)} L{_n(x + b)},{_n(y - b)} L{_n(x + a)},{_n(y)} "
         f"L{_n(x + b)},{_n(y + b)} L{_n(x)},{_n(y + a)} L{_n(x - b)},{_n(y + b)} "
         f"L{_n(x - a)},{_n(y)} L{_n(x - b)},{_n(y - b)} Z")
    return (f'<path class="{cls}" d="{d}" fill="{fill}" stroke="#000" stroke-width="1.2" '
            f'stroke-linejoin="round"><title>{escape(title)}</title></path>')


def _legend(out, game, colour, left: float, top: float) -> float:
    """Draw the legend right of ``left``; return the y of its bottom."""
    v = game.state.values
    x0, y = left + 8, top + 26
    over = game.over
    out.add(f'<g class="legend" font-family="sans-serif" fill="{TEXT}">')
    out.add(f'<text x="{_n(x0)}" y="{_n(y)}" font-size="15" font-weight="bold">'
            f'{escape(game.ruleset.title)}</text>')
    rnd = v.get(("f", "round"), 0)
    status = "final scores" if over else (f"round {rnd}" if rnd else "setup")
    y += 18
    out.add(f'<text x="{_n(x0)}" y="{_n(y)}" font-size="11" fill="{DIM_TEXT}">'
            f'{game.players} players · {status}</text>')
    scores = game.scores()
    place = {}
    for i, tied in enumerate(game.ranking() if over else (), 1):
        for p in tied:
            place[p] = i
    for p in range(game.players):
        y += 24
        out.add(f'<g class="legend-player p{p + 1}">')
        out.add(f'<rect x="{_n(x0)}" y="{_n(y - 12)}" width="16" height="16" rx="3" '
                f'fill="{colour[p]}" stroke="#000" stroke-width="0.8"/>')
        vp = scores[p]["total"]
        rank = f" · #{place[p]}" if p in place else ""
        out.add(f'<text x="{_n(x0 + 24)}" y="{_n(y + 1)}" font-size="12.5">'
                f'{escape(_player_label(game, p))}</text>')
        out.add(f'<text class="vp" x="{_n(x0 + LEGEND_W - 24)}" y="{_n(y + 1)}" font-size="12.5" '
                f'text-anchor="end" font-weight="bold">{vp} VP{rank}</text>')
        counts = []
        for kind in ("mine", "ts", "lab", "pi", "ac1", "ac2"):
            n = sum(1 for k, b in v.items() if k[:2] == ("v", "bld") and b == kind
                    and v.get(("v", "owner_at", k[2])) == p)
            if n:
                counts.append(f"{n} {kind}")
        shared = sum(1 for k, o in v.items() if k[:2] == ("v", "guest_at") and o == p)
        stations = sum(1 for k, o in v.items() if k[:2] == ("v", "station_at") and o == p)
        sats = len(v.get(("v", "satellites", p)) or ())
        feds = len(v.get(("v", "fed_groups", p)) or ())
        gfs = sum(1 for k, o in v.items() if k[:2] == ("v", "gf_at") and o == p)
        extra = [f"{shared} shared mine" if shared else "",
                 f"{stations} station" if stations else "", f"{feds} fed" if feds else "",
                 f"{sats} sat" if sats else "", f"{gfs} gf" if gfs else ""]
        detail = ", ".join(counts + [e for e in extra if e]) or "no structures"
        y += 16
        out.add(f'<text x="{_n(x0 + 24)}" y="{_n(y)}" font-size="9.5" fill="{DIM_TEXT}">'
                f'{escape(detail)}</text>')
        out.add("</g>")

    # key: structures, then planets
    y += 30
    out.add(f'<text x="{_n(x0)}" y="{_n(y)}" font-size="11" fill="{DIM_TEXT}">structures</text>')
    for i, kind in enumerate(("mine", "ts", "lab", "pi", "ac1", "ac2")):
        cx = x0 + 12 + i * 38
        out.add(_building(kind, "key", cx, y + 18, "#d0d0d0", BUILDING_NAMES[kind], 0.75))
        out.add(f'<text x="{_n(cx)}" y="{_n(y + 40)}" font-size="8" text-anchor="middle" '
                f'fill="{DIM_TEXT}">{kind}</text>')
    y += 62
    grey = "#d0d0d0"
    for i, label in enumerate(("satellite", "space station", "Gaiaformer", "federation")):
        cx, y = x0 + 8 + 112 * (i % 2), y + 20 * (i == 2)
        if label == "satellite":
            mark = (f'<circle class="key" cx="{_n(cx)}" cy="{_n(y)}" r="3.8" fill="{grey}" '
                    f'stroke="#f4f4f4" stroke-width="0.8"/>')
        elif label == "space station":
            mark = _station("key", cx, y, grey, "space station", 0.75)
        elif label == "Gaiaformer":
            mark = (f'<circle class="key" cx="{_n(cx)}" cy="{_n(y)}" r="7" fill="none" '
                    f'stroke="{grey}" stroke-width="2.4" stroke-dasharray="4 2"/>')
        else:
            mark = (f'<rect class="key" x="{_n(cx - 6)}" y="{_n(y - 7)}" width="12" height="14" '
                    f'fill="{grey}" fill-opacity="0.16" stroke="{grey}" stroke-width="2" '
                    f'stroke-dasharray="4 2"/>')
        out.add(mark)
        out.add(f'<text x="{_n(cx + 11)}" y="{_n(y + 3.5)}" font-size="8.5" fill="{DIM_TEXT}">'
                f'{label}</text>')
    y += 32
    out.add(f'<text x="{_n(x0)}" y="{_n(y)}" font-size="11" fill="{DIM_TEXT}">planets</text>')
    for i, letter in enumerate("rovdstigml"):
        col, row = i % 4, i // 4
        cx, cy = x0 + 8 + col * 58, y + 14 + row * 22
        fill, edge = PLANET_COLOURS[letter]
        out.add(f'<circle class="key" cx="{_n(cx)}" cy="{_n(cy)}" r="6" fill="{fill}" '
                f'stroke="{edge}" stroke-width="1.2"/>')
        out.add(f'<text x="{_n(cx + 9)}" y="{_n(cy + 3.5)}" font-size="8.5" fill="{DIM_TEXT}">'
                f'{G.PLANETS[letter]}</text>')
    out.add("</g>")
    return y + 60


# ---- labels and colours -----------------------------------------------------------------------

def _faction(game, p):
    return game.state.values.get(("v", "myfaction", p))


def faction_name(faction: str) -> str:
    """Display name of a faction id (``"hadsch_hallas"`` -> ``"Hadsch Hallas"``)."""
    return FACTION_NAMES.get(faction, faction.replace("_", " ").title())


def _player_label(game, p: int) -> str:
    f = _faction(game, p)
    return f"p{p + 1} {faction_name(f)}" if f else f"p{p + 1}"


def _player_colour(game, p: int) -> str:
    """A player's colour: their faction's home planet colour (the colour of its pieces)."""
    f = _faction(game, p)
    ent = game.ruleset.entities.get(f) if f else None
    home = ent.fields.get("home") if ent is not None else None
    if home in PLANET_COLOURS:
        return PLANET_COLOURS[home][0]
    return SEAT_COLOURS[p % len(SEAT_COLOURS)]


def _hex_title(game, name: str) -> str:
    v = game.state.values
    parts = [name, G.PLANETS.get(v.get(("v", "planet", name), G.EMPTY), "?")]
    b, owner = v.get(("v", "bld", name)), v.get(("v", "owner_at", name))
    if b is not None and owner is not None:
        parts.append(f"{BUILDING_NAMES.get(b, b)} of {_player_label(game, owner)}")
    return escape(", ".join(parts))


# ---- geometry and SVG text --------------------------------------------------------------------

def _gaia_map(layout: tuple):
    from .primitives import _map
    return _map(layout)


def _pixel(q: int, r: int) -> tuple:
    return SIZE * SQ3 * (q + r / 2), SIZE * 1.5 * r


def _corner(x: float, y: float, size: float, i: int) -> tuple:
    """Corner ``i`` of a pointy-top hex: corner i lies between the edges facing directions
    ``i - 1`` and ``i`` (corner 0 is south-east of east)."""
    a = math.radians(60 * i + 30)
    return x + size * math.cos(a), y + size * math.sin(a)


def _hex_path(x: float, y: float, size: float) -> str:
    """Path data of a closed hexagon (for shapes that must not be polygons)."""
    return "M" + _corners(x, y, size).replace(" ", " L") + " Z"


def _corners(x: float, y: float, size: float) -> str:
    return " ".join(f"{_n(cx)},{_n(cy)}" for cx, cy in (_corner(x, y, size, i) for i in range(6)))


def _outline(cells: set, inset: float) -> str:
    """Path data of the border of a set of axial cells: each cell edge with no cell of the set
    beyond it, drawn ``inset`` (a fraction of the radius) towards the cell's centre."""
    parts = []
    for q, r in cells:
        x, y = _pixel(q, r)
        for e, d in enumerate(G.DIRECTIONS):
            if (q + d.q, r + d.r) in cells:
                continue
            # edge e (facing direction e) runs from corner e - 1 to corner e
            (ax, ay), (bx, by) = _corner(x, y, SIZE * inset, e - 1), _corner(x, y, SIZE * inset, e)
            parts.append(f"M{_n(ax)},{_n(ay)} L{_n(bx)},{_n(by)}")
    return " ".join(parts)


def _n(x: float) -> str:
    """A coordinate with at most two decimals, no trailing zeros."""
    s = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


class _Svg:
    def __init__(self):
        self.parts: list = []

    def open(self, width, height, x, y, title, background):
        """Put the ``<svg>`` header (size known once the body is drawn) before the body."""
        self.parts[:0] = [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(width)}" height="{_n(height)}" '
            f'viewBox="{_n(x)} {_n(y)} {_n(width)} {_n(height)}">',
            f"<title>{escape(title)}</title>",
            f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(width)}" height="{_n(height)}" '
            f'fill="{background}"/>']
        self.parts.append("</svg>")

    def add(self, text: str) -> None:
        self.parts.append(text)

    def text(self) -> str:
        return "\n".join(self.parts) + "\n"
