"""Statement blocks as generated functions (lang/blockgen.py) against the statements' closures.

Run: ``PYTHONPATH=src:plugins python bench/bench_blocks.py [--seeds N] [--rounds R] [GAME ...]``

For each game (default Harvest 3 players, Gaia Project 4, Eclipse 4) two rulesets are built in
this process: one whose blocks run as generated functions (the compiled back end) and one whose
blocks run as chains of the statements' closures (``Compiler.closure_block``, what the compiled
back end ran before). Both play the same seeded random games (each decision a uniform choice
from ``legal_actions()``, played with ``check=False``), alternating which goes first, after a
warm-up game each (the generated blocks compile on their first run). Prints the CPU time
(``time.process_time``) of each and the ratio: on a loaded machine the ratio holds, the
absolute figures do not.
"""

from __future__ import annotations

import argparse
import random
import time

from boardrules import ruleset as RS
from boardrules.game import Game
from boardrules.lang.backends import Compiler

PLAYERS = {"harvest": 3, "gaia-project": 4, "eclipse": 4}


def rulesets(game: str) -> tuple[RS.Ruleset, RS.Ruleset]:
    """(closure blocks, generated blocks) rulesets of ``game``, built apart."""
    RS._build.cache_clear()
    generated = RS.build_ruleset(game)
    RS._build.cache_clear()
    block = Compiler.block
    Compiler.block = Compiler.closure_block   # type: ignore[method-assign]
    try:
        closures = RS.build_ruleset(game)
    finally:
        Compiler.block = block   # type: ignore[method-assign]
        RS._build.cache_clear()
    closures.backend.block = closures.backend.closure_block   # (guards are built on first use)
    return closures, generated


def play(rs: RS.Ruleset, players: int, seed: int) -> tuple[float, int]:
    """CPU seconds and decisions of one seeded random game."""
    g = Game(rs, players, seed)
    rnd = random.Random(seed)
    n = 0
    start = time.process_time()
    while not g.over and n < 5000:
        g.play(rnd.choice(list(g.legal_actions())), check=False)
        n += 1
    return time.process_time() - start, n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("games", nargs="*", default=list(PLAYERS))
    ap.add_argument("--seeds", type=int, default=6)
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args()
    for game in args.games:
        players = PLAYERS.get(game, 4)
        both = dict(zip(("closures", "generated"), rulesets(game)))
        for rs in both.values():
            play(rs, players, 1000)   # (warm-up)
        spent = dict.fromkeys(both, 0.0)
        decisions = 0
        for r in range(args.rounds):
            for seed in range(args.seeds):
                order = list(both) if (r + seed) % 2 == 0 else list(reversed(both))
                counts = set()
                for name in order:
                    t, n = play(both[name], players, seed)
                    spent[name] += t
                    counts.add(n)
                assert len(counts) == 1, "the two back ends played different games"
                decisions += counts.pop()
        c, g = spent["closures"], spent["generated"]
        print(f"{game:13} {decisions:6} decisions: closures {c:.2f} s ({decisions / c:,.0f}/s), "
              f"generated {g:.2f} s ({decisions / g:,.0f}/s), generated/closures {g / c:.3f}")


if __name__ == "__main__":
    main()
