"""The undo history keeps whole states only for its newest ``UNDO_WHOLE`` entries; older ones
keep the values their action changed (game.py, ``_Undo``) and undo rebuilds the states from
them. Property: any mix of plays, undos of any depth and copies gives the states and records a
game that kept every state would give (each state is looked up by the record's length), whether
the original states are still held somewhere (then undo returns those very objects) or not."""

from __future__ import annotations

import gc
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardrules.errors import IllegalActionError
from boardrules.game import UNDO_WHOLE, _Undo, new_game
from boardrules.state import State

HARVEST = (Path(__file__).parent / "rules" / "harvest.rules").read_text()


def _forget(g) -> None:
    """Drop what the game itself holds of old states beside its history (its memos)."""
    g._known.clear()
    g._turn_memo = None
    g._answer_memo = (None, False)
    g._flow_memo = (None, False)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 4), seed=st.integers(0, 10**6), rnd=st.randoms(use_true_random=False),
       hold=st.booleans())
def test_plays_undos_and_copies_give_the_states_kept_whole(players, seed, rnd, hold):
    g = new_game(texts={"harvest.rules": HARVEST}, players=players, seed=seed)
    # the reference: each point of the record -> its state's values, pending and log length
    seen = {len(g.record.actions): (dict(g.state.values), g.state.pending)}
    held = [g.state] if hold else []
    games = [g]
    for _ in range(90):
        g = rnd.choice(games)
        if g.over or rnd.random() < 0.3 and g._history:
            depth = rnd.choice([1, 1, 2, 5, UNDO_WHOLE + 3, 3 * UNDO_WHOLE])
            for _ in range(depth):
                if not any(not a.startswith("chance ") for a in g.record.actions):
                    break
                _forget(g)   # (states are freed as their last reference goes)
                before = len(g.record.actions)
                g.undo()
                assert len(g.record.actions) < before
                values, pending = seen[len(g.record.actions)]
                assert g.state.values == values and g.state.pending == pending
                assert g.log[-1].kind == "undo"
            continue
        if rnd.random() < 0.1:
            games.append(g.copy())
        g.play(rnd.choice(list(g.legal_actions())))
        # a point of the record reached again by other moves of a copy: its own state then
        seen[len(g.record.actions)] = (dict(g.state.values), g.state.pending)
        for k in [k for k in seen if k > len(g.record.actions)]:
            del seen[k]
        if hold:
            held.append(g.state)
        games = [x for x in games if x is g or len(x.record.actions) <= len(g.record.actions)
                 and x.record.actions == g.record.actions[:len(x.record.actions)]]
    assert any(type(e[0]) is _Undo for x in games for e in x._history) or all(
        len(x._history) <= UNDO_WHOLE for x in games)


def test_undo_returns_the_state_objects_still_held():
    """While something holds an old state (search keeps the states it comes back to), undo
    returns that very object, past the entries kept whole too."""
    g = new_game(texts={"harvest.rules": HARVEST}, players=3, seed=5)
    rnd = random.Random(5)
    states = {len(g.record.actions): g.state}
    while not g.over and len(g._history) < 2 * UNDO_WHOLE + 4:
        g.play(rnd.choice(list(g.legal_actions())))
        states[len(g.record.actions)] = g.state
    assert type(g._history[0][0]) is _Undo and type(g._history[-1][0]) is State
    while any(not a.startswith("chance ") for a in g.record.actions):
        g.undo()
        assert g.state is states[len(g.record.actions)]


def test_a_state_replaced_by_hand_is_not_taken_back_past_the_whole_states():
    """The kept changes undo only from the state their action made: after ``game.state`` is
    replaced by hand, undo takes back what the whole entries allow, then refuses with a clear
    error and changes nothing."""
    g = new_game(texts={"harvest.rules": HARVEST}, players=3, seed=5)
    rnd = random.Random(5)
    while not g.over and len(g._history) < UNDO_WHOLE + 6:
        g.play(rnd.choice(list(g.legal_actions())))
    assert len(g._history) == UNDO_WHOLE + 6
    while type(g._history[-1][0]) is State:
        g.undo()   # (the whole states: as before)
    _forget(g)
    gc.collect()
    assert type(g._history[-1][0]) is _Undo
    g.state = State(dict(g.state.values), g.state.pending)  # equal, but not the game's own
    snapshot = (g.state, len(g._history), list(g.record.actions), len(g.log))
    with pytest.raises(IllegalActionError, match="cannot undo further"):
        g.undo()
    assert (g.state, len(g._history), list(g.record.actions), len(g.log)) == snapshot
