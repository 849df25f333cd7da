"""docs/simulate.md: its Python blocks run, in order, as one program (with their asserts);
the balance example runs with fewer games than the page's 200 to stay fast."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "simulate.md"
FENCE = re.compile(r"^```python\n(.*?)^```\s*$", re.S | re.M)


@pytest.fixture(autouse=True)
def _temporary_folders_in_tmp_path(tmp_path, monkeypatch):
    """The page's example makes its folder with ``tempfile.mkdtemp()`` (as a user would): here
    under the test's ``tmp_path``, not left in /tmp after every run."""
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))


def test_simulate_page_runs(capsys):
    pytest.importorskip("matplotlib", reason="the page's plot needs the extra boardrules[analysis]")
    code = FENCE.findall(DOC.read_text(encoding="utf-8"))
    assert len(code) >= 4
    program = "\n".join(code)
    assert "GAMES = 200" in program
    exec(compile(program.replace("GAMES = 200", "GAMES = 12"), str(DOC), "exec"), {})
    printed = capsys.readouterr().out
    assert [line.split(":")[0] for line in printed.splitlines()] == ["seat 1", "seat 2", "seat 3"]


def test_simulate_page_figures_are_this_codes(capsys):
    """The page's balance example, run as printed (200 games each; two workers, which give the
    same seeded games), prints the page's figures (deterministic): the house-rule figures were
    stale while only the base game's seat-1 wins were checked. Also the seat-1 win rate the
    page's conclusion rests on."""
    from boardrules.simulate import proportion_ci
    text = DOC.read_text(encoding="utf-8")
    balance = next(block for block in FENCE.findall(text) if "GAMES = 200" in block)
    assert "workers=1" in balance
    scope: dict = {}
    exec(compile(balance.replace("workers=1", "workers=2"), str(DOC), "exec"), scope)
    printed = capsys.readouterr().out
    quoted = text.split("it printed:\n\n```text\n", 1)[1].split("```", 1)[0]
    assert printed == quoted
    seat_1_wins = sum(r["won"] for r in scope["rows"]["base"] if r["seat"] == 1)
    assert seat_1_wins == 89 and "proportion_ci(89, 200)" in text
    lo, hi = proportion_ci(89, 200)
    assert round(lo * 100) == 38 and round(hi * 100) == 51
