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

``--flow`` (one or more records, or ``--seed`` with one or more seeds): instead of the rounds,
what moved each resource over the games of rounds 1-6, per player: gained and spent, by the
action that moved it (a conversion by its name, ``leech+`` an accepted charge); power as
charge potential (bowl II + 2 × bowl III: a charge adds one, a token spent from bowl III takes
two); the top sources. Income shows under the action whose play runs the income step: mostly
``income`` in a record, mostly a round's last ``pass_round`` in a bot game (count the two together).

What ``--flow`` showed (4 December, issue 12's thirteenth pass; deep-mind-2 and JaeggaFun04
against the bots' seeds 0-3, per player over the game): income is alike (credits 39 against 41,
ore 24 against 22, knowledge 18 against 17); the real players' extra ore and credits come
through power (board actions, power conversions) and QIC, and their power charge potential
gained is 84 against 19: charges accepted 40.5 against 2.9 (23.8 offers accepted against
2.9, of 30 against 7 made), income 26 against 13, tech tile actions 8.5 against 0.

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


class Flow:
    """Resources gained and spent per action name, summed over games (:meth:`after` called
    after each real action, :meth:`start` at each game's start)."""

    RESOURCES = ("credits", "ore", "knowledge", "qic", "power", "vp")

    def __init__(self) -> None:
        self.gained: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
        self.spent: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
        self.players = 0
        self.last: list[dict[str, int]] = []

    @classmethod
    def snapshot(cls, game: Game) -> list[dict[str, int]]:
        """Each player's resources (power as charge potential: bowl II + 2 × bowl III)."""
        return [{r: int(game.get("bowl2", p) + 2 * game.get("bowl3", p)) if r == "power" else int(game.get(r, p))
                 for r in cls.RESOURCES} for p in range(game.players)]

    def start(self, game: Game) -> None:
        self.players += game.players
        self.last = self.snapshot(game)

    def after(self, game: Game, action, in_round: bool) -> None:
        """Counts what ``action`` (played in rounds 1-6 when ``in_round``) moved."""
        now = self.snapshot(game)
        if in_round:
            name = action.name
            if name == "leech":
                name = "leech+" if action.args else "leech-"
            elif name == "convert" and action.args:
                name = f"convert {action.args[0]}"
            for before, after in zip(self.last, now):
                for r in self.RESOURCES:
                    moved = after[r] - before[r]
                    (self.gained if moved > 0 else self.spent)[r][name] += abs(moved)
        self.last = now

    def report(self, top: int = 8) -> None:
        n = self.players
        for r in self.RESOURCES:
            for label, got in (("gained", self.gained[r]), ("spent", self.spent[r])):
                print(f"{r} {label} {sum(got.values()) / n:.1f} a player: "
                      + ", ".join(f"{k} {v / n:.1f}" for k, v in got.most_common(top) if v))


def trace_record(name: str, listed: bool, flow: Flow | None = None) -> None:
    """``name``'s rounds (or, with ``flow``, only its resource flow counted there)."""
    record = load_record(RECORDS / f"{name}.json")
    rp = R.Replayer(record, check=False)
    tracer = Tracer(rp.game.ruleset)
    if flow is not None:
        flow.start(rp.game)
    play = rp._play

    def hooked(action, main: bool = False) -> None:
        game = rp.game
        # (the listing itself: a listing view's ``in`` checks the action's legality, and a
        # federation's other satellite hexes are legal without being listed)
        if listed and action.player >= 0 and not game.over and action not in list(game.legal_actions(action.player)):
            print(f"  not listed (round {game.get('round')}): {action}")
        in_round = bool(game.get("round"))
        if flow is None:
            tracer.action(game, action)
        play(action, main)
        if flow is not None:
            flow.after(rp.game, action, in_round)
    rp._play = hooked
    lead = record.setup.consumes_leading_moves
    for i in range(len(record.lines)):
        rp.line(i, record.lines, record.moves_raw[lead + i])
    if flow is None:
        tracer.dump(rp.game)


def trace_seed(seed: int, flow: Flow | None = None) -> None:
    """The bots' game of ``seed``, round by round (or, with ``flow``, only its resource flow
    counted there)."""
    rs = boardrules.build_ruleset("gaia-project")
    game = Game(rs, 4, seed)
    tracer = Tracer(rs)
    if flow is not None:
        flow.start(game)
        rounds = [False]   # (whether the action to come is played in rounds 1-6)

        def count(game: Game, action) -> None:
            flow.after(game, action, rounds[0])
            rounds[0] = bool(game.get("round"))
    play_out(game, [GreedyBot(f"{seed}/{p}") for p in range(4)],
             on_action=tracer.action if flow is None else count)
    if flow is None:
        tracer.dump(game)
    print(f"scores (seed {seed})" if flow else "scores", [s["total"] for s in game.scores()])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("record", nargs="*", help="a record's name in shared/gaia-records (several with --flow)")
    ap.add_argument("--seed", type=int, nargs="+", help="a greedy bots' game from this seed instead (several with --flow)")
    ap.add_argument("--listed", action="store_true", help="records: print the real moves not listed")
    ap.add_argument("--flow", action="store_true", help="the resources' flow by action, summed over the games")
    a = ap.parse_args()
    games = a.seed if a.seed is not None else a.record
    if not games or (a.seed is not None and a.record):
        ap.error("records or --seed")
    if len(games) > 1 and not a.flow:
        ap.error("one game at a time, unless --flow")
    flow = Flow() if a.flow else None
    for game in games:
        if a.seed is not None:
            trace_seed(game, flow)
        else:
            trace_record(game, a.listed, flow)
    if flow is not None:
        flow.report()


if __name__ == "__main__":
    main()
