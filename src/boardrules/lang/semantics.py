"""What each construct of the rules language does, as plain functions on a
:class:`~boardrules.runtime.Context`.

Both back ends call these: the compiler (generated code and closures, built once per
ruleset) and the tree-walking interpreter (the oracle the compiler is tested against). Only the
dispatch differs, so the two cannot drift apart in meaning.

State keys: ``("r", resource, player)``, ``("t", track, player)``,
``("c", component, player)`` (supply left), ``("v", var, *index)``,
``("o", entity)`` (owner), ``("s", player, source)`` (score by source), ``("d", var)`` (the
draws from list ``var`` pending: queued, not yet decided).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from ..limits import LIMITS
from ..errors import BoardrulesError
from ..quoting import digit_count, rules_value
from ..runtime import (CHANCE, F_AFTER, F_LANES, F_PASSED, F_ROUND, Decision, Dice, Event)
from ..runtime import _event as _new_event
from ..runtime import BudgetExceeded as BudgetExceeded  # (re-exported: the back ends use S.*)
from ..runtime import MAX_NUMBER as MAX_NUMBER
from ..runtime import NumberTooLarge as NumberTooLarge
from ..runtime import PrimitiveFailed as PrimitiveFailed
from ..runtime import RuleFailed as RuleFailed
from ..runtime import RuleViolation as RuleViolation
from ..runtime import TooDeep as TooDeep

if TYPE_CHECKING:
    from ..ruleset import Ruleset
    from ..runtime import Context
    from .ast import Span, TypeRef
    from .checker import VarDef

Value = Any
"""A rule value: int, bool, text, None, a tuple of values (a list), a frozenset, :class:`Dice`,
an entity or kind name, or a :class:`VarHandle` (any of them, by the rule's type)."""
Key = tuple[Any, ...]
"""A state key, such as ``("r", resource, player)`` (see the module's docstring)."""
ExprFn = Callable[["Context"], Value]
FilterFn = Callable[["Context", Sequence[Value], bool], Any]
"""A choice's ``where`` over its options at once (codegen.py, ``ExprCompiler.filter``)."""
"""A compiled expression: the context in, its value out."""
BlockFn = Callable[["Context"], None]
"""A compiled block of statements: it changes the context's state."""

# ---- names ------------------------------------------------------------------

LOCAL, BUILTIN, RESOURCE, TRACK, COMPONENT, VAR, OPTION, ENTITY, KIND = range(9)


def classify(rs: Ruleset, name: str) -> tuple[int, Any]:
    """How a name that is not a local binding resolves: (class, payload)."""
    if name in BUILTIN_VALUES:
        return BUILTIN, BUILTIN_VALUES[name]
    if name in rs.resources:
        return RESOURCE, name
    if name in rs.tracks:
        return TRACK, name
    if name in rs.components:
        return COMPONENT, name
    if name in rs.vars:
        return VAR, rs.vars[name]
    if name in rs.options:
        return OPTION, rs.options[name]
    if name in rs.entities:
        return ENTITY, name
    if name in rs.by_kind:
        return KIND, rs.by_kind[name]
    raise RuleFailed(f"unknown name '{name}'")


def _me(ctx: Context) -> int:
    return ctx.player()


BUILTIN_VALUES = {
    "me": _me,
    "players": lambda ctx: tuple(range(ctx.np)),
    "others": lambda ctx: tuple(p for p in range(ctx.np) if p != ctx.me),
    "hexes": lambda ctx: ctx.get(("v", "hexes")) or (),
    "round": lambda ctx: ctx.get(F_ROUND),
    "nplayers": lambda ctx: ctx.np,
    "chance": lambda ctx: CHANCE,
}


def var_key(ctx: Context, var: VarDef, index: Value) -> Key:
    """The state key of variable ``var`` (a VarDef) for ``me`` and ``index``."""
    key: Key = ("v", var.name)
    for per in var.per:
        if per == "player":
            key += (ctx.player(),)
        else:
            if type(index) is tuple or type(index) is frozenset:
                keyed(ctx, index)
            key += (index,)
    return key


def keyed(ctx: Context, v: Value) -> Value:
    """``v``, about to be hashed (an index into a variable, an entity looked up): a list or
    set costs its :func:`size`, as hashing it walks it."""
    t = type(v)
    if t is tuple or t is frozenset:
        spent(ctx, size(v, ctx.steps))
    return v


def load_var(ctx: Context, var: VarDef) -> Value:
    if any(p != "player" for p in var.per):
        return VarHandle(var)
    return ctx.get(var_key(ctx, var, None))


class VarHandle:
    """A per-hex or per-entity variable named without its index (only indexing is allowed)."""

    __slots__ = ("var",)

    def __init__(self, var: VarDef) -> None:
        self.var = var


def load(ctx: Context, cls: int, payload: Any) -> Value:
    if cls == BUILTIN:
        return payload(ctx)
    if cls == RESOURCE:
        return ctx.get(("r", payload, ctx.player()))
    if cls == TRACK:
        return ctx.get(("t", payload, ctx.player()))
    if cls == COMPONENT:
        return ctx.get(("c", payload, ctx.player()))
    if cls == VAR:
        return load_var(ctx, payload)
    if cls == OPTION:
        return payload.default
    if cls == ENTITY:
        return payload
    return payload  # KIND: the tuple of its entities


def load_name(ctx: Context, name: str) -> Value:
    env = ctx.env
    if name in env:
        return env[name]
    cls, payload = classify(ctx.rs, name)
    return load(ctx, cls, payload)


def index(ctx: Context, obj: Value, idx: Value) -> Value:
    if type(obj) is tuple and type(idx) is int and -len(obj) <= idx < len(obj):
        return obj[idx]   # (the common case, as below)
    if isinstance(obj, VarHandle):
        return ctx.get(var_key(ctx, obj.var, idx))
    if isinstance(obj, (tuple, str)):
        if not isinstance(idx, int) or isinstance(idx, bool):
            raise ctx.failure(f"a list index must be a number, not {rules_value(idx)}")
        if not -len(obj) <= idx < len(obj):
            raise ctx.failure(f"index {idx} is outside a list of {len(obj)}")
        return obj[idx]
    raise ctx.failure(f"cannot index {rules_value(obj)}")


def field(ctx: Context, obj: Value, name: str) -> Value:
    ent = ctx.rs.entities.get(obj) if isinstance(obj, str) else None
    if ent is None:
        raise ctx.failure(f"{rules_value(obj)} is not an entity, so it has no field '{name}'")
    try:
        return ent.fields[name]
    except KeyError:
        raise ctx.failure(f"a {ent.kind} has no field '{name}'") from None


def with_me(ctx: Context, player: Value, thunk: Callable[[], Value]) -> Value:
    saved = ctx.me
    ctx.me = ctx.player(player)
    try:
        return thunk()
    finally:
        ctx.me = saved


# ---- operators ----------------------------------------------------------------


def _num(ctx: Context, v: Value, op: str, span: Span | None = None) -> int:
    """``v``, a number (not a truth value); else the violation, at ``span`` when given (a
    statement's amount: an expression's operand is placed by the expression)."""
    if type(v) is int:   # (the common case: a number, not a truth value)
        return v
    if isinstance(v, bool) or not isinstance(v, int):
        raise ctx.failure(f"'{op}' needs numbers, got {rules_value(v)}", span)
    return v


def player_at(ctx: Context, v: Value, span: Span | None) -> int:
    """``v``, a player of the game (``Context.player``), else the violation at ``span``: a
    statement's ``to``, ``of`` or ``for``."""
    if type(v) is int and 0 <= v < ctx.np:
        return v
    try:
        return ctx.player(v)
    except RuleViolation as err:
        raise at(err, span)


def binop(ctx: Context, op: str, a: Value, b: Value) -> Value:
    if op == "+" and isinstance(a, tuple) and isinstance(b, tuple):
        return nested(ctx, sized(ctx, a + b))
    a, b = _num(ctx, a, op), _num(ctx, b, op)
    if op == "+":
        return bounded(ctx, a + b)
    if op == "-":
        return bounded(ctx, a - b)
    if op == "*":
        return bounded(ctx, a * b)
    if b == 0:
        raise ctx.failure(f"division by zero in '{op}'")
    return a // b if op == "//" else a % b


def bounded(ctx: Context, n: int) -> int:
    """``n`` when it is within the numbers rules may use (±MAX_NUMBER), else a violation."""
    if -MAX_NUMBER <= n <= MAX_NUMBER:
        return n
    raise NumberTooLarge(f"a number of {digit_count(n)} digits is too large for the rules "
                         f"(they use numbers up to {MAX_NUMBER})", ctx.source)


FREE_LIST = 64
"""A list written in a rule (``[a, b, ...]``) costs nothing up to this many items; a longer
one is charged by its length, as a list the rules build."""


def sized(ctx: Context, items: tuple[Value, ...]) -> tuple[Value, ...]:
    """``items``, a list the rules built, charged to the execution budget and refused
    when longer than LIMITS.max_list."""
    if len(items) > LIMITS.max_list:
        raise ctx.violation(f"a list of {len(items)} elements is too long for the rules "
                            f"(at most {LIMITS.max_list})")
    ctx.steps -= len(items)
    if ctx.steps < 0:
        raise ctx.over_budget()
    return items


def nested(ctx: Context, items: tuple[Value, ...]) -> tuple[Value, ...]:
    """``items``, a list the rules built (``[...]``, ``+``), returned at once when no element
    is a list; else charged the elements of its lists at every depth (what saving, comparing or
    hashing it walks) and refused when it holds more than LIMITS.max_list elements at every depth or
    lists nested deeper than LIMITS.max_nesting. Without this, a list doubled by ``[v, v]`` in a loop
    holds 2^60 elements in a few bytes, and ``[v]`` nests it 100,000 deep: saving the game
    never ends, or hashing it kills the process."""
    for x in items:
        t = type(x)
        if t is tuple or t is frozenset:
            break
    else:
        return items
    n, stack = 0, [(items, 1)]
    while stack:
        x, depth = stack.pop()
        if depth > LIMITS.max_nesting:
            raise ctx.violation(f"lists nested more than {LIMITS.max_nesting} levels deep are too deep "
                                "for the rules")
        n += len(x)
        if n > LIMITS.max_list:
            raise ctx.violation(f"a list holding more than {LIMITS.max_list} elements at every depth "
                                f"is too large for the rules")
        for y in x:
            ty = type(y)
            if ty is tuple or ty is frozenset:
                stack.append((y, depth + 1))
    spent(ctx, n - len(items))
    return items


def spent(ctx: Context, n: int) -> None:
    """Charge ``n`` steps to the execution budget."""
    ctx.steps -= n
    if ctx.steps < 0:
        raise ctx.over_budget()


def at(err: RuleViolation, span: Span | None) -> RuleViolation:
    """Give an error raised without a position (a budget exceeded, a list too long)
    the position of the innermost construct that sees it."""
    if err.span is None:
        err.span = span
    return err


def size(v: Value, cap: int) -> int:
    """What comparing or hashing ``v`` may cost, in steps: the elements of a list or set at
    every depth, plus one per 64 characters of a text (0 for a number, an entity...). The walk
    stops once the count passes ``cap`` (the steps left), so it never outlasts the budget."""
    t = type(v)
    if t is str:
        return len(v) >> 6
    if t is not tuple and t is not frozenset:
        return 0
    n, stack = 0, [v]
    while stack and n <= cap:
        x = stack.pop()
        n += len(x)
        for y in x:
            ty = type(y)
            if ty is tuple or ty is frozenset:
                stack.append(y)
            elif ty is str:
                n += len(y) >> 6
    return n


def equal(ctx: Context, a: Value, b: Value) -> bool:
    """``a == b``, charged: two lists, sets or texts of the same length are compared element
    by element, which costs the smaller :func:`size` of the two; two of different lengths
    are unequal at once (Python compares a tuple's items before its length, so that is
    decided here), and any other pair is decided at once too."""
    t = type(a)
    if t is str:
        if len(a) > 63 and type(b) is str and len(a) == len(b):
            spent(ctx, len(a) >> 6)
    elif (t is tuple or t is frozenset) and type(b) is t:
        if len(a) != len(b):
            return False
        if a is b:   # (one walk: a value read back where it was written, a memo's answer)
            spent(ctx, size(a, ctx.steps))
            return True
        if a == b:   # (equal values have equal sizes: one walk unless it stopped at the cap,
            n = size(a, ctx.steps)   # where the walks of two sets may stop at other counts)
            spent(ctx, n if n <= ctx.steps else min(n, size(b, ctx.steps)))
            return True
        spent(ctx, min(size(a, ctx.steps), size(b, ctx.steps)))
        return False
    return True if a == b else False


def _deep(ctx: Context, items: tuple[Value, ...], times: int = 1) -> tuple[Value, ...]:
    """``items`` (a list already charged by its length), with what comparing or hashing its
    elements costs beyond that charged ``times`` over."""
    spent(ctx, (size(items, ctx.steps) - len(items)) * times)
    return items


def compare(ctx: Context, op: str, a: Value, b: Value) -> bool:
    if op == "==":
        return equal(ctx, a, b)
    if op == "!=":
        return not equal(ctx, a, b)
    if op in ("in", "notin"):
        ta = type(a)   # what comparing a with an element, or hashing it, may cost
        extra = size(a, ctx.steps) if ta is tuple or ta is frozenset else (
            len(a) >> 6 if ta is str else 0)
        if isinstance(b, tuple):
            spent(ctx, len(b) * (1 + extra))
        elif extra and isinstance(b, frozenset):
            spent(ctx, extra)
        found: bool = a in b if isinstance(b, (tuple, frozenset, Dice)) else False
        return found if op == "in" else not found
    x, y = _num(ctx, a, op), _num(ctx, b, op)
    return {"<": x < y, "<=": x <= y, ">": x > y, ">=": x >= y}[op]


def truth(v: Value) -> bool:
    return bool(v)


def rng(ctx: Context, lo: Value, hi: Value) -> tuple[int, ...]:
    lo, hi = _num(ctx, lo, ".."), _num(ctx, hi, "..")
    if hi - lo >= LIMITS.max_list:  # refused before it is built
        raise ctx.violation(f"the range {lo}..{hi} is too long for the rules (at most {LIMITS.max_list} "
                            "numbers)")
    return sized(ctx, tuple(range(lo, hi + 1)))


def domain(ctx: Context, value: Value) -> Any:
    """A collection to walk (lists as they are, sets sorted), its length charged to
    the execution budget."""
    if isinstance(value, tuple):
        ctx.steps -= len(value)
        if ctx.steps < 0:
            raise ctx.over_budget()
        return value
    if isinstance(value, Dice):
        spent(ctx, 6 ** value.count)  # (not len(): it overflows past 24 dice)
        return value
    if isinstance(value, frozenset):
        spent(ctx, len(value))
        return tuple(sorted(value, key=repr))
    raise ctx.failure(f"cannot iterate over {rules_value(value)}")


# ---- built-in functions -----------------------------------------------------------


def entity_arg(ctx: Context, what: str, e: Value) -> str:
    """``e``, the entity that ``what`` takes (a built-in, ``owner()``, or a statement, ``take``);
    else the violation naming what it was given (a number, a list, a text that names no entity,
    none), without hashing it (a huge list)."""
    if type(e) is str and e in ctx.rs.entities:
        return e
    raise entity_arg_error(ctx, what, e)


def entity_arg_error(ctx: Context, what: str, e: Value) -> RuleViolation:
    """The violation of :func:`entity_arg` for ``e``, no entity."""
    return ctx.failure(f"{what} expects an entity, got {a_value(e)}")


def a_value(v: Value) -> str:
    """``v`` as the rules name it in a message: 'the number 5', "the text 'x'", 'none'."""
    if v is None:
        return "none"
    what = ("a truth value" if isinstance(v, bool) else "the number" if isinstance(v, int)
            else "the text" if isinstance(v, str) else "the list" if isinstance(v, (tuple, frozenset))
            else "the value")
    return what if isinstance(v, bool) else f"{what} {rules_value(v)}"


def _owner(ctx: Context, e: Value) -> Value:
    if type(e) is str:   # (only an entity has an owner: the test on none alone)
        owner = ctx.get(("o", e))
        if owner is not None or e in ctx.rs.entities:
            return owner
    return ctx.get(("o", entity_arg(ctx, "owner()", e)))


# held(kind)'s last answer read from a committed table alone (nothing written over it): (table,
# ruleset, kind or its entities, player, answer). A table is never changed, so the answer holds
# while it is the one read: a listing asks the same again (a parameter's `where` per candidate:
# Gaia's booster_mine reads first(held(booster)) up to four times per hex).
_HELD_LAST: tuple[Any, ...] = (None, None, None, None, ())


def _held(ctx: Context, kind: Value) -> tuple[str, ...]:
    global _HELD_LAST
    me = ctx.player()
    rs = ctx.rs
    if type(kind) is tuple or type(kind) is frozenset:
        names = kind   # (a value in it that is no entity is held by nobody: left out)
    elif type(kind) is str and kind in rs.by_kind:
        names = rs.by_kind[kind]
    else:
        raise ctx.failure(f"held() expects a kind (or a list of entities), got {a_value(kind)}"
                            + (": no kind has this name" if type(kind) is str else ""))
    spent(ctx, len(names))
    w, base = ctx.w, ctx.base  # (Context.get inlined: an owner's default is None)
    if w:
        return tuple(e for e in names if (w[k] if (k := ("o", e)) in w else base.get(k)) == me)
    last = _HELD_LAST   # (the very kind asked: a kind's entities are a compiled rule's constant)
    if last[0] is base and last[2] is kind and last[3] == me and last[1] is rs:
        held: tuple[str, ...] = last[4]
        return held
    held = tuple(e for e in names if base.get(("o", e)) == me)
    _HELD_LAST = (base, rs, kind, me, held)
    return held


def _lane_of(ctx: Context, p: Value) -> int | None:
    """The lane (0, 1, ...) whose turn ``p`` is taking in a ``lanes`` step, else none."""
    p = ctx.player(p)
    for i, lane in enumerate(ctx.get(F_LANES) or ()):
        if lane[1] == p:
            return i
    return None


def _table_after(ctx: Context, p: Value) -> tuple[int, ...]:
    p = ctx.player(p)
    n = ctx.np
    return tuple((p + i) % n for i in range(1, n))


def _position(ctx: Context, lst: Value, x: Value) -> int:
    try:
        i: int = _deep(ctx, domain(ctx, lst)).index(x)
        return i
    except ValueError:
        return -1


def _field(ctx: Context, e: Value, name: Value) -> Value:
    if type(name) is not str:
        raise ctx.failure(f"field() expects the name of a field as text, got {a_value(name)}")
    if type(e) is not str or e not in ctx.rs.entities:
        entity_arg(ctx, "field()", e)
    return field(ctx, e, name)


def _dice(ctx: Context, n: Value) -> Dice:
    n = _num(ctx, n, "dice")
    if not 0 <= n <= LIMITS.max_dice:
        raise ctx.violation(f"dice({n}): rules roll 0 to {LIMITS.max_dice} dice at once")
    return Dice(n)


def _sorting(ctx: Context, items: tuple[Value, ...]) -> tuple[Value, ...]:
    """``items``, charged for sorting: about n·log2(n) comparisons, each up to the size of
    an element."""
    n = len(items)
    if n > 1:
        rounds = (n - 1).bit_length()
        spent(ctx, n * rounds)
        _deep(ctx, items, rounds)
    return items


def _without_one(ctx: Context, lst: Value, x: Value) -> tuple[Value, ...]:
    """``lst`` without its first ``x`` (unchanged when ``x`` is absent): for lists with repeats."""
    items: tuple[Value, ...] = _deep(ctx, domain(ctx, lst))
    try:
        i = items.index(x)
    except ValueError:
        return items
    return items[:i] + items[i + 1:]


BUILTIN_FUNCTIONS: dict[str, Callable[..., Value]] = {
    "len": lambda ctx, x: len(domain(ctx, x)),
    "min": lambda ctx, *xs: min(_deep(ctx, domain(ctx, xs[0]) if len(xs) == 1 else xs)),
    "max": lambda ctx, *xs: max(_deep(ctx, domain(ctx, xs[0]) if len(xs) == 1 else xs)),
    "abs": lambda ctx, x: abs(_num(ctx, x, "abs")),
    "holds": lambda ctx, e: ctx.get(("o", entity_arg(ctx, "holds()", e))) == ctx.player(),
    "held": _held,
    "owner": _owner,
    "passed": lambda ctx, p: ctx.player(p) in (ctx.get(F_PASSED) or ()),
    "lane_of": _lane_of,
    "table_after": _table_after,
    "without": lambda ctx, lst, x: tuple(y for y in _deep(ctx, domain(ctx, lst)) if y != x),
    "position": _position,
    "kind_of": lambda ctx, e: ctx.rs.entities[entity_arg(ctx, "kind_of()", e)].kind,
    "dice": lambda ctx, n: _dice(ctx, n),
    "field": _field,
    "first": lambda ctx, lst: domain(ctx, lst)[0] if domain(ctx, lst) else None,
    "sorted": lambda ctx, lst: tuple(sorted(_sorting(ctx, domain(ctx, lst)))),
    "unique": lambda ctx, lst: tuple(dict.fromkeys(_deep(ctx, domain(ctx, lst)))),
    "without_one": _without_one,
}


_ORDERING = ("min", "max", "sorted")


def _unordered(fn: str, args: Sequence[Value]) -> str:
    """Why ``min``, ``max`` or ``sorted`` could not order ``args`` (one list, or the values
    themselves): the list is empty, or two of its values are of kinds that have no order."""
    items = args[0] if len(args) == 1 and isinstance(args[0], (tuple, frozenset)) else args
    items = tuple(items)
    if not items:
        return f"{fn}() of an empty list: it has no {'smallest' if fn == 'min' else 'largest'} element"
    pair = next(((a, b) for i, a in enumerate(items) for b in items[i:] if not _orders(a, b)),
                (items[0], items[-1]))
    return (f"{fn}() orders numbers with numbers and texts with texts (lists by their elements): "
            f"cannot order {rules_value(pair[0])} and {rules_value(pair[1])}")


def _orders(a: Value, b: Value) -> bool:
    try:
        a < b   # noqa: B015 (tried for its TypeError)
        b < a   # noqa: B015
        return True
    except TypeError:
        return False


def builtin_failed(ctx: Context, fn: str, args: Sequence[Value], err: Exception) -> RuleViolation:
    """The rule violation for built-in ``fn`` failing on ``args`` with Python's ``err`` (a
    TypeError or ValueError), in the rules' words where they are known."""
    if fn in _ORDERING:
        return ctx.failure(_unordered(fn, args))
    return ctx.failure(f"{fn}() failed: {err}")


def call(ctx: Context, fn: str, args: Sequence[Value]) -> Value:
    if fn in BUILTIN_FUNCTIONS:
        try:
            return BUILTIN_FUNCTIONS[fn](ctx, *args)
        except (TypeError, ValueError) as err:
            raise builtin_failed(ctx, fn, args, err) from None
    try:
        return ctx.rs.primitives[fn].fn(ctx, *args)
    except (RuleViolation, BoardrulesError):   # (a broken rule; an error the plugin means)
        raise
    except Exception as err:
        raise primitive_failed(ctx, err, fn) from err


def primitive_failed(ctx: Context, err: BaseException, name: str | None = None,
                     span: Span | None = None) -> BaseException:
    """The rule violation for primitive ``name``'s Python exception ``err`` (a defect of its
    plugin, not a broken rule: :class:`~boardrules.runtime.PrimitiveFailed`, placed at ``span``,
    the call's); ``name`` None: the primitive is the first one found in ``err``'s traceback
    (the compiled expressions call primitives directly), and ``err`` itself is returned when
    there is none (an engine defect stays what it is) or when it is a
    :class:`~boardrules.errors.BoardrulesError` (an error the plugin means, such as an
    ``OptionError`` for an option's value)."""
    if isinstance(err, BoardrulesError):
        return err
    if name is None:
        name = _failing_primitive(ctx.rs, err)
        if name is None:
            return err
    text = f"{type(err).__name__}: {err}" if str(err) else type(err).__name__
    if len(text) > 200:
        text = text[:197] + "..."
    return PrimitiveFailed(f"primitive '{name}' failed with {text} (a defect of the plugin "
                           f"that provides it, not a rule broken)", ctx.source, span)


def _failing_primitive(rs: Ruleset, err: BaseException) -> str | None:
    """The name of the outermost primitive running where ``err`` was raised, else None."""
    codes = rs.primitive_codes
    if codes is None:
        codes = rs.primitive_codes = {}
        for name, prim in rs.primitives.items():
            todo: list[Any] = [prim.fn]
            while todo:
                fn = todo.pop()
                parts = getattr(fn, "parts", ())   # (a wrapped or checked primitive: plugins._wrapped,
                if parts:                          # _checked; their code is shared by every primitive
                    todo.extend(parts)             # wrapped so: the parts' code names the primitive)
                    continue
                fn = getattr(fn, "func", fn)             # (a functools.partial)
                fn = getattr(fn, "__func__", fn)         # (a bound method)
                code = getattr(fn, "__code__", None)
                if code is not None:
                    codes.setdefault(code, name)
    tb = err.__traceback__
    while tb is not None:
        found = codes.get(tb.tb_frame.f_code)
        if found is not None:
            return found
        tb = tb.tb_next
    return None


# ---- statements -----------------------------------------------------------------


def amounts(ctx: Context, pairs: Iterable[Value], span: Span | None = None) -> list[tuple[int, str]]:
    """Check a list of (count, resource) pairs produced by an amount expression (refused at
    ``span``, the statement's)."""
    out = []
    for pair in pairs:
        if not (isinstance(pair, tuple) and len(pair) == 2 and pair[1] in ctx.rs.resources):
            raise ctx.failure(f"{rules_value(pair)} is not an amount of a resource", span)
        out.append((_num(ctx, pair[0], "amount", span), pair[1]))
    return out


def gain(ctx: Context, pairs: Iterable[tuple[int, str]], to: int | None) -> None:
    for n, res in pairs:
        ctx.gain(res, n, to)


def pay(ctx: Context, pairs: Iterable[tuple[int, str]]) -> None:
    for n, res in pairs:
        ctx.pay(res, n)


def lose(ctx: Context, pairs: Iterable[tuple[int, str]], to: int | None) -> None:
    for n, res in pairs:
        ctx.lose(res, n, to)


def set_var(ctx: Context, var: VarDef, idx: Value, of: Value, value: Value) -> None:
    if of is not None:
        saved = ctx.me
        ctx.me = ctx.player(of)
        try:
            key = var_key(ctx, var, idx)
        finally:
            ctx.me = saved
    else:
        key = var_key(ctx, var, idx)
    ctx.set(key, value)


def fits(ctx: Context, t: TypeRef, v: Value, entities: bool = True) -> bool:
    """Whether ``v`` is a value of declared type ``t``: a number (not a truth value) for int and
    player, a text for text and hex, an entity of the kind for a kind (without ``entities``:
    any text), a list of such for ``list[...]``, anything for any; none only for an optional
    type or any; a list's elements are charged to the budget."""
    if v is None:
        return t.optional or t.list_of is None and t.name == "any"
    if t.list_of is not None:
        if type(v) is not tuple:
            return False
        elem = t.list_of
        if elem.list_of is None and elem.name == "any":
            return True   # (a list of anything: its elements not walked)
        spent(ctx, len(v))
        if entities and elem.list_of is None and not elem.optional:
            names = ctx.rs.kind_sets.get(elem.name)
            if names is not None:   # (a list of one kind's entities: tested in C)
                try:
                    return names.issuperset(v)
                except TypeError:   # (an element that cannot be hashed is no entity)
                    return False
        return all(fits(ctx, elem, x, entities) for x in v)
    name = t.name
    if name == "any":
        return True
    if name in ("int", "player"):
        return type(v) is int
    if name == "bool":
        return type(v) is bool
    if name in ("text", "hex") or not entities:
        return type(v) is str
    ent = ctx.rs.entities.get(v) if type(v) is str else None
    return ent is not None and ent.kind == name


def conform(ctx: Context, var: VarDef, v: Value, span: Span | None) -> Value:
    """``v``, about to be set to variable ``var`` where the checker could not prove its type
    (Program.proven_sets); else the violation at the ``set`` (``span``), state unchanged."""
    if fits(ctx, var.type, v):
        return v
    raise ctx.failure(f"'{var.name}' is {var.type}: it cannot be set to {a_value(v)}", span)


def advance(ctx: Context, track: str, by: Value, span: Span | None = None) -> None:
    rs = ctx.rs
    tdef = rs.tracks[track]
    me = ctx.player()
    key = ("t", track, me)
    level = ctx.get(key)
    steps = _num(ctx, by, "advance", span)
    if steps < 0:
        raise ctx.violation(f"cannot advance {track} by a negative number ({steps})")
    if level == tdef.high and steps:
        raise ctx.violation(f"{track} is already at level {level} of {tdef.high}")
    if level + steps > tdef.high:
        raise ctx.violation(f"{track} is at level {level} of {tdef.high}: "
                            f"{steps} more levels would pass the top")
    for _ in range(steps):
        level += 1
        ctx.set(key, level)
        ctx.events.append(_event(ctx, "advance", me, (track, level)))
        reward = rs.track_rewards.get((track, level))
        if reward is not None:
            run_unit(ctx, reward, f"{track} {level}")
        if "advanced" in rs.triggers_by_event:
            emit(ctx, "advanced", [me, track, level])


def _event(ctx: Context, kind: str, player: int | None, detail: Value) -> Event:
    return _new_event(Event, (ctx.ply, kind, player, detail, ctx.source or "rules"))


_DEEP_HINT = ("hint: does a rule run itself again, through an 'emit', a 'call' or a slot, with "
              "nothing to stop it? Give that a condition that ends it")


def run_unit(ctx: Context, fn: Callable[[Context], Any], source: str, me: int | None = None,
             env: dict[str, Value] | None = None) -> Any:
    """Run a compiled block with its own source label (and optionally ``me`` and bindings);
    what ``fn`` returns (None for a block; an action guard's answer, lang/guards.py)."""
    saved_source, saved_me, saved_env = ctx.source, ctx.me, ctx.env
    ctx.source = source
    if me is not None:
        ctx.me = me
    if env is not None:
        ctx.env = env
    depth = ctx.depth = ctx.depth + 1   # (locals: the hottest function of the rules)
    steps = ctx.steps = ctx.steps - 1
    if steps < 0:
        raise ctx.over_budget()
    if depth > LIMITS.max_call_depth:
        raise TooDeep(f"rules call each other more than {LIMITS.max_call_depth} levels deep (the "
                      f"engine's limit: triggers, procedures, slots running one another); {_DEEP_HINT}",
                      _unit_name(ctx, fn))
    try:
        return fn(ctx)
    except RecursionError:  # deep rules inside deep rules: a last line of defence
        raise TooDeep(f"rules call each other {depth} levels deep, with loops and blocks nested in "
                      f"them, and that is deeper than the engine can run (at most {LIMITS.max_call_depth} "
                      f"levels, fewer when each nests many loops); {_DEEP_HINT}", _unit_name(ctx, fn)) from None
    finally:
        ctx.depth = depth - 1
        ctx.source, ctx.me, ctx.env = saved_source, saved_me, saved_env


def _unit_name(ctx: Context, fn: Callable[[Context], Any]) -> str:
    """The procedure whose body ``fn`` is (it runs under its caller's name, ``ctx.source``),
    else ``ctx.source``: the rule a :class:`TooDeep` names (looked up on that error only)."""
    return next((name for name, body in ctx.rs._action_bodies.items() if body is fn), ctx.source)


_LAZY: list[Callable[..., Any]] = []   # lang/lazy.py's ``admitted``, once imported


def choose(ctx: Context, block_id: int, var: str, options: Value, where: ExprFn | None,
           by: Value, optional: bool, prompt: str, lazy: Any = None, each: FilterFn | None = None) -> None:
    """Queue a decision; ``where`` filters the options with ``var`` bound to each (``each``:
    the same filter compiled as one loop, when there is one). ``lazy``: how the filter may be
    cut short in a listing's run (``ctx.lazy``; lang/lazy.py)."""
    opts: Dice | tuple[Value, ...]
    if isinstance(options, Dice):
        opts = options
    else:
        listed = opts = domain(ctx, options)
        if where is not None:
            cut = None
            if lazy is not None and ctx.lazy:
                if not _LAZY:   # (imported once: an import statement run per call costs a
                    from .lazy import admitted   # few µs, and lang/lazy.py imports this module)
                    _LAZY.append(admitted)
                cut = _LAZY[0](ctx, var, listed, where, optional, lazy, each)
            opts = admitted_by(ctx, var, listed, where, each) if cut is None else cut
    player = ctx.player() if by is None else (CHANCE if by == CHANCE else ctx.player(by))
    if not optional and not isinstance(opts, Dice) and len(opts) == 0:
        raise ctx.violation(f"no choice is possible for '{var}'")
    ctx.queue(Decision(player, var, opts, optional, prompt, block_id,
                       tuple(ctx.env.items()), ctx.me, ctx.source))


def admitted_by(ctx: Context, var: str, opts: Sequence[Value], where: ExprFn,
                each: FilterFn | None = None) -> tuple[Value, ...]:
    """The options ``where`` admits, with ``var`` bound to each in turn (by ``each``, the same
    test as one loop, when given)."""
    if each is not None:
        return each(ctx, opts, False)  # type: ignore[no-any-return]
    saved = ctx.env
    kept = []
    try:
        for o in opts:
            ctx.env = {**saved, var: o}
            if where(ctx):
                kept.append(o)
    finally:
        ctx.env = saved
    return tuple(kept)


def draw(ctx: Context, block_id: int, var: str, bag: str) -> None:
    """Queue chance's draw of ``var`` from the list variable ``bag``; a violation when the
    pile is empty, or when the draws from it queued before this one and not yet decided
    leave it empty (they take their elements only when decided: two draws in one action
    from a pile of one, or a decision's block drawing while an older draw waits, would leave
    one of them nothing to draw). Those draws are counted in the state (``("d", bag)``), so
    every run sees the ones queued before it (the engine's ``undrawn`` counts one decided)."""
    contents = ctx.get(("v", bag))
    if not contents:
        raise ctx.violation(f"'{bag}' is empty: nothing to draw")
    ahead = ctx.get(("d", bag))
    if ahead >= len(contents):
        raise ctx.violation(f"'{bag}' holds {len(contents)}, as many as the draws from it before "
                            f"this one take: nothing left to draw")
    ctx.set(("d", bag), ahead + 1)
    ctx.queue(Decision(CHANCE, var, tuple(dict.fromkeys(contents)), False, "", block_id,
                       tuple(ctx.env.items()), ctx.me, ctx.source, bag))


def undrawn(ctx: Context, bag: str) -> None:
    """Count a draw from ``bag`` (queued by :func:`draw`) as decided: no longer pending."""
    ctx.set(("d", bag), ctx.get(("d", bag)) - 1)


def emit(ctx: Context, event: str, args: Sequence[Value]) -> None:
    rs = ctx.rs
    for trig in rs.triggers_by_event.get(event, ()):
        if trig.entity is not None:
            holder = ctx.get(("o", trig.entity))
            if holder is None:
                continue
            me = holder
        else:
            me = ctx.me
        env = dict(zip(trig.names, args))
        if trig.entity is not None:
            env["self"] = trig.entity
        saved = ctx.me, ctx.env
        ctx.me, ctx.env = me, env
        try:
            ok = trig.cond is None or trig.cond(ctx)
        finally:
            ctx.me, ctx.env = saved
        if ok:
            try:
                run_unit(ctx, trig.body, trig.source, me=me, env=env)
            except RuleViolation as err:   # (a pay that cannot be met has no place: the trigger's)
                if err.rule == trig.source:
                    at(err, trig.span)
                raise


def run_slot(ctx: Context, entity: Value, slot: str, for_: Value, span: Span | None = None) -> None:
    """Run ``entity``'s ``slot`` (for player ``for_``, None: me); what is no entity is refused at
    ``span`` (the ``run`` statement's; the slot's body places its own refusals)."""
    rs = ctx.rs
    if type(entity) is not str or entity not in rs.entities:
        raise at(entity_arg_error(ctx, "run", entity), span)   # (entity_arg's test inlined: slots run often)
    fn = rs._slots.get((entity, slot))   # (Ruleset.slot_fn, without the call)
    if fn is None:
        return
    me = ctx.me if for_ is None else ctx.player(for_)
    run_unit(ctx, fn, entity, me=me, env={"self": entity})


def queue_block(ctx: Context, block_id: int) -> None:
    """``queue { ... }``: a pending entry of no player; the flow runs it when it reaches the
    front (game/flow.py), so the decisions queued before it are decided first."""
    # Decision.player is annotated int in runtime.py; a queued block's is None
    ctx.queue(Decision(None, "queue", (), False, "", block_id,  # type: ignore[arg-type]
                       tuple(ctx.env.items()), ctx.me, ctx.source))


def after_turn(ctx: Context, block_id: int) -> None:
    pending = ctx.get(F_AFTER) or ()
    ctx.set(F_AFTER, pending + ((block_id, tuple(ctx.env.items()), ctx.me, ctx.source),))


def take(ctx: Context, e: Value) -> None:
    e = entity_arg(ctx, "take", e)
    owner = ctx.get(("o", e))
    me = ctx.player()
    if owner is not None and owner != me:
        raise ctx.violation(f"{e} belongs to another player")
    ctx.set(("o", e), me)
    ctx.events.append(_event(ctx, "take", me, e))


def give(ctx: Context, e: Value, to: Value) -> None:
    e = entity_arg(ctx, "give", e)
    to = ctx.player(to)
    ctx.set(("o", e), to)
    ctx.events.append(_event(ctx, "take", to, e))


def discard(ctx: Context, e: Value) -> None:
    e = entity_arg(ctx, "discard", e)
    ctx.set(("o", e), None)
    ctx.events.append(_event(ctx, "discard", ctx.me, e))


def call_procedure(ctx: Context, fn: str, args: Sequence[Value]) -> None:
    rs = ctx.rs
    if fn in rs.primitives:
        try:
            rs.primitives[fn].fn(ctx, *args)
        except (RuleViolation, BoardrulesError):
            raise
        except Exception as err:
            raise primitive_failed(ctx, err, fn) from err
        return
    proc = rs.actions[fn]
    env = {p.name: a for p, a in zip(proc.params, args)}
    run_unit(ctx, rs.action_body(fn), ctx.source or fn, env=env)


def do_pass(ctx: Context) -> None:
    me = ctx.player()
    passed = ctx.get(F_PASSED) or ()
    if me in passed:
        raise ctx.violation("you have already passed")
    ctx.set(F_PASSED, passed + (me,))
    ctx.events.append(_event(ctx, "pass", me, None))


def use(ctx: Context, comp: str) -> None:
    me = ctx.player()
    key = ("c", comp, me)
    left = ctx.get(key)
    if left <= 0:
        raise ctx.violation(f"no {comp} left in the supply")
    ctx.set(key, left - 1)


def restore(ctx: Context, comp: str) -> None:
    me = ctx.player()
    key = ("c", comp, me)
    left = ctx.get(key)
    if left >= ctx.rs.components[comp].supply:
        raise ctx.violation(f"every {comp} is already in the supply")
    ctx.set(key, left + 1)


def require(ctx: Context, ok: Value, message: str, span: Span | None) -> None:
    if not ok:
        raise RuleViolation(message, ctx.source, span)
