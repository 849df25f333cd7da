"""Timing of the Eclipse combat odds solver, side by side in one run.

Run: ``PYTHONPATH=src:plugins python bench/bench_combat.py [--quick]``

One row per battle: the CPU time (``time.process_time``, best of N; every call starts with empty
caches) of :func:`combat_odds` with the fixed policies and with optimal play on both sides
(:data:`OPTIMAL_POLICY`; against an NPC fleet the NPC keeps its rule), optimal over fixed as a
ratio measured in the same run, the Monte-Carlo CPU cost per simulated battle (fixed policies),
and P(attacker wins) under both. Battles: the oracle E1-E5 (../shared/rules/eclipse-combat-oracle.md),
small and medium player fleets, Rise of the Ancients effects (point defense, regeneration), the
largest supply-limited fleet against NPCs, and the large supply-limited battles, where optimal
play on both sides may exceed the default work budget (reported as such, with the CPU time spent
before the refusal). ``--quick`` leaves out the three largest battles.
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
    ("supply vs GCDS", "8 interceptor, 4 cruiser, 2 dreadnought", "1 gcds"),
    ("ships vs supply", "8 interceptor, 4 cruiser, 2 dreadnought", SUPPLY),
    ("supply vs supply", SUPPLY, SUPPLY),
    ("upgraded vs upgraded", UPGRADED, UPGRADED),
]

SMALL = [
    ("3 vs 3", "2 interceptor, 1 starbase", "2 interceptor, 1 ancient, +player"),
    ("4 vs 4", "2 interceptor, 2 cruiser", "2 interceptor, 1 cruiser, 1 dreadnought"),
    ("5 vs 5", "3 interceptor, 2 cruiser", "2 interceptor, 2 cruiser, 1 starbase"),
    ("6 vs 6", "4 interceptor, 2 cruiser", "4 interceptor, 2 cruiser"),
    ("7 vs 9", "4 interceptor, 3 cruiser", "5 interceptor, 2 cruiser, 2 dreadnought"),
]

# The largest supply-limited fleet (eclipse-data.md §4; the attacker has no starbases) against
# NPC fleets: the player plays optimally, the NPCs by their rule.
SUPPLY_VS_NPC = [
    ("supply vs 3 Ancients", "8 interceptor, 4 cruiser, 2 dreadnought", "3 ancient"),
    ("upgraded vs GCDS", UPGRADED.replace(", 4 starbase(5/4/+2/-1; 2O)", ""), "1 gcds"),
]

# Rise of the Ancients effects.
ROTA = [
    ("point defense", "2 cruiser(2/1/+1/0; 1Y; 2O), 2 interceptor", "2 cruiser(2/1/+2/0; 1Y), 1 interceptor, +pd"),
    ("regeneration", "3 interceptor(3/0/+1/0; 1O), 1 cruiser", "1 ancient:ancient-cruiser(3/5/+2/0/1; 2O)"),
    ("slow regeneration", "2 interceptor(3/2/0/0/1; 1Y)", "2 interceptor(3/2/0/0/1; 1Y)"),
]


def best_of(repeats: int, fn) -> tuple[float, object]:  # noqa: ANN001
    """The least CPU time (``time.process_time``) of ``repeats`` calls of ``fn``, and its result."""
    best, result = float("inf"), None
    for _ in range(repeats):
        start = time.process_time()
        result = fn()
        best = min(best, time.process_time() - start)
    return best, result


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:9.1f}"


def row(label: str, attacker: str, defender: str, repeats: int, mc_runs: int) -> None:
    """One line: fixed and optimal exact CPU times, their ratio, Monte-Carlo per battle, P(att)."""
    a, d = parse_fleet(attacker), parse_fleet(defender)
    fixed, odds = best_of(repeats, lambda: combat_odds(a, d))
    start = time.process_time()
    simulate_odds(a, d, runs=mc_runs, seed=1)
    mc = (time.process_time() - start) / mc_runs
    other = None if d.npc else OPTIMAL_POLICY
    start = time.process_time()
    try:
        optimal, best = best_of(repeats, lambda: combat_odds(a, d, OPTIMAL_POLICY, other))
    except CombatTooLarge:
        spent = time.process_time() - start
        opt_text = f"{'over budget':>9} (after {spent:.1f} s)"
        p_opt = "      -"
    else:
        opt_text = f"{_ms(optimal)}   {optimal / fixed:7.1f}x"
        p_opt = f"{best.win_probability('attacker'):.4f}"  # type: ignore[attr-defined]
    p = odds.win_probability("attacker")  # type: ignore[attr-defined]
    print(f"{label:22} {_ms(fixed)}  {opt_text:22}  {mc * 1e6:9.1f}   {p:.4f}  {p_opt}", flush=True)


def main(argv: list[str]) -> None:
    quick = "--quick" in argv
    print(f"{'battle':22} {'fixed ms':>9}  {'optimal ms':>9}  {'ratio':>8}   {'MC us/b':>9}   "
          f"{'P(att)':6}  {'optimal'}")
    print("oracle battles (best of 10)")
    for bid, a, d in ORACLE:
        row(bid, a, d, repeats=10, mc_runs=5_000)
    print("player fleets (best of 3)")
    for label, a, d in SMALL:
        row(label, a, d, repeats=3, mc_runs=2_000)
    print("Rise of the Ancients effects (best of 3)")
    for label, a, d in ROTA:
        row(label, a, d, repeats=3, mc_runs=2_000)
    print("optimal supply fleets against the NPC rule (best of 3)")
    for label, a, d in SUPPLY_VS_NPC:
        row(label, a, d, repeats=3, mc_runs=1_000)
    print("large battles (one call each; optimal within the default work budget)")
    for label, a, d in LARGE[: 2 if quick else None]:
        row(label, a, d, repeats=1, mc_runs=300)


if __name__ == "__main__":
    main(sys.argv[1:])
