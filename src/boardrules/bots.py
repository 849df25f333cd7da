"""Bots that play legal moves: for demonstrations, tests and simulation."""

from __future__ import annotations

import random


class RandomBot:
    """Plays a uniformly random legal action (seeded, so games are reproducible)."""

    def __init__(self, seed=0):
        self.rng = random.Random(seed)

    def choose(self, game, player=None):
        """A random legal action of ``player`` (or of anyone to act). Raises
        ``LookupError`` when nobody can act."""
        actions = list(game.legal_actions(player))
        if not actions:
            raise LookupError(f"no legal action in {game!r}")
        return self.rng.choice(actions)


def play_out(game, bot=None, *, max_actions: int = 100_000, on_action=None):
    """Let ``bot`` (a RandomBot by default) play ``game`` to its end; return the game."""
    bot = bot or RandomBot(game.seed)
    for _ in range(max_actions):
        if game.over:
            return game
        action = bot.choose(game)
        game.play(action, check=False)
        if on_action is not None:
            on_action(game, action)
    raise RuntimeError(f"the game did not end within {max_actions} actions")
