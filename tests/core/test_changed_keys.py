"""What changed between two state tables, from the keys written (runtime.changed_keys): for a
table made from another by one or more Context.merged, the keys whose values differ (not the
same object, or in one table only) are exactly those a comparison of the whole tables finds;
for tables not so related (siblings, the other way round, a table made by hand, a chain longer
than the merges kept) the answer is None, so no caller carries anything by it."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import boardrules
from boardrules import runtime as R
from boardrules.runtime import MISSING, Context

_KEYS = [("r", "coins", 0), ("r", "coins", 1), ("r", "grain", 2), ("v", "first_passer"),
         ("v", "deck"), ("v", "field_owner", "f1"), ("c", "farm", 1), ("t", "farming", 0)]
# (0 and None are defaults of some of these keys: a write of a default drops the key)
_VALUES = st.sampled_from([0, 1, 2, None, (), ("sow",), ("sow", "reap")])


def _compared(old: dict, new: dict) -> set:
    """The oracle: the two tables compared key by key."""
    return {k for k in old.keys() | new.keys() if old.get(k, MISSING) is not new.get(k, MISSING)}


def _ruleset():
    """Harvest's ruleset, the merges recorded from now on (changed_keys' first call starts
    the record)."""
    R.changed_keys({}, {})
    return boardrules.new_game("harvest", players=3, seed=2).ruleset


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.tuples(st.sampled_from(_KEYS), _VALUES | st.just("same")), max_size=5),
                min_size=1, max_size=6))
def test_changed_keys_are_what_comparing_the_tables_finds(steps):
    rs = _ruleset()
    tables = [{("nplayers",): 3, ("r", "coins", 0): 5, ("v", "deck"): ("sow",)}]
    for writes in steps:
        ctx = Context(rs, tables[-1])
        for k, v in writes:
            # "same": the very object the table holds written back (no change by identity)
            ctx.set(k, tables[-1].get(k, rs.key_defaults[k]) if v == "same" else v)
        tables.append(ctx.merged())
    for i, old in enumerate(tables):
        for new in tables[i + 1:]:
            assert R.changed_keys(old, new) == _compared(old, new)
        for new in tables[:i]:   # (the other way round: old was not made from new)
            assert R.changed_keys(old, new) is None


def test_tables_not_made_from_the_old_one_are_not_answered():
    """Siblings (both made from one table) differ at keys neither wrote relative to the other:
    answering with the newer one's writes would carry a stale answer (a memo of S1 reused at S2
    though S1 wrote the coins S2 reads)."""
    rs = _ruleset()
    base = {("nplayers",): 3, ("r", "coins", 0): 5}
    a = Context(rs, base)
    a.set(("r", "coins", 0), 9)
    s1 = a.merged()
    b = Context(rs, base)
    b.set(("v", "first_passer"), 1)
    s2 = b.merged()
    assert R.changed_keys(base, s2) == {("v", "first_passer")}
    assert R.changed_keys(s1, s2) is None
    assert R.changed_keys(s1, dict(s1)) is None   # (a copy made by hand: nothing recorded)
    assert R.changed_keys(s1, s1) == set()


def test_a_chain_longer_than_the_merges_kept_is_not_answered():
    rs = _ruleset()
    tables = [{("nplayers",): 3}]
    for i in range(R.MERGES_KEPT + 1):
        ctx = Context(rs, tables[-1])
        ctx.set(("r", "coins", 0), i + 1)
        tables.append(ctx.merged())
    assert R.changed_keys(tables[1], tables[-1]) == {("r", "coins", 0)}
    assert R.changed_keys(tables[0], tables[-1]) is None


def test_no_merge_is_recorded_before_the_first_question(monkeypatch):
    """A game whose plugins never ask keeps no record (no cost); once asked, merges are kept."""
    monkeypatch.setattr(R, "_MERGES_ASKED", False)
    monkeypatch.setattr(R, "_MERGES", type(R._MERGES)(maxlen=R.MERGES_KEPT))
    rs = boardrules.new_game("harvest", players=3, seed=2).ruleset
    base = {("nplayers",): 3}
    ctx = Context(rs, base)
    ctx.set(("r", "coins", 0), 4)
    assert R.changed_keys(base, ctx.merged()) is None and not R._MERGES
    made = ctx.merged()
    assert R.changed_keys(base, made) == {("r", "coins", 0)}
