"""Action ids and observations of the adapters (no third-party dependency)."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import boardrules
from boardrules import CHANCE, Action
from boardrules.adapters import encoding


def test_action_id_is_the_documented_digest_of_the_text_without_the_actor():
    action = Action(1, "build_farm", ("a1",))
    assert encoding.action_key(action) == "build_farm a1"
    digest = hashlib.blake2b(b"build_farm a1", digest_size=8).digest()
    assert encoding.action_id(action) == int.from_bytes(digest, "big") % 2**16
    assert encoding.action_id(Action(0, "build_farm", ("a1",))) == encoding.action_id(action)
    assert encoding.action_key(Action(CHANCE, "roll", ((3, 5),))) == "roll 3,5"


def test_colliding_ids_move_to_the_next_free_id_in_key_order():
    # with 1 bit there are two ids: three actions cannot fit, two always can
    a, b = Action(0, "x"), Action(0, "y")
    ids = encoding.encode_actions([b, a], bits=1)
    assert sorted(ids) == [0, 1] and set(ids.values()) == {a, b}
    first = encoding.action_id(a, 1)
    assert ids[first] == a                 # 'x' sorts first and keeps its own id
    with pytest.raises(ValueError, match="more than 2 legal actions"):
        encoding.encode_actions([a, b, Action(0, "z")], bits=1)
    for bits in (0, 21, 31):
        with pytest.raises(ValueError, match="bits must be an int from 1 to 20"):
            encoding.encode_actions([a], bits=bits)
    for bits in (2.5, True, "8"):
        with pytest.raises(TypeError, match="bits must be a whole number"):
            encoding.encode_actions([a], bits=bits)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.text(alphabet="abcdefgh_", min_size=1, max_size=6), unique=True, max_size=40),
       st.integers(6, 16))
def test_ids_are_one_to_one_in_range_and_independent_of_order(names, bits):
    actions = [Action(0, n) for n in names]
    ids = encoding.encode_actions(actions, bits)
    assert sorted(ids.values(), key=encoding.action_key) == sorted(actions, key=encoding.action_key)
    assert all(0 <= i < 2**bits for i in ids)
    assert encoding.encode_actions(reversed(actions), bits) == ids


def test_same_action_same_id_in_every_state_of_a_game():
    game = boardrules.new_game("harvest", players=2, seed=4)
    seen: dict[str, int] = {}
    while not game.over:
        ids = encoding.encode_actions(game.legal_actions())
        for i, action in ids.items():
            assert seen.setdefault(encoding.action_key(action), i) == i
        game.play(min(ids.values(), key=encoding.action_key))
    assert len(seen) > 10


def test_observation_hides_what_the_player_may_not_know():
    game = boardrules.new_game("eclipse", players=2, seed=1)
    stack = game.get("stack_inner")                     # a hidden sector stack
    assert len(set(stack)) > 1
    state = game.state = boardrules.State(
        {**game.state.values, ("v", "stack_inner"): stack, ("v", "reputation", 1): (2,)},
        game.state.pending)
    before = {p: encoding.observation(game, p) for p in (0, 1, None)}

    def changed(key, value):
        return boardrules.State({**state.values, key: value}, state.pending)

    # the same game with the face-down stack in another order: nobody can tell
    game.state = changed(("v", "stack_inner"), tuple(reversed(stack)))
    assert game.state != state
    for p, vec in before.items():
        assert encoding.observation(game, p) == vec
    # another player's face-down reputation tiles: p1 cannot tell, p2 can
    game.state = changed(("v", "reputation", 1), (4,))
    assert encoding.observation(game, 0) == before[0]
    assert encoding.observation(game, 1) != before[1]
    # ... and what everybody sees shows
    game.state = changed(("f", "round"), 5)
    assert encoding.observation(game, 0) != before[0]


def test_observation_differs_per_seat_and_has_the_documented_size():
    game = boardrules.new_game("harvest", players=3, seed=1)
    vecs = [encoding.observation(game, p, bits=8) for p in range(3)]
    assert all(len(v) == 256 for v in vecs)
    assert vecs[0] != vecs[1]
    assert all(abs(x) <= encoding.OBSERVATION_LIMIT for v in vecs for x in v)


def test_outcome_ranks_finished_games_only():
    game = boardrules.new_game("harvest", players=3, seed=2)
    assert encoding.outcome(game) == [0.0, 0.0, 0.0]
    while not game.over:
        game.play(next(iter(game.legal_actions())))
    result = encoding.outcome(game)
    places = game.ranking()
    assert all(result[p] == 1.0 for p in places[0])
    if len(places) > 1:
        assert all(result[p] == -1.0 for p in places[-1])


def test_observation_is_the_documented_feature_sum():
    game = boardrules.new_game(texts={"t.rules": """
game t { players 2 }
resource coins { start 3 }
var seen: list[int] = [4, 4, 7]
action work main { gain 1 coins }
flow { rounds 1 { step play: turns seat once { main work } } }
"""}, players=2)
    bits = 20                                   # large: no two of these features share an entry
    vec = encoding.observation(game, 1, bits)

    def at(feature):
        return vec[int.from_bytes(hashlib.blake2b(feature.encode(), digest_size=8).digest(),
                                  "big") % 2**bits]

    assert at("seat|1") == 1 and at("seat|0") == 0 and at("to_act|0") == 1
    assert at("r|coins|0") == 3 and at("r|coins|1") == 3
    game.play("p1 work")
    game.state = boardrules.State({**game.state.values, ("v", "seen"): (4, 4, 7)}, game.state.pending)
    vec = encoding.observation(game, 1, bits)
    assert at("r|coins|0") == 4 and at("to_act|1") == 1 and at("to_act|0") == 0
    assert (at("v|seen#"), at("v|seen=4"), at("v|seen=7")) == (3, 2, 1)
    # nothing is hidden in this game: a spectator sees the same but for the seat
    spectator = encoding.observation(game, None, bits)
    diff = [(a - b) for a, b in zip(vec, spectator) if a != b]
    assert sorted(diff) == [-1.0, 1.0] and at("seat|None") == 0
