"""Timing of the core engine on ``tests/core/rules/harvest.rules``.

Run: ``PYTHONPATH=src:plugins python bench/bench_core.py [--quick]``

Prints: ruleset build time cold (parse + merge + check + compile, with the
ruleset cache cleared; Lark's grammar cache stays warm) and cached; mid-game
``len(legal_actions())`` and ``play`` per action, for both back ends; and random
games played to the end per second.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

from boardrules import ruleset as R
from boardrules.game import new_game

HARVEST = (Path(__file__).resolve().parents[1] / "tests" / "core" / "rules" / "harvest.rules").read_text()
TEXTS = {"harvest.rules": HARVEST}


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def mid_game(backend: str, players: int = 3, moves: int = 12, seed: int = 1):
    g = new_game(texts=TEXTS, players=players, seed=seed, backend=backend)
    rnd = random.Random(seed)
    for i in range(moves + 50):
        legal = list(g.legal_actions())
        if g.over or (i >= moves and len(legal) >= 6):  # a turn, not a pending decision
            break
        g.play(rnd.choice(legal))
    return g


def random_game(backend: str, seed: int, players: int = 3) -> int:
    g = new_game(texts=TEXTS, players=players, seed=seed, backend=backend)
    rnd = random.Random(seed)
    n = 0
    while not g.over:
        g.play(rnd.choice(list(g.legal_actions())))
        n += 1
    return n


def main(quick: bool) -> None:
    repeat = 3 if quick else 10
    R._build.cache_clear()

    def cold():
        R._build.cache_clear()
        R.build_ruleset(texts=TEXTS)
    print(f"ruleset build, cold:   {best(cold, repeat) * 1e3:8.2f} ms")
    print(f"ruleset build, cached: {best(lambda: R.build_ruleset(texts=TEXTS), repeat * 100) * 1e6:8.2f} µs")
    for backend in ("compiled", "interpreted"):
        g = mid_game(backend)
        n = len(g.legal_actions())
        t_legal = best(lambda: len(g.legal_actions()), repeat)
        legal = list(g.legal_actions())
        state, hist, rec, log = g.state, list(g._history), list(g.record.actions), list(g.log)

        def play_each():
            for a in legal:
                g.play(a)
                g.state, g._history[:], g.record.actions[:], g.log[:] = state, hist, rec, log
        t_play = best(play_each, repeat) / len(legal)
        games = 3 if quick else 20
        t = time.perf_counter()
        total_moves = sum(random_game(backend, s) for s in range(games))
        elapsed = time.perf_counter() - t
        print(f"[{backend}] mid-game: {n} legal actions, listed in {t_legal * 1e3:.2f} ms; "
              f"play {t_play * 1e6:.0f} µs/action")
        print(f"[{backend}] random 3-player games: {games / elapsed:.1f} games/s "
              f"({total_moves / games:.0f} moves/game, {elapsed / total_moves * 1e6:.0f} µs/move "
              "including legal-action listing)")


if __name__ == "__main__":
    main("--quick" in sys.argv)
