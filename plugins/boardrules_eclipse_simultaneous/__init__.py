"""Rise of the Ancients, simultaneous play: an Eclipse module (``-m simultaneous``).

The main-action marker and the secondary-action marker: their holders take their turns of the
Action phase at the same time, each marker passed clockwise on its own, never both held by one
player; only the main marker's holder may take the Research action; the first to pass takes
the main marker (and the start-player marker) for the next round, the secondary marker goes to
the player opposite; the stalling rule (``defer_turn``). Content only:
``rules/simultaneous.rules``, on the core's interleaved turns (a ``turns`` step's ``lanes``,
docs/language.md). Source: the Rise of the Ancients rulebook (seed ``000_92782212a183c471``,
"simultaneous play variant"); English digest ``shared/rules/eclipse-rota-rules.md`` §11.
"""

from __future__ import annotations

from boardrules.plugins import rules_module

NAME = "simultaneous"


boardrules_modules = rules_module(__file__, NAME, "eclipse",
                                  "two action markers: their holders act at the same time",
                                  title="Rise of the Ancients: simultaneous play")
