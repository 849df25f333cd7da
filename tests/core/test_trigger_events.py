"""Every ``when EVENT(...)`` names a declared event wherever it stands: in an entity (a card, a
tech tile), in an ``extend`` of one, at the top level, and also where a trigger may not stand (a
kind, a resource, a track, the game) or in a declaration of an unknown kind, whose other error
hid the misspelt event until it was mended. Each said at its file:line:column, with its text
and a did-you-mean hint."""

from __future__ import annotations

from pathlib import Path

import pytest

import boardrules

HARVEST = (Path(__file__).parent / "rules" / "harvest.rules").read_text()
WHEN = "when farm_biult(p, h) { gain 1 vp to p }"


def errors(text: str) -> list[str]:
    with pytest.raises(boardrules.RulesError) as err:
        boardrules.build_ruleset(texts={"h.rules": text})
    return [d.format() for d in err.value.diagnostics]


def place(text: str, needle: str) -> str:
    lines = text.splitlines()
    i = next(i for i, ln in enumerate(lines) if needle in ln)
    return f"h.rules:{i + 1}:{lines[i].index(needle) + 1}: unknown event 'farm_biult'"


@pytest.mark.parametrize("where", [
    "card reap2 { cost 1\n  WHEN\n}",                  # an entity (a card, a tech tile)
    "extend card reap {\n  WHEN\n}",                   # an extend of one
    "WHEN",                                            # the top level
    "crad reap2 { cost 1\n  WHEN\n}",                  # a declaration of an unknown kind
    "extend kind card {\n  WHEN\n}",                   # a kind: no trigger may stand there
    "extend resource coins {\n  WHEN\n}",              # a resource
    "extend track farming {\n  WHEN\n}",               # a track
])
def test_a_misspelt_event_is_named_wherever_its_trigger_stands(where):
    text = HARVEST + "\n" + where.replace("WHEN", WHEN) + "\n"
    said = errors(text)
    mine = [e for e in said if "unknown event 'farm_biult'" in e]
    assert len(mine) == 1, said
    assert mine[0].startswith(place(text, WHEN)), mine[0]
    assert WHEN in mine[0] and "hint: did you mean 'farm_built'?" in mine[0]
