"""Replaying the 18 real Gaia Project games of ``shared/gaia-records`` exactly.

Each record is replayed move by move with legality checks on (every action through
``game.play(check=True)``, the main action of each line also checked against
``game.legal_actions()``), then compared field by field with the record's ``final`` state
(``boardrules_gaia.replay.compare_final``). Records that do not replay yet are strict xfails
naming their first divergence, so a fixed record fails its xfail and must be promoted.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from boardrules.cli import app
from boardrules.game import CHANCE
from boardrules_gaia import replay as R
from boardrules_gaia.records import load_record
from tests.conftest import SHARED, shared_path

RECORD_NAMES = sorted(
    p.stem for p in (SHARED / "gaia-records").glob("*.json") if p.name != "INDEX.json"
) or ["(missing)"]


def _load(name):
    return load_record(shared_path("gaia-records", f"{name}.json"))


_outcomes: dict = {}


def outcome(name) -> R.Outcome:
    """One strict replay per record per test session."""
    if name not in _outcomes:
        _outcomes[name] = R.replay_record(_load(name), strict=True)
    return _outcomes[name]


@pytest.mark.parametrize("name", RECORD_NAMES)
def test_record_replays_exactly(name):
    out = outcome(name)
    assert out.divergence is None, str(out.divergence)
    assert out.lines == len(_load(name).lines)
    assert out.differences == (), "\n".join(out.differences)
    assert out.power_log is None, out.power_log
    # every shared record replays under the rules: none needs the lenient mode (§13)
    assert not out.lenient and out.notes == ()


@pytest.mark.parametrize("name", RECORD_NAMES)
def test_power_logs_agree_until_the_first_divergence(name):
    """Every line's power log (bowls after the line) matches the game, up to where it stops."""
    assert outcome(name).power_log is None


@pytest.mark.parametrize("name", RECORD_NAMES)
def test_explicit_setup_is_the_records(name):
    """The map option and the chance outcomes give exactly the record's map and tiles."""
    rec = _load(name)
    rp = R.Replayer(rec)
    g = rp.game
    # the setup draws, as the replay feeds them
    while g.state.pending and g.state.pending[0].player == CHANCE:
        rp.settle(R.Action(CHANCE, "", ()))   # (no one's action: the draws only)
    v = g.state.values
    planets = {h: v.get(("v", "planet", h), "e") for h in v[("v", "hexes")]}
    assert planets == {mh.name: mh.planet for mh in rec.setup.hexes}
    tiles = rec.setup.tiles
    assert list(v[("v", "tech_slots")]) == [tiles.tech[s] for s in (*R.TRACK_ORDER, "free1", "free2", "free3")]
    assert list(v[("v", "adv_slots")]) == [tiles.adv_tech[f"adv-{s}"] for s in R.TRACK_ORDER]
    assert v[("v", "track_fed")] == tiles.terraforming_federation
    assert sorted(v[("v", "booster_pool")]) == sorted(tiles.boosters)
    assert list(v[("v", "round_tiles")]) == list(tiles.round_scoring)
    assert list(v[("v", "final_tiles")]) == [R.FINAL_TILES.get(t, t) for t in tiles.final_scoring]


def test_map_option_text():
    rec = _load("djfjjv4k")  # a legacy seed: the tiles are read mirrored
    assert R.map_option(rec) == "4:3,6B:4,1:5,7B:2,3:5,2:3,5B:5,mirror"
    for name in RECORD_NAMES:
        rec = _load(name)
        assert R.map_option(rec).endswith(",mirror") == rec.mirrored


def test_power_log_parser():
    assert R.power_after("geodens charge 2pw (3/1/3/0 ⇒ 1/3/3/0)") == (1, 3, 3, 0)
    assert R.power_after("taklons up nav. (2,B/3/1/0 ⇒ 1/3,B/2/0)") == (1, 3, 2, 0)
    assert R.power_after("itars pass booster3") is None


def test_compare_final_names_the_field():
    out = outcome("djfjjv4k")
    rec = _load("djfjjv4k")
    values = dict(out.game.state.values)
    values[("r", "ore", 0)] = values.get(("r", "ore", 0), 0) + 1
    out.game.state = type(out.game.state)(values, out.game.state.pending)
    try:
        diffs = R.compare_final(out.game, rec)
    finally:
        _outcomes.pop("djfjjv4k", None)
    assert diffs == ("geodens ore: 6 != recorded 5",)


def test_cli_replay_exit_status(tmp_path):
    """``boardrules replay`` on a site record: 0 when exact, 1 naming the first difference."""
    runner = CliRunner()
    path = shared_path("gaia-records", "djfjjv4k.json")
    ok = runner.invoke(app, ["replay", str(path)], env={"COLUMNS": "200"})
    assert ok.exit_code == 0, ok.output
    assert "final state matches" in ok.output
    data = json.loads(path.read_text(encoding="utf-8"))
    data["final"]["players"][0]["ores"] += 1
    bad = tmp_path / "djfjjv4k-altered.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    res = runner.invoke(app, ["replay", str(bad)], env={"COLUMNS": "200"})
    assert res.exit_code == 1
    assert "geodens ore: 5 != recorded 6" in res.output


def test_fixed_map_option_in_a_new_game():
    """The option lays the map out; the tiles are still dealt by chance."""
    import boardrules

    layout = "4:3,6B:4,1:5,7B:2,3:5,2:3,5B:5,mirror"
    g = boardrules.new_game("gaia-project", players=2, seed=5, options={"fixed_map": layout})
    rec = _load("djfjjv4k")
    v = g.state.values
    assert {h: v.get(("v", "planet", h), "e") for h in v[("v", "hexes")]} == {
        mh.name: mh.planet for mh in rec.setup.hexes}
    assert len(v[("v", "tech_slots")]) == 9 and len(v[("v", "booster_pool")]) == 5


def test_fixed_map_option_rejects_a_bad_layout():
    import boardrules
    from boardrules.errors import OptionError

    with pytest.raises(OptionError, match="option fixed_map may not be '4:3,99:1': unknown sector '99'"):
        boardrules.new_game("gaia-project", players=2, options={"fixed_map": "4:3,99:1"})
