"""The ``where`` conditions of the actions that build on a planet hex (mines and Gaia projects),
the board actions, upgrades and free conversions (rules/tiles.rules, rules/buildings.rules) only
prune candidates that their bodies refuse: the ones listed are exactly those whose bodies run
without breaking a rule, tried on every value of the parameters' types.

``booster_mine``, ``power_mine`` and ``booster_gaia_project`` state some of their bodies' first
checks on the parameter (a colonised or transdim planet, the booster action used, no
terraforming for the free steps of a power action, a Gaia project off a free transdim planet);
the mines state their credits and ore with the terraforming steps (``wheel_steps``) and, on a
Gaia planet, their QIC with the range's.

``board`` and ``convert`` state the power they spend (power in bowl III, one token at least when
the faction spends power its own way: ``own_spend``) and ``board`` its QIC, ``upgrade`` the
building's cheapest price and the pieces left, so that ``legal_actions()`` does not try what
cannot be paid (issue 12, random play), ``ivits_station`` a free space; this test holds them to
the bodies on states of the shared records (Nevlas with their PI in deep-mind-2, Taklons in
TOS-1, the Ivits' space stations in 2021-02-08-01) and of random games.
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
NAMES = ("board", "upgrade", "convert", "ivits_station")
FREE = ("convert",)   # (listed after the main action too)


def _tries(game, name: str) -> list[tuple]:
    """Every argument tuple of ``name``'s parameter types, without domains or ``where``s."""
    rs, values = game.ruleset, game.state.values
    if name == "board":
        return [(a,) for a in rs.by_kind["board_action"]]
    if name == "convert":
        return [(c,) for c in rs.by_kind["conversion"]]
    if name == "ivits_station":
        return [(h,) for h in values.get(("v", "hexes")) or ()
                if values.get(("v", "planet", h), "e") == "e"]
    planets = [h for h in values.get(("v", "hexes")) or ()
               if values.get(("v", "planet", h), "e") != "e"]
    if name == "upgrade":
        return [(h, b) for h in planets for b in rs.by_kind["building"]]
    if name == "power_mine":
        return [(a, h) for a in ("power2", "power6") for h in planets]
    return [(h,) for h in planets]


def _body_legal(game, name: str) -> set[Action]:
    """The candidates of the player to act whose bodies run through."""
    st = game.state
    turn = st.values.get(("f", "turn"))
    if turn is None or turn[2] is None or st.pending or st.values.get(("f", "over")) \
            or (turn[3] and name not in FREE):   # (the main action is taken: free ones are left)
        return set()
    out = set()
    for args in _tries(game, name):
        action = Action(turn[2], name, args)
        try:
            game._run(action, args_checked=True)
        except RuleViolation:
            continue
        out.add(action)
    return out


def _check(game, names: tuple[str, ...] = NAMES) -> int:
    listed = [a for a in game.legal_actions() if a.name in names]
    checked = 0
    for name in names:
        by_body = _body_legal(game, name)
        assert {a for a in listed if a.name == name} == by_body, name
        checked += len(by_body)
    return checked


@pytest.mark.parametrize(("names", "name"), [
    (NAMES, "deep-mind-2"), (NAMES, "TOS-1"), (NAMES, "2021-02-08-01"),
    (MINES, "deep-mind-2"), (MINES, "djfjjv4k")])
def test_listed_candidates_are_the_bodies_legal_ones_on_records(names, name):
    record = load_record(shared_path("gaia-records", f"{name}.json"))
    rp = R.Replayer(record, check=False)
    lines, n_lead = record.lines, record.setup.consumes_leading_moves
    seen = 0
    for i in range(len(lines)):
        rp.line(i, lines, record.moves_raw[n_lead + i])
        if i % 3 == 0:
            seen += _check(rp.game, names)
    assert seen > 50   # states with legal ones were compared, not only empty turns


@pytest.mark.parametrize(("names", "players", "seed"), [
    (NAMES, 4, 5), (NAMES, 4, 17), (MINES, 3, 3), (MINES, 3, 11)])
def test_listed_candidates_are_the_bodies_legal_ones_in_random_games(names, players, seed):
    g, rnd = new_game("gaia-project", players=players, seed=seed), random.Random(seed)
    seen = 0
    for k in range(500):
        if g.over:
            break
        if k % 2 == 0:
            seen += _check(g, names)
        g.play(rnd.choice(list(g.legal_actions())), check=False)
    assert seen > 20
