"""Monte-Carlo tree search with determinisation (information-set MCTS), for any game.

Open-loop search: a tree node is a sequence of player actions from the root, never a state.
Every iteration draws its own chance outcomes (with the bot's generator, never the game's),
so each iteration plays in one determinisation of what the bot cannot know (hidden stacks and
bags are drawn from at random), and a node's children are the actions legal in the iteration's
determinisation; selection is UCB1 over those available (Cowling, Powley, Whitehouse 2012,
"Information Set Monte Carlo Tree Search"). Each player maximises its own reward (max^n).
A leaf is rated by the game's evaluation, turned into a reward per player
(:func:`~boardrules.bots.common.rewards`), once the decisions its last action left that player
are answered greedily; in a game without an evaluation of its own (rated by its score) a
playout of random actions goes on to the end and the ranking decides.
"""

from __future__ import annotations

import math
import time

from ..game import Action, Game
from ..quoting import brief_text, check_count
from .common import (Evaluation, actor, decision, evaluation_for, rewards, sample_chance, score_evaluation,
                     searching, seeded, try_action)
from .greedy import GreedyBot


PLAYOUT = 0             # random actions after the tree, then the game's evaluation
FULL_PLAYOUT = 10_000   # ... or to the end, for games rated by their score alone
SETTLE = 4              # the leaf's own pending decisions answered greedily first, at most
ITERATIONS = 30         # per decision by default: the budget of every measured match against
                        # random bots (docs/status.md, Bots: Gaia 60/60, Eclipse 58/60, Harvest
                        # 58/60 and 60/60); 200 took 6.5x the CPU (Harvest, 8.5 s a game against
                        # 1.3 s) and Gaia at 60 did worse than at 30


def playout_for(evaluate: Evaluation) -> int:
    """The random actions a playout takes before ``evaluate`` rates its end: ``FULL_PLAYOUT``
    for the bare score, else ``PLAYOUT``."""
    return FULL_PLAYOUT if evaluate is score_evaluation else PLAYOUT


def free_actions(game: Game, player: int) -> tuple[str, ...]:
    """The names of the free actions ``player`` may take in its turn now (the flow step's
    ``free`` actions); none outside its own turn or while a decision is due."""
    step = game.flow_step()
    if step is None or game.main_action_done(player) is None or game.decisions_due():
        return ()
    return step.free


class _Node:
    __slots__ = ("children", "visits", "value", "avail")

    def __init__(self) -> None:
        self.children: dict[Action, _Node] = {}
        self.visits = 0
        self.value = 0.0   # the sum of the rewards of the player who moved into this node
        self.avail = 0     # iterations in which this node's action was legal (ISMCTS)


def _seconds(value: object) -> float:
    """``value`` as a time budget: an int or float, not negative; ``TypeError`` for another
    type, ``ValueError`` for a negative number or NaN (a text failed at the first decision)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"seconds must be a number, not {brief_text(value, 40)}")
    if not value >= 0:   # (also NaN)
        raise ValueError(f"seconds must be a number of at least 0, not {value}")
    return float(value)


class MCTSBot:
    """Information-set Monte-Carlo tree search.

    ``iterations``: iterations per decision (default :data:`ITERATIONS`, 30) or ``seconds``: a time budget per
    decision (whichever ends first when both are given); ``playout``: random actions after the
    tree before evaluating (or fewer, at the end of the game); by default none in a game with an
    evaluation of its own (random conversions and passes waste what it counts: with 8 random
    actions the search passed early in Gaia Project and lost to random bots in Eclipse) and
    to the end of the game (at most ``FULL_PLAYOUT`` actions) in a game rated by its score
    alone, whose score mid-game says little about who wins;
    ``scale``: victory points that make a lead worth about 0.73 reward;
    ``c``: UCB1 exploration; ``prior``: the root's actions are expanded best first by the
    greedy bot's one-ply rating (so a small budget still tries the promising ones), and of the
    free actions of the bot's turn (the flow step's ``free`` actions: Gaia Project's
    conversions) only the one the greedy bot would take is searched. Before a
    leaf is rated, the decisions its last action left that action's player are answered
    greedily (:meth:`_settle`). ``seed`` makes every decision reproducible with an iteration
    budget (a time budget depends on the machine). Decisions with one legal action are not
    searched. Speed: see ``bench/bench_bots.py`` (playouts per second).
    ``iterations`` and ``playout`` are whole numbers, ``seconds`` a number, none negative (0
    iterations: the prior's pick, unsearched): ``TypeError`` for another type, ``ValueError``
    for a negative value.
    """

    name = "mcts"

    def __init__(self, seed: int | float | str = 0, *, iterations: int | None = ITERATIONS, seconds: float | None = None,
                 playout: int | None = None, scale: float = 10.0,
                 c: float = 0.7, evaluate: Evaluation | None = None, prior: bool = True):
        if iterations is None and seconds is None:
            raise ValueError("give MCTSBot an iteration or a time budget")
        self.rng = seeded(seed)
        self.iterations = None if iterations is None else check_count(iterations, "iterations", 0)
        self.seconds = None if seconds is None else _seconds(seconds)
        self.playout = None if playout is None else check_count(playout, "playout", 0)
        self.scale, self.c = scale, c
        self.evaluate = evaluate
        self.prior = prior
        self.playouts = 0   # iterations run so far (for playouts per second)
        self._greedy = GreedyBot(self.rng.random())
        self._legal: dict[tuple[object, int], list[Action]] = {}   # (state, player): legal actions

    def choose(self, game: Game, player: int | None = None) -> Action:
        """The most visited legal action of ``player`` (default: the first to act) after the
        search. Raises ``LookupError`` when nobody can act."""
        player, actions = decision(game, player)
        if len(actions) == 1:
            return actions[0]
        evaluate = self.evaluate or evaluation_for(game)
        depth = self.playout if self.playout is not None else playout_for(evaluate)
        root = _Node()
        end = None if self.seconds is None else time.perf_counter() + self.seconds
        n = 0
        self._legal.clear()
        with searching(game):
            if self.prior:   # expand the root's actions best first, by the greedy bot's rating
                rater = GreedyBot(self.rng.random(), evaluate, budget=self._greedy.budget)
                rated = rater.ratings(game, actions, player, evaluate, 4)
                value = dict(zip(actions, rated))
                actions = sorted(actions, key=lambda a: -value[a])
                actions = self._without_idle_free(game, actions, player, evaluate)
                if len(actions) == 1:
                    return actions[0]
            while (self.iterations is None or n < self.iterations) and (
                    end is None or time.perf_counter() < end):
                self._iterate(game, root, actions, player, evaluate, depth)
                n += 1
        self.playouts += n
        self._legal.clear()
        return max(actions, key=lambda a: (root.children[a].visits, root.children[a].value)
                   if a in root.children else (-1, 0.0))

    def _without_idle_free(self, game: Game, actions: list[Action], player: int,
                           evaluate: Evaluation) -> list[Action]:
        """``actions`` without the free actions of ``player``'s turn (a conversion: the
        step's ``free`` actions) other than the one the greedy bot would take. A free action
        keeps the search in the player's own turn, where only it moves, while ending the turn
        hands the next move to the other players, who move against it: with a small budget
        the search preferred a free action to ``done`` at every turn (Gaia Project: 17
        conversions in one turn, ore and knowledge turned into credits, then a pass) and lost
        to random bots."""
        free = free_actions(game, player)
        if not any(a.name in free for a in actions):
            return actions
        g = self._greedy
        keep = g.best(game, actions, player, evaluate, g.follow, g.prepare)[0]
        return [a for a in actions if a == keep or a.name not in free]

    def _iterate(self, game: Game, root: _Node, root_actions: list[Action], root_player: int,
                 evaluate: Evaluation, depth: int) -> None:
        rng = self.rng
        node, played = root, 0
        path: list[tuple[_Node, int]] = []
        legal: list[Action] = root_actions
        mover = root_player
        while True:   # selection and expansion
            untried = [a for a in legal if a not in node.children]
            if untried:
                a = untried[0] if node is root and self.prior else rng.choice(untried)
                child = node.children[a] = _Node()
                child.avail = 1
            else:
                for a in legal:
                    node.children[a].avail += 1
                a = max(legal, key=lambda a: self._ucb(node.children[a]))
                child = node.children[a]
            try_action(game, a, rng)
            played += 1
            path.append((child, mover))
            node = child
            if untried or game.over:
                break
            who = actor(game)
            if who is None:
                break
            mover = who
            legal = self._legal_actions(game, mover)
            if not legal:
                break
        played += self._settle(game, mover, evaluate)
        for _ in range(depth):   # playout
            if game.over:
                break
            who = actor(game)
            legal = list(game.legal_actions(who)) if who is not None else []
            if not legal:
                break
            game.play(rng.choice(legal), check=False)
            sample_chance(game, rng)
            played += 1
        reward = rewards(game, evaluate, self.scale)
        for child, p in path:
            child.visits += 1
            child.value += reward[p]
        root.visits += 1
        for _ in range(played):
            game.undo()

    def _settle(self, game: Game, mover: int, evaluate: Evaluation) -> int:
        """Answer the decisions the last action in the tree left its own player (where to
        place an explored sector, which tile to take) greedily, up to ``SETTLE`` of them, so
        that the leaf is rated with the action's worth showing; return how many were played."""
        n = 0
        while n < SETTLE and not game.over:
            due = game.decisions_due()
            if not due or due[0].player != mover:
                break
            nexts = self._legal_actions(game, mover)
            if not nexts:
                break
            try_action(game, self._greedy.best(game, nexts, mover, evaluate, 0)[0], self.rng)
            n += 1
        return n

    def _legal_actions(self, game: Game, player: int) -> list[Action]:
        """``player``'s legal actions, remembered per state during a decision (an open-loop
        tree's iterations pass through the same positions again and again)."""
        key = (game.state, player)
        legal = self._legal.get(key)
        if legal is None:
            legal = self._legal[key] = list(game.legal_actions(player))
        return legal

    def _ucb(self, child: _Node) -> float:
        return child.value / child.visits + self.c * math.sqrt(math.log(max(1, child.avail)) / child.visits)
