"""Several players' Gaia-phase decisions (the Terrans' and the Itars' planetary institutes)
are asked in the round's turn order, the order set by passing, as the site asks them
(issue 7), not in seat order."""

from __future__ import annotations

import boardrules
from boardrules.state import State

from tests.gaia.test_game import GAME

DECISIONS = ("gaia_spend", "itars_tech")   # Terrans' conversion, Itars' tech tile


def _set(g, values: dict) -> None:
    g.state = State({**g.state.values, **values}, g.state.pending)


def test_gaia_phase_decisions_follow_the_pass_order():
    g = boardrules.new_game(GAME, players=2, seed=1)
    g.play("p1 pick_faction itars")      # seat 1: the Itars
    g.play("p2 pick_faction terrans")    # seat 2: the Terrans
    while "pass_round" not in {a.name for a in g.legal_actions()}:
        g.play(next(iter(g.legal_actions())))
    # round 1: p1 acts, p2 passes first, then p1: round 2's turn order is p2, p1
    g.play(next(a for a in g.legal_actions() if a.name not in ("pass_round", "pass_last")))
    while g.players_to_act() != {1}:
        g.play(next(iter(g.legal_actions())))
    g.play(next(a for a in g.legal_actions() if a.name == "pass_round"))
    while g.players_to_act() != {0}:
        g.play(next(iter(g.legal_actions())))
    # both planetary institutes, 4 tokens in each Gaia area
    _set(g, {("v", "built", p, "pi"): 1 for p in (0, 1)}
         | {("r", "gaia_power", p): 4 for p in (0, 1)})
    g.play(next(a for a in g.legal_actions() if a.name == "pass_round"))
    assert g.get("turn_order") == (1, 0)
    first = next(iter(g.legal_actions()))
    while first.name not in DECISIONS:
        g.play(first)
        first = next(iter(g.legal_actions()))
    # seat order would ask the Itars (p1) first
    assert (first.name, first.player) == ("gaia_spend", 1), "the Terrans (first in turn order) first"
    g.play(first)
    while first.name != "itars_tech":
        first = next(iter(g.legal_actions()))
        g.play(first)
    assert first.player == 0
