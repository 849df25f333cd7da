"""The text form of every Eclipse action round-trips: ``game.parse(str(a)) == a`` for every
legal action met in random games (2-6 players), decisions and chance outcomes included."""

from __future__ import annotations

import random

import pytest

import boardrules


@pytest.mark.parametrize("players,seed,moves", [(2, 11, 500), (4, 12, 300), (6, 13, 200)])
def test_every_legal_action_round_trips(players, seed, moves):
    g = boardrules.new_game("eclipse", players=players, seed=seed)
    g.auto_chance = False
    rng = random.Random(seed)
    names = set()
    for _ in range(moves):
        if g.over:
            break
        legal = list(g.legal_actions())
        for a in legal:
            text = str(a)
            assert g.parse(text) == a, text
            assert g.format(a) == text
            names.add(a.name)
        g.play(rng.choice(legal))
    # the notation was exercised on turn actions, decisions and chance outcomes
    assert {"explore", "space", "sector", "rotation", "pass_turn", "done"} <= names


def test_record_is_the_notation():
    g = boardrules.new_game("eclipse", players=2, seed=4)
    rng = random.Random(4)
    for _ in range(200):
        g.play(rng.choice(list(g.legal_actions())))
    for text in g.record.actions:
        assert str(g.parse(text)) == text or text.startswith("chance ")
    assert boardrules.load_game(g.save()).state == g.state


def test_combat_decisions_round_trip():
    from boardrules.game import Action
    from boardrules.runtime import CHANCE

    from .test_combat_play import FAR, _end_actions, _stage
    from .test_game import new

    g = new(2)
    g.auto_chance = False
    _stage(g, FAR, "s301", ships=[(1, "interceptor"), (1, "cruiser"), (0, "interceptor"),
                                  (0, "interceptor"), (0, "cruiser")])
    _end_actions(g)
    g.play(Action(CHANCE, "rolls", ((1,),)))
    g.play(Action(CHANCE, "rolls", ((6, 6),)))
    seen = set()
    while g.get("round") == 1 and not g.over:
        legal = list(g.legal_actions())
        for a in legal:
            assert g.parse(str(a)) == a, str(a)
            seen.add(a.name)
        hits = [a for a in legal if a.player != CHANCE]
        g.play(hits[0] if hits else legal[-1])
    assert "hit" in seen
