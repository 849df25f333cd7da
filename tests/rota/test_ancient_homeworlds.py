"""Rise of the Ancients, Ancient homeworlds (``-m ancient-homeworlds``): the seed's rules for the
homeworld hexes and their Ancient cruisers."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import boardrules
from boardrules import Action, IllegalActionError
from boardrules.runtime import Context
from boardrules_eclipse import galaxy as G
from boardrules_eclipse.primitives import NPC, _galaxy, _pos, npc_type
from boardrules_eclipse.battle import _fleet, battle_hexes
from tests.eclipse.test_combat_play import _end_actions
from tests.eclipse.test_edge_cases import _set

from .common import SETTINGS, play_random

HOMEWORLDS = ("s271", "s272", "s273", "s274")
CRUISERS = tuple(f"ancient_cruiser_{x}" for x in "abcdefgh")
CHANCE = -1
MODULE = "ancient-homeworlds"


def homeworld_hexes(g) -> list:
    return [h for h in g.get("hexes") if g.get("sector_at", index=h) in HOMEWORLDS]


def homeworlds_invariant(g) -> None:
    """Homeworlds lie only on the start positions no player uses, each at most once, one per such
    position; an Ancient cruiser lies only on a homeworld, at most one each, and while it lives
    nobody controls that hex (influence only after the cruiser is destroyed); every cruiser laid
    is either still there or one tile kept by a player, and the tiles are the VP scored."""
    if g.state.values.get(("f", "stage"), 0) < 1:
        return
    homes = homeworld_hexes(g)
    empty = [f"{q},{r}" for q, r in G.galaxy_layout(g.players).homeworld_positions]
    if "secret-homeworlds" not in g.ruleset.modules:   # that variant shuffles them into ring II
        assert sorted(homes) == sorted(empty)
    assert len({g.get("sector_at", index=h) for h in homes}) == len(homes)
    alive = 0
    for h in g.get("hexes"):
        cruisers = [n for n in g.get("npcs", index=h) if n in CRUISERS]
        live = g.get("homeworld_cruiser", index=h)
        if h not in homes:
            assert not cruisers and live is None, h
            continue
        assert len(cruisers) <= 1
        assert cruisers == ([live] if live else []), (h, cruisers, live)
        if live:
            alive += 1
            assert g.get("controller", index=h) is None, f"a disc on {h}, whose cruiser lives"
    tiles = sum(g.get("cruiser_tiles", p) for p in range(g.players))
    assert alive + tiles <= len(homes)
    if g.over:
        assert sum(s["sources"].get("score_cruisers", 0) for s in g.scores()) == tiles


def _start(players=2, seed=2, species="terrans", cruiser=None):
    """A game after the species picks; with ``cruiser``, the first seed from ``seed`` on whose
    setup laid that cruiser. 7-9 players: with the nine-players module."""
    while True:
        g = boardrules.new_game("eclipse", players=players, seed=seed,
                                modules=[MODULE] + (["nine-players"] if players > 6 else []))
        while any(a.name == "pick_species" for a in g.legal_actions()):
            legal = [a for a in g.legal_actions() if a.name == "pick_species"]
            want = [a for a in legal if a.args == ((species if a.player == 0 else "terrans"),)]
            g.play((want or legal)[0])
        hw = [h for h in homeworld_hexes(g) if cruiser in (None, g.get("homeworld_cruiser", index=h))]
        if cruiser is None or hw:
            return g, (hw + [None])[0]
        seed += 1


@pytest.mark.parametrize("players,laid", [(2, 4), (3, 3), (4, 2), (5, 1), (6, 0), (7, 2), (8, 1), (9, 0)])
def test_homeworlds_fill_the_empty_start_positions(players, laid):
    """Seed: with fewer than six players the empty start positions take a random homeworld, a
    discovery tile and a random Ancient cruiser each; with six none is empty; with 7 or 8 the
    missing players' positions of the 9-player layout take them."""
    g, _ = _start(players)
    homes = homeworld_hexes(g)
    assert len(homes) == laid
    for h in homes:
        assert g.get("discovery_at", index=h)
        (cruiser,) = g.get("npcs", index=h)
        assert cruiser in CRUISERS and g.get("homeworld_cruiser", index=h) == cruiser
        # turned like a home sector: a wormhole toward the centre
        pos = _pos(h)
        inner = next(nb for nb in G.neighbours(pos) if G.distance(nb) < G.distance(pos))
        edge = G.edge_between(pos, inner)
        assert _galaxy(Context(g.ruleset, g.state.values)).has_wormhole(pos, edge)
    assert len(g.get("cruiser_bag")) == 8 - laid and len(g.get("homeworld_bag")) == 4 - laid
    if laid:   # hidden: only the size of the pile (values at their defaults are not listed)
        assert g.view(0)["values"][("v", "cruiser_bag")] == ("hidden", 8 - laid)
    homeworlds_invariant(g)


def test_homeworld_hexes_hold_the_printed_contents():
    """eclipse-rota.md §6 [D J]: 3 VP, wormholes 110110, the planets of each homeworld."""
    g, _ = _start()
    f = lambda s, k: g.ruleset.entities[s].fields[k]  # noqa: E731
    assert [f(s, "vp") for s in HOMEWORLDS] == [3, 3, 3, 3]
    assert all(f(s, "wormholes") == (0, 1, 3, 4) and f(s, "discovery") for s in HOMEWORLDS)
    assert [f(s, "planets") for s in HOMEWORLDS] == [
        ("money", "science", "materials*"), ("money", "science*", "materials"),
        ("money", "materials", "materials*"), ("money", "science", "science*")]


# init / hull / computer / shield / cannons / missiles, eclipse-rota.md §4 [D J]
STATS = {"a": (0, 4, 3, 0, (4,), ()), "b": (0, 2, 1, 1, (1, 1, 1, 1), ()),
         "c": (4, 2, 2, 0, (1, 1, 1), ()), "d": (1, 1, 2, 0, (1, 1), (2, 2)),
         "e": (2, 1, 2, 0, (2,), (4,)), "f": (2, 4, 2, 0, (1, 1), ()),
         "g": (3, 2, 1, 0, (2, 2), ()), "h": (0, 2, 1, 3, (1, 1, 1), ())}


@pytest.mark.parametrize("tile", sorted(STATS))
def test_cruiser_stats_reach_the_combat_engine(tile):
    g, _ = _start()
    t = npc_type(Context(g.ruleset, g.state.values, me=0), f"ancient_cruiser_{tile}")
    assert (t.initiative, t.hull, t.computer, t.shield, t.cannons, t.missiles) == STATS[tile]
    assert g.ruleset.entities[f"ancient_cruiser_{tile}"].fields["kill_draws"] == 2     # [S]
    assert g.ruleset.entities[f"ancient_cruiser_{tile}"].fields["peaceful_with"] == ()  # Draco too


@pytest.mark.parametrize("tile,flag", [("e", "distortion_shield"), ("f", "point_defense"), ("a", None),
                                       ("d", None)])
def test_distortion_shield_and_point_defense_ride_with_their_cruisers(tile, flag):
    """Seed: Distortion Shield and Point Defense on the cruisers that carry them (E and F [D J]),
    as the rare technologies: the NPC side's fleet gets the flag."""
    g, hw = _start(cruiser=f"ancient_cruiser_{tile}")
    fleet = _fleet(Context(g.ruleset, g.state.values, me=0), hw, NPC)
    got = {f for f in ("distortion_shield", "point_defense", "antimatter_splitter") if getattr(fleet, f)}
    assert got == ({flag} if flag else set()) and fleet.npc


def test_cruiser_f_fires_point_defense_at_incoming_missiles():
    """Seed (Point Defense): after the enemy's missiles are rolled, its cannons fire once at them;
    the NPC removes missiles by combat.py's rule, then the rest land."""
    g, hw = _start(cruiser="ancient_cruiser_f")
    g.auto_chance = False
    _set(g, **{f"v__ships__{hw}": ((0, "cruiser"),),
               "v__blueprint__0__cruiser": ("ion_cannon", "hull", "plasma_missile", "nuclear_source",
                                             "nuclear_drive", "electron_computer")})
    _end_actions(g)
    g.play(Action(CHANCE, "rolls", ((6, 6),)))      # p1's two plasma missiles hit
    while g.state.pending[0].label == "hit":
        d = g.state.pending[0]
        g.play(Action(d.player, "hit", (d.options[0],)))
    d = g.state.pending[0]
    assert (d.player, d.label) == (CHANCE, "rolls") and d.options.count == 2   # F's two ion dice
    assert dict(g.get("battle"))["pd"] == "roll"
    g.play(Action(CHANCE, "rolls", ((6, 1),)))      # one missile shot down
    after = dict(g.get("battle"))
    assert after.get("pd") is None and after["state"][1] == ((2,),)   # the other's 2 damage landed
    homeworlds_invariant(g)


def test_no_influence_disc_while_the_cruiser_lives():
    """Seed: an influence disc may be placed on a homeworld only after its cruiser is destroyed."""
    g, hw = _start()
    _set(g, **{f"v__ships__{hw}": ((0, "interceptor"),)})   # in reach: p1's ship is there
    g.play("p1 influence")
    assert hw not in g.state.pending[0].options
    before = g.state
    with pytest.raises(IllegalActionError):
        g.play(f"p1 target {hw}")
    assert g.state == before
    g2, hw2 = _start()
    _set(g2, **{f"v__ships__{hw2}": ((0, "interceptor"),), f"v__npcs__{hw2}": ()})
    g2.play("p1 influence")
    assert hw2 in g2.state.pending[0].options      # the cruiser gone: the disc may go there


def test_draco_must_fight_the_cruiser():
    """Seed: the Descendants of Draco must fight the cruiser (unlike ordinary Ancients)."""
    g, hw = _start(species="draco")
    assert g.get("species_of", 0) == "draco"
    _set(g, **{f"v__ships__{hw}": ((0, "interceptor"),)})
    assert hw in battle_hexes.fn(Context(g.ruleset, g.state.values, me=0))
    _set(g, **{f"v__npcs__{hw}": ("ancient",)})
    assert battle_hexes.fn(Context(g.ruleset, g.state.values, me=0)) == ()


def test_draco_fight_only_the_cruiser_beside_a_hive_ancient():
    """Seed (hives): if a hive Ancient moves into an Ancient homeworld, Draco may not fight it,
    only the cruiser; everyone else fights both."""
    for species, expected in (("draco", ("ancient_cruiser_g",)),
                              ("terrans", ("ancient_cruiser_g", "hive_ancient"))):
        g = boardrules.new_game("eclipse", players=2, seed=7, modules=[MODULE, "hives"])
        g.play("p2 pick_species terrans")
        g.play(f"p1 pick_species {species}")
        hw = homeworld_hexes(g)[0]
        _set(g, **{f"v__ships__{hw}": ((0, "interceptor"),),
                   f"v__npcs__{hw}": ("ancient_cruiser_g", "hive_ancient")})
        fleet = _fleet(Context(g.ruleset, g.state.values, me=0), hw, NPC, 0)
        assert tuple(t.name for t in fleet.types) == expected, species


def test_destroying_it_gives_one_vp_and_two_draws():
    """Seed: its destroyer keeps the tile face down (1 VP at the end) and makes two reputation
    draws (plus one for fighting)."""
    g, hw = _start(cruiser="ancient_cruiser_g")
    g.auto_chance = False
    _set(g, **{f"v__ships__{hw}": ((0, "cruiser"),),
               "v__blueprint__0__cruiser": ("antimatter_cannon", "antimatter_cannon", "ion_cannon",
                                             "tachyon_source", "electron_computer", "hull")})
    _end_actions(g)
    while g.get("battle"):
        d = g.state.pending[0]
        if d.label == "rolls":    # the Ancient cruiser's 2 dice miss; our 3 hit
            g.play(Action(CHANCE, "rolls", ((6 if d.options.count == 3 else 1,) * d.options.count,)))
        else:
            g.play(Action(d.player, d.label, (d.options[-1] if d.label != "retreat" else False,)))
    assert g.get("npcs", index=hw) == () and g.get("homeworld_cruiser", index=hw) is None
    assert g.get("cruiser_tiles", 0) == 1 and g.get("cruiser_tiles", 1) == 0
    assert g.get("rep_owed", 0) == (1 + 2,)
    homeworlds_invariant(g)
    while not g.over:
        legal = list(g.legal_actions())
        g.play(next((a for a in legal if a.name in ("pass_turn", "done", "claim")), legal[0]))
    assert g.scores()[0]["sources"]["score_cruisers"] == 1
    homeworlds_invariant(g)


@SETTINGS
@given(data=st.data())
def test_random_games_with_homeworlds(data):
    play_random(data, (MODULE,), homeworlds_invariant, prefer=("move",))


@SETTINGS
@given(tile=st.sampled_from(CRUISERS), ships=st.integers(1, 3), seed=st.integers(0, 2**16))
def test_a_fight_with_any_cruiser_keeps_the_tile_count(tile, ships, seed):
    """Any cruiser against 1-3 of p1's cruisers (the dice from ``seed``): the tile goes to p1
    exactly when the cruiser is destroyed, with two draws for it; otherwise it still holds the hex."""
    g, hw = _start(seed=seed % 50, cruiser=tile)
    _set(g, **{f"v__ships__{hw}": ((0, "cruiser"),) * ships,
               "v__blueprint__0__cruiser": ("plasma_cannon", "plasma_cannon", "positron_computer",
                                             "fusion_source", "nuclear_drive", "hull")})
    _end_actions(g)
    while g.get("battle"):
        legal = list(g.legal_actions())
        g.play(next((a for a in legal if a.name == "retreat" and a.args == (False,)), legal[0]))
        homeworlds_invariant(g)
    won = tile not in g.get("npcs", index=hw)
    assert g.get("cruiser_tiles", 0) == int(won)
    assert (g.get("homeworld_cruiser", index=hw) is None) == won
    if won:
        assert g.get("rep_owed", 0) == (1 + 2,)
    else:
        assert g.get("ships", index=hw) == ()
