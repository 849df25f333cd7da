"""OpenSpiel's ``state.serialize()`` / ``game.deserialize_state()`` are the game's record, data:
a string from a stranger is read, bounded by LIMITS, never unpickled (OpenSpiel's default for a
Python game pickled the state's attributes, and unpickling runs the code a pickle names)."""

from __future__ import annotations

import base64
import json
import pickle
import random

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the 'openspiel' extra is not installed (CI installs it)")

from boardrules import NotationError, ReplayMismatch  # noqa: E402
from boardrules.adapters.openspiel import deserialize_state, load, register  # noqa: E402
from boardrules.limits import LIMITS  # noqa: E402

RAN: list[str] = []


def _ran(what: str) -> dict:
    RAN.append(what)
    return {}


class _Payload:
    """A pickle that calls ``_ran`` as it loads (as a stranger's would call ``os.system``)."""

    def __reduce__(self):
        return _ran, ("unpickled",)


def _played(name: str, players: int, moves: int, seed: int = 1):
    game = load(register(name), players=players, seed=seed)
    state, rng = game.new_initial_state(), random.Random(seed)
    for _ in range(moves):
        if state.is_terminal():
            break
        if state.is_chance_node():
            ids, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(ids, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return game, state


@pytest.mark.parametrize("name, players, moves", [("harvest", 3, 400), ("eclipse", 2, 60),
                                                  ("gaia-project", 2, 40)])
def test_a_serialized_state_is_its_record_and_reads_back_whole(name, players, moves):
    game, state = _played(name, players, moves)
    text = state.serialize()
    assert json.loads(text)["actions"] == state.game.record.actions        # data, in the notation
    back = game.deserialize_state(text)
    assert back.game.state == state.game.state and back.history() == state.history()
    assert back.move_number() == state.move_number() and back.is_terminal() == state.is_terminal()
    assert back.legal_actions() == state.legal_actions()


def test_openspiels_pickled_form_is_never_unpickled():
    game = load(register("harvest"), players=2)
    hostile = ("history=\nmove_number=0\n__dict__="
               + base64.b64encode(pickle.dumps({"game": _Payload()})).decode())
    for text in (hostile, pyspiel.serialize_game_and_state(game, game.new_initial_state())):
        with pytest.raises(NotationError, match="OpenSpiel's own serialization .* a pickle"):
            game.deserialize_state(text)
    with pytest.raises(TypeError, match="serialized state is the text"):
        game.deserialize_state(pickle.dumps(_Payload()))
    assert RAN == []


@pytest.fixture
def harvest():
    return _played("harvest", 2, 12)


def _edited(state, **changes) -> str:
    return json.dumps({**json.loads(state.serialize()), **changes})


@pytest.mark.parametrize("edit, error, message", [
    (lambda s: "", NotationError, "cannot read a boardrules record: it is empty"),
    (lambda s: "[" * 100_000, NotationError, "nested deeper than can be read"),
    (lambda s: _edited(s, players=3), ValueError, "of another game than this one: its players 3, not 2"),
    (lambda s: _edited(s, seed=2), ValueError, "its seed 2, not 1"),
    (lambda s: _edited(s, game="eclipse"), ValueError, "its game 'eclipse', not 'harvest'"),
    (lambda s: _edited(s, rules=[["x.rules", "resource x { }"]]), ValueError, "its rules"),
    (lambda s: _edited(s, actions=["p1 fly_away"]), ValueError, "move 1 .*fly_away.* is not legal"),
    (lambda s: _edited(s, actions=["p1 study {"]), NotationError, "study"),
    (lambda s: _edited(s, actions=s.game.record.actions[1:]), ValueError, "move 1 .* is not legal"),
    (lambda s: _edited(s, actions=s.game.record.actions * 5000), ValueError, "more than this game's max_moves"),
    (lambda s: _edited(s, final="0" * 24), ReplayMismatch, "another state than its final digest"),
    (lambda s: _edited(s, actions=["p1 study"] * (LIMITS.max_moves + LIMITS.max_record_elements)),
     NotationError, "moves"),
])
def test_a_malformed_or_hostile_string_is_refused_saying_why(harvest, edit, error, message):
    game, state = harvest
    with pytest.raises(error, match=message):
        deserialize_state(game, edit(state))
