"""The population attack as rule-file procedure (``bombard`` in rules/phases.rules; Python only
lists the holders' cannon dice and says which hit): each damage point kills a cube [S rules p.20
via BGG, eclipse.md §4 case 7], the attacker choosing while there is a choice; with
``auto_combat`` or when the kills cover every cube, the latest placed die first [X]."""

from __future__ import annotations

import boardrules
from boardrules.game import Action
from boardrules.runtime import CHANCE

from .test_combat_play import FAR, _end_actions, _stage
from .test_game import check_invariants

CUBES = ("0:money", "1:science", "2:materials")


def _bombard(rolls, *, auto=False, ships=2):
    """p1's interceptors (one ion cannon each, no computer) in FAR against p2's three cubes;
    chance rolls ``rolls``; return the game."""
    g = boardrules.new_game("eclipse", players=2, seed=5, options={"auto_combat": auto})
    for p in (2, 1):
        g.play(f"p{p} pick_species terrans")
    g.auto_chance = False
    _stage(g, FAR, "s301", ships=[(0, "interceptor")] * ships, controller=1, cubes=CUBES)
    _end_actions(g)
    d = g.state.pending[0]
    assert (d.player, d.label, d.options.count) == (CHANCE, "rolls", ships)
    g.play(Action(CHANCE, "rolls", (tuple(rolls),)))
    return g


def test_sixes_hit_ones_miss_and_a_five_misses_without_a_computer():
    g = _bombard((5, 1))                           # no hit: every cube stays, nothing asked
    assert g.get("cubes", index=FAR) == CUBES and g.state.pending[0].label != "cube"
    g = _bombard((6, 5))                           # one hit: p1 picks the cube
    d = g.state.pending[0]
    assert (d.player, d.label, tuple(d.options)) == (0, "cube", CUBES)
    g.play("p1 cube 0:money")
    assert g.get("cubes", index=FAR) == CUBES[1:]
    check_invariants(g)


def test_auto_combat_kills_the_latest_cube_first():
    g = _bombard((6, 1), auto=True)
    assert g.get("cubes", index=FAR) == CUBES[:2]
    assert g.get("controller", index=FAR) == 1      # cubes are left: p2 keeps the hex
    check_invariants(g)


def test_kills_that_cover_every_cube_ask_nothing():
    g = _bombard((6, 6, 6), ships=3)
    assert g.get("cubes", index=FAR) == ()
    assert not any(d.label == "cube" for d in g.state.pending)
    check_invariants(g)


def test_each_kill_is_a_choice_while_cubes_outnumber_the_kills_left():
    g = _bombard((6, 6), ships=2)                  # two kills, three cubes: two choices
    before = (g.get("out_science", 1), g.get("out_materials", 1))
    g.play("p1 cube 1:science")
    d = g.state.pending[0]
    assert (d.label, tuple(d.options)) == ("cube", ("0:money", "2:materials"))
    g.play("p1 cube 2:materials")
    assert g.get("cubes", index=FAR) == ("0:money",)
    assert (g.get("out_science", 1), g.get("out_materials", 1)) == (before[0] - 1, before[1] - 1)
    check_invariants(g)
