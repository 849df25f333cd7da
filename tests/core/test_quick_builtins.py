"""The compiled back end's quick forms (lang/codegen.py): the built-ins ``len``, ``first``,
``owner``, ``held``, ``field`` and ``passed`` called through helpers of their own (``_QUICK_BUILTINS``),
``me`` read inline, two lists joined at once, and ``==``/``!=`` decided at once where one side
is surely no long text and no list (``_Gen.scalar``). Each gives the tree-walking interpreter's
value (the oracle), charges the same steps, and refuses alike (what is no list, no entity, no
player as ``me``), with an empty overlay and with writes pending."""

from __future__ import annotations

import pytest

from boardrules.game import new_game
from boardrules.lang import ast as A
from boardrules.lang.backends import Interpreter
from boardrules.runtime import Context, RuleViolation

RULES = """\
game t { players 2..4 }
resource coins { start 3 }
kind card { field cost: int = 0; field label: text = "" }
card sow { cost 1; label "sow" }
card reap { cost 2 }
card plow { cost 3 }
var hexes: list[hex] = ["a1", "a2", "b1"]
var deck: list[card] = [reap, sow]
var none_yet: list[card] = []
var nested: any = [[1, 2], [3]]
var word: any = "sow"
var num: any = 4
var owner_at: player? per hex = none
var out: any = none
action probe(c: card, h: hex) main {
  set out = EXPR
}
flow { rounds 1 { step play: turns seat once { main probe } } }
"""

EXPRS = [
    # the built-ins: lists (charged by their length; ``first`` walks its list twice), entities
    "len(deck)", "len(none_yet)", "len(nested)", "first(deck)", "first(none_yet)",
    "first(nested)", "owner(c)", "owner(sow)", "held(card)", "held(deck)", "field(c, \"cost\")",
    "field(sow, \"label\")", "field(reap, \"label\")",
    # ... and what they refuse: no list, no entity, no field, no text as the field's name
    "len(num)", "len(word)", "first(num)", "owner(word)", "owner(num)", "owner(none)",
    "held(num)", "held(\"nothing\")", "field(c, \"size\")", "field(word, \"cost\")",
    "field(c, num)", "field(num, \"cost\")",
    # passed(p): a player's number (the players passed now, none before the first pass), and
    # what is no player (out of range, a truth value, a text, none)
    "passed(me)", "passed(0)", "passed(num)", "passed(-1)", "passed(true)", "passed(word)", "passed(none)",
    # ``me``, and comparisons with it or with numbers computed, decided at once
    "me", "owner_at[h] == me", "me != owner_at[h]", "owner(c) == me", "[me, c]",
    "len(deck) == len(hexes)", "(count x in hexes where owner_at[x] == me) != 0",
    "nested == [[1, 2], [3]]", "word == field(sow, \"label\")",
    # lists joined (charged by their length, and by the lists they hold), and numbers added
    "deck + hexes", "nested + nested", "deck + [c]", "num + 1", "nested + num", "num + nested", "word + nested",
]

WRITES = {("o", "sow"): 1, ("o", "plow"): 0, ("v", "owner_at", "a1"): 0,
          ("v", "deck"): ("plow", "sow", "reap"), ("v", "num"): 5, ("f", "passed"): (2, 0)}


def _fns(expr: str):
    g = new_game(texts={"t.rules": RULES.replace("EXPR", expr)}, players=3)
    rs = g.ruleset
    stmt = rs.actions["probe"].body.stmts[0]
    assert isinstance(stmt, A.Set)
    return g, rs.backend.expr(stmt.value), Interpreter(rs).expr(stmt.value)


def _ctx(g, me, pending=()):
    ctx = Context(g.ruleset, dict(g.state.values), me=me)
    ctx.env = {"c": "sow", "h": "a1"}
    ctx.w.update(pending)
    return ctx


def _run(fn, ctx):
    try:
        got = ("ok", fn(ctx), type(fn(_copy(ctx))))
    except RuleViolation as err:
        got = ("refused", err.message, type(err))
    return got, ctx.budget - ctx.steps


def _copy(ctx):
    other = Context(ctx.rs, ctx.base, me=ctx.me)
    other.env, other.w = dict(ctx.env), dict(ctx.w)
    return other


@pytest.mark.parametrize("expr", EXPRS)
def test_quick_forms_give_the_interpreters_values_charges_and_refusals(expr):
    g, compiled, interpreted = _fns(expr)
    for pending in ((), WRITES.items()):
        for me in (0, 1, 2):
            got = _run(compiled, _ctx(g, me, pending))
            want = _run(interpreted, _ctx(g, me, pending))
            assert got == want, (expr, me, pending)


@pytest.mark.parametrize("expr", ["me", "owner_at[h] == me", "owner(c) == me", "held(card)",
                                  "[me, c]", "passed(me)"])
@pytest.mark.parametrize("me", [None, -1, 3, True, "p1"])
def test_no_player_as_me_is_the_interpreters_violation(expr, me):
    g, compiled, interpreted = _fns(expr)
    errors = []
    for fn in (compiled, interpreted):
        with pytest.raises(RuleViolation) as err:
            fn(_ctx(g, me, WRITES.items()))
        errors.append((err.value.message, err.value.span))
    assert errors[0] == errors[1] and "no player here" in errors[0][0]


@pytest.mark.parametrize("expr,me,pending,value,spent", [
    ("len(deck)", 0, (), 2, 2),
    ("first(deck)", 0, (), "reap", 4),            # (the list walked twice)
    ("first(none_yet)", 0, (), None, 0),
    ("owner(c)", 0, WRITES.items(), 1, 0),
    ("held(card)", 0, WRITES.items(), ("plow",), 3),
    ("field(c, \"cost\")", 0, (), 1, 0),
    ("passed(me)", 0, (), False, 0),
    ("passed(me)", 0, WRITES.items(), True, 0),
    ("passed(me)", 1, WRITES.items(), False, 0),
    ("owner_at[h] == me", 0, WRITES.items(), True, 0),
    ("owner_at[h] == me", 1, WRITES.items(), False, 0),
    ("deck + hexes", 0, (), ("reap", "sow", "a1", "a2", "b1"), 5),
    ("nested + nested", 0, (), ((1, 2), (3,), (1, 2), (3,)), 4 + 6),
])
def test_known_values_and_charges(expr, me, pending, value, spent):
    g, compiled, _ = _fns(expr)
    ctx = _ctx(g, me, pending)
    assert compiled(ctx) == value and ctx.budget - ctx.steps == spent


def test_the_budget_runs_out_in_a_quick_form_as_in_the_interpreter():
    """A list's length charged past the budget: both back ends raise the same error."""
    g, compiled, interpreted = _fns("first(deck) == len(hexes + deck)")
    errors = []
    for fn in (compiled, interpreted):
        for left in range(0, 20):
            ctx = _ctx(g, 0)
            ctx.steps = left
            try:
                fn(ctx)
                errors.append(("ok", left, ctx.steps))
            except RuleViolation as err:
                errors.append((type(err).__name__, left, ctx.steps))
    assert errors[:20] == errors[20:]
    assert errors[0][0] == "BudgetExceeded" and errors[19][0] == "ok"


@pytest.mark.parametrize("expr", ["c == sow", "sow != c", "sow.cost == num", "reap.label == word",
                                  "sow.label == field(c, \"label\")", "[sow, me, reap.cost]"])
def test_fixed_fields_and_entity_names_compare_at_once_as_the_interpreter(expr):
    """An entity's name and a fixed entity's field are no lists: ``==`` and a list holding them
    are decided at once, with the interpreter's values and charges."""
    g, compiled, interpreted = _fns(expr)
    for pending in ((), WRITES.items()):
        assert _run(compiled, _ctx(g, 0, pending)) == _run(interpreted, _ctx(g, 0, pending))


@pytest.mark.parametrize("expr", ["deck[0]", "deck[num - 6]", "deck[num]", "deck[word]", "nested[1][0]",
                                  "word[0]", "num[0]", "hexes[len(deck)]", "[deck[1], nested[0]]"])
def test_a_lists_element_is_read_at_once_as_the_interpreter_reads_it(expr):
    """``list[i]``: a list's element at once for a whole number in range, else the helper
    (a negative index from the end, out of range, no number, a text, no list: as the
    interpreter), both sides evaluated first."""
    g, compiled, interpreted = _fns(expr)
    for pending in ((), WRITES.items()):
        for me in (0, 1):
            assert _run(compiled, _ctx(g, me, pending)) == _run(interpreted, _ctx(g, me, pending))


@pytest.mark.parametrize("expr", ["nplayers", "round", "round + nplayers", "[round, nplayers]",
                                  "(count x in hexes where round == 0)"])
def test_the_round_and_the_player_count_read_as_the_interpreter_reads_them(expr):
    g, compiled, interpreted = _fns(expr)
    for pending in ((), WRITES.items(), {("f", "round"): 3}.items()):
        assert _run(compiled, _ctx(g, 0, pending)) == _run(interpreted, _ctx(g, 0, pending))
