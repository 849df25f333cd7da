"""Issue 8: the Eclipse plugin's Python holds algorithms only; no technology, part, species,
ship class, NPC, structure, discovery, design or sector name appears in its code (docstrings
and comments may name them as examples)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import boardrules
import boardrules_eclipse

CONTENT_KINDS = ("tech", "part", "species", "ship_class", "npc_ship", "structure", "discovery",
                 "design", "sector")
# combat.py and odds_cli.py are the odds calculator's (worked on separately, issue 8's odds
# part): their size classes are the combat engine's ranks, checked there.
EXEMPT = {"combat.py", "odds_cli.py"}


def _code_words(source: str) -> set:
    """The words of the code's string constants, docstrings left out (rules name their
    entities by text; an identifier such as ``Galaxy.empty`` names no content)."""
    tree = ast.parse(source)
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docstrings.add(id(body[0].value))
    words = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and id(node) not in docstrings:
            words |= set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", node.value))
    return {w.lower() for w in words}


def test_no_content_name_in_the_plugin_python():
    rs = boardrules.build_ruleset("eclipse")
    names = {e for k in CONTENT_KINDS for e in rs.by_kind.get(k, ())}
    fields = {f for k in CONTENT_KINDS for e in rs.by_kind.get(k, ())
              for f in rs.entities[e].fields}
    assert {"tech_neutron_bombs", "interceptor", "ancient", "draco", "orbital"} <= names
    content = {n.lower() for n in names - fields}        # "hull" is a field and a part
    plugin = Path(boardrules_eclipse.__file__).resolve().parent
    found = {}
    for path in sorted(plugin.glob("*.py")):
        if path.name in EXEMPT:
            continue
        hits = _code_words(path.read_text(encoding="utf-8")) & content
        if hits:
            found[path.name] = sorted(hits)
    assert not found, found
