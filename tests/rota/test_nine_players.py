"""Rise of the Ancients, 7-9 players (``-m nine-players``): player counts, the outer-ring starts
and their placement order, the removed cube, and the hex and tile counts by player count (seed
``000_92782212a183c471``, "7-9 players"; eclipse-rota-rules.md §10)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import boardrules
from boardrules.errors import GameStuckError, PluginError
from boardrules_eclipse import galaxy as G
from tests.eclipse.test_invariants import _field, _kind

from .common import SETTINGS, play_random

MODULE = "nine-players"
OUTER = {7: 22, 8: 24, 9: 24}                 # ring-III hexes [seed table]
AT_START = {7: 22, 8: 24, 9: 26}              # technology tiles in the supply at the start
PER_ROUND = {7: 10, 8: 11, 9: 11}             # added in each Cleanup
EXTRA_TECHS = 18                              # [seed]
REPUTATION = 32 + 9                           # the base bag 12/9/7/4 and 2x4, 3x3, 2x2, 2x1


def _pos(h: str) -> tuple:
    q, r = h.split(",")
    return int(q), int(r)


def _base_tech_tiles(g) -> int:
    copies = g.get("tile_copies")
    return sum(copies[_field(g, t, "cost") // 2 - 1] for t in _kind(g, "tech"))


def _start_techs(g, p) -> int:
    return len(_field(g, g.get("species_of", p), "start_techs"))


def _home(g, p) -> str:
    s = g.get("species_of", p)
    homes = (*_field(g, s, "homes"), *g.get("spare_homes"))
    return next(h for h in g.get("hexes") if g.get("sector_at", index=h) in homes
                and g.get("ships", index=h) and g.get("ships", index=h)[0][0] == p)


def nine_invariant(g) -> None:
    """Hex and tile counts by player count: ring-III sectors laid (not start sectors) plus those
    still to come never exceed the seed's count; every technology tile (18 extra) and every
    reputation tile (9 extra) is in one place; each player removed one cube, once."""
    n = g.players
    if g.state.values.get(("f", "stage"), 0) < 1 or not g.get("cubes_gone", 0):
        return
    homes = set(g.get("spare_homes"))
    for s in _kind(g, "species"):
        homes |= set(_field(g, s, "homes"))
    outer = [h for h in g.get("hexes") if _field(g, g.get("sector_at", index=h), "ring") == 3
             and g.get("sector_at", index=h) not in homes]
    assert len(outer) + g.get("outer_left") <= OUTER[n], (len(outer), g.get("outer_left"))
    middle = [h for h in g.get("hexes") if G.distance(_pos(h)) == 2]
    assert len(middle) <= 12
    tiles = len(g.get("tech_bag")) + len(g.get("tech_market")) + sum(
        len(g.get("techs", p)) - _start_techs(g, p) for p in range(n))
    assert tiles == _base_tech_tiles(g) + EXTRA_TECHS, tiles
    rep = len(g.get("reputation_bag")) + sum(
        len(g.get("reputation", p)) + len(g.get("rep_drawn", p)) + (g.get("rep_best", p) > 0)
        for p in range(n))
    assert rep == REPUTATION, rep
    for p in range(n):
        assert len(g.get("cubes_gone", p)) == 1


@given(st.data())
@SETTINGS
def test_random_nine_player_games_keep_the_invariants(data):
    n = data.draw(st.integers(7, 9), label="players")
    play_random(data, (MODULE,), nine_invariant, players=n)


def _setup(n, seed=1, species=None):
    """A game after the species picks (Terrans unless ``species`` maps a seat to another)."""
    g = boardrules.new_game("eclipse", players=n, seed=seed, modules=[MODULE])
    for p in range(n, 0, -1):
        g.play(f"p{p} pick_species {(species or {}).get(p, 'terrans')}")
    return g


def _finish_setup(g, cube="money"):
    for _ in range(g.players):
        g.play(next(a for a in g.legal_actions() if a.name == "rotation"))
    for _ in range(g.players):
        g.play(f"p{g.state.pending[0].player + 1} discard_cube {cube}")


def test_seven_to_nine_players_need_the_module_and_it_refuses_fewer():
    for n in (7, 8, 9):
        with pytest.raises(ValueError, match=f"2–6 players, not {n}; module 'nine-players' allows 7–9"):
            boardrules.new_game("eclipse", players=n)
        assert boardrules.new_game("eclipse", players=n, modules=[MODULE]).players == n
    for n in (2, 6, 10):
        with pytest.raises((PluginError, ValueError)):
            boardrules.new_game("eclipse", players=n, modules=[MODULE])


def test_a_house_rule_widening_the_count_without_the_tables_is_told_why(tmp_path):
    """A house rule allowing 7 players without the module's tables by player count: the last
    pick, which runs the galaxy step, is refused naming the tables to extend (it said 'index 7
    is outside a list of 7'), and the game says it is stuck there."""
    wide = tmp_path / "wide.rules"
    wide.write_text('override game eclipse { title "Eclipse"; players 2..7; '
                    'tiebreak money + science + materials }\n')
    g = boardrules.new_game("eclipse", players=7, rules=[wide])
    for _ in range(6):
        g.play(next(iter(g.legal_actions())))
    with pytest.raises(GameStuckError, match=r"tables by player count \(outer_by_players"):
        list(g.legal_actions())


@pytest.mark.parametrize("n", [7, 8, 9])
def test_start_sectors_lie_in_the_outer_ring_and_turn_toward_ring_ii(n):
    g = _setup(n)
    layout = G.galaxy_layout(n)
    for p in range(n):
        h = _home(g, p)
        assert G.distance(_pos(h)) == 3
        assert _pos(h) == layout.start_positions[p]     # p1 at [1], the others clockwise
    # turned counter-clockwise from the start player's right, the start player last [seed]
    order = []
    while g.state.pending and g.state.pending[0].label == "rotation":
        d = g.state.pending[0]
        order.append(d.player)
        h = _home(g, d.player)
        pos = _pos(h)
        for k in d.options:          # every option turns a wormhole toward a ring-II position
            mask = G.rotate_mask(sum(1 << e for e in _field(g, g.get("sector_at", index=h), "wormholes")), k)
            assert any(mask >> e & 1 and G.distance(nb) == 2 for e, nb in enumerate(G.neighbours(pos)))
        g.play(f"p{d.player + 1} rotation {d.options[-1]}")
        assert g.get("rotation_at", index=h) == d.options[-1]
    assert order == list(range(n - 1, -1, -1))


def test_a_rotation_without_a_wormhole_toward_ring_ii_is_refused():
    """A corner start (one ring-II neighbour): the turns that leave that edge without a wormhole
    are refused, naming the rule, and the state is unchanged."""
    g = _setup(9)
    refused = 0
    while g.state.pending and g.state.pending[0].label == "rotation":
        d = g.state.pending[0]
        h = _home(g, d.player)
        tile = sum(1 << e for e in _field(g, g.get("sector_at", index=h), "wormholes"))
        toward = [e for e, nb in enumerate(G.neighbours(_pos(h))) if G.distance(nb) == 2]
        for k in range(6):
            if not any(G.rotate_mask(tile, k) >> e & 1 for e in toward):
                before = g.state
                with pytest.raises(boardrules.IllegalActionError, match="rotation"):
                    g.play(f"p{d.player + 1} rotation {k}")
                assert g.state == before
                refused += 1
        g.play(f"p{d.player + 1} rotation {d.options[0]}")
    assert refused > 0


def test_each_player_removes_one_cube_out_of_the_game():
    g = _setup(7)
    before = {p: g.get("out_science", p) for p in range(7)}
    _finish_setup(g, cube="science")
    for p in range(7):
        assert g.get("out_science", p) == before[p] + 1
        assert g.get("cubes_gone", p) == ("science",)
    assert g.state.pending == () or g.state.pending[0].label != "discard_cube"


@pytest.mark.parametrize("n", [7, 8, 9])
def test_hex_and_technology_counts_by_player_count(n):
    g = _setup(n)
    _finish_setup(g)
    assert g.get("outer_left") == OUTER[n]
    assert len(g.get("tech_market")) == AT_START[n]
    assert g.get("techs_per_round")[n] == PER_ROUND[n]
    assert len(g.get("tech_bag")) + len(g.get("tech_market")) == _base_tech_tiles(g) + EXTRA_TECHS
    assert sorted(g.get("reputation_bag")).count(4) == 4 + 2
    assert len(g.get("reputation_bag")) == REPUTATION
    assert "s213" in g.get("stack_middle") and len(g.get("stack_middle")) == 12
    nine_invariant(g)


def test_a_cleanup_adds_the_seven_player_count_of_technologies():
    g = _setup(7)
    _finish_setup(g)
    start = len(g.get("tech_market"))
    while g.get("round") == 1:
        legal = list(g.legal_actions())
        g.play(next((a for a in legal if a.name == "pass_turn"), legal[0]))
    assert len(g.get("tech_market")) == start + PER_ROUND[7]


def test_nine_terrans_take_the_extra_colours_start_sectors():
    g = _setup(9)
    sectors = {g.get("sector_at", index=_home(g, p)) for p in range(9)}
    assert {"s233", "s235", "s237"} <= sectors and len(sectors) == 9


def test_a_nine_player_record_replays_exactly():
    g = _setup(8, seed=4)
    _finish_setup(g, cube="materials")
    for _ in range(40):
        if g.over:
            break
        legal = list(g.legal_actions())
        g.play(legal[len(g.record.actions) % len(legal)])
    again = boardrules.load_game(g.save(), check=True)
    assert again.state == g.state


@pytest.mark.parametrize("n, homeworlds", [(7, 2), (8, 1), (9, 0)])
def test_homeworlds_fill_the_gaps_and_the_takeover_holds_the_centre(n, homeworlds):
    """Seed: with 7-8 players Ancient homeworlds go on the 9-player layout's empty positions; the
    Galactic Center takeover may be used at every count."""
    g = boardrules.new_game("eclipse", players=n, seed=2,
                            modules=[MODULE, "ancient-homeworlds", "galactic-center-takeover"])
    for p in range(n, 0, -1):
        g.play(f"p{p} pick_species terrans")
    laid = sorted(_pos(h) for h in g.get("hexes")
                  if g.get("sector_at", index=h) in ("s271", "s272", "s273", "s274"))
    assert laid == sorted(G.galaxy_layout(n).homeworld_positions) and len(laid) == homeworlds
    assert all(G.distance(pos) == 3 for pos in laid)
    assert g.get("npcs", index="0,0") == (g.get("takeover_npc"),)
