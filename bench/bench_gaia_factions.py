"""How many VP each Gaia Project faction scores in the hands of the greedy bot.

Run: ``python bench/bench_gaia_factions.py [--first-seed S] [--games N] [--shrink K]``

N seeded 4-player games (seeds S..S+N-1) of greedy bots (:class:`boardrules.bots.GreedyBot`),
the factions picked at random (a generator seeded by the game's seed), every other decision
greedy. Printed: a line per game (factions and scores), then per faction the games, the mean
final score and its edge over the mean of all players, shrunk toward 0 by ``n / (n + K)`` for a
faction seen in ``n`` games (its mean's noise: one player's score varies by some 20 VP).

Why: the greedy bot's one-ply faction pick is the same in every game (Hadsch Hallas, Ambas,
Firaks, Terrans, in seat order), whatever a faction is worth over six rounds of its play.
What it found (3 December; seeds 1000-1020, 2000-2020, 3000-3018, 61 games): Ambas 102.7 VP,
Xenos 98.5, Hadsch Hallas 96.2 ... Taklons 82.7, Gleens 77.8 (all players 91.3). Those edges
added to the evaluation during the faction picks (the bots then took Ambas, Hadsch Hallas,
Xenos, Terrans) moved the winners' VP by +0.6 +- 2.9 over seeds 0-29 (paired): not kept
(docs/status.md, Bots and simulation, tenth pass).
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections import defaultdict

import boardrules
from boardrules.bots import GreedyBot
from boardrules.bots.common import actor
from boardrules.game import Game


def game(rs, seed: int) -> list[tuple[str, int]]:
    """One game from ``seed``: random faction picks, greedy otherwise; (faction, score) per seat."""
    g = Game(rs, 4, seed)
    bots = [GreedyBot(f"{seed}/{p}") for p in range(4)]
    rng = random.Random(seed)
    while not g.over:
        p = actor(g)
        actions = list(g.legal_actions(p))
        g.play(rng.choice(actions) if actions[0].name == "pick_faction" else bots[p].choose(g, p),
               check=False)
    return [(g.get("myfaction", p), s["total"]) for p, s in enumerate(g.scores())]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--first-seed", type=int, default=1000)
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--shrink", type=float, default=4.0)
    args = ap.parse_args()
    rs = boardrules.build_ruleset("gaia-project")
    scores: dict[str, list[int]] = defaultdict(list)
    for seed in range(args.first_seed, args.first_seed + args.games):
        row = game(rs, seed)
        print(seed, row, flush=True)
        for faction, score in row:
            scores[faction].append(score)
    everyone = statistics.fmean(s for v in scores.values() for s in v)
    print(f"all players: mean {everyone:.1f} VP")
    for faction, v in sorted(scores.items(), key=lambda kv: -statistics.fmean(kv[1])):
        edge = (statistics.fmean(v) - everyone) * len(v) / (len(v) + args.shrink)
        print(f"  {faction}: {len(v)} games, mean {statistics.fmean(v):.1f}, edge {edge:+.1f}")


if __name__ == "__main__":
    main()
