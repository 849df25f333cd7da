"""The test suite's own hygiene: what the tests do must not hang on the file system."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent
LISTINGS = {"glob", "rglob", "iterdir"}   # (their order is the file system's, not the names')
ORDERLESS = {"sorted", "set", "frozenset", "len", "any", "all", "sum"}


def _unsorted_listings(tree: ast.AST) -> list[int]:
    """Lines where a loop or comprehension walks a directory listing in its own order: one
    whose result is not made order-free (``sorted``, ``set``...) by the call around it."""
    parents: dict[ast.AST, ast.AST] = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parents[child] = node
    found = []
    for node in ast.walk(tree):
        loops: list[ast.AST] = [node] if isinstance(node, (ast.For, ast.comprehension)) else []
        for loop in loops:
            it = loop.iter   # type: ignore[attr-defined]
            if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute)
                    and it.func.attr in LISTINGS):
                continue
            outer = parents.get(parents.get(loop, loop)) if isinstance(loop, ast.comprehension) \
                else None
            if isinstance(parents.get(loop), ast.SetComp) or (
                    isinstance(outer, ast.Call) and isinstance(outer.func, ast.Name)
                    and outer.func.id in ORDERLESS):
                continue
            found.append(it.lineno)
    return found


def test_no_test_walks_a_directory_in_the_file_systems_order():
    """Test ids, parameters and the first failure shown stay the same on every machine (a
    ``glob()`` lists in the order the file system keeps, which differs between checkouts)."""
    bad = [f"{path.relative_to(TESTS)}:{line}" for path in sorted(TESTS.rglob("*.py"))
           for line in _unsorted_listings(ast.parse(path.read_text(encoding="utf-8")))]
    assert bad == []


def test_the_hygiene_check_sees_an_unsorted_listing():
    src = ("for f in d.glob('*.rules'): pass\n"
           "names = [p.stem for p in d.glob('*.json')]\n"
           "ok = sorted(p.stem for p in d.glob('*.json'))\n"
           "ok2 = {p for p in d.iterdir()}\n")
    assert _unsorted_listings(ast.parse(src)) == [1, 2]


def _temp_files_made(tree: ast.AST) -> list[int]:
    """Lines that use the ``tempfile`` module (``mkdtemp()``, ``NamedTemporaryFile(delete=False)``...):
    what they make stays in /tmp unless the test removes it; pytest's ``tmp_path`` (or
    ``tests.conftest.rules_file`` where there is no fixture) is removed with its old runs."""
    return sorted({node.lineno for node in ast.walk(tree)
                   if isinstance(node, (ast.Import, ast.ImportFrom)) and (
                       getattr(node, "module", None) == "tempfile"
                       or any(alias.name == "tempfile" for alias in node.names))})


def test_no_test_leaves_temporary_files_behind():
    """``tmp*.json`` files and ``tmp*`` folders were left in /tmp after every run of the suite
    (test_cli_output's saved records, the rota tests' house-rule files; session 22)."""
    bad = [f"{path.relative_to(TESTS)}:{line}" for path in sorted(TESTS.rglob("*.py"))
           for line in _temp_files_made(ast.parse(path.read_text(encoding="utf-8")))]
    assert bad == []


def test_the_hygiene_check_sees_tempfile_used():
    src = "import tempfile\nfrom tempfile import mkdtemp\nimport os, tempfile as t\nimport json\n"
    assert _temp_files_made(ast.parse(src)) == [1, 2, 3]
