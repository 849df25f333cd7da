"""The plugin host: one pluggy manager with the bundled plugins and installed ones.

Bundled games and modules are registered first, then every module named in the
``boardrules`` entry-point group, then ``check_pending()`` so a misspelt hook name
fails loudly.
"""

from __future__ import annotations

import functools
import importlib
from pathlib import Path

import attrs
import pluggy

from . import hookspecs
from .errors import PluginError

hookimpl = pluggy.HookimplMarker("boardrules")

BUNDLED = ("boardrules_demo", "boardrules_gaia", "boardrules_eclipse")


@attrs.frozen
class GameSpec:
    """A game: its name, title, rule files (in load order) and player counts."""

    name: str
    title: str
    rule_files: tuple  # tuple[Path]
    players: tuple = (1, 9)
    description: str = ""


@attrs.frozen
class ModuleSpec:
    """An optional module of ``game``: extra rule files enabled by name."""

    name: str
    game: str
    rule_files: tuple
    description: str = ""
    default: bool = False


@functools.cache
def manager() -> pluggy.PluginManager:
    """The process-wide plugin manager (built on first use)."""
    pm = pluggy.PluginManager("boardrules")
    pm.add_hookspecs(hookspecs)
    for name in BUNDLED:
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        if not pm.is_registered(module):
            pm.register(module, name)
    pm.load_setuptools_entrypoints("boardrules")
    pm.check_pending()
    return pm


def games() -> dict:
    """Every installed game: name → :class:`GameSpec`."""
    out = {}
    for specs in manager().hook.boardrules_games():
        for spec in specs or ():
            out[spec.name] = spec
    return out


def modules(game: str | None = None) -> dict:
    """Installed modules (of ``game`` when given): name → :class:`ModuleSpec`."""
    out = {}
    for specs in manager().hook.boardrules_modules():
        for spec in specs or ():
            if game is None or spec.game == game:
                out[spec.name] = spec
    return out


def game_spec(name: str) -> GameSpec:
    try:
        return games()[name]
    except KeyError:
        raise PluginError(f"no game named {name!r}; installed: {', '.join(sorted(games())) or 'none'}") from None


def primitives(game: str) -> dict:
    """Primitives and setup steps every plugin offers for ``game``: name → Primitive."""
    out = {}
    hook = manager().hook
    for group in hook.boardrules_primitives(game=game) + hook.boardrules_setup_steps(game=game):
        for prim in group or ():
            if prim.name in out:
                raise PluginError(f"two plugins declare the primitive {prim.name!r}")
            out[prim.name] = prim
    return out


def rule_files_dir(module_file: str) -> Path:
    """The ``rules/`` folder beside a plugin module."""
    return Path(module_file).resolve().parent / "rules"
