"""The runtime's reads and the new state's values (runtime.Context): a value never written reads
as its default (Ruleset.key_defaults, filled as keys are read, is Ruleset.default_of), a write
reads back before and after the overlay is merged, and a write of the default is dropped from
the merged values (states compare equal however a value came back to its default)."""

from __future__ import annotations

import boardrules
from boardrules.runtime import Context


def test_unwritten_values_read_as_their_defaults():
    g = boardrules.new_game("harvest", players=3, seed=2)
    rs = g.ruleset
    keys = [("r", "coins", 9), ("t", "farming", 2), ("s", 1, "nowhere"), ("v", "deck"),
            ("v", "field_owner", "zz"), ("c", "farm", 2), ("o", "sow_x"), ("f", "nothing")]
    ctx = Context(rs, {("nplayers",): 3})
    for key in keys:
        assert ctx.get(key) == rs.default_of(key)
        assert ctx.get(key) == rs.default_of(key)   # (the second read, from the table)
        assert rs.key_defaults[key] == rs.default_of(key)
    assert ctx.get(("v", "deck")) == ("sow", "sow", "reap", "market", "market", "tithe")
    assert ctx.get(("c", "farm", 0)) == 4


def test_writes_read_back_and_defaults_are_dropped():
    g = boardrules.new_game("harvest", players=3, seed=2)
    base = dict(g.state.values)
    ctx = Context(g.ruleset, g.state.values)
    coins = ctx.get(("r", "coins", 0))
    ctx.set(("r", "coins", 0), coins + 1)
    ctx.set(("r", "grain", 1), 0)           # a default: not stored
    ctx.set(("v", "first_passer"), 1)
    assert ctx.get(("r", "coins", 0)) == coins + 1
    merged = ctx.merged()
    assert merged[("r", "coins", 0)] == coins + 1 and merged[("v", "first_passer")] == 1
    assert ("r", "grain", 1) not in merged
    assert g.state.values == base          # the committed values never change
    back = Context(g.ruleset, merged)
    back.set(("v", "first_passer"), None)
    back.set(("r", "coins", 0), coins)
    assert back.merged() == base


def test_the_readers_that_skip_context_get_read_what_it_reads():
    """``Context.flow_reader`` and the prechecks' reads (lang/guards.py, ``_read``) read the
    committed table with the default written in (the flow's keys None, resources and tracks 0,
    owners None) while the context has written nothing: these must be Ruleset.default_of's."""
    from boardrules.runtime import FLOW_KEYS
    for name in ("harvest", "gaia-project", "eclipse"):
        g = boardrules.new_game(name, players=3, seed=2)
        rs = g.ruleset
        for key in FLOW_KEYS:
            assert rs.default_of(key) is None, (name, key)
        for res in rs.resources:
            assert rs.default_of(("r", res, 0)) == 0
        for track in rs.tracks:
            assert rs.default_of(("t", track, 0)) == 0
        for entity in rs.entities:
            assert rs.default_of(("o", entity)) is None
        ctx = Context(rs, g.state.values)
        read = ctx.flow_reader()
        assert read == g.state.values.get
        assert [read(k) for k in FLOW_KEYS] == [ctx.get(k) for k in FLOW_KEYS]
        ctx.set(FLOW_KEYS[0], 99)   # (once written: Context.get itself)
        assert ctx.flow_reader()(FLOW_KEYS[0]) == 99
