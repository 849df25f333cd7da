"""Gaia Project raises the events its docs list (docs/plugins.md, 'Events of each game'):
a house-rule file counts them through setup and the first income."""

from __future__ import annotations

import boardrules

COUNT = """
var n_built: int per player = 0
var n_colonised: int per player = 0
var n_income: int per player = 0
var n_upgraded: int per player = 0
when structure_built(p, h, b) { set n_built of p = (n_built of p) + 1 }
when planet_colonised(p, h, t) if t == planet[h] { set n_colonised of p = (n_colonised of p) + 1 }
when income_received(p) { set n_income of p = (n_income of p) + 1 }
when structure_upgraded(p, h, old, new) if bld[h] == new { set n_upgraded of p = (n_upgraded of p) + 1 }
"""


def test_setup_placements_and_income_raise_their_events(tmp_path):
    house = tmp_path / "count.rules"
    house.write_text(COUNT, encoding="utf-8")
    g = boardrules.new_game("gaia-project", players=2, seed=3, rules=[house])
    g.play("p1 pick_faction xenos")        # three mines at setup
    g.play("p2 pick_faction terrans")      # two
    while "pass_round" not in {a.name for a in g.legal_actions()}:
        g.play(next(iter(g.legal_actions())))
    assert [g.get("n_built", p) for p in (0, 1)] == [3, 2]
    assert [g.get("n_colonised", p) for p in (0, 1)] == [3, 2]
    assert [g.get("n_income", p) for p in (0, 1)] == [1, 1]
    upgrade = next(a for a in g.legal_actions(0) if a.name == "upgrade")
    g.play(upgrade)
    assert g.get("n_upgraded", 0) == 1 and g.get("n_built", 0) == 4
