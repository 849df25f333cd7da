"""The base-game rulings of docs/eclipse.md ("Rulings"), one test each, naming its source."""

from __future__ import annotations

import random

import pytest

from boardrules.errors import IllegalActionError
from boardrules.game import Action
from boardrules.runtime import CHANCE

from .test_combat_play import FAR, NEAR, _end_actions, _stage
from .test_edge_cases import HOME, _set
from .test_game import check_invariants, new

UNARMED = ("hull", "nuclear_source", "nuclear_drive", "empty")   # an interceptor without cannons


def _disarm(g, p, cls="interceptor"):
    _set(g, **{f"v__blueprint__{p}__{cls}": UNARMED})


def _answer(g, rolls=6):
    """Answer the next combat decision: dice all ``rolls``, the first hit option, fire."""
    d = g.state.pending[0]
    if d.player == CHANCE:
        g.play(Action(CHANCE, d.label, ((rolls,) * d.options.count,)))
    elif d.label == "retreat":
        g.play(Action(d.player, "retreat", (False,)))
    else:
        g.play(Action(d.player, d.label, (d.options[0],)))


def _fight_out(g, rolls=6):
    while g.state.pending and g.get("battle"):
        _answer(g, rolls)


# ---- influence ---------------------------------------------------------------------------------

def test_influence_with_no_disc_move_only_flips_colony_ships():
    """eclipse.md §2.2 ("up to 2 disc moves") and the summary card ("place influence discs and
    flip colony ships face up"): zero moves is a legal Influence action."""
    g = new(2)
    _set(g, v__colony_used__0=3)
    g.play("p1 influence")
    assert Action(0, "target", ()) in g.legal_actions()      # the first move may be declined
    g.play("p1 target")
    g.play("p1 done")
    assert g.get("controller", index=HOME) == 0             # the home keeps its disc
    assert g.get("colony_used", 0) == 1                     # two colony ships face up again
    check_invariants(g)


def test_hex_to_hex_disc_move_counts_as_one():
    """eclipse.md §2.2: a move is track->hex, hex->track or hex->hex; the official FAQ (BGG
    711246) prices only the lift-and-put-back-in-the-same-hex at two."""
    g = new(2)
    _stage(g, NEAR, "s106")                                 # empty, connected to p1's home
    discs = g.get("disc", 0)
    g.play("p1 influence")
    g.play(f"p1 target {HOME}")
    assert HOME not in g.state.pending[0].options           # not back into the same hex
    g.play(f"p1 to {NEAR}")
    assert g.get("controller", index=NEAR) == 0 and g.get("controller", index=HOME) is None
    assert g.get("disc", 0) == discs - 1                    # only the action's own disc
    assert Action(0, "again", ()) in g.legal_actions()      # one of the two moves is left
    check_invariants(g)


# ---- scoring -------------------------------------------------------------------------------------

def test_draco_scores_every_ancient_on_the_board():
    """Dized (Second Dawn species sheet and game-end page): "1 VP per Ancient on the game board
    at the end of the game" -- not only those in Draco's hexes; the GCDS is no Ancient (FAQ)."""
    g = new(2, species=["draco", "terrans"])
    _stage(g, FAR, "s301", npcs=["ancient", "ancient"])     # nobody controls it
    _stage(g, "0,-2", "s105", npcs=["ancient"], controller=1)
    _set(g, f__round=9)
    g.play("p1 pass_turn")
    g.play("p2 pass_turn")
    assert g.over
    assert g.scores()[0]["sources"]["score_species"] == 3    # none of them in Draco's hexes


# ---- combat ----------------------------------------------------------------------------------

def test_battles_go_in_descending_sector_number():
    """Dized (Second Dawn, "Determine Battles"): battles are resolved in descending order of
    the sector numbers; the centre (001) comes last."""
    g = new(2)
    g.auto_chance = False
    _stage(g, FAR, "s105", ships=[(0, "interceptor")], npcs=["ancient"])   # explored first
    _stage(g, NEAR, "s301", ships=[(1, "interceptor")], npcs=["ancient"])
    _end_actions(g)
    assert dict(g.get("battle"))["h"] == NEAR               # sector 301 before sector 105
    fought = []
    while g.get("battle"):
        h = dict(g.get("battle"))["h"]
        if not fought or fought[-1] != h:
            fought.append(h)
        _answer(g, rolls=1)                                  # misses: the Ancients survive
    assert fought == [NEAR, FAR]


def test_reputation_draws_per_hex_not_per_pair():
    """Dized (Second Dawn quick reference): "after all battles in a Sector: draw Reputation
    Tiles" -- one draw series per participant per hex however many pairs fight there."""
    g = new(3)
    g.auto_chance = False
    for p in (1, 2):
        _disarm(g, p)
    _stage(g, FAR, "s303", ships=[(0, "cruiser"), (1, "interceptor"), (2, "interceptor")])
    for p in range(3):
        _set(g, **{f"v__rep_owed__{p}": ()})
    g.play("p1 pass_turn")
    g.play("p2 pass_turn")
    g.play("p3 pass_turn")
    _fight_out(g)
    # p1 fought two battles (against p3, then p2) and destroyed both: one series, 1 + 1 + 1
    assert g.get("rep_owed", 0) == (3,)
    assert g.get("rep_owed", 1) == (1,) and g.get("rep_owed", 2) == (1,)


def test_reputation_draws_capped_at_five_per_hex():
    """eclipse.md §2.5: 1 + kills, at most 5 draws [M; Second Dawn the same, S dized]."""
    g = new(2)
    g.auto_chance = False
    _disarm(g, 1, "interceptor")
    _disarm(g, 1, "cruiser")
    _set(g, **{"v__blueprint__1__cruiser": ("hull", "nuclear_source", "nuclear_drive", "empty",
                                             "empty", "empty")})
    _stage(g, FAR, "s303", ships=[(1, "cruiser"), (1, "cruiser"), (1, "interceptor"),
                                  (0, "dreadnought")])
    _set(g, v__rep_owed__0=(), v__rep_owed__1=())
    _end_actions(g)
    _fight_out(g)
    assert g.get("rep_owed", 0) == (5,)                      # 1 + 2 + 2 + 1 = 6, capped
    assert g.get("max_rep_draws") == 5


def test_ship_type_without_cannons_may_retreat():
    """eclipse.md §2.5: on its activation every ship type fires or retreats -- a type without
    cannons too (SD wording on dized; 1st edition M)."""
    g = new(2)
    g.auto_chance = False
    _disarm(g, 0)
    _stage(g, NEAR, "s301", ships=[(0, "interceptor")], npcs=["ancient"])
    _end_actions(g)
    d = g.state.pending[0]
    assert (d.player, d.label) == (0, "retreat")
    g.play("p1 retreat true")
    g.play(Action(CHANCE, "rolls", ((1, 1),)))              # the Ancient misses
    g.play(f"p1 retreat_to {HOME}")
    assert (0, "interceptor") in g.get("ships", index=HOME)
    assert not any(o == 0 for o, _ in g.get("ships", index=NEAR))
    check_invariants(g)


# ---- trading ----------------------------------------------------------------------------------

@pytest.mark.parametrize("species,rate", [("terrans", 2), ("orion", 4)])
def test_trade_at_the_species_rate_in_own_turn(species, rate):
    """eclipse.md §2.3: rates printed on the boards (Terrans 2:1, Orion 4:1) [S boards]; trading
    in one's own turn is our documented reading (docs/eclipse.md, "Rulings")."""
    g = new(2, species=[species, "hydran"])
    _set(g, r__science__0=rate + 1, r__money__0=0)
    g.play("p1 trade science money")
    assert (g.get("science", 0), g.get("money", 0)) == (1, 1)
    before = g.state
    with pytest.raises(IllegalActionError, match="trade"):
        g.play("p1 trade science money")                    # 1 science is not enough
    assert g.state == before
    with pytest.raises(IllegalActionError):
        g.play("p2 trade science money")                    # not p2's turn
    with pytest.raises(IllegalActionError, match="trade rate"):
        g.play("p1 trade money money")                      # 1 money: the rate is asked first
    _set(g, r__money__0=rate)
    before = g.state
    with pytest.raises(IllegalActionError, match="another"):
        g.play("p1 trade money money")
    assert g.state == before


# ---- discoveries -------------------------------------------------------------------------------

def test_ancient_technology_choice_among_the_cheapest():
    """Summary card: "Ancient technology: you may take the cheapest technology" you lack;
    among tiles tied for cheapest the player chooses (docs/eclipse.md)."""
    g = new(2)
    _stage(g, NEAR, "s106")
    _set(g, **{f"v__discovery_at__{NEAR}": True}, v__discovery_bag=("find_tech",),
         v__tech_market=("tech_plasma_cannon", "tech_nanorobots", "tech_starbase",
                         "tech_neutron_bombs", "tech_nanorobots"))
    g.play("p1 influence")
    g.play(f"p1 target {NEAR}")
    g.play("p1 use true")
    d = g.state.pending[0]
    assert d.label == "tile"
    # tech_starbase (cost 4) is owned already; the two cost-2 tiles tie
    assert set(d.options) == {"tech_nanorobots", "tech_neutron_bombs"}
    g.play("p1 tile tech_nanorobots")
    assert "tech_nanorobots" in g.get("techs", 0)
    assert g.get("tech_market") == ("tech_plasma_cannon", "tech_starbase", "tech_neutron_bombs",
                                    "tech_nanorobots")


# ---- a player without discs -------------------------------------------------------------------

def test_player_without_discs_passes_and_the_game_goes_on():
    """No main action can be taken without a disc on the track (each costs one, summary card);
    passing stays legal, upkeep gives up hexes, and the game plays to its end."""
    g = new(3, seed=4)
    track = g.get("disc", 0)
    _set(g, c__disc__0=0, v__action_discs__0=track)
    mains = {a.name for a in g.legal_actions() if a.player == 0}
    assert mains <= {"pass_turn", "trade", "colonize", "diplomacy"}
    assert "pass_turn" in mains
    rng = random.Random(4)
    moves = 0
    while not g.over:
        g.play(rng.choice(list(g.legal_actions())))
        check_invariants(g)
        moves += 1
        assert moves < 5000
    assert g.get("round") == 9
