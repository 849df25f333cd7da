"""docs/eclipse.md: its Python blocks run, in order, as one program; every decision label and
turn action its notation tables name exists in the rules."""

from __future__ import annotations

import re
from pathlib import Path

import boardrules

DOC = Path(__file__).resolve().parents[2] / "docs" / "eclipse.md"


def test_python_blocks_run(capsys):
    text = DOC.read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert blocks
    env: dict = {}
    exec(compile("\n".join(blocks), str(DOC), "exec"), env)   # noqa: S102 - our own doc


def test_notation_tables_name_real_actions_and_labels():
    import boardrules_eclipse

    rs = boardrules.build_ruleset("eclipse")
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("## The notation"):text.index("## Hidden information")]
    names = set(re.findall(r"`(?:p1|p2|chance) ([a-z_]+)", section))
    labels = set()
    rules_dir = Path(boardrules_eclipse.__file__).resolve().parent / "rules"
    for f in sorted(rules_dir.glob("*.rules")):
        labels |= set(re.findall(r"\b(?:choose|draw) ([a-z_]+) ", f.read_text(encoding="utf-8")))
    missing = {n for n in names if n not in rs.actions and n not in labels and n != "done"}
    assert not missing, missing
