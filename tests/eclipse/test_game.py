"""Eclipse base game: random bots play whole games; rules checked with concrete values."""

from __future__ import annotations

import random

import pytest

import boardrules
from boardrules.game import Action
from boardrules.runtime import CHANCE
from boardrules_eclipse.galaxy import distance

RESOURCES = ("money", "science", "materials", "vp")
TOTAL_DISCS = 16  # 13 track circles + Advanced Robotics 1 + Quantum Grid 2 (base.rules)


def new(players=2, seed=0, species=None):
    """A game past species selection (``species`` in seat order; default all Terrans)."""
    g = boardrules.new_game("eclipse", players=players, seed=seed)
    species = species or ["terrans"] * players
    for p in reversed(range(players)):  # species are picked in reverse seat order
        g.play(Action(p, "pick_species", (species[p],)))
    return g


def check_invariants(g) -> None:
    v = g.state.values
    hexes = g.get("hexes")
    for p in range(g.players):
        for r in RESOURCES:
            assert g.get(r, p) >= 0, (p, r)
        controlled = [h for h in hexes if g.get("controller", index=h) == p]
        discs = (g.get("disc", p) + g.get("action_discs", p) + len(controlled)
                 + g.get("discs_in_box", p))
        assert discs == TOTAL_DISCS, f"p{p + 1} has {discs} discs"
        score = g.scores()[p]
        assert score["total"] == sum(score["sources"].values())
        assert score["total"] == g.get("vp", p)
        for res in ("money", "science", "materials"):
            on_map = sum(1 for h in controlled for c in g.get("cubes", index=h)
                         if c.endswith(":" + res))
            envoys = sum(1 for _, r in g.get("envoys", p) if r == res)   # cubes on ambassadors
            assert g.get(f"out_{res}", p) == on_map + envoys, (p, res)
        if not g.state.pending:       # relations are mutual once both envoys are chosen
            for q in g.get("ambassadors", p):
                assert p in g.get("ambassadors", q)
    for h in hexes:
        if g.get("controller", index=h) is None:
            assert not g.get("cubes", index=h), h
    assert not any(k[0] == "r" and val < 0 for k, val in v.items())


def play_random(players, seed, max_moves=5000):
    g = boardrules.new_game("eclipse", players=players, seed=seed)
    rng = random.Random(seed)
    moves = 0
    while not g.over:
        legal = list(g.legal_actions())
        assert legal, f"no legal action at move {moves}"
        g.play(rng.choice(legal))
        moves += 1
        if g.state.values.get(("f", "stage"), 0) >= 1:
            check_invariants(g)
        assert moves < max_moves
    return g, moves


@pytest.mark.parametrize("players,seed", [(2, 1), (2, 2), (4, 1), (6, 1)])
def test_random_bots_finish(players, seed):
    g, moves = play_random(players, seed)
    assert g.over
    assert g.get("round") == 9
    check_invariants(g)
    # the record replays to the same state
    again = boardrules.load_game(g.save(), check=False)
    assert again.state == g.state


def test_setup_terran_home():
    g = new(2)
    check_invariants(g)
    assert g.get("money", 0) == 2 and g.get("science", 0) == 3 and g.get("materials", 0) == 3
    # 13 discs, one on the home sector, 3 in the box
    assert g.get("disc", 0) == 12 and g.get("discs_in_box", 0) == 3
    home = next(h for h in g.get("hexes") if g.get("controller", index=h) == 0)
    assert g.get("sector_at", index=home) == "s221"
    assert g.get("ships", index=home) == ((0, "interceptor"),)
    assert sorted(g.get("cubes", index=home)) == ["0:money", "2:science", "4:materials"]
    assert g.get("techs", 0) == ("tech_starbase",)
    assert len(g.get("tech_market")) == 12   # 2 players [M]


def test_species_differences():
    g = new(2, species=["eridani", "orion"])
    assert g.get("money", 0) == 26 and g.get("discs_in_box", 0) == 5
    assert len(g.get("reputation", 0)) == 2          # Eridani start with two reputation tiles
    orion_home = next(h for h in g.get("hexes") if g.get("controller", index=h) == 1)
    assert g.get("ships", index=orion_home) == ((1, "cruiser"),)
    assert g.get("blueprint", 1, index="interceptor")[-1] == "gauss_shield"


def test_research_cost_discount_and_minimum():
    g = new(2)
    st = dict(g.state.values)
    # p1 (Terran) already has Starbase in the military row (discount 1); give two more.
    st[("v", "techs", 0)] = ("tech_starbase", "tech_neutron_bombs", "tech_phase_shield")
    st[("v", "tech_market")] = ("tech_plasma_cannon", "tech_gluon_computer", "tech_gauss_shield")
    st[("r", "science", 0)] = 20
    g.state = type(g.state)(st, g.state.pending)
    g.play(Action(0, "research"))
    # Plasma Cannon 6/4 with 3 military techs: 6 - 3 = 3, but never below 4
    g.play(Action(0, "tile", ("tech_plasma_cannon",)))
    assert g.get("science", 0) == 16
    assert "tech_plasma_cannon" in g.get("techs", 0)
    g.play("p1 done")
    g.play("p2 pass_turn")   # a passed player keeps turns for reactions; the round goes on
    g.play(Action(0, "research"))
    # Gluon Computer 16/8 with 4 military techs: discount 4, so 16 - 4 = 12 (minimum 8)
    g.play(Action(0, "tile", ("tech_gluon_computer",)))
    assert g.get("science", 0) == 16 - 12


def test_upkeep_by_discs():
    g = new(2)
    st = dict(g.state.values)
    # take 5 discs off p1's track onto action spaces: 12 - 5 = 7 on the track -> upkeep 5
    st[("c", "disc", 0)] = 7
    st[("v", "action_discs", 0)] = 5
    st[("r", "money", 0)] = 10
    g.state = type(g.state)(st, g.state.pending)
    g.play("p1 pass_turn")
    g.play("p2 pass_turn")   # the last to pass ends the action phase
    # production 3 (one cube off the money track) - upkeep 5 (leftmost empty circle) = -2
    assert g.get("money", 0) == 8
    assert g.get("money", 1) == 2 + 3  # p2: 12 discs on the track, no upkeep
    # cleanup returned the action discs
    assert g.get("disc", 0) == 12 and g.get("action_discs", 0) == 0


def test_upkeep_shortfall_trades_then_gives_up_hexes():
    g = new(2)
    st = dict(g.state.values)
    st[("c", "disc", 0)] = 2          # 10 discs on actions: upkeep 21
    st[("v", "action_discs", 0)] = 10
    st[("r", "money", 0)] = 0
    st[("r", "science", 0)] = 10      # Terran trade 2:1 -> 5 money
    st[("r", "materials", 0)] = 0
    g.state = type(g.state)(st, g.state.pending)
    g.play("p1 pass_turn")
    g.play("p2 pass_turn")   # the last to pass ends the action phase
    # science: 10 + 3 produced = 13 -> traded 6 x 2; short 21 - 3 - 6 = 12 more: a hex goes,
    # the player's choice (the home is the only one)
    d = g.state.pending[0]
    assert (d.player, d.label, tuple(d.options)) == (0, "abandon", ("2,0",))
    g.play("p1 abandon 2,0")
    check_invariants(g)
    assert g.get("controller", index="2,0") is None
    assert g.get("money", 0) == 0     # 12 short, the upkeep fell by 1 only: the rest forgiven
    assert g.get("science", 0) == 1


def test_reactions_after_passing():
    g = new(2)
    g.play("p1 pass_turn")
    g.play("p2 upgrade")
    g.play(Action(1, "install", (g.state.pending[0].options[0],)))
    g.play("p2 done")
    legal = {a.name for a in g.legal_actions()}
    assert {"react_upgrade", "react_build", "pass_turn"} <= legal  # no ship can move yet
    assert not legal & {"explore", "influence", "research", "upgrade", "build", "move"}
    discs = g.get("disc", 0)
    g.play("p1 react_upgrade")
    g.play(Action(0, "install", ("interceptor#3=hull",)))
    assert g.get("disc", 0) == discs - 1                       # a reaction costs a disc
    # a single activation: the reaction ends the turn; p2 (not passed) is next
    assert g.players_to_act() == frozenset({1})
    g.play("p2 pass_turn")
    assert g.get("round") == 2
    assert g.get("turn_order") == (0, 1)                       # p1 passed first


def test_combat_resolved_from_given_dice():
    """Two interceptors (3/0/0/0, 1 ion each) attack an Ancient (2/1/+1/0, 2 ion) in an
    explored hex. Dice are chance actions played explicitly."""
    g = new(2)
    g.auto_chance = False
    st = dict(g.state.values)
    h = "1,0"
    st[("v", "hexes")] = st[("v", "hexes")] + (h,)
    st[("v", "sector_at", h)] = "s101"
    st[("v", "npcs", h)] = ("ancient",)
    st[("v", "ships", h)] = ((0, "interceptor"), (0, "interceptor"))
    g.state = type(g.state)(st, g.state.pending)
    g.play("p1 pass_turn")
    g.play("p2 pass_turn")   # the last to pass ends the action phase
    d = g.state.pending[0]
    assert d.player == CHANCE and d.label == "rolls"
    # interceptors (initiative 3) fire first: 2 dice. A 6 and a 5: one hit (computer 0).
    g.play(Action(CHANCE, "rolls", ((6, 5),)))
    assert g.get("battle")  # the ancient (hull 1) took 1 damage and lives
    # ancient fires 2 dice with +1 computer: 5 + 1 = 6 hits, 1 misses -> one interceptor dies
    g.play(Action(CHANCE, "rolls", ((5, 1),)))
    # round 2: the surviving interceptor rolls a 6: the ancient is destroyed
    g.play(Action(CHANCE, "rolls", ((6,),)))
    assert g.get("npcs", index=h) == ()
    assert g.get("ships", index=h) == ((0, "interceptor"),)
    assert g.get("rep_owed", 0) == (2,)  # 1 for the battle + 1 for the Ancient
    # end of combat: p1's ships hold an uncontrolled hex, so p1 may place a disc there
    d = g.state.pending[0]
    assert (d.player, d.label) == (0, "claim")
    g.play(Action(0, "claim", (True,)))
    assert g.get("controller", index=h) == 0
    # then the two reputation draws are chance actions; p1 keeps the better tile
    g.play(Action(CHANCE, "rep_tile", (2,)))
    g.play(Action(CHANCE, "rep_tile", (4,)))
    assert g.get("reputation", 0) == (4,)
    check_invariants(g)


def test_explore_place_claim_and_colonize():
    g = new(2, seed=3)
    g.auto_chance = False
    home = next(h for h in g.get("hexes") if g.get("controller", index=h) == 0)
    g.play("p1 explore")
    d = g.state.pending[0]
    assert (d.player, d.label) == (0, "space") and d.options    # spaces next to the home sector
    space = d.options[0]
    g.play(Action(0, "space", (space,)))
    q, r = map(int, space.split(","))
    stack = {1: "stack_inner", 2: "stack_middle"}.get(distance((q, r)), "stack_outer")
    ring = g.get(stack)
    g.play(Action(CHANCE, "sector", (ring[0],)))                   # the sector drawn
    rot = g.state.pending[0]
    assert (rot.player, rot.label) == (0, "rotation") and rot.optional
    g.play(Action(0, "rotation", (rot.options[0],)))
    assert space in g.get("hexes") and g.get("sector_at", index=space) == ring[0]
    claim = g.state.pending[0] if g.state.pending else None
    if claim is not None and claim.options:                   # no Ancients there: claim it
        g.play(Action(0, "claim", (True,)))
        while g.state.pending:                                # a discovery, if any
            d = g.state.pending[0]
            g.play(Action(d.player, d.label, (d.options[0],)))
        assert g.get("controller", index=space) == 0
        assert g.get("disc", 0) == 12 - 2                     # action disc + the new hex
    check_invariants(g)
    colonies = [a for a in g.legal_actions() if a.name == "colonize"]
    assert all(a.args[0].split("|")[0] in (home, space) for a in colonies)


def test_end_scoring_by_source():
    g = new(2, species=["terrans", "planta"])
    st = dict(g.state.values)
    st[("f", "round")] = 9                               # the last round
    home = next(h for h in g.get("hexes") if g.get("controller", index=h) == 0)
    st[("v", "reputation", 0)] = (4, 3)
    st[("v", "discoveries_kept", 0)] = 1
    st[("v", "techs", 0)] = ("tech_starbase", "tech_neutron_bombs", "tech_plasma_cannon",
                             "tech_phase_shield")      # 4 military techs: 1 VP
    st[("v", "monolith_at", home)] = True
    g.state = type(g.state)(st, g.state.pending)
    g.play("p1 pass_turn")
    g.play("p2 pass_turn")
    assert g.over
    assert g.scores()[0] == {"total": 16, "sources": {
        "score_discoveries": 2, "score_hexes": 3, "score_monoliths": 3, "score_reputation": 7,
        "score_techs": 1}}
    # Planta: 3 VP home sector + 1 VP per controlled hex
    assert g.scores()[1]["sources"] == {"score_hexes": 3, "score_species": 1}
    check_invariants(g)


def test_tie_broken_by_resources():
    """eclipse.md §2.7: tie-break by resources [M]."""
    g = new(2)
    st = dict(g.state.values)
    st[("r", "materials", 1)] = 9
    g.state = type(g.state)(st, g.state.pending)
    assert g.scores()[0]["total"] == g.scores()[1]["total"]
    assert g.ranking() == [(1,), (0,)]
