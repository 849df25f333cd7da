"""The plugin host: one pluggy manager with the bundled plugins and installed ones.

Bundled games and modules are registered first, then every module named in the
``boardrules`` entry-point group, then ``check_pending()`` so a misspelt hook name
fails loudly.
"""

from __future__ import annotations

import functools
import importlib
from pathlib import Path
from typing import Callable

import attrs
import pluggy

from . import hookspecs
from .errors import PluginError

hookimpl = pluggy.HookimplMarker("boardrules")

BUNDLED = (
    "boardrules_demo",
    "boardrules_gaia",
    "boardrules_gaia_factions",
    "boardrules_eclipse",
    "boardrules_eclipse_warp_portals",
    "boardrules_eclipse_developments",
    "boardrules_eclipse_galactic_center",
    "boardrules_eclipse_rare_techs",
    "boardrules_eclipse_ancient_homeworlds",
    "boardrules_eclipse_new_discoveries",
    "boardrules_eclipse_new_species",
    "boardrules_eclipse_alliances",
    "boardrules_eclipse_game_direction",
    "boardrules_eclipse_hives",
    "boardrules_eclipse_nine_players",
    "boardrules_eclipse_predictable_technology",
    "boardrules_eclipse_secret_homeworlds",
    "boardrules_eclipse_simultaneous",
    "boardrules_eclipse_small_galaxy",
)


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
    """An optional module of ``game`` (an expansion, a variant, a set of factions).

    ``name`` is its id (``-m ID``); ``rule_files`` are merged after the game's (and after
    the modules it requires); ``title`` and ``description`` (one line) are what
    ``boardrules plugins`` shows; ``default``: on unless switched off (``-ID``);
    ``requires``/``conflicts``: ids of other modules of the game; ``players``: the
    player counts (min, max) it allows, ``None`` for any the game allows;
    ``primitives``: :class:`~boardrules.primitives.Primitive` it adds, replaces or wraps
    (only while it is on). The options it adds are those its rule files declare.
    ``extras``: what the game's own plugin reads from its modules, under keys the game
    documents (e.g. Gaia Project's ``"gaia-project.export"``: the site notation of the
    module's actions); the engine itself ignores it.
    ``evaluation``: ``fn(game, player, base) -> float`` that the bots use instead of the
    game's evaluation ``base`` while the module is on (e.g. a shared score); modules wrap in
    module order, the first innermost.
    """

    name: str
    game: str
    rule_files: tuple = ()
    description: str = ""
    default: bool = False
    title: str = ""
    requires: tuple = ()
    conflicts: tuple = ()
    players: tuple | None = None
    primitives: tuple = ()
    extras: dict = attrs.field(factory=dict, eq=False, hash=False)
    evaluation: Callable[..., float] | None = attrs.field(default=None, eq=False, hash=False)


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


def resolve_modules(game: str | None, requested=()) -> tuple:
    """The modules in force for ``game`` when ``requested`` names some: every default
    module, plus those named, minus those named with a leading ``-`` (``"-factions"``
    switches a default off), plus what they require; in load order (a module after those
    it requires, otherwise by id). Raises :class:`PluginError` with every problem in one
    message: unknown ids, requirements switched off or missing, conflicts."""
    requested = tuple(requested)
    if game is None:
        if requested:
            raise PluginError("modules belong to a game: rules given as texts have none")
        return ()
    available = modules(game)
    on = {r for r in requested if not r.startswith("-")}
    off = {r[1:] for r in requested if r.startswith("-")}
    problems = []
    unknown = sorted((on | off) - set(available))
    if unknown:
        problems.append(f"{game} has no module {', '.join(repr(u) for u in unknown)} "
                        f"(available: {', '.join(sorted(available)) or 'none'})")
    problems += [f"module '{n}' is both switched on and off" for n in sorted(on & off)]
    chosen = {n for n, spec in available.items() if spec.default and n not in off}
    chosen |= on & set(available)
    todo = sorted(chosen)
    while todo:
        name = todo.pop()
        for req in available[name].requires:
            if req not in available:
                problems.append(f"module '{name}' requires '{req}', which is not installed")
            elif req in off:
                problems.append(f"module '{name}' requires '{req}', which is switched off")
            elif req not in chosen:
                chosen.add(req)
                todo.append(req)
    clashes = sorted({tuple(sorted((a, b))) for a in chosen for b in available[a].conflicts
                      if b in chosen})
    problems += [f"modules '{a}' and '{b}' conflict: enable only one of them" for a, b in clashes]
    if problems:
        raise PluginError("; ".join(problems))
    order: list = []

    def place(name, path=()):
        if name in order:
            return
        if name in path:
            raise PluginError(f"modules require each other in a circle: {' -> '.join(path + (name,))}")
        for req in sorted(available[name].requires):
            place(req, path + (name,))
        order.append(name)

    for name in sorted(chosen):
        place(name)
    return tuple(order)


def exactly(game: str | None, names) -> tuple:
    """What to pass as ``modules=`` to get exactly ``names`` (e.g. a record's list):
    ``names`` plus every default module not among them switched off."""
    names = tuple(names)
    if game is None:
        return names
    return names + tuple(f"-{n}" for n, spec in sorted(modules(game).items())
                         if spec.default and n not in names)


def module_options(spec: ModuleSpec) -> dict:
    """The options a module's rule files add: name → description (parsed on demand)."""
    from .lang import ast as A
    from .lang.parser import parse_file
    out = {}
    for path in spec.rule_files:
        for item in parse_file(path).items:
            if isinstance(item, A.OptionDecl) and item.modifier is None:
                out[item.name] = item.doc
    return out


def check_players(game: str | None, names, players: int) -> None:
    """Raise :class:`PluginError` if a module in ``names`` does not allow ``players``."""
    available = modules(game) if game else {}
    for name in names:
        allowed = available[name].players if name in available else None
        if allowed is not None and not allowed[0] <= players <= allowed[1]:
            raise PluginError(f"module '{name}' is for {allowed[0]}–{allowed[1]} players, not "
                              f"{players}; switch it off with '-{name}'")


def modules_allowing(game: str | None, players: int, base: tuple = (0, 0)) -> str:
    """A hint naming the modules of ``game`` that widen its player counts (``base``, the
    ruleset's range) to ``players``, e.g. Eclipse's ``nine-players``: a module whose
    ``players`` range admits ``players`` and lies wholly outside ``base`` (a module that
    merely allows more players than the base, such as ``alliances`` for 4–9, widens
    nothing). Text such as ``"; module 'nine-players' allows 7–9 players (-m
    nine-players)"``, or ``""``."""
    found = [spec for name, spec in sorted((modules(game) if game else {}).items())
             if spec.players is not None and spec.players[0] <= players <= spec.players[1]
             and (spec.players[1] < base[0] or spec.players[0] > base[1])]
    return "".join(f"; module '{s.name}' allows {s.players[0]}–{s.players[1]} players (-m {s.name})"
                   for s in found)


def primitives(game: str, names=()) -> dict:
    """The primitives of ``game`` with the modules ``names`` on: name → Primitive.

    Plugins' primitives (and setup steps) first: two offering one name is a
    :class:`PluginError`. Then each module's, in module order: new names are added; one
    declared ``replaces=True`` takes the place of the primitive of that name (two modules
    replacing the same one is a conflict naming both); one declared ``wraps=True`` is
    called with the primitive it wraps as its second argument, so the first module's
    wrapper is innermost. A replacement or wrapper must have the same signature."""
    out: dict = {}
    hook = manager().hook
    for group in hook.boardrules_primitives(game=game) + hook.boardrules_setup_steps(game=game):
        for prim in group or ():
            if prim.name in out:
                raise PluginError(f"two plugins declare the primitive {prim.name!r}")
            out[prim.name] = prim
    available = modules(game)
    replaced: dict = {}
    wrappers = []
    for name in names:
        for prim in available[name].primitives:
            if not (prim.replaces or prim.wraps):
                if prim.name in out:
                    raise PluginError(f"module '{name}' declares the primitive {prim.name!r}, which "
                                      "exists already: declare it with replaces=True or wraps=True")
                out[prim.name] = prim
                continue
            old = out.get(prim.name)
            verb = "replace" if prim.replaces else "wrap"
            if old is None:
                raise PluginError(f"module '{name}' would {verb} the primitive {prim.name!r}, "
                                  f"which {game} does not have")
            if (old.params, old.returns, old.effect) != (prim.params, prim.returns, prim.effect):
                raise PluginError(f"module '{name}' would {verb} the primitive {prim.name!r} with "
                                  "another signature: " + _signature(prim) + " instead of " + _signature(old))
            if prim.wraps:
                wrappers.append(prim)
            elif prim.name in replaced:
                raise PluginError(f"modules '{replaced[prim.name]}' and '{name}' both replace the "
                                  f"primitive {prim.name!r}: enable only one of them")
            else:
                replaced[prim.name] = name
                out[prim.name] = attrs.evolve(prim, replaces=False)
    for w in wrappers:
        out[w.name] = attrs.evolve(w, fn=_wrapped(w.fn, out[w.name].fn), wraps=False)
    return out


def _wrapped(outer, inner):
    return lambda ctx, *args: outer(ctx, inner, *args)


def _signature(prim) -> str:
    params = ", ".join(f"{n}: {t}" for n, t in prim.params)
    return f"{prim.name}({params}) -> {prim.returns}" + (" (effect)" if prim.effect else "")


def rule_files_dir(module_file: str) -> Path:
    """The ``rules/`` folder beside a plugin module."""
    return Path(module_file).resolve().parent / "rules"
