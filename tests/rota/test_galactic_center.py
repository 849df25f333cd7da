"""Rise of the Ancients, the Galactic Center takeover (``-m galactic-center-takeover``)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

import boardrules
from boardrules import Action
from boardrules.runtime import Context
from boardrules_eclipse.primitives import npc_type
from boardrules_eclipse.battle import battle_regenerate
from tests.eclipse.test_combat_play import FAR, _end_actions, _stage
from tests.eclipse.test_edge_cases import _set

from .common import SETTINGS, play_random

SIDES = ("ancient_dreadnought_regen", "ancient_dreadnought_missiles")
CHANCE = -1


def _centre(g):
    return next(h for h in g.get("hexes") if g.get("sector_at", index=h) == "s001")


def takeover_invariant(g) -> None:
    """No GCDS anywhere; at most one Ancient dreadnought, only in the centre, and the side the
    module laid; the takeover VP is given at most once, and only after it is gone."""
    dreads = [(h, n) for h in g.get("hexes") for n in g.get("npcs", index=h) if n in SIDES]
    assert not any("gcds" in g.get("npcs", index=h) for h in g.get("hexes"))
    assert len(dreads) <= 1
    if dreads:
        assert dreads[0] == (g.get("takeover_hex"), g.get("takeover_npc"))
    tiles = sum(g.get("takeover_tiles", p) for p in range(g.players))
    assert tiles == (0 if dreads or g.get("takeover_hex") is None else 1)
    if g.over:
        assert sum(s["sources"].get("score_takeover", 0) for s in g.scores()) == tiles


def _start(seed=2, side=None, players=2):
    """A game after species picks; with ``side``, the first seed from ``seed`` on whose draw
    laid that side of the dreadnought."""
    while True:
        g = boardrules.new_game("eclipse", players=players, seed=seed,
                                modules=["galactic-center-takeover"])
        for p in range(players, 0, -1):
            g.play(f"p{p} pick_species terrans")
        if side is None or g.get("takeover_npc") == side:
            return g
        seed += 1


def test_the_dreadnought_replaces_the_gcds_on_either_side():
    """Seed: the Ancient dreadnought, on a random side, instead of the centre's defense system."""
    seen = set()
    for side in SIDES:
        g = _start(side=side)
        assert g.get("npcs", index=_centre(g)) == (side,)
        seen.add(g.get("takeover_npc"))
        takeover_invariant(g)
    assert seen == set(SIDES)
    base = boardrules.new_game("eclipse", players=2, seed=2)
    for p in (2, 1):
        base.play(f"p{p} pick_species terrans")
    assert base.get("npcs", index=_centre(base)) == ("gcds",)


def test_dreadnought_stats_reach_the_combat_engine():
    """eclipse-rota.md §4 [D J]: side 1 regenerates, side 2 fires 4 ion missiles and an
    antimatter cannon (the same ship types the odds calculator solves)."""
    g = _start()
    ctx = Context(g.ruleset, g.state.values, me=0)
    regen, missiles = (npc_type(ctx, n) for n in SIDES)
    assert (regen.initiative, regen.hull, regen.computer, regen.cannons, regen.missiles,
            regen.regenerate) == (3, 5, 2, (2, 2), (), 1)
    assert (missiles.initiative, missiles.hull, missiles.cannons, missiles.missiles) == (4, 3, (4,), (1, 1, 1, 1))


def test_regeneration_removes_one_damage_after_each_engagement_round():
    """Seed: Regeneration removes one damage cube after each engagement round; ships without it
    keep theirs."""
    g = _start()
    g.auto_chance = False
    _stage(g, FAR, "s303", ships=[(0, "interceptor")], npcs=["ancient_dreadnought_regen", "ancient"])
    _end_actions(g)
    b = dict(g.get("battle"))
    b.update(state=(b["state"][0], ((3,), (1,))))
    _set(g, v__battle=tuple(sorted(b.items())))
    ctx = Context(g.ruleset, g.state.values, me=0)
    battle_regenerate.fn(ctx)
    after = dict(ctx.merged()[("v", "battle")])
    assert after["state"][1] == ((2,), (1,))       # the dreadnought 3 -> 2, the Ancient keeps 1


def test_destroying_it_gives_one_vp_and_three_draws():
    """Seed: 1 VP (its tile) and three reputation draws to the player who destroys it."""
    g = _start(side="ancient_dreadnought_missiles")
    g.auto_chance = False
    centre = _centre(g)
    _set(g, **{f"v__ships__{centre}": ((0, "cruiser"),),
               "v__blueprint__0__cruiser": ("antimatter_cannon", "antimatter_cannon", "tachyon_source",
                                             "nuclear_drive", "electron_computer", "hull")})
    _end_actions(g)
    while g.get("battle"):
        d = g.state.pending[0]
        if d.label == "rolls":    # our cruiser's 2 dice hit; the dreadnought's 4 missiles, 1 cannon miss
            g.play(Action(CHANCE, "rolls", ((6 if d.options.count == 2 else 1,) * d.options.count,)))
        else:
            g.play(Action(d.player, d.label, (d.options[-1] if d.label != "retreat" else False,)))
    assert g.get("npcs", index=centre) == () and g.get("takeover_npc") is None
    assert g.get("takeover_tiles", 0) == 1 and g.get("takeover_tiles", 1) == 0
    assert g.get("rep_owed", 0) == (1 + 3,)
    takeover_invariant(g)
    while not g.over:                        # its tile is 1 VP at the end
        legal = list(g.legal_actions())
        g.play(next((a for a in legal if a.name in ("pass_turn", "done")), legal[0]))
    assert g.scores()[0]["sources"]["score_takeover"] == 1
    takeover_invariant(g)


@SETTINGS
@given(data=st.data())
def test_random_games_with_the_takeover(data):
    play_random(data, ("galactic-center-takeover",), takeover_invariant, prefer=("move",))
