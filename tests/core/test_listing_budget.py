"""A listing's tries are bounded in total, not only one by one: each candidate tried (its
prechecks, its guard, its run) has the whole execution budget, so rules that take many steps for
each of many candidates multiplied it without end (``legal_actions()`` of a 99,999-value action
whose ``require`` takes 50,000 steps ran for hours). The tries of one listing, and chance's
redraws, share ``LIMITS.max_listing_steps``: past it the listing stops with ExecutionBudgetError and the
game is as it was. The steps are counted (the game's own count), never the time."""

from __future__ import annotations

import random

import pytest

from boardrules.limits import LIMITS
import boardrules
import boardrules.game as G
from boardrules.game import core, listing
from boardrules import CHANCE, ExecutionBudgetError

LIMIT = 1_000_000   # (the listing's limit in these tests: 20 tries of 50,000 steps)
SLOW = "(count i in 1..50000) > 0"   # (a condition that takes 50,000 steps and more)
SOME = "(count i in 1..20000) > 0"


def _game(body: str, action: str = "go(x: int in 1..99999)", **kw) -> boardrules.Game:
    text = f"""
game slow {{ players 1..2 }}
resource coins {{ start 0; scored true }}
action {action} main {{ {body} }}
action wait main {{ gain 1 coins }}
flow {{ rounds 3 {{ step play: turns seat once {{ main {action.split("(")[0]}, wait }} }} }}
"""
    return boardrules.new_game(texts={"slow.rules": text}, players=1, seed=3, **kw)


@pytest.fixture(autouse=True)
def _small_limit(limits):
    limits(max_listing_steps=LIMIT)


def _spent(game: boardrules.Game) -> int:
    return LIMIT - game._meter.left


# its prechecks refuse every candidate; its guard or its run does (after a first statement
# that no precheck passes)
BODIES = {"prechecks": f'require {SLOW} and x == 0 else "no"',
          "runs": f'gain 1 coins; require {SLOW} and x == 0 else "no"'}


def _generic(game: boardrules.Game) -> list:
    """The listing's prechecks the engine's way (Game._generic_candidates, the generated
    listing's oracle)."""
    game._meter.left = LIMIT   # (a listing begins)
    return list(game._candidates(None, True, compiled=False))


LISTINGS = {"legal_actions": lambda g: list(g.legal_actions()),
            "of_player": lambda g: len(g.legal_actions(0)),
            "sample": lambda g: g.legal_actions().sample(random.Random(1)),
            "generic": _generic}


@pytest.mark.parametrize("body, listing", [(b, li) for b in BODIES for li in LISTINGS
                                           if not (b == "runs" and li == "generic")])
def test_a_listing_whose_tries_take_many_steps_each_stops_at_its_limit(body, listing):
    game = _game(BODIES[body])
    state, saved = game.state, game.save()
    with pytest.raises(ExecutionBudgetError, match=r"^listing the legal actions.*: the candidates "
                       r"tried took more than 1000000 steps in all \(the listing's limit; each "
                       r"may take up to max_steps, here 1000000\)"):
        LISTINGS[listing](game)
    assert _spent(game) <= LIMIT + game.max_steps   # (stopped at the limit: ~20 tries, not 99,999)
    assert game.state is state and game.save() == saved


def test_a_listing_within_its_limit_is_as_before():
    game = _game(f'require {SOME} and x <= 3 else "no"', "go(x: int in 1..12)")
    assert [str(a) for a in game.legal_actions()] == [f"p1 go {x}" for x in (1, 2, 3)] + ["p1 wait"]
    assert 12 * 20_000 <= _spent(game) <= LIMIT


def test_each_listing_has_the_whole_limit():
    game = _game(f'require {SOME} and x <= 3 else "no"', "go(x: int in 1..12)")
    for _ in range(3):   # (three listings of more than half the limit each: none is stopped)
        game._known.clear()
        assert len(game.legal_actions()) == 4 and _spent(game) > LIMIT // 2


CHANCE_BODY = f'choose n in 1..99999 by chance "luck" {{ require {SLOW} and n == 7 else "no"; gain 1 coins }}'


def test_chance_redraws_are_charged_to_the_listing_limit():
    game = _game(CHANCE_BODY, "roll")
    with pytest.raises(ExecutionBudgetError, match="^p1 roll: drawing chance's outcome for 'n'"):
        game.play("p1 roll")   # (the game's own draw stops at the limit: the move is not played,
    assert game.record.actions == []   # tests/core/test_play_atomic.py)
    game = boardrules.Game(game.ruleset, 1, 3, auto_chance=False)
    game.play("p1 roll")
    assert game.record.actions == ["p1 roll"] and game.players_to_act() == {CHANCE}
    state = game.state
    with pytest.raises(ExecutionBudgetError, match="^drawing chance's outcome for 'n': the "
                                                   "candidates tried took more than"):
        game.decide_chance(random.Random(5))
    assert _spent(game) <= LIMIT + game.max_steps
    with pytest.raises(ExecutionBudgetError, match="^listing the legal actions: the candidates"):
        list(game.legal_actions())
    assert game.state is state and game.record.actions == ["p1 roll"]


def _rebuilt(outcomes, first, rng):
    """The redraws as they were made before: the pool rebuilt after each draw (quadratic)."""
    pool = [v for v in outcomes if v != first]
    while pool:
        value = rng.choice(pool)
        yield value
        pool = [v for v in pool if v != value]


def test_redraws_draw_what_the_rebuilt_pool_drew():
    for seed in range(200):   # (copies of a value leave with it; the seeded order is kept)
        rnd = random.Random(seed)
        outcomes = tuple(rnd.randrange(9) for _ in range(rnd.randrange(1, 30)))
        first = rnd.choice(outcomes)
        assert list(G._redraws(outcomes, first, random.Random(seed))) == \
            list(_rebuilt(outcomes, first, random.Random(seed)))
