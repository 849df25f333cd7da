"""Rise of the Ancients, warp portals: an Eclipse module (``-m warp-portals``).

Three warp sectors (one of ring II, two of ring III) join the sector stacks at setup; every
hex with a warp portal is adjacent to every other through a full wormhole (the base game's
galaxy follows a sector's ``warp_portal`` field). Content only: ``rules/warp-portals.rules``.
Source: the Rise of the Ancients rulebook (seed ``000_92782212a183c471``, warp portals).
"""

from __future__ import annotations

from boardrules.plugins import rules_module

NAME = "warp-portals"


boardrules_modules = rules_module(__file__, NAME, "eclipse",
                                  "three warp sectors; every warp portal is adjacent to every other",
                                  title="Rise of the Ancients: warp portals")
