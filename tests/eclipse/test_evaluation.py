"""Eclipse's bot evaluation reads the state's values directly, every player in one pass
(plugins/boardrules_eclipse/bot.py). The oracle below computes the same formula through the
public ``Game.get`` one player at a time: the fast reader must agree at every state of random
games, with Rise of the Ancients modules on (a key read under a wrong name would silently read
its default)."""

from __future__ import annotations

import random

import pytest

import boardrules
from boardrules.bots import RandomBot
from boardrules_eclipse import bot
from boardrules_eclipse.bot import (HEX, PER_ROUND, REPUTATION_TILE, ROUNDS, SHIP, SHORTFALL,
                                    SHORTFALL_FLAT, STOCK, TECH)


def by_get(game, player: int) -> float:
    """The evaluation's formula through ``Game.get`` (the reference)."""
    vp = game.get("vp", player)
    if game.over:
        return float(vp)
    rnd = game.get("round") or 0
    left = max(0, ROUNDS - rnd + (1 if rnd > 0 else 0))
    value = float(vp)
    hexes = ships = 0
    for h in game.get("hexes") or ():
        if game.get("controller", index=h) == player:
            hexes += 1
            value += game.ruleset.entities[game.get("sector_at", index=h)].fields.get("vp", 0)
        ships += sum(1 for owner, _ in game.get("ships", index=h) if owner == player)
    value += HEX * hexes + SHIP * ships
    value += REPUTATION_TILE * len(game.get("reputation", player))
    value += 2 * game.get("discoveries_kept", player) + len(game.get("ambassadors", player))
    value += TECH * len(game.get("techs", player))
    table, upkeep = game.get("production_table"), game.get("upkeep_table")
    discs = game.get("disc", player)
    money = table[game.get("out_money", player)]
    net_money = money - upkeep[discs]
    later = money - upkeep[discs + game.get("action_discs", player)]
    produce = {"money": later, "science": table[game.get("out_science", player)],
               "materials": table[game.get("out_materials", player)]}
    for res, w in PER_ROUND.items():
        value += w * left * produce[res] + STOCK * game.get(res, player)
    value += PER_ROUND["money"] * (net_money - later)
    short = -(game.get("money", player) + net_money)
    if left and short > 0:
        value -= SHORTFALL_FLAT + SHORTFALL * short
    return value


@pytest.mark.parametrize("seed, modules", [(1, ()), (2, ("rare-technologies", "developments")),
                                           (3, ("new-species", "hives", "warp-portals"))])
def test_the_fast_evaluation_equals_the_formula_through_game_get(seed, modules):
    game = boardrules.new_game("eclipse", players=3, seed=seed, modules=list(modules),
                               options={"auto_combat": True, "rounds": 4})
    player, rng, checked = RandomBot(seed), random.Random(seed), 0
    while not game.over and checked < 150:
        if rng.random() < 0.3:
            for p in range(game.players):
                assert bot.evaluate(game, p) == pytest.approx(by_get(game, p), abs=1e-9)
            checked += 1
        game.play(player.choose(game), check=False)
    assert checked > 20
