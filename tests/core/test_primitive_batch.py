"""Batch forms of pure primitives (primitives.batched): a choice's compiled ``where`` asks one
for all its options where it calls the primitive with the option and written constants
(lang/codegen.py, ``ExprCompiler.filter``). The admitted options must be the interpreter's
(the oracle) and those of the same primitives without a batch form, whatever the batch form
answers: NOT_BATCHED for an option, a Python error, answers for too few options or not in a
list or tuple (a dict, a text), or options the ``where`` would not have asked of (a call the
batch form leaves out raises only where the rules ask it). ``of`` changes ``me``, so a call
inside it is not batched. Wrong answers in a list of the right length are a PrimitiveError at
play."""

from __future__ import annotations

import pytest

import boardrules
from boardrules import ModuleSpec, primitive
from boardrules.primitives import NOT_BATCHED, batched
from tests.core.test_modules import extra_modules  # noqa: F401  (the fixture)

RULES = """\
action pickit main {
  choose x in [1, 2, 3, 4, 5, 6, 7] \\
      where x != 3 and scaled(x, 2) > 5 and (scaled(x, 1) > 5) == (seat_plus(x) > 6) \\
      "pick" { gain 1 coins }
}
action theirs main {
  choose x in [1, 2, 3, 4] where (seat_plus(x) of 1) > 2 and seat_plus(x) > 0 "theirs" { gain 1 coins }
}
extend step actions { main pickit, theirs }
"""

CALLS: list[tuple[str, object]] = []   # (primitive, option) of each call of a primitive itself
MODE = {"batch": "right"}


@primitive("scaled", returns="int", pure=True, o="int", k="int")
def _scaled(ctx, o, k):
    """``o * k``; 3 is the rules' mistake (a ValueError), which the ``where`` never asks."""
    CALLS.append(("scaled", o))
    if o == 3:
        raise ValueError("3 is not an option")
    return o * k


def _scaled_each(ctx, opts, k):
    mode = MODE["batch"]
    if mode == "raises":
        raise KeyError("a defect of the batch form")
    if mode == "short":
        return [o * k for o in opts[1:]]
    if mode == "dict":   # (as many entries as options, but not answers in order)
        return {o: o * k for o in opts}
    if mode == "text":
        return "x" * len(opts)
    if mode == "wrong":   # (a list of the right length, its answers not the primitive's)
        return [0] * len(opts)
    if mode == "all":   # (every option answered, 3 too: the where never asks of it)
        return [o * k for o in opts]
    if mode == "truth":   # (true is no number of the rules: the declared int refuses it)
        return [True] * len(opts)
    if mode == "huge":    # (beyond the rules' numbers)
        return [2 ** 63 + o for o in opts]
    # (odd options left to the call; 3 is one the call raises for)
    return [NOT_BATCHED if o % 2 else o * k for o in opts]


@primitive("seat_plus", returns="int", pure=True, o="int")
def _seat_plus(ctx, o):
    """``o`` plus the seat of ``me`` (so that ``of`` changes its answer)."""
    CALLS.append(("seat_plus", o))
    return o + ctx.me


def _seat_plus_each(ctx, opts):
    return [o + ctx.me for o in opts]


scaled, seat_plus = batched(_scaled, _scaled_each), batched(_seat_plus, _seat_plus_each)


@pytest.fixture
def batching(extra_modules):  # noqa: F811
    extra_modules("test_batch", ModuleSpec("batching", "harvest", ("batching.rules",),
                                           primitives=(scaled, seat_plus)),
                  files={"batching.rules": RULES})
    MODE["batch"] = "right"
    yield
    MODE["batch"] = "right"


@pytest.fixture
def unbatched(extra_modules):  # noqa: F811
    extra_modules("test_unbatched", ModuleSpec("batching", "harvest", ("batching.rules",),
                                               primitives=(_scaled, _seat_plus)),
                  files={"batching.rules": RULES})


def _options(action, backend="compiled"):
    """The options of the decision ``action`` leaves, played by p1 at its first turn of
    Harvest's actions step."""
    g = boardrules.new_game("harvest", players=2, seed=1, modules=["batching"], backend=backend)
    while not any(a.name == action for a in g.legal_actions()):
        g.play(next(iter(g.legal_actions())))
    a = next(a for a in g.legal_actions() if a.name == action)
    CALLS.clear()   # (the play's run: its choice filtered in full)
    g.play(a)
    return g.state.pending[0].options


@pytest.mark.parametrize("mode", ["right", "raises", "short", "dict", "text"])
def test_the_options_are_the_interpreters_whatever_the_batch_form_answers(batching, mode):
    MODE["batch"] = mode
    assert _options("pickit") == _options("pickit", "interpreted") == (4, 5, 7)


def test_the_batch_form_answers_in_place_of_the_calls(batching):
    _options("pickit")
    # the call is asked only where the batch form left an option out (odd), and where the
    # where reaches it (not 3)
    assert CALLS == [("scaled", 1), ("scaled", 5), ("scaled", 5), ("scaled", 7), ("scaled", 7)]


def test_answers_of_the_declared_type_for_every_option_are_used_as_they_are(batching):
    """A batch form answering every option with plain whole numbers passes the primitive's
    return check as a whole (codegen._sure): the filter then tests no answer one by one, and
    admits what the interpreter does."""
    MODE["batch"] = "all"
    assert _options("pickit") == _options("pickit", "interpreted") == (4, 5, 7)
    assert [c for c in CALLS if c[0] == "scaled"] == []


@pytest.mark.parametrize("mode", ["truth", "huge"])
def test_answers_the_declared_type_refuses_are_the_primitives_defect(batching, mode):
    """Answers that fail the primitive's return check (a truth value, a number beyond the rules')
    are not taken as a whole: each is checked as the call's result is, and refused."""
    MODE["batch"] = mode
    g = boardrules.new_game("harvest", players=2, seed=1, modules=["batching"])
    while not any(a.name == "pickit" for a in g.legal_actions()):
        g.play(next(iter(g.legal_actions())))
    before = g.state
    a = next(a for a in g.legal_actions() if a.name == "pickit")
    with pytest.raises(boardrules.PrimitiveError, match="primitive 'scaled'"):
        g.play(a)
    assert g.state is before


def test_sure_tests_the_answers_as_the_return_check_does():
    from boardrules.lang.codegen import _sure
    from boardrules.runtime import MAX_NUMBER
    from boardrules.plugins import _checked

    @primitive("n_of", returns="int", pure=True, o="int")
    def n_of(ctx, o):
        return o

    @primitive("t_of", returns="text", pure=True, o="int")
    def t_of(ctx, o):
        return "x"

    @primitive("e_of", returns="player", pure=True, o="int")
    def e_of(ctx, o):
        return 0

    n, t, e = _checked(n_of), _checked(t_of), _checked(e_of)
    assert _sure(n, [1, -MAX_NUMBER, MAX_NUMBER]) and _sure(n, [])
    assert not _sure(n, [1, True]) and not _sure(n, [MAX_NUMBER + 1]) and not _sure(n, [1.0])
    assert not _sure(n, [1, NOT_BATCHED]) and not _sure(n, [None])
    assert _sure(t, ["a", type("Sub", (str,), {})("b")]) and not _sure(t, ["a", None, NOT_BATCHED])
    assert _sure(e, [0, "anything", None]) and not _sure(e, [0, NOT_BATCHED])


def test_without_batch_forms_the_same(unbatched):
    assert _options("pickit") == (4, 5, 7)


def test_a_call_inside_of_is_not_batched(batching):
    # me is p1 (seat 0): seat_plus(x) of p2 is x + 1 > 2 for x >= 2; a batch form asked for
    # p1 would answer x > 2
    assert _options("theirs") == _options("theirs", "interpreted") == (2, 3, 4)


def test_a_batch_form_answering_wrong_values_is_a_primitive_error(batching):
    """Answers in a list of the right length that are not the primitive's are not seen before
    play (checking each would cost a call per option): the listing asks the primitive itself
    for the first admitted option, and play, which asks the batch form, then found no option.
    That ended in an AssertionError ("listed as legal but breaks a rule"); it is the plugin's
    defect, a PrimitiveError naming the primitive's batch form, the option and both answers."""
    MODE["batch"] = "wrong"
    g = boardrules.new_game("harvest", players=2, seed=1, modules=["batching"])
    while not any(a.name == "pickit" for a in g.legal_actions()):
        g.play(next(iter(g.legal_actions())))
    before = g.state
    a = next(a for a in g.legal_actions() if a.name == "pickit")
    with pytest.raises(boardrules.PrimitiveError,
                       match=r"p1 pickit: primitive 'scaled': its batch form answered 0 for 1 where the "
                             r"primitive answers 2 \(a defect of the plugin.*rule: pickit"):
        g.play(a)
    assert g.state is before


def test_only_a_pure_primitive_has_a_batch_form():
    @primitive("loud", returns="int", o="int")
    def loud(ctx, o):
        return o
    with pytest.raises(ValueError, match="only a pure primitive"):
        batched(loud, lambda ctx, opts: list(opts))
