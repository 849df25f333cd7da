"""Eclipse combat as players play it: hit assignment, retreat and bombardment targets are
decisions (eclipse.md §4 cases 6-9, 12); the ``auto_combat`` option hands them to combat.py."""

from __future__ import annotations

import random

import boardrules
from boardrules.game import Action
from boardrules.runtime import CHANCE

from .test_game import check_invariants, new

FAR = "0,-3"     # not adjacent to either 2-player home ("2,0", "-2,0")
NEAR = "1,0"     # next to p1's home "2,0" (home edge 3 = west)


def _stage(g, h, sector, ships=(), npcs=(), controller=None, cubes=(), rotation=0):
    st = dict(g.state.values)
    st[("v", "hexes")] = st[("v", "hexes")] + (h,)
    st[("v", "sector_at", h)] = sector
    st[("v", "rotation_at", h)] = rotation
    st[("v", "ships", h)] = tuple(ships)
    st[("v", "npcs", h)] = tuple(npcs)
    if controller is not None:
        st[("v", "controller", h)] = controller
        st[("c", "disc", controller)] -= 1
        st[("v", "cubes", h)] = tuple(cubes)
        for c in cubes:
            key = ("v", "out_" + c.split(":")[1], controller)
            st[key] = st.get(key, 0) + 1
    g.state = type(g.state)(st, g.state.pending)


def _end_actions(g):
    g.play("p1 pass_turn")
    g.play("p2 pass_turn")


def attacker_win_rate(g, h, runs, seed) -> float:
    """Play the battle staged in ``g`` (``auto_combat``: every decision is a volley's dice)
    ``runs`` times with random dice; the share the attacker (p1) wins: no p2 ship left in ``h``."""
    staged = g.state
    rng = random.Random(seed)
    wins = 0
    for _ in range(runs):
        g.state = staged
        _end_actions(g)
        while g.get("battle"):
            d = g.state.pending[0]
            assert (d.player, d.label) == (CHANCE, "rolls"), d
            g.play(Action(CHANCE, "rolls", (tuple(rng.randint(1, 6) for _ in range(d.options.count)),)))
        wins += not any(owner == 1 for owner, _ in g.get("ships", index=h))
    g.state = staged
    return wins / runs


def two_hits_to_assign():
    """p2's interceptor and cruiser defend against p1's two interceptors; p2 fires first on the
    initiative tie and misses, p1's two dice hit: p1 has two hits to assign."""
    g = new(2)
    g.auto_chance = False
    _stage(g, FAR, "s303", ships=[(1, "interceptor"), (1, "cruiser"), (0, "interceptor"),
                                  (0, "interceptor")])
    _end_actions(g)
    # p2 (the defender: first to arrive) fires first on the initiative tie: a miss
    g.play(Action(CHANCE, "rolls", ((1,),)))
    # p1's two interceptors: two 6s -> two 1-damage hits for p1 to assign
    g.play(Action(CHANCE, "rolls", ((6, 6),)))
    return g


def test_player_assigns_hits_die_by_die():
    """Rules p.19 via BGG wiki (eclipse.md §4 case 6): one die's damage goes to one ship, the
    firing player chooses which."""
    g = two_hits_to_assign()
    d = g.state.pending[0]
    assert (d.player, d.label) == (0, "hit")
    assert set(d.options) == {"interceptor:0", "cruiser:0"}
    g.play("p1 hit cruiser:0")
    assert set(g.state.pending[0].options) == {"interceptor:0", "cruiser:1"}
    assert g.parse("p1 hit cruiser:1") == Action(0, "hit", ("cruiser:1",))
    g.play("p1 hit cruiser:1")              # the cruiser (hull 1) takes its second damage: gone
    # the cruiser is dead, so round 2 begins with p2's interceptor
    d = g.state.pending[0]
    assert (d.player, d.label) == (CHANCE, "rolls")
    g.play(Action(CHANCE, "rolls", ((6,),)))   # p2 kills one of p1's interceptors (forced)
    g.play(Action(CHANCE, "rolls", ((6,),)))   # p1's survivor: one hit, one target: no question
    assert g.get("ships", index=FAR) == ((0, "interceptor"),)
    assert g.get("rep_owed", 0) == (4,)        # 1 + cruiser (2) + interceptor (1) [M]
    check_invariants(g)


def test_forced_hits_ask_nothing():
    g = new(2)
    g.auto_chance = False
    _stage(g, FAR, "s303", ships=[(1, "interceptor"), (0, "interceptor")])
    _end_actions(g)
    g.play(Action(CHANCE, "rolls", ((1,),)))
    g.play(Action(CHANCE, "rolls", ((6,),)))
    assert g.get("ships", index=FAR) == ((0, "interceptor"),)


def test_auto_combat_option_uses_the_policy():
    g = boardrules.new_game("eclipse", players=2, options={"auto_combat": True})
    for p in (1, 0):
        g.play(Action(p, "pick_species", ("terrans",)))
    g.auto_chance = False
    _stage(g, FAR, "s303", ships=[(1, "interceptor"), (1, "cruiser"), (0, "interceptor"),
                                  (0, "interceptor")])
    _end_actions(g)
    g.play(Action(CHANCE, "rolls", ((1,),)))
    g.play(Action(CHANCE, "rolls", ((6, 6),)))
    # no question: combat.py's focus-fire policy assigned both hits (one ship destroyed)
    assert g.state.pending[0].player == CHANCE
    assert sum(len(t) for t in dict(g.get("battle"))["state"][1]) == 1


def test_retreat_announced_then_leaves_next_round():
    """eclipse.md §4 cases 8, 9, 12: retreat is announced on an engagement-round activation
    instead of firing; the ships may be hit meanwhile and leave at their next activation for an
    adjacent, connected hex their owner controls without enemy ships."""
    g = new(2)
    g.auto_chance = False
    # s105 at rotation 0 has a wormhole on edge 0, which meets the home's edge 3
    _stage(g, NEAR, "s105", ships=[(0, "interceptor"), (0, "interceptor")], npcs=["ancient"])
    _end_actions(g)
    d = g.state.pending[0]
    assert (d.player, d.label, d.options) == (0, "retreat", (False, True))
    g.play("p1 retreat true")
    g.play(Action(CHANCE, "rolls", ((6, 1),)))     # the Ancient destroys one announced interceptor
    d = g.state.pending[0]
    assert (d.player, d.label, d.options) == (0, "retreat_to", ("2,0",))
    g.play("p1 retreat_to 2,0")
    assert g.get("ships", index=NEAR) == ()
    assert g.get("ships", index="2,0") == ((0, "interceptor"), (0, "interceptor"))
    assert g.get("npcs", index=NEAR) == ("ancient",)
    assert g.state.pending[0].label == "rep_tile"  # took part: 1 reputation draw, no kills
    check_invariants(g)


def test_a_starbase_never_retreats():
    """A retreat is a move and a starbase cannot move (no drive: eclipse-data.md, the class's
    ``mobile``): the starbase fires (no retreat question) though a retreat hex exists; the
    interceptor beside it still may retreat."""
    g = new(2)
    g.auto_chance = False
    _stage(g, NEAR, "s105", ships=[(0, "starbase"), (0, "interceptor")], npcs=["ancient"])
    _end_actions(g)
    d = g.state.pending[0]
    assert (d.player, d.label) == (CHANCE, "rolls")     # the starbase (initiative 4) fires
    g.play(Action(CHANCE, "rolls", ((1,) * d.options.count,)))
    d = g.state.pending[0]
    assert (d.player, d.label, d.options) == (0, "retreat", (False, True))   # the interceptor


def test_no_retreat_without_a_controlled_connected_hex():
    g = new(2)
    g.auto_chance = False
    # s101 has no wormhole on printed edge 0: not connected to the home, so no retreat question
    _stage(g, NEAR, "s101", ships=[(0, "interceptor")], npcs=["ancient"])
    _end_actions(g)
    d = g.state.pending[0]
    assert (d.player, d.label) == (CHANCE, "rolls")


def test_bombardment_targets_chosen_by_attacker():
    """Rules p.20 via BGG wiki (eclipse.md §4 case 7): each damage point kills a population cube
    of the attacker's choice."""
    g = new(2)
    g.auto_chance = False
    _stage(g, FAR, "s301", ships=[(0, "interceptor"), (0, "interceptor")], controller=1,
           cubes=("0:money", "1:science"))
    _end_actions(g)
    d = g.state.pending[0]
    assert (d.player, d.label) == (CHANCE, "rolls")
    g.play(Action(CHANCE, "rolls", ((6, 2),)))     # one hit: one cube, p1 picks it
    d = g.state.pending[0]
    assert (d.player, d.label, set(d.options)) == (0, "cube", {"0:money", "1:science"})
    g.play("p1 cube 1:science")
    assert g.get("cubes", index=FAR) == ("0:money",)
    assert g.get("out_science", 1) == 1 and g.get("out_money", 1) == 2
    assert g.get("controller", index=FAR) == 1     # a cube is left: p2 keeps the hex
    check_invariants(g)
