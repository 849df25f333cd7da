"""Fuzzing the rules language from its grammar: rule files drawn from ``grammars/rules.lark``
itself (``hypothesis.extra.lark.from_lark``), and the shipped rule files of every game and module
cut short, with tokens swapped, numbers made huge and expressions or blocks nested deep. Building
a ruleset of any of them either succeeds or raises :class:`RulesError` whose every diagnostic
names the file, a line and a column; never another exception, and within a bounded time and
memory (the limits of :mod:`boardrules.limits` stop what would be slow or large before it is).
``BOARDRULES_FUZZ_EXAMPLES`` sets the examples per test (CI: the default, derandomised)."""

from __future__ import annotations

import os
import re
import time
import tracemalloc
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import lark
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark

import boardrules
from boardrules import BoardrulesError, RulesError
from boardrules.lang.parser import grammar_path

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = {str(p.relative_to(ROOT)): p.read_text(encoding="utf-8")
           for p in sorted(ROOT.glob("plugins/*/*/*.rules"))}
EXAMPLES = int(os.environ.get("BOARDRULES_FUZZ_EXAMPLES", "40"))
SECONDS = 60.0        # (CPU seconds one build may take: the largest shipped file checks in under 2)
PEAK_BYTES = 400 << 20   # (memory one build may hold at its peak: a Gaia game's rules take ~60 MB)

GRAMMAR = lark.Lark(grammar_path().read_text(encoding="utf-8"), parser="lalr")


def _terminals() -> dict[str, st.SearchStrategy[str]]:
    """How each terminal is drawn: keywords and names followed by a space (from_lark joins
    tokens with no space between them unless it draws an ignored one: 'resourcecoins' would be
    one name), numbers small or huge, short texts, ends of line, and blanks without a lone
    carriage return (which reading a file turns into a line break)."""
    out: dict[str, st.SearchStrategy[str]] = {
        t.name: st.just(t.pattern.value + " ") for t in GRAMMAR.terminals
        if isinstance(t.pattern, lark.lexer.PatternStr) and t.pattern.value.isalpha()}
    ignored = [t.name for t in GRAMMAR.terminals if t.name.startswith("__IGNORE")]
    out.update({
        "NAME": st.from_regex(r"[a-z_][a-z0-9_]{0,4}", fullmatch=True).map(lambda s: s + " "),
        "INT": st.one_of(st.integers(0, 12).map(str), st.integers(0, 10 ** 30).map(str),
                         st.integers(19, 3000).map(lambda n: "9" * n)),
        "STRING": st.from_regex(r'"[a-z ]{0,6}"', fullmatch=True),
        "_NL": st.sampled_from(["\n", ";", "  # note\n", "\n\n"]),
        **{name: st.sampled_from([" ", "\t", "\\\n"]) for name in ignored},
    })
    return out


DRAWN = from_lark(GRAMMAR, explicit=_terminals())

TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|[A-Za-z_][A-Za-z0-9_]*|[0-9]+|\.\.|[=!<>]=|//|\n|[ \t]+|.')


@st.composite
def mutated(draw: st.DrawFn) -> tuple[str, str]:
    """A shipped rule file changed by one to three of: cut short, two tokens swapped, a number
    made huge, an expression nested in many brackets, a statement nested in many blocks, a long
    chain of operators."""
    name = draw(st.sampled_from(sorted(SHIPPED)))
    text = SHIPPED[name]
    for _ in range(draw(st.integers(1, 3))):
        toks = TOKEN.findall(text)
        if not toks:
            break
        i = draw(st.integers(0, len(toks) - 1))
        kind = draw(st.sampled_from(["truncate", "swap", "huge", "brackets", "blocks", "chain"]))
        depth = draw(st.sampled_from([2, 40, 60, 300, 3000]))
        if kind == "truncate":
            text = text[:draw(st.integers(0, len(text)))]
            continue
        if kind == "swap":
            j = draw(st.integers(0, len(toks) - 1))
            toks[i], toks[j] = toks[j], toks[i]
        numbers = [k for k, t in enumerate(toks) if t.isdigit()]
        names = [k for k, t in enumerate(toks) if t[:1].isalpha() or t[:1] == "_"]
        if kind == "huge" and numbers:
            k = draw(st.sampled_from(numbers))
            toks[k] = draw(st.sampled_from(["9" * 19, str(2 ** 63), "1" * depth]))
        elif kind == "brackets" and names:
            k = draw(st.sampled_from(names))
            opening, closing = draw(st.sampled_from([("(", ")"), ("[", "]"), ("{", "}")]))
            toks[k] = opening * depth + toks[k] + closing * depth
        elif kind == "blocks":
            k = draw(st.sampled_from([k for k, t in enumerate(toks) if t == "\n"] or [0]))
            toks[k] = "\n" + "if true {\n" * depth + "gain 1 vp\n" + "}\n" * depth
        elif kind == "chain" and numbers:
            k = draw(st.sampled_from(numbers))
            op = draw(st.sampled_from([" + ", " * ", " and ", " == ", ".."]))
            toks[k] = op.join([toks[k]] * depth) if op != " == " else "not " * depth + toks[k]
        text = "".join(toks)
    return name, text


def builds_or_says_where(name: str, text: str) -> None:
    """Build rules of ``text`` (file ``name``): a ruleset, and a game of it started and three
    moves played or refused with a BoardrulesError; or a RulesError placing every diagnostic;
    within SECONDS of CPU time and PEAK_BYTES of memory."""
    with bounded():
        try:
            rs = boardrules.build_ruleset(texts={name: text})
        except RulesError as err:
            placed(err, name)
            return
        try:
            game = boardrules.Game(rs, max(rs.players[0], min(3, rs.players[1])), max_steps=20_000)
            for action in list(game.legal_actions())[:3]:
                game.play(action)
        except BoardrulesError:
            pass


def placed(err: RulesError, name: str | None = None) -> None:
    """Every diagnostic of ``err`` has a message and a line and column (in file ``name``)."""
    assert err.diagnostics
    for d in err.diagnostics:
        assert (name is None or d.span.file == name) and d.span.line >= 1 and d.span.column >= 1, d
        assert d.message


@contextmanager
def bounded() -> Iterator[None]:
    """The block takes under SECONDS of CPU time and PEAK_BYTES of memory at its peak."""
    tracemalloc.start()
    start = time.process_time()
    try:
        yield
    finally:
        seconds, peak = time.process_time() - start, tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        assert seconds < SECONDS, f"{seconds:.1f} s CPU"
        assert peak < PEAK_BYTES, f"{peak >> 20} MiB at the peak"


@settings(max_examples=EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(DRAWN)
def test_rule_files_drawn_from_the_grammar_build_or_fail_with_a_place(text):
    builds_or_says_where("drawn.rules", text)


@settings(max_examples=EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(mutated())
def test_shipped_rule_files_mutated_build_or_fail_with_a_place(case):
    builds_or_says_where(*case)


MODULE_FILES = {name: game for name, game in (
    (n, "harvest" if "demo" in n else "eclipse" if "eclipse" in n else "gaia-project") for n in SHIPPED)
    if "/modules/" in name or ("eclipse_" in name)}
"""The module files (and the Eclipse modules' rule files), each with its game: mutated, they
are house rules over the game, so the merge, the checker and the compiler meet them with the
game's definitions and primitives."""


@st.composite
def mutated_module(draw: st.DrawFn) -> tuple[str, str, str]:
    name, text = draw(mutated().filter(lambda case: case[0] in MODULE_FILES))
    return MODULE_FILES[name], name, text


@settings(max_examples=max(4, EXAMPLES // 4), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much])
@given(mutated_module())
def test_mutated_module_files_as_house_rules_build_or_fail_with_a_place(tmp_path_factory, case):
    game, name, text = case
    path = tmp_path_factory.mktemp("house") / Path(name).name
    path.write_text(text, encoding="utf-8")
    with bounded():
        try:
            boardrules.build_ruleset(game, rules=[path])
        except RulesError as err:
            placed(err)   # (in the house rules, or a game's file they break)
