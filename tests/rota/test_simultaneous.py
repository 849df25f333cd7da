"""Rise of the Ancients, simultaneous play (``-m simultaneous``): the seed's variant rules.

The main-action and secondary-action markers are the two lanes of the core's interleaved
turns (docs/language.md "Interleaved turns: lanes"): their holders act at the same time,
each marker goes clockwise on its own and waits while the next player holds the other one,
only the main holder researches, the first passer starts the next round with the main marker,
and the stalling rule is the move ``defer_turn``.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import boardrules
from boardrules import IllegalActionError

from .common import SETTINGS, play_random, start


def holders(g) -> list:
    """``[main holder, secondary holder]`` (None for a marker waiting between players or
    out for the round); ``[]`` outside the Action phase."""
    return [lane[1] for lane in g.state.values.get(("f", "lanes")) or ()]


def places(g) -> list:
    """The seats holding the markers (a marker waiting to be passed on is still held)."""
    lanes = g.state.values.get(("f", "lanes")) or ()
    order = g.state.values[("f", "turn")][0] if lanes else ()
    return [order[lane[0]] for lane in lanes if lane[0] is not None]


def simultaneous_invariant(g) -> None:
    """Nobody holds both markers; research is legal only for the main marker's holder; in the
    Action phase everyone with a legal action holds a marker or must decide something."""
    seats = places(g)
    assert len(seats) == len(set(seats)), f"one player holds both markers: {seats}"
    lanes = g.state.values.get(("f", "lanes")) or ()
    main = lanes[0][1] if lanes else None
    legal = list(g.legal_actions())
    for a in legal:
        if a.name == "research":
            assert a.player == main, f"{a} is legal but p{a.player + 1} holds no main marker"
    if lanes:
        deciders = {d.player for d in g.decisions_due()}
        assert {a.player for a in legal} <= set(holders(g)) | deciders


@SETTINGS
@given(st.data())
def test_random_games_with_simultaneous_play(data):
    play_random(data, ("simultaneous",), simultaneous_invariant,
                prefer=("defer_turn", "research"), money=8)


def _start(players=4, seed=3, modules=("simultaneous",)):
    return start(players, modules, seed)


@pytest.mark.parametrize("players, secondary", [(2, 1), (3, 2), (4, 2), (5, 3), (6, 3)])
def test_markers_start_with_the_start_player_and_the_player_opposite(players, secondary):
    """Seed: the start player takes the main marker, the player opposite the secondary one;
    with 2-6 players "opposite" is half the table, rounding up (docs/eclipse.md)."""
    g = _start(players)
    assert holders(g) == [0, secondary]
    assert g.players_to_act() == frozenset({0, secondary})


@pytest.mark.parametrize("players, secondary", [(7, 4), (8, 4), (9, 5)])
def test_seats_of_the_secondary_marker_with_7_to_9_players(players, secondary):
    """Seed: 7-8 players, 4 seats from the start player; 9 players, 5 (with nine-players)."""
    g = boardrules.new_game("eclipse", players=players, seed=1,
                            modules=["nine-players", "simultaneous"])
    while not holders(g):                                  # through the setup's choices
        g.play(next(iter(g.legal_actions())))
    assert holders(g) == [0, secondary] and g.get("turn_order") == tuple(range(players))


def test_only_the_main_holder_researches():
    g = _start(4)
    legal = {str(a) for a in g.legal_actions()}
    assert "p1 research" in legal and "p3 research" not in legal
    before = g.state
    with pytest.raises(IllegalActionError, match="only the holder of the main-action marker may "
                                                 "research") as err:
        g.play("p3 research")
    assert "action_begins" in err.value.rule and g.state is before


def test_markers_go_clockwise_and_wait_for_each_other():
    g = _start(4)                                          # p1 main, p3 secondary
    g.play("p3 pass_turn")                                 # (the turn ends by itself)
    assert holders(g) == [0, 3]                            # secondary to p4
    g.play("p4 pass_turn")
    assert holders(g) == [0, None] and places(g) == [0, 3]  # p1 holds main: it waits at p4
    assert g.players_to_act() == frozenset({0})
    g.play("p1 pass_turn")
    assert holders(g) == [1, 0]                            # main to p2, then secondary to p1


def test_the_first_to_pass_starts_the_next_round_with_the_main_marker():
    g = _start(4)
    g.play("p3 pass_turn")                                 # p3 passes first
    for _ in range(200):
        if g.get("round") == 2:
            break
        p = min(g.players_to_act())
        legal = list(g.legal_actions(p))
        g.play(next((a for a in legal if a.name in ("pass_turn", "done")), legal[0]))
    assert g.get("round") == 2 and g.get("turn_order") == (2, 3, 0, 1)
    assert holders(g) == [2, 0]                            # main: p3; secondary: 2 seats on


def test_two_players_swap_the_markers():
    g = _start(2)
    g.play("p1 pass_turn")
    assert holders(g) == [None, 1]                         # main waits: p2 holds secondary
    g.play("p2 explore")
    while holders(g) == [None, 1]:                         # p2's exploration, to its end
        legal = list(g.legal_actions())
        g.play(next((a for a in legal if a.name == "done"), legal[0]))
    assert holders(g) == [1, 0] and g.get("round") == 1    # both passed on at once


def test_the_stalling_rule():
    """Seed: the player who most recently received a marker may require the other holder to
    act first and finish."""
    g = _start(4)                                          # p3 received the secondary last
    with pytest.raises(IllegalActionError, match="most recently received"):
        g.play("p1 defer_turn")
    g.play("p3 defer_turn")
    assert g.players_to_act() == frozenset({0})            # p3 waits for p1's turn
    with pytest.raises(IllegalActionError, match="act first: wait until their turn ends"):
        g.play("p3 pass_turn")
    g.play("p1 pass_turn")
    assert 2 in g.players_to_act() and "p3 pass_turn" in g.legal_actions()
    g2 = _start(4)
    g2.play("p3 trade money science")                      # having acted, one may not defer
    with pytest.raises(IllegalActionError, match="you have acted already"):
        g2.play("p3 defer_turn")
    g2.play("p1 pass_turn")                                # p2 now received the main marker
    with pytest.raises(IllegalActionError, match="most recently received"):
        g2.play("p3 defer_turn")


def test_undo_save_load_are_exact_with_two_players_to_act():
    g = _start(4, seed=5)
    g.play("p1 explore")                                   # p1 must choose a space ...
    assert g.players_to_act() == frozenset({0, 2})         # ... while p3 may act
    g.play("p3 pass_turn")
    view = g.view(2)
    assert all(d.env == () for d in view["pending"] if d.player == 0)
    mid = g.state
    again = boardrules.load_game(g.save())
    assert again.state == g.state and again.record.actions == g.record.actions
    g.undo()                                               # takes back p3's pass (the last)
    assert g.record.actions[-1] == "p1 explore" and g.players_to_act() == frozenset({0, 2})
    g.play("p3 pass_turn")
    assert g.state == mid


def test_without_the_module_one_player_acts_at_a_time():
    g = _start(4, modules=())
    assert g.players_to_act() == frozenset({0}) and holders(g) == []
    assert "p1 defer_turn" not in {str(a) for a in g.legal_actions()}
