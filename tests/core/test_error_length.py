"""Error messages quote what they were given in brief (a hostile record's line or action may be
huge): the player, the action's name and its first arguments, then ``...``; never the whole."""

from __future__ import annotations

import json

import pytest

import boardrules
from boardrules import Action, BoardrulesError, IllegalActionError, NotationError
from boardrules.game import brief_action
from boardrules.quoting import brief_text, brief_value, excerpt

LIMIT = 400   # the longest message allowed here (the rule's words and position come on top)


@pytest.fixture
def game():
    return boardrules.new_game("harvest", players=3, seed=1)


def _refused(game, action, error=BoardrulesError) -> str:
    state = game.state
    with pytest.raises(error) as err:
        game.play(action)
    assert game.state is state
    return str(err.value)


def test_a_huge_argument_is_quoted_in_brief(game):
    text = _refused(game, Action(2, "sell", (tuple(range(200_000)),)), IllegalActionError)
    assert len(text) < LIMIT and text.startswith("p3 sell 0,1,2,3,") and "..." in text


def test_many_arguments_are_quoted_in_brief(game):
    text = _refused(game, Action(2, "sell", tuple(range(100_000))), IllegalActionError)
    assert len(text) < LIMIT and text.startswith("p3 sell 0 1 2") and "..." in text


@pytest.mark.parametrize("line", [
    "p3 " + "x" * 1_000_000,                      # an action name no rule has
    "p3 sell " + "9" * 100_000,                   # a number too long to be one
    "p3 buy " + "r" * 1_000_000,                  # a card that does not exist
    "q" * 1_000_000 + " sell 1",                  # no player
    "p3",                                          # too short
    "p3 sell " + " ".join(["1"] * 100_000),       # too many arguments
])
def test_huge_text_is_quoted_in_brief(game, line):
    text = _refused(game, line)
    assert len(text) < LIMIT, text[:LIMIT]


def test_a_decision_answer_is_quoted_in_brief():
    g = boardrules.new_game("harvest", players=2, seed=3)
    while not g.state.pending or g.state.pending[0].player < 0:
        g.play(next(iter(g.legal_actions())))
    d = g.state.pending[0]
    text = _refused(g, Action(d.player, d.label, ("z" * 1_000_000,)), IllegalActionError)
    assert len(text) < LIMIT


def test_a_record_with_a_huge_move_is_refused_in_brief(game):
    record = json.loads(game.save())
    record["actions"].append("p3 " + "y" * 2_000_000)
    with pytest.raises((IllegalActionError, NotationError)) as err:
        boardrules.load_game(json.dumps(record))
    assert len(str(err.value)) < LIMIT + 200   # (the record's ruleset note may follow)


def test_brief_texts_keep_the_start():
    assert brief_action(Action(0, "move", ("a1", ("b2",) * 3))) == "p1 move a1 b2,b2,b2"
    assert brief_value(tuple(range(10 ** 6)), 20).startswith("0,1,2,3,4,5")
    assert len(brief_value(tuple(range(10 ** 6)), 20)) <= 20
    nested = ()
    for _ in range(5000):
        nested = (nested,)
    assert len(brief_value(nested)) <= 50


def test_an_excerpt_is_escaped_short_and_has_its_caret_in_place():
    line = "a" * 1000 + "\x1b[2J" + "b" * 1000
    shown, at = excerpt(line, 1001)
    assert shown[at:].startswith("\\x1b[2J") and shown.startswith("...") and shown.endswith("...")
    assert len(shown) <= 66 and "\x1b" not in shown
    assert excerpt("terrans build castle 9A1.", 15) == ("terrans build castle 9A1.", 14)
    assert excerpt("", 1) == ("", 0) and excerpt("ab", 3) == ("ab", 2)
    shown, at = excerpt("\U000e0001" * 500, 250)   # (escapes of 10 characters)
    assert len(shown) <= 66 and shown[at:].startswith("\\U000e0001")


def test_a_brief_text_counts_its_escapes():
    shown = brief_text("\x07" * 200, 60)
    assert shown.startswith("'\\x07") and len(shown) < 60 + 25 and shown.endswith("(200 characters)")
    assert brief_text("x" * 200, 60) == repr("x" * 60) + "... (200 characters)"
