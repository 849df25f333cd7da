"""The lists of tech tiles the rules walk instead of the whole kind (rules/tiles.rules): the
tiles with an on_did or income rule (``did_techs``, ``income_techs``) or an action
(``action_techs``) are exactly those of the kind, in declaration order, so 'did', the income
and the round's cleanup run the same rules in the same order as a walk over every tile."""

from __future__ import annotations

import pytest

import boardrules
from tests.gaia.test_game import GAME

# list -> the slot that puts a tile in it
SLOT_LISTS = {"did_techs": "on_did", "income_techs": "income"}


@pytest.fixture(scope="module")
def rs():
    return boardrules.new_game(GAME, players=2, seed=1).ruleset


@pytest.mark.parametrize("name", sorted(SLOT_LISTS))
def test_a_tech_list_holds_the_tiles_with_its_rule(rs, name):
    slot = SLOT_LISTS[name]
    expected = [t for t in rs.by_kind["tech"] if slot in rs.entities[t].slots]
    assert expected and list(rs.vars[name].default) == expected


def test_the_action_tiles_are_those_with_an_action(rs):
    expected = [t for t in rs.by_kind["tech"] if rs.entities[t].fields["has_action"]]
    assert expected == [t for t in rs.by_kind["tech"] if "act" in rs.entities[t].slots]
    assert list(rs.vars["action_techs"].default) == expected
