"""The round's last ``pass_turn`` is listed by running the round's end (combat, takeovers,
reputation, upkeep, cleanup, the next round's start) up to the next wait, because that flow is
not proven unable to break a rule (lang/flow.py ``after_step``; ``scripts/flow_refusals.py
eclipse``). It can break one with the rules as written: the Reputation step queues every owed
series' first draw in one run, and a ``draw`` fails when the draws queued before it from the
same bag take what it holds (semantics.draw), although ``reputation_draws`` tests only that the
bag is not empty. So a proof of that flow needs a fact about the bag checked where the step ends,
and a flow analysis that lets this round end settle would list an illegal pass."""

from __future__ import annotations

import pytest

from boardrules.errors import IllegalActionError
from boardrules.lang import flow as F

from .test_edge_cases import _set
from .test_game import new


def _last_pass(bag: tuple[int, ...]):
    """A two-player game at p2's last turn of round 1 (p1 has passed), both owing one draw
    series of one tile, the reputation bag holding ``bag``."""
    g = new(2)
    g.auto_chance = False
    _set(g, v__reputation_bag=bag, v__rep_owed__0=(1,), v__rep_owed__1=(1,),
         v__rep_rank__0=(), v__rep_rank__1=())
    g.play("p1 pass_turn")
    return g


@pytest.mark.parametrize("bag, breaks", [((2,), True), ((2, 3), False)])
def test_a_round_end_short_of_reputation_tiles_lists_as_the_full_tries(bag, breaks):
    """One tile for two queued draws: the Reputation step breaks a rule, so the last pass is
    illegal, as the full tries say; with two tiles it is legal."""
    g = _last_pass(bag)
    listed = list(g.legal_actions())
    assert listed == g._legal_by_trying()
    assert any(a.name == "pass_turn" for a in listed) is not breaks
    if breaks:
        with pytest.raises(IllegalActionError, match="nothing left to draw"):
            g.play("p2 pass_turn")
    else:
        g.play("p2 pass_turn")
        assert [d.label for d in g.state.pending] == ["rep_tile", "rep_tile"]


def test_a_permissive_flow_analysis_lists_the_broken_pass(monkeypatch):
    """The test above catches an analysis that lets this round end settle: the pass is then
    listed, and the full tries refuse it."""
    monkeypatch.setattr(F, "after_step", lambda rs, stage, step, last: (0, (), (), 0, ()))
    g = _last_pass((2,))
    listed = list(g.legal_actions())
    assert any(a.name == "pass_turn" for a in listed)
    assert listed != g._legal_by_trying()
