"""The site's faction-board variants as modules: ``more-balanced`` and ``beta``
(plugins/boardrules_gaia_factions/modules/; docs/gaia-project.md, "Variants").

Rule values: the site's engine, boardgamers/gaia-project ``engine/src/faction-boards/*.ts`` (the
boards' ``variants``; a game of beta version V plays each board's beta variant of the highest
version <= V, ``faction-boards/index.ts``), the 2-player Ivits' PI placed second
(``beginSetupBuildingPhase``), and shared/rules/gaia-project.md §4 / §12.4.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import boardrules
from boardrules.errors import BoardrulesError
from boardrules_gaia import replay as R
from boardrules_gaia.records import load_record
from boardrules_gaia.site_options import UnsupportedOption, site_module_options, site_modules
from tests.conftest import shared_path
from tests.gaia.test_game import GAME, patch, pass_everyone, res
from tests.gaia.test_invariants import SETTINGS, check_save_load, play_checked

START = ("credits", "ore", "knowledge", "qic", "bowl1", "bowl2")
TRACKS = ("terraforming", "navigation", "intelligence", "gaia", "economy", "science")

# Each faction's resources (c, o, k, q, bowl I, bowl II) after its start (the free research steps'
# rewards included), standard boards (gaia-project.md §4, "effective start").
STANDARD = {
    "lantids": (13, 4, 3, 1, 4, 0), "firaks": (15, 3, 2, 1, 2, 4), "bescods": (15, 4, 1, 1, 2, 4),
    "gleens": (15, 5, 3, 0, 2, 4), "xenos": (15, 4, 3, 2, 2, 4), "itars": (15, 5, 3, 1, 4, 4),
    "ivits": (15, 4, 3, 1, 2, 4), "terrans": (15, 4, 3, 1, 4, 4), "geodens": (15, 6, 3, 1, 2, 4),
    "hadsch_hallas": (15, 4, 3, 1, 2, 4),
}
# more-balanced (engine: lantids.ts 15c, 4/2; firaks.ts 4o, 4/2; bescods.ts 2k; gleens.ts +q;
# ivits.ts in 2 players no QIC)
BALANCED = {"lantids": (15, 4, 3, 1, 4, 2), "firaks": (15, 4, 2, 1, 4, 2), "bescods": (15, 4, 2, 1, 2, 4),
            "gleens": (15, 5, 3, 1, 2, 4)}
BALANCED_AFFECTED = ("lantids", "firaks", "bescods", "gleens", "xenos", "itars", "ivits")


HOME = {"terrans": "r", "lantids": "r", "hadsch_hallas": "o", "ivits": "o", "geodens": "v", "baltaks": "v",
        "xenos": "d", "gleens": "d", "taklons": "s", "ambas": "s", "firaks": "t", "bescods": "t",
        "nevlas": "i", "itars": "i"}


def _others(faction, n):
    """``n`` factions of other colours than ``faction``'s (and of boards the variants keep)."""
    return [f for f in ("ambas", "nevlas", "baltaks") if HOME[f] != HOME[faction]][:n]


def _started(factions, modules, options=None, seed=3):
    g = boardrules.new_game(GAME, players=len(factions), seed=seed, modules=modules, options=options or {})
    for i, f in enumerate(factions):
        g.play(f"p{i + 1} pick_faction {f}")
    return g


def _start_values(g, p):
    return tuple(res(g, r, p) for r in START)


def _tracks(g, p):
    return tuple(g.get(t, p) for t in TRACKS)


# ---- more-balanced ----------------------------------------------------------------------------

@pytest.mark.parametrize("faction", sorted(BALANCED))
def test_more_balanced_starting_resources_and_bowls(faction):
    (other,) = _others(faction, 1)
    g = _started((faction, other), ["more-balanced"])
    assert _start_values(g, 0) == BALANCED[faction]
    assert _start_values(_started((faction, other), []), 0) == STANDARD[faction]


def _answer_first(g):
    """Answer the pending decisions (the income order, ...) with their first option."""
    while g.state.pending:
        d = g.state.pending[0]
        g.play(boardrules.Action(d.player, d.label, () if d.optional else (d.options[0],)))


def _income(faction, modules, built=("pi",), players=2):
    """Knowledge and new tokens one round's income brings (with the PI, or ``built``)."""
    others = _others(faction, players - 1)
    g = _started((faction, *others), modules)
    while g.get("round") is None:
        g.play(next(iter(g.legal_actions())))
    _answer_first(g)
    patch(g, {("v", "built", 0, b): 1 for b in built})
    k0, t0 = res(g, "knowledge", 0), res(g, "tokens_gained", 0)
    pass_everyone(g)
    _answer_first(g)
    return res(g, "knowledge", 0) - k0, res(g, "tokens_gained", 0) - t0


def test_more_balanced_pi_and_academy_incomes():
    # Xenos PI: +4pw +1q +1t (standard no token); Itars PI +2t (standard +1t), no board token
    # income (standard +1t), knowledge academy 2k (standard 3k)
    assert _income("xenos", ["more-balanced"])[1] - _income("xenos", [])[1] == 1
    assert _income("itars", ["more-balanced"])[1] - _income("itars", [])[1] == 0   # +1 PI, -1 board
    assert _income("itars", ["more-balanced"], built=())[1] - _income("itars", [], built=())[1] == -1
    assert _income("itars", [], built=("ac1",))[0] - _income("itars", ["more-balanced"], built=("ac1",))[0] == 1


def test_more_balanced_ivits_in_two_players_no_qic_no_pi_token_pi_placed_second():
    g = _started(("ivits", "lantids"), ["more-balanced"])   # the Lantids have the 2 setup mines
    assert res(g, "qic", 0) == 0
    # the first mine of the setup (the Lantids), then the Ivits' PI, then the other mine
    assert {a.name for a in g.legal_actions()} == {"place_mine"} and g.players_to_act() == {1}
    g.play(next(iter(g.legal_actions())))
    assert {a.name for a in g.legal_actions()} == {"place_pi"} and g.players_to_act() == {0}
    g.play(next(iter(g.legal_actions())))
    assert {a.name for a in g.legal_actions()} == {"place_mine"} and g.players_to_act() == {1}
    assert _income("ivits", ["more-balanced"]) [1] == 0
    assert _income("ivits", [])[1] == 1
    # in 3 players the Ivits' board is standard (the variant is for 2 players only)
    g3 = _started(("ivits", "lantids", "ambas"), ["more-balanced"])
    assert res(g3, "qic", 0) == 1
    assert _income("ivits", ["more-balanced"], players=3)[1] == 1


@settings(max_examples=4, **SETTINGS)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**16), developer=st.booleans(), data=st.data())
def test_more_balanced_random_games_keep_the_invariants(players, seed, developer, data):
    pool = list(BALANCED_AFFECTED)
    g = boardrules.new_game(GAME, players=players, seed=seed, modules=["more-balanced"],
                            options={"factions": pool})
    while g.get("myfaction", players - 1) is None:
        legal = list(g.legal_actions())
        g.play(legal[data.draw(st.integers(0, len(legal) - 1))])
    for p in range(players):          # the module's own invariant: the boards' starts
        f = g.get("myfaction", p)
        want = BALANCED.get(f, STANDARD[f])
        if f == "ivits" and players == 2:
            want = (15, 4, 3, 0, 2, 4)
        assert _start_values(g, p) == want, f
    play_checked(data, g, developer=developer, check_every=3)
    assert g.over
    check_save_load(g, check=True)


# ---- beta -------------------------------------------------------------------------------------

# the research levels (terraforming, navigation, intelligence, gaia, economy, science) each board
# starts with, per version (engine: terrans.ts, lantids.ts, hadsch-hallas.ts, xenos.ts, gleens.ts,
# geodens.ts, firaks.ts, bescods.ts); the boards not listed are standard in every version
BETA_TRACKS = {
    "terrans": ((0, 1, 0, 1, 0, 0), (0, 1, 0, 1, 0, 0), (0, 0, 0, 1, 0, 0)),
    "lantids": ((0, 0, 0, 0, 2, 0),) * 3,
    "hadsch_hallas": ((0, 0, 0, 0, 2, 0),) * 3,
    "xenos": ((0, 0, 2, 0, 0, 0),) * 3,
    "gleens": ((0, 2, 0, 0, 0, 0), (0, 2, 0, 0, 0, 0), (0, 3, 0, 0, 0, 0)),
    "geodens": ((2, 0, 0, 0, 0, 0),) * 3,
    "firaks": ((0, 0, 0, 0, 0, 1), (0, 0, 0, 0, 0, 1), (0, 0, 0, 0, 1, 0)),
    "bescods": ((0,) * 6, (0,) * 6, (0, 0, 0, 0, 0, 2)),
    "itars": ((0,) * 6,) * 3,
}


@pytest.mark.parametrize("version", [0, 1, 2])
@pytest.mark.parametrize("faction", sorted(BETA_TRACKS))
def test_beta_boards_start_research_per_version(faction, version):
    (other,) = _others(faction, 1)
    g = _started((faction, other), ["beta"], {"beta_version": version})
    assert _tracks(g, 0) == BETA_TRACKS[faction][version]
    assert _tracks(g, 1) == _tracks(_started((faction, other), []), 1)   # a board beta keeps


def test_beta_geodens_version_two_start_with_five_knowledge():
    assert [res(_started(("geodens", "ambas"), ["beta"], {"beta_version": v}), "knowledge", 0)
            for v in (0, 1, 2)] == [3, 3, 5]


def test_beta_version_defaults_to_the_newest_and_refuses_an_unknown_one():
    g = boardrules.new_game(GAME, players=2, seed=1, modules=["beta"])
    assert g.ruleset.option("beta_version") == 2
    with pytest.raises(BoardrulesError) as err:
        boardrules.new_game(GAME, players=2, seed=1, modules=["beta"], options={"beta_version": 3})
    assert "beta_version" in str(err.value)
    with pytest.raises(BoardrulesError):
        boardrules.new_game(GAME, players=2, seed=1, modules=["beta", "more-balanced"])


@settings(max_examples=4, **SETTINGS)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**16), version=st.sampled_from([0, 1, 2]),
       developer=st.booleans(), data=st.data())
def test_beta_random_games_keep_the_invariants(players, seed, version, developer, data):
    pool = ["terrans", "hadsch_hallas", "xenos", "geodens", "firaks", "itars", "taklons"]
    g = boardrules.new_game(GAME, players=players, seed=seed, modules=["beta"],
                            options={"factions": pool, "beta_version": version})
    while g.get("myfaction", players - 1) is None:
        legal = list(g.legal_actions())
        g.play(legal[data.draw(st.integers(0, len(legal) - 1))])
    for p in range(players):          # the module's own invariant: the boards' research
        f = g.get("myfaction", p)
        if f in BETA_TRACKS:
            assert _tracks(g, p) == BETA_TRACKS[f][version], f
    play_checked(data, g, developer=developer, check_every=3)
    assert g.over
    check_save_load(g, check=True)


# ---- site records -------------------------------------------------------------------------------

def _record(tmp_path, name, **options):
    data = json.loads(shared_path("gaia-records", f"{name}.json").read_text(encoding="utf-8"))
    for k, v in options.items():
        if v is None:
            data["options"].pop(k, None)
        else:
            data["options"][k] = v
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return load_record(path)


def test_site_options_map_to_the_board_modules():
    assert site_modules({"factionVariant": "more-balanced"}) == ("more-balanced",)
    assert site_modules({"factionVariant": "beta", "factionVariantVersion": 1}) == ("beta",)
    assert site_module_options({"factionVariant": "beta"}) == {"beta_version": 2}   # the newest
    assert site_module_options({"factionVariant": "beta", "factionVariantVersion": 0}) == {"beta_version": 0}
    assert site_modules({"factionVariant": "standard"}) == ()


# SGAMBATA: Nevlas and Terrans, 2 players: no board of theirs changes in more-balanced or in
# beta version 2, so the record replays to its final state with the module on
@pytest.mark.parametrize("options", [{"factionVariant": "more-balanced", "factionVariantVersion": 0},
                                     {"factionVariant": "beta", "factionVariantVersion": 2},
                                     {"factionVariant": "beta", "factionVariantVersion": None}])
def test_record_with_a_board_variant_replays_with_its_module(tmp_path, options):
    out = R.replay_record(_record(tmp_path, "SGAMBATA", **options))
    assert out.ok, out.first_problem()
    assert options["factionVariant"] in out.game.ruleset.modules
    if options["factionVariant"] == "beta":
        assert out.game.ruleset.option("beta_version") == 2


def test_record_of_standard_boards_replayed_as_beta_zero_is_not_silently_accepted(tmp_path):
    # beta version 0 gives the Terrans a navigation step: the standard record no longer matches
    out = R.replay_record(_record(tmp_path, "SGAMBATA", factionVariant="beta", factionVariantVersion=0))
    assert not out.ok
    assert out.game.get("navigation", 1) >= 1


@pytest.mark.parametrize(("variant", "version"), [("beta", 3), ("more-balanced", 1), ("beta", -1)])
def test_unknown_board_version_is_refused_up_front_naming_it(tmp_path, variant, version):
    with pytest.raises(UnsupportedOption) as err:
        R.replay_record(_record(tmp_path, "SGAMBATA", factionVariant=variant, factionVariantVersion=version))
    assert err.value.option == "factionVariantVersion" and err.value.value == version
