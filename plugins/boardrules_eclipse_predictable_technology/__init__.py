"""Rise of the Ancients, official variant: predictable technology (``-m predictable-technology``).

The technology tiles of the next Cleanup are drawn at setup and in each Cleanup and shown face up
(the public variable ``tech_next``); they join the supply in that Cleanup. Content only:
``rules/predictable-technology.rules``. Source: the Rise of the Ancients rulebook (seed
``000_92782212a183c471``, official variants).
"""

from __future__ import annotations

from boardrules.plugins import ModuleSpec, hookimpl, rule_files_dir

NAME = "predictable-technology"


@hookimpl
def boardrules_modules():
    return [ModuleSpec(NAME, "eclipse", (rule_files_dir(__file__) / f"{NAME}.rules",),
                       "next round's technology tiles are drawn a round early, face up",
                       title="Rise of the Ancients variant: predictable technology")]
