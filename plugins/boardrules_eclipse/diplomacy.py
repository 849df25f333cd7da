"""Eclipse diplomacy primitives: who may exchange ambassadors (eclipse.md §2.7), and the
Traitor when relations break; the rules (``rules/actions.rules``) run the exchange.

Split out of ``primitives.py`` by topic (issue 8).
"""

from __future__ import annotations

from boardrules.primitives import primitive

from .memo import per_state
from .primitives import (_CONTROL_READS, _GALAXY_READS, RESOURCES, _column, _f, _galaxy, _pos, _set,
                         _ship_column, _species, _v)


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


PRIMITIVES = [v for v in list(globals().values()) if type(v).__name__ == "Primitive"]
