"""State.from_json refuses what no state holds, naming the place (polish4, session 22): a number
beyond the rules' ±(2^63-1), a float, a mapping other than a tuple, a list nested deeper or
longer than the rules' lists, a key twice, a decision field of the wrong type; states of real
games round-trip."""

from __future__ import annotations

import random

import pytest

import boardrules
from boardrules import NotationError, State
from boardrules.limits import LIMITS
from boardrules.runtime import MAX_NUMBER

KEY = ["r", "coins", 0]
DECISION = {"player": 0, "label": "bonus", "options": {"t": [1, 2]}, "optional": True,
            "prompt": "neighbour bonus", "block": 1, "env": [["h", "a3"]], "me": 1,
            "source": "build_farm", "bag": None}


def _values(*pairs):
    return {"values": [list(p) for p in pairs], "pending": []}


def _nested(depth):
    v: object = 1
    for _ in range(depth):
        v = {"t": [v]}
    return v


@pytest.mark.parametrize("data, place", [
    (_values((KEY, 2 ** 63)), r"\$\.values\[0\]\[1\]: expected a whole number within"),
    (_values((KEY, -2 ** 63)), r"\$\.values\[0\]\[1\]: expected a whole number within"),
    (_values((KEY, 10 ** 400)), r"\$\.values\[0\]\[1\]: expected a whole number within.*401 digits"),
    (_values((["r", 2 ** 64], 1)), r"\$\.values\[0\]\[0\]\[1\]: expected a whole number"),
    (_values((KEY, {"t": [1, 2 ** 70]})), r"\$\.values\[0\]\[1\]\.t\[1\]: expected a whole number"),
    (_values((KEY, 1.5)), r"\$\.values\[0\]\[1\]: expected null, true, false"),
    (_values((KEY, float("nan"))), r"\$\.values\[0\]\[1\]: expected null"),
    (_values((KEY, {"a": 1})), r"\$\.values\[0\]\[1\]: expected null"),
    (_values((KEY, {"dice": 2})), r"\$\.values\[0\]\[1\]: expected null"),   # (dice: options only)
    (_values((KEY, _nested(LIMITS.max_nesting + 1))), r"nested at most 48 deep"),
    (_values((KEY, {"t": [0] * (LIMITS.max_list + 1)})), r"\$\.values\[0\]\[1\]\.t: expected a list of at most"),
    (_values(([], 1)), r"\$\.values\[0\]\[0\]: expected a key"),
    (_values(([1, "x"], 1)), r"\$\.values\[0\]\[0\]: expected a key"),
    (_values((KEY, 1), (KEY, 2)), r"\$\.values\[1\]\[0\]: expected a key not given before"),
    (_values((KEY, 1, 2)), r"\$\.values\[0\]: expected a \[key, value\] pair"),
    ({"values": [], "pending": [], "x": 1}, r"\$: expected a mapping of 'values' and 'pending'"),
    ({"values": [], "pending": [{**DECISION, "player": "x"}]}, r"\$\.pending\[0\]\.player: expected a whole number"),
    ({"values": [], "pending": [{**DECISION, "player": 2 ** 63}]}, r"\$\.pending\[0\]\.player: expected a whole"),
    ({"values": [], "pending": [{**DECISION, "optional": 1}]}, r"\$\.pending\[0\]\.optional: expected true or false"),
    ({"values": [], "pending": [{**DECISION, "me": True}]}, r"\$\.pending\[0\]\.me: expected a whole number within .* or null, not true"),
    ({"values": [], "pending": [{**DECISION, "options": {"dice": 10 ** 6}}]}, r"\$\.pending\[0\]\.options: expected"),
    ({"values": [], "pending": [{**DECISION, "options": {"t": [1, 2 ** 64]}}]}, r"\$\.pending\[0\]\.options\.t\[1\]: expected a whole"),
    ({"values": [], "pending": [{**DECISION, "player": None, "lane": "x"}]}, r"\$\.pending\[0\]\.lane: expected a whole number within .* or null"),
    ({"values": [], "pending": [{**DECISION, "bag": 3}]}, r"\$\.pending\[0\]\.bag: expected a text or null, not 3"),
    ({"values": [], "pending": [DECISION, 7]}, r"\$\.pending\[1\]: expected a decision \(a mapping\), not 7"),
    ({"values": [], "pending": [{**DECISION, "env": {"h": 1}}]}, r"\$\.pending\[0\]\.env: expected a list of \[name, value\] pairs"),
    ({"values": [], "pending": [{**DECISION, "env": [["h", 2 ** 63]]}]}, r"\$\.pending\[0\]\.env\[0\]\[1\]: expected"),
    ({"values": [], "pending": [{**DECISION, "env": [[1, 2]]}]}, r"\$\.pending\[0\]\.env\[0\]: expected a \[name, value\]"),
    ({"values": [], "pending": [{**DECISION, "extra": 1}]}, r"\$\.pending\[0\]: extra fields found \(extra\)"),
    ({"values": [], "pending": [{k: v for k, v in DECISION.items() if k != "block"}]},
     r"\$\.pending\[0\]\.block: missing"),
])
def test_what_no_state_holds_is_refused_naming_the_place(data, place):
    with pytest.raises(NotationError, match=r"not a state as State.to_json gives it .*" + place):
        State.from_json(data)


def test_the_bounds_themselves_are_held():
    data = _values((KEY, MAX_NUMBER), (["r", "x", -MAX_NUMBER], _nested(LIMITS.max_nesting)))
    data["pending"] = [{**DECISION, "options": {"dice": 2}}]
    state = State.from_json(data)
    assert state.get(*KEY) == MAX_NUMBER and state.to_json() == {**data, "pending": state.to_json()["pending"]}
    assert State.from_json(state.to_json()) == state


def test_more_values_than_a_state_holds_are_refused():
    with LIMITS.changed(max_values=3):
        State.from_json(_values(*((["r", "x", i], i) for i in range(3))))
        with pytest.raises(NotationError, match=r"\$\.values: expected at most 3 values \(LIMITS.max_values\)"):
            State.from_json(_values(*((["r", "x", i], i) for i in range(4))))


@pytest.mark.parametrize("name", ["harvest", "eclipse", "gaia-project"])
def test_states_of_played_games_round_trip(name):
    game = boardrules.new_game(name, players=2, seed=3)
    rng, pending = random.Random(3), 0
    for _ in range(40):
        state = game.state
        assert State.from_json(state.to_json()) == state
        assert State.from_json(state.to_json()).digest() == state.digest()
        pending += bool(state.pending)
        if game.over:
            break
        game.play(rng.choice(list(game.legal_actions())))
    assert pending   # (decisions were among the states tried)


def test_a_value_that_holds_itself_is_refused_at_the_nesting_bound():
    """(a state built in Python: a cycle recursed until Python's stack ran out)"""
    cycle: list = [1]
    cycle.append(cycle)
    for data in (_values((KEY, cycle)), _values((["r", cycle], 1))):
        with pytest.raises(NotationError, match="nested at most 48 deep"):
            State.from_json(data)
