"""Lazy choices (lang/lazy.py): a listing's run cuts a ``choose`` short at its first admitted
option when its ``where`` cannot break a rule (lang/inert.py, ``pure`` primitives).

The listing must stay exactly the full tries' (tests/core/test_guards.py runs the property over
random games of every bundled game); these examples hold the boundaries: a ``where`` that may
break a rule on a later option is tried in full, a binding that hides a name of the ``where``
turns the cut off, a budget that would not cover the options left untested too, and a wrong
analysis is caught by the comparison with the full tries.
"""

from __future__ import annotations

import random

import pytest

import boardrules
from boardrules.game import ACCEPTED
from boardrules.lang import ast as A
from boardrules.lang import lazy
from boardrules.lang.inert import declared_type
from boardrules.runtime import Context

RULES = """
game lazy { title "Lazy"; players 2..2 }
resource vp { start 0; scored true }
resource coins { start 2 }
var low: int = 3
var picks: list[int] = [1, 2, 4]

action pick main {
  choose x in [1, 2, 3, 4] where x >= low "pick" { gain x vp }
}
# 12 // (x - 3): x = 3 breaks a rule (division by zero), after x = 1 was admitted
action divide main {
  choose x in [1, 2, 3, 4] where 12 // (x - 3) != 0 "divide" { gain x vp }
}
# the binding 'low' hides the variable the analysis typed
action hidden main {
  let low = 9
  choose x in [1, 2, 3] where x >= low "none is admitted" { gain x vp }
}
action maybe main {
  choose x in [1, 2, 3] where x >= 9 optional "declinable" { gain x vp }
}
# 'x in picks': the analysis takes a list variable read as short, which a guard checks
action member main {
  choose x in [1, 2, 3] where x in picks "member" { gain x vp }
}
action stop main { pass }
# answers: 'note' cannot break a rule, 'spend' can (3 coins of 2)
action note main {
  choose x in [1, 2, 3] "note" { gain x vp }
}
action spend main {
  choose x in [1, 2, 3] "spend" { pay x coins }
}
action never free { require 1 == 2 else "a free action, so that a turn goes on after its main one" }

flow {
  rounds 1 {
    step actions: turns seat until_pass {
      main pick, divide, hidden, maybe, member, stop, note, spend
      free never
    }
  }
}
"""


def game(extra="", **kw):
    return boardrules.new_game(texts={"lazy.rules": RULES + extra}, players=2, seed=1, **kw)


def runs(g):
    """The runs the listing kept, by action name (ACCEPTED: cut short, not kept)."""
    known = g._known_for(g.state)
    return {a.name: r for a, r in known.runs.items()}


def chooses(rs, name):
    return [s for s in rs.actions[name].body.stmts if isinstance(s, A.Choose)]


def test_a_where_that_cannot_break_a_rule_is_cut_short():
    g = game()
    listed = [a.name for a in g.legal_actions()]
    assert listed == [a.name for a in g._legal_by_trying()]
    assert listed == ["pick", "maybe", "member", "stop", "note", "spend"]
    got = runs(g)
    assert got["pick"] is ACCEPTED and got["maybe"] is ACCEPTED
    assert got["member"] is not ACCEPTED   # (a list variable's length: assumed by the analysis)
    assert got["stop"] is ACCEPTED   # (no choice; its pass hands the turn over: listed from its guard)
    # played, the choice is the full one
    g.play("p1 pick")
    assert g.state.pending[0].options == (3, 4)


def test_what_may_not_be_cut_short():
    rs = game().ruleset
    assert lazy.where_bound(rs, chooses(rs, "divide")[0]) is None     # // may break a rule
    assert lazy.where_bound(rs, chooses(rs, "pick")[0]) == (0, frozenset({"low"}))
    # a list variable is assumed short by the analysis (a guard would check it): not here
    assert lazy.where_bound(rs, chooses(rs, "member")[0]) is None


def test_a_binding_that_hides_a_name_turns_the_cut_off():
    g = game()
    (node,) = chooses(g.ruleset, "pick")
    ctx = Context(g.ruleset, g.state.values, me=0)
    where = g.ruleset.guards.backend.expr(node.where)
    bound = lazy.where_bound(g.ruleset, node)
    ctx.env = {"low": 9}
    assert lazy.admitted(ctx, "x", (1, 2, 3, 4), where, False, bound) is None
    ctx.env = {}
    assert lazy.admitted(ctx, "x", (1, 2, 3, 4), where, False, bound) == (3,)
    assert ctx.partial


def test_the_budget_must_cover_the_options_not_tested():
    # each untested option is charged the where's step bound: when the budget left does not
    # cover them, the choice is evaluated in full (and the run is the full run)
    g = game()
    (node,) = chooses(g.ruleset, "pick")
    where = g.ruleset.guards.backend.expr(node.where)
    ctx = Context(g.ruleset, g.state.values, me=0)
    ctx.steps = 8
    assert lazy.admitted(ctx, "x", (3, 1, 4, 5), where, False, (3, frozenset())) == (3, 4, 5)
    assert not ctx.partial and ctx.steps == 8
    ctx.steps = 9   # (exactly three untested options at 3 steps each)
    assert lazy.admitted(ctx, "x", (3, 1, 4, 5), where, False, (3, frozenset())) == (3,)
    assert ctx.partial and ctx.steps == 0


def test_a_wrong_analysis_is_caught(monkeypatch):
    # every where called harmless: 'divide' is listed (x = 1 passes first) though its full run
    # breaks a rule at x = 3; the comparison with the full tries sees it
    monkeypatch.setattr(lazy, "where_bound", lambda rs, node: (0, frozenset()))
    g = game("# a ruleset of its own (the analysis is kept with the compiled rules)\n")
    listed = [a.name for a in g.legal_actions()]
    assert "divide" in listed and "divide" not in [a.name for a in g._legal_by_trying()]


def test_declared_types_of_primitives():
    kinds = {"part": None, "ship_class": None}
    assert declared_type("list:part", kinds) == "list:entity:part"
    assert declared_type("ship_class", kinds) == "entity:ship_class"
    assert declared_type("int", kinds) == "int"
    assert declared_type("any", kinds) is None and declared_type("list:any", kinds) is None
    assert declared_type("part?", kinds) == "entity:part?"


@pytest.mark.parametrize("seed", [3, 8])
def test_eclipse_upgrade_is_cut_short_and_played_in_full(seed):
    g, rng = boardrules.new_game("eclipse", players=3, seed=seed), random.Random(seed)
    seen = 0
    while not g.over and seen < 3:
        listed = list(g.legal_actions())
        names = {a.name for a in listed}
        if "upgrade" in names:
            assert listed == g._legal_by_trying()
            assert runs(g)["upgrade"] is ACCEPTED
            full = g._run(next(a for a in listed if a.name == "upgrade"), check=False)[1]
            g.play(next(a for a in listed if a.name == "upgrade"))
            assert g.state.pending[0].label == "install"
            assert g.state.pending[0].options == full[0].options and len(full[0].options) > 20
            seen += 1
            continue
        g.play(rng.choice(listed))
    assert seen


def test_eclipse_upgrade_primitives_are_pure():
    g = boardrules.new_game("eclipse", players=3, seed=1)
    prims = g.ruleset.primitives
    assert all(prims[n].pure for n in ("blueprint_changes", "change_class", "change_part", "stat_after",
                                       "blueprint_after"))
    ctx = Context(g.ruleset, g.state.values, me=0)
    # a text that names no change is the rules' mistake (ValueError), never a broken rule
    for bad in ("junk", "interceptor#x=hull", "interceptor#0=no_such_part", "no_ship#0=hull"):
        with pytest.raises(ValueError):
            prims["change_class"].fn(ctx, bad)
    assert prims["change_class"].fn(ctx, "interceptor#9=hull") == "interceptor"   # (a parse)
    for _ in range(2):   # (no slot 9 to take it; asked again, the option is known)
        with pytest.raises(ValueError):
            prims["stat_after"].fn(ctx, "interceptor#9=hull", "energy")
    with pytest.raises(ValueError):
        prims["stat_after"].fn(ctx, "interceptor#0=hull", "charm")
    with pytest.raises(ValueError):
        prims["blueprint_changes"].fn(Context(g.ruleset, g.state.values))


def answers(g):
    listed = list(g.legal_actions())
    assert listed == g._legal_by_trying()
    return [a.args for a in listed], runs(g)


def test_answers_that_cannot_break_a_rule_are_not_tried():
    g = game()
    g.play("p1 note")
    listed, got = answers(g)
    assert listed == [(1,), (2,), (3,)] and all(got[a] is ACCEPTED for a in got)
    g.play("p1 x 3")
    assert g.get("vp", 0) == 3
    g = game()
    g.play("p1 spend")
    listed, got = answers(g)
    assert listed == [(1,), (2,)] and not any(got[a] is ACCEPTED for a in got)


def test_a_wrong_answer_analysis_is_caught(monkeypatch):
    monkeypatch.setattr(lazy, "answers_hold", lambda ctx, d: True)
    g = game()
    g.play("p1 spend")
    assert len(g.legal_actions()) == 3 and len(g._legal_by_trying()) == 2


def test_without_one_is_inert():
    rs = game().ruleset
    found = rs.guards.inert.expr(A.Call(fn="without_one", args=(A.Name(id="picks"), A.Int(value=2))), {})
    # (its cost: the list walked, as long as the list may be)
    assert found is not None and found[0] == "list:int" and found[1] >= found[2] > 0


def test_stat_after_sees_a_write_between_two_questions():
    # stat_after keeps its last answer for the same option and context (a where asks three
    # times): a write to the blueprint in between must be seen
    g = boardrules.new_game("eclipse", players=3, seed=1)
    while "upgrade" not in {a.name for a in g.legal_actions()}:
        g.play(next(iter(g.legal_actions())))
    me = g.state.values[("f", "turn")][2]
    stat = g.ruleset.primitives["stat_after"].fn
    ctx = Context(g.ruleset, g.state.values, me=me)
    o = "interceptor#0=hull"
    before = stat(ctx, o, "energy")
    bp = ctx.get(("v", "blueprint", me, "interceptor"))
    ctx.set(("v", "blueprint", me, "interceptor"), ("nuclear_source",) + tuple(bp[1:]))
    assert stat(ctx, o, "energy") == before   # slot 0 is replaced by the hull either way
    o2 = "interceptor#1=hull"
    first = stat(ctx, o2, "energy")
    ctx.set(("v", "blueprint", me, "interceptor"), tuple(bp))
    assert stat(ctx, o2, "energy") != first   # the nuclear source back in slot 0: less energy


@pytest.mark.parametrize("seed,modules", [(2, ()), (5, ("new-discoveries",))])
def test_eclipse_install_answers_list_as_the_full_tries(seed, modules):
    # every install decision of a random game (answers listed untried, a reaction's too: it
    # is decided after the turn ended) and the turn states with an Upgrade on offer: the
    # oracle's listing
    g = boardrules.new_game("eclipse", players=3, seed=seed, modules=list(modules))
    rng, installs, untried, reactions = random.Random(seed), 0, 0, 0
    while not g.over and len(g.record.actions) < 900:
        st = g.state
        listed = list(g.legal_actions())
        if st.pending and st.pending[0].label == "install":
            installs += 1
            untried += g._answers_settle()
            reactions += st.pending[0].source == "react_upgrade" and g._answers_settle()
            assert listed == g._legal_by_trying()
        elif not st.pending and any(a.name in ("upgrade", "react_upgrade", "again") for a in listed):
            assert listed == g._legal_by_trying()
        g.play(rng.choice(listed))
    assert installs and untried and reactions


# ---- a decision left by a turn that has ended (Eclipse's reactions) -----------------------------

AFTER_RULES = """
game after { players 2..2 }
resource vp { start 0; scored true }
resource coins { start 2 }
var tally: int = 0
action work main { require not passed(me) else "you have passed"; gain 1 vp }
# after passing, a main action ends the turn: its choice is decided once the turn has ended,
# before the turn's 'after turn' blocks run
action react main {
  require passed(me) else "reactions come after passing"
  after turn { set tally = tally + 1 }
  choose x in [1, 2, 3] "react" { gain x vp }
}
action react_checked main {
  require passed(me) else "reactions come after passing"
  after turn { require tally < 2 else "a tally of 2 or more" }
  choose x in [1, 2, 3] "react checked" { set tally = x }
}
# outside a turn, an 'after turn' block the answer leaves runs at once
action react_later main {
  require passed(me) else "reactions come after passing"
  choose x in [1, 2, 3] "react later" { after turn { pay x coins } }
}
action pass_round main { if not passed(me) { pass } }
action tip free { gain 0 vp }
flow { rounds 2 { step play: turns seat until_all_pass { main work, react, react_checked, react_later, pass_round; free tip } } }
"""


# an 'after turn' block the turn's block leaves (by a procedure) runs with it, judging the answer
NESTED_RULES = AFTER_RULES.replace("action pass_round", """
action recheck procedure { after turn { require tally < 2 else "a tally of 2 or more" } }
action react_nested main {
  require passed(me) else "reactions come after passing"
  after turn { call recheck() }
  choose x in [1, 2, 3] "react nested" { set tally = x }
}
action pass_round""").replace("react_later, pass_round", "react_later, react_nested, pass_round")


def reacting(action):
    g = boardrules.new_game(texts={"after.rules": NESTED_RULES}, players=2, seed=1)
    for move in ("p1 pass_round", "p2 work", "p2 done", f"p1 {action}"):
        g.play(move)
    assert g.state.values[("f", "turn")][2] is None   # (the turn has ended: p1 decides now)
    return g


def test_answers_after_the_turn_settle_when_the_blocks_behind_them_cannot_break_a_rule():
    g = reacting("react")
    listed, got = answers(g)
    assert g._answers_settle() and listed == [(1,), (2,), (3,)] and all(r is ACCEPTED for r in got.values())
    g.play("p1 x 3")
    assert g.get("vp", 0) == 3 and g.get("tally") == 1 and g.players_to_act() == frozenset({1})


@pytest.mark.parametrize("action,legal", [("react_checked", [(1,)]), ("react_later", [(1,), (2,)]),
                                          ("react_nested", [(1,)])])
def test_answers_after_the_turn_are_tried_when_what_runs_next_may_break_a_rule(action, legal):
    g = reacting(action)
    listed, _ = answers(g)   # (the listing is the full tries')
    assert not g._answers_settle() and listed == legal


LAST_RULES = """
game last { players 2..2 }
resource vp { start 0; scored true }
var said: int = 0
action stop main { pass; choose x in [1, 2] "last words" { set said = x } }
action tip free { gain 0 vp }
flow {
  rounds 1 {
    step play: turns seat until_pass { main stop; free tip }
    step check: do { require said < 2 else "too much said" }
  }
}
"""


def test_answers_after_the_last_turn_are_tried():
    # the last player's answer ends the step: the 'do' step after it judges the answer
    g = boardrules.new_game(texts={"last.rules": LAST_RULES}, players=2, seed=1)
    g.play("p1 stop")
    listed, _ = answers(g)
    assert g._answers_settle() and listed == [(1,), (2,)]   # p2's turn follows either way
    g.play("p1 x 2")
    g.play("p2 stop")
    listed, _ = answers(g)
    assert not g._answers_settle() and listed == [(1,)]


def test_the_common_type_of_options_is_the_type_each_has():
    """``common_type`` (an Upgrade's ~100 texts typed in one pass) answers what typing each
    option with ``value_type`` and keeping the one type they share answers."""
    rs = boardrules.new_game("harvest", players=2, seed=1).ruleset
    for values in [(), ("sow", "reap"), ("sow", "text"), ("a", "b"), (1, 2), (1, True),
                   ("sow", 1), (None,), (None, "sow"), (("sow",),), ("sow",)]:
        types = {lazy.value_type(rs, v) for v in values}
        assert lazy.common_type(rs, values) == (types.pop() if len(types) == 1 else None), values
