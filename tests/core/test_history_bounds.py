"""The undo history holds a bounded number of state values: a long record over a large state
replays in bounded memory, and undo still takes back every move exactly."""

from __future__ import annotations

import random

import pytest

from boardrules.limits import LIMITS
import boardrules
from boardrules.game import actions, core, history


def test_the_undo_history_is_thinned_and_undo_still_restores_every_state(monkeypatch):
    monkeypatch.setattr(history, "HISTORY_VALUES", 300)
    monkeypatch.setattr(history, "RECENT_STATES", 4)
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


WIDE = """game wide { players 2 }
resource coins { }
var hexes: list[hex] = [""" + ", ".join(f'"h{i}"' for i in range(40)) + """]
var mark: int per hex = 0
action work main {
  gain 1 coins
  for h in hexes where position(hexes, h) < 10 * coins { set mark[h] = 1 }
}
action stop main { pass }
flow { rounds 1 { step play: turns seat until_pass { main work, stop } } }
"""


def _most_values(limits, n: int) -> None:
    """``max_values`` set to ``n``: the setup's count, a move's and the refusal's words."""
    limits(max_values=n)


def test_a_state_may_hold_only_so_many_values(limits):
    # every 'work' sets ten more per-hex values: past LIMITS.max_values the move is refused, the
    # game as it was (the state is copied at every move and kept for undo: unbounded, a
    # stranger's rules filled the memory)
    _most_values(limits, 30)
    game = boardrules.new_game(texts={"wide.rules": WIDE}, players=2)
    game.play("p1 work")
    game.play("p2 work")
    state, record = game.state, list(game.record.actions)
    with pytest.raises(boardrules.ExecutionBudgetError,
                       match=r"p1 work: the game would hold 3\d values, more than the 30 a game may "
                             r"hold .*\[rule: work \(wide.rules:5:1\)\]"):
        game.play("p1 work")
    assert game.state is state and game.record.actions == record
    game.play("p1 stop")   # (a move that adds no value is still played)


def test_a_setup_holding_too_many_values_is_refused(limits):
    _most_values(limits, 30)
    texts = {"wide.rules": WIDE.replace("flow {", "flow { setup { step s: do { for h in hexes "
                                        "{ set mark[h] = 1 } } }\n", 1)}
    with pytest.raises(boardrules.ExecutionBudgetError, match="the game cannot start: the game "
                       "would hold 4[0-9] values, more than the 30"):
        boardrules.new_game(texts=texts, players=2)


def test_a_game_has_at_most_so_many_moves(limits):
    limits(max_moves=3)
    game = boardrules.new_game(texts={"wide.rules": WIDE}, players=2)
    for move in ("p1 work", "p2 work", "p1 stop"):
        game.play(move)
    state = game.state
    with pytest.raises(boardrules.ExecutionBudgetError, match=r"p2 work: the game has had 3 moves, "
                       r"the most a game may have \(LIMITS.max_moves; raise it with "
                       r"boardrules.limits.LIMITS.changed\(max_moves=N\)\)"):
        game.play("p2 work")
    assert game.state is state and len(game.record.actions) == 3


def test_a_record_of_more_moves_than_a_game_may_have_is_refused_before_its_replay():
    # (a 64 MiB record holds millions of moves: each kept for undo, they filled the memory)
    record = {"format": "boardrules-record/1", "game": "harvest", "players": 2, "seed": 1,
              "options": {}, "modules": [], "actions": ["p1 study"] * (LIMITS.max_moves + 1)}
    with pytest.raises(boardrules.NotationError, match=rf"\$\.actions: {LIMITS.max_moves + 1} moves, more "
                       rf"than the {LIMITS.max_moves} a game may have \(LIMITS.max_moves; raise it with "
                       r"boardrules.limits.LIMITS.changed\(max_moves=N\)\)"):
        boardrules.Record.from_json(record)


def test_an_interrupted_undo_changes_nothing(monkeypatch):
    """A KeyboardInterrupt while undo replayed a thinned history's moves left the record cut and
    the state as it was: the next move was recorded after the wrong ones, and the save no longer
    replayed ("move 524: p3 done: p3 must first decide 'fly'", trial3's interrupted Eclipse game).
    Now nothing changes until the state to go back to is in hand."""
    monkeypatch.setattr(history, "HISTORY_VALUES", 300)
    monkeypatch.setattr(history, "RECENT_STATES", 4)
    game = boardrules.new_game("harvest", players=3, seed=5)
    rng = random.Random(5)
    for _ in range(40):
        game.play(game.legal_actions().sample(rng))
    for _ in range(10):   # (undo back into the thinned part of the history)
        game.undo()
    before = (game.state, list(game.record.actions), list(game.log), list(game._history), game._kept)
    played = core.Game.play

    def interrupted(self, action, *, check=True):   # (the replay's scratch game plays unchecked)
        if not check:
            raise KeyboardInterrupt
        return played(self, action, check=check)

    monkeypatch.setattr(core.Game, "play", interrupted)
    with pytest.raises(KeyboardInterrupt):
        game.undo()
    assert (game.state, game.record.actions, game.log, game._history, game._kept) == before
    monkeypatch.setattr(core.Game, "play", played)
    game.undo()
    assert boardrules.load_game(game.save()).state == game.state
