"""The bots' and simulations' Python API refuses values of the wrong kind where they are given,
in our words, and reads one text as one bot spec: ``SimulationSpec(bots="random")`` was read
as the specs 'r', 'a', ... ("--bot 'a': every seat already has a bot"), ``games=-1`` simulated
nothing without a word, ``workers=-1`` failed inside the process pool, ``make_bot(5)`` with an
AttributeError, ``summarise(rows, "nope")`` with a KeyError."""

from __future__ import annotations

import pytest

import boardrules
from boardrules.bots import RandomBot, make_bot, seat_bots
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
    (lambda rs: SimulationSpec(rs, 2, "2"), ValueError, "games must be a whole number of at least 1, not '2'"),
    (lambda rs: SimulationSpec(rs, 2, 1, max_actions=0), ValueError, "max_actions must be a whole number"),
    (lambda rs: SimulationSpec(rs, 2, 1, bots=[5]), TypeError, "a bot spec is a text such as 'greedy'"),
    (lambda rs: simulate(SimulationSpec(rs, 2, 2), workers=-1), ValueError,
     "workers must be a whole number of at least 0, not -1"),
    (lambda rs: simulate(SimulationSpec(rs, 2, 2), workers="2"), ValueError, "workers must be a whole number"),
    (lambda rs: simulate(SimulationSpec(rs, 2, 2), workers=1, chunksize=-3), ValueError, "chunksize must be"),
    (lambda rs: make_bot(5), TypeError, "a bot is named by a text such as 'greedy' or 'mcts:50', not 5"),
    (lambda rs: seat_bots([None], players=2), TypeError, "a bot spec is a text"),
])
def test_wrong_arguments_are_refused_where_given(harvest, make, error, message):
    with pytest.raises(error, match=message):
        make(harvest)


def test_summarise_names_a_column_the_rows_lack(harvest):
    rows = seat_rows(simulate(SimulationSpec(harvest, 2, 1, bots=("random",)), workers=1))
    assert summarise(rows, "seat")[0]["games"] == 1
    with pytest.raises(ValueError, match="summarise: no column 'nope' in the rows \\(columns: seed, players, seat"):
        summarise(rows, "nope")
