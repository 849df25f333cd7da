"""The rule edge cases of /work/shared/rules/eclipse.md §4, one test each, naming its source.
Open rulings are our documented choices (rules/README.md, "Edge cases")."""

from __future__ import annotations

from boardrules.game import Action
from boardrules.runtime import CHANCE

from .test_combat_play import FAR, NEAR, _end_actions, _stage
from .test_game import check_invariants, new

HOME = "2,0"       # p1's home in a 2-player game


def _set(g, **changes):
    st = dict(g.state.values)
    for key, value in changes.items():
        st[tuple(int(k) if k.isdigit() else k for k in key.split("__"))] = value
    g.state = type(g.state)(st, g.state.pending)


def test_case1_disc_lifted_and_put_back_costs_both_moves():
    """Official FAQ (BGG 711246, 21 May 2013): two moves."""
    g = new(2)
    g.play("p1 influence")
    g.play(f"p1 target {HOME}")                   # lift the home disc (move 1)
    g.play("p1 to")                               # ... onto the track, not on to another hex
    assert g.get("controller", index=HOME) is None
    g.play("p1 again")
    g.play(f"p1 target {HOME}")                   # put it back (move 2)
    assert g.get("controller", index=HOME) == 0
    assert "p1 again" not in g.legal_actions()    # no move left
    check_invariants(g)


def _free_home_squares(g):
    """Take the home's science and materials cubes back to their tracks."""
    _set(g, **{"v__cubes__" + HOME: ("0:money",)}, v__out_science__0=0, v__out_materials__0=0)


def test_case2_colony_ships_when_and_after_passing():
    """Official FAQ: colony ships may be used when passing and when continuing to pass."""
    g = new(2)
    _free_home_squares(g)
    g.play("p1 colonize 2,0|2:science")          # a colony ship, then pass in the same turn
    g.play("p1 pass_turn")
    g.play("p2 influence")
    g.play("p2 target")                           # no disc move: colony ships only
    g.play("p2 done")
    # p1 has passed: their turn offers reactions, passing again, and colony ships
    assert "p1 colonize 2,0|4:materials" in g.legal_actions()
    g.play("p1 colonize 2,0|4:materials")
    g.play("p1 pass_turn")
    assert g.get("cubes", index=HOME) == ("0:money", "2:science", "4:materials")


def test_case3_empty_track_cannot_borrow_another():
    """Official FAQ: no cube from another track when the needed one is empty."""
    g = new(2)
    _free_home_squares(g)
    _set(g, v__out_science__0=11)                 # science track emptied
    options = [a.args[0] for a in g.legal_actions() if a.name == "colonize"]
    assert options and not any(o.endswith(":science") for o in options)


def test_case4_orbital_and_monolith_in_one_hex():
    """Official FAQ: both allowed, one of each."""
    g = new(2)
    _set(g, v__techs__0=("tech_starbase", "tech_orbital", "tech_monolith"), r__materials__0=30)
    g.play("p1 build")
    g.play(f"p1 make orbital@{HOME}")
    g.play("p1 again")
    g.play(f"p1 make monolith@{HOME}")
    assert g.get("orbital_at", index=HOME) and g.get("monolith_at", index=HOME)
    g.play("p1 done")
    g.play("p2 pass_turn")
    g.play("p1 build")
    assert f"p1 make orbital@{HOME}" not in g.legal_actions()   # one of each per hex


def test_case5_gcds_is_no_ancient_for_draco():
    """Official FAQ: the GCDS is not an Ancient; Draco may not influence the centre while it
    lives (but may share hexes with Ancients [S boards icon])."""
    g = new(2, species=["draco", "terrans"])
    assert g.get("npcs", index="0,0") == ("gcds",)
    _stage(g, FAR, "s303", ships=[(0, "interceptor"), (1, "cruiser")], npcs=["ancient"])
    _set(g, **{"v__ships__0,0": ((0, "interceptor"), (1, "interceptor"))},
         v__allies__0=(1,), v__allies__1=(0,))            # no enemy ships: only the NPCs count
    g.play("p1 influence")
    targets = set(g.state.pending[0].options)
    assert "0,0" not in targets and FAR in targets           # Draco: the GCDS fights, Ancients not
    g.play("p1 target")
    g.play("p1 done")
    g.play("p2 influence")
    targets = set(g.state.pending[0].options)
    assert "0,0" not in targets and FAR not in targets       # the Terrans: both fight


def test_case6_one_die_one_ship():
    """Rules p.19 via the BGG wiki: a die's damage goes to one ship. A plasma hit (2 damage)
    is one choice, never split, and damage beyond destruction is lost."""
    g = new(2)
    g.auto_chance = False
    _set(g, v__blueprint__0__interceptor=("plasma_cannon", "nuclear_source", "nuclear_drive", "empty"),
         v__techs__0=("tech_starbase", "tech_plasma_cannon"))
    _stage(g, FAR, "s303", ships=[(1, "interceptor"), (1, "interceptor"), (0, "interceptor")])
    _end_actions(g)
    g.play(Action(CHANCE, "rolls", ((1, 1),)))         # p2's two interceptors miss
    g.play(Action(CHANCE, "rolls", ((6,),)))           # p1: one plasma hit, one target kind
    assert dict(g.get("battle"))["state"][1] == ((0,),)   # one of p2's two left, undamaged


def test_case7_population_damage_points_kill_cubes():
    """Rules p.20 via the BGG wiki: each damage point kills a cube of the attacker's choice."""
    g = new(2)
    g.auto_chance = False
    _set(g, v__blueprint__0__interceptor=("plasma_cannon", "nuclear_source", "nuclear_drive", "empty"),
         v__techs__0=("tech_starbase", "tech_plasma_cannon"))
    _stage(g, FAR, "s301", ships=[(0, "interceptor")], controller=1,
           cubes=("0:money", "1:science", "2:materials"))
    _end_actions(g)
    g.play(Action(CHANCE, "rolls", ((6,),)))           # one plasma hit = 2 damage = 2 cubes
    g.play("p1 cube 2:materials")
    g.play("p1 cube 0:money")
    assert g.get("cubes", index=FAR) == ("1:science",)
    check_invariants(g)


def test_case8_and_12_retreat_instead_of_firing_not_in_the_missile_step():
    """SD rulebook (dized) and r/EclipseBG: attack or retreat, not both; retreat is announced on
    an engagement-round activation, so missiles fire first (BGG 736113 asks; our reading, M)."""
    g = new(2)
    g.auto_chance = False
    _set(g, v__blueprint__0__interceptor=("plasma_missile", "nuclear_source", "nuclear_drive", "ion_cannon"),
         v__techs__0=("tech_starbase", "tech_plasma_missile"))
    _stage(g, NEAR, "s105", ships=[(0, "interceptor")], npcs=["ancient"])
    _end_actions(g)
    d = g.state.pending[0]
    assert (d.player, d.label) == (CHANCE, "rolls")    # the missile volley comes first
    g.play(Action(CHANCE, "rolls", ((1, 1),)))
    assert g.state.pending[0].label == "retreat"        # then the engagement-round choice
    g.play("p1 retreat true")
    assert g.state.pending[0].label == "rolls"          # no cannon roll of p1: the Ancient fires


def test_case9_retreat_only_to_own_enemy_free_connected_hex():
    """SD wording (dized): a connected neighbour you control without enemy ships."""
    g = new(2)
    g.auto_chance = False
    _stage(g, NEAR, "s301", ships=[(0, "interceptor")], npcs=["ancient"])
    # the only connected hex p1 controls (the home, sector 221) holds an enemy ship; NEAR's
    # battle comes first (sector 301: battles go from the highest sector number down)
    _set(g, **{"v__ships__" + HOME: ((0, "interceptor"), (1, "interceptor"))},
         v__hexes=("0,0", NEAR, HOME, "-2,0"))
    _end_actions(g)
    assert dict(g.get("battle"))["h"] == NEAR
    d = g.state.pending[0]
    assert (d.player, d.label) == (CHANCE, "rolls")     # no retreat question for p1


def test_case10_npc_kills_alone_do_not_transfer_control():
    """BGG 1741108 quoting rules p.21: control is lost only to another player's ships in a hex
    without population at the end of combat."""
    g = new(2)
    g.auto_chance = False
    _stage(g, FAR, "s303", controller=1)                # p2's hex, no cubes, nobody there
    _stage(g, NEAR, "s105", controller=1)               # p2's hex, no cubes, p1's ship there
    _set(g, **{"v__ships__" + NEAR: ((0, "interceptor"),)})
    _end_actions(g)
    assert g.get("controller", index=FAR) == 1
    assert g.get("controller", index=NEAR) is None       # lost to p1's ship ...
    assert (g.state.pending[0].player, g.state.pending[0].label) == (0, "claim")   # ... p1 may claim


def test_case11_reverse_order_of_entry_and_later_retreats():
    """BGG 1642541 (open question). Our choice: battles go in reverse order of entry, the
    controller defending last; a party that retreats from the first battle is gone, the other
    one stays and fights the controller."""
    g = new(3)
    g.auto_chance = False
    h = "1,-1"
    _stage(g, h, "s303", controller=0,
           ships=[(0, "interceptor"), (1, "interceptor"), (2, "interceptor")])
    for p in range(3):
        g.play(f"p{p + 1} pass_turn")
    b = dict(g.get("battle"))
    assert (b["att"], b["dfn"]) == (2, 1)               # the two later entrants fight first


def test_case16_stalemate_both_stay():
    """Open (no 1st-edition ruling seen). Our choice: when no ship left can fire cannons the
    battle ends with both fleets in the hex (no population attack, no takeover); they fight
    again next round. combat.py's odds count it as a defender win."""
    g = new(2)
    g.auto_chance = False
    _set(g, v__blueprint__0__interceptor=("plasma_missile", "nuclear_source", "nuclear_drive", "empty"),
         v__blueprint__1__interceptor=("empty", "nuclear_source", "nuclear_drive", "empty"),
         v__techs__0=("tech_starbase", "tech_plasma_missile"))
    _stage(g, FAR, "s303", ships=[(1, "interceptor"), (0, "interceptor")])
    _end_actions(g)
    g.play(Action(CHANCE, "rolls", ((1, 1),)))          # the missiles miss; nothing can fire
    assert g.get("ships", index=FAR) == ((1, "interceptor"), (0, "interceptor"))
    assert g.get("battle") is None
