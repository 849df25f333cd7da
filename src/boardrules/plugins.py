"""The plugin host: one pluggy manager with the bundled plugins and installed ones.

Bundled games and modules are registered first, then every module named in the
``boardrules`` entry-point group, then :func:`check_hooks` so a misspelt hook name, or a
hook without ``@hookimpl``, fails loudly (a :class:`PluginError`).
"""

from __future__ import annotations

import functools
import importlib
import os
import re
import reprlib
from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, Callable, NamedTuple

import attrs
import pluggy

from . import hookspecs
from .errors import BoardrulesError, PluginError
from .lang.diagnostics import did_you_mean
from .primitives import Primitive
from .quoting import MESSAGE, brief_text, brief_value
from .runtime import MAX_NUMBER, PrimitiveFailed

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


MODULE_HELP = "switch a module on (-ID: a default one off)"
"""The ``-m`` option's help, the same for every command that takes it (check, play, simulate:
check's and simulate's said 'enable a module', though each takes '-ID' as play does)."""


_ID = re.compile(r"[^\s/\\-][^\s/\\]*")   # (one word; no path separator: ids name record files)


def _spec_checked(spec: Any) -> Any:
    """``spec`` (a :class:`GameSpec` or :class:`ModuleSpec`) as a plugin meant it: one path or
    id alone (``rule_files=RULES / "x.rules"``, ``requires="weather"``) stands for itself, not
    its letters. Raises :class:`PluginError` for a spec no user could play: an id users could
    not type after ``-m`` (empty, blank, or starting with ``-``, which switches a module off),
    one with a ``/`` or ``\\`` (ids name the files ``play`` and ``simulate`` write: ``x/y`` made
    a folder no one asked for, ``../x`` wrote outside ``out/``), or a player range that admits
    no count."""
    low, high = spec.players or (1, 1)
    if not isinstance(spec.name, str) or not _ID.fullmatch(spec.name) or not 1 <= low <= high:
        what = f"{type(spec).__name__} {brief_text(spec.name, 60)}"
        if not 1 <= low <= high:
            raise PluginError(f"{what}: players {low}-{high} admits no player count")
        raise PluginError(f"{what}: an id is one word that does not start with '-' and has no '/' or '\\'")
    alone = {name: (value,) for name in ("rule_files", "requires", "conflicts")
             if type(value := getattr(spec, name, ())) is not tuple   # (the common case, at once)
             and isinstance(value, (str, os.PathLike))}
    return attrs.evolve(spec, **alone) if alone else spec


@attrs.frozen
class GameSpec:
    """A game: its name, title, rule files (in load order) and player counts."""

    name: str
    title: str
    rule_files: tuple[str | Path, ...]
    players: tuple[int, int] = (1, 9)
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
    rule_files: tuple[str | Path, ...] = ()
    description: str = ""
    default: bool = False
    title: str = ""
    requires: tuple[str, ...] = ()
    conflicts: tuple[str, ...] = ()
    players: tuple[int, int] | None = None
    primitives: tuple[Primitive, ...] = ()
    extras: dict[str, Any] = attrs.field(factory=dict, eq=False, hash=False)
    evaluation: Callable[..., float] | None = attrs.field(default=None, eq=False, hash=False)


class _Manager(pluggy.PluginManager):
    """pluggy's manager whose hook implementations, as each plugin is registered, raise a
    :class:`PluginError` naming the plugin, the hook and the exception (kept as its
    ``__cause__``) for any exception but a :class:`BoardrulesError` (one the plugin means,
    such as an illegal move in a record it replays): a user saw a plugin's traceback."""

    def register(self, plugin: Any, name: str | None = None) -> str | None:
        registered = super().register(plugin, name)
        for caller in self.get_hookcallers(plugin) or ():
            for impl in caller.get_hookimpls():
                if impl.plugin is plugin and not (impl.wrapper or impl.hookwrapper):
                    # (pluggy types the attribute Final; it calls whatever it holds)
                    setattr(impl, "function", _guarded(impl.function, impl.plugin_name, caller.name))
        return registered


def _guarded(function: Callable[..., Any], plugin: str, hook: str) -> Callable[..., Any]:
    @functools.wraps(function)
    def guarded(*args: Any, **kwargs: Any) -> Any:
        try:
            return function(*args, **kwargs)
        except BoardrulesError:
            raise
        except Exception as err:
            raise PluginError(f"plugin {brief_text(plugin, 60)}: its hook {hook} raised "
                              f"{type(err).__name__}: {brief_value(str(err), MESSAGE)}") from err
    return guarded


@functools.cache
def manager() -> pluggy.PluginManager:
    """The process-wide plugin manager (built on first use). A hook implementation that raises
    anything but a :class:`BoardrulesError` raises :class:`PluginError` instead (see
    :class:`_Manager`)."""
    pm = _Manager("boardrules")
    pm.add_hookspecs(hookspecs)
    for name in BUNDLED:
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        if not pm.is_registered(module):
            pm.register(module, name)
    try:
        pm.load_setuptools_entrypoints("boardrules")
    except pluggy.PluginValidationError as err:   # a hook with arguments its spec lacks
        raise PluginError(f"a plugin does not fit boardrules: {' '.join(str(err).split())} "
                          "(docs/plugins.md)") from err
    except Exception as err:   # an installed plugin that fails to import: named, not a traceback
        where = f"{err.msg} ({err.filename}:{err.lineno})" if isinstance(err, SyntaxError) else str(err)
        raise PluginError(f"cannot load the installed plugins (entry-point group 'boardrules'): "
                          f"{type(err).__name__}: {where}") from err
    check_hooks(pm)
    return pm


def check_hooks(pm: pluggy.PluginManager) -> None:
    """Raise :class:`PluginError` naming every ``boardrules_*`` function of a registered plugin
    that is not a hook (misspelt), or is one but lacks ``@hookimpl`` (pluggy would silently
    ignore it: the plugin would do nothing)."""
    problems = []
    for name, plugin in pm.list_name_plugin():
        for attr in sorted(a for a in dir(plugin) if a.startswith("boardrules_")):
            if callable(getattr(plugin, attr, None)) and pm.parse_hookimpl_opts(plugin, attr) is None:
                what = "" if hasattr(pm.hook, attr) else ", nor a hook's name (misspelt?)"
                problems.append(f"{attr} in plugin {name!r} is not marked @boardrules.hookimpl{what}: "
                                "pluggy would ignore it")
    try:
        pm.check_pending()
    except pluggy.PluginValidationError as err:   # a misspelt hook name
        problems.append(f"{err} (the hooks are listed in docs/plugins.md)")
    if problems:
        raise PluginError("; ".join(problems))


_LISTED: dict[str, tuple[tuple[Any, ...], list[Any]]] = {}   # hook -> (its impls, their specs)


def _specs(hook: str, kind: type[Any]) -> list[Any]:
    """What every plugin's ``hook`` returned, as one list of ``kind`` (each as
    :func:`_spec_checked` reads it); raises :class:`PluginError` for a result that is not a list of
    them, for a spec :func:`_spec_checked` refuses, and for an id two of them share in one game
    (one would hide the other, bundled ones included). The hooks are asked again only when
    the plugins that implement them change (registered or unregistered)."""
    impls = tuple(reversed(getattr(manager().hook, hook).get_hookimpls()))   # (pluggy's call order)
    known = _LISTED.get(hook)
    if known is not None and known[0] == impls:   # (hooks describe; every build asks again)
        return known[1]
    out: list[Any] = []
    by: list[str] = []   # (the plugin of each spec of out, to name both of a clash)
    for impl in impls:
        found = impl.function() or []
        stray = [spec for spec in found if not isinstance(spec, kind)] \
            if isinstance(found, (list, tuple)) else [found]
        if stray:
            raise PluginError(f"{hook} of plugin {impl.plugin_name!r} must return a list of "
                              f"{kind.__name__}, not {'one holding ' if stray[0] is not found else ''}"
                              f"a {type(stray[0]).__name__}")
        out += found
        by += [impl.plugin_name] * len(found)
    out = [_spec_checked(spec) for spec in out]
    seen: dict[tuple[str, str], str] = {}
    for spec, plugin in zip(out, by):
        key = (getattr(spec, "game", ""), spec.name)
        if key in seen:
            where = f" of {key[0]}" if key[0] else ""
            raise PluginError(f"{kind.__name__} {brief_text(spec.name, 60)}{where} is declared "
                              f"{_declared_by(seen[key], plugin)}")
        seen[key] = plugin
    _LISTED[hook] = (impls, out)
    return out


def _declared_by(first: str, second: str) -> str:
    """Who declared one id twice, plugins ``first`` and ``second`` (perhaps one), and what to do."""
    whose = (f"twice by {_plugin_named(first)}" if first == second else
             f"by {_plugin_named(first)} and by {_plugin_named(second)}")
    return f"{whose}: rename one of them, or uninstall one plugin's package"


def _plugin_named(name: str) -> str:
    """``plugin 'NAME'``, with the package that installed it when an entry point did (its
    name may differ from the plugin's: the one to uninstall)."""
    pm = manager()
    plugin = pm.get_plugin(name)
    package = next((dist.project_name for p, dist in pm.list_plugin_distinfo() if p is plugin), None)
    return f"plugin {brief_text(name, 60)}" + (f" (package {brief_text(package, 60)})" if package else "")


def games() -> dict[str, GameSpec]:
    """Every installed game: name → :class:`GameSpec`. Raises :class:`PluginError` as
    :func:`_specs`."""
    return {spec.name: spec for spec in _specs("boardrules_games", GameSpec)}


def modules(game: str | None = None) -> dict[str, ModuleSpec]:
    """Installed modules (of ``game`` when given): name → :class:`ModuleSpec`. Raises
    :class:`PluginError` as :func:`_specs`."""
    return {spec.name: spec for spec in _specs("boardrules_modules", ModuleSpec)
            if game is None or spec.game == game}


def game_spec(name: str) -> GameSpec:
    try:
        return games()[name]
    except KeyError:
        raise PluginError(f"no game named {brief_text(name, 60)}; installed: "
                          f"{', '.join(sorted(games())) or 'none'} ({_install_hint('game', name, games())})") from None


def _install_hint(what: str, name: str, installed: Iterable[str]) -> str:
    """What to do about a game or module ``name`` that is not installed: the installed one it
    was likely meant to be, and how another package's ``what`` comes."""
    close = did_you_mean(name, installed)
    return (f"{close + ' ' if close else ''}another package's {what} must be installed first, e.g. "
            f"with pip; 'boardrules plugins' lists the installed ones")


def resolve_modules(game: str | None, requested: Iterable[str] = ()) -> tuple[str, ...]:
    """The modules in force for ``game`` when ``requested`` names some: every default
    module, plus those named, minus those named with a leading ``-`` (``"-factions"``
    switches a default off; naming one off by default that nothing requires is an error), plus
    what they require; in load order (a module after those it requires, otherwise by id).
    Raises :class:`PluginError` with every problem in one message: unknown ids, a module named
    twice (``-m x -m x``, a record's list holding it twice), requirements switched off or
    missing, conflicts."""
    wanted = tuple(requested)
    if game is None:
        if wanted:
            raise PluginError("modules belong to a game: rules given as texts have none")
        return ()
    available = modules(game)
    empty = [r for r in wanted if r in ("", "-")]   # (named as typed: '-' is no '-ID')
    on = {r for r in wanted if not r.startswith("-")} - {""}
    off = {r[1:] for r in wanted if r.startswith("-")} - {""}
    # (a module named twice was taken once without a word: a list meant to name two modules,
    # with a typo or a copied line, then played another game than its author thought)
    problems = [f"module {brief_text(n.removeprefix('-'), 60)} is "
                f"{'switched off' if n.startswith('-') else 'named'} twice: name each module once"
                for n, count in sorted(Counter(wanted).items()) if count > 1][:10]
    if empty:
        problems.append(f"{empty[0]!r} names no module: give a module's id, or -ID to switch a "
                        f"default one off (available: {', '.join(sorted(available)) or 'none'})")
    unknown = sorted((on | off) - set(available))
    if unknown:
        problems.append(f"{game} has no module {', '.join(brief_text(u, 60) for u in unknown[:10])}"
                        f"{' and more' if len(unknown) > 10 else ''} "
                        f"(available: {', '.join(sorted(available)) or 'none'}; "
                        f"{_install_hint('module', unknown[0], available)})")
    problems += [f"module {brief_text(n, 60)} is both switched on and off" for n in sorted(on & off)[:10]]
    chosen = {n for n, spec in available.items() if spec.default and n not in off}
    chosen |= on & set(available)
    todo = sorted(chosen)
    while todo:
        name = todo.pop()
        for req in available[name].requires:
            if req not in available:
                problems.append(f"module '{name}' requires '{req}', which is not installed "
                                f"({_install_hint('module', req, ())})")
            elif req in off:
                problems.append(f"module '{name}' requires '{req}', which is switched off")
            elif req not in chosen:
                chosen.add(req)
                todo.append(req)
    # '-X' of a module off by default that nothing chosen requires would change nothing: the
    # user meant another module, or thinks X on (it was ignored without a word)
    idle = sorted(n for n in (off - on) & set(available) if not available[n].default
                  and not any(n in available[c].requires for c in chosen))
    defaults = ", ".join(sorted(m for m, spec in available.items() if spec.default)) or "none"
    problems += [f"module {brief_text(n, 60)} is off by default, so {brief_text('-' + n, 61)} "
                 f"changes nothing ({game}'s default modules: {defaults})" for n in idle[:10]]
    clashes = sorted({tuple(sorted((a, b))) for a in chosen for b in available[a].conflicts
                      if b in chosen})
    problems += [f"modules '{a}' and '{b}' conflict: enable only one of them" for a, b in clashes]
    if problems:
        raise PluginError("; ".join(problems))
    order: list[str] = []

    def place(name: str, path: tuple[str, ...] = ()) -> None:
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


def exactly(game: str | None, names: Iterable[str]) -> tuple[str, ...]:
    """What to pass as ``modules=`` to get exactly ``names`` (e.g. a record's list):
    ``names`` plus every default module not among them switched off."""
    given = tuple(names)
    if game is None:
        return given
    return given + tuple(f"-{n}" for n, spec in sorted(modules(game).items())
                         if spec.default and n not in given)


def module_options(spec: ModuleSpec) -> dict[str, str]:
    """The options a module's rule files add: name → description (parsed on demand)."""
    from .lang import ast as A
    from .lang.parser import parse_file
    out: dict[str, str] = {}
    for path in spec.rule_files:
        for item in parse_file(path).items:
            if isinstance(item, A.OptionDecl) and item.modifier is None:
                out[item.name] = item.doc
    return out


def module_declarations(spec: ModuleSpec) -> set[tuple[str, str]]:
    """The (kind, name) of every definition a module's rule files add (``("option",
    "market_coins")``, ``("step", "market_day")``; not their changes to others), parsed on
    demand."""
    from .lang import ast as A
    return {key for item in _declarations(spec.rule_files) if getattr(item, "modifier", None) is None
            and not isinstance(item, A.RemoveDecl) and (key := A.decl_key(item)) is not None}


def _declarations(paths: Iterable[str | Path]) -> Iterator[Any]:
    """The top-level items of the rule files at ``paths``, parsed on demand (a file that does
    not read or parse declares nothing to point at)."""
    from .lang.parser import parse_file
    for path in paths:
        try:
            yield from parse_file(path).items
        except BoardrulesError:
            continue


def game_changed_by(texts: Iterable[str]) -> str | None:
    """The installed game whose rule files (its modules' included) declare the most of what the
    rule ``texts`` define, extend or override, by name or kind (``extend faction gleens``,
    ``roundtile score11 { … }``: gaia-project), else None: the game house rules given as a game
    of their own were written for, for the hint to give them to it."""
    from .lang import ast as A
    from .lang.parser import parse_text
    wanted = set()
    for text in texts:
        try:
            wanted |= {w for item in parse_text(text).items if (key := A.decl_key(item)) is not None for w in key}
        except BoardrulesError:
            continue
    best, most = None, 0
    for name, spec in sorted(games().items()):
        files = [*spec.rule_files, *(f for m in modules(name).values() for f in m.rule_files)]
        hits = len(wanted & {key[1] for item in _declarations(files) if (key := A.decl_key(item)) is not None})
        if hits > most:
            best, most = name, hits
    return best


def modules_declaring(game: str | None, options: Iterable[str], on: Iterable[str]) -> str:
    """A hint naming the modules of ``game`` not in ``on`` whose rule files declare one of
    ``options`` (an option given while its module is off), e.g. ``"; module
    'rare-technologies' declares 'rare_tech_cap' (-m rare-technologies)"``, or ``""``."""
    wanted, on = set(options), set(on)
    hint = ""
    for name, spec in sorted((modules(game) if game else {}).items()):
        declared = sorted(n for k, n in module_declarations(spec) if k == "option" and n in wanted) \
            if name not in on else []
        if declared:
            hint += f"; module '{name}' declares {', '.join(map(repr, declared))} (-m {name})"
    return hint


def player_counts(allowed: tuple[int, int]) -> str:
    """``"2–4"`` for a range of player counts, ``"3"`` for exactly three."""
    lo, hi = allowed
    return str(lo) if lo == hi else f"{lo}–{hi}"


def check_players(game: str | None, names: Iterable[str], players: int) -> None:
    """Raise :class:`PluginError` if a module in ``names`` does not allow ``players``."""
    available = modules(game) if game else {}
    for name in names:
        allowed = available[name].players if name in available else None
        if allowed is not None and not allowed[0] <= players <= allowed[1]:
            # '-ID' only undoes a default; a module asked for is simply left out
            fix = (f"switch it off with '-{name}'" if available[name].default
                   else "play without it")
            raise PluginError(f"module '{name}' is for {player_counts(allowed)} players, not "
                              f"{players}; {fix}")


def modules_allowing(game: str | None, players: int, base: tuple[int, int] = (0, 0)) -> str:
    """A hint naming the modules of ``game`` that widen its player counts (``base``, the
    ruleset's range) to ``players``, e.g. Eclipse's ``nine-players``: a module whose
    ``players`` range admits ``players`` and lies wholly outside ``base`` (a module that
    merely allows more players than the base, such as ``alliances`` for 4–9, widens
    nothing). Text such as ``"; module 'nine-players' allows 7–9 players (-m
    nine-players)"``, or ``""``."""
    hint = ""
    for _, spec in sorted((modules(game) if game else {}).items()):
        if spec.players is None:
            continue
        lo, hi = spec.players
        if lo <= players <= hi and (hi < base[0] or lo > base[1]):
            hint += f"; module '{spec.name}' allows {player_counts(spec.players)} players (-m {spec.name})"
    return hint


def rule_files(game: str, modules: tuple[str, ...]) -> list[tuple[str | os.PathLike[str], str]]:
    """The extra rule files every plugin's ``boardrules_rule_files`` gives for ``game`` with
    ``modules`` on, each with the name of the plugin that gave it (a record names it: replayed
    without that plugin, the rules that differ are named), in pluggy's call order. One path
    alone stands for itself; a result that is neither a path nor a list of them is a
    :class:`PluginError` naming the plugin (a path was iterated, a text read as its letters)."""
    out: list[tuple[str | os.PathLike[str], str]] = []
    kw = {"game": game, "modules": modules}
    for impl in reversed(manager().hook.boardrules_rule_files.get_hookimpls()):   # (pluggy's call order)
        if impl.wrapper or impl.hookwrapper:   # (each file is named with its plugin: no wrapping)
            raise PluginError(f"boardrules_rule_files of plugin {brief_text(impl.plugin_name, 60)} is a hook "
                              f"wrapper; return the plugin's own rule files instead")
        found = impl.function(**{arg: kw[arg] for arg in impl.argnames}) or ()
        if isinstance(found, (str, os.PathLike)):
            found = (found,)
        if not isinstance(found, (list, tuple)) or not all(isinstance(f, (str, os.PathLike)) for f in found):
            raise PluginError(f"boardrules_rule_files of plugin {brief_text(impl.plugin_name, 60)} must return "
                              f"a list of rule-file paths, not {brief_text(found, 60)}")
        out += [(f, impl.plugin_name) for f in found]
    return out


def primitives(game: str, names: Iterable[str] = ()) -> dict[str, Primitive]:
    """The primitives of ``game`` with the modules ``names`` on: name → Primitive.

    Plugins' primitives (and setup steps) first: two offering one name is a
    :class:`PluginError`. Then each module's, in module order: new names are added; one
    declared ``replaces=True`` takes the place of the primitive of that name (two modules
    replacing the same one is a conflict naming both); one declared ``wraps=True`` is
    called with the primitive it wraps as its second argument, so the first module's
    wrapper is innermost. A replacement or wrapper must have the same signature."""
    out: dict[str, Primitive] = {}
    by: dict[str, str] = {}   # (the plugin of each, to name both of a clash)
    hook = manager().hook
    for caller in (hook.boardrules_primitives, hook.boardrules_setup_steps):
        for impl in reversed(caller.get_hookimpls()):   # (pluggy's call order)
            declared: Any = impl.function(**{arg: game for arg in impl.argnames}) or ()   # (lists of Primitive)
            for prim in declared:
                if prim.name in out:
                    raise PluginError(f"the primitive {prim.name!r} of {game} is declared "
                                      f"{_declared_by(by[prim.name], impl.plugin_name)}")
                out[prim.name], by[prim.name] = prim, impl.plugin_name
    available = modules(game)
    replaced: dict[str, str] = {}
    wrappers: list[Primitive] = []
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
        inner = out[w.name]
        out[w.name] = attrs.evolve(w, fn=_wrapped(w.fn, inner.fn), wraps=False,
                                   pure=w.pure and inner.pure)
    return {name: _checked(prim) for name, prim in out.items()}


_RETURN_CHECKS: dict[str, tuple[type, ...]] = {
    "int": (int,), "bool": (bool,), "text": (str,), "list": (tuple, list, range, frozenset, set),
}
"""The Python types of the declared return types a primitive's result is checked against (a
list's items, players, hexes and entities are not: their values need the state); an ``int`` is
a plain int (not a bool, an int to Python and ``true`` to the rules) within ±MAX_NUMBER."""


class ReturnCheck(NamedTuple):
    """How a checked primitive's result is tested (:func:`_checked`), for code that calls the
    primitive itself: ``fn`` the primitive's own function; a result passes when it is a plain
    int within ±MAX_NUMBER (``types`` None) or an instance of ``types``; ``refused(ctx,
    value)`` answers for one that does not (none for a ``T?``, else the defect raised)."""

    fn: Callable[..., Any]
    types: tuple[type, ...] | None
    refused: Callable[[Any, Any], Any]


def _checked(prim: Primitive) -> Primitive:
    """``prim`` whose result is checked against its declared return type (``int``, ``bool``,
    ``text``, ``list:T``; ``T?`` also allows ``none``; an ``int`` is no bool and within
    ±MAX_NUMBER, the numbers rules hold): a value of another type is the plugin's
    defect, a :class:`~boardrules.runtime.PrimitiveFailed` naming the primitive, the value
    and the type declared (the engine adds the rule and the call's file:line:column), where it
    used to surface later as a broken rule ("'+' needs numbers")."""
    if prim.effect:
        return prim
    declared = prim.returns
    optional = declared.endswith("?")
    kind = declared.rstrip("?").partition(":")[0]
    types = _RETURN_CHECKS.get(kind)
    if types is None:
        return prim
    fn, name, is_int = prim.fn, prim.name, kind == "int"

    def refused(ctx: Any, value: Any) -> Any:
        """``value`` when it is none for a ``T?``, else the defect (the quick test failed)."""
        if value is None and optional:
            return value
        # (an int or a bool for an int: what a number of the rules is)
        number = f", a number from -{MAX_NUMBER} to {MAX_NUMBER}" if is_int and isinstance(value, int) else ""
        raise PrimitiveFailed(f"primitive '{name}' returned {reprlib.repr(value)} ({type(value).__name__}), "
                              f"not the {declared} it declares{number} (a defect of the plugin that provides "
                              "it, not a rule broken)", ctx.source)

    def checked(ctx: Any, *args: Any) -> Any:
        value: Any = fn(ctx, *args)
        # (inline, not a function per type: primitives run tens of thousands of times a game)
        if (value.__class__ is int and -MAX_NUMBER <= value <= MAX_NUMBER) if is_int else isinstance(value, types):
            return value
        return refused(ctx, value)
    checked.parts = (fn,)  # type: ignore[attr-defined]  # (whose code it runs)
    # (the compiled expressions call ``fn`` and make the quick test themselves: lang/codegen.py)
    checked.inline = ReturnCheck(fn, None if is_int else types, refused)  # type: ignore[attr-defined]
    return attrs.evolve(prim, fn=checked)


def _wrapped(outer: Callable[..., Any], inner: Callable[..., Any]) -> Callable[..., Any]:
    def wrapped(ctx: Any, *args: Any) -> Any:
        return outer(ctx, inner, *args)
    wrapped.parts = (outer, inner)  # type: ignore[attr-defined]  # (whose code it runs)
    return wrapped


def _signature(prim: Primitive) -> str:
    params = ", ".join(f"{n}: {t}" for n, t in prim.params)
    return f"{prim.name}({params}) -> {prim.returns}" + (" (effect)" if prim.effect else "")


@functools.lru_cache(maxsize=None)   # (resolving a path costs system calls: new_game asks often)
def rule_files_dir(module_file: str) -> Path:
    """The ``rules/`` folder beside a plugin module."""
    return Path(module_file).resolve().parent / "rules"


def rules_module(module_file: str, name: str, game: str, description: str,
                 **spec: Any) -> Callable[[], list[ModuleSpec]]:
    """The ``boardrules_modules`` hook of a plugin that offers one module whose rules are
    ``rules/NAME.rules`` beside ``module_file``: ``boardrules_modules = rules_module(__file__,
    "my-module", "eclipse", "what it adds", title=...)``; ``spec`` are the other
    :class:`ModuleSpec` fields (``title``, ``players``, ``requires``, ``primitives``, ...)."""
    @hookimpl
    def boardrules_modules() -> list[ModuleSpec]:
        return [ModuleSpec(name, game, (rule_files_dir(module_file) / f"{name}.rules",),
                           description, **spec)]
    return boardrules_modules
