"""A record's JSON holding more elements than a record may is refused before it is parsed
(polish4, session 22; ``LIMITS.max_record_elements``): a record of a million options took 1.4 s
and 200 MB to parse before its count of options was checked."""

from __future__ import annotations

import json

import pytest

import boardrules
from boardrules import NotationError
from boardrules import record as records
from boardrules.limits import LIMITS
from boardrules.record import elements_passing, moves_passing
from boardrules.replay import replay_file

SAID = (r"it holds more than 200000 elements \(list items and mapping entries\) besides its moves, the most "
        r"a record may \(LIMITS.max_record_elements; raise it with boardrules.limits.LIMITS.changed\("
        r"max_record_elements=N\)\)")
MOVES = (r"its \$.actions holds more than 100000 moves, the most a game may have \(LIMITS.max_moves; raise "
         r"it with boardrules.limits.LIMITS.changed\(max_moves=N\)\)")


@pytest.fixture
def record() -> dict:
    return json.loads(boardrules.new_game("harvest", players=2, seed=1).save())


@pytest.fixture
def unparsed(monkeypatch):
    """json.loads in boardrules.record fails the test if it is called."""
    def parse(*_, **__):
        raise AssertionError("parsed")
    monkeypatch.setattr(records.json, "loads", parse)


def test_a_million_options_are_refused_unparsed(record, unparsed, tmp_path):
    record["options"] = {f"k{i}": 0 for i in range(1_000_000)}
    text = json.dumps(record)
    path = tmp_path / "r.json"
    path.write_text(text, encoding="utf-8")
    for read in (lambda: boardrules.load_game(text), lambda: boardrules.load_game(text.encode("utf-16")),
                 lambda: boardrules.Record.loads(text), lambda: replay_file(path)):
        with pytest.raises(NotationError, match=SAID):
            read()


def test_the_elements_of_every_depth_count_and_texts_commas_do_not():
    nested = '{"a": [1, 2, [3]], "b": {"c": 4}}'   # (2 entries, 3 + 1 items, 1 entry)
    assert not elements_passing(nested, 7) and elements_passing(nested, 6)
    assert elements_passing("[" + "0," * 10 + "0]", 10) and not elements_passing("[" + "0," * 10 + "0]", 11)
    assert not elements_passing(json.dumps(["x,[{" * 1000, "y"]), 2)
    assert not elements_passing(json.dumps(['\\",[' * 1000]), 1)   # (escaped quotes within a text)


def test_a_record_at_the_limit_is_read_and_one_past_it_is_refused(record):
    record["actions"] = []
    moves = boardrules.new_game("harvest", players=2, seed=1).record.actions
    text = json.dumps({**record, "actions": moves})
    n = text.count(",") + text.count("[") + text.count("{")
    with LIMITS.changed(max_moves=1, max_record_elements=n - 1):
        assert boardrules.load_game(text).record.actions == moves
    with LIMITS.changed(max_moves=1, max_record_elements=n - 2), pytest.raises(NotationError, match="more than"):
        boardrules.load_game(text)


@pytest.mark.parametrize("text, said", [
    ('["' + "," * 400_000, "unterminated string"),                  # (a text that does not end)
    ('[' + '""' * 400_000 + "," * 400_000 + ']', "expecting ',' delimiter"),   # (texts with no commas between)
])
def test_json_that_is_no_json_is_still_said_so(text, said):
    with pytest.raises(NotationError, match=f"it is not JSON: {said}"):
        boardrules.load_game(text)


@pytest.mark.parametrize("moves, others, said", [
    (300_001, 0, MOVES), (150_000, 160_000, MOVES), (100_000, 200_001, SAID), (0, 300_001, SAID),
    (50_000, 260_000, SAID),
])
def test_the_limit_passed_is_the_one_named_with_how_to_raise_it(record, unparsed, moves, others, said):
    """A record of more than 300,000 moves was told it held too many elements (LIMITS.max_record_elements),
    not too many moves (LIMITS.max_moves), the limit that mattered."""
    text = json.dumps({**record, "actions": ["p1 study"] * moves, "options": {"x": [0] * others}})
    with pytest.raises(NotationError, match="^cannot read a boardrules record: " + said):
        boardrules.load_game(text)


def test_only_the_top_level_actions_are_counted_as_moves():
    assert moves_passing('{"actions": ["a", "b", "c", "d"]}', 3, 1)   # (5 elements: 4 moves)
    assert not moves_passing('{"x": {"actions": ["a", "b", "c", "d"]}}', 3, 2)
    assert not moves_passing('{"x": "actions", "y": ["a", "b", "c", "d"]}', 3, 2)
    assert not moves_passing('{"actions": [[1, 2, 3, 4, 5]]}', 3, 3)   # (deeper: not moves)
    assert not moves_passing('{"actions": ["a,b,c,d,e"], "x": [1, 2, 3, 4]}', 3, 3)
