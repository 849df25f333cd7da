"""Games from the site's engine that exposed a kind of fault (``shared/cases/gaia/``, issue 14).

Each file is a whole game played by random legal moves in the site's engine; its README gives the
right outcome per kind. Every file is replayed move by move with legality checks on
(``strict=True``: the main action of each line is also in ``legal_actions()``), **never** in
lenient mode, to exactly its recorded ``final`` state. Files whose kind is not fixed yet are strict
xfails naming it, so fixing a kind fails its xfail and the entry must go.
"""

from __future__ import annotations

import pytest

from boardrules_gaia import replay as R
from boardrules_gaia.records import load_record
from tests.conftest import SHARED, shared_path

CASE_NAMES = sorted(p.stem for p in (SHARED / "cases" / "gaia").glob("*.json")) or ["(missing)"]

# The kind each file shows that is not fixed yet (README of shared/cases/gaia).
NOT_YET: dict[str, str] = {
    "random-2p-2014": "end-of-game conversions above the caps (Itars)",
    "random-2p-2009": "end-of-game conversions above the caps",
    "random-4p-5025": "Taklons: a brainstone question per power income item",
    "random-2p-2002": "Taklons: the brainstone question when it is the only choice",
    "random-4p-4032": "Taklons: a Gaia project paid with 'brainstone: 1'",
}

_outcomes: dict = {}


def outcome(name) -> R.Outcome:
    if name not in _outcomes:
        rec = load_record(shared_path("cases", "gaia", f"{name}.json"))
        _outcomes[name] = (rec, R.replay_record(rec, strict=True, lenient=False))
    return _outcomes[name]


@pytest.mark.parametrize(
    "name",
    [pytest.param(n, marks=pytest.mark.xfail(strict=True, reason=NOT_YET[n])) if n in NOT_YET else n
     for n in CASE_NAMES],
)
def test_case_replays_exactly_without_lenient_mode(name):
    rec, out = outcome(name)
    assert out.divergence is None, str(out.divergence)
    assert out.lines == len(rec.lines)
    assert out.differences == (), "\n".join(out.differences)
    assert not out.lenient and out.notes == ()
