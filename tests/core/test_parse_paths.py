"""The parser reduces straight to AST nodes (lang/reduce.py); lark's parse tree, walked by a
transformer, is the reference: the same nodes with the same spans (the AST's equality ignores
spans, so they are compared field by field here), and the same errors, on every rule file of
the repository, on the documentation's examples, on mutated files and on files nested too deep.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs
import lark
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardrules import RulesError
from boardrules.lang import ast as A
from boardrules.lang import parser as P
from boardrules.lang.diagnostics import as_read

from .test_docs import RULES
from .test_fuzz_rules import EXAMPLES, mutated

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted(p for d in ("plugins", "tests") for p in (ROOT / d).rglob("*.rules"))


class _FromTree(lark.Transformer[lark.Token, Any]):
    """The reference path: every node of lark's tree (positions by ``propagate_positions``)
    through the parser's own builder method for its rule."""

    def __init__(self, to_ast: Any) -> None:
        super().__init__()
        self.to_ast = to_ast

    def __default__(self, data: str, children: list[Any], meta: Any) -> Any:
        to_ast = self.to_ast
        span = A.NOWHERE if meta.empty else A.Span(to_ast.path, meta.line, meta.column,
                                                     meta.end_line, meta.end_column)
        return getattr(to_ast, data)(span, children)


def _by_tree(text: str, path: str) -> Any:
    """What parsing ``text`` gives by lark's tree: the items, or the formatted errors."""
    nested = P._nesting_diagnostic(path, text)
    if nested:
        return [nested.format()]
    source = text if text.endswith("\n") else text + "\n"
    try:
        tree = P._parser().parse(source)
    except lark.exceptions.UnexpectedInput as err:
        return [P._syntax_diagnostic(path, text, err).format()]
    deep = P._depth_diagnostic(path, text, tree)
    if deep:
        return [deep.format()]
    to_ast = P._ToAst(path, text)
    items = _FromTree(to_ast).transform(tree)
    return [d.format() for d in to_ast.errors] if to_ast.errors else _dump(items)


def _by_reductions(text: str, path: str) -> Any:
    try:
        return _dump(P._parse_cached.__wrapped__(text, path, ()).items)
    except RulesError as err:
        return [d.format() for d in err.diagnostics]


def _dump(v: Any) -> Any:
    """``v`` as nested tuples, spans included."""
    if attrs.has(type(v)):
        return (type(v).__name__,) + tuple((f.name, _dump(getattr(v, f.name)))
                                           for f in attrs.fields(type(v)))
    if isinstance(v, tuple):
        return tuple(_dump(x) for x in v)
    return (type(v).__name__, v)


def _same(text: str, path: str = "x.rules") -> None:
    text = as_read(text)   # (both paths read the text as the parser does: a lone '\r' is a line break)
    expected = _by_tree(text, path)
    assert _by_reductions(text, path) == expected


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_rule_files(path):
    _same(path.read_text(encoding="utf-8"), str(path))


def test_documentation_examples():
    for _, text, _ in RULES:
        _same(text, "example.rules")


@pytest.mark.parametrize("text", [
    "",
    "\n\n# only a comment\n",
    "game g { players 1..2 }",   # no newline at the end
    "var x: int = ((1))\nvar y: int = -(-(2))\nvar z: int = (1 + 2) * (3)\n",
    "action a main { gain (1+2) coins, 3 ore per (x) }\n",
    "var x: int = " + "1 + " * 300 + "1\n",              # too deep: the tree places it
    "var x: int = " + "- " * 300 + "1\n",
    "var x: bool = " + "not " * 100 + "true\nvar y: int = " + "1 + " * 150 + "1\n",
    "var x: int = " + "9" * 40 + "\nvar y: int = " + "8" * 30 + "\n",   # numbers too long
    "game g { players 1..2 }\naction a main { gain 1 }\n",   # a syntax error
    "\r# an old Mac line end\ngame g { players 1..2 }\n",   # (hypothesis found it: lines differed)
])
def test_edge_cases(text):
    _same(text)


@settings(max_examples=EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(mutated())
def test_mutated_files(case):
    name, text = case
    _same(text, name)


def _brackets_by_char(text: str) -> list[tuple[int, int, str]]:
    """The reference for parser._brackets: character by character."""
    out = []
    line, column = 1, 1
    in_string = in_comment = False
    for ch in text:
        if ch == "\n":
            line, column = line + 1, 1
            in_comment = in_string = False
            continue
        if not in_comment:
            if ch == '"':
                in_string = not in_string
            elif not in_string:
                if ch == "#":
                    in_comment = True
                elif ch in "({[)}]":
                    out.append((line, column, ch))
        column += 1
    return out


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet='"#({[)}]\n\r\t a\\', max_size=80))
def test_brackets_outside_texts_and_comments(text):
    assert list(P._brackets(text)) == _brackets_by_char(text)


@pytest.mark.parametrize("path", FILES[::7], ids=lambda p: p.name)
def test_brackets_of_rule_files(path):
    text = path.read_text(encoding="utf-8")
    assert list(P._brackets(text)) == _brackets_by_char(text)
