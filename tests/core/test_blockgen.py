"""Statement blocks as generated Python source (lang/blockgen.py) against the oracles.

The generated function of a block must do what the statements' closures do and what the
interpreter does: the same state, the same refusal with the same message and rule position,
on random blocks of every kind of statement, on hostile names, on blocks nested deeper than
Python compiles, and on every action of the three bundled games over random play.
"""

from __future__ import annotations

import linecache
import random
import traceback
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardrules.limits import LIMITS
from boardrules import ruleset as RS
from boardrules.errors import BoardrulesError, IllegalActionError
from boardrules.game import new_game
from boardrules.lang.backends import Compiler

from ..combinations import draw_example, refusal
from .test_properties import PRELUDE as BASE
from .test_properties import bool_expr, int_expr

# the prelude of the properties' random blocks, with a track, a component, an event and entities
# whose slots and triggers the statements run
PRELUDE = BASE.replace("action go main {", """\
track t1 {
  levels 0..3
  at 2 { gain 1 vp }
}
component farm { supply 2 }
event bumped(n: int)
kind card {
  field cost: int = 1
  slot income
}
card c1 { cost 2
  income: gain 1 a
}
card c2 {
  income { require x < 5 else "c2 refuses"; gain 1 b }
  when bumped(n) if n > 1: gain 1 vp
}
action go main {""")


@st.composite
def statements(draw, depth=0, local=()):
    e = lambda: draw(int_expr(local))  # noqa: E731
    kinds = ["gain", "pay", "lose", "set", "require", "let", "call", "advance", "emit", "supply",
             "own", "run", "defer"]
    if depth < 2:
        kinds += ["if", "for"]
    kind = draw(st.sampled_from(kinds))
    res = draw(st.sampled_from(["a", "b", "vp"]))
    if kind == "gain":
        return [draw(st.sampled_from([f"gain ({e()}) {res}", f"gain ({e()}) {res} to 1",
                                      f"gain 2 a, ({e()}) b", f"gain 1 a per ({e()})"]))]
    if kind == "pay":
        return [draw(st.sampled_from([f"pay ({e()}) {res}", "pay 1 a", f"pay 1 a, ({e()}) b"]))]
    if kind == "lose":
        return [draw(st.sampled_from([f"lose ({e()}) {res}", f"lose ({e()}) {res} to 0"]))]
    if kind == "set":
        return [draw(st.sampled_from([f"set x = {e()}", f"set y = {e()}", f"set y of 1 = {e()}",
                                      f"set l = l + [{e()}]"]))]
    if kind == "require":
        return [f'require {draw(bool_expr(local))} else "nope"']
    if kind == "let":
        return [f"let k{depth} = {e()}"]
    if kind == "call":
        return [draw(st.sampled_from(["call tick()", f"call bump({e()})",
                                      f"call shift({e()}, {e()})"]))]
    if kind == "advance":
        return [draw(st.sampled_from(["advance t1", f"advance t1 by ({e()})"]))]
    if kind == "emit":
        return [f"emit bumped({e()})"]
    if kind == "supply":
        return [draw(st.sampled_from(["use farm", "restore farm"]))]
    if kind == "own":
        return [draw(st.sampled_from(["take c1", "take c2", "give c2 to 1", "discard c1",
                                      f"give c1 to ({e()})"]))]
    if kind == "run":
        return [draw(st.sampled_from(["run c1.income", "run c2.income for 1",
                                      f"run c2.income for ({e()})"]))]
    if kind == "defer":
        return [draw(st.sampled_from(["after turn { gain 1 a }",
                                      'choose v in l optional "pick" { gain v a }',
                                      'choose v in l where v > x "pick" { gain v b }',
                                      "queue { gain 1 vp }"]))]
    body = draw(blocks(depth + 1, local + (("v",) if kind == "for" else ())))
    if kind == "if":
        other = draw(blocks(depth + 1, local))
        shape = draw(st.sampled_from(["if", "else", "elif"]))
        if shape == "if":
            return [f"if {draw(bool_expr(local))} {{", *body, "}"]
        if shape == "else":
            return [f"if {draw(bool_expr(local))} {{", *body, "} else {", *other, "}"]
        return [f"if {draw(bool_expr(local))} {{", *body, f"}} elif {draw(bool_expr(local))} {{",
                *other, "} else {", "gain 1 vp", "}"]
    where = draw(st.sampled_from(["", f" where {draw(bool_expr(local + ('v',)))}"]))
    return [f"for v in l{where} {{", *body, "}"]


@st.composite
def blocks(draw, depth=0, local=()):
    n = draw(st.integers(1, 4 if depth == 0 else 2))
    out: list[str] = []
    for _ in range(n):
        made = draw(statements(depth, local))
        out.extend(made)
        if made[0].startswith("let "):
            local = local + (made[0].split()[1],)
    return out


def _outcome(text: str, backend: str, max_steps: int = LIMITS.max_steps):
    """The state after ``p1 go`` (or its refusal's text, the game unchanged), the decisions it
    left and the events it logged, with statement blocks run by ``backend``: "generated",
    "closures" (the compiler's closures) or "interpreted"."""
    RS._build.cache_clear()
    closures = mock.patch.object(Compiler, "block", Compiler.closure_block) \
        if backend == "closures" else mock.patch.object(Compiler, "block", Compiler.block)
    try:
        with closures:
            g = new_game(texts={"random.rules": text}, players=2, max_steps=max_steps,
                         backend="interpreted" if backend == "interpreted" else "compiled")
            start = g.state
            try:
                g.play("p1 go")
            except IllegalActionError as err:
                assert g.state is start
                return ("illegal", str(err), g.state)
            try:   # (what the body left: its decisions, after-turn blocks, the next turn)
                return ("ok", [str(a) for a in g.legal_actions()], g.state)
            except BoardrulesError as err:   # (nobody can act: the same for every back end)
                return ("ok", str(err), g.state)
    finally:
        RS._build.cache_clear()


def _agree(body: list[str] | str, max_steps: int = LIMITS.max_steps) -> tuple:
    text = PRELUDE.replace("BODY", body if isinstance(body, str) else "\n".join(body))
    generated = _outcome(text, "generated", max_steps)
    assert generated == _outcome(text, "closures", max_steps), text
    assert generated == _outcome(text, "interpreted", max_steps), text
    return generated


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(blocks())
def test_generated_blocks_agree_with_the_closures_and_the_interpreter(body):
    _agree(body)


@pytest.mark.parametrize("body,message", [
    # an expression's error at the expression, inside a loop, a branch, a call's argument
    ("for v in l {\n  set x = x + 9 // (v - 2)\n}", "division by zero in '//' [rule: go (random.rules:27:11)]"),
    ("if x == 2 {\n  gain 1 a\n} elif x // 0 > 1 {\n  gain 1 b\n}", "[rule: go (random.rules:28:8)]"),
    ("call bump(x // (x - 1))", "[rule: go (random.rules:26:11)]"),
    ("gain 1 a, (x // 0) b", "[rule: go (random.rules:26:12)]"),
    # a statement's own error: the require's, a pay beyond the floor, a procedure's require
    ('let k = 3\nrequire k < 2 else "k too big"', "k too big [rule: go (random.rules:27:1)]"),
    ("pay 5 b", "needs 5 b, has 1"),
    ("call bump(9)", "too far"),
    ("set x = 7\nrun c2.income", "c2 refuses"),
])
def test_errors_and_their_positions_are_the_closures_and_the_interpreters(body, message):
    kind, text, _ = _agree(body)
    assert kind == "illegal" and message in text


def test_the_budget_error_of_a_loop_names_the_loop():
    """The budget spent walking the inner loop's domain: placed at that loop, as the closures
    and the interpreter place it."""
    body = "set x = 2\nfor v in 1..999 {\n  for w in 1..999 {\n    set x = w\n  }\n}"
    kind, text, _ = _agree(body)
    assert kind == "illegal" and "execution budget" in text and "(random.rules:28:3)]" in text


@pytest.mark.parametrize("body,position", [
    # spent by the rules a statement runs (a procedure, a slot, a trigger) inside nested loops:
    # placed at the innermost loop, whichever line of its body it came from
    ("for v in l {\n  for w in 1..50 {\n    call tick()\n  }\n}", "random.rules:27:3"),
    ("for v in l {\n  gain 1 a\n  for w in 1..50 where w > 0 {\n    run c1.income\n  }\n}",
     "random.rules:28:3"),
    ("for v in 1..50 {\n  emit bumped(2)\n}", "random.rules:26:1"),
    # spent in an expression inside a loop: placed at the expression
    ("for v in l {\n  set x = (count w in 1..50 where w > v)\n}", "random.rules:27:12"),
])
def test_a_budget_spent_inside_loops_is_placed_as_the_oracles_place_it(body, position):
    kind, text, _ = _agree(body, max_steps=60)
    assert kind == "illegal" and "execution budget" in text and f"({position})]" in text


def test_hostile_names_and_texts_stay_literals():
    """Rule names that are Python keywords or the generated code's own names, and texts that
    read as code, are repr'd strings in the generated source: same outcome as the oracles."""
    body = "\n".join([
        "let import = 3", "let ctx = import + 1", "let _e1 = ctx * 2", "let _build = _e1",
        "let err = (count _env2 in l where _env2 > import)",
        "for _item3 in l where _item3 > err {", "  set x = x + _item3 + ctx", "}",
        "for class in [_build, err] {", "  set y = y + class", "}",
        'require x < 100 else "\\"); import os; os.system(\'x\') #"',
    ])
    kind, _, state = _agree(body)
    assert kind == "ok" and state.values[("v", "x")] == 1 + (1 + 4) + (2 + 4) + (3 + 4)
    g = new_game(texts={"h.rules": PRELUDE.replace("BODY", body)}, players=2)
    g.play("p1 go")
    src = "".join(linecache.getlines(g.ruleset._action_bodies["go"].__code__.co_filename))
    assert "ctx.env = {**ctx.env, 'import': " in src and "ctx.env['_build'] = " not in src
    assert repr("\"); import os; os.system('x') #") in src


def test_a_block_deeper_than_python_compiles_runs_as_closures():
    """Python refuses more than 20 nested blocks (``for``s, ``try``s): such a rule block runs as
    the statements' closures, with the same outcome."""
    depth = 12
    body = "\n".join([f"for v{i} in [1] {{" for i in range(depth)] + ["set x = x + 1"] + ["}"] * depth)
    kind, _, state = _agree(body)
    assert kind == "ok" and state.values[("v", "x")] == 2
    g = new_game(texts={"deep.rules": PRELUDE.replace("BODY", body)}, players=2)
    g.play("p1 go")
    assert not g.ruleset._action_bodies["go"].__code__.co_filename.startswith("<rules deep")


def test_blocks_compile_on_their_first_run_and_keep_their_function():
    g = new_game(texts={"lazy.rules": PRELUDE.replace("BODY", "gain 1 a\ncall tick()")}, players=2)
    go, tick = g.ruleset._action_bodies["go"], g.ruleset._action_bodies["tick"]
    assert go.__code__.co_filename == tick.__code__.co_filename == "<rules stub>"
    g.play("p1 go")
    assert g.ruleset._action_bodies["go"] is go
    assert go.__code__.co_filename.startswith("<rules lazy.rules:26:1 #")
    assert tick.__code__.co_filename.startswith("<rules lazy.rules:29:25 #")


def test_a_traceback_through_a_block_shows_its_generated_lines():
    """A rule broken inside a generated block: the traceback's frames name the block's place in
    the rules and linecache gives the generated line (as for the generated expressions)."""
    g = new_game(texts={"tb.rules": PRELUDE.replace("BODY", "gain 1 a\nset x = x // (x - 1)")},
                 players=2)
    with pytest.raises(IllegalActionError) as info:
        g.play("p1 go")
    violation = info.value.__context__
    assert violation is not None and "division by zero" in str(violation)
    frames = [f for f in traceback.extract_tb(violation.__traceback__)
              if f.filename.startswith("<rules tb.rules:26:1 #")]
    assert frames and any("_floordiv(ctx" in (f.line or "") for f in frames)
    assert linecache.getline(frames[0].filename, 1) == "def rule_block(ctx):\n"


GAMES = [("harvest", 3, 120), ("gaia-project", 4, 120), ("eclipse", 4, 120)]


def _same_play(game: str, decisions: int, seed: int, **how) -> None:
    gc, gi = (new_game(game, seed=seed, backend=b, **how) for b in ("compiled", "interpreted"))
    rnd = random.Random(seed)
    for _ in range(decisions):
        if gc.over:
            break
        listed = list(gc.legal_actions())
        assert listed == list(gi.legal_actions())
        action = rnd.choice(listed)
        gc.play(action)
        gi.play(action)
        assert gc.state == gi.state


@pytest.mark.parametrize("game,players,decisions", GAMES)
def test_random_play_equals_the_interpreter(game, players, decisions):
    """Every action the random games take, and every candidate listed on the way, runs as
    generated blocks and as the interpreter: the same legal actions and states throughout."""
    for seed in (11, 12):
        _same_play(game, decisions, seed, players=players)


@pytest.mark.parametrize("game", ["harvest", "gaia-project", "eclipse"])
@pytest.mark.parametrize("seed", [21, 22, 23])
def test_random_play_with_random_modules_equals_the_interpreter(game, seed):
    """The same with a random set of the game's modules (their rule files' blocks)."""
    rnd = random.Random(seed)
    example = draw_example(game, rnd.randrange, short=True)
    if refusal(game, players=example["players"], modules=example["modules"],
               options=example["options"]) is not None:
        example["modules"] = ()
    _same_play(game, 80, example["seed"], players=example["players"],
               modules=example["modules"], options=example["options"])
