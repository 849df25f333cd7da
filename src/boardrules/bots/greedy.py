"""The greedy bot: one ply of search over the game's evaluation."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..game import Action, Game
from .common import Evaluation, decision, evaluation_for, searching, try_action


class GreedyBot:
    """Tries each legal action of the player to act and plays the one whose position the
    game's evaluation (:func:`~boardrules.bots.common.evaluation_for`) rates best for that
    player; ties are broken at random. An action that leaves the same player a decision to
    make (where to place an explored sector, which tech tile to take) is rated after that
    decision too, taken greedily, up to ``follow`` decisions deep: its worth shows only then.
    Chance outcomes an action triggers are drawn once by the bot, never the real game's.
    ``seed``: for ties and those draws, so games are reproducible."""

    name = "greedy"

    def __init__(self, seed: int | float | str = 0, evaluate: Evaluation | None = None,
                 follow: int = 4, tolerance: float = 1e-9):
        self.rng = random.Random(seed)
        self.evaluate = evaluate
        self.follow, self.tolerance = follow, tolerance

    def choose(self, game: Game, player: int | None = None) -> Action:
        """The best legal action of ``player`` (default: the first player to act).
        Raises ``LookupError`` when nobody can act."""
        player, actions = decision(game, player)
        if len(actions) == 1:
            return actions[0]
        evaluate = self.evaluate or evaluation_for(game)
        with searching(game):
            return self._best(game, actions, player, evaluate, self.follow, self.tolerance)[0]

    def _best(self, game: Game, actions: Sequence[Action], player: int, evaluate: Evaluation,
              follow: int, tolerance: float = 1e-9) -> tuple[Action, float]:
        rated = [(self._rate(game, a, player, evaluate, follow), a) for a in actions]
        top = max(v for v, _ in rated)
        return self.rng.choice([a for v, a in rated if v >= top - tolerance]), top

    def _rate(self, game: Game, action: Action, player: int, evaluate: Evaluation,
              follow: int) -> float:
        """The evaluation after ``action`` and the greedy answers to the decisions it leaves
        ``player`` (the game is as before afterwards)."""
        try_action(game, action, self.rng)
        nexts: Sequence[Action] = (list(game.legal_actions(player)) if follow and not game.over and any(
            d.player == player for d in game.decisions_due()) else ())
        value = (self._best(game, nexts, player, evaluate, follow - 1)[1] if nexts
                 else evaluate(game, player))
        game.undo()
        return value
