"""`boardrules play/replay/simulate --max-steps N`: the execution budget from the command line (issue 13)."""

from __future__ import annotations

import json

import boardrules
import pytest
from typer.testing import CliRunner

from boardrules.cli import app

runner = CliRunner()


def test_play_stops_at_a_small_budget_with_a_clear_error(tmp_path):
    result = runner.invoke(app, ["play", "harvest", "--players", "2", "--quiet", "--max-steps", "3",
                                 "--out", str(tmp_path)], env={"COLUMNS": "200"})
    assert result.exit_code == 1 and "Traceback" not in result.output
    # the setup fits in 3 steps; then every action is over budget, so none is legal
    assert "every action takes more than the 3 steps of --max-steps" in " ".join(result.output.split())
    # the two moves played before it stopped are kept, and the error names their record
    [record] = tmp_path.iterdir()
    assert record.name == "harvest-2p-seed1.json" and len(json.loads(record.read_text())["actions"]) == 2
    assert f"(the record so far: {record})" in "".join(result.output.split("\n"))


def test_simulate_stops_at_a_small_budget_with_the_same_hint(tmp_path):
    """simulate --max-steps 3 said only that the game was stuck, without play's hint."""
    result = runner.invoke(app, ["simulate", "harvest", "-n", "1", "--players", "2", "--quiet",
                                 "--max-steps", "3", "--out", str(tmp_path / "r.csv")], env={"COLUMNS": "200"})
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "every action takes more than the 3 steps of --max-steps" in " ".join(result.output.split())


def test_play_of_a_looping_flow_stops_at_the_budget(tmp_path):
    rules = tmp_path / "loop.rules"
    rules.write_text("game loop { players 2..2 }\nresource vp { scored true }\n"
                     "flow { setup { step spin: do { for i in 1..1000 { for j in 1..1000 "
                     "{ gain 0 vp } } } } }\n")
    result = runner.invoke(app, ["play", str(rules), "--players", "2", "--quiet", "--max-steps",
                                 "500", "--out", str(tmp_path)], env={"COLUMNS": "200"})
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "step 'spin' breaks a rule" in result.output and "more than 500 steps" in result.output
    assert not list(tmp_path.glob("*.json"))   # (stopped in its setup: no moves, no record)


def test_play_with_a_roomy_budget_finishes(tmp_path):
    result = runner.invoke(app, ["play", "harvest", "--players", "2", "--quiet", "--max-steps",
                                 "100000", "--out", str(tmp_path)], env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    assert "final scores" in result.output


def _record(tmp_path):
    game = boardrules.new_game("harvest", players=2, seed=1)
    boardrules.bots.play_out(game)
    path = tmp_path / "game.json"
    path.write_text(game.save())
    return path


def test_replay_takes_the_budget(tmp_path):
    path = _record(tmp_path)
    small = runner.invoke(app, ["replay", str(path), "--max-steps", "3"])
    assert small.exit_code == 1 and "more than 3 steps" in small.output
    roomy = runner.invoke(app, ["replay", str(path), "--max-steps", "100000"], env={"COLUMNS": "120"})
    assert roomy.exit_code == 0 and "final state matches" in roomy.output


SPIN = ("step spin before reveal: do { for i in 1..1000 { for j in 1..600 "
        "{ set first_passer = none } } }\n")   # about 1.2 million steps, once at the setup


def test_simulate_takes_the_budget(tmp_path):
    """A house rule that needs more than the default budget plays under play --max-steps; simulate
    had no --max-steps ('No such option'), so such rules could not be simulated. The budget
    reaches the pool's workers (-w 2) as well as games in this process."""
    rules = tmp_path / "spin.rules"
    rules.write_text(SPIN)
    base = ["simulate", "harvest", "-n", "2", "--players", "2", "--quiet", "--bot", "random",
            "--rules", str(rules)]
    for workers in ("1", "2"):
        out = tmp_path / f"w{workers}.csv"
        short = runner.invoke(app, base + ["-w", workers, "--out", str(out)], env={"COLUMNS": "200"})
        assert short.exit_code == 1 and "more than 1000000 steps" in short.output, short.output
        roomy = runner.invoke(app, base + ["-w", workers, "--out", str(out), "--max-steps", "2000000"],
                              env={"COLUMNS": "200"})
        assert roomy.exit_code == 0, roomy.output
        assert "2 games" in roomy.output and out.exists()


def test_the_budget_must_be_at_least_one(tmp_path):
    for command in (["play", "harvest", "--players", "2"], ["replay", str(_record(tmp_path))],
                    ["simulate", "harvest", "--players", "2"]):
        result = runner.invoke(app, command + ["--max-steps", "0"])
        assert result.exit_code == 2 and "--max-steps" in result.output


def test_a_site_record_replay_takes_the_budget():
    """The Gaia site-record replay builds its game with the budget it is given (hook
    ``boardrules_replay``): a tiny one stops it at the first action, the default replays it."""
    from tests.conftest import shared_path
    path = shared_path("gaia-records", "djfjjv4k.json")
    small = runner.invoke(app, ["replay", str(path), "--max-steps", "3"], env={"COLUMNS": "200"})
    assert small.exit_code == 1 and "Traceback" not in small.output
    assert "more than 3 steps" in small.output
    roomy = runner.invoke(app, ["replay", str(path)], env={"COLUMNS": "120"})
    assert roomy.exit_code == 0, roomy.output


def test_counts_of_one_are_singular(tmp_path):
    """'more than 1 steps', 'after 1 actions' (trial of 3 December): every count in a message
    goes through quoting.counted."""
    from boardrules.quoting import counted

    assert [counted(n, "action") for n in (0, 1, 2)] == ["0 actions", "1 action", "2 actions"]
    one = runner.invoke(app, ["replay", str(_record(tmp_path)), "--max-steps", "1"])
    assert one.exit_code == 1 and "more than 1 step (the execution budget" in one.output, one.output


def test_replay_of_a_game_played_with_a_larger_budget_says_how(tmp_path):
    """A record of `play --max-steps 2000000` failed to replay with the budget's message only
    (at its setup as a NotationError, 'this record cannot start a game'): the error is the
    budget's, and replay says to pass the same --max-steps."""
    rules = tmp_path / "spin.rules"
    rules.write_text(SPIN)
    game = boardrules.new_game("harvest", players=2, seed=1, rules=[rules], max_steps=2_000_000)
    boardrules.bots.play_out(game)
    path = tmp_path / "spin.json"
    path.write_text(game.save())
    with pytest.raises(boardrules.ExecutionBudgetError, match="cannot start a game"):
        boardrules.load_game(game.save())
    short = runner.invoke(app, ["replay", str(path)], env={"COLUMNS": "300"})
    assert short.exit_code == 1
    assert "replays with the same: --max-steps N (now 1000000)" in " ".join(short.output.split())
    roomy = runner.invoke(app, ["replay", str(path), "--max-steps", "2000000"], env={"COLUMNS": "120"})
    assert roomy.exit_code == 0 and "final state matches" in roomy.output
