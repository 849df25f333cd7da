"""Rule expressions compiled to generated Python source (the compiled back end's expressions).

Each expression of a ruleset becomes one Python function ``fn(ctx) -> value`` whose body is a
single Python expression: comparisons, ``and``/``or``, constants, field reads and the loops of
``any``/``all``/``count``/``sum`` run inline instead of as one closure call per AST node. The
meaning of every construct stays in :mod:`boardrules.lang.semantics` (the helpers below call
it for everything but the plain cases), so the interpreter remains the oracle the property
tests compare against.

The variable of a quantifier or ``sum`` is a Python local of the generator it drives (the
closure compiler put it in ``ctx.env``); a name bound by a rule (parameter, ``for``, ``let``,
``choose``) is still read from ``ctx.env`` first, so locals hide game names exactly as before.
The source is registered with :mod:`linecache` under ``<rules FILE:LINE:COL>``, so a traceback
through a rule shows the generated line. Nothing of the rule files enters the source as code:
texts and names appear only as ``repr()`` literals, values as named constants, and a
quantifier's variable as the suffix of a ``qN_`` identifier (rule names match
``[A-Za-z_][A-Za-z0-9_]*``).
"""

from __future__ import annotations

import contextlib
import itertools
import linecache
import operator
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextvars import ContextVar
from types import CodeType
from typing import TYPE_CHECKING, Any, cast, overload

from ..limits import LIMITS
from . import ast as A
from . import semantics as S
from ..primitives import NOT_BATCHED, Primitive
from ..quoting import brief_value
from ..runtime import F_PASSED, F_ROUND, MISSING
from .semantics import ExprFn, FilterFn, Key, Value

if TYPE_CHECKING:
    from ..ruleset import Ruleset
    from ..runtime import Context
    from .checker import EntityDef, VarDef

_ids = itertools.count()


# ---- helpers the generated code calls (named in every function's globals) -----------------------

def _rv(ctx: Context, key: Key, default: Value) -> Value:
    """``ctx.get(key)`` with the key's default known in advance."""
    w = ctx.w
    if key in w:
        return w[key]
    return ctx.base.get(key, default)


def _rv_own(ctx: Context, tag: str, name: str, default: Value) -> Value:
    """``ctx.get((tag, name, me))`` (a resource, track, supply or per-player variable of
    ``me``) with its default known; ``ctx.player()``'s test of ``me`` inlined."""
    me = ctx.me
    if type(me) is not int or not 0 <= me < ctx.np:
        me = ctx.player()   # (raises the violation)
    key = (tag, name, me)
    w = ctx.w
    if key in w:
        return w[key]
    return ctx.base.get(key, default)


def _rv_mine(ctx: Context, vname: str, i: Value, default: Value) -> Value:
    """``v[i]`` of a variable kept per player per hex/entity: key ("v", v, me, i)."""
    me = ctx.me
    if type(me) is not int or not 0 <= me < ctx.np:
        me = ctx.player()   # (raises the violation)
    if type(i) is tuple or type(i) is frozenset:
        S.keyed(ctx, i)
    key = ("v", vname, me, i)
    w = ctx.w
    if key in w:
        return w[key]
    return ctx.base.get(key, default)


def _rv_at(ctx: Context, vname: str, i: Value, default: Value) -> Value:
    """``v[i]`` of a variable kept per hex/entity: key ("v", v, i) (a list as ``i`` costs its
    size: hashing it walks it)."""
    if type(i) is tuple or type(i) is frozenset:
        S.keyed(ctx, i)
    key = ("v", vname, i)
    w = ctx.w
    if key in w:
        return w[key]
    return ctx.base.get(key, default)


def _own_key(ctx: Context, tag: str, name: str) -> Key:
    """``(tag, name, me)``, the key of ``me``'s own value, where ``me`` is no player of the
    game: ``ctx.player()`` raises the violation (the inline read's slow way)."""
    return (tag, name, ctx.player())


def _at_key(ctx: Context, vname: str, i: Value) -> Key:
    """``("v", vname, i)`` for an index ``i`` that is a list or set: charged its size first
    (hashing it walks it)."""
    return ("v", vname, S.keyed(ctx, i))


def _mine_key(ctx: Context, vname: str, i: Value) -> Key:
    """``("v", vname, me, i)`` the slow way: ``me`` checked (raises the violation), then a list
    or set as ``i`` charged its size (as :func:`semantics.var_key`)."""
    me = ctx.player()
    return ("v", vname, me, S.keyed(ctx, i))


def _index_var(ctx: Context, var: VarDef, i: Value) -> Value:
    return ctx.get(S.var_key(ctx, var, i))


def _field(ctx: Context, obj: Value, name: str, entities: Mapping[str, EntityDef]) -> Value:
    ent = entities.get(obj) if type(obj) is str else None
    if ent is not None:
        v = ent.fields.get(name, MISSING)
        if v is not MISSING:
            return v
    return S.field(ctx, obj, name)  # (raises the violation)


def _builtin(ctx: Context, fn: str, f: Callable[..., Value], *args: Value) -> Value:
    """Built-in function ``fn`` (``f``) on arguments already computed (as the interpreter does);
    Python's TypeError/ValueError become a rule violation."""
    try:
        return f(ctx, *args)
    except (TypeError, ValueError) as err:
        raise S.builtin_failed(ctx, fn, args, err) from None


def _member(ctx: Context, a: Value, b: Value) -> bool:
    """``a in b`` (:func:`semantics.compare`'s ``in``), its common case at once: a number or a
    short text in a list, charged the list's length."""
    ta = type(a)
    if type(b) is tuple and (ta is int or ta is str and len(a) < 64):   # type: ignore[arg-type]
        steps = ctx.steps = ctx.steps - len(b)
        if steps < 0:
            raise ctx.over_budget()
        return a in b
    return S.compare(ctx, "in", a, b)


def _holds(ctx: Context, e: Value) -> Value:
    """``holds(e)`` (the built-in) at once for an entity's name (an owner's default is none);
    anything else as the built-in does it."""
    if type(e) is str:
        key = ("o", e)
        w = ctx.w
        owner = w[key] if key in w else ctx.base.get(key)
        if owner is None and e not in ctx.rs.entities:   # (only an entity has an owner)
            return _builtin(ctx, "holds", S.BUILTIN_FUNCTIONS["holds"], e)
        me = ctx.me
        if type(me) is not int or not 0 <= me < ctx.np:
            me = ctx.player()   # (raises the violation)
        return owner == me
    return _builtin(ctx, "holds", S.BUILTIN_FUNCTIONS["holds"], e)


def _passed(ctx: Context, p: Value) -> Value:
    """``passed(p)`` (the built-in) at once for a player's number (every main action of
    Eclipse asks it of ``me`` first); anything else as the built-in does it."""
    if type(p) is int and 0 <= p < ctx.np:
        w = ctx.w
        got = w[F_PASSED] if w and F_PASSED in w else ctx.base.get(F_PASSED)   # (its default: none)
        return p in (got or ())
    return _builtin(ctx, "passed", S.BUILTIN_FUNCTIONS["passed"], p)


def _len(ctx: Context, x: Value) -> Value:
    """``len(x)`` (the built-in) at once for a list: its length charged as the built-in's
    :func:`semantics.domain` charges it; anything else as the built-in does it."""
    if type(x) is tuple:
        n = len(x)
        steps = ctx.steps = ctx.steps - n
        if steps < 0:
            raise ctx.over_budget()
        return n
    return _builtin(ctx, "len", S.BUILTIN_FUNCTIONS["len"], x)


def _first(ctx: Context, x: Value) -> Value:
    """``first(x)`` (the built-in) at once for a list, charged as the built-in charges it (its
    length, and again when it is not empty: it walks the list's domain twice); anything else
    as the built-in does it."""
    if type(x) is tuple:
        n = len(x)
        steps = ctx.steps = ctx.steps - n
        if steps < 0:
            raise ctx.over_budget()
        if not n:
            return None
        steps = ctx.steps = steps - n
        if steps < 0:
            raise ctx.over_budget()
        return x[0]
    return _builtin(ctx, "first", S.BUILTIN_FUNCTIONS["first"], x)


def _owner(ctx: Context, e: Value) -> Value:
    """``owner(e)`` (the built-in) at once for an entity's name; anything else as the built-in
    does it."""
    if type(e) is str:
        key = ("o", e)
        w = ctx.w
        owner = w[key] if key in w else ctx.base.get(key)
        if owner is not None or e in ctx.rs.entities:   # (only an entity has an owner)
            return owner
    return _builtin(ctx, "owner", S.BUILTIN_FUNCTIONS["owner"], e)


def _held(ctx: Context, kind: Value) -> Value:
    """``held(kind)`` (the built-in) without the generic call's packing of its arguments."""
    try:
        return S._held(ctx, kind)
    except (TypeError, ValueError) as err:
        raise S.builtin_failed(ctx, "held", (kind,), err) from None


def _field_of(ctx: Context, e: Value, name: Value) -> Value:
    """``field(e, name)`` (the built-in) at once for an entity that has the field (an entity's
    fields are constants); anything else as the built-in does it."""
    if type(e) is str and type(name) is str:
        ent = ctx.rs.entities.get(e)
        if ent is not None:
            v = ent.fields.get(name, MISSING)
            if v is not MISSING:
                return v
    return _builtin(ctx, "field", S.BUILTIN_FUNCTIONS["field"], e, name)


def _pair_builtin(fn: str) -> Callable[[Context, Value, Value], Value]:
    """``min(a, b)`` / ``max(a, b)`` of two whole numbers at once (what the built-in charges
    for them is nothing: numbers cost no steps); anything else as the built-in does it."""
    f = S.BUILTIN_FUNCTIONS[fn]
    if fn == "min":
        def pair(ctx: Context, a: Value, b: Value) -> Value:
            if type(a) is int and type(b) is int:
                return a if a <= b else b
            return _builtin(ctx, fn, f, a, b)
    else:
        def pair(ctx: Context, a: Value, b: Value) -> Value:
            if type(a) is int and type(b) is int:
                return a if a >= b else b
            return _builtin(ctx, fn, f, a, b)
    return pair


def _abs(ctx: Context, x: Value) -> Value:
    """``abs(x)`` of a whole number at once; anything else as the built-in does it."""
    if type(x) is int:
        return abs(x)
    return _builtin(ctx, "abs", S.BUILTIN_FUNCTIONS["abs"], x)


def _int_op(op: str, py: Callable[[int, int], Any]) -> Callable[[Context, Value, Value], Value]:
    if op == "+":   # (two lists joined too: as S.binop, without its tests of the numbers)
        def add(ctx: Context, a: Value, b: Value, _max: int = S.MAX_NUMBER) -> Value:
            ta = type(a)
            if ta is int and type(b) is int:
                r = py(a, b)
                if -_max <= r <= _max:
                    return r
            elif ta is tuple and type(b) is tuple:
                return S.nested(ctx, S.sized(ctx, a + b))
            return S.binop(ctx, op, a, b)
        return add
    if op in "-*":  # results beyond the numbers rules may use go to S.binop, which refuses them
        def arith(ctx: Context, a: Value, b: Value, _max: int = S.MAX_NUMBER) -> Value:
            if type(a) is int and type(b) is int:
                r = py(a, b)
                if -_max <= r <= _max:
                    return r
            return S.binop(ctx, op, a, b)
        return arith
    if op in ("//", "%"):   # (a zero divisor goes to S.binop, which refuses it)
        def div(ctx: Context, a: Value, b: Value) -> Value:
            if type(a) is int and type(b) is int and b:
                return py(a, b)
            return S.binop(ctx, op, a, b)
        return div

    def f(ctx: Context, a: Value, b: Value) -> Value:
        if type(a) is int and type(b) is int:
            return py(a, b)
        return S.compare(ctx, op, a, b)
    return f


_CHECKING_BATCHES: ContextVar[bool] = ContextVar("checking_batches", default=False)


@contextlib.contextmanager
def checking_batches() -> Iterator[None]:
    """Within it, each batch form's answers are held to the primitive's own (:func:`_each`):
    the engine reruns so an action listed as legal whose play broke a rule, to name a batch
    form that answered wrong values (one call per option: never on the way of play)."""
    token = _CHECKING_BATCHES.set(True)
    try:
        yield
    finally:
        _CHECKING_BATCHES.reset(token)


def _each(ctx: Context, prim: Primitive, opts: Sequence[Value], *args: Value) -> Sequence[Value]:
    """Pure primitive ``prim``'s batch form asked for options ``opts`` (primitives.batched):
    its answers, or NOT_BATCHED for every option when it breaks its promise (raises, answers
    for another number of options or in what is not a list or tuple: a dict's keys or a text's
    letters were taken for answers): each is then asked of the primitive itself, as without a
    batch form. Wrong answers in a list of the right length are found only within
    :func:`checking_batches`."""
    try:
        got = prim.batch(ctx, opts, *args)   # type: ignore[misc]
        if not (isinstance(got, (list, tuple)) and len(got) == len(opts)):
            got = None
    except Exception:   # (the calls then raise, where the rules ask them)
        got = None
    if got is None:
        return (NOT_BATCHED,) * len(opts)
    if _CHECKING_BATCHES.get():
        _check_batch(ctx, prim, opts, args, got)
    return got   # type: ignore[no-any-return]


def _sure(prim: Primitive, got: Sequence[Value]) -> bool:
    """Whether each answer of ``prim``'s batch form in ``got`` (of :func:`_each`) is what the
    checked call answers (no NOT_BATCHED; each passes the primitive's return check, plugins.py
    ``_checked``), tested over the list at once: a filter then uses them without a test per
    option (ExprCompiler.filter)."""
    check = getattr(prim.fn, "inline", None)
    if check is None:   # (no return check: any answer but NOT_BATCHED is the call's)
        return not any(map(operator.is_, got, itertools.repeat(NOT_BATCHED)))
    kinds = set(map(type, got))
    if check.types is None:   # (plain ints within the rules' numbers)
        return kinds <= _INT_ONLY and (not got or -S.MAX_NUMBER <= min(got) and max(got) <= S.MAX_NUMBER)
    return all(issubclass(k, check.types) for k in kinds)


_INT_ONLY = frozenset({int})


def _check_batch(ctx: Context, prim: Primitive, opts: Sequence[Value], args: tuple[Value, ...],
                 got: Sequence[Value]) -> None:
    """``PrimitiveFailed`` naming ``prim`` at the first option whose batch answer (in ``got``)
    is not what the primitive's call answers (a call that raises is not compared: the batch
    form may answer options the rules do not ask of)."""
    for o, answer in zip(opts, got):
        if answer is NOT_BATCHED:
            continue
        try:
            want = prim.fn(ctx, o, *args)
        except Exception:
            continue
        if answer != want or type(answer) is not type(want):
            raise S.PrimitiveFailed(
                f"primitive '{prim.name}': its batch form answered {brief_value(answer)} for "
                f"{brief_value(o)} where the primitive answers {brief_value(want)} (a defect of "
                f"the plugin that provides it, not a rule broken)", ctx.source)


_HELPERS: dict[str, object] = {
    "_rv": _rv, "_rv_own": _rv_own, "_rv_mine": _rv_mine, "_rv_at": _rv_at, "_index_var": _index_var, "_field": _field,
    "_own_key": _own_key, "_at_key": _at_key, "_mine_key": _mine_key,
    "_builtin": _builtin, "_member": _member, "_holds": _holds, "_len": _len, "_first": _first,
    "_owner": _owner, "_field_of": _field_of, "_held": _held, "_min2": _pair_builtin("min"), "_max2": _pair_builtin("max"), "_abs": _abs,
    "_load_name": S.load_name, "_load": S.load, "_index": S.index,
    "_with_me": S.with_me, "_num": S._num, "_bounded": S.bounded, "_binop": S.binop, "_compare": S.compare, "_eq": S.equal, "_sized": S.sized, "_nested": S.nested,
    "_rng": S.rng, "_LIMITS": LIMITS, "_dom": S.domain, "_RuleViolation": S.RuleViolation, "_at": S.at,
    "_foreign": S.primitive_failed,
    "_add": _int_op("+", int.__add__), "_sub": _int_op("-", int.__sub__),
    "_mul": _int_op("*", int.__mul__), "_lt": _int_op("<", int.__lt__),
    "_le": _int_op("<=", int.__le__), "_gt": _int_op(">", int.__gt__),
    "_ge": _int_op(">=", int.__ge__), "_floordiv": _int_op("//", int.__floordiv__),
    "_mod": _int_op("%", int.__mod__), "_each": _each, "_sure": _sure, "_NB": NOT_BATCHED,
}
# a range of two numbers written in the rule and fewer numbers than this is made once, when compiled
_CONST_RANGE = 64
# built-ins with a helper of their own (name -> its arguments): their common case at once
_QUICK_BUILTINS = {"holds": 1, "len": 1, "first": 1, "owner": 1, "held": 1, "field": 2}
_INT_OPS = {"+": "_add", "-": "_sub", "*": "_mul", "<": "_lt", "<=": "_le", ">": "_gt", ">=": "_ge",
            "//": "_floordiv", "%": "_mod"}


def _small_constant(e: A.Expr) -> bool:
    """A number, truth value, none or short text written in the rule: comparing anything with
    it takes no time to speak of (so it is not charged; see :func:`semantics.equal`)."""
    return isinstance(e, (A.Int, A.Bool, A.NoneLit)) or (isinstance(e, A.Str) and len(e.value) < 64)


def _not_a_list(e: A.Expr) -> bool:
    """Whether ``e``'s value is surely no list (a constant, a truth value, a number computed),
    so a list written with it as an element needs no :func:`semantics.nested` check."""
    return isinstance(e, (A.Int, A.Str, A.Bool, A.NoneLit, A.Compare, A.Not, A.BoolOp, A.Neg,
                          A.Quant, A.SumOf)) or isinstance(e, A.BinOp) and e.op != "+"


def _truth(e: A.Expr) -> bool:
    """A comparison, ``not`` or ``and``/``or``: its value is a truth value, and comparing
    anything with one takes no time to speak of (:func:`semantics.equal` charges only two
    texts or two lists)."""
    return isinstance(e, (A.Compare, A.Not, A.BoolOp))


class ExprCompiler:
    """AST expression → generated function, for one ruleset."""

    def __init__(self, rs: Ruleset) -> None:
        self.rs = rs
        # source → its code: half of a game's expressions read alike (the same shape, other
        # constants in their own globals) and compiling is most of the cost of generating
        self._codes: dict[str, CodeType] = {}

    @overload
    def compile(self, e: None, bound: frozenset[str] | None = None,
                fixed: Mapping[str, str] | None = None) -> None: ...
    @overload
    def compile(self, e: A.Expr, bound: frozenset[str] | None = None,
                fixed: Mapping[str, str] | None = None) -> ExprFn: ...
    @overload
    def compile(self, e: A.Expr | None, bound: frozenset[str] | None = None,
                fixed: Mapping[str, str] | None = None) -> ExprFn | None: ...

    def compile(self, e: A.Expr | None, bound: frozenset[str] | None = None,
                fixed: Mapping[str, str] | None = None) -> ExprFn | None:
        """``fn(ctx) -> value`` for expression ``e`` (None for None). ``bound``: the names
        ``ctx.env`` holds whenever the function runs, exactly (a listing's parameters): the
        other names are read without looking there, and an entity's fields as the constants
        they are; ``fixed``: those of them known to hold these entities (one function per
        entity). The same values and the same checks as without."""
        if e is None:
            return None
        ns = dict(_HELPERS)
        body = _Gen(self.rs, ns, bound=bound, fixed=fixed).gen(e, {})
        span = e.span
        ns["_span"] = span
        filename = f"<rules {span.file}:{span.line}:{span.column} #{next(_ids)}>"
        # an error raised without a position (the execution budget spent in a quantifier, a
        # range or list too long, a number too large) gets the expression's
        src = (f"def rule_expr(ctx):\n    try:\n        return {body}\n"
               f"    except _RuleViolation as err:\n        raise _at(err, _span)\n"
               f"    except Exception as err:\n        raise _foreign(ctx, err, None, _span)\n")
        fn = self._load(src, filename, ns, "rule_expr")
        if fn is None:
            # nested deeper than Python's own parser allows (about 200 brackets): the
            # interpreter evaluates it, with the same meaning and error positions
            from .backends import Interpreter
            return Interpreter(self.rs).expr(e)
        return cast(ExprFn, fn)

    def inline(self, e: A.Expr, ns: dict[str, object]) -> str:
        """The source :meth:`compile`'s function returns for ``e`` (no ``bound``), to write into
        other generated code whose globals are ``ns`` (its helpers and constants put there); the
        caller handles its errors as that function does (a ``RuleViolation`` placed at ``e``, a
        primitive's defect by ``S.primitive_failed``) or stands for them."""
        for k, v in _HELPERS.items():
            ns.setdefault(k, v)
        return _Gen(self.rs, ns).gen(e, {})

    def _load(self, src: str, filename: str, ns: dict[str, object], name: str) -> object | None:
        """The function ``name`` defined by generated source ``src``, run in namespace ``ns``
        and registered with ``linecache`` as ``filename`` (tracebacks show the source); a
        source compiled once is reused under each new name. None when Python cannot compile
        it (nested deeper than its parser allows)."""
        code = self._codes.get(src)
        if code is not None:
            code = _renamed(code, filename)
        else:
            try:
                code = self._codes[src] = compile(src, filename, "exec")
            except (SyntaxError, RecursionError, MemoryError):
                return None
        exec(code, ns)   # (rule texts appear in it only as repr() literals: see the module doc)
        linecache.cache[filename] = (len(src), None, src.splitlines(True), filename)
        return ns[name]

    def filter(self, e: A.Expr, var: str) -> FilterFn | None:
        """``fn(ctx, opts, first)`` testing a choice's ``where`` ``e`` on each option of ``opts``
        in turn, ``var`` bound to it as a Python local of the loop (as a quantifier's variable)
        rather than in ``ctx.env`` (a binding dict per option costs as much as a simple test):
        ``first`` false: the admitted options (a tuple, in order); true: how many options it
        tested up to and including the first admitted (0: none is). None when ``e`` is too
        deeply nested to compile (the caller then binds each option itself, as
        :func:`semantics.admitted_by` does)."""
        ns = dict(_HELPERS)
        q = f"q0_{var}"
        cond = _Gen(self.rs, ns).gen(e, {var: q})
        # (all of them: a pure primitive's batch form answers for every option in one call,
        # primitives.batched; the first admitted is mostly the first option: asked one by one)
        each = _Gen(self.rs, ns, batch_of=q)
        every = each.gen(e, {var: q})
        asked = "".join(f"        {b} = _each(ctx, {call}, opts{rest})\n" for b, _, call, rest in each.batches)
        loop = ", ".join([q] + [x for _, x, _, _ in each.batches])
        over = f"zip(opts, {', '.join(b for b, _, _, _ in each.batches)})" if each.batches else "opts"
        sure = ""
        if each.batches:
            # (each batch's answers passing the primitive's return check as a whole, _sure: the
            # same test without a test per option and answer, as a primitive declared int gives
            # a whole number, _Gen.surely_int)
            fast = _Gen(self.rs, ns, batch_of=q, sure_batches=True)
            quick = fast.gen(e, {var: q})
            assert [(b, x, r) for b, x, _, r in fast.batches] == [(b, x, r) for b, x, _, r in each.batches]
            tests = " and ".join(f"_sure({call}, {b})" for b, _, call, _ in each.batches)
            sure = f"        if {tests}:\n            return tuple([{q} for {loop} in {over} if {quick}])\n"
        span = e.span
        ns["_span"] = span
        filename = f"<rules {span.file}:{span.line}:{span.column} #{next(_ids)}>"
        src = (f"def rule_filter(ctx, opts, first):\n    try:\n        if first:\n"
               f"            n = 0\n            for {q} in opts:\n                n += 1\n"
               f"                if {cond}:\n                    return n\n            return 0\n"
               f"{asked}{sure}        return tuple([{q} for {loop} in {over} if {every}])\n"
               f"    except _RuleViolation as err:\n        raise _at(err, _span)\n"
               f"    except Exception as err:\n        raise _foreign(ctx, err, None, _span)\n")
        return cast(FilterFn | None, self._load(src, filename, ns, "rule_filter"))


def _renamed(code: CodeType, filename: str) -> CodeType:
    """``code`` (and the code of its functions, generators and lambdas) named ``filename``."""
    consts = tuple(_renamed(c, filename) if isinstance(c, CodeType) else c for c in code.co_consts)
    return code.replace(co_filename=filename, co_consts=consts)


class _Gen:
    def __init__(self, rs: Ruleset, ns: dict[str, object], batch_of: str | None = None,
                 bound: frozenset[str] | None = None, fixed: Mapping[str, str] | None = None,
                 sure_batches: bool = False) -> None:
        self.rs = rs
        self.ns = ns
        self._temps = 0
        # the bindings, when known exactly, and those known to hold these entities
        # (ExprCompiler.compile's ``bound`` and ``fixed``)
        self.bound = bound
        self.fixed: Mapping[str, str] = fixed or {}
        # where the bindings are not known: those a statement block surely holds at the code
        # being written (its 'let's so far, its loops' variables: blockgen.py)
        self.sure: frozenset[str] = frozenset()
        # ``batch_of``: a filter's loop variable (ExprCompiler.filter), whose calls of a pure
        # primitive with a batch form are asked before the loop: (list, its item's name in the
        # loop, the batch form's name, the other arguments), one per such call
        self.batch_of = batch_of
        self.batches: list[tuple[str, str, str, str]] = []
        # the batch forms' answers are known to be the checked calls' (the filter tested them
        # before its loop, _sure): a call's answer is used as it is
        self.sure_batches = sure_batches
        # > 0 while a quantifier's domain is written: Python refuses an assignment expression
        # (``:=``) in a comprehension's iterable, so no value is held in a temporary there
        self._in_domain = 0

    def temp(self) -> str | None:
        """A fresh name for a value the generated code holds while it tests it (``:=``); None
        where it may not."""
        if self._in_domain:
            return None
        self._temps += 1
        return f"_t{self._temps}"

    def domain(self, d: A.Expr, sc: dict[str, str]) -> str:
        """Python source of a quantifier's or ``sum``'s domain ``d`` (see ``_in_domain``)."""
        self._in_domain += 1
        try:
            return self.gen(d, sc)
        finally:
            self._in_domain -= 1

    def primitive(self, fn: str, args: str, batched: str | None = None) -> str:
        """A call of primitive ``fn``: its own function and its result's quick test inline
        (plugins.py, ``ReturnCheck``: the checking wrapper's frame costs as much as a simple
        primitive), else through the primitive as registered. ``batched``: the name of the
        call's answer from a batch form (:meth:`batched`), used unless it is NOT_BATCHED."""
        if batched is not None and self.sure_batches:
            return batched
        registered = self.rs.primitives[fn].fn
        check = getattr(registered, "inline", None)
        t = None if check is None else self.temp()
        if check is None or t is None:
            call = f"{self.const(registered)}(ctx{args})"
            return call if batched is None else f"({batched} if {batched} is not _NB else {call})"
        call = f"{self.const(check.fn)}(ctx{args})"
        if batched is not None:
            call = f"({batched} if {batched} is not _NB else {call})"
        call = f"({t} := {call})"
        if check.types is None:
            test = f"{call}.__class__ is int and {-S.MAX_NUMBER} <= {t} <= {S.MAX_NUMBER}"
        else:
            test = f"isinstance({call}, {self.const(check.types)})"
        return f"({t} if {test} else {self.const(check.refused)}(ctx, {t}))"

    def batched(self, fn: str, args: tuple[A.Expr, ...], sc: dict[str, str]) -> str | None:
        """For a call of primitive ``fn`` with ``args`` in a filter's test (``batch_of``): when
        the primitive has a batch form (primitives.batched), the call's first argument is the
        filter's option and the others are written constants, the name its answer has in the
        loop (the form is asked once, before it: :attr:`batches`); else None."""
        prim = self.rs.primitives[fn]
        if self.batch_of is None or prim.batch is None or self._in_domain or not args \
                or not isinstance(args[0], A.Name) or sc.get(args[0].id) != self.batch_of \
                or not all(isinstance(x, (A.Int, A.Str, A.Bool, A.NoneLit)) for x in args[1:]):
            return None
        n = len(self.batches) + 1
        rest = "".join(f", {self.gen(x, sc)}" for x in args[1:])
        self.batches.append((f"_b{n}", f"_e{n}", self.const(prim), rest))
        return f"_e{n}"

    def surely_int(self, e: A.Expr) -> bool:
        """Whether ``e``'s value is a whole number within the rules' numbers whenever the code
        goes on past it: a number written in the rule, ``len`` of one value or a ``count`` (a
        list's length, at most LIMITS.max_list), or a call of a primitive declared ``int``
        whose result is checked (plugins.py ``_checked``: anything else raises its defect; a
        filter's batch answers tested as a whole, :func:`_sure`)."""
        if isinstance(e, A.Int) or isinstance(e, A.Quant) and e.kind == "count":
            return True
        if isinstance(e, A.Call) and e.fn == "len" and len(e.args) == 1:
            return True
        if not isinstance(e, A.Call) or e.fn in S.BUILTIN_FUNCTIONS or e.fn in ("min", "max", "abs") \
                or e.fn in _QUICK_BUILTINS:
            return False
        prim = self.rs.primitives.get(e.fn)
        check = None if prim is None else getattr(prim.fn, "inline", None)
        return check is not None and check.types is None and prim is not None and prim.returns == "int"

    def int_compare(self, op: str, l: A.Expr, r: A.Expr, sc: dict[str, str]) -> str:
        """``<``, ``<=``, ``>``, ``>=``: of a number written in the rule and a whole number at
        once (without a test where it is surely one, :meth:`surely_int`), else through the
        helper (which compares or refuses as semantics.compare)."""
        helper = _INT_OPS[op]
        if self.surely_int(l) and self.surely_int(r):
            return f"({self.gen(l, sc)} {op} {self.gen(r, sc)})"
        lv, rv = self.whole(l, sc), self.whole(r, sc)
        t = self.temp() if rv is not None or lv is not None else None
        if t is not None and rv is not None:
            return (f"({t} {op} {rv!r} if ({t} := {self.gen(l, sc)}).__class__ is int "
                    f"else {helper}(ctx, {t}, {rv!r}))")
        if t is not None and lv is not None:
            return (f"({lv!r} {op} {t} if ({t} := {self.gen(r, sc)}).__class__ is int "
                    f"else {helper}(ctx, {lv!r}, {t}))")
        return self.int_op(op, l, r, sc)

    def int_op(self, op: str, l: A.Expr, r: A.Expr, sc: dict[str, str]) -> str:
        """``l op r`` (an arithmetic operator or an order) of two whole numbers inline, anything
        else through the helper (:data:`_INT_OPS`), which computes, compares or refuses as
        semantics.binop and semantics.compare; both sides evaluated first, left to right."""
        helper, ls, rs = _INT_OPS[op], self.gen(l, sc), self.gen(r, sc)
        a, b = self.temp(), self.temp()
        if a is None or b is None:
            return f"{helper}(ctx, {ls}, {rs})"
        both = f"({a} := {ls}).__class__ is ({b} := {rs}).__class__ is int"
        slow = f"{helper}(ctx, {a}, {b})"
        if op in ("+", "-", "*"):   # (a result beyond the rules' numbers: the helper refuses it)
            t = self.temp()
            return (f"({t} if {both} and {-S.MAX_NUMBER} <= ({t} := {a} {op} {b}) <= {S.MAX_NUMBER} "
                    f"else {slow})")
        if op in ("//", "%"):   # (a zero divisor: the helper refuses it)
            return f"({a} {op} {b} if {both} and {b} else {slow})"
        return f"({a} {op} {b} if {both} else {slow})"

    def whole(self, e: A.Expr, sc: dict[str, str]) -> int | None:
        """The whole number ``e`` is whatever the state: written in the rule, or a fixed
        entity's field holding one (:meth:`fixed_field`); else None."""
        if isinstance(e, A.Int):
            return e.value
        known = self.fixed_field(e, sc) if isinstance(e, A.Field) else MISSING
        return known if type(known) is int else None

    def fixed_field(self, e: A.Field, sc: dict[str, str]) -> Value:
        """The value of field ``e`` when its object is known to be an entity that has the
        field (an entity's fields are constants), else MISSING: a binding :attr:`fixed` to an
        entity, or an entity's name that no binding hides (:meth:`may_bind`)."""
        o = e.obj
        if not isinstance(o, A.Name) or o.id in sc:
            return MISSING
        name = self.fixed.get(o.id)
        if name is None and not self.may_bind(o.id) and self.names_entity(o.id):
            name = o.id   # (no binding hides it)
        ent = None if name is None else self.rs.entities.get(name)
        return MISSING if ent is None else ent.fields.get(e.name, MISSING)

    def names_entity(self, n: str) -> bool:
        """Whether name ``n``, read outside the bindings, is an entity (S.classify)."""
        try:
            return S.classify(self.rs, n)[0] == S.ENTITY
        except S.RuleViolation:
            return False

    def const(self, value: object) -> str:
        """A name for ``value`` in the generated function's globals."""
        if value is None or type(value) in (int, bool, str):
            return repr(value)
        name = f"_k{len(self.ns)}"
        self.ns[name] = value
        return name

    def local_or(self, n: str, otherwise: str) -> str:
        """Name ``n`` from the rule's bindings if one has it, else ``otherwise`` (known at once
        where the bindings are, :attr:`bound`, or where no rule binds the name)."""
        if self.bound is not None:
            return f"ctx.env[{n!r}]" if n in self.bound else otherwise
        if n in self.sure:
            return f"ctx.env[{n!r}]"
        if not self.may_bind(n):
            return otherwise
        return f"(ctx.env[{n!r}] if {n!r} in ctx.env else {otherwise})"

    def may_bind(self, n: str) -> bool:
        """Whether a binding may hide name ``n`` where the code runs: one of :attr:`bound`
        when they are known, else a name some rule binds (``Ruleset.binding_names``)."""
        return n in self.bound if self.bound is not None else n in self.rs.binding_names

    def gen(self, e: A.Expr, sc: dict[str, str]) -> str:
        """Python source of ``e``; ``sc`` maps quantifier variables in scope to Python names."""
        g = self.gen
        match e:
            case A.Int(value=v) | A.Str(value=v) | A.Bool(value=v):
                return repr(v)
            case A.NoneLit():
                return "None"
            case A.Name(id=n):
                if n in sc:
                    return sc[n]
                return repr(self.fixed[n]) if n in self.fixed else self.name(n)
            case A.Call(fn=fn, args=args):
                a = "".join(f", {g(x, sc)}" for x in args)
                if fn in ("min", "max") and len(args) == 2 or fn == "abs" and len(args) == 1:
                    return f"_{fn}{len(args) if fn != 'abs' else ''}(ctx{a})"
                if fn == "passed" and len(args) == 1:   # (a constant: one more name in every
                    return f"{self.const(_passed)}(ctx{a})"   # namespace made Gaia's larger)
                if fn in _QUICK_BUILTINS and len(args) == _QUICK_BUILTINS[fn]:
                    return f"_{'field_of' if fn == 'field' else fn}(ctx{a})"
                if fn in S.BUILTIN_FUNCTIONS:
                    f = self.const(S.BUILTIN_FUNCTIONS[fn])
                    return f"_builtin(ctx, {fn!r}, {f}{a})"
                return self.primitive(fn, a, self.batched(fn, args, sc))
            case A.ListLit(items=items):
                listed = "(" + "".join(f"{g(x, sc)}, " for x in items) + ")"
                listed = f"_sized(ctx, {listed})" if len(items) > S.FREE_LIST else listed
                return listed if all(_not_a_list(x) or self.scalar(x, sc) for x in items) \
                    else f"_nested(ctx, {listed})"
            case A.Field(obj=o, name=n):
                known = self.fixed_field(e, sc)
                if known is not MISSING:
                    return self.const(known)
                obj, t, entities = g(o, sc), self.temp(), self.const(self.rs.entities)
                if t is None:
                    return f"_field(ctx, {obj}, {n!r}, {entities})"
                # (an entity's field is a constant: looked up in the table of the field's values)
                table = self.const(self.rs.field_values(n))
                return (f"({table}[{t}] if ({t} := {obj}).__class__ is str and {t} in {table} "
                        f"else _field(ctx, {t}, {n!r}, {entities}))")
            case A.Index(obj=o, index=i):
                return self.index(o, i, sc)
            case A.Of(expr=x, player=p):
                who, batch_of = g(p, sc), self.batch_of
                self.batch_of = None   # (a batch form answers for the filter's me, not p)
                try:
                    return f"_with_me(ctx, {who}, lambda: {g(x, sc)})"
                finally:
                    self.batch_of = batch_of
            case A.Neg(operand=o):
                return f"(-_num(ctx, {g(o, sc)}, '-'))"
            case A.Not(operand=o):
                return f"(not {g(o, sc)})"
            case A.BinOp(op=op, left=l, right=r):
                if op in _INT_OPS:
                    return self.int_op(op, l, r, sc)
                return f"_binop(ctx, {op!r}, {g(l, sc)}, {g(r, sc)})"
            case A.Compare(op=op, left=l, right=r):
                if op in ("==", "!=") and (self.scalar(l, sc) or self.scalar(r, sc)):
                    return f"({g(l, sc)} {op} {g(r, sc)})"   # decided at once, whatever the other
                if op in ("==", "!="):   # (charged by size: two long lists take long to compare)
                    return f"({'' if op == '==' else 'not '}_eq(ctx, {g(l, sc)}, {g(r, sc)}))"
                if op in _INT_OPS:
                    return self.int_compare(op, l, r, sc)
                if op in ("in", "notin"):
                    return f"({'' if op == 'in' else 'not '}_member(ctx, {g(l, sc)}, {g(r, sc)}))"
                return f"_compare(ctx, {op!r}, {g(l, sc)}, {g(r, sc)})"
            case A.Range(low=A.Int(value=a), high=A.Int(value=b)) if b - a < _CONST_RANGE:
                # (its numbers made once; charged and refused as _rng does, whose check is len's)
                numbers = self.const(tuple(range(a, b + 1)))
                return f"(_sized(ctx, {numbers}) if {max(b - a + 1, 0)} <= _LIMITS.max_list else _rng(ctx, {a}, {b}))"
            case A.Range(low=lo, high=hi):
                return f"_rng(ctx, {g(lo, sc)}, {g(hi, sc)})"
            case A.BoolOp(op=op, items=items):  # short-circuit, a bool (as all()/any())
                return f"(True if {f' {op} '.join(g(x, sc) for x in items)} else False)"
            case A.Quant(kind=k, var=v, domain=d, where=w):
                dom = self.domain(d, sc)
                inner = {**sc, v: f"q{len(sc)}_{v}"}
                q = inner[v]
                cond = "True" if w is None else g(w, inner)
                if k == "count":
                    return f"sum(1 for {q} in _dom(ctx, {dom}) if {cond})"
                return f"{k}({cond} for {q} in _dom(ctx, {dom}))"
            case A.SumOf(expr=x, var=v, domain=d, where=w):
                dom = self.domain(d, sc)
                inner = {**sc, v: f"q{len(sc)}_{v}"}
                q = inner[v]
                cond = "" if w is None else f" if {g(w, inner)}"
                # (bounded as backends.py's _sum_of: the sum of numbers in range may not be)
                return f"_bounded(ctx, sum(_num(ctx, {g(x, inner)}, 'sum') for {q} in _dom(ctx, {dom}){cond}))"
        raise TypeError(f"cannot compile {e!r}")

    def scalar(self, e: A.Expr, sc: dict[str, str]) -> bool:
        """Whether comparing anything with ``e``'s value takes no time to speak of (it is no
        long text and no list: :func:`semantics.equal` charges nothing), so ``==`` is decided at
        once: a small constant, a truth value (:func:`_truth`), a number computed (arithmetic
        but ``+``, which joins lists too; ``count``, ``sum``, ``len``), a fixed entity's field
        holding a number, truth value, none or short text (:meth:`fixed_field`), ``me`` (a
        player) or an entity's name (a short text) where no binding hides it."""
        if isinstance(e, A.Field):
            known = self.fixed_field(e, sc)
            return known is None or type(known) in (int, bool) \
                or type(known) is str and len(known) < 64   # type: ignore[arg-type]
        if _small_constant(e) or _truth(e) or isinstance(e, (A.Neg, A.SumOf)):
            return True
        if isinstance(e, A.BinOp):
            return e.op != "+"
        if isinstance(e, A.Quant):
            return True
        if isinstance(e, A.Call):
            return e.fn == "len" and e.fn in S.BUILTIN_FUNCTIONS
        if not isinstance(e, A.Name) or e.id in sc or self.may_bind(e.id):
            return False
        return e.id == "me" or len(e.id) < 64 and self.names_entity(e.id)

    def name(self, n: str) -> str:
        rs = self.rs
        try:
            cls, payload = S.classify(rs, n)
        except S.RuleViolation:  # a binding of the rule (parameter, loop variable, let)
            return self.local_or(n, f"_load_name(ctx, {n!r})")
        if cls in (S.RESOURCE, S.TRACK, S.COMPONENT):
            tag = {S.RESOURCE: "r", S.TRACK: "t", S.COMPONENT: "c"}[cls]
            default = self.const(rs.default_of((tag, payload)))
            return self.local_or(n, self.own(tag, payload, default))
        if cls == S.VAR and payload.per in ((), ("player",)):
            default = self.const(rs.default_of(("v", payload.name)))
            if payload.per:
                return self.local_or(n, self.own("v", payload.name, default))
            return self.local_or(n, self.read(repr(("v", payload.name)), None, default)
                                 or f"_rv(ctx, ('v', {payload.name!r}), {default})")
        if cls in (S.OPTION, S.ENTITY, S.KIND):
            # (an option's, entity's or kind's value needs no context)
            return self.local_or(n, self.const(S.load(None, cls, payload)))  # type: ignore[arg-type]
        if cls == S.BUILTIN and payload is S.BUILTIN_VALUES["nplayers"]:
            return self.local_or(n, "ctx.np")
        if cls == S.BUILTIN and payload is S.BUILTIN_VALUES["round"]:
            got = self.read(repr(F_ROUND), None, self.const(rs.default_of(F_ROUND)))
            if got is not None:
                return self.local_or(n, got)
        if cls == S.BUILTIN and payload is S.BUILTIN_VALUES["me"]:
            m = self.temp()   # (ctx.player()'s common case inline: the rules' most read name)
            if m is not None:
                return self.local_or(n, f"({m} if {self.seat(m)} else ctx.player())")
        # built-in values (me, players, round...) and variables kept per hex or entity
        return self.local_or(n, f"_load(ctx, {cls}, {self.const(payload)})")

    # ---- reads of the state's values, inline (as Context.get, the key's default known) ----
    # A read is a Python expression: the key worked out once (held in a temporary), then the
    # overlay asked only when it holds writes (most reads find it empty: a key tuple is hashed
    # on every lookup), else the committed values. Where no temporary may be used (a
    # quantifier's domain), the helpers _rv, _rv_own, _rv_at and _rv_mine do the same.

    def read(self, key: str, built: str | None, default: str) -> str | None:
        """Source of the value at ``key`` (a literal; or, with ``built``, a temporary that
        ``built``, the source of a tuple, assigns first), ``default`` where none is held; None
        where no temporary may be used."""
        w = self.temp()
        if w is None:
            return None
        first = "" if built is None else f"({key} := {built}) and "
        return (f"({w}[{key}] if {first}({w} := ctx.w) and {key} in {w} "
                f"else ctx.base.get({key}, {default}))")

    def seat(self, m: str) -> str:
        """A test that ``me`` (assigned to temporary ``m``) is a player of the game, as
        ``Context.player``'s common case."""
        return f"({m} := ctx.me).__class__ is int and 0 <= {m} < ctx.np"

    def own(self, tag: str, name: str, default: str) -> str:
        """Source of ``me``'s own value ``(tag, name, me)`` (a resource, track, supply or
        per-player variable); no player as ``me`` raises the violation (:func:`_own_key`)."""
        m, k = self.temp(), self.temp()
        got = None if m is None or k is None else self.read(
            k, f"(({tag!r}, {name!r}, {m}) if {self.seat(m)} else _own_key(ctx, {tag!r}, {name!r}))",
            default)
        return got or f"_rv_own(ctx, {tag!r}, {name!r}, {default})"

    def indexed(self, var: VarDef, i: A.Expr, idx: str, default: str, entity: Value = MISSING) -> str:
        """Source of ``v[i]`` (``idx``: the index's source) of a variable kept per hex/entity
        (key ``("v", v, i)``) or per player and hex/entity (``("v", v, me, i)``): the index
        evaluated first, then ``me`` checked, then a list or set as index charged its size
        (:func:`semantics.var_key`). ``entity``: the entity ``i`` names whatever the state (a
        text, as a literal: ``built[mine]``), else MISSING."""
        mine, name = len(var.per) == 2, var.name
        # (no list: never charged)
        literal = entity is not MISSING or isinstance(i, (A.Int, A.Str, A.Bool, A.NoneLit))
        t, k = (idx, self.temp()) if literal else (self.temp(), self.temp())
        m = self.temp() if mine else ""
        got = None
        if t is None or k is None or m is None:
            pass
        elif not mine and literal:
            value = entity if entity is not MISSING else None if isinstance(i, A.NoneLit) \
                else i.value   # type: ignore[union-attr]
            got = self.read(repr(("v", name, value)), None, default)
        elif not mine:
            got = self.read(k, f"(('v', {name!r}, {t}) if ({t} := {idx}).__class__ is not tuple and "
                               f"{t}.__class__ is not frozenset else _at_key(ctx, {name!r}, {t}))", default)
        else:
            first, plain = ("", "") if literal else (
                f"({t} := {idx}) is {t} and ",
                f" and {t}.__class__ is not tuple and {t}.__class__ is not frozenset")
            got = self.read(k, f"(('v', {name!r}, {m}, {t}) if {first}{self.seat(m)}{plain} "
                               f"else _mine_key(ctx, {name!r}, {t}))", default)
        return got or f"_rv_{'mine' if mine else 'at'}(ctx, {name!r}, {idx}, {default})"

    def index(self, o: A.Expr, i: A.Expr, sc: dict[str, str]) -> str:
        var, n = None, ""
        if isinstance(o, A.Name) and o.id not in sc and (self.bound is None or o.id not in self.bound):
            n = o.id
            try:
                cls, payload = S.classify(self.rs, o.id)
            except S.RuleViolation:
                cls = None
            if cls == S.VAR and any(p != "player" for p in payload.per):
                var = payload
        if var is None:
            obj, idx = self.gen(o, sc), self.gen(i, sc)
            t, k = self.temp(), self.temp()
            if t is None or k is None:
                return f"_index(ctx, {obj}, {idx})"
            # (a list's element at once, both sides evaluated first: semantics.index's common case)
            return (f"({t}[{k}] if ({t} := {obj}) is {t} and ({k} := {idx}).__class__ is int "
                    f"and {t}.__class__ is tuple and -len({t}) <= {k} < len({t}) "
                    f"else _index(ctx, {t}, {k}))")
        idx = self.gen(i, sc)
        # ``v[i]`` of a per-hex/per-entity variable: its state key directly (the same as
        # loading its VarHandle and indexing it, unless a binding hides the name)
        # (where the bindings are known, none of them is named alike: see the test above)
        hidden = "" if not self.may_bind(n) else \
            f"_index(ctx, ctx.env[{n!r}], {idx}) if {n!r} in ctx.env else "
        default = self.const(self.rs.default_of(("v", var.name)))
        if len(var.per) == 1 or len(var.per) == 2 and var.per[0] == "player":
            entity: Value = MISSING   # (the entity a name gives whatever the state)
            if isinstance(i, A.Name) and i.id not in sc:
                if i.id in self.fixed:
                    entity = self.fixed[i.id]
                elif not self.may_bind(i.id) and self.names_entity(i.id):
                    entity = i.id
            return f"({hidden}{self.indexed(var, i, idx, default, entity)})"
        return f"({hidden}_index_var(ctx, {self.const(var)}, {idx}))"
