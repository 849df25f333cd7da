"""The site's variants as modules (plugins/boardrules_gaia/modules/): random factions (seed 002,
ゲームの準備 / 種族の選択: each player is dealt a faction board at random and chooses one of its
two sides) and the x-shape map (the site's engine, engine/src/map.ts)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import boardrules
from boardrules import IllegalActionError
from boardrules_gaia import geometry as G
from tests.gaia.test_invariants import check_all

GAME = "gaia-project"
HOMES = ("r", "o", "v", "d", "s", "t", "i")
SETTINGS = dict(deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])


def _through_setup(g, pick, limit=400) -> None:
    """Play random legal actions until the first round's action step (checking invariants)."""
    n = 0
    while g.get("round") is None and not g.over:
        legal = list(g.legal_actions())
        g.play(legal[pick(len(legal))])
        check_all(g)
        n += 1
        assert n < limit


@settings(max_examples=6, **SETTINGS)
@given(players=st.integers(1, 4), seed=st.integers(0, 10**6), data=st.data())
def test_random_factions_each_player_plays_a_side_of_the_board_dealt(players, seed, data):
    g = boardrules.new_game(GAME, players=players, seed=str(seed), modules=["random-factions"])
    boards = [g.get("dealt_board", p) for p in range(players)]
    assert len(set(boards)) == players and set(boards) <= set(HOMES)
    deals = [a.split()[-1] for a in g.record.actions if a.startswith("chance board ")]
    assert deals == boards  # the deal is a chance action of the record
    # only the two sides of the dealt board may be chosen
    sides = {str(a) for a in g.legal_actions()}
    assert len(sides) == 2 and all("pick_side" in s for s in sides)
    _through_setup(g, lambda n: data.draw(st.integers(0, n - 1)) if n > 1 else 0)
    for p in range(players):
        assert g.get("myfaction", p) is not None
    entities = g.ruleset.entities
    assert [entities[g.get("myfaction", p)].fields["home"] for p in range(players)] == boards


def test_random_factions_refuses_the_other_boards_state_unchanged():
    g = boardrules.new_game(GAME, players=2, seed="7", modules=["random-factions"])
    board = g.get("dealt_board", 0)
    other = next(a for a in boardrules.new_game(GAME, players=2, seed="7").legal_actions()
                 if str(a).split()[-1] not in {str(b).split()[-1] for b in g.legal_actions()})
    before = g.state
    with pytest.raises(IllegalActionError) as err:
        g.play(f"p1 pick_side {str(other).split()[-1]}")
    assert "not a side of your faction board" in str(err.value)
    assert g.state == before and g.get("dealt_board", 0) == board


@settings(max_examples=5, **SETTINGS)
@given(seed=st.integers(0, 10**6))
def test_random_factions_with_a_faction_pool_deals_and_offers_only_the_pool(seed):
    pool = ["terrans", "xenos", "itars", "ivits"]  # boards r, d, i, o; one side each
    g = boardrules.new_game(GAME, players=3, seed=str(seed), modules=["random-factions"],
                            options={"factions": pool})
    boards = [g.get("dealt_board", p) for p in range(3)]
    assert set(boards) <= {"r", "d", "i", "o"} and len(set(boards)) == 3
    for p in range(3):
        (side,) = [str(a).split()[-1] for a in g.legal_actions()]
        assert side in pool and g.ruleset.entities[side].fields["home"] == boards[p]
        g.play(f"p{p + 1} pick_side {side}")


def test_random_factions_deal_given_as_chance_outcome_is_replayed():
    g = boardrules.new_game(GAME, players=2, seed="3", modules=["random-factions"])
    again = boardrules.load_game(g.save(), check=True)
    assert again.state == g.state
    assert [again.get("dealt_board", p) for p in range(2)] == [g.get("dealt_board", p) for p in range(2)]


@settings(max_examples=5, **SETTINGS)
@given(players=st.integers(1, 4), seed=st.integers(0, 10**6), data=st.data())
def test_xshape_module_deals_a_valid_eight_sector_map(players, seed, data):
    g = boardrules.new_game(GAME, players=players, seed=str(seed), modules=["xshape"])
    layout = g.get("map_layout")
    assert sorted(x.split(":")[0] for x in layout) == sorted(G.XSHAPE_SECTORS)
    placement = G.MapPlacement(tuple(
        G.SectorPlacement(x.split(":")[0], int(x.split(":")[1]), c)
        for x, c in zip(layout, G.CENTRES_XSHAPE, strict=True)))
    assert G.build_map(placement).is_valid()
    assert len(g.get("hexes")) == 8 * 19
    _through_setup(g, lambda n: data.draw(st.integers(0, n - 1)) if n > 1 else 0)

