"""The module-combination property, for every installed game (see ``tests/combinations.py``):
hypothesis draws a player count, a random valid set of the game's modules and a seed, plays a
whole random game, and checks the game's invariants, undo and save -> load.

The number of examples per game is bounded for CI (``EXAMPLES``, times ``BOARDRULES_STRESS``);
``python scripts/module_combinations.py --examples N`` runs many on demand.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardrules import plugins
from boardrules.ruleset import _build
from tests.combinations import draw_example, play_example
import tests.rota.test_together  # noqa: F401  (the modules' invariants, with their own @given
                                 # tests, are imported before any property runs: no nested @given)

STRESS = int(os.environ.get("BOARDRULES_STRESS", "1"))
EXAMPLES = {"harvest": 10, "gaia-project": 2, "eclipse": 2}
SETTINGS = dict(deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.large_base_example])


def _run(game, data):
    def pick(n: int) -> int:
        return data.draw(st.integers(0, n - 1)) if n > 1 else 0
    example = draw_example(game, pick, short=STRESS == 1)
    data.draw(st.just(example), label="example")
    g = play_example(game, pick, **example)
    assert g is None or g.over


def _property(game: str, examples: int):
    @settings(max_examples=examples * STRESS, **SETTINGS)
    @given(data=st.data())
    def test(data):
        _run(game, data)
    test.__name__ = f"test_module_combinations_{game.replace('-', '_')}"
    return test


for _game, _n in EXAMPLES.items():
    globals()[f"test_module_combinations_{_game.replace('-', '_')}"] = _property(_game, _n)


OTHERS = sorted(set(plugins.games()) - set(EXAMPLES))


@pytest.mark.skipif(not OTHERS, reason="no other game is installed")
@settings(max_examples=2 * STRESS, **SETTINGS)
@given(data=st.data())
def test_module_combinations_of_other_installed_games(data):
    _run(data.draw(st.sampled_from(OTHERS or ["-"])), data)


WEAVERS = Path(__file__).resolve().parent / "thirdparty" / "weavers"


@settings(max_examples=2 * STRESS, **SETTINGS)
@given(data=st.data())
def test_module_combinations_of_gaia_with_a_third_party_faction(data):
    """Gaia Project with the Weavers (tests/thirdparty/weavers, on by default) installed: the
    drawn set may switch them off; when on, the random players may pick them."""
    sys.path.insert(0, str(WEAVERS))
    import boardrules_weavers
    pm = plugins.manager()
    pm.register(boardrules_weavers, "boardrules_weavers")
    _build.cache_clear()
    try:
        _run("gaia-project", data)
    finally:
        pm.unregister(boardrules_weavers)
        sys.path.remove(str(WEAVERS))
        _build.cache_clear()


def test_the_drawn_sets_are_valid_and_vary():
    """draw_modules respects requires, conflicts and player counts, and reaches every module."""
    import random
    seen = set()
    rnd = random.Random(3)
    for _ in range(60):
        ex = draw_example("harvest", lambda n: rnd.randrange(n), short=True)
        mods = plugins.resolve_modules("harvest", ex["modules"])
        plugins.check_players("harvest", mods, ex["players"])
        assert not {"drought", "monsoon"} <= set(mods)
        seen |= set(mods)
    assert seen == set(plugins.modules("harvest"))
