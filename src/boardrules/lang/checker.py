"""The checker: turns merged rule files into a checked :class:`Program`.

It resolves every name, checks statement targets, entity fields, slots, event
arities, primitive signatures and the flow, and reports **all** errors of all files
at once as diagnostics (``file:line:column``, source line, caret, hint).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from itertools import chain
from typing import TYPE_CHECKING, Any, cast

import attrs

from ..limits import LIMITS
from . import ast as A
from .diagnostics import Diagnostic, Hints
from .merge import Merged
from .inert import names_in
from .passing import never_passes
from ..quoting import counted, digit_count, rules_value
from ..runtime import MAX_NUMBER

if TYPE_CHECKING:
    from ..primitives import Primitive

BASIC_TYPES = {"int", "bool", "text", "player", "hex", "any"}
CORE_KINDS = {"resource", "track", "component", "kind", "game"}
CORE_PROPERTIES = {
    "resource": {"start", "cap", "floor", "scored"},
    "track": {"levels", "start"},
    "component": {"supply"},
    "game": {"title", "players", "tiebreak", "final_score"},
    "kind": set(),
}
TURN_MODES = {"once", "until_pass", "until_all_pass", "simultaneous"}
TURN_ORDERS = {"seat", "snake"}
TURN_RULES = {"main", "free"}
# modes in which 'lanes' (interleaved turns, docs/language.md) may be used
LANE_MODES = {"until_pass", "until_all_pass"}
# Names every rule can use; each is documented in docs/language.md.
BUILTIN_NAMES = {
    "me": "player", "players": "list:player", "others": "list:player", "hexes": "list:hex",
    "round": "int", "nplayers": "int", "chance": "player",
}
# Events the engine raises itself (docs/plugins.md#events), beside those a game declares:
# name -> ((parameter, type), ...).
BUILTIN_EVENTS = {
    "action_begins": (("p", "player"), ("action", "text")),
    "action_taken": (("p", "player"), ("action", "text")),
    "advanced": (("p", "player"), ("track", "text"), ("level", "int")),
    "round_begins": (("n", "int"),),
    "round_ends": (("n", "int"),),
    "step_begins": (("step", "text"),),
    "step_ends": (("step", "text"),),
    "turn_begins": (("p", "player"),),
    "turn_ends": (("p", "player"),),
}
# name -> (min args, max args, result type)
BUILTIN_FUNCTIONS = {
    "len": (1, 1, "int"), "min": (1, 9, "int"), "max": (1, 9, "int"), "abs": (1, 1, "int"),
    "holds": (1, 1, "bool"), "held": (1, 1, "list:any"), "owner": (1, 1, "player"),
    "passed": (1, 1, "bool"), "table_after": (1, 1, "list:player"),
    "without": (2, 2, "list:any"), "position": (2, 2, "int"), "kind_of": (1, 1, "text"),
    "dice": (1, 1, "list:any"), "field": (2, 2, "any"), "first": (1, 1, "any"),
    "sorted": (1, 1, "list:any"), "unique": (1, 1, "list:any"),
    "without_one": (2, 2, "list:any"), "lane_of": (1, 1, "int"),
}

# What the built-ins that take entities are given, checked where the types are known (their
# run time refuses the rest: lang/semantics.py, ``entity_arg``): name -> wanted per argument
_BUILTIN_ARGS = {"owner": ("entity",), "holds": ("entity",), "kind_of": ("entity",),
                 "held": ("kind",), "field": ("entity", "text")}
_WANTED = {"entity": "an entity", "kind": "a kind (or a list of entities)",
           "text": "the name of a field as text"}
_EXAMPLE = {"owner": "'owner(c)' for a card c", "holds": "'holds(c)' for a card c",
            "kind_of": "'kind_of(c)' for a card c", "held": "'held(card)'",
            "field": "'field(c, \"cost\")'"}


@attrs.frozen
class ResourceDef:
    name: str
    start: int
    cap: Any  # expression or None; in a built Ruleset, fn(ctx, player) -> int or None
    floor: int
    scored: bool
    span: A.Span


@attrs.frozen
class TrackDef:
    name: str
    low: int
    high: int
    start: int
    rewards: dict[int, A.Block]  # level -> Block
    span: A.Span


@attrs.frozen
class ComponentDef:
    name: str
    supply: int
    span: A.Span


@attrs.frozen
class KindDef:
    name: str
    fields: dict[str, tuple[A.TypeRef, Any]]  # name -> (TypeRef, default value)
    slots: dict[str, A.Block | None]  # name -> default Block or None
    span: A.Span


@attrs.frozen
class EntityDef:
    name: str
    kind: str
    fields: dict[str, Any]  # name -> constant value
    slots: dict[str, A.Block]  # name -> Block
    span: A.Span


@attrs.frozen
class VarDef:
    name: str
    type: A.TypeRef
    per: tuple[str, ...]
    default: Any
    hidden: bool
    private: bool
    span: A.Span


@attrs.frozen
class ActionDef:
    name: str
    params: tuple[A.Param, ...]
    tags: tuple[str, ...]
    body: A.Block
    entity: str | None
    span: A.Span


@attrs.frozen
class TriggerDef:
    event: str
    names: tuple[str, ...]
    cond: A.Expr | None
    body: A.Block
    entity: str | None
    source: str
    span: A.Span


@attrs.frozen
class OptionDef:
    name: str
    default: Any
    doc: str
    span: A.Span
    allowed: tuple[Any, ...] | None = None  # the values the option may take (from `in DOMAIN`), None: any


@attrs.frozen
class Program:
    """The checked rules: symbol tables over AST blocks, ready to compile."""

    title: str
    players: tuple[int, int]  # (min, max)
    tiebreak: tuple[A.Expr, ...]  # evaluated per player, compared in order after the score
    options: dict[str, OptionDef]
    resources: dict[str, ResourceDef]
    tracks: dict[str, TrackDef]
    components: dict[str, ComponentDef]
    kinds: dict[str, KindDef]
    entities: dict[str, EntityDef]
    by_kind: dict[str, tuple[str, ...]]  # kind -> tuple of entity names
    vars: dict[str, VarDef]
    events: dict[str, tuple[A.Param, ...]]  # name -> parameters
    actions: dict[str, ActionDef]
    triggers: tuple[TriggerDef, ...]
    flow: A.FlowDecl | None
    # an expression evaluated per player that ranks them instead of the scored total (None: the
    # total), e.g. a score shared by a team
    final_score: A.Expr | None = None
    # the ids of the ``set`` statements whose value the checker proves of the variable's type
    # (the back ends check the others' values when they run: semantics.conform)
    proven_sets: frozenset[int] = frozenset()


class _Scope:
    def __init__(self, names: dict[str, str], parent: "_Scope | None" = None) -> None:
        self.names = names
        self.parent = parent
        self.sure: dict[str, str] = {}   # a binding -> the type its value surely has (_sure)

    def sure_of(self, name: str) -> str | None:
        """The type the binding ``name`` surely holds (never none), else None."""
        s: _Scope | None = self
        while s is not None:
            if name in s.names:
                return s.sure.get(name)
            s = s.parent
        return None

    def lookup(self, name: str) -> str | None:
        s: _Scope | None = self
        while s is not None:
            if name in s.names:
                return s.names[name]
            s = s.parent
        return None

    def child(self, names: Mapping[str, str] | None = None) -> "_Scope":
        return _Scope(dict(names or {}), self)

    def all(self) -> Iterator[str]:
        """The names of this scope and those around it (an inner one first; a name may repeat)."""
        s: _Scope | None = self
        while s is not None:
            yield from s.names
            s = s.parent


class Checker:
    """Check a merged set of rule files against the primitives on offer.

    ``primitives`` maps a name to an object with ``params`` (tuple of (name, type)),
    ``returns`` (a type name) and ``effect`` (True when it may change the state).
    """

    def __init__(self, merged: Merged, primitives: Mapping[str, Primitive],
                 option_values: Mapping[str, Any] | None = None) -> None:
        self.m = merged
        self.prims = primitives
        self.option_values = option_values or {}
        self.errors: list[Diagnostic] = []
        self.hint = Hints()   # ('did you mean' hints, bounded in all: a hostile file's thousands)
        # Tables filled as check() goes; empty until then, so an expression checked
        # early (a variable's default) that names an action or event finds none.
        self.actions: dict[str, ActionDef] = {}
        self.events: dict[str, tuple[A.Param, ...]] = {}
        self.vars: dict[str, VarDef] = {}
        self.kinds: dict[str, KindDef] = {}
        self.max_players = 9
        self.bad_options: list[str] = []  # user-given option values of the wrong kind
        self.options: dict[str, OptionDef] = {}
        self._option_decls: dict[str, A.OptionDecl] = {}
        self._options_resolving: list[str] = []  # options whose defaults are being evaluated
        self._proven: set[int] = set()     # ids of ``set`` statements proven (Program.proven_sets)
        self._unproven: set[int] = set()   # (a statement checked twice: proven only if both times)
        # A procedure's parameters surely of their type (_sure_params), and what its calls pass:
        # (procedure, parameter index) -> whether every call so far passes a value of its type,
        # from the bodies outside procedures (_calls_outside) and from the procedures' (_calls)
        self._sure_params: dict[str, dict[str, str]] = {}
        self._calls: dict[tuple[str, int], bool] = {}

    # ---- reporting ----
    def err(self, node: object, message: str, hint: str = "") -> None:
        span = getattr(node, "span", None) or A.NOWHERE
        self.errors.append(Diagnostic(span, message, hint, self.m.sources.get(span.file, "")))

    def _option_domain(self, o: A.OptionDecl, default: Any) -> tuple[Any, ...] | None:
        """The values ``option NAME = DEFAULT in DOMAIN`` allows (None without a domain);
        the domain must be a constant list or range holding the default."""
        if o.domain is None:
            return None
        reported = len(self.errors)
        allowed = self.const(o.domain, "option domain")
        if len(self.errors) > reported:
            return None
        if not isinstance(allowed, tuple) or not allowed:
            self.err(o.domain, f"the domain of option '{o.name}' must be a non-empty list or "
                               f"range", "e.g. 'option rounds = 9 in 1..20'")
            return None
        if not _within(default, allowed):
            self.err(o.default, f"the default {rules_value(default)} of option '{o.name}' is outside its "
                                f"domain ({describe_domain(allowed)})")
        return allowed

    # ---- constants ----
    def _option(self, name: str, where: object) -> Any:
        """The value of option ``name`` (the player's choice, else its default), its default
        evaluated on first use: an option's default may name options declared after it, but
        not itself through others (an error at ``where``, the name that closes the cycle)."""
        if name in self.options:
            return self.options[name].default
        if name in self._options_resolving:
            cycle = self._options_resolving[self._options_resolving.index(name):] + [name]
            self.err(where, f"option '{name}' is defined by itself: {' -> '.join(cycle)}",
                     "give one of these options a value of its own")
            return None
        o = self._option_decls[name]
        self._options_resolving.append(name)
        try:
            default = self.const(o.default, "option default")
            default = self._check_override_kind(o, default)
            allowed = self._option_domain(o, default)
        finally:
            self._options_resolving.pop()
        value = self.option_values.get(name, default)
        wrong = ""   # (a value given for the option, from the caller: options=, -o, a record)
        if _kind_of_value(value) != _kind_of_value(default):
            within = f" (allowed {describe_domain(allowed)})" if allowed is not None else ""
            wrong = f"option '{name}' needs {_kind_of_value(default)}{within}, got {rules_value(value)}"
        elif allowed is not None and not _within(value, allowed):
            wrong = f"option '{name}' may not be {rules_value(value)}: allowed {describe_domain(allowed)}"
        elif _too_large(value):
            wrong = f"option '{name}' may not be {rules_value(value)}: rules use numbers up to {MAX_NUMBER}"
        if wrong:   # (where the option is declared: which game's or module's file)
            self.bad_options.append(f"{wrong} (the option is declared at {o.span})")
            value = default
        self.options[name] = OptionDef(name, value, o.doc, o.span, allowed)
        return value

    def _check_override_kind(self, o: A.OptionDecl, default: Any) -> Any:
        """An ``override option`` must keep the kind of value the option was declared with:
        the rules that use it, and the values players give it, expect that kind (the error was
        at a use in the game's file, never at the override). Returns the default the rest of
        the check uses: the declared one after this error, so its uses are not errors too."""
        first = self.m.declared_options.get(o.name)
        if first is None:
            return default
        reported = len(self.errors)
        declared = self.const(first.default, "option default")
        del self.errors[reported:]   # (the declaration's own errors are not the override's)
        if declared is not None and _kind_of_value(default) != _kind_of_value(declared):
            self.err(o.default, f"this override makes option '{o.name}' {_kind_of_value(default)}, "
                                f"but it is declared {_kind_of_value(declared)} (at {first.span}), as "
                                f"the rules that use it expect",
                     f"give it {_kind_of_value(declared)}, e.g. 'override option {o.name} = "
                     f"{rules_value(declared)}'")
            return declared
        return default

    def const(self, expr: object, what: str = "value") -> Any:
        """Evaluate a constant expression (literals, lists, ranges, entity and option names)."""
        match expr:
            case None:
                return None
            case A.Int(value=v) | A.Str(value=v) | A.Bool(value=v):
                return v
            case A.NoneLit():
                return None
            case A.Neg(operand=o):
                v = self.const(o, what)
                return -v if isinstance(v, int) else None
            case A.ListLit(items=items):
                return tuple(self.const(i, what) for i in items)
            case A.Range(low=lo, high=hi):
                lo_v, hi_v = self.const(lo, what), self.const(hi, what)
                if isinstance(lo_v, int) and isinstance(hi_v, int):
                    if hi_v - lo_v >= LIMITS.max_list:
                        self.err(expr, f"the range {lo_v}..{hi_v} is too long (at most "
                                       f"{LIMITS.max_list} numbers)", "use a shorter range")
                        return None
                    return tuple(range(lo_v, hi_v + 1))
                return None
            case A.Amount(count=c, resource=r):
                if r not in self.resources:
                    self.err(expr, f"unknown resource '{r}'", self.hint(r, self.resources))
                return (self.const(c, what), r)
            case A.BinOp(op=op, left=l, right=r):
                reported = len(self.errors)
                a, b = self.const(l, what), self.const(r, what)
                if len(self.errors) > reported:  # an operand's error, said once
                    return None
                if isinstance(a, int) and isinstance(b, int):
                    # as the rules compute it when the game runs (semantics.binop)
                    if op in ("//", "%") and b == 0:
                        self.err(expr, f"division by zero in '{op}'")
                        return None
                    n = {"+": a + b, "-": a - b, "*": a * b,
                         "//": a // b if b else 0, "%": a % b if b else 0}[op]
                    if not -MAX_NUMBER <= n <= MAX_NUMBER:
                        self.err(expr, f"a number of {digit_count(n)} digits is too large for "
                                       f"the rules (they use numbers up to {MAX_NUMBER})")
                        return None
                    return n
                if op == "+" and isinstance(a, tuple) and isinstance(b, tuple):
                    if len(a) + len(b) > LIMITS.max_list:
                        self.err(expr, f"this list is too long (at most {LIMITS.max_list} elements)",
                                 "use a shorter list")
                        return None
                    return a + b
            case A.Name(id=n):
                if n in self.entity_kind:
                    return n
                if n in self._option_decls:
                    return self._option(n, expr)
                if n in self.by_kind_names:
                    return tuple(self.by_kind_names[n])
                self.err(expr, f"'{n}' is not a constant here",
                         self.hint(n, chain(self.entity_kind, self.options)))
                return None
        self.err(expr, f"the {what} must be a constant (a number, text, name or list)")
        return None

    # ---- main ----
    def check(self) -> Program:
        items = self.m.items
        decls = [i for i in items.values() if isinstance(i, A.Decl)]
        self.kinds_ast = {d.name: d for d in decls if d.kind == "kind"}
        self.entity_kind = {d.name: d.kind for d in decls if d.kind not in CORE_KINDS}
        self.by_kind_names: dict[str, list[str]] = {k: [] for k in self.kinds_ast}
        for d in decls:
            if d.kind not in CORE_KINDS:
                if d.kind not in self.kinds_ast:
                    self.err(d, f"unknown declaration kind '{d.kind}'",
                             self.hint(d.kind, chain(CORE_KINDS, self.kinds_ast))
                             or "declare it first with 'kind NAME { ... }'")
                    continue
                self.by_kind_names[d.kind].append(d.name)
        self._check_unique_names(items.values())
        self.max_players = _max_players(decls)

        self.options = {}
        self._option_decls = {i.name: i for i in items.values() if isinstance(i, A.OptionDecl)}
        for name, o in self._option_decls.items():
            self._option(name, o)

        self.resources: dict[str, ResourceDef | None] = {}  # (None until checked)
        self.tracks: dict[str, TrackDef] = {}
        self.components: dict[str, ComponentDef] = {}
        for d in decls:
            if d.kind == "resource":
                self.resources[d.name] = None
        for d in decls:
            if d.kind in CORE_KINDS:
                self._core_decl(d)
        self.kinds = {n: self._kind(d) for n, d in self.kinds_ast.items()}
        var_decls = {i.name: i for i in items.values() if isinstance(i, A.VarDecl)}
        self.vars = {}
        const_errors: dict[str, list[Diagnostic]] = {}  # what const() said of each default
        for v in var_decls.values():
            self._type(v.type)
            for per in v.per:
                if per not in ("player", "hex") and per not in self.kinds_ast:
                    self.err(v, f"a variable can be kept per player, per hex or per entity kind, "
                             f"not per '{per}'", self.hint(per, chain(("player", "hex"), self.kinds_ast)))
            reported = len(self.errors)
            self.vars[v.name] = VarDef(v.name, v.type, v.per, self.const(v.default, "default"),
                                       v.hidden, v.private, v.span)
            const_errors[v.name] = self.errors[reported:]
        said_again: set[int] = set()   # (the ids of const()'s errors a more precise check said)
        for var in list(self.vars.values()):
            ast_default = items[("var", var.name)].default
            if ast_default is not None:
                reported = len(self.errors)
                self._conforms(ast_default, self._type(var.type, False), var.type.optional,
                               f"'{var.name}'", self._root(), "its default")
                if len(self.errors) > reported:  # one mistake said once, by the more precise check
                    said_again.update(map(id, const_errors[var.name]))
        if said_again:   # (dropped once: a list rebuilt per variable was quadratic in the errors)
            self.errors = [e for e in self.errors if id(e) not in said_again]
        self.events = {name: tuple(A.Param(name=n, type=A.TypeRef(name=t)) for n, t in params)
                       for name, params in BUILTIN_EVENTS.items()}
        for e in items.values():
            if isinstance(e, A.EventDecl):
                if e.name in BUILTIN_EVENTS:
                    self.err(e, f"event '{e.name}' is built in: the engine raises it",
                             "react to it with 'when' without declaring it, or choose another name")
                    continue
                self.events[e.name] = e.params
        for params in self.events.values():
            for i, p in enumerate(params):
                if any(q.name == p.name for q in params[:i]):
                    self.err(p, f"parameter '{p.name}' is named twice", "give each parameter its own name")
                self._type(p.type)
                if p.domain is not None or p.where is not None:
                    self.err(p, "an event's parameters take no 'in' or 'where'")

        self.entities: dict[str, EntityDef] = {}
        self.actions = {}
        self.triggers: list[TriggerDef] = []
        for a in (i for i in items.values() if isinstance(i, A.ActionDecl)):
            self.actions[a.name] = ActionDef(a.name, a.params, a.tags, a.body, None, a.span)
        for d in decls:
            if d.kind in self.kinds_ast:
                self._entity(d)
        for t, source in self.m.triggers:
            self.triggers.append(TriggerDef(t.event, t.names, t.cond, t.body, None, source, t.span))
        for d in decls:   # (a trigger where none may stand, or in a declaration of no kind: its
            if d.kind in CORE_KINDS or d.kind not in self.kinds_ast:   # event is checked too)
                for e in d.entries:
                    if isinstance(e, A.Trigger):
                        self._known_event(e)

        # bodies
        for r in self.resources.values():
            if r is not None and r.cap is not None:
                self.expr(r.cap, self._root())
        for track in self.tracks.values():
            for block in track.rewards.values():
                self.block(block, self._root(me=True))
        for k in self.kinds.values():
            for default in k.slots.values():
                if default is not None:
                    self.block(default, self._root(me=True, extra={"self": "entity:" + k.name}))
        for e in self.entities.values():
            for block in e.slots.values():
                self.block(block, self._root(me=True, extra={"self": "entity:" + e.kind}))
        for adef in self.actions.values():
            if "procedure" not in adef.tags:
                self._action(adef)
        for tdef in self.triggers:
            self._trigger(tdef)
        flow = items.get(("flow", "flow"))
        if flow is not None:
            self._flow(flow)
        self._procedures()

        games = [d for d in decls if d.kind == "game"]
        game = games[0] if games else None
        for other in games[1:]:   # (the first one alone was read: the others were ignored)
            assert game is not None
            self.err(other, f"a second game declaration: '{other.name}' (the game is '{game.name}', "
                            f"declared at {game.span.file}:{game.span.line}:{game.span.column})",
                     f"a game is declared once: change it with 'extend game {game.name} {{ ... }}' "
                     f"or 'override game {game.name} {{ ... }}'; rules of a game of their own are "
                     f"built alone (game=None, with only their texts=)")
        title, players = "", (1, 9)
        # (the expressions are checked here: a property's values are any nodes until then)
        tiebreak: tuple[A.Expr, ...] = ()
        final_score: A.Expr | None = None
        if game is not None:
            props = {p.name: p for p in game.entries if isinstance(p, A.Property)}
            if "tiebreak" in props:
                tiebreak = cast(tuple[A.Expr, ...], props["tiebreak"].values)
                for e in tiebreak:
                    self._int_expr(e, self._root())
            if "final_score" in props:
                final_score = cast(A.Expr, props["final_score"].values[0])
                self._int_expr(final_score, self._root())
            title = game.name   # (the documented default)
            if "title" in props:
                title = self.const(props["title"].values[0]) or game.name
            if "players" in props:
                node = props["players"].values[0]
                before = len(self.errors)
                rng = self.const(node)
                if len(self.errors) > before:
                    pass                          # (the value's own error says it all)
                elif type(rng) is int and rng >= 1:
                    players = (rng, rng)          # 'players 3': exactly three
                elif isinstance(rng, tuple) and rng and all(type(n) is int and n >= 1 for n in rng):
                    players = (min(rng), max(rng))
                else:
                    self.err(node, f"'players' must be a player count or a range of counts, each at least 1, "
                                   f"not {'none' if rng is None else repr(rng) if not isinstance(rng, tuple) else describe_domain(rng) if rng else 'an empty range'}",
                             "e.g. 'players 2..4', or 'players 3' for exactly three")
        return Program(
            title=title, players=players, tiebreak=tiebreak, options=self.options,
            resources={k: v for k, v in self.resources.items() if v is not None},
            tracks=self.tracks, components=self.components, kinds=self.kinds,
            entities=self.entities,
            by_kind={k: tuple(v) for k, v in self.by_kind_names.items()},
            vars=self.vars, events=self.events, actions=self.actions,
            triggers=tuple(self.triggers), flow=flow, final_score=final_score,
            proven_sets=frozenset(self._proven - self._unproven))

    def _check_unique_names(self, items: Iterable[object]) -> None:
        """Every name an expression can read (``_name``: resources, tracks, components,
        variables, options, entities, kinds) is declared once, and is not a built-in name
        (the variable ``hexes`` is the one the built-in reads): a second declaration would
        be hidden by the first, so it is reported where it is written."""
        seen: dict[str, tuple[str, A.Span]] = {}
        for d in items:
            if isinstance(d, A.Decl) and d.kind != "game":
                what = d.kind
            elif isinstance(d, A.VarDecl):
                what = "variable"
            elif isinstance(d, A.OptionDecl):
                what = "option"
            else:
                continue
            name = d.name
            if name in BUILTIN_NAMES and not (name == "hexes" and what == "variable"):
                self.err(d, f"'{name}' is a built-in name: rules would read the built-in, "
                            f"never this {what}", "choose another name (docs/language.md lists "
                            "the built-in names)")
            elif name in seen:
                kind, span = seen[name]
                self.err(d, f"'{name}' is already the name of {'an' if kind[0] in 'aeiou' else 'a'} "
                            f"{kind} (at {span})",
                         "resources, tracks, components, variables, options, entities and kinds "
                         "share one set of names: choose another name")
            else:
                seen[name] = (what, d.span)

    def _props(self, d: A.Decl, allowed: set[str]) -> dict[str, A.Property]:
        props = {}
        for e in d.entries:
            if isinstance(e, A.Property):
                if e.name not in allowed:
                    self.err(e, f"a {d.kind} has no property '{e.name}'",
                             self.hint(e.name, allowed) or
                             ("it takes: " + ", ".join(sorted(allowed)) if allowed else ""))
                    continue
                props[e.name] = e
            elif not (d.kind == "track" and isinstance(e, A.AtDef)) and not (
                    d.kind == "kind" and isinstance(e, (A.FieldDef, A.SlotDef))):
                self.err(e, f"this entry is not allowed in a {d.kind}")
        return props

    def _single(self, prop: A.Property | None, what: str) -> Any:
        if prop is None:
            return None
        if len(prop.values) != 1:
            self.err(prop, f"'{prop.name}' takes one value")
        return self.const(prop.values[0], what)

    def _int(self, prop: A.Property | None, default: int, what: str) -> int:
        v = self._single(prop, what)
        if v is None or prop is None:  # (no property: no value)
            return default
        if not isinstance(v, int) or isinstance(v, bool):
            self.err(prop, f"'{prop.name}' must be a whole number")
            return default
        return v

    def _core_decl(self, d: A.Decl) -> None:
        props = self._props(d, CORE_PROPERTIES[d.kind])
        if d.kind == "resource":
            cap = props.get("cap")
            scored = self._single(props.get("scored"), "scored") if "scored" in props else False
            r = self.resources[d.name] = ResourceDef(
                d.name, self._int(props.get("start"), 0, "start"),
                cap.values[0] if cap else None,
                self._int(props.get("floor"), 0, "floor"), bool(scored), d.span)
            # (a constant cap, -12 as well as 12: only a literal was compared before)
            limit = self.const(cap.values[0], "cap") if cap is not None and not names_in(cap.values[0]) else None
            if isinstance(limit, int) and not isinstance(limit, bool):
                if limit < r.floor:
                    self.err(cap, f"{d.name} has a cap of {limit}, below its floor {r.floor}",
                             "a cap is at least the floor (0 unless 'floor' says otherwise)")
                elif r.start > limit:
                    self.err(props.get("start") or cap, f"{d.name} starts at {r.start}, above its cap {limit}",
                             "start at most at the cap, or raise the cap")
            if r.start < r.floor:
                self.err(props.get("start") or d, f"{d.name} starts at {r.start}, below its floor {r.floor}")
        elif d.kind == "track":
            reported = len(self.errors)
            levels = self._single(props.get("levels"), "levels") if "levels" in props else (0,)
            if not isinstance(levels, tuple) or not levels:  # (5..1 is empty)
                if len(self.errors) == reported:  # (else its constant's error said it)
                    self.err(props.get("levels") or d, "'levels' must be a range such as 0..5, "
                                                       "lowest first")
                levels = (0,)
            rewards = {}
            for e in d.entries:
                if isinstance(e, A.AtDef):
                    if e.level not in levels:
                        self.err(e, f"level {e.level} is outside the track's levels "
                                    f"{min(levels)}..{max(levels)}",
                                 f"use a level from {min(levels)} to {max(levels)}, or widen 'levels'")
                    rewards[e.level] = e.body
            start = self._int(props.get("start"), min(levels), "start")
            if start not in levels:
                self.err(props["start"], f"{d.name} starts at level {start}, outside its levels "
                                         f"{min(levels)}..{max(levels)}")
            self.tracks[d.name] = TrackDef(d.name, min(levels), max(levels), start, rewards, d.span)
        elif d.kind == "component":
            supply = self._int(props.get("supply"), 0, "supply")
            if supply < 0:
                self.err(props["supply"], f"{d.name} has a supply of {supply} pieces",
                         "a supply is 0 pieces or more")
            self.components[d.name] = ComponentDef(d.name, supply, d.span)

    def _kind(self, d: A.Decl) -> KindDef:
        self._props(d, set())
        fields, slots = {}, {}
        for e in d.entries:
            if isinstance(e, A.FieldDef):
                wanted = self._type(e.type)
                fields[e.name] = (e.type, self._const_of(e.default, wanted, e.type.optional,
                                                         f"field '{e.name}'", "field default"))
            elif isinstance(e, A.SlotDef):
                slots[e.name] = e.body
        return KindDef(d.name, fields, slots, d.span)

    def _entity(self, d: A.Decl) -> None:
        kind = self.kinds[d.kind]
        fields = {n: default for n, (_, default) in kind.fields.items()}
        slots = {}
        for e in d.entries:
            if isinstance(e, A.Property):
                if e.name not in kind.fields:
                    self.err(e, f"a {d.kind} has no field '{e.name}'",
                             self.hint(e.name, chain(kind.fields, kind.slots)) or
                             f"declare it in 'kind {d.kind}' with 'field {e.name}: TYPE'")
                    continue
                ftype = kind.fields[e.name][0]
                wanted = self._type(ftype, False)
                what = f"field '{e.name}' of a {d.kind}"
                if ftype.list_of is not None and not (len(e.values) == 1
                                                      and isinstance(e.values[0], A.ListLit)):
                    value = tuple(self._const_of(v, wanted[5:], False, f"an element of {what}",
                                                 "field value") for v in e.values)
                else:
                    if len(e.values) > 1:
                        self.err(e, f"'{e.name}' takes one value",
                                 f"it is {_show(wanted)}; declare it as list[...] to give several")
                    value = (self._const_of(e.values[0], wanted, ftype.optional, what,
                                            "field value"),)
                fields[e.name] = value if ftype.list_of is not None or len(value) > 1 else value[0]
            elif isinstance(e, A.SlotUse):
                if e.name not in kind.slots:
                    self.err(e, f"a {d.kind} has no slot '{e.name}'",
                             self.hint(e.name, kind.slots) or
                             f"declare it in 'kind {d.kind}' with 'slot {e.name}'")
                    continue
                slots[e.name] = e.body
            elif isinstance(e, A.Trigger):
                self.triggers.append(TriggerDef(e.event, e.names, e.cond, e.body, d.name, d.name,
                                                e.span))
            elif isinstance(e, A.ActionDecl):
                if e.name in self.actions:
                    self.err(e, f"action '{e.name}' is already defined at {self.actions[e.name].span}")
                    continue
                self.actions[e.name] = ActionDef(e.name, e.params, e.tags, e.body, d.name, e.span)
            else:
                self.err(e, f"this entry is not allowed in a {d.kind}")
        self.entities[d.name] = EntityDef(d.name, d.kind, fields, slots, d.span)

    # ---- types ----
    def _const_of(self, node: object, wanted: str, optional: bool, what: str, kind: str) -> Any:
        """The constant ``node`` (as :meth:`const`), its type checked against ``wanted``."""
        before = len(self.errors)
        value = self.const(node, kind)
        if node is not None and len(self.errors) == before and not isinstance(node, A.Amount):
            self._conforms(node, wanted, optional, what, self._root(), "this value")
        return value

    def _conforms(self, node: object, wanted: str, optional: bool, what: str, scope: _Scope, this: str,
                  shown: str = "", hint: str = "") -> None:
        """Report where the value of ``node`` cannot be ``wanted`` (a list literal element by
        element; ``none`` only where ``optional``; literal players within the player count);
        ``hint``: the hint of a value of another type."""
        if isinstance(node, A.ListLit) and wanted.startswith("list:"):
            for item in node.items:
                self._conforms(item, wanted[5:], False, what, scope, "this element",
                               shown or _show(wanted), hint)
            return
        found = self.expr(node, scope)
        if found == "none" and not optional and wanted not in ("any", "none"):
            self.err(node, f"{what} is {shown or _show(wanted)}, so {this} cannot be none",
                     "declare its type with '?' (e.g. 'player?') to allow none")
        elif not _compatible(found, wanted):   # (a list as an element: what it must be said too)
            must = f", not {_show(wanted)}" if shown and found.startswith("list") else ""
            self.err(node, f"{what} is {shown or _show(wanted)}, but {this} is {_show(found)}{must}", hint)
        elif wanted == "player" and isinstance(node, (A.Int, A.Neg)):
            n = self.const(node)
            if isinstance(n, int) and not 0 <= n < self.max_players:
                self.err(node, f"{what} is {shown or _show(wanted)}, but there is no player {n} "
                               f"(players are 0..{self.max_players - 1}, counted from 0)",
                         "name players with 'me', a parameter or a list such as 'players'")

    def _fits(self, e: A.Expr, t: A.TypeRef, scope: _Scope) -> bool:
        """Whether the value of ``e`` is surely one of type ``t`` (as semantics.fits tests it):
        then ``set`` need not test it when it runs."""
        if t.list_of is None and t.name == "any":
            return True
        if isinstance(e, A.NoneLit):
            return t.optional
        if t.list_of is not None:   # (a list built of parts that fit)
            if isinstance(e, A.ListLit):
                return all(self._fits(i, t.list_of, scope) for i in e.items)
            if isinstance(e, A.BinOp) and e.op == "+":
                return self._fits(e.left, t, scope) and self._fits(e.right, t, scope)
            if isinstance(e, A.Call) and e.fn in ("without", "without_one") and len(e.args) == 2:
                return self._fits(e.args[0], t, scope)
        declared = self._declared(e, scope)
        if declared is not None and self._within(declared, t):
            return True
        found = self._sure(e, scope)
        return found is not None and _same(found, self._type(t, False))

    def _declared(self, e: A.Expr, scope: _Scope) -> A.TypeRef | None:
        """The declared type of the variable ``e`` reads (its value is one: the sets test it),
        else None."""
        match e:
            case A.Name(id=n) | A.Of(expr=A.Name(id=n)) if scope.lookup(n) is None and n in self.vars \
                    and all(p == "player" for p in self.vars[n].per):
                return self.vars[n].type
            case A.Index(obj=A.Name(id=n)) if scope.lookup(n) is None and n in self.vars \
                    and any(p != "player" for p in self.vars[n].per):
                return self.vars[n].type
        return None

    def _within(self, found: A.TypeRef, t: A.TypeRef) -> bool:
        """Whether every value of declared type ``found`` is one of declared type ``t``."""
        if found.optional and not t.optional:
            return False
        if found.list_of is not None or t.list_of is not None:
            return found.list_of is not None and t.list_of is not None and self._within(found.list_of, t.list_of)
        return _same(self._type(found, False), self._type(t, False))

    def _sure(self, e: object, scope: _Scope) -> str | None:
        """The type the value of ``e`` surely has when it evaluates without breaking a rule
        (never none, nor a list's elements), else None (unknown, or it may be none)."""
        match e:
            case A.Int() | A.Neg() | A.SumOf() | A.Call(fn="len"):
                return "int"
            case A.Str():
                return "text"
            case A.Bool() | A.Not() | A.Compare() | A.BoolOp():
                return "bool"
            case A.Quant(kind=k):
                return "int" if k == "count" else "bool"
            case A.Range():
                return "list:int"
            case A.ListLit(items=(first, *rest)):   # (items all surely of one type)
                t = self._sure(first, scope)
                return None if t is None or any(self._sure(i, scope) != t for i in rest) else "list:" + t
            case A.BinOp(op="+", left=l, right=r):   # (numbers, or two lists joined)
                a = self._sure(l, scope)
                return a if a is not None and (a == "int" or a.startswith("list:")) \
                    and a == self._sure(r, scope) else None
            case A.BinOp():
                return "int"
            case A.Of(expr=x):
                return self._sure(x, scope)
            case A.Call(fn="without" | "without_one", args=(lst, _)):
                return self._sure(lst, scope)
            case A.Field(obj=o, name=n):
                kind = self.kinds.get((self._sure(o, scope) or "")[7:])
                ft = kind.fields.get(n) if kind is not None else None
                return self._type(ft[0], False) if ft is not None and _never_none(ft[0]) else None
            case A.Index(obj=A.Name(id=n)) if scope.lookup(n) is None and n in self.vars \
                    and any(p != "player" for p in self.vars[n].per):
                return self._type(self.vars[n].type, False) if _never_none(self.vars[n].type) else None
            case A.Index(obj=o):
                elems = self._sure(o, scope) or ""
                return elems[5:] if elems.startswith("list:") else None
            case A.Name(id=n):
                if scope.lookup(n) is not None:
                    return scope.sure_of(n)
                if n in ("me", "players", "others", "hexes", "nplayers"):
                    return BUILTIN_NAMES[n]
                if n in self.resources or n in self.tracks or n in self.components:
                    return "int"
                var = self.vars.get(n)
                if var is not None:
                    return self._type(var.type, False) if _never_none(var.type) and \
                        all(p == "player" for p in var.per) else None
                if n in self.options:
                    return {bool: "bool", int: "int", str: "text"}.get(type(self.options[n].default))
                if n in self.entity_kind:
                    return "entity:" + self.entity_kind[n]
                if n in self.kinds_ast:
                    return "list:entity:" + n
        return None

    def _sure_elements(self, inner: _Scope, name: str, domain: A.Expr, scope: _Scope) -> None:
        """Bind ``name`` in ``inner`` as surely of the element type of ``domain`` (a loop's or a
        choice's: one of its elements), when that is sure."""
        found = self._sure(domain, scope)
        if found is not None and found.startswith("list:"):
            inner.sure[name] = found[5:]

    def _type(self, t: A.TypeRef, report: bool = True) -> str:
        if t.list_of is not None:
            return "list:" + self._type(t.list_of, report)
        if t.name in BASIC_TYPES:
            return t.name
        if t.name in self.kinds_ast:
            return "entity:" + t.name
        if report:
            self.err(t, f"unknown type '{t.name}'",
                     self.hint(t.name, chain(BASIC_TYPES, self.kinds_ast)))
        return "any"

    def _norm(self, t: str) -> str:
        """A primitive's declared type in the checker's spelling (``tech`` → ``entity:tech``)."""
        if t.startswith("list:"):
            return "list:" + self._norm(t[5:])
        if t in self.kinds_ast:
            return "entity:" + t
        return t

    # ---- scopes ----
    def _root(self, me: bool = True, extra: dict[str, str] | None = None) -> _Scope:
        names = dict(extra or {})
        scope = _Scope(names)
        if "self" in names:   # (the entity whose slot, trigger or action runs: semantics.run_slot)
            scope.sure["self"] = names["self"]
        return scope

    def _action(self, a: ActionDef) -> None:
        scope = self._root(extra={"self": f"entity:{self.entity_kind[a.entity]}"} if a.entity else None)
        if "procedure" in a.tags:   # (a call binds its parameters only: semantics.call_procedure)
            scope.sure.pop("self", None)
        names: dict[str, str] = {}
        for p in a.params:
            if p.name in names:   # (the second would hide the first)
                self.err(p, f"parameter '{p.name}' is named twice", "give each parameter its own name")
            t = self._type(p.type)
            if p.domain is not None:
                self.expr(p.domain, scope.child(names))
            elif t not in ("player", "hex", "bool") and not t.startswith("entity:"):
                self.err(p, f"parameter '{p.name}' of type {p.type} needs a domain: "
                         f"'{p.name}: {p.type} in ...'", "for example 'n: int in 1..5'")
            names[p.name] = t
            if p.where is not None:
                self.expr(p.where, scope.child(names))
        inner = scope.child(names)
        if "procedure" in a.tags:   # (what its calls pass: _procedures)
            inner.sure.update(self._sure_params.get(a.name, {}))
        for p in () if "procedure" in a.tags else a.params:   # (an action's argument is one of
            # its domain's values, as listing and play test it; a procedure's is what its call passes)
            elem = None if p.domain is None else self._sure(p.domain, scope)
            t = self._type(p.type, False)
            if not p.type.optional and t != "any" and (
                    p.domain is None and (t in ("player", "hex", "bool") or t.startswith("entity:"))
                    or elem is not None and _same(elem[5:], t)):
                inner.sure[p.name] = t
        self.block(a.body, inner)

    def _procedures(self) -> None:
        """Check the procedures' bodies, once every other body is checked (their calls
        recorded in ``_calls``). A procedure's parameter is surely of its type (non-optional,
        not ``any``) when every call passes a value that surely is (``_fits``): the values
        its ``set``s are given from it need no test when they run. Calls from procedures
        count too, so a procedure whose parameters that proves is checked again (and so on):
        each round assumes only what the rounds before proved, so every round's proofs hold
        (a parameter no call passes stays unproven). A body checked again repeats its
        diagnostics, dropped; its calls and ``set`` verdicts replace its earlier ones."""
        procedures = {n: a for n, a in self.actions.items() if "procedure" in a.tags}
        outside, proven, unproven = self._calls, self._proven, self._unproven
        checked: dict[str, tuple[dict[tuple[str, int], bool], set[int], set[int]]] = {}
        again = list(procedures)
        reported = None
        while again:
            for name in again:
                self._calls, self._proven, self._unproven = {}, set(), set()
                self._action(procedures[name])
                checked[name] = self._calls, self._proven, self._unproven
            if reported is None:
                reported = len(self.errors)
            del self.errors[reported:]
            calls = dict(outside)
            for got, _, _ in checked.values():
                for k, fits in got.items():
                    calls[k] = calls.get(k, True) and fits
            before, self._sure_params = self._sure_params, {}
            for a in procedures.values():
                for i, p in enumerate(a.params):
                    t = self._type(p.type, False)
                    if calls.get((a.name, i)) and not p.type.optional and t != "any":
                        self._sure_params.setdefault(a.name, {})[p.name] = t
            again = [n for n in procedures if self._sure_params.get(n) != before.get(n)]
        self._calls = outside
        self._proven, self._unproven = proven, unproven
        for _, p_ids, u_ids in checked.values():
            proven |= p_ids
            unproven |= u_ids

    def _known_event(self, t: TriggerDef | A.Trigger) -> bool:
        """Whether trigger ``t``'s event is declared; else its error, with a did-you-mean."""
        if t.event in self.events:
            return True
        self.err(t, f"unknown event '{t.event}'", self.hint(t.event, self.events)
                 or "declare it with 'event NAME(param: type, ...)'")
        return False

    def _trigger(self, t: TriggerDef) -> None:
        if not self._known_event(t):
            return
        params = self.events[t.event]
        if len(t.names) > len(params):
            self.err(t, f"event '{t.event}' has {counted(len(params), 'parameter')}, but the "
                        f"trigger names "
                        f"{len(t.names)}: {', '.join(t.names)}",
                     f"declared as {_signature(t.event, params)}")
        twice = sorted({n for n in t.names if t.names.count(n) > 1})
        if twice:
            self.err(t, f"the trigger names '{twice[0]}' twice", "give each parameter its own name")
        names = {n: self._type(p.type) for n, p in zip(t.names, params)}
        extra = {"self": "entity:" + self.entity_kind[t.entity]} if t.entity else {}
        scope = self._root(extra=extra).child(names)
        if t.cond is not None:
            self.expr(t.cond, scope)
        self.block(t.body, scope)

    def _round_count(self, count: A.Expr) -> None:
        """A constant count of rounds must be at least 1 (``rounds -5`` played none); one read
        from an option at least 0 in each value the option allows (0 rounds: setup, then the
        finish, a choice rules may offer)."""
        names = names_in(count)
        if not names:
            reported = len(self.errors)
            value = self.const(count, "number of rounds")
            if len(self.errors) == reported and isinstance(value, int) and value < 1:
                self.err(count, f"the number of rounds is {value}: the game would play no round",
                         "count at least 1 round, or read the count from an option")
            return
        if len(names) == 1 and isinstance(count, A.Name) and count.id in self._option_decls:
            self._option(count.id, count)
            option = self.options.get(count.id)
            allowed = option.allowed if option is not None and option.allowed is not None else (
                (option.default,) if option is not None else ())
            negative = [v for v in allowed if isinstance(v, int) and not isinstance(v, bool) and v < 0]
            if negative:
                self.err(count, f"the number of rounds is option '{count.id}', which allows {min(negative)}",
                         f"give option '{count.id}' a domain from 0 up, e.g. 'in 1..20'")

    def _flow(self, flow: A.FlowDecl) -> None:
        kinds = [s.kind for s in flow.stages]
        for k in set(kinds):
            if kinds.count(k) > 1:
                self.err(flow, f"the flow has more than one '{k}' stage",
                         f"put all the steps of the '{k}' stage in one block")
        for stage in flow.stages:
            if stage.count is not None:
                self.expr(stage.count, self._root())
                self._round_count(stage.count)
            for step in stage.steps:
                if isinstance(step, A.DoStep):
                    self.block(step.body, self._root())
                    continue
                kind, arg = step.order
                if kind in ("named", "reverse") and arg not in TURN_ORDERS:
                    self.err(step, f"unknown turn order '{arg}'",
                             self.hint(cast(str, arg), TURN_ORDERS) or "use seat, snake, reverse seat or 'by EXPR'")
                if kind == "by":
                    self.expr(arg, self._root())
                if step.mode not in TURN_MODES:
                    self.err(step, f"unknown turn mode '{step.mode}'",
                             self.hint(step.mode, TURN_MODES) or "use " + ", ".join(sorted(TURN_MODES)))
                lanes = [r for r in step.rules if r[0] == "lanes"]
                for _, expr, span in lanes:
                    self.expr(expr, self._root())
                    if step.mode not in LANE_MODES:
                        self.err(attrs.evolve(A.NoneLit(), span=span),
                                 f"'lanes' needs a turn mode where turns go round: "
                                 f"{' or '.join(sorted(LANE_MODES))}, not '{step.mode}'")
                if len(lanes) > 1:
                    self.err(attrs.evolve(A.NoneLit(), span=lanes[1][2]),
                             f"step '{step.name}' has more than one 'lanes'",
                             "one 'lanes' rule gives the players who start every lane")
                for rule_kind, names, span in step.rules:
                    if rule_kind == "lanes":
                        continue
                    node = attrs.evolve(A.NoneLit(), span=span)
                    if rule_kind not in TURN_RULES:
                        self.err(node, f"unknown turn rule '{rule_kind}'",
                                 self.hint(rule_kind, TURN_RULES) or "use 'main' or 'free'")
                    for n in cast(tuple[str, ...], names):  # (only 'lanes' holds an Expr)
                        if n not in self.actions:
                            self.err(node, f"unknown action '{n}'", self.hint(n, self.actions))
                if not any(kind == "main" and names for kind, names, _ in step.rules) and all(
                        kind in TURN_RULES or kind == "lanes" for kind, _, _ in step.rules):
                    # (a misspelt 'main' has its own error)
                    self.err(step, f"step '{step.name}' gives turns but no main action: a turn is "
                                   f"one main action (and any free ones), so no turn could end",
                             "list its actions in the step: 'main A, B' (and 'free C')")
                elif step.mode in ("until_pass", "until_all_pass"):
                    self._passes(step)

    def _passes(self, step: A.TurnsStep) -> None:
        """Report a step whose turns go on until its players pass when nothing it can run
        passes (lang/passing.py): it would never end."""
        names = [n for kind, names, _ in step.rules if kind in TURN_RULES
                 for n in cast(tuple[str, ...], names)]
        slots: dict[str, list[A.Block]] = {}
        for k in self.kinds.values():
            for slot, default in k.slots.items():
                if default is not None:
                    slots.setdefault(slot, []).append(default)
        for e in self.entities.values():
            for slot, body in e.slots.items():
                slots.setdefault(slot, []).append(body)
        always = [t.body for t in self.triggers] + [b for t in self.tracks.values()
                                                    for b in t.rewards.values()]
        effects = {n for n, p in self.prims.items() if p.effect}
        if names and never_passes(names, {n: a.body for n, a in self.actions.items()}, slots,
                                  always, effects):
            self.err(step, f"step '{step.name}' goes on until every player has passed "
                           f"({step.mode}), but nothing its actions ({', '.join(dict.fromkeys(names))}) "
                           f"run can pass: it would never end",
                     "add 'pass' to one of its actions (e.g. 'action pass_round main { pass }' "
                     "and 'main …, pass_round'), or give the step the mode 'once'")

    # ---- statements ----
    def block(self, block: A.Block, scope: _Scope) -> None:
        scope = scope.child()
        for s in block.stmts:
            self.stmt(s, scope)

    def _amounts(self, amounts: tuple[A.Amount, ...] | A.AmountExpr, scope: _Scope) -> None:
        if isinstance(amounts, A.AmountExpr):
            self.expr(amounts.expr, scope)
            return
        for a in amounts:
            if a.resource not in self.resources:
                self.err(a, f"unknown resource '{a.resource}'", self.hint(a.resource, self.resources))
            self._int_expr(a.count, scope)
            if a.per is not None:
                self._int_expr(a.per, scope)

    def _int_expr(self, e: object, scope: _Scope) -> None:
        t = self.expr(e, scope)
        if t not in ("int", "any"):
            self.err(e, f"expected a number, found {_show(t)}",
                     "write a whole number or an expression that gives one")

    def stmt(self, s: A.Stmt, scope: _Scope) -> None:
        match s:
            case A.Gain(amounts=am, to=to) | A.Lose(amounts=am, to=to):
                self._amounts(am, scope)
                if to is not None:
                    self._player_expr(to, scope)
            case A.Pay(amounts=am):
                self._amounts(am, scope)
            case A.Set(target=t, value=v):
                self._target(t, scope)
                var = self.vars.get(t.name)
                if var is not None:
                    self._conforms(v, self._type(var.type, False), True, f"'{t.name}'", scope,
                                   "this value")
                    (self._proven if self._fits(v, var.type, scope) else self._unproven).add(id(s))
                else:
                    self.expr(v, scope)
            case A.Let(name=n, value=v):
                scope.names[n] = self.expr(v, scope)
                scope.sure.pop(n, None)
                sure = self._sure(v, scope)
                if sure is not None:
                    scope.sure[n] = sure
            case A.Advance(track=t, by=by):
                if t not in self.tracks:
                    self.err(s, f"unknown track '{t}'", self.hint(t, self.tracks))
                if by is not None:
                    self._int_expr(by, scope)
            case A.If(branches=branches, orelse=orelse):
                for cond, block in branches:
                    self.expr(cond, scope)
                    self.block(block, scope)
                if orelse is not None:
                    self.block(orelse, scope)
            case A.For(var=v, domain=d, where=w, body=b):
                inner = scope.child({v: _elem(self.expr(d, scope))})
                self._sure_elements(inner, v, d, scope)
                if w is not None:
                    self.expr(w, inner)
                self.block(b, inner)
            case A.Require(cond=c):
                self.expr(c, scope)
            case A.Choose(var=v, domain=d, where=w, by=by, body=b):
                inner = scope.child({v: _elem(self.expr(d, scope))})
                self._sure_elements(inner, v, d, scope)
                if w is not None:
                    self.expr(w, inner)
                if by is not None:
                    self._player_expr(by, scope)
                self.block(b, inner)
            case A.Draw(var=v, bag=bag, body=b):
                var = self.vars.get(bag)
                if var is None or var.type.list_of is None or var.per:
                    self.err(s, f"'{bag}' is not a list variable to draw from",
                             self.hint(bag, (n for n, x in self.vars.items() if x.type.list_of))
                             or "declare it with 'var NAME: list[TYPE] = [...]'")
                    elem = "any"
                else:
                    elem = self._type(var.type.list_of)
                self.block(b, scope.child({v: elem}))
            case A.Emit(event=e, args=args):
                if e not in self.events:
                    self.err(s, f"unknown event '{e}'", self.hint(e, self.events))
                elif e in BUILTIN_EVENTS:   # (a rule raising it would fool every 'when' on it)
                    self.err(s, f"event '{e}' is raised by the engine only",
                             "declare an event of your own with 'event NAME(...)' and emit that")
                elif len(args) != len(self.events[e]):
                    count = len(self.events[e])
                    self.err(s, f"event '{e}' takes {counted(count, 'argument')}, "
                                f"got {len(args)}",
                             f"declared as {_signature(e, self.events[e])}")
                self._arguments(args, self.events.get(e, ()), f"event '{e}'", e, scope)
            case A.Run(target=t, for_=f):
                if not isinstance(t, A.Field):
                    self.err(s, "run takes ENTITY.SLOT, e.g. 'run b.income'")
                else:
                    et = self.expr(t.obj, scope)
                    kind = et.split(":", 1)[1] if et.startswith("entity:") else None
                    slots = self.kinds[kind].slots if kind in self.kinds else None
                    if slots is not None and t.name not in slots:
                        self.err(t, f"a {kind} has no slot '{t.name}'", self.hint(t.name, slots))
                    elif slots is None and not any(t.name in k.slots for k in self.kinds.values()):
                        self.err(t, f"no kind has a slot '{t.name}'",
                                 self.hint(t.name, (n for k in self.kinds.values() for n in k.slots)))
                if f is not None:
                    self._player_expr(f, scope)
            case A.AfterTurn(body=b) | A.Queue(body=b):
                self.block(b, scope)
            case A.Take(entity=e) | A.Discard(entity=e):
                self._entity_expr(type(s).__name__.lower(), e, scope)
            case A.Give(entity=e, to=to):
                self._entity_expr("give", e, scope)
                self._player_expr(to, scope)
            case A.CallStmt(fn=fn, args=args):
                self._call(s, fn, args, scope, statement=True)
            case A.Pass():
                pass
            case A.Use(component=c) | A.Restore(component=c):
                if c not in self.components:
                    self.err(s, f"unknown component '{c}'", self.hint(c, self.components))
            case _:
                self.err(s, "statement not understood")

    def _entity_expr(self, statement: str, e: object, scope: _Scope) -> None:
        """Check the entity a ``take``, ``give`` or ``discard`` moves (its run refuses
        another value: semantics._entity)."""
        t = self.expr(e, scope)
        if not _takes("entity", t):
            self.err(e, f"'{statement}' moves an entity, found {_show(t)}",
                     f"e.g. '{statement} c{' to p' if statement == 'give' else ''}' for a card c")

    def _player_expr(self, e: object, scope: _Scope) -> None:
        t = self.expr(e, scope)
        if t not in ("player", "any", "int"):
            self.err(e, f"expected a player, found {_show(t)}")

    def _target(self, t: A.Target, scope: _Scope) -> None:
        var = self.vars.get(t.name)
        if var is None:
            hint = self.hint(t.name, self.vars)
            if t.name in self.resources:
                hint = f"'{t.name}' is a resource: use gain, pay or lose"
            self.err(t, f"'{t.name}' is not a variable", hint or "declare it with 'var NAME: TYPE = value'")
            return
        needs_index = [p for p in var.per if p != "player"]
        if needs_index and t.index is None:
            self.err(t, f"'{t.name}' is kept per {needs_index[0]}: write '{t.name}[...]'",
                     f"name the {needs_index[0]}, e.g. 'set {t.name}[{needs_index[0][0]}] = ...'")
        if not needs_index and t.index is not None:
            self.err(t, f"'{t.name}' takes no index")
        if t.index is not None:
            self._index(var, t.index, scope)
        if t.of is not None:
            if "player" not in var.per:
                self.err(t, f"'{t.name}' is not kept per player")
            self._player_expr(t.of, scope)

    def _index(self, var: Any, index: A.Expr, scope: _Scope) -> None:
        """Check the index of a variable kept per hex or per entity of a kind: a value of
        another type (``marks[3]`` for ``per card``) would be a key no rule or read finds.
        (Several indexes, given as one list, are checked at run time only.)"""
        found = self.expr(index, scope)
        dims = [p for p in var.per if p != "player"]
        if len(dims) != 1:
            return
        wanted = "hex" if dims[0] == "hex" else f"entity:{dims[0]}"
        if not _compatible(found, wanted) and found != "entity":
            example = "h" if dims[0] == "hex" else (self.by_kind_names.get(dims[0]) or ["c"])[0]
            self.err(index, f"'{var.name}' is kept per {dims[0]}: its index must be a {dims[0]}, "
                            f"found {_show(found)}", f"index it by a {dims[0]}, e.g. '{var.name}[{example}]'")

    def _arguments(self, args: tuple[A.Expr, ...], params: tuple[A.Param, ...], what: str,
                   name: str, scope: _Scope) -> None:
        """Check the arguments of an event raised or a procedure called against its declared
        parameters (those past the parameters: checked as expressions only). A value of another
        type would only fail, or be taken for another, when the rule runs."""
        for i, a in enumerate(args):
            if i >= len(params):
                self.expr(a, scope)
                continue
            p = params[i]
            self._conforms(a, self._type(p.type, False), p.type.optional,
                           f"parameter '{p.name}' of {what}", scope, "this argument",
                           hint=f"declared as {_signature(name, params)}")

    def _call(self, node: object, fn: str, args: tuple[A.Expr, ...], scope: _Scope,
              statement: bool = False) -> str:
        proc = self.actions.get(fn)
        if statement and fn not in self.prims and proc is not None and "procedure" in proc.tags:
            if len(args) != len(proc.params):
                self.err(node, f"{fn}() takes {len(proc.params)} arguments, got {len(args)}",
                         f"procedure: {fn}({', '.join(p.name for p in proc.params)})")
            self._arguments(args, proc.params, f"procedure '{fn}'", fn, scope)
            for i, (a, p) in enumerate(zip(args, proc.params)):   # (for _procedures)
                self._calls[fn, i] = self._calls.get((fn, i), True) and self._fits(a, p.type, scope)
            return "none"
        arg_types = [self.expr(a, scope) for a in args]
        if fn in BUILTIN_FUNCTIONS and not statement:
            lo, hi, result = BUILTIN_FUNCTIONS[fn]
            if not lo <= len(args) <= hi:
                self.err(node, f"{fn}() takes {lo if lo == hi else f'{lo} to {hi}'} "
                               f"argument{'s' if hi > 1 else ''}, got {len(args)}",
                         "see docs/language.md, 'Built-in names and functions'")
            for a, t, wanted in zip(args, arg_types, _BUILTIN_ARGS.get(fn, ())):
                if not _takes(wanted, t):
                    self.err(a, f"{fn}() expects {_WANTED[wanted]}, found {_show(t)}",
                             f"e.g. {_EXAMPLE[fn]} (docs/language.md, 'Built-in names and functions')")
            return result
        if fn in self.prims:
            prim = self.prims[fn]
            for a, t, (pname, ptype) in zip(args, arg_types, prim.params):
                if not _compatible(t, self._norm(ptype)):
                    self.err(a, f"argument '{pname}' of {fn}() must be {_show(self._norm(ptype))}, "
                                f"found {_show(t)}")
            if len(args) != len(prim.params):
                sig = ", ".join(f"{n}: {t}" for n, t in prim.params)
                self.err(node, f"{fn}() takes {counted(len(prim.params), 'argument')}, got "
                               f"{len(args)}",
                         f"signature: {fn}({sig})")
            if statement and not prim.effect:
                self.err(node, f"{fn}() changes nothing, so 'call' is pointless here",
                         "use its value in an expression")
            if not statement and prim.effect:
                self.err(node, f"{fn}() changes the state: use 'call {fn}(...)'")
            return self._norm(prim.returns)
        candidates = chain(self.prims, (a for a, d in self.actions.items() if "procedure" in d.tags),
                           () if statement else BUILTIN_FUNCTIONS)   # (listed for a hint only)
        self.err(node, f"unknown {'procedure' if statement else 'function'} '{fn}'",
                 self.hint(fn, candidates))
        return "any"

    # ---- expressions ----
    def expr(self, e: object, scope: _Scope) -> str:
        """Check an expression; return its type name (``int``, ``entity:tech``, ``list:hex``…)."""
        match e:
            case A.Int():
                return "int"
            case A.Str():
                return "text"
            case A.Bool():
                return "bool"
            case A.NoneLit():
                return "none"
            case A.Name(id=n):
                return self._name(e, n, scope)
            case A.Call(fn=fn, args=args):
                return self._call(e, fn, args, scope)
            case A.ListLit(items=items):
                types = {self.expr(i, scope) for i in items}
                return "list:" + (types.pop() if len(types) == 1 else "any")
            case A.Field(obj=o, name=n):
                t = self.expr(o, scope)
                if t.startswith("entity:"):
                    kind = self.kinds.get(t[7:])
                    if kind is not None:
                        if n not in kind.fields:
                            self.err(e, f"a {kind.name} has no field '{n}'", self.hint(n, kind.fields))
                            return "any"
                        return self._type(kind.fields[n][0])
                if t == "any":
                    if not any(n in k.fields for k in self.kinds.values()):
                        self.err(e, f"no kind has a field '{n}'",
                                 self.hint(n, (f for k in self.kinds.values() for f in k.fields)))
                    return "any"
                self.err(e, f"{_show(t)} has no fields")
                return "any"
            case A.Index(obj=o, index=i):
                if isinstance(o, A.Name) and o.id in self.vars and scope.lookup(o.id) is None:
                    var = self.vars[o.id]
                    if not [p for p in var.per if p != "player"]:
                        self.expr(i, scope)
                        t = self._type(var.type)
                        return _elem(t) if t.startswith("list:") else "any"
                    self._index(var, i, scope)
                    return self._type(var.type)
                self.expr(i, scope)
                t = self.expr(o, scope)
                return _elem(t)
            case A.Of(expr=x, player=p):
                self._player_expr(p, scope)
                return self.expr(x, scope)
            case A.Neg(operand=o):
                self._int_expr(o, scope)
                return "int"
            case A.Not(operand=o):
                self.expr(o, scope)
                return "bool"
            case A.BinOp(op=op, left=l, right=r):
                lt, rt = self.expr(l, scope), self.expr(r, scope)
                if op == "+" and lt.startswith("list") and rt.startswith("list"):
                    return lt
                for side, t in ((l, lt), (r, rt)):
                    if t not in ("int", "any"):
                        self.err(side, f"'{op}' needs numbers, found {_show(t)}",
                                 "only '+' joins two lists; texts and truth values have no arithmetic")
                return "int"
            case A.Compare(op=op, left=l, right=r):
                lt, rt = self.expr(l, scope), self.expr(r, scope)
                if op in ("<", "<=", ">", ">="):
                    for side, t in ((l, lt), (r, rt)):
                        if t not in ("int", "any"):
                            self.err(side, f"'{op}' compares numbers, found {_show(t)}",
                                     "compare other values with '==' or '!='")
                return "bool"
            case A.Range(low=lo, high=hi):
                self._int_expr(lo, scope)
                self._int_expr(hi, scope)
                return "list:int"
            case A.BoolOp(items=items):
                for i in items:
                    self.expr(i, scope)
                return "bool"
            case A.Quant(kind=k, var=v, domain=d, where=w):
                inner = scope.child({v: _elem(self.expr(d, scope))})
                if w is not None:
                    self.expr(w, inner)
                return "int" if k == "count" else "bool"
            case A.SumOf(expr=x, var=v, domain=d, where=w):
                inner = scope.child({v: _elem(self.expr(d, scope))})
                if w is not None:
                    self.expr(w, inner)
                self._int_expr(x, inner)
                return "int"
        self.err(e, "expression not understood")
        return "any"

    def _name(self, node: object, n: str, scope: _Scope) -> str:
        local = scope.lookup(n)
        if local is not None:
            return local
        if n in BUILTIN_NAMES:
            return BUILTIN_NAMES[n]
        if n in self.resources or n in self.tracks or n in self.components:
            return "int"
        if n in self.vars:
            var = self.vars[n]
            if [p for p in var.per if p != "player"]:
                return "any"  # indexed later
            return self._type(var.type)
        if n in self.options:
            v = self.options[n].default
            return {bool: "bool", int: "int", str: "text"}.get(type(v), "any")
        if n in self.entity_kind:
            return "entity:" + self.entity_kind[n]
        if n in self.kinds_ast:
            return "list:entity:" + n
        candidates = chain(scope.all(), BUILTIN_NAMES, self.resources, self.tracks, self.components,
                           self.vars, self.options, self.entity_kind, self.kinds_ast)   # (for a hint only)
        self.err(node, f"unknown name '{n}'", self.hint(n, candidates))
        return "any"


def _max_players(decls: list[A.Decl]) -> int:
    """The most players the game declares (``players 2..4`` → 4), else 9."""
    for d in decls:
        if d.kind == "game":
            for p in d.entries:
                if isinstance(p, A.Property) and p.name == "players" and p.values:
                    v = p.values[0]
                    if isinstance(v, A.Range) and isinstance(v.high, A.Int):
                        return max(v.high.value, 1)
                    if isinstance(v, A.Int):
                        return max(v.value, 1)
    return 9


def _signature(name: str, params: Iterable[A.Param]) -> str:
    return f"{name}(" + ", ".join(f"{p.name}: {p.type}" for p in params) + ")"


_FAMILY = {"int": "num", "player": "num", "text": "str", "hex": "str"}


def _compatible(found: str, wanted: str) -> bool:
    """Whether a value of type ``found`` may be passed where ``wanted`` is declared."""
    if "any" in (found, wanted) or found == wanted or found == "none":
        return True
    if found.startswith("list:") and wanted.startswith("list:"):
        return _compatible(found[5:], wanted[5:])
    if found.startswith("entity:") and wanted in ("text", "entity"):
        return True
    return _FAMILY.get(found, found) == _FAMILY.get(wanted, wanted)


def _same(found: str, wanted: str) -> bool:
    """Whether a value surely of type ``found`` (Checker._sure) is one of type ``wanted`` as
    semantics.fits tests it: numbers for int and player, texts for text and hex (and an
    entity's name for text), a list element by element."""
    if wanted == "any" or found == wanted:
        return True
    if found.startswith("list:") and wanted.startswith("list:"):
        return _same(found[5:], wanted[5:])
    if found.startswith("entity:"):
        return wanted == "text"
    return found in _FAMILY and _FAMILY[found] == _FAMILY.get(wanted)


def _never_none(t: A.TypeRef) -> bool:
    """Whether a value of declared type ``t`` is never none (nor an element of it)."""
    return not t.optional and (t.list_of is None or _never_none(t.list_of))


def _takes(wanted: str, found: str) -> bool:
    """Whether a built-in's argument of type ``found`` may be what it wants (``_BUILTIN_ARGS``;
    ``any`` and ``none`` are left to the run time)."""
    if found in ("any", "none"):
        return True
    if wanted == "entity":
        return found.startswith("entity")
    if wanted == "kind":
        return found == "text" or found in ("list:any", "list:none") or found.startswith("list:entity")
    return found == "text"


def _within(value: Any, allowed: tuple[Any, ...]) -> bool:
    """An option value is within its domain: the value, or each element of a list value."""
    values = value if isinstance(value, tuple) else (value,)
    return all(v in allowed and type(v) in (type(a) for a in allowed) for v in values)


def describe_domain(allowed: tuple[Any, ...]) -> str:
    """A domain as players read it: 'from 1 to 9' for a run of whole numbers, else a list."""
    if (len(allowed) > 2 and all(type(a) is int for a in allowed)
            and list(allowed) == list(range(allowed[0], allowed[0] + len(allowed)))):
        return f"from {allowed[0]} to {allowed[-1]}"
    shown = ", ".join(rules_value(a) for a in allowed[:DOMAIN_SHOWN])
    return "one of " + (shown if len(allowed) <= DOMAIN_SHOWN else f"{shown}, ... ({len(allowed)} values)")


DOMAIN_SHOWN = 20
"""The most values of a domain an error lists (a domain of thousands made a message as long)."""


def _too_large(v: Any) -> bool:
    """Whether ``v`` is or holds a number beyond the rules' (±MAX_NUMBER)."""
    if isinstance(v, tuple):
        return any(_too_large(x) for x in v)
    return isinstance(v, int) and not -MAX_NUMBER <= v <= MAX_NUMBER


def _kind_of_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true or false"
    if isinstance(v, int):
        return "a whole number"
    if isinstance(v, str):
        return "a text"
    if isinstance(v, tuple):
        return "a list"
    return "none"


def _elem(t: str) -> str:
    if t.startswith("list:"):
        return t[5:]
    return "any"


_PLURAL = {"int": "numbers", "bool": "truth values", "text": "texts", "player": "players",
           "hex": "hexes", "any": "values"}


def _show(t: str) -> str:
    if t.startswith("entity:"):
        return f"a {t[7:]}"
    if t.startswith("list:"):
        inner = t[5:]
        return "a list of " + (inner[7:] + "s" if inner.startswith("entity:")
                               else _PLURAL.get(inner, "lists" if inner.startswith("list:") else inner))
    return {"int": "a number", "bool": "a truth value", "text": "a text", "none": "none",
            "player": "a player", "hex": "a hex"}.get(t, t)
