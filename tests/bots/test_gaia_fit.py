"""The Gaia evaluation as weighted named terms, and the fit of those weights to the real
records (``bench/fit_gaia_eval.py``)."""

from __future__ import annotations

import numpy as np
import pytest

import boardrules
from boardrules.bots import RandomBot
from tests.conftest import bench_script, shared_path


def _fit_script():
    return bench_script("fit_gaia_eval")


def _states(seed: int, every: int = 9, limit: int = 900):
    g = boardrules.new_game("gaia-project", players=4, seed=seed)
    bot = RandomBot(seed)
    for step in range(limit):
        if g.over:
            break
        if step % every == 0:
            yield g
        g.play(bot.choose(g), check=False)
    yield g


def test_the_terms_weighted_are_the_evaluation(monkeypatch):
    """``evaluate`` is ``WEIGHTS · terms`` at every sampled state, with the fitted weights and
    with other weights (each term's weight doubled in turn moves the evaluation by that term):
    fails when a term is left out of ``terms`` or counted twice."""
    import boardrules_gaia.bot as bot
    assert set(bot.WEIGHTS) == set(bot.HAND_WEIGHTS) == {*bot.TERMS, *bot.NEW_TERMS}
    checked = 0
    for g in _states(3):
        for p in range(4):
            t = bot.terms(g, p)
            assert set(t) <= set(bot.WEIGHTS)
            assert bot.evaluate(g, p) == pytest.approx(sum(bot.WEIGHTS[k] * v for k, v in t.items()))
            if not g.over and checked % 5 == 0:
                name = max(t, key=lambda k: abs(t[k]))
                weights = dict(bot.WEIGHTS)
                weights[name] *= 2
                before = bot.evaluate(g, p)
                monkeypatch.setattr(bot, "WEIGHTS", weights)
                assert bot.evaluate(g, p) == pytest.approx(before + bot.WEIGHTS[name] / 2 * t[name])
                monkeypatch.undo()
            checked += 1
    assert checked > 100 and g.over
    assert bot.terms(g, 0) == {"vp": g.get("vp", 0)}   # over: the score alone


def test_the_fit_gradient_is_the_loss_slope():
    """The conditional logit's analytic gradient matches central differences (random data),
    the weight of ``vp`` stays fixed, and the L2 pull is counted."""
    fit = _fit_script()
    rng = np.random.default_rng(0)
    k = 6
    data = [(rng.normal(size=(int(rng.integers(2, 7)), k)), 0) for _ in range(30)]
    data = [(X, int(rng.integers(0, len(X)))) for X, _ in data]
    prior = np.ones(k)
    x = np.append(rng.normal(1.0, 0.3, size=k), np.log(0.7))
    loss, grad = fit.loss_and_grad(x, data, prior, 0.5)
    assert grad[fit.FIXED] == 0.0
    for i in range(k + 1):
        if i == fit.FIXED:
            continue
        h = np.zeros_like(x)
        h[i] = 1e-6
        slope = (fit.loss_and_grad(x + h, data, prior, 0.5)[0]
                 - fit.loss_and_grad(x - h, data, prior, 0.5)[0]) / 2e-6
        assert grad[i] == pytest.approx(slope, rel=1e-4, abs=1e-6)


def test_the_fit_raises_the_real_moves_likelihood():
    """On a short real record, the decisions collected are the real players' (the real move
    among each decision's rated actions), and the fit's loss is below the current weights'."""
    shared_path("gaia-records", "12__ivits-baltaks-gleens.json")
    pytest.importorskip("scipy", reason="the fit needs scipy (the 'bench' extra)")
    import boardrules_gaia.bot as bot
    fit = _fit_script()
    rows = fit.collect(fit.record_paths(["12__ivits-baltaks-gleens"]))
    assert len(rows) >= 10
    for _, _, player, chosen, X, names in rows:
        assert X.shape[1] == len(bot.WEIGHTS) and 0 <= chosen < len(X) == len(names) >= 2
    data = [(X, c) for _, _, _, c, X, _ in rows]
    prior = np.array(list(bot.WEIGHTS.values()))
    x = fit.fit(data, prior, l2=1.0)
    start = fit.loss_and_grad(np.append(prior, np.log(0.3)), data, prior, 1.0)[0]
    assert fit.loss_and_grad(x, data, prior, 1.0)[0] < start
    assert x[fit.FIXED] == 1.0 or x[fit.FIXED] == pytest.approx(prior[fit.FIXED])
