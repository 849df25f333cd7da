"""The greedy bot: one ply of search over the game's evaluation."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from ..game import DONE, Action, Game
from ..quoting import check_count
from .common import Evaluation, decision, evaluation_for, searching, seeded, try_action

BUDGET = 6000
"""The positions a greedy decision may try (each a rating) before its look-ahead is shared out:
above every decision of the default bots' seeded 4-player games measured (Gaia Project seeds
0-39: at most 5,692, the next 4,334; Eclipse seeds 0-10: 3,202; Harvest: 11), so those games
are as before, while a 9-player Eclipse decision that took 83 s of CPU is bounded
(docs/status.md, "Bots and simulation")."""

T = TypeVar("T")


class _OverBudget(Exception):
    """The search tried more positions than its budget: it starts again, bounded."""


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
    ``seed``: for ties and those draws, so games are reproducible.

    ``budget``: the positions (actions tried, each then rated or looked past) one decision may
    try (default :data:`BUDGET`), counted, not timed, so that seeded games stay reproducible.
    When the whole look-ahead would try more, it is searched again with the budget shared out:
    each action in turn gets an equal part of what is left (what an earlier one leaves unused
    goes to the later ones), and a decision is looked past only when all its options fit in
    that part; every action of the decision itself is still rated. So a decision tries at most
    ``2 * budget`` positions, or its legal actions' number if that is more (``tried``: the
    count of the last decision). ``budget`` (at least 1), ``follow`` and ``prepare`` (at least
    0) are whole numbers: ``TypeError`` for another type, ``ValueError`` for a smaller one."""

    name = "greedy"

    def __init__(self, seed: int | float | str = 0, evaluate: Evaluation | None = None,
                 follow: int = 4, tolerance: float = 1e-9, prepare: int = 2, budget: int = BUDGET):
        self.rng = seeded(seed)
        self.evaluate = evaluate
        self.follow, self.prepare = check_count(follow, "follow", 0), check_count(prepare, "prepare", 0)
        self.tolerance = tolerance
        self.budget = check_count(budget, "budget", 1)
        self.tried = 0   # positions tried in the current (or last) decision
        self._limit = self.budget   # the count of tried past which the whole search gives up

    def choose(self, game: Game, player: int | None = None) -> Action:
        """The best legal action of ``player`` (default: the first player to act).
        Raises ``LookupError`` when nobody can act."""
        player, actions = decision(game, player)
        self.tried = 0
        if len(actions) == 1:
            return actions[0]
        evaluate = self.evaluate or evaluation_for(game)
        with searching(game):
            return self.best(game, actions, player, evaluate, self.follow, self.prepare)[0]

    def best(self, game: Game, actions: Sequence[Action], player: int, evaluate: Evaluation,
             follow: int, prepare: int = 0) -> tuple[Action, float]:
        """The best of ``actions`` for ``player`` and its rating, looking ``follow`` decisions
        and ``prepare`` free actions ahead within :attr:`budget` (the game is as before
        afterwards; :attr:`tried` grows by the positions tried)."""
        return self._bounded(lambda cap: self._best(game, actions, player, evaluate, follow, cap, prepare),
                             len(actions))

    def ratings(self, game: Game, actions: Sequence[Action], player: int, evaluate: Evaluation,
                follow: int) -> list[float]:
        """Each of ``actions`` rated as :meth:`best` rates it (without looking past free
        actions), all within one :attr:`budget`."""
        return self._bounded(lambda cap: [self._rated(game, a, player, evaluate, follow,
                                                      self._share(cap, len(actions) - i))[0]
                                          for i, a in enumerate(actions)], len(actions))

    def _rate(self, game: Game, action: Action, player: int, evaluate: Evaluation,
              follow: int) -> float:
        """The evaluation after ``action`` and the greedy answers to the decisions it leaves
        ``player``, within :attr:`budget` (the game is as before afterwards)."""
        return self.ratings(game, [action], player, evaluate, follow)[0]

    def _bounded(self, search: Callable[[int | None], T], actions: int) -> T:
        """``search(None)``, the whole look-ahead, unless it would try more than :attr:`budget`
        positions; then ``search(cap)``, the look-ahead shared out so that :attr:`tried` stays
        within ``cap`` (twice the budget from the start, so one budget is left), or tries each
        of its ``actions`` once if they are more. With more actions than the budget the whole
        look-ahead cannot fit: it is not tried (its spent budget left less than one try each,
        and a decision tried budget + 1 + its actions' number)."""
        start = self.tried
        self._limit = start + self.budget
        if actions <= self.budget:
            try:
                return search(None)
            except _OverBudget:
                pass
        return search(start + 2 * self.budget)

    def _best(self, game: Game, actions: Sequence[Action], player: int, evaluate: Evaluation,
              follow: int, cap: int | None, prepare: int = 0,
              again: Action | None = None) -> tuple[Action, float]:
        # cap: None while the whole search fits the budget (else _OverBudget), or the count
        # ``tried`` may reach in this subtree, shared out among ``actions`` in turn
        tolerance = self.tolerance
        rated = [(*self._rated(game, a, player, evaluate, follow, self._share(cap, len(actions) - i)), a)
                 for i, a in enumerate(actions)]
        top = max(v for v, _, _ in rated)
        best = [(a, main) for v, main, a in rated if v >= top - tolerance]
        if prepare and all(main is False for _, main in best) and not any(a.name == DONE for a in actions):
            # the best ends the turn before its main action (a pass): rate the free actions by
            # the best they lead to in the same turn
            free = [a for _, main, a in rated if main is None and again in (None, a)]
            # (in a shared-out search, only those with a try left: they were rated once already,
            # and one more try each past the cap passed the bound)
            deeper = [(self._prepared(game, a, player, evaluate, prepare, share), a)
                      for i, a in enumerate(free)
                      if (share := self._share(cap, len(free) - i, least=0)) is None or share > self.tried]
            if deeper and max(v for v, _ in deeper) > top + tolerance:
                top = max(v for v, _ in deeper)
                return self.rng.choice([a for v, a in deeper if v >= top - tolerance]), top
        return self.rng.choice([a for a, _ in best]), top

    def _share(self, cap: int | None, left: int, least: int = 1) -> int | None:
        """The count :attr:`tried` may reach while the next of ``left`` actions is looked at:
        an equal part of what ``cap`` leaves, at least ``least`` tries (its own rating; what it
        leaves unused goes to the later ones)."""
        return None if cap is None else self.tried + max(least, (cap - self.tried) // left)

    def _try(self, game: Game, action: Action, cap: int | None) -> None:
        if cap is None and self.tried >= self._limit:   # (before counting: a budget spent, not one more)
            raise _OverBudget
        self.tried += 1
        try_action(game, action, self.rng)

    def _deeper(self, game: Game, player: int, cap: int | None) -> list[Action]:
        """``player``'s legal actions to look past now, if they all fit in ``cap`` (else none:
        the position is rated as it is)."""
        nexts = list(game.legal_actions(player))
        return nexts if cap is None or self.tried + len(nexts) <= cap else []

    def _rated(self, game: Game, action: Action, player: int, evaluate: Evaluation,
               follow: int, cap: int | None) -> tuple[float, bool | None]:
        """:meth:`_rate`'s value, and what ``action`` was: True for a main action of
        ``player``'s turn, None for a free action before it (the turn goes on, its main
        action still to come), False otherwise."""
        self._try(game, action, cap)
        try:
            due = not game.over and any(d.player == player for d in game.decisions_due())
            nexts = self._deeper(game, player, cap) if follow and due else ()
            value = (self._best(game, nexts, player, evaluate, follow - 1, cap)[1] if nexts
                     else evaluate(game, player))
            main: bool | None = False
            if not due:
                done = game.main_action_done(player)
                main = None if done is False else bool(done)
        finally:
            game.undo()
        return value, main

    def _prepared(self, game: Game, action: Action, player: int, evaluate: Evaluation,
                  prepare: int, cap: int | None) -> float:
        """The best rating after free action ``action`` and the best of what ``player`` may do
        next in its turn (the same free action again, up to ``prepare`` times in all)."""
        self._try(game, action, cap)
        try:
            nexts = self._deeper(game, player, cap)
            return (self._best(game, nexts, player, evaluate, self.follow, cap, prepare - 1, again=action)[1]
                    if nexts else evaluate(game, player))
        finally:
            game.undo()
