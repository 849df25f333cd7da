"""Gaia Project primitives: the algorithms the rule files call (geometry, federations).

Only algorithms live here; every rule value (costs, ranges, rewards) is in ``rules/*.rules``.
The map is kept in the state by the rules' variables:

* ``hexes`` (list of hex names, ``"3A11"``), ``planet[h]`` (planet letter, ``"e"`` = space),
  ``map_layout`` (``"5A:2"`` per sector in centre order, written by :func:`deal_map`);
* ``pval[h]`` (power value of the structure at ``h``), ``owner_at[h]``, ``my_hexes`` (per player),
  ``fed_groups`` (per player, each federation as ``"h1,h2,..."``), ``fed_threshold`` (per player).

Hexes are their names (text); the :class:`~.geometry.GaiaMap` is rebuilt from ``map_layout``
(cached), so distances are exact axial distances.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections import OrderedDict

from boardrules.errors import OptionError
from boardrules.primitives import primitive
from boardrules.quoting import read_whole

from . import federation as F
from . import geometry as G


# ---- the map in the state ------------------------------------------------------------------

@functools.lru_cache(maxsize=16)
def _map(layout: tuple) -> G.GaiaMap:
    """The map of a ``map_layout``: ``"5A:2"`` per sector in the layout's centre order (7 or 10
    sectors: standard; 8: the x-shape layout, :func:`.geometry.layout_centres`), then
    ``"mirror"`` when the sector tiles are read mirrored (the site's legacy reading)."""
    mirror = bool(layout) and layout[-1] == "mirror"
    if mirror:
        layout = layout[:-1]
    centres = G.layout_centres(len(layout))
    sectors = []
    for text, centre in zip(layout, centres):
        name, rot = text.split(":")
        sectors.append(G.SectorPlacement(name, int(rot), centre))
    return G.build_map(G.MapPlacement(tuple(sectors), mirror))


def _gmap(ctx) -> G.GaiaMap:
    layout = ctx.get(("v", "map_layout"))
    if not layout:
        raise ctx.violation("the map is not dealt yet")
    return _map(tuple(layout))


class _Distances:
    """Axial distances on one map, for the range primitives: a hex's distances to every hex of
    the map (one row per hex name, built on first use) and the hexes within d of it as a bitset
    over the map's hexes in name order (bit i = ``names[i]``), so a union over many sources is
    a few integer ORs and reads back already sorted. Unknown names raise ``KeyError``."""

    def __init__(self, gmap: G.GaiaMap):
        hexes = sorted(gmap.hexes, key=lambda mh: mh.name)
        self.names: tuple[str, ...] = tuple(mh.name for mh in hexes)
        self.index = {n: i for i, n in enumerate(self.names)}
        self._axial = [(mh.hex.q, mh.hex.r) for mh in hexes]
        # the state keys of the hexes' planet letters, in name order (_planet_bits)
        self.planet_keys: tuple[tuple[str, str, str], ...] = tuple(("v", "planet", n) for n in self.names)
        self._rows: dict[str, list[int]] = {}
        self._balls: dict[str, list[int]] = {}
        self._nearest: dict[tuple, list[int]] = {}
        # the planet letters of the hexes in name order -> their bitset (_planet_bits)
        self.planet_bits: dict[tuple, int] = {}

    def row(self, name: str) -> list[int]:
        """Distances from ``name`` to each hex, in name order."""
        got = self._rows.get(name)
        if got is None:
            q, r = self._axial[self.index[name]]
            got = self._rows[name] = [max(abs(q - a), abs(r - b), abs(q - a + r - b))
                                      for a, b in self._axial]
        return got

    def ball(self, name: str, d: int) -> int:
        """Bitset of the hexes at distance <= d of ``name``."""
        balls = self._balls.get(name)
        if balls is None:
            row = self.row(name)
            rings = [0] * (max(row) + 1)
            for i, k in enumerate(row):
                rings[k] |= 1 << i
            balls, acc = [], 0
            for ring in rings:
                acc |= ring
                balls.append(acc)
            self._balls[name] = balls
        if d < 0:
            return 0
        return balls[d] if d < len(balls) else balls[-1]

    def distance(self, name: str, sources) -> int:
        """Least distance from ``name`` to the hexes ``sources`` (a non-empty tuple of names),
        read from the sources' nearest-distance row: the least of their rows, built once per
        source tuple (a player's hexes are asked about for many hexes; each hex asked about
        would otherwise need its own row and balls, some 50 µs a hex on a new map)."""
        got = self._nearest.get(sources)
        if got is None:
            row = self.row
            got = list(map(min, zip(*(row(s) for s in sources))))
            if len(self._nearest) > 512:
                self._nearest.clear()
            self._nearest[sources] = got
        return got[self.index[name]]

    def names_of(self, mask: int) -> tuple[str, ...]:
        """The names of the bits of ``mask``, sorted."""
        names, out = self.names, []
        while mask:
            low = mask & -mask
            out.append(names[low.bit_length() - 1])
            mask ^= low
        return tuple(out)


@functools.lru_cache(maxsize=16)
def _distances(layout: tuple) -> _Distances:
    return _Distances(_map(layout))


def _dist(layout: tuple, a: str, b: str) -> int:
    geo = _distances(layout)
    return geo.row(a)[geo.index[b]]


def _within(layout: tuple, h: str, d: int) -> tuple:
    geo = _distances(layout)
    return geo.names_of(geo.ball(h, d))


@functools.lru_cache(maxsize=4096)
def _near_probe(layout: tuple, sources: tuple, d: int) -> tuple[tuple[str, ...], tuple]:
    """The hexes within ``d`` of any of ``sources`` (sorted names) with their ``planet`` state
    keys, made once per map, sources and distance (a player's range is asked of every listing
    of their turns, while it changes only when they build or reach further)."""
    geo = _distances(layout)
    ball = geo.ball
    mask = 0
    for s in sources:
        mask |= ball(s, d)
    names = geo.names_of(mask)
    return names, tuple(("v", "planet", n) for n in names)


def _near(ctx, layout: tuple, sources, d: int, space: bool) -> tuple:
    """The planet hexes (``space``: the empty space hexes) within ``d`` of any of ``sources``,
    in name order: the hexes in range whose planet letter is not empty space (is)."""
    names, keys = _near_probe(layout, tuple(sources), d)
    if ctx.w:
        letters = ctx.get_each(keys)
    else:   # (the committed values without the writes: read straight, defaults apart)
        default = ctx.rs.default_of(keys[0]) if keys else G.EMPTY
        letters = map(ctx.base.get, keys, itertools.repeat(default, len(keys)))
    empty = G.EMPTY
    if space:
        return tuple([n for n, x in zip(names, letters) if x == empty])
    return tuple([n for n, x in zip(names, letters) if x != empty])


def _planet_bits(ctx, layout: tuple) -> int:
    """The hexes holding a planet now (``planet`` other than empty space) as a bitset in name
    order (memoised per committed state, and per the planet letters read: they change only when
    a Lost Planet is placed, so most states read them in C and find their bits known)."""
    def compute() -> int:
        geo = _distances(layout)
        keys = geo.planet_keys
        if ctx.w:
            letters = tuple(ctx.get_each(keys))
        else:   # (the committed values without the writes: read straight, defaults apart)
            default = ctx.rs.default_of(keys[0]) if keys else G.EMPTY
            letters = tuple(map(ctx.base.get, keys, itertools.repeat(default, len(keys))))
        bits = geo.planet_bits.get(letters)
        if bits is None:
            if len(geo.planet_bits) > 64:
                geo.planet_bits.clear()
            flags = ["0" if x == G.EMPTY else "1" for x in letters]
            bits = geo.planet_bits[letters] = int("".join(reversed(flags)) or "0", 2)
        return bits
    return _state_cache(ctx, ("planet_bits", layout), compute)


def _state_cache(ctx, key, compute):
    """Memoise a pure query on the committed state (only while the action wrote nothing)."""
    if ctx.w:
        return compute()
    cache = ctx.rs.__dict__.setdefault("_gaia_cache", {})
    base = ctx.base
    hit = cache.get(key)
    if hit is not None and hit[0] is base:
        return hit[1]
    value = compute()
    if len(cache) > 256:
        cache.clear()
    cache[key] = (base, value)
    return value


@primitive("deal_map", effect=True, seed="int")
def deal_map(ctx, seed):
    """Deal a random valid map from ``seed`` (a chance draw) and store it in the state."""
    placement = G.deal_placement(random.Random(seed), ctx.nplayers)
    _store_map(ctx, tuple(f"{p.sector}:{p.rotation}" for p in placement.sectors))


@primitive("deal_map", effect=True, seed="int", replaces=True)
def xshape_deal_map(ctx, seed):
    """Module ``xshape``: deal a random valid x-shape map from ``seed`` (a chance draw)."""
    placement = G.deal_placement(random.Random(seed), ctx.nplayers, layout="xshape")
    _store_map(ctx, tuple(f"{p.sector}:{p.rotation}" for p in placement.sectors))


def _store_map(ctx, layout: tuple) -> None:
    gmap = _map(layout)
    ctx.set(("v", "map_layout"), layout)
    ctx.set(("v", "hexes"), tuple(mh.name for mh in gmap.hexes))
    for mh in gmap.hexes:
        if mh.planet != G.EMPTY:
            ctx.set(("v", "planet", mh.name), mh.planet)


@primitive("set_map", effect=True, layout="text")
def set_map(ctx, layout):
    """Lay out an explicit map (option ``fixed_map``): ``"4:3,6B:4,…"`` (sector:rotation in
    layout centre order: 7 or 10 sectors standard, 8 the x-shape layout) with an optional last
    item ``mirror``. Raises :class:`~boardrules.errors.OptionError` naming the option, the
    faulty item and the form expected, before anything is laid out."""
    items = tuple(x.strip() for x in layout.split(",") if x.strip())
    body = items[:-1] if items and items[-1] == "mirror" else items

    def refuse(why: str) -> OptionError:
        return OptionError(f"option fixed_map may not be {layout!r}: {why}; expected "
                           f"SECTOR:ROTATION items separated by commas (e.g. '1:0,2:3,...'), "
                           f"optionally ending in 'mirror'")
    for text in body:
        name, colon, rot = text.partition(":")
        rotation = read_whole(rot.strip())
        if not colon or not name.strip() or rotation is None or rotation < 0:
            raise refuse(f"{text!r} is not SECTOR:ROTATION with a whole-number rotation")
        try:
            G.sector_contents(name.strip(), rotation)
        except G.GeometryError as err:
            raise refuse(str(err)) from None
    try:
        _map(items)
    except (ValueError, G.GeometryError) as err:
        raise refuse(str(err)) from None
    _store_map(ctx, items)


@primitive("hex_distance", returns="int", a="hex", b="hex")
def hex_distance(ctx, a, b):
    """Number of hex steps between two hexes."""
    return _dist(tuple(ctx.get(("v", "map_layout"))), a, b)


@primitive("hexes_within", returns="list:hex", h="hex", d="int")
def hexes_within(ctx, h, d):
    """The map's hexes at distance <= d of h (h included)."""
    return _within(tuple(ctx.get(("v", "map_layout"))), h, d)


@functools.lru_cache(maxsize=4096)
def _structure_probe(layout: tuple, h: str, d: int) -> tuple[tuple[str, ...], tuple, tuple]:
    """The hexes within d of h (sorted names) with their ``owner_at`` and ``guest_at`` state
    keys, made once per map, hex and distance (the power charges ask after every build)."""
    names = _within(layout, h, d)
    return (names, tuple(("v", "owner_at", x) for x in names),
            tuple(("v", "guest_at", x) for x in names))


@primitive("structures_within", returns="list:hex", h="hex", d="int")
def structures_within(ctx, h, d):
    """The map's hexes at distance <= d of h (h included) holding a structure of some player
    (``owner_at`` set) or a guest mine (``guest_at`` set), in name order: the hexes a rule about
    the structures near h has to look at (an upgrade's price near other players)."""
    names, owner_keys, guest_keys = _structure_probe(tuple(ctx.get(("v", "map_layout"))), h, d)
    return tuple(x for x, o, g in zip(names, ctx.get_each(owner_keys), ctx.get_each(guest_keys))
                 if o is not None or g is not None)


@primitive("power_values_near", returns="list:int", h="hex", d="int")
def power_values_near(ctx, h, d):
    """Per player (by player number), the highest power value among the player's structures
    (``pval[x]`` where ``owner_at[x]`` is the player) and guest mines (``guest_pval[x]`` where
    ``guest_at[x]`` is the player) at distance <= d of h; 0 for a player with none there: what a
    power charge offers each player before its caps (gaia-project.md §12.1). One walk over the
    hexes in range for all the players."""
    names, owner_keys, guest_keys = _structure_probe(tuple(ctx.get(("v", "map_layout"))), h, d)
    get = ctx.get
    best = [0] * ctx.nplayers
    for x, o, g in zip(names, ctx.get_each(owner_keys), ctx.get_each(guest_keys)):
        if o is not None:
            v = get(("v", "pval", x))
            if v > best[o]:
                best[o] = v
        if g is not None:
            v = get(("v", "guest_pval", x))
            if v > best[g]:
                best[g] = v
    return tuple(best)


@primitive("distance_from", returns="int", h="hex", sources="list:hex")
def distance_from(ctx, h, sources):
    """Least distance from h to any hex of ``sources`` (99 when there is none)."""
    if not sources:
        return 99
    return _distances(tuple(ctx.get(("v", "map_layout")))).distance(h, tuple(sources))


@primitive("planets_near", returns="list:hex", sources="list:hex", d="int")
def planets_near(ctx, sources, d):
    """Planet hexes (not empty space) within distance d of any hex of ``sources``."""
    layout = tuple(ctx.get(("v", "map_layout")))
    return _state_cache(ctx, ("planets_near", tuple(sources), d),
                        lambda: _near(ctx, layout, sources, d, False))


@primitive("space_near", returns="list:hex", sources="list:hex", d="int")
def space_near(ctx, sources, d):
    """Empty space hexes within distance d of any hex of ``sources``."""
    layout = tuple(ctx.get(("v", "map_layout")))
    return _state_cache(ctx, ("space_near", tuple(sources), d),
                        lambda: _near(ctx, layout, sources, d, True))


@primitive("wheel_steps", returns="int", wheel="list:text", a="text", b="text")
def wheel_steps(ctx, wheel, a, b):
    """Terraforming steps from planet type ``a`` to ``b``: the shorter way round the cycle
    ``wheel`` (the rules' terraforming wheel, gaia-project.md §3; 0 to 3 on its 7 types).
    A type not on the wheel (Gaia, transdim, space) counts as position -1, as the rules'
    ``position`` gives it."""
    n = len(wheel)
    ia = wheel.index(a) if a in wheel else -1
    ib = wheel.index(b) if b in wheel else -1
    diff = abs(ia - ib)
    return min(diff, n - diff)


@primitive("sector_of", returns="text", h="hex")
def sector_of(ctx, h):
    """The sector number part of a hex name (``"10A3"`` → ``"10"``)."""
    m = G._NAME_RE.fullmatch(h)
    return m.group(1) if m else ""


@primitive("track_level", returns="int", track="text")
def track_level(ctx, track):
    """The level of ``me`` on the track called ``track``."""
    if track not in ctx.rs.tracks:
        raise ctx.violation(f"no track {track!r}")
    return ctx.get(("t", track, ctx.player()))


# ---- federations ----------------------------------------------------------------------------

def _position(ctx, inputs=None) -> F.Position:
    """The federation position of ``me`` (memoised per committed state: it is immutable);
    ``inputs``: :func:`_federation_inputs` of ``me``, when the caller has them."""
    return _state_cache(ctx, ("position", ctx.player()), lambda: _compute_position(ctx, inputs))


#: what a position is made of (map, planets, the player's structures, federations, budget,
#: threshold, grown federation) -> the position, the last 256: a player's position stays the
#: same over the states of other players' turns, and building one is most of a listing's cost
#: of federation_options where it is not short of power
_POSITIONS: "OrderedDict[tuple, F.Position]" = OrderedDict()


@functools.lru_cache(maxsize=64)
def _space_and_planets(layout: tuple, bits: int) -> tuple[F.HexSet, F.HexSet]:
    """The map's space hexes and planet hexes as axial hex sets; ``bits``: the hexes holding a
    planet now (:func:`_planet_bits`; a Lost Planet makes a space hex a planet)."""
    gmap = _map(layout)
    space, planets = [], []
    for name in _distances(layout).names:
        h = gmap.by_name[name].hex
        (planets if bits & 1 else space).append((h.q, h.r))
        bits >>= 1
    return F.HexSet(space), F.HexSet(planets)


def _compute_position(ctx, inputs=None) -> F.Position:
    gmap = _gmap(ctx)
    me = ctx.player()
    layout = tuple(ctx.get(("v", "map_layout")))
    bits = _planet_bits(ctx, layout)
    own, grown, budget = _federation_inputs(ctx, me) if inputs is None else inputs
    fed_groups = tuple(ctx.get(("v", "fed_groups", me)) or ())
    budget = max(min(budget, 25 - len(ctx.get(("v", "satellites", me)) or ())), 0)
    threshold = ctx.get(("v", "fed_threshold", me)) or 7
    key = (layout, bits, tuple(own.items()), fed_groups, budget, threshold,
           None if grown is None else tuple(grown))
    got = _POSITIONS.get(key)
    if got is not None:
        _POSITIONS.move_to_end(key)
        return got
    space, planets = _space_and_planets(layout, bits)

    def ax(name):
        h = gmap.by_name[name].hex
        return (h.q, h.r)
    structures = {ax(h): v for h, v in own.items() if v > 0}
    groups = [frozenset(ax(x) for x in g.split(",")) for g in fed_groups]
    got = _POSITIONS[key] = F.Position(
        space=space, planets=planets, structures=structures, federations=groups, budget=budget,
        threshold=threshold, ivits_federation=None if grown is None else [ax(h) for h in grown])
    if len(_POSITIONS) > 256:
        _POSITIONS.popitem(last=False)
    return got


def _federation_inputs(ctx, me):
    """``(structures, grown, budget)`` of player ``me`` for a federation ``Position``.

    Reads only the generic state the rules keep, which a faction's abilities switch on
    (``rules/factions.rules``, "Generic state"; the factions are the module ``factions``):
    ``structures``: hex name -> power value of each structure of ``me`` that counts for
    federations (own structures, guest mines ``guest_at``/``guest_pval`` on others' planets,
    ``stations`` with their ``pval``); ``grown``: the hex names of the one growing federation
    when ``fed_grows`` is on (None otherwise or before the first); ``budget``: satellites payable
    now (power tokens in bowls I-III, or QIC when ``sat_qic`` is on), before the 25-piece cap.
    """
    structures = {}
    get = ctx.get
    for h in get(("v", "my_hexes", me)) or ():
        if get(("v", "owner_at", h)) == me:
            structures[h] = get(("v", "pval", h))
        elif get(("v", "guest_at", h)) == me:
            structures[h] = get(("v", "guest_pval", h))
    for h in get(("v", "stations", me)) or ():
        structures[h] = get(("v", "pval", h))
    grown = None
    if get(("v", "fed_grows", me)):
        hexes = set()
        for g in get(("v", "fed_groups", me)) or ():
            hexes.update(g.split(","))
        grown = sorted(hexes) or None
    if get(("v", "sat_qic", me)):
        budget = get(("r", "qic", me))
    else:
        budget = get(("r", "bowl1", me)) + get(("r", "bowl2", me)) + get(("r", "bowl3", me))
    return structures, grown, budget


def _encode(ctx, fed) -> str:
    return _code(_gmap(ctx), fed)


class FederationChoices(tuple):
    """The federations ``me`` may form. Iterating lists one per member set (the candidates a bot
    picks from); ``in`` accepts every legal federation, whichever of the equally short satellite
    placements it uses (the site's records name their own placement, e.g. djfjjv4k move 84)."""

    def __new__(cls, items, check):
        obj = super().__new__(cls, items)
        obj._check = check
        return obj

    def __contains__(self, code) -> bool:
        return tuple.__contains__(self, code) or (isinstance(code, str) and self._check(code))


_NO_FEDERATION = FederationChoices((), lambda code: False)


@primitive("federation_options", returns="list:text")
def federation_options(ctx):
    """Every legal federation of ``me`` now, each as its sorted hex names joined by commas."""
    me = ctx.player()

    def compute():
        # (most turns: too little power outside the federations, found before the position
        # is built; the search's own first test: no federation is legal, none is accepted)
        inputs = own, grown, _ = _federation_inputs(ctx, me)
        if grown is None and F.short_of_power(
                own.items(), (g.split(",") for g in ctx.get(("v", "fed_groups", me)) or ()),
                ctx.get(("v", "fed_threshold", me)) or 7):
            return _NO_FEDERATION
        position = _position(ctx, inputs)
        layout = tuple(ctx.get(("v", "map_layout")))
        gmap = _map(layout)

        def check(code):
            try:
                hexes = [gmap.by_name[h].hex for h in code.split(",")]
                fed = F.validate(position, [(h.q, h.r) for h in hexes])
            except (KeyError, ValueError):
                return False
            return _code(gmap, fed) == code
        return FederationChoices(_federation_codes(position, layout)[0], check)
    return _state_cache(ctx, ("federation_options", me), compute)


#: (position, layout) -> the listing of :func:`_federation_codes`, the last 128
_LISTINGS: "OrderedDict[tuple, tuple[tuple[str, ...], dict[str, tuple[str, ...]]]]" = OrderedDict()


def _federation_codes(position: F.Position, layout: tuple) -> tuple[tuple[str, ...], dict]:
    """The codes of the legal federations of ``position`` on the map ``layout``, and each code's
    satellite hexes (sorted names), as :func:`federation_satellites` answers them (remembered:
    the same player's unchanged board over several turns is listed once)."""
    key = (position, layout)
    got = _LISTINGS.get(key)
    if got is not None:
        _LISTINGS.move_to_end(key)
        return got
    try:
        feds = F.candidates(position)
    except ValueError:
        feds = []
    gmap = _map(layout)
    codes = tuple(_code(gmap, f) for f in feds)
    got = _LISTINGS[key] = (codes, {c: _satellite_names(gmap, f) for c, f in zip(codes, feds)})
    if len(_LISTINGS) > 128:
        _LISTINGS.popitem(last=False)
    return got


def _satellite_names(gmap: G.GaiaMap, fed: F.Federation) -> tuple[str, ...]:
    return tuple(sorted(gmap.name(G.Hex(q, r)) for q, r in fed.satellites))


def _code(gmap: G.GaiaMap, fed: F.Federation) -> str:
    """A federation's code: its hexes' names, sorted, joined by commas."""
    by_hex = gmap.by_hex
    return ",".join(sorted(by_hex[G.Hex(q, r)].name for q, r in fed.members | fed.satellites))


@primitive("federation_satellites", returns="list:hex", code="text")
def federation_satellites(ctx, code):
    """Validate the federation ``code`` for ``me``; return the hexes that need satellites.

    A code of the listing (:func:`federation_options`, when it was listed) is answered from it;
    any other is validated (:func:`.federation.validate`). Raises a rule violation naming the federation rule
    it breaks."""
    gmap = _gmap(ctx)
    position = _position(ctx)
    listing = _LISTINGS.get((position, tuple(ctx.get(("v", "map_layout")))))
    if listing is not None and code in listing[1]:
        return listing[1][code]
    hexes = [gmap.by_name[h].hex for h in code.split(",")]
    try:
        fed = F.validate(position, [(h.q, h.r) for h in hexes])
    except F.FederationError as err:
        raise ctx.violation(f"not a federation: {err}") from None
    return _satellite_names(gmap, fed)


@primitive("federated_structures", returns="int", p="player")
def federated_structures(ctx, p):
    """How many structures of ``p`` are in (or joined by adjacency to) its federations."""
    gmap = _gmap(ctx)
    mine = set(ctx.get(("v", "my_hexes", p)) or ())
    inside = set()
    for g in ctx.get(("v", "fed_groups", p)) or ():
        inside.update(g.split(","))
    frontier = list(inside)
    while frontier:
        h = frontier.pop()
        for n in gmap.neighbours(gmap.by_name[h].hex):
            name = gmap.name(n)
            if name in mine and name not in inside:
                inside.add(name)
                frontier.append(name)
    return len(mine & inside)


PRIMITIVES = [deal_map, set_map, hex_distance, hexes_within, structures_within, power_values_near,
              distance_from, wheel_steps,
              planets_near, space_near,
              sector_of, track_level, federation_options, federation_satellites,
              federated_structures]


@primitive("compositions", returns="any", n="int", caps="list:int")
def compositions(ctx, n, caps):
    """Every way to write ``n`` as a sum of ``len(caps)`` whole numbers, the i-th between 0 and
    ``caps[i]``: a list of lists, in increasing lexicographic order (empty when there is none;
    one empty list for ``n`` = 0 and no caps). E.g. the ways to take n power tokens from the
    three bowls. Raises a rule violation for more than 10,000 of them."""
    caps = [max(0, int(c)) for c in caps]
    if not caps:
        return ((),) if n == 0 else ()
    room = [0] * (len(caps) + 1)  # room[i]: the most parts i.. can hold
    for i in range(len(caps) - 1, -1, -1):
        room[i] = room[i + 1] + caps[i]
    out: list[tuple[int, ...]] = []
    last = len(caps) - 1

    def fill(i: int, left: int, prefix: tuple[int, ...]) -> None:
        if i == last:
            out.append(prefix + (left,))
            return
        for x in range(max(0, left - room[i + 1]), min(left, caps[i]) + 1):
            fill(i + 1, left - x, prefix + (x,))
    if 0 <= n <= room[0]:
        if (n + 1) ** (len(caps) - 1) > 10_000 and len(caps) > 1:
            raise ctx.violation(f"too many ways to split {n} into {len(caps)} parts")
        fill(0, n, ())
    return tuple(out)


@primitive("count_sectors", returns="int", hs="list:hex")
def count_sectors(ctx, hs):
    """How many different sectors the hexes ``hs`` are in."""
    return len({G._NAME_RE.fullmatch(h).group(1) for h in hs})


@primitive("planets_of", returns="list:hex", letter="text")
def planets_of(ctx, letter):
    """Hexes whose planet is ``letter``."""
    return tuple(h for h in ctx.get(("v", "hexes")) or () if ctx.get(("v", "planet", h)) == letter)


PRIMITIVES += [count_sectors, planets_of, compositions]
