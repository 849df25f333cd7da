"""Which statements cannot break a rule: the static half of candidate pruning (guards.py).

An action's body is often a few checks (``require``, ``pay``, ``take``...) followed by
effects that cannot fail (``gain``, ``set``, an ``emit`` whose triggers only gain...). Once
the checks have passed, the action is legal whatever those effects do, so listing the legal
actions need not run them. :meth:`Inert.split` finds where that *inert rest* of a body
begins, and a bound on the execution-budget steps it may take (the engine accepts the
candidate only when that many steps are left: a budget overrun is a broken rule too).

"Cannot fail" is decided conservatively, on the rules as the checker typed them:

- statements: ``gain``/``lose`` of whole numbers to ``me`` (with a cap that is a number),
  ``set`` of a variable for ``me`` (by index for per-hex/per-entity ones), ``let``, ``if``
  and ``for`` over inert parts, ``emit`` whose every trigger has an inert condition and
  body, ``call`` of a procedure with an inert body, ``after turn`` (its block runs when the
  turn ends, which the engine handles apart);
- expressions: constants, names (bindings, resources, tracks, supplies, variables, options,
  entities, kinds, ``me``, ``players``...), fields of a (non-optional) entity, indexes of
  per-hex/per-entity variables, ``== != not and or``, ``< <= > >= + - *`` on whole numbers,
  ``in`` of a list, ``any/all/count/sum`` over lists, ``held(KIND)``, ``holds``,
  ``owner``, ``len``, ``passed``, ``without_one`` of a list, calls of ``pure`` primitives
  (primitives.py); nothing else
  (no other primitive, no ``of``, no list index, no division, no range).

Numbers: ``+``/``-``/``*``/``sum`` refuse results beyond ±MAX_NUMBER (2**63 - 1); the analysis
assumes the whole numbers in a state stay far below that (each is made by rules bounded by
the same limit), as every bundled game's do. Lists: a list in the state is taken to have at
most MAX_LIST elements (rules cannot build a longer one; a primitive that stored one would
make the step bound too low).
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from . import ast as A
from . import semantics as S
from ..runtime import MAX_LIST

if TYPE_CHECKING:
    from ..ruleset import Ruleset

# a type: "int", "bool", "text", "player", "hex", "none", "entity:KIND", "list:T", "handle"
# (a per-hex/per-entity variable named without its index), or None (a value of unknown type);
# a trailing "?" marks an optional value. A size bound goes with lists.
Typed = tuple[str | None, int, int]   # (type, step cost bound, size bound for a list)
Scope = dict[str, str | None]


def type_name(t: A.TypeRef, kinds: Any) -> str:
    """The analysis' name of a declared type (``list:entity:card``, ``int``, ``player?``)."""
    if t.list_of is not None:
        return "list:" + type_name(t.list_of, kinds)
    name = f"entity:{t.name}" if t.name in kinds else t.name
    return name + ("?" if t.optional else "")


def _value_type(v: object) -> str | None:
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "int"
    if isinstance(v, str):
        return "text"
    return None


class Inert:
    """The inertness analysis of one ruleset (results of procedures kept)."""

    def __init__(self, rs: Ruleset, caps: dict[str, A.Expr]) -> None:
        self.rs = rs
        self.caps = caps   # resource -> its cap expression
        self._procs: dict[str, int | None] = {}
        self._busy: set[str] = set()
        self._emitting: set[str] = set()   # events whose triggers are under analysis
        self._sizes: dict[tuple[str, str], int] = {}   # (kind, field) -> _field_size

    # ---- bodies ----
    def split(self, block: A.Block, scope: Scope) -> tuple[int, int]:
        """``(k, cost)``: the statements from ``k`` on cannot break a rule and take at most
        ``cost`` steps (``k`` is ``len(block.stmts)`` when no tail is inert)."""
        stmts = block.stmts
        scopes = [dict(scope)]
        for s in stmts:   # the bindings each statement sees ('let' adds to them)
            nxt = dict(scopes[-1])
            if isinstance(s, A.Let):
                found = self.expr(s.value, nxt)
                nxt[s.name] = found[0] if found is not None else None
            else:   # (a 'let' in an 'if' stays bound after it, its type unknown here)
                nxt.update(dict.fromkeys(_lets_in(s)))
            scopes.append(nxt)
        best = (len(stmts), 0)
        for k in range(len(stmts) - 1, -1, -1):
            cost = self.stmts(stmts[k:], dict(scopes[k]))
            if cost is None:
                break
            best = (k, cost)
        return best

    def stmts(self, stmts: tuple[A.Stmt, ...] | list[A.Stmt], scope: Scope) -> int | None:
        total = 0
        for s in stmts:
            c = self.stmt(s, scope)
            if c is None:
                return None
            total += c
        return total

    def stmt(self, s: A.Stmt, scope: Scope) -> int | None:
        """A bound on the steps of ``s`` when it cannot break a rule, else None."""
        rs = self.rs
        match s:
            case A.Gain(amounts=am, to=None) | A.Lose(amounts=am, to=None):
                if isinstance(am, A.AmountExpr):
                    return None
                total = 0
                for a in am:
                    parts = [self.int_(a.count, scope)] + ([] if a.per is None else [self.int_(a.per, scope)])
                    if None in parts or not self._cap_ok(a.resource, scope):
                        return None
                    total += sum(p for p in parts if p is not None)
                return total
            case A.Set(target=t, value=v):
                var = rs.vars.get(t.name)
                if var is None or t.of is not None:
                    return None
                value = self.expr(v, scope)
                if value is None:
                    return None
                if not [p for p in var.per if p != "player"]:
                    return value[1] if t.index is None else None
                if var.per not in ((var.per[0],), ("player", var.per[-1])) or t.index is None:
                    return None
                index = self.expr(t.index, scope)
                return None if index is None else value[1] + index[1]
            case A.Let(name=n, value=v):
                found = self.expr(v, scope)
                if found is None:
                    return None
                scope[n] = found[0] if scope.get(n, found[0]) == found[0] else None
                return found[1]
            case A.If(branches=branches, orelse=orelse):
                total = 0
                for cond, block in branches + (((None, orelse),) if orelse is not None else ()):
                    c = 0 if cond is None else self._cost(self.expr(cond, scope))
                    b = self.stmts(block.stmts, scope)  # (a 'let' in a branch stays bound after it)
                    if c is None or b is None:
                        return None
                    total += c + b
                scope.update(dict.fromkeys(_lets_in(s)))   # (bound or not after it: type unknown)
                return total
            case A.For(var=name, domain=d, where=w, body=b):
                dom = self.expr(d, scope)
                if dom is None or not (dom[0] or "").startswith("list:"):
                    return None
                inner = {**scope, name: dom[0][5:]}  # type: ignore[index]
                cw = 0 if w is None else self._cost(self.expr(w, inner))
                cb = self.stmts(b.stmts, dict(inner))
                if cw is None or cb is None:
                    return None
                return dom[1] + dom[2] * (1 + cw + cb)
            case A.Emit(event=event, args=args):
                emitted = self._costs(args, scope)
                if emitted is None or event in self._emitting:
                    return None   # (an event whose triggers raise it again has no bound)
                self._emitting.add(event)
                try:
                    return self._emit_cost(event, emitted)
                finally:
                    self._emitting.discard(event)
            case A.CallStmt(fn=fn, args=args):
                if fn in rs.primitives or fn not in rs.actions:
                    return None
                passed, body = self._costs(args, scope), self._proc(fn)
                return None if passed is None or body is None else passed + 1 + body
            case A.AfterTurn():
                return 0
        return None

    def _emit_cost(self, event: str, emitted: int) -> int | None:
        """``emitted`` plus the steps of every trigger of ``event``, when all are inert, else None."""
        rs = self.rs
        params = rs.events.get(event, ())
        for trig in rs.triggers_by_event.get(event, ()):
            if trig.node is None:
                return None
            tscope: Scope = {n: type_name(p.type, rs.kinds) for n, p in zip(trig.names, params)}
            if trig.entity is not None:
                tscope["self"] = f"entity:{rs.entities[trig.entity].kind}"
            cc = 0 if trig.cond_node is None else self._cost(self.expr(trig.cond_node, tscope))
            cb = self.stmts(trig.node.stmts, tscope)
            if cc is None or cb is None:
                return None
            emitted += 1 + cc + cb
        return emitted

    def _costs(self, args: tuple[A.Expr, ...], scope: Scope) -> int | None:
        """The summed cost of expressions ``args`` when none can break a rule, else None."""
        total = 0
        for arg in args:
            c = self._cost(self.expr(arg, scope))
            if c is None:
                return None
            total += c
        return total

    def _proc(self, name: str) -> int | None:
        if name in self._procs:
            return self._procs[name]
        if name in self._busy:
            return None   # a procedure calling itself: no bound
        self._busy.add(name)
        try:
            proc = self.rs.actions[name]
            scope: Scope = {p.name: type_name(p.type, self.rs.kinds) for p in proc.params}
            cost = self.stmts(proc.body.stmts, scope)
        finally:
            self._busy.discard(name)
        self._procs[name] = cost
        return cost

    def _cap_ok(self, resource: str, scope: Scope) -> bool:
        """Whether ``resource``'s cap is a number that cannot break a rule (it is evaluated
        where the gain is, with that place's bindings)."""
        cap = self.caps.get(resource)
        if cap is None:
            return True
        found = self.expr(cap, scope)
        return found is not None and found[0] in ("int", "none", "int?")

    # ---- expressions ----
    @staticmethod
    def _cost(found: Typed | None) -> int | None:
        return None if found is None else found[1]

    def int_(self, e: A.Expr, scope: Scope) -> int | None:
        """The cost of ``e`` when it is surely a whole number, else None."""
        found = self.expr(e, scope)
        return found[1] if found is not None and found[0] == "int" else None

    def expr(self, e: A.Expr, scope: Scope) -> Typed | None:
        """``(type, cost, size)`` of ``e`` when it cannot break a rule, else None."""
        rs = self.rs
        match e:
            case A.Int():
                return ("int", 0, 0)
            case A.Bool():
                return ("bool", 0, 0)
            case A.Str():
                return ("text", 0, 0)
            case A.NoneLit():
                return ("none", 0, 0)
            case A.Name(id=n):
                if n in scope:
                    t = scope[n]
                    return (t, 0, MAX_LIST)
                return self._name(n)
            case A.Field(obj=o, name=n):
                obj = self.expr(o, scope)
                if obj is None or not (obj[0] or "").startswith("entity:") or obj[0].endswith("?"):  # type: ignore[union-attr]
                    return None
                kind = rs.kinds.get(obj[0][7:])  # type: ignore[index]
                if kind is None or n not in kind.fields:
                    return None
                return (type_name(kind.fields[n][0], rs.kinds), obj[1], self._field_size(kind.name, n))
            case A.Index(obj=A.Name(id=n), index=i) if n not in scope:
                try:
                    cls, var = S.classify(rs, n)
                except S.RuleViolation:
                    return None
                if cls != S.VAR or not var.per or var.per[-1] == "player" or \
                        var.per not in ((var.per[0],), ("player", var.per[-1])):
                    return None
                index = self.expr(i, scope)
                hashed = None if index is None else self._size(i, index)   # (semantics.keyed)
                if index is None or hashed is None:
                    return None
                return (type_name(var.type, rs.kinds), index[1] + hashed, MAX_LIST)
            case A.Not(operand=o):
                found = self.expr(o, scope)
                return None if found is None else ("bool", found[1], 0)
            case A.BoolOp(items=items):
                total = 0
                for x in items:
                    found = self.expr(x, scope)
                    if found is None:
                        return None
                    total += found[1]
                return ("bool", total, 0)
            case A.Compare(op=op, left=l, right=r):
                a, b = self.expr(l, scope), self.expr(r, scope)
                if a is None or b is None:
                    return None
                if op in ("==", "!="):   # (semantics.equal: the smaller size of the two)
                    sizes = [x for x in (self._size(l, a), self._size(r, b)) if x is not None]
                    return ("bool", a[1] + b[1] + min(sizes), 0) if sizes else None
                if op in ("in", "notin"):
                    needle = self._size(l, a)
                    if not (b[0] or "").startswith("list:") or needle is None:
                        return None
                    return ("bool", a[1] + b[1] + b[2] * (1 + needle), 0)
                if a[0] == "int" and b[0] == "int":
                    return ("bool", a[1] + b[1], 0)
                return None
            case A.BinOp(op=op, left=l, right=r) if op in ("+", "-", "*"):
                a, b = self.expr(l, scope), self.expr(r, scope)
                if a is None or b is None or a[0] != "int" or b[0] != "int":
                    return None
                return ("int", a[1] + b[1], 0)
            case A.Quant(kind=k, var=v, domain=d, where=w) | A.SumOf(var=v, domain=d, where=w, expr=k):
                dom = self.expr(d, scope)
                if dom is None or not (dom[0] or "").startswith("list:"):
                    return None
                inner = {**scope, v: dom[0][5:]}  # type: ignore[index]
                cw = 0 if w is None else self._cost(self.expr(w, inner))
                if cw is None:
                    return None
                if isinstance(e, A.SumOf):
                    cx = self.int_(e.expr, inner)
                    if cx is None:
                        return None
                    return ("int", dom[1] + dom[2] * (1 + cw + cx), 0)
                return ("int" if k == "count" else "bool", dom[1] + dom[2] * (1 + cw), 0)
            case A.ListLit(items=items):
                total, types = (len(items) if len(items) > S.FREE_LIST else 0), set()
                for x in items:
                    found = self.expr(x, scope)
                    if found is None:
                        return None
                    total += found[1]
                    types.add(found[0])
                item = types.pop() if len(types) == 1 else None
                return (None if item is None else "list:" + item, total, len(items))
            case A.Call(fn=fn, args=args):
                return self._call(fn, args, scope)
        return None

    def _size(self, e: A.Expr, found: Typed) -> int | None:
        """A bound on :func:`semantics.size` of ``e``'s value (what comparing it may be charged),
        or None when unknown: 0 for a number, truth value, none, player or hex (a map's name for
        it, short) and for a text written in the rule under 64 characters; an entity's name by
        the longest one; a list of those, its size bound times one plus that."""
        t = (found[0] or "").rstrip("?")
        if isinstance(e, A.Str):
            return len(e.value) >> 6
        if t in ("int", "bool", "none", "player", "hex"):
            return 0
        if t.startswith("entity:"):
            return self._longest_name
        elem = t[5:].rstrip("?") if t.startswith("list:") else ""
        if elem in ("int", "bool", "none", "player", "hex") or elem.startswith("entity:"):
            return found[2] * (1 + (self._longest_name if elem.startswith("entity:") else 0))
        return None

    @functools.cached_property
    def _longest_name(self) -> int:
        return max((len(n) for n in self.rs.entities), default=0) >> 6

    def _name(self, n: str) -> Typed | None:
        rs = self.rs
        try:
            cls, payload = S.classify(rs, n)
        except S.RuleViolation:
            return None   # a name nothing binds: loading it breaks a rule
        if cls in (S.RESOURCE, S.TRACK, S.COMPONENT):
            return ("int", 0, 0)
        if cls == S.VAR:
            if any(p != "player" for p in payload.per):
                return ("handle", 0, 0)
            return (type_name(payload.type, rs.kinds), 0, MAX_LIST)
        if cls == S.OPTION:
            return (_value_type(payload.default), 0, MAX_LIST)
        if cls == S.ENTITY:
            return (f"entity:{rs.entities[payload].kind}", 0, 0)
        if cls == S.KIND:
            kind = rs.entities[payload[0]].kind if payload else None
            return ("list:entity:" + kind if kind else None, 0, len(payload))
        builtin = {"me": "player", "players": "list:player", "others": "list:player",
                   "hexes": "list:hex", "round": "int", "nplayers": "int", "chance": "int"}
        name = next((k for k, v in S.BUILTIN_VALUES.items() if v is payload), None)
        if name not in builtin:
            return None
        size = self.rs.players[1] if name in ("players", "others") else MAX_LIST
        return (builtin[name], 0, size)

    def _call(self, fn: str, args: tuple[A.Expr, ...], scope: Scope) -> Typed | None:
        rs = self.rs
        found = [self.expr(a, scope) for a in args]
        if None in found:
            return None
        if fn in rs.primitives:
            return self._pure(rs.primitives[fn], found)  # type: ignore[arg-type]
        typed: list[Typed] = [f for f in found if f is not None]
        cost = sum(f[1] for f in typed)
        if fn == "held" and len(args) == 1 and isinstance(args[0], A.Name) and args[0].id not in scope \
                and args[0].id in rs.by_kind:
            kind = args[0].id
            return (f"list:entity:{kind}", cost + len(rs.by_kind[kind]), len(rs.by_kind[kind]))
        if fn in ("holds", "owner") and len(typed) == 1 and (typed[0][0] or "").startswith("entity:") \
                and not (typed[0][0] or "").endswith("?"):
            return ("bool" if fn == "holds" else "player?", cost, 0)
        if fn == "len" and len(typed) == 1 and (typed[0][0] or "").startswith("list:"):
            return ("int", cost + typed[0][2], 0)
        if fn == "passed" and len(typed) == 1:
            return ("bool", cost, 0)
        if fn == "without_one" and len(typed) == 2 and (typed[0][0] or "").startswith("list:"):
            walked = self._size(args[0], typed[0])   # (semantics._without_one: the list walked)
            return None if walked is None else (typed[0][0], cost + walked, typed[0][2])
        return None

    def _field_size(self, kind: str, name: str) -> int:
        """A bound on the length of field ``name`` of the entities of ``kind`` (their fields
        are the rule files' constants): the longest list among them, MAX_LIST if one is not a
        list."""
        key = (kind, name)
        got = self._sizes.get(key)
        if got is None:
            ents = self.rs.entities
            values = [ents[e].fields.get(name) for e in self.rs.by_kind.get(kind, ())]
            got = max((len(v) if type(v) is tuple else MAX_LIST for v in values), default=0)
            self._sizes[key] = got
        return got

    def _pure(self, prim: Any, found: list[Typed]) -> Typed | None:
        """A call of primitive ``prim`` on arguments typed ``found``: cannot break a rule when
        the primitive is declared ``pure`` (primitives.py), typed by its declaration; it takes
        no steps of its own (a list it returns: at most MAX_LIST items)."""
        if not prim.pure or prim.effect:
            return None
        return (declared_type(prim.returns, self.rs.kinds), sum(f[1] for f in found), MAX_LIST)


def declared_type(t: str, kinds: Any) -> str | None:
    """The analysis' name of a primitive's declared type (``"list:ship_class"`` is
    ``"list:entity:ship_class"``; ``"any"``: None, a value of unknown type)."""
    opt = "?" if t.endswith("?") else ""
    t = t.rstrip("?")
    if t.startswith("list:"):
        inner = declared_type(t[5:], kinds)
        return None if inner is None else "list:" + inner + opt
    if t == "any":
        return None
    return (f"entity:{t}" if t in kinds else t) + opt


def _lets_in(s: A.Stmt) -> set[str]:
    """The names a statement's nested ``let``s leave bound after it (those of its ``if``
    branches: a ``for`` body, a procedure or a slot gets its bindings back afterwards)."""
    if not isinstance(s, A.If):
        return set()
    names: set[str] = set()
    blocks = [b for _, b in s.branches] + ([s.orelse] if s.orelse is not None else [])
    for block in blocks:
        for t in block.stmts:
            names |= {t.name} if isinstance(t, A.Let) else _lets_in(t)
    return names
