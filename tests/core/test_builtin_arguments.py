"""Built-in functions given values they do not take (the trial of session 17): each is refused
in the rules' words, naming the rule, with the game unchanged. ``table_after(none)`` said
"unsupported operand type(s) for +: 'NoneType' and 'int'", ``min([])`` "min() arg is an empty
sequence", ``sorted([1, "a"])`` "'<' not supported between instances of 'str' and 'int'";
``table_after(99)``, ``passed(99)`` and ``lane_of(99)`` answered for a player who is not in the
game (a list of real seats, false, none) where every other use of a player refuses it."""

from __future__ import annotations

import pytest

import boardrules
from boardrules import IllegalActionError

GAME = """
game probe { players 2..2 }
resource coins { start 0; scored true }
var note: text = "ab"
var nobody: player? = none
action zz main {
  let x = EXPR
  gain 1 coins
}
action work main { gain 1 coins }
flow { rounds 1 { step play: turns seat once { main zz, work } } }
"""


def _refusal(expr: str, backend: str, template: str = GAME) -> str:
    """The refusal of ``p1 zz`` with ``expr`` in ``template``; the game unchanged by it."""
    game = boardrules.new_game(texts={"probe.rules": template.replace("EXPR", expr)}, players=2,
                               backend=backend)
    before = game.state
    assert "p1 zz" not in {str(a) for a in game.legal_actions()}
    with pytest.raises(IllegalActionError) as err:
        game.play("p1 zz")
    assert game.state == before
    line = template.split("\n").index("  let x = EXPR") + 1
    assert str(err.value).endswith(f"[rule: zz (probe.rules:{line}:11)]"), str(err.value)
    return str(err.value)


@pytest.mark.parametrize("backend", ["compiled", "interpreted"])
@pytest.mark.parametrize("expr, message", [
    ("table_after(nobody)", "no player here (got none; players are 0..1)"),
    ("table_after(99)", "no player here (got 99; players are 0..1)"),
    ("table_after(true)", "no player here (got true; players are 0..1)"),
    ("passed(99)", "no player here (got 99; players are 0..1)"),
    ("passed(nobody)", "no player here (got none; players are 0..1)"),
    ("lane_of(0 - 1)", "no player here (got -1; players are 0..1)"),
    ("min([])", "min() of an empty list: it has no smallest element"),
    ("max([])", "max() of an empty list: it has no largest element"),
    ("sorted([1, \"a\", none])", "sorted() orders numbers with numbers and texts with texts "
                                "(lists by their elements): cannot order 1 and 'a'"),
    ("max(1, note)", "max() orders numbers with numbers and texts with texts "
                     "(lists by their elements): cannot order 1 and 'ab'"),
    ("min([none, none])", "min() orders numbers with numbers and texts with texts "
                          "(lists by their elements): cannot order none and none"),
    ("sorted([[1], [1, \"a\"], [1, 2]])", "sorted() orders numbers with numbers and texts with "
                                         "texts (lists by their elements): cannot order "
                                         "[1, 'a'] and [1, 2]"),
])
def test_a_builtin_refuses_what_it_does_not_take(expr, message, backend):
    assert _refusal(expr, backend) == f"p1 zz: {message} [rule: zz (probe.rules:7:11)]"


@pytest.mark.parametrize("expr", ["table_after(me)", "passed(me)", "lane_of(me)", "min([2, 1])",
                                  "sorted([\"b\", \"a\"])", "max([[1], [1, 2]])", "len([])"])
def test_the_same_builtins_take_what_they_take(expr):
    game = boardrules.new_game(texts={"probe.rules": GAME.replace("EXPR", expr)}, players=2)
    game.play("p1 zz")
    assert game.get("coins", 0) == 1


# ---- a long decision's answers (the same trial) -----------------------------------------------

class _Counted:
    """A value that counts how often it is compared for equality."""
    compared = 0

    def __init__(self, n: int) -> None:
        self.n = n

    def __hash__(self) -> int:
        return hash(self.n)

    def __eq__(self, other: object) -> bool:
        _Counted.compared += 1
        return isinstance(other, _Counted) and other.n == self.n


def test_a_long_decisions_options_are_looked_up_not_walked():
    # (a listing checks each of a decision's answers among its options: walking a tuple of
    # 99,999 options for each made the listing of `choose x in 1..99999` quadratic, minutes)
    from boardrules.game.actions import _offered
    options = tuple(_Counted(i) for i in range(2000))
    _Counted.compared = 0
    assert all(_offered(options, _Counted(i)) for i in range(2000))
    assert not _offered(options, _Counted(2000)) and not _offered(options, 5)
    assert _Counted.compared <= 4000   # (walking the tuple: about 2,000,000)


def test_every_answer_of_a_long_choose_is_listed_and_checked():
    text = ("game probe { players 1..1 }\nresource coins { start 0; scored true }\n"
            "action zz main { choose x in 1..3000 { gain x coins } }\n"
            "flow { rounds 1 { step play: turns seat once { main zz } } }\n")
    game = boardrules.new_game(texts={"probe.rules": text}, players=1)
    game.play("p1 zz")
    assert [str(a) for a in game.legal_actions()] == [f"p1 x {i}" for i in range(1, 3001)]
    for wrong in ("p1 x 0", "p1 x 3001", "p1 x true"):
        with pytest.raises(IllegalActionError, match="is not one of the choices for 'x'"):
            game.play(wrong)
    game.play("p1 x 2999")
    assert game.get("coins", 0) == 2999


# ---- the built-ins that take entities (session 19) ----------------------------------------------
# owner(5), holds(5) and kind_of("zz") answered none or false for a value that is no entity (a
# rule comparing 'owner(x) == none' then took it for a free piece); held(5) said "held() failed:
# object of type 'int' has no len()", field(e, [1]) "a card has no field '(1,)'". Where the
# checker knows the type it refuses the call (malformed/check_builtin_argument_types.rules);
# these values are typed 'any' there (first() of a list), so the run refuses them.

ENTITIES = GAME.replace('var note: text = "ab"\nvar nobody: player? = none\n',
                        "kind card { field cost: int = 0 }\ncard plough { cost 3 }\n"
                        "var nothing: card? = none\n")


@pytest.mark.parametrize("backend", ["compiled", "interpreted"])
@pytest.mark.parametrize("expr, message", [
    ("owner(first([5]))", "owner() expects an entity, got the number 5"),
    ("owner(nothing)", "owner() expects an entity, got none"),
    ("holds(first([[1, 2]]))", "holds() expects an entity, got the list [1, 2]"),
    ("holds(first([\"plow\"]))", "holds() expects an entity, got the text 'plow'"),
    ("kind_of(first([\"zz\"]))", "kind_of() expects an entity, got the text 'zz'"),
    ("kind_of(first([true]))", "kind_of() expects an entity, got a truth value"),
    ("held(first([5]))", "held() expects a kind (or a list of entities), got the number 5"),
    ("held(first([\"cards\"]))", "held() expects a kind (or a list of entities), got the text "
                                 "'cards': no kind has this name"),
    ("field(plough, first([[1]]))", "field() expects the name of a field as text, got the list [1]"),
    ("field(first([5]), \"cost\")", "field() expects an entity, got the number 5"),
])
def test_an_entity_builtin_refuses_what_is_no_entity(expr, message, backend):
    assert _refusal(expr, backend, ENTITIES) == f"p1 zz: {message} [rule: zz (probe.rules:8:11)]"


@pytest.mark.parametrize("backend", ["compiled", "interpreted"])
@pytest.mark.parametrize("expr, value", [
    ("owner(plough)", None), ("holds(plough)", False), ("kind_of(plough)", "card"),
    ("held(card)", ()), ("held(\"card\")", ()), ("held([plough])", ()), ("held([])", ()),
    ("held([first([7])])", ()),
    ("field(plough, \"cost\")", 3), ("kind_of(first([plough]))", "card"),
])
def test_the_entity_builtins_take_entities(expr, value, backend):
    text = ENTITIES.replace("EXPR", expr).replace("gain 1 coins\n}", "gain 1 coins\n  set seen = x\n}", 1)
    text = text.replace("var nothing", "var seen: any = 0\nvar nothing")
    game = boardrules.new_game(texts={"probe.rules": text}, players=2, backend=backend)
    game.play("p1 zz")
    assert game.get("seen") == value


STATEMENTS = """
game probe { players 2..2 }
resource coins { start 0; scored true }
kind card { field cost: int = 0
  slot income }
card plough { cost 3 }
var nothing: card? = none
var junk: list[any] = [5, [1, 2], "plow", true]
action zz(i: int in 0..3) main {
  STATEMENT
  gain 1 coins
}
action work main { gain 1 coins }
flow { rounds 1 { step play: turns seat once { main zz, work } } }
"""


@pytest.mark.parametrize("backend", ["compiled", "interpreted"])
@pytest.mark.parametrize("statement", ["take junk[i]", "give junk[i] to 1", "discard junk[i]",
                                       "run junk[i].income"])
def test_an_entity_statement_refuses_what_is_no_entity_in_the_builtins_words(statement, backend):
    """take, give, discard and run said "5 is not an entity" (their own copy of the test that
    ``owner()`` makes): one test now (``semantics.entity_arg``), one wording, placed at the
    statement (they were placed at the action's declaration)."""
    game = boardrules.new_game(texts={"probe.rules": STATEMENTS.replace("STATEMENT", statement)},
                               players=2, backend=backend)
    before = game.state
    assert [str(a) for a in game.legal_actions()] == ["p1 work"]
    word = statement.split()[0]
    place = "10:3"
    for i, given in enumerate(["the number 5", "the list [1, 2]", "the text 'plow'", "a truth value"]):
        with pytest.raises(IllegalActionError) as err:
            game.play(f"p1 zz {i}")
        assert str(err.value) == f"p1 zz {i}: {word} expects an entity, got {given} [rule: zz (probe.rules:{place})]"
        assert game.state is before


@pytest.mark.parametrize("backend", ["compiled", "interpreted", "closures"])
@pytest.mark.parametrize("statement, message", [
    ("give plough to junk[i]", "no player here (got 5; players are 0..1)"),
    ("take plough", "plough belongs to another player"),
])
def test_take_give_and_discard_are_refused_at_their_statement(statement, message, backend):
    """Their refusals have no position of their own (an expression's): they were placed at the
    action's declaration (9:1), not at the statement that broke (10:3); in every back end."""
    from unittest import mock

    from boardrules import ruleset as RS
    from boardrules.lang.backends import Compiler
    text = STATEMENTS.replace("STATEMENT", statement).replace(
        "flow {", "flow { setup { step deal: do { give plough to 1 } }\n", 1)
    RS._build.cache_clear()
    closures = mock.patch.object(Compiler, "block", Compiler.closure_block) if backend == "closures" \
        else mock.patch.object(Compiler, "block", Compiler.block)
    try:
        with closures:
            game = boardrules.new_game(texts={"probe.rules": text}, players=2,
                                       backend="compiled" if backend == "closures" else backend)
            before = game.state
            with pytest.raises(IllegalActionError) as err:
                game.play("p1 zz 0")
    finally:
        RS._build.cache_clear()
    assert str(err.value) == f"p1 zz 0: {message} [rule: zz (probe.rules:10:3)]"
    assert game.state is before


@pytest.mark.parametrize("backend", ["compiled", "interpreted", "closures"])
@pytest.mark.parametrize("statement, i, message", [
    ("run junk[i].income", 1, "run expects an entity, got the list [1, 2]"),
    ("run plough.income for junk[i]", 0, "no player here (got 5; players are 0..1)"),
    ("gain junk[i] coins", 2, "'amount' needs numbers, got 'plow'"),
    ("pay junk[i] coins", 3, "'amount' needs numbers, got true"),
    ("lose junk[i] coins", 2, "'amount' needs numbers, got 'plow'"),
    ("gain 1 coins per junk[i]", 2, "'per' needs numbers, got 'plow'"),
    ("gain junk[i] coins, 1 coins", 1, "'amount' needs numbers, got [1, 2]"),
    ("gain 1 coins to junk[i]", 0, "no player here (got 5; players are 0..1)"),
])
def test_run_and_amounts_are_refused_at_their_statement(statement, i, message, backend):
    """A run of what is no entity or for no player, an amount or ``per`` that is no number,
    a ``to`` that is no player: placed at the action's declaration (9:1), not at the statement
    (10:3); in every back end (as take, give and discard)."""
    from unittest import mock

    from boardrules import ruleset as RS
    from boardrules.lang.backends import Compiler
    RS._build.cache_clear()
    closures = mock.patch.object(Compiler, "block", Compiler.closure_block) if backend == "closures" \
        else mock.patch.object(Compiler, "block", Compiler.block)
    try:
        with closures:
            game = boardrules.new_game(texts={"probe.rules": STATEMENTS.replace("STATEMENT", statement)},
                                       players=2, backend="compiled" if backend == "closures" else backend)
            before = game.state
            with pytest.raises(IllegalActionError) as err:
                game.play(f"p1 zz {i}")
    finally:
        RS._build.cache_clear()
    assert str(err.value) == f"p1 zz {i}: {message} [rule: zz (probe.rules:10:3)]"
    assert game.state is before
