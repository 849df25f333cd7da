"""Fuzzing the rules language: valid rule files, mutated token by token (deleted,
duplicated, swapped, random text inserted), must check and build or fail with a
:class:`RulesError` whose every diagnostic has a position; never another exception.
A file that builds must also start a game or refuse with a :class:`BoardrulesError`."""

from __future__ import annotations

import os
import re
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.core.test_fuzz_grammar import builds_or_says_where

ROOT = Path(__file__).resolve().parents[2]
SOURCES = {
    "harvest.rules": (Path(__file__).parent / "rules" / "harvest.rules").read_text(),
    "techs.rules": (ROOT / "plugins" / "boardrules_eclipse" / "rules" / "techs.rules").read_text(),
}
# tokens as the grammar sees them: names, numbers, texts, operators, brackets, newlines
TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|[A-Za-z_][A-Za-z0-9_]*|[0-9]+|\.\.|[=!<>]=|//|\n|[ \t]+|.')
EXAMPLES = int(os.environ.get("BOARDRULES_FUZZ_EXAMPLES", "40"))


def tokens(text: str) -> list[str]:
    return TOKEN.findall(text)


@st.composite
def mutated(draw):
    name = draw(st.sampled_from(sorted(SOURCES)))
    toks = tokens(SOURCES[name])
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(toks) - 1))
        kind = draw(st.sampled_from(["delete", "duplicate", "swap", "insert", "replace"]))
        if kind == "delete":
            del toks[i]
        elif kind == "duplicate":
            toks.insert(i, toks[i])
        elif kind == "swap":
            j = draw(st.integers(0, len(toks) - 1))
            toks[i], toks[j] = toks[j], toks[i]
        else:
            other = draw(st.one_of(st.text(max_size=6), st.sampled_from(toks)))
            if kind == "insert":
                toks.insert(i, other)
            else:
                toks[i] = other
    return name, "".join(toks)


@settings(max_examples=EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(mutated())
def test_mutated_rule_files_fail_only_with_positioned_rules_errors(case):
    builds_or_says_where(*case)
