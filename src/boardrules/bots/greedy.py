"""The greedy bot: one ply of search over the game's evaluation."""

from __future__ import annotations

from collections.abc import Sequence

from ..game import DONE, Action, Game
from .common import Evaluation, actor, decision, evaluation_for, searching, seeded, try_action


class GreedyBot:
    """Tries each legal action of the player to act and plays the one whose position the
    game's evaluation (:func:`~boardrules.bots.common.evaluation_for`) rates best for that
    player; ties are broken at random. An action that leaves the same player a decision to
    make (where to place an explored sector, which tech tile to take) is rated after that
    decision too, taken greedily, up to ``follow`` decisions deep: its worth shows only then.
    Before ending its turn without a main action (passing, in a game with free actions), it
    looks past free actions: a free action (a conversion) is rated by the best action it makes
    legal, after it is taken up to ``prepare`` times, so a player converts power into ore to
    build a mine rather than pass (one ply alone rates the conversion as a loss).
    Chance outcomes an action triggers are drawn once by the bot, never the real game's.
    ``seed``: for ties and those draws, so games are reproducible."""

    name = "greedy"

    def __init__(self, seed: int | float | str = 0, evaluate: Evaluation | None = None,
                 follow: int = 4, tolerance: float = 1e-9, prepare: int = 2):
        self.rng = seeded(seed)
        self.evaluate = evaluate
        self.follow, self.tolerance, self.prepare = follow, tolerance, prepare

    def choose(self, game: Game, player: int | None = None) -> Action:
        """The best legal action of ``player`` (default: the first player to act).
        Raises ``LookupError`` when nobody can act."""
        player, actions = decision(game, player)
        if len(actions) == 1:
            return actions[0]
        evaluate = self.evaluate or evaluation_for(game)
        with searching(game):
            return self._best(game, actions, player, evaluate, self.follow, self.tolerance,
                              self.prepare)[0]

    def _best(self, game: Game, actions: Sequence[Action], player: int, evaluate: Evaluation,
              follow: int, tolerance: float = 1e-9, prepare: int = 0,
              again: Action | None = None) -> tuple[Action, float]:
        rated = [(*self._rated(game, a, player, evaluate, follow), a) for a in actions]
        top = max(v for v, _, _ in rated)
        best = [(a, main) for v, main, a in rated if v >= top - tolerance]
        if prepare and all(main is False for _, main in best) and not any(a.name == DONE for a in actions):
            # the best ends the turn before its main action (a pass): rate the free actions by
            # the best they lead to in the same turn
            deeper = [(self._prepared(game, a, player, evaluate, prepare), a)
                      for _, main, a in rated if main is None and again in (None, a)]
            if deeper and max(v for v, _ in deeper) > top + tolerance:
                top = max(v for v, _ in deeper)
                return self.rng.choice([a for v, a in deeper if v >= top - tolerance]), top
        return self.rng.choice([a for a, _ in best]), top

    def _rate(self, game: Game, action: Action, player: int, evaluate: Evaluation,
              follow: int) -> float:
        """The evaluation after ``action`` and the greedy answers to the decisions it leaves
        ``player`` (the game is as before afterwards)."""
        return self._rated(game, action, player, evaluate, follow)[0]

    def _rated(self, game: Game, action: Action, player: int, evaluate: Evaluation,
               follow: int) -> tuple[float, bool | None]:
        """:meth:`_rate`'s value, and what ``action`` was: True for a main action of
        ``player``'s turn, None for a free action before it (the turn goes on, its main
        action still to come), False otherwise."""
        try_action(game, action, self.rng)
        due = not game.over and any(d.player == player for d in game.decisions_due())
        nexts: Sequence[Action] = list(game.legal_actions(player)) if follow and due else ()
        value = (self._best(game, nexts, player, evaluate, follow - 1)[1] if nexts
                 else evaluate(game, player))
        main: bool | None = False
        if not due:
            done = game.main_action_done(player)
            main = None if done is False else bool(done)
        game.undo()
        return value, main

    def _prepared(self, game: Game, action: Action, player: int, evaluate: Evaluation,
                  prepare: int) -> float:
        """The best rating after free action ``action`` and the best of what ``player`` may do
        next in its turn (the same free action again, up to ``prepare`` times in all)."""
        try_action(game, action, self.rng)
        nexts = list(game.legal_actions(player))
        value = (self._best(game, nexts, player, evaluate, self.follow, self.tolerance, prepare - 1,
                            again=action)[1] if nexts else evaluate(game, player))
        game.undo()
        return value
