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
