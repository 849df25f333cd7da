"""The compiled back end's own reads of state values (lang/codegen.py, ``_Gen.read``): a value of
``me`` (a resource, track, supply, per-player variable), a plain variable and a variable indexed
per hex/entity (and per player) read inline, the overlay asked only when it holds writes. They
give the tree-walking interpreter's values (the oracle) with an empty overlay and with pending
writes, raise its violation where ``me`` is no player, charge a list as index alike, and read
alike inside a quantifier's domain (where the helpers read: no temporary may be used there)."""

from __future__ import annotations

import pytest

from boardrules.game import Action, new_game
from boardrules.lang import ast as A
from boardrules.lang.backends import Interpreter
from boardrules.runtime import RuleViolation

RULES = """\
game t { players 2..4 }
resource coins { start 3 }
track power { levels 0..5 }
component disc { supply 6 }
kind card { field cost: int = 0 }
card sow { cost 1 }
card reap { cost 2 }
card plow { cost 3 }
var hexes: list[hex] = ["a1", "a2", "b1"]
var level: int = 4
var bonus: int per player = 2
var owner_at: player? per hex = none
var marks: int per player per card = 5
var tally: int per hex = 7
var out: any = none
action probe(c: card, h: hex) main {
  set out = EXPR
}
flow { rounds 1 { step play: turns seat once { main probe } } }
"""

EXPRS = [
    "coins", "power", "disc", "level", "bonus", "bonus of 1", "owner_at[h]", "owner_at[\"b1\"]",
    "marks[c]", "marks[sow]", "marks[c] of 1", "tally[h] + tally[\"a2\"]",
    "[coins, power, disc, level, bonus, marks[reap], owner_at[h]]",
    # in a quantifier's body (a Python generator: the temporaries are the function's cells) and
    # in its domain (no temporary there: the helpers read)
    "(count x in hexes where owner_at[x] == 1 and tally[x] > coins)",
    "(sum marks[y] + bonus for y in [sow, reap])",
    "(sum x for x in [coins, bonus, tally[h], marks[c], level])",
]

# keys written in the overlay, or committed, for the pending reads (each read above is one)
WRITES = {("r", "coins", 0): 9, ("t", "power", 0): 3, ("c", "disc", 0): 1, ("v", "level"): 8,
          ("v", "bonus", 0): 6, ("v", "bonus", 1): 11, ("v", "owner_at", "a1"): 1,
          ("v", "owner_at", "b1"): 0, ("v", "marks", 0, "sow"): 12, ("v", "marks", 1, "sow"): 13,
          ("v", "marks", 0, "reap"): 14, ("v", "tally", "a1"): 20, ("v", "tally", "a2"): 21}


def _fns(expr: str):
    """The ruleset, the compiled and the interpreted function of ``expr`` (``out``'s value)."""
    g = new_game(texts={"t.rules": RULES.replace("EXPR", expr)}, players=3)
    rs = g.ruleset
    stmt = rs.actions["probe"].body.stmts[0]
    assert isinstance(stmt, A.Set)
    return g, rs, rs.backend.expr(stmt.value), Interpreter(rs).expr(stmt.value)


def _ctx(g, me, env, committed=(), pending=()):
    from boardrules.runtime import Context
    base = dict(g.state.values)
    base.update(committed)
    ctx = Context(g.ruleset, base, me=me)
    ctx.env = dict(env)
    ctx.w.update(pending)
    return ctx


@pytest.mark.parametrize("expr", EXPRS)
def test_inline_reads_give_the_interpreters_values(expr):
    g, rs, compiled, interpreted = _fns(expr)
    assert rs.recipe.backend == "compiled"
    env = {"c": "sow", "h": "a1"}
    split = list(WRITES.items())
    for committed, pending in [((), ()), (WRITES.items(), ()), ((), WRITES.items()),
                               (split[::2], split[1::2])]:
        for me in (0, 1):
            got = compiled(_ctx(g, me, env, committed, pending))
            want = interpreted(_ctx(g, me, env, committed, pending))
            assert got == want and type(got) is type(want), (expr, me, committed, pending)
    # the values themselves, read once each way (empty overlay, then a write pending)
    assert compiled(_ctx(g, 0, env)) == interpreted(_ctx(g, 0, env))


def test_known_values_with_an_empty_and_a_pending_overlay():
    g, _, compiled, _ = _fns("[coins, bonus, marks[c], owner_at[h], level, tally[h]]")
    env = {"c": "sow", "h": "a1"}
    assert compiled(_ctx(g, 0, env)) == (3, 2, 5, None, 4, 7)
    assert compiled(_ctx(g, 0, env, committed=WRITES.items())) == (9, 6, 12, 1, 8, 20)
    assert compiled(_ctx(g, 1, env, pending=WRITES.items())) == (3, 11, 13, 1, 8, 20)
    # a write pending hides the committed value, even one back at its default
    ctx = _ctx(g, 0, env, committed=WRITES.items(), pending={("r", "coins", 0): 3, ("v", "level"): 4})
    assert compiled(ctx) == (3, 6, 12, 1, 4, 20)


@pytest.mark.parametrize("me", [None, -1, 3, 7, True, "p1"])
@pytest.mark.parametrize("expr", ["coins", "bonus", "marks[c]", "marks[sow]", "power + 1",
                                  "(sum x for x in [bonus])"])
def test_no_player_as_me_is_the_interpreters_violation(expr, me):
    """``me`` none, chance, a seat the game has not (3 of 3 players), a truth value or a text:
    the read of ``me``'s own value raises the interpreter's violation, word for word."""
    g, _, compiled, interpreted = _fns(expr)
    errors = []
    for fn in (compiled, interpreted):
        with pytest.raises(RuleViolation) as err:
            fn(_ctx(g, me, {"c": "sow", "h": "a1"}, pending=WRITES.items()))
        errors.append((type(err.value), err.value.message, err.value.span))
    assert errors[0] == errors[1] and "no player here" in errors[0][1]


@pytest.mark.parametrize("expr", ["tally[h]", "marks[c]"])
def test_a_list_as_index_is_charged_alike(expr):
    """A list as index is charged its size before it is hashed (semantics.keyed), as the
    interpreter charges it; a text is not charged."""
    g, _, compiled, interpreted = _fns(expr)
    spent = []
    for fn in (compiled, interpreted):
        for index in (("a1", "a2", ("b1",)), "a1", frozenset({"a1", "a2"})):
            ctx = _ctx(g, 1, {"c": index, "h": index})
            fn(ctx)
            spent.append(ctx.budget - ctx.steps)
    assert spent[:3] == spent[3:] and spent[1] == 0 and spent[0] > 0


@pytest.mark.parametrize("pending,mine", [
    ({}, ("sow", "plow")),
    ({("o", "sow"): None, ("o", "reap"): 0, ("o", "plow"): 2}, ("reap",)),
    ({("o", "plow"): 0, ("o", "reap"): 1}, ("sow", "plow")),
])
def test_held_reads_owners_through_the_overlay(pending, mine):
    """``held(card)``: the cards whose owner (the overlay's, else the committed one) is ``me``,
    in the order the cards are declared, whether or not writes are pending (semantics._held
    reads the owners itself, Context.get inlined)."""
    g, _, compiled, interpreted = _fns("held(card)")
    committed = {("o", "sow"): 0, ("o", "reap"): 1, ("o", "plow"): 0}
    for me in (0, 1, 2):
        ctx = _ctx(g, me, {}, committed.items(), pending.items())
        want = tuple(c for c in ("sow", "reap", "plow") if ctx.get(("o", c)) == me)
        assert compiled(ctx) == want == interpreted(_ctx(g, me, {}, committed.items(), pending.items()))
        assert ctx.budget - ctx.steps == 3   # (charged one step per card, as before)
    assert compiled(_ctx(g, 0, {}, committed.items(), pending.items())) == mine


def test_held_asked_again_answers_for_the_table_and_player_read():
    """``held(card)`` asked again of the same committed table without writes (a listing's
    ``where`` per candidate: the last answer kept, semantics._held) answers for the table, the
    player and the overlay of each call, and charges its steps each time."""
    from boardrules.runtime import Context
    g, _, compiled, interpreted = _fns("held(card)")
    tables = [{**g.state.values, ("o", "sow"): 0, ("o", "reap"): 1, ("o", "plow"): 0},
              {**g.state.values, ("o", "sow"): 1, ("o", "plow"): 1}]
    calls = [(0, 0, {}), (0, 0, {}), (0, 1, {}), (1, 1, {}), (1, 1, {("o", "sow"): 2}),
             (1, 1, {}), (0, 0, {("o", "plow"): 1}), (0, 0, {}), (1, 0, {})]
    for table, me, pending in calls:
        ctx = Context(g.ruleset, tables[table], me=me)
        ctx.w.update(pending)
        want = tuple(c for c in ("sow", "reap", "plow") if ctx.get(("o", c)) == me)
        assert compiled(ctx) == want
        assert ctx.budget - ctx.steps == 3
        oracle = Context(g.ruleset, tables[table], me=me)
        oracle.w.update(pending)
        assert interpreted(oracle) == want


def test_equal_actions_hash_alike():
    a, b = Action(0, "probe", ("sow", "a1")), Action(0, "probe", ["sow", "a1"])
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    g = new_game(texts={"t.rules": RULES.replace("EXPR", "coins")}, players=3)
    listed = list(g.legal_actions())   # (the engine's own candidates, made without __init__)
    assert Action(0, "probe", ("sow", "a1")) in listed
    assert {hash(x) for x in listed} == {hash(Action(x.player, x.name, x.args)) for x in listed}


@pytest.mark.parametrize("expr", ["marks[sow]", "marks[sow] of 1", "[marks[plow], marks[c]]",
                                  "(sum marks[reap] for y in [sow, reap])"])
def test_an_entitys_name_as_index_reads_as_a_literal(expr):
    """An entity's name as index (``marks[sow]``) is a text whatever the state: its key is
    built at once, as for a literal, with the interpreter's values and ``me``'s violation."""
    g, _, compiled, interpreted = _fns(expr)
    env = {"c": "sow", "h": "a1"}
    for committed, pending in [((), ()), (WRITES.items(), ()), ((), WRITES.items())]:
        for me in (0, 1):
            assert compiled(_ctx(g, me, env, committed, pending)) == \
                interpreted(_ctx(g, me, env, committed, pending))
    for fn in (compiled, interpreted):
        if " of " not in expr:   # (``of`` gives the read its player)
            with pytest.raises(RuleViolation, match="no player here"):
                fn(_ctx(g, None, env, pending=WRITES.items()))
