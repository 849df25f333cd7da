"""Rise of the Ancients, rare technologies (``-m rare-technologies``): the seed's rules for the
ten tiles, their effects in play battles and in the odds calculator, and random games."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import boardrules
from boardrules import Action, IllegalActionError
from boardrules.runtime import Context
from boardrules_eclipse import combat as C
from boardrules_eclipse.primitives import move_options, ship_type
from boardrules_eclipse.battle import _fleet
from tests.eclipse.test_combat_play import FAR, NEAR, _end_actions, _stage, attacker_win_rate
from tests.eclipse.test_edge_cases import HOME, _set
from tests.eclipse.test_invariants import check_invariants

from .common import SETTINGS, play_random

RARE = {  # tile: (cost, minimum) [P TT; AID; D PE]
    "tech_antimatter_splitter": (5, 5), "tech_neutron_absorber": (5, 5),
    "tech_distortion_shield": (7, 6), "tech_cloaking_device": (7, 6),
    "tech_point_defense": (11, 8), "tech_conifold_field": (5, 5), "tech_sentient_hull": (5, 5),
    "tech_interceptor_bay": (9, 7), "tech_flux_missile": (11, 8), "tech_zero_point_source": (15, 10),
}
CHANCE = -1


def _start_tiles(g, p) -> tuple:
    """The technologies ``p``'s species board starts with (new species: a rare one)."""
    sp = g.get("species_of", p)
    return g.ruleset.entities[sp].fields["start_techs"] if sp else ()


def rare_invariant(g) -> None:
    """At most one copy of each rare technology is owned, and each is in one place only (the
    bag, beside the supply, one player's rows, or the box under the cap); the tiles drawn aside
    are public (every player's view shows them); a rare tile owned sits on one of the three
    rows; nothing rare is in the regular supply."""
    owned = [t for p in range(g.players) for t in g.get("techs", p) if t in RARE
             and t not in _start_tiles(g, p)]     # a species' start tile is an extra copy [S]
    places = owned + [t for t in g.get("tech_bag") + g.get("tech_aside") + g.get("rare_box") if t in RARE]
    assert len(owned) == len(set(owned)), owned
    assert len(places) == len(set(places)), places
    if g.get("tech_market"):
        assert len(places) == (g.ruleset.option("rare_tech_cap") or 10) + len(g.get("rare_box"))
    assert not set(g.get("tech_market")) & set(RARE)
    for p in range(g.players):
        view = g.view(p)["values"]
        assert view.get(("v", "tech_aside"), ()) == g.get("tech_aside")
        if g.get("rare_box"):                    # the box under the cap stays hidden
            assert view[("v", "rare_box")] == ("hidden", len(g.get("rare_box")))
        for t in g.get("techs", p):
            if t in RARE:
                assert g.get("placed_row", p, index=t) in ("military", "grid", "nano")


def _start(players=2, seed=3, options=None, rules=()):
    g = boardrules.new_game("eclipse", players=players, seed=seed, modules=["rare-technologies"],
                            options=options or {}, rules=rules)
    for p in range(players, 0, -1):
        g.play(f"p{p} pick_species terrans")
    return g


def _aside(g, *tiles, **changes):
    """Put ``tiles`` beside the supply (taken out of the bag) and apply ``changes`` (_set)."""
    bag = list(g.get("tech_bag")) + [t for t in g.get("tech_aside") if t not in tiles]
    _set(g, v__tech_aside=tiles, v__tech_bag=tuple(t for t in bag if t not in tiles), **changes)


def _give(g, p, *tiles, **changes):
    """Player ``p`` owns ``tiles`` (besides their non-rare technologies), taken from wherever
    they were (bag, beside the supply, another player); then ``changes`` (_set)."""
    rare = [t for t in tiles if t in RARE]
    st = {f"v__techs__{p}": tuple(t for t in g.get("techs", p) if t not in RARE and t not in tiles) + tuple(tiles)}
    for q in range(g.players):
        if q != p:
            st[f"v__techs__{q}"] = tuple(t for t in g.get("techs", q) if t not in rare)
    for pile in ("tech_bag", "tech_aside", "rare_box"):
        st[f"v__{pile}"] = tuple(t for t in g.get(pile) if t not in rare)
    for t in rare:
        st[f"v__placed_row__{p}__{t}"] = "military"
    _set(g, **st, **changes)


def _ctx(g, me=0):
    return Context(g.ruleset, g.state.values, me=me)


# ---- the bag, the draw, buying ------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 4, 6])
def test_rare_tiles_are_drawn_aside_without_counting(players):
    """Seed: every rare tile goes into the bag; drawn at setup it is put beside the supply and
    does not count toward the number drawn (the supply still gets its full count)."""
    for seed in range(6):
        g = _start(players, seed)
        start = g.get("techs_at_start")[players]
        assert len(g.get("tech_market")) == start
        assert not set(g.get("tech_market")) & set(RARE)
        aside = g.get("tech_aside")
        assert set(aside) <= set(RARE) and len(aside) == len(set(aside))
        assert sorted(t for t in g.get("tech_bag") if t in RARE) == sorted(set(RARE) - set(aside))
        rare_invariant(g)
    base = boardrules.new_game("eclipse", players=2, seed=3)
    for p in (2, 1):
        base.play(f"p{p} pick_species terrans")
    assert not base.get("tech_aside") and not set(base.get("tech_bag")) & set(RARE)


def test_the_cap_option_puts_only_that_many_in_the_bag():
    """eclipse-rota.md §2: the cap is not in the seed (off by default: all ten); as an option
    it puts that many random rare tiles into the bag, the rest stay in the box."""
    g = _start(options={"rare_tech_cap": 4})
    in_play = [t for t in g.get("tech_bag") + g.get("tech_aside") if t in RARE]
    assert len(in_play) == 4 and len(g.get("rare_box")) == 6
    rare_invariant(g)
    g = _start()
    assert len([t for t in g.get("tech_bag") + g.get("tech_aside") if t in RARE]) == 10
    with pytest.raises(Exception, match="rare_tech_cap"):
        _start(options={"rare_tech_cap": 11})


def test_a_rare_tile_goes_on_any_row_with_its_discount_and_takes_the_space():
    """Seed: bought with a Research action instead of a regular tile, on any row, with that
    row's discount; it occupies the space, so later discounts and row VP count it."""
    g = _start()
    _aside(g, "tech_point_defense", r__science__0=20,
         v__techs__0=("tech_starbase", "tech_gauss_shield", "tech_improved_hull"))
    g.play("p1 research_rare")
    assert set(g.state.pending[0].options) == {"tech_point_defense"}
    g.play("p1 rare tech_point_defense")
    assert set(g.state.pending[0].options) == {"military", "grid", "nano"}
    g.play("p1 row grid")                       # 2 grid tiles: discount 2 -> 11 - 2 = 9
    assert g.get("science", 0) == 20 - 9
    assert g.get("tech_aside") == () and "tech_point_defense" in g.get("techs", 0)
    assert g.get("placed_row", 0, index="tech_point_defense") == "grid"
    assert g.get("current_action", 0) == "research" and g.get("action_discs", 0) == 1
    rare_invariant(g)
    # it takes a grid space: a grid tile now gets the discount of three tiles (3): 8 - 3 = 5
    g.play("p1 done")
    g.play("p2 pass_turn")
    _set(g, v__tech_market=("tech_positron_computer",), r__science__0=5)
    g.play("p1 research")
    g.play("p1 tile tech_positron_computer")
    assert g.get("science", 0) == 0
    # row VP: four grid tiles with the rare one [S boards: 4 tiles 1 VP]
    _set(g, v__techs__0=("tech_gauss_shield", "tech_improved_hull", "tech_fusion_source", "tech_point_defense"))
    assert _score_techs(g) == g.get("tech_row_vp")[4]
    _set(g, **{"v__placed_row__0__tech_point_defense": "nano"})
    assert _score_techs(g) == g.get("tech_row_vp")[3]


def _score_techs(g) -> int:
    """p1's VP for technology rows (the rules' score_techs, run on a scratch context)."""
    from boardrules.lang.semantics import run_slot
    ctx = _ctx(g)
    run_slot(ctx, "score_techs", "score", 0)
    return ctx.merged().get(("r", "vp", 0), 0) - g.get("vp", 0)


def test_the_discount_never_goes_below_the_minimum_and_full_rows_are_refused():
    g = _start()
    nano = ("tech_nanorobots", "tech_fusion_drive", "tech_advanced_robotics", "tech_orbital",
            "tech_advanced_labs", "tech_monolith", "tech_artifact_key")
    _aside(g, "tech_zero_point_source", r__science__0=14, v__techs__0=("tech_starbase",) + nano)
    g.play("p1 research_rare")
    g.play("p1 rare tech_zero_point_source")
    # nano is full (7 spaces); military (one tile, discount 1) costs 14; grid (none) 15 > 14
    assert set(g.state.pending[0].options) == {"military"}
    g.play("p1 row military")
    assert g.get("science", 0) == 0
    g = _start()
    mil = ("tech_neutron_bombs", "tech_starbase", "tech_plasma_cannon", "tech_phase_shield",
           "tech_advanced_mining", "tech_tachyon_source")
    _aside(g, "tech_antimatter_splitter", r__science__0=5, v__techs__0=mil)
    g.play("p1 research_rare")
    g.play("p1 rare tech_antimatter_splitter")
    g.play("p1 row military")                 # discount 8 for six tiles, but never below 5
    assert g.get("science", 0) == 0
    rare_invariant(g)


def test_unaffordable_rare_tiles_are_refused_state_unchanged():
    g = _start()
    _aside(g, "tech_flux_missile", r__science__0=7)   # min 8
    before = g.state
    with pytest.raises(IllegalActionError, match="no rare technology beside the supply is affordable"):
        g.play("p1 research_rare")
    assert g.state == before
    with pytest.raises(IllegalActionError, match="no activation of a Research action is left"):
        g.play("p1 again_rare")
    assert g.state == before


def test_a_later_activation_of_the_research_action_may_buy_a_rare_tile():
    """Seed: a rare tile instead of a regular one, so any activation of a Research action may
    buy one."""
    g = _start()
    _aside(g, "tech_sentient_hull", v__tech_market=("tech_gauss_shield",),
         r__science__0=20)
    g.play("p1 research")
    g.play("p1 tile tech_gauss_shield")
    _set(g, v__acts_left__0=1)                 # a species with two research activations
    g.play("p1 again_rare")
    g.play("p1 rare tech_sentient_hull")
    g.play("p1 row nano")
    assert g.get("techs", 0)[-2:] == ("tech_gauss_shield", "tech_sentient_hull")
    assert g.get("science", 0) == 20 - 2 - 5


def test_the_ancient_technology_discovery_never_takes_a_rare_tile():
    """Seed: the Ancient Technology discovery may not take a rare tile, however cheap."""
    g = _start()
    _stage(g, NEAR, "s106")
    _aside(g, "tech_antimatter_splitter", **{f"v__discovery_at__{NEAR}": True},
           v__discovery_bag=("find_tech",), v__tech_market=("tech_plasma_cannon",))
    g.play("p1 influence")
    g.play(f"p1 target {NEAR}")
    g.play("p1 use true")
    d = g.state.pending[0]
    assert d.label == "tile" and set(d.options) == {"tech_plasma_cannon"}


# ---- the parts --------------------------------------------------------------------------------------

def test_the_five_parts_and_their_statistics():
    """Seed: Conifold Field +3 hull (2 energy), Sentient Hull +1 computer +1 hull, Interceptor
    Bay (+1 hull, 2 energy [P TT; D J, PE]), Flux Missile two ion missiles +2 initiative,
    Zero-Point Source +12 energy; each only with its technology."""
    g = _start()
    offered = lambda: {a.args[0] for a in g.legal_actions() if a.name == "install"}  # noqa: E731
    g.play("p1 upgrade")
    rare_parts = ("conifold_field", "sentient_hull", "interceptor_bay", "flux_missile", "zero_point_source")
    assert not any(o.endswith(f"={p}") for o in offered() for p in rare_parts)
    g.undo()
    _set(g, v__techs__0=("tech_starbase",) + tuple(t for t in RARE if t not in ("tech_cloaking_device",)),
         v__blueprint__0__cruiser=("ion_cannon", "hull", "electron_computer", "zero_point_source", "nuclear_drive", "empty"),
         v__blueprint__0__interceptor=("ion_cannon", "zero_point_source", "nuclear_drive", "empty"))
    g.play("p1 upgrade")
    assert all(f"cruiser#5={p}" in offered() for p in rare_parts)
    # Interceptors cannot mount an Interceptor Bay [S] (energy would allow it)
    assert "interceptor#3=interceptor_bay" not in offered() and "interceptor#3=conifold_field" in offered()
    g.undo()
    _set(g, v__blueprint__0__cruiser=("ion_cannon", "hull", "electron_computer", "nuclear_source", "nuclear_drive", "empty"))
    ctx = _ctx(g)
    base = ship_type(ctx, 0, "cruiser")
    stats = {}
    for part in rare_parts:
        bp = list(g.get("blueprint", 0, index="cruiser"))
        bp[5] = part
        _set(g, v__blueprint__0__cruiser=tuple(bp))
        t = ship_type(_ctx(g), 0, "cruiser")
        stats[part] = (t.hull - base.hull, t.computer - base.computer, t.initiative - base.initiative, t.missiles)
    assert stats == {"conifold_field": (3, 0, 0, ()), "sentient_hull": (1, 1, 0, ()),
                     "interceptor_bay": (1, 0, 0, ()), "flux_missile": (0, 0, 2, (1, 1)),
                     "zero_point_source": (0, 0, 0, ())}
    energy = {p: g.ruleset.entities[p].fields["energy"] for p in rare_parts}
    assert energy == {"conifold_field": -2, "sentient_hull": 0, "interceptor_bay": -2,
                      "flux_missile": 0, "zero_point_source": 12}


# ---- combat effects: data the base reads -----------------------------------------------------------

def test_splitter_distortion_and_point_defense_reach_play_battles():
    """Seed: Antimatter Splitter, Distortion Shield and Point Defense are side effects of
    their owner's fleets (combat.py's flags); the other rare tiles set none."""
    g = _start()
    _stage(g, FAR, "s303", ships=[(0, "cruiser"), (1, "interceptor")])
    for tile, flag in (("tech_antimatter_splitter", "antimatter_splitter"),
                       ("tech_distortion_shield", "distortion_shield"),
                       ("tech_point_defense", "point_defense")):
        _give(g, 0, tile)
        mine, theirs = _fleet(_ctx(g), FAR, 0), _fleet(_ctx(g), FAR, 1)
        flags = {f for f in ("antimatter_splitter", "distortion_shield", "point_defense") if getattr(mine, f)}
        assert flags == {flag}
        assert not any(getattr(theirs, f) for f in flags)
    _give(g, 0, "tech_cloaking_device", "tech_neutron_absorber", "tech_flux_missile")
    mine = _fleet(_ctx(g), FAR, 0)
    assert not (mine.antimatter_splitter or mine.distortion_shield or mine.point_defense)


def test_cloaking_device_needs_two_ships_to_pin_each():
    """Seed: opponents need two ships to pin each of your ships."""
    g = _start()
    _stage(g, NEAR, "s301", ships=[(0, "interceptor"), (0, "interceptor"), (1, "interceptor"), (1, "interceptor")])
    leave = lambda: {m for m in move_options.fn(_ctx(g)) if m.startswith(f"interceptor@{NEAR}>")}  # noqa: E731
    assert not leave()                                   # 2 enemies pin both
    _give(g, 0, "tech_cloaking_device")
    assert leave()                                       # 2 // 2 = 1 pinned, one may go


def test_neutron_absorber_stops_neutron_bombs_but_not_weak_population():
    """Seed: enemy Neutron Bombs do not affect you (your cubes are attacked with dice as
    usual); it does not cancel the Planta's population weakness."""
    def bombardment(absorber=False, planta=False):
        """After combat: ``"rolls"`` when the bombardment rolls, else the cubes left."""
        g = _start()
        _stage(g, FAR, "s303", ships=[(0, "interceptor")], controller=1, cubes=("0:money",))
        _give(g, 0, "tech_neutron_bombs")
        if absorber:
            _give(g, 1, "tech_neutron_absorber")
        if planta:
            _set(g, v__species_of__1="planta")
        g.auto_chance = False
        _end_actions(g)
        d = g.state.pending[0]
        return "rolls" if d.label == "rolls" else g.get("cubes", index=FAR)
    assert bombardment() == ()                           # every cube dies without a roll
    assert bombardment(absorber=True) == "rolls"         # the interceptor's ion cannon rolls
    assert bombardment(absorber=True, planta=True) == () # weak population: still all die


# ---- point defense, played --------------------------------------------------------------------------

def _missile_battle(g, missiles=("flux_missile", "flux_missile")):
    """p1's cruiser with two Flux Missiles (4 ion missiles, initiative 2+...) attacks p2's
    interceptor and cruiser; p2 has Point Defense."""
    bp = ("ion_cannon", "hull") + tuple(missiles) + ("nuclear_source", "nuclear_drive")
    _give(g, 1, "tech_point_defense")
    _give(g, 0, "tech_flux_missile", v__blueprint__0__cruiser=bp)
    _stage(g, FAR, "s303", ships=[(1, "interceptor"), (1, "cruiser"), (0, "cruiser")])


def _roll(g, faces):
    d = g.state.pending[0]
    assert (d.player, d.label) == (CHANCE, "rolls"), d
    g.play(Action(CHANCE, "rolls", (tuple(faces),)))


def test_point_defense_fires_at_placed_missiles_and_the_defender_picks():
    """Seed: after the opponent has rolled and assigned one ship type's missiles, all your
    cannons fire once at them; each hit destroys a missile; computers apply, shields do not."""
    g = _start()
    g.auto_chance = False
    _missile_battle(g)
    _end_actions(g)
    _roll(g, (6, 6, 6, 1))                  # p1's four ion missiles: three hit
    placed = []
    for _ in range(3):                      # p1 places them, ship by ship
        d = g.state.pending[0]
        assert (d.player, d.label) == (0, "hit")
        placed.append(set(d.options))
        g.play(Action(0, "hit", (d.options[0] if len(placed) < 3 else d.options[-1],)))
    assert placed[0] == {"interceptor:0", "cruiser:0"}
    assert "cruiser:0+1" in placed[1] or "interceptor:0+1" in placed[1]
    # point defense: p2's interceptor and cruiser each fire their one ion cannon (computer 0 and
    # +1): two dice; a 5 hits only with the cruiser's computer
    d = g.state.pending[0]
    assert (d.player, d.label) == (CHANCE, "rolls") and d.options.count == 2
    battle = dict(g.get("battle"))
    assert battle["pd"] == "roll" and sum(len(hs) for ships in battle["placement"] for _, hs in ships) == 3
    _roll(g, (1, 6))                        # one missile destroyed, p2's choice
    d = g.state.pending[0]
    assert (d.player, d.label) == (1, "missile")
    before = dict(g.get("battle"))["state"]
    assert before[1] == ((0,), (0,))        # nothing has landed yet
    g.play(Action(1, "missile", (d.options[0],)))
    after = dict(g.get("battle"))
    assert after.get("pd") is None and after["placement"] is None
    damage = sum(sum(ds) for ds in after["state"][1]) + sum(
        (t.hull + 1) * (k - len(ds)) for (t, k), ds in zip(_fleet(_ctx(g), FAR, 1).ships, after["state"][1]))
    assert damage == 2                      # three placed, one destroyed
    rare_invariant(g)


def _damage(g, side=1) -> int:
    """Damage dealt so far to one side of the battle (a destroyed ship counts hull + 1)."""
    from boardrules_eclipse.battle import _engine
    b = dict(g.get("battle"))
    return _engine(_ctx(g), b).side_progress(side, b["state"][side])


def test_point_defense_policy_with_auto_combat_and_shields_do_not_count():
    """With ``auto_combat`` the fixed rule destroys missiles (the largest first). Computers
    apply to point-defense dice, the missile owner's shields do not [S seed]."""
    for faces, landed in (((5, 1), 2), ((1, 5), 1), ((6, 6), 0)):
        g = _start(options={"auto_combat": True})
        g.auto_chance = False
        _missile_battle(g, ("flux_missile", "gauss_shield"))       # a shielded attacker
        _give(g, 0, "tech_flux_missile", "tech_gauss_shield")
        _end_actions(g)
        _roll(g, (6, 6))                     # both ion missiles hit: placed by the policy
        assert g.state.pending[0].options.count == 2   # both defenders' cannons fire at them
        # the interceptor (computer 0) needs a 6; the cruiser (+1) a 5, shield or not
        _roll(g, faces)
        assert _damage(g) == landed, faces


@pytest.mark.parametrize("auto", [True, False])
def test_missiles_that_get_past_point_defense_earn_kill_draws(auto):
    """A ship destroyed by missiles that land after point defense counts like any destroyed
    ship for the battle's reputation draws: one for taking part, plus the class's draws per
    ship destroyed (interceptor 1, cruiser 2) [S rules p.21 via BGG; seed, rare technologies]."""
    g = _start(options={"auto_combat": auto})
    g.auto_chance = False
    _missile_battle(g)
    _end_actions(g)
    _roll(g, (6, 6, 6, 6))                  # p1's four ion missiles all hit
    while not auto and g.state.pending[0].label == "hit":   # two on each of p2's ships
        d = g.state.pending[0]
        g.play(Action(0, "hit", (next(o for o in d.options if not o.endswith("+1+1")),)))
    _roll(g, (1, 1))                        # point defense misses: all four land
    assert not any(s[0] == 1 for s in g.get("ships", index=FAR))     # both p2 ships destroyed
    assert g.get("rep_owed", 0) == (1 + 1 + 2,)
    assert g.get("rep_owed", 1) == (1,)


# ---- the Interceptor Bay ----------------------------------------------------------------------------

def _bay_game(enemies=0):
    g = _start()
    _stage(g, NEAR, "s301")
    _give(g, 0, "tech_interceptor_bay", "tech_zero_point_source",
          v__blueprint__0__cruiser=("ion_cannon", "hull", "electron_computer", "zero_point_source",
                                    "nuclear_drive", "interceptor_bay"),
          **{f"v__ships__{HOME}": ((0, "cruiser"),) + ((0, "interceptor"),) * 3 + ((1, "interceptor"),) * enemies})
    return g


CENTER = "0,0"      # the galactic center, next to NEAR


def _aboard(g, p=0) -> dict:
    """``{(hex, carrying class): interceptors aboard}`` of player ``p`` (non-zero entries)."""
    return {k[3:]: v for k, v in g.state.values.items() if k[:3] == ("v", "aboard", p) and v}


def _on_board(g, h, p=0, cls="interceptor") -> int:
    return sum(1 for s in g.get("ships", index=h) if s == (p, cls))


def bay_invariant(g) -> None:
    """Interceptors aboard never exceed the bay room of the ships carrying them (per player, hex
    and class), are never counted twice (aboard + on the board never above the class limit,
    and out of ``ships`` while aboard), and only ride during their owner's Move action."""
    from boardrules_eclipse_rare_techs import bay_carries
    for p in range(g.players):
        aboard = _aboard(g, p)
        for (h, what), n in aboard.items():
            ctx = _ctx(g, p)
            assert 0 < n <= bay_carries.fn(ctx, what) * _on_board(g, h, p, what), (p, h, what, n)
        total = sum(aboard.values()) + sum(_on_board(g, h, p) for h in g.get("hexes"))
        assert total <= 8, (p, total)
        if aboard:
            assert g.get("current_action", p) == "move", (p, aboard)


def _total(g, p=0) -> int:
    return sum(_aboard(g, p).values()) + sum(_on_board(g, h, p) for h in g.get("hexes"))


@pytest.mark.parametrize("enemies,room", [(0, 2), (1, 2), (2, 1)])
def test_the_interceptor_bay_carries_two_unpinned_interceptors(enemies, room):
    """Seed (Interceptor Bay): each bay lets one ship activation move up to two unpinned
    interceptors in it (pinned ones stay); aboard they leave ``ships`` and are counted once."""
    g = _bay_game(enemies)
    g.play("p1 move")
    g.play(f"p1 fly cruiser@{HOME}>{NEAR}")
    d = g.state.pending[0]
    assert (d.player, d.label) == (0, "carry") and list(d.options) == list(range(1, room + 1))
    g.play(f"p1 carry {room}")
    assert g.get("ships", index=NEAR) == ((0, "cruiser"),)
    assert _aboard(g) == {(NEAR, "cruiser"): room}
    assert _on_board(g, HOME) == 3 - room and _total(g) == 3
    bay_invariant(g)
    rare_invariant(g)


def test_carrying_is_optional_and_ships_without_a_bay_carry_nothing():
    g = _bay_game()
    g.play("p1 move")
    g.play(f"p1 fly cruiser@{HOME}>{NEAR}")
    g.play("p1 carry")                                   # declined
    assert g.get("ships", index=NEAR) == ((0, "cruiser"),) and not _aboard(g)
    g = _bay_game()
    _set(g, v__blueprint__0__cruiser=("ion_cannon", "hull", "electron_computer", "zero_point_source",
                                      "nuclear_drive", "empty"))
    g.play("p1 move")
    g.play(f"p1 fly cruiser@{HOME}>{NEAR}")
    assert not g.state.pending or g.state.pending[0].label != "carry"
    assert g.get("ships", index=NEAR) == ((0, "cruiser"),) and not _aboard(g)


def test_two_bays_carry_four():
    """Seed: two per Interceptor Bay part: a cruiser with two bays takes up to four (here the
    three unpinned ones at home)."""
    g = _bay_game()
    _set(g, v__blueprint__0__cruiser=("ion_cannon", "interceptor_bay", "electron_computer", "zero_point_source",
                                      "nuclear_drive", "interceptor_bay"))
    g.play("p1 move")
    g.play(f"p1 fly cruiser@{HOME}>{NEAR}")
    assert list(g.state.pending[0].options) == [1, 2, 3]
    g.play("p1 carry 3")
    assert _aboard(g) == {(NEAR, "cruiser"): 3} and _on_board(g, HOME) == 0
    bay_invariant(g)


def _to_center(g):
    """Clear the galactic center's defenses so that the cruiser may fly on from NEAR."""
    _set(g, **{f"v__npcs__{CENTER}": ()})


def test_interceptors_stay_aboard_through_later_activations_and_get_out_at_the_end():
    """Seed: carried interceptors may stay in the bay through further activations of the Move
    action; at its end they are unloaded where their carrier is."""
    g = _bay_game()
    _to_center(g)
    g.play("p1 move")
    g.play(f"p1 fly cruiser@{HOME}>{NEAR}")
    g.play("p1 carry 2")
    g.play("p1 again")
    g.play(f"p1 fly cruiser@{NEAR}>{CENTER}")           # the bay is full: nothing more to load
    assert not g.state.pending or g.state.pending[0].label != "carry"
    assert _aboard(g) == {(CENTER, "cruiser"): 2}
    assert g.get("ships", index=CENTER) == ((0, "cruiser"),) and _on_board(g, NEAR) == 0
    assert _total(g) == 3
    bay_invariant(g)
    g.play("p1 done")                                   # the end of the Move action: unloaded
    assert not _aboard(g)
    assert g.get("ships", index=CENTER) == ((0, "cruiser"),) + ((0, "interceptor"),) * 2
    assert _total(g) == 3
    bay_invariant(g)


def test_a_carrier_with_room_loads_more_on_a_later_activation():
    """Seed: "up to two" per bay: one aboard from home, one more loaded at the next hex."""
    g = _bay_game()
    _to_center(g)
    _set(g, **{f"v__ships__{NEAR}": ((0, "interceptor"),) * 2})
    g.play("p1 move")
    g.play(f"p1 fly cruiser@{HOME}>{NEAR}")
    g.play("p1 carry 1")
    g.play("p1 again")
    g.play(f"p1 fly cruiser@{NEAR}>{CENTER}")
    assert list(g.state.pending[0].options) == [1]      # room 2 - 1 aboard (two could leave)
    g.play("p1 carry 1")
    assert _aboard(g) == {(CENTER, "cruiser"): 2} and _on_board(g, NEAR) == 1 and _total(g) == 5
    bay_invariant(g)


def test_interceptors_aboard_do_not_count_for_pinning():
    """Seed: while moved in the bay, interceptors do not affect pinning. A cruiser that brought
    two interceptors aboard into a hex with one enemy ship is pinned there (its interceptors do
    not free it) until they get out; aboard they pin no enemy either."""
    from boardrules_eclipse.primitives import _pinning
    g = _bay_game()
    _set(g, **{f"v__ships__{NEAR}": ((1, "interceptor"),)})
    g.play("p1 move")
    g.play(f"p1 fly cruiser@{HOME}>{NEAR}")
    g.play("p1 carry 2")
    assert not [m for m in move_options.fn(_ctx(g)) if m.startswith(f"cruiser@{NEAR}>")]
    assert _pinning(_ctx(g, 1), 1).pins.get((1, 0), 0) == 1      # only the cruiser pins p2's ship
    g.play("p1 get_out")
    assert set(g.state.pending[0].options) == {f"{NEAR}@cruiser"}
    g.play(f"p1 spot {NEAR}@cruiser")
    assert list(g.state.pending[0].options) == [1, 2]
    g.play("p1 n 2")
    assert not _aboard(g) and _on_board(g, NEAR) == 2
    assert _pinning(_ctx(g, 1), 1).pins.get((1, 0), 0) == 3
    assert [m for m in move_options.fn(_ctx(g)) if m.startswith(f"cruiser@{NEAR}>")]
    bay_invariant(g)


def test_interceptors_that_got_out_move_on_their_own():
    """Seed: after any activation one or more may get out and move on with activations of
    their own; the rest stay aboard."""
    g = _bay_game()
    g.play("p1 move")
    g.play(f"p1 fly cruiser@{HOME}>{NEAR}")
    g.play("p1 carry 2")
    assert not [m for m in move_options.fn(_ctx(g)) if m.startswith(f"interceptor@{NEAR}>")]
    g.play("p1 get_out")
    g.play(f"p1 spot {NEAR}@cruiser")
    g.play("p1 n 1")
    assert _aboard(g) == {(NEAR, "cruiser"): 1} and _on_board(g, NEAR) == 1
    g.play("p1 again")
    g.play(f"p1 fly interceptor@{NEAR}>{HOME}")
    assert _on_board(g, HOME) == 2 and _aboard(g) == {(NEAR, "cruiser"): 1} and _total(g) == 3
    bay_invariant(g)


def test_getting_out_needs_interceptors_aboard_in_a_move_action():
    """An illegal get-out names the rule and leaves the state unchanged."""
    g = _bay_game()
    before = g.state
    with pytest.raises(IllegalActionError, match="no interceptor is aboard an Interceptor Bay"):
        g.play("p1 get_out")
    assert g.state == before
    g.play("p1 move")
    g.play(f"p1 fly cruiser@{HOME}>{NEAR}")
    g.play("p1 carry")
    with pytest.raises(IllegalActionError, match="no interceptor is aboard an Interceptor Bay"):
        g.play("p1 get_out")


# A staged start (house rules, so that records replay): p1 owns the Interceptor Bay, its cruiser
# blueprint carries one, a cruiser and three more interceptors wait at home "2,0"; NEAR is
# explored and the galactic center's defenses are gone.
BAY_STAGE = """
extend kind rulebook { slot stage_bays }
rulebook bay_stage {
  stage_bays {
    set techs = techs + [tech_interceptor_bay, tech_zero_point_source]
    set placed_row[tech_interceptor_bay] = "military"
    set placed_row[tech_zero_point_source] = "military"
    set blueprint[cruiser] = [ion_cannon, hull, electron_computer, zero_point_source, nuclear_drive, interceptor_bay]
    call add_ship("2,0", cruiser)
    for i in 1..3 { call add_ship("2,0", interceptor) }
  }
}
step stage_bays after start_reputation: do {
  set hexes = hexes + ["1,0"]
  set sector_at["1,0"] = s301
  set npcs["0,0"] = []
  run bay_stage.stage_bays for players[0]
}
"""


def _staged_bays(seed=3):
    from tests.conftest import rules_file
    g = _start(2, seed, rules=[rules_file(BAY_STAGE, "bays.rules")])
    assert _on_board(g, HOME) == 4 and _on_board(g, HOME, cls="cruiser") == 1
    return g


def test_a_record_with_interceptors_aboard_replays_exactly():
    """Saved mid-move (interceptors aboard) and after, the record loads with checks to the same
    state."""
    g = _staged_bays()
    g.play("p1 move")
    g.play(f"p1 fly cruiser@{HOME}>{NEAR}")
    g.play("p1 carry 2")
    g.play("p1 again")
    g.play(f"p1 fly cruiser@{NEAR}>{CENTER}")
    assert _aboard(g) == {(CENTER, "cruiser"): 2}
    for step in ("p1 done", None):
        again = boardrules.load_game(g.save(), check=True)
        assert again.state == g.state and _aboard(again) == _aboard(g)
        if step:
            g.play(step)
    assert not _aboard(again) and not _aboard(g) and _on_board(g, CENTER) == 2


def test_a_move_reaction_unloads_the_interceptors_it_loads():
    """A Move reaction's turn ends with its main action, before the carrier's 'carry' answer:
    the interceptors it loads must still get out at its end [S: unloaded at the end of the
    Move] (they stayed aboard through the next player's turn: a hypothesis find)."""
    g = _staged_bays(seed=12006)
    for line in ['p1 trade science materials', 'p1 move', 'p1 fly cruiser@2,0>1,0', 'p1 carry 2',
                 'p1 get_out', 'p1 spot 1,0@cruiser', 'p1 n 2', 'p1 trade materials science', 'p1 done',
                 'p2 trade materials money', 'p2 trade money materials', 'p2 trade science money',
                 'p2 explore', 'p2 space -2,-1', 'p2 rotation', 'p2 done',
                 'p1 explore', 'p1 space 2,1', 'p1 rotation 0', 'p1 claim',
                 'p1 trade science money', 'p1 done', 'p2 explore', 'p2 space -3,0',
                 'p2 rotation 3', 'p2 claim', 'p2 done', 'p1 pass_turn',
                 'p2 move', 'p2 fly interceptor@-2,0>-3,0', 'p2 done', 'p1 trade money science',
                 'p1 react_move', 'p1 fly cruiser@1,0>0,0']:
        g.play(line)      # (the sectors drawn come from the seed)
    on_board = _on_board(g, "0,0", 0, "interceptor")
    g.play("p1 carry 1")
    assert not _aboard(g, 0)
    assert _on_board(g, "0,0", 0, "interceptor") == on_board + 1   # got out with the cruiser
    bay_invariant(g)


@settings(max_examples=5, deadline=None, database=None)
@given(data=st.data())
def test_random_moves_with_interceptor_bays(data):
    """Random play from the staged bay start (carry, get out, fly, done, pass, later rounds):
    the base invariants and the bay invariant hold after every action; the record replays."""
    g = _staged_bays(seed=data.draw(st.integers(0, 2**16)))
    prefer = ("move", "react_move", "again", "fly", "carry", "get_out", "spot", "n", "done")
    for _ in range(data.draw(st.integers(5, 80))):
        legal = list(g.legal_actions())
        if not legal or g.over:
            break
        own = [a for a in legal if a.name in prefer]
        pool = own if own and data.draw(st.integers(0, 3)) else legal
        a = pool[data.draw(st.integers(0, len(pool) - 1))]
        before = [_total(g, p) for p in range(g.players)]
        g.play(a)
        check_invariants(g)
        bay_invariant(g)
        if a.name in ("fly", "carry", "get_out", "spot", "n", "again"):   # moving: none made or lost
            assert [_total(g, p) for p in range(g.players)] == before, a
    again = boardrules.load_game(g.save(), check=True)
    assert again.state == g.state


# ---- the Antimatter Splitter, played ------------------------------------------------------------------

def _split_game(splitter: bool):
    g = _start()
    g.auto_chance = False
    tiles = ("tech_antimatter_splitter",) if splitter else ()
    _give(g, 0, *tiles, "tech_antimatter_cannon", "tech_zero_point_source",
          v__blueprint__0__cruiser=("antimatter_cannon", "hull", "electron_computer", "zero_point_source",
                                    "nuclear_drive", "empty"))
    _stage(g, FAR, "s303", ships=[(1, "interceptor"), (1, "cruiser"), (0, "cruiser")])
    _end_actions(g)
    _roll(g, (1,))                           # p2's interceptor (initiative 3) misses
    _roll(g, (1,))                           # p2's cruiser (2, ties to the defender) misses
    _roll(g, (6,))                           # p1's antimatter die hits
    return g


def test_splitter_lets_the_player_split_an_antimatter_die():
    """Seed: the damage of your antimatter cannons may be split freely among the targets the
    die hits: each of its four points is a hit of its own, the player choosing."""
    g = _split_game(splitter=True)
    d = g.state.pending[0]
    assert (d.player, d.label) == (0, "hit") and set(d.options) == {"interceptor:0", "cruiser:0"}
    g.play("p1 hit interceptor:0")           # 1 point destroys the interceptor; the other
    assert not g.get("battle")               # three go to the cruiser (hull 1) by themselves
    assert g.get("ships", index=FAR) == ((0, "cruiser"),)   # one die destroyed both
    g = _split_game(splitter=False)
    d = g.state.pending[0]
    assert set(d.options) == {"interceptor:0", "cruiser:0"}
    g.play("p1 hit cruiser:0")               # the whole 4 damage on one ship
    assert _damage(g) == 2


# ---- play battles and the odds calculator agree ---------------------------------------------------

def _effects_battle(tiles):
    """p2's dreadnought (antimatter cannon, two ion cannons, +2 computer) with the rare ``tiles``
    defends against p1's two cruisers, each with two ion Flux Missiles."""
    g = _start(options={"auto_combat": True})
    g.auto_chance = False
    _give(g, 1, "tech_antimatter_cannon", "tech_positron_computer", "tech_zero_point_source", *tiles,
          v__blueprint__1__dreadnought=("antimatter_cannon", "ion_cannon", "ion_cannon", "hull",
                                        "positron_computer", "zero_point_source", "nuclear_drive", "empty"))
    _give(g, 0, "tech_flux_missile",
          v__blueprint__0__cruiser=("ion_cannon", "hull", "electron_computer", "nuclear_source",
                                    "nuclear_drive", "flux_missile"))
    _stage(g, FAR, "s303", ships=[(1, "dreadnought"), (0, "cruiser"), (0, "cruiser")])
    return g


ALL_EFFECTS = ("tech_point_defense", "tech_antimatter_splitter", "tech_distortion_shield")


def test_play_battles_agree_with_the_odds_calculator():
    """The game's battles (auto_combat: the policies; every volley's dice rolled here) end as
    combat.py's exact odds say, within three standard errors, with point defense, the splitter
    and the distortion shield all on the defending side; each effect changes the odds by more
    than that margin, so a play battle that ignored one would fail."""
    g = _effects_battle(ALL_EFFECTS)
    att, dfn = _fleet(_ctx(g), FAR, 0), _fleet(_ctx(g), FAR, 1)
    assert dfn.point_defense and dfn.antimatter_splitter and dfn.distortion_shield
    p = C.combat_odds(att, dfn).win_probability("attacker")
    runs = 900
    margin = 3 * (p * (1 - p) / runs) ** 0.5
    for missing in ALL_EFFECTS:           # the test can tell each effect
        g2 = _effects_battle(tuple(t for t in ALL_EFFECTS if t != missing))
        q = C.combat_odds(_fleet(_ctx(g2), FAR, 0), _fleet(_ctx(g2), FAR, 1)).win_probability("attacker")
        assert abs(q - p) > margin, missing
    rate = attacker_win_rate(g, FAR, runs, 20261201)
    assert abs(rate - p) <= margin, (rate, p)


def test_exact_odds_with_every_effect_and_monte_carlo_agree():
    """combat.py's exact solver handles point defense, the splitter, the distortion shield and
    regeneration together; its Monte-Carlo mode agrees within three standard errors (fixed
    policies and optimal play)."""
    a = C.parse_fleet("2 cruiser(4/1/+1/0; 1Y; 1Y 1Y), 1 dreadnought(1/2/+1/0; 1R), +splitter, +point-defense")
    d = C.parse_fleet("1 ancient:ancient(3/3/+2/0/1; 2O; 1O), 1 interceptor(3/0/+1/0; 1Y), +player, "
                      "+distortion, +point-defense")
    for pol in (None, C.OPTIMAL_POLICY):
        exact = C.combat_odds(a, d, pol, pol)
        mc = C.simulate_odds(a, d, pol, pol, runs=3000, seed=11)
        for side in ("attacker", "defender"):
            q = exact.win_probability(side)
            assert 0.05 < q < 0.95
            assert abs(mc.win_probability(side) - q) <= 3 * mc.std_error(q), (pol, side)


# ---- random games ----------------------------------------------------------------------------------------

@SETTINGS
@given(data=st.data())
def test_random_games_with_rare_technologies(data):
    """Random games with the module keep the base game's invariants and "at most one copy of
    each rare technology is owned; rare tiles drawn aside are public"; the record replays."""
    g = play_random(data, ("rare-technologies",), _both_invariants,
                    prefer=("research_rare", "again_rare", "rare", "row", "carry", "get_out", "missile"),
                    money=data.draw(st.sampled_from([0, 40])))
    assert g.over


def _both_invariants(g) -> None:
    rare_invariant(g)
    bay_invariant(g)


def test_a_record_with_the_module_replays_exactly():
    """A whole game with the module (rare tiles bought, battles fought) saved and loaded with
    legality checks gives the same state; the record names the module."""
    rng = random.Random(5)
    g = boardrules.new_game("eclipse", players=3, seed=5, modules=["rare-technologies"],
                            options={"rounds": 4, "auto_combat": True},
                            rules=[_rich_rules()])
    bought = 0
    while not g.over:
        legal = list(g.legal_actions())
        own = [a for a in legal if a.name in ("research_rare", "rare", "row")]
        passing = [a for a in legal if a.name in ("pass_turn", "done")]
        pool = own or (passing if passing and rng.random() < 0.3 else legal)
        a = rng.choice(pool)
        bought += a.name == "row"
        g.play(a)
    assert bought >= 3
    text = g.save()
    assert "rare-technologies" in text
    again = boardrules.load_game(text, check=True)
    assert again.state == g.state and again.scores() == g.scores()
    rare_invariant(again)


def _rich_rules():
    from .common import _rich
    return _rich(40)


def test_a_split_antimatter_die_destroys_up_to_four_missiles():
    """Seed: the splitter's damage may go to several targets "including missiles, if you also
    have Point Defense": one antimatter point-defense die that hits destroys up to four."""
    for tiles, landed in ((("tech_antimatter_splitter",), 0), ((), 3)):
        g = _effects_battle(("tech_point_defense",) + tiles)
        _set(g, v__blueprint__1__dreadnought=("antimatter_cannon", "hull", "hull", "hull",
                                              "positron_computer", "zero_point_source", "nuclear_drive", "empty"))
        _end_actions(g)
        _roll(g, (6, 6, 6, 6))               # the two cruisers' four ion missiles all hit
        _roll(g, (6,))                       # the dreadnought's one antimatter cannon hits
        assert _damage(g) == landed, tiles
    exact = lambda d: C.combat_odds(C.parse_fleet("1 cruiser(2/3/0/0; 1Y; 1Y 1Y 1Y 1Y)"),  # noqa: E731
                                    C.parse_fleet(d), fractions=True)
    split = exact("1 dreadnought(1/3/+5/0; 1R), +point-defense, +splitter")
    plain = exact("1 dreadnought(1/3/+5/0; 1R), +point-defense")
    assert split.win_probability("defender") > plain.win_probability("defender")
