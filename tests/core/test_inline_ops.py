"""The compiled back end's own inline forms of arithmetic, orders and entity fields
(lang/codegen.py, ``_Gen.int_op`` and the field table of ``Ruleset.field_values``): two whole
numbers computed or compared at once, an entity's field read from the table of the field's
values, anything else through the helpers. Both back ends give the same values, refuse alike
(a number beyond the rules' numbers, a zero divisor, a truth value or a text where a number
is needed, a field that is not there) and evaluate both sides before refusing."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from boardrules.errors import IllegalActionError
from boardrules.game import new_game

RULES = """\
game t { players 2..2 }
resource a { start 3 }
kind gear { field size: int = 1; field label: text = "" }
kind tool { field label: text = "t" }
gear cog { size 4; label "cog" }
gear axle { }
tool saw { }
var x: int = 2
var big: int = 0
var w: any = true
var t: any = "a"
var n: any = [1]
var e: any = "cog"
var f: any = "saw"
var out: any = none
action go main {
  set big = 999999999999999999 * 9 + 223372036854775816   # (2^63 - 1: the largest number)
  set out = EXPR
}
flow { rounds 1 { step play: turns seat once { main go } } }
"""

EXPRS = [
    # whole numbers, at once; beyond the rules' numbers (either way) and zero divisors refused
    "x + 3", "x - 7", "x * a", "big + 0", "big + 1", "0 - big - 1", "0 - big", "big * x", "(0 - big) * x",
    "x // (a - 3)", "x % (a - 3)", "(0 - 7) // x", "(0 - 7) % a", "x < a", "a <= x", "x > a",
    "x >= x",
    # anything else: the helpers (a truth value is no number; lists and texts)
    "w + 1", "w * x", "w < 2", "t + 1", "t < 2", "2 >= n", "x + n", "n // 2", "w % 2",
    # both sides evaluated before a refusal: the right side's error is the one raised
    "w + (x // 0)", "n < (x % 0)",
    # entity fields: from the table, or a field the entity has not, or no entity at all
    "cog.size + axle.size", "cog.label", "axle.label", "saw.label", "e.size", "t.size", "w.size",
    "n.size", "f.size", "(sum g.size for g in [cog, axle])",
    "(count g in [cog, axle, saw] where g.label == \"\")", "(sum y for y in [cog.size, e.size])",
    # orders of lengths and counts (surely whole numbers: compared without a test, _Gen.surely_int)
    "len(n) > 0", "0 < len(t)", "len(n) <= (count g in [cog, axle] where g.size > 1)", "len(w) > 0",
    "(count g in [cog, axle] where g.size > 1) >= x",
]


def _outcome(expr: str, backend: str):
    g = new_game(texts={"t.rules": RULES.replace("EXPR", expr)}, players=2, backend=backend)
    try:
        g.play("p1 go")
    except IllegalActionError as err:
        return "refused", str(err)
    return "ok", g.state.values.get(("v", "out"))


@pytest.mark.parametrize("expr", EXPRS)
def test_inline_forms_give_the_interpreters_values_and_refusals(expr):
    compiled, interpreted = _outcome(expr, "compiled"), _outcome(expr, "interpreted")
    assert compiled == interpreted
    assert type(compiled[1]) is type(interpreted[1])


@pytest.mark.parametrize("expr,value", [
    ("big + 0", 9223372036854775807), ("0 - big", -9223372036854775807), ("big + 1", None), ("x // (a - 3)", None), ("(0 - 7) // x", -4),
    ("(0 - 7) % a", 2), ("x >= x", True), ("cog.size + axle.size", 5), ("axle.label", ""),
    ("(sum g.size for g in [cog, axle])", 5), ("(count g in [cog, axle, saw] where g.label == \"\")", 1),
])
def test_inline_forms_known_values(expr, value):
    """(None: refused.)"""
    got = _outcome(expr, "compiled")
    assert got == ("ok", value) if value is not None else got[0] == "refused"


def test_a_list_built_is_charged_the_elements_of_its_lists_only():
    """semantics.nested (a list written or joined by the rules): a list without lists or sets
    in it is returned at once, uncharged; else it is charged the elements of its lists and sets
    at every depth."""
    from boardrules.lang import semantics as S
    from boardrules.runtime import Context
    g = new_game(texts={"t.rules": RULES.replace("EXPR", "x")}, players=2)
    ctx = Context(g.ruleset, {("nplayers",): 2})
    for flat in [(), (1, "a", None, True, "cog"), tuple(range(200))]:
        assert S.nested(ctx, flat) is flat and ctx.steps == ctx.budget
    deep = (1, (2, (3, 4)), frozenset({5, 6, 7}), "x")
    assert S.nested(ctx, deep) is deep and ctx.budget - ctx.steps == 2 + 2 + 3
    assert S.nested(ctx, ((),)) == ((),) and ctx.budget - ctx.steps == 7


def test_a_list_compared_with_itself_is_charged_as_with_an_equal_copy():
    """semantics.equal decides a list compared with the very same object after one walk of it
    (a value read back where it was written); the charge is the same as for an equal copy."""
    from boardrules.lang import semantics as S
    from boardrules.runtime import Context
    g = new_game(texts={"t.rules": RULES.replace("EXPR", "x")}, players=2)
    for value in [(), (1, ("a", "b"), frozenset({2, 3})), tuple((i, "x" * 70) for i in range(30))]:
        spent = []
        for other in (value, tuple(list(value))):
            ctx = Context(g.ruleset, {("nplayers",): 2})
            assert S.equal(ctx, value, other) is True
            spent.append(ctx.budget - ctx.steps)
        assert spent[0] == spent[1] == S.size(value, 10 ** 9)


_VALUES = st.recursive(
    st.one_of(st.integers(-3, 3), st.booleans(), st.none(), st.sampled_from(["", "a", "b", "x" * 64, "y" * 130])),
    lambda inner: st.one_of(st.lists(inner, max_size=4).map(tuple), st.frozensets(inner, max_size=4)),
    max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(_VALUES, _VALUES, st.integers(0, 40))
def test_equal_charges_the_smaller_size_and_refuses_past_the_budget(a, b, steps):
    """semantics.equal answers ``a == b`` and charges ``min(size(a), size(b))`` for two lists or
    sets of one type and length (one walk when they are equal: equal values have equal sizes),
    over the budget exactly where that charge exceeds the steps left (two long texts of one length:
    a step per 64 characters), whatever the pair: equal
    copies, the same object, values that differ deep inside, ``1`` beside ``True``."""
    from boardrules.lang import semantics as S
    from boardrules.runtime import Context, RuleViolation
    g = new_game(texts={"t.rules": RULES.replace("EXPR", "x")}, players=2)
    for x, y in ((a, b), (a, a), (a, _copy(a)), (b, _copy(b))):
        same_kind = type(x) in (tuple, frozenset) and type(y) is type(x) and len(x) == len(y)
        charge = min(S.size(x, 10 ** 9), S.size(y, 10 ** 9)) if same_kind else \
            len(x) >> 6 if type(x) is str and type(y) is str and len(x) == len(y) > 63 else 0
        ctx = Context(g.ruleset, {("nplayers",): 2}, budget=steps)
        if charge > steps:   # (refused, the budget left as the smaller walk to the cap leaves it)
            with pytest.raises(RuleViolation):
                S.equal(ctx, x, y)
            if same_kind:
                assert ctx.steps == steps - min(S.size(x, steps), S.size(y, steps))
            continue
        assert S.equal(ctx, x, y) is (x == y)
        assert steps - ctx.steps == charge


def _copy(v):
    """An equal value built afresh (not the same objects at any depth)."""
    if type(v) is tuple:
        return tuple([_copy(x) for x in v])
    if type(v) is frozenset:
        return frozenset(_copy(x) for x in v)
    return "".join(list(v)) if type(v) is str else v


def _steps_needed(expr: str, backend: str) -> int:
    """The least ``max_steps`` with which ``p1 go`` sets ``out`` to ``expr``."""
    from boardrules.errors import BoardrulesError
    for steps in range(1, 500):
        try:
            g = new_game(texts={"t.rules": RULES.replace("EXPR", expr)}, players=2, backend=backend,
                         max_steps=steps)
            g.play("p1 go")
        except BoardrulesError:
            continue
        return steps
    raise AssertionError(f"{expr} needs more than 500 steps")


@pytest.mark.parametrize("expr", ["1..40", "(count y in 1..40 where y > 2)", "(sum y for y in 3..1)"])
def test_a_range_of_written_numbers_is_charged_and_refused_as_the_interpreter_does(expr):
    """The compiled back end makes a range of two numbers written in the rule once (a listing's
    domain ``1..3`` cost three calls each time): its value, what it charges the execution budget
    and its refusal past ``LIMITS.max_list`` are the interpreter's."""
    from boardrules.limits import LIMITS
    assert _outcome(expr, "compiled") == _outcome(expr, "interpreted")
    assert _steps_needed(expr, "compiled") == _steps_needed(expr, "interpreted")
    with LIMITS.changed(max_list=39):
        compiled, interpreted = _outcome(expr, "compiled"), _outcome(expr, "interpreted")
    assert compiled == interpreted
    assert compiled[0] == ("ok" if "3..1" in expr else "refused")
    if compiled[0] == "refused":
        assert "the range 1..40 is too long for the rules (at most 39 numbers)" in compiled[1]
