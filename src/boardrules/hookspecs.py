"""The hooks a boardrules plugin may implement, grouped by lifecycle.

Every hook runs while a ruleset is **built** (or when the command line lists
plugins), never per move. Implement them with ``@boardrules.hookimpl`` in a module
registered under the ``boardrules`` entry-point group.
"""

from __future__ import annotations

import pluggy

hookspec = pluggy.HookspecMarker("boardrules")

# ---- discovery: which games and modules exist --------------------------------


@hookspec
def boardrules_games():
    """Return a list of :class:`boardrules.plugins.GameSpec`: games this plugin provides."""


@hookspec
def boardrules_modules():
    """Return a list of :class:`boardrules.plugins.ModuleSpec`: modules of games, with their
    metadata (default on or off, requires, conflicts, player counts) and the primitives they
    add, wrap or replace (docs/plugins.md, "Modules")."""


# ---- building a ruleset: rule files and primitives ------------------------------


@hookspec
def boardrules_rule_files(game: str, modules: tuple):
    """Return extra rule file paths to load for ``game`` with ``modules`` enabled."""


@hookspec
def boardrules_primitives(game: str):
    """Return a list of :class:`boardrules.primitives.Primitive` the rules of ``game`` may call."""


@hookspec
def boardrules_ruleset_built(ruleset):
    """Inspect a freshly built ruleset; raise :class:`boardrules.errors.RulesError` to reject it."""


# ---- setup --------------------------------------------------------------------


@hookspec
def boardrules_setup_steps(game: str):
    """Return a list of effect primitives run by name from the flow's setup steps
    (e.g. dealing the map); they are :class:`~boardrules.primitives.Primitive` with ``effect=True``."""


# ---- notation -------------------------------------------------------------------


@hookspec(firstresult=True)
def boardrules_notation(game: str):
    """Return a notation object for ``game``'s actions, or None: it has
    ``parse(game, text) -> Action`` (accepting the canonical text too) and
    ``format(game, action) -> str``."""


# ---- renderers ------------------------------------------------------------------


@hookspec
def boardrules_renderers(game: str):
    """Return a dict of renderer name to ``fn(game) -> str`` (SVG text)."""


# ---- bots -------------------------------------------------------------------------


@hookspec(firstresult=True)
def boardrules_evaluation(game: str):
    """Return ``fn(game, player) -> float``: how good the position is for ``player``, in
    victory points (score so far plus what the position is worth), for the greedy and
    search bots of :mod:`boardrules.bots`; or None."""


# ---- records from elsewhere and the command line ------------------------------------


@hookspec(firstresult=True)
def boardrules_replay(path, data, check, max_steps):
    """Replay a foreign record file (``data`` is its parsed JSON; ``check``: legality
    checks on; ``max_steps``: the execution budget for the game it builds) if this plugin reads
    that format: return a :class:`boardrules.replay.ReplayReport`, else None."""


@hookspec
def boardrules_cli(app):
    """Add commands to the ``boardrules`` command line (``app`` is a typer.Typer)."""
