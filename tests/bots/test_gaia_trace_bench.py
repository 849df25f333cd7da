"""``bench/trace_gaia_rounds.py``: a real record and a bots' game, round by round."""

from __future__ import annotations

from tests.conftest import bench_script, shared_path


def test_a_record_round_by_round(capsys):
    """deep-mind-2's Terrans built their planetary institute and a lab in round 1 (four
    upgrades); the only real moves the listing does not offer there are federations with the
    same members and other satellite hexes and a 2-power-for-2-credits conversion the replay
    names by Nevlas' (both played by their effect)."""
    shared_path("gaia-records", "deep-mind-2.json")
    bench_script("trace_gaia_rounds").trace_record("deep-mind-2", listed=True)
    out = capsys.readouterr().out
    round2 = out.split("== before round 2")[1].split("== before round 3")[0]
    terrans = round2.splitlines()[1:3]
    assert terrans[0].startswith("  p1 terrans:") and "lab1 pi1" in terrans[0]
    assert "upgrade* 4" in terrans[1] and "leech+ 6" in terrans[1]
    unlisted = [line.split(": ", 1)[1].split()[1] for line in out.splitlines() if "not listed" in line]
    assert unlisted and set(unlisted) == {"convert", "form_federation"}
    assert out.rstrip().splitlines()[-8].startswith("  p1 terrans:")


def test_a_bots_game_to_the_end(capsys):
    """A bots' game prints each round's lines and the final scores."""
    bench_script("trace_gaia_rounds").trace_seed(0)
    out = capsys.readouterr().out
    assert all(f"== before round {r}" in out for r in range(2, 7)) and "== game over" in out
    assert out.rstrip().splitlines()[-1].startswith("scores [")
