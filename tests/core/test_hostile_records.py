"""Hostile records and arguments (found in the new-user trial): an option value the rules
cannot hold is an OptionError naming the option (it was a TypeError out of the ruleset cache),
and a huge module name or player count is quoted in brief."""

from __future__ import annotations

import json
import re

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


# A Record built in Python is held to the shape of one read from a file.
# (modules="weather" was read as its letters, "harvest has no module 'a', 'e', ...";
# actions="p1 study" as moves 'p', '1', ...; rules="x" failed with a ValueError unpacking it)
@pytest.mark.parametrize("fields, message", [
    ({"modules": "weather"}, '$.modules: expected a list of module names, not "weather"'),
    ({"actions": "p1 study"}, '$.actions: expected a list of moves (texts), not "p1 study"'),
    ({"rules": "x"}, '$.rules: expected a list of [file name, rule text] pairs, not "x"'),
    ({"players": "2"}, '$.players: expected a whole number, not "2"'),
])
def test_a_record_built_in_python_is_checked_as_a_file_is(fields, message):
    built = boardrules.Record(**{"game": "harvest", "modules": (), "options": {}, "players": 2, "seed": 1,
                                 **fields})
    with pytest.raises(NotationError, match=f"^malformed boardrules record: {re.escape(message)}$"):
        boardrules.Game.from_record(built)


def test_a_record_built_in_python_with_tuples_replays():
    house = (("h.rules", "override resource coins { start 9 }\n"),)
    built = boardrules.Record("harvest", ("weather",), {"goal": 3}, 3, 1, rules=house,
                              actions=("chance c tithe",))
    game = boardrules.Game.from_record(built)
    assert (game.get("coins", 0), game.ruleset.modules, game.record.actions) == (9, ("weather",), ["chance c tithe"])
    with pytest.raises(TypeError, match="from_record needs a Record, not"):
        boardrules.Game.from_record({"game": "harvest"})
