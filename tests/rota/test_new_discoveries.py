"""Rise of the Ancients, new discoveries (``-m new-discoveries``): the nine new tiles and the
reshuffled discovery stack."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

import boardrules
from boardrules import IllegalActionError
from boardrules.runtime import Context
from boardrules_eclipse.primitives import _galaxy, _pos, ship_type
from boardrules_eclipse.battle import battle_regenerate
from tests.eclipse.test_combat_play import FAR, _end_actions, _stage
from tests.eclipse.test_edge_cases import HOME, _set

from .common import SETTINGS, play_random

MODULE = "new-discoveries"
# the nine tiles and their counts [D J; the seed's count of 9]
NEW = {"find_supplies": 2, "find_ancient_orbital": 2, "find_ancient_warp_portal": 1,
       "find_jump_drive": 1, "find_muon_source": 1, "find_morph_shield": 1, "find_ion_disruptor": 1}
PART_OF = {"find_jump_drive": "jump_drive", "find_muon_source": "muon_source",
           "find_morph_shield": "morph_shield", "find_ion_disruptor": "ion_disruptor"}


def _placed(g, tile) -> int:
    """Copies of a new tile out of the bag and the discards, by the trace it leaves."""
    n = g.players
    if tile in PART_OF:
        part = PART_OF[tile]
        return sum(g.get("spares", p, index=part)
                   + sum(list(g.get("blueprint", p, index=c) or ()).count(part)
                         + list(g.get("grid_extras", p, index=c) or ()).count(part)
                         for c in ("interceptor", "cruiser", "dreadnought", "starbase"))
                   for p in range(n))
    if tile == "find_ancient_warp_portal":
        return int(g.get("ancient_portal_at") is not None)
    if tile == "find_ancient_orbital":
        return sum(1 for h in g.get("hexes") if g.get("artifact_at", index=h))
    return 0


def discoveries_invariant(g) -> None:
    """Each new discovery tile is in one place at most: the bag, the discards, or where using it
    put it (a part on one blueprint or among the spare parts, the portal's or an orbital's hex);
    the bag is empty only when no discarded tile is waiting (the reshuffle); the Ancient Warp
    Portal's hex has a warp portal; at the end its controller scored 2 VP for it."""
    bag, discards = Counter(g.get("discovery_bag")), Counter(g.get("discovery_discards"))
    for tile, copies in NEW.items():
        assert bag[tile] + discards[tile] + _placed(g, tile) <= copies, tile
    assert not (discards and not bag and g.state.values.get(("f", "stage"), 0) >= 1)
    portal = g.get("ancient_portal_at")
    if portal is not None:
        assert g.get("warp_portal_at", index=portal)
    if g.over:
        ctrl = g.get("controller", index=portal) if portal else None
        for p, s in enumerate(g.scores()):
            assert s["sources"].get("score_ancient_portal", 0) == (2 if ctrl == p else 0)


def _start(players=2, seed=3, modules=(MODULE,)):
    g = boardrules.new_game("eclipse", players=players, seed=seed, modules=list(modules))
    for p in range(players, 0, -1):
        g.play(f"p{p} pick_species terrans")
    return g


def _find(g, tile, h=FAR, sector="s315", use=True):
    """p1 takes hex ``h`` (staged with a p1 interceptor and a discovery tile) by Influence and
    draws ``tile``; ``use``: use it (else keep it face down)."""
    if h not in g.get("hexes"):
        _stage(g, h, sector, ships=[(0, "interceptor")])
    _set(g, **{f"v__discovery_at__{h}": True})
    g.auto_chance = False
    g.play("p1 influence")
    g.play(f"p1 target {h}")
    g.play(f"chance discovery {tile}")
    g.play(f"p1 use {str(use).lower()}")
    return h


def test_nine_tiles_join_the_bag():
    """Seed: nine new discovery tiles; which are doubled [D J]."""
    base, g = _start(modules=()), _start()
    added = Counter(g.get("discovery_bag")) - Counter(base.get("discovery_bag"))
    assert added == Counter(NEW) and sum(added.values()) == 9
    assert g.view(0)["values"][("v", "discovery_bag")] == ("hidden", 30)   # hidden: the size only


def test_supplies_give_three_two_two_and_are_discarded():
    """Seed: +3 money, +2 science, +2 materials, then the tile is discarded."""
    g = _start()
    before = [g.get(r, 0) for r in ("money", "science", "materials")]
    _find(g, "find_supplies")
    assert [g.get(r, 0) - b for r, b in zip(("money", "science", "materials"), before)] == [3, 2, 2]
    assert g.get("discovery_discards") == ("find_supplies",)


def test_ancient_orbital_is_an_orbital_with_an_artifact():
    """Seed: placed in the hex where found; it also shows an artifact."""
    g = _start()
    h = _find(g, "find_ancient_orbital")
    assert g.get("orbital_at", index=h) and g.get("artifact_at", index=h)
    g.play(f"p1 colonize {h}|o:money")          # its population square is the orbital's
    assert "o:money" in g.get("cubes", index=h)
    # the Artifact Key counts its artifact beside the sector's
    g2 = _start()
    h2 = _find(g2, "find_ancient_orbital", sector="s302")   # s302 prints an artifact too
    _set(g2, v__tech_market=("tech_artifact_key",), r__science__0=40)
    g2.play("p1 done")
    g2.play("p2 pass_turn")
    g2.play("p1 research")
    g2.play("p1 tile tech_artifact_key")
    labels = []
    while g2.state.pending and g2.state.pending[0].label == "artifact":
        labels.append(g2.state.pending[0].label)
        g2.play("p1 artifact money")
    assert len(labels) == 2 + 1         # two in h2 (sector + tile), one in the home sector
    assert h2 != HOME and g2.get("controller", index=h2) == 0


def test_ancient_orbital_in_a_hex_with_an_orbital_is_kept_for_vp():
    """[X, as J] a hex holds one orbital: the tile then counts as a discovery kept face down."""
    g = _start()
    _stage(g, FAR, "s315", ships=[(0, "interceptor")])
    _set(g, **{f"v__orbital_at__{FAR}": True})
    _find(g, "find_ancient_orbital")
    assert g.get("discoveries_kept", 0) == 1 and not g.get("artifact_at", index=FAR)


def test_ancient_warp_portal_links_and_scores_two():
    """Seed: placed where found, adjacent to every other warp portal, 2 VP if controlled at the end."""
    g = _start(modules=(MODULE, "warp-portals"))
    _stage(g, "0,3", "s381", rotation=0)              # a printed warp portal far away
    h = _find(g, "find_ancient_warp_portal")
    assert g.get("warp_portal_at", index=h) and g.get("ancient_portal_at") == h
    gal = _galaxy(Context(g.ruleset, g.state.values))
    assert gal.connected(_pos(h), _pos("0,3"))
    discoveries_invariant(g)
    g.play("p1 done")
    while not g.over:
        legal = list(g.legal_actions())
        g.play(next((a for a in legal if a.name in ("pass_turn", "done")), legal[0]))
    assert g.scores()[0]["sources"]["score_ancient_portal"] == 2
    assert "score_ancient_portal" not in g.scores()[1]["sources"] or \
        g.scores()[1]["sources"]["score_ancient_portal"] == 0
    discoveries_invariant(g)


def test_jump_drive_may_be_the_only_drive():
    """Seed: a part; a jump drive may be a ship's only drive (the Upgrade is legal)."""
    g = _start()
    _find(g, "find_jump_drive")
    assert g.get("spares", 0, index="jump_drive") == 1
    g.play("p1 done")
    g.play("p2 pass_turn")
    g.play("p1 upgrade")
    g.play("p1 install interceptor#2=jump_drive")        # replaces the Nuclear Drive
    assert g.get("blueprint", 0, index="interceptor")[2] == "jump_drive"
    assert g.get("spares", 0, index="jump_drive") == 0
    t = ship_type(Context(g.ruleset, g.state.values, me=0), 0, "interceptor")
    assert t.initiative == 2          # the drive's +1 gone, the jump drive gives none [D J]


def test_muon_source_goes_outside_the_grid():
    """Seed: placed outside the blueprint grid (no slot); +2 energy, +1 initiative [D J]."""
    g = _start()
    bp = g.get("blueprint", 0, index="cruiser")
    _find(g, "find_muon_source")
    g.play("p1 muon_class cruiser")
    assert g.get("blueprint", 0, index="cruiser") == bp and g.get("spares", 0, index="muon_source") == 0
    assert g.get("grid_extras", 0, index="cruiser") == ("muon_source",)
    ctx = Context(g.ruleset, g.state.values, me=0)
    base = _start()
    assert ship_type(ctx, 0, "cruiser").initiative == ship_type(
        Context(base.ruleset, base.state.values, me=0), 0, "cruiser").initiative + 1
    # its +2 energy counts for blueprints: a plasma cannon (-2) fits where the Nuclear Source's
    # 3 alone would not pay for it beside the ion cannon and drive
    from boardrules_eclipse.primitives import stat_after
    with_muon = stat_after.fn(ctx, "cruiser#5=plasma_cannon", "energy")
    without = stat_after.fn(Context(base.ruleset, base.state.values, me=0), "cruiser#5=plasma_cannon", "energy")
    assert with_muon == without + 2


def test_morph_shield_and_ion_disruptor_reach_the_combat_engine():
    """Seed: Morph Shield removes one damage after each engagement round (shield 1, initiative +2
    [D J]); Ion Disruptor is an ion cannon with +3 initiative."""
    g = _start()
    _set(g, **{"v__blueprint__0__interceptor": ("ion_cannon", "nuclear_source", "nuclear_drive", "morph_shield"),
               "v__blueprint__0__cruiser": ("ion_disruptor", "hull", "electron_computer", "nuclear_source",
                                            "nuclear_drive", "empty")})
    ctx = Context(g.ruleset, g.state.values, me=0)
    i, c = ship_type(ctx, 0, "interceptor"), ship_type(ctx, 0, "cruiser")
    assert (i.shield, i.regenerate, i.initiative) == (1, 1, 2 + 1 + 2)
    assert (c.cannons, c.initiative, c.regenerate) == ((1,), 1 + 1 + 3, 0)


def test_morph_shield_repairs_after_each_engagement_round():
    g = _start()
    g.auto_chance = False
    _set(g, **{"v__blueprint__0__interceptor": ("ion_cannon", "nuclear_source", "nuclear_drive", "morph_shield")})
    _stage(g, FAR, "s303", ships=[(0, "interceptor"), (0, "cruiser")], npcs=["ancient"])
    _end_actions(g)
    b = dict(g.get("battle"))
    assert b["att"] == 0
    b.update(state=(((1,), (1,)), b["state"][1]))
    _set(g, v__battle=tuple(sorted(b.items())))
    ctx = Context(g.ruleset, g.state.values, me=0)
    battle_regenerate.fn(ctx)
    after = dict(ctx.merged()[("v", "battle")])
    assert after["state"][0] == ((0,), (1,))   # the interceptor repairs, the cruiser does not


def test_the_stack_is_refilled_from_the_discards():
    """Seed: when the discovery tiles run out, the discarded ones are shuffled into a new stack."""
    g = _start()
    _set(g, v__discovery_bag=("find_supplies",), v__discovery_discards=("find_money", "find_tech"))
    _find(g, "find_supplies")
    assert sorted(g.get("discovery_bag")) == ["find_money", "find_tech"]
    assert g.get("discovery_discards") == ("find_supplies",)
    discoveries_invariant(g)


def test_a_kept_tile_is_not_discarded():
    g = _start()
    _find(g, "find_supplies", use=False)
    assert g.get("discovery_discards") == () and g.get("discoveries_kept", 0) == 1


def test_an_illegal_muon_class_changes_nothing():
    g = _start()
    _find(g, "find_muon_source")
    before = g.state
    with pytest.raises(IllegalActionError):
        g.play("p1 muon_class gcds")
    assert g.state == before


SPACES = ("0,-3", "3,-3", "-3,3", "0,3", "3,0", "-3,0", "1,-3", "-1,3")


@SETTINGS
@given(data=st.data())
def test_every_tile_is_accounted_for_through_finds_and_reshuffles(data):
    """Only the nine new tiles, some in the bag and the rest discarded; p1 finds up to eight of
    them one by one (how many are in the bag, which tile, use or keep, where the Muon Source goes:
    drawn by hypothesis): after every find each tile is in exactly one place -- the bag, the
    discards, kept face down, or where using it put it -- and the bag is refilled from the
    discards when it runs out."""
    g = _start()
    g.auto_chance = False
    tiles = [t for t, k in NEW.items() for _ in range(k)]
    in_bag = data.draw(st.integers(1, len(tiles)), label="in the bag")    # the rest discarded
    _set(g, v__discovery_bag=tuple(tiles[:in_bag]), v__discovery_discards=tuple(tiles[in_bag:]))
    finds = data.draw(st.integers(1, len(SPACES)), label="finds")
    for i, h in enumerate(SPACES[:finds]):
        _stage(g, h, "s315", ships=[(0, "interceptor")])
        _set(g, **{f"v__discovery_at__{h}": True})
        if i % 2 == 0:
            if i:
                g.play("p1 done")
                g.play("p2 pass_turn")
            g.play("p1 influence")
        else:
            g.play("p1 again")
        g.play(f"p1 target {h}")
        bag = g.get("discovery_bag")
        g.play(f"chance discovery {data.draw(st.sampled_from(sorted(set(bag))), label='tile')}")
        g.play(f"p1 use {str(data.draw(st.booleans(), label='use')).lower()}")
        if g.state.pending and g.state.pending[0].label == "muon_class":
            cls = data.draw(st.sampled_from(g.state.pending[0].options), label="class")
            g.play(f"p1 muon_class {cls}")
        discoveries_invariant(g)
        held = len(g.get("discovery_bag")) + len(g.get("discovery_discards")) + g.get("discoveries_kept", 0)
        assert held + sum(_placed(g, t) for t in NEW) == sum(NEW.values())


@SETTINGS
@given(data=st.data())
def test_random_games_with_new_discoveries(data):
    play_random(data, (MODULE,), discoveries_invariant, prefer=("use", "influence", "explore"))
