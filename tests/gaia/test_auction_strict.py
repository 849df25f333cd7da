"""A strict replay checks the auction's lines (``faction X``, ``bid X N``: the module's decisions
``auction_faction`` and ``bid_amount``) against the legal actions, like every main action."""

from __future__ import annotations

import json

import pytest

from boardrules.game import Game, LegalActions
from boardrules_gaia import replay as R
from boardrules_gaia.records import load_record
from tests.conftest import shared_path

SHORT = "12__ivits-baltaks-gleens"  # p1 ivits, p2 baltaks, p3 gleens


def _record(tmp_path, form: str, lines=()):
    data = json.loads(shared_path("gaia-records", f"{SHORT}.json").read_text(encoding="utf-8"))
    data["options"]["auction"] = form
    for field in ("moves", "moves_clean"):
        data[field][4:4] = list(lines)
    path = tmp_path / "auction.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return load_record(path)


BIDS = ["p1 bid ivits 2", "p2 bid baltaks 0", "p3 bid gleens 5"]


@pytest.mark.parametrize("form, lines, first", [("choose-bid", BIDS, "p1 auction_faction ivits"),
                                                ("bid-while-choosing", (), "p1 auction_faction ivits")])
def test_strict_replay_checks_auction_lines_against_the_legal_actions(tmp_path, monkeypatch, form, lines, first):
    record = _record(tmp_path, form, lines)
    checked: list[str] = []
    listed = LegalActions.__contains__

    def spy(self, action):
        checked.append(str(action))
        return listed(self, action)
    monkeypatch.setattr(LegalActions, "__contains__", spy)
    assert R.replay_record(record, strict=True).ok
    assert first in checked
    if len(lines) == 3:
        assert {"p1 bid_amount 2", "p2 bid_amount 0", "p3 bid_amount 5"} <= set(checked)


def test_an_auction_line_the_listing_refuses_stops_a_strict_replay_naming_it(tmp_path, monkeypatch):
    """Were the listing and the play to disagree on a bid (the strict check's purpose), the
    strict replay stops at that line; a replay that is not strict plays on."""
    record = _record(tmp_path, "choose-bid", BIDS)
    listed = LegalActions.__contains__
    monkeypatch.setattr(LegalActions, "__contains__",
                        lambda self, a: str(a) != "p3 bid_amount 5" and listed(self, a))
    out = R.replay_record(record, strict=True)
    assert out.divergence is not None and out.divergence.index == 6
    assert "'p3 bid_amount 5' is not among the legal actions" in out.divergence.reason
    assert R.replay_record(record).ok


def test_an_illegal_bid_stops_a_strict_replay_at_its_line(tmp_path):
    record = _record(tmp_path, "choose-bid", ["p1 bid ivits 3", "p2 bid ivits 3"])
    for check in (True, False):
        out = R.replay_record(record, strict=True, check=check)
        assert out.divergence is not None and out.divergence.index == 5
        assert "p2 bid_amount 3" in out.divergence.reason
