"""An SVG picture of an Eclipse game's galaxy (the ``map`` renderer).

:func:`render_map` draws the placed sector hexes as the rules keep them (``rules/base.rules``):
``hexes`` (``"q,r"`` ids), ``sector_at`` / ``rotation_at`` (the tile and its turn; the tile's
``wormholes`` are printed edges, turned as :func:`.galaxy.rotate_mask` does), ``controller``
(the influence disc), ``cubes`` (``"i:res"`` on planet square ``i`` or ``"o"`` the orbital),
``ships`` (``(player, class)``), ``npcs`` (Ancients, GCDS), ``discovery_at``, ``orbital_at``,
``monolith_at``, and per player ``species_of``.

The SVG is written by hand, with a stable structure that tests and tools can read:

* every placed hex is one ``<polygon class="hex" data-hex="q,r" data-sector="s101">`` — the
  only polygons in the picture;
* an influence disc is one element of class ``disc pN`` (``pN`` the 1-based player), a
  population cube ``cube pN``, a ship ``ship <class> pN``, a wormhole ``wormhole`` (a
  half-disc on the edge), an NPC ship ``npc ancient`` / ``npc gcds``, an unclaimed discovery
  tile ``discovery``, each player's legend entry a group of class ``legend-player pN``;
* each hex's contents are in ``<g class="sector" data-hex="q,r">``.

Pointy-top hexes, screen y downwards, edges numbered clockwise from east (galaxy.py).
"""

from __future__ import annotations

import math
from html import escape

from . import galaxy as G

SIZE = 72.0                      # hex radius (centre to corner)
SQ3 = math.sqrt(3.0)
LEGEND_W = 270.0
MARGIN = 18.0
SHIP_KEY_STEP = 62.0             # the legend's ship classes: apart, and from row to row
SHIP_KEY_ROW = 50.0
# as many as fit the legend, each centred on its label (about SHIP_KEY_STEP wide), from 30 in
SHIP_KEYS_A_ROW = 1 + int((LEGEND_W - 30 - SHIP_KEY_STEP / 2) // SHIP_KEY_STEP)

#: Seat colours (the six player colours of the box, then Rise of the Ancients' three for 7-9
#: players: grey, "natural" and magenta -- drawn teal, apart from the NPCs' magenta), each with
#: an outline that shows on it.
PLAYER_COLOURS = (("#d8342c", "#2a0806"), ("#2f6fd6", "#06122a"), ("#2fa844", "#062a0e"),
                  ("#f0cc2a", "#3a3000"), ("#f2f2f2", "#202020"), ("#2a2a2a", "#e0e0e0"),
                  ("#a8b0a8", "#101010"), ("#c9a66b", "#2a1a06"), ("#2ab8c0", "#04282a"))
#: NPC ships (Ancients, Guardians, GCDS): magenta, far from every seat colour (red is player 1's).
NPC_COLOURS = {"crest": ("#d13fd1", "#fbe0fb"), "core": ("#8a1a8a", "#f0a8f0")}
RESOURCE_COLOURS = {"money": "#f39a1e", "science": "#ea6cb4", "materials": "#a5673a",
                    "any": "#c9c9cf"}
RING_FILLS = {0: "#2c2452", 1: "#1d2753", 2: "#172042", 3: "#111833"}
BACKGROUND = "#05060f"
TEXT = "#e8eaf6"
DIM_TEXT = "#8088b8"
WORMHOLE = "#8fd6ff"


def render_map(game) -> str:
    """SVG text of ``game``'s galaxy: sector hexes with wormholes, planets and cubes,
    influence discs, ships, Ancients/GCDS, discoveries, and a legend with each player's
    species and VP. Works at any point of a game."""
    v = game.state.values
    hexes = [h for h in v.get(("v", "hexes")) or () if v.get(("v", "sector_at", h))]
    centre = {h: _pixel(*_pos(h)) for h in hexes}
    xs = [x for x, _ in centre.values()] or [0.0]
    ys = [y for _, y in centre.values()] or [0.0]
    min_x, max_x = min(xs) - SIZE * SQ3 / 2 - MARGIN, max(xs) + SIZE * SQ3 / 2 + MARGIN
    min_y, max_y = min(ys) - SIZE - MARGIN, max(ys) + SIZE + MARGIN
    out: list = []

    out.append('<g class="hexes">')
    for h in hexes:
        x, y = centre[h]
        sector = v[("v", "sector_at", h)]
        ring = _field(game, sector, "ring", 3)
        fill = RING_FILLS.get(ring, RING_FILLS[3])
        out.append(f'<polygon class="hex" data-hex="{h}" data-sector="{sector}" '
                   f'points="{_corners(x, y, SIZE)}" fill="{fill}" stroke="#4a5490" '
                   f'stroke-width="1.5"><title>{escape(_hex_title(game, h, sector))}</title>'
                   f'</polygon>')
    out.append("</g>")
    for h in hexes:
        out.extend(_hex_contents(game, h, *centre[h]))

    legend, legend_bottom = _legend(game, max_x, min_y)
    out.extend(legend)
    width = max_x - min_x + LEGEND_W
    height = max(max_y, legend_bottom + MARGIN) - min_y
    head = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(width)}" height="{_n(height)}" '
            f'viewBox="{_n(min_x)} {_n(min_y)} {_n(width)} {_n(height)}">',
            f"<title>{escape(game.ruleset.title)}: galaxy</title>",
            f'<rect x="{_n(min_x)}" y="{_n(min_y)}" width="{_n(width)}" height="{_n(height)}" '
            f'fill="{BACKGROUND}"/>']
    return "\n".join(head + out + ["</svg>"]) + "\n"


# ---- one hex ----------------------------------------------------------------------------------

def _hex_contents(game, h: str, x: float, y: float) -> list:
    v = game.state.values
    sector = v[("v", "sector_at", h)]
    owner = v.get(("v", "controller", h))
    out = [f'<g class="sector" data-hex="{h}">']
    if owner is not None:   # the controller's colour just inside the border
        out.append(f'<path class="control p{owner + 1}" d="{_hex_path(x, y, SIZE * 0.93)}" '
                   f'fill="none" stroke="{_colour(owner)}" stroke-width="3" '
                   f'stroke-opacity="0.85"/>')

    # wormholes: a half-disc on each edge that has one (two facing halves make a full disc)
    mask = G.rotate_mask(_mask(game, sector), v.get(("v", "rotation_at", h), 0))
    apothem, w = SIZE * SQ3 / 2, SIZE * 0.13
    for e in range(6):
        if mask >> e & 1:
            a = math.radians(60 * e)
            nx, ny = math.cos(a), math.sin(a)            # outward normal of edge e
            tx, ty = -ny, nx                             # along the edge
            mx, my = x + apothem * nx, y + apothem * ny
            pts = []
            for k in range(7):
                f = math.radians(30 * k)
                pts.append(f"{_n(mx + w * (math.cos(f) * tx - math.sin(f) * nx))},"
                           f"{_n(my + w * (math.cos(f) * ty - math.sin(f) * ny))}")
            out.append(f'<path class="wormhole" data-edge="{e}" d="M{" L".join(pts)} Z" '
                       f'fill="#000" stroke="{WORMHOLE}" stroke-width="1.8" '
                       f'stroke-linejoin="round"/>')

    # sector number and VP
    vp = _field(game, sector, "vp", 0)
    out.append(f'<text x="{_n(x)}" y="{_n(y - SIZE * 0.64)}" font-size="9" text-anchor="middle" '
               f'fill="{DIM_TEXT}" font-family="sans-serif">{sector.lstrip("s")} · {vp} VP</text>')

    # planets on an arc over the centre, cubes on them
    planets = list(_field(game, sector, "planets", ()))
    cubes = {}
    for c in v.get(("v", "cubes", h)) or ():
        slot, _, res = c.partition(":")
        cubes[slot] = res
    k = len(planets)
    for i, planet in enumerate(planets):
        a = math.radians(270 if k == 1 else 190 + 160 * i / (k - 1))
        px, py = x + SIZE * 0.44 * math.cos(a), y + SIZE * 0.44 * math.sin(a)
        res, advanced = planet.rstrip("*"), planet.endswith("*")
        r = SIZE * 0.12
        look = ('class="planet planet-{0} advanced" stroke="#fff" stroke-width="2" '
                'stroke-dasharray="3 2"' if advanced else
                'class="planet planet-{0}" stroke="#000" stroke-width="1"').format(res)
        out.append(f'<circle {look} cx="{_n(px)}" cy="{_n(py)}" r="{_n(r)}" '
                   f'fill="{RESOURCE_COLOURS.get(res, "#fff")}">'
                   f'<title>{escape(planet.replace("*", " (advanced)"))} population square'
                   f'</title></circle>')
        if str(i) in cubes and owner is not None:
            out.append(_cube(owner, px, py, cubes[str(i)]))
    for what in game.ruleset.by_kind.get("structure", ()):   # by its icon (ships.rules)
        if not v.get(("v", f"{what}_at", h)):
            continue
        if _field(game, what, "icon", "") == "ring":
            ox, oy = x - SIZE * 0.3, y + SIZE * 0.22
            out.append(f'<rect class="{what}" x="{_n(ox - 9)}" y="{_n(oy - 6)}" width="18" '
                       f'height="12" rx="6" fill="#505872" stroke="#c0c8e8" stroke-width="1.2">'
                       f'<title>{escape(_label(game, what))}</title></rect>')
        else:
            ox, oy = x + SIZE * 0.3, y + SIZE * 0.2
            out.append(f'<rect class="{what}" x="{_n(ox - 4)}" y="{_n(oy - 10)}" width="8" '
                       f'height="20" fill="#151515" stroke="#d0d0d0" stroke-width="1.2">'
                       f'<title>{escape(_label(game, what))}</title></rect>')
        square = _field(game, what, "square", "")
        if square and square in cubes and owner is not None:
            out.append(_cube(owner, ox, oy, cubes[square]))

    # the influence disc
    if owner is not None:
        fill, edge = PLAYER_COLOURS[owner % len(PLAYER_COLOURS)]
        out.append(f'<circle class="disc p{owner + 1}" cx="{_n(x)}" cy="{_n(y)}" '
                   f'r="{_n(SIZE * 0.16)}" fill="{fill}" stroke="{edge}" stroke-width="2.5">'
                   f'<title>influence disc of {escape(_player_label(game, owner))}</title>'
                   f'</circle>')

    # unclaimed discovery, then NPC ships, on one row under the disc
    row = []
    if v.get(("v", "discovery_at", h)):
        row.append("discovery")
    row.extend(v.get(("v", "npcs", h)) or ())
    icons = [_field(game, kind, "icon", kind) for kind in row]
    widths = [SIZE * (0.34 if icon == "core" else 0.2) for icon in icons]
    cx = x - sum(widths) / 2
    for kind, icon, w in zip(row, icons, widths):
        out.append(_npc(kind, cx + w / 2, y + SIZE * 0.3, icon=icon,
                        title=_field(game, kind, "title", kind)))
        cx += w

    # ships, by player in order of arrival: a wide row under the disc, a narrower one below;
    # a big fleet is drawn smaller so that it fits
    ships = sorted(v.get(("v", "ships", h)) or (), key=lambda s: s[0])
    widths = (SIZE * 1.2, SIZE * 0.6)
    step = min(SIZE * 0.19, sum(widths) / max(len(ships), 1))
    first = min(len(ships), int(widths[0] / step + 1e-9))
    for j, group in enumerate((ships[:first], ships[first:])):
        sy = y + SIZE * (0.49 + 0.18 * j)
        sx = x - step * (len(group) - 1) / 2
        for i, (p, cls) in enumerate(group):
            out.append(_ship(cls, _field(game, cls, "icon", ""), p, sx + i * step, sy,
                             _player_label(game, p), 1.5 * step / (SIZE * 0.19), _label(game, cls)))
    out.append("</g>")
    return out


def _cube(owner: int, x: float, y: float, res: str) -> str:
    fill, edge = PLAYER_COLOURS[owner % len(PLAYER_COLOURS)]
    a = SIZE * 0.12
    return (f'<rect class="cube p{owner + 1}" x="{_n(x - a / 2)}" y="{_n(y - a / 2)}" '
            f'width="{_n(a)}" height="{_n(a)}" fill="{fill}" stroke="{edge}" stroke-width="1.2">'
            f'<title>{escape(res)} cube</title></rect>')


SHIP_ICONS = {   # a ship class's ``icon`` (ships.rules): (dx, dy) in units of SIZE, nose up
    "dart": ((0, -.075), (.05, .06), (0, .03), (-.05, .06)),
    "frigate": ((0, -.095), (.06, .01), (.06, .075), (-.06, .075), (-.06, .01)),
    "wedge": ((0, -.1), (.075, -.02), (.075, .08), (.025, .06), (-.025, .06), (-.075, .08),
              (-.075, -.02)),
    "station": ((-.06, -.06), (.06, -.06), (.06, .06), (-.06, .06)),
}


def _ship(cls: str, icon: str, p: int, x: float, y: float, owner: str,
          scale: float = 1.0, label: str = "") -> str:
    """One ship as one path, shaped by its class's ``icon`` (a triangle when unknown), titled
    ``label`` (the class's :func:`_label`)."""
    fill, edge = PLAYER_COLOURS[p % len(PLAYER_COLOURS)] if p >= 0 else ("#d0d0d0", "#000")
    s = SIZE * scale
    pts = SHIP_ICONS.get(icon, ((0, -.07), (.07, .07), (-.07, .07)))
    d = "M" + " L".join(f"{_n(x + dx * s)},{_n(y + dy * s)}" for dx, dy in pts) + " Z"
    cls_attr = f"ship {cls} p{p + 1}" if p >= 0 else "key"
    return (f'<path class="{cls_attr}" d="{d}" fill="{fill}" stroke="{edge}" stroke-width="1.3" '
            f'stroke-linejoin="round"><title>{escape(label or cls)} of {escape(owner)}</title></path>')


def _key_label(x: float, y: float, text: str) -> str:
    return (f'<text x="{_n(x)}" y="{_n(y + 3.5)}" font-size="9" fill="{DIM_TEXT}">'
            f'{escape(text)}</text>')


def _npc(kind: str, x: float, y: float, cls: str | None = None, r: float | None = None, *,
         icon: str = "crest", title: str = "") -> str:
    """An NPC ship by its ``icon`` (ships.rules): ``crest`` (magenta), ``core`` (a large dark
    magenta disc), in :data:`NPC_COLOURS`; or, for ``kind == "discovery"``, a discovery tile."""
    if kind == "discovery":
        a = SIZE * 0.14
        return (f'<rect class="{cls or "discovery"}" x="{_n(x - a / 2)}" y="{_n(y - a / 2)}" '
                f'width="{_n(a)}" height="{_n(a)}" rx="2" fill="#d8b04a" stroke="#4a3600" '
                f'stroke-width="1.2"><title>discovery tile</title></rect>')
    if icon == "core":
        r = r or SIZE * 0.15
        return (f'<circle class="{cls or "npc " + kind}" cx="{_n(x)}" cy="{_n(y)}" r="{_n(r)}" '
                f'fill="{NPC_COLOURS["core"][0]}" stroke="{NPC_COLOURS["core"][1]}" stroke-width="2.5">'
                f'<title>{escape(title or kind)}</title></circle>')
    r = SIZE * 0.085
    d = (f"M{_n(x)},{_n(y - r)} L{_n(x + r)},{_n(y - r * 0.2)} L{_n(x + r * 0.6)},{_n(y + r)} "
         f"L{_n(x - r * 0.6)},{_n(y + r)} L{_n(x - r)},{_n(y - r * 0.2)} Z")
    return (f'<path class="{cls or "npc " + kind}" d="{d}" fill="{NPC_COLOURS["crest"][0]}" '
            f'stroke="{NPC_COLOURS["crest"][1]}" '
            f'stroke-width="1.2" stroke-linejoin="round"><title>{escape(title or kind)} ship</title>'
            f'</path>')


# ---- the legend -------------------------------------------------------------------------------

def _legend(game, left: float, top: float) -> tuple:
    v = game.state.values
    x0, y = left + 10, top + 26
    out = [f'<g class="legend" font-family="sans-serif" fill="{TEXT}">',
           f'<text x="{_n(x0)}" y="{_n(y)}" font-size="16" font-weight="bold">'
           f'{escape(game.ruleset.title)}</text>']
    rnd = v.get(("f", "round"), 0)
    status = "final scores" if game.over else (f"round {rnd}" if rnd else "setup")
    y += 18
    out.append(f'<text x="{_n(x0)}" y="{_n(y)}" font-size="11" fill="{DIM_TEXT}">'
               f'{game.players} players · {status}</text>')
    scores = game.scores()
    place = {}
    for i, tied in enumerate(game.ranking() if game.over else (), 1):
        for p in tied:
            place[p] = i
    hexes = v.get(("v", "hexes")) or ()
    for p in range(game.players):
        fill, edge = PLAYER_COLOURS[p % len(PLAYER_COLOURS)]
        y += 26
        out.append(f'<g class="legend-player p{p + 1}">')
        out.append(f'<circle cx="{_n(x0 + 8)}" cy="{_n(y - 4)}" r="8" fill="{fill}" '
                   f'stroke="{edge}" stroke-width="2"/>')
        out.append(f'<text x="{_n(x0 + 24)}" y="{_n(y + 1)}" font-size="13">'
                   f'{escape(_player_label(game, p))}</text>')
        rank = f" · #{place[p]}" if p in place else ""
        out.append(f'<text class="vp" x="{_n(x0 + LEGEND_W - 26)}" y="{_n(y + 1)}" font-size="13" '
                   f'text-anchor="end" font-weight="bold">{scores[p]["total"]} VP{rank}</text>')
        held = sum(1 for h in hexes if v.get(("v", "controller", h)) == p)
        fleet = sum(1 for h in hexes for owner, _ in v.get(("v", "ships", h)) or () if owner == p)
        discs = v.get(("c", "disc", p))
        detail = f"{held} hex{'es' if held != 1 else ''}, {fleet} ship{'s' if fleet != 1 else ''}"
        if discs is not None:
            detail += f", {discs} discs on the track"
        y += 16
        out.append(f'<text x="{_n(x0 + 24)}" y="{_n(y)}" font-size="10" fill="{DIM_TEXT}">'
                   f'{escape(detail)}</text>')
        out.append("</g>")

    y += 32
    out.append(f'<text x="{_n(x0)}" y="{_n(y)}" font-size="11" fill="{DIM_TEXT}">ships</text>')
    classes = game.ruleset.by_kind.get("ship_class", ())
    for i, cls in enumerate(classes):   # in rows of SHIP_KEYS_A_ROW (modules add classes)
        if i and i % SHIP_KEYS_A_ROW == 0:
            y += SHIP_KEY_ROW
        cx = x0 + 20 + i % SHIP_KEYS_A_ROW * SHIP_KEY_STEP
        out.append(_ship(cls, _field(game, cls, "icon", ""), -1, cx, y + 20, "—", 1.6, _label(game, cls)))
        out.append(f'<text x="{_n(cx)}" y="{_n(y + 42)}" font-size="8.5" text-anchor="middle" '
                   f'fill="{DIM_TEXT}">{escape(_label(game, cls))}</text>')
    y += 62
    out.append(f'<text x="{_n(x0)}" y="{_n(y)}" font-size="11" fill="{DIM_TEXT}">'
               f'population squares (dashed: advanced)</text>')
    for i, res in enumerate(("money", "science", "materials", "any")):
        cx = x0 + 8 + i * 64
        out.append(f'<circle class="key" cx="{_n(cx)}" cy="{_n(y + 16)}" r="6.5" '
                   f'fill="{RESOURCE_COLOURS[res]}" stroke="#000"/>')
        out.append(f'<text x="{_n(cx + 10)}" y="{_n(y + 19.5)}" font-size="9" fill="{DIM_TEXT}">'
                   f'{"grey" if res == "any" else res}</text>')
    y += 40
    out.append(f'<path class="key" d="M{_n(x0 + 1)},{_n(y + 4)} A7,7 0 0 1 {_n(x0 + 15)},'
               f'{_n(y + 4)} Z" fill="#000" stroke="{WORMHOLE}" stroke-width="1.8"/>')
    out.append(_key_label(x0 + 20, y, "wormhole"))
    out.append(_npc("discovery", x0 + 88, y, "key"))
    out.append(_key_label(x0 + 98, y, "discovery"))
    for npc in game.ruleset.by_kind.get("npc_ship", ()):   # one line each: the icon, the title
        y += 26
        title = _field(game, npc, "title", npc)
        out.append(_npc(npc, x0 + 8, y, "key", 7.0, icon=_field(game, npc, "icon", "crest"),
                        title=title))
        out.append(_key_label(x0 + 20, y, title))
    out.append("</g>")
    return out, y + 12


# ---- labels, content, geometry ----------------------------------------------------------------

def _field(game, entity: str, field: str, default):
    ent = game.ruleset.entities.get(entity)
    if ent is None:
        return default
    value = ent.fields.get(field, default)
    return default if value is None else value


def _label(game, entity: str) -> str:
    """An entity as the map names it: its ``title``, else its name in words ('exile orbital')."""
    return _field(game, entity, "title", "") or entity.replace("_", " ")


def _mask(game, sector: str) -> int:
    mask = 0
    for e in _field(game, sector, "wormholes", ()):
        mask |= 1 << (e % 6)
    return mask


def _colour(p: int) -> str:
    return PLAYER_COLOURS[p % len(PLAYER_COLOURS)][0]


def _player_label(game, p: int) -> str:
    species = game.state.values.get(("v", "species_of", p))
    return f"p{p + 1} {species.replace('_', ' ').title()}" if species else f"p{p + 1}"


def _hex_title(game, h: str, sector: str) -> str:
    v = game.state.values
    parts = [f"{sector.lstrip('s')} {_field(game, sector, 'title', '')}".strip(), f"at {h}"]
    owner = v.get(("v", "controller", h))
    if owner is not None:
        parts.append(f"held by {_player_label(game, owner)}")
    return ", ".join(parts)


def _pos(h: str) -> tuple:
    q, r = h.split(",")
    return int(q), int(r)


def _pixel(q: int, r: int) -> tuple:
    return SIZE * SQ3 * (q + r / 2), SIZE * 1.5 * r


def _hex_path(x: float, y: float, size: float) -> str:
    """Path data of a closed hexagon (for outlines that must not be polygons)."""
    return "M" + _corners(x, y, size).replace(" ", " L") + " Z"


def _corners(x: float, y: float, size: float) -> str:
    pts = []
    for i in range(6):
        a = math.radians(60 * i + 30)
        pts.append(f"{_n(x + size * math.cos(a))},{_n(y + size * math.sin(a))}")
    return " ".join(pts)


def _n(x: float) -> str:
    """A coordinate with at most two decimals, no trailing zeros."""
    s = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s
