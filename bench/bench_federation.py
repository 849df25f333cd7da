"""Benchmark: ``candidates`` on dense late-game-like Gaia Project boards.

Run as a script (prints median and worst per budget):

    PYTHONPATH=src:plugins python bench/bench_federation.py

the distinct positions that ``legal_actions()`` searches over every state of the 18 shared
records (cold, and in record order with the searches kept from one position to the next):

    PYTHONPATH=src:plugins python bench/bench_federation.py states

or under pytest-benchmark:

    PYTHONPATH=src:plugins python -m pytest bench/bench_federation.py --benchmark-enable

Three board families, each at several satellite budgets:

* ``records``: the board before each of the 68 recorded federations of the shared records
  (rough reconstruction, see tests/gaia/test_federation.py), budget overridden;
* ``spread``: the real 10-sector map of a shared record
  (``../shared/gaia-records/deep-mind-2.json``; a radius-8 disk with every third hex a planet
  if that file is absent), one player holding 20
  structures (8 mines, 4 trading stations, 3 labs, PI, 2 academies, Lost Planet, 1 extra mine
  worth of power on a planet: the full late-game set) on random planets, no federation formed
  yet (nothing excluded), threshold 7 - mostly single-planet clusters all over the map, the
  hardest case;
* ``clustered``: the same 20 structures packed around one random planet.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

from boardrules_gaia import federation as F

ROOT = Path(__file__).resolve().parents[1]
RECORD = ROOT.parent / "shared" / "gaia-records" / "deep-mind-2.json"

POWERS = [1] * 8 + [2] * 4 + [2] * 3 + [3, 3, 3] + [1, 1]  # 20 structures


def board() -> tuple[set, set]:
    if RECORD.exists():
        hexes = json.loads(RECORD.read_text())["setup"]["map"]["hexes"]
        allh = {(h["q"], h["r"]) for h in hexes}
        planets = {(h["q"], h["r"]) for h in hexes if h["planet"] != "e"}
        return allh - planets, planets
    allh = {(q, r) for q in range(-8, 9) for r in range(-8, 9) if abs(q + r) <= 8}
    planets = {h for i, h in enumerate(sorted(allh)) if i % 3 == 0}
    return allh - planets, planets


def late_game(seed: int, budget: int) -> F.Position:
    space, planets = board()
    rng = random.Random(seed)
    own = rng.sample(sorted(planets), len(POWERS))
    return F.Position(
        space=space,
        planets=planets,
        structures=dict(zip(own, POWERS)),
        budget=budget,
        threshold=7,
    )


def clustered(seed: int, budget: int) -> F.Position:
    """Structures packed in one region of the map (a player who expanded locally)."""
    space, planets = board()
    rng = random.Random(seed)
    centre = rng.choice(sorted(planets))
    near = sorted(planets, key=lambda h: (_dist(h, centre), h))[: len(POWERS) + 6]
    own = rng.sample(near, len(POWERS))
    return F.Position(
        space=space, planets=planets, structures=dict(zip(own, POWERS)), budget=budget
    )


def _dist(a, b) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def time_once(pos: F.Position) -> tuple[float, int]:
    """CPU milliseconds of one ``candidates`` call (preparation included) and its result count.

    CPU time, not wall time: the benchmark machine is shared (2 cores), and waiting for a core
    is not the algorithm's cost.  Wall time is within a few percent of it on an idle machine.
    """
    F._prep.cache_clear()  # measure preparation too
    t = time.process_time()
    n = len(F.candidates(pos))
    return (time.process_time() - t) * 1000.0, n


def record_positions(budget: int) -> list[F.Position]:
    """The board before each of the 68 recorded federations (rough reconstruction, see tests)."""
    import attrs

    sys.path.insert(0, str(ROOT))
    from tests.gaia import test_federation as T

    out = []
    for _, rec in T._records():
        for _, _, pos in T._replay_federations(rec):
            out.append(attrs.evolve(pos, budget=budget))
    return out


def main(seeds: int = 30) -> None:
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "?"
    print(
        f"python {sys.version.split()[0]}; {seeds} boards per row; CPU ms per candidates() call; "
        f"load average {load} on {os.cpu_count()} cores"
    )
    if RECORD.exists():
        for budget in (8, 12, 25):
            times = [time_once(p)[0] for p in record_positions(budget)]
            print(
                f"records   budget {budget:2}: median {statistics.median(times):7.1f}  "
                f"worst {max(times):7.1f}  ({len(times)} positions)"
            )
    for kind, make in (("spread", late_game), ("clustered", clustered)):
        for budget in (8, 12, 16, 25):
            times, counts = [], []
            for seed in range(seeds):
                dt, n = time_once(make(seed, budget))
                times.append(dt)
                counts.append(n)
            print(
                f"{kind:9} budget {budget:2}: median {statistics.median(times):7.1f}  "
                f"worst {max(times):7.1f}  candidates median {statistics.median(counts):.0f} "
                f"max {max(counts)}"
            )


def state_positions() -> list[F.Position]:
    """The distinct federation positions ``legal_actions()`` searches over every state of the
    shared records (each player to act, in record order): every state listed afresh."""
    sys.path.insert(0, str(ROOT / "bench"))
    from bench_gaia import forget_runs, record_paths, replay_lines

    from boardrules_gaia import primitives as PR
    from boardrules_gaia.records import load_record

    seen: dict[F.Position, None] = {}
    search = F.candidates

    def spy(pos):
        seen.setdefault(pos, None)
        return search(pos)

    F.candidates = spy
    try:
        for path in record_paths():
            states: list = []
            game = replay_lines(load_record(path), False, lambda m, g: states.append(g.state)).game
            for st in states:
                if st.values.get(("f", "over")):
                    continue
                game.state = st
                game.ruleset.__dict__.pop("_gaia_cache", None)
                forget_runs(game)
                if hasattr(PR, "_LISTINGS"):
                    PR._LISTINGS.clear()
                else:  # (the same script times older versions of the plugin)
                    PR._federation_codes.cache_clear()
                len(game.legal_actions())
    finally:
        F.candidates = search
    return list(seen)


def main_states(rounds: int = 3) -> None:
    """``candidates`` over the record states' positions: each cold (best of ``rounds``), and
    all of them in record order with the searches kept between positions (best of ``rounds``)."""
    positions = state_positions()
    best = [float("inf")] * len(positions)
    order = float("inf")
    for _ in range(rounds):
        for i, pos in enumerate(positions):
            best[i] = min(best[i], time_once(pos)[0])
        F._prep.cache_clear()
        t = time.process_time()
        for pos in positions:
            F.candidates(pos)
        order = min(order, (time.process_time() - t) * 1000.0)
    ts = sorted(best)
    n = len(ts)
    print(f"{n} distinct positions of the records' states, CPU ms per candidates() call, cold: "
          f"median {ts[n // 2]:.3f}  p99 {ts[min(n - 1, round(0.99 * (n - 1)))]:.2f}  "
          f"worst {ts[-1]:.2f}  total {sum(ts):.0f}")
    print(f"all of them in record order, searches kept between positions: {order:.0f} ms")


def test_bench_candidates_late_game(benchmark):
    positions = [clustered(seed, 12) for seed in range(5)]

    def run():
        for pos in positions:
            F._prep.cache_clear()
            F.candidates(pos)

    benchmark(run)


if __name__ == "__main__":
    if sys.argv[1:2] == ["states"]:
        main_states()
    else:
        main(int(sys.argv[1]) if len(sys.argv) > 1 else 30)
