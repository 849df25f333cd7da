"""Eclipse battle primitives: the ship damage of the battle being fought, and questions about it.

The battle *procedure* is rule-file procedure (``rules/phases.rules``, the combat section): the
order of battles across hexes, the order of activations (the missile volley, then engagement
rounds by initiative with ties to the defender), retreat, who assigns hits and which are forced,
point defense's steps, when a round and a battle end. This module keeps what is not a rule of
procedure: the sides of a battle in a hex (:func:`begin_battle`, from ``allies`` and order of
entry), each side's fleet as combat.py's :class:`~boardrules_eclipse.combat.Fleet`, and the
ship damage in combat.py's representation (the rule variable ``battle``: ``state`` per side and
ship type, the ``hits`` waiting, missiles ``placement`` against point defense, ``kills`` and
``fled``). Which die faces hit (computers, shields), what a hit does and the policies (the NPC
rule, focus fire) are combat.py's, shared with the odds solver, which keeps its own loop over
the same activation order; ``tests/eclipse/test_battle_procedure.py`` checks both agree.

The rules name a ship type of the battle ``"side:index"`` (:func:`battle_types`; side 0 the
attacker, 1 the defender) and make one active (the rule variable ``battle_active``; the missile
volley while ``battle_missiles``); :func:`battle_roll`, :func:`hit_options`, :func:`battle_hit`
and the rest act for the active type.
"""

from __future__ import annotations

import functools

import attrs

from boardrules.primitives import primitive
from boardrules.quoting import rules_value

from . import combat as C
from .memo import per_state
from .primitives import (NPC, _enemy_ships, _f, _galaxy, _hexes, _hid, _hostile_npcs, _npcs, _pos,
                         _set, _ship_column, _ships, _side, _v, _wg, npc_type, ship_type)

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


def _to_fight(ctx, h, a, b, done) -> bool:
    return _enemies(ctx, h, a, b) and (h, a, b) not in done and (h, b, a) not in done


def _fought(ctx, h) -> set:
    return set(tuple(x) for x in (_v(ctx, "battles_fought") or ()) if x[0] == h)


def _pairs(ctx, h):
    parties = _parties(ctx, h)
    done = _fought(ctx, h)
    for i, a in enumerate(parties):
        for b in parties[i + 1:]:
            if _to_fight(ctx, h, a, b, done):
                yield a, b


@primitive("battle_parties", returns="any", h="hex")
def battle_parties(ctx, h):
    """The sides in ``h`` in order of entry: ``"npc"`` (the NPCs, who were there first), a
    player, or a list of players who are ``allies`` (one side [seed, alliances]); the
    controller's side comes before those who arrived (:func:`_parties`)."""
    return tuple(_parties(ctx, h))


@primitive("still_to_fight", returns="bool", h="hex", a="any", b="any")
def still_to_fight(ctx, h, a, b):
    """Whether the sides ``a`` and ``b`` of ``h`` (:func:`battle_parties`) are enemies who have
    not fought each other there this round (``battles_fought``)."""
    return _to_fight(ctx, h, a, b, _fought(ctx, h))


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


@primitive("battle_hexes", returns="list:hex")
def battle_hexes(ctx):
    """The hexes where enemies still have to fight this combat phase: two sides there that are
    enemies (:func:`_parties`) and have not fought each other yet (``battles_fought``), in the
    order of ``hexes``. The rules pick the order of battles across them (``combat_next``).
    (Only hexes with ships are asked: without a player's ship a hex has one side at most.)"""
    return tuple(h for h, _ in _ship_column(ctx) if any(True for _ in _pairs(ctx, h)))


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
                raise ctx.violation(f"{src}: unknown combat flag {rules_value(flag)} (one of {', '.join(sorted(COMBAT_FLAGS))})")
            flags[flag] = True
    return flags


# the rule variables a side's fleet is made of (its memo per state: memo.py)
_FLEET_READS = frozenset({"ships", "npcs", "species_of", "techs", "blueprint", "grid_extras", "design_of"})


def _fleet(ctx, h, party, foe=None):
    """A side's fleet for combat.py (against the side ``foe``). Ship types are named by their
    entity; on a side of several players by ``entity/pN`` (``"interceptor/p2"``), so hits say
    whose ship. The side's flags come from ``combat_flags`` (:func:`_combat_flags`). Memoised
    per state (memo.py): a battle asks for its fleets at every activation."""
    return per_state(ctx, ("fleet", h, party, foe), _FLEET_READS, lambda: _new_fleet(ctx, h, party, foe))


def _new_fleet(ctx, h, party, foe):
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


def _engine(ctx, b):
    """combat.py's engine for the battle's two fleets (policies: the NPC rule, focus fire)."""
    eng = _engine_of(_fleet(ctx, b["h"], b["att"], b["dfn"]), _fleet(ctx, b["h"], b["dfn"], b["att"]))
    eng.work = 0            # its work budget guards the odds solver, not a game's many volleys
    return eng


@functools.lru_cache(maxsize=32)
def _engine_of(att, dfn):
    """One engine per pair of fleets (they are values): its tables of which faces hit and of
    the policies' assignments serve every volley of the battles between them."""
    return C._Battle(att, dfn, None, None, C.Stalemate.DEFENDER_WINS, 1.0)


@primitive("begin_battle", effect=True, h="hex", att="any", dfn="any")
def begin_battle(ctx, h, att, dfn):
    """Start the battle in ``h`` of side ``att`` (the attacker) against side ``dfn`` (sides of
    :func:`battle_parties`; the rules' ``pick_sides`` chooses them). Against NPCs only the
    members of an allied side the NPCs are hostile to fight. A violation when the two are no
    enemies still to fight there."""
    if not still_to_fight.fn(ctx, h, att, dfn):
        raise ctx.violation(f"no battle of {rules_value(att)} against {rules_value(dfn)} in {rules_value(h)}")
    b = {"h": h, "att": _fighting(ctx, h, att, dfn), "dfn": _fighting(ctx, h, dfn, att)}
    b.update(state=_engine(ctx, b).start, fled=(), hits=(), kills=(), placement=None, pd=None,
             pd_left=0)
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


def _save(ctx, b: dict) -> None:
    _set(ctx, "battle", (), _freeze(b))


# ---- ship types of the battle: the rules' view (rules/phases.rules decides the procedure) -------

def _type_index(ctx, b, t) -> tuple:
    """``(side, index)`` of the battle's ship type ``t`` (``"side:index"``); a violation
    naming ``t`` when the battle has no such type."""
    try:
        side, index = (int(x) for x in str(t).split(":"))
        if side in (0, 1) and 0 <= index < len(b["state"][side]):
            return side, index
    except ValueError:
        pass
    raise ctx.violation(f"the battle has no ship type {rules_value(t)} (types are 'side:index')")


def _party(b, side):
    return b["att"] if side == 0 else b["dfn"]


def _side_fleet(ctx, b, side):
    return _fleet(ctx, b["h"], _party(b, side), _party(b, 1 - side))


def _active(ctx, eng, b):
    """The engine's activation of the ship type the rules made active (``battle_active``)."""
    side, index = _type_index(ctx, b, _v(ctx, "battle_active"))
    return next(a for a in eng.acts if a.side == side and a.index == index)


def _missile(ctx) -> bool:
    return bool(_v(ctx, "battle_missiles"))


@primitive("battle_types", returns="list:text")
def battle_types(ctx):
    """The ship types of the battle being fought, ``"side:index"`` (side 0 the attacker, 1 the
    defender; index in the side's fleet order), the attacker's first; ``()`` when no battle is
    on. The rules order their activations (``activation_order`` in rules/phases.rules)."""
    b = _v(ctx, "battle")
    if not b:
        return ()
    state = dict(b)["state"]
    return tuple(f"{side}:{i}" for side in (0, 1) for i in range(len(state[side])))


TYPE_STATS = ("side", "initiative", "missiles", "cannons", "alive")


@primitive("type_stat", returns="int", t="text", stat="text")
def type_stat(ctx, t, stat):
    """A number of the battle's ship type ``t``: ``"side"`` (0 attacker, 1 defender),
    ``"initiative"``, ``"missiles"`` / ``"cannons"`` (dice per ship), ``"alive"`` (its ships
    still in the battle). A violation naming an unknown type or statistic."""
    b = _thaw(ctx)
    side, index = _type_index(ctx, b, t)
    if stat == "side":
        return side
    if stat == "alive":
        return len(b["state"][side][index])
    if stat not in TYPE_STATS:
        raise ctx.violation(f"no ship statistic {rules_value(stat)} (one of {', '.join(TYPE_STATS)})")
    ship = _side_fleet(ctx, b, side).types[index]
    return ship.initiative if stat == "initiative" else len(getattr(ship, stat))


@primitive("type_owner", returns="player", t="text")
def type_owner(ctx, t):
    """The player whose ships the battle's ship type ``t`` is; none for NPC ships."""
    b = _thaw(ctx)
    side, index = _type_index(ctx, b, t)
    party = _party(b, side)
    return None if party == NPC else _type_keys(ctx, b["h"], party)[index][0]


@primitive("side_player", returns="player", side="int")
def side_player(ctx, side):
    """Who decides for a side of the battle (0 attacker, 1 defender) when it is not firing (the
    missiles its point defense destroys): its first player; none for the NPCs."""
    members = _members(_party(_thaw(ctx), side))
    return members[0] if members else None


@primitive("side_ships", returns="int", side="int")
def side_ships(ctx, side):
    """The ships a side of the battle (0 attacker, 1 defender) still has in it."""
    return sum(len(ds) for ds in _thaw(ctx)["state"][side])


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


@primitive("retreat_targets", returns="list:hex")
def retreat_targets(ctx):
    """Hexes the active ship type (``battle_active``) may retreat to; none for NPC ships nor for
    a class that does not move (starbases, the Exiles' combat orbitals: a retreat is a move,
    eclipse.md §4; the rules' ``mobile`` field)."""
    b = _thaw(ctx)
    side, index = _type_index(ctx, b, _v(ctx, "battle_active"))
    party = _party(b, side)
    if party == NPC:
        return ()
    owner, cls = _type_keys(ctx, b["h"], party)[index]
    return _retreat_targets(ctx, b["h"], owner) if _f(ctx, cls, "mobile") else ()


@primitive("battle_leave", effect=True, to="hex")
def battle_leave(ctx, to):
    """The active (retreating) ship type leaves the battle for ``to`` (moved when the battle
    ends); a violation when ``to`` is not a hex it may retreat to."""
    b = _thaw(ctx)
    if to not in retreat_targets.fn(ctx):
        raise ctx.violation(f"cannot retreat to {to}")
    side, index = _type_index(ctx, b, _v(ctx, "battle_active"))
    state = b["state"]
    ships = list(state[side])
    count = len(ships[index])
    ships[index] = ()
    state = (tuple(ships), state[1]) if side == 0 else (state[0], tuple(ships))
    b.update(state=state, fled=b["fled"] + ((side, index, to, count),))
    _save(ctx, b)


@primitive("battle_regenerate", effect=True)
def battle_regenerate(ctx):
    """Ships that regenerate repair their damage (after every engagement round: RotA's Morph
    Shield, the regenerating Ancient dreadnought; combat.py's ``regenerate``)."""
    b = _thaw(ctx)
    b["state"] = _engine(ctx, b).regenerated(b["state"])
    _save(ctx, b)


def _volley_dice(b, act, missile) -> list:
    per_ship = act.ship.missiles if missile else act.ship.cannons
    return list(per_ship) * len(b["state"][act.side][act.index])


@primitive("battle_dice", returns="int")
def battle_dice(ctx):
    """Dice the active ship type's volley rolls (missiles while ``battle_missiles``, else
    cannons; one set per living ship), or, once missiles are placed against point defense, the
    point-defense roll's (one die per cannon of the enemy's living ships). 0 without a battle."""
    b = _v(ctx, "battle")
    if not b:
        return 0
    b = dict(b)
    eng = _engine(ctx, b)
    act = _active(ctx, eng, b)
    if b.get("pd") == "roll":
        return len(eng.pd_faces(1 - act.side, b["state"][1 - act.side]))
    return len(_volley_dice(b, act, _missile(ctx)))


@primitive("battle_roll", effect=True, rolls="any")
def battle_roll(ctx, rolls):
    """Roll the active ship type's volley: ``rolls`` are the faces, one per die in fleet order
    (:func:`battle_dice`). Which dice hit which enemy types (computers, shields, the Distortion
    Shield against missiles, the Antimatter Splitter) is combat.py's; the hits wait, largest
    first, to be assigned (:func:`hit_options`, :func:`hits_by_policy`). Missiles that hit a side
    with point defense (RotA) are placed instead and land after that side's roll, the next
    ``rolls`` once :func:`point_defense_due`: each of its hits destroys one missile."""
    b = _thaw(ctx)
    eng = _engine(ctx, b)
    act = _active(ctx, eng, b)
    if b.get("pd") == "roll":
        _pd_roll(ctx, eng, b, act, rolls)
        _save(ctx, b)
        return
    if b["hits"] or b.get("pd"):
        raise ctx.violation("the last volley's hits are not all assigned")
    missile = _missile(ctx)
    dice = _volley_dice(b, act, missile)
    if len(rolls) != len(dice):
        raise ctx.violation(f"this volley rolls {len(dice)} dice, got {len(rolls)}")
    enemy = b["state"][1 - act.side]
    faces = eng.faces(act, enemy, missile)
    hits = eng.make_hits(act, [(d, faces[r - 1]) for d, r in zip(dice, rolls)], missile)
    b["hits"] = tuple(tuple(h) for h in hits)
    if missile and hits and eng.point_defense(act, enemy):
        # Point defense (RotA): the missiles are placed first, then the enemy's cannons fire
        # at them, then the rest land [S seed, rare technologies].
        b["placement"] = tuple(tuple((d, ()) for d in ds) for ds in enemy)
    _save(ctx, b)


@primitive("hits_by_policy", effect=True)
def hits_by_policy(ctx):
    """Assign all the waiting hits by the firing side's policy (combat.py: the NPC rule for NPC
    ships, focus fire for players), or place the missiles so against point defense."""
    b = _thaw(ctx)
    eng = _engine(ctx, b)
    act = _active(ctx, eng, b)
    hits = tuple(C.Hit(*h) for h in b["hits"])
    enemy = b["state"][1 - act.side]
    if b.get("placement") is not None:
        b.update(placement=eng.placements(act, enemy, hits, False)[0] if hits else b["placement"],
                 hits=(), pd="roll")
    else:
        _damage_enemy(eng, b, act, eng.assign(act, enemy, hits))
        b["hits"] = ()
    _save(ctx, b)


@primitive("volley_misses", returns="list:int", rolls="any")
def volley_misses(ctx, rolls):
    """The dice of the active ship type's volley that hit no enemy ship with the faces ``rolls``
    (one face 1-6 per die, in fleet order): their indices from 0, the largest damage first (then
    by index). A 1 always misses, a 6 always hits, else face + computer - shield >= 6 against
    some living enemy type (Distortion Shield against missiles counted) [S rules p.20 via BGG].
    A violation when no volley is due or the counts differ."""
    b = _thaw(ctx)
    if b["hits"] or b.get("pd"):
        raise ctx.violation("no volley is due")
    eng = _engine(ctx, b)
    act = _active(ctx, eng, b)
    missile = _missile(ctx)
    dice = _volley_dice(b, act, missile)
    if len(rolls) != len(dice):
        raise ctx.violation(f"this volley rolls {len(dice)} dice, got {len(rolls)}")
    faces = eng.faces(act, b["state"][1 - act.side], missile)
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
    _damage_enemy(eng, b, act, tuple(tuple(sorted(ds, reverse=True)) for ds in enemy))
    b["hits"] = b["hits"][1:]


def _hit_done(b) -> None:
    """After a hit: once every missile against point defense is placed, its roll is due."""
    if b.get("placement") is not None and not b["hits"]:
        b["pd"] = "roll"


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
    missile (an antimatter die with the Antimatter Splitter up to four [S seed]); the rules
    have them picked (:func:`hit_options`, :func:`pd_by_policy`), then the rest land."""
    enemy = b["state"][1 - act.side]
    faces = eng.pd_faces(1 - act.side, enemy)
    if len(rolls) != len(faces):
        raise ctx.violation(f"this point defense rolls {len(faces)} dice, got {len(rolls)}")
    k = sum(kills for (f, kills), r in zip(faces, rolls) if r > 6 - f)
    b.update(pd="destroy", pd_left=k)


def _missile_choices(eng, b, act) -> list:
    """The missiles point defense may destroy next: ``"missile>class:damage+placed…"``."""
    types = eng.fleets[1 - act.side].types
    return [f"{m}>{types[j].name}:{_entry_text(e)}" for j, ships in enumerate(b["placement"])
            for e in dict.fromkeys(ships) for m in dict.fromkeys(e[1])]


def _pd_destroy_one(eng, b, act, choice: str) -> None:
    m, target = choice.split(">", 1)
    j, (d, placed) = _target(eng, b, act, target)
    ships = list(b["placement"][j])
    left = list(placed)
    left.remove(int(m))
    ships[ships.index((d, placed))] = (d, tuple(left))
    b.update(placement=C._canonical(b["placement"][:j] + (tuple(ships),) + b["placement"][j + 1:]),
             pd_left=b["pd_left"] - 1)


def _pd_land(eng, b, act, new_enemy) -> None:
    _damage_enemy(eng, b, act, new_enemy)
    b.update(placement=None, pd=None, pd_left=0, hits=())


def _damage_enemy(eng, b, act, new_enemy) -> None:
    """The active type's volley leaves its enemy side as ``new_enemy``: the one way damage
    reaches the battle's state, so every ship it destroys (cannons, missiles, missiles that
    land after point defense) is a kill of the active type, one ``kills`` entry per ship, for
    the reputation draws [S rules: draws for the ships one destroyed; seed, rare technologies:
    missiles that get past point defense hit as any missile]."""
    enemy = b["state"][1 - act.side]
    for j, (before, after) in enumerate(zip(enemy, new_enemy)):
        b["kills"] = b.get("kills", ()) + ((act.side, act.index, j),) * (len(before) - len(after))
    b["state"] = eng.merge(b["state"], act, new_enemy)


@primitive("point_defense_due", returns="bool")
def point_defense_due(ctx):
    """Whether every missile of the volley is placed against point defense and its roll is due."""
    b = _v(ctx, "battle")
    return bool(b) and dict(b).get("pd") == "roll"


@primitive("pd_by_policy", effect=True)
def pd_by_policy(ctx):
    """Point defense destroys missiles by combat.py's fixed rule (the largest first), then the
    rest land: for NPCs and with ``auto_combat``."""
    b = _thaw(ctx)
    eng = _engine(ctx, b)
    act = _active(ctx, eng, b)
    if b.get("pd") != "destroy":
        raise ctx.violation("point defense has rolled no hits to use")
    _pd_land(eng, b, act, eng.removals(1 - act.side, b["placement"], b["pd_left"], False)[0])
    _save(ctx, b)


@primitive("missiles_land", effect=True)
def missiles_land(ctx):
    """The placed missiles point defense left land on the ships they were placed on."""
    b = _thaw(ctx)
    eng = _engine(ctx, b)
    act = _active(ctx, eng, b)
    if b.get("placement") is None:
        raise ctx.violation("no missiles are placed")
    _pd_land(eng, b, act, C.land(eng.fleets[1 - act.side].types, b["placement"]))
    _save(ctx, b)


@primitive("hits_left", returns="int")
def hits_left(ctx):
    """Hits of the active volley still to assign, or, while point defense destroys missiles,
    its hits still to use (0 when no battle is on)."""
    b = _v(ctx, "battle")
    if not b:
        return 0
    b = dict(b)
    return b["pd_left"] if b.get("pd") == "destroy" else len(b["hits"])


@primitive("hit_options", returns="list:text")
def hit_options(ctx):
    """Where the next hit of the active volley may go: ``"class:damage"``, one per distinct
    enemy ship it reaches (ships of a class with equal damage are interchangeable); none when
    every ship it could reach is gone. One die's damage goes to one ship (eclipse.md §4 case
    6); hits come largest first. While missiles are placed before point defense, a ship is
    ``"class:damage+missile+…"`` (the missiles placed on it so far); when point defense
    destroys missiles, the options are ``"missile>class:damage+missile+…"`` (RotA)."""
    b = _v(ctx, "battle")
    if not b:
        return ()
    b = dict(b)
    if b.get("pd") == "destroy":
        eng = _engine(ctx, b)
        return tuple(_missile_choices(eng, b, _active(ctx, eng, b)))
    if not b["hits"]:
        return ()
    eng = _engine(ctx, b)
    return tuple(_hit_choices(eng, b, _active(ctx, eng, b)))


@primitive("battle_hit", effect=True, target="text")
def battle_hit(ctx, target):
    """Give the next hit to ``target``, or destroy that incoming missile (one of
    :func:`hit_options`); a violation naming the option when it is not one."""
    b = _thaw(ctx)
    eng = _engine(ctx, b)
    act = _active(ctx, eng, b)
    if b.get("pd") == "destroy":
        if not b["pd_left"] or target not in _missile_choices(eng, b, act):
            raise ctx.violation(f"{target} is no incoming missile point defense can destroy")
        _pd_destroy_one(eng, b, act, target)
    else:
        if not b["hits"]:
            raise ctx.violation("no hit is waiting to be assigned")
        if target not in _hit_choices(eng, b, act):
            raise ctx.violation(f"{target} is not a ship this hit can reach")
        _give_hit(eng, b, act, *_target(eng, b, act, target))
        _hit_done(b)
    _save(ctx, b)


@primitive("drop_hit", effect=True)
def drop_hit(ctx):
    """The next hit is lost: every ship it could reach is gone (:func:`hit_options` is empty)."""
    b = _thaw(ctx)
    if not b["hits"]:
        raise ctx.violation("no hit is waiting to be assigned")
    if hit_options.fn(ctx):
        raise ctx.violation("this hit can still reach a ship")
    b["hits"] = b["hits"][1:]
    _hit_done(b)
    _save(ctx, b)


def _side_keys(ctx, b, side) -> list:
    """``(owner, entity)`` of each ship type of a side of the battle, in its fleet's order."""
    return _type_keys(ctx, b["h"], _party(b, side), _party(b, 1 - side))


@primitive("battle_players", returns="list:player")
def battle_players(ctx):
    """The players who fight in the battle being fought, the attacker's side first (none for
    the NPCs)."""
    b = _thaw(ctx)
    return _members(b["att"]) + _members(b["dfn"])


@primitive("battle_kills", returns="any")
def battle_kills(ctx):
    """The ships players' ships have destroyed in the battle so far, one entry per ship:
    ``((player, ship), ...)`` with ``ship`` the destroyed ship's class or NPC ship entity (the
    rules read its ``kill_draws``); kills by NPC ships are left out."""
    b = _thaw(ctx)
    keys = (_side_keys(ctx, b, 0), _side_keys(ctx, b, 1))
    return tuple((keys[side][i][0], keys[1 - side][j][1]) for side, i, j in b.get("kills", ())
                 if keys[side][i][0] != NPC)


@primitive("end_battle", effect=True)
def end_battle(ctx):
    """Take the destroyed ships off the board, move the retreated ones to their hexes, clear
    the battle."""
    b = _thaw(ctx)
    eng = _engine(ctx, b)
    h = b["h"]
    for side, party in ((0, b["att"]), (1, b["dfn"])):
        fleet = eng.fleets[side]
        keys = _side_keys(ctx, b, side)
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
    _set(ctx, "battle", (), None)


PRIMITIVES = [v for v in list(globals().values()) if type(v).__name__ == "Primitive"]
