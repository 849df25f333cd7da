"""The auction module (plugins/boardrules_gaia/modules/auction.rules) in both of the site's forms;
facts from the site's engine (boardgamers/gaia-project engine/src/move/setup.ts,
available/setup.ts, move/phase.ts): a bid beats the standing one by 1 to 9 VP (0 on a faction
nobody holds), the outbid player bids again, turns go to the next player in seat order without a
faction, the seating follows the order the factions went up, the bids are paid at the end."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import boardrules
from boardrules import IllegalActionError
from tests.gaia.test_invariants import check_all
from tests.gaia.test_variants import GAME, SETTINGS, _through_setup


def _auction(form, players=3, seed="s1"):
    return boardrules.new_game(GAME, players=players, seed=seed, modules=["auction"],
                               options={"auction_form": form})


@settings(max_examples=6, **SETTINGS)
@given(form=st.sampled_from(["choose-bid", "bid-while-choosing"]), players=st.integers(1, 4),
       seed=st.integers(0, 10**6), data=st.data())
def test_auction_ends_with_one_faction_each_seated_in_the_order_they_went_up(form, players, seed, data):
    g = _auction(form, players, str(seed))
    _through_setup(g, lambda n: data.draw(st.integers(0, n - 1)) if n > 1 else 0)
    pool = list(g.get("auction_pool"))
    held = [g.get("myfaction", p) for p in range(players)]
    assert sorted(held) == sorted(pool) and len(set(held)) == players
    homes = [g.ruleset.entities[f].fields["home"] for f in held]
    assert len(set(homes)) == players  # one faction per colour
    assert all(g.get("bid", p) >= 0 for p in range(players))
    seating = [held.index(f) for f in pool]
    assert list(g.get("turn_order")) == seating  # round 1 follows the order they went up
    boosters = [a.split()[0] for a in g.record.actions if " pick_booster " in a]
    assert boosters == [f"p{p + 1}" for p in reversed(seating)]


def _play(g, *texts):
    for t in texts:
        g.play(t)


def test_choose_bid_outbid_player_bids_again_and_equal_bids_are_refused():
    g = _auction("choose-bid")
    _play(g, "p1 auction_faction terrans", "p2 auction_faction xenos", "p3 auction_faction itars")
    # every player is without a faction: the bidding starts with p1, from 0 on an unheld faction
    legal = {str(a) for a in g.legal_actions()}
    assert legal == {"p1 auction_faction terrans", "p1 auction_faction xenos", "p1 auction_faction itars"}
    _play(g, "p1 auction_faction xenos")
    assert {str(a) for a in g.legal_actions()} == {f"p1 bid_amount {n}" for n in range(0, 9)}
    _play(g, "p1 bid_amount 3", "p2 auction_faction xenos")
    # p1 stands at 3: p2 must bid 4 to 12 (a tie is impossible)
    assert {str(a) for a in g.legal_actions()} == {f"p2 bid_amount {n}" for n in range(4, 13)}
    before = g.state
    with pytest.raises(IllegalActionError):
        g.play("p2 bid_amount 3")
    assert g.state == before
    _play(g, "p2 bid_amount 5")
    assert g.get("myfaction", 0) is None and g.get("bid", 0) == 0  # p1 lost it
    assert g.get("myfaction", 1) == "xenos" and g.get("bid", 1) == 5
    # next: the player after p2 in seat order without a faction (p3), then p1
    assert {str(a).split()[0] for a in g.legal_actions()} == {"p3"}
    _play(g, "p3 auction_faction terrans", "p3 bid_amount 0", "p1 auction_faction itars", "p1 bid_amount 0")
    assert [g.get("myfaction", p) for p in range(3)] == ["itars", "xenos", "terrans"]
    # seated as terrans, xenos, itars went up for auction
    assert list(g.get("turn_order")) == [2, 1, 0]


def test_bid_while_choosing_choose_new_or_outbid():
    g = _auction("bid-while-choosing", players=2)
    _play(g, "p1 auction_faction taklons")
    assert g.get("myfaction", 0) == "taklons" and g.get("bid", 0) == 0
    legal = {str(a) for a in g.legal_actions()}
    assert "p2 auction_faction taklons" in legal and "p2 auction_faction ambas" not in legal  # same colour
    _play(g, "p2 auction_faction taklons", "p2 bid_amount 2")
    assert g.get("myfaction", 0) is None and g.get("myfaction", 1) == "taklons"
    _play(g, "p1 auction_faction gleens")
    # p2 holds the first faction that went up: p2 is first in round 1, p1 chooses the booster first
    assert list(g.get("turn_order")) == [1, 0]
    assert list(g.get("booster_order")) == [0, 1]


def test_auction_bids_are_paid_at_the_end():
    """Two games alike but for p1's bid on the Xenos (7 and 0 VP): p1 ends 7 VP lower."""
    finals = []
    for bid in (7, 0):
        g = _auction("choose-bid", players=2, seed="9")
        _play(g, "p1 auction_faction terrans", "p2 auction_faction xenos",
              "p1 auction_faction xenos", f"p1 bid_amount {bid}", "p2 auction_faction terrans",
              "p2 bid_amount 0")
        rnd = random.Random(4)
        while not g.over:
            legal = sorted(g.legal_actions(), key=str)
            g.play(legal[rnd.randrange(len(legal))])
        assert g.get("bid", 0) == bid
        finals.append((g.get("vp", 0), g.get("vp", 1)))
    assert finals[0][0] == finals[1][0] - 7 and finals[0][1] == finals[1][1]


def test_a_bid_above_the_players_vp_is_paid_whole_below_zero():
    """The site pays the bid whole at the end (engine/src/move/phase.ts finalScoringPhase gains
    minus the bid in VP; player-data.ts gainReward adds it with no floor): a bid of 300 VP leaves
    the player far below 0, its score row -300 (it stopped at 0 VP, -39, before the fix)."""
    g = _auction("choose-bid", players=2, seed="9")
    _play(g, "p1 auction_faction terrans", "p2 auction_faction xenos")
    standing, p = -1, 0
    while standing < 300:   # the two outbid each other on the Xenos, 9 VP at a time
        standing = min(standing + 9, 300)
        _play(g, f"p{p + 1} auction_faction xenos", f"p{p + 1} bid_amount {standing}")
        p = 1 - p
    _play(g, f"p{p + 1} auction_faction terrans", f"p{p + 1} bid_amount 0")
    rnd = random.Random(4)
    while not g.over:
        legal = sorted(g.legal_actions(), key=str)
        g.play(legal[rnd.randrange(len(legal))])
    holder = 1 - p
    row = g.scores()[holder]
    assert g.get("bid", holder) == 300 and row["sources"]["auction_bids"] == -300
    assert row["total"] == sum(row["sources"].values()) == g.get("vp", holder) < 0
    check_all(g)   # (the invariants hold resources to their floors: the module lowered VP's)


def _offer_order(g, builder):
    """The players offered a power charge, in the order asked, when ``builder`` builds a mine next
    to its home mine with a mine of each other player within distance 2 (a test position)."""
    from boardrules.runtime import Context

    from tests.gaia.test_game import patch
    ctx = Context(g.ruleset, g.state.values)
    within = g.ruleset.primitives["hexes_within"].fn
    free = lambda h, d: [x for x in sorted(within(ctx, h, d)) if x != h  # noqa: E731
                         and g.get("owner_at", index=x) is None and g.get("planet", index=x) is not None]
    spot = free(g.get("my_hexes", builder)[0], 1)[0]
    home = g.ruleset.entities[g.get("myfaction", builder)].fields["home"]
    changes = {("v", "planet", spot): home}
    others = [p for p in range(g.players) if p != builder]
    for p, h in zip(others, [x for x in free(spot, 2) if x != spot]):
        changes.update({("v", "planet", h): "o", ("v", "owner_at", h): p, ("v", "bld", h): "mine",
                        ("v", "pval", h): 1, ("v", "my_hexes", p): g.get("my_hexes", p) + (h,)})
    patch(g, changes)
    while builder not in g.players_to_act():
        (p,) = g.players_to_act()
        g.play(next(a for a in g.legal_actions(p) if a.name in ("pass_round", "pass_last")))
    g.play(boardrules.Action(builder, "build_mine", (spot,)))
    g.play(boardrules.Action(builder, "done"))
    asked = []
    while g.state.pending and g.state.pending[0].label == "leech":
        d = g.state.pending[0]
        asked.append(d.player)
        g.play(boardrules.Action(d.player, "leech"))
    return asked


def test_power_charges_after_an_auction_go_round_the_auction_seating():
    """gaia-project.md §12.1: the offers go in table order after the builder; after an auction the
    table is the order the factions went up for auction (the site's playersInTableOrderFrom over
    turnOrderAfterSetupAuction, engine/src/engine.ts), not the seat order."""
    g = _auction("choose-bid", players=3, seed="o2")
    _play(g, "p1 auction_faction terrans", "p2 auction_faction xenos", "p3 auction_faction itars",
          "p1 auction_faction terrans", "p1 bid_amount 0", "p2 auction_faction itars", "p2 bid_amount 0",
          "p3 auction_faction xenos", "p3 bid_amount 0")
    # seated terrans (p1), xenos (p3), itars (p2): after p1 comes p3, then p2 (seat order: p2, p3)
    while g.get("round") is None:
        g.play(next(iter(g.legal_actions())))
    while g.state.pending:
        d = g.state.pending[0]
        g.play(boardrules.Action(d.player, d.label, () if d.optional else (d.options[0],)))
    assert _offer_order(g, 0) == [2, 1]
    assert list(g.get("seating")) == [0, 2, 1]
    # without an auction the table is the seat order
    plain = boardrules.new_game(GAME, players=3, seed="o2")
    _play(plain, "p1 pick_faction terrans", "p2 pick_faction itars", "p3 pick_faction xenos")
    while plain.get("round") is None:
        plain.play(next(iter(plain.legal_actions())))
    while plain.state.pending:
        d = plain.state.pending[0]
        plain.play(boardrules.Action(d.player, d.label, () if d.optional else (d.options[0],)))
    assert list(plain.get("seating")) == [] and _offer_order(plain, 0) == [1, 2]


def test_greedy_bots_finish_an_auction_and_rate_a_bid_as_its_cost():
    """The auction's bids are taken from the score at the end (modules/auction.rules), so the
    bots' evaluation with the module on rates a standing bid as that many VP less; without it
    two greedy bots outbid each other on one faction until play_out's bound (2 players, seed 3)."""
    from boardrules.bots import play_out, seat_bots
    from boardrules.bots.common import evaluation_for

    game = boardrules.new_game("gaia-project", players=2, seed=3, modules=["auction"])
    bots, rate = seat_bots(["greedy"], 2, game.seed), evaluation_for(game)
    while not any(game.get("bid", p) for p in range(2)):
        p = next(iter(game.legal_actions())).player
        game.play(bots[p].choose(game, p))
    bidder = next(p for p in range(2) if game.get("bid", p))
    base = evaluation_for(boardrules.new_game("gaia-project", players=2, seed=3))
    assert rate(game, bidder) == pytest.approx(base(game, bidder) - game.get("bid", bidder))
    play_out(game, bots, max_actions=3_000)
    assert game.over
