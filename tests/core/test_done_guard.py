"""``done`` (a turn's end after its main action) is listed without its run when the turn's end
cannot break a rule (game.py ``_done_settles``: no ``turn_ends`` rule, no 'after turn' block,
the flow then waits or hands the turn on). The oracle: the listing equals the full tries on
every state and the played state equals a full run (tests/core/test_guards.py,
``compare_states``), in Harvest house-rule games where a turn's end can break a rule."""

from __future__ import annotations

import random

import pytest

import boardrules
from boardrules import GameStuckError
from boardrules import game as G
from tests.core.test_flow_settle import counted
from tests.core.test_guards import compare_states
from tests.core.test_pass_guard import TURN_ENDS

# a free action whose 'after turn' block breaks a rule for a player holding more than 2 coins
AFTER = """action note free { after turn { require coins < 3 else "too rich after the turn" } }
extend step actions { free note }
"""
VARIANTS = {"plain": "", "turn_ends": TURN_ENDS, "after": AFTER}


def game(variant: str, seed: int):
    return boardrules.new_game("harvest", players=3, seed=seed, texts={"h.rules": VARIANTS[variant]})


def play(variant: str, seed: int) -> None:
    g = game(variant, seed)
    try:
        assert compare_states(g, 300, random.Random(seed)) > 0
    except GameStuckError:   # (too rich to end a turn: nothing is legal, by the full tries too)
        assert variant != "plain" and g._legal_by_trying() == []


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_done_lists_as_the_full_tries(variant, seed, monkeypatch):
    seen = counted(monkeypatch, "_done_settles")   # [settled without a run, run in full]
    play(variant, seed)
    if variant == "turn_ends":
        assert seen[0] == 0 and seen[1] > 0   # (a rule reacts to the turn's end: always run)
    else:
        assert seen[0] > 0   # (the shortcut is taken where nothing follows the turn)
    if variant == "after":
        assert seen[1] > 0   # (a turn that left an 'after turn' block: run in full)


@pytest.mark.parametrize("variant", ["turn_ends", "after"])
def test_a_wrong_done_settle_is_caught(variant, monkeypatch):
    """Were every ``done`` taken as settled, the listing would differ from the full tries."""
    monkeypatch.setattr(G.Game, "_done_settles", lambda self: True)
    with pytest.raises(AssertionError):
        for seed in (1, 2, 3):
            play(variant, seed)
