"""The command line, as a user runs it."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from boardrules.cli import app

runner = CliRunner()


def test_plugins_lists_games():
    result = runner.invoke(app, ["plugins"], env={"COLUMNS": "120"})
    assert result.exit_code == 0
    assert "harvest" in result.output and "gaia-project" in result.output


def test_check_ok_and_errors(tmp_path):
    good = tmp_path / "good.rules"
    good.write_text("resource coins { start 3 }\naction work main { gain 1 coins }\n"
                    "flow { rounds 1 { step play: turns seat once { main work } } }\n")
    assert runner.invoke(app, ["check", str(good)]).exit_code == 0
    bad = tmp_path / "bad.rules"
    bad.write_text("resource coins { strat 3 }\naction a main { gain 1 coinz }\n")
    result = runner.invoke(app, ["check", str(bad)])
    assert result.exit_code == 1
    assert f"{bad}:1:18: a resource has no property 'strat'" in result.output
    assert "hint: did you mean 'start'?" in result.output
    assert f"{bad}:2:22: unknown resource 'coinz'" in result.output
    assert "2 errors" in result.output
    assert "Traceback" not in result.output


def test_check_house_rules_against_a_game(tmp_path):
    house = tmp_path / "house.rules"
    house.write_text("override resource coins { start 9; cap 12 }\n")
    assert runner.invoke(app, ["check", str(house), "--game", "harvest"]).exit_code == 0
    house.write_text("override resource coinz { start 9 }\n")
    result = runner.invoke(app, ["check", str(house), "--game", "harvest"])
    assert result.exit_code == 1 and "nothing to override: no resource named 'coinz'" in result.output
    assert "--game GAME" not in result.output
    alone = runner.invoke(app, ["check", str(house)])   # a user who did not know about --game
    assert alone.exit_code == 1 and "check them with '--game GAME'" in alone.output


def test_play_then_replay(tmp_path):
    result = runner.invoke(app, ["play", "harvest", "--players", "3", "--seed", "4", "--quiet",
                                 "--out", str(tmp_path)], env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    assert "Harvest (demonstration): final scores" in result.output or "final scores" in result.output
    (record,) = tmp_path.glob("harvest-3p-seed4.json")
    assert json.loads(record.read_text())["players"] == 3
    replayed = runner.invoke(app, ["replay", str(record)], env={"COLUMNS": "200"})
    assert replayed.exit_code == 0 and "final state matches" in replayed.output
    data = json.loads(record.read_text())
    data["actions"] = data["actions"][:-3] + ["p1 build_farm zz"]
    record.write_text(json.dumps(data))
    broken = runner.invoke(app, ["replay", str(record)])
    assert broken.exit_code == 1 and "move" in broken.output


def test_unknown_game_is_a_clear_error():
    result = runner.invoke(app, ["play", "chess", "--players", "2"])
    assert result.exit_code == 1 and "no game named 'chess'" in result.output


def test_play_names_its_record_by_the_modules_and_never_overwrites_another_game(tmp_path):
    """Two games of one seed with other modules or options wrote the same out/GAME-Np-seedS.json,
    the second over the first: the modules switched on (+ID) or off (-ID) are in the name, and a
    record of another game under that name is kept (the new one gets ~2, ~3): other options,
    other bots (the same rules: their record was replaced before), a file it cannot read; the
    same game again writes over its own record, byte for byte the same."""
    def play(*args):
        result = runner.invoke(app, ["play", "harvest", "--players", "2", "--quiet", "--out", str(tmp_path),
                                     *args], env={"COLUMNS": "200"})
        assert result.exit_code == 0, result.output
        return result.output.rsplit("record: ", 1)[1].split()[0]
    assert play() == str(tmp_path / "harvest-2p-seed1.json")
    assert play("-m", "market-day") == str(tmp_path / "harvest-2p-seed1+market-day.json")
    assert play("-m", "market-day", "-o", "market_coins=3") == str(tmp_path / "harvest-2p-seed1+market-day~2.json")
    assert play("-m", "market-day") == str(tmp_path / "harvest-2p-seed1+market-day.json")
    assert play("--bot", "random") == str(tmp_path / "harvest-2p-seed1~2.json")
    (tmp_path / "harvest-2p-seed1~3.json").mkdir()
    assert play("--bot", "p2=random") == str(tmp_path / "harvest-2p-seed1~4.json")
    assert play("--bot", "random") == str(tmp_path / "harvest-2p-seed1~2.json")
    records = {p.name: json.loads(p.read_text()) for p in sorted(tmp_path.glob("*.json")) if p.is_file()}
    assert len(records) == 5
    assert records["harvest-2p-seed1.json"]["modules"] == []
    assert records["harvest-2p-seed1.json"]["actions"] != records["harvest-2p-seed1~2.json"]["actions"]
    assert records["harvest-2p-seed1+market-day.json"]["options"] == {}
    assert records["harvest-2p-seed1+market-day~2.json"]["options"] == {"market_coins": 3}
