"""Interleaved turns (a ``turns`` step with ``lanes``, docs/api.md "Interleaved turns"): two
lines of turns run at once, each with its own turn, decisions and 'after turn' blocks; no
player ever holds two lanes; play, undo, save/load, views and the listing of legal actions
work with several players to act."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import boardrules
from boardrules import Action

# A tiny relay game: two lanes go round the table; only the first lane may study; work asks
# how hard and, at the end of the turn, draws a bonus from a pile.
RULES = """
game relay { players 2..5 }
resource coins { scored true }
var pile: list[int] = [1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6]
var begun: list[player] = []
var ended: list[player] = []
action study main { require lane_of(me) == 0 else "only the first lane may study"; gain 2 coins }
action work main {
  require not passed(me) else "you have passed"
  choose n in [1, 2] "how hard" { gain n coins }
  after turn { if len(pile) > 0 { draw x from pile { gain x coins } } }
}
action stop main { if not passed(me) { pass } }
action ask(q: player in others) main { choose ok in [true, false] by q "agree" { if ok { gain 1 coins } } }
action tip free { gain 0 coins }
when turn_begins(p) { set begun = begun + [p] }
when turn_begins(p) if p == 3 and round == 1 { choose hello in [1] by p "say hello" { gain 0 coins to p } }
when turn_ends(p) { set ended = ended + [p] }
flow {
  rounds 2 {
    step play: turns seat until_all_pass {
      main study, work, stop, ask
      free tip
      lanes [players[0], players[nplayers // 2]]
    }
  }
}
"""


def relay(players: int = 3, seed: int = 1, **kw) -> boardrules.Game:
    return boardrules.new_game(texts={"relay.rules": RULES}, players=players, seed=seed, **kw)


def lane_players(g: boardrules.Game) -> list[int]:
    lanes = g.state.values.get(("f", "lanes")) or ()
    return [lane[1] for lane in lanes if lane[1] is not None]


def test_both_lane_holders_act_at_once():
    g = relay(3)
    assert g.players_to_act() == frozenset({0, 1})          # p1 and p2 (3 // 2 = seat 1)
    legal = {str(a) for a in g.legal_actions()}
    assert {"p1 study", "p1 work", "p2 work", "p2 tip"} <= legal
    assert "p2 study" not in legal                          # the second lane may not study
    with pytest.raises(boardrules.IllegalActionError, match="only the first lane may study") as err:
        g.play("p2 study")
    assert err.value.rule.startswith("study")
    with pytest.raises(boardrules.IllegalActionError, match="not p3's turn") as err:
        g.play("p3 work")
    assert err.value.rule == "turn order"


def test_a_lane_decides_its_own_decisions_while_the_other_goes_on():
    g = relay(3)
    g.play("p1 work")                                      # p1 must now say how hard ...
    assert [(d.player, d.label, d.lane) for d in g.state.pending] == [(0, "n", 0)]
    assert g.players_to_act() == frozenset({0, 1})          # ... while p2 plays on
    g.play("p2 work")
    assert {(d.player, d.lane) for d in g.state.pending} == {(0, 0), (1, 1)}
    with pytest.raises(boardrules.IllegalActionError, match="p1 must first decide 'n'"):
        g.play("p1 tip")
    g.play("p2 n 2")
    g.play("p2 done")                                       # p2's turn ends: the bonus draw
    assert g.get("coins", 1) > 2 and g.record.actions[-1].startswith("chance x ")
    assert lane_players(g) == [0, 2]                        # lane 1 passed on to p3
    g.play("p1 n 1")
    g.play("p1 done")
    # lane 0 would pass to p2, who holds nothing now: p2 takes it
    assert lane_players(g) == [1, 2] and g.players_to_act() == frozenset({1, 2})
    assert g.get("begun") == (0, 1, 2, 1) and g.get("ended") == (1, 0)


def test_a_question_to_the_other_lanes_player_is_answered_in_the_askers_lane():
    g = relay(3)
    g.play("p1 ask p2")                                    # p2, who holds lane 1, must answer
    assert g.players_to_act() == frozenset({1})            # (p1 waits for the answer)
    legal = {str(a) for a in g.legal_actions()}
    assert {"p2 ok true", "p2 ok false", "p2 work"} <= legal  # the answer, or p2's own turn
    assert not any(a.startswith("p1 ") for a in legal)
    g.play("p2 ok true")                                   # lane 0's decision, not p2's turn
    assert g.get("coins", 0) == 1 and lane_players(g) == [0, 1]
    g.play("p1 done")                                      # lane 0 waits: p2 holds lane 1
    assert g.state.values[("f", "lanes")][0][:2] == (0, None) and lane_players(g) == [1]
    g.play("p2 work")                                      # p2's own turn goes on
    assert [(d.player, d.lane) for d in g.decisions_due()] == [(1, 1)]
    g2 = relay(3)
    g2.play("p2 ask p1")                                   # lane 1 asks lane 0's player
    g2.play("p1 ok false")                                 # answered in lane 1, not a turn
    assert g2.get("coins", 1) == 0 and "p1 study" in g2.legal_actions()


def test_a_decision_raised_as_a_lane_turn_begins_is_the_games():
    g = relay(4)                                           # lanes at p1 and p3
    g.play("p3 stop")                                      # lane 1 goes to p4: hello first
    assert [(d.player, d.label, d.lane) for d in g.state.pending] == [(3, "hello", None)]
    assert g.players_to_act() == frozenset({3})            # every lane waits for it
    g.play("p4 hello 1")
    assert g.players_to_act() == frozenset({0, 3})


def test_a_lane_waits_for_the_player_who_holds_the_other():
    g = relay(2)                                           # 2 players: lanes at p1 and p2
    g.play("p1 stop")                                       # p1's turn ends; p2 holds lane 1
    lanes = g.state.values[("f", "lanes")]
    assert lanes[0][0] == 0 and lanes[0][1] is None         # lane 0 waits at p1
    assert g.players_to_act() == frozenset({1})
    g.play("p2 stop")                                       # both wait on each other: they swap
    assert g.get("round") == 2                              # both passed: the round is over


def test_view_hides_the_other_lanes_pending_bindings_and_after_turn():
    g = relay(3)
    g.play("p1 work")
    g.play("p1 n 2")
    lanes = g.state.values[("f", "lanes")]
    assert lanes[0][3] and lanes[0][3][0][1] == ()          # (work's after block has no names)
    view = g.view(1)
    assert view["values"][("f", "lanes")][0][3][0][2] == 0  # whose block is still shown
    assert [d.lane for d in view["pending"]] == []


def test_undo_save_load_and_copies_are_exact_with_two_players_to_act():
    g = relay(4, seed=3)
    rnd = random.Random(3)
    states = [g.state]
    for _ in range(30):
        g.play(rnd.choice([a for a in g.legal_actions() if a.name != "tip"]))
        states.append(g.state)
    again = boardrules.load_game(g.save())
    assert again.state == g.state and again.record.actions == g.record.actions
    twin = g.copy()
    twin.play(next(iter(twin.legal_actions())))
    assert g.state == states[-1]
    while any(not a.startswith("chance ") for a in g.record.actions):
        g.undo()
        assert g.state in states
    assert g.state == states[0]


def test_without_lanes_the_step_plays_one_turn_at_a_time():
    g = boardrules.new_game(texts={"relay.rules": RULES.replace(
        "      lanes [players[0], players[nplayers // 2]]\n", "").replace(
        'require lane_of(me) == 0 else "only the first lane may study"; ', "")}, players=3)
    assert g.players_to_act() == frozenset({0})


@pytest.mark.parametrize("rules, message", [
    (RULES.replace("until_all_pass", "once"), "'lanes' needs a turn mode where turns go round"),
    (RULES.replace("      free tip\n", "      free tip\n      lanes [players[0]]\n"),
     "more than one 'lanes'"),
])
def test_lanes_are_checked(rules, message):
    with pytest.raises(boardrules.RulesError, match=message):
        boardrules.new_game(texts={"relay.rules": rules}, players=3)


def test_lanes_must_start_with_distinct_players():
    rules = RULES.replace("players[nplayers // 2]]", "players[0]]")
    with pytest.raises(boardrules.IllegalActionError) as err:
        boardrules.new_game(texts={"relay.rules": rules}, players=3)
    # the players as the rules write a list, not a Python tuple '(0, 0)'
    assert "must start with distinct players of its turn order (at least one), not [0, 0]" in str(err.value)


def test_lanes_must_start_with_a_player():
    # (no lane: the step ended at once, every player's turns skipped without a word)
    rules = RULES.replace("lanes [players[0], players[nplayers // 2]]", "lanes []")
    with pytest.raises(boardrules.IllegalActionError, match=r"the lanes of 'play' must start with distinct players "
                                                            r"of its turn order \(at least one\), not \[\]"):
        boardrules.new_game(texts={"relay.rules": rules}, players=3)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 5), seed=st.integers(0, 10 ** 6), auto=st.booleans())
def test_random_relays_keep_lanes_apart_and_replay_exactly(players, seed, auto):
    g = relay(players, seed)
    rnd = random.Random(seed)
    while not g.over:
        to_act = g.players_to_act()
        lanes = g.state.values.get(("f", "lanes")) or ()
        held = [lane[0] for lane in lanes if lane[0] is not None]
        assert len(held) == len(set(held))                  # never one player holding two lanes
        game_decision = g.state.pending and g.state.pending[0].lane is None
        for i, lane in enumerate(lanes):
            if lane[1] is not None and not game_decision and not any(
                    d.lane == i for d in g.state.pending):
                assert lane[1] in to_act                   # every lane's player may act
        if game_decision:                                  # (p4's hello stops every lane)
            assert to_act == {g.state.pending[0].player}
        legal = list(g.legal_actions())
        assert {a.player for a in legal} == set(to_act)
        for p in to_act:
            assert set(g.legal_actions(p)) == {a for a in legal if a.player == p}
        moves = [a for a in legal if a.name != "tip"] or legal
        action = rnd.choice(moves)
        if auto and rnd.random() < 0.1:
            before = g.state
            g.play(action)
            g.undo()
            assert g.state == before
        g.play(action)
    again = boardrules.load_game(g.save())
    assert again.state == g.state and again.record.actions == g.record.actions
    assert boardrules.Game.from_record(boardrules.Record.loads(g.save()), check=False).state == g.state


def test_study_only_in_the_first_lane_over_random_games():
    for seed in range(5):
        g = relay(3, seed)
        rnd = random.Random(seed)
        while not g.over:
            for a in g.legal_actions():
                if a.name == "study":
                    lanes = g.state.values[("f", "lanes")]
                    assert lanes[0][1] == a.player
            g.play(rnd.choice([a for a in g.legal_actions() if a.name != "tip"]))
        assert Action(0, "study") not in g.legal_actions()
