"""Rise of the Ancients, developments: an Eclipse module (``-m developments``).

Players + 1 developments (at most 8) are drawn into a public supply at setup and bought with
a Research action instead of a technology (the action ``develop``). Content only:
``rules/developments.rules``. Source: the Rise of the Ancients rulebook (seed
``000_92782212a183c471``, developments); costs from the data set described in
``shared/rules/eclipse-rota.md`` §3.
"""

from __future__ import annotations

from boardrules.plugins import ModuleSpec, hookimpl, rule_files_dir

NAME = "developments"


@hookimpl
def boardrules_modules():
    return [ModuleSpec(NAME, "eclipse", (rule_files_dir(__file__) / f"{NAME}.rules",),
                       "eight developments, players + 1 in the supply, bought with Research",
                       title="Rise of the Ancients: developments")]
