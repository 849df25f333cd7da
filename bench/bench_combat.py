"""Timing of the Eclipse combat odds solver.

Run: ``PYTHONPATH=src:plugins python bench/bench_combat.py [--quick] [--optimal-large]``

Prints, per battle, the best-of-N wall time of :func:`combat_odds` (each call starts with empty
caches), the number of outcomes, P(attacker wins), and the Monte-Carlo cost per simulated battle.
Then the same battles with optimal play on both sides (:data:`OPTIMAL_POLICY`), as a ratio to the
fixed policies' time in the same run, and the largest supply-limited fleet playing optimally
against NPC fleets; ``--optimal-large`` adds the large player-vs-player battles with optimal play
on both sides (most need more work than the default budget allows, reported as such).
"""

from __future__ import annotations

import sys
import time

from boardrules_eclipse.combat import OPTIMAL_POLICY, CombatTooLarge, combat_odds, parse_fleet, simulate_odds

ORACLE = [
    ("E1", "2 interceptor", "1 ancient"),
    ("E2", "1 dreadnought", "3 interceptor(3/0/+1/0; 1O)"),
    ("E3", "4 interceptor", "2 starbase"),
    ("E4", "1 dreadnought(1/2/+1/0; 2R)", "4 interceptor"),
    ("E5", "1 dreadnought(1/2/+1/0; 2R), +splitter", "4 interceptor"),
]

SUPPLY = "8 interceptor, 4 cruiser, 2 dreadnought, 4 starbase"
UPGRADED = (
    "8 interceptor(4/0/+1/-1; 1O), 4 cruiser(3/3/+2/-1; 2O; 2O), "
    "2 dreadnought(2/4/+2/-2; 1R 1O), 4 starbase(5/4/+2/-1; 2O)"
)
LARGE = [
    ("medium", "4 interceptor, 2 cruiser, 1 dreadnought", "4 interceptor, 2 cruiser, 1 dreadnought, 2 starbase"),
    ("ships vs supply", "8 interceptor, 4 cruiser, 2 dreadnought", SUPPLY),
    ("supply vs supply", SUPPLY, SUPPLY),
    ("upgraded vs upgraded", UPGRADED, UPGRADED),
    ("supply vs GCDS", "8 interceptor, 4 cruiser, 2 dreadnought", "1 gcds"),
]


def best_of(repeats: int, fn) -> tuple[float, object]:  # noqa: ANN001
    best, result = float("inf"), None
    for _ in range(repeats):
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return best, result


SMALL = [
    ("3 vs 3", "2 interceptor, 1 starbase", "2 interceptor, 1 ancient, +player"),
    ("4 vs 4", "2 interceptor, 2 cruiser", "2 interceptor, 1 cruiser, 1 dreadnought"),
    ("5 vs 5", "3 interceptor, 2 cruiser", "2 interceptor, 2 cruiser, 1 starbase"),
    ("6 vs 6", "4 interceptor, 2 cruiser", "4 interceptor, 2 cruiser"),
]


# The largest supply-limited fleet (eclipse-data.md §4; the attacker has no starbases) against
# NPC fleets: the player plays optimally, the NPCs by their rule.
SUPPLY_VS_NPC = [
    ("supply vs GCDS", "8 interceptor, 4 cruiser, 2 dreadnought", "1 gcds"),
    ("supply vs 3 Ancients", "8 interceptor, 4 cruiser, 2 dreadnought", "3 ancient"),
    ("upgraded vs GCDS", UPGRADED.replace(", 4 starbase(5/4/+2/-1; 2O)", ""), "1 gcds"),
]


# Rise of the Ancients effects, with the fixed policies and with optimal play on both sides.
ROTA = [
    ("point defense", "2 cruiser(2/1/+1/0; 1Y; 2O), 2 interceptor", "2 cruiser(2/1/+2/0; 1Y), 1 interceptor, +pd"),
    ("regeneration", "3 interceptor(3/0/+1/0; 1O), 1 cruiser", "1 ancient:ancient-cruiser(3/5/+2/0/1; 2O)"),
]


def run_optimal(label: str, attacker: str, defender: str, repeats: int, both: bool = True) -> None:
    a, d = parse_fleet(attacker), parse_fleet(defender)
    fixed, odds = best_of(repeats, lambda: combat_odds(a, d))
    try:
        seconds, best = best_of(repeats, lambda: combat_odds(a, d, OPTIMAL_POLICY, OPTIMAL_POLICY if both else None))
    except CombatTooLarge as error:
        print(f"{label:22} optimal: over the work budget ({error})")
        return
    p, q = best.win_probability("attacker"), odds.win_probability("attacker")  # type: ignore[attr-defined]
    print(f"{label:22} optimal {seconds * 1000:10.2f} ms  = {seconds / fixed:6.1f} x fixed policies  "
          f"P(att) {p:.4f} (fixed policies {q:.4f})")


def run(label: str, attacker: str, defender: str, repeats: int, mc_runs: int) -> None:
    a, d = parse_fleet(attacker), parse_fleet(defender)
    seconds, odds = best_of(repeats, lambda: combat_odds(a, d))
    start = time.perf_counter()
    simulate_odds(a, d, runs=mc_runs, seed=1)
    mc = (time.perf_counter() - start) / mc_runs
    p = odds.win_probability("attacker")  # type: ignore[attr-defined]
    n = len(odds.outcomes)  # type: ignore[attr-defined]
    print(f"{label:22} exact {seconds * 1000:10.2f} ms  outcomes {n:4d}  P(att) {p:.4f}  MC {mc * 1e6:8.1f} us/battle")


def main(argv: list[str]) -> None:
    quick = "--quick" in argv
    print("oracle battles (best of 20)")
    for bid, a, d in ORACLE:
        run(bid, a, d, repeats=20, mc_runs=5_000)
    print("large fleets (best of 1)")
    for label, a, d in LARGE[: 2 if quick else None]:
        run(label, a, d, repeats=1, mc_runs=500)
    print("optimal play on both sides (best of 5; large: best of 1)")
    for bid, a, d in ORACLE + SMALL:
        run_optimal(bid, a, d, repeats=5)
    print("Rise of the Ancients effects (best of 3)")
    for label, a, d in ROTA:
        run(label, a, d, repeats=3, mc_runs=2_000)
        run_optimal(label, a, d, repeats=3)
    print("optimal attacker against the NPC rule (best of 3)")
    for label, a, d in SUPPLY_VS_NPC:
        run_optimal(label, a, d, repeats=3, both=False)
    if "--optimal-large" in argv:
        for label, a, d in LARGE:
            run_optimal(label, a, d, repeats=1)


if __name__ == "__main__":
    main(sys.argv[1:])
