"""One battle's solver :class:`_Battle` and the entry points :func:`combat_odds` and
:func:`simulate_odds`."""

from __future__ import annotations

import random
from fractions import Fraction


from .engine import DEFAULT_BUDGET, DEFAULT_SIM_BUDGET, MAX_RUNS, _Engine
from .exact import _Exact, _sorted_outcomes
from .montecarlo import _MonteCarlo
from .optimal import _Optimal
from .outcomes import Number, Odds, Outcome, Stalemate
from .pointdefense import _PointDefense
from .regen import _Regeneration
from .policies import AnyPolicy
from .ships import Fleet


class _Battle(_Exact, _Optimal, _Regeneration, _MonteCarlo, _PointDefense, _Engine):
    """Shared machinery of the exact solver and the simulator for one pair of fleets."""


def combat_odds(
    attacker: Fleet,
    defender: Fleet,
    attacker_policy: AnyPolicy | None = None,
    defender_policy: AnyPolicy | None = None,
    *,
    stalemate: Stalemate | str = Stalemate.DEFENDER_WINS,
    fractions: bool = False,
    budget: int = DEFAULT_BUDGET,
) -> Odds:
    """Exact outcome distribution of a battle between ``attacker`` and ``defender``.

    Policies default to :data:`NPC_POLICY` for an ``npc`` fleet and :data:`DEFAULT_POLICY`
    otherwise; :data:`OPTIMAL_POLICY` on one side makes it play its best against the other side's
    policy, on both sides solves the zero-sum game (see :class:`OptimalPolicy` for what winning
    means). ``stalemate`` scores battles nobody can finish (:class:`Stalemate`). With
    ``fractions=True`` the probabilities are exact ``Fraction`` values (slower) instead of floats.
    Returns an :class:`Odds` with ``runs=None``. Raises ``ValueError`` if both fleets are empty,
    :class:`CombatTooLarge` (a ``ValueError``) when the work would exceed ``budget`` (battle states
    plus enumerated dice outcomes and assignments), and ``TypeError`` for an object that is not a
    policy.
    """
    one: Number = Fraction(1) if fractions else 1.0
    battle = _Battle(attacker, defender, attacker_policy, defender_policy, Stalemate(stalemate), one, budget)
    battle.check_estimate()
    return Odds(attacker, defender, _sorted_outcomes(battle.solve()), battle.stalemate, None)


def simulate_odds(
    attacker: Fleet,
    defender: Fleet,
    attacker_policy: AnyPolicy | None = None,
    defender_policy: AnyPolicy | None = None,
    *,
    runs: int = 10_000,
    seed: int | random.Random | None = 0,
    stalemate: Stalemate | str = Stalemate.DEFENDER_WINS,
    budget: int = DEFAULT_BUDGET,
    sim_budget: int = DEFAULT_SIM_BUDGET,
) -> Odds:
    """Monte-Carlo estimate of :func:`combat_odds` from ``runs`` simulated battles.

    ``seed`` is an int (or ``None``) for a fresh :class:`random.Random`, or a ``Random`` to use.
    A side playing :data:`OPTIMAL_POLICY` first has the game solved exactly (within ``budget``),
    then follows those choices in every simulated battle. Returns an :class:`Odds` whose
    probabilities are frequencies and whose ``runs`` is set, so :meth:`Odds.std_error` gives the
    standard error of any probability derived from it. Raises ``ValueError`` unless
    ``1 <= runs <= MAX_RUNS``, or if both fleets are empty; :class:`CombatTooLarge` as
    :func:`combat_odds` for the optimal play's solution, and when the battles' dice rolled plus
    activations fired would exceed ``sim_budget`` (:data:`DEFAULT_SIM_BUDGET`; every battle
    also stops after :data:`MAX_SIM_ROUNDS` engagement rounds, as a stalemate).
    """
    if not 1 <= runs <= MAX_RUNS:
        raise ValueError(f"runs must be between 1 and {MAX_RUNS:,}, got {runs}")
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    battle = _Battle(attacker, defender, attacker_policy, defender_policy, Stalemate(stalemate), 1.0, budget)
    if any(battle.optimal):
        battle.check_estimate()
        battle.solve_values()
    battle.sim_budget = sim_budget
    counts: dict[Outcome, int] = {}
    for _ in range(runs):
        o = battle.simulate(rng)
        counts[o] = counts.get(o, 0) + 1
    freq = {o: c / runs for o, c in counts.items()}
    return Odds(attacker, defender, _sorted_outcomes(freq), battle.stalemate, runs)
