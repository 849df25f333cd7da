"""A main action whose inert rest passes its player (lang/inert.py ``PASS``, guards.py
``PASSES``, game.py ``_pass_settles``): its guard runs the checks, and the candidate is legal
without its run when the next turn of the step then begins without a rule running. The oracle:
the listing equals the full tries on every state and the played state equals a full run
(tests/core/test_guards.py, ``compare_states``), in Harvest house-rule games where a pass
trades cards (``take`` proven by ``owner(c) == none``, ``discard``) and where what follows a
pass can break a rule: a ``turn_ends`` rule, an 'after turn' block, the round's end."""

from __future__ import annotations

import random

import pytest

import boardrules
from boardrules import GameStuckError
from boardrules.game import ACCEPTED
from boardrules.lang import semantics as S
from boardrules.lang.guards import PASSES
from boardrules.runtime import Context
from boardrules.lang.inert import Inert
from boardrules.lang.parser import parse_text
from tests.core.test_flow_settle import counted
from tests.core.test_guards import compare_states, harvest

# a pass that trades the player's cards for one on offer (the 'where' and the require state that
# nobody holds it); a main action that passes or not by the player's coins
TRADE = """action pass_trade(c: card where owner(c) == none else "that card is taken") main {
  require owner(c) == none else "that card is taken"
  set order = order + [me]
  for old in held(card) { discard old }
  take c
  pass
}
action rest main {
  if coins > 4 { pass } else { gain 1 coins }
}
extend step actions { main pass_trade, rest }
"""
# what follows a pass breaks a rule for a player holding more than 6 coins
TURN_ENDS = 'when turn_ends(p): if coins of p > 6 { require false else "too rich at the turn\'s end" }\n'
AFTER = """action note free { after turn { require coins < 7 else "too rich after the turn" } }
extend step actions { free note }
"""
TIDY = """override step tidy: do {
  set first_passer = none; set order = []
  for p in players { set harvested of p = false }
  for p in players { if coins of p > 6 { require false else "too rich at the round's end" } }
}
"""
# a pass whose rest leaves an 'after turn' block that breaks a rule for a player holding more
# than 2 coins: the pass ends the turn, which runs the block (the guard must not settle it)
AFTER_PASS = """action rest_after main {
  after turn { require coins < 3 else "too rich after the turn" }
  pass
}
extend step actions { main rest_after }
"""
VARIANTS = {"trade": TRADE, "turn_ends": TRADE + TURN_ENDS, "after": TRADE + AFTER, "tidy": TRADE + TIDY,
            "after_pass": TRADE + AFTER_PASS}


def game(variant: str, seed: int):
    return boardrules.new_game("harvest", players=3, seed=seed, texts={"h.rules": VARIANTS[variant]})


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_passing_rests_list_as_the_full_tries(variant, seed, monkeypatch):
    seen = counted(monkeypatch, "_pass_settles")   # [settled by their guards, tried]
    g = game(variant, seed)
    try:
        assert compare_states(g, 300, random.Random(seed)) > 0
    except GameStuckError:   # (too rich to end a turn: nothing is legal, by the full tries too)
        assert variant != "trade" and g._legal_by_trying() == []
    if variant in ("trade", "tidy", "after_pass"):
        assert seen[0] > 0   # (the shortcut is taken where nothing follows the pass)
    if variant in ("tidy", "turn_ends", "after"):
        assert seen[1] > 0   # (what follows some passes may break a rule: they are tried)
    if variant == "turn_ends":
        assert seen[0] == 0   # (a rule reacts to the turn's end: every pass is tried)
    assert boardrules.load_game(g.save()).state == g.state


@pytest.mark.parametrize("variant,settles", [("trade", True), ("tidy", False)])
def test_the_steps_last_pass_settles_by_its_guard(variant, settles):
    """The step's last pass is legal by its guard alone when nothing the flow runs from the
    step's end to the next turn can break a rule (Harvest's tidy step and income): the listing
    does not run it (it runs once, if played); where the round's end may break a rule (TIDY)
    it is tried in full."""
    g, rng, met = game(variant, 1), random.Random(1), 0
    while not g.over and met < 3:
        listed = list(g.legal_actions())
        turn, passed = g.state.get("f", "turn"), g.state.get("f", "passed") or ()
        last = [a for a in listed if a.name == "pass_round" and turn is not None
                and all(p in passed or p == a.player for p in turn[0])]
        if last:
            met += 1
            assert (g._known_for(g.state).runs[last[0]] is ACCEPTED) == settles
        g.play(rng.choice(listed), check=False)
    assert met > 0


def test_a_passing_guard_leaves_the_budget_its_rest_may_take():
    """A guard whose checks pass charges its inert rest's bound on steps to the budget it
    leaves: what the engine then bounds with that budget (the flow from the step's end,
    ``Game._step_end_settles``) comes after the rest, which the guard does not run."""
    g, rng = game("trade", 1), random.Random(1)
    while not any(a.name == "pass_round" for a in g.legal_actions()):
        g.play(rng.choice(list(g.legal_actions())), check=False)
    rs = g.ruleset
    rest = rs.guards.inert.split(rs.actions["pass_round"].body, {})[1]
    ctx = Context(rs, g.state.values, budget=1_000_000)
    verdict = S.run_unit(ctx, rs.guards.action("pass_round"), "pass_round",
                         me=g.state.get("f", "turn")[2], env={})
    assert verdict == PASSES and rest > 0
    assert ctx.steps <= 1_000_000 - rest


def test_the_rests_of_pass_and_take():
    """What the analysis takes as inert about ``pass``, ``take`` and ``discard``."""
    rs = harvest().ruleset
    inert = Inert(rs, {})

    def cost(text: str) -> int | None:
        body = parse_text(f"action x(c: card) main {{ {text} }}\n", "x.rules").items[0].body
        with inert._unit():   # (what one rest writes: its own)
            return inert.stmts(body.stmts, {"c": "entity:card"})

    for text in ("pass", "discard c", "for o in held(card) { discard o }", "if coins > 1 { pass }",
                 "if owner(c) == none { take c }", "if owner(c) == me { gain 1 coins; take c }",
                 "if owner(c) == none and coins > 1 { take c; pass }"):
        assert cost(text) is not None, text
    for text in ("take c", "if owner(c) != none { take c }", "if owner(sow) == none { take c }",
                 "if owner(c) == none { take sow }", "if not (owner(c) == none) { take c }",
                 "if owner(c) == none or coins > 1 { take c }",
                 "if owner(c) == none { take reap; take c }",   # (a take: owners are not known)
                 "if owner(c) == none { for p in players { take c } }",   # (not within a loop)
                 "pass; pass", "for p in players { pass }", "if coins > 1 { pass } else { pass }",
                 "for p in players { run reap.on_pass for p }; pass; pass"):
        assert cost(text) is None, text


def test_a_pass_for_another_player_is_not_inert():
    """A slot run for another player, or a trigger, that passes: never inert (do_pass passes the
    player the rule runs for, not the one who acts)."""
    text = """kind tile { slot on_flip }
tile t1 { on_flip { pass } }
event flipped(p: player)
when flipped(p): pass
action flip_for(p: player) main { run t1.on_flip for p }
action flip_mine main { run t1.on_flip }
action tell main { emit flipped(me) }
"""
    g = boardrules.new_game("harvest", players=3, seed=1, texts={"t.rules": text})
    rs = g.ruleset
    inert = rs.guards.inert
    splits = {n: inert.split(rs.actions[n].body, {"p": "player"} if n == "flip_for" else {})[0]
              for n in ("flip_for", "flip_mine", "tell")}
    assert splits == {"flip_for": 1, "flip_mine": 0, "tell": 1}
    assert rs.action_guard("flip_for") is None   # (nor is the slot's rest entered for p)


@pytest.mark.parametrize("variant", ["trade", "turn_ends", "after"])
def test_done_settles_when_ending_the_turn_runs_no_rule(variant):
    """'done' is legal without its run (``Game._done_settles``) when ending the turn runs no
    rule and the step's next turn begins at once: the listing keeps no run for it. With a
    ``turn_ends`` rule, or an 'after turn' block waiting (the free ``note`` of AFTER), it is
    tried in full. (That these listings equal the full tries: the test above.)"""
    g, rng = game(variant, 1), random.Random(1)
    seen = {True: 0, False: 0}   # done listed from the analysis, tried in full
    for _ in range(300):   # (AFTER's note may be all that is left, played on and on)
        if g.over or sum(seen.values()) >= 40:
            break
        listed = list(g.legal_actions())
        done = [a for a in listed if a.name == "done"]
        if done:
            accepted = g._known_for(g.state).runs[done[0]] is ACCEPTED
            seen[accepted] += 1
            if variant == "turn_ends" or g.state.get("f", "after"):
                assert not accepted
        g.play(rng.choice(listed), check=False)
    assert seen[True] > 0 if variant != "turn_ends" else seen[True] == 0
    if variant != "trade":
        assert seen[False] > 0


GIFTS = """game gifts { players 2..2 }
resource coins { start 3 }
resource vp { start 0; scored true }
action give(p: player, n: int in 0..9) procedure { gain n vp to p }
action gift main { pay 1 coins; call give(me, 1) }
action rest main { gain 1 coins }
flow { rounds 4 { step play: turns seat once { main gift, rest } } }
"""


def test_me_is_a_seat_while_the_unit_runs_for_a_player():
    """``me`` passed to a procedure's player parameter is a seat (as ``gain`` without ``to``
    takes it): Gaia's ``ore_token`` conversion (``call gain_tokens(me, 1)``) has a guard. Not
    so when the unit runs for no player, nor for a player binding that may be out of range."""
    g = boardrules.new_game(texts={"gifts.rules": GIFTS}, players=2, seed=1)
    rs = g.ruleset
    inert = Inert(rs, {})

    def cost(text: str, scope: dict | None = None, me: bool = True) -> int | None:
        body = parse_text(f"action x main {{ {text} }}\n", "x.rules").items[0].body
        with inert._unit(), inert._as_me(me):
            return inert.stmts(body.stmts, dict(scope or {}))
    assert cost("call give(me, 1)") is not None
    assert cost("gain 1 vp to me") is not None and cost("set tally of me = 1") is None  # (no var)
    assert cost("call give(me, 1)", me=False) is None
    assert cost("call give(q, 1)", {"q": "player"}) is None
    assert rs.guards.action("gift") is not None
    for seed in range(3):
        assert compare_states(boardrules.new_game(texts={"gifts.rules": GIFTS}, players=2, seed=seed),
                              100, random.Random(seed)) > 0
    gaia = boardrules.new_game("gaia-project", players=2, seed=1).ruleset
    assert gaia.guards.action_for("convert", ("ore_token",)) is not None
