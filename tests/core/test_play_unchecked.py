"""``Game.play(check=False)``: the fast path for trusted records skips only what checking needs
(the membership test, the arguments' domains); a rule an action breaks still refuses it, with
the rule's words, and the game is left exactly as it was (docs/api.md, "Playing")."""

from __future__ import annotations

import random

import pytest

import boardrules


def _harvest_with_p1_field():
    """Harvest, 2 players: p1 has just built on field a1 and it is p2's turn."""
    g = boardrules.new_game("harvest", players=2, seed=1)
    while not g.state.values.get(("f", "round")):   # the setup's picks
        g.play(g.legal_actions()[0])
    g.play("p1 build_farm a1")
    g.play("p1 done")
    return g


@pytest.mark.parametrize("check", [True, False])
def test_a_where_condition_refuses_with_and_without_checks(check):
    g = _harvest_with_p1_field()
    before, record = g.state, list(g.record.actions)
    with pytest.raises(boardrules.IllegalActionError, match="that field is taken") as info:
        g.play("p2 build_farm a1", check=check)
    assert info.value.rule.startswith("build_farm")
    assert g.state is before and g.record.actions == record


@pytest.mark.parametrize("check", [True, False])
def test_a_require_refuses_with_and_without_checks(check):
    g = _harvest_with_p1_field()
    before = g.state
    held = [c for c in ("sow", "reap", "market", "tithe") if g.state.values.get(("o", c)) == 1]
    assert held, "p2 bought a card in the setup"
    with pytest.raises(boardrules.IllegalActionError, match="you have that card already"):
        g.play(f"p2 buy {held[0]}", check=check)
    assert g.state is before


def test_the_domain_is_tested_with_checks():
    g = _harvest_with_p1_field()
    before = g.state
    with pytest.raises(boardrules.IllegalActionError, match="not a possible n"):
        g.play("p2 sell 7")
    assert g.state is before


def test_random_games_play_the_same_with_and_without_checks():
    """Whole random Harvest games: every action played with and without checks gives the
    same state, record and log."""
    for seed in range(4):
        a = boardrules.new_game("harvest", players=3, seed=seed)
        b = boardrules.new_game("harvest", players=3, seed=seed)
        rnd = random.Random(seed)
        while not a.over:
            action = rnd.choice(list(a.legal_actions()))
            a.play(action)
            b.play(action, check=False)
            assert a.state == b.state
        assert a.record.actions == b.record.actions and a.log == b.log
