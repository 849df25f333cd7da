"""Eclipse exploring primitives: which spaces a player may explore and how a drawn sector may
turn (galaxy.py's geometry); what exploring costs and gives is the rules' (``rules/actions.rules``).

Split out of ``primitives.py`` by topic (issue 8).
"""

from __future__ import annotations

from boardrules.primitives import primitive

from . import galaxy as G
from .memo import per_state
from .primitives import (_GALAXY_READS, _claimed_by_others, _controlled, _enemy_ships, _galaxy, _hexes, _hid,
                         _hostile_npcs, _me, _pos, _ship_column, _tile, _v, _wg)
from .setup import _place


# ---- exploring -------------------------------------------------------------------------------

@primitive("ring_of", returns="int", h="hex")
def ring_of(ctx, h):
    """The ring of a hex position: 0 centre, 1 inner, 2 middle, 3 outer (and beyond)."""
    return int(G.ring(_pos(h)))


def _anchors(ctx, p):
    """The positions of the hexes ``p`` controls or has a ship in (exploration order)."""
    mine = set(_controlled(ctx, p)) | {h for h, ships in _ship_column(ctx) if any(o == p for o, _ in ships)}
    return [_pos(h) for h in _hexes(ctx) if h in mine]


# the rule variables explore_targets reads (its memo per state: memo.py)
_EXPLORE_READS = _GALAXY_READS | frozenset({"controller", "ships", "techs", "half_connections", "stack_inner",
                                            "stack_middle", "stack_outer", "outer_left", "exploring"})


@primitive("explore_targets", returns="list:hex")
def explore_targets(ctx):
    """Unexplored spaces ``me`` may explore whose ring still has sectors to draw and that no
    other player is exploring (their ``exploring``: rules/actions.rules; memoised per state:
    memo.py)."""
    me = ctx.player()
    return per_state(ctx, ("explore_targets", me), _EXPLORE_READS, lambda: _targets(ctx, me))


def _targets(ctx, me) -> tuple:
    radius = ctx.rs.options["max_radius"].default
    spaces = G.explorable_positions(_galaxy(ctx), _anchors(ctx, me), wormhole_generator=_wg(ctx, me),
                                    max_radius=radius)
    left = {1: bool(_v(ctx, "stack_inner")), 2: bool(_v(ctx, "stack_middle")),
            3: bool(_v(ctx, "stack_outer")) and _v(ctx, "outer_left") > 0}
    claimed = _claimed_by_others(ctx, me)
    return tuple(h for s in sorted(spaces) if left[min(3, G.distance(s))] and (h := _hid(s)) not in claimed)


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


@primitive("claimed", returns="bool", pure=True, h="hex")
def claimed(ctx, h):
    """Whether a player other than ``me`` is exploring ``h`` (their ``exploring``): nobody else
    may place a disc on it or move into it meanwhile (rules/actions.rules). Pure (primitives.py)."""
    return h in _claimed_by_others(ctx, _me(ctx))


@primitive("foes", returns="int", pure=True, h="hex")
def foes(ctx, h):
    """Ships in ``h`` that are ``me``'s enemies: other players' not on ``me``'s side (``allies``)
    and NPC ships not ``peaceful_with`` ``me``'s species. Pure (primitives.py)."""
    me = _me(ctx)
    return _enemy_ships(ctx, h, me) + len(_hostile_npcs(ctx, h, me))


PRIMITIVES = [v for v in list(globals().values()) if type(v).__name__ == "Primitive"]
