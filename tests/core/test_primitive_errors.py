"""A primitive whose Python code raises (a plugin's defect) never escapes ``play`` or
``legal_actions`` as a bare Python exception: ``play`` raises ``PrimitiveError`` (an
``IllegalActionError``) naming the primitive, the exception, the rule, the file:line:column of
the call and the action, and leaves the game exactly as it was; ``legal_actions`` leaves such
an action out (what ``play`` refuses is not legal), whether the primitive is called in an
action's body (an expression or a ``call`` statement), in a parameter's ``where`` or through a
module's wrapper; in both back ends. A primitive's own rule violation (``ctx.violation``) stays
an ``IllegalActionError``."""

from __future__ import annotations

import linecache
import re

import pytest

import boardrules
from boardrules import IllegalActionError, ModuleSpec, OptionError, PrimitiveError, primitive
from boardrules.cli import app
from tests.core.test_modules import extra_modules  # noqa: F401  (the fixture)

RULES = """\
action blast(n: int in 1..3) main {
  require boom(n) != 0 else "no boom"
  gain 1 coins
}
action probe(n: int in 1..3 where boom(n) != 0) main { gain 1 coins }
action poke main { call kaboom(2) }
action strict main { require fussy(1) == 1 else "fussy" }
action choosy main { require picky(1) == 1 else "picky" }
extend step actions { main blast, probe, poke, strict, choosy }
"""


@primitive("boom", n="int", returns="int")
def boom(ctx, n):
    """Fails on 2 (a defect: a ZeroDivisionError), fine otherwise."""
    return 10 // (2 - n)


@primitive("kaboom", n="int", effect=True)
def kaboom(ctx, n):
    ctx.gain("coins", 1)
    raise KeyError("no such thing " + "x" * 500)


@primitive("fussy", n="int", returns="int")
def fussy(ctx, n):
    raise ctx.violation("fussy refuses")


@primitive("picky", n="int", returns="int")
def picky(ctx, n):
    raise OptionError("option 'x' may not be 3")   # an error the plugin means: passed on as is


@pytest.fixture
def blasting(extra_modules):  # noqa: F811
    _blasting(extra_modules, "test_blast", RULES, boom, kaboom, fussy, picky)


def _blasting(extra_modules, test, rules, *primitives):  # noqa: F811
    """The module 'blasting' of Harvest registered for ``test``: ``rules`` as its
    blasting.rules, ``primitives`` its primitives."""
    extra_modules(test, ModuleSpec("blasting", "harvest", ("blasting.rules",), primitives=primitives),
                  files={"blasting.rules": rules})


def _in_actions(backend="compiled"):
    """A 2-player Harvest game with the module on, at p1's first turn of the actions step."""
    g = boardrules.new_game("harvest", players=2, seed=1, modules=["blasting"], backend=backend)
    while "actions" not in _step(g):
        g.play(next(iter(g.legal_actions())))
    return g


def _step(g):
    v = g.state.values
    stage = g.ruleset.stages[v[("f", "stage")]]
    return stage.steps[v[("f", "step")]].name if v[("f", "step")] < len(stage.steps) else ""


@pytest.mark.parametrize("backend", ["compiled", "interpreted"])
def test_play_names_the_primitive_the_call_and_the_action(blasting, backend):
    g = _in_actions(backend)
    p = next(iter(g.players_to_act()))
    before, moves = g.state, list(g.record.actions)
    with pytest.raises(PrimitiveError) as err:
        g.play(f"p{p + 1} blast 2")
    text = str(err.value)
    assert text.startswith(f"p{p + 1} blast 2: primitive 'boom' failed with ZeroDivisionError: "
                           "integer division or modulo by zero")
    assert "[rule: blast (" in text and "blasting.rules:2:11)]" in text   # the require's expression
    assert isinstance(err.value, IllegalActionError) and err.value.rule == "blast"
    assert g.state is before and g.record.actions == moves
    with pytest.raises(PrimitiveError, match=r"primitive 'kaboom' failed with KeyError: .*\.\.\. "
                                             r".*\[rule: poke \(.*blasting.rules:6:20\)\]"):
        g.play(f"p{p + 1} poke")
    assert g.state is before and g.record.actions == moves
    with pytest.raises(PrimitiveError, match=r"p\d probe 2: primitive 'boom' failed .*"
                                             r"\[rule: probe \(.*blasting.rules:5:35\)\]"):
        g.play(f"p{p + 1} probe 2")
    # a primitive's own rule violation is a broken rule, as before
    with pytest.raises(IllegalActionError, match="fussy refuses") as err:
        g.play(f"p{p + 1} strict")
    assert not isinstance(err.value, PrimitiveError)
    with pytest.raises(OptionError, match="option 'x' may not be 3"):
        g.play(f"p{p + 1} choosy")
    assert g.state is before
    g.play(f"p{p + 1} blast 1")   # the same action with a value that does not fail


@pytest.mark.parametrize("backend", ["compiled", "interpreted"])
def test_legal_actions_leave_out_what_play_refuses(blasting, backend):
    g = _in_actions(backend)
    p = next(iter(g.players_to_act()))
    legal = [str(a) for a in g.legal_actions()]
    me = f"p{p + 1}"
    assert f"{me} blast 1" in legal and f"{me} blast 3" in legal and f"{me} blast 2" not in legal
    assert f"{me} probe 1" in legal and f"{me} probe 2" not in legal
    assert f"{me} poke" not in legal and f"{me} strict" not in legal
    assert not g.is_legal(f"{me} blast 2") and f"{me} blast 2" not in g.legal_actions()
    for action in g.legal_actions():   # every listed action plays
        c = g.copy()
        c.play(action)


def test_a_wrapped_primitive_is_named(blasting, extra_modules):  # noqa: F811
    @primitive("boom", n="int", returns="int", wraps=True)
    def louder(ctx, inner, n):
        return inner(ctx, n) * 2
    extra_modules("test_louder", ModuleSpec("louder", "harvest", (), requires=("blasting",),
                                            primitives=(louder,)))
    g = boardrules.new_game("harvest", players=2, seed=1, modules=["louder"])
    while "actions" not in _step(g):
        g.play(next(iter(g.legal_actions())))
    p = next(iter(g.players_to_act()))
    with pytest.raises(PrimitiveError, match="primitive 'boom' failed with ZeroDivisionError"):
        g.play(f"p{p + 1} blast 2")


def test_the_command_line_shows_no_traceback(blasting, tmp_path):
    from typer.testing import CliRunner
    g = _in_actions()
    p = next(iter(g.players_to_act()))
    g.record.actions.append(f"p{p + 1} blast 2")
    record = tmp_path / "r.json"
    record.write_text(g.record.dumps(), encoding="utf-8")
    result = CliRunner().invoke(app, ["replay", str(record)])
    assert result.exit_code != 0
    assert "Traceback" not in result.output and "primitive 'boom' failed" in result.output


WRONG_RULES = """\
action add_one main { require wrong_int(1) + 1 > 0 else "no"
  gain 1 coins }
action earn main { gain wrong_int(1) coins }
action ask main { require wrong_bool(1) else "no"
  gain 1 coins }
action count_them main { require len(wrong_list(1)) > 0 else "no"
  gain 1 coins }
action maybe main { require maybe_int(1) == none else "no"
  gain 1 coins }
extend step actions { main add_one, earn, ask, count_them, maybe }
"""


@primitive("wrong_int", n="int", returns="int")
def wrong_int(ctx, n):
    return "abc"


@primitive("wrong_bool", n="int", returns="bool")
def wrong_bool(ctx, n):
    return 5


@primitive("wrong_list", n="int", returns="list:int")
def wrong_list(ctx, n):
    return 7


@primitive("maybe_int", n="int", returns="int?")
def maybe_int(ctx, n):
    return None


@pytest.mark.parametrize("backend", ["compiled", "interpreted"])
def test_a_primitive_returning_another_type_than_it_declares_is_named(extra_modules, backend):  # noqa: F811
    """A primitive returning a value of another type than it declares was blamed on the rule
    ("p1 add_one: '+' needs numbers, got 'abc' [rule: add_one (…)]"; 'gain' named no position;
    a bool declared, 5 returned, played on): the error names the primitive, the value, the type
    declared, the rule and the call's file:line:column; nothing of the action happens."""
    _blasting(extra_modules, "test_wrong", WRONG_RULES, wrong_int, wrong_bool, wrong_list, maybe_int)
    g = _in_actions(backend)
    me = f"p{next(iter(g.players_to_act())) + 1}"
    before = g.state
    for action, name, value, declared, line in [
            ("add_one", "wrong_int", "'abc' (str)", "int", 1), ("earn", "wrong_int", "'abc' (str)", "int", 3),
            ("ask", "wrong_bool", "5 (int)", "bool", 4), ("count_them", "wrong_list", "7 (int)", "list:int", 6)]:
        with pytest.raises(PrimitiveError) as err:
            g.play(f"{me} {action}")
        text = str(err.value)
        assert text.startswith(f"{me} {action}: primitive '{name}' returned {value}, not the {declared} it "
                               "declares (a defect of the plugin that provides it, not a rule broken) "
                               f"[rule: {action} (")
        assert re.search(rf"blasting\.rules:{line}:\d+\)\]$", text)
        assert f"{me} {action}" not in [str(a) for a in g.legal_actions()]
        assert g.state is before
    g.play(f"{me} maybe")   # 'int?' allows none


NUMBER_RULES = """\
var kept: int = 0
action keep(k: int in 0..2) main { set kept = odd_int(k) }
extend step actions { main keep }
"""


@primitive("odd_int", k="int", returns="int")
def odd_int(ctx, k):
    """An int declared; a bool (Python's int subclass) or a number beyond the rules' range returned."""
    return [True, 2 ** 70, -2 ** 63][k]


@pytest.mark.parametrize("backend", ["compiled", "interpreted"])
def test_a_primitive_declaring_int_may_return_neither_a_bool_nor_a_number_beyond_the_rules(
        extra_modules, backend):  # noqa: F811
    """An int declared, True returned passed the check (a bool is an int to Python) and the
    rules stored it in an int variable; 2**70 or -2**63 returned were stored too, numbers the
    rules may not hold (±MAX_NUMBER): each is the plugin's defect, named, nothing happens."""
    _blasting(extra_modules, "test_odd", NUMBER_RULES, odd_int)
    g = _in_actions(backend)
    me = f"p{next(iter(g.players_to_act())) + 1}"
    before = g.state
    for k, value in [(0, "True (bool)"), (1, f"{2 ** 70} (int)"), (2, f"{-2 ** 63} (int)")]:
        with pytest.raises(PrimitiveError) as err:
            g.play(f"{me} keep {k}")
        assert str(err.value).startswith(f"{me} keep {k}: primitive 'odd_int' returned {value}, not the int it "
                                         f"declares, a number from -{2 ** 63 - 1} to {2 ** 63 - 1} (a defect")
        assert f"{me} keep {k}" not in [str(a) for a in g.legal_actions()]
        assert g.state is before


PLACES_RULES = """\
action compare main { require wrong_int(1) > 0 else "no" }
action quantify main { require (count v in wrong_list(1) where v > 0) > 0 else "no" }
action among main { require (any v in [1, 2] where wrong_int(v) >= v) else "no" }
action pick main { choose c in [1, 2] where wrong_int(c) < 3 "pick" { gain c coins } }
action fine main { require (count v in maybe_list(1) where v > 0) == 2 and maybe_int(2) == none else "no"
  gain 1 coins }
extend step actions { main compare, quantify, among, pick, fine }
"""


@primitive("maybe_list", n="int", returns="list:int")
def maybe_list(ctx, n):
    return (1, 2)


@pytest.mark.parametrize("backend", ["compiled", "interpreted"])
def test_a_primitive_of_the_wrong_type_is_named_wherever_it_is_called(extra_modules, backend):  # noqa: F811
    """The compiled expressions test a primitive's result inline (codegen ``_Gen.primitive``),
    except in a quantifier's domain, where Python allows no ``:=`` (the checking wrapper then):
    compared with a number, as a domain, in a quantifier's test and in a choice's filter, a
    value of the wrong type is the plugin's defect, named with the rule's line, in both back
    ends; a ``T?`` allows none."""
    _blasting(extra_modules, "test_places", PLACES_RULES, wrong_int, wrong_list, maybe_list, maybe_int)
    g = _in_actions(backend)
    me = f"p{next(iter(g.players_to_act())) + 1}"
    before = g.state
    for line, (action, name) in enumerate([("compare", "wrong_int"), ("quantify", "wrong_list"),
                                           ("among", "wrong_int"), ("pick", "wrong_int")], 1):
        with pytest.raises(PrimitiveError) as err:
            g.play(f"{me} {action}")
        assert str(err.value).startswith(f"{me} {action}: primitive '{name}' returned ")
        assert re.search(rf"blasting\.rules:{line}:\d+\)\]$", str(err.value))
        assert g.state is before
    g.play(f"{me} fine")
    if backend == "compiled":   # (the inline test: the primitive's own function, then `:=`)
        sources = ["".join(lines) for name, (_, _, lines, _) in list(linecache.cache.items())
                   if name.startswith("<rules ") and "blasting.rules:1:" in name]
        assert any(":= " in src for src in sources)
