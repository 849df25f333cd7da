"""Every error that names a broken rule gives its place, ``[rule: RULE (FILE:LINE:COLUMN)]``:
where it broke when the statement knows (a ``require``, a parameter's ``where``), else where the
rule is declared (a ``pay`` that cannot be met: its action, trigger, entity, step or track
level); and a rule file's message is shown in brief, however long."""

from __future__ import annotations

import pytest

import boardrules
from boardrules.quoting import MESSAGE, format_value

TEXT = """game t { players 2..2 }
resource coins { start 1 }
track fame { levels 0..2
  at 1 { pay 5 coins } }
event boom(p: player)
kind card { slot income }
card c1 { income: pay 9 coins
  when boom(p) { pay 8 coins } }
when boom(p) { gain 0 coins }
when boom(p) { pay 7 coins }
action spend main { pay 3 coins }
action climb main { advance fame }
action bang main { emit boom(me) }
action hold main { take c1; run c1.income }
action bang2 main { take c1; emit boom(me) }
action later main { after turn { pay 4 coins } }
action arg(k: int in 1..3 where k > 1) main { require k > 2 else "LONG" }
flow {
  rounds 2 { step go: turns seat once { main spend, climb, bang, hold, bang2, later, arg } }
}
"""


def _refusal(backend: str, move: str, text: str = TEXT) -> str:
    game = boardrules.new_game(texts={"t.rules": text}, players=2, seed=1, backend=backend)
    state = game.state
    with pytest.raises(boardrules.IllegalActionError) as err:
        game.play(move)
    assert game.state is state
    return str(err.value)


@pytest.mark.parametrize("backend", ["compiled", "interpreted"])
@pytest.mark.parametrize("move, message", [
    ("p1 spend", "needs 3 coins, has 1 [rule: spend (t.rules:11:1)]"),
    ("p1 climb", "needs 5 coins, has 1 [rule: fame 1 (t.rules:4:8)]"),
    # of two top-level triggers on one event (one name, 'when boom'), the one that broke
    ("p1 bang", "needs 7 coins, has 1 [rule: when boom (t.rules:10:1)]"),
    ("p1 hold", "needs 9 coins, has 1 [rule: c1 (t.rules:7:1)]"),
    # an entity's trigger: its own 'when', not the entity
    ("p1 bang2", "needs 8 coins, has 1 [rule: c1 (t.rules:8:3)]"),
    ("p1 later", "needs 4 coins, has 1 [rule: later (t.rules:16:1)]"),
    ("p1 arg 1", "1 is not a possible k here [rule: arg (t.rules:17:33)]"),
    ("p1 arg 2", "LONG [rule: arg (t.rules:17:47)]"),
])
def test_a_broken_rule_is_named_with_its_place(backend, move, message):
    assert _refusal(backend, move) == f"{move}: {message}"


def test_the_engines_own_rules_have_no_place():
    game = boardrules.new_game(texts={"t.rules": TEXT}, players=2, seed=1)
    with pytest.raises(boardrules.IllegalActionError) as err:
        game.play("p2 spend")
    assert str(err.value) == "p2 spend: it is p1's turn, not p2's [rule: turn order]"


def test_a_rule_name_two_declarations_share_gets_no_place():
    """A flow step named like an action: which one broke is not known, so no place is guessed."""
    text = TEXT.replace("step go:", "step spend:")
    game = boardrules.new_game(texts={"t.rules": text}, players=2, seed=1)
    assert game.ruleset.rule_span("spend") is None
    assert str(game.ruleset.rule_span("bang")) == "t.rules:13:1"
    assert game.ruleset.rule_span("turn order") is None and game.ruleset.rule_span("fame x") is None


@pytest.mark.parametrize("backend", ["compiled", "interpreted"])
def test_a_huge_require_message_is_shown_in_brief(backend):
    message = _refusal(backend, "p1 arg 2", TEXT.replace('"LONG"', '"' + "x" * 100_000 + '"'))
    assert len(message) < MESSAGE + 100
    assert message.startswith("p1 arg 2: xxx") and message.endswith("... [rule: arg (t.rules:17:47)]")


def test_a_require_messages_new_line_is_shown_escaped():
    message = _refusal("compiled", "p1 arg 2", TEXT.replace('"LONG"', '"two\\nlines"'))
    assert message == "p1 arg 2: two\\nlines [rule: arg (t.rules:17:47)]"


def test_the_cli_prints_a_huge_require_message_in_brief(tmp_path):
    from typer.testing import CliRunner
    from boardrules.cli import app
    rules = tmp_path / "t.rules"
    rules.write_text(TEXT.replace('"LONG"', '"' + "x" * 100_000 + '"').replace(
        "main spend, climb, bang, hold, bang2, later, arg", "main arg").replace("k > 2", "k > 5"))
    result = CliRunner().invoke(app, ["play", str(rules), "--players", "2", "--quiet", "--out", str(tmp_path)])
    assert result.exit_code == 1 and "the game is stuck" in result.output, result.output
    assert len(result.output) < MESSAGE + 1000 and "Traceback" not in result.output


@pytest.mark.parametrize("value, text", [
    (3, "3"), (-2, "-2"), (True, "true"), (False, "false"), (None, "none"), ("a1", "a1"),
    (("a1", 2, None, (True,)), "a1,2,none,true"), ((), ""),
])
def test_format_value_writes_values_as_the_rules_do(value, text):
    assert format_value(value) == text


NO_PLAYER = """game t { players 2..2 }
resource vp { scored true }
var who: player? = none
kind card { slot go { gain 1 vp } }
card c1 { }
action a main {
  gain 1 vp
  STATEMENT
}
flow { rounds 1 { step s: turns seat once { main a } } }
"""


@pytest.mark.parametrize("backend", ["compiled", "interpreted"])
@pytest.mark.parametrize("statement", ['choose x in [1, 2] by who "pick" { gain x vp }', "gain 1 vp to who",
                                       "give c1 to who", "run c1.go for who"])
def test_a_statement_naming_no_player_is_placed_at_the_statement(backend, statement):
    # (a 'choose ... by' was placed at its action, t.rules:6:1)
    text = NO_PLAYER.replace("STATEMENT", statement)
    for check in (True, False):
        game = boardrules.new_game(texts={"t.rules": text}, players=2, seed=1, backend=backend)
        state = game.state
        with pytest.raises(boardrules.IllegalActionError) as err:
            game.play("p1 a", check=check)
        assert game.state is state
        assert str(err.value).endswith("no player here (got none; players are 0..1) [rule: a (t.rules:8:3)]")
