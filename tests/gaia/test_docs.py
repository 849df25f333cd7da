"""``docs/gaia-project.md`` is tested: its Python blocks run, in order, as one program (with
their asserts); it documents every faction, every option and every main action of the rules;
and ``boardrules replay`` of an unreadable site log behaves as it says."""

from __future__ import annotations

import re
from pathlib import Path

import boardrules

REPO = Path(__file__).resolve().parents[2]
PAGE = REPO / "docs" / "gaia-project.md"
FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```\s*$", re.S | re.M)


def blocks() -> list[tuple[str, str, int]]:
    """(info string, text, line number) of every fenced block of the page."""
    text = PAGE.read_text(encoding="utf-8")
    return [(m.group(1).strip(), m.group(2), text.count("\n", 0, m.start()) + 1)
            for m in FENCE.finditer(text)]


def test_python_examples_run():
    namespace: dict = {"__name__": "gaia_project_md"}
    code = [(t, line) for info, t, line in blocks() if info == "python"]
    assert code
    for text, line in code:
        exec(compile(text, f"docs/gaia-project.md:{line}", "exec"), namespace)


def test_page_names_every_faction_option_and_action():
    text = PAGE.read_text(encoding="utf-8")
    rs = boardrules.build_ruleset("gaia-project")
    missing = [f for f in rs.by_kind["faction"] if f"`{f}`" not in text]
    assert not missing, f"factions not documented: {missing}"
    options = re.findall(r"^option (\w+)", "".join(
        p.read_text(encoding="utf-8")
        for p in sorted((REPO / "plugins" / "boardrules_gaia" / "rules").glob("*.rules"))),
        re.M)
    assert options and all(f"`{o}`" in text for o in options)
    turn_actions = {n for stage in rs.stages for step in stage.steps
                    for n in (*getattr(step, "main", ()), *getattr(step, "free", ()))}
    undocumented = sorted(n for n in turn_actions if not re.search(rf"\b{n}\b", text))
    assert not undocumented, f"actions not documented: {undocumented}"


def test_replay_of_an_unreadable_site_log_is_a_clean_error(tmp_path):
    """As the page says: a line the notation parser rejects is 'error: …' naming the field and
    the column, exit code 1, no traceback."""
    import json

    from typer.testing import CliRunner

    from boardrules.cli import app
    from tests.conftest import shared_path

    data = json.loads(shared_path("gaia-records", "djfjjv4k.json").read_text(encoding="utf-8"))
    data["moves"][20] = data["moves_clean"][20] = "geodens castle 4A1"
    bad = tmp_path / "unreadable.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    res = CliRunner().invoke(app, ["replay", str(bad)], env={"COLUMNS": "200"})
    assert res.exit_code == 1
    assert "moves_clean[20]" in res.output and "castle" in res.output
    assert isinstance(res.exception, SystemExit)  # not a RecordError traceback
