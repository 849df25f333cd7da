"""Seeded random games laid out for callgrind: instructions are steadier than a shared machine's clock.

Run (``PYTHONHASHSEED=0`` so both trees hash alike)::

    PYTHONHASHSEED=0 PYTHONPATH=TREE/src:TREE/plugins valgrind --tool=callgrind \\
        --toggle-collect=starmap_next --callgrind-out-file=OUT \\
        python bench/bench_callgrind.py GAME SEED [SEED ...] [--players 4]

``GAME`` is an installed game (``gaia-project``, ``eclipse``) or ``harvest`` (the small test game
of bench/bench_speed.py). One warm-up game (seed 1000) is played outside the measurement; then
each seeded game (each decision a uniform choice from ``legal_actions()``, played with
``check=False``, as bench_speed's random play) runs inside ``itertools.starmap``, the only code
``--toggle-collect=starmap_next`` counts; the warm-up's heap is frozen out of the garbage
collector's way first. The total is ``grep -o 'summary: [0-9]*' OUT``.
Prints each game's decision count: two trees compared must make the same decisions.
"""

from __future__ import annotations

import argparse
import gc
import itertools
import random
import sys
from pathlib import Path

import boardrules

sys.path.insert(0, str(Path(__file__).parent))
from bench_speed import HARVEST  # noqa: E402


def play(game: str, players: int, seed: int) -> int:
    """Play one seeded random game; the number of player decisions it took."""
    texts = HARVEST if game == "harvest" else None
    g = boardrules.new_game(None if texts else game, players=players, seed=seed, texts=texts)
    rnd, n = random.Random(seed), 0
    while not g.over:
        g.play(rnd.choice(list(g.legal_actions())), check=False)
        n += 1
    return n


def arguments(description: str) -> tuple[argparse.Namespace, int]:
    """The command line's ``GAME SEED [SEED ...] [--players N]`` and the player count (default:
    3 for Harvest, 4 otherwise)."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("game")
    ap.add_argument("seeds", type=int, nargs="+")
    ap.add_argument("--players", type=int)
    args = ap.parse_args()
    return args, args.players or (3 if args.game == "harvest" else 4)


def main() -> None:
    args, players = arguments(__doc__.split("\n")[0])
    play(args.game, players, 1000)  # warm-up: ruleset build and first compiles, not counted
    # the warm-up's heap kept out of the collector's way: otherwise a full collection over it lands
    # inside one tree's window and not the other's (Gaia seed 11, the same decisions: +5.7%)
    gc.collect()
    gc.freeze()
    counts = list(itertools.starmap(play, [(args.game, players, s) for s in args.seeds]))
    print("decisions:", dict(zip(args.seeds, counts)))


if __name__ == "__main__":
    main()
