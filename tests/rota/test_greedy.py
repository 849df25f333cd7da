"""Greedy-bot games with each Rise of the Ancients module on (issue 12: "property tests also run
with the greedy bot, so deep rules get visited"): the greedy bot explores, colonises, builds,
upgrades and researches far more than a random bot, so these games reach the rules a random
game seldom does. After every action the base game's invariants and the module's own hold; the
record replays exactly. Short games (one round, one example per module, no shrinking of a
failing game) keep the run time low.

``nine-players`` plays 7 players (its start-of-game decision, once named ``remove_cube`` like
the base's bombardment procedure, is ``discard_cube``: tests/core/test_record_names.py).
"""

from __future__ import annotations

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from .common import SETTINGS, play_greedy
from .test_alliances import AllianceInvariant
from .test_together import INVARIANTS
from .test_nine_players import nine_invariant
from .test_variants import _secret_and_homeworlds, small_invariant

# module -> (a fresh invariant for one game, player counts)
CASES = {name: ((lambda check=check: check), (2, 2)) for name, check in INVARIANTS.items()}
CASES["alliances"] = (AllianceInvariant, (4, 4))
CASES["small-galaxy"] = (lambda: small_invariant, (3, 3))
CASES["secret-homeworlds"] = (lambda: _secret_and_homeworlds, (2, 2))
CASES["nine-players"] = (lambda: nine_invariant, (7, 7))
QUICK = settings(SETTINGS, max_examples=1, phases=(Phase.explicit, Phase.generate))


@pytest.mark.parametrize("module", sorted(CASES))
@QUICK
@given(data=st.data())
def test_greedy_games_keep_the_invariants(module, data):
    make, (low, high) = CASES[module]
    players = data.draw(st.integers(low, high), label="players")
    seed = data.draw(st.integers(0, 2**16), label="seed")
    g = play_greedy((module,), make(), players=players, seed=seed, rounds=1)
    assert g.over and module in g.ruleset.modules
    assert any(a.split()[1] == "explore" for a in g.record.actions), "greedy players explore"


@QUICK
@given(seed=st.integers(0, 2**16))
def test_greedy_game_with_every_module(seed):
    modules = tuple(INVARIANTS)

    def every(g) -> None:
        for check in INVARIANTS.values():
            check(g)
    g = play_greedy(modules, every, players=2, seed=seed, rounds=2)
    assert g.ruleset.modules == tuple(sorted(modules))
