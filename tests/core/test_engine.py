"""Engine guarantees that are not about one construct: hooks stay out of play,
rulesets and states pickle, bad player counts are refused, chance is recorded."""

from __future__ import annotations

import copy
import pickle

import pytest

import boardrules
from boardrules import plugins
from boardrules.bots import RandomBot


def test_no_hook_runs_during_play():
    game = boardrules.new_game("harvest", players=3, seed=5)
    calls = []
    undo = plugins.manager().add_hookcall_monitoring(
        lambda name, impls, kwargs: calls.append(name), lambda *a: None)
    try:
        bot = RandomBot(5)
        for _ in range(30):
            if game.over:
                break
            game.play(bot.choose(game))
            list(game.legal_actions())
    finally:
        undo()
    assert calls == []


def test_ruleset_and_state_pickle():
    game = boardrules.new_game("harvest", players=2, seed=1)
    game.play(RandomBot(1).choose(game))
    rs = pickle.loads(pickle.dumps(game.ruleset))
    assert rs is game.ruleset or rs.id == game.ruleset.id  # rebuilt from its recipe (cached)
    state = pickle.loads(pickle.dumps(game.state))
    assert state == game.state and hash(state) == hash(game.state)


def test_player_count_is_checked():
    with pytest.raises(ValueError, match="2–4 players, not 5"):
        boardrules.new_game("harvest", players=5)


def test_unknown_game_and_module():
    with pytest.raises(boardrules.PluginError, match="no game named 'chess'"):
        boardrules.new_game("chess", players=2)
    with pytest.raises(boardrules.PluginError, match="has no module 'nope'"):
        boardrules.new_game("harvest", players=2, modules=["nope"])


def test_chance_outcomes_are_in_the_record_and_replay_without_rng():
    game = boardrules.new_game("harvest", players=2, seed=11)
    assert game.record.actions[0].startswith("chance c ")
    # Another seed with the same record: the replay follows the record, not the seed.
    record = boardrules.Record.loads(game.save())
    record.seed = 999
    replayed = boardrules.Game.from_record(record)
    assert replayed.state == game.state


def test_players_to_act_is_a_set():
    game = boardrules.new_game("harvest", players=3, seed=2)
    assert isinstance(game.players_to_act(), frozenset) and len(game.players_to_act()) == 1


@pytest.mark.parametrize("make_copy", [boardrules.Game.copy, copy.copy], ids=["copy", "copy.copy"])
def test_a_copy_is_independent_of_its_original(make_copy):
    """Issues 12 and 13: playing or undoing on a copy leaves the original's record, event log,
    undo history and state as they were, and the other way round."""
    game = boardrules.new_game("harvest", players=3, seed=4)
    bot = RandomBot(4)
    for _ in range(6):
        game.play(bot.choose(game))

    def snapshot(g):
        return g.state, list(g.record.actions), list(g.log), list(g._history)

    before = snapshot(game)
    twin = make_copy(game)
    assert snapshot(twin) == before and twin.record == game.record
    for _ in range(4):
        twin.play(bot.choose(twin))
    twin.undo()
    assert snapshot(game) == before
    assert twin.state != game.state and len(twin.record.actions) > len(game.record.actions)
    game.undo()
    assert snapshot(twin)[1][:len(before[1])] == before[1]   # the copy kept its own history
    # the copy plays on from where it was, as a game replayed from its record would
    replayed = boardrules.Game.from_record(twin.record)
    assert replayed.state == twin.state


def test_search_coming_back_to_a_state_reuses_its_runs(monkeypatch):
    """Issue 12 (caches keyed by state): after undo, listing the legal actions again and
    playing one of them runs no rule; the game ends up exactly where the first play put it,
    as a replay of its record confirms."""
    game = boardrules.new_game("harvest", players=3, seed=2)
    bot = RandomBot(2)
    for _ in range(5):
        game.play(bot.choose(game))
    legal = list(game.legal_actions())
    action = legal[len(legal) // 2]
    game.play(action)
    after, log = game.state, list(game.log)
    game.undo()

    runs = []
    real_run = boardrules.Game._run
    monkeypatch.setattr(boardrules.Game, "_run", lambda self, *a, **k: runs.append(a) or real_run(self, *a, **k))
    assert list(game.legal_actions()) == legal and game.is_legal(action)
    game.play(action)
    assert runs == [] and game.state is after
    assert [e for e in game.log if e.kind != "undo"] == log
    # a state reached another way (a replay) is the same state
    assert boardrules.Game.from_record(game.record).state == after
