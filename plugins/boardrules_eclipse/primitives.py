"""Eclipse primitives: the rules' window onto galaxy geometry (galaxy.py) and combat (combat.py).

Every number (costs, stats, tables) is read from the rule files' entities and variables; this
module holds bookkeeping and geometry only. State lives in the rule variables declared in
``rules/base.rules`` (keys ``("v", name, *index)``); hex ids are ``"q,r"`` texts.

Option texts used by decisions (so that records stay plain text):

* build ``"cruiser@2,0"`` (also ``orbital@…``, ``monolith@…``); move ``"interceptor@2,0>1,0"``;
  upgrade ``"cruiser#5=plasma_cannon"`` (class, slot index, part); colonize ``"2,0|1:science"``
  (hex, planet square index or ``o`` for the orbital, population type); a hit ``"cruiser:1"``
  (class, damage already taken); a bombarded cube ``"1:science"``; a player ``"p2"``
  (diplomacy). ``docs/eclipse.md`` documents the whole notation.

Combat runs one volley at a time: :func:`battle_status` says what comes next, :func:`battle_dice`
how many dice the next volley rolls, the rules ask chance for them (``choose rolls in dice(n) by
chance``, a recorded action) and :func:`battle_roll` applies them. NPC hits are assigned by combat.py's NPC rule; a player assigns
their own hits one die at a time (:func:`hit_options`, a ``choose``), unless the game option
``auto_combat`` hands that (and retreat and bombardment targets) to combat.py's policies, as
simulations and bots may. A player's ship type may announce a retreat instead of firing and
leaves at its next activation. More than two parties fight pairwise, in reverse order of entry.
"""

from __future__ import annotations

import attrs

from boardrules.primitives import primitive
from boardrules.runtime import MISSING

from . import blueprints as B
from . import combat as C
from . import galaxy as G
from .memo import per_state

RESOURCES = ("money", "science", "materials")
NPC = "npc"
MAX_ROUNDS = 100  # engagement rounds before a battle counts as a stalemate


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


def _column(ctx, name) -> tuple:
    """``((hex, value), ...)``: the per-hex variable ``name`` at every explored hex, in
    exploration order (memoised per state: memo.py)."""
    reads = _COLUMN_READS.get(name)
    if reads is None:
        reads = _COLUMN_READS[name] = frozenset({"hexes", name})
    return per_state(ctx, ("column", name), reads,
                     lambda: tuple((h, _v(ctx, name, h)) for h in _hexes(ctx)))


_COLUMN_READS: dict = {}


def _ship_column(ctx) -> tuple:
    """``((hex, ships), ...)`` for the explored hexes holding ships."""
    return tuple((h, ships) for h, ships in _column(ctx, "ships") if ships)


def _controlled(ctx, p) -> tuple:
    """The hexes ``p`` controls, in exploration order (memoised per state: memo.py)."""
    return tuple(h for h, c in _column(ctx, "controller") if c == p)


_CONTROL_READS = frozenset({"hexes", "controller"})


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


_GALAXY_READS = frozenset({"hexes", "sector_at", "rotation_at", "warp_portal_at"})


def _galaxy(ctx) -> G.Galaxy:
    """The explored galaxy (galaxy.py) as the state places it (memoised per state: memo.py)."""
    return per_state(ctx, ("galaxy",), _GALAXY_READS, lambda: _built_galaxy(ctx))


def _built_galaxy(ctx) -> G.Galaxy:
    key = (id(ctx.rs),) + tuple((h, s, r, bool(w)) for (h, s), (_, r), (_, w) in zip(
        _column(ctx, "sector_at"), _column(ctx, "rotation_at"), _column(ctx, "warp_portal_at")))
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
    """The positions of the hexes ``p`` controls or has a ship in (exploration order)."""
    mine = set(_controlled(ctx, p)) | {h for h, ships in _ship_column(ctx) if any(o == p for o, _ in ships)}
    return [_pos(h) for h in _hexes(ctx) if h in mine]


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
    ship_hexes = {h for h, ships in _ship_column(ctx) if any(o == me for o, _ in ships)}
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
    return sum(1 for _, ships in _ship_column(ctx) for owner, c in ships if owner == p and c == cls)


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
    """``(class, slot, part, blueprint)`` of a blueprint change ``"cls#slot=part"`` of ``me``'s
    (``blueprint``: that class's as it stands); a violation when ``o`` names no slot of
    ``me``'s blueprints or no part. (Each Upgrade option is tried in full: the read of the
    blueprint is inlined.)"""
    got = B.tables(ctx.rs).change(o)
    if got is None:
        raise ctx.violation(f"{o!r} is not an upgrade (class#slot=part) naming a ship class and a part")
    cls, i, part = got
    k = ("v", "blueprint", ctx.player(), cls)
    w = ctx.w
    bp = (w[k] if k in w else ctx.base.get(k)) or ()
    if i >= len(bp):
        raise ctx.violation(f"{o!r} names no slot of your blueprints")
    return cls, i, part, bp


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
    me = ctx.player()
    cls, i, part, bp = _change(ctx, o)
    return B.tables(ctx.rs).after(bp, _outside(ctx, me, cls), _design(ctx, me, cls), i, part)[stat]


@primitive("install_part", effect=True, o="text")
def install_part(ctx, o):
    """Put the part of ``o`` (``"cls#slot=part"``) into that slot of ``me``'s blueprint (the
    rules decide whether the blueprint is legal)."""
    cls, i, part, bp = _change(ctx, o)
    _set(ctx, "blueprint", (ctx.player(), cls), bp[:i] + (part,) + bp[i + 1:])


# ---- moving ----------------------------------------------------------------------------------

def _pinning(ctx, p) -> G.Pinning:
    """What pins ``p``'s ships: in each hex, enemy ships and hostile NPCs (each NPC counting
    its ``pins``), divided by the ``pinned_by`` of ``p``'s technologies (a Cloaking Device
    makes opponents need two ships per ship); ``p``'s side's ships count together."""
    need = max([1] + [_f(ctx, t, "pinned_by") for t in _v(ctx, "techs", p) or ()])
    side = _side(ctx, p)
    sp = _species(ctx, p)
    ents = ctx.rs.entities
    pins, own = {}, {}
    for (h, ships), (_, npcs) in zip(_column(ctx, "ships"), _column(ctx, "npcs")):
        if not (ships or npcs):
            continue
        ships, npcs = ships or (), npcs or ()
        mine = sum(1 for owner, _ in ships if owner in side)
        enemies = len(ships) - mine + sum(ents[n].fields["pins"] for n in npcs
                                          if sp not in ents[n].fields["peaceful_with"])
        if enemies // need:
            pins[_pos(h)] = enemies // need
        if mine:
            own[_pos(h)] = mine
    return G.Pinning(pins, own)


# the rule variables move_options reads (its memo per state: memo.py)
_MOVE_READS = _GALAXY_READS | frozenset({"ships", "npcs", "species_of", "techs", "allies", "blueprint",
                                         "grid_extras", "design_of", "half_connections"})


@primitive("move_options", returns="list:text")
def move_options(ctx):
    """One ship of ``me`` from a hex to a reachable hex: ``"cls@from>to"`` (pinning applies)."""
    me = ctx.player()
    return per_state(ctx, ("move_options", me), _MOVE_READS, lambda: _moves(ctx, me))


def _moves(ctx, me) -> tuple:
    gal = _galaxy(ctx)
    pin = _pinning(ctx, me)
    wg = _wg(ctx, me)
    out = []
    for h, ships in _ship_column(ctx):
        classes = dict.fromkeys(c for owner, c in ships if owner == me)
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
    control = dict(_column(ctx, "controller"))
    for h, ships in _ship_column(ctx):
        owners = {o for o, _ in ships}
        ctrl = control[h]
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
    return (a, b) in per_state(ctx, ("joined",), _JOINED_READS, lambda: _joined_pairs(ctx))


_JOINED_READS = _GALAXY_READS | _CONTROL_READS


def _joined_pairs(ctx) -> frozenset:
    """``(a, b)`` for every hex of ``a`` with a full wormhole connection to a hex of ``b``."""
    gal = _galaxy(ctx)
    owner = {_pos(h): p for h, p in _column(ctx, "controller") if p is not None}
    return frozenset((a, owner[n]) for pos, a in owner.items() for n in gal.connected_neighbours(pos)
                     if n in owner)


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


# ---- combat ------------------------------------------------------------------------------------

def _parties(ctx, h) -> list:
    """The sides in ``h`` in order of entry: NPCs first (they were there), then the hex's
    controller's side (a defender), then the other players' by arrival. A side is one player
    (an int) or, when players in ``h`` are ``allies``, a tuple of them in order of entry: they
    fight as one [seed, alliances: allied ships fight together]."""
    ctrl = _v(ctx, "controller", h)
    order = [ctrl] if any(owner == ctrl for owner, _ in _ships(ctx, h)) else []
    order += [owner for owner in dict.fromkeys(o for o, _ in _ships(ctx, h)) if owner not in order]
    out = [NPC] if _npcs(ctx, h) else []
    seen = set()
    for p in order:
        if p in seen:
            continue
        side = tuple(q for q in order if q in _side(ctx, p))
        seen.update(side)
        out.append(side[0] if len(side) == 1 else side)
    return out


def _members(party) -> tuple:
    """The players of a side (none for the NPCs)."""
    if party == NPC:
        return ()
    return party if isinstance(party, tuple) else (party,)


def _enemies(ctx, h, a, b) -> bool:
    if a == b:
        return False
    if NPC in (a, b):
        side = b if a == NPC else a
        return any(_hostile_npcs(ctx, h, p) for p in _members(side))
    return True   # _parties joined allies into one side


def _pairs(ctx, h):
    parties = _parties(ctx, h)
    done = set(tuple(x) for x in (_v(ctx, "battles_fought") or ()) if x[0] == h)
    for i, a in enumerate(parties):
        for b in parties[i + 1:]:
            if _enemies(ctx, h, a, b) and (h, a, b) not in done and (h, b, a) not in done:
                yield a, b


@primitive("battle_attackers", h="hex", returns="list:player")
def battle_attackers(ctx, h):
    """The attacking player of the last battle fought in hex ``h`` this round, as a list of
    one; ``()`` when none was fought there or the NPCs attacked. NPCs always defend, so this is
    who destroyed an NPC lost in that battle (RotA: the Ancient dreadnought's and cruisers'
    tiles). Allies fighting as one side: the first of them (the tile is one) [our choice]."""
    for hex_, att, _dfn in reversed(_v(ctx, "battles_fought") or ()):
        if hex_ == h:
            return _members(att)[:1] if att != NPC else ()
    return ()


@primitive("entry_rank", returns="int", h="hex", p="player")
def entry_rank(ctx, h, p):
    """``p``'s place, from 0, in the order of entry of the allied side ``p`` fought on in hex
    ``h`` this round (``battles_fought``; the largest such side when there were several); 0 for
    a side of one player or when ``p`` fought no battle there. Orders the allies' reputation
    draws [seed, alliances: "in order of entry into the hex"]."""
    sides = [side for hex_, att, dfn in (_v(ctx, "battles_fought") or ()) if hex_ == h
             for side in (att, dfn) if isinstance(side, tuple) and p in side]
    return max(sides, key=len).index(p) if sides else 0


@primitive("next_battle_hex", returns="hex")
def next_battle_hex(ctx):
    """The hex where enemies still have to fight with the highest sector ``number``, or none:
    battles go in descending sector-number order [S Second Dawn rules on dized, "Determine
    Battles"; 1st edition the same, M; docs/eclipse.md "Rulings"]."""
    fights = [h for h in _hexes(ctx) if any(True for _ in _pairs(ctx, h))]
    return max(fights, key=lambda h: _f(ctx, _v(ctx, "sector_at", h), "number"), default=None)


def _type_keys(ctx, h, party, foe=None) -> list:
    """``(owner, entity)`` of each ship type of a side's fleet in ``h``, in fleet order (owner
    ``NPC`` for NPC ships: those hostile to a player of the side ``foe`` they fight, so that
    NPCs at peace with it stay out [seed: hive Ancients in an Ancient homeworld; Draco fights
    only the cruiser]). On an allied side the types of the ally who entered last come first,
    so that the NPC rule's ties (fleet order) go to them [seed, alliances: the Ancients attack
    the ally who entered the hex last]."""
    if party == NPC:
        names = _npcs(ctx, h) if foe is None else \
            tuple(n for n in _npcs(ctx, h) if any(n in _hostile_npcs(ctx, h, p) for p in _members(foe)))
        return [(NPC, n) for n in dict.fromkeys(names)]
    members = _members(party)
    keys = list(dict.fromkeys((o, c) for o, c in _ships(ctx, h) if o in members))
    return sorted(keys, key=lambda k: -members.index(k[0]))


COMBAT_FLAGS = frozenset(f.name for f in attrs.fields(C.Fleet) if f.type in (bool, "bool")) - {"npc"}
"""The side flags a technology's or an NPC ship's ``combat_flags`` may name (combat.py's
:class:`~boardrules_eclipse.combat.Fleet` booleans: ``antimatter_splitter``,
``distortion_shield``, ``point_defense``)."""


def _combat_flags(ctx, h, party, foe=None) -> dict:
    """The Fleet flags of a side in ``h``: every ``combat_flags`` entry of its players'
    technologies, or of the NPC ship types in its fleet against ``foe`` (a side has a flag when
    any of its players has it [X: alliances]). Raises a violation naming an unknown flag."""
    if party == NPC:
        sources = dict.fromkeys(n for _, n in _type_keys(ctx, h, party, foe))
    else:
        sources = dict.fromkeys(t for p in _members(party) for t in _v(ctx, "techs", p) or ())
    flags = {}
    for src in sources:
        for flag in _f(ctx, src, "combat_flags"):
            if flag not in COMBAT_FLAGS:
                raise ctx.violation(f"{src}: unknown combat flag {flag!r} (one of {sorted(COMBAT_FLAGS)})")
            flags[flag] = True
    return flags


def _fleet(ctx, h, party, foe=None):
    """A side's fleet for combat.py (against the side ``foe``). Ship types are named by their
    entity; on a side of several players by ``entity/pN`` (``"interceptor/p2"``), so hits say
    whose ship. The side's flags come from ``combat_flags`` (:func:`_combat_flags`)."""
    keys = _type_keys(ctx, h, party, foe)
    flags = _combat_flags(ctx, h, party, foe)
    if party == NPC:
        return C.Fleet(tuple((npc_type(ctx, n), _npcs(ctx, h).count(n)) for _, n in keys), npc=True, **flags)
    types = []
    for owner, cls in keys:
        t = ship_type(ctx, owner, cls)
        if isinstance(party, tuple):
            t = C.ShipType(f"{cls}/p{owner + 1}", t.size, t.initiative, t.hull, t.computer,
                           t.shield, t.cannons, t.missiles, t.regenerate)
        types.append((t, sum(1 for s in _ships(ctx, h) if s == (owner, cls))))
    return C.Fleet(tuple(types), **flags)


def _owner(ctx, b, act):
    """The player whose ship type ``act`` is (``NPC`` for NPC ships)."""
    party = b["att"] if act.side == 0 else b["dfn"]
    if party == NPC:
        return NPC
    return _type_keys(ctx, b["h"], party)[act.index][0]


def _engine(ctx, b):
    att = _fleet(ctx, b["h"], b["att"], b["dfn"])
    dfn = _fleet(ctx, b["h"], b["dfn"], b["att"])
    return C._Battle(att, dfn, None, None, C.Stalemate.DEFENDER_WINS, 1.0)


@primitive("begin_battle", effect=True, h="hex")
def begin_battle(ctx, h):
    """Start the next battle in ``h``. Battles go in reverse order of entry: the latest party
    with an enemy still to fight attacks its latest earlier enemy; NPCs and the controller
    count as earliest, so they always defend [M: eclipse.md §2.5 and §4 case 11; Second Dawn
    says the same (dized quick reference)]."""
    parties = _parties(ctx, h)
    pairs = list(_pairs(ctx, h))
    if not pairs:
        raise ctx.violation(f"no battle in {h}")
    att = dfn = None
    for later in reversed(parties):
        foes = [a for a, b in pairs if b == later]
        if foes:
            att, dfn = later, max(foes, key=parties.index)
            break
    b = {"h": h, "att": _fighting(ctx, h, att, dfn), "dfn": _fighting(ctx, h, dfn, att)}
    eng = _engine(ctx, b)
    b.update(state=eng.start, stage=0, idx=0, rounds=0, status="next", retreating=(), fled=(),
             hits=(), kills=())
    _set(ctx, "battle", (), _freeze(b))
    _set(ctx, "battles_fought", (), (_v(ctx, "battles_fought") or ()) + ((h, att, dfn),))


def _fighting(ctx, h, party, other):
    """The members of side ``party`` who fight ``other``: against NPCs only those the NPCs are
    hostile to (an ally of the Descendants of Draco fights the Ancients without them [seed,
    alliances; the seed's wording is a double negative, docs/eclipse.md]); else all."""
    if other != NPC or not isinstance(party, tuple):
        return party
    ms = tuple(p for p in party if _hostile_npcs(ctx, h, p))
    return ms[0] if len(ms) == 1 else ms


def _freeze(b: dict) -> tuple:
    return tuple(sorted(b.items()))


def _thaw(ctx) -> dict:
    b = _v(ctx, "battle")
    if not b:
        raise ctx.violation("no battle is being fought")
    return dict(b)


def _alive(state, act) -> int:
    return len(state[act.side][act.index])


@primitive("battle_advance", effect=True)
def battle_advance(ctx):
    """Move the battle to the next ship type that has something to fire, or end it."""
    b = _thaw(ctx)
    eng = _engine(ctx, b)
    state = b["state"]
    while b["status"] == "next":
        if eng.finished(state):
            b["status"] = "done"
        elif b["stage"] == 0:
            if b["idx"] < len(eng.missile_acts):
                if _alive(state, eng.missile_acts[b["idx"]]):
                    b["status"] = "ready"
                else:
                    b["idx"] += 1
            else:
                b["stage"], b["idx"] = 1, 0
        elif not eng.armed(state):
            b["status"] = "done"  # stalemate: nobody can fire cannons
        elif b["idx"] >= len(eng.acts):
            b["status"] = "round"  # the engagement round has ended (battle_next_round)
        elif _alive(state, eng.acts[b["idx"]]):
            b["status"] = _activation(ctx, b, eng.acts[b["idx"]])
            if b["status"] == "next":
                b["idx"] += 1
        else:
            b["idx"] += 1
    _set(ctx, "battle", (), _freeze(b))


def _activation(ctx, b, act) -> str:
    """What an engagement-round activation of a ship type starts with: ``"leave"`` (it
    announced a retreat and a hex to retreat to exists), ``"announce"`` (a player may announce
    a retreat instead of firing), ``"ready"`` (it fires) or ``"next"`` (a type without cannons
    that does not retreat: nothing to do). Types without cannons activate too, so that they
    may retreat [M: eclipse.md §2.5, every ship type "fires or retreats"; docs/eclipse.md]."""
    key = (act.side, act.index)
    party = _owner(ctx, b, act)
    fires = "ready" if act.ship.cannons else "next"
    if key in b["retreating"]:
        if _retreat_targets(ctx, b["h"], party):
            return "leave"
        b["retreating"] = tuple(k for k in b["retreating"] if k != key)  # nowhere to go: it fights
        return fires
    if party != NPC and not _auto_combat(ctx) and _retreat_targets(ctx, b["h"], party):
        return "announce"
    return fires


def _auto_combat(ctx) -> bool:
    return bool(ctx.rs.option("auto_combat"))


def _retreat_targets(ctx, h, p) -> tuple:
    """Hexes ``p``'s ships in ``h`` may retreat to: connected to ``h`` (Wormhole Generator
    counts), controlled by ``p``, without enemy ships or hostile NPCs (eclipse.md §4 case 9)."""
    gal = _galaxy(ctx)
    out = []
    for pos in gal.connected_neighbours(_pos(h), wormhole_generator=_wg(ctx, p)):
        h2 = _hid(pos)
        if _v(ctx, "controller", h2) == p and not _enemy_ships(ctx, h2, p) \
                and not _hostile_npcs(ctx, h2, p):
            out.append(h2)
    return tuple(sorted(out))




@primitive("battle_next_round", effect=True)
def battle_next_round(ctx):
    """Start the next engagement round (after ``"round"``); a battle still going after
    ``MAX_ROUNDS`` rounds ends as a stalemate."""
    b = _thaw(ctx)
    if b["status"] != "round":
        raise ctx.violation("the engagement round has not ended")
    b.update(idx=0, rounds=b["rounds"] + 1, status="done" if b["rounds"] + 1 >= MAX_ROUNDS else "next")
    b["state"] = _engine(ctx, b).regenerated(b["state"])   # regenerating ships repair (RotA)
    _set(ctx, "battle", (), _freeze(b))


@primitive("battle_status", returns="text")
def battle_status(ctx):
    """The battle's next step: ``"announce"`` (the firing player may announce a retreat),
    ``"leave"`` (retreating ships leave), ``"ready"`` (dice are due: a volley's, or point
    defense's), ``"assign"`` (the firing player assigns hits, or places missiles before point
    defense), ``"destroy"`` (the point-defense side picks the missiles its hits destroy),
    ``"round"`` (an engagement round has ended) or ``"done"``."""
    b = _v(ctx, "battle")
    if not b:
        return "done"
    return dict(b)["status"]


@primitive("battle_firer", returns="player")
def battle_firer(ctx):
    """The player whose ship type is active (none for NPCs or when no battle is on)."""
    b = _v(ctx, "battle")
    if not b:
        return None
    b = dict(b)
    if b["status"] in ("done", "round"):
        return None
    eng = _engine(ctx, b)
    act = _current_act(eng, b)
    if b.get("pd") == "destroy":            # the point-defense side picks the missiles
        members = _members(b["dfn"] if act.side == 0 else b["att"])
        return members[0] if members else None
    party = _owner(ctx, b, act)
    return None if party == NPC else party


@primitive("retreat_targets", returns="list:hex")
def retreat_targets(ctx):
    """Hexes the active (retreating) ship type may retreat to."""
    b = _thaw(ctx)
    eng = _engine(ctx, b)
    return _retreat_targets(ctx, b["h"], _owner(ctx, b, _current_act(eng, b)))


@primitive("battle_announce", effect=True, retreat="bool")
def battle_announce(ctx, retreat):
    """The active ship type fires (false) or announces a retreat instead (true): it does not
    fire this round, may still be hit, and leaves at its next activation [M: eclipse.md §4
    cases 8 and 12; 1st-edition wording unconfirmed]."""
    b = _thaw(ctx)
    if b["status"] != "announce":
        raise ctx.violation("no retreat can be announced now")
    if retreat:
        eng = _engine(ctx, b)
        act = _current_act(eng, b)
        b.update(retreating=b["retreating"] + ((act.side, act.index),), idx=b["idx"] + 1,
                 status="next")
    elif _current_act(_engine(ctx, b), b).ship.cannons:
        b["status"] = "ready"
    else:
        b.update(idx=b["idx"] + 1, status="next")  # no cannons: nothing to fire
    _set(ctx, "battle", (), _freeze(b))


@primitive("battle_leave", effect=True, to="hex")
def battle_leave(ctx, to):
    """The retreating ship type leaves the battle for ``to`` (moved when the battle ends)."""
    b = _thaw(ctx)
    if b["status"] != "leave":
        raise ctx.violation("no ships are retreating now")
    eng = _engine(ctx, b)
    act = _current_act(eng, b)
    if to not in _retreat_targets(ctx, b["h"], _owner(ctx, b, act)):
        raise ctx.violation(f"cannot retreat to {to}")
    state = b["state"]
    side = list(state[act.side])
    count = len(side[act.index])
    side[act.index] = ()
    state = (tuple(side), state[1]) if act.side == 0 else (state[0], tuple(side))
    b.update(state=state, idx=b["idx"] + 1, status="next",
             retreating=tuple(k for k in b["retreating"] if k != (act.side, act.index)),
             fled=b["fled"] + ((act.side, act.index, to, count),))
    _set(ctx, "battle", (), _freeze(b))


def _current_act(eng, b):
    acts = eng.missile_acts if b["stage"] == 0 else eng.acts
    return acts[b["idx"]]


def _volley_dice(eng, b, act) -> list:
    ship = act.ship
    per_ship = ship.missiles if b["stage"] == 0 else ship.cannons
    return list(per_ship) * _alive(b["state"], act)


@primitive("battle_dice", returns="int")
def battle_dice(ctx):
    """Dice the next volley rolls (0 when the battle is over)."""
    b = _v(ctx, "battle")
    if not b:
        return 0
    b = dict(b)
    if b["status"] != "ready":
        return 0
    eng = _engine(ctx, b)
    act = _current_act(eng, b)
    if b.get("pd") == "roll":
        return len(eng.pd_faces(1 - act.side, b["state"][1 - act.side]))
    return len(_volley_dice(eng, b, act))


@primitive("battle_roll", effect=True, rolls="any")
def battle_roll(ctx, rolls):
    """Apply one volley's dice: ``rolls`` are the die faces, one per die, in fleet order. NPC
    hits (and every hit with the ``auto_combat`` option) are assigned by combat.py's policies
    at once; a player's are assigned one die at a time (:func:`hit_options`), the forced ones
    automatically. Missiles against a side with point defense (RotA, the Fleet flag) are placed
    first and land after that side's point-defense roll (the next ``rolls``, one die per cannon
    of its living ships)."""
    b = _thaw(ctx)
    if b["status"] != "ready":
        raise ctx.violation("no volley is due")
    eng = _engine(ctx, b)
    act = _current_act(eng, b)
    if b.get("pd") == "roll":
        _pd_roll(ctx, eng, b, act, rolls)
        _set(ctx, "battle", (), _freeze(b))
        return
    missile = b["stage"] == 0
    dice = _volley_dice(eng, b, act)
    if len(rolls) != len(dice):
        raise ctx.violation(f"this volley rolls {len(dice)} dice, got {len(rolls)}")
    state = b["state"]
    enemy = state[1 - act.side]
    faces = eng.faces(act, enemy, missile)
    hits = eng.make_hits(act, [(d, faces[r - 1]) for d, r in zip(dice, rolls)], missile)
    decides = _owner(ctx, b, act) != NPC and not _auto_combat(ctx)
    if missile and hits and eng.point_defense(act, enemy):
        # Point defense (RotA): the missiles are placed first, then the enemy's cannons fire
        # at them, then the rest land [S seed, rare technologies].
        b["placement"] = tuple(tuple((d, ()) for d in ds) for ds in enemy)
        if decides:
            b.update(hits=tuple(tuple(h) for h in hits), status="assign")
            _settle_hits(eng, b, act)
        else:
            b.update(placement=eng.placements(act, enemy, hits, False)[0], pd="roll")
    elif not decides:
        new_enemy = eng.assign(act, enemy, hits)
        for j, (before, after) in enumerate(zip(enemy, new_enemy)):
            b["kills"] = b.get("kills", ()) + ((act.side, act.index, j),) * (len(before) - len(after))
        state = (state[0], new_enemy) if act.side == 0 else (new_enemy, state[1])
        b.update(state=state, idx=b["idx"] + 1, status="next")
    else:
        b.update(hits=tuple(tuple(h) for h in hits), status="assign")
        _settle_hits(eng, b, act)
    _set(ctx, "battle", (), _freeze(b))


@primitive("volley_roller", returns="player")
def volley_roller(ctx):
    """The player whose ships roll the volley now due (cannons or missiles; ``"ready"``), or
    none: NPC dice, a point-defense roll, or no volley due. The base battle flow emits
    ``volley_rolled(h, p)`` for this player's dice before they are applied (docs/eclipse.md,
    "Events and extension points")."""
    b = _v(ctx, "battle")
    if not b:
        return None
    b = dict(b)
    if b["status"] != "ready" or b.get("pd") == "roll":
        return None
    owner = _owner(ctx, b, _current_act(_engine(ctx, b), b))
    return None if owner == NPC else owner


@primitive("volley_misses", returns="list:int", rolls="any")
def volley_misses(ctx, rolls):
    """The dice of the volley now due that hit no enemy ship with the faces ``rolls`` (one face
    1-6 per die, in fleet order): their indices from 0, the largest damage first (then by
    index). A 1 always misses, a 6 always hits, else face + computer - shield >= 6 against
    some living enemy type (Distortion Shield against missiles counted) [S rules p.20 via BGG].
    A violation when no volley is due or the counts differ."""
    b = _thaw(ctx)
    if b["status"] != "ready" or b.get("pd") == "roll":
        raise ctx.violation("no volley is due")
    eng = _engine(ctx, b)
    act = _current_act(eng, b)
    dice = _volley_dice(eng, b, act)
    if len(rolls) != len(dice):
        raise ctx.violation(f"this volley rolls {len(dice)} dice, got {len(rolls)}")
    faces = eng.faces(act, b["state"][1 - act.side], b["stage"] == 0)
    missed = [i for i, r in enumerate(rolls) if not faces[r - 1]]
    return tuple(sorted(missed, key=lambda i: (-dice[i], i)))


@primitive("volley_reroll", effect=True, i="int", face="int")
def volley_reroll(ctx, i, face):
    """Set die ``i`` (from 0) of the volley's dice ``volley_rolls`` to ``face`` (1-6): a
    re-roll's outcome, before the dice are applied. A violation naming the die otherwise."""
    rolls = list(_v(ctx, "volley_rolls") or ())
    if not 0 <= i < len(rolls):
        raise ctx.violation(f"the volley has no die {i + 1} (it rolled {len(rolls)})")
    if not 1 <= face <= 6:
        raise ctx.violation(f"a die shows 1-6, not {face}")
    rolls[i] = face
    _set(ctx, "volley_rolls", (), tuple(rolls))


def _hit_choices(eng, b, act) -> list:
    """The distinct ships the next hit may go to: ``"class:damage"`` (damage already taken)."""
    hit = b["hits"][0]
    enemy = b["state"][1 - act.side]
    types = eng.fleets[1 - act.side].types
    if b.get("placement"):                  # placing missiles before point defense
        return [f"{types[j].name}:{_entry_text(e)}" for j in hit[1] for e in dict.fromkeys(b["placement"][j])]
    out = []
    for j in hit[1]:
        for d in dict.fromkeys(enemy[j]):
            out.append(f"{types[j].name}:{d}")
    return out


def _give_hit(eng, b, act, j, d) -> None:
    damage = b["hits"][0][0]
    if b.get("placement"):
        b.update(placement=_placed(b["placement"], j, d, damage), hits=b["hits"][1:])
        return
    state = b["state"]
    enemy = [list(ds) for ds in state[1 - act.side]]
    enemy[j].remove(d)
    if d + damage <= eng.fleets[1 - act.side].types[j].hull:
        enemy[j].append(d + damage)
    else:
        b["kills"] = b.get("kills", ()) + ((act.side, act.index, j),)
    new_enemy = tuple(tuple(sorted(ds, reverse=True)) for ds in enemy)
    state = (state[0], new_enemy) if act.side == 0 else (new_enemy, state[1])
    b.update(state=state, hits=b["hits"][1:])


def _settle_hits(eng, b, act) -> None:
    """Assign every hit with at most one choice; stop at the first real decision."""
    while b["hits"]:
        choices = _hit_choices(eng, b, act)
        if len(choices) > 1:
            return
        if not choices:
            b["hits"] = b["hits"][1:]          # nothing left it can reach
            continue
        j, d = _target(eng, b, act, choices[0])
        _give_hit(eng, b, act, j, d)
    if b.get("placement"):
        b.update(status="ready", pd="roll")   # every missile placed: point defense fires
    else:
        b.update(idx=b["idx"] + 1, status="next")


def _entry_text(entry) -> str:
    """A ship of a placement: its damage, then each missile placed on it (``"0+2+1"``)."""
    d, placed = entry
    return str(d) + "".join(f"+{m}" for m in placed)


def _parse_entry(text: str) -> tuple:
    d, *placed = text.split("+")
    return int(d), tuple(int(m) for m in placed)


def _target(eng, b, act, target: str) -> tuple:
    """``(type index, ship)`` a hit option ``"class:damage[+placed…]"`` names (the ship is its
    damage, or its placement entry while missiles are placed)."""
    name, ship = target.rsplit(":", 1)
    j = next(i for i, t in enumerate(eng.fleets[1 - act.side].types) if t.name == name)
    return j, (_parse_entry(ship) if b.get("placement") else int(ship))


def _placed(placement, j, entry, damage):
    ships = list(placement[j])
    ships[ships.index(entry)] = (entry[0], entry[1] + (damage,))
    return C._canonical(placement[:j] + (tuple(ships),) + placement[j + 1:])


def _pd_roll(ctx, eng, b, act, rolls) -> None:
    """The point-defense dice of ``act``'s enemy against its placed missiles: each die that hits
    (a 6, never a 1, else die + computer >= 6; shields do not count [S seed]) destroys one
    missile (an antimatter die with the Antimatter Splitter up to four [S seed]), chosen by the point-defense side (a player decision; NPCs and ``auto_combat`` use
    combat.py's fixed rule: the largest missiles first). Then the rest land."""
    enemy = b["state"][1 - act.side]
    faces = eng.pd_faces(1 - act.side, enemy)
    if len(rolls) != len(faces):
        raise ctx.violation(f"this point defense rolls {len(faces)} dice, got {len(rolls)}")
    k = sum(kills for (f, kills), r in zip(faces, rolls) if r > 6 - f)
    party = b["dfn"] if act.side == 0 else b["att"]
    if party == NPC or _auto_combat(ctx):
        _pd_land(eng, b, act, eng.removals(1 - act.side, b["placement"], k, False)[0])
        return
    b.update(pd="destroy", pd_left=k, status="destroy")
    _pd_settle(eng, b, act)


def _missile_choices(eng, b, act) -> list:
    """The missiles point defense may destroy next: ``"missile>class:damage+placed…"``."""
    types = eng.fleets[1 - act.side].types
    return [f"{m}>{types[j].name}:{_entry_text(e)}" for j, ships in enumerate(b["placement"])
            for e in dict.fromkeys(ships) for m in dict.fromkeys(e[1])]


def _pd_settle(eng, b, act) -> None:
    """Destroy missiles while there is no choice; land the rest when no kill is left."""
    while b["pd_left"] and _missile_choices(eng, b, act):
        choices = _missile_choices(eng, b, act)
        if len(choices) > 1:
            return
        _pd_destroy_one(eng, b, act, choices[0])
    _pd_land(eng, b, act, C.land(eng.fleets[1 - act.side].types, b["placement"]))


def _pd_destroy_one(eng, b, act, choice: str) -> None:
    m, target = choice.split(">", 1)
    j, (d, placed) = _target(eng, b, act, target)
    ships = list(b["placement"][j])
    left = list(placed)
    left.remove(int(m))
    ships[ships.index((d, placed))] = (d, tuple(left))
    b.update(placement=C._canonical(b["placement"][:j] + (tuple(ships),) + b["placement"][j + 1:]),
             pd_left=b["pd_left"] - 1)


def _pd_destroy(ctx, eng, b, act, choice: str) -> None:
    """The point-defense side destroys the missile ``choice`` (one of :func:`hit_options`)."""
    if choice not in _missile_choices(eng, b, act):
        raise ctx.violation(f"{choice} is no incoming missile point defense can destroy")
    _pd_destroy_one(eng, b, act, choice)
    _pd_settle(eng, b, act)


def _pd_land(eng, b, act, new_enemy) -> None:
    state = b["state"]
    state = (state[0], new_enemy) if act.side == 0 else (new_enemy, state[1])
    b.update(state=state, placement=None, pd=None, pd_left=0, hits=(), idx=b["idx"] + 1, status="next")


@primitive("hit_options", returns="list:text")
def hit_options(ctx):
    """Where the next hit of the active player's volley may go: ``"class:damage"``, one per
    distinct enemy ship it reaches (ships of a class with equal damage are interchangeable).
    One die's damage goes to one ship (eclipse.md §4 case 6); hits come largest first. While
    missiles are placed before point defense, a ship is ``"class:damage+missile+…"`` (the
    missiles placed on it so far); when point defense destroys missiles, the options are
    ``"missile>class:damage+missile+…"`` (RotA)."""
    b = _v(ctx, "battle")
    if not b or dict(b)["status"] not in ("assign", "destroy"):
        return ()
    b = dict(b)
    eng = _engine(ctx, b)
    if b["status"] == "destroy":
        return tuple(_missile_choices(eng, b, _current_act(eng, b)))
    return tuple(_hit_choices(eng, b, _current_act(eng, b)))


@primitive("battle_hit", effect=True, target="text")
def battle_hit(ctx, target):
    """Give the next hit to ``target``, or destroy that incoming missile (one of
    :func:`hit_options`); a violation naming the option when it is not one."""
    b = _thaw(ctx)
    if b["status"] not in ("assign", "destroy"):
        raise ctx.violation("no hit is waiting to be assigned")
    eng = _engine(ctx, b)
    act = _current_act(eng, b)
    if b.get("pd") == "destroy":
        _pd_destroy(ctx, eng, b, act, target)
        _set(ctx, "battle", (), _freeze(b))
        return
    if target not in _hit_choices(eng, b, act):
        raise ctx.violation(f"{target} is not a ship this hit can reach")
    j, d = _target(eng, b, act, target)
    _give_hit(eng, b, act, j, d)
    _settle_hits(eng, b, act)
    _set(ctx, "battle", (), _freeze(b))


@primitive("end_battle", effect=True)
def end_battle(ctx):
    """Remove destroyed ships, note the reputation draws owed, clear the battle."""
    b = _thaw(ctx)
    eng = _engine(ctx, b)
    h = b["h"]
    fleet_keys = {0: _type_keys(ctx, h, b["att"]), 1: _type_keys(ctx, h, b["dfn"])}   # before losses
    for side, party in ((0, b["att"]), (1, b["dfn"])):
        fleet = eng.fleets[side]
        keys = _type_keys(ctx, h, party, b["dfn"] if side == 0 else b["att"])
        fled = {i: k for sd, i, _, k in b["fled"] if sd == side}
        lost = {keys[i]: count - len(b["state"][side][i]) - fled.get(i, 0)
                for i, (_, count) in enumerate(fleet.ships)}
        if party == NPC:
            npcs = list(_npcs(ctx, h))
            for (_, name), k in lost.items():
                for _ in range(k):
                    npcs.remove(name)
            _set(ctx, "npcs", (h,), tuple(npcs))
        else:
            ships = list(_ships(ctx, h))
            for key, k in lost.items():
                for _ in range(k):
                    del ships[max(j for j, s in enumerate(ships) if s == key)]
            for sd, i, dest, k in b["fled"]:
                if sd != side:
                    continue
                for _ in range(k):
                    del ships[max(j for j, s in enumerate(ships) if s == keys[i])]
                _set(ctx, "ships", (dest,), _ships(ctx, dest) + (keys[i],) * k)
            _set(ctx, "ships", (h,), tuple(ships))
    # Each player of a side draws for the ships they destroyed themselves [seed, alliances:
    # "for the ships they destroyed"]; a player alone on a side destroyed all its kills.
    for side, party in ((0, b["att"]), (1, b["dfn"])):
        for p in _members(party):
            _set(ctx, "fought", (p,), True)
    for side, i, j in b.get("kills", ()):
        firer = fleet_keys[side][i][0]
        if firer != NPC:
            draws = _f(ctx, fleet_keys[1 - side][j][1], "kill_draws")
            _set(ctx, "kill_draws", (firer,), _v(ctx, "kill_draws", firer) + draws)
    _set(ctx, "battle", (), None)


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
