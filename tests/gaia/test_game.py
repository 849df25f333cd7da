"""Gaia Project played by the engine: random bots to the end, and rules with concrete values.

Rule values: shared/rules/gaia-project.md (§2 costs, §5 research, §12.1 power charges,
§10 final scoring) and the seed summary shared/seeds/002_*.txt.
"""

from __future__ import annotations

import random

import pytest

import boardrules
from boardrules.state import State
from boardrules_gaia.primitives import _within

GAME = "gaia-project"
CAPS = {"credits": 30, "ore": 15, "knowledge": 15}
BOWLS = ("bowl1", "bowl2", "bowl3", "gaia_power")


# ---- helpers ----------------------------------------------------------------------------------

def res(g, name, p):
    return g.state.values.get(("r", name, p), 0)


def var(g, name, *index, default=None):
    return g.state.values.get(("v", name, *index), default)


def patch(g, changes: dict) -> None:
    """Replace values of the current state (test positions); None removes a key."""
    values = dict(g.state.values)
    for k, v in changes.items():
        if v is None:
            values.pop(k, None)
        else:
            values[k] = v
    g.state = State(values, g.state.pending)


def check_invariants(g) -> None:
    v = g.state.values
    scores = g.scores()
    for p in range(g.players):
        for r, cap in CAPS.items():
            assert 0 <= v.get(("r", r, p), 0) <= cap, (r, p)
        for r in ("qic", "vp", *BOWLS):   # (at or above the floor: the auction's bids lower VP's)
            assert v.get(("r", r, p), 0) >= g.ruleset.resources[r].floor, (r, p)
        if v.get(("v", "myfaction", p)) is not None:
            tokens = sum(v.get(("r", r, p), 0) for r in (*BOWLS, "tokens_removed"))
            assert tokens == v.get(("v", "tokens_start", p), 6) + v.get(("r", "tokens_gained", p), 0)
        # the Taklons brainstone is one of the tokens of the place it is in
        brain = v.get(("v", "brain", p))
        if brain in ("area1", "area2", "area3", "gaia"):
            place = {"area1": "bowl1", "area2": "bowl2", "area3": "bowl3", "gaia": "gaia_power"}[brain]
            assert v.get(("r", place, p), 0) >= 1, (p, brain)
        s = scores[p]
        assert s["total"] == res(g, "vp", p) == sum(s["sources"].values())
    check_switches(g)


def check_switches(g) -> None:
    """The generic state faction abilities switch on (docs/plugins.md, "Gaia Project's extension
    points") stays consistent: a guest mine stands on another player's planet, of a player whose
    guest_mines is on, among that player's hexes; a station is on empty space, its own
    station_at; a locked track is locked only before the planetary institute."""
    v = g.state.values
    for key, p in v.items():
        if key[:2] == ("v", "guest_at") and p is not None:
            h = key[2]
            assert v.get(("v", "owner_at", h)) not in (None, p), (h, p)
            assert v.get(("v", "guest_mines", p)) and h in v.get(("v", "my_hexes", p), ()), (h, p)
    for p in range(g.players):
        for h in v.get(("v", "stations", p)) or ():
            assert g.get("planet", index=h) == "e" and g.get("station_at", index=h) == p, (h, p)
        if v.get(("v", "locked_tracks", p)):
            assert v.get(("v", "built", p, "pi"), 0) == 0, p


def bot_game(players, seed, factions=()):
    """Random legal moves to the end; ``factions`` forces the faction picks (seat order)."""
    g = boardrules.new_game(GAME, players=players, seed=seed)
    for i, f in enumerate(factions):
        g.play(f"p{i + 1} pick_faction {f}")
    rng = random.Random(seed)
    while not g.over:
        actions = list(g.legal_actions())
        assert actions, f"no legal action after {g.record.actions[-3:]}"
        g.play(rng.choice(actions))
        check_invariants(g)
    return g


def start(players=2, factions=("terrans", "hadsch_hallas"), seed=3):
    """A game after setup with the given factions (seat order), first legal placements."""
    g = boardrules.new_game(GAME, players=players, seed=seed)
    for i, f in enumerate(factions):
        g.play(f"p{i + 1} pick_faction {f}")
    while g.get("round") is None:
        g.play(next(iter(g.legal_actions())))
    return g


def home_mine(g, p):
    return var(g, "my_hexes", p)[0]


def free_hexes_near(g, h, d):
    layout = tuple(var(g, "map_layout"))
    return [x for x in _within(layout, h, d)
            if x != h and var(g, "owner_at", x) is None and var(g, "gf_at", x) is None]


# ---- bots play complete games --------------------------------------------------------------------

@pytest.mark.parametrize("players,seed", [(2, 0), (3, 0), (4, 0), (4, 1)])
def test_random_bots_finish(players, seed):
    g = bot_game(players, seed)
    assert g.get("round") == 6
    for p in range(players):
        assert g.scores()[p]["sources"]["start"] == 10


# every faction plays a whole game (one colour each per game: 4 games cover the 14)
FACTION_GAMES = [("terrans", "hadsch_hallas", "geodens", "xenos"),
                 ("lantids", "ivits", "baltaks", "gleens"),
                 ("taklons", "firaks", "nevlas", "terrans"),
                 ("ambas", "bescods", "itars", "lantids")]


@pytest.mark.parametrize("factions", FACTION_GAMES, ids=lambda fs: "-".join(fs))
def test_random_bots_finish_with_every_faction(factions):
    g = bot_game(len(factions), 7, factions)
    assert g.get("round") == 6
    assert [g.get("myfaction", p) for p in range(len(factions))] == list(factions)


def test_record_replays_to_same_state():
    g = bot_game(2, 5)
    again = boardrules.load_game(g.save())
    assert again.state == g.state


# ---- rules with concrete values ------------------------------------------------------------------

def test_setup_faction_start():
    g = boardrules.new_game(GAME, players=2, seed=3)
    g.play("p1 pick_faction geodens")
    g.play("p2 pick_faction terrans")
    # Geodens: terraforming 1 pays +2 ore (15/6/3/1); Terrans: bowls 4/4/0 and a Gaiaformer (§4)
    assert (res(g, "credits", 0), res(g, "ore", 0), res(g, "knowledge", 0), res(g, "qic", 0)) == (15, 6, 3, 1)
    assert g.get("terraforming", 0) == 1
    assert res(g, "gaiaformers", 1) == 1 and g.get("gaia", 1) == 1
    assert (res(g, "bowl1", 1), res(g, "bowl2", 1), res(g, "bowl3", 1)) == (4, 4, 0)
    # mines in snake order: p1, p2, p2, p1
    assert var(g, "mine_order") == (0, 1, 1, 0)
    while g.get("round") is None:
        g.play(next(iter(g.legal_actions())))
    assert len(var(g, "my_hexes", 0)) == len(var(g, "my_hexes", 1)) == 2
    assert [res(g, "vp", p) for p in range(2)] == [10, 10]


def test_mine_cost_home_planet_and_terraforming():
    for planet, ore_cost in (("r", 1), ("o", 1 + 3), ("v", 1 + 6), ("d", 1 + 9), ("i", 1 + 3)):
        g = start()
        h = free_hexes_near(g, home_mine(g, 0), 1)[0]
        patch(g, {("v", "planet", h): planet, ("r", "ore", 0): 15})
        before = (res(g, "credits", 0), res(g, "ore", 0), res(g, "qic", 0))
        g.play(f"p1 build_mine {h}")
        after = (res(g, "credits", 0), res(g, "ore", 0), res(g, "qic", 0))
        # mine 2c + 1o; terraforming 3 ore per step at level 0 (§2, §3)
        assert before[0] - after[0] == 2 and before[1] - after[1] == ore_cost and before[2] == after[2]
        assert var(g, "owner_at", h) == 0 and var(g, "bld", h) == "mine"


def test_mine_out_of_range_costs_qic():
    g = start()
    h = next(x for x in free_hexes_near(g, home_mine(g, 0), 3)
             if all(x not in _within(tuple(var(g, "map_layout")), m, 2) for m in var(g, "my_hexes", 0)))
    patch(g, {("v", "planet", h): "r", ("r", "qic", 0): 2})
    g.play(f"p1 build_mine {h}")
    assert res(g, "qic", 0) == 1   # distance 3 with range 1: one QIC adds 2


def test_trading_station_discount_near_opponent():
    g = start()
    h = home_mine(g, 0)
    hexes_of_others = [x for x in _within(tuple(var(g, "map_layout")), h, 2)
                              if var(g, "owner_at", x) not in (None, 0)]
    for x in hexes_of_others:  # nobody near: full price
        patch(g, {("v", "owner_at", x): None})
    base = (res(g, "credits", 0), res(g, "ore", 0))
    g.play(f"p1 upgrade {h} ts")
    assert (base[0] - res(g, "credits", 0), base[1] - res(g, "ore", 0)) == (6, 2)

    g = start()
    h = home_mine(g, 0)
    x = free_hexes_near(g, h, 2)[0]
    patch(g, {("v", "owner_at", x): 1, ("v", "bld", x): "mine", ("v", "pval", x): 1})
    base = (res(g, "credits", 0), res(g, "ore", 0))
    g.play(f"p1 upgrade {h} ts")
    assert (base[0] - res(g, "credits", 0), base[1] - res(g, "ore", 0)) == (3, 2)


def test_research_level_rewards():
    g = start()
    patch(g, {("r", "knowledge", 0): 15, ("r", "ore", 0): 0})
    g.play("p1 research terraforming")          # level 1: +2 ore, costs 4 knowledge
    assert (res(g, "ore", 0), res(g, "knowledge", 0)) == (2, 11)

    g = start()
    patch(g, {("r", "knowledge", 0): 4, ("t", "intelligence", 0): 2,
              ("r", "bowl1", 0): 2, ("r", "bowl2", 0): 4, ("r", "bowl3", 0): 0, ("r", "qic", 0): 0})
    g.play("p1 research intelligence")          # level 3: +2 QIC and charge 3 power
    assert res(g, "qic", 0) == 2
    assert (res(g, "bowl1", 0), res(g, "bowl2", 0), res(g, "bowl3", 0)) == (0, 5, 1)

    g = start()
    patch(g, {("r", "knowledge", 0): 4, ("t", "navigation", 0): 1})
    g.play("p1 research navigation")            # level 2: range 2
    assert g.get("navigation", 0) == 2

    # level 5 needs a green federation token, which is flipped
    g = start()
    patch(g, {("r", "knowledge", 0): 8, ("t", "science", 0): 4})
    assert "p1 research science" not in g.legal_actions()
    patch(g, {("r", "green_feds", 0): 1})
    g.play("p1 research science")
    assert res(g, "green_feds", 0) == 0 and res(g, "knowledge", 0) == 8 - 4 + 9


def test_power_charge_costs_vp():
    for vp, expect in ((10, 2), (0, 1)):
        g = start()
        h = free_hexes_near(g, home_mine(g, 0), 1)[0]
        layout = tuple(var(g, "map_layout"))
        # an opponent TS (power 2) at distance 2 of the new mine
        x = next(y for y in _within(layout, h, 2) if y not in _within(layout, h, 1)
                 and var(g, "owner_at", y) is None)
        for y in _within(layout, h, 2):
            if var(g, "owner_at", y) == 1:
                patch(g, {("v", "owner_at", y): None})
        patch(g, {("v", "planet", h): "r", ("v", "owner_at", x): 1, ("v", "bld", x): "ts",
                  ("v", "pval", x): 2, ("r", "vp", 1): vp, ("s", 1, "start"): vp,
                  ("r", "bowl1", 1): 2, ("r", "bowl2", 1): 4, ("r", "bowl3", 1): 0})
        g.play(f"p1 build_mine {h}")
        g.play("p1 done")
        d = g.state.pending[0]
        assert (d.player, d.label, d.options) == (1, "leech", (expect,))
        g.play(f"p2 leech {expect}")
        assert res(g, "vp", 1) == vp - (expect - 1)
        assert res(g, "bowl1", 1) == 2 - expect and res(g, "bowl2", 1) == 4 + expect
        check_invariants(g)


def _end_with_final_tile(g, tile, counts):
    """Jump to round 6, keep only final tile ``tile``, give each player ``counts`` structures."""
    hexes = list(var(g, "hexes"))
    changes = {("f", "round"): 6, ("v", "final_tiles"): (tile,)}
    for p, n in enumerate(counts):
        changes[("v", "my_hexes", p)] = tuple(hexes[10 * p:10 * p + n])
    patch(g, changes)
    while not g.over:
        if g.state.pending:
            d = g.state.pending[0]
            g.play(boardrules.Action(d.player, d.label, ()))
            continue
        (p,) = g.players_to_act()
        g.play(f"p{p + 1} pass_last")


def test_final_scoring_shares_ties():
    g = start(3, ("terrans", "hadsch_hallas", "geodens"))
    _end_with_final_tile(g, "structure", (3, 3, 1))
    got = [g.scores()[p]["sources"].get("structure", 0) for p in range(3)]
    assert got == [(18 + 12) // 2, (18 + 12) // 2, 6]


def test_final_scoring_neutral_player_in_two_player_games():
    g = start(2, ("terrans", "hadsch_hallas"))
    _end_with_final_tile(g, "structure", (11, 12))   # neutral counts 11
    got = [g.scores()[p]["sources"].get("structure", 0) for p in range(2)]
    assert got == [(12 + 6) // 2, 18]


def test_zero_count_scores_nothing():
    g = start(3, ("terrans", "hadsch_hallas", "geodens"))
    _end_with_final_tile(g, "structure", (2, 0, 0))
    assert [g.scores()[p]["sources"].get("structure", 0) for p in range(3)] == [18, 0, 0]


def pass_everyone(g):
    """Everyone passes (first booster on offer) until the next round's actions begin."""
    r = g.get("round")
    while g.get("round") == r and not g.over:
        if g.state.pending:
            d = g.state.pending[0]
            g.play(boardrules.Action(d.player, d.label, () if d.optional else (d.options[0],)))
            continue
        (p,) = g.players_to_act()
        g.play(next(a for a in g.legal_actions(p) if a.name in ("pass_round", "pass_last")))


def test_gaia_project_then_mine():
    g = start(2, ("terrans", "hadsch_hallas"))
    h = free_hexes_near(g, home_mine(g, 0), 1)[0]
    patch(g, {("v", "planet", h): "m", ("r", "bowl1", 0): 4, ("r", "bowl2", 0): 4,
              ("r", "bowl3", 0): 0})
    g.play(f"p1 gaia_project {h}")              # Gaia level 1: 6 tokens from bowls of one's choice
    d = g.state.pending[0]
    assert d.label == "bowls" and d.options[0] == (4, 2, 0) and (0, 4, 2) not in d.options
    assert set(d.options) == {(4, 2, 0), (3, 3, 0), (2, 4, 0)}
    g.play(boardrules.Action(0, "bowls", ((4, 2, 0),)))   # the engine's default: bowl I first
    assert (res(g, "bowl1", 0), res(g, "bowl2", 0), res(g, "gaia_power", 0)) == (0, 2, 6)
    assert res(g, "gaiaformers", 0) == 0 and var(g, "gf_at", h) == 0
    g.play("p1 done")
    pass_everyone(g)
    # Gaia phase: the transdim planet turned Gaia; Terrans' tokens return to bowl II
    assert var(g, "planet", h) == "g" and res(g, "gaia_power", 0) == 0
    first = g.state.values[("v", "turn_order")][0]
    if first != 0:
        g.play(next(a for a in g.legal_actions(first) if a.name == "pass_round"))
    qic = res(g, "qic", 0)
    g.play(f"p1 build_mine {h}")                # no QIC: the Gaiaformer was there
    assert res(g, "qic", 0) == qic and res(g, "gaiaformers", 0) == 1
    assert var(g, "bld", h) == "mine" and var(g, "gf_at", h) is None


def test_lab_takes_tech_tile_and_step():
    g = start()
    h = home_mine(g, 0)
    patch(g, {("v", "bld", h): "ts", ("v", "built", 0, "mine"): 1, ("v", "built", 0, "ts"): 1,
              ("r", "credits", 0): 20, ("r", "ore", 0): 10})
    g.play(f"p1 upgrade {h} lab")
    d = g.state.pending[0]
    assert d.label == "tile" and set(d.options) == set(var(g, "tech_slots"))
    tile = var(g, "tech_slots")[1]              # the tile under navigation
    g.play(boardrules.Action(0, "tile", (tile,)))
    d = g.state.pending[0]                      # the step on its track, optional (§6)
    assert d.label == "step_on" and d.options == ("navigation",) and d.optional
    g.play(boardrules.Action(0, "step_on", ("navigation",)))
    assert var(g, "has_tech", 0, tile) is True and g.get("navigation", 0) == 1


def test_pass_order_is_next_turn_order_and_boosters_swap():
    g = start(3, ("terrans", "hadsch_hallas", "geodens"))
    order = []
    while g.get("round") == 1:
        if g.state.pending:
            d = g.state.pending[0]
            g.play(boardrules.Action(d.player, d.label, ()))
            continue
        (p,) = g.players_to_act()
        old = next(b for b in var(g, "booster_pool") if g.state.values.get(("o", b)) == p)
        a = next(a for a in g.legal_actions(p) if a.name == "pass_round")
        g.play(a)
        order.append(p)
        assert g.state.values.get(("o", a.args[0])) == p and g.state.values.get(("o", old)) is None
    assert tuple(var(g, "turn_order")) == tuple(order)   # the next round goes in passing order


def test_federation_without_satellites():
    g = start()
    layout = tuple(var(g, "map_layout"))
    h = home_mine(g, 0)
    # a cluster of three adjacent planets of p1 with power 3 + 2 + 2 = 7
    a = free_hexes_near(g, h, 3)
    x = next(y for y in a if all(z not in _within(layout, y, 1) for z in var(g, "my_hexes", 0)))
    y, z = [n for n in _within(layout, x, 1) if n != x and var(g, "owner_at", n) is None][:2]
    changes = {}
    for hx, b, v in ((x, "pi", 3), (y, "ts", 2), (z, "lab", 2)):
        changes.update({("v", "planet", hx): "r", ("v", "owner_at", hx): 0, ("v", "bld", hx): b,
                        ("v", "pval", hx): v})
    changes[("v", "my_hexes", 0)] = var(g, "my_hexes", 0) + (x, y, z)
    patch(g, changes)
    fed = [act for act in g.legal_actions(0) if act.name == "form_federation"]
    assert fed, "a federation of power 7 should be possible"
    code = next(act.args[0] for act in fed if set(act.args[0].split(",")) == {x, y, z})
    tokens = sum(res(g, b, 0) for b in ("bowl1", "bowl2", "bowl3"))
    vp = res(g, "vp", 0)
    g.play(f"p1 form_federation {code}")
    d = g.state.pending[0]
    assert d.label == "fed_token" and "fed1" in d.options
    g.play(boardrules.Action(0, "fed_token", ("fed1",)))
    assert res(g, "vp", 0) >= vp + 12 and res(g, "fed_count", 0) == 1
    assert sum(res(g, b, 0) for b in ("bowl1", "bowl2", "bowl3")) == tokens   # no satellite


def test_navigation_five_places_the_lost_planet():
    g = start()
    patch(g, {("t", "navigation", 0): 4, ("r", "green_feds", 0): 1, ("r", "knowledge", 0): 4})
    g.play("p1 research navigation")
    d = g.state.pending[0]
    assert d.label == "lost_at" and d.options
    h = d.options[0]
    assert var(g, "planet", h) is None          # empty space
    g.play(boardrules.Action(0, "lost_at", (h,)))
    assert (var(g, "planet", h), var(g, "bld", h), var(g, "owner_at", h)) == ("l", "mine", 0)
    assert "l" in var(g, "ptypes", 0) and res(g, "green_feds", 0) == 0


def test_advanced_tile_covers_a_standard_one():
    g = start()
    h = home_mine(g, 0)
    adv = var(g, "adv_slots")[5]                # the advanced tile over science
    std = var(g, "tech_slots")[0]
    patch(g, {("v", "bld", h): "ts", ("v", "built", 0, "mine"): 1, ("v", "built", 0, "ts"): 1,
              ("r", "credits", 0): 20, ("r", "ore", 0): 10, ("t", "science", 0): 4,
              ("r", "green_feds", 0): 1, ("v", "has_tech", 0, std): True})
    g.play(f"p1 upgrade {h} lab")
    assert adv in g.state.pending[0].options
    g.play(boardrules.Action(0, "tile", (adv,)))
    d = g.state.pending[0]
    assert d.label == "cover" and d.options == (std,)
    g.play(boardrules.Action(0, "cover", (std,)))
    assert var(g, "covered", 0, std) is True and g.state.values.get(("o", adv)) == 0
    assert res(g, "green_feds", 0) == 0
