"""Rise of the Ancients, rare technologies: an Eclipse module (``-m rare-technologies``).

The ten rare technologies go into the technology bag, are drawn aside beside the supply without
counting toward the draw and are bought with a Research action on any row with that row's
discount (one copy each). Content in ``rules/rare-technologies.rules``; the combat effects are
data the base reads (``combat_flags``, ``pinned_by``, ``absorbs_neutron_bombs``). Python here
only moves interceptors in an Interceptor Bay (pinning is a computation). Source: the Rise of
the Ancients rulebook (seed ``000_92782212a183c471``, rare technologies); costs from the tile
scans and data sets of ``shared/rules/eclipse-rota.md`` §2.
"""

from __future__ import annotations

from boardrules import primitive
from boardrules.plugins import ModuleSpec, hookimpl, rule_files_dir

NAME = "rare-technologies"


def _free_to_leave(ctx, h, cls) -> int:
    """How many of ``me``'s ships of class ``cls`` in hex ``h`` could leave it now: pinning
    lets out only the ships of ``me``'s side in excess of what the enemies there pin
    (base rules, eclipse.md §2.2)."""
    from boardrules_eclipse.primitives import _pinning, _pos, _ships
    me = ctx.player()
    pin = _pinning(ctx, me)
    mine = sum(1 for o, c in _ships(ctx, h) if (o, c) == (me, cls))
    own = pin.own.get(_pos(h), 0)
    return max(0, min(mine, own - pin.pins.get(_pos(h), 0)))


@primitive("bay_room", returns="int", h="hex", what="text", cls="ship_class")
def bay_room(ctx, h, what, cls):
    """How many of ``me``'s ``cls`` ships (interceptors) in ``h`` the ship of class ``what``
    that just left ``h`` may carry along: the sum of its blueprint parts' ``carries`` (two per
    Interceptor Bay [S seed]), at most the unpinned ones. 0 for an unknown class."""
    from boardrules_eclipse.primitives import _blueprint, _f
    if what not in ctx.rs.by_kind.get("ship_class", ()):
        return 0
    room = sum(_f(ctx, part, "carries") for part in _blueprint(ctx, ctx.player(), what))
    return min(room, _free_to_leave(ctx, h, cls)) if room else 0


@primitive("carry_ships", effect=True, h="hex", to="hex", cls="ship_class", n="int")
def carry_ships(ctx, h, to, cls, n):
    """Move ``n`` of ``me``'s ``cls`` ships from ``h`` to ``to`` (carried in a bay: drives and
    wormholes do not matter; the latest to arrive go first). A violation when fewer may leave."""
    from boardrules_eclipse.primitives import _set, _ships
    me = ctx.player()
    if not 0 < n <= _free_to_leave(ctx, h, cls):
        raise ctx.violation(f"{n} {cls} cannot be carried out of {h}")
    ships = list(_ships(ctx, h))
    for _ in range(n):
        del ships[max(i for i, s in enumerate(ships) if s == (me, cls))]
    _set(ctx, "ships", (h,), tuple(ships))
    _set(ctx, "ships", (to,), _ships(ctx, to) + ((me, cls),) * n)


@hookimpl
def boardrules_modules():
    return [ModuleSpec(NAME, "eclipse", (rule_files_dir(__file__) / f"{NAME}.rules",),
                       "ten rare technologies: drawn aside, bought on any row, one copy each",
                       title="Rise of the Ancients: rare technologies",
                       primitives=(bay_room, carry_ships))]
