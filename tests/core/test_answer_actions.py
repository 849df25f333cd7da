"""Issue 12: the answers to a decision on texts are kept, one Action per (decider, label, text)
(``game/actions.py``, ``_ANSWERS``): listed again, an answer is the same Action, equal to the
one made afresh, with the same hash and the same play; other values are made afresh (1 and
true are equal keys); the store is bounded (``MAX_ANSWERS``)."""

from __future__ import annotations

from boardrules import Action, new_game
from boardrules.game import actions as A

RULES = """game g { players 2..2 }
resource coins { start 3; scored true }
var picked: list[text] = []
action pick main {
  choose w in ["red", "green", "blue"] "a colour" { set picked = picked + [w] }
}
action number main {
  choose n in [1, 2] "a number" { gain n coins }
}
flow { rounds 2 { step s: turns seat once { main pick, number } } }
"""


def game():
    return new_game(texts={"g.rules": RULES}, players=2, seed=1)


def answers(g) -> list[Action]:
    return list(g.legal_actions())


def test_text_answers_are_kept_and_equal_fresh_ones():
    g = game()
    g.play("p1 pick")
    first = answers(g)
    assert [str(a) for a in first] == ["p1 w red", "p1 w green", "p1 w blue"]
    fresh = [Action(a.player, a.name, a.args) for a in first]
    assert first == fresh and [hash(a) for a in first] == [hash(a) for a in fresh]
    again = game()
    again.play("p1 pick")
    assert all(a is b for a, b in zip(answers(again), first))   # (the kept ones)
    g.play(first[1])
    again.play(fresh[1])
    assert g.state == again.state and g.get("picked") == ("green",)


def test_the_same_text_for_another_player_or_label_is_another_answer():
    kept = A._answer(0, "w", "red")
    assert A._answer(0, "w", "red") is kept
    assert A._answer(1, "w", "red") == Action(1, "w", ("red",)) != kept
    assert A._answer(0, "v", "red") == Action(0, "v", ("red",)) != kept


def test_other_values_are_made_afresh():
    """1 and true are equal dict keys: a kept answer 1 would be handed out for true."""
    one, yes = A._answer(0, "n", 1), A._answer(0, "n", True)
    assert one.args[0] is not True and yes.args[0] is True
    assert A._answer(0, "n", 1) is not one
    g = game()
    g.play("p1 number")
    assert [a.args for a in answers(g)] == [(1,), (2,)]


def test_the_kept_answers_are_bounded():
    A._answer(0, "w", "red")
    for i in range(A.MAX_ANSWERS + 10):
        A._answer(0, "many", f"t{i}")
        assert sum(map(len, A._ANSWERS.values())) == A._KEPT[0] <= A.MAX_ANSWERS
    assert A._answer(0, "many", f"t{A.MAX_ANSWERS + 9}").args == (f"t{A.MAX_ANSWERS + 9}",)


def test_a_decisions_text_answers_are_looked_up_at_once():
    """``_answers`` (a listing of an Upgrade's ~140 texts): the kept Actions of ``_answer``, in
    the options' order, those not kept yet made and kept."""
    red = A._answer(0, "w", "red")
    got = A._answers(0, "w", {"blue": None, "red": None, "green": None})
    assert [a.args for a in got] == [("blue",), ("red",), ("green",)] and got[1] is red
    assert all(a is A._answer(0, "w", a.args[0]) for a in got)
    assert A._answers(0, "w", ("green", "blue")) == [got[2], got[0]]
