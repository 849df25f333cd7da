"""A turns step that goes on until every player has passed (``until_pass``,
``until_all_pass``) must be able to pass: the checker reports one where nothing its actions run
can reach a ``pass`` (file:line:column, a hint), and where that cannot be decided statically
(a ``pass`` behind a condition never met) the bots' bound on a game's actions names the step."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

import boardrules
from boardrules import RulesError
from boardrules.bots import play_out
from boardrules.cli import app

HEAD = """game g { players 1..2 }
resource coins { start 0; scored true }
kind card { slot on_play }
card joker { on_play: gain 1 coins }
"""


def _rules(actions: str, mode: str = "until_pass", main: str = "work") -> str:
    return HEAD + actions + f"\nflow {{ rounds 2 {{ step play: turns seat {mode} {{ main {main} }} }} }}\n"


@pytest.mark.parametrize("mode", ["until_pass", "until_all_pass"])
def test_a_step_that_cannot_pass_is_reported_at_the_step(mode):
    text = _rules("action work main { gain 1 coins; run joker.on_play }", mode)
    with pytest.raises(RulesError) as err:
        boardrules.new_game(texts={"g.rules": text}, players=2)
    (d,) = err.value.diagnostics
    assert (d.span.file, d.span.line, d.span.column) == ("g.rules", 6, 19)
    assert d.message == (f"step 'play' goes on until every player has passed ({mode}), but nothing "
                         "its actions (work) run can pass: it would never end")
    assert "add 'pass' to one of its actions" in d.hint


@pytest.mark.parametrize("actions, main", [
    ("action work main { gain 1 coins }\naction stop main { pass }", "work, stop"),
    ("action work main { if coins > 3 { call quit() } }\naction quit procedure { pass }", "work"),
    ("action work main { run joker.on_play }\nextend card joker { extend on_play { pass } }", "work"),
    ("action work main { gain 1 coins }\nwhen action_taken(p, a) if a == \"work\" { pass }", "work"),
    ("action work main { choose n in [1, 2] \"how many\" { after turn { pass } } }", "work"),
])
def test_a_pass_reached_any_way_is_accepted(actions, main):
    boardrules.build_ruleset(texts={"g.rules": _rules(actions, main=main)})


def test_the_bound_on_a_game_names_a_step_whose_players_never_pass():
    text = _rules("action work main { gain 1 coins }\n"
                  "action stop main { require coins > 1000 else \"too poor\"; pass }", main="work, stop")
    g = boardrules.new_game(texts={"g.rules": text}, players=2, seed=1)
    with pytest.raises(RuntimeError) as err:
        play_out(g, max_actions=40)
    assert str(err.value) == ("the game did not end within 40 actions: it is at rounds (round 1), "
                              "step 'play' ('play' gives turns until every player has passed "
                              "(until_pass): do its players ever pass?)")


def test_check_shows_the_step_with_its_hint(tmp_path):
    path = tmp_path / "endless.rules"
    path.write_text(_rules("action work main { gain 1 coins }"), encoding="utf-8")
    result = CliRunner().invoke(app, ["check", str(path)])
    assert result.exit_code != 0 and "Traceback" not in result.output
    assert f"{path}:6:19: step 'play' goes on until every player has passed" in result.output
    assert "hint: add 'pass' to one of its actions" in result.output
