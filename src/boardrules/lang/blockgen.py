"""Statement blocks compiled to generated Python source (the compiled back end's blocks).

Each block a ruleset runs whole (an action's or procedure's body, a slot body, a trigger's, a
flow ``do`` step's, a track reward's, a deferred ``choose``/``draw``/``after turn``/``queue``
body) becomes one Python function ``fn(ctx) -> None``: its statements in a row, ``if`` and
``for`` as Python ``if`` and ``for``, each expression inlined (:mod:`.codegen`'s source) and
each statement's meaning spelled with the :mod:`.semantics` helpers the closures of
:class:`~.backends.Compiler` call, so the interpreter stays the oracle. Errors are placed as
the closures place them, by one handler around the body that reads the line an error came
from (each expression is evaluated on a line of its own): an error raised without a position
at the expression (as its generated function places it), a budget error at the innermost
``for`` around the line, a primitive's failure at its ``call``.

A block is compiled on its first run (the function's code is swapped in place, so callers keep
the function they hold): a ruleset's build compiles nothing, a game compiles what it runs. The
source is registered with :mod:`linecache` under ``<rules FILE:LINE:COL #N>``, the block's
place. Nothing of the rule files enters the source as code: names and texts appear as
``repr()`` literals, values (spans, variables, compiled statements) as named constants, and
temporaries are the generator's own ``_``-names (rule names match
``[A-Za-z_][A-Za-z0-9_]*`` and appear in code only as a quantifier's ``qN_`` local). A block
nested deeper than Python compiles runs as closures (same meaning, same positions).
"""

from __future__ import annotations

import itertools
import linecache
from types import CodeType, FunctionType
from typing import TYPE_CHECKING, Any

from . import ast as A
from . import semantics as S
from .codegen import _HELPERS, _Gen, _renamed
from .semantics import BlockFn

if TYPE_CHECKING:
    from ..ruleset import Ruleset
    from ..runtime import Context
    from .backends import Compiler

_ids = itertools.count()

_Where = tuple["A.Span | None", "A.Span | None", "A.Span | None"]
"""What places an error raised on a line of a block's function: the span of the expression the
line evaluates, of the innermost ``for`` around it, of the primitive ``call`` it makes."""


def _placed(ctx: Context, err: Exception, where: dict[int, _Where]) -> Exception:
    """``err``, raised on the line of a block's function its traceback names, placed as the
    closures place it (backends.py): an error without a position at the expression evaluated
    there (a Python exception of a primitive it calls as that primitive's failure), then a
    budget error at the innermost ``for`` around the line, a primitive's failure at its
    ``call``, rules too deep at the ``call`` or ``run`` that went past the limit."""
    tb = err.__traceback__   # (its first entry: the block's frame, the line it passed)
    spans = where.get(tb.tb_lineno) if tb is not None else None
    if spans is None:
        return err
    expr, loop, call = spans
    if not isinstance(err, S.RuleViolation):
        return err if expr is None else S.primitive_failed(ctx, err, None, expr)  # type: ignore[return-value]
    if expr is not None:
        S.at(err, expr)
    if loop is not None and isinstance(err, S.BudgetExceeded):
        S.at(err, loop)
    if call is not None and isinstance(err, (S.PrimitiveFailed, S.TooDeep)):
        S.at(err, call)
    return err


_STMT_HELPERS: dict[str, object] = {
    "_placed": _placed,
    "_BudgetExceeded": S.BudgetExceeded, "_PrimitiveFailed": S.PrimitiveFailed,
    "_set_var": S.set_var, "_conform": S.conform, "_player_at": S.player_at, "_keyed": S.keyed, "_advance": S.advance, "_amounts": S.amounts, "_gain": S.gain,
    "_lose": S.lose, "_pay": S.pay, "_run_unit": S.run_unit, "_call_procedure": S.call_procedure,
    "_emit": S.emit, "_run_slot": S.run_slot, "_take": S.take, "_give": S.give,
    "_discard": S.discard, "_do_pass": S.do_pass, "_use": S.use, "_restore": S.restore,
    "_after_turn": S.after_turn, "_queue_block": S.queue_block, "_draw": S.draw,
}

# the function a block starts as: its first call compiles the block and swaps the code in
_STUB: CodeType = compile("def rule_block(ctx):\n    return _build(ctx)\n", "<rules stub>",
                          "exec").co_consts[0]


class BlockCompiler:
    """AST block → generated function, for one ruleset (its closures: ``closures``, the
    compiler whose ``stmt`` a guard runs and whose ``choose`` this code calls)."""

    def __init__(self, rs: Ruleset, closures: Compiler) -> None:
        self.rs = rs
        self.closures = closures
        self._codes: dict[str, CodeType] = {}   # source → its code (alike blocks compile once)

    def block(self, block: A.Block) -> BlockFn:
        """``fn(ctx) -> None`` running ``block``, compiled on its first call."""
        ns: dict[str, Any] = dict(_HELPERS)
        ns.update(_STMT_HELPERS)
        fn = FunctionType(_STUB, ns, "rule_block")

        def build(ctx: Any) -> None:
            code = self._code(block, ns)
            if code is None:   # (too deep for Python's compiler: the closures run it)
                ns["_build"] = self.closures.closure_block(block)
            else:
                fn.__code__ = code
            return fn(ctx)   # type: ignore[no-any-return]
        ns["_build"] = build
        return fn   # type: ignore[return-value]

    def source(self, block: A.Block, ns: dict[str, Any]) -> str:
        """The Python source of ``block``'s function (its constants put in ``ns``)."""
        gen = _StmtGen(self.rs, ns, self.closures)
        gen.block(block, 2)
        # one handler places every error by the line it came from (see _placed)
        return ("def rule_block(ctx):\n    try:\n" + "\n".join(gen.lines)
                + f"\n    except Exception as err:\n        raise _placed(ctx, err, {gen.const(gen.where)})\n")

    def _code(self, block: A.Block, ns: dict[str, Any]) -> CodeType | None:
        try:
            src = self.source(block, ns)
        except RecursionError:
            return None
        span = block.stmts[0].span if block.stmts else block.span
        filename = f"<rules {span.file}:{span.line}:{span.column} #{next(_ids)}>"
        code = self._codes.get(src)
        if code is None:
            try:
                code = self._codes[src] = compile(src, filename, "exec")
            except (SyntaxError, RecursionError, MemoryError):
                return None   # (nested deeper than Python's compiler allows)
        else:
            code = _renamed(code, filename)
        linecache.cache[filename] = (len(src), None, src.splitlines(True), filename)
        fn_code = next(c for c in code.co_consts if isinstance(c, CodeType))
        return fn_code


class _StmtGen:
    """The lines of one block's function (see the module's docstring)."""

    def __init__(self, rs: Ruleset, ns: dict[str, Any], closures: Compiler) -> None:
        self.rs = rs
        self.expr = _Gen(rs, ns)
        self.closures = closures
        self.lines: list[str] = []
        self.where: dict[int, _Where] = {}   # line → what places an error raised there
        self.loops: list[A.Span] = []   # the ``for``s around the lines being written
        self._n = 0

    def line(self, ind: int, text: str, expr: A.Span | None = None,
             call: A.Span | None = None) -> None:
        """Write a line; ``expr``: the expression it evaluates (it holds one at most), ``call``:
        the primitive or procedure call (or slot ``run``) it makes."""
        loop = self.loops[-1] if self.loops else None
        if expr is not None or loop is not None or call is not None:
            self.where[len(self.lines) + 3] = (expr, loop, call)   # (after the def and try)
        self.lines.append("    " * ind + text)

    def placed(self, text: str, span: A.Span, ind: int) -> None:
        """Write a statement's call whose refusals without a position of their own are placed
        at the statement (take, give, discard: what is no entity, no player, another's entity),
        as the closures place them (backends.py)."""
        self.line(ind, "try:")
        self.line(ind + 1, text)
        self.line(ind, "except _RuleViolation as err:")
        self.line(ind + 1, f"raise _at(err, {self.const(span)})")

    def tmp(self, stem: str) -> str:
        self._n += 1
        return f"_{stem}{self._n}"

    def const(self, value: object) -> str:
        return self.expr.const(value)

    def value(self, e: A.Expr, ind: int, call: A.Span | None = None) -> str:
        """A name (or literal) holding ``e``'s value, evaluated on a line of its own (an error
        raised there without a position is placed at ``e``, as its generated function does)."""
        if isinstance(e, (A.Int, A.Str, A.Bool, A.NoneLit)):
            return self.expr.gen(e, {})
        t = self.tmp("e")
        self.line(ind, f"{t} = {self.expr.gen(e, {})}", expr=e.span, call=call)
        return t

    def me(self, ind: int) -> str:
        """A name holding ``ctx.player()`` (its test of ``me`` inlined, as codegen's reads)."""
        me = self.tmp("me")
        self.line(ind, f"{me} = ctx.me")
        self.line(ind, f"if type({me}) is not int or not 0 <= {me} < ctx.np:")
        self.line(ind + 1, f"{me} = ctx.player()")   # (raises the violation)
        return me

    def number(self, e: A.Expr, what: str, ind: int, span: A.Span) -> str:
        """A name holding ``e``'s value checked a number (S._num, its common case inlined),
        refused at ``span`` (the statement's)."""
        x = self.value(e, ind)
        n = self.tmp("n")
        self.line(ind, f"{n} = {x} if type({x}) is int else _num(ctx, {x}, {what!r}, {self.const(span)})")
        return n

    def opt(self, e: A.Expr | None, ind: int) -> str:
        return "None" if e is None else self.value(e, ind)

    def who(self, e: A.Expr | None, ind: int, span: A.Span) -> str:
        """A ``to``, ``of`` or ``for`` player: none there is an error (backends.player_fn),
        placed at ``span`` (the statement's)."""
        return "None" if e is None else f"_player_at(ctx, {self.value(e, ind)}, {self.const(span)})"

    def block(self, block: A.Block, ind: int) -> None:
        if not block.stmts:
            self.line(ind, "pass")
        for s in block.stmts:
            self.stmt(s, ind)

    def stmt(self, s: A.Stmt, ind: int) -> None:
        rs, line, value = self.rs, self.line, self.value
        match s:
            case A.Gain(amounts=am, to=to) | A.Lose(amounts=am, to=to):
                self.change(s, am, to, ind)
            case A.Pay(amounts=am):
                self.change(s, am, None, ind)
            case A.Set(target=t, value=v):
                var = rs.vars[t.name]
                i, o = self.opt(t.index, ind), self.who(t.of, ind, s.span)
                x = value(v, ind)
                if id(s) not in rs.proven_sets:   # (its value tested when it runs)
                    x = f"_conform(ctx, {self.const(var)}, {x}, {self.const(s.span)})"
                if t.of is not None:
                    line(ind, f"_set_var(ctx, {self.const(var)}, {i}, {o}, {x})")
                    return
                # (S.set_var's key, S.var_key worked out here, Context.set inlined)
                key = ["'v'", repr(var.name)]
                for per in var.per:
                    if per == "player":
                        key.append(self.me(ind))
                    else:
                        if i != "None":
                            line(ind, f"if type({i}) is tuple or type({i}) is frozenset:")
                            line(ind + 1, f"_keyed(ctx, {i})")
                        key.append(i)
                line(ind, f"ctx.w[({', '.join(key)},)] = {x}")
            case A.Let(name=n, value=v):
                x = value(v, ind)
                line(ind, f"ctx.env = {{**ctx.env, {n!r}: {x}}}")
                self.expr.sure |= {n}
            case A.Advance(track=t, by=by):
                line(ind, f"_advance(ctx, {t!r}, {'1' if by is None else value(by, ind)}, {self.const(s.span)})")
            case A.If(branches=branches, orelse=orelse):
                self.if_(branches, orelse, ind)
            case A.For(var=name, domain=d, where=w, body=b):
                saved, env, item = self.tmp("saved"), self.tmp("env"), self.tmp("item")
                line(ind, f"{saved} = ctx.env")
                line(ind, f"{env} = dict({saved})")   # (one binding dict: backends.py's for)
                self.loops.append(s.span)   # (its budget errors placed at the loop)
                line(ind, "try:")
                dom = value(d, ind + 1)
                line(ind + 1, f"for {item} in _dom(ctx, {dom}):")
                line(ind + 2, f"{env}[{name!r}] = {item}")
                line(ind + 2, f"ctx.env = {env}")
                outside = self.expr.sure   # (the loop's variable and 'let's hold inside it)
                self.expr.sure |= {name}
                if w is None:
                    self.block(b, ind + 2)
                else:
                    line(ind + 2, f"if {self.expr.gen(w, {})}:", expr=w.span)
                    self.block(b, ind + 3)
                self.expr.sure = outside
                self.loops.pop()
                line(ind, "finally:")
                line(ind + 1, f"ctx.env = {saved}")
            case A.Require(cond=c, message=m):
                line(ind, f"if not {self.expr.gen(c, {})}:", expr=c.span)
                line(ind + 1, f"raise _RuleViolation({m!r}, ctx.source, {self.const(s.span)})")
            case A.Emit(event=event, args=args):
                xs = [value(a, ind) for a in args]
                line(ind, f"_emit(ctx, {event!r}, [{', '.join(xs)}])")
            case A.Run(target=A.Field(obj=o, name=slot), for_=f):
                x = value(o, ind)
                who = self.who(f, ind, s.span)
                line(ind, f"_run_slot(ctx, {x}, {slot!r}, {who}, {self.const(s.span)})", call=s.span)
            case A.AfterTurn(body=b):
                line(ind, f"_after_turn(ctx, {rs.block_id(b)})")
            case A.Queue(body=b):
                line(ind, f"_queue_block(ctx, {rs.block_id(b)})")
            case A.Draw(var=name, bag=bag, body=b):
                line(ind, f"_draw(ctx, {rs.block_id(b)}, {name!r}, {bag!r})")
            case A.Take(entity=e):
                self.placed(f"_take(ctx, {value(e, ind)})", s.span, ind)
            case A.Give(entity=e, to=to):
                x = value(e, ind)
                self.placed(f"_give(ctx, {x}, {value(to, ind)})", s.span, ind)
            case A.Discard(entity=e):
                self.placed(f"_discard(ctx, {value(e, ind)})", s.span, ind)
            case A.CallStmt(fn=fn, args=args):
                self.call(s, fn, args, ind)
            case A.Pass():
                line(ind, "_do_pass(ctx)")
            case A.Use(component=comp):
                line(ind, f"_use(ctx, {comp!r})")
            case A.Restore(component=comp):
                line(ind, f"_restore(ctx, {comp!r})")
            case _:   # choose (its lazy filter: backends.py) and anything else: the closure
                line(ind, f"{self.const(self.closures.stmt(s))}(ctx)")

    def change(self, s: A.Gain | A.Lose | A.Pay, am: Any, to: A.Expr | None, ind: int) -> None:
        """``gain``/``lose``/``pay``, as backends.py's ``_change`` does them."""
        line, value = self.line, self.value
        if isinstance(am, A.AmountExpr) or len(am) != 1 or am[0].per is not None:
            if isinstance(am, A.AmountExpr):
                pairs = self.tmp("am")
                line(ind, f"{pairs} = _amounts(ctx, {value(am.expr, ind)}, {self.const(s.span)})")
            else:
                parts = []
                for a in am:
                    n = self.number(a.count, "amount", ind, s.span)
                    if a.per is not None:
                        line(ind, f"{n} *= {self.number(a.per, 'per', ind, s.span)}")
                    parts.append(f"({n}, {a.resource!r})")
                pairs = f"[{', '.join(parts)}]"
            if isinstance(s, A.Pay):
                line(ind, f"_pay(ctx, {pairs})")
            else:
                many = "_gain" if isinstance(s, A.Gain) else "_lose"
                line(ind, f"{many}(ctx, {pairs}, {self.who(to, ind, s.span)})")
            return
        res, count = am[0].resource, am[0].count
        n = repr(count.value) if isinstance(count, A.Int) else self.number(count, "amount", ind, s.span)
        if isinstance(s, A.Pay):
            line(ind, f"ctx.pay({res!r}, {n})")
            return
        method = "gain" if isinstance(s, A.Gain) else "lose"
        line(ind, f"ctx.{method}({res!r}, {n}, {self.who(to, ind, s.span)})")

    def if_(self, branches: tuple[tuple[A.Expr, A.Block], ...], orelse: A.Block | None,
            ind: int) -> None:
        (cond, body), rest = branches[0], branches[1:]
        before = self.expr.sure   # (a branch's 'let's may not have run after the 'if')
        self.line(ind, f"if {self.expr.gen(cond, {})}:", expr=cond.span)
        self.block(body, ind + 1)
        self.expr.sure = before
        if rest or orelse is not None:
            self.line(ind, "else:")
            if rest:
                self.if_(rest, orelse, ind + 1)
            else:
                assert orelse is not None
                self.block(orelse, ind + 1)
                self.expr.sure = before

    def call(self, s: A.CallStmt, fn: str, args: tuple[A.Expr, ...], ind: int) -> None:
        rs, line = self.rs, self.line
        if fn in rs.primitives:
            xs = [self.value(a, ind, call=s.span) for a in args]
            line(ind, f"_call_procedure(ctx, {fn!r}, [{', '.join(xs)}])", call=s.span)
            return
        xs = [self.value(a, ind) for a in args]
        names = [p.name for p in rs.actions[fn].params]
        env = ", ".join(f"{n!r}: {x}" for n, x in zip(names, xs))
        line(ind, f"_run_unit(ctx, {self.const(rs)}._action_bodies[{fn!r}], ctx.source or {fn!r}, "
                  f"None, {{{env}}})", call=s.span)
