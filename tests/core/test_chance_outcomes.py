"""``Game.chance_outcomes()``: the outcomes of the chance decision due, with the probabilities
the game's own draw gives them. A draw from a pile holding several copies of a card picks one
of its elements (so a card by its copies), while ``legal_actions()`` lists each distinct
outcome once: the listing said nothing of the odds, and the OpenSpiel adapter worked them out
on its own. Held here: the listed probabilities are exactly copies / total (of the outcomes the
rules allow), and every way chance is drawn (the seeded draw, ``decide_chance``,
``legal_actions().sample``) picks each outcome with them."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import boardrules
from boardrules import CHANCE, Action

RULES = """game pile {{ players 2..2 }}
resource vp {{ scored true }}
var deck: list[int] = {deck}
var got: int = 0
action work main {{ choose n in {deck} by chance {{ REFUSE set got = n }} }}
flow {{ setup {{ step deal: do {{ draw c from deck {{ REFUSE set got = c }} }} }}
       rounds 1 {{ step play: turns seat once {{ main work }} }} }}
"""


def _rules(deck: list[int], refused: int | None = None) -> boardrules.Ruleset:
    refuse = "" if refused is None else f'require VAR != {refused} else "refused";'
    text = RULES.format(deck=deck).replace("REFUSE", refuse)
    text = text.replace("require VAR", "require n", 1).replace("require VAR", "require c", 1)
    return boardrules.build_ruleset(texts={"pile.rules": text})


def _expected(label: str, deck: list[int], refused: int | None = None) -> dict[Action, Fraction]:
    kept = [v for v in deck if v != refused]
    return {Action(CHANCE, label, (v,)): Fraction(n, len(kept)) for v, n in Counter(kept).items()}


class _Position(random.Random):
    """A generator whose every draw of a position among ``n`` gives ``k % n``: each position of
    the pile in turn, so the outcomes drawn over k = 0..n-1 are the draw's distribution itself."""

    def __init__(self, k: int):
        super().__init__(0)
        self.k = k

    def _randbelow(self, n: int) -> int:   # (what choice and randrange draw with)
        return self.k % n


decks = st.lists(st.integers(1, 4), min_size=1, max_size=9)


@settings(max_examples=40, deadline=None)
@given(decks)
def test_the_listed_probabilities_are_the_copies_and_the_draw_follows_them(deck):
    rs = _rules(deck)
    for label, prepare in (("c", lambda g: None), ("n", lambda g: (g.play(f"chance c {deck[0]}"),
                                                                     g.play("p1 work")))):
        g = boardrules.Game(rs, 2, 1, auto_chance=False)
        prepare(g)
        outcomes = dict(g.chance_outcomes())
        assert outcomes == _expected(label, deck) and sum(outcomes.values()) == 1
        # each distinct outcome listed once, as legal_actions() lists them, in the pile's order
        assert list(outcomes) == list(g.legal_actions()) == [Action(CHANCE, label, (v,)) for v in dict.fromkeys(deck)]
        # every position of the pile drawn once: the outcomes drawn, by copies, are the listing
        for draw in (lambda rng: g.legal_actions().sample(rng), lambda rng: _decided(g, rng)):
            drawn = Counter(draw(_Position(k)) for k in range(len(deck)))
            assert {a: Fraction(n, len(deck)) for a, n in drawn.items()} == outcomes


def _decided(g: boardrules.Game, rng: random.Random) -> Action:
    c = g.copy()
    assert c.decide_chance(rng)
    return Action(CHANCE, *c.record.actions[-1].split()[1:2], (int(c.record.actions[-1].split()[2]),))


@settings(max_examples=25, deadline=None)
@given(decks.filter(lambda d: len(set(d)) > 1), st.data())
def test_an_outcome_the_rules_refuse_leaves_its_probability_to_the_others(deck, data):
    refused = data.draw(st.sampled_from(sorted(set(deck))))
    g = boardrules.Game(_rules(deck, refused), 2, 1, auto_chance=False)
    assert dict(g.chance_outcomes()) == _expected("c", deck, refused)


def test_seeded_draws_come_out_at_the_listed_frequencies():
    """The game's own seeded draw (``random.Random(f"{seed}/{move}")``) over 3,000 seeds: each
    card's share within 4 standard deviations of its listed probability, a refused card never."""
    deck, n = [1, 1, 1, 2, 3, 3], 3000
    for refused in (None, 3):
        rs = _rules(deck, refused)
        listed = dict(boardrules.Game(rs, 2, 1, auto_chance=False).chance_outcomes())
        drawn = Counter(boardrules.Game(rs, 2, seed).record.actions[0] for seed in range(n))
        assert set(drawn) == {str(a) for a in listed}
        for action, p in listed.items():
            sigma = (float(p) * (1 - float(p)) / n) ** 0.5
            assert abs(drawn[str(action)] / n - float(p)) < 4 * sigma, (action, drawn, listed)


def test_no_chance_due_and_dice():
    g = boardrules.new_game("harvest", players=2, seed=1)
    assert g.chance_due() is None and g.chance_outcomes() == ()
    text = """game roll { players 2..2 }
resource vp { scored true }
action few main { choose r in dice(2) by chance { gain r[0] vp } }
action many main { choose r in dice(7) by chance { gain r[0] vp } }
flow { rounds 1 { step play: turns seat once { main few, many } } }
"""
    rs = boardrules.build_ruleset(texts={"roll.rules": text})
    g = boardrules.Game(rs, 2, 1, auto_chance=False)
    g.play("p1 few")
    outcomes = g.chance_outcomes()
    assert len(outcomes) == 36 and {p for _, p in outcomes} == {Fraction(1, 36)}
    g = boardrules.Game(rs, 2, 1, auto_chance=False)
    g.play("p1 many")
    with pytest.raises(boardrules.ExecutionBudgetError, match="a roll of 7 dice has 279936 outcomes"):
        g.chance_outcomes()


def test_openspiel_gives_the_games_probabilities():
    pytest.importorskip("pyspiel")
    from boardrules.adapters import openspiel as O
    deck = [2, 2, 2, 4]
    text = RULES.format(deck=deck).replace("REFUSE", "")
    name = O.register(None, texts={"pile.rules": text})
    state = O.load(name, players=2, seed=1).new_initial_state()
    assert state.is_chance_node()
    listed = {str(a): float(p) for a, p in state.game.chance_outcomes()}
    got = {state.action_to_string(-1, i): p for i, p in state.chance_outcomes()}
    assert got == listed == {"chance c 2": 0.75, "chance c 4": 0.25}
