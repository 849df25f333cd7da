"""Rise of the Ancients, new discoveries: an Eclipse module (``-m new-discoveries``).

Nine discovery tiles join the bag (two resource tiles, two Ancient Orbitals, the Ancient Warp
Portal and the parts Jump Drive, Muon Source, Morph Shield and Ion Disruptor), and the bag is
refilled from the discarded tiles when it runs out. Content only:
``rules/new-discoveries.rules`` (the base's ``discovery_used`` event, ``grid_extras``,
``artifact_at``, ``warp_portal_at`` and a part's ``jumps`` / ``regenerates`` carry the effects).
Source: the Rise of the Ancients rulebook (seed ``000_92782212a183c471``, new discoveries); the
tile counts and part values from the data set of ``shared/rules/eclipse-rota.md`` §5.
"""

from __future__ import annotations

from boardrules.plugins import rules_module

NAME = "new-discoveries"


boardrules_modules = rules_module(__file__, NAME, "eclipse",
                                  "nine new discovery tiles; the discovery bag is refilled when it runs out",
                                  title="Rise of the Ancients: new discoveries")
