"""Rise of the Ancients, the Ancient hives (``-m hives``)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

import boardrules
from boardrules import Action
from boardrules_eclipse import galaxy as G
from tests.eclipse.test_combat_play import FAR, _end_actions, _stage
from tests.eclipse.test_edge_cases import _set
from tests.conftest import rules_file
from tests.eclipse.test_invariants import check_invariants

from .common import SETTINGS, play_random
from .test_rare_techs import _give

CHANCE = -1
HIVES = ("s212", "s319")
HIVE = "hive_ancient"
ANCIENTS = (HIVE, "ancient")
BESIDE = "0,-2"     # FAR's neighbour in direction 1 (ring II)


def hives_invariant(g) -> None:
    """A hive never holds more than three Ancients; each hive sector is in play at most once (its
    ring's stack or the board); hive Ancients number at most three per hive laid."""
    hexes = g.get("hexes")
    placed = [h for h in hexes if g.get("sector_at", index=h) in HIVES]
    for h in placed:
        assert sum(n in ANCIENTS for n in g.get("npcs", index=h)) <= 3, (h, g.get("npcs", index=h))
    for s in HIVES:
        where = [h for h in hexes if g.get("sector_at", index=h) == s]
        stacked = (g.get("stack_middle") + g.get("stack_outer")).count(s)
        assert len(where) + stacked <= 1, s
    assert sum(g.get("npcs", index=h).count(HIVE) for h in hexes) <= 3 * len(placed)


def _start(species=("terrans", "terrans"), modules=("hives",)):
    g = boardrules.new_game("eclipse", players=2, seed=3, modules=list(modules))
    for p in (2, 1):
        g.play(f"p{p} pick_species {species[p - 1]}")
    g.auto_chance = False
    return g


def _house(text):
    return rules_file(text)


def test_hive_sectors_join_their_stacks():
    """Seed: the two hive hexes are shuffled into the ring II and ring III stacks at setup."""
    g = _start()
    assert "s212" in g.get("stack_middle") and "s319" in g.get("stack_outer")
    plain = boardrules.new_game("eclipse", players=2, seed=3)
    assert "s212" not in plain.get("stack_middle")


def _explore_ring_two(g, sector):
    g.play("p1 explore")
    space = next(s for s in g.state.pending[0].options if G.ring(tuple(map(int, s.split(",")))) == 2)
    g.play(f"p1 space {space}")
    g.play(Action(CHANCE, "sector", (sector,)))
    return space


def test_a_placed_hive_holds_three_hive_ancients():
    """Seed: each hive holds three basic Ancient ships (2 / 1 / +1 / 0, two ion cannons); no disc
    goes on it while they are there."""
    g = _start()
    space = _explore_ring_two(g, "s212")
    g.play(f"p1 rotation {g.state.pending[0].options[0]}")
    assert g.get("npcs", index=space) == (HIVE,) * 3
    assert not any(d.label == "claim" and d.options for d in g.state.pending)
    rs = g.ruleset.entities[HIVE].fields
    assert (rs["initiative"], rs["hull"], rs["computer"], rs["shield"], tuple(rs["cannons"])) == (2, 1, 1, 0, (1, 1))
    hives_invariant(g)


def test_draco_discards_a_drawn_hive_and_draws_again():
    """Seed: if the Descendants of Draco draw a hive while exploring, they discard it and draw
    another (then keep one of their two draws as usual)."""
    g = _start(species=("draco", "terrans"))
    _explore_ring_two(g, "s212")
    d = g.state.pending[0]
    assert (d.player, d.label) == (CHANCE, "sector") and "s212" not in d.options
    assert "s212" not in g.get("stack_middle")
    g.play(Action(CHANCE, "sector", ("s201",)))
    g.play(Action(CHANCE, "sector", ("s202",)))
    assert set(g.state.pending[0].options) == {"s201", "s202"}
    hives_invariant(g)


def _stage_hive(g, h, sector, npcs=(), rotation=0):
    """Lay hive ``sector`` at ``h`` (taken out of its stack) with ``npcs``."""
    stack = "stack_middle" if sector == "s212" else "stack_outer"
    _set(g, **{f"v__{stack}": tuple(x for x in g.get(stack) if x != sector)})
    _stage(g, h, sector, npcs=npcs, rotation=rotation)


def _chance_until(g, label):
    """Play the first legal outcome of every chance decision before one labelled ``label``."""
    while g.state.pending and g.state.pending[0].player == CHANCE and g.state.pending[0].label != label:
        g.play(next(iter(g.legal_actions())))


def _to_cleanup(g):
    _end_actions(g)
    _chance_until(g, "hive_die")
    d = g.state.pending[0]
    assert (d.player, d.label) == (CHANCE, "hive_die")
    return d


def test_hive_die_moves_one_ancient_through_the_marked_side():
    """Seed: at the end of Cleanup a die per hive; if an explored hex lies on the side marked with
    the face rolled, one Ancient moves there (face f on printed edge f - 1 [X], turned with the
    tile). An unexplored side moves nothing."""
    for rotation, face, moves in ((0, 2, True), (1, 1, True), (0, 1, False), (1, 2, False)):
        g = _start()
        _stage_hive(g, FAR, "s319", npcs=[HIVE] * 3, rotation=rotation)
        _stage(g, BESIDE, "s201")
        _to_cleanup(g)
        g.play(Action(CHANCE, "hive_die", ((face,),)))
        assert g.get("npcs", index=FAR) == (HIVE,) * (2 if moves else 3), (rotation, face)
        assert g.get("npcs", index=BESIDE) == ((HIVE,) if moves else ()), (rotation, face)
        check_invariants(g)
        hives_invariant(g)


def test_no_die_for_an_empty_hive_and_none_after_the_last_round():
    g = _start()
    _stage_hive(g, FAR, "s319", npcs=[])
    _end_actions(g)
    _chance_until(g, "hive_die")
    assert not any(d.label == "hive_die" for d in g.state.pending)
    g = boardrules.new_game("eclipse", players=2, seed=3, modules=["hives"], options={"rounds": 1})
    for p in (2, 1):
        g.play(f"p{p} pick_species terrans")
    g.auto_chance = False
    _stage_hive(g, FAR, "s319", npcs=[HIVE] * 3)
    _end_actions(g)
    assert g.over


def test_a_full_hive_takes_no_fourth_ancient():
    """Two hives side by side: an Ancient does not move into a hive holding three [X]."""
    g = _start()
    _stage_hive(g, FAR, "s319", npcs=[HIVE] * 3)
    _stage_hive(g, BESIDE, "s212", npcs=[HIVE] * 3)
    _end_actions(g)
    _chance_until(g, "hive_die")
    for face in (2, 5):                     # both hives roll; each would send one to the other
        d = g.state.pending[0]
        assert d.label == "hive_die"
        g.play(Action(CHANCE, "hive_die", ((face,),)))
    assert g.get("npcs", index=FAR) == (HIVE,) * 3 and g.get("npcs", index=BESIDE) == (HIVE,) * 3
    hives_invariant(g)


def test_hive_ancients_neutron_bomb_a_hex_they_hold():
    """Seed: hive Ancients destroy population at the end of combat as Neutron Bombs do; the disc
    stays [X]; Draco's cubes are never bombed."""
    for species, survive in (("terrans", ()), ("draco", ("0:money", "1:science"))):
        g = _start(species=("terrans", species))
        _stage(g, FAR, "s301", npcs=[HIVE], controller=1, cubes=("0:money", "1:science"))
        out = g.get("out_money", 1) + g.get("out_science", 1)
        _end_actions(g)
        assert g.get("cubes", index=FAR) == survive, species
        assert g.get("controller", index=FAR) == 1
        assert g.get("out_money", 1) + g.get("out_science", 1) == out - 2 + len(survive)
        check_invariants(g)


def test_hive_ancients_roll_against_a_shielded_population_money_first():
    """Seed: against the Neutron Absorber the Ancients try to destroy money, then science, then
    materials cubes (they roll their cannons; the rare technologies' Neutron Absorber)."""
    g = _start(modules=("hives", "rare-technologies"))
    _give(g, 1, "tech_neutron_absorber")
    _stage(g, FAR, "s301", npcs=[HIVE], controller=1, cubes=("2:materials", "1:science", "0:money"))
    money, science = g.get("out_money", 1), g.get("out_science", 1)
    _end_actions(g)
    d = g.state.pending[0]
    assert (d.player, d.label) == (CHANCE, "rolls")
    g.play(Action(CHANCE, "rolls", ((6, 5),)))        # +1 computer: both hit, 2 damage
    assert g.get("cubes", index=FAR) == ("2:materials",)
    assert (g.get("out_money", 1), g.get("out_science", 1)) == (money - 1, science - 1)
    check_invariants(g)


def test_hive_ancients_score_for_draco():
    """Seed: hive Ancients alive at the end give the Descendants of Draco their VP."""
    totals = []
    for npcs in ((), (HIVE, HIVE)):
        g = boardrules.new_game("eclipse", players=2, seed=3, modules=["hives"], options={"rounds": 1})
        g.play("p2 pick_species terrans")
        g.play("p1 pick_species draco")
        g.auto_chance = False
        _stage(g, FAR, "s301", npcs=list(npcs))
        _end_actions(g)
        assert g.over
        totals.append(g.scores()[0]["sources"].get("score_species", 0))
    assert totals[1] - totals[0] == 2


@SETTINGS
@given(data=st.data())
def test_random_games_with_hives(data):
    # Short stacks now and then, so that the hives come out early and their Ancients roam.
    short = _house("override var stack_middle: list[sector] = [s201, s202] hidden\n"
                   "override var stack_outer: list[sector] = [s301, s302] hidden\n")
    g = play_random(data, ("hives",), hives_invariant, prefer=("explore", "move"),
                    money=data.draw(st.sampled_from([0, 30])),
                    rules=[short] if data.draw(st.booleans(), label="short stacks") else [])
    assert g.ruleset.modules == ("hives",)


def test_draco_fights_only_the_hostile_npcs_beside_a_hive_ancient():
    """Seed: a hive Ancient that moves into an Ancient homeworld is not fought by Draco, only the
    cruiser is (here the GCDS stands in for a hostile NPC); the peaceful Ancient stays out of the
    battle's NPC fleet and survives it."""
    g = _start(species=("draco", "terrans"))
    _stage(g, FAR, "s301", ships=[(0, "interceptor")], npcs=["gcds", HIVE])
    _end_actions(g)
    b = dict(g.get("battle"))
    assert b["dfn"] == "npc" and len(b["state"][1]) == 1     # one NPC type: the GCDS alone
    while g.get("battle"):
        d = g.state.pending[0]
        if d.label == "rolls":      # every die misses: a stalemate, both stay
            g.play(Action(CHANCE, "rolls", ((1,) * d.options.count,)))
        else:
            g.play(Action(d.player, d.label, (d.options[-1] if d.label != "retreat" else False,)))
    assert HIVE in g.get("npcs", index=FAR)
    check_invariants(g)
