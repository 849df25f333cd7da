"""Rise of the Ancients, 7-9 players: an Eclipse module (``-m nine-players``).

Seven to nine players start in the outer ring; each turns their start sector so that a wormhole
faces ring II and removes one population cube; the technology and reputation bags, the stacks and
the per-player-count tables grow. Content in ``rules/nine-players.rules``; one primitive lists a
start sector's legal turns (galaxy geometry). Source: the Rise of the Ancients rulebook (seed
``000_92782212a183c471``, 7-9 players); which tiles from ``shared/rules/eclipse-rota.md`` §6-7.
"""

from __future__ import annotations

from boardrules import primitive
from boardrules.plugins import rules_module

NAME = "nine-players"


@primitive("start_rotations", h="hex", returns="list:int")
def start_rotations(ctx, h):
    """The rotations (sixth-turns clockwise, 0-5, ascending) of the start sector laid at hex ``h``
    that turn one of its wormholes toward a ring-II position (seed, 7-9 players); tiles with a
    symmetric pattern list each distinct board pattern once. ``()`` for an empty hex."""
    from boardrules_eclipse import galaxy as G
    from boardrules_eclipse.primitives import _pos, _tile
    sector = ctx.get(("v", "sector_at", h))
    if sector is None:
        return ()
    return G.start_sector_rotations(_pos(h), _tile(ctx, sector), distinct=True)


boardrules_modules = rules_module(__file__, NAME, "eclipse",
                                  "outer-ring starts, extra technologies and reputation tiles",
                                  title="Rise of the Ancients: 7-9 players", players=(7, 9),
                                  primitives=(start_rotations,))
