"""docs/simulate.md: its Python blocks run, in order, as one program (with their asserts);
the balance example runs with fewer games than the page's 200 to stay fast."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "simulate.md"
FENCE = re.compile(r"^```python\n(.*?)^```\s*$", re.S | re.M)


def test_simulate_page_runs(capsys):
    pytest.importorskip("matplotlib", reason="the page's plot needs the extra boardrules[analysis]")
    code = FENCE.findall(DOC.read_text(encoding="utf-8"))
    assert len(code) >= 4
    program = "\n".join(code)
    assert "GAMES = 200" in program
    exec(compile(program.replace("GAMES = 200", "GAMES = 12"), str(DOC), "exec"), {})
    printed = capsys.readouterr().out
    assert [line.split(":")[0] for line in printed.splitlines()] == ["seat 1", "seat 2", "seat 3"]


def test_simulate_page_figures_are_this_codes():
    """The figures the page quotes are what the code gives with 200 games (deterministic);
    checked on the seat-1 win rate of the base game, which the page's conclusion rests on."""
    import boardrules
    from boardrules.simulate import SimulationSpec, proportion_ci, seat_rows, simulate
    text = DOC.read_text(encoding="utf-8")
    assert "seat 1: wins 44% -> 46%" in text and "proportion_ci(89, 200)" in text
    spec = SimulationSpec(boardrules.build_ruleset("harvest"), players=3, games=200, bots=("greedy",))
    seats = seat_rows(simulate(spec, workers=2))
    assert sum(r["won"] for r in seats if r["seat"] == 1) == 89
    lo, hi = proportion_ci(89, 200)
    assert round(lo * 100) == 38 and round(hi * 100) == 51
