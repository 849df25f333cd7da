"""Texts that are not Unicode (a lone surrogate, ``"\\ud800"``: JSON's ``\\ud800`` escape, or
Python's surrogateescape) where texts enter the engine (the trial of session 17): a rule text
given as ``texts=`` or held in a record's house rules, and a seed, raised ``UnicodeEncodeError``
(``boardrules replay`` printed a traceback); now a ``RulesError`` at the surrogate's line and
column, and the seed's ``ValueError`` / ``NotationError``."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

import boardrules
from boardrules import NotationError, RulesError
from boardrules.cli import app

TINY = ("game tiny { players 1..2 }\nresource coins { start 0; scored true }\n"
        "action work main { gain 1 coins }\n"
        "flow { rounds 2 { step play: turns seat once { main work } } }\n")


@pytest.mark.parametrize("extra, column", [("# a comment \ud800\n", 13),
                                           ("var note: text = \"a\udcff\"\n", 20)])
def test_a_rule_text_with_a_lone_surrogate_is_a_rules_error_at_it(extra, column):
    with pytest.raises(RulesError) as err:
        boardrules.new_game(texts={"tiny.rules": TINY + extra}, players=1)
    (d,) = err.value.diagnostics
    assert (d.span.file, d.span.line, d.span.column) == ("tiny.rules", 5, column)
    assert d.message.startswith("a lone surrogate (\\u")
    assert "\\u" in str(err.value) and not any(0xD800 <= ord(c) <= 0xDFFF for c in str(err.value))


def test_house_rules_with_a_lone_surrogate_are_a_rules_error():
    record = boardrules.Record("harvest", (), {}, 2, 1,
                               rules=(("house.rules", "resource zz { }\n# \ud800\n"),))
    with pytest.raises(RulesError, match="house.rules:2:3: a lone surrogate"):
        boardrules.Game.from_record(record)


@pytest.mark.parametrize("seed", ["\udcff", "a\ud800b"])
def test_a_seed_with_a_lone_surrogate_is_refused(seed):
    with pytest.raises(ValueError, match="no lone surrogate"):
        boardrules.new_game("harvest", players=2, seed=seed)


def test_replay_of_a_record_with_lone_surrogates_is_one_line(tmp_path):
    game = boardrules.new_game("harvest", players=2, seed=1)
    for field, value in [("rules", [["house.rules", "resource zz { }\n# \ud800\n"]]),
                         ("seed", "a\ud800"), ("texts", [["h\udc80.rules", TINY]])]:
        data = json.loads(game.save())
        data[field] = value
        if field == "texts":
            data["game"] = None
        path = tmp_path / f"{field}.json"
        path.write_text(json.dumps(data), encoding="utf-8")   # (JSON's \\ud800 escapes)
        result = CliRunner().invoke(app, ["replay", str(path)])
        assert result.exit_code == 1, result.output
        assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
        if field == "seed":
            with pytest.raises(NotationError, match="no lone surrogate"):
                boardrules.load_game(json.dumps(data))


def test_every_error_message_shows_a_lone_surrogate_as_an_escape():
    game = boardrules.new_game("harvest", players=2, seed=1)
    with pytest.raises(boardrules.BoardrulesError) as err:
        game.get("co\ud800ins", 0)
    assert str(err.value) == "unknown name 'co\\ud800ins'"   # (it held the surrogate)
    str(err.value).encode("utf-8")
