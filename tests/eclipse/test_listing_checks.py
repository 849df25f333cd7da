"""Issue 12's checks-first order in ``rules/actions.rules``: a check moved ahead of the effect
it guards (or into an argument's ``where``) admits exactly what that effect admits, so the
legal actions are the same, only found sooner. Each test holds a rule value at its boundary
(the species' trade rate [S boards], a technology's cost and minimum [S tile art]).
"""

from __future__ import annotations

import pytest

import boardrules

from boardrules.errors import IllegalActionError
from boardrules.game import Action

from .test_edge_cases import _set
from .test_game import new


def _trades(g, p=0):
    return {a.args for a in g.legal_actions() if a.player == p and a.name == "trade"}


@pytest.mark.parametrize("species,rate", [("terrans", 2), ("orion", 4)])
def test_a_trade_is_listed_from_exactly_the_species_rate(species, rate):
    """eclipse.md §2.3, rates on the boards (Terrans 2:1, Orion 4:1) [S boards]: holding the
    rate is enough, one less is not; the refusal names the rule and changes nothing."""
    g = new(2, species=[species, "hydran"])
    _set(g, r__money__0=0, r__science__0=rate, r__materials__0=rate - 1)
    assert _trades(g) == {("science", "money"), ("science", "materials")}
    before = g.state
    with pytest.raises(IllegalActionError, match="less of it than your species' trade rate"):
        g.play("p1 trade materials money")
    assert g.state == before
    g.play("p1 trade science money")
    assert (g.get("science", 0), g.get("money", 0)) == (0, 1)
    assert _trades(g) == set()


def _research_options(g, science):
    _set(g, r__science__0=science)
    if Action(0, "research", ()) not in g.legal_actions():
        return set()
    g2 = g.copy()
    g2.play(Action(0, "research", ()))
    return set(g2.state.pending[0].options)


def test_research_is_listed_from_exactly_the_discounted_cost_or_minimum():
    """Technology costs [S tile art]: Plasma Cannon 6 (minimum 4), Gluon Computer 16
    (minimum 8); with three military tiles the row's discount is 3 [S boards]: Plasma Cannon
    costs its minimum 4 (6 - 3 = 3 is below it), Gluon Computer 16 - 3 = 13."""
    g = new(2)
    _set(g, v__techs__0=("tech_starbase", "tech_neutron_bombs", "tech_phase_shield"),
         v__tech_market=("tech_plasma_cannon", "tech_gluon_computer"))
    assert _research_options(g, 3) == set()                       # below every minimum
    assert _research_options(g, 4) == {"tech_plasma_cannon"}      # the minimum, exactly
    assert _research_options(g, 12) == {"tech_plasma_cannon"}     # above Gluon's minimum, below its cost
    assert _research_options(g, 13) == {"tech_plasma_cannon", "tech_gluon_computer"}


def test_research_is_listed_from_the_lowest_minimum_on_offer():
    """Research's first check (``lowest_min``, memoised per state): some technology on offer
    has a minimum the player's science reaches [S tile art: Neutron Bombs cost 2, minimum 2;
    Plasma Cannon 6, minimum 4; Gluon Computer 16, minimum 8]; an empty market refuses it.
    Each verdict equals a full try of the action (with no discount, science from the lowest
    minimum up to the lowest cost passes the check and fails in the tile's choice)."""
    g = new(2)
    market = ("tech_gluon_computer", "tech_plasma_cannon", "tech_neutron_bombs")
    for offer, science, listed in [(market, 1, False), (market, 2, True), (market[:2], 3, False),
                                   (market[:2], 4, False), (market[:2], 6, True), (market[:1], 7, False),
                                   (market[:1], 16, True), ((), 40, False)]:
        _set(g, v__tech_market=offer, r__science__0=science)
        legal = list(g.legal_actions())
        assert (Action(0, "research", ()) in legal) == listed, (offer, science)
        assert legal == g._legal_by_trying()
    with pytest.raises(IllegalActionError, match="not enough science for any technology on offer"):
        g.play("p1 research")


def test_build_is_listed_from_exactly_the_cheapest_build_cost():
    """Build costs [S boards]: a Terran Interceptor and Starbase (Terrans start with its
    technology) cost 3 materials, the cheapest of the species' builds; with 2 Build is not
    offered, and the refusal names the rule and changes nothing."""
    g = new(2)
    _set(g, r__materials__0=2)
    assert Action(0, "build", ()) not in g.legal_actions()
    before = g.state
    with pytest.raises(IllegalActionError, match="not enough materials for the cheapest build"):
        g.play("p1 build")
    assert g.state == before
    _set(g, r__materials__0=3)
    assert Action(0, "build", ()) in g.legal_actions()
    g.play("p1 build")
    assert {o.split("@")[0] for o in g.state.pending[0].options} == {"interceptor", "starbase"}


def test_move_explore_and_research_are_refused_before_the_activation_begins():
    """Move needs a ship of one's own that can move, Explore a space one may explore [M:
    eclipse.md §2.2], Research a technology on offer whose minimum the player's science
    reaches [S tile art: Plasma Cannon cost 6, minimum 4]: each is checked before the activation
    begins (no disc used), so listing refuses them at once; the refusal names the rule and
    changes nothing. (At the start no ship can move: the neighbouring spaces are unexplored.)"""
    g = new(2)
    _set(g, v__tech_market=("tech_plasma_cannon",), r__science__0=6)
    legal = list(g.legal_actions())
    assert {"explore", "research"} <= {a.name for a in legal} and Action(0, "move", ()) not in legal
    assert legal == g._legal_by_trying()
    _set(g, v__stack_inner=(), v__stack_middle=(), v__stack_outer=(), r__science__0=3)
    legal = list(g.legal_actions())
    assert not {"explore", "research", "move"} & {a.name for a in legal} and legal == g._legal_by_trying()
    before = g.state
    for move, why in (("p1 move", "none of your ships can move"), ("p1 explore", "no space you may explore"),
                      ("p1 research", "not enough science for any technology on offer")):
        with pytest.raises(IllegalActionError, match=why):
            g.play(move)
        assert g.state == before


def test_a_row_counts_its_category_and_the_rare_tiles_placed_on_it():
    """row_filled(c), the count Research's discount and room and the rows' VP read [S boards;
    RotA rare technologies go on the row the player picks, ``placed_row``]: a tile of category
    c not placed elsewhere, or one placed on c; a tile held twice counts twice. Asked where a
    context wrote the technologies, and of a state made from it, it answers from them."""
    from boardrules.runtime import Context
    from boardrules_eclipse.primitives import row_filled

    g = boardrules.new_game("eclipse", players=2, seed=0, modules=["rare-technologies"])
    for p in (1, 0):
        g.play(Action(p, "pick_species", ("terrans",)))
    techs = ("tech_starbase", "tech_plasma_cannon", "tech_fusion_source", "tech_cloaking_device",
             "tech_plasma_cannon")
    _set(g, v__techs__0=techs, v__placed_row__0__tech_cloaking_device="military",
         v__placed_row__0__tech_fusion_source="military")   # (a rare tile; a grid tile moved, as a check)
    ctx = Context(g.ruleset, g.state.values, me=0)
    rows = {c: row_filled.fn(ctx, c) for c in ("military", "grid", "nano", "rare")}
    assert rows == {"military": 5, "grid": 0, "nano": 0, "rare": 0}
    ctx.set(("v", "techs", 0), techs + ("tech_nanorobots",))
    assert (row_filled.fn(ctx, "nano"), row_filled.fn(ctx, "military")) == (1, 5)
    assert row_filled.fn(Context(g.ruleset, ctx.merged(), me=0), "nano") == 1
    assert row_filled.fn(Context(g.ruleset, g.state.values, me=0), "nano") == 0
    assert row_filled.fn(Context(g.ruleset, g.state.values, me=1), "military") == 1   # (the starbase)


def _rule_trades(g, p):
    """The trades the rule allows ``p`` [M: eclipse.md §2.3]: one kind for another, holding the
    species' rate of the kind given."""
    rate = g.ruleset.entities[g.get("species_of", player=p)].fields["trade"]
    kinds = ("money", "science", "materials")
    return {(give, get) for give in kinds for get in kinds if give != get and g.get(give, p) >= rate}


def _rule_colonies(g, p):
    """The colony ship moves the rule allows ``p`` [M: eclipse.md §2.2]: a face-up colony ship,
    a free square, an advanced one with the technology opening it, a cube left on its track."""
    from boardrules.runtime import Context
    from boardrules_eclipse.influence import squares_of
    ents = g.ruleset.entities
    if g.get("colony_used", player=p) >= ents[g.get("species_of", player=p)].fields["colony_ships"]:
        return set()
    techs = g.get("techs", player=p)
    out = set()
    for o in squares_of.fn(Context(g.ruleset, g.state.values, me=p), p):
        h, _, cube = o.partition("|")
        square, _, res = cube.partition(":")
        planets = ents[g.get("sector_at", index=h)].fields["planets"]
        advanced = square != "o" and planets[int(square)].endswith("*")
        if any(c.partition(":")[0] == square for c in g.get("cubes", index=h)) \
                or advanced and not any(ents[t].fields["advanced"] == res for t in techs) \
                or g.get(f"out_{res}", player=p) >= g.get("track_cubes"):
            continue
        out.add((o,))
    return out


@pytest.mark.parametrize("seed", [2, 5])
def test_trades_and_colony_ships_listed_are_those_the_rules_allow(seed):
    """The listing's order of checks (trade's rate in get's where, colonize's free square first)
    lists, at every turn of seeded random games, exactly the trades and colony ship moves the
    rules allow, worked out here from the state."""
    import random
    g = boardrules.new_game("eclipse", players=4, seed=seed)
    rnd = random.Random(seed)
    seen, trades, colonies = 0, 0, 0
    while not g.over and seen < 250:
        legal = list(g.legal_actions())
        turn = g.state.values.get(("f", "turn"))
        if not g.state.pending and turn is not None and turn[2] is not None \
                and g.get("species_of", player=turn[2]) is not None:   # (past the species' pick)
            p = turn[2]
            listed = {a.args for a in legal if a.name == "trade"}
            assert listed == _rule_trades(g, p)
            placed = {a.args for a in legal if a.name == "colonize"}
            assert placed == _rule_colonies(g, p)
            seen, trades, colonies = seen + 1, trades + len(listed), colonies + len(placed)
        g.play(rnd.choice(legal))
    assert seen == 250 and trades > 100 and colonies > 10
