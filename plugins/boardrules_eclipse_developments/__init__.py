"""Rise of the Ancients, developments: an Eclipse module (``-m developments``).

Players + 1 developments (at most 8) are drawn into a public supply at setup and bought with
a Research action instead of a technology (the action ``develop``). Content only:
``rules/developments.rules``. Source: the Rise of the Ancients rulebook (seed
``000_92782212a183c471``, developments); costs from the data set described in
``shared/rules/eclipse-rota.md`` §3.
"""

from __future__ import annotations

from boardrules.plugins import rules_module

NAME = "developments"


boardrules_modules = rules_module(__file__, NAME, "eclipse",
                                  "eight developments, players + 1 in the supply, bought with Research",
                                  title="Rise of the Ancients: developments")
