"""Games pickle (docs/api.md: "games and rulesets can be sent to worker processes") and
deep-copy at every point of play, and the copy plays on as the original does. A game kept its
memory of the states it saw, which may hold the rules' generated functions: a Gaia game failed
to pickle from its third move ("Can't pickle <function rule_expr>")."""

from __future__ import annotations

import copy
import pickle
import random

import pytest

import boardrules


def _twin(game: boardrules.Game, how: str) -> boardrules.Game:
    return pickle.loads(pickle.dumps(game)) if how == "pickle" else copy.deepcopy(game)


@pytest.mark.parametrize("how", ["pickle", "deepcopy"])
@pytest.mark.parametrize("name, players", [("harvest", 3), ("gaia-project", 2)])
def test_a_game_pickles_at_every_point_and_plays_on_alike(name, players, how):
    game = boardrules.new_game(name, players=players, seed=4)
    rng = random.Random(4)
    for _ in range(12):
        twin = _twin(game, how)
        assert twin.state == game.state and twin.record.actions == game.record.actions
        action = game.legal_actions().sample(rng)
        assert action in twin.legal_actions()
        game.play(action)
        twin.play(action)
        assert twin.state == game.state
        twin.undo()
        game.undo()
        assert twin.state == game.state and twin.log == game.log
        game.play(action)
