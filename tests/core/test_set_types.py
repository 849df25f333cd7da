"""A value ``set`` to a state variable is of the variable's declared type (semantics.conform).

The checker proves most values' types when the rules are built (Program.proven_sets); a value
it cannot prove (an element of a ``list[any]``, a primitive's result, a binding that may be
none) is tested when the ``set`` runs, in every back end, and refused at the statement.
"""

from __future__ import annotations

import random
from unittest import mock

import pytest

import boardrules
from boardrules import IllegalActionError
from boardrules import ruleset as RS
from boardrules.lang import ast as A
from boardrules.lang import semantics as S
from boardrules.lang.backends import Compiler

GAME = """
game probe { players 2..2 }
resource coins { start 0; scored true }
kind card { field cost: int = 0 }
card plough { cost 3 }
var n: int = 0
var maybe: int? = 0
var mine: int per player = 0
var marks: int per card = 0
var xs: list[int] = []
var tool: card? = none
var anything: any = 0
var junk: list[any] = [5, [1, 2], "plow", true, none, plough]
action zz(i: int in 0..5) main {
  STATEMENT
  gain 1 coins
}
flow { rounds 1 { step play: turns seat once { main zz } } }
var cards: list[card] = []
"""

GIVEN = ["the number 5", "the list [1, 2]", "the text 'plow'", "a truth value", "none", "the text 'plough'"]
IN_A_LIST = ["[5]", "[[1, 2]]", "['plow']", "[true]", "[none]", "['plough']"]


def _played(statement: str, backend: str, i: int) -> str | None:
    """The refusal of ``p1 zz i`` (None: played), the state unchanged when refused."""
    RS._build.cache_clear()
    closures = mock.patch.object(Compiler, "block", Compiler.closure_block if backend == "closures"
                                 else Compiler.block)
    try:
        with closures:
            game = boardrules.new_game(texts={"probe.rules": GAME.replace("STATEMENT", statement)},
                                       players=2, backend="interpreted" if backend == "interpreted"
                                       else "compiled")
            before = game.state
            try:
                game.play(f"p1 zz {i}")
            except IllegalActionError as err:
                assert game.state is before
                return str(err)
    finally:
        RS._build.cache_clear()
    return None


@pytest.mark.parametrize("backend", ["compiled", "interpreted", "closures"])
@pytest.mark.parametrize("statement, declared, fits", [
    ("set n = junk[i]", "int", {0}),
    ("set maybe = junk[i]", "int?", {0, 4}),
    ("set mine = junk[i]", "int", {0}),              # per player, for me
    ("set mine of 1 = junk[i]", "int", {0}),         # per player, of another
    ("set marks[plough] = junk[i]", "int", {0}),     # per entity
    ("set xs = xs + [junk[i]]", "list[int]", {0}),    # a list's element
    ("set cards = cards + [junk[i]]", "list[card]", {5}),   # an entity of the kind, not a text
    ("set tool = junk[i]", "card?", {4, 5}),
    ("set anything = junk[i]", "any", {0, 1, 2, 3, 4, 5}),
])
def test_a_value_of_another_type_is_refused_at_the_set(statement, declared, fits, backend):
    """``set n = junk[i]`` took a text, a list or none into an ``int`` variable without a word
    (the checker cannot type an element of a ``list[any]``): now refused, naming the variable,
    its declared type and the value, at the statement (line 15, column 3), state unchanged."""
    var = statement.split()[1].split("[")[0]
    for i, given in enumerate(GIVEN):
        refused = _played(statement, backend, i)
        if i in fits:
            assert refused is None
            continue
        if declared.startswith("list"):
            given = f"the list {IN_A_LIST[i]}"
        assert refused == f"p1 zz {i}: '{var}' is {declared}: it cannot be set to {given} [rule: zz (probe.rules:15:3)]"


def _proven_in(statement: str, action: str) -> list[bool]:
    """Whether each ``set`` of ``action`` (in the order written) is proven by the checker."""
    game = boardrules.new_game(texts={"probe.rules": GAME.replace("STATEMENT", statement)}, players=2)
    found: list[A.Set] = []

    def walk(x: object) -> None:
        if isinstance(x, A.Set):
            found.append(x)
        for a in getattr(x, "__attrs_attrs__", ()):
            walk(getattr(x, a.name))
        if isinstance(x, tuple):
            for y in x:
                walk(y)
    walk(game.ruleset.actions[action].body)
    return [id(s) in game.ruleset.proven_sets for s in found]


@pytest.mark.parametrize("statement, proven", [
    ("set n = junk[i]", False),
    ("set n = n + i", True),
    ("set n = i", True),                        # (a parameter: one of its domain's values)
    ("set n = len(junk)", True),
    ("set n = maybe", False),                   # (an int? may be none)
    ("set maybe = maybe", True),
    ("set n = plough.cost", True),
    ("set xs = xs + [i, 2]", True),
    ("set xs = xs + junk", False),
    ("set xs = []", True),
    ("set xs = without(xs, 3)", True),
    ("set tool = plough", True),
    ("set tool = none", True),
    ("set n = none", False),
    ("set mine of 1 = mine + 1", True),
    ("set marks[plough] = marks[plough] + 1", True),
    ("set anything = junk", True),
    ("for x in xs { set n = x }", True),
    ("for x in junk { set n = x }", False),
    ("let k = i * 2\n  set n = k", True),
    ("let k = junk[i]\n  set n = k", False),
])
def test_the_checker_proves_the_types_it_can(statement, proven):
    """A set the checker proves is not tested when it runs (no cost on the hot path): values
    of a sure type (numbers from arithmetic, a declared non-optional variable, a parameter, a
    loop variable over a list of a sure type, a list joined of such); the rest is tested."""
    assert _proven_in(statement, "zz") == [proven]


@pytest.mark.parametrize("game, players, decisions", [("harvest", 3, 150), ("gaia-project", 4, 150),
                                                      ("eclipse", 4, 150)])
def test_every_value_set_in_the_games_is_of_its_type(game, players, decisions):
    """The proofs hold: over random play of the bundled games (the interpreter), every value
    set, proven or not, is of its variable's declared type."""
    real = S.set_var

    def checked(ctx, var, idx, of, value):   # type: ignore[no-untyped-def]
        steps = ctx.steps
        assert S.fits(ctx, var.type, value), (var.name, value)
        ctx.steps = steps
        return real(ctx, var, idx, of, value)
    with mock.patch.object(S, "set_var", checked):
        g = boardrules.new_game(game, players=players, seed=7, backend="interpreted")
        rnd = random.Random(7)
        for _ in range(decisions):
            if g.over:
                break
            g.play(rnd.choice(list(g.legal_actions())))


@pytest.mark.parametrize("backend", ["compiled", "interpreted", "closures"])
def test_a_procedures_parameter_is_tested_as_its_call_passes_it(backend):
    """A procedure's arguments are not tested against its parameters' types when it is called
    (an action's are, against their domains): ``set n = k`` of a parameter ``k: int in 0..9`` is tested."""
    statement = "call keep(junk[i])\n}\naction keep(k: int in 0..9) procedure {\n  set n = k"
    assert _played(statement, backend, 0) is None
    assert _played(statement, backend, 2) == \
        "p1 zz 2: 'n' is int: it cannot be set to the text 'plow' [rule: zz (probe.rules:18:3)]"


KEEP = "\n}\naction keep(k: int in 0..9) procedure {\n  set n = k"
RELAY = "\n}\naction relay(j: int in 0..9) procedure {\n  call keep(j)" + KEEP


@pytest.mark.parametrize("calls, proven", [
    ("call keep(i)", True),                          # (an action's argument: an int)
    ("call keep(i)\n  call keep(n + 1)", True),      # (every call passes an int)
    ("call keep(i)\n  call keep(junk[i])", False),   # (one call may pass anything)
    ("call keep(maybe)", False),                     # (an int? may be none)
    ("call relay(i)" + RELAY[:RELAY.index(KEEP)], True),   # (through another procedure's parameter)
    ("call relay(junk[i])" + RELAY[:RELAY.index(KEEP)], False),
    ("call relay(i)\n  call keep(junk[i])" + RELAY[:RELAY.index(KEEP)], False),
    ("call keep(plough.cost)", True),
])
def test_a_procedures_parameter_is_proven_by_its_calls(calls, proven):
    """A procedure's parameter is surely of its type when every call passes a value that
    surely is (a procedure's parameter too, once its own calls prove it): its sets are then
    not tested when they run; one call that may pass another value leaves them tested."""
    assert _proven_in(calls + KEEP, "keep") == [proven]


@pytest.mark.parametrize("backend", ["compiled", "interpreted", "closures"])
def test_a_wrong_call_through_a_proven_looking_chain_is_still_refused(backend):
    """``relay`` passes its parameter on to ``keep``; one call of ``relay`` passes a text:
    ``set n = k`` in ``keep`` is tested and refuses it, the good calls played as before."""
    statement = "if i == 0 { call relay(i) } else { call relay(junk[i]) }" + RELAY
    assert _played(statement, backend, 0) is None
    assert _played(statement, backend, 2) == \
        "p1 zz 2: 'n' is int: it cannot be set to the text 'plow' [rule: zz (probe.rules:21:3)]"


def test_self_in_a_slot_and_a_list_literal_domain_are_sure():
    """``self`` in an entity's slot is that entity (its fields of a never-none type are sure),
    and an action's parameter whose domain is a list literal of entities is one of them."""
    statement = ("run hammer.use\n}\nkind implement { field uses: int = 1; slot use }\n"
                 "implement hammer { uses 2; use { set n = self.uses } }\n"
                 "action pick(t: card in [plough]) main {\n  set n = t.cost")
    assert _proven_in(statement, "pick") == [True]
    rs = boardrules.new_game(texts={"probe.rules": GAME.replace("STATEMENT", statement)}, players=2).ruleset
    assert [id(s) in rs.proven_sets for s in rs.entities["hammer"].slots["use"].stmts] == [True]
