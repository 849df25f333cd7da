"""Rise of the Ancients, the Ancient hives: an Eclipse module (``-m hives``).

Two hive sectors (212 in ring II, 319 in ring III) join the sector stacks, each laid with three
hive Ancients; at the end of every Cleanup a die per hive sends one of its Ancients out through
the wormhole marked with the face rolled. Content in ``rules/hives.rules``; one primitive finds
the hex on a hive's marked side (galaxy.py's :func:`hive_target`). Source: the Rise of the
Ancients rulebook (seed ``000_92782212a183c471``, Ancient hives); the hexes' contents from the
data set of ``shared/rules/eclipse-rota.md`` §6.
"""

from __future__ import annotations

from boardrules import primitive
from boardrules.plugins import rules_module
from boardrules_eclipse import galaxy as G
from boardrules_eclipse.primitives import _galaxy, _hid, _pos

NAME = "hives"


@primitive("hive_target", h="hex", edge="int", returns="hex")
def hive_target(ctx, h, edge):
    """The explored hex on the side of hive ``h`` that its printed edge ``edge`` (0-5,
    clockwise from the edge facing east at rotation 0) faces once the tile is turned, or none
    when that space is unexplored. Every hive edge carries a wormhole and hive Ancients have the
    Wormhole Generator, so the neighbour's own edge does not matter [seed]."""
    if not 0 <= edge <= 5:
        raise ctx.violation(f"a hex has edges 0-5, not {edge}")
    target = G.hive_target(_galaxy(ctx), _pos(h), edge)
    return None if target is None else _hid(target)


boardrules_modules = rules_module(__file__, NAME, "eclipse",
                                  "two Ancient hives whose Ancients roam out at every Cleanup",
                                  title="Rise of the Ancients: Ancient hives",
                                  primitives=(hive_target,))
