"""An action's argument, or a decision's answer, of another type than declared is refused
by name, the game as before: Python's ``True == 1`` (and ``1.0 == 1``) let a truth value
pass for a number, and the reverse, as the equal action listed (``p1 bid true`` was played
as ``bid 1`` and failed inside the rules, "was listed as legal but breaks a rule")."""

from __future__ import annotations

import pytest

import boardrules
from boardrules import Action, IllegalActionError

RULES = """
game bids { title "Bids"; players 2 }
resource vp { start 0; scored true }
action bid(n: int in 0..3) main { gain n vp }
action flag(b: bool) main { if b { gain 1 vp } }
action give(q: player) main { gain 1 vp to q }
action pick main { choose x in [0, 1, 2] "how many" { gain x vp } }
action yes main { choose y in [true, false] "yes or no" { if y { gain 1 vp } } }
action roll main { choose r in dice(2) by chance "two dice" { gain r[0] vp } }
flow { rounds 2 { step bids: turns seat once { main bid, flag, give, pick, yes, roll } } }
"""


def _game(*moves: str) -> boardrules.Game:
    game = boardrules.new_game(texts={"bids.rules": RULES}, players=2, seed=1)
    game.auto_chance = False
    for move in moves:
        game.play(move)
    return game


def _refused(game: boardrules.Game, action: Action, *said: str) -> None:
    before = (game.state, list(game.record.actions), len(game.log))
    assert action not in game.legal_actions() and not game.is_legal(action)
    for check in (True, False):
        with pytest.raises(IllegalActionError) as err:
            game.play(action, check=check)
        assert all(s in str(err.value) for s in said), str(err.value)
        assert (game.state, list(game.record.actions), len(game.log)) == before


@pytest.mark.parametrize("value, said", [(True, "true or false: True"), (False, "true or false: False"),
                                         (1.0, "a float: 1.0"), ("1", "a text: '1'")])
def test_an_int_parameter_takes_no_truth_value(value, said):
    game = _game()
    assert Action(0, "bid", (1,)) in game.legal_actions()
    _refused(game, Action(0, "bid", (value,)), f"n: expected an int (a whole number), given {said} [rule: bid (bids.rules:4:12)]")
    assert Action(0, "bid", (value,)) != Action(0, "bid", (1,))   # (another move: 'p1 bid true')


@pytest.mark.parametrize("value", [1, 0, 1.0])
def test_a_bool_parameter_takes_no_number(value):
    game = _game()
    assert Action(0, "flag", (True,)) in game.legal_actions()
    _refused(game, Action(0, "flag", (value,)), "b: expected a bool (true or false), given ")


def test_a_player_parameter_takes_no_truth_value():
    _refused(_game(), Action(0, "give", (True,)), "q: expected a player (a whole number), given true or false")


def test_a_decision_answer_is_of_its_options_kind():
    game = _game("p1 pick")
    assert Action(0, "x", (1,)) in game.legal_actions()
    _refused(game, Action(0, "x", (True,)), "x: expected a choice (a whole number), given true or false: True")
    game = _game("p1 yes")
    assert Action(0, "y", (True,)) in game.legal_actions()
    _refused(game, Action(0, "y", (1,)), "y: expected a choice (true or false), given a whole number: 1")
    game = _game("p1 roll")
    _refused(game, Action(-1, "r", ((True, 2),)), "r: expected a roll (a tuple of whole numbers), given a tuple: (True, 2)")
    game.play(Action(-1, "r", ((1, 2),)))   # (the right kinds still played)
    assert game.get("vp", player=0) == 1


def test_a_record_of_the_right_kinds_replays():
    game = _game("p1 bid 1", "p2 flag true", "p1 pick", "p1 x 1")
    again = boardrules.load_game(game.save())
    assert again.state == game.state
