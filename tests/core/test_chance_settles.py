"""Chance outcomes proven legal untried (game.py, ``_chance_settles``): where the chance
decision's body cannot break a rule whichever outcome comes (lang/lazy.py, ``answers_hold``,
for a draw, a roll, a body run for no player) and the flow then waits (another decision is
due), ``legal_actions(CHANCE)`` lists every outcome without running one (it ran each: a roll
of four dice ran 1,296, and OpenSpiel's ``chance_outcomes()`` lists them so). Elsewhere each
outcome is still tried, and one a rule refuses is left out."""

from __future__ import annotations

import random

import pytest

import boardrules
from boardrules import CHANCE, Game
from boardrules.runtime import RuleViolation

RULES = """
game deal { title "Deal"; players 2 }
resource vp { start 0; scored true }
var deck: list[text] = ["a", "b", "c", "d"]
var hand: list[text] = []
action pick main { gain 1 vp }
flow {
  setup { step deal: do { for i in 1..2 { draw c from deck { set hand = hand + [c] } }
                          draw f from deck { require f != "a" else "no a"; set hand = hand + [f] }
                          draw l from deck { set hand = hand + [l] } } }
  rounds 1 { step play: turns seat once { main pick } }
}
"""


@pytest.fixture
def runs(monkeypatch):
    """The actions run in full from now on (``Game._run``: one per outcome tried)."""
    ran: list[str] = []
    real = Game._run

    def counted(self, action, *args, **kwargs):
        ran.append(str(action))
        return real(self, action, *args, **kwargs)
    monkeypatch.setattr(Game, "_run", counted)
    return ran


def _tried(game: Game) -> set[str]:
    """The oracle: the outcomes whose run breaks no rule."""
    d = game.chance_due()
    outcomes = set(game.get(d.bag)) if d.bag is not None else set(d.options)
    legal = set()
    for v in outcomes:
        action = boardrules.Action(CHANCE, d.label, (v,))
        try:
            game._run(action, args_checked=True)
        except RuleViolation:
            continue
        legal.add(str(action))
    return legal


def test_a_draw_whose_body_cannot_fail_and_then_another_is_listed_untried(runs):
    game = Game(boardrules.build_ruleset(None, texts={"deal.rules": RULES}), 2, 0, auto_chance=False)
    listed = sorted(map(str, game.legal_actions(CHANCE)))
    assert listed == ["chance c a", "chance c b", "chance c c", "chance c d"] and runs == []
    game.play("chance c b")
    runs.clear()   # (the play's run)
    assert len(list(game.legal_actions(CHANCE))) == 3 and runs == []
    game.play("chance c c")
    runs.clear()
    # a require: each tried, the refused one left out
    assert sorted(map(str, game.legal_actions(CHANCE))) == ["chance f d"] and len(runs) == 2
    game.play("chance f d")
    runs.clear()
    # the last draw: the flow then moves on to the turns (not proven): tried
    assert sorted(map(str, game.legal_actions(CHANCE))) == ["chance l a"]
    assert len(runs) == 1
    game.play("chance l a")
    assert game.get("hand") == ("b", "c", "d", "a") and game.players_to_act() == frozenset({0})


def test_proven_outcomes_are_those_the_runs_allow():
    """Soundness on Gaia Project's setup (tiles, boosters, federation: 29 of its 31 draws are
    proven; the map draw's body deals the map, not proven): each listing is the oracle's."""
    game = Game(boardrules.build_ruleset("gaia-project"), 2, 3, auto_chance=False)
    proven = 0
    while game.chance_due() is not None:
        d = game.chance_due()
        size = len(game.get(d.bag)) if d.bag is not None else len(d.options)
        if size <= 60:
            listed = set(map(str, game.legal_actions(CHANCE)))
            proven += game._answers_settle()
            assert listed == _tried(game), d.label
        game.decide_chance(random.Random(len(game.record.actions)))
    assert proven >= 25
