"""Two back ends for one AST: a closure compiler and a tree-walking interpreter.

Both turn a statement block into ``fn(ctx) -> None`` and an expression into
``fn(ctx) -> value``, and both express every construct through
:mod:`boardrules.lang.semantics`. The compiler resolves names and dispatches once,
when the ruleset is built; the interpreter does it on every evaluation. The test
suite runs random expressions and effects through both and compares.
"""

from __future__ import annotations

import operator

from . import ast as A
from . import semantics as S


class Compiler:
    """AST → Python closures, built once per ruleset.

    ``block_ids`` maps ``id(node)`` of every ``choose``/``draw``/``after turn`` body
    to its number in the ruleset's table of deferred blocks.
    """

    def __init__(self, rs):
        self.rs = rs

    # ---- expressions ----
    def expr(self, e):
        rs = self.rs
        match e:
            case None:
                return None
            case A.Int(value=v) | A.Str(value=v) | A.Bool(value=v):
                return lambda ctx: v
            case A.NoneLit():
                return lambda ctx: None
            case A.Name(id=n):
                return self._name(n)
            case A.Call(fn=fn, args=args):
                fargs = [self.expr(a) for a in args]
                if fn in S.BUILTIN_FUNCTIONS:
                    f = S.BUILTIN_FUNCTIONS[fn]
                    call = _call_with(f, fargs)

                    def builtin(ctx):
                        try:
                            return call(ctx)
                        except (TypeError, ValueError) as err:
                            raise ctx.violation(f"{fn}() failed: {err}") from None
                    return builtin
                return _call_with(rs.primitives[fn].fn, fargs)
            case A.ListLit(items=items):
                fs = [self.expr(i) for i in items]
                return lambda ctx: tuple(f(ctx) for f in fs)
            case A.Field(obj=o, name=n):
                fo = self.expr(o)
                entities = rs.entities

                def field(ctx):
                    obj = fo(ctx)
                    ent = entities.get(obj) if type(obj) is str else None
                    if ent is not None:
                        fields = ent.fields
                        if n in fields:
                            return fields[n]
                    return S.field(ctx, obj, n)  # (raises the violation)
                return field
            case A.Index(obj=o, index=i):
                fo, fi = self.expr(o), self.expr(i)
                var = self._indexed_var(o)
                if var is not None:
                    # ``v[i]`` of a per-hex/per-entity variable: the state key directly (the
                    # same as loading its VarHandle and indexing it, unless a local hides it)
                    name, vname = o.id, var.name
                    default = rs.default_of(("v", vname))
                    if len(var.per) == 2 and var.per[0] == "player":
                        # ``v[i]`` of a variable per player per X: key ("v", v, me, i)
                        def index_mine(ctx):
                            env = ctx.env
                            if name in env:
                                return S.index(ctx, env[name], fi(ctx))
                            i = fi(ctx)
                            key = ("v", vname, ctx.player(), i)
                            w = ctx.w
                            return w[key] if key in w else ctx.base.get(key, default)
                        return index_mine
                    if len(var.per) == 1:
                        def index_one(ctx):
                            env = ctx.env
                            if name in env:
                                return S.index(ctx, env[name], fi(ctx))
                            key = ("v", vname, fi(ctx))
                            w = ctx.w
                            return w[key] if key in w else ctx.base.get(key, default)
                        return index_one

                    def index_var(ctx, _key=S.var_key):
                        env = ctx.env
                        if name in env:
                            return S.index(ctx, env[name], fi(ctx))
                        return ctx.get(_key(ctx, var, fi(ctx)))
                    return index_var
                return lambda ctx: S.index(ctx, fo(ctx), fi(ctx))
            case A.Of(expr=x, player=p):
                fx, fp = self.expr(x), self.expr(p)
                return lambda ctx: S.with_me(ctx, fp(ctx), lambda: fx(ctx))
            case A.Neg(operand=o):
                fo = self.expr(o)
                return lambda ctx: -S._num(ctx, fo(ctx), "-")
            case A.Not(operand=o):
                fo = self.expr(o)
                return lambda ctx: not fo(ctx)
            case A.BinOp(op=op, left=l, right=r):
                fl, fr = self.expr(l), self.expr(r)
                general = _placed(S.binop, e.span)  # its errors (a list or number too large) placed
                if op in _INT_OPS:
                    return _int_fast(_INT_OPS[op], general, op, fl, fr)
                return lambda ctx: general(ctx, op, fl(ctx), fr(ctx))
            case A.Compare(op=op, left=l, right=r):
                fl, fr = self.expr(l), self.expr(r)
                if op == "==":
                    return lambda ctx: fl(ctx) == fr(ctx)
                if op == "!=":
                    return lambda ctx: fl(ctx) != fr(ctx)
                if op in _INT_OPS:
                    return _int_fast(_INT_OPS[op], S.compare, op, fl, fr)
                return lambda ctx: S.compare(ctx, op, fl(ctx), fr(ctx))
            case A.Range(low=lo, high=hi):
                flo, fhi = self.expr(lo), self.expr(hi)
                span = e.span

                def rng(ctx):
                    try:
                        return S.rng(ctx, flo(ctx), fhi(ctx))
                    except S.RuleViolation as err:  # (a range too long)
                        raise S.at(err, span)
                return rng
            case A.BoolOp(op="and", items=items):
                fs = [self.expr(i) for i in items]
                if len(fs) == 2:  # (as all(): short-circuit, a bool)
                    fa, fb = fs
                    return lambda ctx: True if fa(ctx) and fb(ctx) else False

                def and_(ctx):
                    for f in fs:
                        if not f(ctx):
                            return False
                    return True
                return and_
            case A.BoolOp(op="or", items=items):
                fs = [self.expr(i) for i in items]
                if len(fs) == 2:  # (as any(): short-circuit, a bool)
                    fa, fb = fs
                    return lambda ctx: True if fa(ctx) or fb(ctx) else False

                def or_(ctx):
                    for f in fs:
                        if f(ctx):
                            return True
                    return False
                return or_
            case A.Quant(kind=k, var=v, domain=d, where=w):
                fd, fw = self.expr(d), self.expr(w)
                return _quant(k, v, fd, fw, e.span)
            case A.SumOf(expr=x, var=v, domain=d, where=w):
                return _sum_of(v, self.expr(x), self.expr(d), self.expr(w), e.span)
        raise TypeError(f"cannot compile {e!r}")

    def _indexed_var(self, o):
        """The VarDef when ``o`` names a variable indexed by something other than the player."""
        if not isinstance(o, A.Name):
            return None
        try:
            cls, payload = S.classify(self.rs, o.id)
        except S.RuleViolation:
            return None
        if cls == S.VAR and any(p != "player" for p in payload.per):
            return payload
        return None

    def _name(self, n):
        # (the readers below inline Context.get: the overlay, then the committed values, then
        # the key's default, which the ruleset fixes per variable/resource/component)
        rs = self.rs
        try:
            cls, payload = S.classify(rs, n)
        except S.RuleViolation:  # a local binding (parameter, loop variable, let)
            def load_local(ctx):
                env = ctx.env
                return env[n] if n in env else S.load_name(ctx, n)
            return load_local
        # the common classes read their state key directly (as S.load does, unless a local
        # binding hides the name)
        if cls in (S.RESOURCE, S.TRACK, S.COMPONENT):
            tag = {S.RESOURCE: "r", S.TRACK: "t", S.COMPONENT: "c"}[cls]
            default = rs.default_of((tag, payload))

            def load_kept(ctx):
                env = ctx.env
                if n in env:
                    return env[n]
                key = (tag, payload, ctx.player())
                w = ctx.w
                return w[key] if key in w else ctx.base.get(key, default)
            return load_kept
        if cls == S.VAR and payload.per in ((), ("player",)):
            key = ("v", payload.name)
            default = rs.default_of(key)
            if not payload.per:
                def load_global(ctx):
                    env = ctx.env
                    if n in env:
                        return env[n]
                    w = ctx.w
                    return w[key] if key in w else ctx.base.get(key, default)
                return load_global

            def load_mine(ctx):
                env = ctx.env
                if n in env:
                    return env[n]
                k = key + (ctx.player(),)
                w = ctx.w
                return w[k] if k in w else ctx.base.get(k, default)
            return load_mine
        if cls == S.BUILTIN:
            def load_builtin(ctx):
                env = ctx.env
                return env[n] if n in env else payload(ctx)
            return load_builtin
        if cls in (S.OPTION, S.ENTITY, S.KIND):
            value = S.load(None, cls, payload)

            def load_constant(ctx):
                env = ctx.env
                return env[n] if n in env else value
            return load_constant

        def local_or(ctx, _load=S.load, _cls=cls, _payload=payload):
            env = ctx.env
            if n in env:
                return env[n]
            return _load(ctx, _cls, _payload)
        return local_or

    def _amounts(self, am):
        if isinstance(am, A.AmountExpr):
            f = self.expr(am.expr)
            return lambda ctx: S.amounts(ctx, f(ctx))
        parts = [(self.expr(a.count), a.resource, self.expr(a.per)) for a in am]

        def amounts(ctx):
            out = []
            for fc, res, fper in parts:
                n = S._num(ctx, fc(ctx), "amount")
                if fper is not None:
                    n *= S._num(ctx, fper(ctx), "per")
                out.append((n, res))
            return out
        return amounts

    # ---- statements ----
    def block(self, block):
        fs = [self.stmt(s) for s in block.stmts]
        if len(fs) == 1:
            return fs[0]

        def run(ctx):
            for f in fs:
                f(ctx)
        return run

    def stmt(self, s):
        rs = self.rs
        match s:
            case A.Gain(amounts=am, to=to):
                fa, ft = self._amounts(am), self.expr(to)
                return lambda ctx: S.gain(ctx, fa(ctx), None if ft is None else ft(ctx))
            case A.Lose(amounts=am, to=to):
                fa, ft = self._amounts(am), self.expr(to)
                return lambda ctx: S.lose(ctx, fa(ctx), None if ft is None else ft(ctx))
            case A.Pay(amounts=am):
                fa = self._amounts(am)
                return lambda ctx: S.pay(ctx, fa(ctx))
            case A.Set(target=t, value=v):
                var = rs.vars[t.name]
                fi, fo, fv = self.expr(t.index), self.expr(t.of), self.expr(v)
                return lambda ctx: S.set_var(ctx, var, None if fi is None else fi(ctx),
                                             None if fo is None else fo(ctx), fv(ctx))
            case A.Let(name=n, value=v):
                fv = self.expr(v)

                def let(ctx):
                    ctx.env = {**ctx.env, n: fv(ctx)}
                return let
            case A.Advance(track=t, by=by):
                fb = self.expr(by)
                return lambda ctx: S.advance(ctx, t, 1 if fb is None else fb(ctx))
            case A.If(branches=branches, orelse=orelse):
                compiled = [(self.expr(c), self.block(b)) for c, b in branches]
                fe = self.block(orelse) if orelse is not None else None

                def if_(ctx):
                    for fc, fb in compiled:
                        if fc(ctx):
                            return fb(ctx)
                    if fe is not None:
                        fe(ctx)
                return if_
            case A.For(var=v, domain=d, where=w, body=b):
                fd, fw, fb = self.expr(d), self.expr(w), self.block(b)
                span = s.span

                def for_(ctx):
                    saved = ctx.env
                    env = dict(saved)  # one binding dict for the loop (see _quant)
                    try:
                        for item in S.domain(ctx, fd(ctx)):
                            env[v] = item
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
                return lambda ctx: S.require(ctx, fc(ctx), m, span)
            case A.Choose(var=v, domain=d, where=w, by=by, optional=opt, prompt=p, body=b):
                bid = rs.block_id(b)
                fd, fw, fby = self.expr(d), self.expr(w), self.expr(by)
                span = s.span

                def choose(ctx):
                    try:
                        S.choose(ctx, bid, v, fd(ctx), fw, None if fby is None else fby(ctx), opt, p)
                    except S.BudgetExceeded as err:
                        raise S.at(err, span)
                return choose
            case A.Draw(var=v, bag=bag, body=b):
                bid = rs.block_id(b)
                return lambda ctx: S.draw(ctx, bid, v, bag)
            case A.Emit(event=e, args=args):
                fs = [self.expr(a) for a in args]
                return lambda ctx: S.emit(ctx, e, [f(ctx) for f in fs])
            case A.Run(target=A.Field(obj=o, name=slot), for_=f):
                fo, ff = self.expr(o), self.expr(f)
                return lambda ctx: S.run_slot(ctx, fo(ctx), slot, None if ff is None else ff(ctx))
            case A.AfterTurn(body=b):
                bid = rs.block_id(b)
                return lambda ctx: S.after_turn(ctx, bid)
            case A.Take(entity=e):
                fe = self.expr(e)
                return lambda ctx: S.take(ctx, fe(ctx))
            case A.Give(entity=e, to=to):
                fe, ft = self.expr(e), self.expr(to)
                return lambda ctx: S.give(ctx, fe(ctx), ft(ctx))
            case A.Discard(entity=e):
                fe = self.expr(e)
                return lambda ctx: S.discard(ctx, fe(ctx))
            case A.CallStmt(fn=fn, args=args):
                fs = [self.expr(a) for a in args]
                return lambda ctx: S.call_procedure(ctx, fn, [f(ctx) for f in fs])
            case A.Pass():
                return S.do_pass
            case A.Use(component=c):
                return lambda ctx: S.use(ctx, c)
            case A.Restore(component=c):
                return lambda ctx: S.restore(ctx, c)
        raise TypeError(f"cannot compile {s!r}")


def _call_with(f, fargs):
    """``f(ctx, *args)`` with each argument computed by ``fargs``, without a list for 0-3."""
    match fargs:
        case []:
            return lambda ctx: f(ctx)
        case [a]:
            return lambda ctx: f(ctx, a(ctx))
        case [a, b]:
            return lambda ctx: f(ctx, a(ctx), b(ctx))
        case [a, b, c]:
            return lambda ctx: f(ctx, a(ctx), b(ctx), c(ctx))
    return lambda ctx: f(ctx, *[a(ctx) for a in fargs])


_INT_OPS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "<": operator.lt,
            "<=": operator.le, ">": operator.gt, ">=": operator.ge}


def _int_fast(py_op, general, op, fl, fr):
    """``op`` on two ints directly (bools are not ints here); anything else through
    ``general`` (S.binop or S.compare), which checks the operands and names the fault.
    Arithmetic results beyond the numbers rules may use go through ``general`` too."""
    if op in _ARITHMETIC:
        def arith_op(ctx, _max=S.MAX_NUMBER):
            a, b = fl(ctx), fr(ctx)
            if type(a) is int and type(b) is int:
                r = py_op(a, b)
                if -_max <= r <= _max:
                    return r
            return general(ctx, op, a, b)
        return arith_op

    def int_op(ctx):
        a, b = fl(ctx), fr(ctx)
        if type(a) is int and type(b) is int:
            return py_op(a, b)
        return general(ctx, op, a, b)
    return int_op


_ARITHMETIC = frozenset({"+", "-", "*"})


def _placed(f, span):
    """``f(ctx, *args)`` whose errors raised without a position get ``span``."""
    def placed(ctx, *args):
        try:
            return f(ctx, *args)
        except S.RuleViolation as err:
            raise S.at(err, span)
    return placed


def _sum_of(var, fx, fd, fw, span):
    """``sum E for var in D where C`` from the compiled parts (shared by both back ends)."""
    def sum_of(ctx):
        saved = ctx.env
        env = dict(saved)  # one binding dict for the loop (see _quant)
        total = 0
        try:
            for item in S.domain(ctx, fd(ctx)):
                env[var] = item
                ctx.env = env
                if fw is None or fw(ctx):
                    total += S._num(ctx, fx(ctx), "sum")
        except S.BudgetExceeded as err:
            raise S.at(err, span)
        finally:
            ctx.env = saved
        return S.bounded(ctx, total)
    return sum_of


def _quant(kind, var, fd, fw, span):
    def quant(ctx):
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
        except S.BudgetExceeded as err:
            raise S.at(err, span)
        finally:
            ctx.env = saved
        return n if kind == "count" else kind == "all"
    return quant


class Interpreter:
    """The same AST evaluated by walking it on every call (the oracle)."""

    def __init__(self, rs):
        self.rs = rs

    def expr(self, e):
        if e is None:
            return None
        return lambda ctx: self.eval(e, ctx)

    def block(self, block):
        return lambda ctx: self.exec_block(block, ctx)

    def eval(self, e, ctx):
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
                return tuple(ev(i, ctx) for i in items)
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
                try:
                    return S.binop(ctx, op, ev(l, ctx), ev(r, ctx))
                except S.RuleViolation as err:
                    raise S.at(err, e.span)
            case A.Compare(op=op, left=l, right=r):
                return S.compare(ctx, op, ev(l, ctx), ev(r, ctx))
            case A.Range(low=lo, high=hi):
                try:
                    return S.rng(ctx, ev(lo, ctx), ev(hi, ctx))
                except S.RuleViolation as err:
                    raise S.at(err, e.span)
            case A.BoolOp(op="and", items=items):
                return all(ev(i, ctx) for i in items)
            case A.BoolOp(op="or", items=items):
                return any(ev(i, ctx) for i in items)
            case A.Quant(kind=k, var=v, domain=d, where=w):
                return _quant(k, v, self.expr(d), self.expr(w), e.span)(ctx)
            case A.SumOf(expr=x, var=v, domain=d, where=w):
                return _sum_of(v, self.expr(x), self.expr(d), self.expr(w), e.span)(ctx)
        raise TypeError(f"cannot evaluate {e!r}")

    def amounts(self, am, ctx):
        if isinstance(am, A.AmountExpr):
            return S.amounts(ctx, self.eval(am.expr, ctx))
        out = []
        for a in am:
            n = S._num(ctx, self.eval(a.count, ctx), "amount")
            if a.per is not None:
                n *= S._num(ctx, self.eval(a.per, ctx), "per")
            out.append((n, a.resource))
        return out

    def exec_block(self, block, ctx):
        for s in block.stmts:
            self.exec(s, ctx)

    def exec(self, s, ctx):
        ev, rs = self.eval, self.rs
        opt = lambda e: None if e is None else ev(e, ctx)  # noqa: E731
        match s:
            case A.Gain(amounts=am, to=to):
                S.gain(ctx, self.amounts(am, ctx), opt(to))
            case A.Lose(amounts=am, to=to):
                S.lose(ctx, self.amounts(am, ctx), opt(to))
            case A.Pay(amounts=am):
                S.pay(ctx, self.amounts(am, ctx))
            case A.Set(target=t, value=v):
                S.set_var(ctx, rs.vars[t.name], opt(t.index), opt(t.of), ev(v, ctx))
            case A.Let(name=n, value=v):
                ctx.env = {**ctx.env, n: ev(v, ctx)}
            case A.Advance(track=t, by=by):
                S.advance(ctx, t, 1 if by is None else ev(by, ctx))
            case A.If(branches=branches, orelse=orelse):
                for cond, block in branches:
                    if ev(cond, ctx):
                        return self.exec_block(block, ctx)
                if orelse is not None:
                    self.exec_block(orelse, ctx)
            case A.For(var=v, domain=d, where=w, body=b):
                saved = ctx.env
                try:
                    for item in S.domain(ctx, ev(d, ctx)):
                        ctx.env = {**saved, v: item}
                        if w is None or ev(w, ctx):
                            self.exec_block(b, ctx)
                except S.BudgetExceeded as err:
                    raise S.at(err, s.span)
                finally:
                    ctx.env = saved
            case A.Require(cond=c, message=m):
                S.require(ctx, ev(c, ctx), m, s.span)
            case A.Choose(var=v, domain=d, where=w, by=by, optional=o, prompt=p, body=b):
                try:
                    S.choose(ctx, rs.block_id(b), v, ev(d, ctx), self.expr(w), opt(by), o, p)
                except S.BudgetExceeded as err:
                    raise S.at(err, s.span)
            case A.Draw(var=v, bag=bag, body=b):
                S.draw(ctx, rs.block_id(b), v, bag)
            case A.Emit(event=e, args=args):
                S.emit(ctx, e, [ev(a, ctx) for a in args])
            case A.Run(target=A.Field(obj=o, name=slot), for_=f):
                S.run_slot(ctx, ev(o, ctx), slot, opt(f))
            case A.AfterTurn(body=b):
                S.after_turn(ctx, rs.block_id(b))
            case A.Take(entity=e):
                S.take(ctx, ev(e, ctx))
            case A.Give(entity=e, to=to):
                S.give(ctx, ev(e, ctx), ev(to, ctx))
            case A.Discard(entity=e):
                S.discard(ctx, ev(e, ctx))
            case A.CallStmt(fn=fn, args=args):
                S.call_procedure(ctx, fn, [ev(a, ctx) for a in args])
            case A.Pass():
                S.do_pass(ctx)
            case A.Use(component=c):
                S.use(ctx, c)
            case A.Restore(component=c):
                S.restore(ctx, c)
            case _:
                raise TypeError(f"cannot execute {s!r}")
