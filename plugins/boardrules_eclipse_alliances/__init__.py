"""Rise of the Ancients, alliances: an Eclipse module (``-m alliances``, 4 or more players).

Two players with diplomatic relations form an alliance (a third joins with 6 or more
players); allies fight as one side, neither fight nor pin each other, and share their score
at the end (the members' VP summed and divided by their number, rounded down: the game's
``final_score``). Leaving flips the tile to its traitor side. Content only:
``rules/alliances.rules``; the base game's per-player ``allies`` does the rest. Source: the
Rise of the Ancients rulebook (seed ``000_92782212a183c471``, alliances).
"""

from __future__ import annotations

from boardrules.plugins import rules_module

NAME = "alliances"


def evaluate(game, player: int, base) -> float:
    """The bots' evaluation with this module on (``ModuleSpec.evaluation``): ``base``'s value of
    the position for ``player``, shared with their allies: an alliance tile is worth its end VP
    (+2 face up, -3 per traitor side), and a member rates a position by the alliance's
    average, as the shared score does."""
    if game.over:
        return float(game.final_scores()[player])
    side = [player, *game.get("allies", player)]
    total = 0.0
    for q in side:
        total += base(game, q) - game.get("alliance_traitor_vp") * len(game.get("traitor_tiles", q))
        if game.get("alliance_of", q) is not None:
            total += game.get("alliance_tile_vp")
    return total / len(side)


boardrules_modules = rules_module(__file__, NAME, "eclipse",
                                  "alliances of players with diplomatic relations: one side in combat, "
                                  "a shared score", title="Rise of the Ancients: alliances", players=(4, 9),
                                  evaluation=evaluate)
