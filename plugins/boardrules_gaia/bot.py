"""Gaia Project's evaluation for the bots (:mod:`boardrules.bots`): victory points now plus
what the position is worth in victory points at the end.

Weights are our estimates (no source): resources at about the end-game exchange (1 VP per
3 credits, ore or knowledge, §12.6) adjusted for what they buy during the game; structures by
the income they add per round left (incomes: ``rules/buildings.rules``); research levels by the
end-game research VP (levels 3/4/5: 4/8/12 VP, §12.5) and the income or reach they give;
federations by what they open (tokens and final scoring); what the two final scoring tiles
count, per unit.
"""

from __future__ import annotations

ROUNDS = 6
# resource: (worth at the end: 1 VP per 3 after conversion, worth early in the game)
RESOURCE = {"credits": (0.33, 0.25), "ore": (0.33, 0.5), "knowledge": (0.33, 0.45),
            "qic": (0.33, 1.3), "bowl1": (0.0, 0.2), "bowl2": (0.0, 0.32),
            "bowl3": (0.11, 0.45), "gaia_power": (0.0, 0.1)}
# building: (worth at once, worth per round left)
BUILDING = {"mine": (3.0, 0.8), "ts": (5.5, 1.2), "lab": (9.0, 1.0), "pi": (10.0, 1.5),
            "ac1": (9.0, 1.2), "ac2": (9.0, 1.2)}
TRACKS = ("terraforming", "navigation", "intelligence", "gaia", "economy", "science")
TRACK_PER_ROUND = {"economy": 0.7, "science": 0.6, "terraforming": 0.4, "navigation": 0.3,
                   "intelligence": 0.3, "gaia": 0.3}
RESEARCH_VP = (0, 0, 0, 4, 8, 12)
FEDERATION = 4.0
FINAL = 1.5    # per unit a final scoring tile counts (18/12/6 VP for the first three, §10)


def _final_count(game, player: int, tile: str) -> int:
    """What final scoring tile ``tile`` counts for ``player`` (``rules/tiles.rules``), roughly:
    federated structures are the structures in the player's federation groups."""
    hexes = game.get("my_hexes", player)
    if tile == "structure":
        return len(hexes)
    if tile == "structureFed":
        fed = {h for group in game.get("fed_groups", player) for h in group.split(",")}
        return sum(1 for h in hexes if h in fed)
    if tile == "planetType":
        return len(game.get("ptypes", player))
    if tile == "gaia_planets":
        return sum(1 for h in hexes if game.get("planet", index=h) == "g")
    if tile == "sectors":
        return len({h.rstrip("0123456789")[:-1] for h in hexes})   # "10A11" lies in sector 10
    if tile == "satellite":
        return len(game.get("satellites", player)) + len(game.get("stations", player))
    return 0


def evaluate(game, player: int) -> float:
    """Victory points of ``player`` plus the estimated worth of the position (see the module);
    at the end of the game, the score."""
    vp = game.get("vp", player)
    if game.over:
        return float(vp)
    rnd = game.get("round") or 0
    left = max(0, ROUNDS - rnd + (1 if rnd > 0 else 0))   # rounds whose income is still to come
    value = float(vp)
    for name, (end, early) in RESOURCE.items():
        value += (end + (early - end) * left / ROUNDS) * game.get(name, player)
    for b, (now, per_round) in BUILDING.items():
        value += game.get("built", player, b) * (now + per_round * left)
    for t in TRACKS:
        level = game.get(t, player)
        value += RESEARCH_VP[min(level, 5)] + level * (1.0 + TRACK_PER_ROUND[t] * left)
    value += FEDERATION * len(game.get("fed_groups", player))
    for tile in game.get("final_tiles"):
        value += FINAL * _final_count(game, player, tile)
    return value
