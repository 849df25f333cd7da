"""Gaia Project house rules as docs/gaia-project.md ("House rules") teaches them: a round tile
whose `event` is none the rules report scored nothing, silently (trial3: `event "reserch"` in a
house rule built and played); it is refused where it is declared, with the event meant."""

from __future__ import annotations

import pytest

import boardrules
from boardrules import RulesError

BAG = "override var round_bag: list[roundtile] = [score1, score2, score3, score4, score5, score11]\n"


def _house(tmp_path, text: str):
    path = tmp_path / "house.rules"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("tile, message, hint", [
    ('roundtile score11 { title "x"; event "reserch"; vp 3 }\n',
     "round tile 'score11' scores the event 'reserch', which no action reports", "did you mean 'research'?"),
    ('roundtile score11 { title "x"; vp 3 }\n',
     "round tile 'score11' has no event to score (its field 'event') and no 'score' of its own",
     "the events: 'terraform', 'research', 'mine', 'gaia_mine', 'ts', 'lab', 'big', 'federation'"),
])
def test_a_round_tile_of_an_event_nothing_reports_is_refused_where_it_is_declared(tmp_path, tile, message, hint):
    house = _house(tmp_path, tile + BAG)
    with pytest.raises(RulesError) as err:
        boardrules.build_ruleset("gaia-project", rules=[house])
    (d,) = err.value.diagnostics
    assert (d.span.file, d.span.line, d.span.column, d.message, d.hint) == (str(house), 1, 1, message, hint)
    assert tile.rstrip("\n") in str(err.value)   # (the line shown under the place)


@pytest.mark.parametrize("event", ["research", "federation", "gaia_mine"])
def test_a_round_tile_of_a_reported_event_scores_it(tmp_path, event):
    house = _house(tmp_path, f'roundtile score11 {{ title "x"; event "{event}"; vp 3 }}\n' + BAG)
    rs = boardrules.build_ruleset("gaia-project", rules=[house])
    assert rs.entities["score11"].fields["event"] == event


def test_a_round_tile_that_scores_by_its_own_slot_needs_no_event(tmp_path):
    house = _house(tmp_path, 'roundtile score11 { title "x"; score { if ev_what == "lab" { gain 2 vp } } }\n' + BAG)
    assert "score11" in boardrules.build_ruleset("gaia-project", rules=[house]).entities

