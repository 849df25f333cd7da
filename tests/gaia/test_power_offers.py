"""Power charge offers are sized when they come up (issue 7): a neighbour of two structures
built in one turn who charges on the first offer is offered the second one at its size then
(here: nothing left to charge, so no offer), not at the size it had when the turn ended.
The Gaia Project rules are used as they are; a house-rule action builds two mines in one turn.
The engine's mechanism, ``queue { ... }``, is tested on its own too."""

from __future__ import annotations

import boardrules
from boardrules.runtime import Context
from boardrules.state import State

TWO_MINES = """
action two_mines(h1: hex, h2: hex) main {
  call place(h1, mine)
  call place(h2, mine)
}
extend step actions { main two_mines }
"""


def test_the_second_offer_is_sized_after_the_first_is_decided(tmp_path):
    house = tmp_path / "two.rules"
    house.write_text(TWO_MINES, encoding="utf-8")
    g = boardrules.new_game("gaia-project", players=2, seed=3, rules=[house])
    g.play("p1 pick_faction xenos")
    g.play("p2 pick_faction terrans")
    while "pass_round" not in {a.name for a in g.legal_actions()}:
        g.play(next(iter(g.legal_actions())))
    ctx = Context(g.ruleset, g.state.values)
    within = g.ruleset.primitives["hexes_within"].fn
    theirs = g.get("my_hexes", 1)[0]
    free = [h for h in within(ctx, theirs, 2) if g.get("owner_at", index=h) is None
            and g.get("planet", index=h) not in ("e", "m")]
    h1, h2 = free[:2]
    # p2: a trading station there (power value 2), room for exactly 2 power in the bowls
    g.state = State({**g.state.values, ("v", "bld", theirs): "ts", ("v", "pval", theirs): 2,
                     ("r", "bowl1", 1): 0, ("r", "bowl2", 1): 2, ("r", "bowl3", 1): 4},
                    g.state.pending)
    vp = g.get("vp", 1)
    g.play(boardrules.Action(0, "two_mines", (h1, h2)))
    g.play("p1 done")                                    # offers go out when the turn ends
    first = [a for a in g.legal_actions() if a.name == "leech"]
    assert {a.player for a in first} == {1} and [a.args for a in first] == [(2,), ()]
    g.play(boardrules.Action(1, "leech", (2,)))          # charge 2 for 1 VP
    assert (g.get("bowl2", 1), g.get("bowl3", 1), g.get("vp", 1)) == (0, 6, vp - 1)
    # the second offer, sized now: nothing left to charge, so no offer and no VP paid
    assert not [a for a in g.legal_actions() if a.name == "leech"]
    assert g.players_to_act() == {1}                     # p2's turn in round 1


QUEUE = """
resource power { }
resource vp { scored true }
action build main {
  after turn {
    for p in others {
      queue {
        let amount = 3 - power of p
        if amount > 0 {
          choose take in [amount] by p optional "offer" { gain take power to p }
        }
      }
    }
  }
}
action double main {
  after turn {
    for i in 1..2 {
      queue {
        let amount = min(2, 3 - power of 1)
        if amount > 0 {
          choose take in [amount] by 1 optional "offer" { gain take power to 1 }
        }
      }
    }
  }
}
flow { rounds 1 { step play: turns seat once { main build, double } } }
"""


def test_queue_runs_when_the_decisions_before_it_are_decided():
    g = boardrules.new_game(texts={"q.rules": QUEUE}, players=2)
    g.play("p1 double")
    assert [str(a) for a in g.legal_actions()] == ["p2 take 2", "p2 take"]
    g.play("p2 take 2")
    # the second offer was sized after the first: 3 - 2 = 1, not 2
    assert [str(a) for a in g.legal_actions()] == ["p2 take 1", "p2 take"]
    g.play("p2 take")
    assert g.players_to_act() == {1} and g.get("power", 1) == 2
    assert boardrules.load_game(g.save()).state == g.state


def test_range_primitives_agree_with_the_map_geometry():
    """The per-map distance rows and balls (primitives.py) give what the axial geometry gives:
    hexes within d (sorted names), distances, planets/space near a set of sources; and
    ``structures_within`` is ``hexes_within`` cut to the hexes holding a structure."""
    import random

    from boardrules_gaia import primitives as GP

    g = boardrules.new_game("gaia-project", players=3, seed=5)
    rnd = random.Random(5)
    for _ in range(120):
        g.play(rnd.choice(list(g.legal_actions())), check=False)
    ctx = Context(g.ruleset, g.state.values)
    gmap = GP._map(tuple(g.get("map_layout")))
    prim = g.ruleset.primitives
    names = [mh.name for mh in gmap.hexes]
    built = {h for h in names if g.get("owner_at", index=h) is not None}
    assert built  # structures are on the map after 120 random actions
    for h in names[::7]:
        here = gmap.by_name[h].hex
        for d in (0, 1, 2, 5, 40):
            want = sorted(gmap.name(x) for x in gmap.within(here, d))
            assert list(prim["hexes_within"].fn(ctx, h, d)) == want
            assert list(prim["structures_within"].fn(ctx, h, d)) == [x for x in want if x in built]
        for other in names[::11]:
            assert prim["hex_distance"].fn(ctx, h, other) == here.distance(gmap.by_name[other].hex)
    sources = sorted(built)[:4]
    for d in (1, 3, 30):
        near = {gmap.name(x) for s in sources for x in gmap.within(gmap.by_name[s].hex, d)}
        planets = sorted(x for x in near if g.get("planet", index=x) != "e")
        assert list(prim["planets_near"].fn(ctx, sources, d)) == planets
        assert list(prim["space_near"].fn(ctx, sources, d)) == sorted(near - set(planets))
        # a Lost Planet placed on a space hex in range (a write pending, then committed): a
        # planet now, no longer space
        space = sorted(near - set(planets))
        pending = Context(g.ruleset, g.state.values)
        pending.set(("v", "planet", space[0]), "l")
        for lost in (pending, Context(g.ruleset, {**g.state.values, ("v", "planet", space[0]): "l"})):
            assert list(prim["planets_near"].fn(lost, sources, d)) == sorted(planets + space[:1])
            assert list(prim["space_near"].fn(lost, sources, d)) == space[1:]
    assert prim["distance_from"].fn(ctx, names[0], []) == 99
    for h in names[::3]:  # the least axial distance to any source, as a list or a tuple
        here = gmap.by_name[h].hex
        for k in (1, 2, 4):
            srcs = names[k::17][:k * 3]
            want = min(here.distance(gmap.by_name[x].hex) for x in srcs)
            assert prim["distance_from"].fn(ctx, h, srcs) == want
            assert prim["distance_from"].fn(ctx, h, tuple(srcs)) == want


def _levels_by_rule(values, hexes, p):
    """The power level the charge offer counted before ``power_values_near`` (buildings.rules):
    the levels 1..4 that some structure of ``p`` (or guest mine of ``p``) on ``hexes`` reaches."""
    def at(name, h, default):
        return values.get(("v", name, h), default)
    return sum(1 for lv in range(1, 5) if any(
        (at("owner_at", h, None) == p and at("pval", h, 0) >= lv)
        or (at("guest_at", h, None) == p and at("guest_pval", h, 0) >= lv) for h in hexes))


def test_power_values_near_give_the_levels_the_offer_counted():
    """``min(4, power_values_near(h, 2)[p])`` is the number of levels 1..4 some structure or
    guest mine of ``p`` within 2 of h reaches (the sum the offer counted before the primitive),
    on the positions of a random game and on hand-set ones with guest mines, big values and
    none; read through a context whose overlay holds the hand-set values too (the writes of the
    turn the offer follows)."""
    import random

    from boardrules_gaia import primitives as GP

    g = boardrules.new_game("gaia-project", players=3, seed=11)
    rnd = random.Random(11)
    fn = g.ruleset.primitives["power_values_near"].fn
    names = list(g.get("hexes"))
    layout = tuple(g.get("map_layout"))
    checked = 0
    for _ in range(160):
        g.play(rnd.choice(list(g.legal_actions())), check=False)
        ctx = Context(g.ruleset, g.state.values)
        for h in names[::9]:
            got = fn(ctx, h, 2)
            near = GP._within(layout, h, 2)
            assert len(got) == 3
            for p in range(3):
                assert min(4, got[p]) == _levels_by_rule(g.state.values, near, p)
                checked += got[p] > 0
    assert checked > 50
    h = names[40]
    hexes = GP._within(layout, h, 2)[:6]
    values = dict(g.state.values)
    hand = {}
    for i, x in enumerate(hexes):   # owners, guests and values of every size, 0 to 5
        hand[("v", "owner_at", x)] = i % 3 if i != 5 else None
        hand[("v", "pval", x)] = i
        hand[("v", "guest_at", x)] = (i + 1) % 3 if i % 2 else None
        hand[("v", "guest_pval", x)] = 6 - i
    for x in GP._within(layout, h, 2)[6:]:
        hand[("v", "owner_at", x)] = None
        hand[("v", "guest_at", x)] = None
    values.update(hand)
    stored = Context(g.ruleset, values)
    written = Context(g.ruleset, g.state.values)
    written.w.update(hand)
    for ctx in (stored, written):
        got = fn(ctx, h, 2)
        for p in range(3):
            assert min(4, got[p]) == _levels_by_rule(values, hexes, p)
        assert got == (3, 4, 5)   # the highest values, before the cap of 4
