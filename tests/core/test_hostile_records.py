"""Hostile records and arguments (found in the new-user trial): an option value the rules
cannot hold is an OptionError naming the option (it was a TypeError out of the ruleset cache),
and a huge module name or player count is quoted in brief."""

from __future__ import annotations

import json

import pytest

import boardrules
from boardrules import NotationError, OptionError, PluginError


@pytest.fixture
def record() -> dict:
    g = boardrules.new_game("harvest", players=2, seed=1)
    return json.loads(g.save())


@pytest.mark.parametrize("value", [{"a": 1}, 1.5, [1, {"b": 2}], object()])
def test_an_option_value_the_rules_cannot_hold_is_an_option_error(value):
    with pytest.raises(OptionError, match="option 'goal' must be a number, true or false, a text"):
        boardrules.new_game("harvest", players=2, options={"goal": value})


def test_a_record_with_such_an_option_is_refused_so(record):
    record["options"] = {"goal": {"a": 1}}
    with pytest.raises(OptionError, match="option 'goal' must be"):
        boardrules.load_game(json.dumps(record))


def test_a_huge_module_name_is_quoted_in_brief(record):
    record["modules"] = ["x" * 1_000_000]
    with pytest.raises(PluginError) as err:
        boardrules.load_game(json.dumps(record))
    assert len(str(err.value)) < 300 and "(1000000 characters)" in str(err.value)
    with pytest.raises(PluginError) as err:
        boardrules.new_game("y" * 1_000_000, players=2)
    assert len(str(err.value)) < 300


def test_a_huge_player_count_is_quoted_in_brief(record):
    record["players"] = 10 ** 4000
    with pytest.raises(NotationError) as err:
        boardrules.load_game(json.dumps(record))
    assert len(str(err.value)) < 200
