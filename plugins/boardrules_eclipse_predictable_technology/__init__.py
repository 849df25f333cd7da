"""Rise of the Ancients, official variant: predictable technology (``-m predictable-technology``).

The technology tiles of the next Cleanup are drawn at setup and in each Cleanup and shown face up
(the public variable ``tech_next``); they join the supply in that Cleanup. Content only:
``rules/predictable-technology.rules``. Source: the Rise of the Ancients rulebook (seed
``000_92782212a183c471``, official variants).
"""

from __future__ import annotations

from boardrules.plugins import rules_module

NAME = "predictable-technology"


boardrules_modules = rules_module(__file__, NAME, "eclipse",
                                  "next round's technology tiles are drawn a round early, face up",
                                  title="Rise of the Ancients variant: predictable technology")
