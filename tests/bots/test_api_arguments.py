"""The bots' and simulations' Python API refuses values of the wrong kind where they are given,
in our words, and reads one text as one bot spec: ``SimulationSpec(bots="random")`` was read
as the specs 'r', 'a', ... ("--bot 'a': every seat already has a bot"), ``games=-1`` simulated
nothing without a word, ``workers=-1`` failed inside the process pool, ``make_bot(5)`` with an
AttributeError, ``summarise(rows, "nope")`` with a KeyError."""

from __future__ import annotations

import pytest

import boardrules
from boardrules import Game
from boardrules.bots import GreedyBot, MCTSBot, RandomBot, make_bot, play_out, seat_bots
from boardrules.simulate import SimulationSpec, seat_rows, simulate, summarise


@pytest.fixture(scope="module")
def harvest():
    return boardrules.build_ruleset("harvest")


def test_one_text_is_one_bot_spec(harvest):
    assert SimulationSpec(harvest, 2, 1, bots="random").bots == ("random",)
    assert all(isinstance(b, RandomBot) for b in seat_bots("random", players=3))


@pytest.mark.parametrize("make, error, message", [
    (lambda rs: SimulationSpec(rs, 2, 0), ValueError, "games must be a whole number of at least 1, not 0"),
    (lambda rs: SimulationSpec(rs, 2, -1), ValueError, "games must be a whole number of at least 1, not -1"),
    (lambda rs: SimulationSpec(rs, 2, "2"), TypeError, r"games must be a whole number \(an int\), not '2'"),
    (lambda rs: SimulationSpec(rs, 2, 1, max_actions=0), ValueError, "max_actions must be a whole number"),
    (lambda rs: SimulationSpec(rs, 2, 1, bots=[5]), TypeError, "a bot spec is a text such as 'greedy'"),
    (lambda rs: simulate(SimulationSpec(rs, 2, 2), workers=-1), ValueError,
     "workers must be a whole number of at least 0, not -1"),
    (lambda rs: simulate(SimulationSpec(rs, 2, 2), workers="2"), TypeError, "workers must be a whole number"),
    (lambda rs: simulate(SimulationSpec(rs, 2, 2), workers=1, chunksize=-3), ValueError, "chunksize must be"),
    (lambda rs: make_bot(5), TypeError, "a bot is named by a text such as 'greedy' or 'mcts:50', not 5"),
    (lambda rs: seat_bots([None], players=2), TypeError, "a bot spec is a text"),
    # (a bool seeded a bot as 1, and seat_bots as the text 'True/0'; 0 players gave no bots;
    # play_out's max_actions=0 played nothing, then said the game 'did not end within 0 actions')
    (lambda rs: make_bot("random", True), TypeError, "a bot's seed is a whole number, a float or a text, not True"),
    (lambda rs: make_bot("greedy", None), TypeError, "a bot's seed is a whole number, a float or a text, not None"),
    (lambda rs: seat_bots(["random"], 2, True), TypeError, "a bot's seed is"),
    (lambda rs: seat_bots(["p01=random"], 2), ValueError, "'p01' is not a seat \\(p1..p2\\)"),   # (was p1)
    (lambda rs: seat_bots(["random"], 0), ValueError, "players must be a whole number of at least 1, not 0"),
    (lambda rs: seat_bots(["random"], True), TypeError, r"players must be a whole number \(an int\), not True"),
    (lambda rs: play_out(Game(rs, 2, 1), max_actions=0), ValueError, "max_actions must be a whole number of at least 1"),
    (lambda rs: play_out(Game(rs, 2, 1), max_actions="5"), TypeError, "max_actions must be a whole number"),
    # (a colon with no N was the default bot; a budget of 0, a text or a negative number was
    # taken, and failed, or searched nothing, at the first decision)
    (lambda rs: make_bot("greedy:"), ValueError, "no bot 'greedy:'"),
    (lambda rs: make_bot("mcts:"), ValueError, "no bot 'mcts:'"),
    (lambda rs: GreedyBot(budget=0), ValueError, "budget must be a whole number of at least 1, not 0"),
    (lambda rs: GreedyBot(budget="300"), TypeError, r"budget must be a whole number \(an int\), not '300'"),
    (lambda rs: GreedyBot(follow=-1), ValueError, "follow must be a whole number of at least 0"),
    (lambda rs: GreedyBot(prepare=1.5), TypeError, "prepare must be a whole number"),
    (lambda rs: MCTSBot(iterations=-1), ValueError, "iterations must be a whole number of at least 0, not -1"),
    (lambda rs: MCTSBot(iterations="30"), TypeError, "iterations must be a whole number"),
    (lambda rs: MCTSBot(iterations=None, seconds=-1), ValueError, "seconds must be a number of at least 0, not -1"),
    (lambda rs: MCTSBot(seconds=float("nan")), ValueError, "seconds must be a number of at least 0, not nan"),
    (lambda rs: MCTSBot(seconds="1"), TypeError, "seconds must be a number, not '1'"),
    (lambda rs: MCTSBot(playout=-1), ValueError, "playout must be a whole number of at least 0"),
])
def test_wrong_arguments_are_refused_where_given(harvest, make, error, message):
    with pytest.raises(error, match=message):
        make(harvest)


def test_summarise_names_a_column_the_rows_lack(harvest):
    rows = seat_rows(simulate(SimulationSpec(harvest, 2, 1, bots=("random",)), workers=1))
    assert summarise(rows, "seat")[0]["games"] == 1
    with pytest.raises(ValueError, match="summarise: no column 'nope' in the rows \\(columns: seed, players, seat"):
        summarise(rows, "nope")
