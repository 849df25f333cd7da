"""Run the module-combination property on demand, as many examples as asked.

    python scripts/module_combinations.py --examples 200            # every game
    python scripts/module_combinations.py --game harvest --seed 7 --examples 50
    python scripts/module_combinations.py --full                    # full-length games

Each example draws (from a generator seeded by --seed and the example's number) a game, a
player count, a random valid module set and a seed, and plays a whole random game with the
checks of ``tests/combinations.py``. A failure prints the example and how to run it alone;
the exit status is 1 if any failed. Run it from the checkout (it imports ``tests``).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from boardrules import plugins  # noqa: E402
from tests.combinations import draw_example, play_example  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--examples", type=int, default=20)
    ap.add_argument("--game", action="append", help="only this game (repeatable)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--only", type=int, help="run only example number N")
    ap.add_argument("--full", action="store_true", help="games at full length (no shortened rounds)")
    args = ap.parse_args(argv)
    games = args.game or sorted(plugins.games())
    failures = 0
    numbers = [args.only] if args.only is not None else range(args.examples)
    for i in numbers:
        rnd = random.Random(f"{args.seed}/{i}")

        def pick(n: int) -> int:
            return rnd.randrange(n) if n > 1 else 0
        game = games[pick(len(games))]
        example = draw_example(game, pick, short=not args.full)
        start = time.perf_counter()
        try:
            g = play_example(game, pick, **example)
        except Exception:  # report every failure, keep going
            failures += 1
            print(f"FAIL #{i} {game} {example}")
            traceback.print_exc()
            print(f"  again: python scripts/module_combinations.py --seed {args.seed} --only {i}"
                  + "".join(f" --game {x}" for x in games) + (" --full" if args.full else ""))
            continue
        if g is None:
            print(f"ok   #{i} {game} {example['players']}p {example['modules']}: refused to start "
                  "(as it must)", flush=True)
            continue
        print(f"ok   #{i} {game} {example['players']}p modules={list(g.ruleset.modules)} "
              f"seed={example['seed']} {len(g.record.actions)} actions "
              f"{time.perf_counter() - start:.1f} s", flush=True)
    print(f"{len(numbers) - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
