"""Gaia Project faction abilities with concrete values.

Rule values: shared/rules/gaia-project.md §4 (faction abilities), §2 (space stations), §7
(booster 5), §12.7 (Lost Planet) and the seed summary shared/seeds/002_*.txt (種族).
"""

from __future__ import annotations

import boardrules

from boardrules_gaia.primitives import _within

from .test_game import check_invariants, free_hexes_near, home_mine, patch, pass_everyone, res, var
from .test_game import start as _start


def start(players=2, factions=("terrans", "hadsch_hallas"), seed=3):
    """A game at its first action turn (pending income decisions take their first option)."""
    g = _start(players, factions, seed)
    while g.state.pending:
        d = g.state.pending[0]
        g.play(boardrules.Action(d.player, d.label, () if d.optional else (d.options[0],)))
    return g


def near_empty(g, h, d=1):
    return free_hexes_near(g, h, d)


def opponent_mine(g, h, owner, planet="o"):
    """Put a mine of ``owner`` on hex ``h`` (test position)."""
    return {("v", "planet", h): planet, ("v", "owner_at", h): owner, ("v", "bld", h): "mine",
            ("v", "pval", h): 1, ("v", "my_hexes", owner): var(g, "my_hexes", owner) + (h,)}


def bowls(g, p):
    return tuple(res(g, b, p) for b in ("bowl1", "bowl2", "bowl3"))


def decide(g, label, value, player=0):
    d = g.state.pending[0]
    assert (d.player, d.label) == (player, label), (d.player, d.label, d.options)
    g.play(boardrules.Action(player, label, (value,)))


# ---- Lantids ----------------------------------------------------------------------------------

def _lantids_position(pi=False):
    g = start(2, ("lantids", "hadsch_hallas"))
    h = near_empty(g, home_mine(g, 0))[0]
    changes = opponent_mine(g, h, 1, planet="v")     # volcanic: 3 steps from terra
    changes[("r", "ore", 0)] = 10
    if pi:
        changes[("v", "built", 0, "pi")] = 1
    patch(g, changes)
    return g, h


def test_lantids_mine_on_opponent_planet_pays_only_the_mine():
    g, h = _lantids_position()
    before = (res(g, "credits", 0), res(g, "ore", 0), res(g, "qic", 0), res(g, "knowledge", 0))
    types = var(g, "ptypes", 0)
    g.play(f"p1 build_mine {h}")
    after = (res(g, "credits", 0), res(g, "ore", 0), res(g, "qic", 0), res(g, "knowledge", 0))
    # 2c + 1o, no terraforming (volcanic would cost 9 ore), no knowledge without the PI
    assert (before[0] - after[0], before[1] - after[1], before[2] - after[2], after[3] - before[3]) == (2, 1, 0, 0)
    assert var(g, "guest_at", h) == 0 and var(g, "owner_at", h) == 1 and var(g, "bld", h) == "mine"
    assert h in var(g, "my_hexes", 0) and var(g, "built", 0, "mine") == 3
    assert var(g, "ptypes", 0) == types                 # not a planet type of theirs
    # the shared mine cannot be upgraded
    assert f"p1 upgrade {h} ts" not in g.legal_actions()
    g.play("p1 done")
    # the host is offered a power charge (distance 0)
    d = g.state.pending[0]
    assert (d.player, d.label) == (1, "leech")
    check_invariants(g)


def test_lantids_pi_gives_two_knowledge_per_shared_mine():
    g, h = _lantids_position(pi=True)
    k = res(g, "knowledge", 0)
    g.play(f"p1 build_mine {h}")
    assert res(g, "knowledge", 0) == k + 2


def test_lantids_shared_mine_is_no_gaia_planet_of_theirs():
    g, h = _lantids_position()
    patch(g, {("v", "planet", h): "g"})
    qic, vp = res(g, "qic", 0), res(g, "vp", 0)
    g.play(f"p1 build_mine {h}")
    assert res(g, "qic", 0) == qic and res(g, "vp", 0) == vp   # no Gaia cost, no Gaia triggers
    assert "g" not in var(g, "ptypes", 0)
    # Gaia planets count only where the planet is theirs: booster 10 on passing scores nothing
    patch(g, {("o", "booster10"): 0, ("v", "booster_pool", ): var(g, "booster_pool") + ("booster10",)})
    for b in var(g, "booster_pool"):
        if b != "booster10" and g.state.values.get(("o", b)) == 0:
            patch(g, {("o", b): None})
    g.play("p1 done")
    while g.state.pending:
        d = g.state.pending[0]
        g.play(boardrules.Action(d.player, d.label, ()))
    if 1 in g.players_to_act():
        g.play(next(a for a in g.legal_actions(1) if a.name == "pass_round"))
    vp = res(g, "vp", 0)
    g.play(next(a for a in g.legal_actions(0) if a.name == "pass_round"))
    assert res(g, "vp", 0) == vp


def test_lantids_cannot_share_their_own_planet_twice():
    g, h = _lantids_position()
    g.play(f"p1 build_mine {h}")
    g.play("p1 done")
    assert f"p1 build_mine {h}" not in g.legal_actions()


def test_lantids_shared_mine_takes_power_charges():
    g, h = _lantids_position()
    g.play(f"p1 build_mine {h}")
    g.play("p1 done")
    while g.state.pending:                          # the host declines
        d = g.state.pending[0]
        g.play(boardrules.Action(d.player, d.label, ()))
    # the host upgrades its mine under the Lantids mine: the Lantids may charge 1 (a mine)
    patch(g, {("r", "credits", 1): 20, ("r", "ore", 1): 10})
    g.play(f"p2 upgrade {h} ts")
    if not g.state.pending:
        g.play("p2 done")
    d = g.state.pending[0]
    assert (d.player, d.label, d.options) == (0, "leech", (1,))


# ---- Ivits --------------------------------------------------------------------------------------

def _ivits_cluster(g, p, power_bld=(("pi", 3), ("ts", 2), ("lab", 2))):
    """Three adjacent planets of p away from its structures; returns their hexes."""
    layout = tuple(var(g, "map_layout"))
    h = home_mine(g, p)
    a = free_hexes_near(g, h, 4)
    x = next(y for y in a if all(z not in _within(layout, y, 2) for z in var(g, "my_hexes", p))
             and len([n for n in _within(layout, y, 1) if n != y and var(g, "owner_at", n) is None]) >= 2)
    y, z = [n for n in _within(layout, x, 1) if n != x and var(g, "owner_at", n) is None][:2]
    changes = {}
    for hx, (b, v) in zip((x, y, z), power_bld):
        changes.update({("v", "planet", hx): "o", ("v", "owner_at", hx): p, ("v", "bld", hx): b,
                        ("v", "pval", hx): v})
    changes[("v", "my_hexes", p)] = var(g, "my_hexes", p) + (x, y, z)
    patch(g, changes)
    return x, y, z


def test_ivits_second_federation_needs_fourteen():
    g = start(2, ("ivits", "terrans"))
    x, y, z = _ivits_cluster(g, 0)
    assert var(g, "fed_grows", 0) is True and var(g, "sat_qic", 0) is True
    code = next(a.args[0] for a in g.legal_actions(0)
                if a.name == "form_federation" and {x, y, z} <= set(a.args[0].split(",")))
    g.play(f"p1 form_federation {code}")
    decide(g, "fed_token", "fed1")
    # 7 x (federations formed + 1)
    assert var(g, "fed_threshold", 0) == 14
    check_invariants(g)


def test_ivits_satellites_cost_qic():
    g = start(2, ("ivits", "terrans"))
    layout = tuple(var(g, "map_layout"))
    x, y, z = _ivits_cluster(g, 0, (("pi", 3), ("ts", 2), ("mine", 1)))
    # a lab two steps away from the cluster over empty space: one satellite joins it (power 8)
    far = next(w for w in free_hexes_near(g, z, 2) if w not in _within(layout, z, 1)
               and all(w not in _within(layout, m, 1) for m in (x, y))
               and all(var(g, "planet", n) is None for n in _within(layout, w, 1) if n != w
                       and n in _within(layout, z, 1)))
    patch(g, {("v", "planet", far): "o", ("v", "owner_at", far): 0, ("v", "bld", far): "lab",
              ("v", "pval", far): 2, ("v", "my_hexes", 0): var(g, "my_hexes", 0) + (far,),
              ("r", "qic", 0): 3})
    feds = [a.args[0] for a in g.legal_actions(0) if a.name == "form_federation"
            and far in a.args[0].split(",") and z in a.args[0].split(",")]
    assert feds
    tokens = bowls(g, 0)
    code = feds[0]
    sats = len(code.split(",")) - len([h for h in code.split(",") if var(g, "owner_at", h) == 0])
    g.play(f"p1 form_federation {code}")
    assert sats >= 1 and res(g, "qic", 0) == 3 - sats and bowls(g, 0) == tokens


def test_ivits_space_station():
    g = start(2, ("ivits", "terrans"))
    assert var(g, "built", 0, "pi") == 1           # placed at setup
    patch(g, {("v", "built", 0, "pi"): 0})
    assert "ivits_station" not in {a.name for a in g.legal_actions(0)}   # needs the PI
    patch(g, {("v", "built", 0, "pi"): 1, ("r", "qic", 0): 0})
    acts = [a for a in g.legal_actions(0) if a.name == "ivits_station"]
    assert acts
    layout = tuple(var(g, "map_layout"))

    def beyond(x):     # a free hex out of range 1 of the Ivits' planets
        return var(g, "owner_at", x) is None and all(x not in _within(layout, m, 1) for m in var(g, "my_hexes", 0))
    h = next(a.args[0] for a in acts if any(beyond(x) for x in _within(layout, a.args[0], 1)))
    g.play(f"p1 ivits_station {h}")
    assert var(g, "stations", 0) == (h,) and var(g, "station_at", h) == 0
    assert var(g, "pval", h) == 1 and h not in var(g, "my_hexes", 0)
    assert var(g, "special_used", 0) is True
    # not a structure: no power charge offers follow
    assert not g.state.pending
    g.play("p1 done")
    # a range source: a planet next to the station, out of reach of the planets, needs no QIC
    g.play(next(a for a in g.legal_actions(1) if a.name == "pass_round"))
    x = next(x for x in _within(layout, h, 1) if beyond(x))
    patch(g, {("v", "planet", x): "o"})
    qic = res(g, "qic", 0)
    g.play(f"p1 build_mine {x}")
    assert res(g, "qic", 0) == qic and var(g, "owner_at", x) == 0


def test_ivits_station_pays_its_range_and_is_listed_as_tried():
    """A station beyond the navigation range costs a QIC per 2 hexes (as reach(h, 0) counts
    them); its candidates, settled by their prechecks without a run (lang/guards.py, sure), are
    exactly those a full try accepts, with and without a station left."""
    g = start(2, ("ivits", "terrans"))
    patch(g, {("r", "qic", 0): 2})
    acts = [a for a in g.legal_actions(0) if a.name == "ivits_station"]
    tried = [a for a in g._legal_by_trying(0) if a.name == "ivits_station"]
    assert acts and acts == tried
    nav = [1, 1, 2, 2, 3, 4][g.state.values.get(("t", "navigation", 0), 0)]   # (research.rules' nav_range)
    d = {a.args[0]: distance_from(g, a.args[0]) for a in acts}
    h = max(d, key=d.get)
    assert d[h] > nav
    g.play(f"p1 ivits_station {h}")
    assert res(g, "qic", 0) == 2 - (d[h] - nav + 1) // 2
    patch(g, {("v", "special_used", 0): False, ("v", "station_limit"): 1})
    assert [a for a in g.legal_actions(0) if a.name == "ivits_station"] == [] \
        == [a for a in g._legal_by_trying(0) if a.name == "ivits_station"]


def distance_from(g, h):
    """The distance from ``h`` to the Ivits' (player 0's) planets and stations."""
    layout = tuple(var(g, "map_layout"))
    sources = list(var(g, "my_hexes", 0)) + list(var(g, "stations", 0, default=()))
    return min(next(d for d in range(20) if s in _within(layout, h, d)) for s in sources)


# ---- Taklons ------------------------------------------------------------------------------------

def test_taklons_start_with_the_brainstone_in_bowl_one():
    g = start(2, ("taklons", "terrans"))
    assert var(g, "brain", 0) == "area1" and bowls(g, 0) == (3, 4, 0)


def test_taklons_brainstone_spent_from_bowl_three_gives_three_power():
    g = start(2, ("taklons", "terrans"))
    patch(g, {("r", "bowl1", 0): 5, ("r", "bowl2", 0): 0, ("r", "bowl3", 0): 2,
              ("v", "brain", 0): "area3"})
    c = res(g, "credits", 0)
    g.play("p1 board power4")                       # 4 power: the brainstone (3) + 1 token
    # the spend could use the brainstone: asked, even as the only choice (cases/gaia random-2p-2002)
    d = g.state.pending[0]
    assert d.label == "brainstone" and d.options == ("area1",)
    g.play(boardrules.Action(0, "brainstone", ("area1",)))
    assert res(g, "credits", 0) == c + 7
    assert bowls(g, 0) == (7, 0, 0) and var(g, "brain", 0) == "area1"
    check_invariants(g)


def test_taklons_brainstone_kept_or_spent_is_a_decision():
    g = start(2, ("taklons", "terrans"))
    patch(g, {("r", "bowl1", 0): 2, ("r", "bowl2", 0): 0, ("r", "bowl3", 0): 5,
              ("v", "brain", 0): "area3"})
    g.play("p1 board power4")
    d = g.state.pending[0]
    assert d.label == "brainstone" and d.options == ("area1", "area3")   # default: spend it
    g.play(boardrules.Action(0, "brainstone", ("area3",)))    # keep it: 4 ordinary tokens
    assert bowls(g, 0) == (6, 0, 1) and var(g, "brain", 0) == "area3"


def test_taklons_brainstone_moves_with_a_partial_charge():
    g = start(2, ("taklons", "terrans"))
    patch(g, {("r", "bowl1", 0): 3, ("r", "bowl2", 0): 0, ("r", "bowl3", 0): 0,
              ("r", "knowledge", 0): 4, ("t", "economy", 0): 2})
    g.play("p1 research economy")                   # level 3: charge 3 power
    # 3 charges from 3/0/0: all 3 tokens I -> II, the brainstone with them (no decision)
    assert bowls(g, 0) == (0, 3, 0) and not g.state.pending and var(g, "brain", 0) == "area2"

    g = start(2, ("taklons", "terrans"))
    patch(g, {("r", "bowl1", 0): 3, ("r", "bowl2", 0): 1, ("r", "bowl3", 0): 0,
              ("r", "knowledge", 0): 4, ("t", "economy", 0): 2, ("v", "brain", 0): "area2"})
    g.play("p1 research economy")                   # 3 tokens I -> II; II keeps 4 tokens
    assert bowls(g, 0) == (0, 4, 0) and var(g, "brain", 0) == "area2" and not g.state.pending


def test_taklons_brainstone_choice_when_some_tokens_move():
    g = start(2, ("taklons", "terrans"))
    patch(g, {("r", "bowl1", 0): 3, ("r", "bowl2", 0): 0, ("r", "bowl3", 0): 0,
              ("r", "bowl1", 0): 5, ("r", "knowledge", 0): 4, ("t", "economy", 0): 2})
    g.play("p1 research economy")                   # 3 of the 5 tokens of bowl I move
    d = g.state.pending[0]
    assert d.label == "brainstone" and d.options == ("area2", "area1")   # default: it moves up
    g.play(boardrules.Action(0, "brainstone", ("area2",)))
    assert var(g, "brain", 0) == "area2" and bowls(g, 0) == (2, 3, 0)


def test_taklons_brainstone_counts_one_for_a_gaia_project():
    g = start(2, ("taklons", "terrans"))
    h = near_empty(g, home_mine(g, 0))[0]
    patch(g, {("v", "planet", h): "m", ("r", "gaiaformers", 0): 1,
              ("r", "bowl1", 0): 6, ("r", "bowl2", 0): 0, ("r", "bowl3", 0): 0})
    g.play(f"p1 gaia_project {h}")                  # 6 tokens: the whole bowl I, brainstone too
    d = g.state.pending[0]                          # asked with its only choice (random-4p-4032)
    assert d.label == "brainstone" and d.options == ("gaia",)
    g.play(boardrules.Action(0, "brainstone", ("gaia",)))
    assert var(g, "brain", 0) == "gaia" and res(g, "gaia_power", 0) == 6
    g.play("p1 done")
    pass_everyone(g)
    # back to bowl I in the Gaia phase
    assert var(g, "brain", 0) == "area1" and res(g, "gaia_power", 0) == 0


def test_taklons_brainstone_stays_or_goes_when_some_tokens_leave():
    g = start(2, ("taklons", "terrans"))
    h = near_empty(g, home_mine(g, 0))[0]
    patch(g, {("v", "planet", h): "m", ("r", "gaiaformers", 0): 1,
              ("r", "bowl1", 0): 7, ("r", "bowl2", 0): 0, ("r", "bowl3", 0): 0})
    g.play(f"p1 gaia_project {h}")                  # 6 of the 7 tokens of bowl I
    d = g.state.pending[0]
    assert d.label == "brainstone" and d.options == ("area1", "gaia")   # default: it stays
    assert var(g, "brain", 0) == "area1"
    g.play(boardrules.Action(0, "brainstone", ("gaia",)))
    assert var(g, "brain", 0) == "gaia" and bowls(g, 0) == (1, 0, 0) and res(g, "gaia_power", 0) == 6


def test_taklons_brainstone_asked_for_each_power_item_of_the_income():
    """Income items are applied one at a time in the owner's order (§12.2): each power item asks
    the brainstone question before the next item comes (cases/gaia random-4p-5025 move 27)."""
    g = start(2, ("taklons", "terrans"))
    # two power items: economy level 1 (+1pw) and tech5 (+1o +1pw); the booster passed with
    # (pass_everyone: the first on offer) brings none
    patch(g, {("r", "bowl1", 0): 9, ("r", "bowl2", 0): 0, ("r", "bowl3", 0): 0, ("t", "economy", 0): 1,
              ("v", "has_tech", 0, "tech5"): True})
    pass_everyone(g)
    assert not any(b in ("booster2", "booster5", "booster9") for b in var(g, "booster_pool")
                   if g.state.values.get(("o", b)) == 0)
    answers = []
    while g.state.pending and g.state.pending[0].player == 0:
        d = g.state.pending[0]
        assert d.label == "brainstone" and d.options == ("area2", "area1")
        answers.append(bowls(g, 0))
        g.play(boardrules.Action(0, "brainstone", ("area1",)))    # it stays in bowl I
    # one question per item, the second asked after the first item alone was charged
    assert answers == [(8, 1, 0), (7, 2, 0)]
    assert var(g, "brain", 0) == "area1" and bowls(g, 0) == (7, 2, 0)


def test_taklons_pi_leech_token_before_or_after():
    g = start(2, ("hadsch_hallas", "taklons"))
    h = near_empty(g, home_mine(g, 0))[0]
    layout = tuple(var(g, "map_layout"))
    x = next(y for y in _within(layout, h, 2) if y not in _within(layout, h, 1)
             and var(g, "owner_at", y) is None)
    for y in _within(layout, h, 2):
        if var(g, "owner_at", y) == 1:
            patch(g, {("v", "owner_at", y): None})
    patch(g, {("v", "planet", h): "o", ("v", "owner_at", x): 1, ("v", "bld", x): "ts",
              ("v", "pval", x): 2, ("v", "built", 1, "pi"): 1,
              ("r", "bowl1", 1): 0, ("r", "bowl2", 1): 0, ("r", "bowl3", 1): 7,
              ("v", "brain", 1): "area3"})
    g.play(f"p1 build_mine {h}")
    g.play("p1 done")
    d = g.state.pending[0]
    # nothing to charge after the token; 2 power with the token first (bowl I then II)
    assert (d.player, d.label) == (1, "leech") and set(d.options) == {(0, "1t"), ("1t", 2)}
    vp = res(g, "vp", 1)
    g.play(boardrules.Action(1, "leech", ((0, "1t"),)))   # accept a charge of nothing
    assert res(g, "vp", 1) == vp and bowls(g, 1) == (1, 0, 7)
    check_invariants(g)


def test_taklons_convenience_conversion_with_the_brainstone():
    g = start(2, ("taklons", "terrans"))
    patch(g, {("r", "bowl1", 0): 6, ("r", "bowl2", 0): 0, ("r", "bowl3", 0): 1,
              ("v", "brain", 0): "area3", ("r", "credits", 0): 0, ("r", "ore", 0): 0,
              ("r", "knowledge", 0): 0, ("r", "qic", 0): 0})
    g.play("p1 convert taklons_c")                  # 3pw -> 3c with the brainstone alone
    assert g.state.pending[0].options == ("area1",)  # asked, as the only choice
    g.play(boardrules.Action(0, "brainstone", ("area1",)))
    assert res(g, "credits", 0) == 3 and var(g, "brain", 0) == "area1"


def _final_vp(faction, changes):
    """VP of p1 (``faction``) from the end of game, everyone passing in round 6 with nothing."""
    g = start(2, (faction, "hadsch_hallas"))
    zero = {("r", r, 0): 0 for r in ("credits", "ore", "knowledge", "qic", "bowl1", "bowl2", "bowl3")}
    patch(g, {("f", "round"): 6, ("v", "final_tiles"): (), **zero, **changes})
    vp = res(g, "vp", 0)
    while not g.over:
        if g.state.pending:
            d = g.state.pending[0]
            g.play(boardrules.Action(d.player, d.label, ()))
            continue
        (p,) = g.players_to_act()
        g.play(f"p{p + 1} pass_last")
    research = sum(4 * max(0, (g.get(t, 0) or 0) - 2) for t in
                   ("terraforming", "navigation", "intelligence", "gaia", "economy", "science"))
    return res(g, "vp", 0) - vp - research, g


def test_final_leftover_power_brainstone_three_nevlas_pi_two():
    # one token in bowl III: 1 power (0 VP), 3 when it is the brainstone (1 VP)
    assert _final_vp("taklons", {("r", "bowl3", 0): 1, ("r", "bowl1", 0): 1, ("v", "brain", 0): "area1"})[0] == 0
    got, g = _final_vp("taklons", {("r", "bowl3", 0): 1, ("v", "brain", 0): "area3"})
    assert got == 1 and var(g, "brain", 0) == "area1"    # spent with bowl III
    # 2 tokens in bowl III and 2 in bowl II (burnt to one more): 3 power, Nevlas PI 6
    assert _final_vp("nevlas", {("r", "bowl3", 0): 2, ("r", "bowl2", 0): 2})[0] == 1
    assert _final_vp("nevlas", {("r", "bowl3", 0): 2, ("r", "bowl2", 0): 2, ("v", "built", 0, "pi"): 1})[0] == 2


# ---- Nevlas, Terrans, Bescods, Gleens -----------------------------------------------------------

def test_nevlas_pi_tokens_worth_two():
    g = start(2, ("nevlas", "terrans"))
    patch(g, {("r", "bowl1", 0): 2, ("r", "bowl2", 0): 0, ("r", "bowl3", 0): 4})
    assert "p1 board power1" not in g.legal_actions()      # 7 power from 4 tokens: needs the PI
    patch(g, {("v", "built", 0, "pi"): 1})
    k = res(g, "knowledge", 0)
    g.play("p1 board power1")                              # 4 tokens pay 8 >= 7
    assert res(g, "knowledge", 0) == k + 3 and bowls(g, 0) == (6, 0, 0)

    g = start(2, ("nevlas", "terrans"))
    patch(g, {("r", "bowl1", 0): 2, ("r", "bowl2", 0): 0, ("r", "bowl3", 0): 4,
              ("v", "built", 0, "pi"): 1})
    o, c = res(g, "ore", 0), res(g, "credits", 0)
    g.play("p1 convert nevlas_o")                          # 6pw -> 2o with 3 tokens
    g.play("p1 convert nevlas_c")                          # 2pw -> 2c with 1 token
    assert (res(g, "ore", 0) - o, res(g, "credits", 0) - c) == (2, 2) and bowls(g, 0) == (6, 0, 0)


def test_terrans_pi_converts_returning_gaia_tokens():
    g = start(2, ("terrans", "hadsch_hallas"))
    patch(g, {("r", "gaia_power", 0): 4, ("r", "bowl1", 0): 0, ("r", "bowl2", 0): 4,
              ("v", "built", 0, "pi"): 1, ("v", "built", 0, "mine"): 1})
    pass_until_gaia_decision(g)
    q = res(g, "qic", 0)
    d = g.state.pending[0]
    assert (d.player, d.label) == (0, "gaia_spend") and set(d.options) == {"1q", "1o", "1k", "1c"}
    g.play(boardrules.Action(0, "gaia_spend", ("1q",)))     # 4 tokens for 1 QIC
    assert res(g, "qic", 0) == q + 1 and res(g, "gaia_power", 0) == 0
    assert res(g, "bowl2", 0) >= 4                  # the tokens still return to bowl II
    assert not any(p.label == "gaia_spend" for p in g.state.pending)


def pass_until_gaia_decision(g):
    r = g.get("round")
    while g.get("round") == r:
        if g.state.pending:
            d = g.state.pending[0]
            g.play(boardrules.Action(d.player, d.label, () if d.optional else (d.options[0],)))
            continue
        (p,) = g.players_to_act()
        g.play(next(a for a in g.legal_actions(p) if a.name in ("pass_round", "pass_last")))
    while g.state.pending and g.state.pending[0].label != "gaia_spend":
        d = g.state.pending[0]
        g.play(boardrules.Action(d.player, d.label, () if d.optional else (d.options[0],)))


def test_bescods_pi_adds_power_on_titanium():
    g = start(2, ("bescods", "terrans"))
    h = home_mine(g, 0)                         # a titanium mine
    assert var(g, "pval", h) == 1
    # Bescods: TS -> PI is not their path (lab -> PI)
    patch(g, {("v", "bld", h): "lab", ("v", "pval", h): 2, ("v", "built", 0, "mine"): 1,
              ("v", "built", 0, "lab"): 1, ("r", "credits", 0): 20, ("r", "ore", 0): 10})
    g.play(f"p1 upgrade {h} pi")
    assert var(g, "pval", h) == 3 + 1
    other = var(g, "my_hexes", 0)[1]
    assert var(g, "pval", other) == 1 + 1      # the other titanium mine too


def test_gleens_gain_ore_instead_of_qic_until_the_qic_academy():
    g = start(2, ("gleens", "terrans"))
    patch(g, {("r", "knowledge", 0): 8, ("r", "ore", 0): 5})
    assert res(g, "qic", 0) == 0
    g.play("p1 research intelligence")           # level 1: 1 QIC -> 1 ore
    assert (res(g, "ore", 0), res(g, "qic", 0)) == (6, 0)
    g = start(2, ("gleens", "terrans"))
    patch(g, {("r", "knowledge", 0): 8, ("r", "ore", 0): 5, ("v", "built", 0, "ac2"): 1})
    g.play("p1 research intelligence")
    assert (res(g, "ore", 0), res(g, "qic", 0)) == (5, 1)


# ---- booster 5 and the Lost Planet --------------------------------------------------------------

def test_booster5_starts_a_gaia_project_with_range_three():
    g = start(2, ("terrans", "hadsch_hallas"))
    layout = tuple(var(g, "map_layout"))
    h = next(x for x in free_hexes_near(g, home_mine(g, 0), 3)
             if all(x not in _within(layout, m, 2) for m in var(g, "my_hexes", 0)))
    patch(g, {("v", "planet", h): "m", ("o", "booster5"): 0, ("r", "qic", 0): 0,
              ("r", "bowl1", 0): 6, ("r", "bowl2", 0): 0, ("r", "bowl3", 0): 0})
    for b in var(g, "booster_pool"):
        if b != "booster5" and g.state.values.get(("o", b)) == 0:
            patch(g, {("o", b): None})
    g.play(f"p1 booster_gaia_project {h}")         # distance 3 with range 1 + 3: no QIC
    assert var(g, "gf_at", h) == 0 and res(g, "gaia_power", 0) == 6 and res(g, "qic", 0) == 0


def test_lost_planet_may_use_qic_for_range():
    g = start()
    patch(g, {("t", "navigation", 0): 4, ("r", "green_feds", 0): 1, ("r", "knowledge", 0): 4,
              ("r", "qic", 0): 1})
    g.play("p1 research navigation")
    d = g.state.pending[0]
    assert d.label == "lost_at"
    layout = tuple(var(g, "map_layout"))
    far = [h for h in d.options
           if all(h not in _within(layout, m, 4) for m in var(g, "my_hexes", 0))]
    assert far                                    # range 4 + 2 for the QIC
    g.play(boardrules.Action(0, "lost_at", (far[0],)))
    assert res(g, "qic", 0) == 0 and var(g, "planet", far[0]) == "l"


# ---- burning (§9; Itars §4) ----------------------------------------------------------------------

def test_burnt_token_leaves_the_game_except_for_itars():
    """Burning removes a bowl-II token from the game; the Itars' goes to the Gaia area (§4)."""
    for faction in ("terrans", "itars"):
        g = start(2, (faction, "hadsch_hallas"))
        b1, b2, b3 = bowls(g, 0)
        assert b2 >= 2
        before = (res(g, "gaia_power", 0), res(g, "tokens_removed", 0))
        g.play(boardrules.Action(0, "convert", ("burn",)))
        assert bowls(g, 0) == (b1, b2 - 2, b3 + 1)
        to_gaia = 1 if faction == "itars" else 0
        assert (res(g, "gaia_power", 0), res(g, "tokens_removed", 0)) == \
            (before[0] + to_gaia, before[1] + 1 - to_gaia), faction
        check_invariants(g)


# ---- the faction board's income tracks and upgrade paths (§2; Bescods, Nevlas §4) --------------

def _income_with(faction, built):
    """Credits, knowledge and bowls a round's income brings with ``built`` TS/labs more."""
    g = start(2, (faction, "hadsch_hallas"))
    patch(g, {("v", "built", 0, b): n for b, n in built.items()})
    pass_everyone(g)
    return res(g, "credits", 0), res(g, "knowledge", 0), bowls(g, 0)


def test_trading_station_and_lab_income_come_from_the_faction_board():
    for faction, ts2, lab2 in (("terrans", (7, 0), (0, 2)), ("bescods", (0, 2), (7, 0)),
                               ("nevlas", (7, 0), (0, 0))):
        c0, k0, b0 = _income_with(faction, {})
        c, k, b = _income_with(faction, {"ts": 2})
        assert (c - c0, k - k0) == ts2, faction
        c, k, b = _income_with(faction, {"lab": 2})
        assert (c - c0, k - k0) == lab2, faction
        assert (b != b0) == (faction == "nevlas"), faction     # Nevlas labs: 2 power each


def test_bescods_upgrade_a_trading_station_to_an_academy_not_a_pi():
    for faction, options in (("terrans", {"lab", "pi"}), ("bescods", {"lab", "ac1", "ac2"})):
        g = start(2, (faction, "hadsch_hallas"))
        h = home_mine(g, 0)
        patch(g, {("v", "bld", h): "ts", ("v", "pval", h): 2, ("v", "built", 0, "mine"): 1,
                  ("v", "built", 0, "ts"): 1, ("r", "credits", 0): 30, ("r", "ore", 0): 20,
                  ("r", "knowledge", 0): 0})
        assert {a.args[1] for a in g.legal_actions(0) if a.name == "upgrade" and a.args[0] == h} \
            == options, faction
