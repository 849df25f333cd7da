"""Rulesets: rule files parsed, merged, checked and compiled once, then immutable.

:func:`build_ruleset` is the one way to make one. It gathers the game's rule
files, each enabled module's, and the user's house rules; merges them on the AST;
checks them (all errors at once); and compiles every rule to Python callables.
Results are cached per process, so building the same ruleset twice is free.
A ruleset pickles as the recipe that built it.
"""

from __future__ import annotations

import functools
import gc
import hashlib
import os
import re
from itertools import repeat
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Union, cast

import attrs

from .limits import LIMITS, Limits
from . import plugins
from .errors import OptionError, PluginError, RulesError
from .jsonshape import elements
from .lang import ast as A
from .lang.backends import Compiler, Interpreter
from .lang.checker import BASIC_TYPES, Checker
from .lang.diagnostics import INCOMPLETE, Diagnostic
from .lang.guards import Guard, Guards
from .lang.inert import Inert
from .lang.listgen import Lister, step_lister
from .lang.merge import Layer, merge
from .lang.parser import parse_text, read_rule_file, unreadable
from .lang.semantics import BlockFn, ExprFn, Key, Value
from .primitives import Primitive
from .quoting import as_int, brief_text, read_whole
from .record import Source

if TYPE_CHECKING:
    from .lang.checker import Program
    from .runtime import Context

Backend = Union[Compiler, Interpreter]
# the most entities of a kind whose parameters get a `where` per entity (Ruleset.listing_wheres)
ENTITY_WHERES = 64


@attrs.frozen
class Recipe:
    """Everything needed to rebuild a ruleset: game, modules, options, house-rule texts."""

    game: str | None
    modules: tuple[str, ...] = ()
    options: tuple[tuple[str, Value], ...] = ()  # sorted (name, value) pairs
    # ((path, text), ...); Any: game/core.py rebuilds the pairs as tuple(map(tuple, ...)) from a record
    rules: tuple[Any, ...] = ()
    backend: str = "compiled"
    texts: tuple[tuple[str, str], ...] = ()  # for games without a plugin: ((path, text), ...) as the base layer


@attrs.frozen
class TriggerFn:
    event: str
    names: tuple[str, ...]
    cond: ExprFn | None
    body: BlockFn
    entity: str | None
    source: str
    node: A.Block | None = None  # the body's statements (lang/inert.py)
    cond_node: A.Expr | None = None  # the condition's expression (lang/inert.py)
    span: A.Span | None = None  # the ``when`` (errors name the place of the rule they break)


@attrs.frozen
class Step:
    """One compiled flow step: ``do`` a block, or let players take ``turns``."""

    name: str
    kind: str
    body: BlockFn | None = None
    order: tuple[str, ExprFn | None] | tuple[()] = ()  # ("seat"|"snake"|"reverse seat", None) or ("by", fn)
    mode: str = ""
    main: tuple[str, ...] = ()
    free: tuple[str, ...] = ()
    lanes: ExprFn | None = None  # interleaved turns: fn(ctx) -> the players who start each lane
    node: A.DoStep | A.TurnsStep | None = attrs.field(default=None, eq=False)  # (lang/flow.py)


@attrs.frozen
class Stage:
    kind: str
    count: ExprFn | None
    steps: tuple[Step, ...]
    node: A.Stage | None = attrs.field(default=None, eq=False)  # (lang/flow.py)


class _KeyDefaults(dict[Key, Value]):
    """key -> :meth:`Ruleset.default_of` (key), filled as keys are read: the runtime's reads of
    values never written cost one dict lookup (at most ``LIMIT`` keys are kept)."""

    LIMIT = 100_000

    def __init__(self, default_of: Callable[[Key], Value]) -> None:
        super().__init__()
        self._default_of = default_of

    def __missing__(self, key: Key) -> Value:
        value = self._default_of(key)
        if len(self) < self.LIMIT:
            self[key] = value
        return value


class Ruleset:
    """A compiled, immutable set of rules. Build it with :func:`build_ruleset`.

    Attributes: ``title``, ``players`` (min, max), ``options`` (name → OptionDef with
    the value in force as ``default``), ``resources``, ``tracks``, ``components``,
    ``kinds``, ``entities``, ``by_kind``, ``vars``, ``events``, ``actions``,
    ``primitives``, ``stages``, ``id`` (a digest of the recipe and of every rule file's text)
    and ``sources`` (each rule file read, in load order: :class:`~boardrules.record.Source`).
    """

    def __init__(self, program: Program, primitives: dict[str, Primitive], recipe: Recipe,
                 digest: str = "", sources: tuple[Source, ...] = ()) -> None:
        self.recipe = recipe
        self.sources = sources   # (every rule file read, in load order: a record keeps them)
        self.game = recipe.game
        self.modules = recipe.modules
        # The id names the rules' content: every rule file's text plus the recipe.
        self.id = hashlib.sha256((repr(recipe) + digest).encode()).hexdigest()[:16]
        p = program
        # (rules of one's own without a 'game' declaration: called by their file, not "")
        self.title = p.title or recipe.game or (Path(recipe.texts[0][0]).stem if recipe.texts else "")
        self.players = p.players
        self.options = p.options
        self.resources = p.resources
        self.tracks = p.tracks
        self.components = p.components
        self.kinds = p.kinds
        self.entities = p.entities
        self.by_kind = p.by_kind
        # (each kind's entities as a set: semantics.fits tests a list of them in C; a kind
        # named as a built-in type is that type there)
        self.kind_sets = {k: frozenset(v) for k, v in p.by_kind.items() if k not in BASIC_TYPES}
        self.vars = p.vars
        self.proven_sets = p.proven_sets   # (ids of the sets whose value needs no test)
        self.events = p.events
        self.actions = p.actions
        self.primitives = primitives
        self._block_ids: dict[int, int] = {}
        self.blocks: list[BlockFn] = []
        self._defaults: dict[Key, Value] = {}
        for name, var in self.vars.items():
            self._defaults[("v", name)] = var.default
        for name, comp in self.components.items():
            self._defaults[("c", name)] = comp.supply
        self.key_defaults = _KeyDefaults(self.default_of)
        self._field_values: dict[str, dict[str, Value]] = {}   # (field_values)
        self.readings: dict[str, Any] = {}   # reader.py's reading per name, filled as names are read
        # a new game's first state and the events of its setup's run, by (players, budget, limits)
        self.starts: dict[tuple[int, int, Any], tuple[Any, tuple[Any, ...]]] = {}
        self.primitive_codes: dict[Any, str] | None = None   # (semantics._failing_primitive)
        backend: Backend = Compiler(self) if recipe.backend == "compiled" else Interpreter(self)
        self.backend = backend
        self._register_blocks(p)
        self.blocks = [backend.block(b) for b in self._block_nodes]
        self.track_rewards = {(t.name, lv): backend.block(b)
                              for t in self.tracks.values() for lv, b in t.rewards.items()}
        self._slots: dict[tuple[str, str], BlockFn] = {}
        for e in self.entities.values():
            kind = self.kinds[e.kind]
            for slot, default in kind.slots.items():
                body = e.slots.get(slot, default)
                if body is not None:
                    self._slots[(e.name, slot)] = backend.block(body)
        self._action_bodies = {n: backend.block(a.body) for n, a in self.actions.items()}
        self.param_names = {n: tuple(prm.name for prm in a.params) for n, a in self.actions.items()}
        # the actions with a parameter of type player (their canonical text writes it pN)
        self.player_params = frozenset(n for n, a in self.actions.items()
                                       if any(prm.type.name == "player" for prm in a.params))
        self.param_domains = {n: tuple(backend.expr(prm.domain) for prm in a.params)
                              for n, a in self.actions.items()}
        # (per parameter: whether its domain may hold a value twice, a list joined or kept:
        # its values are then made unique, each legal action listed once; a range, a kind or
        # a type's own values cannot, and are left as they are)
        self.param_repeats = {n: tuple(_may_repeat(prm.domain, self.by_kind) for prm in a.params)
                              for n, a in self.actions.items()}
        self.param_wheres = {n: tuple(backend.expr(prm.where) for prm in a.params)
                             for n, a in self.actions.items()}
        # the actions with a parameter's ``where`` condition (tested even without checks)
        self.param_where_actions = frozenset(n for n, ws in self.param_wheres.items()
                                             if any(w is not None for w in ws))
        self.tiebreak = tuple(backend.expr(e) for e in p.tiebreak)
        self.final_score = backend.expr(p.final_score) if p.final_score is not None else None
        self.caps = {n: backend.expr(r.cap) for n, r in self.resources.items() if r.cap is not None}
        by_event: dict[str, list[TriggerFn]] = {}
        for t in p.triggers:
            by_event.setdefault(t.event, []).append(TriggerFn(
                t.event, t.names, backend.expr(t.cond), backend.block(t.body), t.entity, t.source, t.body, t.cond, t.span))
        self.triggers_by_event = {k: tuple(v) for k, v in by_event.items()}
        self.stages = self._compile_flow(p.flow, backend)
        self.resources = {n: attrs.evolve(r, cap=_cap_fn(self.caps[n]) if n in self.caps else None)
                          for n, r in p.resources.items()}
        # (id(step), settling) -> (guards, listing)
        self._listers: dict[tuple[int, bool], tuple[Guards, Lister | None]] = {}
        self._listing_wheres: dict[tuple[str, int], tuple[ExprFn, dict[str, ExprFn] | None] | None] = {}
        self.guards = Guards(self, backend, Inert(self, {n: r.cap for n, r in p.resources.items()
                                                          if r.cap is not None}))

    # ---- construction helpers ----
    def _register_blocks(self, p: Program) -> None:
        nodes: list[A.Block] = []
        self._block_owners: list[A.Stmt] = []   # the statement each block belongs to
        # every name a rule binds (parameters, triggers' names, 'let', loop and decision
        # variables; 'self'): the only keys ``ctx.env`` ever holds (generated code keeps a
        # quantifier's variable in a Python local), so a name of the rules outside this set is
        # never hidden by a binding (codegen.py, ``_Gen.local_or``)
        bound: set[str] = {"self"}
        for a in p.actions.values():
            bound.update(prm.name for prm in a.params)
        for t in p.triggers:
            bound.update(t.names)

        def walk(node: A.Block | A.Stmt) -> None:
            if isinstance(node, A.Let):
                bound.add(node.name)
            elif isinstance(node, (A.For, A.Choose, A.Draw)):
                bound.add(node.var)
            if isinstance(node, (A.Choose, A.Draw, A.AfterTurn, A.Queue)):
                self._block_ids[id(node.body)] = len(nodes)
                nodes.append(node.body)
                self._block_owners.append(node)
            if isinstance(node, A.Block):
                for s in node.stmts:
                    walk(s)
            elif isinstance(node, A.If):
                for _, b in node.branches:
                    walk(b)
                if node.orelse is not None:
                    walk(node.orelse)
            elif isinstance(node, (A.For, A.Choose, A.Draw, A.AfterTurn, A.Queue)):
                walk(node.body)

        for track in p.tracks.values():
            for b in track.rewards.values():
                walk(b)
        for k in p.kinds.values():
            for default in k.slots.values():
                if default is not None:
                    walk(default)
        for e in p.entities.values():
            for b in e.slots.values():
                walk(b)
        for a in p.actions.values():
            walk(a.body)
        for t in p.triggers:
            walk(t.body)
        if p.flow is not None:
            for stage in p.flow.stages:
                for step in stage.steps:
                    if isinstance(step, A.DoStep):
                        walk(step.body)
        self._block_nodes = nodes
        self.binding_names = frozenset(bound)

    def _compile_flow(self, flow: A.FlowDecl | None, backend: Backend) -> tuple[Stage, ...]:
        if flow is None:
            return ()
        stages = []
        for st in flow.stages:
            steps: list[Step] = []
            for s in st.steps:
                if isinstance(s, A.DoStep):
                    steps.append(Step(s.name, "do", body=backend.block(s.body), node=s))
                else:
                    kind, arg = s.order
                    order: tuple[str, ExprFn | None]
                    if kind == "by":
                        order = ("by", backend.expr(cast(A.Expr, arg)))
                    else:
                        named = cast(str, arg)
                        order = (("reverse " + named) if kind == "reverse" else named, None)
                    rules: dict[str, tuple[str, ...]] = {"main": (), "free": ()}
                    lanes = None
                    for rule_kind, names, _ in s.rules:
                        if rule_kind == "lanes":
                            lanes = backend.expr(cast(A.Expr, names))
                            continue
                        rules[rule_kind] = rules.get(rule_kind, ()) + cast(tuple[str, ...], names)
                    # (modules' 'extend step' may name an action twice)
                    steps.append(Step(s.name, "turns", order=order, mode=s.mode,
                                      main=tuple(dict.fromkeys(rules["main"])),
                                      free=tuple(dict.fromkeys(rules["free"])), lanes=lanes,
                                      node=s))
            stages.append(Stage(st.kind, backend.expr(st.count), tuple(steps), st))
        return tuple(stages)

    def check_playable(self) -> None:
        """Raise :class:`~boardrules.errors.RulesError` when a game of these rules could not be
        played: rules with no flow step (an empty file, a module checked alone) would end before
        anyone acts. The diagnostic points at the start of the base game's first rule file.
        Checked by :class:`~boardrules.game.Game`, ``boardrules check`` and ``simulate``
        (docs/language.md, ``flow``)."""
        if any(stage.steps for stage in self.stages):
            return
        path, text = self.recipe.texts[0] if self.recipe.texts else (
            str(plugins.game_spec(self.game).rule_files[0]) if self.game else "<rules>", "")
        empty = not (self.actions or self.resources or self.vars or self.entities or self.options)
        raise RulesError([Diagnostic(
            A.Span(path, 1, 1, 1, 2),
            "the rules declare nothing: there is no game to play" if empty else
            "the rules have no flow step: a game of them would end before anyone acts",
            "a game needs a 'flow' with a 'turns' step and actions for it, e.g. 'flow { rounds 3 "
            "{ step play: turns seat once { main ACTION } } }' (docs/language.md, 'flow')",
            source=text, kind=INCOMPLETE)])

    def rule_span(self, rule: str) -> A.Span | None:
        """Where the rule an error names (``IllegalActionError.rule``) is declared: an action
        (and its decisions), an entity (its slots and actions), a flow step, a track level's
        reward (``farming 1``). None for the engine's own rules (``turn``, ``flow`` …), a name
        two of these share, and a trigger (``emit`` places its errors: several triggers share a
        name)."""
        places = [d.span for d in (self.actions.get(rule), self.entities.get(rule)) if d is not None]
        places += [s.node.span for st in self.stages for s in st.steps if s.name == rule and s.node]
        track, _, level = rule.rpartition(" ")
        number = read_whole(level)
        reward = self.tracks[track].rewards.get(number) if track in self.tracks \
            and number is not None else None
        places += [reward.span] if reward is not None else []
        return places[0] if len(places) == 1 and places[0].line else None

    # ---- lookups used at run time ----
    def block_id(self, body: A.Block) -> int:
        return self._block_ids[id(body)]

    def block_owner(self, block: int) -> A.Stmt:
        """The ``choose``/``draw``/``after turn``/``queue`` statement whose body is ``block``."""
        return self._block_owners[block]

    def slot_fn(self, entity: str, slot: str) -> BlockFn | None:
        return self._slots.get((entity, slot))

    def action_body(self, name: str) -> BlockFn:
        return self._action_bodies[name]

    def step_lister(self, step: Step, settling: bool = False) -> Lister | None:
        """The compiled listing of ``turns`` step ``step``'s candidates (lang/listgen.py; with
        ``settling``, of its legal actions), built on first use (again when ``guards`` was
        replaced: it calls their prechecks); None when the step is listed the generic way."""
        key = (id(step), settling)
        got = self._listers.get(key)
        if got is None or got[0] is not self.guards:
            got = self._listers[key] = (self.guards, step_lister(self, step, settling))
        return got[1]

    def listing_wheres(self, name: str, i: int) -> tuple[ExprFn, dict[str, ExprFn] | None] | None:
        """Parameter ``i``'s ``where`` of action ``name`` as a listing runs it, the bindings
        exactly the parameters up to ``i`` (lang/codegen.py: the other names read at once, an
        entity's fields as constants), and for a parameter of an entity kind, that ``where``
        once per entity of the kind with the parameter holding it, by entity name (None for a
        kind of more than ENTITY_WHERES entities, a list or optional one). None without a
        ``where`` and with the interpreter (the listing calls ``param_wheres``)."""
        key = (name, i)
        if key not in self._listing_wheres:
            params = self.actions[name].params
            prm, made = params[i], None
            if isinstance(self.backend, Compiler) and prm.where is not None:
                bound = frozenset(p.name for p in params[:i + 1])
                kind, t = self.by_kind.get(prm.type.name, ()), prm.type
                each = None
                if kind and t.list_of is None and not t.optional and len(kind) <= ENTITY_WHERES:
                    each = {e: self.backend.expr_bound(prm.where, bound, {prm.name: e}) for e in kind}
                made = (self.backend.expr_bound(prm.where, bound), each)
            self._listing_wheres[key] = made
        return self._listing_wheres[key]

    def action_guard(self, name: str) -> Guard | None:
        """The guard of action ``name``'s body (lang/guards.py), None when it has none."""
        return self.guards.action(name)

    def field_values(self, name: str) -> dict[str, Value]:
        """``{entity: its field name's value}`` over the entities that have field ``name`` (the
        generated code reads a field there: lang/codegen.py); made once per name."""
        table = self._field_values.get(name)
        if table is None:
            table = self._field_values[name] = {
                e.name: e.fields[name] for e in self.entities.values() if name in e.fields}
        return table

    def default_of(self, key: Key) -> Value:
        if key[0] == "v" or key[0] == "c":
            return self._defaults.get(key[:2], None)
        if key[0] in ("r", "t", "s", "d"):
            return 0
        return None

    def option(self, name: str) -> Value:
        """The value in force of option ``name``."""
        return self.options[name].default

    def __reduce__(self) -> tuple[Callable[[Recipe], Ruleset], tuple[Recipe]]:
        return (_rebuild, (self.recipe,))

    def __repr__(self) -> str:
        mods = f" +{','.join(self.modules)}" if self.modules else ""
        return f"<Ruleset {self.title}{mods} id={self.id}>"


def _cap_fn(fn: ExprFn) -> Callable[[Context, int], Value]:
    return lambda ctx, p: _with_player(ctx, p, fn)


def _with_player(ctx: Context, p: int, fn: ExprFn) -> Value:
    saved = ctx.me
    ctx.me = p
    try:
        return fn(ctx)
    finally:
        ctx.me = saved


def _rebuild(recipe: Recipe) -> Ruleset:
    return _build(recipe, LIMITS.copy())


_NOTHING_TO_CHANGE = re.compile(r"nothing to (?:override|extend|remove): no (\w+) named '(\w+)'")
_UNKNOWN = re.compile(r"unknown (declaration kind|type|resource|track|component|event|action|procedure"
                      r"|function|name) '(\w+)'|'(\w+)' is not a (constant here|variable)")
# the kind of definition an unknown ... names (None: a name of any kind)
_UNKNOWN_KINDS = {"declaration kind": "kind", "type": "kind", "procedure": "action", "function": "action",
                  "name": None}


def _undefined(message: str) -> tuple[str | None, str] | None:
    """(kind or None for any, name) of what ``message`` says nothing defines, else None."""
    if found := _NOTHING_TO_CHANGE.fullmatch(message):
        return found[1], found[2]
    if found := _UNKNOWN.fullmatch(message):
        if found[3]:
            return (None if found[4] == "constant here" else "var"), found[3]
        return _UNKNOWN_KINDS.get(found[1], found[1]), found[2]
    return None


def _module_hints(recipe: Recipe, errors: list[Diagnostic]) -> list[Diagnostic]:
    """``errors``, those that name what nothing defines (a change of it, a use of it: a kind, a
    resource, an entity, a name...) given the hint to switch on the module that defines it,
    when one does (a house rule overriding market-day's option 'market_coins' without the
    module said only "nothing to override: no option named 'market_coins'", and a development
    of Eclipse's developments "declare it first with 'kind NAME { ... }'"); the rest as they are."""
    found = [_undefined(d.message) for d in errors]
    if recipe.game is None or not any(found):
        return errors
    off = {name: plugins.module_declarations(spec)    # (each module's files parsed once)
           for name, spec in sorted(plugins.modules(recipe.game).items()) if name not in recipe.modules}
    out = []
    for d, key in zip(errors, found):
        names = [name for name, keys in off.items() if key and any(
            n == key[1] and key[0] in (None, k) for k, n in keys)]
        if names:
            switches = " or ".join(f"-m {n}" for n in names)
            d = attrs.evolve(d, hint=f"the module {' or '.join(map(repr, names))} defines it: "
                                     f"switch it on ({switches})")
        out.append(d)
    return out


@functools.lru_cache(maxsize=64)
def _build(recipe: Recipe, limits: Limits) -> Ruleset:
    """The ruleset of ``recipe``, read, checked and analysed under ``limits`` (those in force:
    the cache holds one per limits, so rules refused under lower limits are not served)."""
    diagnostics: list[Diagnostic] = []
    layers: list[Layer] = []
    primitives: dict[str, Primitive] = {}

    content = hashlib.sha256()
    rank: dict[str, int] = {}   # (each file's place in the load: game, modules, house rules)
    sources: list[Source] = []   # (what a record keeps of each file: replay/core.rules_changed)

    def parse_all(pairs: Iterable[tuple[str, ...]], layer: str,
                  names: Iterable[str] | str = "") -> tuple[A.RuleFile, ...]:
        """The files of ``pairs`` (path, text) of ``layer`` parsed, ``names`` what gave each
        (one text: all of them)."""
        files = []
        pairs = tuple(pairs)
        owners = tuple(repeat(names, len(pairs)) if isinstance(names, str) else names)
        # (as given for texts and house rules; else not where installed: the shortest end of
        # its path that no other file of its owner ends with, mostly its name alone)
        shown = [path for path, _ in pairs] if layer in ("texts", "house") else \
            _short_names([path for path, _ in pairs], owners)
        for (path, text), name, file in zip(pairs, owners, shown):
            rank.setdefault(path, len(rank))
            data = text.encode("utf-8", "surrogatepass")   # (parse_text refuses one)
            content.update(data)
            sources.append(Source(layer, name, file, hashlib.sha256(data).hexdigest()[:16]))
            try:
                files.append(parse_text(text, path))
            except RulesError as err:
                diagnostics.extend(err.diagnostics)
        return tuple(files)

    if recipe.game is not None:
        spec = plugins.game_spec(recipe.game)
        primitives = plugins.primitives(recipe.game, recipe.modules)
        layers.append(Layer(recipe.game, "game", parse_all(_read(spec.rule_files), "game", recipe.game)))
        available = plugins.modules(recipe.game)
        for name in recipe.modules:
            layers.append(Layer(name, "module", parse_all(_read(available[name].rule_files), "module", name)))
        extra = plugins.rule_files(recipe.game, recipe.modules)
        if extra:
            layers.append(Layer("plugins", "module", parse_all(
                _read(f for f, _ in extra), "plugin", [plugin for _, plugin in extra])))
    if recipe.texts:
        layers.append(Layer("rules", "game", parse_all(recipe.texts, "texts")))
    if recipe.rules:
        layers.append(Layer("house rules", "house", parse_all(recipe.rules, "house")))
    merged, merge_errors = merge(layers)
    diagnostics.extend(_module_hints(recipe, merge_errors))
    known = {o.name for o in merged.items.values() if isinstance(o, A.OptionDecl)}
    unknown = [name for name, _ in recipe.options if name not in known]
    if unknown and not diagnostics:
        # (names from a record or a command line: quoted short, and at most ten of them)
        named = ", ".join(repr(n) if len(n) <= 40 else repr(n[:37] + "...") for n in unknown[:10])
        more = f" and {len(unknown) - 10} more" if len(unknown) > 10 else ""
        raise OptionError(f"unknown option(s): {named}{more}; "
                              f"known: {', '.join(sorted(known)) or 'none'}"
                              f"{plugins.modules_declaring(recipe.game, unknown, recipe.modules)}")
    checker = Checker(merged, primitives, dict(recipe.options))
    program = checker.check()
    diagnostics.extend(_module_hints(recipe, checker.errors))
    if checker.bad_options and not diagnostics:
        raise OptionError("; ".join(checker.bad_options))
    if diagnostics:
        raise RulesError(sorted(diagnostics, key=lambda d: (
            rank.get(d.span.file, len(rank)), d.span.file, d.span.line, d.span.column)))
    rs = Ruleset(program, primitives, recipe, content.hexdigest(), tuple(sources))
    if recipe.game is not None:
        plugins.manager().hook.boardrules_ruleset_built(ruleset=rs)
    return rs


def _short_names(paths: list[str], owners: tuple[str, ...]) -> list[str]:
    """Each of ``paths`` (rule files, ``owners`` the game, module or plugin giving each) as a
    record's ``sources`` names it: the fewest of its last parts, joined by ``/``, that no other
    path of the same owner ends with (its file name when no other has that name; two files
    ``a/extra.rules`` and ``b/extra.rules`` of one plugin were both ``extra.rules``, told apart
    by digest only), never where the owner is installed."""
    parts = [Path(p).parts for p in paths]
    out = []
    for i, mine in enumerate(parts):
        others = [q for j, q in enumerate(parts) if j != i and owners[j] == owners[i]]
        k = 1
        while k < len(mine) and any(q[-k:] == mine[-k:] for q in others):
            k += 1
        out.append("/".join(mine[-k:]))
    return out


def _read(paths: Iterable[str | os.PathLike[str]]) -> tuple[tuple[str, str], ...]:
    """Each rule file's (path, text). Raises :class:`PluginError` for one that cannot be read and
    for a file given twice (its every definition was 'already defined at' itself)."""
    out = []
    seen: dict[Path, Path] = {}
    for p in paths:
        path = Path(p)
        same = seen.setdefault(path.resolve(), path)
        if same is not path:
            raise PluginError(f"the rule file {path} is given twice"
                              f"{'' if str(same) == str(path) else f' (as {same} too)'}: give it once")
        try:
            out.append((str(path), read_rule_file(path)))
        except (OSError, UnicodeDecodeError) as err:
            raise PluginError(unreadable(path, err)) from None
    return tuple(out)


def _several(value: object, what: str) -> tuple[str | os.PathLike[str], ...]:
    """A tuple of names or paths; one text (or path) stands for itself, not its letters."""
    if isinstance(value, (str, os.PathLike)):
        return (value,)
    if isinstance(value, Iterable) and not isinstance(value, Mapping):
        items = tuple(value)
        if all(isinstance(v, (str, os.PathLike)) for v in items):
            return items
    raise TypeError(f"{what} must be a name or a list of names, not {value!r}")


def _frozen(value: Value, name: str = "", depth: int = 0) -> Value:
    """Option values as the rules hold them: lists become tuples (hashable, for the cache).
    Raises :class:`~boardrules.errors.OptionError` for a value the rules cannot hold (a dict,
    a fraction, lists nested deeper than rule files may write them or holding more elements
    than the rules' lists, a list that holds itself), naming option ``name``."""
    if isinstance(value, (list, tuple)):
        if depth >= LIMITS.max_nesting:   # (a RecursionError out of a record's option, or no end)
            raise OptionError(f"option {brief_text(name, 50)} holds lists nested deeper than {LIMITS.max_nesting} levels")
        frozen = tuple(_frozen(v, name, depth + 1) for v in value)
        if depth == 0 and elements(frozen, LIMITS.max_list) > LIMITS.max_list:   # (as the rules' own lists)
            raise OptionError(f"option {brief_text(name, 50)} holds more than {LIMITS.max_list} elements "
                              f"at every depth (the rules' lists hold at most {LIMITS.max_list})")
        return frozen
    if value is None or isinstance(value, (int, str)):   # (bool is an int)
        return value
    number = as_int(value)   # (NumPy's integers, as everywhere a whole number is asked)
    if number is not None:
        return number
    # ('a number' refused 6.0, a number: the rules' numbers are whole)
    raise OptionError(f"option {brief_text(name, 50)} must be a whole number, true or false, a text, "
                      f"none or a list of them, not {brief_text(value, 60)}")


def build_ruleset(game: str | None = None, *, modules: str | Iterable[str] = (),
                  options: Mapping[str, Value] | None = None,
                  rules: str | os.PathLike[str] | Iterable[str | os.PathLike[str]] = (),
                  texts: Mapping[str, str] | None = None, backend: str = "compiled") -> Ruleset:
    """Build (or fetch from the cache) the ruleset for ``game``.

    ``modules``: ids of the game's modules to switch on (the default ones are on
    unless named with a leading ``-``, e.g. ``"-factions"``; what they require comes
    along; see :func:`boardrules.plugins.resolve_modules`); ``options``: a dict
    overriding option defaults; ``rules``: paths of house-rule files (merged last);
    ``texts``: a dict ``{path: text}`` of rule files to use as the base layer instead
    of (or on top of) a plugin game; ``backend``: ``"compiled"`` or ``"interpreted"``.

    Raises :class:`~boardrules.errors.RulesError` (every diagnostic of every file),
    :class:`~boardrules.errors.PluginError` (unknown game or module, a requirement
    switched off, conflicting modules) or
    :class:`~boardrules.errors.OptionError` (an unknown option or a value of the wrong
    kind); ``TypeError`` for arguments of the wrong type (a single text is accepted for
    ``modules`` and ``rules``); ``ValueError`` for an empty file name in ``texts``.
    """
    if backend not in ("compiled", "interpreted"):
        raise ValueError("backend must be 'compiled' or 'interpreted'")
    if game is not None and not isinstance(game, str):
        raise TypeError(f"game must be a game's name (a text) or None, not {game!r}")
    names, paths = _several(modules, "modules"), _several(rules, "rules")
    for name, value in (("options", options), ("texts", texts)):
        if value is not None and not isinstance(value, Mapping):
            raise TypeError(f"{name} must be a dict, not {value!r}")
    named = [(k, v) for k, v in (options or {}).items() if not isinstance(k, str)]
    if named:   # (sorting them failed, or an unknown one's name was measured with len())
        raise TypeError(f"options must map option names (texts) to values, not {brief_text(named[0][0], 40)}: "
                        f"{brief_text(named[0][1], 40)}")
    bad = [(k, v) for k, v in (texts or {}).items() if not (isinstance(k, str) and isinstance(v, str))]
    if bad:
        raise TypeError(f"texts must map file names to rule texts (both texts), not {bad[0][0]!r}: {bad[0][1]!r}")
    if any(not k.strip() for k in (texts or {})):   # (errors say FILE:LINE:COLUMN; a title falls back on it)
        raise ValueError("texts: a file name must not be empty (it names the file in error messages "
                         "and, without a declared title, the game)")
    if game is not None:
        plugins.game_spec(game)  # an unknown game is named before its modules
    recipe = Recipe(
        game=game,
        modules=plugins.resolve_modules(game, cast(tuple[str, ...], names)),
        options=tuple(sorted((k, _frozen(v, str(k))) for k, v in (options or {}).items())),
        rules=_read(paths),
        backend=backend,
        texts=tuple(sorted((texts or {}).items())),
    )
    return _build(recipe, LIMITS.copy())


_frozen_yet = False


def freeze_once() -> None:
    """For a process that plays many games: move every object alive now (the imports, the
    grammar, the rulesets built) out of the garbage collector's generations (``gc.freeze``),
    once a process. They live as long as the process, and each full collection would walk them
    again (random Gaia play: the full collections 3.8% of the CPU time, 1.2% once frozen).
    ``boardrules play`` and ``simulate``'s workers call it after their rulesets are built; the
    library itself never does, because a freeze is process-wide: a caller's objects alive then
    would have their reference cycles never collected. ``gc.unfreeze()`` undoes it."""
    global _frozen_yet
    if not _frozen_yet:
        _frozen_yet = True
        gc.freeze()


def _may_repeat(domain: object, kinds: Mapping[str, Any]) -> bool:
    """Whether a parameter's ``domain`` (an expression, None: its type's values) may hold a
    value twice: anything but a range or a kind's name (its entities) may."""
    return domain is not None and not isinstance(domain, A.Range) \
        and not (isinstance(domain, A.Name) and domain.id in kinds)
