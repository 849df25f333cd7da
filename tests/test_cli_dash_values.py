"""A word that begins with '-' is read as a value where it is no option of the command (polish4,
session 22): click read ``odds "-1 interceptor" ...`` as the option '-1' ("No such option"), and
so a file named ``-x.rules`` given to check, play, simulate or replay, or a record to export."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from boardrules.cli import add_plugin_commands, app

runner = CliRunner()
RULES = ("resource coins { start 3 }\naction work main { gain 1 coins }\n"
         "flow { rounds 1 { step play: turns seat once { main work } } }\n")


@pytest.fixture(autouse=True)
def _plugin_commands():
    add_plugin_commands()


def test_a_fleet_beginning_with_a_dash_is_the_fleet():
    result = runner.invoke(app, ["odds", "-1 interceptor", "1 cruiser"])
    assert result.exit_code == 1
    assert "'-1 interceptor': expected a ship name" in result.output
    assert "No such option" not in result.output
    second = runner.invoke(app, ["odds", "2 interceptor", "-1 cruiser", "--mc", "10"])
    assert second.exit_code == 1 and "'-1 cruiser': expected a ship name" in second.output


def test_options_around_the_values_keep_their_order_and_values():
    result = runner.invoke(app, ["odds", "--seed", "-3", "2 interceptor", "--mc=10", "1 ancient"])
    assert result.exit_code == 0, result.output
    assert "2 interceptor(3/0/+0/0; 1Y)  vs  1 ancient" in result.output and "Monte-Carlo" in result.output


@pytest.mark.parametrize("words, said", [
    (["odds", "--sed", "3", "2 interceptor", "1 ancient"], "No such option: --sed"),
    (["odds", "-x", "2 interceptor", "1 ancient"], "No such option: -x"),
])
def test_a_mistyped_option_is_still_named(words, said):
    result = runner.invoke(app, words)
    assert result.exit_code == 2 and said in result.output


def test_files_beginning_with_a_dash(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "-x.rules").write_text(RULES)
    checked = runner.invoke(app, ["check", "-m", "-weather", "-x.rules"])
    assert checked.exit_code == 0 and "ok: -x.rules" in checked.output
    played = runner.invoke(app, ["play", "-x.rules", "--players", "1", "--seed", "-5", "--quiet", "--out", "out"])
    assert played.exit_code == 0, played.output
    (record,) = (tmp_path / "out").glob("*.json")
    assert json.loads(record.read_text())["seed"] == -5
    record.rename(tmp_path / "-g.json")
    replayed = runner.invoke(app, ["replay", "-g.json"], env={"COLUMNS": "200"})
    assert replayed.exit_code == 0 and "final state matches" in replayed.output
    simulated = runner.invoke(app, ["simulate", "-x.rules", "--players", "1", "-n", "2", "-w", "1", "--out", "-sim.csv"])
    assert simulated.exit_code == 0 and (tmp_path / "-sim.csv").exists(), simulated.output
    exported = runner.invoke(app, ["export", "-g.json", "-o", "-e.txt"])
    assert exported.exit_code == 1 and "-g.json: a game of" in exported.output   # (read: not a Gaia game)
    after = runner.invoke(app, ["check", "--", "-x.rules"])   # (a '--' given still works)
    assert after.exit_code == 0 and "ok: -x.rules" in after.output


def test_an_option_without_its_value_is_said_so():
    result = runner.invoke(app, ["play", "harvest", "--players", "2", "-o"])
    assert result.exit_code == 2 and "Option '-o' requires an argument" in result.output
    result = runner.invoke(app, ["odds", "1 interceptor", "1 cruiser", "--mc"])
    assert result.exit_code == 2 and "Option '--mc' requires an argument" in result.output
