"""The ``where`` conditions of the actions that build on a planet hex (mines and Gaia projects:
rules/tiles.rules, rules/buildings.rules) only prune candidates that their bodies refuse: the
legal ones listed are exactly those whose bodies run without breaking a rule, tried on every
planet hex of the map.

``booster_mine``, ``power_mine`` and ``booster_gaia_project`` state some of their bodies' first
checks on the parameter (a colonised or transdim planet, the booster action used, no
terraforming for the free steps of a power action, a Gaia project off a free transdim planet)
so that ``legal_actions()`` does not try those candidates (issue 12); this test holds them to
the bodies, on states of the shared records and of random games.
"""

from __future__ import annotations

import random

import pytest

from boardrules.game import Action, new_game
from boardrules.runtime import RuleViolation
from boardrules_gaia import replay as R
from boardrules_gaia.records import load_record
from tests.conftest import shared_path

MINES = ("build_mine", "power_mine", "booster_mine", "gaia_project", "booster_gaia_project")


def _body_legal(game, name: str) -> set[Action]:
    """The mines of the player to act whose bodies run through, tried on every planet hex
    (and every power action for ``power_mine``), without the parameters' domains and ``where``."""
    st = game.state
    turn = st.values.get(("f", "turn"))
    if turn is None or turn[2] is None or st.pending or st.values.get(("f", "over")):
        return set()
    p = turn[2]
    planets = [h for h in st.values.get(("v", "hexes")) or ()
               if st.values.get(("v", "planet", h), "e") != "e"]
    tries: list[tuple] = [(h,) for h in planets]
    if name == "power_mine":
        tries = [(a, h) for a in ("power2", "power6") for h in planets]
    out = set()
    for args in tries:
        action = Action(p, name, args)
        try:
            game._run(action, args_checked=True)
        except RuleViolation:
            continue
        out.add(action)
    return out


def _check(game) -> int:
    listed = [a for a in game.legal_actions() if a.name in MINES]
    checked = 0
    for name in MINES:
        by_body = _body_legal(game, name)
        assert {a for a in listed if a.name == name} == by_body, name
        checked += len(by_body)
    return checked


@pytest.mark.parametrize("name", ["deep-mind-2", "djfjjv4k"])
def test_listed_mines_are_the_bodies_legal_ones_on_record_states(name):
    record = load_record(shared_path("gaia-records", f"{name}.json"))
    rp = R.Replayer(record, check=False)
    lines, n_lead = record.lines, record.setup.consumes_leading_moves
    seen = 0
    for i in range(len(lines)):
        rp.line(i, lines, record.moves_raw[n_lead + i])
        if i % 3 == 0:
            seen += _check(rp.game)
    assert seen > 50   # states with legal mines were compared, not only empty turns


@pytest.mark.parametrize("seed", [3, 11])
def test_listed_mines_are_the_bodies_legal_ones_in_random_games(seed):
    g, rnd = new_game("gaia-project", players=3, seed=seed), random.Random(seed)
    seen = 0
    for k in range(400):
        if g.over:
            break
        if k % 2 == 0:
            seen += _check(g)
        g.play(rnd.choice(list(g.legal_actions())), check=False)
    assert seen > 20
