"""Issue 8: which parts a player may place is a rule (``placeable_parts`` in
``rules/actions.rules``): the basic (starting) parts, those of the player's researched
technologies and spare discovery parts [S player aid]; Python lists only the slots."""

from __future__ import annotations

import boardrules

from .test_game import new
from .test_rules_moved import _set, _upgrades


def test_a_part_needs_its_technology():
    g = new(2)
    assert not any(o.endswith("=plasma_cannon") for o in _upgrades(g))
    assert "plasma_cannon" not in g.get("placeable", 0)
    g = new(2)
    _set(g, v__techs__0=("tech_plasma_cannon",))
    options = _upgrades(g)
    assert "interceptor#0=plasma_cannon" in options           # 3 - 1 - 2 = 0 energy: legal
    assert "interceptor#3=plasma_cannon" not in options       # 3 - 1 - 1 - 2 < 0
    assert "plasma_cannon" in g.get("placeable", 0)
    assert "gauss_shield" not in g.get("placeable", 0)        # not researched


def test_the_basic_parts_and_a_spare_part_once():
    g = new(2)
    _set(g, v__spares__0__shard_hull=2)
    _upgrades(g)
    placeable = g.get("placeable", 0)
    assert {"ion_cannon", "hull", "nuclear_drive", "nuclear_source", "electron_computer",
            "empty"} <= set(placeable)
    assert placeable.count("shard_hull") == 1


def test_the_order_basic_and_researched_then_spares():
    """The order of ``placeable`` (the Upgrade options' order, which seeded games follow): the
    parts of the rule files' order that are basic or researched, then the spare parts not among
    them, each once; a spare of a researched part is not repeated (the rule walks the parts
    once, ``placeable_parts``)."""
    g = new(2)
    parts = g.ruleset.by_kind["part"]
    field = g.ruleset.entities
    _set(g, v__techs__0=("tech_plasma_cannon",), v__spares__0__shard_hull=1,
         v__spares__0__antimatter_cannon=1, v__spares__0__plasma_cannon=1, v__spares__0__ion_cannon=3)
    _upgrades(g)
    researched = [x for x in parts if field[x].fields["basic"]
                  or field[x].fields["tech"] == "tech_plasma_cannon"]
    assert "plasma_cannon" in researched and "shard_hull" not in researched
    # (antimatter_cannon comes before basic parts in the rule files: spares go after them)
    assert list(g.get("placeable", 0)) == researched + ["antimatter_cannon", "shard_hull"]
    assert g.get("spare_only", 0) == ()     # (the scratch list is left empty)


def test_made_afresh_when_its_inputs_change():
    """``placeable`` is walked again only when ``placeable_inputs()`` (the techs and the parts
    held as spares) differ from what it was made from: a tech or a spare part that reaches the
    state by any way (here written directly, as a house rule might) is placeable at once, and a
    spare no longer held is not."""
    g = new(2)
    assert g.get("placeable_from", 0) is not None          # made at setup
    assert not any(o.endswith("=plasma_cannon") for o in _upgrades(g))
    g.undo()
    _set(g, v__techs__0=("tech_plasma_cannon",))
    assert "interceptor#0=plasma_cannon" in _upgrades(g)
    g.undo()
    _set(g, v__spares__0__shard_hull=1)
    assert any(o.endswith("=shard_hull") for o in _upgrades(g))
    g.undo()
    _set(g, v__spares__0__shard_hull=0)
    assert not any(o.endswith("=shard_hull") for o in _upgrades(g))


def test_a_class_is_offered_the_placeable_parts_its_not_on_allows():
    """``placeable_on[c]``: ``placeable`` in its order less the parts whose ``not_on`` names
    ship class ``c`` (the rule applied once per part and class: the Upgrade choice lists only
    these parts for ``c``'s slots); the others stay on every class (the rare Interceptor Bay:
    not on interceptors)."""
    g = boardrules.new_game("eclipse", players=2, seed=3, modules=["rare-technologies"])
    for p in (2, 1):
        g.play(f"p{p} pick_species terrans")
    _set(g, v__techs__0=("tech_interceptor_bay", "tech_plasma_cannon"))
    options = _upgrades(g)
    placeable = list(g.get("placeable", 0))
    assert "interceptor_bay" in placeable and "plasma_cannon" in placeable
    assert list(g.get("placeable_on", 0, index="interceptor")) == [x for x in placeable if x != "interceptor_bay"]
    assert list(g.get("placeable_on", 0, index="cruiser")) == placeable
    assert not any(o.startswith("interceptor#") and o.endswith("=interceptor_bay") for o in options)
    assert "interceptor#3=plasma_cannon" in options or "interceptor#0=plasma_cannon" in options
    assert any(o.startswith("cruiser#") and o.endswith("=interceptor_bay") for o in options)
