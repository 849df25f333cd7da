"""Rise of the Ancients, the new species (``-m new-species``): the Enlightened of Lyra, the Rho
Indi Syndicate, the Exiles and the Magellan sides, with their boards' numbers
(``shared/rules/eclipse-rota.md`` §1) and the choices of docs/eclipse.md ("new-species")."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import boardrules
from boardrules import IllegalActionError
from boardrules.runtime import Context
from boardrules_eclipse.primitives import build_sites, ship_type
from tests.eclipse.test_combat_play import _stage
from tests.eclipse.test_edge_cases import _set
from tests.eclipse.test_invariants import check_invariants

from .common import SETTINGS, play_random
from .test_rare_techs import rare_invariant

MODULE = "new-species"
FRONTS = ("lyra", "exiles", "rho_indi")
MAGELLAN = ("wardens", "keepers", "sentinels")
BOARD = {"exiles": "magenta", "wardens": "magenta", "rho_indi": "grey", "keepers": "grey",
         "lyra": "natural", "sentinels": "natural"}
SHRINE_COST = {"money": (2, 3, 4), "science": (3, 4, 5), "materials": (4, 5, 6)}


def new_species_invariant(g) -> None:
    """Each board is in play with one side up at most; Lyra's shrines: at most nine, at most
    three per row, paid for (one per planet square, on a planet of their row's colour in some
    hex), and only Lyra has any; Lyra's re-rolls: colony ships face down within the board's,
    each die of a volley re-rolled once at most; the Exiles' combat orbitals stand where an
    orbital stands and only the Exiles have them; Rho Indi never have a dreadnought nor (option
    on) the Traitor."""
    n = g.players
    species = [g.get("species_of", p) for p in range(n)]
    if None in species:
        return
    boards = [BOARD[s] for s in species if s in BOARD]
    assert len(boards) == len(set(boards)), species
    assert sum(1 for s in species if s in FRONTS or s in MAGELLAN) <= 3
    for p, s in enumerate(species):
        built = g.get("shrines_built", p)
        assert len(built) == len(set(built)) <= 9
        if s != "lyra":
            assert not built
        for res, costs in SHRINE_COST.items():
            row = [b for b in built if b.startswith(f"shrine_{res}_")]
            assert sorted(row) == [f"shrine_{res}_{i}" for i in range(1, len(row) + 1)], built
    placed = sum(len(g.get("shrine_squares", index=h)) for h in g.get("hexes"))
    assert placed == sum(len(g.get("shrines_built", p)) for p in range(n))
    for h in g.get("hexes"):
        squares = g.get("shrine_squares", index=h)
        planets = g.ruleset.entities[g.get("sector_at", index=h)].fields["planets"]
        assert len(squares) == len(set(squares)) and all(int(q) < len(planets) for q in squares)
        orbitals = [o for o, c in g.get("ships", index=h) if c == "exile_orbital"]
        assert len(orbitals) <= 1 and (not orbitals or g.get("orbital_at", index=h)), (h, orbitals)
        assert all(species[o] == "exiles" for o in orbitals)
        for o, c in g.get("ships", index=h):
            assert not (c == "dreadnought" and species[o] == "rho_indi")
    # Lyra's re-roll: never more colony ships face down than the board has; a die re-rolled
    # once per volley, only dice of the volley being resolved.
    for p, s in enumerate(species):
        assert 0 <= g.get("colony_used", p) <= g.ruleset.entities[s].fields["colony_ships"], (p, s)
    rolls, rerolled = g.get("volley_rolls"), g.get("lyra_rerolled")
    if rolls:
        assert len(set(rerolled)) == len(rerolled) and all(0 <= i < len(rolls) for i in rerolled)
        assert all(1 <= f <= 6 for f in rolls)
    if g.get("traitor") is not None and g.ruleset.options["rho_indi_traitor"].default:
        assert species[g.get("traitor")] != "rho_indi"


def _start(picks, seed=3, **options):
    """A game whose seats take ``picks`` (p1 first; picked in reverse seat order)."""
    g = boardrules.new_game("eclipse", players=len(picks), seed=seed, modules=[MODULE], options=options)
    for p in range(len(picks), 0, -1):
        g.play(f"p{p} pick_species {picks[p - 1]}")
    return g


def _ctx(g, me=0):
    return Context(g.ruleset, g.state.values, me=me)


def _home(g, p):
    return g.get("home_hex", p)


# ---- picking: the boards' two sides ------------------------------------------------------------

@pytest.mark.parametrize("front,back", [("exiles", "wardens"), ("rho_indi", "keepers"), ("lyra", "sentinels")])
def test_a_board_has_one_side_in_play(front, back):
    """Seed: the three new boards print Magellan on their back; one board, one player."""
    for first, second in ((front, back), (back, front)):
        g = boardrules.new_game("eclipse", players=3, seed=1, modules=[MODULE])
        g.play(f"p3 pick_species {first}")
        before = g.state
        with pytest.raises(IllegalActionError, match="board is in play with its other side up"):
            g.play(f"p2 pick_species {second}")
        assert g.state == before


def test_three_magellan_players_take_the_three_boards():
    g = _start(("wardens", "keepers", "sentinels", "terrans"))
    homes = {g.get("sector_at", index=_home(g, p)) for p in range(3)}
    assert homes == {"s233", "s235", "s237"}
    check_invariants(g)
    new_species_invariant(g)


def test_without_the_module_no_new_species():
    g = boardrules.new_game("eclipse", players=2, seed=1)
    assert not any(a.args[0] in FRONTS + MAGELLAN for a in g.legal_actions())


# ---- start values -----------------------------------------------------------------------------

def test_start_values_from_the_boards():
    """eclipse-rota.md §1.2 [D J, PL]: resources, techs, home sectors, start ships, cubes."""
    g = _start(("lyra", "exiles", "rho_indi", "terrans"))
    m = _start(("wardens", "terrans"))
    res = lambda g, p: tuple(g.get(r, p) for r in ("money", "science", "materials"))
    assert [res(g, p) for p in range(3)] + [res(m, 0)] == [(2, 4, 3), (3, 2, 4), (2, 3, 3), (2, 2, 3)]
    assert [g.get("techs", p) for p in range(3)] + [m.get("techs", 0)] == [
        ("tech_distortion_shield",), ("tech_cloaking_device", "tech_orbital"),
        ("tech_starbase", "tech_gauss_shield"), ("tech_fusion_source",)]
    assert [g.get("sector_at", index=_home(g, p)) for p in range(3)] == ["s238", "s234", "s236"]
    assert m.get("sector_at", index=_home(m, 0)) == "s233"
    ships = lambda p: sorted(c for _, c in g.get("ships", index=_home(g, p)))
    assert ships(0) == ["interceptor"]
    assert ships(1) == ["exile_orbital", "interceptor"] and g.get("orbital_at", index=_home(g, 1))
    assert ships(2) == ["interceptor", "interceptor"]
    # start production [D PL]: Lyra 3/3/3, Exiles 2/2/3 (advanced squares stay empty), Rho 3/2/3
    prod = lambda p: tuple(g.get("production_table")[g.get(f"out_{r}", p)] for r in ("money", "science", "materials"))
    assert [prod(p) for p in range(3)] == [(3, 3, 3), (2, 2, 3), (3, 2, 3)]
    assert tuple(m.get("production_table")[m.get(f"out_{r}", 0)] for r in ("money", "science", "materials")) == (3, 3, 3)
    assert g.ruleset.entities["s236"].fields["vp"] == 0                  # [D J]
    # the start tiles are never in the tech bag nor on the market
    assert not {"tech_cloaking_device", "tech_distortion_shield"} & set(g.get("tech_bag") + g.get("tech_market"))
    check_invariants(g)
    new_species_invariant(g)


def test_rho_indi_blueprints_and_costs():
    """[D J, PE; R1]: Interceptor +3 initiative, Cruiser +2, Starbase +4, each a built-in shield
    -1; no Dreadnought; costs 4 / 6 / 4."""
    g = _start(("rho_indi", "terrans"))
    ctx = _ctx(g)
    i, c, s = (ship_type(ctx, 0, k) for k in ("interceptor", "cruiser", "starbase"))
    assert (i.initiative, i.shield, c.initiative, c.shield, s.initiative, s.shield) == (4, 1, 3, 1, 4, 1)
    assert g.get("design_of", 0, index="dreadnought") is None
    _set(g, r__materials__0=30)
    g.play("p1 build")
    legal = {a.args[0] for a in g.legal_actions()}
    home = _home(g, 0)
    assert f"interceptor@{home}" in legal and f"starbase@{home}" in legal
    assert f"dreadnought@{home}" not in legal
    before = g.state
    with pytest.raises(IllegalActionError):
        g.play(f"p1 make dreadnought@{home}")
    assert g.state == before
    g.play(f"p1 make cruiser@{home}")
    assert g.get("materials", 0) == 24


def test_rho_indi_trade_rates_and_move():
    """[D J]: 3 money buy 2 of another resource; science and materials trade 3:1; Move 4."""
    g = _start(("rho_indi", "terrans"))
    _set(g, r__money__0=6, r__science__0=3, r__materials__0=0)
    g.play("p1 trade money materials")
    assert (g.get("money", 0), g.get("materials", 0)) == (3, 2)
    g.play("p1 trade science money")
    assert (g.get("money", 0), g.get("science", 0)) == (4, 0)
    assert g.ruleset.entities["rho_indi"].fields["move"] == 4
    assert g.ruleset.entities["rho_indi"].fields["colony_ships"] == 2


def test_exiles_build_armed_orbitals_and_no_starbase():
    """[D J; R1]: no Starbase; an orbital they build is a warship of their orbital blueprint
    (Ion Turret, Hull, Hull, +4 energy, initiative 0), cost 6 [D J, PE]."""
    g = _start(("exiles", "terrans"))
    o = ship_type(_ctx(g), 0, "exile_orbital")
    assert (o.initiative, o.hull, o.computer, o.shield, o.cannons) == (0, 2, 0, 0, (1, 1))
    g3 = _start(("exiles", "terrans"), exile_orbital_hull=3)       # EC's reading: a printed +1
    assert ship_type(_ctx(g3), 0, "exile_orbital").hull == 3
    check_invariants(g3)
    far = "1,1"
    _stage(g, far, "s201", controller=0)
    _set(g, r__materials__0=12)
    sites = build_sites.fn(_ctx(g))
    assert not any(s.startswith("exile_orbital@") for s in sites)      # never built by itself
    g.play("p1 build")
    legal = {a.args[0] for a in g.legal_actions()}
    assert f"orbital@{far}" in legal and f"orbital@{_home(g, 0)}" not in legal   # one there already
    assert not any(x.startswith("starbase@") for x in legal)
    g.play(f"p1 make orbital@{far}")
    assert g.get("materials", 0) == 6
    assert g.get("orbital_at", index=far) and (0, "exile_orbital") in g.get("ships", index=far)
    check_invariants(g)
    new_species_invariant(g)


def test_exiles_combat_orbital_never_retreats():
    """The combat orbital stands where its orbital stands ([D J, PE]: no drive; ``mobile false``):
    it fires instead of being asked to retreat, though a retreat hex (the home) exists. It used
    to retreat away from its orbital (module-combination run, seed 22937, ``retreat_to``)."""
    from boardrules.game import Action
    from boardrules.runtime import CHANCE
    g = _start(("exiles", "terrans"))
    g.auto_chance = False
    h = "1,0"                       # s105 turned 0 joins the Exiles' home (2,0)
    _stage(g, h, "s105", ships=((0, "exile_orbital"),), npcs=("ancient",))
    _set(g, **{f"v__orbital_at__{h}": True})
    g.play("p1 pass_turn")
    g.play("p2 pass_turn")
    d = g.state.pending[0]
    assert (d.player, d.label) == (CHANCE, "rolls")          # the Ancient (initiative 2) fires
    g.play(Action(CHANCE, "rolls", ((1,) * d.options.count,)))
    d = g.state.pending[0]
    assert (d.player, d.label) == (CHANCE, "rolls")          # the orbital fires: no retreat
    new_species_invariant(g)


def test_cloaking_device_needs_two_ships_to_pin():
    """Rare tech [S]: opponents need two ships to pin each Exile ship."""
    from boardrules_eclipse.primitives import _pinning, _pos
    g = _start(("exiles", "terrans"))
    h = _home(g, 0)
    _set(g, **{f"v__ships__{h}": ((0, "interceptor"), (0, "exile_orbital"), (1, "interceptor"))})
    assert _pinning(_ctx(g), 0).pins.get(_pos(h), 0) == 0
    assert _pinning(_ctx(g), 1).pins.get(_pos(h), 0) == 2


def test_lyra_distortion_shield_reaches_her_battle_fleets():
    """Distortion Shield [S rare tech]: enemy missiles -2 to hit; the start tile's combat flag
    reaches Lyra's side of a play battle with and without rare-technologies."""
    from boardrules_eclipse.battle import _combat_flags
    for modules in ([MODULE], [MODULE, "rare-technologies"]):
        g = boardrules.new_game("eclipse", players=2, seed=1, modules=modules)
        g.play("p2 pick_species terrans")
        g.play("p1 pick_species lyra")
        h = _home(g, 0)
        assert _combat_flags(_ctx(g), h, 0) == {"distortion_shield": True}
        assert _combat_flags(_ctx(g), _home(g, 1), 1) == {}


# ---- Lyra's shrines ---------------------------------------------------------------------------

def _lyra_research(g, science=20):
    market = tuple(t for t in g.get("tech_market") if g.ruleset.entities[t].fields["cost"] <= 4)
    _set(g, r__science__0=science, v__tech_market=market or ("tech_nanorobots",))
    g.play("p1 research")
    g.play(f"p1 tile {list(g.legal_actions())[0].args[0]}")


def test_lyra_shrine_costs_and_limits():
    """Shrines [SD1, X]: during a Research action, one per action, beside a planet of the row's
    colour in a hex you control, one per planet, the row's cheapest first, paid in the row's
    resource."""
    g = _start(("lyra", "terrans"))
    home = _home(g, 0)                       # s238: money, money*, science, science*, materials, materials*
    before = g.state
    with pytest.raises(IllegalActionError, match="during a Research action"):
        g.play(f"p1 shrine {home}|0:money")
    assert g.state == before
    _set(g, r__money__0=10, r__materials__0=10)
    _lyra_research(g)
    g.play(f"p1 shrine {home}|0:money")
    assert g.get("money", 0) == 8 and g.get("shrines_built", 0) == ("shrine_money_1",)
    with pytest.raises(IllegalActionError, match="one shrine per Research action"):
        g.play(f"p1 shrine {home}|1:money")
    new_species_invariant(g)
    g.play("p1 done")
    g.play("p2 pass_turn")
    _lyra_research(g)
    with pytest.raises(IllegalActionError, match="beside that planet already"):
        g.play(f"p1 shrine {home}|0:money")
    g.play(f"p1 shrine {home}|1:money")       # the advanced money planet, 3 money
    assert g.get("money", 0) == 5 and g.get("shrine_squares", index=home) == ("0", "1")
    new_species_invariant(g)


def test_only_lyra_builds_shrines():
    g = _start(("terrans", "lyra"))
    _lyra_research(g)
    with pytest.raises(IllegalActionError, match="only the Enlightened of Lyra"):
        g.play(f"p1 shrine {_home(g, 0)}|0:money")


def test_completing_a_row_gives_its_bonus():
    """The materials row's bonus is the Wormhole Generator ability [X]; shrines score 1 VP each
    in hexes Lyra controls [D PL]."""
    g = _start(("lyra", "terrans"))
    home = _home(g, 0)
    _set(g, r__materials__0=20, v__shrines_built__0=("shrine_materials_1", "shrine_materials_2"),
         **{f"v__shrine_squares__{home}": ("4",)})
    _stage(g, "1,1", "s201", controller=0)                # Alpha Centauri: money, materials
    _set(g, **{"v__shrine_squares__1,1": ("1",)})
    assert not g.get("half_connections", 0)
    _lyra_research(g)
    g.play(f"p1 shrine {home}|5:materials")
    assert g.get("materials", 0) == 20 - 6 and g.get("half_connections", 0)
    new_species_invariant(g)
    while not g.over:
        legal = list(g.legal_actions())
        g.play(next((a for a in legal if a.name in ("pass_turn", "done")), legal[0]))
    assert g.scores()[0]["sources"]["score_new_species"] == 3


# ---- Rho Indi: battles and the Traitor ---------------------------------------------------------

def test_rho_indi_never_hold_the_traitor():
    """[R3, M; option rho_indi_traitor]: breaking relations does not give them the Traitor card
    (it stays where it was); with the option off they take it like anyone."""
    for on, holder in ((True, None), (False, 0)):
        g = _start(("rho_indi", "terrans", "terrans", "terrans"), rho_indi_traitor=on)
        _set(g, v__traitor=0)                # as break_relations leaves it after p1's action
        g.play("p1 pass_turn")
        assert g.get("traitor") == holder
        new_species_invariant(g)


def _battle_money(seed, on):
    """Two Rho Indi interceptors against an Ancient, everyone passes: (won, money change)."""
    g = _start(("rho_indi", "terrans"), seed=seed, auto_combat=True, rho_indi_battle_money=on)
    h = "1,1"
    _stage(g, h, "s201", ships=((0, "interceptor"), (0, "interceptor")), npcs=("ancient",))
    money = g.get("money", 0)
    g.play("p1 pass_turn")
    g.play("p2 pass_turn")
    return not g.get("npcs", index=h), g.get("money", 0) - money


def test_rho_indi_act_of_aggression_leaves_the_traitor_card():
    """Moving into a diplomatic partner's hex breaks relations [M] but does not give the Rho
    Indi Syndicate the Traitor card [R3, M]; anyone else would take it."""
    for species, holder in (("rho_indi", None), ("terrans", 0)):
        g = _start((species, "terrans", "terrans", "terrans"))
        theirs, between = _home(g, 1), "1,2"          # s101 turned 0 joins p2's home (0,2)
        _stage(g, between, "s101", ships=((0, "interceptor"),))
        _set(g, v__ambassadors__0=(1,), v__ambassadors__1=(0,),
             v__envoys__0=((1, "science"),), v__envoys__1=((0, "science"),),
             v__out_science__0=g.get("out_science", 0) + 1, v__out_science__1=g.get("out_science", 1) + 1)
        g.play("p1 move")
        g.play(f"p1 fly interceptor@{between}>{theirs}")
        assert g.get("ambassadors", 0) == () and g.get("traitor") == holder, species
        check_invariants(g)
        new_species_invariant(g)


def test_rho_indi_money_from_battles():
    """[SD1 reading, D PL "money for destroyed ships"]: after the battles of a hex, the
    reputation draws earned there - 1 in money: 1 for destroying an Ancient (1 + 1 draws), 0
    for losing (1 draw). Upkeep is the same with the option off: the difference is the prize."""
    outcomes = set()
    for seed in range(8):
        won, with_ = _battle_money(seed, True)
        won_off, without = _battle_money(seed, False)
        assert won == won_off
        assert with_ - without == (1 if won else 0), (seed, won)
        outcomes.add(won)
    assert outcomes == {True, False}


# ---- Magellan ----------------------------------------------------------------------------------

def test_magellan_colony_ships_for_resources():
    """[D J, PL; R2]: flip an unused colony ship for 1 resource of your choice; Influence flips
    only 1 back [D J]."""
    g = _start(("keepers", "terrans"))
    g.play("p1 magellan_flip science")
    g.play("p1 magellan_flip materials")
    g.play("p1 magellan_flip money")
    assert (g.get("money", 0), g.get("science", 0), g.get("materials", 0)) == (3, 3, 4)
    with pytest.raises(IllegalActionError, match="no colony ship is left face up"):
        g.play("p1 magellan_flip money")
    g.play("p1 influence")
    assert g.get("colony_used", 0) == 2
    g2 = _start(("terrans", "keepers"))
    with pytest.raises(IllegalActionError, match="only the Magellan side"):
        g2.play("p1 magellan_flip money")


def test_magellan_tech_track_discovery_and_used_discovery_vp():
    """[SD1 exact; D PL]: a discovery tile the first time a row holds 4 technologies; +1 VP per
    discovery used [D J, PL]."""
    g = _start(("sentinels", "terrans"))
    _set(g, v__techs__0=("tech_fusion_source", "tech_gauss_shield", "tech_improved_hull"),
         v__tech_market=("tech_positron_computer", "tech_nanorobots"), r__science__0=20)
    bag = len(g.get("discovery_bag"))
    g.play("p1 research")
    g.play("p1 tile tech_positron_computer")                # the 4th grid tech
    assert g.get("magellan_found", 0)
    g.play(f"p1 found_hex {_home(g, 0)}")
    assert len(g.get("discovery_bag")) == bag - 1
    g.play("p1 use true")
    assert g.get("discoveries_drawn", 0) == 1 and g.get("discoveries_kept", 0) == 0
    new_species_invariant(g)
    while not g.over:
        legal = list(g.legal_actions())
        g.play(next((a for a in legal if a.name in ("pass_turn", "done")), legal[0]))
    assert g.scores()[0]["sources"].get("score_new_species") == 1


# ---- Enlightened of Lyra: the re-roll ----------------------------------------------------------
# "During combat flip an unused colony ship to re-roll one of your own dice" [D PL; R1; SD1];
# each die at most once per volley [X]; auto_combat re-rolls the missed dice [X].

LYRA_HEX = "1,1"
CHANCE = -1


def _lyra_battle(ships=1, colony_used=0, species="lyra", **options):
    """``ships`` of p1's interceptors (initiative 3: they fire first) beside an Ancient
    (initiative 2, hull 1) in LYRA_HEX, the action phase ended: p1's volley is due."""
    g = _start((species, "terrans"), **options)
    g.auto_chance = False
    _stage(g, LYRA_HEX, "s201", ships=((0, "interceptor"),) * ships, npcs=("ancient",))
    _set(g, v__colony_used__0=colony_used)
    g.play("p1 pass_turn")
    g.play("p2 pass_turn")
    assert g.state.pending[0].label == "rolls" and g.state.pending[0].options.count == ships
    return g


def _roll(g, *faces):
    g.play(boardrules.Action(CHANCE, "rolls", (tuple(faces),)))


def _reroll_face(g, face):
    assert g.state.pending[0].label == "face"
    g.play(boardrules.Action(CHANCE, "face", ((face,),)))


def _ancient_damage(g):
    return dict(g.get("battle"))["state"][1]


def test_lyra_flips_a_colony_ship_to_reroll_one_die():
    """A missed die (a 1) re-rolled to a 6 hits the Ancient: one colony ship flipped."""
    g = _lyra_battle()
    _roll(g, 1)
    d = g.state.pending[0]
    assert (d.label, d.player, d.options) == ("reroll", 0, (1,))
    assert g.get("volley_rolls") == (1,)
    g.play("p1 reroll 1")
    assert g.get("colony_used", 0) == 1
    _reroll_face(g, 6)
    assert _ancient_damage(g) == ((1,),)              # the re-rolled 6 hit
    assert g.state.pending[0].label == "rolls"        # the Ancient's volley: no second offer
    assert g.get("volley_rolls") == ()
    new_species_invariant(g)


def test_lyra_may_decline_and_needs_a_face_up_colony_ship():
    """Declined, the miss stands and no colony ship turns; with every colony ship (3 [D J])
    face down, or for another species, no re-roll is offered."""
    g = _lyra_battle()
    _roll(g, 1)
    g.play("p1 reroll")
    assert g.get("colony_used", 0) == 0 and _ancient_damage(g) == ((0,),)
    assert g.state.pending[0].label == "rolls"
    for species, used in (("lyra", 3), ("terrans", 0)):
        g = _lyra_battle(colony_used=used, species=species)
        _roll(g, 1)
        assert g.state.pending[0].label == "rolls" and g.state.pending[0].options.count == 2
        assert g.get("colony_used", 0) == used


def test_lyra_rerolls_each_die_once_one_colony_ship_each():
    """Two dice, both 1s: die 1 re-rolled (a 1 again) may not be re-rolled again -- an illegal
    choice names the rule and changes nothing; die 2 re-rolled to a 6 hits; two ships flipped."""
    g = _lyra_battle(ships=2)
    _roll(g, 1, 1)
    assert g.state.pending[0].options == (1, 2)
    g.play("p1 reroll 1")
    _reroll_face(g, 1)
    assert g.state.pending[0].options == (2,) and g.get("volley_rolls") == (1, 1)
    before = g.state
    with pytest.raises(IllegalActionError):
        g.play("p1 reroll 1")
    assert g.state == before
    g.play("p1 reroll 2")
    _reroll_face(g, 6)
    assert g.get("colony_used", 0) == 2 and _ancient_damage(g) == ((1,),)


@pytest.mark.parametrize("faces, rerolled, used", [((6, 1), 1, 1), ((1, 1), 2, 2), ((6, 6), 0, 0)])
def test_auto_combat_rerolls_the_missed_dice(faces, rerolled, used):
    """auto_combat [X]: each missed die is re-rolled while colony ships last (here into
    another 1), a hit never."""
    g = _lyra_battle(ships=2, auto_combat=True)
    _roll(g, *faces)
    for _ in range(rerolled):
        _reroll_face(g, 1)
    assert g.get("colony_used", 0) == used
    assert not g.state.pending or g.state.pending[0].label != "face"


def test_lyra_rerolls_replay_from_the_record():
    """A whole game (a random bot; Lyra re-rolls the first die whenever offered): the record
    holds the re-rolls and their faces and replays exactly, legality checked."""
    from boardrules.bots import RandomBot
    for seed in range(40):          # the first seed whose random game has Lyra re-roll
        g = _start(("lyra", "terrans", "terrans"), seed=seed, rounds=4)
        bot = RandomBot(0)
        while not g.over:
            d = g.state.pending[0] if g.state.pending else None
            g.play(f"p1 reroll {d.options[0]}" if d and d.label == "reroll" else bot.choose(g))
            new_species_invariant(g)
        texts = [str(a) for a in g.record.actions]
        if any(t.startswith("p1 reroll ") for t in texts):
            break
    assert any(t.startswith("p1 reroll ") for t in texts) and any(t.startswith("chance face") for t in texts)
    again = boardrules.load_game(g.save(), check=True)
    assert again.state == g.state and again.scores() == g.scores()


@SETTINGS
@given(data=st.data())
def test_lyra_rerolls_keep_the_rule(data):
    """Random volleys and random re-roll choices: every re-roll flips exactly one colony ship,
    never more than the 3 face up, each die at most once; the volley applied is the final
    faces (the Ancient's damage is what they hit)."""
    ships = data.draw(st.integers(1, 3), label="ships")
    used = data.draw(st.integers(0, 3), label="colony ships used")
    g = _lyra_battle(ships=ships, colony_used=used)
    faces = data.draw(st.lists(st.integers(1, 6), min_size=ships, max_size=ships), label="faces")
    _roll(g, *faces)
    final, done = list(faces), []
    while g.state.pending[0].label == "reroll":
        opts = g.state.pending[0].options
        assert set(opts) == set(range(1, ships + 1)) - set(done) and used + len(done) < 3
        die = data.draw(st.sampled_from((None,) + tuple(opts)), label="reroll")
        if die is None:
            g.play("p1 reroll")
            break
        g.play(f"p1 reroll {die}")
        face = data.draw(st.integers(1, 6), label="face")
        _reroll_face(g, face)
        done.append(die)
        final[die - 1] = face
        assert g.get("colony_used", 0) == used + len(done)
        check_invariants(g)
    assert len(set(done)) == len(done) and g.get("colony_used", 0) == used + len(done) <= 3
    hits = sum(1 for f in final if f == 6)              # the Ancient: no shield, computer 0 hits on 6
    if g.get("battle"):
        assert sum(_ancient_damage(g)[0]) == min(hits, 1)
    else:
        assert hits >= 2                                  # destroyed (hull 1)
    new_species_invariant(g)


# ---- random games ------------------------------------------------------------------------------

def _seat_new_species(data, n):
    """Species for n seats: one to three new boards (each with a random side up), Terrans on
    the other seats."""
    boards = list(zip(FRONTS, ("sentinels", "wardens", "keepers")))
    data.draw(st.randoms(use_true_random=False), label="shuffle").shuffle(boards)
    k = data.draw(st.integers(1, min(3, n)), label="new species")
    picks = [pair[data.draw(st.integers(0, 1), label="side")] for pair in boards[:k]] + ["terrans"] * (n - k)
    data.draw(st.randoms(use_true_random=False), label="seats").shuffle(picks)
    return picks


@SETTINGS
@given(data=st.data())
def test_random_games_with_new_species(data):
    g = play_random(data, (MODULE,), new_species_invariant, picks=_seat_new_species, money=12,
                    prefer=("shrine", "magellan_flip", "research", "build", "make", "tile", "found_hex"))
    assert g.over and any(g.get("species_of", p) in FRONTS + MAGELLAN for p in range(g.players))


def test_bots_play_whole_games_and_pick_new_species():
    """`boardrules play eclipse -m new-species`: the greedy bot plays whole games and picks the
    new species as it picks any."""
    from boardrules.bots import RandomBot
    seen = set()
    for seed in range(6):
        g = boardrules.new_game("eclipse", players=4, seed=seed, modules=[MODULE],
                                options={"rounds": 2, "auto_combat": True})
        bot = RandomBot(seed)
        while not g.over:
            g.play(bot.choose(g))
        seen |= {g.get("species_of", p) for p in range(4)}
    assert seen & set(FRONTS + MAGELLAN)


# ---- with rare-technologies ----------------------------------------------------------------------

def test_start_tiles_with_rare_technologies():
    """With rare-technologies on, its tiles are the boards' start tiles: on the printed row
    [D J], and the one copy in the bag may still be researched by another player [S: "species
    start techs excepted"], never by the owner of the start tile."""
    g = boardrules.new_game("eclipse", players=3, seed=2, modules=[MODULE, "rare-technologies"])
    for p, s in ((3, "terrans"), (2, "lyra"), (1, "exiles")):
        g.play(f"p{p} pick_species {s}")
    assert g.ruleset.entities["tech_cloaking_device"].fields["category"] == "rare"
    assert g.get("placed_row", 0, index="tech_cloaking_device") == "military"
    assert g.get("placed_row", 1, index="tech_distortion_shield") == "grid"
    assert "tech_cloaking_device" in g.get("tech_bag") + g.get("tech_aside")
    check_invariants(g)
    new_species_invariant(g)


@SETTINGS
@given(data=st.data())
def test_random_games_with_new_species_and_rare_technologies(data):
    def both(g):
        new_species_invariant(g)
        if g.get("species_of", g.players - 1) is not None:
            rare_invariant(g)
    g = play_random(data, (MODULE, "rare-technologies"), both, picks=_seat_new_species, money=12,
                    prefer=("shrine", "research", "tile", "row"))
    assert g.over


# ---- with nine-players -------------------------------------------------------------------------

@pytest.mark.parametrize("picks,homes", [
    (["terrans"] * 7 + ["exiles", "sentinels"], {"s234", "s237", "s235"}),
    (["terrans"] * 8 + ["rho_indi"], {"s236", "s233", "s237"}),
    (["lyra", "wardens", "keepers"] + ["terrans"] * 6, {"s238", "s233", "s235"})])
def test_nine_players_spare_homes_leave_the_boards_in_play(picks, homes):
    """With nine-players the Magellan sectors are spare Terran homes [X, nine-players]; never
    one of a species in play nor the other side of a board in play."""
    g = boardrules.new_game("eclipse", players=9, seed=1, modules=["nine-players", MODULE])
    for p in range(9, 0, -1):
        g.play(f"p{p} pick_species {picks[p - 1]}")
    while g.state.pending and g.state.pending[0].label in ("rotation", "discard_cube"):
        g.play(list(g.legal_actions())[0])
    placed = {g.get("sector_at", index=g.get("home_hex", p)) for p in range(9)}
    assert placed - {f"s{n}" for n in range(221, 233)} == homes
    check_invariants(g)
    new_species_invariant(g)
