"""boardrules: play heavy board games by their exact rules.

    import boardrules
    game = boardrules.new_game("gaia-project", players=4, seed=1)
    game.legal_actions(); game.play(...); game.undo(); game.save()

Rules are written in a checked rules language (docs/language.md); games and
modules are pluggy plugins (``boardrules.hookimpl``).
"""

from .errors import (BoardrulesError, ExecutionBudgetError, GameStuckError, IllegalActionError,
                     NotationError, OptionError, PluginError, PrimitiveError, ReplayMismatch,
                     RulesError)
from .game import Action, Game, LegalActions, load_game, new_game
from .plugins import GameSpec, ModuleSpec, hookimpl
from .primitives import Primitive, primitive
from .record import Record
from .ruleset import Ruleset, build_ruleset
from .runtime import CHANCE
from .state import State

__version__ = "0.1.0"

__all__ = [
    "Action", "BoardrulesError", "CHANCE", "ExecutionBudgetError", "Game", "GameSpec", "GameStuckError",
    "IllegalActionError", "LegalActions", "ModuleSpec", "NotationError", "OptionError",
    "PluginError", "Primitive", "PrimitiveError", "Record",
    "ReplayMismatch", "Ruleset", "RulesError", "State", "build_ruleset", "hookimpl",
    "load_game", "new_game", "primitive",
]
