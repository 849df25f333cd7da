"""OpenSpiel's algorithms play boardrules games (extra ``openspiel``)."""

from __future__ import annotations

import re

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the 'openspiel' extra is not installed (CI installs it)")

import numpy as np  # noqa: E402
from open_spiel.python.algorithms import mcts  # noqa: E402

import boardrules  # noqa: E402
from boardrules.adapters import encoding  # noqa: E402
from boardrules.adapters.openspiel import load, register  # noqa: E402

from .house_rules import NO_SEVEN  # noqa: E402


def test_mcts_bots_play_a_whole_game_of_harvest():
    name = register("harvest")
    assert register("harvest") == name == "boardrules_harvest"
    game = pyspiel.load_game(name, {"players": 2, "seed": 3})
    assert game.num_players() == 2 and game.num_distinct_actions() == 2**16
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [mcts.MCTSBot(game, uct_c=2, max_simulations=6, evaluator=evaluator, random_state=rng)
            for _ in range(2)]
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            ids, probs = zip(*state.chance_outcomes())
            assert sum(probs) == pytest.approx(1.0)
            action = rng.choice(ids, p=probs)
        else:
            action = bots[state.current_player()].step(state)
            assert action in state.legal_actions()
        state.apply_action(action)
    # the boardrules game behind it was played by the rules, and its result is the return
    replay = boardrules.load_game(state.game.save())
    assert replay.over and replay.state == state.game.state
    assert state.returns() == encoding.outcome(replay)
    assert sorted(state.returns()) == [-1.0, 1.0] or state.returns() == [0.0, 0.0]


def test_chance_nodes_and_clones():
    game = pyspiel.load_game(register("harvest"), {"players": 3})
    state = game.new_initial_state()
    assert state.is_chance_node()                     # setup draws a card from the deck
    outcomes = dict(state.chance_outcomes())
    deck = state.game.get("deck")
    for i, p in outcomes.items():
        card = state.action_to_string(pyspiel.PlayerId.CHANCE, i).split()[-1]
        assert p == pytest.approx(deck.count(card) / len(deck))
    state.apply_action(min(outcomes))
    twin = state.clone()
    twin.apply_action(twin.legal_actions()[0])
    assert len(twin.game.record.actions) == len(state.game.record.actions) + 1
    assert state.game.state is not twin.game.state
    waiting = (state.current_player() + 1) % 3
    assert state.legal_actions(waiting) == []         # not that player's turn


def test_game_type_follows_the_rules():
    eclipse = pyspiel.load_game(register("eclipse"), {"players": 3})
    kind = eclipse.get_type()
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert (kind.min_num_players, kind.max_num_players) == (2, 6)
    harvest = pyspiel.load_game(register("harvest")).get_type()
    assert harvest.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    with pytest.raises(Exception, match="2–4 players, not 7"):
        pyspiel.load_game(register("harvest"), {"players": 7})
    with pytest.raises(ValueError, match="action_bits must be an int from 1 to 20"):
        register("harvest", action_bits=40, short_name="boardrules_harvest_wide")
    with pytest.raises(ValueError, match="observation_bits must be an int from 1 to 20 .*, not 30"):
        register("harvest", observation_bits=30, short_name="boardrules_harvest_wide")
    with pytest.raises(ValueError, match="max_moves must be a whole number of moves, at least 1, not 0"):
        register("harvest", max_moves=0, short_name="boardrules_harvest_endless")   # (OpenSpiel was told 0)
    state = eclipse.new_initial_state()
    assert state.observation_string(0) == repr(state.game.view(0))      # p1's view only


DICE_GAME = """
game dice_duel { title "Dice duel"; players 2 }
resource vp { start 0; scored true }
action roll_few main { choose r in dice(2) by chance { gain r[0] vp } }
action roll_many main { choose r in dice(6) by chance { gain r[5] vp } }
flow { rounds 2 { step play: turns seat once { main roll_few, roll_many } } }
"""


def test_rolls_listed_whole_or_sampled_and_your_own_rules():
    from boardrules.adapters.openspiel import MAX_ROLLS
    name = register(None, texts={"dice.rules": DICE_GAME})
    assert name == "boardrules_dice_duel"
    assert register(None, texts={"dice.rules": DICE_GAME}) == name
    with pytest.raises(ValueError, match="already has a game named 'boardrules_dice_duel'"):
        register(None, texts={"dice.rules": DICE_GAME.replace("gain r[0]", "gain r[1]")})
    game = pyspiel.load_game(name, {"players": 2, "seed": 5})
    state = game.new_initial_state()
    by_text = {state.action_to_string(0, i): i for i in state.legal_actions()}
    few = state.clone()
    few.apply_action(by_text["p1 roll_few"])
    outcomes = few.chance_outcomes()
    assert len(outcomes) == 36 and all(p == pytest.approx(1 / 36) for _, p in outcomes)
    state.apply_action(by_text["p1 roll_many"])          # 6**6 rolls: a sample of them
    outcomes = state.chance_outcomes()
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert 1000 < len(outcomes) <= MAX_ROLLS < 6**6
    assert state.clone().chance_outcomes() == outcomes    # the same sample at the same point
    rolls = [state.action_to_string(pyspiel.PlayerId.CHANCE, i).split()[-1] for i, _ in outcomes]
    assert all(len(r.split(",")) == 6 for r in rolls)
    state.apply_action(outcomes[0][0])
    assert state.current_player() == 1


FUSSY_DICE = """
game fussy_dice { title "Fussy dice"; players 2 }
resource vp { start 0; scored true }
action roll main { choose r in dice(2) by chance { require r[0] != r[1] else "a double is rolled again"; gain r[0] vp } }
flow { rounds 2 { step play: turns seat once { main roll } } }
"""


def test_chance_outcomes_are_those_the_rules_allow():
    """An outcome a ``require`` refuses is not among the chance outcomes (it was, and applying
    it failed): the engine's own chance draws among the others (docs/api.md, Chance)."""
    state = pyspiel.load_game(register(None, texts={"fussy.rules": FUSSY_DICE}),
                              {"players": 2, "seed": 3}).new_initial_state()
    state.apply_action(state.legal_actions()[0])
    outcomes = state.chance_outcomes()
    rolls = {state.action_to_string(pyspiel.PlayerId.CHANCE, i).split()[-1] for i, _ in outcomes}
    assert rolls == {f"{a},{b}" for a in range(1, 7) for b in range(1, 7) if a != b}
    assert all(p == pytest.approx(1 / 30) for _, p in outcomes)
    for i, _ in outcomes:   # every one of them can be applied
        state.clone().apply_action(i)



def test_a_node_where_nobody_can_act_says_why():
    """A chance node whose every outcome a ``require`` refuses, and a turn with no legal
    action, raise the game's GameStuckError: OpenSpiel was given an empty list of chance
    outcomes (or of legal actions) at a node that is not terminal."""
    game = pyspiel.load_game(register(None, texts={"seven.rules": NO_SEVEN}), {"players": 2, "seed": 1})
    state = game.new_initial_state()
    roll = next(i for i in state.legal_actions() if state.action_to_string(0, i) == "p1 roll")
    rolled = state.clone()
    rolled.apply_action(roll)
    assert rolled.is_chance_node()
    with pytest.raises(boardrules.GameStuckError, match="chance's decision 'r' has no legal option"):
        rolled.chance_outcomes()
    work = next(i for i in state.legal_actions() if state.action_to_string(0, i) == "p1 work")
    state.apply_action(work)   # p1 has no coins left for the next round
    state.apply_action(next(i for i in state.legal_actions() if state.action_to_string(1, i) == "p2 work"))
    with pytest.raises(boardrules.GameStuckError, match="it is p1's turn and none of its actions"):
        state.legal_actions()


def test_a_simultaneous_step_is_played_one_seat_after_another():
    rules = """
game sealed_bids { title "Sealed bids"; players 3 }
resource vp { start 0; scored true }
action bid(n: int in 1..3) main { gain n vp }
flow { rounds 1 { step bids: turns seat simultaneous { main bid } } }
"""
    game = pyspiel.load_game(register(None, texts={"bids.rules": rules}), {"players": 3})
    state = game.new_initial_state()
    seats = []
    while not state.is_terminal():
        player = state.current_player()
        seats.append(player)
        texts = [state.action_to_string(player, i) for i in state.legal_actions()]
        assert sorted(texts) == [f"p{player + 1} bid {n}" for n in (1, 2, 3)]   # its own bids only
        state.apply_action(state.legal_actions()[0])
    assert seats == [0, 1, 2]


def test_interleaved_turns_are_sequentialized_with_explicit_chance():
    """A ``lanes`` step (tests/core/test_lanes.py): OpenSpiel is told one player at a time (the
    lowest seat of those to act) and a chance node whenever a lane waits for chance, even when
    the other lane's decision comes first in the pending list."""
    from tests.core.test_lanes import RULES
    game = pyspiel.load_game(register(None, texts={"relay.rules": RULES}), {"players": 4, "seed": 2})
    state = game.new_initial_state()

    def play(text):
        player = state.current_player()
        ids = {state.action_to_string(player, i): i for i in state.legal_actions()}
        state.apply_action(ids[text])

    play("p1 work")                         # p1 must say how hard (lane 0) ...
    assert state.current_player() == 0      # (lowest seat first: p1's decision)
    # ... while p3 works and decides (played on the game, as a loaded record would have it):
    # p3's turn ends with a draw in lane 1, behind p1's decision in the pending list
    state.game.play("p3 work")
    state.game.play("p3 n 2")
    state.game.play("p3 done")
    assert state.game.state.pending[0].player == 0 and state.is_chance_node()
    assert state.chance_outcomes()          # the lane's draw, behind p1's decision
    rng = np.random.RandomState(2)
    chance_nodes = 0
    while not state.is_terminal():
        if state.is_chance_node():
            ids, probs = zip(*state.chance_outcomes())
            assert sum(probs) == pytest.approx(1.0)
            state.apply_action(int(rng.choice(ids, p=probs)))
            chance_nodes += 1
            continue
        player = state.current_player()
        assert player == min(state.game.players_to_act())
        texts = {i: state.action_to_string(player, i) for i in state.legal_actions()}
        assert texts and all(t.startswith(f"p{player + 1} ") for t in texts.values())
        choices = [i for i, t in texts.items() if not t.endswith(" tip")] or list(texts)
        state.apply_action(int(rng.choice(choices)))
    assert chance_nodes > 0 and state.game.over


def test_openspiels_own_checks_and_observers():
    """OpenSpiel's ``random_sim_test`` (serializing too) and its observer interface: every
    Python game gives ``make_py_observer``, which ``observation_tensor``, the C++ side and
    ``make_observation`` go through (AttributeError without it, though the game type said it
    provides observation strings). The tensor is the PettingZoo adapter's observation."""
    from open_spiel.python.observation import make_observation
    game = pyspiel.load_game(register("harvest"), {"players": 3, "seed": 3})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert game.observation_tensor_shape() == [2**encoding.OBSERVATION_BITS]
    expected = [float(np.float32(x)) for x in encoding.observation(state.game, 1)]
    assert state.observation_tensor(1) == expected
    assert state.observation_string(1) == repr(state.game.view(1))
    observer = make_observation(game)
    observer.set_from(state, 1)
    assert list(observer.tensor) == expected
    public = make_observation(game, pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE))
    assert public.string_from(state, 1) == repr(state.game.view(None))
    with pytest.raises(ValueError, match="no perfect recall"):
        make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    small = pyspiel.load_game(register("harvest", observation_bits=5, short_name="harvest_small"))
    assert small.observation_tensor_size() == 32


def test_registering_again_with_other_sizes_is_refused():
    """The same rules under a taken name with other sizes returned the name of the game
    registered first, so the caller silently got its action ids and observation length."""
    name = register("harvest")
    for sizes in ({"action_bits": 8}, {"observation_bits": 6}, {"max_moves": 50}):
        with pytest.raises(ValueError, match="already has a game named 'boardrules_harvest'"):
            register("harvest", **sizes)
    assert register("harvest") == name


def test_house_rules_are_played_as_pettingzoo_plays_them(tmp_path):
    """docs/adapters.md: every game "with any modules, options and house rules" through both
    adapters; OpenSpiel's register took no house rules ('unexpected keyword argument')."""
    house = tmp_path / "rich.rules"
    house.write_text("override resource coins { start 9; cap 12 }\n")
    name = register("harvest", rules=(str(house),), short_name="boardrules_harvest_rich")
    state = pyspiel.load_game(name, {"players": 2, "seed": 1}).new_initial_state()
    assert [state.game.get("coins", p) for p in range(2)] == [9, 9]
    assert state.game.ruleset.id == boardrules.build_ruleset("harvest", rules=[house]).id
    register("harvest")
    with pytest.raises(ValueError, match="already has a game named 'boardrules_harvest'"):
        register("harvest", rules=(str(house),))   # (other rules under the base game's name)


def test_a_short_name_openspiel_cannot_load_is_refused():
    """A short name holding '(' was registered for good, yet pyspiel.load_game read it as a
    name and parameters ('Missing closing bracket')."""
    with pytest.raises(ValueError, match="OpenSpiel reads '\\(' in a game's name"):
        register("harvest", short_name="harvest(3p")
    assert "harvest(3p" not in pyspiel.registered_names()
    assert pyspiel.load_game(register("harvest", short_name="harvest 3p"), {"players": 3}).num_players() == 3


@pytest.mark.parametrize("seed", [0, 2**31 - 1, 2**31, 2**32, 2**63 - 1, -1, -2**31 - 1, -2**63])
def test_any_seed_the_engine_takes_loads(seed):
    """A seed above 2^31-1 failed inside pybind ('Unable to cast Python instance of type
    <class 'int'> to C++ type'): OpenSpiel's int parameters are 32-bit. ``load`` passes one
    beyond as ``seed_text``, and the game's states hold that seed."""
    game = load(register("harvest"), players=2, seed=seed)
    assert game.seed == seed and game.new_initial_state().game.seed == seed
    assert type(game.seed) is int


@pytest.mark.parametrize("seed, error, message", [
    (2**63, ValueError, r"seed 9223372036854775808: expected a whole number \(from -2\^63 to 2\^63-1: a 64-bit seed\)"),
    (-2**63 - 1, ValueError, r"seed -9223372036854775809: expected a whole number \(from -2\^63"),
    (True, TypeError, r"seed must be a whole number \(an int\), not True"),
    (1.5, TypeError, r"seed must be a whole number \(an int\), not 1.5"),
])
def test_a_seed_out_of_range_is_refused_naming_it(seed, error, message):
    with pytest.raises(error, match=message):
        load(register("harvest"), players=2, seed=seed)


def test_seed_text_takes_large_seeds_and_text_seeds():
    name = register("harvest")
    assert pyspiel.load_game(name, {"seed_text": str(2**40)}).seed == 2**40
    assert pyspiel.load_game(name, {"seed_text": "abc"}).new_initial_state().game.seed == "abc"
    with pytest.raises(ValueError, match="seed 3 and seed_text '5': give one of them"):
        pyspiel.load_game(name, {"seed": 3, "seed_text": "5"})
    with pytest.raises(ValueError, match=r"seed_text 9223372036854775808: expected a whole number \(from -2\^63"):
        pyspiel.load_game(name, {"seed_text": str(2**63)})


@pytest.mark.parametrize("name", ["tic_tac_toe", "boardrules_no_such_game", "boardrules_harvest(players=3)"])
def test_load_refuses_a_game_boardrules_did_not_register_naming_those_it_did(name):
    """``load`` of OpenSpiel's own game failed in OpenSpiel's check ("Unknown parameter
    'players'"); of a name nobody registered, with OpenSpiel's unknown-game error."""
    register("harvest")
    with pytest.raises(ValueError, match=rf"^'{re.escape(name)}' is not a game boardrules registered "
                       r"with OpenSpiel \(registered: .*boardrules_harvest.*\); register\(GAME\)"):
        load(name, players=2)
    with pytest.raises(TypeError, match="name is the text register"):
        load(None, players=2)  # type: ignore[arg-type]


def test_a_game_is_never_longer_than_max_moves():
    """``max_moves`` is OpenSpiel's ``max_game_length``, a promise its algorithms may rely on;
    a game was only told it: Eclipse with ``max_moves=400`` ran on to its end, 653 moves. A game
    that reaches it unfinished is now truncated there: terminal, returns 0, nothing to play."""
    game = load(register("harvest", max_moves=5, short_name="boardrules_harvest_5"), players=2, seed=3)
    assert game.max_game_length() == 5
    state = game.new_initial_state()
    while not state.is_terminal():
        ids = [i for i, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
        state.apply_action(ids[0])
    assert len(state.game.record.actions) == 5 and not state.game.over
    assert state.current_player() == pyspiel.PlayerId.TERMINAL
    assert state.returns() == [0.0, 0.0] and state.legal_actions() == [] and state.chance_outcomes() == []
    twin = state.clone()
    assert twin.is_terminal() and twin.legal_actions() == []
    with pytest.raises(Exception, match="not legal now"):
        state.apply_action(0)
    assert len(state.game.record.actions) == 5
