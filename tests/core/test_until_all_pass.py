"""The ``until_all_pass`` turn mode: passed players keep their turns; the step ends when all
have passed; a passed player's turn ends by itself after its main action."""

from __future__ import annotations

import boardrules

RULES = """
game reactions { players 2..3 }
resource coins { scored true }
action work main { require not passed(me) else "you have passed"; gain 2 coins }
action react main { require passed(me) else "reactions come after passing"; gain 1 coins }
action pass_round main { if not passed(me) { pass } }
action tip free { gain 0 coins }
flow { rounds 2 { step play: turns seat until_all_pass { main work, react, pass_round; free tip } } }
"""


def _game(players=2):
    return boardrules.new_game(texts={"r.rules": RULES}, players=players)


def test_passed_players_keep_turns_until_all_have_passed():
    g = _game()
    g.play("p1 pass_round")                        # the turn ends by itself after passing
    assert g.players_to_act() == frozenset({1})
    g.play("p2 work")
    g.play("p2 done")
    legal = {str(a) for a in g.legal_actions()}
    assert "p1 react" in legal and "p1 pass_round" in legal and "p1 work" not in legal
    g.play("p1 tip")                               # free actions come before the main one
    g.play("p1 react")
    assert g.players_to_act() == frozenset({1})    # p1's reaction ended the turn
    g.play("p2 work")
    g.play("p2 done")
    g.play("p1 pass_round")                        # passing again: still p1's turn to come
    assert g.get("round") == 1
    g.play("p2 pass_round")                        # the last to pass ends the step
    assert g.get("round") == 2
    assert g.get("coins", 0) == 1 and g.get("coins", 1) == 4


def test_unknown_mode_still_reported():
    bad = RULES.replace("until_all_pass", "until_all_passed")
    try:
        boardrules.new_game(texts={"r.rules": bad}, players=2)
    except boardrules.RulesError as err:
        assert "unknown turn mode" in str(err)
    else:
        raise AssertionError("a misspelt mode must be an error")
