"""Gaia Project round by round: a real record or a greedy bots' game, per player and round.

Run: ``python bench/trace_gaia_rounds.py deep-mind-2`` (a record of ``shared/gaia-records``)
or ``python bench/trace_gaia_rounds.py --seed 0`` (four default greedy bots, the seating of
``bench_bots.py``); ``--listed`` (records): every real move the engine's listing does not offer
at that point (a federation is listed once per set of members, with one choice of satellite
hexes; the others are legal, not listed).

Printed when a round begins (and at the end): each player's faction, credits, ore, knowledge,
QIC, power bowls I/II/III, VP, structures (mines, trading stations, research labs, planetary
institute, academies), research levels (terraforming, navigation, intelligence, Gaia, economy,
science), federations, Gaiaformers, and the actions taken since the last line by name (a ``*``
marks a main action; ``leech+`` / ``leech-`` a charge offer accepted / declined). A record's
income arrives as the replay plays it (its ``income`` lines), a bot game's at the round's
start, so the resources of the two kinds of game are read at slightly different points.

What it showed (3 December, issue 12's twelfth pass): the real players of deep-mind-2 and
JaeggaFun04 take 6-12 main actions in round 1 (4 upgrades, power actions, a tech tile's action)
on 5-9 charges accepted each, and build their planetary institutes in rounds 1-6 (median 3);
the bots take 3-5 main actions a round on 0-2 charges and, on seeds 0-9, build a planetary
institute in 21 of 40 player-games, in round 5 (median).
"""

from __future__ import annotations

import argparse
import collections
from pathlib import Path

import boardrules
from boardrules.bots import GreedyBot, play_out
from boardrules.game import Game
from boardrules_gaia import replay as R
from boardrules_gaia.records import load_record

RECORDS = Path(__file__).resolve().parents[2] / "shared" / "gaia-records"
BUILDINGS = ("mine", "ts", "lab", "pi", "ac1", "ac2")
TRACKS = ("terraforming", "navigation", "intelligence", "gaia", "economy", "science")


def player_line(game: Game, p: int) -> str:
    """One player's resources, structures and research, as printed."""
    def get(name: str) -> int:
        return int(game.get(name, p))
    built = [game.get("built", p, b) for b in BUILDINGS]
    # seats as action texts write them (p1 is seat 0)
    return (f"p{p + 1} {game.get('myfaction', p)}: c{get('credits')} o{get('ore')} k{get('knowledge')} "
            f"q{get('qic')} pw{get('bowl1')}/{get('bowl2')}/{get('bowl3')} vp{get('vp')} | "
            f"m{built[0]} ts{built[1]} lab{built[2]} pi{built[3]} ac{built[4] + built[5]} | "
            f"research {[get(t) for t in TRACKS]} feds {len(game.get('fed_groups', p))} "
            f"gf {get('gaiaformers')}")


class Tracer:
    """Counts the actions per player and prints the players' lines when the round changes."""

    def __init__(self, ruleset) -> None:
        self.main = {n for n, a in ruleset.actions.items() if "main" in a.tags}
        self.round = None
        self.actions: dict[int, collections.Counter] = collections.defaultdict(collections.Counter)

    def action(self, game: Game, action) -> None:
        if game.get("round") != self.round:
            self.dump(game)
            self.round = game.get("round")
        if action.player < 0:
            return
        if action.name == "leech":
            name = "leech+" if action.args else "leech-"
        else:
            name = action.name + ("*" if action.name in self.main else "")
        self.actions[action.player][name] += 1

    def dump(self, game: Game) -> None:
        print(f"== before round {game.get('round')}" if not game.over else "== game over")
        for p in range(game.players):
            print("  " + player_line(game, p))
            print("      " + ", ".join(f"{k} {n}" for k, n in sorted(self.actions[p].items())))
        self.actions.clear()


def trace_record(name: str, listed: bool) -> None:
    record = load_record(RECORDS / f"{name}.json")
    rp = R.Replayer(record, check=False)
    tracer = Tracer(rp.game.ruleset)
    play = rp._play

    def hooked(action, main: bool = False) -> None:
        game = rp.game
        # (the listing itself: a listing view's ``in`` checks the action's legality, and a
        # federation's other satellite hexes are legal without being listed)
        if listed and action.player >= 0 and not game.over and action not in list(game.legal_actions(action.player)):
            print(f"  not listed (round {game.get('round')}): {action}")
        tracer.action(game, action)
        play(action, main)
    rp._play = hooked
    lead = record.setup.consumes_leading_moves
    for i in range(len(record.lines)):
        rp.line(i, record.lines, record.moves_raw[lead + i])
    tracer.dump(rp.game)


def trace_seed(seed: int) -> None:
    rs = boardrules.build_ruleset("gaia-project")
    game = Game(rs, 4, seed)
    tracer = Tracer(rs)
    play_out(game, [GreedyBot(f"{seed}/{p}") for p in range(4)], on_action=tracer.action)
    tracer.dump(game)
    print("scores", [s["total"] for s in game.scores()])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("record", nargs="?", help="a record's name in shared/gaia-records")
    ap.add_argument("--seed", type=int, help="a greedy bots' game from this seed instead")
    ap.add_argument("--listed", action="store_true", help="records: print the real moves not listed")
    a = ap.parse_args()
    if a.seed is not None:
        trace_seed(a.seed)
    elif a.record:
        trace_record(a.record, a.listed)
    else:
        ap.error("a record or --seed")


if __name__ == "__main__":
    main()
