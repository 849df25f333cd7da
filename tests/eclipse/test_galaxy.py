"""Tests for the Eclipse galaxy geometry primitive (plugins/boardrules_eclipse/galaxy.py)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardrules_eclipse.galaxy import (
    ALL_EDGES,
    CENTER,
    DIRECTIONS,
    Galaxy,
    Pinning,
    PlacedHex,
    Ring,
    SectorTile,
    distance,
    edge_between,
    explorable_positions,
    galaxy_layout,
    hive_target,
    influence_targets,
    legal_rotations,
    neighbours,
    opposite,
    reachable,
    ring,
    ring_positions,
    rotate_mask,
    start_sector_rotations,
)
from tests.conftest import shared_path

E, SE, SW, W, NW, NE = range(6)


def bits(*edges: int) -> int:
    m = 0
    for e in edges:
        m |= 1 << e
    return m


def tile(mask: int, tid: str = "x", warp: bool = False) -> SectorTile:
    return SectorTile(tid, mask, warp)


CENTRE_TILE = SectorTile("001", ALL_EDGES)

# ------------------------------------------------------------------------------------------
# rotation


def test_rotate_mask_examples():
    assert rotate_mask(bits(E), 1) == bits(SE)
    assert rotate_mask(bits(NE), 1) == bits(E)  # wraps around
    assert rotate_mask(bits(E, W), 3) == bits(E, W)
    assert rotate_mask(bits(E), -1) == bits(NE)
    assert rotate_mask(0, 4) == 0
    assert rotate_mask(ALL_EDGES, 2) == ALL_EDGES


def test_rotate_mask_rejects_bad_mask():
    with pytest.raises(ValueError):
        rotate_mask(64, 1)
    with pytest.raises(ValueError):
        rotate_mask(-1, 1)


@given(st.integers(0, 63), st.integers(0, 5))
def test_rotating_six_times_is_identity(mask, k):
    m = mask
    for _ in range(6):
        m = rotate_mask(m, 1)
    assert m == mask
    assert rotate_mask(rotate_mask(mask, k), 6 - k) == mask
    assert bin(rotate_mask(mask, k)).count("1") == bin(mask).count("1")


def test_tile_and_placed_hex_validation():
    with pytest.raises(ValueError):
        SectorTile("bad", 64)
    with pytest.raises(ValueError):
        PlacedHex((1, 0), tile(1), rotation=6)
    h = PlacedHex((1, 0), tile(bits(E, SE)), rotation=2)
    assert h.wormholes == bits(SW, W)
    assert h.board_edge(E) == SW


# ------------------------------------------------------------------------------------------
# positions and rings


def test_rings_by_distance():
    assert ring(CENTER) is Ring.CENTER
    assert [ring(p) for p in ring_positions(1)] == [Ring.I] * 6
    assert [ring(p) for p in ring_positions(2)] == [Ring.II] * 12
    assert {ring(p) for p in ring_positions(3) + ring_positions(4)} == {Ring.III}


@pytest.mark.parametrize("radius", [1, 2, 3, 5])
def test_ring_positions_walk_the_ring_clockwise(radius):
    ps = ring_positions(radius)
    assert len(ps) == len(set(ps)) == 6 * radius
    assert all(distance(p) == radius for p in ps)
    # consecutive positions (cyclically) are adjacent
    for a, b in zip(ps, ps[1:] + ps[:1]):
        assert edge_between(a, b) is not None
    # clockwise: E corner is followed toward the SE corner
    assert ps[radius] == (0, radius)


def test_neighbours_and_edges():
    for e, n in enumerate(neighbours((5, -2))):
        assert edge_between((5, -2), n) == e
        assert edge_between(n, (5, -2)) == opposite(e)
    # far away positions work too (outside the pre-computed table)
    assert neighbours((100, 100))[E] == (101, 100)
    assert edge_between((0, 0), (2, 0)) is None


# ------------------------------------------------------------------------------------------
# connections


def two_hexes(mask_a: int, mask_b: int, rot_b: int = 0) -> Galaxy:
    return Galaxy.empty().place((0, 0), tile(mask_a, "a")).place((1, 0), tile(mask_b, "b"), rot_b)


def test_full_connection_needs_both_wormholes():
    g = two_hexes(bits(E), bits(W))
    assert g.connected((0, 0), (1, 0))
    g = two_hexes(bits(E), bits(E))  # b's wormhole points away
    assert not g.connected((0, 0), (1, 0))
    g = two_hexes(bits(E), bits(E), rot_b=3)  # turned half round it meets
    assert g.connected((0, 0), (1, 0))


def test_half_connection_only_with_wormhole_generator():
    g = two_hexes(bits(E), bits(NE))
    assert not g.connected((0, 0), (1, 0))
    assert g.connected((0, 0), (1, 0), wormhole_generator=True)
    assert g.connected((1, 0), (0, 0), wormhole_generator=True)
    g = two_hexes(bits(SE), bits(NE))  # no wormhole on the shared edge at all
    assert not g.connected((0, 0), (1, 0), wormhole_generator=True)


def test_not_connected_to_self_unexplored_or_distant():
    g = two_hexes(ALL_EDGES, ALL_EDGES).place((3, 0), tile(ALL_EDGES))
    assert not g.connected((0, 0), (0, 0))
    assert not g.connected((0, 0), (-1, 0))
    assert not g.connected((1, 0), (3, 0))


def test_warp_portals_connect_all_portal_hexes():
    g = (
        Galaxy.empty()
        .place((0, 0), CENTRE_TILE)
        .place((4, 0), tile(0, "291", warp=True))
        .place((-4, 1), tile(bits(E), "393", warp=True))
        .place((0, -5), tile(bits(E), "plain"))
    )
    assert g.connected((4, 0), (-4, 1))
    assert g.connected((-4, 1), (4, 0))
    assert not g.connected((4, 0), (0, -5))
    assert g.connected_neighbours((4, 0)) == ((-4, 1),)
    # a portal placed later (Warp Portal development / Ancient Warp Portal discovery)
    g2 = g.with_warp_portal((0, -5))
    assert g2.connected((0, -5), (4, 0))
    assert set(g2.connected_neighbours((4, 0))) == {(-4, 1), (0, -5)}
    assert g2.warp_portals == {(4, 0), (-4, 1), (0, -5)}
    with pytest.raises(KeyError):
        g.with_warp_portal((9, 9))


def test_place_rejects_occupied_position():
    g = Galaxy.empty().place((0, 0), CENTRE_TILE)
    with pytest.raises(ValueError):
        g.place((0, 0), tile(1))
    with pytest.raises(ValueError):
        Galaxy((PlacedHex((0, 0), CENTRE_TILE), PlacedHex((0, 0), tile(1))))


def test_galaxy_is_a_value():
    a = Galaxy.empty().place((0, 0), CENTRE_TILE).place((1, 0), tile(1))
    b = Galaxy.empty().place((1, 0), tile(1)).place((0, 0), CENTRE_TILE)
    assert a == b and hash(a) == hash(b)
    a.connected_neighbours((0, 0))  # filling the cache does not change equality
    assert a == b


# random galaxies within radius 3
_POSITIONS = [p for r in range(4) for p in ring_positions(r)]

galaxies = st.lists(
    st.tuples(st.sampled_from(_POSITIONS), st.integers(0, 63), st.integers(0, 5), st.booleans()),
    max_size=25,
    unique_by=lambda t: t[0],
).map(
    lambda specs: Galaxy(
        PlacedHex(p, SectorTile(f"t{i}", m, w and i % 4 == 0), k)
        for i, (p, m, k, w) in enumerate(specs)
    )
)


@settings(max_examples=150)
@given(galaxies, st.booleans())
def test_connection_is_symmetric(g, gen):
    ps = sorted(g.positions)
    for a in ps:
        na = g.connected_neighbours(a, wormhole_generator=gen)
        for b in ps:
            assert g.connected(a, b, wormhole_generator=gen) == g.connected(
                b, a, wormhole_generator=gen
            )
            assert (b in na) == g.connected(a, b, wormhole_generator=gen)


@settings(max_examples=100)
@given(galaxies)
def test_generator_only_adds_connections(g):
    for a in g.positions:
        plain = set(g.connected_neighbours(a))
        assert plain <= set(g.connected_neighbours(a, wormhole_generator=True))


# ------------------------------------------------------------------------------------------
# exploring


def explore_galaxy() -> Galaxy:
    """Centre plus an anchor hex at (2, 0) whose only wormholes face W and NE."""
    return Galaxy.empty().place(CENTER, CENTRE_TILE).place((2, 0), tile(bits(W, NE), "anchor"))


def test_explorable_positions_need_a_wormhole_from_the_anchor():
    g = explore_galaxy()
    # (2,0)'s W neighbour is (1,0) (unexplored); NE neighbour is (3,-1)
    assert explorable_positions(g, [(2, 0)]) == {(1, 0), (3, -1)}
    assert explorable_positions(g, [(2, 0)], wormhole_generator=True) == set(neighbours((2, 0)))
    assert explorable_positions(g, [(2, 0)], max_radius=2) == {(1, 0)}
    assert explorable_positions(g, [(9, 9)]) == set()  # unexplored anchors are ignored
    centre_targets = explorable_positions(g, [CENTER])
    assert centre_targets == set(ring_positions(1))


def test_legal_rotations_full_connection():
    g = explore_galaxy()
    one = tile(bits(E))  # single wormhole on printed edge 0
    # at (1,0): the anchor (2,0) lies E and has a wormhole facing W -> tile edge must face E
    assert legal_rotations(g, (1, 0), one, [(2, 0)]) == (0,)
    # the centre is also adjacent (W of (1,0)) and full on every side
    assert legal_rotations(g, (1, 0), one, [(2, 0), CENTER]) == (0, 3)
    # the centre is adjacent but not an anchor: it does not count
    assert legal_rotations(g, (1, 0), one, [CENTER]) == (3,)
    # two opposite wormholes: rotations 0 and 3 both put one on the E side
    assert legal_rotations(g, (1, 0), tile(bits(E, W)), [(2, 0)]) == (0, 3)
    assert legal_rotations(g, (1, 0), tile(bits(E, W)), [(2, 0)], distinct=True) == (0,)
    assert legal_rotations(g, (1, 0), tile(0), [(2, 0)]) == ()


def test_legal_rotations_half_connection_with_generator():
    g = explore_galaxy()
    one = tile(bits(E))
    # (2,1) lies SE of (2,0); (2,0) has no wormhole toward it (its SE edge is empty)
    assert legal_rotations(g, (2, 1), one, [(2, 0)]) == ()
    # with the generator, the new hex's own wormhole may face the anchor: NW side of (2,1)
    assert legal_rotations(g, (2, 1), one, [(2, 0)], wormhole_generator=True) == (NW,)
    # anchor has a wormhole toward the space: any rotation gives at least a half connection
    assert legal_rotations(g, (3, -1), tile(bits(E)), [(2, 0)], wormhole_generator=True) == tuple(
        range(6)
    )
    assert legal_rotations(g, (3, -1), tile(bits(E)), [(2, 0)]) == (SW,)


def test_legal_rotations_rejects_explored_position_and_ignores_far_anchors():
    g = explore_galaxy()
    with pytest.raises(ValueError):
        legal_rotations(g, (2, 0), tile(1), [CENTER])
    assert legal_rotations(g, (-3, 0), tile(ALL_EDGES), [(2, 0), CENTER]) == ()


def test_start_sector_rotations_for_seven_to_nine_players():
    # corner slot (3,0): only its W side faces a ring-II position
    assert start_sector_rotations((3, 0), tile(bits(E))) == (W,)
    # side slot (1,2): two ring-II neighbours (1,1) to NW and (0,2) to W
    assert start_sector_rotations((1, 2), tile(bits(E))) == (W, NW)
    assert start_sector_rotations((1, 2), tile(ALL_EDGES), distinct=True) == (0,)


def test_hive_target_follows_rotation():
    hive = SectorTile("212", bits(E, W))
    g = Galaxy.empty().place(CENTER, CENTRE_TILE).place((0, 2), hive, 1).place((1, 2), tile(0))
    # printed E edge turned 1 -> faces SE: (0,3) unexplored
    assert hive_target(g, (0, 2), E) is None
    # printed W edge turned 1 -> faces NW: (0,1) unexplored; place it
    g = g.place((0, 1), tile(0))
    assert hive_target(g, (0, 2), W) == (0, 1)


# ------------------------------------------------------------------------------------------
# movement


def corridor(n: int, *, warp_ends: bool = False) -> Galaxy:
    """Hexes (0,0)..(n-1,0) joined E-W by full wormholes."""
    g = Galaxy.empty()
    for q in range(n):
        warp = warp_ends and q in (0, n - 1)
        g = g.place((q, 0), SectorTile(f"c{q}", bits(E, W), warp))
    return g


def test_reachable_counts_steps():
    g = corridor(6)
    assert reachable(g, (0, 0), 0) == {(0, 0): 0}
    assert reachable(g, (0, 0), 3) == {(q, 0): q for q in range(4)}
    assert reachable(g, (2, 0), 1) == {(1, 0): 1, (2, 0): 0, (3, 0): 1}
    with pytest.raises(ValueError):
        reachable(g, (0, 0), -1)
    with pytest.raises(KeyError):
        reachable(g, (9, 0), 1)


def test_reachable_honours_half_connections_only_with_generator():
    g = Galaxy.empty().place((0, 0), tile(bits(E))).place((1, 0), tile(0))
    assert reachable(g, (0, 0), 2) == {(0, 0): 0}
    assert reachable(g, (0, 0), 2, wormhole_generator=True) == {(0, 0): 0, (1, 0): 1}


def test_pinned_ship_must_stop_in_enemy_hex():
    g = corridor(5)
    one_enemy = Pinning(pins={(2, 0): 1})
    r = reachable(g, (0, 0), 4, pinning=one_enemy)
    assert r == {(0, 0): 0, (1, 0): 1, (2, 0): 2}  # stops at (2,0)
    # one own ship already there pins the enemy, so this one may continue
    r = reachable(g, (0, 0), 4, pinning=Pinning(pins={(2, 0): 1}, own={(2, 0): 1}))
    assert r[(4, 0)] == 4
    # two enemies and one own ship waiting: still pinned
    r = reachable(g, (0, 0), 4, pinning=Pinning(pins={(2, 0): 2}, own={(2, 0): 1}))
    assert (3, 0) not in r


def test_pinned_in_start_hex():
    g = corridor(3)
    # alone with one enemy ship: cannot leave
    assert reachable(g, (0, 0), 2, pinning=Pinning(pins={(0, 0): 1})) == {(0, 0): 0}
    # two own ships (mover included) vs one enemy: one may leave
    r = reachable(g, (0, 0), 2, pinning=Pinning(pins={(0, 0): 1}, own={(0, 0): 2}))
    assert r == {(0, 0): 0, (1, 0): 1, (2, 0): 2}
    # cloaking device on the mover's side: the engine doubles what the enemy needs, i.e.
    # the mover's side needs fewer; e.g. 1 enemy ship vs cloaked ships pins nothing here
    assert reachable(g, (0, 0), 2, pinning=Pinning(pins={(0, 0): 0}))[(2, 0)] == 2


def test_pinning_callback_overrides_counts():
    g = corridor(4)
    r = reachable(g, (0, 0), 3, may_pass=lambda p: p != (1, 0), may_leave_start=True)
    assert r == {(0, 0): 0, (1, 0): 1}
    assert reachable(g, (0, 0), 3, may_leave_start=False) == {(0, 0): 0}


def test_movement_through_warp_portals():
    g = corridor(6, warp_ends=True)
    r = reachable(g, (0, 0), 1)
    assert r == {(0, 0): 0, (1, 0): 1, (5, 0): 1}
    assert reachable(g, (0, 0), 2)[(4, 0)] == 2


def test_jump_drive_ignores_wormholes_once_per_activation():
    # (0,0)-(1,0) full, (1,0)|(2,0) no wormholes, (2,0)-(3,0) full
    g = (
        Galaxy.empty()
        .place((0, 0), tile(bits(E)))
        .place((1, 0), tile(bits(W)))
        .place((2, 0), tile(bits(E)))
        .place((3, 0), tile(bits(W)))
    )
    assert set(reachable(g, (0, 0), 3)) == {(0, 0), (1, 0)}
    # seed example: drive 2 plus one jump in one activation
    r = reachable(g, (0, 0), 2, jumps=1)
    # (1,0) is also one jump away (0 movement); (2,0) needs a step then the jump
    assert r == {(0, 0): 0, (1, 0): 0, (2, 0): 1, (3, 0): 2}
    assert reachable(g, (0, 0), 1, jumps=1) == {(0, 0): 0, (1, 0): 0, (2, 0): 1}
    # a jump alone (jump drive as the only drive)
    assert reachable(g, (1, 0), 0, jumps=1) == {(1, 0): 0, (0, 0): 0, (2, 0): 0}
    # pinning applies to a jump's destination
    r = reachable(g, (0, 0), 2, jumps=1, pinning=Pinning(pins={(2, 0): 1}))
    assert (3, 0) not in r


@settings(max_examples=150)
@given(galaxies, st.integers(0, 4), st.booleans(), st.data())
def test_reachable_is_monotone_in_range(g, steps, gen, data):
    if not g.positions:
        return
    start = data.draw(st.sampled_from(sorted(g.positions)))
    pinned = data.draw(st.frozensets(st.sampled_from(sorted(g.positions))))
    pin = Pinning(pins={p: 1 for p in pinned})
    small = reachable(g, start, steps, wormhole_generator=gen, pinning=pin)
    big = reachable(g, start, steps + 1, wormhole_generator=gen, pinning=pin)
    assert set(small) <= set(big)
    assert all(big[p] == d for p, d in small.items())
    assert all(d <= steps for d in small.values())
    # every reached hex other than the start has a predecessor one step closer
    for p, d in small.items():
        if p != start:
            assert any(
                small.get(q) == d - 1 and (q == start or q not in pinned)
                for q in g.connected_neighbours(p, wormhole_generator=gen)
            )


def test_influence_targets():
    g = explore_galaxy().place((1, 0), tile(bits(E, W)))
    assert influence_targets(g, [(2, 0)]) == {(1, 0)}
    assert influence_targets(g, [CENTER]) == {(1, 0)}
    assert influence_targets(g, [(1, 0)]) == {CENTER, (2, 0)}


# ------------------------------------------------------------------------------------------
# layout


@pytest.mark.parametrize("players", range(2, 10))
def test_layout_positions(players):
    lay = galaxy_layout(players)
    assert len(lay.start_positions) == players
    all_slots = lay.start_positions + lay.homeworld_positions
    assert len(set(all_slots)) == len(all_slots)
    expected_ring = Ring.II if players <= 6 else Ring.III
    assert {ring(p) for p in all_slots} == {expected_ring}
    assert len(all_slots) == (6 if players <= 6 else 9)


def test_layout_details():
    assert galaxy_layout(2).start_positions == ((2, 0), (-2, 0))  # opposite each other
    # the four Ancient homeworld tiles (271-274) exactly fill a 2-player galaxy's gaps
    assert len(galaxy_layout(2).homeworld_positions) == 4
    assert len(galaxy_layout(5).homeworld_positions) == 1
    assert galaxy_layout(6).homeworld_positions == ()
    # 7/8 players use the 9-player slots with homeworlds in the gaps (seed)
    assert set(galaxy_layout(7).start_positions) | set(galaxy_layout(7).homeworld_positions) == set(
        galaxy_layout(9).start_positions
    )
    for bad in (1, 10):
        with pytest.raises(ValueError):
            galaxy_layout(bad)


def test_nine_player_slots_match_seed_remarks():
    # seed: start positions are not all equal; some reach two middle hexes from the start
    touching = [
        sum(distance(n) == 2 for n in neighbours(p)) for p in galaxy_layout(9).start_positions
    ]
    assert set(touching) == {1, 2}
    # ... and the 12 middle hexes of a 7-9 player game fill the whole distance-2 ring
    assert len(ring_positions(2)) == 12


def test_seed_states_warp_portal_and_nine_player_facts():
    text = shared_path("seeds", "000_92782212a183c471.txt").read_text(encoding="utf-8")
    # "all hexes with a warp portal are considered adjacent ... full wormhole connection"
    assert "所有有超光速傳送門的六角形被認為是" in text
    assert "彼此相鄰的，並在它們之間有一個完整的蟲洞連接" in text
    # 7-9 players start in the outer ring; middle sectors 12 for 7, 8 and 9 players
    assert "在7-9 位玩家遊戲中玩家們從" in text and "外部部分開始" in text
    assert "中間部分\n7 位玩家：12\n8 位玩家：12\n9 位玩家：12" in text


def test_directions_are_unit_steps():
    assert all(distance(d) == 1 for d in DIRECTIONS)
    assert len(set(DIRECTIONS)) == 6
