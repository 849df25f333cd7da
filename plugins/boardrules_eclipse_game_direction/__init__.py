"""Rise of the Ancients, official variant: game direction (``-m game-direction``).

The second player to pass takes the direction card and, at the end of Cleanup, chooses clockwise
or counter-clockwise turn order for the next round (``p3 direction counterclockwise``); the first
passer still starts. Content only: ``rules/game-direction.rules`` (it rewrites the base game's
``turn_order``, using the base event ``turn_passed``). Source: the Rise of the Ancients rulebook
(seed ``000_92782212a183c471``, official variants).
"""

from __future__ import annotations

from boardrules.plugins import rules_module

NAME = "game-direction"


boardrules_modules = rules_module(__file__, NAME, "eclipse",
                                  "the second player to pass chooses the next round's turn direction",
                                  title="Rise of the Ancients variant: game direction")
