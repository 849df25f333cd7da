"""'after turn' outside a turn runs at once (docs/language.md, 'after turn'): in a do step
when its body has run, and in a decision decided when nobody's turn is under way when its
block has run; never after some later player's turn."""

from __future__ import annotations

import pytest

import boardrules

RULES = """
resource coins { }
var log: list[text] = []
action go main { set log = log + ["go"] }
action build main {
  after turn { set log = log + ["after build"] }
  set log = log + ["build"]
}
flow {
  rounds 1 {
    step phase: do {
      after turn { set log = log + ["after phase"] }
      set log = log + ["phase"]
    }
    step decide: do {
      choose x in [1, 2] by 0 "a phase decision" {
        after turn { set log = log + ["after decision"] }
        set log = log + ["decided"]
      }
    }
    step play: turns seat once { main go, build }
  }
}
"""


def test_after_turn_outside_a_turn_runs_at_once():
    g = boardrules.new_game(texts={"a.rules": RULES}, players=2)
    assert g.get("log") == ("phase", "after phase")
    g.play("p1 x 1")
    assert g.get("log") == ("phase", "after phase", "decided", "after decision")
    g.play("p1 build")        # in a turn: at the end of that turn
    g.play("p2 go")
    assert g.get("log") == ("phase", "after phase", "decided", "after decision", "build",
                            "after build", "go")
    again = boardrules.load_game(g.save())
    assert again.state == g.state


PENDING = """
resource coins { }
var log: list[text] = []
action work main {
  set log = log + ["work"]
  choose n in [1, 2] "how many" {
    set log = log + ["chose"]
    choose m in [3, 4] "and then" { set log = log + ["chose again"] }
  }
  after turn { set log = log + ["after"] }
}
action idle main { set log = log + ["idle"] }
action wait free { }
flow { rounds 1 { step play: turns seat MODE { main work, idle RULES } } }
"""


def _pending(mode: str, rules: str = "", players: int = 2):
    text = PENDING.replace("MODE", mode).replace("RULES", rules)
    return boardrules.new_game(texts={"p.rules": text}, players=players)


def test_after_turn_waits_for_the_decisions_of_a_main_action_that_ends_the_turn():
    """A main action that ends the turn (the step has no free action) and leaves decisions: its
    'after turn' blocks run once those decisions (and the ones they raise) are decided, not
    before them (fails when they run as the turn ends)."""
    g = _pending("once")
    g.play("p1 work")
    assert g.get("log") == ("work",) and g.players_to_act() == frozenset({0})
    g.play("p1 n 1")
    assert g.get("log") == ("work", "chose")
    g.play("p1 m 3")
    assert g.get("log") == ("work", "chose", "chose again", "after")
    g.play("p2 idle")
    assert g.get("log") == ("work", "chose", "chose again", "after", "idle")
    assert boardrules.load_game(g.save()).state == g.state


def test_after_turn_waits_in_a_simultaneous_step_and_with_free_actions_too():
    g = _pending("simultaneous")
    g.play("p2 work")
    assert g.get("log") == ("work",)
    g.play("p2 n 2")
    g.play("p2 m 4")
    assert g.get("log") == ("work", "chose", "chose again", "after")
    # with free actions the turn ends with 'done', once the decisions are made: as before
    g = _pending("once", "; free wait")
    g.play("p1 work")
    g.play("p1 n 1")
    g.play("p1 m 3")
    assert g.get("log") == ("work", "chose", "chose again")
    g.play("p1 done")
    assert g.get("log") == ("work", "chose", "chose again", "after")


def test_after_turn_waits_in_a_lane_of_interleaved_turns():
    text = PENDING.replace("MODE", "until_pass").replace("RULES", "; lanes [0, 1]").replace(
        "action idle main { set log = log + [\"idle\"] }", "action idle main { pass }")
    g = boardrules.new_game(texts={"p.rules": text}, players=3)
    g.play("p1 work")
    g.play("p2 idle")                 # the other lane goes on meanwhile
    assert g.get("log") == ("work",)
    g.play("p1 n 1")
    g.play("p1 m 3")
    assert g.get("log") == ("work", "chose", "chose again", "after")


# ---- an 'after turn' left while the turn's own 'after turn' blocks run --------------------------
# (a procedure that says 'after turn', called from an 'after turn' block, a trigger, a 'queue'
# block or a decision's block): it belongs to the turn that is ending, and runs at its end,
# never at the end of the next player's turn.

NESTED = """
resource coins { }
var log: list[text] = []
event built(p: player)
action tidy procedure {
  after turn { set log = log + ["tidied"] }
  set log = log + ["tidy"]
}
WHEN
action go main { set log = log + ["go"] }
action build main { BODY }
action wait free { }
flow { rounds 1 { step play: turns seat MODE { main go, build FREE } } }
"""

WAYS = {   # name: (top-level rule, body of build)
    "an after-turn block": ("", 'after turn { set log = log + ["after"]; call tidy() }'),
    "a trigger's after-turn block": ('when built(p) { after turn { call tidy() } }', "emit built(me)"),
    "turn_ends": ('when turn_ends(p) { if p == 0 { after turn { call tidy() } } }', "set log = log"),
    "a queue block": ("", "after turn { queue { call tidy() } }"),
    "a decision's block": ("", 'choose x in [1] "pick" { after turn { call tidy() } }'),
    "a nested decision": ("", 'after turn { choose x in [1] "pick" { call tidy() } }'),
}


def _nested(way: str, mode: str = "once", free: bool = False, players: int = 2):
    when, body = WAYS[way]
    text = NESTED.replace("WHEN", when).replace("BODY", body).replace("MODE", mode) \
        .replace("FREE", "; free wait" if free else "")
    return boardrules.new_game(texts={"n.rules": text}, players=players)


def _p1_turn(g, free: bool = False) -> None:
    """p1's turn: build, 'done' with free actions, and p1's decisions on the way."""
    for move in ["p1 build"] + ["p1 done"] * free:
        g.play(move)
        while g.state.pending and g.state.pending[0].player == 0:
            g.play(f"p1 {g.state.pending[0].label} 1")


@pytest.mark.parametrize("free", [False, True])
@pytest.mark.parametrize("way", sorted(WAYS))
def test_a_nested_after_turn_runs_at_the_end_of_the_turn_that_left_it(way, free):
    g = _nested(way, free=free)
    _p1_turn(g, free)
    log = g.get("log")
    assert log[-2:] == ("tidy", "tidied") and g.players_to_act() == frozenset({1}), log
    g.play("p2 go")
    assert g.get("log") == log + ("go",)      # not after p2's turn (fails before the fix)
    assert boardrules.load_game(g.save()).state == g.state


@pytest.mark.parametrize("way", sorted(set(WAYS) - {"turn_ends"}))
def test_a_nested_after_turn_runs_after_the_main_action_of_a_simultaneous_step(way):
    g = _nested(way, mode="simultaneous")
    _p1_turn(g)
    log = g.get("log")
    assert log[-2:] == ("tidy", "tidied"), log
    g.play("p2 go")
    assert g.get("log") == log + ("go",)


def test_a_nested_after_turn_runs_at_the_end_of_a_lane_turn():
    text = NESTED.replace("WHEN", "").replace("BODY", WAYS["an after-turn block"][1]) \
        .replace("MODE", "until_pass").replace("FREE", "; lanes [0, 1]") \
        .replace('action go main { set log = log + ["go"] }', 'action go main { set log = log + ["go"]; pass }')
    g = boardrules.new_game(texts={"n.rules": text}, players=3)
    g.play("p1 build")
    assert g.get("log") == ("after", "tidy", "tidied")
    g.play("p2 go")
    assert g.get("log") == ("after", "tidy", "tidied", "go")


NESTED_WAIT = """
resource coins { }
var log: list[text] = []
action go main { set log = log + ["go"] }
action build main {
  after turn {
    after turn { set log = log + ["nested"] }
    choose x in [1, 2] "bonus" { set log = log + ["bonus"] }
    set log = log + ["after"]
  }
}
flow { rounds 1 { step play: turns seat once { main go, build } } }
"""


def test_a_nested_after_turn_waits_for_the_decisions_the_blocks_raised():
    """The blocks run as the turn ends raise a decision: a block they leave waits for it, as
    the turn's blocks wait for the turn's decisions (docs/language.md, 'after turn')."""
    g = boardrules.new_game(texts={"w.rules": NESTED_WAIT}, players=2)
    g.play("p1 build")
    assert g.get("log") == ("after",) and g.state.pending[0].label == "x"
    g.play("p1 x 2")
    assert g.get("log") == ("after", "bonus", "nested") and g.players_to_act() == frozenset({1})
    assert boardrules.load_game(g.save()).state == g.state


ENDLESS = """
resource coins { }
action again procedure { after turn { call again() } }
action go main { }
action loop main { call again() }
flow { rounds 1 { step play: turns seat once { main go, loop } } }
"""


def test_an_after_turn_block_that_leaves_itself_runs_out_of_budget():
    """Each block leaves the next: the execution budget stops it (an illegal action, the
    state unchanged), not a hang."""
    g = boardrules.new_game(texts={"e.rules": ENDLESS}, players=2, max_steps=2_000)
    before = g.state
    with pytest.raises(boardrules.IllegalActionError, match="budget"):
        g.play("p1 loop")
    assert g.state is before
    assert "loop" not in {a.name for a in g.legal_actions()}
