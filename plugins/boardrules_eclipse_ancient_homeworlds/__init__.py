"""Rise of the Ancients, Ancient homeworlds: an Eclipse module (``-m ancient-homeworlds``).

With fewer than six players (and with 7 or 8), the start positions no player uses get an
Ancient homeworld (sectors 271-274) each, with a discovery tile and an Ancient cruiser (one of
eight tiles, drawn at random) on it; nobody may place an influence disc there while the
cruiser lives; its destroyer keeps the tile (1 VP) and makes two reputation draws. Content
only: ``rules/ancient-homeworlds.rules`` (the base primitives ``start_spaces_left``,
``centre_rotation`` and ``battle_attackers`` place the hexes and name the destroyer). Source:
the Rise of the Ancients rulebook (seed ``000_92782212a183c471``, New Ancients); hexes and
cruiser parts from the data set of ``shared/rules/eclipse-rota.md`` §4 and §6.
"""

from __future__ import annotations

from boardrules.plugins import rules_module

NAME = "ancient-homeworlds"


boardrules_modules = rules_module(__file__, NAME, "eclipse",
                                  "Ancient homeworlds with Ancient cruisers on the empty start positions",
                                  title="Rise of the Ancients: Ancient homeworlds")
