"""Two back ends for one AST: a compiler and a tree-walking interpreter.

Both turn a statement block into ``fn(ctx) -> None`` and an expression into
``fn(ctx) -> value``, and both express every construct through
:mod:`boardrules.lang.semantics`. The compiler resolves names and dispatches once,
once per node (a block as one generated Python function, compiled on its first run:
:mod:`.blockgen`; an expression as one generated function: :mod:`.codegen`; each statement
also as a closure, which the guards run and the generated code calls for ``choose``); the
interpreter does it on every evaluation. The test suite runs random expressions and blocks
through them and compares.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, overload

from ..runtime import CHANCE
from . import ast as A
from . import semantics as S
from .blockgen import BlockCompiler
from .codegen import ExprCompiler
from .semantics import BlockFn, ExprFn, Value

if TYPE_CHECKING:
    from ..ruleset import Ruleset
    from ..runtime import Context
    from .checker import VarDef

Amounts = tuple[A.Amount, ...] | A.AmountExpr


def _conformed(var: VarDef, fv: ExprFn, span: A.Span) -> ExprFn:
    """``fv`` whose value is tested against ``var``'s type (semantics.conform) at ``span``."""
    return lambda ctx: S.conform(ctx, var, fv(ctx), span)


def player_fn(f: ExprFn | None, chance: bool = False, span: A.Span | None = None) -> ExprFn | None:
    """``f`` checked to give a player (or, with ``chance``, the chance player: ``by chance``):
    a ``to``, ``of``, ``for`` or ``by`` that names none is a rule violation, never ``me``
    (which leaving the word out means), placed at ``span`` when given (the statement's)."""
    if f is None:
        return None
    if chance:
        return lambda ctx: v if (v := f(ctx)) == CHANCE else S.player_at(ctx, v, span)
    if span is not None:
        return lambda ctx: S.player_at(ctx, f(ctx), span)
    return lambda ctx: ctx.player(f(ctx))


class Compiler:
    """AST → Python callables, built once per ruleset.

    ``block_ids`` maps ``id(node)`` of every ``choose``/``draw``/``after turn`` body
    to its number in the ruleset's table of deferred blocks.
    """

    def __init__(self, rs: Ruleset) -> None:
        self.rs = rs
        self._exprs = ExprCompiler(rs)
        # id(node) -> its function: a guard (guards.py) runs the very closures a body runs
        self._stmts: dict[int, BlockFn] = {}
        self._expr_fns: dict[int, ExprFn] = {}
        self._blocks = BlockCompiler(rs, self)

    # ---- expressions: generated Python source (see codegen) ----
    @overload
    def expr(self, e: None) -> None: ...
    @overload
    def expr(self, e: A.Expr) -> ExprFn: ...
    @overload
    def expr(self, e: A.Expr | None) -> ExprFn | None: ...

    def expr(self, e: A.Expr | None) -> ExprFn | None:
        """``fn(ctx) -> value`` for expression ``e`` (None for None; compiled once per node)."""
        if e is None:
            return None
        fn = self._expr_fns.get(id(e))
        if fn is None:
            fn = self._expr_fns[id(e)] = self._exprs.compile(e)
        return fn

    def expr_bound(self, e: A.Expr, bound: frozenset[str], fixed: dict[str, str] | None = None) -> ExprFn:
        """``fn(ctx) -> value`` for expression ``e`` run with exactly the bindings ``bound``,
        those of ``fixed`` holding these entities (codegen.ExprCompiler.compile); not kept
        (the caller keeps it)."""
        return self._exprs.compile(e, bound, fixed)

    def inline(self, e: A.Expr, ns: dict[str, Any]) -> str:
        """Python source of expression ``e`` to write into generated code run with globals
        ``ns`` (the constants and helpers it reads put there), read as :meth:`expr`'s function
        reads it; its errors are raised bare, without that function's handler
        (codegen.ExprCompiler.inline)."""
        return self._exprs.inline(e, ns)

    def _amounts(self, am: Amounts, span: A.Span) -> Callable[[Context], list[tuple[int, str]]]:
        """The amounts of a ``gain``, ``lose`` or ``pay`` (refused at ``span``, the statement)."""
        if isinstance(am, A.AmountExpr):
            f = self.expr(am.expr)
            return lambda ctx: S.amounts(ctx, f(ctx), span)
        parts = [(self.expr(a.count), a.resource, self.expr(a.per)) for a in am]

        def amounts(ctx: Context) -> list[tuple[int, str]]:
            out = []
            for fc, res, fper in parts:
                n = S._num(ctx, fc(ctx), "amount", span)
                if fper is not None:
                    n *= S._num(ctx, fper(ctx), "per", span)
                out.append((n, res))
            return out
        return amounts

    def _change(self, s: A.Gain | A.Lose | A.Pay, am: Amounts, to: A.Expr | None) -> BlockFn:
        """``gain``/``lose``/``pay``: one amount of a resource (the common case) goes straight
        to the context's method, as S.gain/S.lose/S.pay would send it."""
        span = s.span
        ft = player_fn(self.expr(to), span=span)
        if isinstance(am, A.AmountExpr) or len(am) != 1 or am[0].per is not None:
            fa = self._amounts(am, span)
            if isinstance(s, A.Pay):
                return lambda ctx: S.pay(ctx, fa(ctx))
            many = S.gain if isinstance(s, A.Gain) else S.lose
            return lambda ctx: many(ctx, fa(ctx), None if ft is None else ft(ctx))
        res, count = am[0].resource, am[0].count
        fc = self.expr(count)
        const = count.value if isinstance(count, A.Int) else None
        if isinstance(s, A.Pay):
            if const is not None:
                return lambda ctx: ctx.pay(res, const)
            return lambda ctx: ctx.pay(res, S._num(ctx, fc(ctx), "amount", span))
        gain = isinstance(s, A.Gain)

        def change(ctx: Context) -> None:
            n = const if const is not None else S._num(ctx, fc(ctx), "amount", span)
            to = None if ft is None else ft(ctx)
            if gain:
                ctx.gain(res, n, to)
            else:
                ctx.lose(res, n, to)
        return change

    # ---- statements ----
    def block(self, block: A.Block) -> BlockFn:
        """``fn(ctx) -> None`` running the statements of ``block``: one generated function
        (:mod:`.blockgen`), compiled on its first run."""
        return self._blocks.block(block)

    def closure_block(self, block: A.Block) -> BlockFn:
        """``block`` as a chain of the statements' closures (what a block too deep for Python's
        compiler runs as; the closures of ``if`` and ``for`` run their blocks so)."""
        fs = [self.stmt(s) for s in block.stmts]
        if len(fs) == 1:
            return fs[0]
        if len(fs) == 2:   # (the common short blocks without the loop)
            f0, f1 = fs

            def run2(ctx: Context) -> None:
                f0(ctx)
                f1(ctx)
            return run2
        if len(fs) == 3:
            g0, g1, g2 = fs

            def run3(ctx: Context) -> None:
                g0(ctx)
                g1(ctx)
                g2(ctx)
            return run3

        def run(ctx: Context) -> None:
            for f in fs:
                f(ctx)
        return run

    def stmt(self, s: A.Stmt) -> BlockFn:
        """``fn(ctx) -> None`` running statement ``s`` (compiled once per statement)."""
        fn = self._stmts.get(id(s))
        if fn is None:
            fn = self._stmts[id(s)] = self._stmt(s)
        return fn

    def _stmt(self, s: A.Stmt) -> BlockFn:
        rs = self.rs
        match s:
            case A.Gain(amounts=am, to=to) | A.Lose(amounts=am, to=to):
                return self._change(s, am, to)
            case A.Pay(amounts=am):
                return self._change(s, am, None)
            case A.Set(target=t, value=v):
                var = rs.vars[t.name]
                fi, fo, fv = self.expr(t.index), player_fn(self.expr(t.of), span=s.span), self.expr(v)
                if id(s) not in rs.proven_sets:   # (its value tested when it runs)
                    fv = _conformed(var, fv, s.span)
                if fi is None and fo is None and var.per in ((), ("player",)):
                    # (S.set_var's key, worked out here: a plain or per-player variable of me)
                    if not var.per:
                        key = ("v", var.name)
                        return lambda ctx: ctx.set(key, fv(ctx))
                    vname = var.name

                    def set_mine(ctx: Context) -> None:
                        value = fv(ctx)
                        ctx.set(("v", vname, ctx.player()), value)
                    return set_mine
                return lambda ctx: S.set_var(ctx, var, None if fi is None else fi(ctx),
                                             None if fo is None else fo(ctx), fv(ctx))
            case A.Let(name=n, value=v):
                fv = self.expr(v)

                def let(ctx: Context) -> None:
                    ctx.env = {**ctx.env, n: fv(ctx)}
                return let
            case A.Advance(track=t, by=by):
                fb, span = self.expr(by), s.span

                def advance(ctx: Context) -> None:
                    S.advance(ctx, t, 1 if fb is None else fb(ctx), span)
                return advance
            case A.If(branches=branches, orelse=orelse):
                compiled = [(self.expr(c), self.closure_block(b)) for c, b in branches]
                felse = self.closure_block(orelse) if orelse is not None else None
                if len(compiled) == 1:   # (``if C { ... }`` and ``if C { ... } else { ... }``)
                    ((fc1, fb1),) = compiled
                    if felse is None:
                        def if1(ctx: Context) -> None:
                            if fc1(ctx):
                                return fb1(ctx)
                        return if1
                    fe1 = felse

                    def if_else(ctx: Context) -> None:
                        if fc1(ctx):
                            return fb1(ctx)
                        fe1(ctx)
                    return if_else

                def if_(ctx: Context) -> None:
                    for fc, fb in compiled:
                        if fc(ctx):
                            return fb(ctx)
                    if felse is not None:
                        felse(ctx)
                return if_
            case A.For(var=name, domain=d, where=w, body=b):
                fd, fw, fb = self.expr(d), self.expr(w), self.closure_block(b)
                span = s.span

                def for_(ctx: Context) -> None:
                    saved = ctx.env
                    env = dict(saved)  # one binding dict for the loop (see _quant)
                    try:
                        for item in S.domain(ctx, fd(ctx)):
                            env[name] = item
                            ctx.env = env
                            if fw is None or fw(ctx):
                                fb(ctx)
                    except S.BudgetExceeded as err:
                        raise S.at(err, span)
                    finally:
                        ctx.env = saved
                return for_
            case A.Require(cond=c, message=m):
                fc = self.expr(c)
                span = s.span

                def require(ctx: Context) -> None:  # (S.require, inlined: the hottest statement)
                    if not fc(ctx):
                        raise S.RuleViolation(m, ctx.source, span)
                return require
            case A.Choose(var=name, domain=d, where=w, by=by, optional=opt, prompt=p, body=b):
                bid = rs.block_id(b)
                fd, fw, fby = self.expr(d), self.expr(w), player_fn(self.expr(by), chance=True, span=s.span)
                each = None if w is None else self._exprs.filter(w, name)
                span = s.span
                lazy: list[Any] = []   # (lang/lazy.py: worked out on the first listing's run)

                def choose(ctx: Context) -> None:
                    if ctx.lazy and not lazy:
                        from .lazy import where_bound
                        lazy.append(where_bound(rs, s))
                    try:
                        S.choose(ctx, bid, name, fd(ctx), fw, None if fby is None else fby(ctx), opt, p,
                                 lazy[0] if lazy else None, each)
                    except S.BudgetExceeded as err:
                        raise S.at(err, span)
                return choose
            case A.Draw(var=name, bag=bag, body=b):
                bid = rs.block_id(b)
                return lambda ctx: S.draw(ctx, bid, name, bag)
            case A.Emit(event=event, args=args):
                fs = [self.expr(a) for a in args]
                def emit(ctx: Context) -> None:
                    S.emit(ctx, event, [f(ctx) for f in fs])
                return emit
            case A.Run(target=A.Field(obj=o, name=slot), for_=f):
                span = s.span
                fo, ff = self.expr(o), player_fn(self.expr(f), span=span)

                def run(ctx: Context) -> None:
                    try:
                        S.run_slot(ctx, fo(ctx), slot, None if ff is None else ff(ctx), span)
                    except S.TooDeep as err:   # (placed at the innermost run or call)
                        raise S.at(err, span)
                return run
            case A.AfterTurn(body=b):
                bid = rs.block_id(b)
                return lambda ctx: S.after_turn(ctx, bid)
            case A.Queue(body=b):
                bid = rs.block_id(b)
                return lambda ctx: S.queue_block(ctx, bid)
            case A.Take(entity=e) | A.Discard(entity=e):
                fe, span = self.expr(e), s.span
                move = S.take if isinstance(s, A.Take) else S.discard

                def move_entity(ctx: Context) -> None:   # (its refusals placed at the statement)
                    x = fe(ctx)
                    try:
                        move(ctx, x)
                    except S.RuleViolation as err:
                        raise S.at(err, span)
                return move_entity
            case A.Give(entity=e, to=to):
                fe, fto, span = self.expr(e), self.expr(to), s.span

                def give(ctx: Context) -> None:
                    x, p = fe(ctx), fto(ctx)
                    try:
                        S.give(ctx, x, p)
                    except S.RuleViolation as err:
                        raise S.at(err, span)
                return give
            case A.CallStmt(fn=fn, args=args):
                fs = [self.expr(a) for a in args]
                if fn in rs.primitives:
                    span = s.span

                    def call_primitive(ctx: Context) -> None:
                        try:
                            S.call_procedure(ctx, fn, [f(ctx) for f in fs])
                        except S.PrimitiveFailed as err:   # (placed at the call)
                            raise S.at(err, span)
                    return call_primitive
                # (S.call_procedure of a procedure, its parameters' names looked up here; rules
                # too deep placed at the innermost call)
                names = tuple(p.name for p in rs.actions[fn].params)
                run_unit, span = S.run_unit, s.span
                if len(fs) == len(names) == 1:   # (one argument, or none: without the zip)
                    (n0,), (f0,) = names, fs

                    def call1(ctx: Context) -> None:
                        try:
                            run_unit(ctx, rs._action_bodies[fn], ctx.source or fn, env={n0: f0(ctx)})
                        except S.TooDeep as err:
                            raise S.at(err, span)
                    return call1

                def call(ctx: Context) -> None:
                    env = dict(zip(names, [f(ctx) for f in fs]))
                    try:
                        run_unit(ctx, rs._action_bodies[fn], ctx.source or fn, env=env)
                    except S.TooDeep as err:
                        raise S.at(err, span)
                return call
            case A.Pass():
                return S.do_pass
            case A.Use(component=comp):
                return lambda ctx: S.use(ctx, comp)
            case A.Restore(component=comp):
                return lambda ctx: S.restore(ctx, comp)
        raise TypeError(f"cannot compile {s!r}")


def _sum_of(var: str, fx: ExprFn, fd: ExprFn, fw: ExprFn | None) -> ExprFn:
    """``sum E for var in D where C`` from the compiled parts (shared by both back ends)."""
    def sum_of(ctx: Context) -> int:
        saved = ctx.env
        env = dict(saved)  # one binding dict for the loop (see _quant)
        total = 0
        try:
            for item in S.domain(ctx, fd(ctx)):
                env[var] = item
                ctx.env = env
                if fw is None or fw(ctx):
                    total += S._num(ctx, fx(ctx), "sum")
        finally:
            ctx.env = saved
        return S.bounded(ctx, total)
    return sum_of


def _quant(kind: str, var: str, fd: ExprFn, fw: ExprFn | None) -> ExprFn:
    def quant(ctx: Context) -> int | bool:
        saved = ctx.env
        # one binding dict for the whole loop, rebound per item: nothing keeps a reference to
        # ctx.env past an iteration (decisions and deferred blocks copy their bindings, ``let``
        # makes a new dict), so this is the same as a fresh dict per item, without the copies
        env = dict(saved)
        n = 0
        try:
            for item in S.domain(ctx, fd(ctx)):
                env[var] = item
                ctx.env = env
                ok = fw is None or fw(ctx)
                if kind == "any" and ok:
                    return True
                if kind == "all" and not ok:
                    return False
                n += bool(ok)
        finally:
            ctx.env = saved
        return n if kind == "count" else kind == "all"
    return quant


class Interpreter:
    """The same AST evaluated by walking it on every call (the oracle)."""

    def __init__(self, rs: Ruleset) -> None:
        self.rs = rs

    @overload
    def expr(self, e: None) -> None: ...
    @overload
    def expr(self, e: A.Expr) -> ExprFn: ...
    @overload
    def expr(self, e: A.Expr | None) -> ExprFn | None: ...

    def expr(self, e: A.Expr | None) -> ExprFn | None:
        """``fn(ctx) -> value`` evaluating ``e`` on every call (None for None)."""
        if e is None:
            return None
        return lambda ctx: self.eval_root(e, ctx)

    @overload
    def _inner(self, e: None) -> None: ...
    @overload
    def _inner(self, e: A.Expr) -> ExprFn: ...
    @overload
    def _inner(self, e: A.Expr | None) -> ExprFn | None: ...

    def _inner(self, e: A.Expr | None) -> ExprFn | None:
        """A part of an expression (the compiler inlines it: errors are placed at the whole)."""
        return None if e is None else (lambda ctx: self.eval(e, ctx))

    def block(self, block: A.Block) -> BlockFn:
        """``fn(ctx) -> None`` executing ``block`` on every call."""
        return lambda ctx: self.exec_block(block, ctx)

    def stmt(self, s: A.Stmt) -> BlockFn:
        """``fn(ctx) -> None`` executing statement ``s`` on every call."""
        return lambda ctx: self.exec(s, ctx)

    def eval_root(self, e: A.Expr, ctx: Context) -> Value:
        """Evaluate a whole expression; an error raised without a position gets its span (as
        the compiler's generated functions do)."""
        try:
            return self.eval(e, ctx)
        except S.RuleViolation as err:
            raise S.at(err, e.span)

    def eval(self, e: A.Expr, ctx: Context) -> Value:
        ev = self.eval
        match e:
            case A.Int(value=v) | A.Str(value=v) | A.Bool(value=v):
                return v
            case A.NoneLit():
                return None
            case A.Name(id=n):
                return S.load_name(ctx, n)
            case A.Call(fn=fn, args=args):
                return S.call(ctx, fn, [ev(a, ctx) for a in args])
            case A.ListLit(items=items):
                listed = tuple(ev(i, ctx) for i in items)
                return S.nested(ctx, S.sized(ctx, listed) if len(items) > S.FREE_LIST else listed)
            case A.Field(obj=o, name=n):
                return S.field(ctx, ev(o, ctx), n)
            case A.Index(obj=o, index=i):
                return S.index(ctx, ev(o, ctx), ev(i, ctx))
            case A.Of(expr=x, player=p):
                return S.with_me(ctx, ev(p, ctx), lambda: ev(x, ctx))
            case A.Neg(operand=o):
                return -S._num(ctx, ev(o, ctx), "-")
            case A.Not(operand=o):
                return not ev(o, ctx)
            case A.BinOp(op=op, left=l, right=r):
                return S.binop(ctx, op, ev(l, ctx), ev(r, ctx))
            case A.Compare(op=op, left=l, right=r):
                return S.compare(ctx, op, ev(l, ctx), ev(r, ctx))
            case A.Range(low=lo, high=hi):
                return S.rng(ctx, ev(lo, ctx), ev(hi, ctx))
            case A.BoolOp(op="and", items=items):
                return all(ev(i, ctx) for i in items)
            case A.BoolOp(op="or", items=items):
                return any(ev(i, ctx) for i in items)
            case A.Quant(kind=k, var=v, domain=d, where=w):
                return _quant(k, v, self._inner(d), self._inner(w))(ctx)
            case A.SumOf(expr=x, var=v, domain=d, where=w):
                return _sum_of(v, self._inner(x), self._inner(d), self._inner(w))(ctx)
        raise TypeError(f"cannot evaluate {e!r}")

    def amounts(self, am: Amounts, ctx: Context, span: A.Span) -> list[tuple[int, str]]:
        if isinstance(am, A.AmountExpr):
            return S.amounts(ctx, self.eval_root(am.expr, ctx), span)
        out = []
        for a in am:
            n = S._num(ctx, self.eval_root(a.count, ctx), "amount", span)
            if a.per is not None:
                n *= S._num(ctx, self.eval_root(a.per, ctx), "per", span)
            out.append((n, a.resource))
        return out

    def exec_block(self, block: A.Block, ctx: Context) -> None:
        for s in block.stmts:
            self.exec(s, ctx)

    def exec(self, s: A.Stmt, ctx: Context) -> None:
        ev, rs = self.eval_root, self.rs

        def opt(e: A.Expr | None) -> Value:
            return None if e is None else ev(e, ctx)

        def who(e: A.Expr | None, chance: bool = False) -> Value:   # (as player_fn)
            v = None if e is None else ev(e, ctx)
            return v if e is None or chance and v == CHANCE else \
                S.player_at(ctx, v, s.span)
        match s:
            case A.Gain(amounts=am, to=to):
                S.gain(ctx, self.amounts(am, ctx, s.span), who(to))
            case A.Lose(amounts=am, to=to):
                S.lose(ctx, self.amounts(am, ctx, s.span), who(to))
            case A.Pay(amounts=am):
                S.pay(ctx, self.amounts(am, ctx, s.span))
            case A.Set(target=t, value=v):
                var = rs.vars[t.name]
                i, o, x = opt(t.index), who(t.of), ev(v, ctx)
                if id(s) not in rs.proven_sets:   # (tested where the compiler tests it: the
                    x = S.conform(ctx, var, x, s.span)   # budget it charges the same)
                S.set_var(ctx, var, i, o, x)
            case A.Let(name=n, value=v):
                ctx.env = {**ctx.env, n: ev(v, ctx)}
            case A.Advance(track=t, by=by):
                S.advance(ctx, t, 1 if by is None else ev(by, ctx), s.span)
            case A.If(branches=branches, orelse=orelse):
                for cond, block in branches:
                    if ev(cond, ctx):
                        return self.exec_block(block, ctx)
                if orelse is not None:
                    self.exec_block(orelse, ctx)
            case A.For(var=name, domain=d, where=w, body=b):
                saved = ctx.env
                try:
                    for item in S.domain(ctx, ev(d, ctx)):
                        ctx.env = {**saved, name: item}
                        if w is None or ev(w, ctx):
                            self.exec_block(b, ctx)
                except S.BudgetExceeded as err:
                    raise S.at(err, s.span)
                finally:
                    ctx.env = saved
            case A.Require(cond=c, message=m):
                S.require(ctx, ev(c, ctx), m, s.span)
            case A.Choose(var=name, domain=d, where=w, by=by, optional=optional, prompt=p, body=b):
                try:
                    S.choose(ctx, rs.block_id(b), name, ev(d, ctx), self.expr(w), who(by, chance=True), optional, p)
                except S.BudgetExceeded as err:
                    raise S.at(err, s.span)
            case A.Draw(var=name, bag=bag, body=b):
                S.draw(ctx, rs.block_id(b), name, bag)
            case A.Emit(event=event, args=args):
                S.emit(ctx, event, [ev(a, ctx) for a in args])
            case A.Run(target=A.Field(obj=o, name=slot), for_=f):
                try:
                    S.run_slot(ctx, ev(o, ctx), slot, who(f), s.span)
                except S.TooDeep as err:   # (placed at the innermost run or call)
                    raise S.at(err, s.span)
            case A.AfterTurn(body=b):
                S.after_turn(ctx, rs.block_id(b))
            case A.Queue(body=b):
                S.queue_block(ctx, rs.block_id(b))
            case A.Take(entity=e) | A.Discard(entity=e):
                x = ev(e, ctx)   # (its refusals placed at the statement)
                try:
                    (S.take if isinstance(s, A.Take) else S.discard)(ctx, x)
                except S.RuleViolation as err:
                    raise S.at(err, s.span)
            case A.Give(entity=e, to=to):
                x, p = ev(e, ctx), ev(to, ctx)
                try:
                    S.give(ctx, x, p)
                except S.RuleViolation as err:
                    raise S.at(err, s.span)
            case A.CallStmt(fn=fn, args=args):
                try:
                    S.call_procedure(ctx, fn, [ev(a, ctx) for a in args])
                except (S.PrimitiveFailed, S.TooDeep) as err:   # (placed at the call)
                    raise S.at(err, s.span)
            case A.Pass():
                S.do_pass(ctx)
            case A.Use(component=comp):
                S.use(ctx, comp)
            case A.Restore(component=comp):
                S.restore(ctx, comp)
            case _:
                raise TypeError(f"cannot execute {s!r}")
