"""Issue 8: behaviour moved from primitives.py into the rule files. Each rule keeps its meaning
and now says, in one precise message, which condition an illegal action breaks; the state is
unchanged when it does."""

from __future__ import annotations

import pytest

from boardrules.errors import IllegalActionError

from .test_edge_cases import HOME, _set
from .test_game import check_invariants, new


def _colonies(g):
    return sorted(a.args[0] for a in g.legal_actions() if a.name == "colonize")


def _refused(g, text, match):
    before = g.state
    with pytest.raises(IllegalActionError, match=match):
        g.play(text)
    assert g.state == before


def test_colonize_free_squares_of_the_type_and_advanced_ones_with_their_technology():
    """eclipse.md §2.2 and the boards: a cube onto a free square of its type in a hex you
    control; "*" squares need the technology opening them (Advanced Economy: money)."""
    g = new(2)                                     # p1's home s221: money, money*, science, science*, materials
    _set(g, **{"v__cubes__" + HOME: ("0:money",)}, v__out_science__0=0, v__out_materials__0=0)
    assert _colonies(g) == ["2,0|2:science", "2,0|4:materials"]
    _refused(g, "p1 colonize 2,0|1:money", "advanced square needs the technology")
    _refused(g, "p1 colonize 2,0|0:money", "already stands on that square")
    _set(g, v__techs__0=("tech_advanced_economy",))
    assert _colonies(g) == ["2,0|1:money", "2,0|2:science", "2,0|4:materials"]
    g.play("p1 colonize 2,0|1:money")
    assert g.get("cubes", index=HOME) == ("0:money", "1:money")
    assert g.get("out_money", player=0) == 2 and g.get("colony_used", player=0) == 1
    check_invariants(g)


def test_colonize_needs_a_face_up_colony_ship_and_a_cube_on_the_track():
    """The species' colony ships (species.rules) and the 11-square tracks [S boards]."""
    g = new(2)
    _set(g, **{"v__cubes__" + HOME: ("0:money",)}, v__out_science__0=11, v__out_materials__0=0)
    _refused(g, "p1 colonize 2,0|2:science", "no cube is left on the science track")
    g.play("p1 colonize 2,0|4:materials")
    ships = g.get("colony_used", player=0)
    _set(g, v__colony_used__0=99)
    assert _colonies(g) == [] and ships == 1
    _refused(g, "p1 colonize 2,0|2:science", "no colony ship is left face up")


def test_colonize_the_orbital_square_takes_money_or_science():
    """The orbital's square [M]: money or science, square "o", once built."""
    g = new(2)
    _set(g, **{"v__cubes__" + HOME: ("0:money", "2:science", "4:materials")})
    assert _colonies(g) == []
    _set(g, **{"v__orbital_at__" + HOME: True})
    assert _colonies(g) == ["2,0|o:money", "2,0|o:science"]
    _refused(g, "p1 colonize 3,0|0:money", "not a possible o")   # no hex of p1


def _upgrades(g):
    g.play("p1 upgrade")
    return set(g.state.pending[0].options)


def test_blueprint_legal_with_energy_to_spare_and_the_drive_rule():
    """The boards and player aid: parts use no more energy than the blueprint produces; a
    ship that moves keeps a drive, the starbase (not `mobile`) takes none."""
    g = new(2)       # the standard interceptor: ion cannon, nuclear source, nuclear drive, empty
    options = _upgrades(g)
    interceptor = {o for o in options if o.startswith("interceptor#")}
    assert interceptor == {f"interceptor#{i}={p}" for i in (0, 3) for p in
                           ("hull", "nuclear_drive", "electron_computer", "nuclear_source")} \
        | {"interceptor#0=empty", "interceptor#3=ion_cannon"}
    assert "interceptor#1=hull" not in options      # no source: -2 energy
    assert "interceptor#2=hull" not in options      # no drive left
    assert "starbase#4=ion_cannon" in options       # 3 printed energy pays for it
    assert "starbase#4=nuclear_drive" not in options
    _refused(g, "p1 install interceptor#2=hull", "interceptor#2=hull")
    _refused(g, "p1 install interceptor#9=hull", "interceptor#9=hull")
    g.play("p1 install interceptor#3=nuclear_drive")
    assert g.get("blueprint", 0, index="interceptor") == ("ion_cannon", "nuclear_source",
                                                      "nuclear_drive", "nuclear_drive")
    check_invariants(g)


def test_a_spare_discovery_part_is_used_up_once_placed():
    """Discovery parts [S tile art]: one tile each, no technology needed."""
    g = new(2)
    _set(g, v__spares__0__shard_hull=1)
    assert "interceptor#3=shard_hull" in _upgrades(g)
    g.play("p1 install interceptor#3=shard_hull")
    assert g.get("spares", 0, index="shard_hull") == 0
    assert g.get("blueprint", 0, index="interceptor")[3] == "shard_hull"


def _builds(g):
    g.play("p1 build")
    return set(g.state.pending[0].options)


def test_build_what_the_species_can_pay_with_its_technology_within_the_limits():
    """Player aid and boards: build costs by species (Terrans 3/5/8/3/5/10), the starbase,
    orbital and monolith need their technology, a class's supply limits it (2 dreadnoughts),
    one structure of each kind per hex."""
    g = new(2)
    _set(g, r__materials__0=8, v__techs__0=())           # Terrans start with Starbase: not here
    assert _builds(g) == {"interceptor@2,0", "cruiser@2,0", "dreadnought@2,0"}
    g = new(2)
    _set(g, r__materials__0=7, v__techs__0=("tech_starbase", "tech_orbital"),
         **{"v__orbital_at__" + HOME: True})
    assert _builds(g) == {"interceptor@2,0", "cruiser@2,0", "starbase@2,0"}
    _refused(g, "p1 make dreadnought@2,0", "dreadnought@2,0")
    _refused(g, "p1 make orbital@2,0", "orbital@2,0")
    g.play("p1 make starbase@2,0")
    assert g.get("materials", 0) == 4 and (0, "starbase") in g.get("ships", index=HOME)
    g = new(2)
    _set(g, r__materials__0=30, **{"v__ships__" + HOME: ((0, "dreadnought"),) * 2})
    assert "dreadnought@2,0" not in _builds(g)      # both dreadnoughts are on the board
    check_invariants(g)


def test_allies_attack_population_together_and_never_an_ally():
    """Seed (RotA alliances): allies fight as one side, so the ships of both attack the
    population of an enemy's hex they hold (all their cannons roll) and take the disc off once
    no cube is left; an ally's hex is not attacked. The first ally to have entered picks the
    cubes [X]."""
    from boardrules.game import Action
    from boardrules.runtime import CHANCE

    from .test_combat_play import FAR, _stage
    g = new(3)
    g.auto_chance = False
    _set(g, v__allies__0=(1,), v__allies__1=(0,))
    _stage(g, FAR, "s301", ships=[(1, "interceptor"), (0, "interceptor")], controller=2,
           cubes=("0:money", "1:science"))
    for p in (1, 2, 3):
        g.play(f"p{p} pass_turn")
    d = g.state.pending[0]
    assert (d.player, d.label) == (CHANCE, "rolls")
    g.play(Action(CHANCE, "rolls", ((6, 6),)))      # two hits: both cubes die
    assert g.get("cubes", index=FAR) == ()
    assert g.get("controller", index=FAR) is None    # the disc is taken off
    check_invariants(g)


def test_an_allys_ships_neither_bombard_nor_take_over_its_hex():
    from .test_combat_play import FAR, _stage
    g = new(3)
    _set(g, v__allies__0=(1,), v__allies__1=(0,))
    _stage(g, FAR, "s301", ships=[(1, "interceptor")], controller=0, cubes=("0:money",))
    for p in (1, 2, 3):
        g.play(f"p{p} pass_turn")
    assert g.get("cubes", index=FAR) == ("0:money",) and g.get("controller", index=FAR) == 0
    check_invariants(g)
