"""Diplomatic relations, ambassadors and the Traitor (eclipse.md §2.7; rules wording [M],
Second Dawn's dized text as a labelled comparison; choices documented in rules/README.md)."""

from __future__ import annotations

import pytest

from boardrules.errors import IllegalActionError
from boardrules.game import Action

from .test_game import check_invariants, new

BORDER = "2,1"   # next to p1's home "2,0" (its wormhole edge 1); s105 has a wormhole facing back


def _four(controller_of_border=1):
    g = new(4)
    st = dict(g.state.values)
    st[("v", "hexes")] = st[("v", "hexes")] + (BORDER,)
    st[("v", "sector_at", BORDER)] = "s105"
    st[("v", "controller", BORDER)] = controller_of_border
    st[("c", "disc", controller_of_border)] -= 1
    g.state = type(g.state)(st, g.state.pending)
    return g


def test_relations_exchange_ambassadors_with_cubes():
    g = _four()
    assert "p1 diplomacy p2" in g.legal_actions()
    assert "p1 diplomacy p3" not in g.legal_actions()      # p3's hexes are not connected
    g.play("p1 diplomacy p2")
    d = g.state.pending[0]
    assert (d.player, d.label, d.options) == (1, "accept", (True, False))
    g.play("p2 accept true")
    g.play("p1 envoy money")                               # p1's cube rides p1's ambassador
    g.play("p2 envoy science")
    assert g.get("ambassadors", 0) == (1,) and g.get("ambassadors", 1) == (0,)
    assert g.get("out_money", 0) == 2 and g.get("out_science", 1) == 2   # production rises
    assert "p1 diplomacy p2" not in g.legal_actions()      # once per pair
    check_invariants(g)


def test_declined_proposal_only_once_per_round():
    g = _four()
    g.play("p1 diplomacy p2")
    g.play("p2 accept false")
    assert g.get("ambassadors", 0) == ()
    assert "p1 diplomacy p2" not in g.legal_actions()


def test_not_with_fewer_than_four_players():
    g = new(3)
    assert not any(a.name == "diplomacy" for a in g.legal_actions())


def test_aggression_breaks_relations_and_makes_a_traitor():
    g = _four()
    for text in ("p1 diplomacy p2", "p2 accept true", "p1 envoy money", "p2 envoy science"):
        g.play(text)
    g.play("p1 move")
    g.play(Action(0, "fly", ("interceptor@2,0>2,1",)))     # into the partner's hex
    assert g.get("traitor") == 0
    assert g.get("ambassadors", 0) == () and g.get("ambassadors", 1) == ()
    assert g.get("out_money", 0) == 1 and g.get("out_science", 1) == 1   # cubes back home
    check_invariants(g)
    g.play("p1 done")
    # the Traitor may not form relations
    assert "p2 diplomacy p1" not in g.legal_actions()


def test_scoring_ambassadors_and_traitor():
    g = _four()
    st = dict(g.state.values)
    st[("f", "round")] = 9
    st[("v", "ambassadors", 0)] = (1,)
    st[("v", "ambassadors", 1)] = (0,)
    st[("v", "envoys", 0)] = ((1, "money"),)
    st[("v", "envoys", 1)] = ((0, "money"),)
    st[("v", "out_money", 0)] = 2
    st[("v", "out_money", 1)] = 2
    st[("v", "traitor")] = 2
    g.state = type(g.state)(st, g.state.pending)
    for p in range(4):
        g.play(f"p{p + 1} pass_turn")
    assert g.over
    assert g.scores()[0]["sources"]["score_diplomacy"] == 1
    assert g.scores()[2]["sources"]["score_diplomacy"] == -2     # the Traitor card (3 VP home - 2)
    assert g.scores()[2]["total"] == 1


def test_reputation_room_shared_with_ambassadors():
    """Slots [S boards]: Orion 4 either + 1 reputation-only; Terrans 1 ambassador-only + 4
    either. Ambassadors beyond the ambassador-only slots take either-slots from reputation."""
    from boardrules.runtime import Context
    from boardrules_eclipse.diplomacy import _amb_room, rep_capacity

    g = new(4, species=["orion", "terrans", "terrans", "terrans"])
    st = dict(g.state.values)
    st[("v", "ambassadors", 0)] = (1, 2, 3)
    st[("v", "ambassadors", 1)] = (0, 2)
    st[("v", "reputation", 1)] = (4, 3, 3)
    g.state = type(g.state)(st, g.state.pending)
    assert rep_capacity.fn(Context(g.ruleset, g.state.values, me=0)) == 1 + 4 - 3
    assert rep_capacity.fn(Context(g.ruleset, g.state.values, me=1)) == 4 - (2 - 1)
    ctx = Context(g.ruleset, g.state.values)
    assert _amb_room(ctx, 0)            # a 4th ambassador fits in the last either-slot
    assert not _amb_room(ctx, 1)        # 3 reputation tiles + 2 ambassadors fill all 5


def test_refused_proposals_name_the_rule_and_change_nothing():
    """Each condition of the diplomacy rule (actions.rules) has its own message."""
    two = new(2)
    before = two.state
    with pytest.raises(IllegalActionError, match="4 or more players"):
        two.play("p1 diplomacy p2")
    assert two.state == before
    g = _four()
    with pytest.raises(IllegalActionError, match="joined by a wormhole"):
        g.play("p1 diplomacy p3")                       # p3's hexes are not connected
    g.play("p1 diplomacy p2")
    g.play("p2 accept false")
    with pytest.raises(IllegalActionError, match="one proposal to each player per round"):
        g.play("p1 diplomacy p2")
