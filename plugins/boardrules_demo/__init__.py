"""Harvest: a small demonstration game written in the rules language.

It exercises every construct (resources, a track, components, cards with slots and
triggers, choices, chance, turn orders, a finish stage) in under 150 lines, and is
the worked example of docs/language.md. It is a plugin like any other.
"""

from boardrules import GameSpec, hookimpl
from boardrules.plugins import rule_files_dir

RULES = rule_files_dir(__file__)


@hookimpl
def boardrules_games():
    return [GameSpec("harvest", "Harvest (demonstration)", (RULES / "harvest.rules",), (2, 4),
                     "a small game that shows every construct of the rules language")]
