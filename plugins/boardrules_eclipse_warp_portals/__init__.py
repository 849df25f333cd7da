"""Rise of the Ancients, warp portals: an Eclipse module (``-m warp-portals``).

Three warp sectors (one of ring II, two of ring III) join the sector stacks at setup; every
hex with a warp portal is adjacent to every other through a full wormhole (the base game's
galaxy follows a sector's ``warp_portal`` field). Content only: ``rules/warp-portals.rules``.
Source: the Rise of the Ancients rulebook (seed ``000_92782212a183c471``, warp portals).
"""

from __future__ import annotations

from boardrules.plugins import ModuleSpec, hookimpl, rule_files_dir

NAME = "warp-portals"


@hookimpl
def boardrules_modules():
    return [ModuleSpec(NAME, "eclipse", (rule_files_dir(__file__) / f"{NAME}.rules",),
                       "three warp sectors; every warp portal is adjacent to every other",
                       title="Rise of the Ancients: warp portals")]
