"""'after turn' outside a turn runs at once (docs/language.md, 'after turn'): in a do step
when its body has run, and in a decision decided when nobody's turn is under way when its
block has run; never after some later player's turn."""

from __future__ import annotations

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
