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


# ---- a draw from a large pile (session 19) -------------------------------------------------------
# Each of a pile's values was tried in full, each try copying the pile, and each run kept: a pile
# of 2,000 cards listed in 0.6 s, 8,000 in 13 s, the runs holding 8,000 copies of the pile. A
# draw whose body cannot break a rule, in a turn that goes on, now lists its values untried
# (as a player's decision does: Game._answers_settle); one that must be tried keeps no run.

def _pile(n: int, body: str, free: str = "free tip") -> boardrules.Game:
    text = (f"game probe {{ players 2..2 }}\nresource coins {{ start 0; scored true }}\n"
            f"var pile: list[int] = [{', '.join(str(i % (n - 3)) for i in range(n))}]\n"
            f"action deal main {{ draw c from pile {{ {body} }} }}\naction tip free {{ gain 0 coins }}\n"
            f"flow {{ rounds 1 {{ step play: turns seat once {{ main deal; {free} }} }} }}\n")
    game = boardrules.new_game(texts={"probe.rules": text}, players=2)
    game.auto_chance = False
    game.play("p1 deal")
    return game


def _runs(game: boardrules.Game, monkeypatch: pytest.MonkeyPatch) -> int:
    """How many runs listing ``game``'s legal actions makes."""
    count = [0]
    real = type(game)._run

    def counted(self, *args, **kw):
        count[0] += 1
        return real(self, *args, **kw)
    monkeypatch.setattr(type(game), "_run", counted)
    listed = list(game.legal_actions())
    monkeypatch.undo()
    assert len(listed) == len(set(listed))
    return count[0]


@pytest.mark.parametrize("n", [2000, 8000])
def test_a_large_pile_is_listed_without_a_try_per_card(n, monkeypatch):
    game = _pile(n, "gain c coins")
    assert _runs(game, monkeypatch) == 0    # (before: one per distinct card, each copying the pile)
    assert len(game.legal_actions()) == n - 3   # (three cards twice: listed once)
    game.play("chance c 4")
    assert game.get("coins", 0) == 4 and len(game.get("pile")) == n - 1


def test_a_pile_whose_cards_must_be_tried_keeps_no_run_per_card(monkeypatch):
    from boardrules.game import ACCEPTED
    game = _pile(500, 'require c != 5 else "not that one"; gain c coins')
    assert _runs(game, monkeypatch) == 497
    assert "chance c 5" not in {str(a) for a in game.legal_actions()}
    known = game._known_for(game.state)
    assert known is not None and set(map(id, known.runs.values())) == {id(ACCEPTED)}
    game.play("chance c 7")
    assert game.get("coins", 0) == 7 and len(game.get("pile")) == 499


KINDS = """
game probe { players 2..2 }
resource coins { start 0; scored true }
kind card { field cost: int = 0 }
card plough { cost 3 }
card sickle { cost 1 }
var pile: list[int] = [5, 7, 5]
action pick(c: card in card, n: int in 1..2, m: int in pile + [7], w: int in pile, q: player) main {
  gain 1 coins
}
flow { rounds 1 { step play: turns seat once { main pick } } }
"""


@pytest.mark.parametrize("backend", ["compiled", "interpreted"])
def test_only_a_domain_that_may_hold_a_value_twice_is_made_unique(backend):
    # (decided when the rules are built: a kind, a range or a type's own values cannot, and
    # are listed as they are, no work per listing; a list kept or joined may)
    game = boardrules.new_game(texts={"probe.rules": KINDS}, players=2, backend=backend)
    assert game.ruleset.param_repeats["pick"] == (False, False, True, True, False)
    listed = [str(a) for a in game.legal_actions()]
    assert len(listed) == 2 * 2 * 2 * 2 * 2 and len(set(listed)) == len(listed)
    assert listed == [str(a) for a in game._legal_by_trying()]
