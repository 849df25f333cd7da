"""The PettingZoo environment reads an action id and a seed as whole numbers (ints or NumPy
integers) and refuses anything else: ``int()`` cut ``step(1.7)`` to action id 1, read the text
'7' as id 7, and failed on ``reset(seed="x")`` with int()'s own ValueError."""

from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo", reason="the 'rl' extra is not installed (CI installs it)")

import numpy as np  # noqa: E402

from boardrules import IllegalActionError  # noqa: E402
from boardrules.adapters.pettingzoo import env  # noqa: E402


def _env_and_first_id():
    e = env("harvest", players=2)
    e.reset(seed=1)
    mask = e.observe(e.agent_selection)["action_mask"]
    return e, int(np.flatnonzero(mask)[0])


@pytest.mark.parametrize("wrong", [lambda i: i + 0.5, lambda i: float(i), lambda i: str(i), lambda i: True])
def test_an_action_id_of_another_kind_is_refused_and_nothing_is_played(wrong):
    e, first = _env_and_first_id()
    state = e.game.state
    with pytest.raises(TypeError, match="an action id is a whole number \\(an int or a NumPy integer\\)"):
        e.step(wrong(first))
    assert e.game.state is state


def test_numpy_integers_are_action_ids_and_seeds():
    e, first = _env_and_first_id()
    e.step(np.int64(first))
    e.reset(seed=np.int32(1))
    assert e.game.seed == 1 and type(e.game.seed) is int
    for seed in ("x", "1", 1.5):
        with pytest.raises(TypeError, match="seed is a whole number"):
            e.reset(seed=seed)


def test_an_illegal_numpy_action_id_is_named_as_the_number():
    # (it said "action id np.int64(3) is not legal now": NumPy 2's repr)
    e, first = _env_and_first_id()
    unused = next(i for i in range(1 << e.action_bits) if i not in e.legal_ids(e.agent_selection))
    with pytest.raises(IllegalActionError, match=rf"^player_1: action id {unused} is not legal now \("):
        e.step(np.int64(unused))
