"""Prechecks with their expressions written into their source (lang/guards.py, ``_precheck``
with ``Compiler.inline``) answer as the prechecks that call the expressions' compiled functions:
the same verdict (True, False, ``UNSURE``) for every candidate (unpruned: ``Game.candidates``)
at every state of random games of the three bundled games, and an engine's defect inside an
expression is raised, not taken for a refusal."""

from __future__ import annotations

import random

import pytest

import boardrules
from boardrules.game.verdicts import _bindings
from boardrules.lang import codegen
from boardrules.lang.guards import _precheck
from tests.core.test_guards import HARVEST


def _called(guards, name):
    """Action ``name``'s prechecks calling each expression's compiled function (the oracle)."""
    steps = guards._precheck_steps(name)
    return _precheck(tuple((k, f, a) for k, f, a, _ in steps), guards.sure(name) is not None)


def _answer(check, g, action):
    """``check``'s verdict on ``action`` as a listing asks it (its bindings and player, the
    whole budget), or the type of what it raised."""
    ctx = g._scratch()
    ctx.env = _bindings(g.ruleset, g.ruleset.actions[action.name], action.args)
    ctx.me = action.player
    try:
        return check(ctx), ctx.steps
    except Exception as err:   # (compared: both must raise alike)
        return type(err)


@pytest.mark.parametrize("game, plies", [("harvest", 400), ("gaia-project", 60), ("eclipse", 60)])
def test_inline_prechecks_answer_as_the_calls(game, plies):
    texts = {"harvest.rules": HARVEST.read_text()} if game == "harvest" else None
    compared = 0
    for seed in (1, 2):
        g = boardrules.new_game(None if texts else game, players=3, seed=seed, texts=texts)
        guards, rng = g.ruleset.guards, random.Random(seed)
        oracles = {}
        for _ in range(plies):
            if g.over:
                break
            for action in g.candidates():
                if action.name not in g.ruleset.actions:
                    continue
                check = guards.precheck(action.name)
                if check is None:
                    continue
                oracle = oracles.get(action.name)
                if oracle is None:
                    oracle = oracles[action.name] = _called(guards, action.name)
                assert _answer(check, g, action) == _answer(oracle, g, action), str(action)
                compared += 1
            g.play(rng.choice(list(g.legal_actions())), check=False)
    assert compared > 100


def test_an_engine_defect_in_a_precheck_is_raised(monkeypatch):
    """Harvest's buy begins with ``require c in deck``: a helper of the generated code that
    fails (a defect of the engine, not of a plugin's primitive) is raised by the prechecks, as
    the expression's compiled function raises it; a rule it breaks is left to the full try."""
    def broken(ctx, a, b):
        raise KeyError("the engine's defect")
    monkeypatch.setitem(codegen._HELPERS, "_member", broken)
    text = HARVEST.read_text() + "\n# a ruleset of its own (built with the broken helper)\n"
    g = boardrules.new_game(texts={"harvest.rules": text}, players=3, seed=1)
    guards = g.ruleset.guards
    buy = next(a for a in g.candidates() if a.name == "buy")
    for check in (guards.precheck("buy"), _called(guards, "buy")):
        assert _answer(check, g, buy) is KeyError

    def refusing(ctx, a, b):
        raise ctx.violation("a rule broken")
    monkeypatch.setitem(codegen._HELPERS, "_member", refusing)
    g = boardrules.new_game(texts={"harvest.rules": text + "\n"}, players=3, seed=1)
    guards = g.ruleset.guards
    for check in (guards.precheck("buy"), _called(guards, "buy")):
        assert _answer(check, g, buy)[0] == "unsure"   # (a sure action's prechecks: UNSURE)
