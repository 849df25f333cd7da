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

Over the last two rounds those estimates fade to what the final scoring counts (:func:`_growth`):
in the last round a hex is worth its VP, techs their rows' VP (``tech_row_vp``), a ship a
quarter of ``SHIP`` and the round's production nothing. Without it the MCTS bot kept researching
to round 9 (9 techs, 1 VP of tech rows) and lost a game 12 to 13 while rating itself 45 to 22;
against random bots (seat 1, ``mcts:10``, seeds 1000-1059) it won 56 of 60 games before.
"""

from __future__ import annotations

from collections.abc import Sequence

ROUNDS = 9
REPUTATION_TILE = 2.5     # about the average tile (1-4 VP)
PER_ROUND = {"money": 0.3, "science": 0.25, "materials": 0.25}
STOCK = 0.08              # VP per unit of money, science or materials in hand
HEX = 3.0                 # a controlled hex beyond its VP: room to grow, a colony's planets
SHIP = 0.8
TECH = 1.0
GROWTH_ROUNDS = 2         # rounds before the last over which HEX, TECH, ships and the last
                          # round's production fade to end-game VP
SHIP_LAST = 0.25          # the share of SHIP a ship keeps in the last round (battles still come)
SHORTFALL = 3.0           # VP lost per unit of money the next upkeep cannot pay
SHORTFALL_FLAT = 8.0


def evaluate(game, player: int) -> float:
    """Victory points of ``player`` plus the estimated worth of the position (see the
    module); at the end of the game, the score. What every player's value shares (the hexes
    and ships counted per owner) is read once per state and each player's own values when
    first asked: the greedy bot rates a position for one player; from the second player asked
    on, every player's are read at once (the search bot rates each leaf for all)."""
    state = game.state
    last = _last
    if last[0] is not state or last[1] is not game.ruleset:
        last[:] = [state, game.ruleset, _shared(game), {}]
    shared, values = last[2], last[3]
    got = values.get(player)
    if got is not None:
        return got
    read = shared[0]
    if not values or shared[1]:
        get = read.get
        values[player] = _value(shared, player, [get(name, player) for name in OWN])
    else:
        for p, own in enumerate(zip(*[read.each(name) for name in OWN])):
            if p not in values:
                values[p] = _value(shared, p, own)
    return values[player]


_last: list = [None, None, None, {}]   # the last state rated, its ruleset, what its players'
                                       # values share, the values asked so far
OWN = ("reputation", "discoveries_kept", "ambassadors", "techs", "disc", "out_money",
       "action_discs", "out_science", "out_materials", "money", "science", "materials")
"""The names kept per player that a player's value reads."""


def _shared(game) -> tuple:
    """What every player's value reads of the state, read through :meth:`Game.reader`:
    ``(reader, over, base, left, grow, hexes, ships, production, upkeep)``; ``base``: each
    player's VP (plus the printed VP of their hexes unless the game is over), ``hexes`` and
    ``ships``: how many each player controls and has on the map (each hex read for every player
    at once), the money production and upkeep tables."""
    read = game.reader()
    n = game.players
    out = [float(vp) for vp in read.each("vp")]
    if game.over:
        return read, True, out, 0, 0.0, (), (), (), ()
    rnd = read.get("round") or 0
    left = max(0, ROUNDS - rnd + (1 if rnd > 0 else 0))
    entities = game.ruleset.entities
    hexes, ships = [0] * n, [0] * n
    where = read.get("hexes")
    for owner, sector, fleets in zip(read.at("controller", where), read.at("sector_at", where),
                                     read.at("ships", where)):
        if owner is not None:
            hexes[owner] += 1
            out[owner] += entities[sector].fields.get("vp", 0)
        for who, _ in fleets:
            ships[who] += 1
    return (read, False, out, left, _growth(left), hexes, ships, read.get("production_table"),
            read.get("upkeep_table"))


def _value(shared: tuple, p: int, own: Sequence) -> float:
    """:func:`evaluate` of player ``p`` from what :func:`_shared` read and ``p``'s values of
    the names in ``OWN`` (in that order)."""
    read, over, out, left, grow, hexes, ships, table, upkeep = shared
    if over:
        return out[p]
    reputation, kept, ambassadors, techs, disc, out_money, action_discs, out_science, \
        out_materials, money, science, materials = own
    value = out[p] + HEX * grow * hexes[p] + SHIP * max(grow, SHIP_LAST) * ships[p]
    value += REPUTATION_TILE * len(reputation)
    value += 2 * kept + len(ambassadors)
    value += _tech_value(read, read.ruleset.entities, p, techs, left)
    discs = disc
    cash = table[out_money]
    net_money = cash - upkeep[discs]      # this round: the discs on action spaces count too
    later = cash - upkeep[discs + action_discs]   # they come back
    produce = {"money": later, "science": table[out_science],
               "materials": table[out_materials]}
    stock = {"money": money, "science": science, "materials": materials}
    for res, w in PER_ROUND.items():
        value += w * (left - 1 + grow) * produce[res] + STOCK * stock[res]
    value += PER_ROUND["money"] * (net_money - later)
    short = -(money + net_money)
    if left and short > 0:
        value -= SHORTFALL_FLAT + SHORTFALL * short
    return value


def _growth(left: int) -> float:
    """The share of a controlled hex's and a tech's worth beyond their end-game VP (and of a
    ship's worth, and of the production of the round under way) that still counts with ``left``
    rounds to play, this one included: all of it up to ``GROWTH_ROUNDS`` rounds before the last,
    none in the last round (room to grow, a tech's use and production no longer pay). Before,
    the MCTS bot researched in rounds 3-9 (9 techs, 1 VP of tech rows) and lost a game by 1 VP
    (12 against 13) while rating its position 45 against 22 in round 9."""
    return min(1.0, max(0, left - 1) / GROWTH_ROUNDS)


def _tech_value(read, entities, p: int, techs, left: int) -> float:
    """``player``'s techs: the VP their rows score at the end (``tech_row_vp`` by the count in
    each row, as ``score_techs`` counts them: a tile on another row counts there) plus, scaled by
    :func:`_growth`, what ``TECH`` per tech rates above that."""
    rows: dict[str, int] = {}
    for t in techs:
        row = read.get("placed_row", p, t) or entities[t].fields["category"]
        rows[row] = rows.get(row, 0) + 1
    table, room = read.get("tech_row_vp"), read.get("row_spaces")
    scored = sum(table[min(k, room)] for k in rows.values())
    return scored + _growth(left) * max(0.0, TECH * len(techs) - scored)
