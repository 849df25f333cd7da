"""Monte-Carlo tree search with determinisation (information-set MCTS), for any game.

Open-loop search: a tree node is a sequence of player actions from the root, never a state.
Every iteration draws its own chance outcomes (with the bot's generator, never the game's),
so each iteration plays in one determinisation of what the bot cannot know (hidden stacks and
bags are drawn from at random), and a node's children are the actions legal in the iteration's
determinisation; selection is UCB1 over those available (Cowling, Powley, Whitehouse 2012,
"Information Set Monte Carlo Tree Search"), plus a progressive bias towards the root actions
the game's evaluation rates best (Chaslot et al. 2008, "Progressive strategies for Monte-Carlo
tree search"). Each player maximises its own reward (max^n).
A leaf is rated by the game's evaluation, turned into a reward per player
(:func:`~boardrules.bots.common.rewards`), once the decisions its last action left that player
are answered greedily; in a game without an evaluation of its own (rated by its score) a
playout of random actions goes on to the end and the ranking decides.
"""

from __future__ import annotations

import math
import random
import time

from ..game import Action, Game
from ..runtime import CHANCE
from .common import (Evaluation, actor, decision, evaluation_for, rewards, sample_chance, score_evaluation,
                     searching, try_action)
from .greedy import GreedyBot


PLAYOUT = 0             # random actions after the tree, then the game's evaluation
FULL_PLAYOUT = 10_000   # ... or to the end, for games rated by their score alone
SETTLE = 4              # the leaf's own pending decisions answered greedily first, at most


def playout_for(evaluate: Evaluation) -> int:
    """The random actions a playout takes before ``evaluate`` rates its end: ``FULL_PLAYOUT``
    for the bare score, else ``PLAYOUT``."""
    return FULL_PLAYOUT if evaluate is score_evaluation else PLAYOUT


class _Node:
    __slots__ = ("children", "visits", "value", "avail", "prior")

    def __init__(self) -> None:
        self.children: dict[Action, _Node] = {}
        self.visits = 0
        self.value = 0.0   # the sum of the rewards of the player who moved into this node
        self.avail = 0     # iterations in which this node's action was legal (ISMCTS)
        self.prior: float | None = None   # the reward of this action's rating at the root


class MCTSBot:
    """Information-set Monte-Carlo tree search.

    Budget per decision: ``iterations`` (default 200) beyond one rating of each legal action
    (the prior, below), or ``seconds`` of wall-clock time for the whole decision (whichever
    ends first when both are given); a decision with one legal action is not searched.
    ``playout``: random actions after the tree before evaluating (or fewer, at the end of
    the game); by default none in a game with an evaluation of its own (random conversions and
    passes waste what it counts: with 8 random actions the search passed early in Gaia Project
    and lost to random bots in Eclipse) and to the end of the game (at most ``FULL_PLAYOUT``
    actions) in a game rated by its score alone, whose score mid-game says little about who
    wins; ``scale``: victory points that make a lead worth about 0.73 reward;
    ``c``: UCB1 exploration (on mean rewards normalised at each node where leaves are rated by
    the evaluation); ``prior``: first every root action is played, its player's
    decisions it leaves answered greedily (:meth:`_settle`) and the position rated (the greedy
    bot's one-ply rating, as rewards): where leaves are rated at once (no playout) that rating
    is the action's first visit, and in every game its reward is a progressive bias
    ``bias * prior / (visits + 1)`` in the root's selection (the prior normalised over the
    root's actions, as the mean rewards are at every node: :meth:`_select`), so a small budget goes to the
    promising actions. ``reuse``: the subtree of the actions played since this bot's last
    decision in the same game is kept (decisions that follow one another, such as an
    exploration's placement, start from what was searched). ``seed`` makes every decision
    reproducible with an iteration budget (a time budget depends on the machine).
    ``playouts`` counts the iterations run (prior ratings included); speed: see
    ``bench/bench_bots.py`` (playouts per second).
    """

    name = "mcts"

    def __init__(self, seed: int | float | str = 0, *, iterations: int | None = 200, seconds: float | None = None,
                 playout: int | None = None, scale: float = 10.0,
                 c: float = 0.7, evaluate: Evaluation | None = None, prior: bool = True,
                 bias: float = 1.0, reuse: bool = True):
        if iterations is None and seconds is None:
            raise ValueError("give MCTSBot an iteration or a time budget")
        self.rng = random.Random(seed)
        self.iterations, self.seconds = iterations, seconds
        self.playout = playout
        self.scale, self.c, self.bias = scale, c, bias
        self.evaluate = evaluate
        self.prior, self.reuse = prior, reuse
        self.playouts = 0   # iterations run so far (for playouts per second)
        self._greedy = GreedyBot(self.rng.random())
        self._kept: tuple[Game, int, _Node] | None = None   # game, record length, root after it
        self._legal: dict[tuple[object, int], list[Action]] = {}   # (state, player): legal actions
        self._normalise = True   # this decision's leaves are rated by the evaluation

    def choose(self, game: Game, player: int | None = None) -> Action:
        """The most visited legal action of ``player`` (default: the first to act) after the
        search. Raises ``LookupError`` when nobody can act."""
        player, actions = decision(game, player)
        if len(actions) == 1:
            return actions[0]
        evaluate = self.evaluate or evaluation_for(game)
        depth = self.playout if self.playout is not None else playout_for(evaluate)
        self._normalise = depth < FULL_PLAYOUT
        root = self._reused(game) or _Node()
        end = None if self.seconds is None else time.perf_counter() + self.seconds
        n = 0
        self._legal.clear()
        with searching(game):
            rated = self._rate_root(game, root, actions, player, evaluate, depth, end) if self.prior else 0
            while (self.iterations is None or n < self.iterations) and (
                    end is None or time.perf_counter() < end):
                self._iterate(game, root, actions, player, evaluate, depth)
                n += 1
        self.playouts += rated + n
        self._legal.clear()
        best = max(actions, key=lambda a: (root.children[a].visits, root.children[a].value)
                   if a in root.children else (-1, 0.0))
        self._kept = (game, len(game.record.actions) + 1, root.children[best]) if (
            self.reuse and best in root.children) else None
        return best

    def _reused(self, game: Game) -> _Node | None:
        """The node reached from the root kept after this bot's last decision in ``game`` by
        the actions played since (chance outcomes are not nodes); None when there is none."""
        kept, self._kept = self._kept, None
        if kept is None or kept[0] is not game or len(game.record.actions) < kept[1]:
            return None
        node = kept[2]
        for text in game.record.actions[kept[1]:]:
            action = game.parse(text)
            if action.player == CHANCE:
                continue
            child = node.children.get(action)
            if child is None:
                return None
            node = child
        return node

    def _rate_root(self, game: Game, root: _Node, actions: list[Action], player: int,
                   evaluate: Evaluation, depth: int, end: float | None) -> int:
        """The prior: each root action not rated yet is played, settled and rated (rewards);
        where leaves are rated at once this is the action's first visit. Returns the
        iterations run (stops at the time budget, keeping the actions rated)."""
        n = 0
        for a in actions:
            child = root.children.get(a)
            if child is not None and child.prior is not None:
                continue
            if end is not None and n and time.perf_counter() >= end:
                break
            if child is None:
                child = root.children[a] = _Node()
            try_action(game, a, self.rng)
            played = 1 + self._settle(game, player, evaluate)
            reward = rewards(game, evaluate, self.scale)
            for _ in range(played):
                game.undo()
            child.prior = reward[player]
            if depth == 0:
                child.visits += 1
                child.value += reward[player]
                child.avail += 1
                root.visits += 1
            n += 1
        return n

    def _iterate(self, game: Game, root: _Node, root_actions: list[Action], root_player: int,
                 evaluate: Evaluation, depth: int) -> None:
        rng = self.rng
        node, played = root, 0
        path: list[tuple[_Node, int]] = []
        legal: list[Action] = root_actions
        mover = root_player
        while True:   # selection and expansion
            untried = [a for a in legal if a not in node.children or not node.children[a].visits]
            if untried:
                a = (max(untried, key=lambda a: _prior(node.children.get(a)))
                     if node is root and self.prior else rng.choice(untried))
                child = node.children.get(a) or node.children.setdefault(a, _Node())
                child.avail += 1
            else:
                a = self._select(node, legal, node is root and self.prior)
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
            try_action(game, self._greedy._best(game, nexts, mover, evaluate, 0)[0], self.rng)
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

    def _select(self, node: _Node, legal: list[Action], biased: bool) -> Action:
        """UCB1 over ``legal`` (all tried; their availability counted), on mean rewards
        normalised to [0, 1] over these children (min-max, as MuZero does) where leaves are
        rated by the evaluation: its rewards differ by hundredths, so a fixed ``c`` would
        explore at random (playouts to the end, rated 0 or 1, keep the plain means: normalised,
        a first lucky playout took the search); plus at the root the progressive bias of the
        normalised prior."""
        kids = [node.children[a] for a in legal]
        for k in kids:
            k.avail += 1
        means = [k.value / k.visits for k in kids]
        lo, span = (min(means), (max(means) - min(means)) or 1.0) if self._normalise else (0.0, 1.0)
        priors = [_prior(k) for k in kids] if biased else []
        plo, pspan = (min(priors), (max(priors) - min(priors)) or 1.0) if biased else (0.0, 1.0)
        best, top = 0, -math.inf
        for i, k in enumerate(kids):
            score = (means[i] - lo) / span + self.c * math.sqrt(math.log(k.avail) / k.visits)
            if biased:
                score += self.bias * (priors[i] - plo) / pspan / (k.visits + 1)
            if score > top:
                best, top = i, score
        return legal[best]


def _prior(node: _Node | None) -> float:
    """A root child's prior reward (0 when not rated)."""
    return node.prior if node is not None and node.prior is not None else 0.0
