"""Exact and Monte-Carlo combat odds for Eclipse, first edition (+ Rise of the Ancients parts).

Entry points
------------
* :func:`combat_odds` — the exact probability of every battle outcome (who wins and how many ships
  of each type survive on each side), computed by forward propagation over canonical battle states.
* :func:`simulate_odds` — the same result shape estimated by Monte-Carlo with a seeded
  :class:`random.Random`; :meth:`Odds.std_error` gives standard errors.
* :func:`parse_fleet` / :func:`format_fleet` — the compact text notation (see :func:`parse_fleet`).
* :func:`outcome_rows` / :func:`survival_rows` — an :class:`Odds` as rows of strings for a table.

Combat rules modelled (first edition; sources: ../shared/rules/eclipse.md §2.5 and §4, the Rise of
the Ancients rulebook for the rare technologies):

1. Missiles: every ship type with missile dice fires them once, in initiative order, before the
   first engagement round.
2. Engagement rounds, repeated: every ship type fires all its cannons, in initiative order (higher
   first; ties go to the defender; ties within one side go in fleet order).
3. A die hits on a natural 6, never on a natural 1, otherwise when
   ``die + attacker's computer - target's shield >= 6``. Ion (Y) = 1 damage, plasma (O) = 2,
   antimatter (R) = 4. A ship is destroyed when its damage exceeds its hull value.
4. One die's damage goes to one ship, except that a side with the *Antimatter Splitter* rare
   technology may split each antimatter **cannon** die's 4 damage freely among ships that this die
   hits (RotA rulebook, rare technologies: the roll must hit every ship that receives damage).
   This is modelled by turning each such die into four 1-damage hits with the same targets.
5. *Distortion Shield* (RotA rare technology): enemy missiles get -2 to hit this side (a natural 6
   still hits).
   *Point Defense* (RotA rare technology; ../shared/rules/eclipse-rota-rules.md §1 and
   eclipse.md §4 case 14): after the enemy has rolled and placed the missile hits of one ship
   type, and before they land, every cannon die of this side's living ships rolls once; each die
   that hits (natural 6, never a natural 1, else die + computer >= 6; shields do not count)
   destroys one incoming missile of this side's choice (an antimatter die with the Antimatter
   Splitter up to four: its damage split among missiles). Optimal play chooses which; a fixed
   policy destroys the largest missiles first, those aimed at the largest, then most damaged
   ship first [X]. Every missile volley meets point defense (the "per ship type" reading).
6. *Regeneration* (Morph Shield, regenerating Ancients; RotA, eclipse-rota-rules.md): after every
   engagement round each ship of a type with ``regenerate = r`` repairs ``r`` damage. Repairs
   can undo progress, so these battles are solved iteratively (floats only, to within 1e-13).
7. The battle ends when one side has no ships. If neither side has a cannon left (so nothing can
   ever change), or, with regeneration, the battle can never end, it is a stalemate, resolved by :class:`Stalemate` — by default a defender
   win, as in ../shared/rules/eclipse-combat-oracle.md (the 1st-edition wording is unconfirmed,
   eclipse.md §4 case 16).

Rounds in which nothing changes may repeat for ever. They are handled exactly: every change of a
battle state strictly increases the *progress* measure (total damage on living ships plus hull+1
for every destroyed ship), so the chain of round-start states is acyclic apart from self-loops,
and a state left with probability ``1 - p_stay`` passes on its mass divided by ``1 - p_stay``
(the geometric series), states being visited in increasing progress.

Who assigns hits how is a *policy* per side: the NPC rule (:data:`NPC_POLICY`, or
:data:`NPC_SPREAD_POLICY` where the rule leaves a choice, :class:`NpcTies`), the focus-fire
heuristic (:data:`FOCUS_FIRE_POLICY`, the default for players), or optimal play
(:data:`OPTIMAL_POLICY`; winning is defined in :class:`OptimalPolicy`). Optimal play is solved
exactly as a two-player zero-sum stochastic game with perfect information: every battle state
that any assignment can reach is enumerated, then the attacker's value (P(win) + P(draw)/2) is
computed in decreasing progress, each side taking the best of its options after every roll, with
the same closed form for the "nothing hit" cycle of a round. When both sides play optimally,
assignments that leave the enemy strictly less damaged than another option are dropped: more
damage on the enemy never lowers a side's value, since the damaged side's choices and dice can
be mirrored in the less damaged one. Cost grows with the number of battle states (the product
of both sides' damage patterns); a work budget stops oversized problems with
:class:`CombatTooLarge` (see ``bench/bench_combat.py`` for timings).

Input limits (:data:`MAX_SHIPS`, :data:`MAX_STAT`, :data:`MAX_DICE`, :data:`MAX_RUNS`) keep
hostile fleets from exhausting the process; dice probabilities are exact integer counts over
``6**dice``, so no float overflows however many dice roll.

Not modelled: retreat (under the winning objective it never helps the side that retreats, see
:class:`OptimalPolicy`), population bombing, more than two parties.

The code is split by concern: :mod:`.ships` (ship types, fleets, input limits), :mod:`.notation`
(the fleet notation and presets), :mod:`.outcomes` (outcomes, :class:`Odds`, table rows),
:mod:`.policies` (hit assignment), :mod:`.engine` (one battle's state machine, shared with play in
``primitives.py``), :mod:`.exact`, :mod:`.optimal`, :mod:`.pointdefense`, :mod:`.montecarlo` (the
solvers' parts of :class:`~.battle._Battle`) and :mod:`.battle` (the entry points).
"""

from __future__ import annotations

from .battle import _Battle, combat_odds, simulate_odds
from .engine import DEFAULT_BUDGET, DEFAULT_SIM_BUDGET, MAX_RUNS, MAX_SIM_ROUNDS, BattleState, CombatTooLarge
from .notation import PRESETS, format_fleet, format_ship, parse_fleet, preset
from .outcomes import (
    OUTCOME_HEADERS,
    SHOWN_LEAST,
    SURVIVAL_HEADERS,
    Number,
    Odds,
    Outcome,
    Side,
    Stalemate,
    outcome_rows,
    survival_rows,
)
from .policies import (
    DEFAULT_POLICY,
    FOCUS_FIRE_POLICY,
    NPC_POLICY,
    NPC_SPREAD_POLICY,
    OPTIMAL_POLICY,
    POLICIES,
    AnyPolicy,
    FocusFirePolicy,
    Hit,
    NpcPolicy,
    NpcTies,
    OptimalPolicy,
    Placement,
    Policy,
    SideState,
    _canonical,
    land,
    policy,
)
from .ships import ANTIMATTER, ION, MAX_DICE, MAX_SHIPS, MAX_STAT, PLASMA, Fleet, ShipType, SizeClass

__all__ = [
    "SizeClass",
    "ShipType",
    "Fleet",
    "Side",
    "Stalemate",
    "Outcome",
    "Odds",
    "Hit",
    "SideState",
    "Policy",
    "NpcPolicy",
    "FocusFirePolicy",
    "NpcTies",
    "OptimalPolicy",
    "NPC_POLICY",
    "NPC_SPREAD_POLICY",
    "FOCUS_FIRE_POLICY",
    "DEFAULT_POLICY",
    "OPTIMAL_POLICY",
    "POLICIES",
    "policy",
    "CombatTooLarge",
    "MAX_SHIPS",
    "MAX_STAT",
    "MAX_DICE",
    "MAX_RUNS",
    "DEFAULT_BUDGET",
    "DEFAULT_SIM_BUDGET",
    "MAX_SIM_ROUNDS",
    "PRESETS",
    "preset",
    "combat_odds",
    "simulate_odds",
    "parse_fleet",
    "format_fleet",
    "format_ship",
    "outcome_rows",
    "survival_rows",
    "OUTCOME_HEADERS",
    "SHOWN_LEAST",
    "SURVIVAL_HEADERS",
]
