"""Eclipse's bot evaluation reads the state's values through ``Game.reader``, one player's
alone or every player's at once (plugins/boardrules_eclipse/bot.py). The oracle below computes the same formula through the
public ``Game.get`` one player at a time: the fast reader must agree at every state of random
games, with Rise of the Ancients modules on (a key read under a wrong name would silently read
its default)."""

from __future__ import annotations

import random

import pytest

import boardrules
from boardrules.bots import RandomBot
from boardrules_eclipse import bot
from boardrules_eclipse.bot import (GROWTH_ROUNDS, HEX, PER_ROUND, REPUTATION_TILE, ROUNDS, SHIP,
                                    SHIP_LAST, SHORTFALL, SHORTFALL_FLAT, STOCK, TECH)


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
    grow = min(1.0, max(0, left - 1) / GROWTH_ROUNDS)
    value += HEX * grow * hexes + SHIP * max(grow, SHIP_LAST) * ships
    value += REPUTATION_TILE * len(game.get("reputation", player))
    value += 2 * game.get("discoveries_kept", player) + len(game.get("ambassadors", player))
    techs = game.get("techs", player)
    rows = [game.get("placed_row", player, index=t) or game.ruleset.entities[t].fields["category"]
            for t in techs]
    scored = sum(game.get("tech_row_vp")[min(rows.count(r), game.get("row_spaces"))] for r in set(rows))
    value += scored + grow * max(0.0, TECH * len(techs) - scored)
    table, upkeep = game.get("production_table"), game.get("upkeep_table")
    discs = game.get("disc", player)
    money = table[game.get("out_money", player)]
    net_money = money - upkeep[discs]
    later = money - upkeep[discs + game.get("action_discs", player)]
    produce = {"money": later, "science": table[game.get("out_science", player)],
               "materials": table[game.get("out_materials", player)]}
    for res, w in PER_ROUND.items():
        value += w * (left - 1 + grow) * produce[res] + STOCK * game.get(res, player)
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


def test_the_last_rounds_fade_to_end_game_vp():
    """In rounds 8 and 9 of a 9-round game the evaluation still equals its formula, where a hex's
    worth beyond its VP, a tech's beyond its row's VP, ships and the round's production fade
    (``bot._growth``: all of it two rounds before the last, none in the last)."""
    assert [bot._growth(left) for left in (0, 1, 2, 3, 9)] == [0.0, 0.0, 0.5, 1.0, 1.0]
    game = boardrules.new_game("eclipse", players=4, seed=5, options={"auto_combat": True})
    player, checked, rounds = RandomBot(5), 0, set()
    while not game.over:
        rnd = game.get("round") or 0
        if rnd >= 8 and len(game.record.actions) % 3 == 0:
            for p in range(game.players):
                assert bot.evaluate(game, p) == pytest.approx(by_get(game, p), abs=1e-9)
            checked, rounds = checked + 1, rounds | {rnd}
        game.play(player.choose(game), check=False)
    assert checked > 10 and rounds == {8, 9}


def test_one_player_asked_alone_is_rated_as_among_all():
    """The evaluation reads a player's own values alone for the first player asked of a state
    and every player's at once from the second on (bot.evaluate): both give the same float."""
    game = boardrules.new_game("eclipse", players=4, seed=4, options={"auto_combat": True})
    player, rng, checked = RandomBot(4), random.Random(4), 0
    while not game.over:
        if rng.random() < 0.2:
            alone = []
            for p in range(game.players):
                bot._last[0] = None
                alone.append(bot.evaluate(game, p))
            first = rng.randrange(game.players)
            bot._last[0] = None
            together = {q: bot.evaluate(game, q) for q in [first, *range(game.players)]}
            assert alone == [together[p] for p in range(game.players)]
            checked += 1
        game.play(player.choose(game), check=False)
    assert checked > 50
