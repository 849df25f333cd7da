"""boardrules: play heavy board games by their exact rules.

    import boardrules
    game = boardrules.new_game("gaia-project", players=4, seed=1)
    game.legal_actions(); game.play(...); game.undo(); game.save()

Rules are written in a checked rules language (docs/language.md); games and
modules are pluggy plugins (``boardrules.hookimpl``).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .errors import (BoardrulesError, ExecutionBudgetError, GameStuckError,
                         IllegalActionError, NotationError, OptionError, PluginError,
                         PrimitiveError, ReplayMismatch, RuleFailedError, RulesError)
    from .game import Action, Game, LegalActions, load_game, new_game
    from .plugins import GameSpec, ModuleSpec, hookimpl
    from .primitives import Primitive, primitive
    from .record import Record
    from .ruleset import Ruleset, build_ruleset
    from .runtime import CHANCE
    from .state import State

#: Each public name's module: loaded when the name is first asked for, so ``import boardrules``
#: is light (the ``boardrules`` command answers Ctrl-C while the engine loads: __main__.py).
_HOME = {
    **dict.fromkeys(("BoardrulesError", "ExecutionBudgetError", "GameStuckError",
                     "IllegalActionError", "NotationError", "OptionError", "PluginError",
                     "PrimitiveError", "ReplayMismatch", "RuleFailedError", "RulesError"), "errors"),
    **dict.fromkeys(("Action", "Game", "LegalActions", "load_game", "new_game"), "game"),
    **dict.fromkeys(("GameSpec", "ModuleSpec", "hookimpl"), "plugins"),
    **dict.fromkeys(("Primitive", "primitive"), "primitives"),
    "Record": "record", "Ruleset": "ruleset", "build_ruleset": "ruleset",
    "CHANCE": "runtime", "State": "state",
}


def __getattr__(name: str) -> object:
    """A public name (its module loaded now), or a submodule (``boardrules.plugins`` after a
    bare ``import boardrules``, as when this file imported them all). Raises AttributeError
    for any other name."""
    if name in _HOME:
        value = getattr(importlib.import_module(f".{_HOME[name]}", __name__), name)
    elif not name.startswith("__"):
        try:
            value = importlib.import_module(f".{name}", __name__)
        except ModuleNotFoundError as err:
            if err.name != f"{__name__}.{name}":
                raise   # (a module of ours that fails to import: its own error)
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_HOME))


__version__ = "0.1.0"

__all__ = [
    "Action", "BoardrulesError", "CHANCE", "ExecutionBudgetError", "Game", "GameSpec", "GameStuckError",
    "IllegalActionError", "LegalActions", "ModuleSpec", "NotationError", "OptionError",
    "PluginError", "Primitive", "PrimitiveError", "Record",
    "ReplayMismatch", "RuleFailedError", "Ruleset", "RulesError", "State", "build_ruleset", "hookimpl",
    "load_game", "new_game", "primitive",
]
