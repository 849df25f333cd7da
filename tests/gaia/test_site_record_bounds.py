"""A site record's texts and numbers are bounded as it is read (polish4, session 22): a hostile
record's sector, hex, tile or faction name of a megabyte was quoted whole in the messages that
named it (1,000,000 characters), a VP count of 4,000 digits in the final state's differences; an
option's name in its refusal; and ``load_record`` of ``/dev/zero`` read without end."""

from __future__ import annotations

import copy
import json

import pytest

from boardrules import NotationError
from boardrules.replay import replay_file
from boardrules_gaia.records import MAX_LINE, RecordError, load_record
from boardrules_gaia.replay import replay_record
from tests.conftest import shared_path

HUGE = "x" * 1_000_000


@pytest.fixture(scope="module")
def base() -> dict:
    return json.loads(shared_path("cases", "gaia", "random-2p-2014.json").read_text(encoding="utf-8"))


def _first_key(d):
    return next(iter(d))


@pytest.mark.parametrize("where, change, said", [
    ("setup.map.placement.sectors[0].sector", lambda d: d["setup"]["map"]["placement"]["sectors"][0].update(sector=HUGE), "text"),
    ("setup.map.hexes[0].sector", lambda d: d["setup"]["map"]["hexes"][0].update(sector=HUGE), "text"),
    ("setup.map.hexes[0].planet", lambda d: d["setup"]["map"]["hexes"][0].update(planet=HUGE), "text or null"),   # (it may be null)
    ("setup.map.hexes[0].q", lambda d: d["setup"]["map"]["hexes"][0].update(q=10 ** 30), "number"),
    ("factions[0]", lambda d: d["factions"].__setitem__(0, HUGE), "text"),
    ("setup.tiles.boosters[0]", lambda d: d["setup"]["tiles"]["boosters"].__setitem__(0, HUGE), "text"),
    ("setup.tiles.terraformingFederation", lambda d: d["setup"]["tiles"].update(terraformingFederation=HUGE), "text"),
    ("final.players[0].brainstone", lambda d: d["final"]["players"][0].update(brainstone=HUGE), "text or null"),   # (it may be null)
    ("final.players[0].techs[0].tile", lambda d: d["final"]["players"][0].update(
        techs=[{"tile": HUGE, "pos": "terra", "enabled": True}]), "text"),
    ("final.players[0].victoryPoints", lambda d: d["final"]["players"][0].update(victoryPoints=10 ** 4000), "number"),
])
def test_a_text_or_number_past_its_bound_is_named_in_brief(base, tmp_path, where, change, said):
    data = copy.deepcopy(base)
    change(data)
    path = tmp_path / "r.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    expected = (f"a text of at most {MAX_LINE} characters{said[4:]}" if said.startswith("text")
                else "a whole number within ±9223372036854775807")
    for read, error in ((lambda: replay_file(path), NotationError), (lambda: replay_record(path), RecordError)):
        with pytest.raises(error) as err:
            read()
        message = str(err.value)
        assert f"$.{where}: expected {expected}, not " in message and len(message) < 400, message[:500]


def test_texts_of_a_real_length_still_replay(base, tmp_path):
    data = copy.deepcopy(base)
    data["source"] = "s" * MAX_LINE
    path = tmp_path / "r.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert replay_file(path).differences == ()


def test_an_unsupported_options_name_is_quoted_in_brief(base, tmp_path):
    data = copy.deepcopy(base)
    data["options"] = {HUGE: HUGE}
    path = tmp_path / "r.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(NotationError) as err:
        replay_file(path)
    assert "unsupported site option xxxxx" in str(err.value) and len(str(err.value)) < 400


@pytest.mark.parametrize("device, said", [("/dev/zero", "a record file is at most 64 MiB"), ("/dev/null", "it is empty")])
def test_load_record_reads_a_device_no_further_than_a_record(device, said):
    with pytest.raises(RecordError, match=f"{device.rsplit('/', 1)[1]}: {said}"):
        load_record(device)


def test_load_record_takes_the_json_already_read(base, tmp_path):
    """(boardrules replay reads the file once: the plugin is given its JSON)"""
    record = load_record(tmp_path / "not-there.json", base)
    assert record.factions == tuple(base["factions"])
