"""A record from a stranger can neither hang nor exhaust the process that replays it: each move
has the execution budget (``max_steps``), and the moves of one replay all together
``LIMITS.max_replay_steps`` steps and ``LIMITS.max_replay_events`` events (the log it keeps).
(Records hold no undo: a move list cannot loop.)"""

from __future__ import annotations

import json

import pytest

import boardrules
from boardrules import ExecutionBudgetError
from boardrules.limits import LIMITS
from boardrules.replay import replay_file

SPIN = """game spin { title "Spin"; players 1..2 }
resource c { start 0 }
var n: int = 0
action stop main { pass }
action spin main { BODY }
flow {
  rounds 1 {
    step a: turns seat until_pass { main spin, stop }
  }
}
"""


def spin_record(body: str, moves: int) -> str:
    """The record of a game of rules given as text whose one action runs ``body``, played
    ``moves`` times."""
    game = boardrules.new_game(None, players=1, texts={"spin.rules": SPIN.replace("BODY", body)})
    for _ in range(moves):
        game.play("p1 spin")
    return game.save()


def spent(record: str) -> int:
    """The steps a replay of ``record`` takes in all (the least max_replay_steps it passes)."""
    lo, hi = 1, 4096
    while lo < hi:
        mid = (lo + hi) // 2
        try:
            with LIMITS.changed(max_replay_steps=mid):
                boardrules.load_game(record)
            hi = mid
        except ExecutionBudgetError:
            lo = mid + 1
    return lo


def test_a_replay_is_bounded_in_all_and_names_the_move(tmp_path):
    record = spin_record("for i in 0..999 { set n = i }", 30)
    boardrules.load_game(record)   # (within the default)
    per_move = spent(spin_record("for i in 0..999 { set n = i }", 1))
    assert 2000 <= per_move < 2100   # (the range built, then walked)
    with LIMITS.changed(max_replay_steps=10 * per_move + per_move // 2):
        with pytest.raises(ExecutionBudgetError) as err:
            boardrules.load_game(record)
        assert str(err.value).startswith(f"move 11: the record's moves so far took more than "
                                         f"{10 * per_move + per_move // 2} steps in all, the most "
                                         f"one replay may (LIMITS.max_replay_steps; raise it")
        path = tmp_path / "spin.json"
        path.write_text(record)
        with pytest.raises(ExecutionBudgetError, match="move 11: the record's moves so far"):
            replay_file(path)


def test_a_game_played_live_is_not_held_to_the_replay_bound():
    """The bound is a replay's (a record read): a game played move by move is the caller's."""
    with LIMITS.changed(max_replay_steps=5000):
        game = boardrules.new_game(None, players=1, texts={"spin.rules": SPIN.replace(
            "BODY", "for i in 0..999 { set n = i }")})
        for _ in range(10):
            game.play("p1 spin")
        assert json.loads(game.save())["actions"] == ["p1 spin"] * 10


def test_a_replay_is_bounded_in_the_events_its_moves_make():
    """A loop's ``gain`` makes an event each turn, kept in the game's log: a record's moves
    made ~100 MB of them each (for i in 0..999 { for j in 0..299 { gain 1 c; lose 1 c } })."""
    record = spin_record("for i in 0..99 { gain 1 c }", 30)
    with LIMITS.changed(max_replay_events=1000):
        game = boardrules.new_game(None, players=1, texts={"spin.rules": SPIN.replace(
            "BODY", "for i in 0..99 { gain 1 c }")})
        n = 0
        while len(game.log) <= 1000:
            game.play("p1 spin")
            n += 1
        with pytest.raises(ExecutionBudgetError) as err:
            boardrules.load_game(record)
    assert str(err.value).startswith(f"move {n}: the record's moves so far made more than 1000 events "
                                     f"(game.log), the most one replay may (LIMITS.max_replay_events;")
    assert n == 11   # (100 events a move)
    assert len(boardrules.load_game(record).log) == 3000   # (within the default)
