"""The ``compositions`` primitive (plugins/boardrules_gaia/primitives.py), which lists the ways to
take power tokens from the bowls (``take_tokens`` in rules/resources.rules): the same splits, in
the same order, as the nested loops the rule had before (increasing a, then b)."""

from __future__ import annotations

import itertools

import boardrules
from boardrules.runtime import Context


def loops(n: int, b1: int, b2: int, b3: int) -> list[tuple[int, int, int]]:
    """The rule's former enumeration: a <= bowl I, b <= bowl II, n - a - b <= bowl III."""
    return [(a, b, n - a - b) for a in range(0, min(n, b1) + 1)
            for b in range(max(0, n - a - b3), min(n - a, b2) + 1)]


def test_compositions_list_the_bowl_splits_in_order():
    g = boardrules.new_game("gaia-project", players=2, seed=1)
    fn = g.ruleset.primitives["compositions"].fn
    ctx = Context(g.ruleset, g.state.values)
    for n, b1, b2, b3 in itertools.product(range(0, 13), range(0, 6), range(0, 6), range(0, 6)):
        assert list(fn(ctx, n, (b1, b2, b3))) == loops(n, b1, b2, b3), (n, b1, b2, b3)
    assert fn(ctx, 3, (5,)) == ((3,),) and fn(ctx, 6, (5,)) == ()
    assert fn(ctx, 0, ()) == ((),) and fn(ctx, 1, ()) == ()
    assert fn(ctx, 2, (1, 1, 1, 1)) == ((0, 0, 1, 1), (0, 1, 0, 1), (0, 1, 1, 0), (1, 0, 0, 1),
                                        (1, 0, 1, 0), (1, 1, 0, 0))
