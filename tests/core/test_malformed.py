"""The malformed-rules corpus: every file in ``malformed/`` must fail with exactly
the diagnostics in its ``.expected`` file, as a :class:`RulesError`.

A case file may start with a directive line:

* ``#! base: layers/X.rules`` — the case is a house-rule file on top of that game;
* ``#! modules: layers/X.rules`` — the case is a module enabled after module X, both
  on top of ``layers/base.rules`` (merged directly with :func:`merge`).

Set ``BOARDRULES_REGEN=1`` to rewrite the ``.expected`` files (then review the diff).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from boardrules.limits import LIMITS
from boardrules.errors import RulesError
from boardrules.lang.merge import Layer, merge
from boardrules.lang.parser import parse_text
from boardrules.ruleset import _build, build_ruleset

HERE = Path(__file__).parent / "malformed"
CASES = sorted(p.name for p in HERE.glob("*.rules"))


def _directive(text: str) -> tuple[str, str] | None:
    first = text.splitlines()[0] if text else ""
    if first.startswith("#!"):
        key, _, value = first[2:].partition(":")
        return key.strip(), value.strip()
    return None


def diagnose(name: str) -> RulesError:
    """Build the case named ``name`` (run with the corpus folder as cwd); return its error."""
    text = Path(name).read_text(encoding="utf-8")
    directive = _directive(text)
    _build.cache_clear()
    try:
        if directive is None:
            build_ruleset(texts={name: text})
        elif directive[0] == "base":
            base = directive[1]
            build_ruleset(texts={base: Path(base).read_text()}, rules=[name])
        elif directive[0] == "modules":
            base, other = "layers/base.rules", directive[1]
            layers = [Layer("tiny", "game", (parse_text(Path(base).read_text(), base),)),
                      Layer(Path(other).stem, "module", (parse_text(Path(other).read_text(), other),)),
                      Layer(Path(name).stem, "module", (parse_text(text, name),))]
            _, errors = merge(layers)
            if errors:
                raise RulesError(errors)
        else:
            raise AssertionError(f"unknown directive {directive[0]!r} in {name}")
    except RulesError as err:
        return err
    raise AssertionError(f"{name} built without errors")


def test_corpus_is_large_enough():
    assert len(CASES) >= 30


@pytest.mark.parametrize("name", CASES)
def test_malformed(name, monkeypatch):
    monkeypatch.chdir(HERE)
    err = diagnose(name)  # any other exception fails the test with its traceback
    assert isinstance(err, RulesError)
    assert err.diagnostics, "a RulesError carries at least one diagnostic"
    got = str(err).rstrip("\n") + "\n"
    expected_path = HERE / (name[:-len(".rules")] + ".expected")
    if os.environ.get("BOARDRULES_REGEN") == "1":
        expected_path.write_text(got, encoding="utf-8")
    assert got == expected_path.read_text(encoding="utf-8")
    for d in err.diagnostics:
        assert d.span.line >= 1 and d.span.column >= 1, d.format()


def test_every_expected_file_has_a_case():
    for exp in sorted(HERE.glob("*.expected")):
        assert (HERE / (exp.stem + ".rules")).exists(), exp.name


def test_all_errors_are_reported_at_once(monkeypatch):
    monkeypatch.chdir(HERE)
    err = diagnose("multi_three_errors.rules")
    assert [d.message for d in err.diagnostics] == [
        "unknown resource 'coinz'", "unknown track 'farmng'", "'coins' is not a variable"]
    assert [d.span.line for d in err.diagnostics] == [5, 6, 7]


def test_errors_of_several_files_are_reported_together(tmp_path):
    a = "game tiny { players 2..3 }\nresource coins { start 3 }\naction a main { gain 1 coinz }\n"
    b = "action b main { advance nowhere }\n"
    c = "action c main {\n"  # a syntax error in a third file
    with pytest.raises(RulesError) as info:
        build_ruleset(texts={"a.rules": a, "b.rules": b, "c.rules": c})
    files = [d.span.file for d in info.value.diagnostics]
    assert files == ["a.rules", "b.rules", "c.rules"]


def test_file_over_one_mebibyte():
    filler = "# padding to make a generated rule file too large\n"
    text = "game tiny { players 2..3 }\n" + filler * (LIMITS.max_file_bytes // len(filler) + 1)
    assert len(text.encode()) > LIMITS.max_file_bytes
    with pytest.raises(RulesError) as info:
        build_ruleset(texts={"huge.rules": text})
    (d,) = info.value.diagnostics
    assert d.format().splitlines()[0] == f"huge.rules:1:1: rule file is larger than {LIMITS.max_file_bytes} bytes"
    assert "hint: split it into several files" in d.format()


def test_file_of_exactly_one_mebibyte_is_read():
    head = "game tiny { players 2..3 }\n"
    text = head + "#" * (LIMITS.max_file_bytes - len(head) - 1) + "\n"
    assert len(text.encode()) == LIMITS.max_file_bytes
    rf = parse_text(text, "big.rules")
    assert len(rf.items) == 1


def test_nesting_limit_is_exact():
    ok = "var x: int = " + "(" * (LIMITS.max_nesting - 1) + "1" + ")" * (LIMITS.max_nesting - 1) + "\n"
    parse_text("game g { players 1..2 }\n" + ok)
    deep = "var x: int = " + "(" * (LIMITS.max_nesting + 1) + "1" + ")" * (LIMITS.max_nesting + 1) + "\n"
    with pytest.raises(RulesError, match="nested deeper than 48"):
        parse_text(deep)


def test_brackets_in_text_and_comments_do_not_count():
    text = ('game g { title "' + "(" * 60 + '"; players 1..2 }\n'
            "# " + "{" * 60 + "\n")
    assert parse_text(text).items


def test_non_utf8_file(tmp_path):
    path = tmp_path / "latin1.rules"
    path.write_bytes("game g { title \"Caf\xe9\" }\n".encode("latin-1"))
    from boardrules.lang.parser import parse_file
    with pytest.raises(RulesError, match="not UTF-8"):
        parse_file(path)


def test_every_diagnostic_of_the_corpus_has_a_hint(monkeypatch):
    """A new user gets the place, the line and a hint for every error (the new-user trial)."""
    monkeypatch.chdir(HERE)
    bare = [d.format().splitlines()[0] for name in CASES for d in diagnose(name).diagnostics if not d.hint]
    assert not bare, bare


@pytest.mark.parametrize("newline", ["\r", "\r\n", "\n"])
def test_old_mac_line_endings_are_line_breaks_with_their_places(newline):
    """A file saved with '\\r' alone between lines (old Mac) reads as one with '\\n' (the trial
    found "expected end of line"), and its errors are placed by those lines."""
    good = newline.join(["game g {", "  players 1..2", "}", "var x: int = 1", ""])
    assert len(parse_text(good, "mac.rules").items) == 2
    bad = newline.join(["game g {", "  players 1..2", "}", "var x: int = = 1", ""])
    with pytest.raises(RulesError) as info:
        parse_text(bad, "mac.rules")
    (d,) = info.value.diagnostics
    assert d.format().splitlines()[:2] == ["mac.rules:4:14: unexpected '='", "    var x: int = = 1"]
    unknown = newline.join(["game g {", "  players 1..2", "}", "var x: int = nope", ""])
    with pytest.raises(RulesError) as info:
        build_ruleset(texts={"mac.rules": unknown})
    assert info.value.diagnostics[0].format().splitlines()[:2] == [
        "mac.rules:4:14: unknown name 'nope'", "    var x: int = nope"]


@pytest.mark.parametrize("page", ["\f", " \f ", "\f# the next page"])
def test_a_form_feed_is_a_space_even_on_a_line_of_its_own(page):
    """A form feed (an editor's page break, '^L') is a space as a tab is, also on an otherwise
    blank line between items or statements (there it said 'unexpected end of line'); it ends
    no line, so the errors after it keep their lines."""
    good = "\n".join(["game g {", "  players 1..2", page, "}", page, "var x: int = 1",
                      "action a main {", page, "  set x = 2", "}", ""])
    assert len(parse_text(good, "page.rules").items) == 3
    bad = "\n".join(["game g {", "  players 1..2", "}", page, "var x: int = = 1", ""])
    with pytest.raises(RulesError) as info:
        parse_text(bad, "page.rules")
    (d,) = info.value.diagnostics
    assert d.format().splitlines()[0] == "page.rules:5:14: unexpected '='"


@pytest.mark.parametrize("text, shown", [
    ("\ufeffvar x: int = 1\n", ["    var x: int = 1", "    ^"]),
    ("var x: int = 1\rvar y: int = 2\r", ["    var x: int = 1", "    ^"]),
    ("\ufeff", []),
])
def test_a_diagnostic_shows_the_line_as_the_parser_read_it(text, shown):
    """A diagnostic made from the file's text as given (rules with no flow step) showed a
    byte-order mark as '\\ufeff' before the line, an old Mac file's lines as one line with
    '\\r' in it, and a file of only a byte-order mark as an empty line with a caret."""
    with pytest.raises(RulesError) as info:
        build_ruleset(texts={"a.rules": text}).check_playable()
    (d,) = info.value.diagnostics
    assert d.format().splitlines()[1:-1] == shown
