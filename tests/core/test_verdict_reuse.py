"""bench/verdict_reuse.py, the bound on reusing the listing's verdicts from an earlier listing:
its recording table sees every read a verdict makes (a verdict it would reuse is the one worked
out again: none wrong), and the diagnostic leaves the engine as it found it."""

import importlib.util
from pathlib import Path

import boardrules
from boardrules.game.core import Game
from boardrules.runtime import F_TURN

SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "verdict_reuse.py"


def _script():
    spec = importlib.util.spec_from_file_location("verdict_reuse", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_reuses_found_are_the_verdicts_worked_out_again():
    vr = _script()
    verdict, settled = Game._candidate_legal, Game._turn_legal
    found, decisions = vr.measure("harvest", [2, 3], 3)
    assert Game._candidate_legal is verdict and Game._turn_legal is settled
    counts = found.counts
    assert len(decisions) == 2 and counts["verdicts"] > 100 and counts["keys read"] > 0
    assert counts["reusable =="] >= counts["reusable is"] > 0   # (the bound is not empty...)
    assert counts["wrong is"] == counts["wrong =="] == 0       # (...and every reuse is right)


def test_recording_table_names_each_key_read():
    vr = _script()
    g = boardrules.new_game("harvest", players=3, seed=2)
    while not (g.flow_step().name == "actions" and g.players_to_act() == {0}):   # (p1's first turn)
        g.play(next(iter(g.legal_actions())))
    assert "p1 study" in g.legal_actions()
    reads = vr.recorded_reads(g, g.parse("p1 study"), True)
    # (study's prechecks pay 3 coins and advance farming; the flow's turn says whose turn it is)
    assert {("r", "coins", 0), ("t", "farming", 0), F_TURN} <= reads.keys()
    assert reads[("r", "coins", 0)] == g.get("coins", 0)
    assert type(g.state.values) is dict   # (the game's own table is left alone)
    table = vr.Recording({("a",): 1})
    assert table.get(("a",)) == 1 and ("b",) not in table and table.reads[("b",)] is vr.MISSING
    assert not table.whole
    assert dict(table.items()) and table.whole   # (walked whole: its reads are everything)
