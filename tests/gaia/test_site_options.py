"""A site record's options: the supported ones replay, the others are refused before the first
move naming the option (site_options.py); older maps without centres; the x-shape layout.

Facts from the site's engine (boardgamers/gaia-project): option names and values in
``engine/src/engine.ts`` (``EngineOptions``), the older centre order and the x-shape layout in
``engine/src/map.ts``.
"""

from __future__ import annotations

import json
import random

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from boardrules.cli import app
from boardrules.game import Game
from boardrules.ruleset import build_ruleset
from boardrules_gaia import geometry as G
from boardrules_gaia import replay as R
from boardrules_gaia.records import load_record
from boardrules_gaia.site_options import UnsupportedOption, check_site_options
from tests.conftest import shared_path

SHORT = "12__ivits-baltaks-gleens"  # 3 players, 10 sectors, 19 lines


def _data(name=SHORT) -> dict:
    return json.loads(shared_path("gaia-records", f"{name}.json").read_text(encoding="utf-8"))


def _write(tmp_path, data, name="altered.json"):
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


REFUSED = [
    ("auction", True),  # legacy: the form depends on the site's engine version
    ("auction", "silent"),
    ("randomFactions", True),  # with an auction
    ("factionVariant", "gamma"),  # not a board variant of the site (more-balanced, beta: modules)
    ("factionVariantVersion", 3),
    ("frontiers", True),
    ("lostFleet", True),
    ("customBoardSetup", True),
    ("flexibleFederations", True),
    ("layout", "balanced"),
    ("layout", "xshape"),  # a 10-sector map does not fit the x-shape layout
    ("expansions", 1),  # not an option of the site's engine
]


@pytest.mark.parametrize(("option", "value"), REFUSED)
def test_unsupported_option_refused_before_the_first_move(tmp_path, option, value):
    data = _data()
    if option == "randomFactions":  # supported alone, not with an auction
        data["options"]["auction"] = "choose-bid"
    data["options"][option] = value
    path = _write(tmp_path, data)
    with pytest.raises(UnsupportedOption) as err:
        R.replay_record(load_record(path))
    assert err.value.option == option and option in str(err.value)
    res = CliRunner().invoke(app, ["replay", str(path)], env={"COLUMNS": "300"})
    assert res.exit_code == 1
    assert f"unsupported site option {option}=" in res.output
    assert "Traceback" not in res.output
    assert res.exception is None or isinstance(res.exception, SystemExit)


@pytest.mark.parametrize("name", [SHORT, "SGAMBATA"])
def test_random_factions_record_replays_with_the_module(tmp_path, name):
    """randomFactions: the module random-factions, the deal fed from the record's factions."""
    data = _data(name)
    data["options"]["randomFactions"] = True
    out = R.replay_record(load_record(_write(tmp_path, data)))
    assert out.ok, out.first_problem()
    assert "random-factions" in out.game.ruleset.modules
    homes = [out.game.ruleset.entities[f.replace("-", "_")].fields["home"] for f in data["factions"]]
    assert [out.game.get("dealt_board", p) for p in range(data["players"])] == homes


def _with_lines(data, at, lines):
    for field in ("moves", "moves_clean"):
        data[field][at:at] = lines
    return data


@pytest.mark.parametrize(("form", "bids"), [("choose-bid", (0, 0, 0)), ("choose-bid", (2, 0, 5)),
                                            ("bid-while-choosing", None)])
def test_auction_record_replays_with_the_module(tmp_path, form, bids):
    """'faction X' puts X up for auction, 'bid X N' bids N VP on it (the module auction)."""
    data = _data()  # p1 ivits, p2 baltaks, p3 gleens; the game ends before the bids are paid
    data["options"]["auction"] = form
    if bids is not None:  # every player bids on the faction they put up: the seating stays
        _with_lines(data, 4, [f"p{i + 1} bid {f} {b}" for i, (f, b) in enumerate(zip(data["factions"], bids))])
    out = R.replay_record(load_record(_write(tmp_path, data)))
    assert out.ok, out.first_problem()
    assert out.game.ruleset.option("auction_form") == form
    assert [out.game.get("bid", p) for p in range(3)] == list(bids or (0, 0, 0))
    # a bid that does not beat the standing one stops the replay at that line, naming it
    if bids == (2, 0, 5):
        bad = _with_lines(_data(), 4, ["p1 bid ivits 3", "p2 bid ivits 3"])
        bad["options"]["auction"] = form
        out = R.replay_record(load_record(_write(tmp_path, bad, "bad.json")))
        assert out.divergence is not None and out.divergence.index == 5
        assert "bid_amount" in out.divergence.reason


def test_every_shared_record_and_case_has_supported_options():
    for folder in ("gaia-records", "cases/gaia"):
        for path in sorted(shared_path(*folder.split("/")).glob("*.json")):
            data = json.loads(path.read_text(encoding="utf-8"))
            if isinstance(data, dict) and "options" in data:
                check_site_options(data["options"], len(data["setup"]["map"]["placement"]["sectors"]))


@pytest.mark.parametrize("name", [SHORT, "SGAMBATA"])
def test_older_sector_list_without_centres_uses_the_sites_older_centre_order(tmp_path, name):
    data = _data(name)
    sectors = data["setup"]["map"]["placement"]["sectors"]
    legacy = G.LEGACY_CENTRES_7 if len(sectors) == 7 else G.LEGACY_CENTRES_10
    at = {G.Hex(s["center"]["q"], s["center"]["r"]): s for s in sectors}
    data["setup"]["map"]["placement"]["sectors"] = [
        {"sector": at[c]["sector"], "rotation": at[c]["rotation"]} for c in legacy
    ]
    data["options"].pop("map", None)
    out = R.replay_record(load_record(_write(tmp_path, data)))
    assert out.ok, out.first_problem()
    res = CliRunner().invoke(app, ["replay", str(_write(tmp_path, data, "b.json"))], env={"COLUMNS": "300"})
    assert res.exit_code == 0, res.output


def test_sector_list_without_centres_of_another_length_is_a_clean_error(tmp_path):
    data = _data()
    data["setup"]["map"]["placement"]["sectors"] = [{"sector": "1", "rotation": 0}] * 8
    res = CliRunner().invoke(app, ["replay", str(_write(tmp_path, data))], env={"COLUMNS": "300"})
    assert res.exit_code == 1 and "without centres must have 7 or 10 sectors" in res.output
    assert not isinstance(res.exception, G.GeometryError)


def test_xshape_centres_are_the_sites():
    # engine/src/map.ts: the 7-sector ring without its last centre, then -6x10 turned one
    # sixth left and right around -3x5
    turned = [G.Hex(-6, 10).rotate_right(n, G.Hex(-3, 5)) for n in (5, 1)]
    assert G.CENTRES_XSHAPE == (*G.CENTRES_7[:6], *turned)
    assert G.layout_centres(8) == G.CENTRES_XSHAPE
    with pytest.raises(G.GeometryError):
        G.layout_centres(9)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(1, 4))
def test_xshape_deal_gives_valid_eight_sector_maps(seed, players):
    gmap = G.deal_map(random.Random(seed), players, layout="xshape")
    assert gmap.is_valid()
    assert sorted(p.sector for p in gmap.placement.sectors) == sorted(G.XSHAPE_SECTORS)
    assert len(gmap.hexes) == 8 * 19


def test_xshape_map_plays_and_its_record_map_reorders_to_layout_order(tmp_path):
    gmap = G.deal_map(random.Random(5), 3, layout="xshape")
    layout = ",".join(f"{p.sector}:{p.rotation}" for p in gmap.placement.sectors)
    game = Game(build_ruleset("gaia-project", options={"fixed_map": layout}), 3, "x")
    assert len(game.get("hexes")) == 8 * 19
    assert game.legal_actions()
    # a record listing the sectors in another order still gives the layout's order
    rec = load_record(shared_path("gaia-records", f"{SHORT}.json"))
    shuffled = G.MapPlacement(tuple(reversed(gmap.placement.sectors)))
    setup = type(rec.setup)(shuffled, rec.setup.hexes, rec.setup.tiles, rec.setup.consumes_leading_moves)
    rec = attrs.evolve(rec, setup=setup, leading_lines=rec.leading_lines[:1],
                       options={"layout": "xshape"}, seed="not-legacy")
    assert R.map_option(rec) == layout
    check_site_options(rec.options, 8)
