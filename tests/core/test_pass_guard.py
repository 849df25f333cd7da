"""A main action whose inert rest passes its player (lang/inert.py ``PASS``, guards.py
``PASSES``, game/verdicts.py ``_pass_settles``): its guard runs the checks, and the candidate is legal
without its run when the next turn of the step then begins without a rule running. The oracle:
the listing equals the full tries on every state and the played state equals a full run
(tests/core/test_guards.py, ``compare_states``), in Harvest house-rule games where a pass
trades cards (``take`` proven by ``owner(c) == none``, ``discard``) and where what follows a
pass can break a rule: a ``turn_ends`` rule, an 'after turn' block, the round's end."""

from __future__ import annotations

import random

import pytest

from boardrules.limits import LIMITS
import boardrules
from boardrules import GameStuckError
from boardrules.game import ACCEPTED
from boardrules.lang import semantics as S
from boardrules.lang.guards import PASSES, Guards
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


# a free action that makes 'order' long: pass_round's rest reads it as a short list (lang/inert.py,
# SHORT), so past SHORT its guard answers False and the pass is tried in full
CROWD = """action crowd free {
  require len(order) < 1500 else "crowded enough"
  for i in 1..600 { set order = order + [me] }
}
extend step actions { free crowd }
"""


def _bare_calls(monkeypatch, g) -> dict[str, int]:
    """Count the verdicts of ``g``'s guards that run no statement (guards.py, ``_bare``) by their
    answers (its guards built anew: a cached ruleset's may be built already)."""
    from boardrules.lang import guards as G
    seen: dict[str, int] = {}
    make = G._bare

    def counting(*args):
        bare = make(*args)

        def run(ctx, source):
            got = bare(ctx, source)
            seen[str(got)] = seen.get(str(got), 0) + 1
            return got
        return run
    monkeypatch.setattr(G, "_bare", counting)
    rs = g.ruleset
    monkeypatch.setattr(rs, "guards", Guards(rs, rs.backend, Inert(rs, {})))
    return seen


@pytest.mark.parametrize("variant", ["trade", "tidy", "crowd"])
def test_a_guard_that_runs_nothing_lists_as_the_full_tries(variant, monkeypatch):
    """pass_round's body is all inert rest: its guard's verdict is worked out without a unit's
    run (guards.py, ``_bare``), also where what follows the pass may break a rule (TIDY) and
    where the rest's facts fail (CROWD: 'order' longer than the rest may read)."""
    g = boardrules.new_game("harvest", players=3, seed=2, texts={
        "h.rules": TRADE + TIDY if variant == "tidy" else CROWD if variant == "crowd" else TRADE})
    seen = _bare_calls(monkeypatch, g)
    try:
        assert compare_states(g, 300, random.Random(2)) > 0
    except GameStuckError:
        assert variant == "tidy" and g._legal_by_trying() == []
    assert seen.get(PASSES, 0) > 0
    if variant == "crowd":
        assert seen.get("False", 0) > 0   # (the facts failed: tried in full)


def test_a_bare_verdict_is_the_guards_run(monkeypatch):
    """For every guard that runs no statement, at states of a CROWD game (short and long 'order'),
    with budgets around its rest's bound and depths around the deepest: the same answer (or the
    same violation) as ``run_unit`` of the guard gives, and the same steps and depth left."""
    g, rng = boardrules.new_game("harvest", players=3, seed=4, texts={"h.rules": CROWD}), random.Random(4)
    rs = g.ruleset
    bares = {n: rs.guards.action(n) for n in rs.actions}
    bares = {n: gd for n, gd in bares.items() if gd is not None and gd in rs.guards.bare}
    assert "pass_round" in bares
    compared = set()
    while not g.over and len(compared) < 400:
        for name, guard in bares.items():
            cost = rs.guards.inert.split(rs.actions[name].body, {})[1]
            for steps in (1_000_000, cost + 2, cost + 1, cost, 1, 0):
                for depth in (0, LIMITS.max_call_depth - 2, LIMITS.max_call_depth - 1, LIMITS.max_call_depth):
                    got = []
                    for run in (lambda c: rs.guards.bare[guard](c, name),
                                lambda c: S.run_unit(c, guard, name, me=0, env={})):
                        ctx = Context(rs, g.state.values, budget=1_000_000)
                        ctx.steps, ctx.depth = steps, depth
                        try:
                            answer = run(ctx)
                        except Exception as err:   # (the same violation, or the same error)
                            answer = (type(err), str(err))
                        got.append((answer, ctx.steps, ctx.depth, ctx.w))
                    assert got[0] == got[1], (name, steps, depth)
                    compared.add((got[0][0] if type(got[0][0]) is not tuple else "raised", steps, depth,
                                  len(g.state.get("v", "order") or ()) > 1024))
        g.play(rng.choice(list(g.legal_actions())), check=False)
    answers = {a for a, _, _, _ in compared}
    assert {PASSES, False, "raised"} <= answers
    assert any(long for _, _, _, long in compared)   # (the facts failed on some states)


def test_a_bare_verdict_for_a_guard_that_runs_checks_is_caught(monkeypatch):
    """Taking a guard that runs a check (``rich``'s, not among its prechecks) for one that runs
    nothing runs it without its action's bindings: the listing differs from the full tries."""
    from boardrules.lang import guards as G
    text = """action rich(n: int in 1..3) main {
  if n >= 2 { require coins > 30 else "not rich enough" }
  gain 1 vp
}
extend step actions { main rich }
"""
    g = boardrules.new_game("harvest", players=3, seed=1, texts={"r.rules": text})
    rs = g.ruleset
    assert rs.guards.action("rich") not in rs.guards.bare
    monkeypatch.setattr(G, "runs_nothing", lambda plan: True)
    monkeypatch.setattr(rs, "guards", Guards(rs, rs.backend, Inert(rs, {})))   # (built anew)
    with pytest.raises(AssertionError):
        compare_states(g, 300, random.Random(1))
