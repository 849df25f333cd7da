"""Gaia Project's option ``factions`` restricts the faction pool (issue 7): only those
factions may be picked; an unknown name, or a pool with fewer colours than players, is refused
with a clear error before anything is played; records keep the option."""

from __future__ import annotations

import random

import pytest

import boardrules
from boardrules import BoardrulesError, IllegalActionError

GAME = "gaia-project"


def test_only_the_pool_may_be_picked_and_games_play_through():
    g = boardrules.new_game(GAME, players=2, seed=5, options={"factions": ["terrans", "xenos", "itars"]})
    assert sorted(a.args[0] for a in g.legal_actions()) == ["itars", "terrans", "xenos"]
    with pytest.raises(IllegalActionError, match="that faction is not in this game's pool"):
        g.play("p1 pick_faction gleens")
    rnd = random.Random(5)
    while not g.over:
        g.play(rnd.choice(list(g.legal_actions())))
    picked = {g.get("myfaction", p) for p in range(2)}
    assert picked <= {"terrans", "xenos", "itars"} and len(picked) == 2
    again = boardrules.load_game(g.save())
    assert again.state == g.state and again.ruleset.option("factions") == ("terrans", "xenos", "itars")


def test_an_unknown_faction_is_named():
    with pytest.raises(BoardrulesError, match="option 'factions': no faction 'xenoz'; the factions "
                                              "are ambas, baltaks, "):
        boardrules.new_game(GAME, players=2, options={"factions": ["terrans", "xenoz"]})


@pytest.mark.parametrize("pool,players", [(["terrans", "xenos"], 3),
                                          (["terrans", "lantids", "xenos"], 3)])  # two are red
def test_a_pool_too_small_for_the_players_is_refused(pool, players):
    with pytest.raises(IllegalActionError, match=r"the game cannot start: step 'deal' breaks a rule "
                       r"\(the factions in this game \(option 'factions', the faction modules\) offer fewer "
                       r"colours than there "
                       r"are players\)"):
        boardrules.new_game(GAME, players=players, options={"factions": pool})
    boardrules.new_game(GAME, players=players - 1, options={"factions": pool})


def test_the_pool_is_a_list():
    with pytest.raises(BoardrulesError, match="option 'factions' needs a list"):
        boardrules.new_game(GAME, players=2, options={"factions": "terrans"})
