"""Whole numbers given from Python: any integer type ``operator.index`` reads (NumPy's, a
class with ``__index__``) is taken as that int wherever the API asks one (players, player
counts, seeds, budgets, actions' arguments, options' values, bots' seeds); a bool is not. And an action's
player is a seat counted from 0 or ``CHANCE`` (-1), nothing lower."""

from __future__ import annotations

import pytest

import boardrules
from boardrules import CHANCE, Action, Game
from boardrules.bots import make_bot
from boardrules.simulate import SimulationSpec

RULES = """
game bids { title "Bids"; players 2 }
resource vp { start 0; scored true }
action bid(n: int in 1..3) main { gain n vp }
action give(q: player) main { gain 1 vp to q }
flow { rounds 2 { step bids: turns seat once { main bid, give } } }
"""


class Index:
    """A whole number of a type that is not int (as NumPy's integers are)."""

    def __init__(self, n: int) -> None:
        self.n = n

    def __index__(self) -> int:
        return self.n


def _kinds() -> list:
    kinds = [Index]
    try:
        import numpy as np
    except ImportError:   # (numpy is not needed: the class above stands for it)
        return kinds
    return kinds + [np.int64, np.int8, np.uint8]


@pytest.fixture(params=_kinds(), ids=lambda k: k.__name__)
def whole(request):
    return request.param


def test_players_seeds_and_budgets_are_taken_as_ints(whole):
    rs = boardrules.build_ruleset(None, texts={"bids.rules": RULES})
    game = Game(rs, whole(2), whole(7), max_steps=whole(100))
    assert (type(game.players), type(game.seed), type(game.max_steps)) == (int, int, int)
    assert game.save() == Game(rs, 2, 7).save()   # (the record holds plain ints: JSON)
    new = boardrules.new_game(texts={"bids.rules": RULES}, players=whole(2), seed=whole(7))
    assert new.state == game.state and new.seed == 7
    assert list(game.legal_actions(whole(0))) == list(game.legal_actions(0))
    assert game.view(whole(1)) == game.view(1)
    assert game.main_action_done(whole(0)) is False
    assert game.get("vp", player=whole(1)) == 0 and game.reader().get("vp", whole(1)) == 0
    assert game.reader().passed(whole(1)) is False
    spec = SimulationSpec(rs, whole(2), whole(3), first_seed=whole(5), max_actions=whole(50))
    assert [(t.players, t.seed) for t in spec.tasks()] == [(2, 5), (2, 6), (2, 7)]
    assert make_bot("random", whole(3)).choose(game) == make_bot("random", 3).choose(game)


def test_actions_take_them_as_ints(whole):
    """An argument written 1 for a player was recorded 'p1 give 1', not 'p1 give p2', and an
    int argument was not legal by ``is_legal`` yet played."""
    rs = boardrules.build_ruleset(None, texts={"bids.rules": RULES})
    game = Game(rs, 2, 0)
    give = Action(whole(0), "give", (whole(1),))
    assert give == Action(0, "give", (1,)) and type(give.player) is int and type(give.args[0]) is int
    bid = Action(0, "bid", [whole(2)])
    assert game.is_legal(bid) and bid in game.legal_actions()
    game.play(give)
    assert game.record.actions == ["p1 give p2"]
    roll = Action(CHANCE, "r", ((whole(1), whole(6)),))
    assert roll.args == ((1, 6),) and str(roll) == "chance r 1,6"


def test_option_values_are_taken_as_ints(whole):
    """``options={"rounds": np.int64(2)}`` was an OptionError ('must be a whole number, ...')."""
    text = RULES.replace("rounds 2", "rounds laps") + "option laps = 2 in 1..5\n"
    game = boardrules.new_game(texts={"bids.rules": text}, players=2, options={"laps": whole(3)})
    assert game.ruleset is boardrules.build_ruleset(None, texts={"bids.rules": text}, options={"laps": 3})
    assert '"laps": 3' in game.save()


@pytest.mark.parametrize("value", [True, False, 1.0, "1"])
def test_what_is_not_a_whole_number_is_still_refused(value):
    rs = boardrules.build_ruleset(None, texts={"bids.rules": RULES})
    with pytest.raises(TypeError, match="must be a whole number"):
        Game(rs, value, 0) if value is not True else Game(rs, 2, value)
    with pytest.raises(TypeError, match="player must be a number counted from 0"):
        Action(value, "bid")
    game = Game(rs, 2, 0)
    # (a bool, a text, a float is no player, as for Action: TypeError everywhere a player is
    # asked; legal_actions(True) said ValueError 'no player True' where Action(True) said TypeError)
    for call in (game.legal_actions, game.candidates, game.view, game.main_action_done,
                 game.reader().passed, lambda p: make_bot("random", 1).choose(game, p)):
        with pytest.raises(TypeError, match="a player is a seat counted from 0 \\(an int: 0 for p1\\), not"):
            call(value)
    with pytest.raises(ValueError, match="no player 2 in a 2-player game"):
        game.legal_actions(2)


@pytest.mark.parametrize("call", [
    lambda rs: SimulationSpec(rs, 2, "3"), lambda rs: SimulationSpec(rs, 2, 3, max_actions=2.0),
    lambda rs: Game(rs, 2, 0, max_steps=True), lambda rs: Game(rs, 2, 0, max_steps="5"),
])
def test_counts_of_another_type_are_type_errors(call):
    """A count given as a text or a float was a ValueError ('must be a whole number of at
    least 1, not '3''), as a number out of range is: a wrong type is a TypeError."""
    rs = boardrules.build_ruleset(None, texts={"bids.rules": RULES})
    with pytest.raises(TypeError, match="must be a whole number \\(an int\\), not"):
        call(rs)


@pytest.mark.parametrize("text", ["p1 give p0", "p1 give p02", "p1 give p-0", "p1 give p3"])
def test_a_player_argument_is_a_seat_written_as_the_game_writes_it(text):
    """'p1 give p0' was read as a gift to chance (-1), 'p02' as p2."""
    rs = boardrules.build_ruleset(None, texts={"bids.rules": RULES})
    game = Game(rs, 2, 0)
    if text == "p1 give p3":   # (a seat the game lacks: the rules refuse it)
        with pytest.raises(boardrules.IllegalActionError):
            game.play(text)
        return
    with pytest.raises(boardrules.NotationError, match="is not a player \\(p1, p2, ...\\)"):
        game.parse(text)


@pytest.mark.parametrize("player", [-2, -7])
def test_an_action_player_below_chance_is_refused(player):
    """``Action(-2, ...)`` was taken and shown as ``p-1``: no seat is numbered below 0, and -1
    is chance."""
    with pytest.raises(ValueError, match=f"CHANCE = -1 for chance\\), not {player}"):
        Action(player, "bid", (1,))
    with pytest.raises(ValueError, match=f"not {player}"):
        Action(Index(player), "bid", (1,))
    assert str(Action(CHANCE, "r", ((1, 2),))) == "chance r 1,2"
    assert str(Action(0, "bid", (1,))) == "p1 bid 1"
