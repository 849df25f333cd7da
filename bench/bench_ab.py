"""Random play of one game under two source trees, alternated game by game (paired A/B).

Run: ``python bench/bench_ab.py OLD_TREE NEW_TREE [--game eclipse | --harvest] [--players 4]
[--seeds 8] [--rounds 2] [-m MODULE ...]``; ``--harvest``: the small test game of
bench/bench_speed.py (its ``HARVEST`` texts, given to both trees) instead of an installed game.

Each tree (a checkout or an unpacked ``git archive`` holding ``src/`` and ``plugins/``) runs
in a worker process of its own (``PYTHONPATH`` set to its ``src`` and ``plugins``), warmed up
by one game; then the same seeded random games (each decision a uniform choice from
``legal_actions()``, played with ``check=False``) go to the two workers in turn, which one goes
first alternating, so both see the same load of a shared machine. Prints per seed the CPU time
(``time.process_time``) of each and their ratio, and the ratio of the sums and the median
ratio: on a loaded machine the ratios hold, the absolute figures do not. The two trees'
games must make the same decisions (the same count is checked): a change that alters play is
not a speed change.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

WORKER = """
import json, random, sys, time
import boardrules
game, players, modules = sys.argv[1] or None, int(sys.argv[2]), json.loads(sys.argv[3])
texts = json.loads(sys.argv[4]) or None
for line in sys.stdin:
    seed = int(line)
    g = boardrules.new_game(game, players=players, seed=seed, modules=modules, texts=texts)
    rnd, n = random.Random(seed), 0
    start = time.process_time()
    while not g.over:
        g.play(rnd.choice(list(g.legal_actions())), check=False)
        n += 1
    print(json.dumps([time.process_time() - start, n]), flush=True)
"""


def spawn(tree: Path, code: str, *args: str) -> subprocess.Popen[str]:
    """A worker process running ``code`` (``python -c``, with ``args``) on the source ``tree``."""
    env = dict(os.environ, PYTHONPATH=f"{tree / 'src'}{os.pathsep}{tree / 'plugins'}")
    return subprocess.Popen([sys.executable, "-c", code, *args],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)


def request(p: subprocess.Popen[str], line: str):
    """Send one line to worker ``p``; its answer, a line of JSON."""
    assert p.stdin is not None and p.stdout is not None
    p.stdin.write(f"{line}\n")
    p.stdin.flush()
    return json.loads(p.stdout.readline())


def ab_parser(doc: str) -> argparse.ArgumentParser:
    """The arguments of a paired A/B script (its description the first paragraph of ``doc``):
    ``old`` and ``new``, the two source trees."""
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    ap.add_argument("old", type=Path)
    ap.add_argument("new", type=Path)
    return ap


def worker(tree: Path, game: str, players: int, modules: list[str],
           texts: dict[str, str] | None = None) -> subprocess.Popen[str]:
    """A worker of random play on ``tree``: the installed ``game``, or ("" and) the rule files
    ``texts`` (``{path: text}``)."""
    return spawn(tree, WORKER, game, str(players), json.dumps(modules), json.dumps(texts or {}))


def ask(p: subprocess.Popen[str], seed: int) -> tuple[float, int]:
    took, n = request(p, str(seed))
    return took, n


def alternated(old: subprocess.Popen[str], new: subprocess.Popen[str], jobs: list, rounds: int, ask):
    """``(job, ask(old, job), ask(new, job))`` for every job, ``rounds`` times over, which worker
    goes first alternating from one pair to the next (so both see the same load); the workers
    are closed at the end."""
    k = 0
    for _ in range(rounds):
        for job in jobs:
            pair = (old, new) if k % 2 == 0 else (new, old)
            k += 1
            got = {id(p): ask(p, job) for p in pair}
            yield job, got[id(old)], got[id(new)]
    for p in (old, new):
        assert p.stdin is not None
        p.stdin.close()
        p.wait()


def main() -> None:
    ap = ab_parser(__doc__)
    ap.add_argument("--game", default="eclipse")
    ap.add_argument("--harvest", action="store_true",
                    help="play bench_speed.py's Harvest texts instead of --game")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seeds", type=int, default=8)
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=1, help="times each seed is played")
    ap.add_argument("-m", "--module", action="append", default=[])
    args = ap.parse_args()
    texts = None
    if args.harvest:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from bench_speed import HARVEST   # (the texts bench_speed times: one source)
        texts = HARVEST
    game = "" if args.harvest else args.game
    old, new = (worker(t, game, args.players, args.module, texts) for t in (args.old, args.new))
    ask(old, 0)
    ask(new, 0)
    sums = [0.0, 0.0]
    ratios = []
    seeds = list(range(args.first_seed, args.first_seed + args.seeds))
    for seed, (to, no), (tn, nn) in alternated(old, new, seeds, args.rounds, ask):
        if no != nn:
            sys.exit(f"seed {seed}: {no} decisions under the old tree, {nn} under the new one")
        sums[0] += to
        sums[1] += tn
        ratios.append(to / tn)
        print(f"seed {seed:3}: {no:5} decisions  old {to:6.2f} s  new {tn:6.2f} s  old/new {to / tn:.3f}")
    print(f"sum: old {sums[0]:.2f} s, new {sums[1]:.2f} s: new is {sums[0] / sums[1]:.3f}x as fast "
          f"(median of the paired ratios {statistics.median(ratios):.3f})")


if __name__ == "__main__":
    main()
