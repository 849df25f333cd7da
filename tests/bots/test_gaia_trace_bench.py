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


def _charges(flow_of_game) -> tuple[int, int]:
    """The power and VP the accepted charges of a game moved, counted from the actions."""
    accepted = [a.args[0] for a in flow_of_game if a.name == "leech" and a.args]
    return sum(accepted), sum(n - 1 for n in accepted)


def test_the_flow_of_a_record(capsys):
    """``--flow``: the charge potential an accepted charge adds is its amount and its VP cost
    the amount less one (§12.1), read from deep-mind-2's real charges; per player."""
    shared_path("gaia-records", "deep-mind-2.json")
    script = bench_script("trace_gaia_rounds")
    played = []
    flow = script.Flow()
    after = flow.after
    flow.after = lambda game, action, in_round: (played.append(action) if in_round else None,
                                                 after(game, action, in_round))
    script.trace_record("deep-mind-2", listed=False, flow=flow)
    power, vp = _charges(played)
    assert power > 40 and flow.players == 4
    assert flow.gained["power"]["leech+"] == power and flow.spent["vp"]["leech+"] == vp
    assert not flow.gained["power"]["leech-"] and flow.gained["ore"]["income"] > 0
    flow.report()
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("credits gained ") and len(out) == 2 * len(script.Flow.RESOURCES)
    assert f"leech+ {power / 4:.1f}" in next(line for line in out if line.startswith("power gained"))


def test_the_flow_of_a_bots_game(capsys):
    """``--flow`` over a bots' game: its charges as in a record; the game is the same as
    without the count (its scores printed as the rounds' trace prints them)."""
    script = bench_script("trace_gaia_rounds")
    script.trace_seed(1)
    plain = capsys.readouterr().out.rstrip().splitlines()[-1].split(" ", 1)[1]
    played = []
    flow = script.Flow()
    after = flow.after
    flow.after = lambda game, action, in_round: (played.append(action) if in_round else None,
                                                 after(game, action, in_round))
    script.trace_seed(1, flow)
    assert capsys.readouterr().out.strip() == f"scores (seed 1) {plain}"
    power, vp = _charges(played)
    assert flow.gained["power"]["leech+"] == power and flow.spent["vp"]["leech+"] == vp
