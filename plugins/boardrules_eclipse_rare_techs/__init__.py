"""Rise of the Ancients, rare technologies: an Eclipse module (``-m rare-technologies``).

The ten rare technologies go into the technology bag, are drawn aside beside the supply without
counting toward the draw and are bought with a Research action on any row with that row's
discount (one copy each). Content in ``rules/rare-technologies.rules``; the combat effects are
data the base reads (``combat_flags``, ``pinned_by``, ``absorbs_neutron_bombs``). Python here
only counts and moves interceptors aboard an Interceptor Bay (pinning is a computation). Source: the Rise of
the Ancients rulebook (seed ``000_92782212a183c471``, rare technologies); costs from the tile
scans and data sets of ``shared/rules/eclipse-rota.md`` §2.
"""

from __future__ import annotations

from boardrules import primitive
from boardrules.plugins import rules_module

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


# ---- the Interceptor Bay: interceptors aboard ------------------------------------------------------
# ``aboard[h][c]`` of player p (rule var ``aboard: int per player per hex per ship_class``): how
# many of p's interceptors ride in the bays of p's ships of class ``c`` in hex ``h``. Aboard, an
# interceptor is out of ``ships`` (it neither pins nor counts against pinning [S]) and counted
# only there, so a ship is never in both places.

def _aboard(ctx, h, what) -> int:
    return ctx.get(("v", "aboard", ctx.player(), h, what)) or 0


def _set_aboard(ctx, h, what, n) -> None:
    ctx.set(("v", "aboard", ctx.player(), h, what), n)


@primitive("bay_carries", returns="int", what="text")
def bay_carries(ctx, what):
    """How many interceptors one ship of ``me``'s class ``what`` holds: the sum of its
    blueprint parts' ``carries`` (two per Interceptor Bay [S seed]). 0 for an unknown class."""
    from boardrules_eclipse.primitives import _blueprint, _f
    if what not in ctx.rs.by_kind.get("ship_class", ()):
        return 0
    return sum(_f(ctx, part, "carries") for part in _blueprint(ctx, ctx.player(), what))


@primitive("bay_aboard", returns="int", h="hex", what="text")
def bay_aboard(ctx, h, what):
    """How many of ``me``'s interceptors are aboard ``me``'s ships of class ``what`` in ``h``."""
    return _aboard(ctx, h, what)


@primitive("unpinned", returns="int", h="hex", cls="ship_class")
def unpinned(ctx, h, cls):
    """How many of ``me``'s ``cls`` ships in ``h`` could leave it now (pinning, eclipse.md §2.2)."""
    return _free_to_leave(ctx, h, cls)


@primitive("bay_spots", returns="list:text")
def bay_spots(ctx):
    """Where ``me`` has interceptors aboard: ``"hex@class"`` of the carrying ships."""
    from boardrules_eclipse.primitives import _hexes
    classes = ctx.rs.by_kind.get("ship_class", ())
    return tuple(f"{h}@{c}" for h in _hexes(ctx) for c in classes if _aboard(ctx, h, c))


@primitive("bay_ride", effect=True, h="hex", to="hex", what="text", n="int")
def bay_ride(ctx, h, to, what, n):
    """``n`` interceptors aboard ``me``'s ``what`` ships in ``h`` ride along with the one that
    moved to ``to``. A violation when fewer are aboard or one ship cannot hold them."""
    if not 0 < n <= min(_aboard(ctx, h, what), bay_carries.fn(ctx, what)):
        raise ctx.violation(f"{n} interceptors cannot ride in a {what}'s bays from {h}")
    _set_aboard(ctx, h, what, _aboard(ctx, h, what) - n)
    _set_aboard(ctx, to, what, _aboard(ctx, to, what) + n)


@primitive("bay_load", effect=True, h="hex", to="hex", what="text", cls="ship_class", n="int")
def bay_load(ctx, h, to, what, cls, n):
    """Take ``n`` of ``me``'s unpinned ``cls`` ships out of ``h`` into the bays of the ``what``
    ship that moved to ``to`` (the latest to arrive go first). A violation when fewer may leave."""
    from boardrules_eclipse.primitives import _set, _ships
    me = ctx.player()
    if not 0 < n <= _free_to_leave(ctx, h, cls):
        raise ctx.violation(f"{n} {cls} cannot be carried out of {h}: pinned or absent")
    ships = list(_ships(ctx, h))
    for _ in range(n):
        del ships[max(i for i, s in enumerate(ships) if s == (me, cls))]
    _set(ctx, "ships", (h,), tuple(ships))
    _set_aboard(ctx, to, what, _aboard(ctx, to, what) + n)


@primitive("bay_unload", effect=True, spot="text", cls="ship_class", n="int")
def bay_unload(ctx, spot, cls, n):
    """``n`` interceptors (``cls``) aboard at ``spot`` (``"hex@class"``, or ``"all"`` for every
    spot and all of them) get out into their hex's ships. A violation when fewer are aboard."""
    from boardrules_eclipse.primitives import _set, _ships
    me = ctx.player()
    spots = bay_spots.fn(ctx) if spot == "all" else (spot,)
    for s in spots:
        h, _, what = s.partition("@")
        k = _aboard(ctx, h, what) if spot == "all" else n
        if not 0 < k <= _aboard(ctx, h, what):
            raise ctx.violation(f"{k} interceptors are not aboard at {s}")
        _set_aboard(ctx, h, what, _aboard(ctx, h, what) - k)
        _set(ctx, "ships", (h,), _ships(ctx, h) + ((me, cls),) * k)


boardrules_modules = rules_module(__file__, NAME, "eclipse",
                                  "ten rare technologies: drawn aside, bought on any row, one copy each",
                                  title="Rise of the Ancients: rare technologies",
                                  primitives=(bay_carries, bay_aboard, unpinned, bay_spots,
                                              bay_ride, bay_load, bay_unload))
