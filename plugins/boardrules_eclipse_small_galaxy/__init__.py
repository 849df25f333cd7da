"""Rise of the Ancients, official variant: small galaxy (``-m small-galaxy``).

A tighter 3-player game: only 7 ring-III hexes are explored (the base game's 10). Content only:
``rules/small-galaxy.rules``; for 3 players (other counts are refused). Source: the Rise of the
Ancients rulebook (seed ``000_92782212a183c471``, official variants).
"""

from __future__ import annotations

from boardrules.plugins import rules_module

NAME = "small-galaxy"


boardrules_modules = rules_module(__file__, NAME, "eclipse",
                                  "3 players, only 7 ring-III hexes",
                                  title="Rise of the Ancients variant: small galaxy", players=(3, 3))
