"""A turn's end is listed without the run that ends it when nothing at the turn's end can break
a rule (no ``turn_ends`` rule, no 'after turn' block, the flow then waits or hands the turn on
within the step): ``done`` after a main action (game.py ``_done_settles``), and a main action of
a step without free actions, which ends its turn (``_guard_settles``: its guard's checks, a
rest that leaves no 'after turn' block, ``_pass_settles``). The oracle: the listing equals the
full tries on every state and the played state equals a full run (tests/core/test_guards.py,
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
# a main action of the pick step (no free actions: it ends the turn) whose rest leaves a
# block that breaks a rule at the turn's end for a player holding more than 2 coins
PICK_AFTER = """action save main {
  gain 1 coins
  after turn { require coins < 3 else "too rich after the turn" }
}
extend step pick { main save }
"""
VARIANTS = {"plain": "", "turn_ends": TURN_ENDS, "after": AFTER, "pick_after": PICK_AFTER}


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
    ended = counted(monkeypatch, "_pass_settles")   # (the pick step's turns: no free actions)
    play(variant, seed)
    if variant == "turn_ends":
        assert seen[0] == 0 and seen[1] > 0   # (a rule reacts to the turn's end: always run)
        assert ended[0] == 0
    else:
        assert seen[0] > 0   # (the shortcut is taken where nothing follows the turn)
        assert ended[0] > 0   # (a pick that hands the turn on)
    if variant == "after":
        assert seen[1] > 0   # (a turn that left an 'after turn' block: run in full)


def test_a_rest_that_leaves_an_after_turn_block_is_known():
    rs = game("pick_after", 1).ruleset
    guards = rs.guards
    assert guards.leaves_after(guards.action_for("save", ()))
    assert not guards.leaves_after(guards.action_for("buy", ("sow",)))


@pytest.mark.parametrize("variant,method", [("turn_ends", "_done_settles"), ("after", "_done_settles"),
                                            ("pick_after", "leaves_after")])
def test_a_wrong_turn_end_settle_is_caught(variant, method, monkeypatch):
    """Were every such turn's end taken as settled, the listing would differ from the full
    tries."""
    if method == "leaves_after":
        from boardrules.lang.guards import Guards
        monkeypatch.setattr(Guards, method, lambda self, guard: False)
    else:
        monkeypatch.setattr(G.Game, method, lambda self, info: True)
    with pytest.raises(AssertionError):
        for seed in (1, 2, 3):
            play(variant, seed)
