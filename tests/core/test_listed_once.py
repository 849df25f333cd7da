"""Each legal action listed once, and a sample drawing from the decision due (session 19).

A value that a parameter's domain or a decision's options hold twice was listed twice (Gaia's
build_mine and income did so in seeded random games), so a random player choosing among the
listed favoured it; in a 'lanes' step with several chance decisions waiting, a sample of
chance's actions drew from all of them, not from the one :meth:`Game.chance_due` names."""

from __future__ import annotations

import random

import pytest

import boardrules

GAME = """
game probe { players 2..2 }
resource coins { start 0; scored true }
var pile: list[int] = [5, 7, 5]
action pick main { choose x in [1, 1, 2] { gain x coins } }
action luck main { choose y in [1, 2, 1, 1] by chance { gain y coins } }
action bag main { draw z from pile { gain z coins } }
action take(n: int in [3, 3, 4, 3]) main { gain n coins }
flow { rounds 1 { step play: turns seat once { main pick, luck, bag, take } } }
"""


def _game(backend: str) -> boardrules.Game:
    game = boardrules.new_game(texts={"probe.rules": GAME}, players=2, backend=backend)
    game.auto_chance = False
    return game


@pytest.mark.parametrize("backend", ["compiled", "interpreted"])
@pytest.mark.parametrize("first, listed", [
    (None, ["p1 pick", "p1 luck", "p1 bag", "p1 take 3", "p1 take 4"]),
    ("p1 pick", ["p1 x 1", "p1 x 2"]),
    ("p1 luck", ["chance y 1", "chance y 2"]),
    ("p1 bag", ["chance z 5", "chance z 7"]),
])
def test_each_legal_action_is_listed_once(first, listed, backend):
    game = _game(backend)
    if first is not None:
        game.play(first)
    actions = game.legal_actions()
    assert [str(a) for a in actions] == listed
    assert len(actions) == len(listed) and [str(a) for a in game.legal_actions()] == listed


def test_a_random_player_is_not_drawn_to_a_value_listed_twice():
    game = _game("compiled")
    game.play("p1 pick")
    draws = [str(random.Random(seed).choice(list(game.legal_actions()))) for seed in range(400)]
    assert 150 < draws.count("p1 x 1") < 250   # (listed twice: about 267 of 400)


LANES = """
game relay { players 2..4 }
resource coins { scored true }
action roll_a main { choose a in [1, 2] by chance { gain a coins } }
action roll_b main { choose b in [3, 4, 5, 6] by chance { gain b coins } }
action stop main { pass }
flow { rounds 1 { step play: turns seat until_all_pass {
  main roll_a, roll_b, stop
  lanes [players[0], players[1]]
} } }
"""


@pytest.mark.parametrize("order", [("p2 roll_b", "p1 roll_a"), ("p1 roll_a", "p2 roll_b")])
def test_a_sample_of_chance_draws_the_decision_chance_due_names(order):
    game = boardrules.new_game(texts={"relay.rules": LANES}, players=2)
    game.auto_chance = False
    for a in order:
        game.play(a)
    assert sorted(d.label for d in game.state.pending) == ["a", "b"]
    due = game.chance_due()
    assert due is not None and due.label == "a"   # (lane 0's, p1's)
    listed = game.legal_actions(boardrules.CHANCE)
    assert {str(a) for a in listed} == {"chance a 1", "chance a 2", "chance b 3", "chance b 4",
                                        "chance b 5", "chance b 6"}
    drawn = {str(game.legal_actions(boardrules.CHANCE).sample(random.Random(seed)))
             for seed in range(40)}
    assert drawn == {"chance a 1", "chance a 2"}   # (before: b's four among them, 2 in 3 draws)

