"""docs/simulate.md, "Faction balance with the greedy bot": the greedy bot picks the same four
factions in every base game (its one-ply rating sees only the start resources), so a
simulation of the base game measures four of the 14; the module ``random-factions`` with a
pool of one side of each faction board (option ``factions``) deals every faction."""

from __future__ import annotations

from collections import Counter

import pytest

import boardrules
from boardrules.bots import seat_bots
from boardrules.simulate import player_role

SIDES = ("terrans,xenos,taklons,hadsch_hallas,bescods,itars,geodens",
         "lantids,gleens,ambas,ivits,firaks,nevlas,baltaks")


def _picked(seeds: range, modules: tuple[str, ...] = (), pool: str = "") -> Counter[str]:
    """The factions greedy bots pick in 4-player games of these seeds (played to the pick)."""
    picked: Counter[str] = Counter()
    for seed in seeds:
        options = {"factions": pool.split(",")} if pool else {}
        game = boardrules.new_game("gaia-project", players=4, seed=seed, modules=modules, options=options)
        bots = seat_bots(["greedy"], 4, seed)
        while any(player_role(game, p) is None for p in range(4)):
            player = min(game.players_to_act())
            game.play(bots[player].choose(game, player))
        picked.update(player_role(game, p) for p in range(4))
    return picked


def test_the_base_game_gives_the_greedy_bot_four_factions():
    assert set(_picked(range(6))) == {"hadsch_hallas", "ambas", "firaks", "terrans"}


@pytest.mark.parametrize("pool", SIDES)
def test_random_boards_with_one_side_each_deal_every_faction(pool):
    picked = _picked(range(20), ("random-factions",), pool)
    assert set(picked) == set(pool.split(",")) and sum(picked.values()) == 80


def test_the_two_pools_are_the_fourteen_factions_each_board_once():
    rs = boardrules.build_ruleset("gaia-project")
    factions = {name for name, e in rs.entities.items() if e.kind == "faction"}
    a, b = (set(side.split(",")) for side in SIDES)
    assert a | b == factions and not a & b and len(a) == len(b) == 7
