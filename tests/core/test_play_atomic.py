"""``Game.play`` is atomic also when the game's own chance (``auto_chance``) draws after the
move: a draw that runs into one of the engine's limits (its redraws past the listing's limit
``LIMITS.max_listing_steps``, the game's moves at ``LIMITS.max_moves``, its values past ``LIMITS.max_values``) raises
ExecutionBudgetError naming the limit, and the game is exactly as before the play: state,
record, log, undo history. The move used to stay played with chance due, and the next
``legal_actions()`` raised (the listing limit) or listed outcomes that play refused (the moves
limit). A sample of chance's decision draws one outcome as the game's own chance does, also of
7 dice and more (whose outcomes are not listed: it raised the listing's error)."""

from __future__ import annotations

import collections
import random

import pytest

from boardrules.limits import LIMITS
import boardrules
from boardrules.game import actions, core, history, listing
from boardrules import CHANCE, ExecutionBudgetError

SLOW = "(count i in 1..50000) > 0"   # (a condition that takes 50,000 steps and more)


def _rules(body: str, extra: str = "") -> dict[str, str]:
    return {"luck.rules": f"""
game luck {{ players 1..2 }}
resource coins {{ start 0; scored true }}
{extra}
action roll main {{ {body} }}
action wait main {{ gain 1 coins }}
flow {{ rounds 3 {{ step play: turns seat once {{ main roll, wait }} }} }}
"""}


def _listing_limit(limits, steps: int) -> None:
    limits(max_listing_steps=steps)


def _snapshot(game: boardrules.Game) -> tuple:
    return (game.state, game.save(), list(game.record.actions), list(game.log),
            list(game._history), game._kept)


def _refused_whole(game: boardrules.Game, move: str, match: str) -> None:
    """``move`` raises ExecutionBudgetError matching ``match``, the game exactly as before;
    then it plays on (the listing, another move, undo) as it would have."""
    before = _snapshot(game)
    listed = game.legal_actions()
    with pytest.raises(ExecutionBudgetError, match=match) as err:
        game.play(move)
    assert "(the move is not played)" in str(err.value) and err.value.action == game.parse(move)
    after = _snapshot(game)
    assert after[0] is before[0] and after == before
    who = move.split()[0]
    assert [str(a) for a in listed] == [f"{who} roll", f"{who} wait"]   # (the view made before is fresh)
    game.play(f"{who} wait")
    game.undo()   # (as before, but for the log's 'undo' event)
    now = _snapshot(game)
    assert now[:3] + now[4:] == before[:3] + before[4:] and now[3][:-1] == before[3]
    game.undo()   # (and the move before it is taken back from the history kept)
    assert game.record.actions == []


def test_chance_redraws_past_the_listing_limit_leave_the_game_as_before(monkeypatch, limits):
    _listing_limit(limits, 1_000_000)
    monkeypatch.setattr(history, "HISTORY_VALUES", 1)   # (the failed play must not thin the history)
    game = boardrules.new_game(texts=_rules(
        f'choose n in 1..99999 by chance "luck" {{ require {SLOW} and n == 7 else "no"; gain 1 coins }}'),
        players=2, seed=3)
    game.play("p1 wait")
    _refused_whole(game, "p2 roll", r"^p2 roll: drawing chance's outcome for 'n': the candidates "
                   r"tried took more than 1000000 steps in all \(the listing's limit")


def test_a_chance_outcome_past_the_move_limit_leaves_the_game_as_before(limits):
    game = boardrules.new_game(texts=_rules('choose n in [1, 2, 3] by chance "luck" { gain n coins }'),
                               players=2, seed=3)
    game.play("p1 wait")
    limits(max_moves=2)   # (p2's roll is the second move: its outcome a third)
    _refused_whole(game, "p2 roll", r"^p2 roll: chance n: the game has had 2 moves, the most a game may have")


def test_a_chance_outcome_past_the_values_limit_leaves_the_game_as_before(limits):
    game = boardrules.new_game(texts=_rules(
        'choose n in [1, 2, 3] by chance "luck" { for h in hexes { set mark[h] = n } }',
        'var hexes: list[hex] = [' + ", ".join(f'"h{i}"' for i in range(40)) + ']\n'
        'var mark: int per hex = 0'), players=2, seed=3)
    game.play("p1 wait")
    limits(max_values=len(game.state.values) + 10)
    _refused_whole(game, "p2 roll", r"^p2 roll: chance n \d: the game would hold \d+ values, more "
                   r"than the \d+ a game may hold")


def test_a_game_whose_first_chance_draw_passes_the_listing_limit_cannot_start(limits):
    _listing_limit(limits, 1_000_000)
    texts = {"luck.rules": f"""
game luck {{ players 1..2 }}
resource coins {{ start 0; scored true }}
action wait main {{ gain 1 coins }}
flow {{ setup {{ step s: do {{ choose n in 1..99999 by chance "luck" {{ require {SLOW} and n == 7 else "no" }} }} }}
        rounds 1 {{ step play: turns seat once {{ main wait }} }} }}
"""}
    with pytest.raises(ExecutionBudgetError, match="^the game cannot start: drawing chance's "
                       "outcome for 'n': .* \\(the listing's limit"):
        boardrules.new_game(texts=texts, players=1, seed=3)


def test_a_chance_outcome_the_rules_refuse_is_redrawn_within_one_play():
    # (a refusal is not a limit: the game's chance draws again, as before)
    game = boardrules.new_game(texts=_rules('choose n in [1, 2] by chance "luck" '
                                            '{ require n == 2 else "no"; gain 1 coins }'), players=1, seed=1)
    game.play("p1 roll")
    assert game.record.actions == ["p1 roll", "chance n 2"]


DICE = 'choose n in dice(8) by chance "luck" { require n[0] != 1 else "no"; gain 1 coins }'


def _left_to_caller(body: str, seed: int = 3) -> boardrules.Game:
    ruleset = boardrules.new_game(texts=_rules(body), players=1, seed=seed).ruleset
    game = boardrules.Game(ruleset, 1, seed, auto_chance=False)
    game.play("p1 roll")
    return game


@pytest.mark.parametrize("player", [None, CHANCE])
def test_a_sample_of_many_dice_rolls_one_outcome_the_rules_allow(player):
    game = _left_to_caller(DICE)
    state = game.state
    firsts = collections.Counter()
    for seed in range(300):
        action = game.legal_actions(player).sample(random.Random(seed))
        assert action.player == CHANCE and len(action.args[0]) == 8 and action.args[0][0] != 1
        assert game.is_legal(action)
        firsts[action.args[0][0]] += 1
    assert set(firsts) == {2, 3, 4, 5, 6}   # (every allowed first die drawn)
    assert game.state is state


def test_a_sample_of_chance_draws_what_the_games_own_chance_draws():
    for body in (DICE, 'choose n in [1, 1, 1, 2, 3] by chance "luck" { require n != 3 else "no" }'):
        for seed in range(20):
            game = _left_to_caller(body)
            sampled = game.legal_actions().sample(random.Random(seed))
            assert game.decide_chance(random.Random(seed))
            assert game.record.actions[-1] == str(sampled)


def test_a_sample_of_chance_is_the_same_listed_or_not():
    for seed in range(10):
        game = _left_to_caller('choose n in [1, 1, 1, 2, 3] by chance "luck" { require n != 3 else "no" }')
        fresh = game.legal_actions().sample(random.Random(seed))
        listed = game.legal_actions()
        assert set(map(str, listed)) == {"chance n 1", "chance n 2"}
        assert listed.sample(random.Random(seed)) == fresh


def test_a_sample_of_many_dice_the_rules_never_allow_names_the_redraws():
    game = _left_to_caller('choose n in dice(7) by chance "luck" { require n[0] > 6 else "no" }')
    with pytest.raises(ExecutionBudgetError, match="refused each of the 1001 rolls of 7 dice drawn"):
        game.legal_actions().sample(random.Random(1))


# ---- a KeyboardInterrupt anywhere in play is whole or nothing ---------------------------------

_WATCHED = {"play", "_apply", "_commit", "_auto", "_decide_chance", "decide_chance"}


def _interrupted_at(n: int, call) -> bool:
    """``call()`` with a KeyboardInterrupt raised at the ``n``-th line (from 1) that the
    functions of :data:`_WATCHED` (the game's moving parts) run; whether it was raised. Not at
    a line that begins with a no-op (a ``try:``): Python takes a signal only at instructions
    that do something (a call, a jump back), and a no-op belongs to no ``try``'s range."""
    import dis
    import sys

    count, nop = [0], dis.opmap["NOP"]

    def tracer(frame, event, arg):
        if frame.f_code.co_name not in _WATCHED:
            return None
        def line(frame, event, arg):
            if event == "line" and frame.f_code.co_code[frame.f_lasti] != nop:
                count[0] += 1
                if count[0] == n:
                    sys.settrace(None)
                    raise KeyboardInterrupt
            return line
        return line

    sys.settrace(tracer)
    try:
        call()
    except KeyboardInterrupt:
        return True
    finally:
        sys.settrace(None)
    return False


def _seen(game: boardrules.Game) -> tuple:
    return game.state, list(game.record.actions), list(game.log), len(game._history), game._kept


@pytest.mark.parametrize("chance", ["play", "decide_chance"])
def test_a_keyboard_interrupt_at_any_line_of_a_play_leaves_it_whole_or_not_played(chance):
    """A Ctrl-C amid ``_commit`` (the history, state, record and log written one after another)
    or between the move and the game's own chance draw left the game half-applied: its state
    moved on without its record, or its move played with chance due. Interrupted at each line
    in turn, the game is exactly as before (or, past the last change, as after), and plays on."""
    def fresh():
        game = boardrules.new_game(texts=_rules('choose n in [1, 2, 3] by chance "luck" { gain n coins }'),
                                   players=2, seed=3, auto_chance=chance == "play")
        game.play("p1 wait")
        return game

    def move(game):
        game.play("p2 roll")
        if chance == "decide_chance":
            assert game.decide_chance(random.Random(1))

    whole = fresh()
    move(whole)
    after = _seen(whole)
    n = 0
    while True:
        n += 1
        game = fresh()
        if chance == "decide_chance":
            game.play("p2 roll")
        before = _seen(game)
        call = (lambda: game.decide_chance(random.Random(1))) if chance == "decide_chance" else \
            (lambda: game.play("p2 roll"))
        if not _interrupted_at(n, call):
            break
        now = _seen(game)
        assert now == before or now[:3] == after[:3], n
        if now == before:
            call()
        assert _seen(game)[:3] == after[:3] and game.record.actions[-1].startswith("chance ")
        game.undo()
        assert game.record.actions == ["p1 wait"]
    assert n > 10
