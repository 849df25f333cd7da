"""Eclipse primitives: the rules' window onto galaxy geometry (galaxy.py), blueprints and ships.

Every number (costs, stats, tables) is read from the rule files' entities and variables; this
module holds bookkeeping and geometry only. State lives in the rule variables declared in
``rules/base.rules`` (keys ``("v", name, *index)``); hex ids are ``"q,r"`` texts.

Option texts used by decisions (so that records stay plain text):

* build ``"cruiser@2,0"`` (also ``orbital@…``, ``monolith@…``); move ``"interceptor@2,0>1,0"``;
  upgrade ``"cruiser#5=plasma_cannon"`` (class, slot index, part); colonize ``"2,0|1:science"``
  (hex, planet square index or ``o`` for the orbital, population type); a hit ``"cruiser:1"``
  (class, damage already taken); a bombarded cube ``"1:science"``; a player ``"p2"``
  (diplomacy). ``docs/eclipse.md`` documents the whole notation.

Combat: the battle primitives are in ``battle.py``; the battle procedure is in
``rules/phases.rules``. The population attack (bombardment) primitives are below.
"""

from __future__ import annotations

from boardrules.primitives import primitive
from boardrules.runtime import MISSING

from . import blueprints as B
from . import combat as C
from . import galaxy as G

RESOURCES = ("money", "science", "materials")
NPC = "npc"


# ---- small helpers -----------------------------------------------------------------------------

def _pos(h: str) -> G.Pos:
    q, r = h.split(",")
    return int(q), int(r)


def _hid(pos: G.Pos) -> str:
    return f"{pos[0]},{pos[1]}"


def _v(ctx, name, *idx):
    key = ("v", name, *idx)         # (ctx.get, inlined: the primitives read state constantly)
    w = ctx.w
    if key in w:
        return w[key]
    v = ctx.base.get(key, MISSING)
    return ctx.rs.default_of(key) if v is MISSING else v


def _set(ctx, name, idx: tuple, value) -> None:
    ctx.set(("v", name, *idx), value)


def _f(ctx, entity, field):
    return ctx.rs.entities[entity].fields[field]


def _kind(ctx, kind):
    return ctx.rs.by_kind.get(kind, ())


def _species(ctx, p):
    return _v(ctx, "species_of", p)


def _has(ctx, p, tech) -> bool:
    return tech in (_v(ctx, "techs", p) or ())


def _tech_gives(ctx, p, field, value=True) -> bool:
    """Whether one of ``p``'s technologies has ``field`` equal to ``value`` (techs.rules)."""
    return any(_f(ctx, t, field) == value for t in _v(ctx, "techs", p) or ())


def _advanced_ok(ctx, p, res) -> bool:
    """Whether ``p`` may put a ``res`` cube on an advanced ("*") square."""
    return _tech_gives(ctx, p, "advanced", res)


def _hexes(ctx) -> tuple:
    return _v(ctx, "hexes") or ()


def _controlled(ctx, p) -> list:
    return [h for h in _hexes(ctx) if _v(ctx, "controller", h) == p]


def _ships(ctx, h) -> tuple:
    return _v(ctx, "ships", h) or ()


def _npcs(ctx, h) -> tuple:
    return _v(ctx, "npcs", h) or ()


def _hostile_npcs(ctx, h, p) -> tuple:
    """NPCs in h that fight (and pin) player p: all but those ``peaceful_with`` p's species."""
    sp = _species(ctx, p)
    return tuple(n for n in _npcs(ctx, h) if sp not in _f(ctx, n, "peaceful_with"))


def _side(ctx, p) -> set:
    """``p`` and the players on ``p``'s side (the ``allies`` variable)."""
    return {p, *(_v(ctx, "allies", p) or ())}


def _enemy_ships(ctx, h, p) -> int:
    side = _side(ctx, p)
    return sum(1 for owner, _ in _ships(ctx, h) if owner not in side)


def _own_ships(ctx, h, p) -> int:
    return sum(1 for owner, _ in _ships(ctx, h) if owner == p)


def _disc_take(ctx, p) -> None:
    key = ("c", "disc", p)
    left = ctx.get(key)
    if left <= 0:
        raise ctx.violation("no influence disc left on the track")
    ctx.set(key, left - 1)


def _disc_return(ctx, p) -> None:
    key = ("c", "disc", p)
    ctx.set(key, ctx.get(key) + 1)


def _wg(ctx, p) -> bool:
    """Whether ``p`` goes through half wormhole connections (a ``half_connections`` tech, or the
    per-player variable ``half_connections`` that modules set)."""
    return _tech_gives(ctx, p, "half_connections") or bool(_v(ctx, "half_connections", p))


_GALAXY_CACHE: dict = {}


def _galaxy(ctx) -> G.Galaxy:
    key = (id(ctx.rs),) + tuple((h, _v(ctx, "sector_at", h), _v(ctx, "rotation_at", h),
                                 bool(_v(ctx, "warp_portal_at", h))) for h in _hexes(ctx))
    gal = _GALAXY_CACHE.get(key)
    if gal is None:
        if len(_GALAXY_CACHE) > 4096:
            _GALAXY_CACHE.clear()
        placed = [G.PlacedHex(_pos(h), _tile(ctx, s), rot, warp) for h, s, rot, warp in key[1:]]
        gal = _GALAXY_CACHE[key] = G.Galaxy(placed)
    return gal


def _tile(ctx, sector) -> G.SectorTile:
    mask = 0
    for e in _f(ctx, sector, "wormholes"):
        mask |= 1 << e
    return G.SectorTile(sector, mask, bool(_f(ctx, sector, "warp_portal")))


def _opt(ctx, value, sep, what):
    if not isinstance(value, str) or sep not in value:
        raise ctx.violation(f"{value!r} is not a {what} option")
    return value.split(sep, 1)


@primitive("option_part", returns="text", o="text", sep="text", i="int")
def option_part(ctx, o, sep, i):
    """Part ``i`` of an option text split at ``sep`` (``option_part("cruiser@2,0", "@", 1)`` is
    ``"2,0"``); a violation when there is no such part."""
    parts = o.split(sep) if isinstance(o, str) else []
    if not 0 <= i < len(parts):
        raise ctx.violation(f"{o!r} has no part {i} at {sep!r}")
    return parts[i]


# ---- setup -------------------------------------------------------------------------------------

@primitive("setup_galaxy", effect=True)
def setup_galaxy(ctx):
    """Lay the galactic centre and every player's home sector (the species' next unused one, then
    ``spare_homes`` but those of species or boards in play; turned so that a wormhole faces the centre), with the start ship, a disc and population cubes on the home planets
    (advanced squares only with the matching technology) [M: eclipse.md §2.1-2.2]."""
    n = ctx.nplayers
    layout = G.galaxy_layout(n)
    centre = next(s for s in _kind(ctx, "sector") if _f(ctx, s, "ring") == 0)
    _place(ctx, _hid(G.CENTER), centre, 0)
    used = set()
    # Spare homes are never those of a species in play nor of a board in play (species ``board``).
    picked = {_species(ctx, p) for p in range(n)} - {None}
    boards = {_f(ctx, sp, "board") for sp in picked} - {""}
    reserved = {s for sp in _kind(ctx, "species") if sp in picked or _f(ctx, sp, "board") in boards
                for s in _f(ctx, sp, "homes")}
    spare = tuple(s for s in _v(ctx, "spare_homes") or () if s not in reserved)
    for seat in range(n):
        p = seat
        sp = _species(ctx, p)
        if sp is None:
            raise ctx.violation(f"p{p + 1} has no species")
        homes = tuple(_f(ctx, sp, "homes")) + spare
        home = next((s for s in homes if s not in used), None)
        if home is None:
            raise ctx.violation(f"no home sector of {sp} is left for p{p + 1} (every one of "
                                f"{', '.join(homes)} is taken)")
        used.add(home)
        pos = layout.start_positions[seat]
        h = _hid(pos)
        _place(ctx, h, home, _centre_rotation(ctx, pos, home))
        _disc_take(ctx, p)
        _set(ctx, "controller", (h,), p)
        _set(ctx, "ships", (h,), ((p, _f(ctx, sp, "start_ship")),))
        cubes = []
        for i, planet in enumerate(_f(ctx, home, "planets")):
            res = planet.rstrip("*")
            if res in RESOURCES and (not planet.endswith("*") or _advanced_ok(ctx, p, res)):
                cubes.append(f"{i}:{res}")
                _set(ctx, f"out_{res}", (p,), _v(ctx, f"out_{res}", p) + 1)
        _set(ctx, "cubes", (h,), tuple(cubes))


def _centre_rotation(ctx, pos, sector) -> int:
    """The first rotation of ``sector`` at ``pos`` with a wormhole facing the centre."""
    toward = next(e for e, nb in enumerate(G.neighbours(pos)) if G.distance(nb) < G.distance(pos))
    tile = _tile(ctx, sector)
    return next(k for k in range(6) if G.rotate_mask(tile.wormholes, k) >> toward & 1)


@primitive("start_spaces_left", returns="list:hex")
def start_spaces_left(ctx):
    """The start-sector positions no player uses at this player count (``galaxy.galaxy_layout``'s
    ``homeworld_positions``: where RotA Ancient homeworlds go), as hex ids; none for 6 or 9
    players."""
    return tuple(_hid(pos) for pos in G.galaxy_layout(ctx.nplayers).homeworld_positions)


@primitive("centre_rotation", returns="int", h="hex", s="sector")
def centre_rotation(ctx, h, s):
    """The rotation a start-like sector ``s`` is laid with at ``h`` at setup: the first with a
    wormhole facing the centre, as the home sectors are."""
    return _centre_rotation(ctx, _pos(h), s)


def _place(ctx, h, sector, rotation):
    _set(ctx, "hexes", (), _hexes(ctx) + (h,))
    _set(ctx, "sector_at", (h,), sector)
    _set(ctx, "rotation_at", (h,), rotation)


# ---- exploring -------------------------------------------------------------------------------

@primitive("ring_of", returns="int", h="hex")
def ring_of(ctx, h):
    """The ring of a hex position: 0 centre, 1 inner, 2 middle, 3 outer (and beyond)."""
    return int(G.ring(_pos(h)))


def _anchors(ctx, p):
    return [_pos(h) for h in _hexes(ctx)
            if _v(ctx, "controller", h) == p or _own_ships(ctx, h, p)]


@primitive("explore_targets", returns="list:hex")
def explore_targets(ctx):
    """Unexplored spaces ``me`` may explore whose ring still has sectors to draw."""
    me = ctx.player()
    radius = ctx.rs.options["max_radius"].default
    spaces = G.explorable_positions(_galaxy(ctx), _anchors(ctx, me), wormhole_generator=_wg(ctx, me),
                                    max_radius=radius)
    left = {1: bool(_v(ctx, "stack_inner")), 2: bool(_v(ctx, "stack_middle")),
            3: bool(_v(ctx, "stack_outer")) and _v(ctx, "outer_left") > 0}
    return tuple(_hid(s) for s in sorted(spaces) if left[min(3, G.distance(s))])


@primitive("sector_rotations", returns="list:int", h="hex", s="sector")
def sector_rotations(ctx, h, s):
    """Distinct legal rotations of sector ``s`` at the unexplored space ``h`` for ``me``."""
    me = ctx.player()
    return G.legal_rotations(_galaxy(ctx), _pos(h), _tile(ctx, s), _anchors(ctx, me),
                             wormhole_generator=_wg(ctx, me), distinct=True)


@primitive("place_sector", effect=True, h="hex", s="sector", rotation="int")
def place_sector(ctx, h, s, rotation):
    """Put sector ``s`` at ``h`` turned ``rotation`` (its contents: ``sector_contents`` in the
    rules)."""
    if h in _hexes(ctx):
        raise ctx.violation(f"{h} is already explored")
    _place(ctx, h, s, rotation)


@primitive("foes", returns="int", h="hex")
def foes(ctx, h):
    """Ships in ``h`` that are ``me``'s enemies: other players' not on ``me``'s side (``allies``)
    and NPC ships not ``peaceful_with`` ``me``'s species."""
    me = ctx.player()
    return _enemy_ships(ctx, h, me) + len(_hostile_npcs(ctx, h, me))


# ---- influence and colony ships -----------------------------------------------------------------

@primitive("influence_reach", returns="list:hex")
def influence_reach(ctx):
    """Hexes an influence disc of ``me`` can reach: connected by a wormhole (half connections
    with ``half_connections``; warp portals) to a hex ``me`` controls or holds a ship in, and
    the hexes holding ``me``'s ships [M: eclipse.md §2.2]."""
    me = ctx.player()
    ship_hexes = {h for h in _hexes(ctx) if _own_ships(ctx, h, me)}
    sources = [_pos(h) for h in set(_controlled(ctx, me)) | ship_hexes]
    near = {_hid(p) for p in G.influence_targets(_galaxy(ctx), sources, wormhole_generator=_wg(ctx, me))}
    return tuple(sorted(near | ship_hexes))


@primitive("release_hex", effect=True, h="hex")
def release_hex(ctx, h):
    """The controller's disc leaves ``h`` for their track; its cubes go back to their tracks."""
    p = _v(ctx, "controller", h)
    if p is None:
        raise ctx.violation(f"nobody controls {h}")
    for cube in _v(ctx, "cubes", h) or ():
        res = cube.split(":")[1]
        _set(ctx, f"out_{res}", (p,), _v(ctx, f"out_{res}", p) - 1)
    _set(ctx, "cubes", (h,), ())
    _set(ctx, "controller", (h,), None)
    _disc_return(ctx, p)


def _squares(ctx, h):
    """``(square, cube type, advanced)`` for every population square of ``h``: its sector's
    planets (a grey "any" square takes each type) and the squares of structures built there."""
    for i, planet in enumerate(_f(ctx, _v(ctx, "sector_at", h), "planets")):
        base = planet.rstrip("*")
        for res in (RESOURCES if base == "any" else (base,)):
            yield str(i), res, planet.endswith("*")
    for what in _kind(ctx, "structure"):       # a structure's own square (the orbital's)
        square = _f(ctx, what, "square")
        if square and _v(ctx, f"{what}_at", h):
            for res in _f(ctx, what, "cube_types"):
                yield square, res, False


@primitive("squares_of", returns="list:text", p="player")
def squares_of(ctx, p):
    """Every population square, taken or free, in the hexes ``p`` controls, one entry per cube
    type it takes: ``"hex|square:type"`` (``"2,0|1:science"``; square ``o`` is the orbital's).
    Which of them a colony ship may fill is the rules' ``colonize``."""
    return tuple(f"{h}|{sq}:{res}" for h in _controlled(ctx, p) for sq, res, _ in _squares(ctx, h))


@primitive("square_advanced", returns="bool", h="hex", square="text")
def square_advanced(ctx, h, square):
    """Whether population square ``square`` of ``h`` is an advanced ("*") square."""
    return any(sq == square and adv for sq, _, adv in _squares(ctx, h))


@primitive("square_taken", returns="bool", h="hex", square="text")
def square_taken(ctx, h, square):
    """Whether a population cube stands on square ``square`` of ``h``."""
    return any(c.split(":")[0] == square for c in _v(ctx, "cubes", h) or ())


# ---- blueprints, ships, building -------------------------------------------------------------------

def _design(ctx, p, cls):
    return _v(ctx, "design_of", p, cls)


def _blueprint(ctx, p, cls) -> tuple:
    return _v(ctx, "blueprint", p, cls) or ()


def _outside(ctx, p, cls) -> tuple:
    """Parts of ``p``'s ``cls`` placed outside the blueprint grid (``grid_extras``: the RotA
    Muon Source); they count in the ship's statistics and take no slot."""
    return _v(ctx, "grid_extras", p, cls) or ()


def _stats(ctx, parts, design):
    """Summed part stats plus the design's printed bonuses (initiative, energy, computer,
    shield, hull; memoised per ruleset: blueprints.py)."""
    return B.tables(ctx.rs).stats(tuple(parts), design)


def _class_stats(ctx, p, cls):
    """The statistics of ``p``'s ``cls`` as its blueprint stands (grid and outside parts)."""
    return _stats(ctx, _blueprint(ctx, p, cls) + _outside(ctx, p, cls), _design(ctx, p, cls))


def ship_type(ctx, p, cls) -> C.ShipType:
    """Player ``p``'s ``cls`` as combat.py sees it."""
    s = _class_stats(ctx, p, cls)
    return C.ShipType(cls, C.SizeClass(_f(ctx, cls, "size")), max(0, s["initiative"]), s["hull"], s["computer"],
                      s["shield"], s["cannons"], s["missiles"], s["regenerates"])


def npc_type(ctx, name) -> C.ShipType:
    f = ctx.rs.entities[name].fields
    size = C.SizeClass(f["size"])
    return C.ShipType(name, size, f["initiative"], f["hull"], f["computer"], f["shield"], f["cannons"],
                      f["missiles"], f["regenerates"])


def _count_ships(ctx, p, cls) -> int:
    return sum(1 for h in _hexes(ctx) for owner, c in _ships(ctx, h) if owner == p and c == cls)


def _builds(ctx):
    return tuple(_kind(ctx, "ship_class")) + tuple(_kind(ctx, "structure"))


@primitive("build_sites", returns="list:text")
def build_sites(ctx):
    """Every ship class and structure in every hex ``me`` controls: ``"what@hex"``. What may be
    built is the rules' ``build_step``."""
    builds = [w for w in _builds(ctx) if _f(ctx, w, "built")]
    return tuple(f"{what}@{h}" for h in _controlled(ctx, ctx.player()) for what in builds)


@primitive("build_what", returns="any", o="text")
def build_what(ctx, o):
    """The ship class or structure a build option ``"what@hex"`` names."""
    what, _ = _opt(ctx, o, "@", "build")
    if what not in _builds(ctx):
        raise ctx.violation(f"{what!r} is neither a ship class nor a structure")
    return what


@primitive("fleet_size", returns="int", cls="ship_class")
def fleet_size(ctx, cls):
    """How many ships of class ``cls`` ``me`` has on the board."""
    return _count_ships(ctx, ctx.player(), cls)


@primitive("structure_at", returns="bool", h="hex", what="structure")
def structure_at(ctx, h, what):
    """Whether structure ``what`` stands in ``h`` (its ``NAME_at`` variable)."""
    return bool(_v(ctx, f"{what}_at", h))


@primitive("put_structure", effect=True, h="hex", what="structure")
def put_structure(ctx, h, what):
    """Structure ``what`` now stands in ``h``."""
    _set(ctx, f"{what}_at", (h,), True)


@primitive("add_ship", effect=True, h="hex", cls="ship_class")
def add_ship(ctx, h, cls):
    """A new ship of ``me`` in ``h`` (nothing when the class's limit is reached)."""
    me = ctx.player()
    if _count_ships(ctx, me, cls) >= _f(ctx, cls, "limit"):
        return
    _set(ctx, "ships", (h,), _ships(ctx, h) + ((me, cls),))


def _change(ctx, o):
    """``(class, slot, part, statistics after the change)`` of a blueprint change
    ``"cls#slot=part"`` of ``me``'s; a violation when ``o`` names no slot of ``me``'s
    blueprints or no part. (An Upgrade choice asks this several times per option: the state
    reads are inlined and the sums memoised, blueprints.py.)"""
    rs = ctx.rs
    t = B.tables(rs)
    got = t.change(o)
    if got is None:
        raise ctx.violation(f"{o!r} is not an upgrade (class#slot=part) naming a ship class and a part")
    cls, i, part = got
    me = ctx.player()
    w, base = ctx.w, ctx.base
    k = ("v", "blueprint", me, cls)
    bp = w[k] if k in w else base.get(k, MISSING)
    if bp is MISSING:
        bp = rs.default_of(k)
    if i >= len(bp or ()):
        raise ctx.violation(f"{o!r} names no slot of your blueprints")
    k = ("v", "grid_extras", me, cls)
    out = w[k] if k in w else base.get(k, MISSING)
    if out is MISSING:
        out = rs.default_of(k)
    k = ("v", "design_of", me, cls)
    design = w[k] if k in w else base.get(k, MISSING)
    if design is MISSING:
        design = rs.default_of(k)
    return cls, i, part, t.after(bp, out or (), design, i, part)


@primitive("blueprint_changes", returns="list:text")
def blueprint_changes(ctx):
    """Every single-part change of ``me``'s blueprints with a part ``me`` may place (a basic
    part, one whose technology ``me`` has, a spare discovery part): ``"cls#slot=part"``. Which
    blueprints are legal is the rules' ``upgrade_step``."""
    me = ctx.player()
    t = B.tables(ctx.rs)
    avail = t.available(_v(ctx, "techs", me) or (), _v(ctx, "spare_parts", me) or ())
    return tuple(f"{cls}#{i}={part}" for cls in _kind(ctx, "ship_class")
                 for i, old in enumerate(_blueprint(ctx, me, cls)) for part in avail if part != old)


@primitive("upgrade_options", returns="list:text")
def upgrade_options(ctx):
    """The legal Upgrade changes of ``me``: those of :func:`blueprint_changes` whose blueprint
    afterwards produces at least the energy its parts use (parts plus the design's printed
    bonus), has a drive (``move`` or ``jumps``) exactly when its class is ``mobile``, and does
    not put a part on a class its ``not_on`` names [S boards, player aid; rules/actions.rules
    ``upgrade_step``]. The same list, in the same order, as filtering every change through
    ``stat_after``/``change_class``/``change_part`` (tests/eclipse/test_upgrade_options.py
    holds that definition as the oracle); computed as arithmetic on the blueprints' totals
    and memoised per blueprint state (blueprints.py)."""
    me = ctx.player()
    t = B.tables(ctx.rs)
    techs = _v(ctx, "techs", me) or ()
    spares = _v(ctx, "spare_parts", me) or ()
    boards = tuple((_blueprint(ctx, me, cls), _outside(ctx, me, cls), _design(ctx, me, cls))
                   for cls in t.class_order)
    return t.legal_changes(techs, spares, boards)


@primitive("change_class", returns="any", o="text")
def change_class(ctx, o):
    """The ship class a blueprint change ``"cls#slot=part"`` is for."""
    return _change(ctx, o)[0]


@primitive("change_part", returns="any", o="text")
def change_part(ctx, o):
    """The part a blueprint change ``"cls#slot=part"`` places."""
    return _change(ctx, o)[2]


@primitive("stat_after", returns="int", o="text", stat="text")
def stat_after(ctx, o, stat):
    """``me``'s blueprint total of ``stat`` (``energy``, ``move``, ``jumps``, ``hull``,
    ``computer``, ``shield`` or ``initiative``: the parts' sum plus the design's printed bonus)
    after the change ``o`` (``"cls#slot=part"``)."""
    if stat not in B.STAT_FIELDS:
        raise ctx.violation(f"{stat!r} is not a blueprint statistic")
    return _change(ctx, o)[3][stat]


@primitive("install_part", effect=True, o="text")
def install_part(ctx, o):
    """Put the part of ``o`` (``"cls#slot=part"``) into that slot of ``me``'s blueprint (the
    rules decide whether the blueprint is legal)."""
    me = ctx.player()
    cls, i, part, _ = _change(ctx, o)
    bp = _blueprint(ctx, me, cls)
    _set(ctx, "blueprint", (me, cls), bp[:i] + (part,) + bp[i + 1:])


# ---- moving ----------------------------------------------------------------------------------

def _pinning(ctx, p) -> G.Pinning:
    """What pins ``p``'s ships: in each hex, enemy ships and hostile NPCs (each NPC counting
    its ``pins``), divided by the ``pinned_by`` of ``p``'s technologies (a Cloaking Device
    makes opponents need two ships per ship); ``p``'s side's ships count together."""
    need = max([1] + [_f(ctx, t, "pinned_by") for t in _v(ctx, "techs", p) or ()])
    side = _side(ctx, p)
    pins, own = {}, {}
    for h in _hexes(ctx):
        enemies = _enemy_ships(ctx, h, p) + sum(_f(ctx, n, "pins") for n in _hostile_npcs(ctx, h, p))
        if enemies // need:
            pins[_pos(h)] = enemies // need
        mine = sum(1 for owner, _ in _ships(ctx, h) if owner in side)
        if mine:
            own[_pos(h)] = mine
    return G.Pinning(pins, own)


@primitive("move_options", returns="list:text")
def move_options(ctx):
    """One ship of ``me`` from a hex to a reachable hex: ``"cls@from>to"`` (pinning applies)."""
    me = ctx.player()
    gal = _galaxy(ctx)
    pin = _pinning(ctx, me)
    wg = _wg(ctx, me)
    out = []
    for h in _hexes(ctx):
        classes = dict.fromkeys(c for owner, c in _ships(ctx, h) if owner == me)
        for cls in classes:
            s = _class_stats(ctx, me, cls)
            steps, jumps = max(0, s["move"]), max(0, s["jumps"])
            if not (steps or jumps) or not _f(ctx, cls, "mobile"):
                continue
            for dest in sorted(G.reachable(gal, _pos(h), steps, wormhole_generator=wg, pinning=pin,
                                           jumps=jumps)):
                if dest != _pos(h):
                    out.append(f"{cls}@{h}>{_hid(dest)}")
    return tuple(out)


@primitive("apply_move", effect=True, o="text")
def apply_move(ctx, o):
    me = ctx.player()
    if o not in move_options.fn(ctx):
        raise ctx.violation(f"{o} is not a legal move")
    cls, rest = o.split("@")
    src, dst = rest.split(">")
    ships = list(_ships(ctx, src))
    for i in range(len(ships) - 1, -1, -1):
        if ships[i] == (me, cls):
            del ships[i]
            break
    _set(ctx, "ships", (src,), tuple(ships))
    _set(ctx, "ships", (dst,), _ships(ctx, dst) + ((me, cls),))


@primitive("ship_owners", returns="list:player", h="hex")
def ship_owners(ctx, h):
    """The players with ships in ``h``, in order of arrival."""
    return tuple(dict.fromkeys(o for o, _ in _ships(ctx, h)))


# ---- diplomacy ------------------------------------------------------------------------------------
# Diplomatic relations (eclipse.md §2.7; 1st-edition wording M, Second Dawn's dized text as a
# labelled comparison): two players whose controlled hexes are joined by a wormhole connection
# (the Wormhole Generator does not count), neither holding the Traitor, without ships in each
# other's hexes, each with room on the reputation column, exchange ambassadors; each sends a
# population cube of their own (raising their production) on the ambassador they give.

def _rep_slots(ctx, p):
    sp = _species(ctx, p)
    rep_only, amb_only = _f(ctx, sp, "rep_only"), _f(ctx, sp, "amb_only")
    either = _f(ctx, sp, "rep_slots") - rep_only + (_v(ctx, "extra_rep_slots", p) or 0)
    return rep_only, amb_only, either


@primitive("rep_capacity", returns="int")
def rep_capacity(ctx):
    """Reputation tiles ``me`` may hold now: reputation-only slots plus the either-slots that
    ambassadors beyond the ambassador-only slots do not take [S boards: slot kinds]."""
    me = ctx.player()
    rep_only, amb_only, either = _rep_slots(ctx, me)
    held = len(_v(ctx, "ambassadors", me) or ())
    return rep_only + either - max(0, held - amb_only)


def _amb_room(ctx, p) -> bool:
    rep_only, amb_only, either = _rep_slots(ctx, p)
    tiles = len(_v(ctx, "reputation", p) or ())
    held = len(_v(ctx, "ambassadors", p) or ())
    return held + 1 <= amb_only + either - max(0, tiles - rep_only)


def _envoy_types(ctx, p) -> tuple:
    full = _v(ctx, "track_cubes")
    return tuple(r for r in RESOURCES if _v(ctx, f"out_{r}", p) < full)


def _ships_meet(ctx, a, b) -> bool:
    """Whether a ship of ``a`` is in a hex ``b`` controls or holds ships in, or vice versa."""
    for h in _hexes(ctx):
        owners = {o for o, _ in _ships(ctx, h)}
        ctrl = _v(ctx, "controller", h)
        for x, y in ((a, b), (b, a)):
            if x in owners and (ctrl == y or y in owners):
                return True
    return False


@primitive("ambassador_room", returns="bool", p="player")
def ambassador_room(ctx, p):
    """Whether ``p``'s reputation column has a free slot for one more ambassador (the slot
    kinds of ``p``'s species)."""
    return _amb_room(ctx, p)


@primitive("hexes_joined", returns="bool", a="player", b="player")
def hexes_joined(ctx, a, b):
    """Whether a hex ``a`` controls and one ``b`` controls are joined by a full wormhole
    connection (half connections do not count)."""
    gal = _galaxy(ctx)
    theirs = {_pos(h) for h in _controlled(ctx, b)}
    return any(n in theirs for h in _controlled(ctx, a) for n in gal.connected_neighbours(_pos(h)))


@primitive("ships_meet", returns="bool", a="player", b="player")
def ships_meet(ctx, a, b):
    """Whether a ship of ``a`` is in a hex ``b`` controls or holds ships in, or vice versa."""
    return _ships_meet(ctx, a, b)


@primitive("envoy_types", returns="list:text", p="player")
def envoy_types(ctx, p):
    """Population tracks ``p`` may take a cube from for an ambassador (a track with cubes)."""
    return _envoy_types(ctx, p)


@primitive("send_envoy", effect=True, frm="player", to="player", res="text")
def send_envoy(ctx, frm, to, res):
    """``frm`` gives ``to`` an ambassador carrying a ``res`` cube from ``frm``'s track."""
    if res not in _envoy_types(ctx, frm):
        raise ctx.violation(f"no {res} cube is left on the track")
    _set(ctx, f"out_{res}", (frm,), _v(ctx, f"out_{res}", frm) + 1)
    _set(ctx, "envoys", (frm,), (_v(ctx, "envoys", frm) or ()) + ((to, res),))
    _set(ctx, "ambassadors", (to,), (_v(ctx, "ambassadors", to) or ()) + (frm,))


@primitive("break_relations", effect=True, aggressor="player", victim="player")
def break_relations(ctx, aggressor, victim) -> None:
    """Both ambassadors go home, their cubes back to the track they came from [X: Second Dawn
    lets the owner pick the track]; the aggressor takes the Traitor card."""
    for holder, giver in ((aggressor, victim), (victim, aggressor)):
        held = list(_v(ctx, "ambassadors", holder) or ())
        held.remove(giver)
        _set(ctx, "ambassadors", (holder,), tuple(held))
        envoys = list(_v(ctx, "envoys", giver) or ())
        entry = next(e for e in envoys if e[0] == holder)
        envoys.remove(entry)
        _set(ctx, "envoys", (giver,), tuple(envoys))
        res = entry[1]
        _set(ctx, f"out_{res}", (giver,), _v(ctx, f"out_{res}", giver) - 1)
    _set(ctx, "traitor", (), aggressor)


# ---- after the battles: population, control -------------------------------------------------------

def _holders(ctx, h) -> tuple:
    """The players whose ships hold ``h``, in order of entry: all on one side (``allies``, who
    fight as one [seed, alliances]) with no NPC there hostile to any of them; () otherwise."""
    owners = tuple(dict.fromkeys(o for o, _ in _ships(ctx, h)))
    if not owners:
        return ()
    side = _side(ctx, owners[0])
    if any(o not in side or _hostile_npcs(ctx, h, o) for o in owners):
        return ()
    return owners


def _enemy_held(ctx, h) -> tuple:
    """The holders of ``h`` when its controller is not on their side, else ()."""
    ps = _holders(ctx, h)
    ctrl = _v(ctx, "controller", h)
    return ps if ps and ctrl is not None and ctrl not in _side(ctx, ps[0]) else ()


@primitive("cannon_dice", returns="any", h="hex", ps="list:player")
def cannon_dice(ctx, h, ps):
    """The cannon dice of the ships of players ``ps`` in ``h`` (their blueprints; missiles do
    not fire at population): ``((damage, computer), ...)`` in order of arrival, for
    :func:`hit_damage` (the population attack, phases.rules)."""
    out = []
    for owner, cls in _ships(ctx, h):
        if owner in ps:
            t = ship_type(ctx, owner, cls)
            out += [(d, t.computer) for d in t.cannons]
    return tuple(out)


@primitive("holder", returns="player", h="hex")
def holder(ctx, h):
    """The first to have entered of the players holding ``h`` (:func:`holders`), or none: who
    picks the cubes a bombardment kills [X: the seed's order of entry for allies' claims]."""
    ps = _holders(ctx, h)
    return ps[0] if ps else None


@primitive("holders", returns="list:player", h="hex")
def holders(ctx, h):
    """The players whose ships hold ``h``, in order of entry: one player, or allies fighting as
    one side; none while enemies (or NPCs hostile to them) are there too."""
    return _holders(ctx, h)


@primitive("held_by_enemies", returns="bool", h="hex")
def held_by_enemies(ctx, h):
    """Whether ships of players not on the side of ``h``'s controller hold ``h``: they attack its
    population and, once no cube is left, take the controller's disc off."""
    return bool(_enemy_held(ctx, h))


@primitive("npc_cannon_dice", returns="any", ns="list:npc_ship")
def npc_cannon_dice(ctx, ns):
    """The cannon dice of NPC ships ``ns`` (one entry per ship): ``((damage, computer), ...)``
    in ship then cannon order, for :func:`hit_damage` (NPC bombardment, phases.rules)."""
    return tuple((d, _f(ctx, n, "computer")) for n in ns for d in _f(ctx, n, "cannons"))


@primitive("hit_damage", returns="int", dice="any", rolls="any")
def hit_damage(ctx, dice, rolls):
    """The damage of the dice ``dice`` (``(damage, computer)`` pairs) that hit with ``rolls``
    (one face 1-6 each) against a target without shields: a 6 always hits, a 1 never, else
    face + computer >= 6 [S rules p.20 via BGG]. A violation when the counts differ."""
    if len(rolls) != len(dice):
        raise ctx.violation(f"this volley rolls {len(dice)} dice, got {len(rolls)}")
    return sum(d for (d, comp), r in zip(dice, rolls) if r == 6 or (r != 1 and r + comp >= 6))


PRIMITIVES = [v for v in list(globals().values()) if type(v).__name__ == "Primitive"]
