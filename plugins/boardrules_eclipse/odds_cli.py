"""``boardrules odds``: the exact Eclipse combat calculator on the command line.

    boardrules odds "2 interceptor" "1 ancient"
    boardrules odds "1 dreadnought(1/2/+1/0; 2R), +splitter" "4 interceptor" --mc 20000
    boardrules odds "3 cruiser" "2 ancient" --attacker-policy optimal

Fleets use the notation of :func:`boardrules_eclipse.combat.parse_fleet`.
"""

from __future__ import annotations

import enum
import time

import typer
from rich.console import Console
from rich.table import Table

from boardrules.cli import fail, print_error
from boardrules.quoting import counted

from . import combat

PolicyName = enum.Enum("PolicyName", {n.upper().replace("-", "_"): n for n in ("auto", *combat.POLICIES)})
"""The ``--attacker-policy``/``--defender-policy`` choices: ``auto`` and :data:`combat.POLICIES`."""


def odds(attacker: str = typer.Argument(..., help='attacking fleet, e.g. "2 interceptor"'),
         defender: str = typer.Argument(..., help='defending fleet, e.g. "1 ancient"'),
         attacker_policy: PolicyName = typer.Option("auto", help="how the attacker assigns hits (Policies, above)"),
         defender_policy: PolicyName = typer.Option("auto", help="how the defender assigns hits (Policies, above)"),
         mc: int = typer.Option(0, min=0, max=combat.MAX_RUNS,
                                help="also run this many Monte-Carlo battles to cross-check"),
         seed: int = typer.Option(0, help="seed of the Monte-Carlo run"),
         survivors: bool = typer.Option(False, help="show P(at least k ships survive)")) -> None:
    """Exact odds of an Eclipse battle: who wins, and with which ships left.

    \b
    A fleet is a comma-separated list of ship groups and flags:
      COUNT NAME               a preset: interceptor, cruiser, dreadnought,
                               starbase, ancient, gcds (1st-edition blueprints)
      COUNT NAME(I/H/C/S; CANNONS; MISSILES)
                               a ship given by its statistics: initiative,
                               hull, computer, shield (-1 or 1 for a Gauss
                               shield); I/H/C/S/N adds N, the damage each ship
                               repairs after every engagement round (Morph
                               Shield)
      COUNT NAME:CLASS(...)    a named ship of a size class (interceptor,
                               starbase, cruiser, dreadnought, ancient, gcds,
                               ancient-cruiser, ancient-dreadnought)
    Dice: Y ion (1 damage), O plasma (2), R antimatter (4), with counts:
    2Y, 1O 1Y, YYR; '-' for none; missiles are the optional third field.
    Flags: +splitter (Antimatter Splitter), +distortion (Distortion Shield),
    +point-defense or +pd (Point Defense: cannons fire once at each incoming
    missile volley), +npc / +player (who assigns hits; fleets of NPC classes
    are NPCs).
    Examples: "2 interceptor"   "3 interceptor(3/0/+1/0; 1O)"
              "2 raider:cruiser(2/1/+1/-1; 1O 1Y; 2O), 1 dreadnought, +splitter"

    \b
    Policies (how a side assigns its hits): auto = npc for NPC fleets, else
    focus-fire; optimal = maximise its own chance of winning (against the other
    side's policy, or solving the zero-sum game when both are optimal);
    focus-fire = destroy the most firepower per damage point (a heuristic);
    npc = the NPC rule, hits that destroy nothing piled on one of several
    equally large ships; npc-spread = the same, spreading those hits over them.

    \b
    Winning means being left in the hex: the attacker wins by destroying every
    defending ship; a battle nobody can finish (no cannons left) is a defender
    win.
    """
    console = Console()
    try:
        a, d = combat.parse_fleet(attacker), combat.parse_fleet(defender)
        pa, pd = (None if choice.value == "auto" else combat.policy(choice.value)
                  for choice in (attacker_policy, defender_policy))
    except ValueError as error:
        fail(str(error))
    console.print(f"{combat.format_fleet(a)}  vs  {combat.format_fleet(d)}", highlight=False, soft_wrap=True)
    failed = False
    start = time.perf_counter()
    try:
        exact = combat.combat_odds(a, d, pa, pd)
    except combat.CombatTooLarge as error:
        print_error(str(error))
        failed = True
    else:
        ms = (time.perf_counter() - start) * 1000
        _table(console, f"exact ({ms:.1f} ms)", combat.OUTCOME_HEADERS, combat.outcome_rows(exact))
        if survivors:
            _table(console, "survivors", combat.SURVIVAL_HEADERS, combat.survival_rows(exact))
    if mc > 0 and not (failed and combat.OPTIMAL_POLICY in (pa, pd)):
        try:
            sim = combat.simulate_odds(a, d, pa, pd, runs=mc, seed=seed)
        except combat.CombatTooLarge as error:
            fail(str(error))
        rows = [r for r in combat.outcome_rows(sim) if r[1] == "all outcomes"]
        _table(console, f"Monte-Carlo ({counted(mc, 'battle')})", combat.OUTCOME_HEADERS, rows)
    if failed:
        raise typer.Exit(1)


def _table(console, title, headers, rows) -> None:
    console.print(f"[bold]{title}[/bold]")
    table = Table()
    for h in headers:
        table.add_column(h)
    for r in rows:
        table.add_row(*r)
    console.print(table)
