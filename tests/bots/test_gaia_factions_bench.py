"""``bench/bench_gaia_factions.py``: greedy games with the factions picked at random."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import boardrules

ROOT = Path(__file__).resolve().parents[2]


def test_a_game_with_random_factions():
    """The picks come from the seed's own generator, not the bot's one ply (which takes Hadsch
    Hallas, Ambas, Firaks, Terrans in every game); the rest is played to the end."""
    spec = importlib.util.spec_from_file_location("bench_gaia_factions", ROOT / "bench" / "bench_gaia_factions.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    row = bench.game(boardrules.build_ruleset("gaia-project"), 1000)
    assert [f for f, _ in row] == ["nevlas", "xenos", "lantids", "firaks"]
    assert all(isinstance(score, int) and score > 0 for _, score in row)
