"""Timing of Gaia Project on the site's real records and on random bot games.

Run: ``PYTHONPATH=src:plugins python bench/bench_gaia.py [--quick] [--records A,B] [--seeds N]``

Prints three tables:

a) **Replay** of each record of ``shared/gaia-records`` (the ruleset for the record's map is
   built once beforehand; that one-off build is reported separately): milliseconds per game and
   per record line, with the engine's legality check on every action (``check=True``, what
   ``boardrules replay`` does) and without it (``check=False``).
b) **legal_actions()** on every state of the last two rounds each record reaches (after every
   engine action of those rounds): median, 99th percentile and worst case, the worst state named
   by its record and move (index in the record's ``moves``: the state after an engine action
   of that line). Each state is timed cold (the plugin's per-state memo emptied), best of 3; the
   kept states are frozen out of the garbage collector (``gc.freeze``) while they are timed.
c) **Random bot games** with 4 players (a few seeds): games per second and actions per second,
   every action chosen uniformly from ``legal_actions()``.

Times are CPU time of the process (``time.process_time``; ``--wall`` for wall-clock time). The
site's own engine, for comparison, replays the full 4-player games in 250-450 ms with its
checks and 40-110 ms without.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from pathlib import Path

from boardrules.game import new_game
from boardrules.ruleset import _build, build_ruleset
from boardrules_gaia import replay as R
from boardrules_gaia.records import load_record

ROOT = Path(__file__).resolve().parents[1]
# CPU time of this process by default: on a shared machine wall time mostly measures the other
# processes (``--wall`` for wall-clock time on an idle one)
clock = time.process_time
RECORDS = ROOT.parent / "shared" / "gaia-records"


def record_paths(names=None):
    paths = sorted(p for p in RECORDS.glob("*.json") if p.name != "INDEX.json")
    if names:
        paths = [p for p in paths if p.stem in names]
    return paths


def replay_lines(record, check: bool, on_action=None) -> R.Replayer:
    """Replay ``record`` line by line (as :func:`replay.replay_record`, without the comparison);
    ``on_action(move_index, game)`` after every engine action."""
    rp = R.Replayer(record, check=check)
    lines = record.lines
    n_lead = record.setup.consumes_leading_moves
    if on_action is not None:
        play = rp._play
        current = [0]

        def traced(action, main=False):
            play(action, main)
            on_action(current[0], rp.game)
        rp._play = traced
    for i in range(len(lines)):
        if on_action is not None:
            current[0] = n_lead + i
        rp.line(i, lines, record.moves_raw[n_lead + i])
    return rp


def best_of(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = clock()
        fn()
        times.append(clock() - t)
    return min(times)


def forget_runs(game) -> None:
    """Empty what the game remembers about the actions of the states it saw (Game._known_for),
    so each timing lists the actions afresh."""
    if hasattr(game, "_known"):   # (the same script times older versions of the engine)
        game._known.clear()


def percentile(values, q: float) -> float:
    s = sorted(values)
    k = min(len(s) - 1, max(0, round(q * (len(s) - 1))))
    return s[k]


def table_replay(paths, repeat: int) -> list:
    print("a) replay of the records (best of %d; ruleset built beforehand)" % repeat)
    print(f"{'record':32} {'pl':>2} {'rnd':>3} {'lines':>5} {'actions':>7} {'build ms':>8} "
          f"{'check ms':>9} {'ms/line':>7} {'no-check ms':>11} {'ms/line':>7}")
    rows = []
    for path in paths:
        record = load_record(path)
        _build.cache_clear()
        t = clock()
        build_ruleset(R.GAME, options={"fixed_map": R.map_option(record)})
        build = clock() - t
        rp = replay_lines(record, True)
        actions = rp.actions
        rnd = rp.game.state.values.get(("f", "round"), 0)
        t_check = best_of(lambda: replay_lines(record, True), repeat)
        t_fast = best_of(lambda: replay_lines(record, False), repeat)
        n = len(record.lines)
        rows.append((path.stem, record.players, rnd, n, actions, build, t_check, t_fast))
        print(f"{path.stem:32} {record.players:>2} {rnd:>3} {n:>5} {actions:>7} {build * 1e3:8.0f} "
              f"{t_check * 1e3:9.1f} {t_check * 1e3 / n:7.2f} {t_fast * 1e3:11.1f} "
              f"{t_fast * 1e3 / n:7.2f}")
    full = [r for r in rows if r[1] == 4 and r[2] == 6]
    if full:
        print("full 4-player games (to the end of round 6): "
              + ", ".join(f"{r[0]} {r[6] * 1e3:.0f} ms checked / {r[7] * 1e3:.0f} ms unchecked"
                          for r in full))
    tot_lines = sum(r[3] for r in rows)
    print(f"all records: {sum(r[6] for r in rows) * 1e3 / tot_lines:.2f} ms/line checked, "
          f"{sum(r[7] for r in rows) * 1e3 / tot_lines:.2f} ms/line unchecked, "
          f"ruleset build median {statistics.median(r[5] for r in rows) * 1e3:.0f} ms")
    print()
    return rows


def late_states(record):
    """(move index, state) after every engine action of the last two rounds the record reaches."""
    rp = replay_lines(record, False)
    last = rp.game.state.values.get(("f", "round"), 0) or 0
    states = []

    def keep(move, game):
        rnd = game.state.values.get(("f", "round"), 0) or 0
        if rnd >= last - 1 and not game.over:
            states.append((move, game.state))
    game = replay_lines(record, False, keep).game
    return game, states


def forget_federations() -> None:
    """Empty the Gaia plugin's federation searches kept across states (the listings per
    position, the positions' preparations and boards): the next listing searches afresh."""
    from boardrules_gaia import federation as F
    from boardrules_gaia import primitives as P
    P._LISTINGS.clear()
    F._prep.cache_clear()
    F._board.cache_clear()


def cold_listing_times(game, states, repeat: int, stem: str, federations: bool = False) -> list:
    """[(best seconds, ``stem``, move, legal actions)] of ``len(game.legal_actions())`` on each
    (move, state) not over, best of ``repeat``, cold: the Gaia plugin's per-state memo (planets
    in range, federations) and the runs the game remembers per state emptied before each (with
    ``federations`` the federation searches kept across states too: :func:`forget_federations`;
    without, only a state's first timing searches, so its best is the listing without the
    search). The states are moved out of the garbage collector's way meanwhile: a full
    collection over thousands of kept states would land in some timings at random."""
    gc.collect()
    gc.freeze()
    try:
        out = []
        for move, st in states:
            if st.values.get(("f", "over")):
                continue
            best, n = float("inf"), 0
            for _ in range(repeat):
                game.state = st
                game.ruleset.__dict__.pop("_gaia_cache", None)
                forget_runs(game)
                if federations:
                    forget_federations()
                t = clock()
                n = len(game.legal_actions())
                best = min(best, clock() - t)
            out.append((best, stem, move, n))
        return out
    finally:
        gc.unfreeze()


def table_legal(paths, repeat: int) -> list:
    print(f"b) legal_actions() on every state of the last two rounds of each record (best of {repeat}, cold)")
    print(f"{'record':32} {'states':>6} {'median ms':>9} {'p99 ms':>8} {'worst ms':>8}  worst state")
    samples = []  # (seconds, record, move, count)
    for path in paths:
        record = load_record(path)
        game, states = late_states(record)
        mine = cold_listing_times(game, states, repeat, path.stem)
        del states
        samples += mine
        if not mine:
            continue
        times = [m[0] for m in mine]
        w = max(mine)
        print(f"{path.stem:32} {len(mine):>6} {statistics.median(times) * 1e3:9.2f} "
              f"{percentile(times, .99) * 1e3:8.2f} {w[0] * 1e3:8.2f}  move {w[2]} "
              f"({w[3]} legal: {record.moves_clean[w[2]]!r})")
    times = [s[0] for s in samples]
    w = max(samples)
    print(f"all {len(samples)} states: median {statistics.median(times) * 1e3:.2f} ms, "
          f"p99 {percentile(times, .99) * 1e3:.2f} ms, worst {w[0] * 1e3:.2f} ms "
          f"({w[1]} move {w[2]}, {w[3]} legal actions)")
    print()
    return samples


def random_game(seed: int, players: int = 4):
    g = new_game("gaia-project", players=players, seed=seed)
    rnd = random.Random(seed)
    n = 0
    while not g.over:
        g.play(rnd.choice(list(g.legal_actions())), check=False)
        n += 1
    return n


def table_random(seeds: int) -> None:
    print(f"c) random bot games, 4 players, seeds 1..{seeds} (each action uniform over legal_actions())")
    new_game("gaia-project", players=4, seed=0)  # the ruleset build, not timed
    total_n, total_t = 0, 0.0
    for seed in range(1, seeds + 1):
        t = clock()
        n = random_game(seed)
        dt = clock() - t
        total_n += n
        total_t += dt
        print(f"seed {seed}: {n} actions in {dt:.2f} s ({n / dt:.0f} actions/s)")
    print(f"total: {seeds / total_t:.3f} games/s, {total_n / total_t:.0f} actions/s")
    print()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="one timing per replay, 2 random games")
    ap.add_argument("--records", default="", help="comma-separated record names (default: all)")
    ap.add_argument("--seeds", type=int, default=None)
    ap.add_argument("--only", default="abc", help="which tables: any of a, b, c")
    ap.add_argument("--wall", action="store_true", help="wall-clock time instead of CPU time")
    args = ap.parse_args()
    global clock
    if args.wall:
        clock = time.perf_counter
    print(f"timings: {'wall-clock' if args.wall else 'CPU'} time, Python {sys.version.split()[0]}")
    paths = record_paths(set(args.records.split(",")) - {""})
    if not paths:
        sys.exit(f"no records in {RECORDS}")
    if "a" in args.only:
        table_replay(paths, 1 if args.quick else 3)
    if "b" in args.only:
        table_legal(paths, 1 if args.quick else 3)
    if "c" in args.only:
        table_random(args.seeds or (2 if args.quick else 4))


if __name__ == "__main__":
    main()
