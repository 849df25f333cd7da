"""Rise of the Ancients, the Galactic Center takeover: an Eclipse module
(``-m galactic-center-takeover``).

The Ancient dreadnought, on a random side, replaces the Galactic Center Defense System; its
destroyer gains 1 VP and three reputation draws. Content only:
``rules/galactic-center-takeover.rules`` (the base primitive ``battle_attackers`` says who
destroyed it). Source: the Rise of the Ancients rulebook (seed ``000_92782212a183c471``, New
Ancients); the dreadnought's parts from the data set of ``shared/rules/eclipse-rota.md`` §4.
"""

from __future__ import annotations

from boardrules.plugins import rules_module

NAME = "galactic-center-takeover"


boardrules_modules = rules_module(__file__, NAME, "eclipse",
                                  "the Ancient dreadnought (random side) replaces the centre's defense system",
                                  title="Rise of the Ancients: Galactic Center takeover")
