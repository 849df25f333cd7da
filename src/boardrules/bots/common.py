"""What every bot shares: chance sampling, looking ahead by play and undo, evaluations.

Bots use only the public API: :meth:`Game.legal_actions`, :meth:`Game.play`,
:meth:`Game.undo`, :meth:`Game.get`, :meth:`Game.scores`. While a bot looks ahead the game's
own chance generator is switched off and the bot draws chance outcomes itself from its own
seeded generator, so it never learns the outcomes the real game will draw (the order of hidden
stacks and bags) — each look-ahead is one determinisation of what the bot cannot know.
"""

from __future__ import annotations

import contextlib
import functools
import math
import random
from collections.abc import Callable, Iterator
from typing import Protocol

from .. import plugins
from ..errors import GameStuckError
from ..game import Action, Game
from ..quoting import as_int, brief_text

Evaluation = Callable[[Game, int], float]
"""``fn(game, player) -> float``: how good the position is for ``player``, in victory points."""


class Bot(Protocol):
    """What every bot has: a ``name`` and ``choose(game, player=None) -> Action``."""

    name: str

    def choose(self, game: Game, player: int | None = None) -> Action: ...


def bot_seed(seed: object) -> int | float | str:
    """``seed`` if it is a bot's seed: a whole number (as an int: :func:`~boardrules.quoting.as_int`;
    ``random.Random`` refuses NumPy's), a float or a text; else ``TypeError`` (a bool is no
    seed, as it is no whole number elsewhere: ``True`` seeded as 1, and ``seat_bots`` made it
    the text 'True/0')."""
    number = as_int(seed)
    if number is not None:
        return number
    if isinstance(seed, (float, str)):
        return seed
    raise TypeError(f"a bot's seed is a whole number, a float or a text, not {brief_text(seed, 40)}")


def seeded(seed: object) -> random.Random:
    """A bot's generator seeded with ``seed`` (:func:`bot_seed`)."""
    return random.Random(bot_seed(seed))


def sample_chance(game: Game, rng: random.Random) -> int:
    """Decide every chance outcome now due with ``rng``, drawn as the game's own generator
    draws them (a die roll, a uniform pick from a bag's contents or from the options, drawn
    again among those not refused when the rules refuse one: :meth:`Game.decide_chance`);
    return how many were played. It stops at an outcome the rules allow none of (the game
    is stuck: ``legal_actions()`` says so)."""
    n = 0
    while game.decide_chance(rng):
        n += 1
    return n


@contextlib.contextmanager
def searching(game: Game) -> Iterator[Game]:
    """Within the block the game draws no chance by itself and its event log does not grow
    (bots play and undo many actions; the real game's log keeps only real moves)."""
    auto, nlog = game.auto_chance, len(game.log)
    game.auto_chance = False
    try:
        yield game
    finally:
        game.auto_chance = auto
        del game.log[nlog:]


def try_action(game: Game, action: Action, rng: random.Random) -> None:
    """Play ``action`` and the chance outcomes that follow it (drawn with ``rng``);
    ``game.undo()`` takes all of it back."""
    game.play(action, check=False)
    sample_chance(game, rng)


def actor(game: Game) -> int | None:
    """The one player a bot decides for now: the first in seat order of those to act."""
    who = game.players_to_act()
    return min(who) if who else None


def decision(game: Game, player: int | None = None) -> tuple[int, list[Action]]:
    """``(player, legal actions)`` for a bot about to choose: ``player`` defaults to the
    first to act. Raises ``LookupError`` when that player cannot act."""
    who = actor(game) if player is None else player
    actions = list(game.legal_actions(who)) if who is not None else []
    if who is None or not actions:
        raise no_action(game)
    return who, actions


def no_action(game: Game) -> LookupError:
    """The error for a bot that found no legal action: the game's
    :class:`~boardrules.errors.GameStuckError` (naming the flow step) when nobody can act,
    else a ``LookupError``."""
    try:
        any(True for _ in game.legal_actions())
    except GameStuckError as err:
        return err
    return LookupError(f"no legal action in {game!r}")


def score_evaluation(game: Game, player: int) -> float:
    """The evaluation of games without their own: the player's score (its scored resource)."""
    return float(game.scores()[player]["total"])


def evaluation_for(game: Game) -> Evaluation:
    """The game's evaluation ``fn(game, player) -> float`` in victory points (the hook
    ``boardrules_evaluation`` of the game's plugin, else :func:`score_evaluation`), wrapped by
    the ``evaluation`` of each module on (:class:`~boardrules.plugins.ModuleSpec`)."""
    name = game.ruleset.game
    fn: Evaluation = (plugins.manager().hook.boardrules_evaluation(game=name) if name else None) or score_evaluation
    available = plugins.modules(name) if name else {}
    for module in game.ruleset.modules:
        wrap = available[module].evaluation if module in available else None
        if wrap is not None:
            fn = functools.partial(wrap, base=fn)
    return fn


def rewards(game: Game, evaluate: Evaluation, scale: float) -> list[float]:
    """Each player's reward in [0, 1]: ``evaluate``'s lead over the best other player,
    squashed by a logistic of ``scale`` points; at the end, the ranking decides (a win 1,
    a shared first place split, else 0)."""
    n = game.players
    if game.over:
        first = game.ranking()[0]
        return [1.0 / len(first) if p in first else 0.0 for p in range(n)]
    values = [evaluate(game, p) for p in range(n)]
    out = []
    for p in range(n):
        best_other = max((values[q] for q in range(n) if q != p), default=0.0)
        out.append(1.0 / (1.0 + math.exp(-(values[p] - best_other) / scale)))
    return out
