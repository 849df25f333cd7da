"""Seeds bounded wherever they come in, argument-shape errors that say what was given and what
is expected, and user text escaped in every error message (the fixes lane's defects)."""

from __future__ import annotations

import json
import sys
import unicodedata

import pytest
from hypothesis import given, strategies as st
from typer.testing import CliRunner

import boardrules
from boardrules import Action, IllegalActionError, NotationError
from boardrules.quoting import brief_value, escape
from boardrules.simulate import SimulationSpec

HUGE = int("9" * 400)


@pytest.mark.parametrize("seed", [HUGE, 2 ** 63, -2 ** 63 - 1, "x" * 201])
def test_an_oversized_seed_is_refused_by_new_game(seed):
    with pytest.raises(ValueError, match=r"expected a whole number \(from -2\^63 to 2\^63-1\) or a text "
                                         r"\(at most 200 characters, no lone surrogate\)"):
        boardrules.new_game("harvest", players=3, seed=seed)


@pytest.mark.parametrize("seed", [2 ** 63 - 1, -2 ** 63, "x" * 200, ""])
def test_seeds_at_the_bounds_are_taken(seed):
    assert boardrules.new_game("harvest", players=3, seed=seed).seed == seed


def test_a_400_digit_seed_in_a_record_is_refused_with_its_size():
    record = json.loads(boardrules.new_game("harvest", players=3, seed=1).save())
    record["seed"] = HUGE
    with pytest.raises(NotationError, match=r"\$\.seed: expected a whole number \(from -2\^63 .* not a number "
                                            r"of 400 digits"):
        boardrules.load_game(json.dumps(record))


def test_the_cli_and_simulations_refuse_an_oversized_seed():
    from boardrules.cli import app

    result = CliRunner().invoke(app, ["play", "harvest", "--players", "3", "--seed", str(2 ** 64)])
    assert result.exit_code == 1
    assert "expected a whole number (from -2^63" in " ".join(result.output.split())
    rs = boardrules.new_game("harvest", players=3).ruleset
    with pytest.raises(ValueError, match="first_seed"):
        SimulationSpec(rs, 3, 2, first_seed=HUGE)
    with pytest.raises(ValueError, match=r"the last game's seed \(first_seed \+ games - 1\) 9223372036854775808"):
        SimulationSpec(rs, 3, 2, first_seed=2 ** 63 - 1)
    assert len(SimulationSpec(rs, 3, 1, first_seed=2 ** 63 - 1).tasks()) == 1


@pytest.fixture
def game():
    return boardrules.new_game("harvest", players=3, seed=1)   # p3 is to move


@pytest.mark.parametrize("args, message", [
    ((["reap"],), "c: expected a card (a text), given a list: ['reap']"),
    ((("reap",),), "c: expected a card (a text), given a tuple: ('reap',)"),
    ((3,), "c: expected a card (a text), given a whole number: 3"),
    ((), "'buy' takes 1 argument (c: card), given 0: ()"),
    (("reap", "sow"), "'buy' takes 1 argument (c: card), given 2: ('reap', 'sow')"),
])
def test_argument_shape_errors_say_what_was_given_and_what_is_expected(game, args, message):
    """``Action(p, "buy", (["reap"],))`` said "reap is not a possible c (one of: sow, reap, ...)"."""
    before = game.state.digest()
    with pytest.raises(IllegalActionError) as err:
        game.play(Action(2, "buy", args))
    assert message in str(err.value)
    assert "is not a possible" not in str(err.value)
    assert game.state.digest() == before


def test_a_move_of_the_wrong_length_names_the_parameters(game):
    with pytest.raises(NotationError, match=r"'buy' takes 1 argument \(c: card\), given 2"):
        game.play("p3 buy reap sow")


@pytest.mark.parametrize("move", ["p3 bu\x00y reap", "p3 buy re\x00ap", "p3 buy reap\x1b[31m", "p3 \u202ebuy reap",
                                  "p\x001 buy reap", "p3 buy reap extra\x00", "p3 buy re\u2028ap",
                                  "p3 buy re\u200bap", "p3 bu\u00ady reap", "p3 buy reap\ufeff",
                                  "p3 buy reap\U000e0041"])
def test_control_characters_of_a_move_are_escaped_in_its_error(game, move):
    """A NUL (or an escape sequence, a bidirectional override) in a move was echoed raw; an
    invisible format character too ('re\u200bap is not a possible c (one of: sow, reap, ...)'
    showed as 'reap')."""
    with pytest.raises((IllegalActionError, NotationError)) as err:
        game.play(move)
    text = str(err.value)
    assert not [c for c in text if unicodedata.category(c) in ("Cc", "Cf")], repr(text)
    assert any(e in text for e in ("\\x00", "\\x1b", "\\u202e", "\\u2028", "\\u200b", "\\u00ad",
                                   "\\ufeff", "\\U000e0041")), text


@given(st.text())
def test_escape_leaves_no_control_character_and_keeps_printable_text(text):
    out = escape(text)
    assert not [c for c in out if unicodedata.category(c) in ("Cc", "Cf") or c in "\u2028\u2029"]
    printable = "".join(c for c in text if c.isprintable() and c not in "\u2028\u2029" and
                        unicodedata.category(c) != "Cf")
    if printable == text:
        assert out == text
    assert brief_value(text, 10_000) == out


@pytest.mark.parametrize("bad, shown", [("\x00", "\\x00"), ("\u202e", "\\u202e"), ("\x1b", "\\x1b"),
                                        ("\u200b", "\\u200b"), ("\u2060", "\\u2060")])
def test_a_control_character_in_a_rule_file_is_escaped_in_the_quoted_line(bad, shown):
    """The diagnostic quoted the source line raw (a NUL, an escape sequence, a bidi override);
    it is escaped now, the caret under the escape."""
    text = f'game t {{ title "T"; players 2..3 }}\naction wo{bad}rk main {{ }}\n'
    with pytest.raises(boardrules.RulesError) as err:
        boardrules.new_game(texts={"t.rules": text}, players=2)
    out = str(err.value)
    assert not [c for c in out if unicodedata.category(c) in ("Cc", "Cf") and c != "\n"], repr(out)
    lines = out.splitlines()
    assert lines[1] == f"    action wo{shown}rk main {{ }}"
    assert lines[2] == "    " + " " * len("action wo") + "^" * len(shown)


def test_every_format_character_is_escaped():
    """Every invisible format character (Unicode category Cf) of this Python's Unicode data is
    shown as an escape, a character beyond the BMP as \\U and eight digits."""
    raw = [hex(c) for c in range(sys.maxunicode + 1)
           if unicodedata.category(chr(c)) == "Cf" and escape(chr(c)) == chr(c)]
    assert not raw
    assert escape("\U000e0041") == "\\U000e0041"


def test_a_tab_before_the_error_still_puts_the_caret_under_it():
    text = 'game t { title "T"; players 2..3 }\n\taction w\x00rk main { }\n'
    with pytest.raises(boardrules.RulesError) as err:
        boardrules.new_game(texts={"t.rules": text}, players=2)
    assert str(err.value).splitlines()[1:3] == ["    \taction w\\x00rk main { }", "    \t        ^^^^"]


def test_a_record_file_name_with_control_characters_is_escaped(tmp_path):
    """``boardrules replay`` echoed the file name raw ("nonexist\\x01.json: cannot read ...")."""
    from boardrules.replay import replay_file

    path = tmp_path / "bad\x01\u202ename.json"
    with pytest.raises(NotationError) as err:
        replay_file(path)
    assert "bad\\x01\\u202ename.json: cannot read a record" in str(err.value)
    assert "\x01" not in str(err.value) and "\u202e" not in str(err.value)
    path.write_text(boardrules.new_game("harvest", players=3, seed=1).save())
    from boardrules.cli import app
    result = CliRunner().invoke(app, ["replay", str(path)], env={"COLUMNS": "300"})
    assert result.exit_code == 0 and "bad\\x01\\u202ename.json: 1 move replayed" in result.output, result.output


def test_every_space_but_the_space_is_escaped():
    """A move's words split on ' ' and tabs only, so 'p1 buy\\u00a0reap' is the action
    'buy\\u00a0reap'; the message showed it raw: "p1 buy reap: 'buy reap' is not an action of
    'pick' (there: buy, study)". Every space other than ' ' (category Zs) is an escape now."""
    raw = [hex(c) for c in range(sys.maxunicode + 1)
           if unicodedata.category(chr(c)) == "Zs" and c != 0x20 and escape(chr(c)) == chr(c)]
    assert not raw
    game = boardrules.new_game("harvest", players=2, seed=1)
    game.play("p2 buy sow")
    with pytest.raises(boardrules.IllegalActionError) as err:
        game.play("p1 buy\u00a0reap")
    assert str(err.value).startswith("p1 buy\\u00a0reap: 'buy\\u00a0reap' is not an action of 'pick'")
