"""A record line ``pN NAME ARGS`` names either a player decision (a ``choose`` label) or an
action. The line is read against the state it was played in, but a reader holding only the
record (a rating site, a log viewer) cannot tell the two apart when a decision and an action
share a name: the nine-players module's start-of-game cube removal was labelled
``remove_cube``, the name of the base game's bombardment procedure. So no bundled ruleset, with
any one of its modules on, uses one name for both."""

from __future__ import annotations

import pytest

import boardrules
from boardrules import plugins
from boardrules.lang import ast as A


def _labels(rs) -> set:
    """The labels of every ``choose`` of ``rs`` (each owns one of the ruleset's blocks)."""
    owners = (rs.block_owner(i) for i in range(len(rs.blocks)))
    return {o.var for o in owners if isinstance(o, A.Choose)}


def _cases():
    for game in ("gaia-project", "eclipse"):
        yield game, ()
        for name in plugins.modules(game):
            yield game, (name,)


@pytest.mark.parametrize(("game", "modules"), list(_cases()))
def test_no_decision_shares_a_name_with_an_action(game, modules):
    try:
        rs = boardrules.build_ruleset(game, modules=modules)
    except boardrules.BoardrulesError:
        pytest.skip(f"{modules} does not build alone")
    labels = _labels(rs)
    assert labels, "the walk found the decisions"
    assert not labels & set(rs.actions), sorted(labels & set(rs.actions))
