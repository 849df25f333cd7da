"""The hooks a boardrules plugin may implement, grouped by lifecycle.

Every hook runs while a ruleset is **built** (or when the command line lists
plugins), never per move. Implement them with ``@boardrules.hookimpl`` in a module
registered under the ``boardrules`` entry-point group.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pluggy

if TYPE_CHECKING:
    import typer

    from .game import Game
    from .plugins import GameSpec, ModuleSpec
    from .primitives import Primitive
    from .replay import ReplayReport
    from .ruleset import Ruleset

hookspec = pluggy.HookspecMarker("boardrules")

# ---- discovery: which games and modules exist --------------------------------


@hookspec
def boardrules_games() -> Sequence[GameSpec] | None:
    """Return a list of :class:`boardrules.plugins.GameSpec`: games this plugin provides."""


@hookspec
def boardrules_modules() -> Sequence[ModuleSpec] | None:
    """Return a list of :class:`boardrules.plugins.ModuleSpec`: modules of games, with their
    metadata (default on or off, requires, conflicts, player counts) and the primitives they
    add, wrap or replace (docs/plugins.md, "Modules")."""


# ---- building a ruleset: rule files and primitives ------------------------------


@hookspec
def boardrules_rule_files(game: str, modules: tuple[str, ...]) -> Sequence[str | Path] | None:
    """Return extra rule file paths to load for ``game`` with ``modules`` enabled."""


@hookspec
def boardrules_primitives(game: str) -> Sequence[Primitive] | None:
    """Return a list of :class:`boardrules.primitives.Primitive` the rules of ``game`` may call."""


@hookspec
def boardrules_ruleset_built(ruleset: Ruleset) -> None:
    """Inspect a freshly built ruleset; raise :class:`boardrules.errors.RulesError` to reject it."""


# ---- setup --------------------------------------------------------------------


@hookspec
def boardrules_setup_steps(game: str) -> Sequence[Primitive] | None:
    """Return a list of effect primitives run by name from the flow's setup steps
    (e.g. dealing the map); they are :class:`~boardrules.primitives.Primitive` with ``effect=True``."""


# ---- notation -------------------------------------------------------------------


@hookspec(firstresult=True)
def boardrules_notation(game: str) -> Any:
    """Return a notation object for ``game``'s actions, or None: it has
    ``parse(game, text) -> Action`` (accepting the canonical text too) and
    ``format(game, action) -> str``."""


# ---- renderers ------------------------------------------------------------------


@hookspec
def boardrules_renderers(game: str) -> dict[str, Callable[[Game], str]] | None:
    """Return a dict of renderer name to ``fn(game) -> str`` (SVG text)."""


# ---- bots -------------------------------------------------------------------------


@hookspec(firstresult=True)
def boardrules_evaluation(game: str) -> Callable[[Game, int], float] | None:
    """Return ``fn(game, player) -> float``: how good the position is for ``player``, in
    victory points (score so far plus what the position is worth), for the greedy and
    search bots of :mod:`boardrules.bots`; or None."""


# ---- records from elsewhere and the command line ------------------------------------


@hookspec(firstresult=True)
def boardrules_replay(path: str | Path, data: Any, check: bool,
                      max_steps: int) -> ReplayReport | None:
    """Replay a foreign record file (``data`` is its parsed JSON; ``check``: legality
    checks on; ``max_steps``: the execution budget for the game it builds) if this plugin reads
    that format: return a :class:`boardrules.replay.ReplayReport`, else None."""


@hookspec
def boardrules_cli(app: typer.Typer) -> None:
    """Add commands to the ``boardrules`` command line (``app`` is a typer.Typer)."""
