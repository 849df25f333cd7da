"""Public functions given values of the wrong type say what they expect, in our words (each
failed with Python's own AttributeError or KeyError, or answered wrongly: a reader's ``at``
read a text's letters as indexes, ``passed`` and ``owner`` answered for no player or entity)."""

from __future__ import annotations

import pytest

import boardrules
from boardrules import Action, BoardrulesError, NotationError, State


@pytest.fixture(scope="module")
def game():
    return boardrules.new_game("harvest", players=2, seed=1)


@pytest.mark.parametrize("call, error, message", [
    (lambda g: g.parse(5), TypeError, "parse reads an action's text such as 'p1 study', not 5"),
    (lambda g: g.parse(b"p2 study"), TypeError, "parse reads an action's text"),
    (lambda g: g.format("p2 study"), TypeError, "format writes an Action, not 'p2 study'"),
    (lambda g: g.format(None), TypeError, "format writes an Action, not None"),
    (lambda g: list(g.candidates("p1")), TypeError, r"a player is a seat counted from 0 \(an int: 0 for p1\), not 'p1'"),
    (lambda g: list(g.candidates(2)), ValueError, "no player 2 in a 2-player game"),
    (lambda g: g.get(5), TypeError, "a name of the rules is a text such as 'coins', not 5"),
    (lambda g: g.get(None, 0), TypeError, "a name of the rules is a text"),
    (lambda g: g.reader().get(5), TypeError, "a name of the rules is a text"),
    # (a player of another type was 'no player here', a BoardrulesError)
    (lambda g: g.get("coins", "0"), TypeError, r"a player is a seat counted from 0 \(an int: 0 for p1\), not '0'"),
    (lambda g: g.get("coins", 1.0), TypeError, "not 1.0"),
    (lambda g: g.get("coins", True), TypeError, "not True"),
    (lambda g: g.reader().get("coins", "p1"), TypeError, "not 'p1'"),
    (lambda g: g.reader().each(None), TypeError, "a name of the rules is a text"),
    (lambda g: g.get("field_owner", index=["a1"]), BoardrulesError, r"not \['a1'\]"),
    (lambda g: g.reader().passed(2), ValueError, "no player 2 in a 2-player game"),
    (lambda g: g.reader().passed("p1"), TypeError, "not 'p1'"),
    (lambda g: g.reader().owner("reaper"), BoardrulesError, "no entity 'reaper' in Harvest"),
    (lambda g: boardrules.Game("harvest", 2), TypeError, r"Game needs a Ruleset \(boardrules.build_ruleset"),
    (lambda g: boardrules.build_ruleset("harvest", options={1: 2}), TypeError,
     "options must map option names \\(texts\\) to values, not 1: 2"),
    (lambda g: boardrules.build_ruleset("harvest", options={"rounds": 2, 3: 4}), TypeError, "not 3: 4"),
])
def test_wrong_types_are_refused_saying_what_is_expected(game, call, error, message):
    state = game.state
    with pytest.raises(error, match=message):
        call(game)
    assert game.state is state


def test_a_readers_at_takes_one_text_as_one_index(game):
    reader = game.reader()
    assert reader.at("field_owner", "a2") == reader.at("field_owner", ["a2"]) == [game.get("field_owner", index="a2")]
    assert reader.owner("reap") is None and reader.passed(0) is False   # (an entity nobody holds)


def test_candidates_of_a_player_and_of_chance():
    table = boardrules.Game(boardrules.build_ruleset("harvest"), 2, auto_chance=False)
    assert list(table.candidates(0)) == [] and len(list(table.candidates(boardrules.CHANCE))) == 4


@pytest.mark.parametrize("data", [
    5, "x", {}, {"values": []}, {"values": 5, "pending": []}, {"values": [[5, 1]], "pending": []},
    {"values": [[["r", "coins", 0], {"a": 1}]], "pending": []},
    {"values": [], "pending": [{"player": 0}]},
])
def test_state_from_json_refuses_another_shape(data):
    with pytest.raises(NotationError, match=r"not a state as State.to_json gives it"):
        State.from_json(data)


def test_state_from_json_round_trip_still_holds(game):
    assert State.from_json(game.state.to_json()) == game.state
    assert Action(1, "study") == game.parse(game.format(Action(1, "study")))


def test_a_listing_in_progress_refuses_to_go_on_once_the_game_moved_on():
    """docs/api.md: a LegalActions view used after the game moved on raises RuntimeError; an
    iteration under way went on trying the rest against the new state."""
    game = boardrules.new_game("harvest", players=2, seed=1)
    for move in ("p2 buy reap", "p1 study", "p1 build_farm a1", "p1 done", "p2 build_farm a2", "p2 done"):
        game.play(move)
    for listed_before in (False, True):
        legal = game.legal_actions()
        if listed_before:
            assert len(legal) == 3
        seen = []
        with pytest.raises(RuntimeError, match="the game has moved on"):
            for action in legal:
                seen.append(action)
                game.play(action)
        assert seen == [Action(0, "bonus", (1,))]
        game.undo()
    searched = []
    for action in game.legal_actions():   # play and undo: the very state is back, the listing goes on
        game.play(action)
        searched.append(game.get("coins", 0))
        game.undo()
    assert len(searched) == 3


def test_a_listed_view_answers_nothing_once_the_game_moved_on():
    """``len``, indexing and slicing of a view listed before answered from the earlier state's
    list after the game moved on (docs/api.md: RuntimeError); its repr says so."""
    game = boardrules.new_game("harvest", players=2, seed=1)
    legal = game.legal_actions()
    assert len(legal) == 4
    game.play(legal[1])
    for use in (len, lambda view: view[0], lambda view: view[0:2]):
        with pytest.raises(RuntimeError, match="the game has moved on"):
            use(legal)
    assert repr(legal) == "<LegalActions of an earlier state: the game has moved on>"
    game.undo()   # (the very state is back: the view answers again)
    assert len(legal) == 4 and legal[1] in legal
