"""Issue 12: Eclipse's listing of the legal actions (guards, prechecks, choices cut short while
listing: lang/lazy.py) is the full tries' (``Game._legal_by_trying``) at every state of random
games, in the base game and with Rise of the Ancients modules that extend the same actions
(warp portals and alliances change who an influence disc reaches and who is a foe).

Influence's choice is optional and its ``where`` calls pure primitives only (``in_reach``,
``foes``): the listing lists Influence without testing a hex, and playing it offers the very
hexes the full evaluation admits."""

from __future__ import annotations

import random

import pytest

import boardrules
from boardrules.game import ACCEPTED
from boardrules.lang import ast as A
from boardrules.lang.lazy import where_bound
from boardrules.runtime import Context

MODULE_SETS = [(), ("rare-technologies", "new-species", "new-discoveries", "developments"),
               ("warp-portals", "alliances", "hives")]


def _runs(g):
    """The runs the listing kept, by action name (ACCEPTED: cut short, not kept)."""
    known = g._known_for(g.state)
    return {a.name: r for a, r in known.runs.items()}


@pytest.mark.parametrize("modules", MODULE_SETS, ids=lambda m: "+".join(m) or "base")
@pytest.mark.parametrize("seed", [5, 21])
def test_random_game_states_list_as_the_full_tries(seed, modules):
    g = boardrules.new_game("eclipse", players=4, seed=seed, modules=list(modules),
                            options={"rounds": 3, "auto_combat": True})
    rnd, states, influenced = random.Random(seed), 0, 0
    while not g.over and states < 250:
        listed = list(g.legal_actions())
        assert listed == g._legal_by_trying(), f"state {states}"
        states += 1
        for a in listed:
            if a.name == "influence":
                assert _runs(g)["influence"] is ACCEPTED    # (not a hex tested)
                full = g._run(a, check=False)[1][0]
                played = g.copy()
                played.play(a)
                assert played.state.pending[0].options == full.options
                influenced += 1
        g.play(rnd.choice(listed))
    assert influenced


def test_influence_where_is_cut_short_and_its_primitives_are_pure():
    g = boardrules.new_game("eclipse", players=4, seed=1)
    rs = g.ruleset
    assert all(rs.primitives[n].pure for n in ("in_reach", "influence_reach", "foes"))
    choose = next(s for s in rs.actions["influence_step"].body.stmts if isinstance(s, A.Choose))
    bound = where_bound(rs, choose)
    assert bound is not None and bound[0] == 0    # (a test of one hex costs no step)
    # nobody is 'me': the rules are wrong (ValueError), never a broken rule
    ctx = Context(rs, g.state.values)
    for name, args in (("in_reach", ("0,0",)), ("influence_reach", ()), ("foes", ("0,0",))):
        with pytest.raises(ValueError):
            rs.primitives[name].fn(ctx, *args)
    # with a player (the first to be offered Influence): the hexes of the list, one by one
    rnd = random.Random(1)
    while not any(a.name == "influence" for a in g.legal_actions()):
        g.play(rnd.choice(list(g.legal_actions())))
    me = next(a.player for a in g.legal_actions() if a.name == "influence")
    ctx = Context(rs, g.state.values, me=me)
    reach = rs.primitives["influence_reach"].fn(ctx)
    assert reach and all(rs.primitives["in_reach"].fn(ctx, h) for h in reach)
    assert not any(rs.primitives["in_reach"].fn(ctx, h) for h in g.get("hexes") if h not in reach)
