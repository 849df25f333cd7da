"""Each construct of the rules language, proved at run time with concrete values.

Every test builds a small game from inline rule text (through both back ends where
cheap) and checks the numbers the rules must produce.
"""

from __future__ import annotations

import random
import re
import textwrap

import pytest

from boardrules.errors import BoardrulesError, GameStuckError, IllegalActionError, RulesError
from boardrules.game import Action, new_game
from boardrules.ruleset import build_ruleset
from boardrules.runtime import CHANCE

BACKENDS = ["compiled", "interpreted"]


def make(text: str, players: int = 2, seed: int = 0, **kw):
    return new_game(texts={"t.rules": textwrap.dedent(text)}, players=players, seed=seed, **kw)


def legal(game) -> list[str]:
    return sorted(str(a) for a in game.legal_actions())


HEAD = "game t { players 1..4 }\n"


# ---- resources ------------------------------------------------------------------

RESOURCES = HEAD + """
resource coins { start 5; cap 8 }
resource ore { start 3; floor 1 }
action earn(n: int in 1..6) main { gain n coins }
action spend(n: int in 1..6) main { pay n ore }
action tax main { lose 5 ore }
flow { rounds 3 { step play: turns seat once { main earn, spend, tax } } }
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_resource_cap_loses_the_excess(backend):
    g = make(RESOURCES, players=1, backend=backend)
    assert g.get("coins", 0) == 5
    g.play("p1 earn 2")
    assert g.get("coins", 0) == 7
    g.play("p1 earn 6")
    assert g.get("coins", 0) == 8  # 13 capped to 8: the excess is lost


@pytest.mark.parametrize("backend", BACKENDS)
def test_paying_below_the_floor_is_illegal(backend):
    g = make(RESOURCES, players=1, backend=backend)
    before = g.state
    with pytest.raises(IllegalActionError, match="needs 3 ore, has 2"):
        g.play("p1 spend 3")
    assert g.state is before
    assert "p1 spend 3" not in g.legal_actions()
    assert "p1 spend 2" in g.legal_actions()
    g.play("p1 spend 2")
    assert g.get("ore", 0) == 1


def test_lose_stops_at_the_floor():
    g = make(RESOURCES, players=1)
    g.play("p1 tax")
    assert g.get("ore", 0) == 1  # 3 - 5 stops at the floor of 1


def test_cap_can_be_an_expression():
    g = make(HEAD + """
        resource coins { start 0; cap 2 + storage }
        track storage { levels 0..3 }
        action earn main { gain 9 coins }
        action build main { advance storage by 2 }
        flow { rounds 2 { step play: turns seat once { main earn, build } } }
    """, players=1)
    g.play("p1 build")
    g.play("p1 earn")
    assert g.get("coins", 0) == 4


# ---- tracks -----------------------------------------------------------------------

TRACK = HEAD + """
resource coins { start 0 }
resource vp { scored true }
track farming {
  levels 0..3
  at 1 { gain 2 coins }
  at 3 { gain 3 vp }
}
action study main { advance farming }
action leap main { advance farming by 3 }
flow { rounds 4 { step play: turns seat once { main study, leap } } }
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_track_level_rewards(backend):
    g = make(TRACK, players=1, backend=backend)
    g.play("p1 study")
    assert (g.get("farming", 0), g.get("coins", 0), g.get("vp", 0)) == (1, 2, 0)
    g.play("p1 study")
    assert (g.get("farming", 0), g.get("coins", 0), g.get("vp", 0)) == (2, 2, 0)
    g.play("p1 study")
    assert (g.get("farming", 0), g.get("coins", 0), g.get("vp", 0)) == (3, 2, 3)
    assert g.scores()[0] == {"total": 3, "sources": {"farming 3": 3}}
    with pytest.raises(IllegalActionError, match="already at level 3 of 3"):
        g.play("p1 study")


def test_advancing_several_levels_collects_every_reward():
    g = make(TRACK, players=1)
    g.play("p1 leap")
    assert (g.get("farming", 0), g.get("coins", 0), g.get("vp", 0)) == (3, 2, 3)


# ---- components -----------------------------------------------------------------

def test_component_supply_limit():
    g = make(HEAD + """
        component farm { supply 2 }
        action build main { use farm }
        action demolish main { restore farm }
        flow { rounds 5 { step play: turns seat once { main build, demolish } } }
    """, players=1)
    assert g.get("farm", 0) == 2
    with pytest.raises(IllegalActionError, match="every farm is already in the supply"):
        g.play("p1 demolish")
    g.play("p1 build")
    g.play("p1 build")
    assert g.get("farm", 0) == 0
    assert legal(g) == ["p1 demolish"]
    with pytest.raises(IllegalActionError, match="no farm left in the supply"):
        g.play("p1 build")
    g.play("p1 demolish")
    assert g.get("farm", 0) == 1


# ---- entities: cost, immediate, income, on-pass, end-game --------------------------

CARDS = HEAD + """
resource coins { start 6 }
resource grain { start 0 }
resource vp { scored true }
kind card {
  field cost: int = 1
  field points: int = 0
  slot immediate
  slot income
  slot on_pass
  slot final { gain self.points vp }
}
card plough { cost 2
  immediate: gain 2 grain
  income: gain 1 grain
}
card market { cost 3
  on_pass { gain (grain // 2) coins }
}
card statue { cost 4; points 5 }
action buy(c: card) main {
  require owner(c) == none else "that card is taken"
  pay c.cost coins
  take c
  run c.immediate
}
action rest main {
  for c in held(card) { run c.on_pass }
  pass
}
flow {
  rounds 2 {
    step income: do { for p in players { for c in held(card) of p { run c.income for p } } }
    step play: turns seat until_pass { main buy, rest }
  }
  finish { step final: do { for p in players { for c in held(card) of p { run c.final for p } } } }
}
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_cards_cost_immediate_income_pass_and_final(backend):
    g = make(CARDS, players=2, backend=backend)
    g.play("p1 buy plough")  # pay 2, immediate +2 grain
    assert (g.get("coins", 0), g.get("grain", 0)) == (4, 2)
    with pytest.raises(IllegalActionError, match="that card is taken"):
        g.play("p2 buy plough")
    g.play("p2 buy statue")
    assert g.get("coins", 1) == 2
    g.play("p1 buy market")  # 4 - 3
    assert g.get("coins", 0) == 1
    g.play("p2 rest")
    g.play("p1 rest")  # market on pass: grain 2 // 2 = 1 coin
    assert g.get("coins", 0) == 2
    # round 2 income: plough gives p1 one grain
    assert g.get("round") == 2
    assert g.get("grain", 0) == 3
    assert g.get("grain", 1) == 0
    g.play("p1 rest")  # 3 // 2 = 1 coin
    assert g.get("coins", 0) == 3
    g.play("p2 rest")
    assert g.over
    assert [s["total"] for s in g.scores()] == [0, 5]
    assert g.scores()[1]["sources"] == {"statue": 5}


# ---- triggers and events -------------------------------------------------------

def test_triggers_top_level_and_on_entities():
    g = make(HEAD + """
        resource vp { scored true }
        resource coins { start 0 }
        event built(p: player, size: int)
        kind card { }
        card guild { when built(p, size) if p != me: gain size coins }
        when built(p, size) if size >= 2: gain 1 vp to p
        action build(n: int in 1..3) main { emit built(me, n) }
        action grab main { take guild }
        flow { rounds 3 { step play: turns seat once { main build, grab } } }
    """, players=2)
    g.play("p1 grab")
    g.play("p2 build 3")  # p2 gets 1 vp; guild (held by p1) pays p1 3 coins
    assert (g.get("vp", 1), g.get("coins", 0), g.get("vp", 0)) == (1, 3, 0)
    g.play("p1 build 1")  # size 1: no vp; the guild holder is the builder: no coins
    assert (g.get("vp", 0), g.get("coins", 0)) == (0, 3)
    assert g.scores()[1]["sources"] == {"when built": 1}


# ---- counters --------------------------------------------------------------------

@pytest.mark.parametrize("backend", BACKENDS)
def test_count_sum_and_per(backend):
    g = make(HEAD + """
        resource coins { start 0 }
        resource vp { scored true }
        var hexes: list[hex] = ["a1", "a2", "a3", "b1"]
        var owner_of: player? per hex = none
        var values: list[int] = [3, 4, 5]
        action claim(h: hex) main { set owner_of[h] = me }
        action tally main {
          gain (count h in hexes where owner_of[h] == me) coins
          gain (sum v * 2 for v in values where v > 3) vp
          gain 2 coins per len(values)
        }
        flow { rounds 4 { step play: turns seat once { main claim, tally } } }
    """, players=1, backend=backend)
    g.play("p1 claim a1")
    g.play("p1 claim b1")
    g.play("p1 tally")
    assert g.get("coins", 0) == 2 + 2 * 3
    assert g.get("vp", 0) == 8 + 10


def test_quantifiers_any_and_all():
    g = make(HEAD + """
        resource coins { start 0 }
        var nums: list[int] = [2, 4, 6]
        action check main {
          if all n in nums where n % 2 == 0 { gain 1 coins }
          if any n in nums where n > 5 { gain 10 coins }
          if any n in nums where n > 6 { gain 100 coins }
        }
        flow { rounds 1 { step play: turns seat once { main check } } }
    """, players=1)
    g.play("p1 check")
    assert g.get("coins", 0) == 11


# ---- actions: parameters, conditions, choose ---------------------------------------

ACTIONS = HEAD + """
resource coins { start 4 }
resource vp { scored true }
var hexes: list[hex] = ["a1", "a2"]
action give_to(p: player, n: int in 1..2) main {
  require p != me else "give to someone else"
  pay n coins
  gain n coins to p
}
action bet main {
  choose x in [1, 2, 3] where x <= coins "how much to bet" {
    pay x coins
    gain (x * 2) vp
  }
}
action gift main {
  choose c in [1, 5] by first(table_after(me)) optional "a gift for your left" {
    gain c coins to me
  }
}
flow { rounds 3 { step play: turns seat once { main give_to, bet, gift } } }
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_action_parameters_and_require(backend):
    g = make(ACTIONS, players=2, backend=backend)
    assert "p1 give_to p1 1" not in g.legal_actions()
    with pytest.raises(IllegalActionError, match="give to someone else"):
        g.play("p1 give_to p1 1")
    with pytest.raises(IllegalActionError, match="3 is not a possible n"):
        g.play("p1 give_to p2 3")
    g.play("p1 give_to p2 2")
    assert (g.get("coins", 0), g.get("coins", 1)) == (2, 6)


@pytest.mark.parametrize("backend", BACKENDS)
def test_choose_with_where_and_by(backend):
    g = make(ACTIONS, players=2, backend=backend)
    g.play("p1 give_to p2 2")  # p1 has 2 coins
    g.play("p2 give_to p1 1")  # p1 3, p2 5
    g.play("p1 bet")
    assert g.state.pending[0].player == 0
    assert legal(g) == ["p1 x 1", "p1 x 2", "p1 x 3"]
    g.play("p1 x 2")
    assert (g.get("coins", 0), g.get("vp", 0)) == (1, 4)
    g.play("p2 gift")  # p1 (on p2's left) chooses the gift, which p2 receives
    assert g.state.pending[0].player == 0
    assert legal(g) == ["p1 c", "p1 c 1", "p1 c 5"]  # optional: may decline
    g.play("p1 c 5")
    assert g.get("coins", 1) == 5 + 5  # p2 had 5; the gift, chosen by p1, goes to p2


def test_declining_an_optional_choice():
    g = make(ACTIONS, players=2)
    g.play("p1 gift")
    g.play("p2 c")
    assert g.get("coins", 0) == 4 and not g.state.pending


# ---- flow ------------------------------------------------------------------------

def flow_game(order: str, mode: str, players: int = 3, rules: str = "main act, stop"):
    return make(HEAD + f"""
        resource coins {{ start 0 }}
        action act main {{ gain 1 coins }}
        action stop main {{ pass }}
        action extra free {{ gain 10 coins }}
        flow {{ rounds 2 {{ step play: turns {order} {mode} {{ {rules} }} }} }}
    """, players=players)


def turn_sequence(g, n, action="act"):
    seq = []
    for _ in range(n):
        p = sorted(g.players_to_act())[0]
        seq.append(p + 1)
        g.play(Action(p, action))
    return seq


def test_fixed_seat_order():
    g = flow_game("seat", "once")
    assert turn_sequence(g, 6) == [1, 2, 3, 1, 2, 3]
    assert g.over


def test_reverse_seat_order():
    g = flow_game("reverse seat", "once")
    assert turn_sequence(g, 3) == [3, 2, 1]


def test_snake_order():
    g = flow_game("snake", "once")
    assert turn_sequence(g, 6) == [1, 2, 3, 3, 2, 1]
    assert g.get("round") == 2


def test_order_by_expression():
    g = make(HEAD + """
        resource coins { start 0 }
        var order: list[player] = []
        action act main { gain 1 coins }
        flow {
          setup { step pick: do { set order = [2, 0, 1] } }
          rounds 1 { step play: turns by order once { main act } }
        }
    """, players=3)
    assert turn_sequence(g, 3) == [3, 1, 2]


def test_pass_order_until_pass():
    g = flow_game("seat", "until_pass")
    g.play("p1 act")
    g.play("p2 stop")
    g.play("p3 act")
    g.play("p1 act")
    assert g.players_to_act() == {2}  # p2 has passed: skipped
    g.play("p3 stop")
    g.play("p1 act")
    assert g.players_to_act() == {0}  # only p1 is left
    g.play("p1 stop")
    assert g.get("round") == 2
    assert [g.get("coins", p) for p in range(3)] == [3, 0, 1]
    with pytest.raises(IllegalActionError, match="it is p1's turn, not p2's"):
        g.play("p2 act")


def test_free_actions_and_done():
    g = flow_game("seat", "once", players=2, rules="main act\n free extra")
    g.play("p1 extra")
    g.play("p1 act")
    assert legal(g) == ["p1 done", "p1 extra"]
    with pytest.raises(IllegalActionError, match="main action of this turn is already taken"):
        g.play("p1 act")
    g.play("p1 done")
    assert g.players_to_act() == {1}
    assert g.get("coins", 0) == 11


def test_simultaneous_turns():
    g = flow_game("seat", "simultaneous")
    assert g.players_to_act() == {0, 1, 2}
    g.play("p3 act")
    g.play("p1 act")
    assert g.players_to_act() == {1}
    with pytest.raises(IllegalActionError, match="already acted"):
        g.play("p1 act")
    g.play("p2 act")
    assert g.get("round") == 2
    assert g.players_to_act() == {0, 1, 2}


def test_setup_steps_run_once_before_the_rounds():
    g = make(HEAD + """
        resource coins { start 0 }
        var setups: int = 0
        action act main { gain 1 coins }
        flow {
          setup {
            step deal: do { set setups = setups + 1; for p in players { gain 3 coins to p } }
            step pick: turns reverse seat once { main act }
          }
          rounds 2 { step play: turns seat once { main act } }
        }
    """, players=2)
    assert g.get("setups") == 1 and g.get("coins", 0) == 3
    assert turn_sequence(g, 2) == [2, 1]
    assert g.get("round") == 1
    assert turn_sequence(g, 4) == [1, 2, 1, 2]
    assert g.get("setups") == 1
    assert [g.get("coins", p) for p in range(2)] == [6, 6]


# ---- chance ---------------------------------------------------------------------

DRAW = HEAD + """
resource coins { start 0 }
var bag: list[int] = [1, 2, 2, 5]
var drawn: list[int] = []
action pull main { draw x from bag { set drawn = drawn + [x]; gain x coins } }
action roll main { choose d in dice(2) by chance { gain (d[0] + d[1]) coins } }
flow { rounds 4 { step play: turns seat once { main pull, roll } } }
"""


def test_draw_from_a_bag_by_hand():
    g = make(DRAW, players=1)
    g.auto_chance = False
    g.play("p1 pull")
    assert g.state.pending[0].player == CHANCE
    assert legal(g) == ["chance x 1", "chance x 2", "chance x 5"]
    with pytest.raises(IllegalActionError, match="not one of the choices"):
        g.play("chance x 3")
    g.play("chance x 2")
    assert g.get("bag") == (1, 2, 5) and g.get("drawn") == (2,) and g.get("coins", 0) == 2


def test_draw_automatically_empties_the_bag_without_repeats():
    g = make(DRAW, players=1, seed=3)
    for _ in range(4):
        g.play("p1 pull")
    assert g.get("bag") == ()
    assert sorted(g.get("drawn")) == [1, 2, 2, 5]
    assert g.get("coins", 0) == 10
    assert g.over


TWO_DRAWS = HEAD + """
resource coins { start 0 }
var bag: list[int] = [4]
action pull_two main { draw x from bag { gain x coins }; draw y from bag { gain y coins } }
action pull_later main { choose n in [1] { draw y from bag { gain y coins } }; draw x from bag { gain x coins } }
flow { rounds 2 { step play: turns seat once { main pull_two, pull_later } } }
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_two_draws_of_one_action_need_two_elements(backend):
    # (both draws were queued from a pile of one; the second found it empty when decided:
    # an IndexError out of play with auto_chance, a stuck game without)
    g = make(TWO_DRAWS, players=1, backend=backend)
    with pytest.raises(IllegalActionError, match="'bag' holds 1, as many as the draws from it before this one "
                                                 "take: nothing left to draw"):
        g.play("p1 pull_two")
    assert g.record.actions == [] and "p1 pull_two" not in g.legal_actions()


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_draw_queued_while_an_older_one_from_its_pile_waits_is_refused(backend):
    # (the block of the decision n draws before the pending x: x's pile was then empty, a
    # GameStuckError at chance's decision 'x' after 'p1 n 1' was played; the draws pending in
    # the state count as those queued in the run)
    g = make(TWO_DRAWS, players=1, backend=backend)
    g.play("p1 pull_later")
    before = g.state
    message = "'bag' holds 1, as many as the draws from it before this one take: nothing left to draw"
    with pytest.raises(IllegalActionError, match=re.escape(f"p1 n 1: {message}")):
        g.play("p1 n 1")
    assert g.state is before and g.record.actions == ["p1 pull_later"]
    with pytest.raises(GameStuckError, match=re.escape(f"p1's decision 'n' has no legal option (e.g. p1 n 1: {message}")):
        g.legal_actions().sample(random.Random(1))


def test_a_pending_draw_is_counted_in_the_state_until_decided():
    g = make(DRAW, players=1)
    g.auto_chance = False
    g.play("p1 pull")
    assert g.state.values[("d", "bag")] == 1
    g.play("chance x 2")
    assert ("d", "bag") not in g.state.values


def test_dice_by_chance():
    g = make(DRAW, players=1, seed=11)
    g.auto_chance = False
    g.play("p1 roll")
    d = g.state.pending[0]
    assert d.player == CHANCE and len(d.options) == 36
    with pytest.raises(IllegalActionError):
        g.play(Action(CHANCE, "d", ((7, 1),)))
    g.play("chance d 6,3")
    assert g.get("coins", 0) == 9
    g.auto_chance = True
    g.play("p1 roll")
    assert 2 <= g.get("coins", 0) - 9 <= 12
    # the outcome is decided by the seed: the same seed gives the same roll
    h = make(DRAW, players=1, seed=11)
    h.play("p1 roll"), h.play("p1 roll")
    assert h.record.actions[-1] == g.record.actions[-1]


# ---- per-hex variables -----------------------------------------------------------

@pytest.mark.parametrize("backend", BACKENDS)
def test_per_hex_and_per_player_variables(backend):
    g = make(HEAD + """
        var hexes: list[hex] = ["a1", "a2"]
        var owner_of: player? per hex = none
        var built: int per player = 0
        action claim(h: hex) main {
          require owner_of[h] == none else "taken"
          set owner_of[h] = me
          set built = built + 1
        }
        flow { rounds 2 { step play: turns seat once { main claim } } }
    """, players=2, backend=backend)
    g.play("p1 claim a2")
    assert g.get("owner_of", index="a2") == 0 and g.get("owner_of", index="a1") is None
    assert legal(g) == ["p2 claim a1"]
    g.play("p2 claim a1")
    assert (g.get("built", 0), g.get("built", 1)) == (1, 1)


# ---- options -------------------------------------------------------------------

OPTIONS = HEAD + """
option rounds = 2 "how many rounds"
option bonus = 1
resource coins { start 0 }
action act main { gain bonus coins }
flow { rounds rounds { step play: turns seat once { main act } } }
"""


def test_option_defaults_and_overrides():
    rs = build_ruleset(texts={"o.rules": OPTIONS})
    assert rs.option("rounds") == 2 and rs.options["rounds"].doc == "how many rounds"
    g = make(OPTIONS, players=1)
    turn_sequence(g, 2)
    assert g.over and g.get("coins", 0) == 2
    g = make(OPTIONS, players=1, options={"rounds": 3, "bonus": 4})
    turn_sequence(g, 3)
    assert g.over and g.get("coins", 0) == 12
    assert g.record.options == {"bonus": 4, "rounds": 3}


def test_unknown_option_is_an_error():
    with pytest.raises(BoardrulesError, match="unknown option.*roundz.*known: bonus, rounds"):
        build_ruleset(texts={"o.rules": OPTIONS}, options={"roundz": 3})


# ---- end-game scoring ------------------------------------------------------------

def test_finish_stage_scores_with_procedures():
    g = make(HEAD + """
        resource grain { start 0 }
        resource vp { scored true }
        action farm main { gain 4 grain }
        action score(p: player) procedure { gain ((grain of p) // 3) vp to p }
        flow {
          rounds 2 { step play: turns seat once { main farm } }
          finish { step final: do { for p in players { call score(p) } } }
        }
    """, players=2)
    turn_sequence(g, 3, "farm")
    assert not g.over
    turn_sequence(g, 1, "farm")
    assert g.over
    assert g.scores() == [{"total": 2, "sources": {"final": 2}},
                          {"total": 2, "sources": {"final": 2}}]
    with pytest.raises(IllegalActionError, match="the game is over"):
        g.play("p1 farm")


# ---- house rules ---------------------------------------------------------------

BASE = HEAD + """
option rounds = 2
resource coins { start 3; cap 10 }
resource vp { scored true }
track skill { levels 0..2 }
action work main { gain 1 coins }
action train main { pay 2 coins; advance skill }
flow { rounds rounds { step play: turns seat once { main work, train } } }
"""


def house(tmp_path, text: str) -> str:
    path = tmp_path / "house.rules"
    path.write_text(textwrap.dedent(text))
    return str(path)


def test_house_rule_override(tmp_path):
    rules = house(tmp_path, "override action work main { gain 3 coins }\n")
    g = make(BASE, players=1, rules=[rules])
    g.play("p1 work")
    assert g.get("coins", 0) == 6


def test_house_rule_extend_keeps_other_entries(tmp_path):
    rules = house(tmp_path, "extend resource coins { start 7 }\n")
    g = make(BASE, players=1, rules=[rules])
    assert g.get("coins", 0) == 7
    g.play("p1 work")
    g.play("p1 work")
    assert g.over
    assert g.ruleset.resources["coins"].start == 7
    assert g.ruleset.resources["coins"].cap is not None  # the base file's cap is kept
    assert g.get("coins", 0) == 9


def test_house_rule_extend_caps(tmp_path):
    rules = house(tmp_path, "extend resource coins { cap 4 }\n")
    g = make(BASE, players=1, rules=[rules])
    g.play("p1 work"), g.play("p1 work")
    assert g.get("coins", 0) == 4


def test_house_rule_remove(tmp_path):
    rules = house(tmp_path, """
        remove action train
        override flow { rounds rounds { step play: turns seat once { main work } } }
    """)
    g = make(BASE, players=1, rules=[rules])
    assert "train" not in g.ruleset.actions
    assert legal(g) == ["p1 work"]


def test_house_rule_remove_of_a_used_action_is_reported(tmp_path):
    rules = house(tmp_path, "remove action train\n")
    with pytest.raises(RulesError, match="unknown action 'train'"):
        make(BASE, players=1, rules=[rules])


def test_house_rules_survive_save_and_load(tmp_path):
    from boardrules.game import load_game
    rules = house(tmp_path, "override action work main { gain 3 coins }\n")
    g = make(BASE, players=1, rules=[rules])
    g.play("p1 work")
    h = load_game(g.save())
    assert h.state == g.state and h.get("coins", 0) == 6


def test_a_refused_choice_names_the_condition_it_fails():
    """An answer that is no option of a ``choose`` is refused naming why, with its place: the
    domain it is not in, or the first condition of the ``where`` that is false for it; the state
    is unchanged (issue 13: precise errors naming the rule)."""
    g = make(HEAD + """
resource coins { start 3 }
action bet main {
  choose x in 1..5 where x <= coins and x != 2 "how much to bet" { pay x coins }
}
flow { rounds 1 { step play: turns seat once { main bet } } }
""", players=1)
    g.play("p1 bet")
    before = g.state
    with pytest.raises(IllegalActionError, match=r"4 is not one of the choices for 'x': `x <= coins` is false \(t.rules:5:"):
        g.play("p1 x 4")
    with pytest.raises(IllegalActionError, match=r"`x != 2` is false"):
        g.play("p1 x 2")
    with pytest.raises(IllegalActionError, match=r"9 is not one of the choices for 'x': it is not in `1..5`"):
        g.play("p1 x 9")
    assert g.state == before
    g.play("p1 x 3")
    assert g.get("coins", 0) == 0
