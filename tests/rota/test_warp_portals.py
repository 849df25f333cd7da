"""Rise of the Ancients, warp portals (``-m warp-portals``): the seed's warp-portal rules."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

import boardrules
from boardrules.runtime import Context
from boardrules_eclipse.primitives import _galaxy, _pos

from .common import SETTINGS, play_random

WARP = ("s281", "s381", "s382")


def _warp_hexes(g):
    return [h for h in g.get("hexes") if g.get("sector_at", index=h) in WARP]


def warp_invariant(g) -> None:
    """Each warp sector is at most once in play (stacks + board), never in the wrong ring's
    stack, and every two warp-portal hexes on the board are connected both ways."""
    stacks = {"stack_middle": g.get("stack_middle"), "stack_outer": g.get("stack_outer")}
    on_board = [g.get("sector_at", index=h) for h in g.get("hexes")]
    for s in WARP:
        assert list(stacks["stack_middle"]).count(s) + list(stacks["stack_outer"]).count(s) \
            + on_board.count(s) <= 1, s
    assert "s281" not in stacks["stack_outer"] and "s381" not in stacks["stack_middle"]
    gal = _galaxy(Context(g.ruleset, g.state.values, me=0))
    portals = [_pos(h) for h in _warp_hexes(g)]
    for a in portals:
        for b in portals:
            if a != b:
                assert gal.connected(a, b) and gal.connected(b, a)


def test_warp_sectors_join_their_stacks():
    """Seed: one warp hex joins ring II's stack, two join ring III's, at setup."""
    base = boardrules.new_game("eclipse", players=3, seed=4)
    g = boardrules.new_game("eclipse", players=3, seed=4, modules=["warp-portals"])
    for p in (3, 2, 1):
        base.play(f"p{p} pick_species terrans")
        g.play(f"p{p} pick_species terrans")
    assert len(g.get("stack_middle")) == len(base.get("stack_middle")) + 1
    assert len(g.get("stack_outer")) == len(base.get("stack_outer")) + 2
    assert "s281" in g.get("stack_middle")
    assert {"s381", "s382"} <= set(g.get("stack_outer"))
    assert not {"s281", "s381", "s382"} & set(base.get("stack_middle") + base.get("stack_outer"))


def test_two_warp_hexes_are_adjacent_across_the_galaxy():
    """Seed: warp-portal hexes count as adjacent, with a full wormhole, however far apart;
    a ship moves from one to the other in one step."""
    from tests.eclipse.test_combat_play import _stage
    from tests.eclipse.test_edge_cases import _set
    from boardrules_eclipse.primitives import move_options
    g = boardrules.new_game("eclipse", players=2, seed=1, modules=["warp-portals"])
    for p in (2, 1):
        g.play(f"p{p} pick_species terrans")
    a, b = "2,-1", "-2,1"                      # ring II hexes on opposite sides of the centre
    _stage(g, a, "s281", ships=[(0, "interceptor")])
    _stage(g, b, "s381")
    _set(g, v__stack_middle=tuple(s for s in g.get("stack_middle") if s != "s281"),
         v__stack_outer=tuple(s for s in g.get("stack_outer") if s != "s381"))
    ctx = Context(g.ruleset, g.state.values, me=0)
    assert _galaxy(ctx).connected(_pos(a), _pos(b))
    assert f"interceptor@{a}>{b}" in set(move_options.fn(ctx))
    warp_invariant(g)
    _set(g, **{f"v__sector_at__{b}": "s304"})  # not a warp sector: no longer adjacent
    assert not _galaxy(Context(g.ruleset, g.state.values, me=0)).connected(_pos(a), _pos(b))


@SETTINGS
@given(data=st.data())
def test_random_games_with_warp_portals(data):
    play_random(data, ("warp-portals",), warp_invariant)
