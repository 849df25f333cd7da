"""The bots, measured: the default bot's games, the search bots against the random bot, the
search speed, and how simulation scales over processes.

Run: ``python bench/bench_bots.py [--games N] [--workers K] [--vs N] [--mcts [GAME=]N ...] [--only PART]
[--game GAME ...] [--first-seed S] [--bot BOT] [--seat-bot greedy|mcts ...] [--verbose] [--baseline REV]`` (parts: ``default``, ``versus``, ``speed``, ``scaling``;
``paired`` only when asked).

* default: N seeded 4-player games (seeds 0..N-1, or from ``--first-seed``: held-out seeds) with
  the default bot (greedy; or ``--bot``, e.g. ``mcts``: a candidate default) in every seat, CPU
  seconds a game; ``--verbose``: a line per game as it ends.
  Gaia Project: the winners' median VP, the share of games with a federation (and federations
  per player) and with a planetary institute. Eclipse: the winners' median VP and how many players do not control
  their home sector at the end of round 3 (upkeep, or battle, took it).
* versus: seat 1 played by the greedy bot, then by MCTS (``--mcts`` iterations per decision,
  ``N`` or ``GAME=N``), the other seats by random bots, over ``--vs`` seeds per game (1000 on, or from ``--first-seed``):
  seat 1's win rate (a shared first place counts) with its 95% Wilson interval and the exact
  one-sided 95% lower bound (Clopper-Pearson: above 95% takes at least 59 wins in 59 games),
  and the games it lost (seed, its score against the winner's).
* speed: random-bot decisions per CPU second, greedy decisions per CPU second and MCTS
  playouts (iterations, the root's ratings included) per CPU second on the same games, side by
  side (ratios to the random bot in the same run; CPU time, as other sessions load the machine).
* paired (``--only paired --baseline REV``): Gaia Project, N seeded 4-player games of greedy bots
  with the evaluation of ``plugins/boardrules_gaia/bot.py`` and the greedy bot of
  ``src/boardrules/bots/greedy.py`` at git revision REV, then the same seed with this tree's,
  alternated in one process (a paired difference is far less noisy than two runs: one seed's
  winner moves by 10-15 VP with any change): per seed the winners' VP; per side the winners'
  median and mean, all players' mean, main actions, board (power and QIC) actions, mines built,
  leech offers accepted and declined, federations and satellites per player, games with a
  planetary institute, the winner's VP by source (round tiles, federation tokens, tech tiles,
  final tiles, boosters), CPU seconds a game; the mean paired difference of the winners with its
  standard error.
* scaling: the same simulations with 1 and K worker processes, each in a fresh process: the CPU
  time spent outside the games (start, imports, ruleset build, pool, pickling, collection) as a
  share of all CPU time; the per-core scaling an idle machine would allow (that CPU time, and
  the games' own CPU times handed out in the pool's chunks); the wall-clock ratio (per core:
  ratio / K) beside the load average; pickled bytes per game sent and per result.

Other sessions may load the machine: the figures are from one run, side by side.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import statistics
import subprocess
import sys
import time

import boardrules
from boardrules.bots import GreedyBot, MCTSBot, RandomBot, make_bot, play_out
from boardrules.game import Game
from boardrules.simulate import SimulationSpec, proportion_ci, simulate, winner_score
from boardrules.simulate_pool import chunk_size, wire_bytes

GAMES = ("gaia-project", "eclipse", "harvest")


def default_games(n: int, workers: int, games=("gaia-project", "eclipse"), first_seed: int = 0,
                  bot: str = "greedy", verbose: bool = False) -> None:
    for name in games:
        spec = SimulationSpec(boardrules.build_ruleset(name), 4, n, first_seed=first_seed,
                              bots=(bot,))
        t = time.perf_counter()
        rows = simulate(spec, workers=workers, on_result=_scores_line if verbose else None)
        took = time.perf_counter() - t
        winners = [winner_score(r) for r in rows]
        line = (f"{name}: {n} games (seeds {first_seed}-{first_seed + n - 1}), {bot} in every seat, "
                f"{took:.0f} s, CPU {statistics.fmean(r['cpu'] for r in rows):.1f} s a game: winners' median "
                f"{statistics.median(winners):g} VP (range {min(winners)}-{max(winners)})")
        if name == "gaia-project":
            feds = pis = per_player = 0
            for r in rows:
                g = boardrules.load_game(r["record"], check=False)
                feds += any(g.get("fed_groups", p) for p in range(4))
                pis += any(g.get("built", p, "pi") for p in range(4))
                per_player += sum(len(g.get("fed_groups", p)) for p in range(4)) / 4
            line += (f"; games with a federation {feds}/{n} ({per_player / n:.2f} per player), "
                     f"with a planetary institute {pis}/{n}")
        else:
            lost = [homes_lost_by_round_3(r["record"]) for r in rows]
            line += (f"; players without their home sector after round 3: {sum(lost)} "
                     f"(in {sum(1 for x in lost if x)}/{n} games)")
        print(line, flush=True)


def homes_lost_by_round_3(record: str) -> int:
    """Replays an Eclipse record; counts the players who do not control their home sector when
    round 4 begins (or the game ends before)."""
    rec = boardrules.Record.loads(record)
    rs = boardrules.build_ruleset(rec.game, options=rec.options)
    g = Game(rs, rec.players, rec.seed, auto_chance=False)
    homes = {}
    for text in rec.actions:
        g.play(text, check=False)
        rnd = g.get("round") or 0
        if rnd == 1 and not homes:
            for p in range(g.players):
                species = g.get("species_of", p)
                sectors = set(rs.entities[species].fields["homes"])
                homes[p] = next(h for h in g.get("hexes") if g.get("sector_at", index=h) in sectors
                                and g.get("controller", index=h) == p)
        if rnd >= 4 or g.over:
            break
    return sum(1 for p, h in homes.items() if g.get("controller", index=h) != p)


def versus(n: int, iterations: dict[str, int], workers: int, games=GAMES, first_seed: int = 1000,
           kinds=("greedy", "mcts"), verbose: bool = False) -> None:
    for name in games:
        players = 3 if name == "harvest" else 4
        for bot in [k if k != "mcts" else f"mcts:{iterations[name]}" for k in kinds]:
            spec = SimulationSpec(boardrules.build_ruleset(name), players, n, first_seed=first_seed,
                                  bots=("random", f"p1={bot}"))
            t = time.perf_counter()
            rows = simulate(spec, workers=workers, on_result=_game_line if verbose else None)
            wins = sum(0 in r["winners"] for r in rows)
            lo, hi = proportion_ci(wins, n)
            floor = exact_lower(wins, n)
            mean = statistics.fmean(r["scores"][0] for r in rows)
            rnd = statistics.fmean(s for r in rows for s in r["scores"][1:])
            print(f"{name}: {bot} (seat 1) vs {players - 1} random: wins {wins}/{n} = "
                  f"{wins / n:.0%} (95% CI {lo:.0%}-{hi:.0%}; one-sided 95% exact lower bound "
                  f"{floor:.1%}); mean score {mean:.1f} vs random "
                  f"{rnd:.1f}; {time.perf_counter() - t:.0f} s, CPU {sum(r['cpu'] for r in rows):.0f} s "
                  f"(seeds {first_seed}-{first_seed + n - 1}; lost: {lost_games(rows) or 'none'})", flush=True)


def lost_games(rows: list[dict]) -> str:
    """The games seat 1 did not win, as ``seed (seat 1's score against the winner's)``, comma
    separated (empty when it won them all)."""
    return ", ".join(f"{r['seed']} ({r['scores'][0]} against {max(r['scores'])})"
                     for r in rows if 0 not in r["winners"])


def _scores_line(row: dict) -> None:
    """One line per game as it ends (``default --verbose``): seed, scores, CPU."""
    print(f"  seed {row['seed']}: {row['scores']} CPU {row['cpu']:.1f} s", flush=True)


def _game_line(row: dict) -> None:
    """One line per game as it ends (``--verbose``): seed, seat 1 won or lost, scores, CPU."""
    print(f"  seed {row['seed']}: {'won' if 0 in row['winners'] else 'LOST'} {row['scores']} "
          f"CPU {row['cpu']:.1f} s", flush=True)


def exact_lower(k: int, n: int, alpha: float = 0.05) -> float:
    """The one-sided (1 - alpha) Clopper-Pearson lower bound of a win rate after ``k`` wins in
    ``n`` games: the rate p at which k or more wins have probability alpha (k = n: alpha^(1/n);
    59 wins of 59 games are needed to show 95%)."""
    if k == 0:
        return 0.0
    lo, hi = 0.0, 1.0
    for _ in range(60):
        p = (lo + hi) / 2
        at_least = sum(math.comb(n, i) * p ** i * (1 - p) ** (n - i) for i in range(k, n + 1))
        lo, hi = (p, hi) if at_least < alpha else (lo, p)
    return lo


def speed(iterations: dict[str, int], games=GAMES) -> None:
    for name in games:
        players = 3 if name == "harvest" else 4
        figures = {}
        for label, bot in (("random", RandomBot(1)), ("greedy", make_bot("greedy", 1)),
                           ("mcts", MCTSBot(1, iterations=iterations[name]))):
            g = boardrules.new_game(name, players=players, seed=7)
            decisions = 0
            t = time.process_time()
            limit = 60 if label == "mcts" else 10_000
            while not g.over and decisions < limit:
                g.play(bot.choose(g), check=False)
                decisions += 1
            took = time.process_time() - t
            figures[label] = decisions / took
            if label == "mcts":
                figures["playouts"] = bot.playouts / took
        print(f"{name}: decisions/s random {figures['random']:.0f}, greedy {figures['greedy']:.1f} "
              f"({figures['greedy'] / figures['random']:.3f}x random), mcts:{iterations[name]} "
              f"{figures['mcts']:.2f}; MCTS playouts/s {figures['playouts']:.0f}", flush=True)


def paired(n: int, first_seed: int, baseline: str) -> None:
    import boardrules_gaia.bot as current
    old_bot = _baseline_module(baseline, "plugins/boardrules_gaia/bot.py", "baseline_gaia_bot")
    # the greedy bot too, as a module of boardrules.bots (its relative imports)
    old_greedy = _baseline_module(baseline, "src/boardrules/bots/greedy.py", "boardrules.bots._baseline_greedy")
    rs = boardrules.build_ruleset("gaia-project")
    sides = {baseline: (old_greedy.GreedyBot, old_bot.evaluate), "this tree": (GreedyBot, current.evaluate)}
    rows: dict[str, list[dict]] = {side: [] for side in sides}
    for seed in range(first_seed, first_seed + n):
        line = f"  seed {seed}:"
        for side, (bot, evaluate) in sides.items():
            row = _paired_game(rs, seed, [bot(f"{seed}/{p}", evaluate=evaluate) for p in range(4)])
            rows[side].append(row)
            line += f" {side} {row['winner']} VP (CPU {row['cpu']:.1f} s)"
        print(line, flush=True)
    for side, got in rows.items():
        mean = {k: statistics.fmean(r[k] for r in got) for k in got[0]}
        print(f"{side}: winners' median {statistics.median(r['winner'] for r in got):g} VP, mean "
              f"{mean['winner']:.1f}, all players {mean['all']:.1f}; per player: main actions "
              f"{mean['main']:.1f}, board actions {mean['board']:.1f}, mines built {mean['mines']:.1f}, "
              f"leech accepted {mean['accepted']:.1f}, "
              f"declined {mean['declined']:.1f}, federations {mean['feds']:.2f}, satellites "
              f"{mean['satellites']:.1f}; a planetary institute in {sum(r['pi'] for r in got)}/{n} games; "
              f"the winner's VP from " + ", ".join(f"{k} {mean['vp_' + k]:.1f}" for k in SOURCE_KINDS)
              + f"; CPU {mean['cpu']:.2f} s a game", flush=True)
    diffs = [b["winner"] - a["winner"] for a, b in zip(*rows.values())]
    err = statistics.stdev(diffs) / math.sqrt(n) if n > 1 else 0.0
    print(f"winners, this tree minus {baseline}: {statistics.fmean(diffs):+.1f} ± {err:.1f} VP "
          f"(mean paired difference, its standard error; seeds {first_seed}-{first_seed + n - 1})", flush=True)


def _baseline_module(baseline: str, path: str, name: str):
    """The module at ``path`` of this repository as git revision ``baseline`` holds it, loaded as
    ``name`` (its package: what ``name`` names before its last dot)."""
    import importlib.util
    import tempfile
    root = subprocess.run(["git", "rev-parse", "--show-toplevel"], check=True, capture_output=True,
                          text=True, cwd=os.path.dirname(os.path.abspath(__file__))).stdout.strip()
    source = subprocess.run(["git", "show", f"{baseline}:{path}"], check=True, capture_output=True,
                            text=True, cwd=root).stdout
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(source)
    try:
        spec = importlib.util.spec_from_file_location(name, f.name)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        module.__package__ = name.rpartition(".")[0]
        spec.loader.exec_module(module)
    finally:
        os.unlink(f.name)
    return module


MINE_ACTIONS = ("build_mine", "power_mine", "booster_mine")
# the winner's VP by where they came from (the rules' kinds of the score rows): where the bots
# fall short of real winners (round tiles 29-46, federation tokens 34-41, tech tiles 28-34 in
# deep-mind-2 and JaeggaFun04)
SOURCE_KINDS = ("roundtile", "fedtoken", "tech", "finaltile", "booster")


def _paired_game(rs, seed: int, bots: list) -> dict:
    """One Gaia game of ``bots`` from ``seed``: the winner's VP, all players' mean, CPU seconds,
    per player the main actions of rounds 1-6 (passing not counted), board (power and QIC)
    actions among them (real players take about 6.5: docs/status.md), mines built, leech offers
    accepted and declined, federations, satellites; the winner's VP by ``SOURCE_KINDS``; whether
    anyone built a planetary institute."""
    g = Game(rs, 4, seed)
    counts = dict.fromkeys(("main", "mines", "accepted", "declined", "board"), 0)
    main = {name for name, a in rs.actions.items() if "main" in a.tags}

    def count(game: Game, action) -> None:
        if action.name == "leech":
            counts["accepted" if action.args else "declined"] += 1
        elif (action.name in main and game.get("round")) and not action.name.startswith("pass"):
            counts["main"] += 1
            counts["mines"] += action.name in MINE_ACTIONS
            counts["board"] += action.name in ("board", "power_mine")

    t = time.process_time()
    play_out(g, bots, on_action=count)
    cpu = time.process_time() - t
    rows = g.scores()
    scores = [s["total"] for s in rows]
    won = rows[scores.index(max(scores))]["sources"]
    return {"winner": max(scores), "all": statistics.fmean(scores), "cpu": cpu,
            **{k: v / 4 for k, v in counts.items()},
            "feds": sum(len(g.get("fed_groups", p)) for p in range(4)) / 4,
            "satellites": sum(len(g.get("satellites", p)) for p in range(4)) / 4,
            **{f"vp_{kind}": float(sum(vp for name, vp in won.items() if name in rs.by_kind.get(kind, ())))
               for kind in SOURCE_KINDS},
            "pi": any(g.get("built", p, "pi") for p in range(4))}


def scaling(n: int, workers: int) -> None:
    """Per game kind (Gaia Project 4 random players, ``n`` games; Harvest 3 random players,
    ``25 n`` games, small games where messages matter): each run in a fresh process (interpreter
    start, imports and ruleset build included), with 1 and with ``workers`` processes.
    (a) overhead: the CPU time not spent in games (total CPU of the fresh process and its
    workers, from ``RUSAGE_CHILDREN``, minus the games' own CPU time measured in the workers) as
    a share of the total, and the part of it that is start, imports and build; (b) the wall
    clock ratio, with the load average beside it (on a loaded machine it measures the others);
    bytes pickled per game sent and per result."""
    for game, players, games in (("gaia-project", 4, n), ("harvest", 3, 25 * n)):
        runs = {k: _fresh_run(game, players, games, k) for k in (1, workers)}
        one, many = runs[1], runs[workers]
        ratio = one["wall"] / many["wall"]
        idle = schedule_scaling(many["cpus"], workers) * one["total"] / many["total"]
        print(f"scaling ({game}, {games} random games, fresh process each; 1 vs {workers} "
              f"processes): CPU outside the games {one['overhead']:.1%} vs {many['overhead']:.1%} "
              f"of all (start, imports and ruleset build {one['fixed']:.2f} s vs "
              f"{many['fixed']:.2f} s; the rest, the pool, messages and exit, "
              f"{one['run']:.1%} vs {many['run']:.1%}); on an idle machine (that CPU time and "
              f"the games' lengths in the pool's chunks) {idle:.0%} per core; wall clock {ratio:.2f}x, "
              f"{ratio / workers:.0%} per core (load average {one['load']:.1f} and "
              f"{many['load']:.1f}); pickled bytes per game sent {many['bytes']['task']:.0f}, per "
              f"result {many['bytes']['result']:.0f}, once per worker {many['bytes']['setup']:.0f} "
              "(none with fork)", flush=True)


def _fresh_run(game: str, players: int, games: int, workers: int) -> dict:
    """Run ``games`` games in a new interpreter (``--child``); its figures plus ``total`` (CPU
    seconds of it and its workers), ``overhead`` (the share of ``total`` outside games) and
    ``run`` (the same without the start, imports and ruleset build)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run([sys.executable, __file__, "--child", game, str(players), str(games),
                          str(workers)], check=True, capture_output=True, text=True).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    figures = json.loads(out.splitlines()[-1])
    total = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    figures.update(total=total, overhead=(total - figures["play"]) / total,
                   run=(total - figures["play"] - figures["fixed"]) / total)
    return figures


def child(game: str, players: int, games: int, workers: int) -> None:
    """The fresh process of :func:`_fresh_run`: builds the ruleset, simulates, prints JSON."""
    rs = boardrules.build_ruleset(game)
    fixed = time.process_time()   # interpreter start, imports, ruleset build
    spec = SimulationSpec(rs, players, games, bots=("random",))
    t = time.perf_counter()
    rows = simulate(spec, workers=workers)
    wall = time.perf_counter() - t
    print(json.dumps({"fixed": fixed, "wall": wall, "play": sum(r["cpu"] for r in rows),
                      "cpus": [r["cpu"] for r in rows], "load": os.getloadavg()[0],
                      "bytes": wire_bytes(spec.tasks(), rows)}))


def schedule_scaling(cpus: list[float], workers: int) -> float:
    """Per-core scaling an idle machine would allow, given each game's CPU time: the pool's
    chunks (simulate_pool.chunk_size) handed in order to whichever worker is free first;
    the games' total over ``workers`` times the time the last worker finishes."""
    free = [0.0] * workers
    spent, done = 0.0, 0
    while done < len(cpus):
        n = chunk_size(spent, done, len(cpus) - done, workers)
        chunk = cpus[done:done + n]
        w = free.index(min(free))
        free[w] += sum(chunk)
        spent += sum(chunk)
        done += len(chunk)
    return sum(cpus) / (workers * max(free))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--vs", type=int, default=20)
    ap.add_argument("--mcts", action="append", default=[], metavar="[GAME=]N",
                    help="MCTS iterations per decision: N for every game or GAME=N (repeatable; "
                         "default 30)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--first-seed", type=int, help="the first seed (default: 0 for default, 1000 for versus)")
    ap.add_argument("--bot", default="greedy", help="default: the bot in every seat (greedy, mcts, mcts:N)")
    ap.add_argument("--seat-bot", action="append", choices=("greedy", "mcts"),
                    help="versus: seat 1's bots (repeatable; default greedy then mcts)")
    ap.add_argument("--verbose", action="store_true", help="default, versus: a line per game as it ends")
    ap.add_argument("--only", choices=("default", "versus", "speed", "scaling", "paired"))
    ap.add_argument("--baseline", default="main", metavar="REV",
                    help="paired: the git revision whose Gaia evaluation plays first (default main)")
    ap.add_argument("--game", action="append", choices=GAMES, help="only these games (repeatable)")
    ap.add_argument("--child", nargs=4, metavar=("GAME", "PLAYERS", "GAMES", "WORKERS"),
                    help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child:
        child(a.child[0], *map(int, a.child[1:]))
        return
    games = tuple(a.game or GAMES)
    mcts = dict.fromkeys(GAMES, 30)
    for spec in a.mcts:
        name, eq, n = spec.rpartition("=")
        mcts.update({name: int(n)} if eq else dict.fromkeys(GAMES, int(n)))
    if a.only in (None, "speed"):
        speed(mcts, games)
    if a.only in (None, "scaling"):
        scaling(max(8, a.workers * 8), a.workers)
    if a.only in (None, "default"):
        default_games(a.games, a.workers, tuple(g for g in games if g != "harvest"),
                      0 if a.first_seed is None else a.first_seed, a.bot, a.verbose)
    if a.only == "paired":
        paired(a.games, a.first_seed or 0, a.baseline)
    if a.only in (None, "versus"):
        versus(a.vs, mcts, a.workers, games, 1000 if a.first_seed is None else a.first_seed, tuple(a.seat_bot or ("greedy", "mcts")),
               a.verbose)


if __name__ == "__main__":
    main()
