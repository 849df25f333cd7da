"""Issue 12: the Eclipse primitives' memo per game state (plugins/boardrules_eclipse/memo.py)
changes no answer: random games with Rise of the Ancients modules that move ships, place
warp portals, turn sectors, carry interceptors and form alliances offer the same legal actions
at every state with the memo on as with it off, and play to the same record."""

from __future__ import annotations

import random

import pytest

import boardrules
from boardrules_eclipse import memo

MODULE_SETS = [(), ("rare-technologies", "new-species", "new-discoveries"),
               ("developments", "warp-portals", "alliances", "hives", "nine-players")]


def _play(seed: int, players: int, modules: tuple, memo_on: bool) -> list:
    """Every state's legal actions (as text) of a random game, and the final record."""
    memo.ENABLED = memo_on
    try:
        g = boardrules.new_game("eclipse", players=players, seed=seed, modules=list(modules),
                                options={"rounds": 3, "auto_combat": True})
        rnd, seen = random.Random(seed), []
        while not g.over and len(seen) < 700:
            legal = sorted(g.legal_actions(), key=g.format)
            seen.append([g.format(a) for a in legal])
            g.play(rnd.choice(legal))
        return seen + [[str(a) for a in g.record.actions]]
    finally:
        memo.ENABLED = True


@pytest.mark.parametrize("modules", MODULE_SETS, ids=lambda m: "+".join(m) or "base")
@pytest.mark.parametrize("seed,players", [(11, 4), (12, 6)])
def test_the_memo_changes_no_legal_action(seed, players, modules):
    if "nine-players" in modules:
        players = 7
    assert _play(seed, players, modules, True) == _play(seed, players, modules, False)


def test_the_memo_sees_what_the_context_wrote():
    """A memo that ignored what a context wrote (here: a ship moved away) would answer from
    the stale state: asked again in that context, move_options is computed afresh."""
    from boardrules.runtime import Context
    from boardrules_eclipse.primitives import move_options
    g = boardrules.new_game("eclipse", players=4, seed=11)
    rnd = random.Random(11)
    while True:
        g.play(rnd.choice(list(g.legal_actions())))
        ctx = Context(g.ruleset, g.state.values, me=0)
        before = move_options.fn(ctx)
        if before:
            break
    cls, _, src = before[0].partition(">")[0].partition("@")
    assert before == move_options.fn(ctx)                  # from the memo
    ctx.set(("v", "ships", src), ())                       # the ships leave: the context wrote it
    assert not any(o.partition(">")[0] == f"{cls}@{src}" for o in move_options.fn(ctx))
