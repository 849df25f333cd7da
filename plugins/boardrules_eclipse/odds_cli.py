"""``boardrules odds``: the exact Eclipse combat calculator on the command line.

    boardrules odds "2 interceptor" "1 ancient"
    boardrules odds "1 dreadnought(1/2/+1/0; 2R), +splitter" "4 interceptor" --mc 20000

Fleets use the notation of :func:`boardrules_eclipse.combat.parse_fleet`.
"""

from __future__ import annotations

import time

import typer
from rich.console import Console
from rich.table import Table

from . import combat


def odds(attacker: str = typer.Argument(..., help='attacking fleet, e.g. "2 interceptor"'),
         defender: str = typer.Argument(..., help='defending fleet, e.g. "1 ancient"'),
         mc: int = typer.Option(0, help="also run this many Monte-Carlo battles to cross-check"),
         seed: int = typer.Option(0, help="seed of the Monte-Carlo run"),
         survivors: bool = typer.Option(False, help="show P(at least k ships survive)")) -> None:
    """Exact odds of an Eclipse battle: who wins, and with which ships left."""
    console = Console()
    try:
        a, d = combat.parse_fleet(attacker), combat.parse_fleet(defender)
    except ValueError as err:
        Console(stderr=True).print(f"error: {err}", markup=False, highlight=False)
        raise typer.Exit(1)
    start = time.perf_counter()
    exact = combat.combat_odds(a, d)
    ms = (time.perf_counter() - start) * 1000
    console.print(f"{combat.format_fleet(a)}  vs  {combat.format_fleet(d)}", highlight=False, soft_wrap=True)
    _table(console, f"exact ({ms:.1f} ms)", combat.OUTCOME_HEADERS, combat.outcome_rows(exact))
    if survivors:
        _table(console, "survivors", combat.SURVIVAL_HEADERS, combat.survival_rows(exact))
    if mc > 0:
        sim = combat.simulate_odds(a, d, runs=mc, seed=seed)
        rows = [r for r in combat.outcome_rows(sim) if r[1] == "all outcomes"]
        _table(console, f"Monte-Carlo ({mc} battles)", combat.OUTCOME_HEADERS, rows)


def _table(console, title, headers, rows) -> None:
    console.print(f"[bold]{title}[/bold]")
    table = Table()
    for h in headers:
        table.add_column(h)
    for r in rows:
        table.add_row(*r)
    console.print(table)
