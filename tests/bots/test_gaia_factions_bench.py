"""``bench/bench_gaia_factions.py``: greedy games with the factions picked at random."""

from __future__ import annotations

import boardrules
from tests.conftest import bench_script


def test_a_game_with_random_factions():
    """The picks come from the seed's own generator, not the bot's one ply (which takes Hadsch
    Hallas, Ambas, Firaks, Terrans in every game); the rest is played to the end."""
    bench = bench_script("bench_gaia_factions")
    row = bench.game(boardrules.build_ruleset("gaia-project"), 1000)
    assert [f for f, _ in row] == ["nevlas", "xenos", "lantids", "firaks"]
    assert all(isinstance(score, int) and score > 0 for _, score in row)
