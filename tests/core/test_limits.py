"""Hard limits: no rule file or record can crash the engine with a Python error, recurse
past the stack, run without end or exhaust memory. Each limit answers with a precise
error naming the rule and its position, and changes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardrules.limits import LIMITS
import boardrules
from boardrules import ExecutionBudgetError, IllegalActionError, RulesError
from boardrules.lang.inert import SHORT
from boardrules.runtime import MAX_NUMBER

HARVEST = (Path(__file__).parent / "rules" / "harvest.rules").read_text()
BACKENDS = ("compiled", "interpreted")


def harvest_with(study_body: str = "", extra: str = "", setup: str = "") -> dict:
    """Harvest with statements added to 'study' (and declarations, setup statements)."""
    text = HARVEST.replace("action study main {", "action study main {\n  " + study_body, 1)
    if setup:
        text = text.replace("step reveal: do {", "step reveal: do {\n  " + setup + "\n", 1)
    return {"h.rules": text + "\n" + extra}


def line_of(texts: dict, needle: str) -> int:
    return next(i for i, ln in enumerate(texts["h.rules"].splitlines(), 1) if needle in ln)


def started(texts: dict, backend: str = "compiled", **kw) -> boardrules.Game:
    """A 3-player game at p3's first turn (the setup's 'pick' step, where study is legal)."""
    game = boardrules.new_game(texts=texts, players=3, seed=7, backend=backend, **kw)
    assert game.players_to_act() == {2}
    return game


def assert_refused_unchanged(game, action: str, cls, *patterns: str) -> IllegalActionError:
    state, record, log = game.state, list(game.record.actions), list(game.log)
    with pytest.raises(cls) as info:
        game.play(action)
    for pattern in patterns:
        assert pattern in str(info.value), str(info.value)
    assert game.state is state and game.record.actions == record and game.log == log
    return info.value


# ---- the checker and the parser never crash ----

def test_unknown_function_in_a_default_is_an_error_with_its_position():
    texts = harvest_with(extra="var x: int = foo(1)")
    with pytest.raises(RulesError) as info:
        boardrules.build_ruleset(texts=texts)
    assert f"h.rules:{line_of(texts, 'foo(1)')}:14: unknown function 'foo'" in str(info.value)


@pytest.mark.parametrize("expr, count", [("-", 1000), ("not ", 5000), ("1+", 1000), ("2*", 1000)])
def test_long_chains_are_refused_with_their_position(expr, count):
    body = (f"require {expr * count}true else \"x\"" if expr == "not "
            else f"gain ({expr * count}1) coins")
    texts = harvest_with(body)
    with pytest.raises(RulesError) as info:
        boardrules.build_ruleset(texts=texts)
    (diag,) = info.value.diagnostics
    assert f"nested deeper than {LIMITS.max_tree_depth} levels" in diag.message
    assert diag.span.line == line_of(texts, expr * 3) and diag.span.column > 1
    assert "let NAME" in diag.hint


@pytest.mark.parametrize("backend", BACKENDS)
def test_chains_within_the_limit_still_work(backend):
    # 150 minus signs are an even number: the gain is +1; 150 terms of 1 make 150
    game = started(harvest_with(f"gain ({'-' * 150}1) coins\n  set first_passer = "
                                f"{'+'.join(['0'] * 150)} + 1"), backend)
    game.play("p3 study")
    assert game.get("coins", 2) == 5 + 1 - 3 + 2   # start, the gain, study's cost, farming 1
    assert game.get("first_passer") == 1


def test_numbers_and_ranges_in_rule_files_are_bounded():
    with pytest.raises(RulesError, match="h.rules:120:16: a number of 5000 digits is too long"):
        boardrules.build_ruleset(texts=harvest_with(extra="var big: int = " + "9" * 5000))
    with pytest.raises(RulesError, match=rf"h.rules:120:20: the range 1..1000000000 is too long "
                                         rf"\(at most {LIMITS.max_list} numbers\)"):
        boardrules.build_ruleset(texts=harvest_with(extra="var r: list[int] = 1..1000000000"))


# ---- the execution budget ----

@pytest.mark.parametrize("backend", BACKENDS)
def test_a_loop_without_end_stops_at_the_budget_naming_rule_and_position(backend):
    texts = harvest_with("for i in 1..90000 { for j in 1..90000 { gain 0 vp } }")
    game = started(texts, backend)
    err = assert_refused_unchanged(game, "p3 study", ExecutionBudgetError,
                                   f"more than {LIMITS.max_steps} steps", "[rule: study (h.rules:")
    assert err.rule == "study" and f"h.rules:{line_of(texts, '1..90000')}:" in str(err)
    assert "p3 study" not in game.legal_actions()   # an action over budget is not legal


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_budget_is_configurable(backend):
    texts = harvest_with("for i in 1..50 { gain 1 vp }")
    small = started(texts, backend, max_steps=60)
    assert_refused_unchanged(small, "p3 study", ExecutionBudgetError, "more than 60 steps")
    roomy = started(texts, backend, max_steps=500)
    roomy.play("p3 study")
    assert roomy.get("vp", 2) == 50


@pytest.mark.parametrize("bad, error", [(0, ValueError), (-1, ValueError), (1.5, TypeError), ("10", TypeError),
                                        (True, TypeError), ([5], TypeError)])
def test_the_budget_must_be_a_positive_whole_number(bad, error):
    with pytest.raises(error, match="max_steps must be a whole number"):
        boardrules.new_game("harvest", players=2, max_steps=bad)


def test_no_budget_given_is_the_limit_in_force(limits):
    assert boardrules.new_game("harvest", players=2, max_steps=None).max_steps == 1_000_000
    limits(max_steps=777)
    assert boardrules.new_game("harvest", players=2).max_steps == 777


def test_setup_and_the_flow_have_the_budget_too():
    texts = harvest_with(setup="for i in 1..90000 { for j in 1..90000 { set first_passer = none } }")
    with pytest.raises(ExecutionBudgetError, match=r"the game cannot start: .*step 'reveal'.*"
                                                   r"more than \d+ steps.*\[rule: reveal \(h.rules:\d+:\d+\)"):
        boardrules.new_game(texts=texts, players=3)


def test_a_setup_run_once_for_a_budget_is_run_again_for_a_smaller_one_and_other_limits(limits):
    """Games of one ruleset start from one state, worked out once per player count, budget and
    limits: a budget or limit its setup does not fit still refuses the game."""
    texts = harvest_with(setup="for i in 1..40 { set first_passer = none }")
    first, second = (boardrules.new_game(texts=texts, players=3, seed=s) for s in (1, 2))
    start = first._history[0][0]
    assert second._history[0][0] is start and first.log[:3] == second.log[:3]
    assert start.values == first._setup_run()[0].values   # (what a run of the setup makes)
    with pytest.raises(ExecutionBudgetError, match=r"the game cannot start: .*step 'reveal'"):
        boardrules.new_game(texts=texts, players=3, max_steps=30)
    assert boardrules.new_game(texts=texts, players=2)._history[0][0].values[("r", "coins", 1)] == 5
    limits(max_values=len(start.values) - 1)
    with pytest.raises(ExecutionBudgetError, match="the game cannot start: the game would hold"):
        boardrules.new_game(texts=texts, players=3, seed=3)


def test_listing_the_legal_actions_has_the_budget():
    texts = harvest_with(extra="action spin(n: int in 1..1000 where (count i in 1..5000) > 0) main "
                               "{ gain 1 vp }")
    texts["h.rules"] = texts["h.rules"].replace("main buy, study", "main buy, study, spin")
    game = started(texts, max_steps=200_000)
    with pytest.raises(ExecutionBudgetError, match="listing the arguments of 'spin'.*rule: spin"):
        list(game.legal_actions())


def test_a_record_that_runs_forever_stops_with_its_move_number():
    texts = harvest_with("for i in 1..90000 { for j in 1..90000 { gain 0 vp } }")
    game = started(texts)
    game.record.actions.append("p3 study")
    with pytest.raises(ExecutionBudgetError, match=r"^move \d+: p3 study: the rules ran more than"):
        boardrules.load_game(game.record.dumps())


# ---- size limits on what rules build ----

@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("body, message", [
    ("for i in 1..1000000000 { gain 1 vp }", "the range 1..1000000000 is too long"),
    ("set order = [me]\n  for i in 1..40 { set order = order + order }", "elements is too long"),
    ("let n = 2\n  for i in 1..10 { gain (n * n * n * n * n * n * n * n * n * n * n * n * n * n * n * n * n"
     " * n * n * n * n * n * n * n * n * n * n * n * n * n * n * n * n * n * n * n * n * n * n * n"
     " * n * n * n * n * n * n * n * n * n * n * n * n * n * n * n * n * n * n * n * n * n * n * n"
     " * n * n * n) vp }",
     f"too large for the rules (they use numbers up to {MAX_NUMBER})"),
    ("let big = (sum q for q in [" + ", ".join(["999999999999999999"] * 10) + "])",
     f"a number of 19 digits is too large for the rules (they use numbers up to {MAX_NUMBER})"),
    ("for d in dice(30) { gain 0 vp }", "steps (the execution budget"),
    ("let d = dice(1000)", "rules roll 0 to 64 dice at once"),
    # lists of lists: their size through shared elements, and their depth (saving or hashing
    # such a value never ended, or overflowed the C stack and killed the process)
    ("for i in 1..60 { set anything = [anything, anything] }", "more than 100000 elements at every depth"),
    ("set anything = [[1]]\n  for i in 1..40 { set anything = anything + anything }",
     "more than 100000 elements at every depth"),
    ("for i in 1..100 { set anything = [anything] }", "lists nested more than 48 levels deep"),
])
def test_lists_numbers_and_dice_rules_build_are_bounded(backend, body, message):
    game = started(harvest_with(body, "var anything: any = []"), backend)
    err = assert_refused_unchanged(game, "p3 study", IllegalActionError, message)
    if "dice(1000)" not in body:
        assert "(h.rules:" in str(err)   # the construct's position


@pytest.mark.parametrize("backend", BACKENDS)
def test_lists_nested_as_deep_as_allowed_are_kept_saved_and_replayed(backend):
    texts = harvest_with("for i in 1..47 { set anything = [anything] }", "var anything: any = []")
    game = started(texts, backend)
    game.play("p3 study")
    value = game.get("anything")
    for _ in range(47):
        (value,) = value
    assert value == ()
    again = boardrules.load_game(game.save(), max_steps=LIMITS.max_steps)
    assert again.state.digest() == game.state.digest()


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("extra, body", [
    ("event loop()\nwhen loop() { emit loop() }", "emit loop()"),
    ("event loop()\nwhen loop() { for i in 1..1000 { emit loop() } }", "emit loop()"),
    ("action rec(n: int in 0..1) procedure { call rec(0)\n call rec(1) }", "call rec(0)"),
])
def test_rules_calling_each_other_without_end_are_stopped(backend, extra, body):
    game = started(harvest_with(body, extra), backend)
    assert_refused_unchanged(game, "p3 study", IllegalActionError, "levels deep")


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("loops", [0, 40])
def test_rules_running_themselves_deep_in_loops_name_the_limit_the_rule_and_a_hint(backend, loops):
    """(Loops nested 30 deep in a procedure calling itself ran out of Python's stack before the
    engine's limit of rules in rules: "rules nested too deeply for Python's stack", no limit,
    no hint.)"""
    body = "call rec(0)"
    for i in range(loops):
        body = f"for i{i} in [1] {{ {body} }}"
    texts = harvest_with("call rec(0)", f"action rec(n: int in 0..1) procedure {{ {body} }}")
    game = started(texts, backend)
    err = assert_refused_unchanged(game, "p3 study", IllegalActionError, "at most 100 levels" if loops
                                   else "more than 100 levels deep (the engine's limit",
                                   "hint: does a rule run itself again, through an 'emit', a 'call' or a slot")
    assert "Python" not in str(err)
    # placed at the procedure's own call of itself, naming it (it was "[rule: study (h.rules:N:1)]",
    # the action that called it first)
    line = line_of(texts, "action rec(")
    column = texts["h.rules"].splitlines()[line - 1].rindex("call rec(0)") + 1
    assert str(err).endswith(f"[rule: rec (h.rules:{line}:{column})]"), str(err)
    assert err.rule == "rec"


RECURSIONS = {   # (the study body, the declarations, the rule entered past the limit and its call)
    "a procedure calling itself": ("call rec(0)", "action rec(n: int in 0..1) procedure {\n  gain 1 vp\n"
                                   "  call rec(n) }", "rec", "call rec(n) }"),
    # (study is level 1, ping 2, pong 3...: pong is entered at level 101, by ping's call)
    "two procedures calling each other": ("call ping()", "action ping procedure { call pong() }\n"
                                          "action pong procedure {\n  call ping() }", "pong", "call pong()"),
    "a slot running itself": ("run plough.income", "kind tool { slot income }\ntool plough {\n"
                              "  income: run plough.income\n}", "plough", "run plough.income\n"),
}


@pytest.mark.parametrize("backend", [*BACKENDS, "closures"])
@pytest.mark.parametrize("body, extra, rule, call", RECURSIONS.values(), ids=RECURSIONS.keys())
def test_unbounded_recursion_is_placed_at_the_call_that_went_past_the_limit(backend, body, extra, rule, call):
    """A procedure (or slot) running itself without end was reported at the action that called
    it first ("[rule: study (h.rules:N:1)]"): it names the procedure (slot) entered past the limit
    and the position of the innermost call (run) that entered it, in every back end (the compiled
    blocks, the compiler's closures, the interpreter)."""
    from unittest import mock
    from boardrules import ruleset as RS
    from boardrules.lang.backends import Compiler
    texts = harvest_with(body, extra)
    text = texts["h.rules"]
    at = text.index(call, text.index(extra))
    line, column = text.count("\n", 0, at) + 1, at - text.rindex("\n", 0, at)
    RS._build.cache_clear()
    closures = mock.patch.object(Compiler, "block", Compiler.closure_block) if backend == "closures" \
        else mock.patch.object(Compiler, "block", Compiler.block)
    try:
        with closures:
            game = started(texts, "compiled" if backend == "closures" else backend)
            err = assert_refused_unchanged(game, "p3 study", IllegalActionError,
                                           "more than 100 levels deep (the engine's limit")
    finally:
        RS._build.cache_clear()
    assert str(err).endswith(f"[rule: {rule} (h.rules:{line}:{column})]"), str(err)
    assert err.rule == rule


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_resource_never_grows_past_the_largest_number(backend):
    big = "999999999999999999"   # the longest number a rule may write (18 digits)
    game = started(harvest_with(f"gain {big} vp\n  " * 9 + f"gain {big} vp"), backend)
    assert sum(game.get("vp", p) for p in range(3)) == 0
    assert_refused_unchanged(game, "p3 study", IllegalActionError, "gaining 999999999999999999 vp would make",
                             f"({MAX_NUMBER})", "rule: study")
    assert "p3 study" not in game.legal_actions()


@pytest.mark.parametrize("backend", BACKENDS)
def test_losing_a_negative_count_gains_within_the_cap(backend):
    # 'lose -N' gained N past the resource's cap (and without bound): it is 'gain N' now
    game, same = started(harvest_with("lose -20 coins"), backend), started(harvest_with("gain 20 coins"), backend)
    game.play("p3 study")
    same.play("p3 study")
    assert game.get("coins", 2) == same.get("coins", 2) < 20   # harvest's coins: cap 12
    assert_refused_unchanged(started(harvest_with("lose -999999999999999999 vp\n  " * 10), backend),
                             "p3 study", IllegalActionError, "would make")


LOOPING_EVENTS = {
    "an event raising itself": "when ping() { emit ping() }",
    "two events raising each other": "event pong()\nwhen ping() { emit pong() }\nwhen pong() { emit ping() }",
}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("loop", LOOPING_EVENTS.values(), ids=LOOPING_EVENTS.keys())
def test_an_action_ending_in_an_endless_emit_is_refused_not_a_recursion_error(backend, loop):
    # The emit is the whole body, so listing the legal actions asks whether it can break a
    # rule (lang/inert.py): that analysis once followed the triggers without end (RecursionError).
    texts = {"echo.rules": "game echo { players 1..2 }\nresource vp { scored true }\nevent ping()\n"
             + loop + "\naction shout main { emit ping() }\naction rest main { gain 1 vp }\n"
             "flow { rounds 1 { step play: turns seat once { main shout, rest } } }\n"}
    game = boardrules.new_game(texts=texts, players=2, backend=backend)
    assert [str(a) for a in game.legal_actions()] == ["p1 rest"]
    assert_refused_unchanged(game, "p1 shout", IllegalActionError, "levels deep", "rule: when p")


# ---- operations that cost by their operands' size are charged by it ----

# Two equal lists of 12 000 numbers (different objects: compared element by element; eight in a
# list hold 96 008 elements at every depth, within the rules' 100 000), then a loop of 90 000
# turns, each doing one operation on them. Uncharged, every loop below would run for minutes
# (90 000 x 12 000 element comparisons) and end within the budget; charged by size, each stops
# after some 80 turns.
BIG = "let a = 1..12000\n  let b = 1..12000\n  let c = [a, a, a, a, a, a, a, a]\n  "
LONG = "a text, " * 62_000   # (not a name: Python would intern it, and compare it by identity)
HOSTILE = {
    "==": BIG + "for i in 1..90000 { if a == b { gain 0 vp } }",
    "!=": BIG + "for i in 1..90000 { if a != b { gain 1 vp } }",
    "== of lists of lists": BIG + "let d = [b, a, a, a, a, a, a, b]\n  for i in 1..90000 { if c == d { gain 0 vp } }",
    "in (a list in a list of lists)": BIG + "for i in 1..90000 { if b in c { gain 0 vp } }",
    "not in": BIG + "for i in 1..90000 { if b not in c { gain 1 vp } }",
    "sorted": BIG + "for i in 1..90000 { let s = sorted([a, b, a, b, a, b, a, b]) }",
    "min": BIG + "for i in 1..90000 { let m = min(c) }",
    "max of two": BIG + "for i in 1..90000 { let m = max(a, b) }",
    "unique": BIG + "for i in 1..90000 { let u = unique(c) }",
    "without": BIG + "for i in 1..90000 { let w = without(c, b) }",
    "without_one": BIG + "for i in 1..90000 { let w = without_one(c, b) }",
    "position": BIG + "for i in 1..90000 { if position(c, b) > 7 { gain 1 vp } }",
    # (owner(c) and kind_of(c) of a list hashed it: they now refuse any value that is not an
    # entity, the checker where its type is known: test_an_entity_builtin_refuses_a_large_list)
    # (a list reaches the index only through a value of no known type: the checker refuses one written there)
    "a per-hex variable indexed by a list": BIG + "let k = [c, 0]\n  for i in 1..90000 { if field_owner[k[0]] == me { gain 1 vp } }",
    "a list written in the rule": "for i in 1..90000 { let l = [" + "i, " * 20000 + "i] }",
    "texts": f'let s = "{LONG}"\n  let t = "{LONG}"\n  '
             'for i in 1..90000 { for j in 1..10 { if s == t { gain 0 vp } } }',
}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("what", HOSTILE)
def test_operations_on_large_values_are_charged_by_size(backend, what):
    import time
    texts = harvest_with(HOSTILE[what])
    game = started(texts, backend)
    t = time.process_time()
    assert_refused_unchanged(game, "p3 study", ExecutionBudgetError, "[rule: study (h.rules:")
    assert time.process_time() - t < 2   # charged: under 0.4 s; uncharged: texts 5 s, the others minutes


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", ["owner", "kind_of", "holds"])
def test_an_entity_builtin_refuses_a_large_list(backend, fn):
    """``owner(c)`` of a list of a list hashed it, the time by its size: refused at once, its
    message brief."""
    import time
    game = started(harvest_with(BIG + f"for i in 1..90000 {{ if {fn}(first([c])) == none {{ gain 0 vp }} }}"),
                   backend)
    t = time.process_time()
    err = assert_refused_unchanged(game, "p3 study", IllegalActionError,
                                   f"{fn}() expects an entity, got the list [[1, 2, 3,")
    assert time.process_time() - t < 2 and len(str(err)) < 300


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("op", ["==", "!="])
def test_lists_of_different_lengths_are_unequal_at_once(backend, op):
    """Python compares two tuples item by item before their lengths, so two long lists of
    different lengths would cost their length to compare, uncharged (20 000 turns: about 15 s);
    they are unequal at once, at no charge."""
    import time
    body = BIG + "let d = b + [0]\n  for i in 1..20000 { if a " + op + " d { gain 1 vp } }"
    game = started(harvest_with(body), backend)
    vp = game.get("vp", 2)
    t = time.process_time()
    game.play("p3 study")
    assert time.process_time() - t < 2
    assert game.get("vp", 2) == vp + (20000 if op == "!=" else 0)


SMALL = ("let a = [1, 2, 3]\n  for i in 1..300 {{ for j in 1..300 {{ if j == 3 and a != [1] and "
         "j in a and me != none{} {{ gain 1 vp }} }} }}")


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("clause, steps", [("", 181_502), (" and [i, j] != [j, i]", 181_502 + 300 * 2)])
def test_small_values_cost_what_they_did(backend, clause, steps):
    """Comparing numbers and names and looking a number up in a list cost what they did
    before sizes were charged (181 502 steps, measured before); comparing two lists of two,
    done 300 times, costs 2 steps each."""
    body = SMALL.format(clause)
    started(harvest_with(body), backend, max_steps=steps).play("p3 study")
    with pytest.raises(ExecutionBudgetError):
        started(harvest_with(body), backend, max_steps=steps - 1).play("p3 study")


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_action_whose_comparisons_overrun_the_budget_is_not_listed(backend):
    """Listing the legal actions may skip running the inert rest of an action's body when the
    budget surely covers it (lang/inert.py): its bound counts comparisons by size too (of the
    list variables' sizes the guard checks where the rest begins: SHORT elements; these hold
    90 000, so the guard leaves them to the full try)."""
    texts = harvest_with(extra="var big: list[int] = []\nvar big2: list[int] = []\n"
                               "action probe main {\n  pay 1 coins\n"
                               "  for p in players { if big == big2 { gain 1 vp } }\n}",
                         setup="set big = 1..90000\n  set big2 = 1..90000")
    texts["h.rules"] = texts["h.rules"].replace("main buy, study", "main buy, study, probe")
    game = started(texts, backend, max_steps=200_000)
    rs = game.ruleset
    start, bound = rs.guards.inert.split(rs.actions["probe"].body, {})
    assert start == 1 and bound >= 3 * SHORT   # the loop's comparisons: the lists' length each
    assert "p3 probe" not in game.legal_actions()
    assert list(game.legal_actions()) == game._legal_by_trying()
    roomy = started(texts, backend)   # 3 x 90 000 steps fit the default budget
    assert "p3 probe" in roomy.legal_actions()


def test_a_long_chain_of_procedures_is_refused_not_a_python_recursion_error():
    """2,000 procedures each calling the next (a hostile rule file): listing the legal actions
    follows the calls' prechecks only as deep as rules may call each other, and the action is
    refused naming the depth limit (it was a RecursionError out of the listing)."""
    chain = "".join(f"action a{i} procedure {{ call a{i + 1}() }}\n" for i in range(2000))
    text = ("game g { players 2 }\nresource coins { scored true }\n" + chain
            + "action a2000 procedure { pass }\naction work main { call a0() }\n"
            "flow { rounds 1 { step play: turns seat until_pass { main work } } }\n")
    g = boardrules.new_game(texts={"g.rules": text}, players=2)
    with pytest.raises(boardrules.GameStuckError, match="rules call each other more than 100 levels deep"):
        list(g.legal_actions())
    with pytest.raises(IllegalActionError, match="more than 100 levels deep"):
        g.play("p1 work")


def test_a_long_chain_of_procedures_after_a_check_is_not_analysed_without_end():
    """The same chain behind a check, in a turn with a free action (so the action's guard is
    built: lang/guards.py): the inertness analysis and the guard's plan follow the calls only
    as deep as rules may call each other (it was a RecursionError out of the listing), and the
    action is refused as its full try refuses it."""
    chain = "".join(f"action a{i} procedure {{ call a{i + 1}() }}\n" for i in range(2000))
    text = ("game g { players 2 }\nresource coins { scored true }\n" + chain
            + "action a2000 procedure { gain 1 coins }\naction work main { pay 1 coins\n call a0() }\n"
            "action stop main { pass }\naction tip free { gain 1 coins }\n"
            "flow { rounds 1 { step play: turns seat until_pass { main work, stop\n free tip } } }\n")
    g = boardrules.new_game(texts={"g.rules": text}, players=2)
    g.play("p1 tip")   # (the coin work's check asks for)
    assert [str(a) for a in g.legal_actions()] == ["p1 stop", "p1 tip"]
    assert list(g.legal_actions()) == g._legal_by_trying()
    with pytest.raises(IllegalActionError, match="more than 100 levels deep"):
        g.play("p1 work")


# ---- option values are held to the bounds of the rules' own lists ----

OPTION_DECK = ("option deck = [1, 2]\nresource coins { }\naction work main { gain (len(deck)) coins }\n"
               "flow { rounds 1 { step play: turns seat once { main work } } }\n")


@pytest.mark.parametrize("value", [[1] * (LIMITS.max_list + 1), [[[1]]] * 40_000],
                         ids=["long", "long at every depth"])
def test_an_option_value_larger_than_the_rules_lists_is_refused(value):
    # (it was taken, a list the rules cannot build, which their analyses take as impossible)
    with pytest.raises(boardrules.OptionError, match=f"option 'deck' holds more than {LIMITS.max_list} "
                       "elements at every depth"):
        boardrules.new_game(texts={"o.rules": OPTION_DECK}, players=2, options={"deck": value})
    game = boardrules.new_game(texts={"o.rules": OPTION_DECK}, players=2, options={"deck": [1] * LIMITS.max_list})
    game.play("p1 work")
    assert game.get("coins", 0) == LIMITS.max_list


def test_a_record_with_an_option_value_of_millions_is_refused_before_it_is_walked():
    record = {"format": "boardrules-record/1", "game": "harvest", "players": 2, "seed": 1,
              "options": {"goal": [1] * 3_000_000}, "actions": []}
    with pytest.raises(boardrules.NotationError, match=r"\$\.options\.goal: expected a value of at "
                       f"most {LIMITS.max_list} elements at every depth"):
        boardrules.Record.from_json(record)


@pytest.mark.parametrize("dice", [7, 30])
def test_the_outcomes_of_many_dice_are_not_listed(dice):
    # 6^30 outcomes were listed one by one (legal_actions() of a game without auto_chance, as
    # a replay or OpenSpiel's chance_outcomes() asks, never ended); 6^7 took seconds
    texts = {"d.rules": "resource coins { }\naction go main { choose r in dice(" + str(dice) + ") by "
             "chance { gain r[0] coins } }\nflow { rounds 1 { step play: turns seat once { main go } } }\n"}
    game = boardrules.Game(boardrules.build_ruleset(texts=texts), players=2, auto_chance=False)
    game.play("p1 go")
    with pytest.raises(ExecutionBudgetError, match=f"listing the answers to 'r': the {6 ** dice} "
                       f"outcomes of {dice} dice are more than the 100000 to try"):
        len(game.legal_actions())
    roll = "chance r " + ",".join(["6"] * dice)
    assert game.is_legal(roll)
    game.play(roll)
    assert game.get("coins", 0) == 6


def test_a_stuck_game_names_rules_running_themselves_first():
    """Rules that run themselves without end (a trigger emitting its own event) are a budget
    run out, like a loop too long: the refusal is an ExecutionBudgetError, and a stuck game's
    examples show it before the ordinary refusals (it was an IllegalActionError, and the
    house rule behind an Eclipse game stuck at a pass came after four 'no disc left' and was
    cut off as 'and 9 other actions')."""
    text = ("game g { players 2 }\nresource coins { }\nevent shout(p: player)\n"
            "when shout(p) { emit shout(p) }\n"
            + "".join(f'action w{i} main {{ require coins > 0 else "no coins" }}\n' for i in range(6))
            + "action quit main { emit shout(me) }\n"
            "flow { rounds 1 { step play: turns seat once { main w0, w1, w2, w3, w4, w5, quit } } }\n")
    g = boardrules.new_game(texts={"g.rules": text}, players=2)
    with pytest.raises(boardrules.GameStuckError) as stuck:
        list(g.legal_actions())
    assert str(stuck.value).split("(e.g. ")[1].startswith("p1 quit: rules call each other more than 100")
    with pytest.raises(boardrules.ExecutionBudgetError, match="more than 100 levels deep"):
        g.play("p1 quit")
