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

from boardrules.primitives import NOT_BATCHED, batched, primitive
from boardrules.quoting import rules_value
from boardrules.runtime import MISSING

from . import blueprints as B
from . import combat as C
from . import galaxy as G
from .memo import per_state

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
    if w and key in w:   # (a key tuple is hashed on every lookup: none in an empty overlay)
        return w[key]
    v = ctx.base.get(key, MISSING)
    return ctx.rs.key_defaults[key] if v is MISSING else v


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
    return per_state(ctx, ("column", name), reads, lambda: _read_column(ctx, name))


def _read_column(ctx, name) -> tuple:
    w, get = ctx.w, ctx.base.get   # (_v inlined: a column is read at every new state)
    default = ctx.rs.default_of(("v", name))
    if not w:   # (a key tuple is hashed on every lookup: once, with no overlay)
        return tuple([(h, get(("v", name, h), default)) for h in _hexes(ctx)])
    return tuple([(h, w[key] if (key := ("v", name, h)) in w else get(key, default)) for h in _hexes(ctx)])


_COLUMN_READS: dict = {}


def _ship_column(ctx) -> tuple:
    """``((hex, ships), ...)`` for the explored hexes holding ships, in exploration order."""
    return tuple((h, ships) for h, ships in _column(ctx, "ships") if ships)


def _controlled(ctx, p) -> tuple:
    """The hexes ``p`` controls, in exploration order."""
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
        raise ctx.violation(f"{rules_value(value)} is not a {what} option")
    return value.split(sep, 1)


@primitive("option_part", returns="text", o="text", sep="text", i="int")
def option_part(ctx, o, sep, i):
    """Part ``i`` of an option text split at ``sep`` (``option_part("cruiser@2,0", "@", 1)`` is
    ``"2,0"``); a violation when there is no such part."""
    parts = o.split(sep) if isinstance(o, str) else []
    if not 0 <= i < len(parts):
        raise ctx.violation(f"{rules_value(o)} has no part {i} at {rules_value(sep)}")
    return parts[i]


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
        raise ctx.violation(f"{rules_value(what)} is neither a ship class nor a structure")
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


def _me(ctx) -> int:
    """The player the rule speaks for; a ``ValueError`` when there is none (the pure primitives
    never break a rule: called where nobody is ``me``, the rules are wrong)."""
    me = ctx.me
    if type(me) is not int or not 0 <= me < ctx.np:
        raise ValueError(f"this primitive needs a player ('me'), got {me!r}")
    return me


def _change(ctx, o):
    """``(class, slot, part, blueprint, outside, design)`` of a blueprint change
    ``"cls#slot=part"`` of ``me``'s (``blueprint``: that class's grid as it stands, ``outside``
    its parts outside the grid, ``design`` its design or none). The upgrade primitives are
    ``pure`` (primitives.py): ``o`` comes from ``blueprint_changes`` of the same state, so a
    text that names no slot of ``me``'s blueprints or no part is a ``ValueError`` (the rules
    are wrong), not a broken rule. (An Upgrade choice asks of every option six times: the
    parse and the state keys are kept per option, the reads inlined, the variables' defaults
    being empty and none.)"""
    got = B.tables(ctx.rs).resolve(o, _me(ctx))
    if got is None:
        raise ValueError(f"{o!r} is not an upgrade (class#slot=part) naming a ship class and a part")
    cls, i, part, kbp, kout, kdesign = got
    w, base = ctx.w, ctx.base
    bp = (w[kbp] if kbp in w else base.get(kbp)) or ()
    if i >= len(bp):
        raise ValueError(f"{o!r} names no slot of the player's blueprints")
    out = (w[kout] if kout in w else base.get(kout)) or ()
    return cls, i, part, bp, out, (w[kdesign] if kdesign in w else base.get(kdesign))


@primitive("blueprint_changes", returns="list:text", pure=True)
def blueprint_changes(ctx):
    """Every single-part change of ``me``'s blueprints with a part ``me`` may place on that
    ship class (the rules' ``placeable_on``, made by ``placeable_parts``): ``"cls#slot=part"``,
    by class, slot, then part in that list's order. Which blueprints are legal is the rules'
    ``upgrade_step``. Pure (primitives.py); memoised per state (memo.py: every listing runs an
    Upgrade, and its key's tuples take longer to gather and hash than the answer to look up)."""
    me = _me(ctx)
    return per_state(ctx, ("blueprint_changes", me), _CHANGES_READS, lambda: _changes(ctx, me), me)


def _changes(ctx, me) -> tuple[str, ...]:
    classes = _kind(ctx, "ship_class")
    return B.tables(ctx.rs).changes(tuple(_blueprint(ctx, me, cls) for cls in classes),
                                    tuple(tuple(_v(ctx, "placeable_on", me, cls) or ()) for cls in classes))


_CHANGES_READS = frozenset({"blueprint", "placeable_on"})


@primitive("placeable_inputs", returns="any", pure=True)
def placeable_inputs(ctx):
    """What the rules' ``placeable_parts`` reads of ``me``'s state: ``(techs, the parts of which
    me holds spares)``, so that the rules make ``placeable`` afresh only when it changed (the
    parts' fields are fixed). Pure (primitives.py); memoised per state (memo.py)."""
    me = _me(ctx)
    return per_state(ctx, ("placeable_inputs", me), _PLACEABLE_READS, lambda: (
        _v(ctx, "techs", me) or (), tuple(x for x in _kind(ctx, "part") if _v(ctx, "spares", me, x) > 0)), me)


_PLACEABLE_READS = frozenset({"techs", "spares"})


def _parsed(ctx, o) -> tuple[str, int, str]:
    """``(class, slot, part)`` of a change text (the slot not checked against a blueprint); a
    ``ValueError`` when it names no ship class and part (see :func:`_change`)."""
    got = B.tables(ctx.rs).change(o)
    if got is None:
        raise ValueError(f"{o!r} is not an upgrade (class#slot=part) naming a ship class and a part")
    return got


@primitive("change_class", returns="ship_class", pure=True, o="text")
def change_class(ctx, o):
    """The ship class a blueprint change ``"cls#slot=part"`` (of ``blueprint_changes``) is for.
    Pure (primitives.py)."""
    return _parsed(ctx, o)[0]


def _change_classes(ctx, opts):
    """``change_class`` of each option (primitives.batched): NOT_BATCHED for a text naming no
    ship class and part, whose call raises; for the options ``blueprint_changes`` made, each
    class once per run of its options (Tables.segments), not each option's text parsed."""
    t = B.tables(ctx.rs)
    made = t.segments.get(id(opts))
    if made is not None and made[0] is opts:
        out: list = []
        for segment in made[1]:
            out += [segment[0]] * len(segment[3])
        return out
    return [got[0] if (got := t.change(o)) is not None else NOT_BATCHED for o in opts]


change_class = batched(change_class, _change_classes)


@primitive("change_part", returns="part", pure=True, o="text")
def change_part(ctx, o):
    """The part a blueprint change ``"cls#slot=part"`` (of ``blueprint_changes``) places. Pure
    (primitives.py)."""
    return _parsed(ctx, o)[2]


@primitive("stat_after", returns="int", pure=True, o="text", stat="text")
def stat_after(ctx, o, stat):
    """``me``'s blueprint total of ``stat`` (``energy``, ``move``, ``jumps``, ``hull``,
    ``computer``, ``shield``, ``initiative`` or ``regenerates``: the parts' sum plus the design's
    printed bonus; ``drives``: ``move`` plus ``jumps``) after the change ``o``
    (``"cls#slot=part"``, of ``blueprint_changes``). Pure (primitives.py): another statistic is
    a ``ValueError``."""
    if stat not in B.STATS:
        raise ValueError(f"{stat!r} is not a blueprint statistic")
    t = B.tables(ctx.rs)
    me = ctx.me
    got = t.resolved.get((o, me)) if type(o) is str and type(me) is int and 0 <= me < ctx.np else None
    if got is None:   # (first asked, or not an option of me: _change says why)
        _, i, part, bp, out, design = _change(ctx, o)
        return t.after(bp, out, design, i, part, stat)
    # (as _change, inlined: a where asks twice of each option; Tables.after refuses a blueprint
    # too short for the slot)
    _, i, part, kbp, kout, kdesign = got
    w, base = ctx.w, ctx.base
    return t.after((w[kbp] if kbp in w else base.get(kbp)) or (),
                   (w[kout] if kout in w else base.get(kout)) or (),
                   w[kdesign] if kdesign in w else base.get(kdesign), i, part, stat)


def _stats_after(ctx, opts, stat):
    """``stat_after`` of each option for ``stat`` (primitives.batched: an Upgrade's ``where``
    asks of about 140 options): the state keys read once per ship class, not per option;
    for the options ``blueprint_changes`` made, each class's answers at once (Tables.
    class_answers, kept by the class's blueprint and options). NOT_BATCHED for an option the
    call raises for (no ship class and part, no such slot)."""
    me = ctx.me
    if stat not in B.STATS or type(me) is not int or not 0 <= me < ctx.np:
        return [NOT_BATCHED] * len(opts)
    t = B.tables(ctx.rs)
    w, base = ctx.w, ctx.base
    made = t.segments.get(id(opts))
    if made is not None and made[0] is opts:   # (blueprint_changes' options: by class, memoised)
        out = []
        for segment in made[1]:
            cls = segment[0]
            kbp, kout = ("v", "blueprint", me, cls), ("v", "grid_extras", me, cls)
            kdesign = ("v", "design_of", me, cls)
            out += t.class_answers((w[kbp] if kbp in w else base.get(kbp)) or (),
                                   (w[kout] if kout in w else base.get(kout)) or (),
                                   w[kdesign] if kdesign in w else base.get(kdesign), segment, stat)
        return out
    resolved, resolve, part_stats = t.resolved, t.resolve, t._part
    sums_of: dict = {}   # blueprint key -> its sums without each slot's part
    out = []
    for o in opts:
        got = resolved.get((o, me)) if type(o) is str else None
        if got is None and (got := resolve(o, me)) is None:
            out.append(NOT_BATCHED)
            continue
        _, i, part, kbp, kout, kdesign = got
        sums = sums_of.get(kbp)
        if sums is None:
            sums = sums_of[kbp] = t.without((w[kbp] if kbp in w else base.get(kbp)) or (),
                                            (w[kout] if kout in w else base.get(kout)) or (),
                                            w[kdesign] if kdesign in w else base.get(kdesign))
        out.append(sums[i][stat] + part_stats(part)[stat] if i < len(sums) else NOT_BATCHED)
    return out


stat_after = batched(stat_after, _stats_after)


@primitive("blueprint_after", returns="list:part", pure=True, o="text")
def blueprint_after(ctx, o):
    """The grid of ``me``'s blueprint that the change ``o`` (``"cls#slot=part"``, of
    ``blueprint_changes``) is for, with its part in that slot (the rules set it: ``upgrade_step``
    in rules/actions.rules). Pure (primitives.py)."""
    _, i, part, bp, _, _ = _change(ctx, o)
    return bp[:i] + (part,) + bp[i + 1:]


def _claimed_by_others(ctx, me) -> frozenset:
    """The spaces players other than ``me`` are exploring (their ``exploring``, rules/actions.rules;
    only while players act at the same time is another's set when ``me`` acts)."""
    return frozenset(h for q in range(ctx.nplayers) if q != me and (h := _v(ctx, "exploring", q)) is not None)


# ---- technologies ----------------------------------------------------------------------------

@primitive("row_filled", returns="int", pure=True, c="text")
def row_filled(ctx, c):
    """How many of ``me``'s technologies stand in row ``c`` (``"military"``, ``"grid"``,
    ``"nano"``): those of category ``c`` not placed on another row, and those placed on it
    (``placed_row``, rules/techs.rules; a tile held twice counts twice). Research's discount and
    room, the Ancient technology and the rows' VP read it. Pure (primitives.py); memoised per
    state (memo.py): a Research choice asks of every tile on offer."""
    me = _me(ctx)
    return per_state(ctx, ("row_filled", me, c), _ROW_READS, lambda: _row_filled(ctx, me, c), me)


_ROW_READS = frozenset({"techs", "placed_row"})


def _row_filled(ctx, me, c) -> int:
    n = 0
    for t in _v(ctx, "techs", me) or ():
        row = _v(ctx, "placed_row", me, t)
        n += row == c or (row == "" and _f(ctx, t, "category") == c)
    return n


@primitive("lowest_min", returns="int", pure=True)
def lowest_min(ctx):
    """The smallest minimum cost (``min``) of the technologies on offer (``tech_market``; a
    ``ValueError`` when it is empty): Research's first check, which every listing runs. Pure
    (primitives.py); memoised per state (memo.py: the market changes only when a technology
    is taken or drawn)."""
    got = per_state(ctx, ("lowest_min",), _MARKET_READS, lambda: min(
        (_f(ctx, t, "min") for t in _v(ctx, "tech_market") or ()), default=None))
    if got is None:
        raise ValueError("no technology is on offer")
    return got


_MARKET_READS = frozenset({"tech_market"})


# ---- moving ----------------------------------------------------------------------------------

def _pin_need(ctx, p) -> int:
    """The ``pinned_by`` of ``p``'s technologies: the enemy ships it takes to pin one of ``p``'s."""
    return max([1] + [_f(ctx, t, "pinned_by") for t in _v(ctx, "techs", p) or ()])


def _pinning(ctx, p) -> G.Pinning:
    """What pins ``p``'s ships: in each hex, enemy ships and hostile NPCs (each NPC counting
    its ``pins``), divided by the ``pinned_by`` of ``p``'s technologies (a Cloaking Device
    makes opponents need two ships per ship); ``p``'s side's ships count together."""
    need = _pin_need(ctx, p)
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


# the rule variables the moves of move_options read (their memo per state: memo.py). What they
# read of the asker's blueprints and technologies (each class's drives, the ships it takes to
# pin one, the half connections) is part of the question's key instead: an upgrade or another
# player's research keeps the answer. The spaces others are exploring are left out at each call:
# an exploration begun or ended keeps it too.
_MOVE_READS = _GALAXY_READS | frozenset({"ships", "npcs", "species_of", "allies"})
# (and what the key reads: each listing asks, its blueprints seldom change)
_ASKER_READS = frozenset({"blueprint", "grid_extras", "design_of", "techs", "half_connections"})


@primitive("move_options", returns="list:text")
def move_options(ctx):
    """One ship of ``me`` from a hex to a reachable hex: ``"cls@from>to"`` (pinning applies; not
    into a hex another player is exploring: rules/actions.rules; memoised per state: memo.py)."""
    me = ctx.player()
    asker = per_state(ctx, ("move_asker", me), _ASKER_READS, lambda: (
        tuple(_drives(ctx, me, cls) for cls in _kind(ctx, "ship_class")), _pin_need(ctx, me), _wg(ctx, me)), me)
    drives = asker[0]
    moves = per_state(ctx, ("move_options", me, *asker), _MOVE_READS, lambda: _moves(ctx, me, drives))
    claimed = _claimed_by_others(ctx, me)
    return tuple(o for o in moves if o.rpartition(">")[2] not in claimed) if claimed else moves


def _drives(ctx, me, cls) -> tuple[int, int]:
    """(hexes a move may cross, jumps) of ``me``'s ``cls`` as its blueprint stands; (0, 0) for
    a class that does not move."""
    if not _f(ctx, cls, "mobile"):
        return 0, 0
    s = _class_stats(ctx, me, cls)
    return max(0, s["move"]), max(0, s["jumps"])


def _moves(ctx, me, drives) -> tuple:
    gal = _galaxy(ctx)
    pin = _pinning(ctx, me)
    wg = _wg(ctx, me)
    by_class = dict(zip(_kind(ctx, "ship_class"), drives))
    out = []
    for h, ships in _ship_column(ctx):
        classes = dict.fromkeys(c for owner, c in ships if owner == me)
        pos = _pos(h)
        dests: dict = {}   # (classes with the same drives in one hex reach the same hexes)
        for cls in classes:
            drive = by_class[cls]
            if drive == (0, 0):
                continue
            got = dests.get(drive)
            if got is None:
                steps, jumps = drive
                got = dests[drive] = [_hid(dest) for dest in sorted(G.reachable(
                    gal, pos, steps, wormhole_generator=wg, pinning=pin, jumps=jumps)) if dest != pos]
            out += [f"{cls}@{h}>{dest}" for dest in got]
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


PRIMITIVES = [v for v in list(globals().values()) if type(v).__name__ == "Primitive"]
