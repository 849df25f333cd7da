"""The verdicts kept by the flow's place (game/verdicts.py: ``_flow_waits``, and per place
``_sure_settles``, ``done``'s settling and a pass's handover, in ``Guards.flow_waits`` and ``Guards.by_place``) answer as
they are worked out afresh, at every state of random games of the bundled games, on a ruleset
whose memory already holds the places of other games (the games share it)."""

from __future__ import annotations

import random

import pytest

import boardrules
from boardrules.lang.inert import Facts
from boardrules.game.actions import DONE, Action
from boardrules.runtime import F_PASSED, F_TURN, Context


def _check_state(g) -> int:
    """Compare the kept and fresh verdicts at ``g``'s state; how many were compared."""
    n = 0
    values = g.state.values
    turn = values.get(F_TURN)
    contexts = [Context(g.ruleset, values)]
    if turn is not None and turn[2] is not None:   # (the turn ended, its player passed or not)
        for passes in (False, True):
            ctx = Context(g.ruleset, values)
            ctx.set(F_TURN, (turn[0], turn[1], None, False))
            if passes:
                ctx.set(F_PASSED, (values.get(F_PASSED) or ()) + (turn[2],))
            contexts.append(ctx)
    for ctx in contexts:
        for handover in (False, True):
            assert g._flow_waits(ctx, handover) == g._flow_waits_now(ctx, handover)
            n += 1
    info = g._turn_info()
    if info is None or info[4] is None:
        return n
    step, turn = info[0], info[1]
    for name in step.main + step.free:
        if turn[2] is None:
            continue
        assert g._sure_settles(name, turn[2], info) == g._sure_settles_now(name, turn[2], info), name
        n += 1
    if turn[2] is not None and turn[2] not in (g.state.values.get(F_PASSED) or ()):
        # (whether a pass hands the turn on, kept per player: asked twice, the second answer kept)
        passed = g.state.values.get(F_PASSED) or ()
        fresh = g._pass_settles(Context(g.ruleset, values), [], turn[2], passed, Facts())
        for _ in range(2):
            kept = g._pass_settles(Context(g.ruleset, values), [], turn[2], passed, Facts(), info[4])
            assert kept == fresh
        n += 1
    guards = g.ruleset.guards
    for name in step.main + step.free:
        guard = guards.way(name)[1]
        if turn[2] is not None and guard in guards.bare and guards.argument_free(name):
            # (a guard that runs nothing: what follows its verdict kept by place, the second
            # answer from there; the fresh one without the place's memory)
            action = Action(turn[2], name, ())
            fresh = g._guard_verdict(action, info[:4] + (None,), guard)
            for _ in range(2):
                assert g._guard_verdict(action, info, guard) == fresh, name
            n += 1
    if turn[2] is not None and turn[3]:
        kept = g._guard_way(Action(turn[2], DONE, ()), info)
        assert kept == (True if g._done_settles() else None)
        n += 1
    return n


@pytest.mark.parametrize("game, players, games", [("harvest", 3, 6), ("harvest", 4, 3),
                                                  ("gaia-project", 2, 1), ("eclipse", 3, 1)])
def test_kept_verdicts_answer_as_worked_out(game, players, games):
    compared = 0
    for seed in range(games):
        g, rnd = boardrules.new_game(game, players=players, seed=seed), random.Random(seed)
        for _ in range(120):
            if g.over:
                break
            compared += _check_state(g)
            g.play(rnd.choice(list(g.legal_actions())), check=False)
    assert compared > 100
    assert g.ruleset.guards.flow_waits   # (the memory was used)
    if game == "harvest":   # (pass_round's guard runs nothing: its settled verdicts kept by place)
        guard = g.ruleset.guards.action("pass_round")
        assert any(type(k) is tuple and k[0] is guard for at in g.ruleset.guards.by_place.values()
                   for k in at)
