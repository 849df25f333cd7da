"""Cost of the learning-toolkit adapters over playing the game directly.

Run: ``PYTHONPATH=src:plugins python bench/bench_adapters.py [--quick]`` (needs the ``rl``
extra).

For each bundled game, plays the same random games (seeded; the same action chosen from
the same legal actions) twice: directly (``legal_actions()`` then ``play``) and through
the PettingZoo environment (``last()`` with its observation and action mask, then
``step``), and prints moves per second of each and their ratio.
"""

from __future__ import annotations

import random
import sys
import time

import boardrules
from boardrules.adapters import encoding
from boardrules.adapters.pettingzoo import env


def direct(game: str, players: int, seed: int) -> int:
    g = boardrules.new_game(game, players=players, seed=seed)
    rng = random.Random(seed)
    moves = 0
    while not g.over:
        ids = encoding.encode_actions(g.legal_actions(min(g.players_to_act())))
        g.play(ids[rng.choice(sorted(ids))])
        moves += 1
    return moves


def through_env(game: str, players: int, seed: int) -> int:
    e = env(game, players=players)
    e.reset(seed=seed)
    rng = random.Random(seed)
    moves = 0
    for agent in e.agent_iter():
        obs, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        e.step(rng.choice(obs["action_mask"].nonzero()[0].tolist()))
        moves += 1
    return moves


def main() -> None:
    seeds = range(1, 2 if "--quick" in sys.argv else 4)
    print(f"{'game':14} {'moves':>6} {'direct/s':>9} {'env/s':>8} {'env/direct':>10}")
    for game, players in (("harvest", 3), ("gaia-project", 2), ("eclipse", 2)):
        t0 = time.process_time()
        moves = sum(direct(game, players, s) for s in seeds)
        t1 = time.process_time()
        assert sum(through_env(game, players, s) for s in seeds) == moves
        t2 = time.process_time()
        a, b = moves / (t1 - t0), moves / (t2 - t1)
        print(f"{game:14} {moves:6} {a:9.0f} {b:8.0f} {b / a:10.2f}")


if __name__ == "__main__":
    main()
