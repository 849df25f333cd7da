"""The PettingZoo environments pass PettingZoo's own API test (extra ``rl``)."""

from __future__ import annotations

import warnings

import pytest

pytest.importorskip("pettingzoo", reason="the 'rl' extra is not installed (CI installs it)")

import numpy as np  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

import boardrules  # noqa: E402
from boardrules.adapters import encoding  # noqa: E402
from boardrules.adapters.pettingzoo import env  # noqa: E402

from .house_rules import NO_SEVEN  # noqa: E402

# api_test warns about every Dict observation (the masked form PettingZoo's own board
# games use); any other warning is a fault
DICT_OBSERVATION = ("Observation is not a NumPy array",
                    "Observation space for each agent probably should be")


@pytest.mark.parametrize("game, players", [("harvest", 3), ("gaia-project", 2), ("eclipse", 2)])
def test_api_test_passes(game, players):
    e = env(game, players=players)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(e, num_cycles=1000)
    others = [str(w.message) for w in caught if not str(w.message).startswith(DICT_OBSERVATION)]
    assert others == []
    assert e.metadata["name"] == f"boardrules_{game.replace('-', '_')}_v0"


def play_out(e, seed):
    """Play the lowest legal id each turn; the action texts in order."""
    e.reset(seed=seed)
    texts = []
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        legal = e.legal_ids(agent)
        assert np.flatnonzero(obs["action_mask"]).tolist() == sorted(legal)
        action = min(legal)
        texts.append(str(legal[action]))
        e.step(action)
    return texts


def test_a_game_is_the_boardrules_game_and_ends_with_ranked_rewards():
    e = env("harvest", players=2)
    texts = play_out(e, seed=5)
    assert play_out(e, seed=5) == texts              # same seed, same game
    replay = boardrules.new_game("harvest", players=2, seed=5)
    for text in texts:
        replay.play(text)
    assert replay.over and replay.state == e.game.state
    e.reset(seed=5)
    rewards = {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        rewards[agent] += reward
        e.step(None if terminated or truncated else min(e.legal_ids(agent)))
    assert list(rewards.values()) == encoding.outcome(replay)
    state = e.game.state
    for action in (None, 0):   # every agent done: said, not a KeyError of the last agent's name
        with pytest.raises(boardrules.IllegalActionError, match=r"the game is over and every agent is done"):
            e.step(action)
    assert e.game.state is state and not e.agents


def test_an_illegal_id_is_refused_and_changes_nothing():
    e = env("harvest", players=2)
    e.reset(seed=1)
    agent = e.agent_selection
    mask = e.observe(agent)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    state = e.game.state
    with pytest.raises(boardrules.IllegalActionError, match=f"action id {bad} is not legal"):
        e.step(bad)
    assert e.game.state is state and e.agent_selection == agent
    other = next(a for a in e.agents if a != agent)
    assert not e.observe(other)["action_mask"].any()   # not its turn


def test_observations_are_views():
    e = env("eclipse", players=2, observation_bits=10)
    e.reset(seed=2)
    for p, agent in enumerate(e.possible_agents):
        vec = e.observe(agent)["observation"]
        assert vec.shape == (1024,) and vec.dtype == np.float32
        assert vec.tolist() == encoding.observation(e.game, p, bits=10)


def test_max_moves_truncates():
    e = env("harvest", players=2, max_moves=3)
    e.reset(seed=1)
    moves = 0
    for agent in e.agent_iter():
        _, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            assert truncated and not terminated
            e.step(None)
            continue
        e.step(min(e.legal_ids(agent)))
        moves += 1
    assert moves == 3 and not e.game.over and e.agents == []


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="2–4 players, not 9"):
        env("harvest", players=9)
    with pytest.raises(ValueError, match="action_bits must be an int from 1 to 20 .*, not 0"):
        env("harvest", players=2, action_bits=0)
    # (30 was taken: every observation then held a mask of 2**30 bytes, 1 GiB)
    for bits in (21, 30):
        with pytest.raises(ValueError, match=f"action_bits must be an int from 1 to 20 .*, not {bits}"):
            env("harvest", players=2, action_bits=bits)
        with pytest.raises(ValueError, match=f"observation_bits must be an int from 1 to 20 .*, not {bits}"):
            env("harvest", players=2, observation_bits=bits)
    e = env("harvest", players=2, action_bits=encoding.MAX_BITS, observation_bits=encoding.MAX_BITS)
    e.reset(seed=1)
    obs = e.observe(e.agent_selection)
    assert obs["action_mask"].shape == obs["observation"].shape == (1 << 20,)
    assert obs["action_mask"].sum() == len(e.legal_ids(e.agent_selection)) > 0
    with pytest.raises(ValueError, match="render_mode"):
        env("harvest", players=2, render_mode="human")
    # (a text failed with a TypeError at the first move; 0 or less truncated every game after it)
    for moves in (0, -1):
        with pytest.raises(ValueError, match=f"max_moves must be a whole number of moves, at least 1, not {moves!r}"):
            env("harvest", players=2, max_moves=moves)
    for moves in ("5", 2.5, True):   # (another type: a TypeError, as everywhere in the API)
        with pytest.raises(TypeError, match=f"max_moves must be a whole number \\(an int\\), not {moves!r}"):
            env("harvest", players=2, max_moves=moves)
    e = env("harvest", players=2, render_mode="ansi")
    e.reset(seed=1)
    assert e.render().startswith("<Game Harvest players=2")


def test_a_simultaneous_step_lets_each_player_act_lowest_seat_first():
    rules = """
game bids { players 3 }
resource vp { start 0; scored true }
action bid(n: int in 1..3) main { gain n vp }
flow { rounds 1 { step bids: turns seat simultaneous { main bid } } }
"""
    e = env(None, texts={"bids.rules": rules}, players=3)
    assert e.metadata["name"] == "boardrules_bids_v0"    # no title: the game's name
    e.reset(seed=1)
    order = []
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        assert len(e.game.players_to_act()) == 3 - len(order)     # all still to bid may act
        order.append(agent)
        legal = e.legal_ids(agent)
        e.step(max(legal, key=lambda i: legal[i].args))            # bid 3
    assert order == ["player_0", "player_1", "player_2"]
    assert [s["total"] for s in e.game.scores()] == [3, 3, 3]


def test_interleaved_turns_take_the_players_to_act_lowest_seat_first():
    """A ``lanes`` step (two turns at once, tests/core/test_lanes.py): the agent selected is
    always one of the players to act, and a whole game plays through the AEC loop."""
    from tests.core.test_lanes import RULES
    e = env(None, texts={"relay.rules": RULES}, players=4)
    e.reset(seed=2)
    rng = np.random.default_rng(2)
    seen_two = False
    for agent in e.agent_iter(max_iter=5000):
        obs, reward, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        to_act = e.game.players_to_act()
        seen_two |= len(to_act) == 2
        assert int(agent.split("_")[1]) == min(to_act)
        legal = e.legal_ids(agent)
        choices = [i for i, a in legal.items() if a.name != "tip"] or list(legal)
        e.step(int(rng.choice(choices)))
    assert e.game.over and seen_two


def test_a_refused_seed_leaves_the_environment_as_it_was():
    """reset(seed=2**70) raised but kept that seed as the next one, so every later reset()
    without a seed failed too; the game under way stayed, as it should."""
    e = env("harvest", players=2)
    e.reset(seed=5)
    game = e.game
    with pytest.raises(ValueError, match=r"^seed 1180591620717411303424: expected a whole number "
                       r"\(from -2\^63 to 2\^63-1: a 64-bit seed\)$"):   # (no text seed: reset takes none)
        e.reset(seed=2**70)
    with pytest.raises(TypeError):
        e.reset(seed="7")
    assert e.game is game
    e.reset()
    assert e.game.seed == 6


@pytest.mark.parametrize("call", ["step", "last", "observe", "legal_ids"])
def test_before_reset_and_after_close_the_environment_says_reset_first(call):
    """step() and last() before reset() raised AttributeError ('agent_selection'); observe()
    read the constructor's game, which reset() then replaced."""
    args = {"step": (0,), "last": (), "observe": ("player_0",), "legal_ids": ("player_0",)}[call]
    e = env("harvest", players=2)
    with pytest.raises(RuntimeError, match="reset"):
        getattr(e, call)(*args)
    e.reset(seed=1)
    getattr(e, call)(*args) if call != "step" else e.step(min(e.legal_ids(e.agent_selection)))
    e.close()
    with pytest.raises(RuntimeError, match="reset"):
        getattr(e, call)(*args)



def _id_of(e, text: str) -> int:
    return next(i for i, a in e.legal_ids(e.agent_selection).items() if e.game.format(a) == text)


def test_a_game_where_nobody_can_act_says_why():
    """A chance draw whose every outcome a ``require`` refuses, and a turn with no legal
    action, raise the game's GameStuckError: the chance left the seat to act at
    ``possible_agents[-1]`` (CHANCE is -1), and the empty mask's id was an IllegalActionError
    '(0 legal ids)' that did not say why."""
    e = env(None, texts={"seven.rules": NO_SEVEN}, players=2)
    e.reset(seed=1)
    with pytest.raises(boardrules.GameStuckError, match="chance's decision 'r' has no legal option"):
        e.step(_id_of(e, "p1 roll"))
    e.reset(seed=1)
    e.step(_id_of(e, "p1 work"))
    e.step(_id_of(e, "p2 work"))
    assert e.agent_selection == "player_0" and not e.observe("player_0")["action_mask"].any()
    with pytest.raises(boardrules.GameStuckError, match="it is p1's turn and none of its actions"):
        e.step(0)


def test_after_the_largest_seed_reset_goes_on_with_the_smallest():
    """reset(seed=2**63-1) made every later reset() without a seed fail (2**63 is no seed)."""
    e = env("harvest", players=2)
    e.reset(seed=2**63 - 1)
    e.reset()
    assert e.game.seed == -2**63
    e.reset()
    assert e.game.seed == -2**63 + 1


@pytest.mark.parametrize("name", ["agents", "num_agents", "agent_selection", "rewards", "terminations",
                                  "truncations", "infos"])
def test_before_reset_only_possible_agents_is_there(name):
    """PettingZoo's API has ``possible_agents`` before ``reset()`` and ``agents`` (and the
    other attributes reset sets) after it: ``env.agents`` was a bare AttributeError ('object
    has no attribute'), ``agent_selection`` a RuntimeError. Now each says to call reset()
    first and is both, as PettingZoo's own wrapper has them (AttributeError) and as the
    methods here say it (RuntimeError)."""
    e = env("harvest", players=2)
    assert e.possible_agents == ["player_0", "player_1"] and e.max_num_agents == 2
    for error in (AttributeError, RuntimeError):
        with pytest.raises(error, match=f"{name}: call reset\\(\\) first"):
            getattr(e, name)
    assert not hasattr(e, name)
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        e.nothing
    e.reset(seed=1)
    assert e.agents == e.possible_agents and e.num_agents == 2 and getattr(e, name) is not None
