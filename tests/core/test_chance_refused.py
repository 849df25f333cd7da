"""Chance played by the game itself (``auto_chance``) plays only outcomes the rules allow: an
outcome a rule refuses (a ``require`` in the decision's body) is not among chance's legal
actions, so the seeded draw goes on among the others. It used to raise IllegalActionError
from ``play`` with the player's own move already played (the game not as before)."""

from __future__ import annotations

import pytest

import boardrules
from boardrules import CHANCE, GameStuckError


def _rules(options: str, require: str) -> dict[str, str]:
    return {"luck.rules": f"""
game luck {{ players 1..2 }}
resource coins {{ start 0; scored true }}
action work main {{ choose n in {options} by chance "luck" {{ require {require} else "refused"; gain 1 coins }} }}
flow {{ rounds 3 {{ step play: turns seat once {{ main work }} }} }}
"""}


@pytest.mark.parametrize("options, require, allowed", [
    ("[1, 2, 3]", "n != 2", {"chance n 1", "chance n 3"}),
    ("dice(2)", "n[0] != n[1]", {f"chance n {a},{b}" for a in range(1, 7) for b in range(1, 7) if a != b}),
])
def test_chance_plays_only_an_outcome_the_rules_allow(options, require, allowed):
    for seed in range(12):   # (seeds 1 and 4 drew the refused 2 first)
        game = boardrules.new_game(texts=_rules(options, require), players=1, seed=seed)
        game.play("p1 work")
        assert game.record.actions[-1] in allowed and game.get("coins", 0) == 1
        table = boardrules.Game(game.ruleset, 1, seed, auto_chance=False)
        table.play("p1 work")
        assert game.record.actions[-1] in table.legal_actions(CHANCE)


def test_chance_with_no_outcome_allowed_waits_and_the_game_says_it_is_stuck():
    game = boardrules.new_game(texts=_rules("[1, 2]", "n > 5"), players=1, seed=1)
    game.play("p1 work")
    assert game.record.actions == ["p1 work"] and game.players_to_act() == {CHANCE}
    with pytest.raises(GameStuckError, match="chance's decision 'n' .* has no legal option"):
        list(game.legal_actions())
