"""Undo. Property: any mix of plays, undos of any depth and copies gives back the states and
records seen before (each state looked up by the record's length), whether the states are still
held somewhere else or not; undo returns the very state objects a search may hold."""

from __future__ import annotations

import random
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardrules.game import new_game

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
def test_plays_undos_and_copies_give_back_the_states_seen(players, seed, rnd, hold):
    g = new_game(texts={"harvest.rules": HARVEST}, players=players, seed=seed)
    # the reference: each point of the record -> its state's values, pending and log length
    seen = {len(g.record.actions): (dict(g.state.values), g.state.pending)}
    held = [g.state] if hold else []
    games = [g]
    for _ in range(90):
        g = rnd.choice(games)
        if g.over or rnd.random() < 0.3 and g._history:
            depth = rnd.choice([1, 1, 2, 5, 19, 48])
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


def test_undo_returns_the_state_objects_still_held():
    """Undo returns the very state objects played through (a search keeps the states it comes
    back to, with what is known about them)."""
    g = new_game(texts={"harvest.rules": HARVEST}, players=3, seed=5)
    rnd = random.Random(5)
    states = {len(g.record.actions): g.state}
    while not g.over and len(g._history) < 36:
        g.play(rnd.choice(list(g.legal_actions())))
        states[len(g.record.actions)] = g.state
    while any(not a.startswith("chance ") for a in g.record.actions):
        g.undo()
        assert g.state is states[len(g.record.actions)]

