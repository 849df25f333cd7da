"""Eclipse primitives after the battles: who holds a hex, the cannon dice that attack its
population and which of them hit; the population attack and takeovers are rule-file procedure
(``bombard``, ``takeovers`` in ``rules/phases.rules``).

Split out of ``primitives.py`` by topic (issue 8).
"""

from __future__ import annotations

from boardrules.primitives import primitive

from .primitives import _f, _hostile_npcs, _ships, _side, _v, ship_type


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
