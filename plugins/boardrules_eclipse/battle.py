"""Eclipse battle primitives: the battles of the combat phase, one volley at a time.

Moved out of ``primitives.py`` unchanged (issue 8); the rules' combat steps
(``rules/phases.rules``) call these, combat.py holds the shared ship-damage representation.
"""

from __future__ import annotations

import attrs

from boardrules.primitives import primitive

from . import combat as C
from .primitives import (NPC, _enemy_ships, _f, _galaxy, _hexes, _hid, _hostile_npcs, _npcs, _pos,
                         _set, _ships, _side, _v, _wg, npc_type, ship_type)

MAX_ROUNDS = 100  # engagement rounds before a battle counts as a stalemate

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


PRIMITIVES = [v for v in list(globals().values()) if type(v).__name__ == "Primitive"]
