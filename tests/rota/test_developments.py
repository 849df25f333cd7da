"""Rise of the Ancients, developments (``-m developments``): the seed's development rules."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from boardrules import IllegalActionError
from boardrules.runtime import Context
from boardrules_eclipse.diplomacy import rep_capacity
from boardrules_eclipse.primitives import _galaxy, _pos
from tests.eclipse.test_combat_play import _stage
from tests.eclipse.test_edge_cases import HOME, _set

from .common import SETTINGS, play_random, start

ALL = ("dev_ancient_monument", "dev_artifact_link", "dev_diplomatic_fleet", "dev_mining_colony",
       "dev_research_station", "dev_trade_fleet", "dev_shellworld", "dev_warp_portal")


def developments_invariant(g) -> None:
    """Each development is in exactly one place (the bag, the supply, one player's board) or
    in the box; the supply and the boards hold at most players + 1 of them; a Shellworld or
    warp-portal tile lies only in a hex of the game whose buyer owns that development."""
    n = g.players
    bag, supply = list(g.get("development_bag")), list(g.get("development_supply"))
    owned = [d for p in range(n) for d in g.get("developments", p)]
    places = bag + supply + owned
    assert len(places) == len(set(places)) and set(places) <= set(ALL)
    if g.get("development_supply") or owned:
        assert len(supply) + len(owned) <= min(n + 1, 8)
    shells = [h for h in g.get("hexes") if g.get("shellworld_at", index=h)]
    assert len(shells) <= (1 if "dev_shellworld" in owned else 0)


def _supply(g, *devs, **resources):
    """Put ``devs`` in the supply (the rest of the eight in the bag) and set p1's resources."""
    _set(g, v__development_supply=devs, v__development_bag=tuple(d for d in ALL if d not in devs),
         **{f"r__{k}__0": v for k, v in resources.items()})


def _start(players=2, modules=("developments",), seed=3):
    return start(players, modules, seed)


@pytest.mark.parametrize("players,drawn", [(2, 3), (3, 4), (4, 5), (5, 6), (6, 7)])
def test_supply_holds_players_plus_one(players, drawn):
    """Seed: one development more than there are players (at most 8) at setup, public."""
    g = _start(players)
    supply = g.get("development_supply")
    assert len(supply) == drawn and len(set(supply)) == drawn
    assert len(g.get("development_bag")) == 8 - drawn
    assert g.view(0)["values"][("v", "development_supply")] == supply   # public


def test_research_station_costs_and_gives():
    """Seed example: the Research Station costs 5 money + 5 materials and gives 12 science;
    buying it is a Research action (a disc) instead of a technology."""
    g = _start()
    _supply(g, "dev_research_station", "dev_ancient_monument", money=7, materials=5, science=1)
    g.play("p1 develop")
    g.play("p1 dev dev_research_station")
    assert (g.get("money", 0), g.get("materials", 0), g.get("science", 0)) == (2, 0, 13)
    assert g.get("developments", 0) == ("dev_research_station",)
    assert g.get("development_supply") == ("dev_ancient_monument",)
    assert g.get("action_discs", 0) == 1 and g.get("current_action", 0) == "research"
    developments_invariant(g)


def test_unaffordable_development_is_refused_state_unchanged():
    g = _start()
    _supply(g, "dev_ancient_monument", money=12)
    before = g.state
    with pytest.raises(IllegalActionError, match="no development of the supply is affordable"):
        g.play("p1 develop")
    assert g.state == before


def test_diplomatic_fleet_adds_a_reputation_slot():
    g = _start()
    ctx = lambda: Context(g.ruleset, g.state.values, me=0)
    before = rep_capacity.fn(ctx())
    _supply(g, "dev_diplomatic_fleet", materials=6)
    g.play("p1 develop")
    g.play("p1 dev dev_diplomatic_fleet")
    assert rep_capacity.fn(ctx()) == before + 1


def test_warp_portal_development_links_with_a_warp_sector():
    """Seed: the Warp Portal development's tile goes into a hex you control and links with every
    other warp portal (here a warp sector of the warp-portals module); 1 VP if controlled."""
    g = _start(modules=("developments", "warp-portals"))
    far = "-2,1"
    _stage(g, far, "s381")
    _set(g, v__stack_outer=tuple(s for s in g.get("stack_outer") if s != "s381"))
    _supply(g, "dev_warp_portal", materials=8)
    gal = lambda: _galaxy(Context(g.ruleset, g.state.values, me=0))
    assert not gal().connected(_pos(HOME), _pos(far))
    g.play("p1 develop")
    g.play("p1 dev dev_warp_portal")
    g.play(f"p1 tile_hex {HOME}")            # the only hex p1 controls: asked all the same
    assert g.get("warp_portal_at", index=HOME) and gal().connected(_pos(HOME), _pos(far))
    developments_invariant(g)


def test_end_scoring_of_developments():
    """Seed: Ancient Monument 3 VP; Artifact Link 1 VP per artifact in a hex you control;
    Shellworld 5 VP if its hex is controlled."""
    g = _start(seed=5)
    _supply(g, "dev_shellworld", money=0, science=0, materials=20)
    g.play("p1 develop")
    g.play("p1 dev dev_shellworld")
    g.play(f"p1 tile_hex {HOME}")
    _set(g, v__developments__0=("dev_shellworld", "dev_ancient_monument", "dev_artifact_link"),
         v__development_bag=("dev_diplomatic_fleet", "dev_mining_colony", "dev_research_station",
                             "dev_trade_fleet", "dev_warp_portal"))
    developments_invariant(g)
    while not g.over:                        # everyone passes to the end: no battles
        legal = list(g.legal_actions())
        g.play(next((a for a in legal if a.name in ("pass_turn", "done")), legal[0]))
    mine = [h for h in g.get("hexes") if g.get("controller", index=h) == 0]
    artifacts = sum(1 for h in mine if h == HOME)      # the Terran home sector prints an artifact
    assert HOME in mine
    assert g.scores()[0]["sources"]["score_developments"] == 3 + artifacts + 5


def test_shellworld_has_a_science_population_square():
    """Seed: the Shellworld tile has one science population square (cube notation ``w``)."""
    from tests.eclipse.test_invariants import check_invariants
    g = _start()
    options = lambda: {str(a.args[0]) for a in g.legal_actions() if a.name == "colonize"}
    assert not any("|w:" in o for o in options())
    _supply(g, "dev_shellworld", materials=20)
    g.play("p1 develop")
    g.play("p1 dev dev_shellworld")
    g.play(f"p1 tile_hex {HOME}")
    assert {o for o in options() if "|w:" in o} == {f"{HOME}|w:science"}
    g.play(f"p1 colonize {HOME}|w:science")
    assert f"w:science" in g.get("cubes", index=HOME)
    assert not any("|w:" in o for o in options())
    from boardrules_eclipse.primitives import build_sites
    sites = build_sites.fn(Context(g.ruleset, g.state.values, me=0))
    assert sites and not any(s.startswith("shellworld@") for s in sites)   # never built
    check_invariants(g)
    developments_invariant(g)


@SETTINGS
@given(data=st.data())
def test_random_games_with_developments(data):
    g = play_random(data, ("developments",), developments_invariant, prefer=("develop",),
                    money=data.draw(st.sampled_from([0, 30])))
    assert g.over
