"""The listing of the legal actions (guards, prechecks, answers listed by their choice's guard:
lang/guards.py) is the full tries' (``Game._legal_by_trying``) on real states: every state
after an engine action of two shared records with a Lost Planet placed (its answers listed by the
guard of the choice's body) and with the Ivits' space stations, the slowest states to list."""

from __future__ import annotations

import pytest

from boardrules_gaia import replay as R
from boardrules_gaia.records import load_record
from tests.conftest import shared_path


def states_of(name: str):
    """(move index, game at that state) after every engine action of record ``name``."""
    record = load_record(shared_path("gaia-records", f"{name}.json"))
    rp = R.Replayer(record, check=False)
    lines, n_lead = record.lines, record.setup.consumes_leading_moves
    play, at = rp._play, [0]

    def traced(action, main=False):
        play(action, main)
        states.append((at[0], rp.game.state))
    states: list = []
    rp._play = traced
    for i in range(len(lines)):
        at[0] = n_lead + i
        rp.line(i, lines, record.moves_raw[n_lead + i])
    return rp.game, states


@pytest.mark.parametrize("name", ["JaeggaFun04", "2021-02-08-01"])
def test_record_states_list_as_the_full_tries(name):
    game, states = states_of(name)
    lost = 0
    for move, st in states:
        if st.values.get(("f", "over")):
            continue
        game.state = st
        game._known.clear()
        listed = list(game.legal_actions())
        game._known.clear()
        assert listed == game._legal_by_trying(), f"{name} move {move}"
        lost += bool(st.pending) and st.pending[0].label == "lost_at"
    assert len(states) > 300 and lost == 1   # (the Lost Planet's answers were compared)


def test_an_upgrade_to_a_trading_station_is_listed_from_its_price():
    """The rest of an upgrade to a trading station begins after its price (buildings.rules:
    whether the planet type is new is worked out among the checks): placing it, the
    power-charge offer and the scoring are not run to list it (the states above hold the
    listing to the full tries)."""
    import boardrules
    from boardrules.lang import ast as A
    from boardrules.lang.inert import FIXED
    rs = boardrules.new_game("gaia-project", players=4, seed=1).ruleset
    scope = rs.guards._scope("upgrade")
    scope[FIXED] = (("b", "ts"),)
    stmts = rs.actions["upgrade"].body.stmts
    k = rs.guards.inert.split_facts(stmts, scope)[0]
    assert isinstance(stmts[k - 1], A.If) and isinstance(stmts[k], A.Set)   # (the price, then the effects)
