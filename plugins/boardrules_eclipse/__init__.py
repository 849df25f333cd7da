"""Eclipse (first edition): the base game as a boardrules plugin.

The rules are in ``rules/*.rules`` (content and flow); the primitives (``primitives.py`` and
the topic modules in ``PRIMITIVE_MODULES``: ``battle.py``, ``diplomacy.py``, ...) wrap the
galaxy geometry (``galaxy.py``) and the combat engine (``combat``) for them. Imports stay light:
the primitives are loaded only when an Eclipse ruleset is built.
"""

from __future__ import annotations

from boardrules.plugins import GameSpec, hookimpl, rule_files_dir

GAME = "eclipse"
# The modules of the rules' primitives, by topic (primitives.py holds the shared helpers, the
# blueprints and moving).
PRIMITIVE_MODULES = ("primitives", "setup", "exploring", "influence", "diplomacy", "battle", "bombardment")
RULE_FILES = ("base.rules", "techs.rules", "ships.rules", "species.rules", "sectors.rules",
              "tiles.rules", "actions.rules", "phases.rules")


@hookimpl
def boardrules_games():
    rules = rule_files_dir(__file__)
    return [GameSpec(GAME, "Eclipse", tuple(rules / f for f in RULE_FILES), players=(2, 6),
                     description="Eclipse, first edition: the base game (see rules/README.md).")]


@hookimpl
def boardrules_primitives(game):
    if game != GAME:
        return []
    from importlib import import_module
    return [prim for m in PRIMITIVE_MODULES for prim in import_module(f".{m}", __name__).PRIMITIVES]


@hookimpl
def boardrules_cli(app):
    """``boardrules odds ATTACKER DEFENDER``: the exact combat calculator."""
    from .odds_cli import odds
    app.command("odds")(odds)


@hookimpl
def boardrules_renderers(game):
    if game != GAME:
        return {}
    from .render import render_map
    return {"map": render_map}


@hookimpl
def boardrules_evaluation(game):
    """The bots' evaluation of an Eclipse position (:mod:`.bot`)."""
    if game != GAME:
        return None
    from .bot import evaluate
    return evaluate
