"""``legal_actions()`` on every state of the shared Gaia records under two source trees,
alternated record by record (paired A/B).

Run: ``python bench/bench_listing_ab.py OLD_TREE NEW_TREE [--records A,B] [--rounds 2]
[--repeat 3] [--cold-federations]``

Each tree (a checkout or an unpacked ``git archive`` holding ``src/`` and ``plugins/``) runs in a worker process of its own (``PYTHONPATH`` set to its ``src`` and
``plugins``). For each record the worker replays it without checks, keeping the state after
every engine action, and times ``len(game.legal_actions())`` on each state not over, cold and
best of ``--repeat`` (``bench_gaia.cold_listing_times``: the Gaia plugin's memo and the game's
remembered runs emptied before each; with ``--cold-federations`` the federation searches kept
across states too, else only a state's first timing searches and its best leaves the search out); each round does every record once in each worker, which
one goes first alternating, so both see the same load of a shared machine. A state's time is its
best over the rounds. Prints, per tree, the median, p99 and worst over all states (CPU time,
``time.process_time``), their ratios old/new, the median of the per-state ratios, and the
ratios on the slowest states (the top 1% by the two trees' times together, where the p99 and
worst come from). The two trees must list as many actions on every state: a change that alters the
listing is not a speed change.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_ab import ab_parser, alternated, request, spawn  # noqa: E402
from bench_gaia import percentile, record_paths  # noqa: E402

WORKER = """
import json, sys
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from bench_gaia import cold_listing_times, record_paths, replay_lines
from boardrules_gaia.records import load_record
repeat, federations = int(sys.argv[2]), sys.argv[3] == "1"
for line in sys.stdin:
    name = line.strip()
    record = load_record(record_paths([name])[0])
    states = []
    game = replay_lines(record, False, lambda move, g: states.append((move, g.state))).game
    out = cold_listing_times(game, states, repeat, name, federations)
    del states
    print(json.dumps([[t, m, n] for t, _, m, n in out]), flush=True)
"""


def worker(tree: Path, repeat: int, federations: bool) -> subprocess.Popen[str]:
    # (the timing code is this script's bench_gaia, the code timed the tree's)
    return spawn(tree, WORKER, str(Path(__file__).resolve().parent), str(repeat),
                 "1" if federations else "0")


def ask(p: subprocess.Popen[str], name: str) -> list[list]:
    got: list[list] = request(p, name)
    return got


def stats(times: list[float]) -> tuple[float, float, float]:
    """(median, p99, worst) in milliseconds."""
    ms = [t * 1e3 for t in times]
    return statistics.median(ms), percentile(ms, .99), max(ms)


def main() -> None:
    ap = ab_parser(__doc__)
    ap.add_argument("--records", default="", help="comma-separated record names (all if empty)")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=3, help="timings per state in one request")
    ap.add_argument("--cold-federations", action="store_true",
                    help="empty the federation searches kept across states before every timing")
    args = ap.parse_args()
    names = [p.stem for p in record_paths(set(args.records.split(",")) if args.records else None)]
    old, new = (worker(t, args.repeat, args.cold_federations) for t in (args.old, args.new))
    # (record, its i-th state, the move it follows) -> [old, new] best seconds
    best: dict[tuple[str, int, int], list[float]] = {}
    for name, got_old, got_new in alternated(old, new, names, args.rounds, ask):
        for i, ((to, mo, no), (tn, mn, nn)) in enumerate(zip(got_old, got_new, strict=True)):
            if (mo, no) != (mn, nn):
                sys.exit(f"{name} move {mo}: {no} actions listed under the old tree, {nn} under the new")
            b = best.setdefault((name, i, mo), [to, tn])
            b[0], b[1] = min(b[0], to), min(b[1], tn)
    keys = list(best)
    o = stats([best[k][0] for k in keys])
    n = stats([best[k][1] for k in keys])
    print(f"{len(keys)} states of {len(names)} records, best of {args.repeat} x {args.rounds} rounds")
    for label, a, b in zip(("median", "p99", "worst"), o, n):
        print(f"  {label:6}: old {a:6.2f} ms, new {b:6.2f} ms, old/new {a / b:.3f}")
    ratios = sorted(best[k][0] / best[k][1] for k in keys)
    print(f"  per-state old/new: median {statistics.median(ratios):.3f} "
          f"(p1 {percentile(ratios, .01):.3f}, p99 {percentile(ratios, .99):.3f})")
    # (picked by both trees' times: picked by one, noise alone would favour the other)
    slow = sorted(keys, key=lambda k: -sum(best[k]))[:max(1, len(keys) // 100)]
    top = sorted(best[k][0] / best[k][1] for k in slow)
    print(f"  the slowest {len(slow)} states: old/new median {statistics.median(top):.3f} "
          f"(range {top[0]:.3f}-{top[-1]:.3f}); the slowest: {slow[0][0]} move {slow[0][2]} "
          f"{best[slow[0]][0] * 1e3:.2f} -> {best[slow[0]][1] * 1e3:.2f} ms")


if __name__ == "__main__":
    main()
