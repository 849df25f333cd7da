"""Quoted texts in rule files and how errors show a file's lines (found trying hostile files as a
new user): control characters never reach a message or a terminal raw, escapes
are read in one pass, and a stray operator character gets a hint naming what the language writes."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

import boardrules
from boardrules import RulesError
from boardrules.lang import ast as A
from boardrules.lang.parser import parse_text
from boardrules.quoting import escape

# every character escape() shows as an escape, but the tab (allowed in a text, and in a line) and
# the line breaks (a '\r' alone is one: old Mac files, test_malformed.py)
CONTROL = [chr(c) for c in [*range(0x20), 0x7f, *range(0x80, 0xa0), 0x2028, 0x2029, 0x200e, 0x202e,
                            0x2066] if chr(c) not in "\t\n\r"]

FLOW = "flow { rounds 1 { step play: turns seat once { main work } } }\n"


def _message(text_literal: str) -> str:
    """The message of a ``require`` whose text is written ``text_literal`` in the file."""
    body = parse_text(f'action work main {{ require false else {text_literal} }}\n', "t.rules")
    decl = body.items[0]
    assert isinstance(decl, A.ActionDecl)
    require = decl.body.stmts[0]
    assert isinstance(require, A.Require)
    return require.message


@given(st.sampled_from(CONTROL), st.sampled_from(["require", "option", "param", "choose", "value"]))
def test_a_control_character_in_any_text_is_an_error_at_the_text(ch, where):
    text = f'"ab{ch}c"'
    lines = {"require": f"action work main {{ require false else {text} }}",
             "option": f"option bonus = 1 {text}",
             "param": f"action work(n: int in [1, 2] where n > 1 else {text}) main {{ }}",
             "choose": f"action work main {{ choose x in [1, 2] {text} {{ }} }}",
             "value": f"var v: list[int] = [] \naction work main {{ require {text} == \"x\" else \"no\" }}"}
    source = "game t { players 1..2 }\n" + lines[where] + "\n" + FLOW
    with pytest.raises(RulesError) as err:
        boardrules.new_game(texts={"t.rules": source}, players=2)
    diag = err.value.diagnostics[0]
    line = 3 if where == "value" else 2
    assert diag.message == f"a text holds the control character '{escape(ch)}'"
    assert (diag.span.line, source.split("\n")[line - 1][diag.span.column - 1:].startswith(text)) \
        == (line, True)
    assert all(c not in str(err.value) for c in CONTROL)   # the error shows it escaped, not raw


def test_a_tab_in_a_text_is_kept():
    assert _message('"a\tb"') == "a\tb"


def test_a_text_may_hold_a_zero_width_joiner_shown_escaped_in_messages():
    """Messages show format characters as escapes (test_input_bounds), but a rules text keeps
    them: a zero-width non-joiner is part of Persian words, a joiner of emoji."""
    assert _message('"می‌خواهم 👩‍🌾"') \
        == "می‌خواهم 👩‍🌾"


def test_escapes_are_read_in_one_pass():
    # \\n is a backslash and an n (it used to become a new line); \x is itself
    assert _message(r'"a\\nb"') == "a\\nb"
    assert _message(r'"a\nb"') == "a\nb"
    assert _message(r'"say \"hi\" \x \\"') == 'say "hi" \\x \\'


def test_a_shown_line_escapes_control_characters_and_the_caret_follows():
    with pytest.raises(RulesError) as err:
        parse_text("resource coins { start 1 }\n\tx \x1b[2J \u202e @\n", "c.rules")
    assert err.value.diagnostics[0].format().splitlines() == [
        "c.rules:2:4: unexpected character '\\x1b'",
        "    \tx \\x1b[2J \\u202e @",
        "    \t  ^^^^",
        "hint: names use letters, digits and '_'; text goes in double quotes"]


@pytest.mark.parametrize("char, hint", [
    ("/", "division is '//' (rounded down), the remainder '%'"),
    ("&", "write 'and'"), ("|", "write 'or'"), ("!", "write 'not' ('!=' is 'not equal')"),
    ("'", "text goes in double quotes")])
def test_an_operator_of_other_languages_gets_a_hint(char, hint):
    with pytest.raises(RulesError) as err:
        parse_text(f"var x: int = 4 {char} 2\n", "o.rules")
    diag = err.value.diagnostics[0]
    assert (diag.message, diag.hint, diag.span.column) == (f"unexpected character {char!r}", hint, 16)


def test_the_engine_s_own_hint_is_shown_whole():
    with pytest.raises(RulesError) as err:
        boardrules.new_game(texts={"t.rules": "game t { players 1..2 }\nresource coins { start 0 }\n"},
                            players=2)
    assert "e.g. 'flow { rounds 3 { step play: turns seat once { main ACTION } } }'" in str(err.value)
