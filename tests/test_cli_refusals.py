"""The command line refuses what it cannot honour, naming it, and `check` reports every file:
a seat given two bots, a results file of an unknown kind, unreadable rule files among others."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from boardrules.bots import seat_bots
from boardrules.cli import app
from boardrules.simulate import write_results

runner = CliRunner()
WIDE = {"COLUMNS": "300"}


@pytest.mark.parametrize("specs, message", [
    (["p1=greedy", "p1=random"], "--bot 'p1=random': seat p1 already has a bot (--bot 'p1=greedy')"),
    (["random", "greedy"], "--bot 'greedy': every seat already has a bot (--bot 'random')"),
])
def test_a_seat_given_two_bots_is_refused_naming_both(specs, message):
    with pytest.raises(ValueError) as info:
        seat_bots(specs, 3)
    assert message in str(info.value)
    assert [b.name for b in seat_bots(["random", "p1=greedy"], 3)] == ["greedy", "random", "random"]


@pytest.mark.parametrize("command", [["play", "harvest", "--players", "3", "--quiet"],
                                     ["simulate", "harvest", "--players", "3", "--games", "1", "--quiet"]])
def test_play_and_simulate_refuse_a_seat_given_two_bots(command, tmp_path):
    result = runner.invoke(app, command + ["--out", str(tmp_path / ("x.csv" if "simulate" in command else "o")),
                                           "--bot", "p1=greedy", "--bot", "p1=random"], env=WIDE)
    assert result.exit_code == 1, result.output
    assert "seat p1 already has a bot (--bot 'p1=greedy')" in result.output
    assert "Traceback" not in result.output and not list(tmp_path.iterdir())


@pytest.mark.parametrize("name, why", [("results.xlsx", "not '.xlsx'"), ("results", "and this name has no ending"),
                                       ("results.CSV", "not '.CSV'")])   # ("results": it said "not 'nothing'")
def test_simulate_refuses_a_results_file_of_an_unknown_kind_before_playing(name, why, tmp_path):
    out = tmp_path / name
    result = runner.invoke(app, ["simulate", "harvest", "--players", "3", "--games", "2", "--quiet",
                                 "--out", str(out)], env=WIDE)
    assert result.exit_code == 1, result.output
    assert f"cannot write results to {out}: a results file ends in .csv or .parquet, {why}" in result.output
    assert "games in" not in result.output and not out.exists()
    with pytest.raises(ValueError, match="ends in .csv or .parquet"):
        write_results([], out)


def test_check_reports_every_files_problems(tmp_path):
    good = tmp_path / "good.rules"
    good.write_text("resource coins { start 3 }\n")
    typo = tmp_path / "typo.rules"
    typo.write_text("resource gems { strat 3 }\n")
    binary = tmp_path / "bin.rules"
    binary.write_bytes(b"\xff\xfe resource")
    missing = tmp_path / "missing.rules"
    late = tmp_path / "late.rules"
    late.write_text("resource ore { start 1 }\naction a main { gain 1 coinz }\n")
    result = runner.invoke(app, ["check", str(good), str(binary), str(typo), str(missing), str(late)], env=WIDE)
    assert result.exit_code == 1
    assert f"cannot read rule file {binary}: it is not UTF-8 text" in result.output
    assert f"cannot read rule file {missing}: No such file or directory" in result.output
    assert f"{typo}:1:17: a resource has no property 'strat'" in result.output
    assert f"{late}:2:22: unknown resource 'coinz'" in result.output
    assert "4 errors" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("content, why", [
    (b"\x7fELF\x02\x01\xd0\x00", "it is not UTF-8 text (invalid continuation byte at byte 6)"),
    (None, "No such file or directory")])
def test_a_rule_file_that_cannot_be_read_is_said_alike_by_every_command(tmp_path, content, why):
    """check said 'F: cannot read it: it is not UTF-8 text (invalid continuation byte)', play F
    "cannot read F: 'utf-8' codec can't decode byte 0xd0 in position 6: ..." (Python's words; a
    missing one '[Errno 2] ...'), play --rules 'cannot read rule file F: ... at byte 6': one
    wording now, wherever the file is named."""
    path = tmp_path / "bin.rules"
    if content is not None:
        path.write_bytes(content)
    line = f"cannot read rule file {path}: {why}"
    for args in (["check", str(path)], ["check", "--game", "harvest", str(path)],
                 ["play", str(path), "--players", "2"], ["play", "harvest", "--players", "2", "--rules", str(path)],
                 ["simulate", str(path), "--players", "2", "--games", "1"],
                 ["simulate", "harvest", "--players", "2", "--games", "1", "--rules", str(path)]):
        result = runner.invoke(app, args, env=WIDE)
        assert result.exit_code == 1 and line in result.output, (args, result.output)
        assert "codec" not in result.output and "Errno" not in result.output


def test_check_with_a_game_reports_unreadable_house_rules_and_the_others(tmp_path):
    house = tmp_path / "house.rules"
    house.write_text("override resource coinz { start 9 }\n")
    missing = tmp_path / "missing.rules"
    result = runner.invoke(app, ["check", str(missing), str(house), "--game", "harvest"], env=WIDE)
    assert result.exit_code == 1
    assert f"cannot read rule file {missing}: No such file or directory" in result.output
    assert "nothing to override: no resource named 'coinz'" in result.output
    assert "2 errors" in result.output


def test_an_mcts_budget_past_the_limit_is_refused():
    result = runner.invoke(app, ["play", "harvest", "--players", "3", "--quiet",
                                 "--bot", "mcts:99999999999999999999"], env=WIDE)
    assert result.exit_code == 1
    assert "no bot 'mcts:99999999999999999999': choose random, greedy, mcts or mcts:N (N iterations, " \
           "1 to 100000)" in result.output


@pytest.mark.parametrize("bot", ["greedy:0", "greedy:100001"])
def test_a_greedy_budget_out_of_range_is_refused_naming_the_range(bot):
    """greedy:N was refused at 0 and past 100000 with a message giving mcts:N's range only."""
    result = runner.invoke(app, ["play", "harvest", "--players", "3", "--quiet", "--bot", bot], env=WIDE)
    assert result.exit_code == 1
    assert f"no bot '{bot}': " in result.output
    assert "greedy:N (N positions a decision may try, 1 to 100000)" in result.output


def test_play_refuses_an_output_folder_it_cannot_make_before_the_game(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    result = runner.invoke(app, ["play", "harvest", "--players", "3", "--quiet", "--out", str(blocker / "sub")],
                           env=WIDE)
    assert result.exit_code == 1 and f"cannot write the record to {blocker / 'sub'}" in result.output
    assert "final scores" not in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("text", ["1" * 100_000, '{"format": 1, "players": ' + "9" * 100_000 + "}"])
def test_a_record_with_a_number_too_long_is_refused_cleanly(text, tmp_path):
    """Python refuses to read a number of more than 4300 digits (a ValueError): the record is
    named unreadable, never a traceback."""
    import boardrules
    from boardrules import NotationError
    path = tmp_path / "long.json"
    path.write_text(text)
    result = runner.invoke(app, ["replay", str(path)], env=WIDE)
    assert result.exit_code == 1 and f"{path}: cannot read a record" in result.output
    assert "Traceback" not in result.output
    with pytest.raises(NotationError, match="(cannot read|not) a boardrules record"):
        boardrules.load_game(text)


def test_plugins_lists_every_module_when_one_has_broken_rules(monkeypatch):
    """A module whose rule files do not parse (a third party's, say) is named with its first
    error's place; the other modules are still listed."""
    from boardrules import plugins
    from boardrules.lang.parser import parse_text
    from boardrules.errors import RulesError
    listed = plugins.module_options

    def broken(spec):
        if spec.name == "weather":
            parse_text("step feast after income: do { for }\n", "weather.rules")
        return listed(spec)
    monkeypatch.setattr(plugins, "module_options", broken)
    with pytest.raises(RulesError):
        broken(plugins.modules("harvest")["weather"])
    result = runner.invoke(app, ["plugins"], env=WIDE)
    assert result.exit_code == 0, result.output
    assert "harvest weather: Weather: rain brings grain after income (off by default; players any; its rules have " \
           "errors, the first at weather.rules:1:" in result.output
    assert "harvest market-day:" in result.output and "options market_coins" in result.output


def _plugins_listing_with_feast(path):
    """What 'boardrules plugins' prints with a third party's Harvest module 'feast' whose rule
    file is ``path``."""
    from boardrules import plugins
    from boardrules.ruleset import _build

    class Plugin:
        @plugins.hookimpl
        def boardrules_modules(self):
            return [plugins.ModuleSpec("feast", "harvest", (path,),
                                       "a coin at the end of each round", title="Feast")]
    pm, plugin = plugins.manager(), Plugin()
    pm.register(plugin, "feast_plugin")
    _build.cache_clear()
    try:
        result = runner.invoke(app, ["plugins"], env=WIDE)
    finally:
        pm.unregister(plugin)
        _build.cache_clear()
    assert result.exit_code == 0, result.output
    return result.output


def test_plugins_names_a_module_whose_rules_parse_but_do_not_check(tmp_path):
    """A module whose rule file parses but breaks a checker rule (an unknown resource) is named
    with its first error's place (only parse errors were, so it looked fine until played)."""
    (tmp_path / "feast.rules").write_text("when round_ends(n) { gain 1 coinz to 0 }\n")
    output = _plugins_listing_with_feast(tmp_path / "feast.rules")
    assert ("harvest feast: Feast: a coin at the end of each round (off by default; players any; its "
            "rules have errors, the first at " + f"{tmp_path / 'feast.rules'}:1:27") in output
    assert "harvest market-day:" in output and "options market_coins" in output


def test_plugins_names_a_module_whose_rule_file_is_missing(tmp_path):
    """A third party's module naming a rule file that is not there (not shipped in its
    package, say) is listed with the reason; it was a FileNotFoundError traceback."""
    output = _plugins_listing_with_feast(tmp_path / "feast.rules")
    assert ("harvest feast: Feast: a coin at the end of each round (off by default; players any; "
            f"cannot read rule file {tmp_path / 'feast.rules'}: No such file or directory)") in output
    assert "harvest market-day:" in output and "Traceback" not in output
