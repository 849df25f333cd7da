"""Replay of shared Gaia records under two source trees, alternated run by run (paired A/B).

Run: ``python bench/bench_replay_ab.py OLD_TREE NEW_TREE [--records deep-mind-2,...] [--rounds 10]
[--checked] [--gc-off]``

Each tree (a checkout or an unpacked ``git archive`` holding ``src/``, ``plugins/`` and
``bench/``) runs in a worker process of its own (``PYTHONPATH`` set to its ``src`` and
``plugins``), which loads the records, builds their rulesets and replays each once to warm up;
then each round replays every record once in each worker, which one goes first alternating, so
both see the same load of a shared machine. A replay is ``bench_gaia.replay_lines`` (the
record's lines played through the Gaia plugin's ``Replayer``, ``check=False`` unless
``--checked``), timed in CPU time (``time.process_time``). Prints per record the median time of
each tree, the median of the paired ratios old/new and their range; on a loaded machine the
ratios hold, the absolute figures do not. Both trees must reach the same final state (its
values are compared by a digest): a change that alters a replay is not a speed change.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_ab import ab_parser, alternated, request, spawn  # noqa: E402

WORKER = """
import gc, hashlib, json, sys, time
from pathlib import Path
sys.path.insert(0, str(Path(sys.argv[1]) / "bench"))
from bench_gaia import RECORDS, replay_lines
from boardrules_gaia.records import load_record
check, gc_off = sys.argv[2] == "1", sys.argv[3] == "1"
records = {}
for line in sys.stdin:
    name = line.strip()
    if name not in records:
        records[name] = load_record(RECORDS / f"{name}.json")
        replay_lines(records[name], check)  # warm-up: the ruleset build and first compiles
    if gc_off:
        gc.disable()
    start = time.process_time()
    rp = replay_lines(records[name], check)
    took = time.process_time() - start
    if gc_off:
        gc.enable()
    digest = hashlib.sha1(repr(sorted(rp.game.state.values.items(), key=repr)).encode()).hexdigest()
    print(json.dumps([took, digest]), flush=True)
"""


def worker(tree: Path, check: bool, gc_off: bool) -> subprocess.Popen[str]:
    return spawn(tree, WORKER, str(tree), "1" if check else "0", "1" if gc_off else "0")


def ask(p: subprocess.Popen[str], name: str) -> tuple[float, str]:
    took, digest = request(p, name)
    return took, digest


def main() -> None:
    ap = ab_parser(__doc__)
    ap.add_argument("--records", default="deep-mind-2", help="comma-separated record names")
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--checked", action="store_true", help="replay with the legality checks")
    ap.add_argument("--gc-off", action="store_true", help="the collector disabled while timed")
    args = ap.parse_args()
    names = args.records.split(",")
    old, new = (worker(t, args.checked, args.gc_off) for t in (args.old, args.new))
    for name in names:  # warm-up
        ask(old, name)
        ask(new, name)
    times: dict[str, tuple[list[float], list[float]]] = {n: ([], []) for n in names}
    for name, (to, do), (tn, dn) in alternated(old, new, names, args.rounds, ask):
        if do != dn:
            sys.exit(f"{name}: the two trees reach different final states")
        times[name][0].append(to)
        times[name][1].append(tn)
    kind = "checked" if args.checked else "unchecked"
    for name, (to, tn) in times.items():
        ratios = sorted(a / b for a, b in zip(to, tn))
        print(f"{name:28} {kind}: old median {statistics.median(to) * 1e3:6.1f} ms, new "
              f"{statistics.median(tn) * 1e3:6.1f} ms; old/new median {statistics.median(ratios):.3f} "
              f"(range {ratios[0]:.3f}-{ratios[-1]:.3f}, {len(ratios)} pairs)")


if __name__ == "__main__":
    main()
