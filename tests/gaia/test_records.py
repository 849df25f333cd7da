"""Loading the shared Gaia Project record files."""

from __future__ import annotations

import json

import pytest

from boardrules_gaia.notation import Init, Line, Rotate
from boardrules_gaia.records import RecordError, list_records, load_record, load_records
from tests.conftest import SHARED, shared_path

RECORD_NAMES = sorted(
    p.stem for p in (SHARED / "gaia-records").glob("*.json") if p.name != "INDEX.json"
) or ["(missing)"]


def test_list_records():
    paths = list_records(shared_path("gaia-records"))
    assert len(paths) == 18
    assert all(p.suffix == ".json" and p.name != "INDEX.json" for p in paths)
    assert paths == sorted(paths)


@pytest.mark.parametrize("name", RECORD_NAMES)
def test_record_loads(name):
    path = shared_path("gaia-records", f"{name}.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    rec = load_record(path)

    assert rec.name == name and rec.players == data["players"] == len(rec.factions)
    assert rec.factions == tuple(data["factions"])
    assert rec.leading_lines[0] == Line(None, (Init(rec.players, rec.seed),), False)
    n_lead = rec.setup.consumes_leading_moves
    assert len(rec.leading_lines) == n_lead
    assert all(isinstance(c, Rotate) for line in rec.leading_lines[1:] for c in line.commands)
    assert len(rec.lines) == len(data["moves"]) - n_lead == len(rec.raw_lines)
    assert rec.lines == rec.raw_lines  # raw and clean moves parse to equal commands
    assert all(line.actor is not None for line in rec.lines)

    tiles = rec.setup.tiles
    assert len(tiles.boosters) == rec.players + 3
    assert set(tiles.tech) == {"terra", "nav", "int", "gaia", "eco", "sci", "free1", "free2", "free3"}
    assert set(tiles.adv_tech) == {f"adv-{t}" for t in ("terra", "nav", "int", "gaia", "eco", "sci")}
    assert len(tiles.round_scoring) == 6 and len(tiles.final_scoring) == 2
    assert tiles.terraforming_federation.startswith("fed")
    assert len(rec.setup.hexes) == (133 if rec.players == 2 else 190)

    final = rec.final
    assert len(final.players) == rec.players
    for i, p in enumerate(final.players):
        raw = data["final"]["players"][i]
        assert p.player == i and p.faction == rec.factions[i]
        assert (p.vp, p.credits, p.ore, p.knowledge, p.qic) == (
            raw["victoryPoints"], raw["credits"], raw["ores"], raw["knowledge"], raw["qics"],
        )  # fmt: skip
        assert (p.power.area1, p.power.area2, p.power.area3, p.power.gaia) == tuple(raw["power"].values())
        assert p.research["terra"] == raw["research"]["terra"]
        assert sum(p.buildings.values()) == sum(raw["buildings"].values())
        assert len(p.techs) == len(raw["techs"]) and len(p.federations) == len(raw["federations"])
        assert p.brainstone in (None, "area1", "area2", "area3", "gaia")
        if p.brainstone is not None:
            assert p.faction == "taklons"


def test_ended_games_and_file_vp():
    recs = {r.name: r for r in load_records(shared_path("gaia-records"))}
    ended = {name for name, r in recs.items() if r.final.ended}
    assert ended == {"deep-mind-2", "JaeggaFun04", "djfjjv4k"}
    for r in recs.values():
        if r.final_vp_in_file is not None:
            assert [v["total"] for v in r.final_vp_in_file] == [p.vp for p in r.final.players]
    assert all(p.booster is None for p in recs["deep-mind-2"].final.players)  # passed in round 6


def test_index_agrees():
    index = json.loads(shared_path("gaia-records", "INDEX.json").read_text(encoding="utf-8"))
    assert len(index) == 18
    for entry in index:
        rec = load_record(shared_path("gaia-records", entry["file"]))
        assert list(rec.factions) == entry["factions"]
        assert len(rec.moves_raw) == entry["moves"]
        assert [p.vp for p in rec.final.players] == entry["vp"]
        assert rec.final.round == entry["round"] and rec.final.ended == entry["ended"]


def test_bad_files(tmp_path):
    src = json.loads(shared_path("gaia-records", "zadbd.json").read_text(encoding="utf-8"))
    broken = dict(src)
    del broken["final"]
    p = tmp_path / "broken.json"
    p.write_text(json.dumps(broken), encoding="utf-8")
    with pytest.raises(RecordError, match="final"):
        load_record(p)
    bad_move = dict(src, moves_clean=[*src["moves_clean"][:-1], "geodens build castle 1A1"])
    p.write_text(json.dumps(bad_move), encoding="utf-8")
    with pytest.raises(RecordError, match=r"moves_clean\[\d+\].*castle"):
        load_record(p)
