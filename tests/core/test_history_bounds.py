"""The undo history holds a bounded number of state values: a long record over a large state
replays in bounded memory, and undo still takes back every move exactly."""

from __future__ import annotations

import random

import boardrules
from boardrules import game as game_module


def test_the_undo_history_is_thinned_and_undo_still_restores_every_state(monkeypatch):
    monkeypatch.setattr(game_module, "HISTORY_VALUES", 300)
    monkeypatch.setattr(game_module, "RECENT_STATES", 4)
    game = boardrules.new_game("harvest", players=3, seed=5)
    rng, states, records = random.Random(5), [game.state], [list(game.record.actions)]
    while not game.over:
        game.play(game.legal_actions().sample(rng))
        states.append(game.state)
        records.append(list(game.record.actions))
    held = [s for s, _, _ in game._history if s is not None]
    assert sum(len(s.values) for s in held) <= 300 < sum(len(s.values) for s in states)
    assert game._kept == sum(len(s.values) for s in held)
    # undo to every point a player acted: the state and the record are as they were there
    while any(not a.startswith("chance ") for a in game.record.actions):
        game.undo()
        at = records.index(game.record.actions)
        assert game.state == states[at], at
        assert game._kept == sum(len(s.values) for s, _, _ in game._history if s is not None)
