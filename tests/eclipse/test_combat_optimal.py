"""Optimal play in the Eclipse odds solver, checked against a brute-force reference.

The reference below shares no code with ``combat.py``'s solver: it rolls every die separately,
lets the firing side put every hit on any ship the die reaches (wasting damage on a ship other
dice destroy is allowed, as at the table), and finds the values by value iteration.
"""

from __future__ import annotations

import functools
import itertools
import math
from fractions import Fraction

import attrs
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from boardrules_eclipse.combat import (
    DEFAULT_BUDGET,
    DEFAULT_SIM_BUDGET,
    MAX_SIM_ROUNDS,
    FOCUS_FIRE_POLICY,
    MAX_RUNS,
    NPC_POLICY,
    NPC_SPREAD_POLICY,
    OPTIMAL_POLICY,
    POLICIES,
    CombatTooLarge,
    Fleet,
    Hit,
    NpcPolicy,
    NpcTies,
    OptimalPolicy,
    Policy,
    ShipType,
    SizeClass,
    Stalemate,
    combat_odds,
    parse_fleet,
    policy,
    preset,
    simulate_odds,
)

# ----------------------------------------------------------------------------- reference solver


class ReferenceUnsettled(Exception):
    """The reference's value iteration did not settle (slow regeneration): it has no answer."""


def _reference_value(attacker: Fleet, defender: Fleet, stalemate: Stalemate) -> float:
    """P(attacker wins) + P(draw)/2 under optimal play on both sides, by value iteration."""
    fleets = (attacker, defender)
    order = sorted(
        ((side, i, ship) for side, f in enumerate(fleets) for i, ship in enumerate(f.types)),
        key=lambda a: (-a[2].initiative, -a[0], a[1]),
    )
    missiles = [a for a in order if a[2].missiles]
    cannons = [a for a in order if a[2].cannons]

    def canon(ships: list[tuple[int, int]], n_types: int) -> tuple:
        return tuple(tuple(sorted((d for t, d in ships if t == j), reverse=True)) for j in range(n_types))

    def ships_of(side_state: tuple) -> list[tuple[int, int]]:
        return [(t, d) for t, ds in enumerate(side_state) for d in ds]

    def end_value(state: tuple) -> float | None:
        if not any(state[1]):
            return 1.0
        if not any(state[0]):
            return 0.0
        if not any(state[side][i] for side, i, _ in cannons):
            return {Stalemate.DRAW: 0.5}.get(stalemate, 0.0)
        return None

    def results(state: tuple, act: tuple, missile: bool) -> list[tuple[float, list[tuple]]]:
        """Per equally likely roll of every die: the states the firing side may choose."""
        side, i, ship = act
        enemy_fleet = fleets[1 - side]
        enemy = ships_of(state[1 - side])
        dice = (ship.missiles if missile else ship.cannons) * len(state[side][i])
        penalty = 2 if missile and enemy_fleet.distortion_shield else 0
        split = not missile and fleets[side].antimatter_splitter
        pd_dice = [  # (computer, missiles a hit destroys: a split antimatter die up to 4)
            (fleets[1 - side].types[t].computer, 4 if enemy_fleet.antimatter_splitter and die == 4 else 1)
            for t, _ in enemy
            for die in fleets[1 - side].types[t].cannons
        ] if missile and enemy_fleet.point_defense else []

        def land(placed: list[tuple[int, int]], gone: tuple[int, ...]) -> tuple:
            damage = [d for _, d in enemy]
            for n_hit, (dmg, k) in enumerate(placed):
                if n_hit not in gone:
                    damage[k] += dmg
            alive = [(t, dmg) for (t, _), dmg in zip(enemy, damage) if dmg <= enemy_fleet.types[t].hull]
            new_side = canon(alive, len(enemy_fleet.types))
            return (state[0], new_side) if side == 0 else (new_side, state[1])

        out: dict[tuple, float] = {}
        for rolls in itertools.product(range(1, 7), repeat=len(dice)):
            hits = []
            for dmg, r in zip(dice, rolls):
                reach = [k for k, (t, _) in enumerate(enemy)
                         if r == 6 or (r != 1 and r + ship.computer - enemy_fleet.types[t].shield - penalty >= 6)]
                if reach:
                    hits.extend([(1, reach)] * 4 if split and dmg == 4 else [(dmg, reach)])
            choices = set()
            for targets in itertools.product(*(reach for _, reach in hits)):
                placed = [(dmg, k) for (dmg, _), k in zip(hits, targets)]
                if pd_dice and placed:
                    # Point defense: each of its dice rolls; the defending side destroys any
                    # min(K, missiles) of the placed missiles.
                    by_k: dict[int, float] = {}
                    for pd_rolls in itertools.product(range(1, 7), repeat=len(pd_dice)):
                        k = sum(kills for r, (comp, kills) in zip(pd_rolls, pd_dice)
                                if r == 6 or (r != 1 and r + comp >= 6))
                        by_k[k] = by_k.get(k, 0.0) + 6.0 ** -len(pd_dice)
                    choices.add(("pd", tuple(
                        (pk, tuple(sorted({land(placed, gone) for gone in
                                           itertools.combinations(range(len(placed)), min(k, len(placed)))})))
                        for k, pk in sorted(by_k.items())
                    )))
                else:
                    choices.add(land(placed, ()))
            key = tuple(sorted(choices))
            out[key] = out.get(key, 0.0) + 6.0 ** -len(dice)
        return [(p, list(choices)) for choices, p in out.items()]

    start = tuple(tuple((0,) * n for n in f.counts) for f in fleets)
    # Missiles: a finite tree, searched directly after the rounds are solved.
    n = len(cannons)
    stale = {Stalemate.DRAW: 0.5}.get(stalemate, 0.0)
    values: dict[tuple, list[float]] = {}
    graph: dict[tuple, list] = {}

    def explore(state: tuple) -> None:
        stack = [state]
        while stack:
            s = stack.pop()
            if s in graph or end_value(s) is not None:
                continue
            graph[s] = [results(s, act, False) for act in cannons]
            values[s] = [stale] * n  # a battle that never ends is a stalemate
            for per_act in graph[s]:
                stack.extend(x for _, choices in per_act for c in choices for x in (c, repaired(c)))

    def repaired(s: tuple) -> tuple:
        return tuple(
            tuple(tuple(sorted((max(0, d - ship.regenerate) for d in ds), reverse=True))
                  for ship, ds in zip(f.types, side))
            for f, side in zip(fleets, s)
        )

    def node_value(s: tuple, k: int) -> float:
        if k == n:  # the round is over: regenerating ships repair
            s, k = repaired(s), 0
        v = end_value(s)
        return v if v is not None else values[s][k]

    def missile_value(s: tuple, j: int) -> float:
        if j == len(missiles):
            return node_value(s, 0) if n else end_value(s)  # type: ignore[return-value]
        if end_value(s) is not None and (not any(s[0]) or not any(s[1])):
            return end_value(s)  # type: ignore[return-value]
        side = missiles[j][0]
        pick, counter = (max, min) if side == 0 else (min, max)

        def choice_value(c: tuple) -> float:
            if c[0] != "pd":
                return missile_value(c, j + 1)
            return sum(pk * counter(missile_value(x, j + 1) for x in xs) for pk, xs in c[1])

        return sum(p * pick(map(choice_value, choices)) for p, choices in results(s, missiles[j], True))

    def after_missiles(s: tuple, j: int) -> None:
        if j == len(missiles) or not any(s[0]) or not any(s[1]):
            explore(s)
            return
        for _, choices in results(s, missiles[j], True):
            for c in choices:
                for x in ([c] if c[0] != "pd" else [x for _, xs in c[1] for x in xs]):
                    after_missiles(x, j + 1)

    after_missiles(start, 0)
    for _ in range(5000):
        delta = 0.0
        for s, per_act in graph.items():
            for k, act in enumerate(cannons):
                pick = max if act[0] == 0 else min
                v = sum(p * pick(node_value(c, k + 1) for c in choices) for p, choices in per_act[k])
                delta = max(delta, abs(v - values[s][k]))
                values[s][k] = v
        if delta < 1e-13:
            break
    else:
        raise ReferenceUnsettled(f"value iteration still moves by {delta:.1e} after 5,000 sweeps")
    return missile_value(start, 0)


def _reference_or_reject(attacker: Fleet, defender: Fleet, stalemate: Stalemate) -> float:
    """The reference value for a hypothesis example, which is rejected where the reference's
    value iteration cannot answer (slow regeneration; such cases are pinned with converged
    values below). A find: a regenerating hull-2 interceptor and an Ancient cruiser against two
    regenerating starbases still moved by 2e-5 after 5,000 sweeps."""
    try:
        return _reference_value(attacker, defender, stalemate)
    except ReferenceUnsettled:
        assume(False)
        raise


def _value(odds) -> float:  # noqa: ANN001
    return float(odds.win_probability("attacker") + odds.win_probability(None) / 2)


# ------------------------------------------------------------------------------ small fleets

DICE = st.sampled_from([1, 2, 4])


@st.composite
def small_ships(draw: st.DrawFn, name: str) -> ShipType:
    return ShipType(
        name=name,
        size=draw(st.sampled_from(list(SizeClass))),
        initiative=draw(st.integers(0, 3)),
        hull=draw(st.integers(0, 2)),
        computer=draw(st.integers(0, 2)),
        shield=draw(st.integers(0, 2)),
        cannons=draw(st.lists(DICE, min_size=1, max_size=1)),
        missiles=draw(st.lists(DICE, max_size=1)),
        regenerate=draw(st.sampled_from([0, 0, 1])),
    )


@st.composite
def small_fleets(draw: st.DrawFn, prefix: str) -> Fleet:
    n = draw(st.integers(1, 2))
    ships = tuple((draw(small_ships(f"{prefix}{i}")), draw(st.integers(1, 2 if n == 1 else 1))) for i in range(n))
    return Fleet(
        ships,
        antimatter_splitter=draw(st.booleans()),
        distortion_shield=draw(st.booleans()),
        point_defense=draw(st.booleans()),
    )


def _solved(attacker: Fleet, defender: Fleet, *policies: Policy, **kw: object):  # noqa: ANN202
    """The exact odds. No example is rejected: every small battle, slowly converging
    regeneration included (2 vs 2 ships of hull 2 that regenerate 1 and hit only on a 6 once
    needed about 4x the default budget), is solved within the default work budget (issue 8)."""
    return combat_odds(attacker, defender, *policies, **kw)


SMALL = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SMALL
@given(small_fleets("a"), small_fleets("d"), st.sampled_from(list(Stalemate)))
def test_optimal_matches_brute_force(attacker: Fleet, defender: Fleet, stalemate: Stalemate) -> None:
    """The solver (dominated assignments pruned, cycles in closed form) equals value iteration
    over every assignment the table allows."""
    odds = _solved(attacker, defender, OPTIMAL_POLICY, OPTIMAL_POLICY, stalemate=stalemate)
    assert math.isclose(float(odds.total()), 1.0, abs_tol=1e-9)
    assert math.isclose(_value(odds), _reference_or_reject(attacker, defender, stalemate), abs_tol=1e-9)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_fleets("a"), small_fleets("d"), st.sampled_from([FOCUS_FIRE_POLICY, NPC_POLICY, NPC_SPREAD_POLICY]))
def test_optimal_is_the_best_reply_and_the_game_value(attacker: Fleet, defender: Fleet, fixed: Policy) -> None:
    """For any fixed policy Y: min_D P(Y, D) <= P(opt, opt) <= max_A P(A, Y), and a best reply
    does at least as well as Y itself."""
    def p(a, d):  # noqa: ANN001, ANN202
        return float(_solved(attacker, defender, a, d).win_probability("attacker"))

    value = p(OPTIMAL_POLICY, OPTIMAL_POLICY)
    tol = 1e-9
    assert p(fixed, OPTIMAL_POLICY) <= value + tol <= p(OPTIMAL_POLICY, fixed) + 2 * tol
    assert p(OPTIMAL_POLICY, fixed) >= p(fixed, fixed) - tol
    assert p(fixed, OPTIMAL_POLICY) <= p(fixed, fixed) + tol


@pytest.mark.parametrize("attacker, defender, stalemate", [
    ("1 cruiser, 2 interceptor", "1 cruiser, 1 interceptor, 1 starbase", Stalemate.DEFENDER_WINS),
    ("2 cruiser(2/1/+1/0; 1O)", "1 interceptor, 1 dreadnought, 1 starbase", Stalemate.DRAW),
])
def test_optimal_matches_brute_force_where_both_sides_choose(attacker: str, defender: str,
                                                             stalemate: Stalemate) -> None:
    """Battles where both sides have real choices (the random small fleets rarely give the
    defender one; a solver letting the defender maximise passed them): the solver equals value
    iteration over every assignment."""
    a, d = parse_fleet(attacker), parse_fleet(defender)
    odds = combat_odds(a, d, OPTIMAL_POLICY, OPTIMAL_POLICY, stalemate=stalemate)
    assert math.isclose(_value(odds), _reference_value(a, d, stalemate), abs_tol=1e-9)


def _reachable_by_adding_damage(a: tuple, b: tuple) -> bool:
    """Reference: side state ``a`` follows from ``b`` by adding damage (destroying ships
    included): per type no more living ships, and pairing the least damaged ships of each,
    ``a``'s at least as damaged (the destroyed ones taken from ``b``'s most damaged)."""
    for da, db in zip(a, b):
        if len(da) > len(db) or any(x < y for x, y in zip(reversed(da), reversed(db))):
            return False
    return True


@st.composite
def side_states(draw: st.DrawFn, hulls: tuple, counts: tuple) -> tuple:
    return tuple(
        tuple(sorted(draw(st.lists(st.integers(0, h), max_size=n)), reverse=True)) for h, n in zip(hulls, counts)
    )


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_dominance_as_flat_vectors(data: st.DataObject) -> None:
    """The pruning's test (one flat vector at least another everywhere) is exactly 'reachable
    by adding damage'."""
    from boardrules_eclipse.combat.engine import _damage_vector

    hulls = tuple(data.draw(st.lists(st.integers(0, 3), min_size=1, max_size=3)))
    counts = tuple(data.draw(st.integers(1, 3)) for _ in hulls)
    a, b = (data.draw(side_states(hulls, counts)) for _ in range(2))
    va, vb = _damage_vector(a, hulls, counts), _damage_vector(b, hulls, counts)
    assert all(x >= y for x, y in zip(va, vb)) == _reachable_by_adding_damage(a, b)
    assert _reachable_by_adding_damage(a, a)


def test_optimal_beats_focus_fire_where_it_matters() -> None:
    """Against two interceptors and an Ancient, focus fire shoots at the Ancient (most firepower
    per damage point); optimal play takes the interceptors first and wins far more often."""
    a = parse_fleet("2 interceptor, 1 starbase")
    d = parse_fleet("2 interceptor, 1 ancient, +player")
    optimal = combat_odds(a, d, OPTIMAL_POLICY, OPTIMAL_POLICY)
    heuristic = combat_odds(a, d, FOCUS_FIRE_POLICY, OPTIMAL_POLICY)
    assert math.isclose(_value(optimal), _reference_value(a, d, Stalemate.DEFENDER_WINS), abs_tol=1e-9)
    assert optimal.win_probability("attacker") > heuristic.win_probability("attacker") + 0.15


def test_optimal_fraction_mode_is_exact() -> None:
    a, d = parse_fleet("2 interceptor, 1 cruiser"), parse_fleet("1 ancient, 1 interceptor, +player")
    exact = combat_odds(a, d, OPTIMAL_POLICY, OPTIMAL_POLICY, fractions=True)
    assert exact.total() == 1
    floats = combat_odds(a, d, OPTIMAL_POLICY, OPTIMAL_POLICY)
    assert math.isclose(float(exact.win_probability("attacker")), floats.win_probability("attacker"), abs_tol=1e-12)


@pytest.mark.parametrize("seed", [3, 4])
def test_optimal_monte_carlo_within_three_standard_errors(seed: int) -> None:
    """Simulated battles that follow the solved choices reproduce the exact distribution."""
    a = parse_fleet("2 interceptor, 1 cruiser(2/1/+1/0; 1Y; 1O)")
    d = parse_fleet("1 dreadnought, 2 interceptor(3/0/+1/0; 1Y)")
    exact = combat_odds(a, d, OPTIMAL_POLICY, OPTIMAL_POLICY)
    mc = simulate_odds(a, d, OPTIMAL_POLICY, OPTIMAL_POLICY, runs=4_000, seed=seed)
    for side, fleet in (("attacker", a), ("defender", d)):
        p = exact.win_probability(side)
        assert abs(mc.win_probability(side) - p) <= 3 * mc.std_error(p)
        for ship, count in fleet.ships:
            for k in range(1, count + 1):
                p = exact.survival(side, ship.name, k)
                assert abs(mc.survival(side, ship.name, k) - p) <= 3 * mc.std_error(p) + 1e-12


def test_policy_names() -> None:
    assert set(POLICIES) == {"optimal", "focus-fire", "npc", "npc-spread"}
    assert policy("Optimal") is OPTIMAL_POLICY and policy("npc-spread") == NpcPolicy(NpcTies.SPREAD)
    assert not isinstance(OPTIMAL_POLICY, Policy) and isinstance(OPTIMAL_POLICY, OptimalPolicy)
    with pytest.raises(ValueError, match="optimal, focus-fire, npc, npc-spread"):
        policy("best")


# --------------------------------------------------------------------------- NPC tie option


def test_npc_ties_concentrate_or_spread() -> None:
    """Hits that destroy nothing: piled on one of two equally large ships, or spread over them."""
    ships = (preset("dreadnought"), preset("interceptor"))
    state = ((0, 0), ())
    hits = (Hit(1, (0,)), Hit(1, (0,)))
    assert NPC_POLICY.assign(ships, state, hits) == ((2, 0), ())
    assert NPC_SPREAD_POLICY.assign(ships, state, hits) == ((1, 1), ())
    # Kills still come first, and spreading prefers the least damaged of the largest.
    hits = (Hit(1, (0, 1)), Hit(1, (0, 1)))
    state = ((1, 0), (0,))
    assert NPC_SPREAD_POLICY.assign(ships, state, hits) == ((0,), (0,))  # 1 + 2 > hull 2: the damaged one dies
    assert NPC_SPREAD_POLICY.assign(ships, ((0, 0, 0), ()), (Hit(1, (0,)),) * 2) == ((1, 1, 0), ())


def test_npc_spread_changes_the_odds() -> None:
    a = parse_fleet("2 ancient")
    d = parse_fleet("2 dreadnought")
    conc = combat_odds(a, d, NPC_POLICY, fractions=True).win_probability("attacker")
    spread = combat_odds(a, d, NPC_SPREAD_POLICY, fractions=True).win_probability("attacker")
    assert conc != spread and conc > spread  # spreading damage over dreadnoughts wastes it


# ------------------------------------------------------------------------------------ limits


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("200 interceptor", "at most 60 ships"),
        ("40 interceptor, 21 cruiser", "at most 60 ships"),
        ("1 interceptor(3/100/0/0; 1Y)", "hull must be an integer from 0 to 99"),
        ("1 interceptor(3/0/+100/0; 1Y)", "computer must be"),
        ("1 interceptor(3/0/0/-100; 1Y)", "shield must be"),
        ("1 interceptor(100/0/0/0; 1Y)", "initiative must be"),
        ("1 interceptor(3/0/0/0; 17Y)", "at most 16 dice"),
        ("1 interceptor(3/0/0/0; -; 17O)", "at most 16 dice"),
    ],
)
def test_fleet_limits(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_fleet(text)


def test_many_dice_do_not_overflow() -> None:
    """Probabilities are exact integer counts over 6**dice, so hundreds of dice in one volley stay
    finite (this used to raise OverflowError: a factorial times a float)."""
    odds = combat_odds(parse_fleet("60 interceptor(3/0/0/0; 4Y)"), parse_fleet("1 ancient"))
    assert math.isclose(float(odds.total()), 1.0, abs_tol=1e-9)
    assert odds.win_probability("attacker") > 0.999


def test_work_budget() -> None:
    a, d = parse_fleet("4 interceptor, 2 cruiser"), parse_fleet("4 interceptor, 2 cruiser, 1 dreadnought")
    with pytest.raises(CombatTooLarge, match="Monte-Carlo"):
        combat_odds(a, d, OPTIMAL_POLICY, OPTIMAL_POLICY, budget=1_000)
    with pytest.raises(CombatTooLarge):
        combat_odds(a, d, budget=100)
    with pytest.raises(CombatTooLarge):
        combat_odds(parse_fleet("20 interceptor(3/0/0/0; 16Y)"), parse_fleet("1 gcds"), budget=10_000)
    assert combat_odds(a, d, budget=DEFAULT_BUDGET).total() == pytest.approx(1.0)
    with pytest.raises(ValueError, match="runs must be between 1 and"):
        simulate_odds(a, d, runs=MAX_RUNS + 1)
    with pytest.raises(ValueError, match="runs must be between 1 and"):
        simulate_odds(a, d, runs=-5)


def test_monte_carlo_work_budget() -> None:
    """Monte-Carlo has a work budget too (dice rolled plus activations fired, over all battles):
    past it, CombatTooLarge; the default lets MAX_RUNS battles of oracle E1 run (measured on a
    thousandth of them); a battle that never ends counts MAX_SIM_ROUNDS rounds of work (two activations of one die each: 4 steps a round)."""
    e1 = parse_fleet("2 interceptor"), parse_fleet("1 ancient")
    with pytest.raises(CombatTooLarge, match="Monte-Carlo odds of .* run fewer battles"):
        simulate_odds(*e1, runs=1_000, sim_budget=1_000)
    share = DEFAULT_SIM_BUDGET * 1_000 // MAX_RUNS
    assert simulate_odds(*e1, runs=1_000, sim_budget=share).total() == pytest.approx(1.0)
    with pytest.raises(CombatTooLarge):
        simulate_odds(*e1, runs=1_000, sim_budget=share // 4)
    endless = parse_fleet("1 interceptor(3/2/0/0/5; 1Y)"), parse_fleet("1 interceptor(2/2/0/0/5; 1Y)")
    assert simulate_odds(*endless, runs=2, sim_budget=8 * MAX_SIM_ROUNDS).win_probability("defender") == 1
    with pytest.raises(CombatTooLarge):
        simulate_odds(*endless, runs=3, sim_budget=8 * MAX_SIM_ROUNDS)
    # The exact solver's budget still governs optimal play's solution inside simulate_odds.
    a, d = parse_fleet("4 interceptor, 2 cruiser"), parse_fleet("4 interceptor, 2 cruiser, 1 dreadnought")
    with pytest.raises(CombatTooLarge, match="exact odds"):
        simulate_odds(a, d, OPTIMAL_POLICY, OPTIMAL_POLICY, runs=10, budget=1_000)


def test_cli_monte_carlo_over_its_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    from boardrules_eclipse import combat

    monkeypatch.setattr(combat, "simulate_odds", functools.partial(combat.simulate_odds, sim_budget=50))
    result = _odds_cli("2 interceptor", "1 ancient", "--mc", "500")
    assert result.exit_code == 1
    assert "exact" in result.output and "run fewer battles" in result.output


# ------------------------------------------------------------------------------ command line


def _odds_cli(*args: str):  # noqa: ANN202
    from typer.testing import CliRunner

    from boardrules import plugins
    from boardrules.cli import app

    plugins.manager().hook.boardrules_cli(app=app)
    return CliRunner().invoke(app, ["odds", *args], env={"COLUMNS": "120"})


def test_cli_policies() -> None:
    a, d = "2 interceptor, 1 starbase", "2 interceptor, 1 ancient, +player"
    expected = {}
    for name, pol in (("optimal", OPTIMAL_POLICY), ("focus-fire", FOCUS_FIRE_POLICY)):
        p = combat_odds(parse_fleet(a), parse_fleet(d), pol, OPTIMAL_POLICY).win_probability("attacker")
        expected[name] = f"{p:.4f}"
        result = _odds_cli(a, d, "--attacker-policy", name, "--defender-policy", "optimal")
        assert result.exit_code == 0, result.output
        line = next(x for x in result.output.splitlines() if "attacker" in x and "all outcomes" in x)
        assert expected[name] in line
    assert expected["optimal"] != expected["focus-fire"]
    spread = _odds_cli("2 ancient", "2 dreadnought", "--attacker-policy", "npc-spread")
    npc = _odds_cli("2 ancient", "2 dreadnought")
    assert spread.exit_code == npc.exit_code == 0 and spread.output != npc.output
    bad = _odds_cli(a, d, "--attacker-policy", "best")
    assert bad.exit_code == 2 and "optimal" in bad.output


def test_cli_rejects_bad_numbers() -> None:
    negative = _odds_cli("2 interceptor", "1 ancient", "--mc", "-5")
    assert negative.exit_code == 2 and "--mc" in negative.output
    huge = _odds_cli("200 interceptor", "1 ancient")
    assert huge.exit_code == 1 and "at most 60 ships" in huge.output
    assert isinstance(huge.exception, SystemExit)  # a clean exit, not an OverflowError


def test_cli_too_large_suggests_monte_carlo(monkeypatch: pytest.MonkeyPatch) -> None:
    from boardrules_eclipse import combat

    monkeypatch.setattr(combat, "combat_odds", functools.partial(combat.combat_odds, budget=50))
    result = _odds_cli("4 interceptor", "2 starbase", "--mc", "500")
    assert result.exit_code == 1
    assert "Monte-Carlo (500 battles)" in result.output and "steps of work" in result.output


def test_cli_help_explains_fleets() -> None:
    text = _odds_cli("--help").output
    for needle in ("I/H/C/S", "initiative", "hull", "computer", "shield", "Y ion", "O plasma",
                   "R antimatter", "+splitter", "+point-defense", "repairs", "NAME:CLASS", "optimal", "npc-spread", "Winning"):
        assert needle in text, needle
    # the policy options point to the Policies paragraph, which help prints before the options
    # (they said "(below)")
    assert "(below)" not in text
    assert text.index("Policies (how a side") < text.index("(Policies, above)")


# ------------------------------------------------------------------------------ point defense


@pytest.mark.parametrize(
    ("defender", "expected"),
    [
        ("1 interceptor(3/0/0/0; 1Y), +point-defense", Fraction(5, 6) * Fraction(5, 6)),  # only a 6 stops it
        ("1 interceptor(3/0/+2/0; 1Y), +pd", Fraction(5, 6) * Fraction(1, 2)),  # computer +2: 4, 5, 6
        ("1 interceptor(3/0/+7/0; 1Y), +pd", Fraction(5, 6) * Fraction(1, 6)),  # only a 1 misses
        ("1 interceptor(3/0/+2/0; 1Y)", Fraction(5, 6)),  # no point defense
    ],
)
def test_point_defense_destroys_missiles(defender: str, expected: Fraction) -> None:
    """One ion missile hitting on 2+ against an interceptor whose cannon fires at it first; the
    attacker has no cannon, so only the missile can win (RotA: computers count; the firing ship's
    shield 3 does not)."""
    attacker = parse_fleet("1 interceptor(3/0/+5/3; -; 1Y)")
    for pol in (None, OPTIMAL_POLICY):
        odds = combat_odds(attacker, parse_fleet(defender), pol, pol, fractions=True)
        assert odds.win_probability("attacker") == expected


def test_point_defense_picks_the_missiles_to_destroy() -> None:
    """Plasma and ion missiles (5/6 each) at a cruiser (hull 1) whose one point-defense die hits on
    2+: the defender destroys the plasma missile, the only one that kills alone; optimal and fixed
    choices agree (the fixed rule takes the largest). The cruiser dies only if point defense
    misses (1/6) while the plasma missile hit (5/6): P = 5/6 * 1/6."""
    attacker = parse_fleet("1 interceptor(3/0/+5/0; -; 1O 1Y)")
    defender = parse_fleet("1 cruiser(3/1/+5/0; 1Y), +point-defense")
    for pol in (None, OPTIMAL_POLICY):
        odds = combat_odds(attacker, defender, pol, pol, fractions=True)
        assert odds.win_probability("attacker") == Fraction(5, 36)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_fleets("a"), small_fleets("d"), st.integers(0, 2**32 - 1))
def test_point_defense_monte_carlo_agrees(attacker: Fleet, defender: Fleet, seed: int) -> None:
    defender = attrs.evolve(defender, point_defense=True)
    attacker = attrs.evolve(attacker, point_defense=True)
    for pol in (None, OPTIMAL_POLICY):
        exact = combat_odds(attacker, defender, pol, pol)
        mc = simulate_odds(attacker, defender, pol, pol, runs=600, seed=seed)
        p = exact.win_probability("attacker")
        assert abs(mc.win_probability("attacker") - p) <= 4 * mc.std_error(p) + 0.01


def test_point_defense_notation_round_trip() -> None:
    fleet = parse_fleet("2 interceptor, +pd")
    assert fleet.point_defense and parse_fleet(str(fleet)) == fleet


@pytest.mark.parametrize(
    ("attacker", "defender"),
    [
        ("2 interceptor(3/0/+2/0; 1Y; 1O)", "1 cruiser(2/1/+1/0; 1Y), 1 interceptor(3/0/0/0; 1Y), +pd"),
        ("1 cruiser(2/1/+1/0; 1Y; 1Y 1O), +pd", "2 interceptor(3/0/+1/0; 1Y; 1Y), +pd"),
    ],
)
def test_point_defense_optimal_matches_brute_force(attacker: str, defender: str) -> None:
    """Several missiles, several targets, point defense destroying some: both sides' choices
    (placing the missiles, then which to destroy) against the brute-force reference."""
    a, d = parse_fleet(attacker), parse_fleet(defender)
    odds = combat_odds(a, d, OPTIMAL_POLICY, OPTIMAL_POLICY)
    assert math.isclose(_value(odds), _reference_value(a, d, Stalemate.DEFENDER_WINS), abs_tol=1e-9)


# ------------------------------------------------------------------------------- regeneration


def test_regeneration_monte_carlo_agrees() -> None:
    """Two interceptors against a cruiser (hull 2) repairing 1 damage a round: the attacker needs
    three hits within one round, so it rarely wins (without repair it wins half the time)."""
    a = parse_fleet("2 interceptor(3/0/+1/0; 1Y)")
    d = parse_fleet("1 cruiser(2/2/+1/0/1; 1Y), +player")
    plain = combat_odds(a, parse_fleet("1 cruiser(2/2/+1/0; 1Y), +player")).win_probability("attacker")
    for pol in (None, OPTIMAL_POLICY):
        exact = combat_odds(a, d, pol, pol)
        assert math.isclose(float(exact.total()), 1.0, abs_tol=1e-12)
        p = exact.win_probability("attacker")
        assert p < plain / 5
        mc = simulate_odds(a, d, pol, pol, runs=5_000, seed=8)
        assert abs(mc.win_probability("attacker") - p) <= 3 * mc.std_error(p)


@pytest.mark.parametrize("stalemate", list(Stalemate))
def test_slow_regeneration_is_solved_exactly_within_the_budget(stalemate: Stalemate) -> None:
    """2 vs 2 ships of hull 2 that repair 1 damage a round and hit only on a 6: a ship dies only
    after two hits in one round, so the battle lasts hundreds of rounds (the reference's 5,000
    sweeps of value iteration do not converge). It used to need about 4x the default work budget
    (value iteration to 1e-13, 40 s CPU, which gave the figure below); the components' linear
    systems solve it in a twentieth of the budget. The battle ends with probability 1, so the
    stalemate rule does not matter, and focus fire is optimal here."""
    ships = parse_fleet("2 interceptor(3/2/0/0/1; 1Y)")
    budget = DEFAULT_BUDGET // 20
    optimal = combat_odds(ships, ships, OPTIMAL_POLICY, OPTIMAL_POLICY, stalemate=stalemate, budget=budget)
    fixed = combat_odds(ships, ships, stalemate=stalemate, budget=budget)
    for odds in (optimal, fixed):
        assert math.isclose(float(odds.total()), 1.0, abs_tol=1e-12)
        assert math.isclose(_value(odds), 0.49974245403016, abs_tol=1e-12)
        assert odds.win_probability(None) == 0


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_fleets("a"), small_fleets("d"), st.sampled_from(list(Stalemate)), st.booleans())
def test_regenerating_fleets_match_brute_force(attacker: Fleet, defender: Fleet, stalemate: Stalemate,
                                               both: bool) -> None:
    """Every ship of one side (or both) regenerates 1: optimal play equals value iteration."""
    def regenerating(fleet: Fleet) -> Fleet:
        return attrs.evolve(fleet, ships=tuple((attrs.evolve(s, regenerate=1), n) for s, n in fleet.ships))

    attacker, defender = regenerating(attacker), regenerating(defender) if both else defender
    odds = combat_odds(attacker, defender, OPTIMAL_POLICY, OPTIMAL_POLICY, stalemate=stalemate)
    assert math.isclose(float(odds.total()), 1.0, abs_tol=1e-9)
    assert math.isclose(_value(odds), _reference_or_reject(attacker, defender, stalemate), abs_tol=1e-9)


def test_slow_regeneration_against_the_converged_value_iteration() -> None:
    """A case the reference's 5,000 sweeps do not settle (a hypothesis find): the value the
    solver before the components gave after value iteration to 1e-13 (63 s CPU), for optimal
    play and for the fixed policies (which play optimally here)."""
    attacker = Fleet(((ShipType("a0", SizeClass.STARBASE, 0, 2, 0, 0, (1,), (), 1), 2),), distortion_shield=True)
    defender = Fleet(((ShipType("d0", SizeClass.INTERCEPTOR, 2, 1, 2, 1, (1,), (), 1), 1),
                      (ShipType("d1", SizeClass.ANCIENT_DREADNOUGHT, 3, 2, 2, 2, (1,), (1,), 1), 1)),
                     antimatter_splitter=True)
    for pol in (OPTIMAL_POLICY, None):
        odds = combat_odds(attacker, defender, pol, pol, stalemate="attacker-destroyed")
        assert math.isclose(_value(odds), 0.22697170379288, abs_tol=1e-12)


def test_regeneration_that_outpaces_all_damage_is_a_stalemate() -> None:
    a = parse_fleet("1 interceptor(3/0/+5/0; 1Y)")  # one damage a round at most
    d = parse_fleet("1 cruiser(2/1/0/0/1; -), +player")  # repairs it every round
    for pol in (None, OPTIMAL_POLICY):
        assert combat_odds(a, d, pol, pol).win_probability("defender") == pytest.approx(1.0)
        draw = combat_odds(a, d, pol, pol, stalemate="draw")
        assert draw.win_probability(None) == pytest.approx(1.0)
    with pytest.raises(ValueError, match="fractions"):
        combat_odds(a, d, fractions=True)


def test_regeneration_notation() -> None:
    fleet = parse_fleet("1 ancient:ancient-cruiser(3/5/+2/0/1; 2O)")
    assert fleet.types[0].regenerate == 1 and fleet.npc
    assert parse_fleet(str(fleet)) == fleet
    assert "/1;" in str(fleet)


def test_a_monte_carlo_battle_that_cannot_end_is_a_stalemate() -> None:
    """Regeneration heals every hit the enemy's one die can deal: the exact solver counts the
    battle as a stalemate (the defender holds the hex) and so does Monte-Carlo, in bounded time
    (MAX_SIM_ROUNDS), where it used to roll forever."""
    attacker = parse_fleet("1 interceptor(3/2/0/0/5; 1Y)")
    defender = parse_fleet("1 interceptor(2/2/0/0/5; 1Y)")
    assert combat_odds(attacker, defender).win_probability("defender") == 1
    assert simulate_odds(attacker, defender, runs=50, seed=1).win_probability("defender") == 1
