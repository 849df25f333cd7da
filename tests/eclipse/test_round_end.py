"""The Reputation step draws one series at a time: each player draws, keeps one tile and returns
the rest before the next player draws [S Second Dawn quick reference (dized)]. Before, every
owed series' first draw was queued in one run, and a ``draw`` refuses when the draws queued
before it take what the bag holds (semantics.draw): a bag holding fewer tiles than the players
owed a series made the round's last pass illegal, and the game could not be finished. The
round's last ``pass_turn`` is listed by running that round end in full (its flow is not proven
unable to break a rule: ``scripts/flow_refusals.py eclipse``), so the listing equals the full
tries here too; tests/core/test_flow_settle.py holds the analysis to round ends that can break a
rule."""

from __future__ import annotations

from boardrules.game import CHANCE, Action

from .test_edge_cases import _set
from .test_game import new


def _last_pass(bag: tuple[int, ...], **more):
    """A two-player game at p2's last turn of round 1 (p1 has passed), both owing one draw
    series of one tile, the reputation bag holding ``bag``; chance left to the test."""
    g = new(2)
    g.auto_chance = False
    _set(g, v__reputation_bag=bag, v__rep_owed__0=(1,), v__rep_owed__1=(1,),
         v__rep_rank__0=(), v__rep_rank__1=(), **more)
    g.play("p1 pass_turn")
    listed = list(g.legal_actions())
    assert listed == g._legal_by_trying()
    assert any(a.name == "pass_turn" for a in listed)
    g.play("p2 pass_turn")
    return g


def _draw(g, tile: int, player: int) -> None:
    """Decide the one pending reputation draw, made for ``player``, as ``tile``."""
    assert [(d.label, d.me) for d in g.state.pending] == [("rep_tile", player)]
    g.play(Action(CHANCE, "rep_tile", (tile,)))


def test_a_bag_short_of_tiles_leaves_the_later_series_without_a_draw():
    """One tile for two series: p1 draws and keeps it, then p2 finds the bag empty and draws
    nothing; the round goes on (it was a rule broken at the last pass: the game was stuck)."""
    g = _last_pass((2,))
    _draw(g, 2, 0)
    assert not any(d.label == "rep_tile" for d in g.state.pending)
    assert g.get("reputation", 0) == (2,) and g.get("reputation", 1) == ()
    assert g.get("reputation_bag") == () and g.get("rep_due", 1) == ()


def test_a_tile_returned_is_in_the_bag_for_the_next_series():
    """p1's track is full of better tiles, so p1 returns the tile drawn before p2 draws: p2
    draws that same tile from a bag of one."""
    full = (4,) * 6
    g = _last_pass((2,), v__reputation__0=full)
    _draw(g, 2, 0)
    assert g.get("reputation", 0) == full and g.get("reputation_bag") == (2,)
    _draw(g, 2, 1)
    assert g.get("reputation", 1) == (2,) and g.get("reputation_bag") == ()
