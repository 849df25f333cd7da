"""Timing of Eclipse: random-bot games, ``legal_actions()`` and the exact combat odds.

Run: ``PYTHONPATH=src:plugins python bench/bench_eclipse.py [--quick]``

Prints

* random-bot games (``legal_actions()`` listed before every move, a uniformly random choice,
  players making every combat decision) for 4 and 6 players over a few seeds: games per
  second, player actions and all actions (chance included) per second;
* the time of ``list(game.legal_actions())`` over every state of those games (median, 99th
  percentile, worst), and on a constructed late-game state (the last round of a 6-player game
  with every player's full ship supply on the map and every ship-part technology): a turn, a
  Move's pending choice and an Upgrade's pending choice;
* the exact odds time (:func:`combat_odds`) for each oracle battle and the large fleets of
  ``bench_combat.py`` (``--quick``: no full-supply battles).
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

import boardrules
from boardrules.state import State
from boardrules_eclipse.combat import combat_odds, parse_fleet

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_combat import LARGE, ORACLE, best_of  # noqa: E402

SEEDS = (1, 2, 3)
LATE_SEED = 5   # its first player of the last round holds several hexes (random bots lose many)


def percentile(xs: list, q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def play_game(players: int, seed: int, legal_times: list):
    g = boardrules.new_game("eclipse", players=players, seed=seed)
    rng = random.Random(seed)
    moves = 0
    start = time.perf_counter()
    while not g.over:
        t = time.perf_counter()
        legal = list(g.legal_actions())
        legal_times.append(time.perf_counter() - t)
        g.play(rng.choice(legal))
        moves += 1
    return g, moves, time.perf_counter() - start


def bench_games(players: int, seeds) -> list:
    legal_times: list = []
    total = moves = actions = 0.0
    for seed in seeds:
        g, n, seconds = play_game(players, seed, legal_times)
        total += seconds
        moves += n
        actions += len(g.record.actions)
        print(f"  {players}p seed {seed}: {n} player actions, {len(g.record.actions)} in all, {seconds:.1f} s")
    print(f"{players} players: {len(seeds) / total:.3f} games/s, {moves / total:.0f} player actions/s, "
          f"{actions / total:.0f} actions/s (chance included)")
    report("  legal_actions() over all their states", legal_times)
    return legal_times


def report(label: str, times: list) -> None:
    print(f"{label}: n={len(times)}  median {statistics.median(times) * 1000:.2f} ms  "
          f"p99 {percentile(times, 0.99) * 1000:.2f} ms  worst {max(times) * 1000:.2f} ms")


# ---- a constructed late-game state -------------------------------------------------------------

def late_game(seed: int):
    """The start of the last round of a random 6-player game, then every player's full ship
    supply spread over their hexes, every technology that gives a ship part and 60 of each
    resource."""
    g = boardrules.new_game("eclipse", players=6, seed=seed)
    rng = random.Random(seed)
    while not (g.get("round") == g.ruleset.option("rounds") and not g.state.pending
               and not g.state.values.get(("f", "passed")) and len(g.players_to_act()) == 1):
        g.play(rng.choice(list(g.legal_actions())))
    values = dict(g.state.values)
    rs = g.ruleset
    hexes = g.get("hexes")
    ships = {h: list(g.get("ships", index=h)) for h in hexes}
    for p in range(6):
        own = ([h for h in hexes if g.get("controller", index=h) == p]
               or [h for h in hexes if any(o == p for o, _ in ships[h])])   # else where its ships are
        if not own:
            continue
        have = {c: sum(1 for h in hexes for o, c2 in ships[h] if (o, c2) == (p, c)) for c in rs.by_kind["ship_class"]}
        i = 0
        for cls in rs.by_kind["ship_class"]:
            for _ in range(rs.entities[cls].fields["limit"] - have[cls]):
                ships[own[i % len(own)]].append((p, cls))
                i += 1
        part_techs = {rs.entities[part].fields["tech"] for part in rs.by_kind["part"]} - {None}
        values[("v", "techs", p)] = tuple(dict.fromkeys(g.get("techs", p) + tuple(sorted(part_techs))))
        for res in ("money", "science", "materials"):
            values[("r", res, p)] = 60
    for h in hexes:
        values[("v", "ships", h)] = tuple(ships[h])
    g.state = State(values, g.state.pending)
    return g


def time_legal(g, repeat: int) -> list:
    out = []
    for _ in range(repeat):
        t = time.perf_counter()
        n = len(list(g.legal_actions()))
        out.append(time.perf_counter() - t)
    return out, n


def bench_late_game(repeat: int) -> None:
    seed = LATE_SEED
    g = late_game(seed)
    p = next(iter(g.players_to_act()))
    nships = sum(len(g.get("ships", index=h)) for h in g.get("hexes"))
    print(f"late-game state (6 players, seed {seed}): round {g.get('round')}, {len(g.get('hexes'))} hexes, "
          f"{nships} ships, p{p + 1} to act")
    times, n = time_legal(g, repeat)
    report(f"  legal_actions() on a turn ({n} actions)", times)
    for main in ("move", "upgrade"):
        g2 = boardrules.Game(g.ruleset, g.players, g.seed)
        g2.state = g.state
        g2.play(f"p{p + 1} {main}")
        times, n = time_legal(g2, repeat)
        report(f"  legal_actions() on the {main} choice ({n} options)", times)


# ---- combat odds ---------------------------------------------------------------------------------

def bench_odds(quick: bool) -> None:
    print("exact combat odds (each call starts with empty caches)")
    for label, a, d in ORACLE:
        fa, fd = parse_fleet(a), parse_fleet(d)
        seconds, odds = best_of(10, lambda: combat_odds(fa, fd))
        print(f"  {label:22} {seconds * 1000:9.2f} ms  P(att) {odds.win_probability('attacker'):.4f}"
              f"  ({a} vs {d})")
    for label, a, d in LARGE[: 2 if quick else None]:
        fa, fd = parse_fleet(a), parse_fleet(d)
        seconds, odds = best_of(1, lambda: combat_odds(fa, fd))
        print(f"  {label:22} {seconds:9.2f} s   P(att) {odds.win_probability('attacker'):.4f}"
              f"  outcomes {len(odds.outcomes)}")


def main(argv: list) -> None:
    quick = "--quick" in argv
    seeds = SEEDS[:1] if quick else SEEDS
    all_times = []
    for players in (4, 6):
        all_times += bench_games(players, seeds)
    report("legal_actions() over all states of all these games", all_times)
    bench_late_game(5 if quick else 20)
    bench_odds(quick)


if __name__ == "__main__":
    main(sys.argv[1:])
