"""Eclipse's evaluation for the bots (:mod:`boardrules.bots`): victory points now plus what
the position is worth in victory points at the end.

Weights are our estimates (no source). End scoring (``rules/phases.rules``): the VP of the
sectors a player controls, reputation tiles, discoveries kept (2 VP), techs, ambassadors. A
reputation tile counts at its expected worth for everyone (the tiles are private: the bots do
not look at them). The economy counts per round left: money production less the upkeep of the
discs off the track (``production_table``, ``upkeep_table``), science and materials production.
A player who cannot pay the next upkeep gives up hexes (§ upkeep), so a shortfall costs dearly.

A controlled hex is worth 3 VP beyond its printed VP and a ship 0.8 (they were 1.5 and 1.2: the
greedy bot rated exploring below passing, stopped growing after round 2 and built an
interceptor every round; over the same 8 seeded 4-player games the winners' median went from
24.5 to 27.5 VP and every player's mean from 15.4 to 17.0 VP).
"""

from __future__ import annotations

ROUNDS = 9
REPUTATION_TILE = 2.5     # about the average tile (1-4 VP)
PER_ROUND = {"money": 0.3, "science": 0.25, "materials": 0.25}
STOCK = 0.08              # VP per unit of money, science or materials in hand
HEX = 3.0                 # a controlled hex beyond its VP: room to grow, a colony's planets
SHIP = 0.8
TECH = 1.0
SHORTFALL = 3.0           # VP lost per unit of money the next upkeep cannot pay
SHORTFALL_FLAT = 8.0


def evaluate(game, player: int) -> float:
    """Victory points of ``player`` plus the estimated worth of the position (see the
    module); at the end of the game, the score."""
    vp = game.get("vp", player)
    if game.over:
        return float(vp)
    rnd = game.get("round") or 0
    left = max(0, ROUNDS - rnd + (1 if rnd > 0 else 0))
    value = float(vp)
    entities = game.ruleset.entities
    hexes = ships = 0
    for h in game.get("hexes"):
        if game.get("controller", index=h) == player:
            hexes += 1
            value += entities[game.get("sector_at", index=h)].fields.get("vp", 0)
        ships += sum(1 for owner, _ in game.get("ships", index=h) if owner == player)
    value += HEX * hexes + SHIP * ships
    value += REPUTATION_TILE * len(game.get("reputation", player))
    value += 2 * game.get("discoveries_kept", player) + len(game.get("ambassadors", player))
    value += TECH * len(game.get("techs", player))
    table, upkeep = game.get("production_table"), game.get("upkeep_table")
    discs = game.get("disc", player)
    money = table[game.get("out_money", player)]
    net_money = money - upkeep[discs]      # this round: the discs on action spaces count too
    later = money - upkeep[discs + game.get("action_discs", player)]   # they come back
    produce = {"money": later, "science": table[game.get("out_science", player)],
               "materials": table[game.get("out_materials", player)]}
    for res, w in PER_ROUND.items():
        value += w * left * produce[res] + STOCK * game.get(res, player)
    value += PER_ROUND["money"] * (net_money - later)
    short = -(game.get("money", player) + net_money)
    if left and short > 0:
        value -= SHORTFALL_FLAT + SHORTFALL * short
    return value
