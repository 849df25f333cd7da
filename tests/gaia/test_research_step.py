"""The research step of a technology tile is optional (gaia-project.md §6; seed 技術タイル:
「その直上の研究トラックを１レベル上げることができます」, 「任意の研究トラックを１レベル上げることが
できます」): after any tile (under a track, a "free" tile, an advanced tile) and after Firaks'
downgrade (seed: 「任意の技術を1レベル進めることができます」) the player advances one step or
declines (decision ``step_on``); where no step is possible the decline is the only answer.
Field cases: shared/cases/gaia random-2p-2010 (standard tile), -2027 (free tile), -12005 (no step
possible: Bal T'aks, navigation tile before their PI).
"""

from __future__ import annotations

import pytest

import boardrules
from boardrules.errors import IllegalActionError

from .test_game import home_mine, patch, res, start, var


def lab_with_tile(factions=("terrans", "hadsch_hallas"), changes=None):
    """Player 0 upgrades its home TS to a lab; returns the game waiting for the tile."""
    g = start(2, factions)
    h = home_mine(g, 0)
    patch(g, {("v", "bld", h): "ts", ("v", "built", 0, "mine"): 1, ("v", "built", 0, "ts"): 1,
              ("r", "credits", 0): 20, ("r", "ore", 0): 10, **(changes or {})})
    g.play(f"p1 upgrade {h} lab")
    assert g.state.pending[0].label == "tile"
    return g


def step_decision(g):
    d = g.state.pending[0]
    assert d.label == "step_on" and d.player == 0 and d.optional
    return d


@pytest.mark.parametrize("slot,track", [(0, "terraforming"), (1, "navigation"), (5, "science")])
def test_standard_tile_step_may_be_declined(slot, track):
    g = lab_with_tile()
    tile = var(g, "tech_slots")[slot]
    before = g.get(track, 0)
    g.play(boardrules.Action(0, "tile", (tile,)))
    assert step_decision(g).options == (track,)
    g.play(boardrules.Action(0, "step_on", ()))          # declined
    assert g.get(track, 0) == before and var(g, "has_tech", 0, tile) is True
    assert not g.state.pending


def test_standard_tile_step_only_on_its_track():
    g = lab_with_tile()
    g.play(boardrules.Action(0, "tile", (var(g, "tech_slots")[1],)))
    with pytest.raises(IllegalActionError):
        g.play(boardrules.Action(0, "step_on", ("science",)))
    g.play(boardrules.Action(0, "step_on", ("navigation",)))
    assert g.get("navigation", 0) == 1


def test_free_tile_step_on_any_track_or_declined():
    g = lab_with_tile()
    g.play(boardrules.Action(0, "tile", (var(g, "tech_slots")[6],)))
    d = step_decision(g)
    assert set(d.options) == {"terraforming", "navigation", "intelligence", "gaia", "economy", "science"}
    levels = {t: g.get(t, 0) for t in d.options}
    g.play(boardrules.Action(0, "step_on", ()))
    assert {t: g.get(t, 0) for t in d.options} == levels


def test_no_step_possible_leaves_only_the_decline():
    """Bal T'aks cannot advance navigation before their PI (§4): the navigation tile's step has
    no option, the decline is its only answer (cases/gaia random-2p-12005 move 18)."""
    g = lab_with_tile(("baltaks", "terrans"))
    g.play(boardrules.Action(0, "tile", (var(g, "tech_slots")[1],)))
    assert step_decision(g).options == ()
    with pytest.raises(IllegalActionError):
        g.play(boardrules.Action(0, "step_on", ("navigation",)))
    g.play(boardrules.Action(0, "step_on", ()))
    assert g.get("navigation", 0) == 0 and not g.state.pending


def test_advanced_tile_step_may_be_declined():
    g = start(2, ("terrans", "hadsch_hallas"))
    h = home_mine(g, 0)
    std = var(g, "tech_slots")[0]
    patch(g, {("v", "bld", h): "ts", ("v", "built", 0, "mine"): 1, ("v", "built", 0, "ts"): 1,
              ("r", "credits", 0): 20, ("r", "ore", 0): 10, ("t", "science", 0): 4,
              ("r", "green_feds", 0): 1, ("v", "has_tech", 0, std): True})
    g.play(f"p1 upgrade {h} lab")
    g.play(boardrules.Action(0, "tile", (var(g, "adv_slots")[5],)))
    g.play(boardrules.Action(0, "cover", (std,)))
    d = step_decision(g)
    assert "science" not in d.options            # level 5 needs a green token: it was flipped
    g.play(boardrules.Action(0, "step_on", ()))
    assert g.get("science", 0) == 4 and res(g, "green_feds", 0) == 0


def test_firaks_downgrade_step_may_be_declined():
    g = start(2, ("firaks", "terrans"))
    h = home_mine(g, 0)
    patch(g, {("v", "bld", h): "lab", ("v", "built", 0, "mine"): 1, ("v", "built", 0, "lab"): 1,
              ("v", "built", 0, "pi"): 1})
    g.play(f"p1 firaks_downgrade {h}")
    while g.state.pending and g.state.pending[0].label == "leech":
        d = g.state.pending[0]
        g.play(boardrules.Action(d.player, "leech", ()))
    step_decision(g)
    g.play(boardrules.Action(0, "step_on", ()))
    assert var(g, "bld", h) == "ts" and sum(g.get(t, 0) for t in (
        "terraforming", "navigation", "intelligence", "gaia", "economy", "science")) == 0


def test_lab_is_built_when_no_tile_is_left():
    """The tile comes with a lab or academy (§6); with none left to take (every standard tile
    held, no advanced one possible) the building still goes up, with no tile decision."""
    g = start(2, ("terrans", "hadsch_hallas"))
    h = home_mine(g, 0)
    patch(g, {("v", "bld", h): "ts", ("v", "built", 0, "mine"): 1, ("v", "built", 0, "ts"): 1,
              ("r", "credits", 0): 20, ("r", "ore", 0): 10,
              **{("v", "has_tech", 0, t): True for t in var(g, "tech_slots")}})
    g.play(f"p1 upgrade {h} lab")
    assert var(g, "bld", h) == "lab" and res(g, "credits", 0) == 15
    assert not any(d.label == "tile" for d in g.state.pending)


def test_itars_trade_not_offered_without_a_tile_to_take():
    g = start(2, ("itars", "terrans"))
    patch(g, {("v", "built", 0, "pi"): 1, ("r", "gaia_power", 0): 4,
              **{("v", "has_tech", 0, t): True for t in var(g, "tech_slots")}})
    from .test_game import pass_everyone
    pass_everyone(g)
    while g.state.pending:                       # income orders, then the Gaia phase
        d = g.state.pending[0]
        assert d.label != "itars_tech"
        g.play(boardrules.Action(d.player, d.label, () if d.optional else (d.options[0],)))
    assert res(g, "gaia_power", 0) == 0          # back to bowl I, no trade offered
    assert not any(d.label == "itars_tech" for d in g.state.pending)
