"""The Weavers: a Gaia Project faction written as a third-party boardrules plugin.

Its abilities are of kinds no standard faction has: 1 ore whenever it upgrades to a research
lab (a reaction to the game's ``structure_upgraded`` event), and, once its planetary
institute stands, a mine on any planet type without terraforming for 1 extra ore (a new
action added to the actions phase with ``extend step``). Nothing of boardrules is edited.
"""

from pathlib import Path

from boardrules import ModuleSpec, hookimpl

RULES = Path(__file__).resolve().parent / "weavers.rules"
# Gaia Project's export and replay of the play site's notation (boardrules_gaia.export, .replay):
# the Weavers' action is written `build m HEX`; read back, `build m` of the Weavers is that action
# where the rules accept it; the site's notation gains the faction name.
EXTRAS = {"gaia-project.export": {"lines": {"weave_mine": lambda a: f"build m {a[0]}"}},
          "gaia-project.replay": {"factions": ("weavers",), "builds": {"m": (("weavers", "weave_mine"),)}}}


@hookimpl
def boardrules_modules():
    return [ModuleSpec("weavers", "gaia-project", (RULES,), "a 15th faction with new kinds of abilities",
                       title="The Weavers", default=True, extras=EXTRAS)]
