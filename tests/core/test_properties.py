"""Property tests of the core.

(a) The closure compiler and the tree-walking interpreter agree on random effect
    blocks: same resulting :class:`State`, or the same :class:`IllegalActionError`.
(b) Random legal play of ``harvest.rules``: save/load and undo round-trip, illegal
    actions change nothing, resources stay within caps, scores add up.
"""

from __future__ import annotations

import linecache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardrules.errors import GameStuckError, IllegalActionError, NotationError
from boardrules.game import Action, load_game, new_game

HARVEST = (Path(__file__).parent / "rules" / "harvest.rules").read_text()

# ---- (a) the two back ends agree ------------------------------------------------

PRELUDE = """\
game t { players 2..2 }
resource a { start 3; cap 9 }
resource b { start 2; floor 1 }
resource vp { scored true }
var x: int = 1
var y: int per player = 2
var l: list[int] = [1, 2, 3]
action go main {
BODY
}
action tick procedure { gain 1 vp }
action bump(n: int in 0..9) procedure {
  require n < 9 else "too far"
  set x = x + n
}
action shift(n: int in 0..9, m: int in 0..9) procedure { set y = y + n - m }
flow { rounds 1 { step play: turns seat once { main go } } }
"""

INT_NAMES = ["a", "b", "x", "y", "vp"]


def int_expr(local: tuple[str, ...] = ()):
    leaves = st.one_of(
        st.integers(-3, 12).map(str),
        st.sampled_from(INT_NAMES + list(local)),
        st.just("len(l)"),
        st.sampled_from(["(a of 1)", "(x)", "(count v in l where v > 1)", "(sum v for v in l)"]),
    )

    def extend(inner):
        return st.one_of(
            st.tuples(inner, st.sampled_from(["+", "-", "*", "//", "%"]), inner).map(
                lambda t: f"({t[0]} {t[1]} {t[2]})"),
            inner.map(lambda e: f"(-{e})"),
            st.tuples(st.sampled_from(["min", "max"]), inner, inner).map(
                lambda t: f"{t[0]}({t[1]}, {t[2]})"),
            inner.map(lambda e: f"abs({e})"),
            st.tuples(inner, inner).map(lambda t: f"(count v in l where v * {t[0]} > {t[1]})"),
        )
    return st.recursive(leaves, extend, max_leaves=6)


def bool_expr(local=()):
    e = int_expr(local)
    cmp = st.tuples(e, st.sampled_from(["==", "!=", "<", "<=", ">", ">="]), e).map(
        lambda t: f"{t[0]} {t[1]} {t[2]}")
    member = e.map(lambda x: f"{x} in l")
    base = st.one_of(cmp, member, st.sampled_from(["true", "false"]))
    return st.recursive(base, lambda inner: st.one_of(
        st.tuples(inner, st.sampled_from(["and", "or"]), inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        inner.map(lambda b: f"not ({b})"),
        st.just("(any v in l where v == x)"), st.just("(all v in l where v > 0)")), max_leaves=4)


@st.composite
def statements(draw, depth=0, local=()):
    e = lambda: draw(int_expr(local))  # noqa: E731
    kinds = ["gain", "pay", "lose", "set_x", "set_y", "set_l", "require", "let", "call"]
    if depth < 2:
        kinds += ["if", "for"]
    kind = draw(st.sampled_from(kinds))
    res = draw(st.sampled_from(["a", "b", "vp"]))
    if kind == "gain":
        to = draw(st.sampled_from(["", " to 1", " to 0"]))
        return [f"gain ({e()}) {res}{to}"]
    if kind == "pay":
        return [f"pay ({e()}) {res}"]
    if kind == "lose":
        return [f"lose ({e()}) {res}"]
    if kind == "set_x":
        return [f"set x = {e()}"]
    if kind == "set_y":
        of = draw(st.sampled_from(["", " of 1"]))
        return [f"set y{of} = {e()}"]
    if kind == "set_l":
        return [f"set l = l + [{e()}]"]
    if kind == "require":
        return [f'require {draw(bool_expr(local))} else "nope"']
    if kind == "let":
        return [f"set x = x + {e()}"]
    if kind == "call":   # procedures of no, one and two parameters (compiled each its own way)
        return [draw(st.sampled_from(["call tick()", f"call bump({e()})",
                                      f"call shift({e()}, {e()})"]))]
    body = draw(blocks(depth + 1, local + (("v",) if kind == "for" else ())))
    if kind == "if":
        other = draw(blocks(depth + 1, local))
        return [f"if {draw(bool_expr(local))} {{", *body, "} else {", *other, "}"]
    return [f"for v in l where {draw(bool_expr(local + ('v',)))} {{", *body, "}"]


@st.composite
def blocks(draw, depth=0, local=()):
    n = draw(st.integers(1, 4 if depth == 0 else 2))
    out = []
    for _ in range(n):
        out.extend(draw(statements(depth, local)))
    return out


def _outcome(text: str, backend: str):
    g = new_game(texts={"random.rules": text}, players=2, backend=backend)
    start = g.state
    try:
        g.play("p1 go")
    except IllegalActionError as err:
        assert g.state is start  # the refused action changed nothing
        return ("illegal", str(err), g.state)
    return ("ok", "", g.state)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(blocks())
def test_backends_agree_on_random_effects(body):
    text = PRELUDE.replace("BODY", "\n".join(body))
    compiled = _outcome(text, "compiled")
    interpreted = _outcome(text, "interpreted")
    assert compiled[0] == interpreted[0], text
    assert compiled[1] == interpreted[1], text
    assert compiled[2] == interpreted[2], text


@settings(max_examples=60, deadline=None)
@given(int_expr())
def test_backends_agree_on_random_expressions(expr):
    text = PRELUDE.replace("BODY", f"set x = {expr}\nset y = {expr} + y")
    assert _outcome(text, "compiled") == _outcome(text, "interpreted")


def test_backends_agree_on_a_known_division_by_zero():
    text = PRELUDE.replace("BODY", "gain 1 a\nset x = 3 // (x - 1)")
    c, i = _outcome(text, "compiled"), _outcome(text, "interpreted")
    assert c == i and c[0] == "illegal" and "division by zero" in c[1]


@pytest.mark.parametrize("expr,value", [
    ("min(x - 4, 0 - 3)", -3), ("max(0, x - 5)", 0), ("min(x, x)", 1), ("max(x - 9, x - 9)", -8),
    ("abs(x - 8)", 7), ("(x - 8) // 2", -4), ("(x - 8) % 3", 2), ("7 % (0 - 2)", -1),
])
def test_backends_agree_on_the_whole_number_shortcuts(expr, value):
    """The compiler's own min/max of two numbers, abs, // and % (codegen: without the general
    built-in or operator) give the interpreter's values, and refuse a zero divisor alike."""
    text = PRELUDE.replace("BODY", f"set x = {expr}")
    c, i = _outcome(text, "compiled"), _outcome(text, "interpreted")
    assert c == i and c[2].values.get(("v", "x"), 1) == value   # (1: the default, not kept)
    text = PRELUDE.replace("BODY", "gain 1 a\nset x = 3 % (x - 1)")
    c, i = _outcome(text, "compiled"), _outcome(text, "interpreted")
    assert c == i and c[0] == "illegal" and "division by zero" in c[1]


@pytest.mark.parametrize("expr,value", [
    ("x in l", True), ("x not in l", False), ("(x + 5) in l", False), ("(x + 5) not in l", True),
    ("\"q\" in [\"p\", \"q\"]", True), ("true in l", True), ("[1] in [[1], [2]]", True),
    ("\"" + "t" * 70 + "\" in [\"" + "t" * 70 + "\"]", True), ("x in 0..5000", True),
    ("holds(tool)", True), ("holds(saw)", False),
    # (holds(x) of a number or a text: refused, by the checker where the type is known, else
    # alike by both back ends: test_builtin_arguments.py)
])
def test_backends_agree_on_membership_and_holds(expr, value):
    """The compiler's own `in` of a number or short text in a list and `holds` of an entity's
    name (codegen: without the general comparison or built-in) give the interpreter's values,
    charge the budget alike, and anything else goes the general way."""
    text = PRELUDE.replace("BODY", f"take tool\nif {expr} {{ set x = 7 }}\nset y = (count v in 0..900 where v in l)") \
        + "kind gear { }\ngear tool { }\ngear saw { }\n"
    c, i = _outcome(text, "compiled"), _outcome(text, "interpreted")
    assert c == i and c[0] == "ok", (c, i)
    assert (c[2].values.get(("v", "x"), 1) == 7) is value
    refusals = []   # (the budget charged alike: 901 tests of `v in l` cost more than it has)
    for backend in ("compiled", "interpreted"):
        g = new_game(texts={"t.rules": text}, players=2, max_steps=2_000, backend=backend)
        try:
            g.play("p1 go")
            refusals.append(None)
        except IllegalActionError as err:
            refusals.append(str(err))
    assert refusals[0] == refusals[1] and refusals[0] is not None and "steps" in refusals[0]


@pytest.mark.parametrize("body", [
    # a quantifier's variable hides a rule binding of the same name, inside and across nesting
    "for v in l {\n  set x = x + (count v in l where v > 1) + v\n}",
    "let v = 7\nset x = (sum v * (count w in l where w < v) for v in l) + v",
    "set x = (count v in l where (any w in l where w * v == 6))",
    "let k = 2\nset x = (sum (v of 1) for v in [a, b, k]) + (count p in players where y of p > k)",
    "set x = (count v in l where (y of 1) > v and (a of (v // 2)) > 0)",
])
def test_backends_agree_on_bindings_inside_quantifiers(body):
    """The compiled back end keeps a quantifier's variable as a Python local of the generated
    code (the interpreter binds it in the environment): both resolve names alike."""
    text = PRELUDE.replace("BODY", body)
    assert _outcome(text, "compiled") == _outcome(text, "interpreted")


def _choice_outcome(text: str, backend: str):
    """What listing and then playing ``p1 go`` (which queues a choice) give under ``backend``:
    the actions listed before and after (a choice's options are its answers), or the refusal."""
    g = new_game(texts={"random.rules": text}, players=2, backend=backend)

    def listed():
        try:
            return [str(a) for a in g.legal_actions()]
        except GameStuckError as err:   # (nothing legal: the refusal says why)
            return str(err)
    before = listed()
    try:
        g.play("p1 go")
    except IllegalActionError as err:
        return before, ("illegal", str(err))
    return before, listed()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bool_expr(("c",)))
def test_backends_agree_on_a_choice_filter(cond):
    """A ``choose``'s ``where`` compiled as one loop over the options, the option a Python local
    (codegen ``ExprCompiler.filter``; the interpreter binds each in the environment): the same
    options admitted, the same first one when a listing cuts the choice short, the same
    refusal when the test breaks a rule on one of them."""
    text = PRELUDE.replace("BODY", f'choose c in l + [x, 0 - 2, 5] where {cond} "pick" {{ set x = c }}')
    assert _choice_outcome(text, "compiled") == _choice_outcome(text, "interpreted"), text


@pytest.mark.parametrize("body", [
    # the option hides a binding of its name; a quantifier's variable hides the option
    'let c = 9\nchoose c in l where c < 3 "pick" { set x = c }',
    'choose c in l where (count c in [c, 5, 6] where c > 4) == 2 and c > 1 "pick" { set x = c }',
    # the option read inside `of` (a deferred evaluation) and by a procedure's parameters
    'choose c in [0, 1] where (y of c) > 1 "pick" { call bump(c) }',
    'choose c in l where x // (c - 2) > 0 "pick" { set x = c }',
])
def test_backends_agree_on_choice_filters_that_bind(body):
    text = PRELUDE.replace("BODY", body)
    assert _choice_outcome(text, "compiled") == _choice_outcome(text, "interpreted")


def test_a_choice_filter_is_one_generated_loop():
    """The compiled back end tests a choice's options in one generated function (registered
    with linecache under the ``where``'s place), not one call of the ``where`` per option."""
    text = PRELUDE.replace("BODY", 'choose c in l where c > 1 "pick" { set x = c }')
    g = new_game(texts={"filter.rules": text}, players=2)
    g.play("p1 go")
    assert [str(a) for a in g.legal_actions()] == ["p1 c 2", "p1 c 3"]
    sources = ["".join(lines) for name, (_, _, lines, _) in list(linecache.cache.items())
               if name.startswith("<rules filter.rules:")]
    assert any("def rule_filter(ctx, opts, first):" in src for src in sources)


def test_generated_rule_code_is_in_linecache():
    """Tracebacks through compiled expressions show the generated line, named by its rule."""
    import linecache

    rs = new_game(texts={"random.rules": PRELUDE.replace("BODY", "set x = x + 1")}, players=2).ruleset
    fn = rs.caps["a"]
    code = fn.__code__
    assert code.co_filename.startswith("<rules random.rules:")
    # (line 2 is the 'try:' that places errors raised without a position at the expression)
    assert linecache.getline(code.co_filename, code.co_firstlineno + 2).strip() == "return 9"


def test_expressions_alike_compile_once_and_keep_their_own_names(monkeypatch):
    """Expressions generating the same source share one compile (lang/codegen.py); each
    function, its generator's code included, still names its own place in the rules."""
    import boardrules.lang.codegen as codegen

    compiled: list[str] = []

    def counting(src, filename, mode):
        compiled.append(src)
        return compile(src, filename, mode)

    monkeypatch.setattr(codegen, "compile", counting, raising=False)
    text = PRELUDE.replace("resource b { start 2; floor 1 }",
                           "resource b { start 2; cap (count v in l where v > 1) }\n"
                           "resource c { cap (count v in l where v > 1) }").replace("BODY", "pass")
    rs = new_game(texts={"alike.rules": text}, players=2).ruleset
    b, c = rs.caps["b"].__code__, rs.caps["c"].__code__
    assert b.co_code == c.co_code
    assert compiled.count(next(s for s in compiled if "_dom(ctx" in s)) == 1
    assert b.co_filename.startswith("<rules alike.rules:3:28 #")
    assert c.co_filename.startswith("<rules alike.rules:4:19 #")
    for code in (b, c):
        inner = [k for k in code.co_consts if hasattr(k, "co_filename")]
        assert inner and all(k.co_filename == code.co_filename for k in inner)


# ---- (b) random legal play of harvest.rules ------------------------------------------

CAPS = {"coins": 12, "grain": 9}


def check_invariants(g) -> None:
    for p in range(g.players):
        for res, cap in CAPS.items():
            assert 0 <= g.get(res, p) <= cap
        assert g.get("vp", p) >= 0
        assert 0 <= g.get("farming", p) <= 3
        assert 0 <= g.get("farm", p) <= 4
    for s in g.scores():
        assert s["total"] == sum(s["sources"].values())


def try_illegal(g, rnd) -> None:
    """Every non-legal candidate (a few, chosen at random) and malformed actions are refused
    without touching the state."""
    legal = set(g.legal_actions())
    illegal = [a for a in g.candidates() if a not in legal]
    actor = sorted(g.players_to_act())[0] if g.players_to_act() else 0
    illegal += [Action(actor, "no_such_action"), Action(actor, "sell", (99,)),
                Action(actor, "build_farm", ("zz9",)), Action(actor, "buy", ()),
                Action((actor + 1) % g.players, "study"), Action(actor, "done", ("x",))]
    before, h = g.state, hash(g.state)
    snapshot = dict(before.values), before.pending
    nrec, nlog = len(g.record.actions), len(g.log)
    for a in rnd.sample(illegal, min(len(illegal), 4)):
        if a in legal:
            continue
        with pytest.raises(IllegalActionError):
            g.play(a)
        assert g.state is before and hash(g.state) == h
        assert (dict(g.state.values), g.state.pending) == snapshot
        assert (len(g.record.actions), len(g.log)) == (nrec, nlog)
    for text in ("p9 study", "p1", "nobody study"):
        with pytest.raises(NotationError):
            g.play(text)
        assert g.state is before


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 4), seed=st.integers(0, 10**6), rnd=st.randoms(use_true_random=False),
       backend=st.sampled_from(["compiled", "interpreted"]))
def test_random_play_of_harvest(players, seed, rnd, backend):
    g = new_game(texts={"harvest.rules": HARVEST}, players=players, seed=seed, backend=backend)
    check_invariants(g)
    moves = 0
    while not g.over and moves < 200:
        legal = list(g.legal_actions())
        assert legal, "a game that is not over has a legal action"
        if moves % 5 == 0:
            try_illegal(g, rnd)
        action = rnd.choice(legal)
        before = g.state
        g.play(action)
        after = g.state
        check_invariants(g)
        if moves % 7 == 0:
            assert load_game(g.save()).state == after
        if g.record.actions[0:1] != [] and len(g._history) > 0 and moves % 3 == 0:
            g.undo()
            assert g.state == before
            g.play(action)
            assert g.state == after
        moves += 1
    assert g.over
    assert load_game(g.save()).state == g.state
    assert g.players_to_act() == frozenset() and not list(g.legal_actions())


def test_harvest_save_load_keeps_pending_decisions():
    g = new_game(texts={"harvest.rules": HARVEST}, players=2, seed=5)
    g.play("p2 buy reap")
    g.play("p1 study")  # setup done; round 1: seat order from p1
    g.play("p1 build_farm a1")
    g.play("p1 done")  # the actions step has a free action (sell): turns end with 'done'
    g.play("p2 build_farm a2")
    g.play("p2 done")
    # after p2's turn, p1 (another farm owner) may take a neighbour bonus
    assert g.state.pending and g.state.pending[0].player == 0
    h = load_game(g.save())
    assert h.state == g.state
    assert sorted(map(str, h.legal_actions())) == sorted(map(str, g.legal_actions()))


def test_property_tests_have_no_deadline_locally_or_in_ci():
    """Hypothesis's default 200 ms deadline per example made a test fail on a slow first example
    (the grammar's parser built cold: test_a_control_character_in_any_text_is_an_error_at_the_text
    took 349 ms): the suite's profiles have none, so no test depends on the machine's speed."""
    assert settings.default.deadline is None
    assert settings.get_profile("ci").deadline is None
