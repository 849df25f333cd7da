"""What a new user and odd arguments meet on the command line: house rules given as the game
get the hint to use ``--rules``; ``--quiet`` play and simulation say they are alive; odd
arguments are refused before any game, with a clear error and no traceback."""

from __future__ import annotations

import importlib.util

import pytest
from typer.testing import CliRunner

from boardrules import cli

runner = CliRunner()
WIDE = {"COLUMNS": "300"}
HOUSE = "override resource coins { start 9 }\n"


@pytest.mark.parametrize("command", ["play", "simulate", "check"])
def test_house_rules_given_as_the_game_get_the_hint_to_use_rules(command, tmp_path):
    house = tmp_path / "house.rules"
    house.write_text(HOUSE)
    argv = [command, str(house)] + ([] if command == "check" else
                                    ["--players", "3", "--quiet", "--out", str(tmp_path / "o.csv")])
    result = runner.invoke(cli.app, argv, env=WIDE)
    assert result.exit_code == 1 and "Traceback" not in result.output, result.output
    assert "nothing to override: no resource named 'coins'" in result.output
    hint = {"play": f"give them with '--rules', e.g. 'boardrules play harvest --players 3 --rules {house}'",
            "simulate": f"'boardrules simulate harvest --players 3 --rules {house}'",
            "check": f"check them with '--game GAME', e.g. 'boardrules check --game harvest {house}'"}
    assert "(house rules or a module of an installed game? " in result.output
    assert hint[command] in result.output
    played = runner.invoke(cli.app, ["play", "harvest", "--players", "3", "--quiet", "--rules", str(house),
                                     "--out", str(tmp_path)], env=WIDE)
    assert played.exit_code == 0, played.output


@pytest.mark.parametrize("command", ["play", "check"])
@pytest.mark.parametrize("text, game", [
    ("extend faction gleens { gaia_ore 0 }\nroundtile score11 { vp 3 }\n", "gaia-project"),
    ("override var fed_threshold: int per player = 6\n", "gaia-project"),
    ("extend species terrans { }\n", "eclipse"),
    (HOUSE, "harvest"),
    ("extend thing nobody_declares { }\n", "harvest"),    # (none: Harvest, as before)
])
def test_the_house_rules_hint_names_the_game_they_change(command, text, game, tmp_path):
    """The hint named Harvest for every file: 'boardrules check --game harvest' for house rules
    that extend a Gaia Project faction (trial3)."""
    house = tmp_path / "house.rules"
    house.write_text(text)
    argv = [command, str(house)] + (["--players", "2", "--quiet", "--out", str(tmp_path)] if command == "play" else [])
    result = runner.invoke(cli.app, argv, env=WIDE)
    assert result.exit_code == 1
    said = {"play": f"e.g. 'boardrules play {game} --players 2 --rules {house}'",
            "check": f"e.g. 'boardrules check --game {game} {house}'"}[command]
    assert said in result.output


@pytest.mark.parametrize("text", [HOUSE, "extend step play { main sow }\n", "remove step play\n",
                                  "override step play: do { }\n", "resource coins { start 1 }\n"])
def test_the_house_rules_hint_follows_the_kind_of_error_not_its_wording(text, capsys):
    """The hint was chosen by the messages' first words ('nothing to ', 'the rules '): any
    other message so worded got it, and a reworded one lost it."""
    import attrs

    from boardrules import RulesError, build_ruleset
    from boardrules.lang.diagnostics import INCOMPLETE

    with pytest.raises(RulesError) as err:
        build_ruleset(None, texts={"house.rules": text}).check_playable()
    assert [d.kind for d in err.value.diagnostics] == [INCOMPLETE]
    cli._house_rules_hint(err.value, lambda: "HOW")
    assert "(house rules or a module of an installed game? HOW)" in capsys.readouterr().err
    reworded = RulesError([attrs.evolve(d, message="the rules " + d.message, kind="")
                           for d in err.value.diagnostics])
    cli._house_rules_hint(reworded, lambda: "HOW")
    assert capsys.readouterr().err == ""


def test_a_rule_file_with_a_mistake_of_its_own_gets_no_house_rules_hint(tmp_path):
    rules = tmp_path / "mine.rules"
    rules.write_text("resource coins { strat 3 }\n")
    result = runner.invoke(cli.app, ["play", str(rules), "--players", "2", "--quiet"], env=WIDE)
    assert result.exit_code == 1 and "mine.rules:1:" in result.output
    assert "house rules" not in result.output


@pytest.mark.parametrize("command", ["play", "simulate"])
def test_a_rule_file_not_named_rules_is_told_so(command, tmp_path):
    rules = tmp_path / "mine.txt"
    rules.write_text(HOUSE)
    result = runner.invoke(cli.app, [command, str(rules), "--players", "2", "--quiet"], env=WIDE)
    assert result.exit_code == 1, result.output
    assert "error: no game named '" in result.output
    assert "(a rule file of your own? its name must end in .rules)" in result.output
    chess = runner.invoke(cli.app, [command, "chess", "--players", "2", "--quiet"], env=WIDE)
    assert "no game named 'chess'" in chess.output and "rule file" not in chess.output


@pytest.mark.parametrize("command, line", [
    (["play", "harvest", "--players", "2"], "still running: Harvest, round 1 · "),
    (["simulate", "harvest", "--players", "2", "--games", "2", "--workers", "1"],
     "still running: Harvest, 1 of 2 games played, 0:00 so far"),
])
def test_quiet_play_and_simulation_say_on_stderr_that_they_are_alive(command, line, tmp_path, monkeypatch):
    """A quiet game (or output to a pipe: no live bar) printed nothing for a quarter of an hour
    of greedy Eclipse: a line on stderr every HEARTBEAT seconds says how far it is."""
    out = ["--out", str(tmp_path / ("r.csv" if command[0] == "simulate" else "o"))]
    quiet = runner.invoke(cli.app, command + ["--quiet"] + out, env=WIDE)
    assert quiet.exit_code == 0 and "still running" not in quiet.output   # (a quick one: nothing)
    monkeypatch.setattr(cli, "HEARTBEAT", 0.0)
    for flags in (["--quiet"], []):   # (CliRunner's output is no terminal: no live bar either)
        result = runner.invoke(cli.app, command + flags + out, env=WIDE)
        assert result.exit_code == 0, result.output
        assert line in result.stderr and "still running" not in result.stdout


@pytest.mark.parametrize("command, first", [
    (["play", "harvest", "--players", "2"], "Harvest: final scores"),
    (["play", "harvest", "--players", "2", "--max-steps", "1"], None),   # (an error: nothing on stdout)
    (["simulate", "harvest", "--players", "2", "--games", "2", "--workers", "1"], None),
])
def test_output_to_a_file_or_pipe_begins_with_what_it_says(command, first, tmp_path):
    """Without --quiet, the progress bar nobody sees on a file or pipe ended with an empty line:
    the scores written to a file began with one, and an error left one on stdout."""
    out = ["--out", str(tmp_path / ("r.csv" if command[0] == "simulate" else "o"))]
    result = runner.invoke(cli.app, command + out, env=WIDE)
    if "--max-steps" in command:   # (every action over one step: the game is stuck at once)
        assert result.exit_code == 1 and result.stdout == "", result.output
    else:
        assert result.exit_code == 0 and not result.stdout.startswith("\n"), result.stdout[:200]
    if first is not None:
        assert result.stdout.startswith(first)


def test_simulate_refuses_a_results_file_it_cannot_write_before_the_games(tmp_path):
    """The results were lost: every game played, then 'cannot write the results'."""
    blocker = tmp_path / "file"
    blocker.write_text("")
    out = blocker / "r.csv"
    result = runner.invoke(cli.app, ["simulate", "harvest", "--players", "2", "--games", "2", "--quiet",
                                     "--out", str(out)], env=WIDE)
    assert result.exit_code == 1, result.output
    assert f"cannot write the results to {out}: " in result.output
    assert "by seat" not in result.output and "Traceback" not in result.output   # (no game played)
    ok = runner.invoke(cli.app, ["simulate", "harvest", "--players", "2", "--games", "2", "--quiet",
                                 "--out", str(tmp_path / "new" / "r.csv")], env=WIDE)
    assert ok.exit_code == 0 and (tmp_path / "new" / "r.csv").stat().st_size > 0, ok.output


SIM = ["simulate", "harvest", "--players", "2", "--games", "2", "--quiet"]
PLAY = ["play", "harvest", "--players", "2", "--quiet"]


@pytest.mark.parametrize("argv, message", [
    (SIM + ["--bot", "nobot"], "no bot 'nobot': choose random, greedy, mcts or mcts:N"),
    (SIM + ["--bot", "p1=mcts:0"], "no bot 'mcts:0'"),
    (SIM + ["--bot", "p1=mcts:abc"], "no bot 'mcts:abc'"),
    (SIM + ["--bot", "p1="], "no bot ''"),
    (SIM + ["--bot", "=random"], "'' is not a seat (p1..p2)"),
    (SIM + ["--bot", "p3=random"], "'p3' is not a seat (p1..p2)"),
    (SIM + ["--bot", "p99999999999999999999=random"], "is not a seat (p1..p2)"),
    (SIM + ["-m", "nomod"], "harvest has no module 'nomod' (available: "),
    # (a module named twice was taken once without a word, in play and simulate alike)
    (SIM + ["-m", "market-day", "-m", "market-day"], "module 'market-day' is named twice: name each module once"),
    (PLAY + ["-m", "market-day", "-m", "market-day"], "module 'market-day' is named twice: name each module once"),
    (SIM + ["--seed", "9" * 30], "must be 64-bit whole numbers"),
    (SIM + ["--backend", "nope"], "no backend 'nope'"),
    (SIM + ["-o", "goal"], "option 'goal' must be NAME=VALUE"),
    (SIM + ["-o", "goal=" + "9" * 30], "option 'goal' may not be"),
    # (the last was taken without a word, as a seat's second --bot is refused)
    (SIM + ["-o", "goal=3", "-o", "goal=4"], "-o 'goal=4': option 'goal' is given already (-o 'goal=3')"),
    (PLAY + ["-o", "goal=3", "-o", "goal=3"], "-o 'goal=3': option 'goal' is given already (-o 'goal=3')"),
    (PLAY + ["-m", "-weather"], "module 'weather' is off by default, so '-weather' changes nothing"),
    (["simulate", "harvest", "--players", "9" * 30, "--quiet"], "Harvest is for 2–4 players, not 999"),
    # (the engine's message offered a text seed, which --seed does not take)
    (PLAY + ["--seed", "9" * 30], "--seed 999999999999999999999999999999: expected a whole number (from -2^63 to "
                                  "2^63-1: a 64-bit seed)"),
    (["play", "harvest", "--players", "-3", "--quiet"], "Harvest is for 2–4 players, not -3"),
    # (simulate left out the module that allows them, which play and new_game name)
    (["simulate", "eclipse", "--players", "7", "--quiet"],
     "Eclipse is for 2–6 players, not 7; module 'nine-players' allows 7–9 players (-m nine-players)"),
    (["play", "eclipse", "--players", "2", "--quiet", "-m", "alliances"],
     "module 'alliances' is for 4–9 players, not 2"),
    (["play", "eclipse", "--players", "3", "--quiet", "-m", "secret-homeworlds", "-m", "-ancient-homeworlds"],
     "module 'secret-homeworlds' requires 'ancient-homeworlds', which is switched off"),
    (PLAY + ["-m", "-"], "'-' names no module: give a module's id, or -ID to switch a default one off"),
])
def test_odd_arguments_are_refused_before_any_game(argv, message, tmp_path):
    result = runner.invoke(cli.app, argv + ["--out", str(tmp_path / ("r.csv" if argv[0] == "simulate" else "o"))],
                           env=WIDE)
    assert result.exit_code == 1 and message in result.output, result.output
    assert "Traceback" not in result.output and not list(tmp_path.rglob("*.*"))


def test_simulate_never_replaces_results_under_its_default_name(tmp_path, monkeypatch):
    """Two runs with other modules or bots wrote the same out/sim-GAME-Pp-seedS-N.csv, the
    second over the first: the modules are in the name and a taken name gets ~2."""
    monkeypatch.chdir(tmp_path)

    def simulate(*args):
        result = runner.invoke(cli.app, SIM + list(args), env=WIDE)
        assert result.exit_code == 0, result.output
        return result.output.rsplit("results: ", 1)[1].split(",")[0].strip()
    assert simulate() == "out/sim-harvest-2p-seed0-2.csv"
    assert simulate("-m", "market-day") == "out/sim-harvest-2p-seed0-2+market-day.csv"
    assert simulate("--bot", "random") == "out/sim-harvest-2p-seed0-2~2.csv"
    assert "random" not in (tmp_path / "out" / "sim-harvest-2p-seed0-2.csv").read_text()
    assert simulate("--out", "out/sim-harvest-2p-seed0-2.csv") == "out/sim-harvest-2p-seed0-2.csv"


GAME = """game d { title "TITLE"; players 2..2 }
resource vp { start 0; scored true }
action go main { gain 1 vp }
flow { rounds 1 { step s: turns seat once { main go } } }
"""


@pytest.mark.parametrize("title", ["[/bold] [red]x", "T" * 100_000])
@pytest.mark.parametrize("command", ["play", "simulate"])
def test_titles_of_the_rules_are_printed_as_written_and_in_brief(command, title, tmp_path):
    """A title '[/bold]' was read as rich markup (a MarkupError's traceback); a title of
    100,000 characters took minutes of rich's highlighting and was printed whole."""
    rules = tmp_path / "mine.rules"
    rules.write_text(GAME.replace("TITLE", title))
    result = runner.invoke(cli.app, [command, str(rules), "--players", "2", "--quiet",
                                     "--out", str(tmp_path / ("r.csv" if command == "simulate" else "o"))], env=WIDE)
    assert result.exit_code == 0 and "Traceback" not in result.output, result.output
    assert title[:60] in result.output and len(result.output) < 20_000
    refused = runner.invoke(cli.app, [command, str(rules), "--players", "3", "--quiet"], env=WIDE)
    assert refused.exit_code == 1 and f"{title[:60]}" in refused.output and "is for 2 players" in refused.output
    assert len(refused.output) < 1000


def test_play_interrupted_keeps_the_game_so_far(tmp_path, monkeypatch):
    """Ctrl-C in a long game printed a traceback and lost every move: the record so far is
    written (it replays) and the scores so far shown; exit status 130."""
    import random

    import boardrules

    played = []

    def stopped(g, bots, on_action):
        played.append(g)
        rng = random.Random(1)
        for _ in range(5):
            g.play(g.legal_actions().sample(rng))
        raise KeyboardInterrupt
    monkeypatch.setattr(cli, "play_out", stopped)
    result = runner.invoke(cli.app, PLAY + ["--out", str(tmp_path)], env=WIDE)
    assert result.exit_code == 130 and "Traceback" not in result.output, result.output
    assert "scores so far" in result.stdout and "interrupted: the record holds the game so far" in result.stderr
    game = boardrules.load_game((tmp_path / "harvest-2p-seed1.json").read_text())
    assert game.record.actions == played[0].record.actions and len(game.record.actions) >= 5
    assert not game.over


def test_play_keeps_the_record_of_a_game_whose_final_score_breaks_a_rule(tmp_path):
    # (the error came before the record was written: the game was lost)
    rules = tmp_path / "t.rules"
    rules.write_text("game t { players 1..2; final_score c // 0 }\nresource c { scored true }\n"
                     "action a main { gain 1 c }\nflow { rounds 1 { step s: turns seat once { main a } } }\n")
    result = runner.invoke(cli.app, ["play", str(rules), "--players", "2", "--quiet", "--out", str(tmp_path)],
                           env=WIDE)
    record = tmp_path / "t-2p-seed1.json"
    assert result.exit_code == 1 and "Traceback" not in result.output, result.output
    assert f"its final_score for p1 breaks a rule: division by zero in '//' [rule: final_score " in result.output
    assert f"(the record: {record})" in result.output and record.exists()


LISTED = ('game t { players 1..2 }\noption bonus = [1, 2]\noption motto = "a,b"\nresource c { scored true }\n'
          'action a main { gain (sum x for x in bonus) c }\nflow { rounds 1 { step s: turns seat once { main a } } }\n')


@pytest.mark.parametrize("given, bonus", [("bonus=3,4,5", [3, 4, 5]), ("bonus=7", [7]), ("bonus=", []),
                                          ("motto=x,y", [1, 2])])
def test_a_list_option_is_given_on_the_command_line_as_items_between_commas(given, bonus, tmp_path):
    # (a text never fit a list option: "option 'factions' needs a list, got 'terrans,xenos'")
    import json
    rules = tmp_path / "t.rules"
    rules.write_text(LISTED)
    result = runner.invoke(cli.app, ["play", str(rules), "--players", "1", "--quiet", "--out", str(tmp_path),
                                     "-o", given], env=WIDE)
    assert result.exit_code == 0, result.output
    options = json.loads((tmp_path / "t-1p-seed1.json").read_text())["options"]
    assert options.get("bonus", [1, 2]) == bonus
    assert options.get("motto", "a,b") == ("x,y" if given.startswith("motto") else "a,b")   # a text keeps its commas


COIN_RACE = """\
game coin_race { players 2..4 }
resource coins { start 1; scored true }
action work main { gain 2 coins }
flow { rounds 1 { step play: turns seat once { main work } } }
"""


@pytest.mark.parametrize("command", ["play", "simulate"])
def test_a_long_game_name_still_makes_a_file_name_the_system_takes(command, tmp_path, monkeypatch):
    """A name over the file system's 255 bytes ('eclipse-9p-seed-9223372036854775808' and 14
    modules, a second game: '…+warp-portals~2.json'; a rules file of a long name) was a
    traceback, 'OSError: File name too long', after the whole game was played: a long name keeps
    its start and a digest of the whole, so two long names stay two."""
    monkeypatch.chdir(tmp_path)   # (simulate writes to out/ here)
    # a record, or a results table: CSV, and Parquet beside it only with pyarrow (the 'analysis'
    # extra; 'pip install -e .[test]' alone failed here, expecting two files of each run)
    per_run = 1 + (command == "simulate" and importlib.util.find_spec("pyarrow") is not None)
    files = []
    for n, tail in enumerate(("a", "b")):   # (two names alike in their first 245 characters)
        rules = tmp_path / f"{'g' * 245}{tail}.rules"
        rules.write_text(COIN_RACE, encoding="utf-8")
        argv = [command, str(rules), "--players", "2", "--quiet"]
        result = runner.invoke(cli.app, argv + (["-n", "2"] if command == "simulate" else []), env=WIDE)
        assert result.exit_code == 0 and "Traceback" not in result.output, result.output
        files = sorted(p.name for p in (tmp_path / "out").iterdir())
        assert len(files) == (n + 1) * per_run, files
    assert all(len(name.encode()) <= 255 and name.startswith(("g" * 100, "sim-" + "g" * 100)) for name in files)


@pytest.mark.parametrize("command, folder", [
    (["play", "harvest", "--players", "2", "--quiet", "--out"], "{file}"),
    (["play", "harvest", "--players", "2", "--quiet", "--out"], "{file}/sub"),
    (["simulate", "harvest", "--players", "2", "-n", "1", "--quiet", "--out"], "{file}/r.csv"),
    (["simulate", "harvest", "--players", "2", "-n", "1", "--quiet", "--out"], "{file}/sub/r.csv"),
])
def test_a_file_where_the_output_folder_should_be_is_named(tmp_path, command, folder):
    """'--out FILE' (or a folder under a file, '--out /dev/null/x.csv') said 'File exists', the
    user asking which: the file in the folder's place is named ('F is not a folder')."""
    file = tmp_path / "taken"
    file.write_text("x")
    out = folder.format(file=file)
    result = runner.invoke(cli.app, command + [out], env=WIDE)
    assert result.exit_code == 1 and f"{out}: {file} is not a folder" in result.output, result.output
    assert file.read_text() == "x"


OWN = """game tiny { players 1..2 }
option bonus = 1
resource coins { scored true }
action work main { gain (1 + bonus) coins }
flow { rounds 1 { step play: turns seat once { main work } } }
"""


def test_check_takes_a_game_of_ones_own_as_play_does(tmp_path):
    """'boardrules play tiny.rules --rules house.rules' played, while 'boardrules check --game
    tiny.rules house.rules' said "no game named 'tiny.rules'"."""
    own, house = tmp_path / "tiny.rules", tmp_path / "house.rules"
    own.write_text(OWN)
    house.write_text("override option bonus = 5\n")
    ok = runner.invoke(cli.app, ["check", "--game", str(own), str(house)], env=WIDE)
    assert ok.exit_code == 0 and f"ok: {house}" in ok.output, ok.output
    house.write_text("override option bonu = 5\n")
    bad = runner.invoke(cli.app, ["check", "--game", str(own), str(house)], env=WIDE)
    assert bad.exit_code == 1 and "nothing to override: no option named 'bonu'" in bad.output, bad.output
    assert "did you mean 'bonus'?" in bad.output
    unnamed = tmp_path / "tiny"   # (as play says of a rule file without its ending)
    unnamed.write_text(OWN)
    named = runner.invoke(cli.app, ["check", "--game", str(unnamed), str(house)], env=WIDE)
    assert named.exit_code == 1, named.output
    assert "(a rule file of your own? its name must end in .rules)" in named.output


STUCK_LATER = """game stuckgame { players 2 }
resource coins { }
event shout(p: player)
when shout(p) { emit shout(p) }
action work main { require round < 2 else "no more work"; gain 1 coins }
action quit main { emit shout(me) }
flow { rounds 3 { step play: turns seat once { main work, quit } } }
"""


def test_a_game_that_cannot_go_on_keeps_its_record_so_far(tmp_path):
    """A house-rule author's game stuck in round 2 (a trigger emitting its own event) ended
    with the error alone: the moves that led there were lost. The record so far is written,
    named in the error, and replays."""
    game = tmp_path / "stuckgame.rules"
    game.write_text(STUCK_LATER, encoding="utf-8")
    out = tmp_path / "o"
    result = runner.invoke(cli.app, ["play", str(game), "--players", "2", "--bot", "random", "--quiet",
                                     "--out", str(out)], env=WIDE)
    assert result.exit_code == 1 and "Traceback" not in result.output, result.output
    assert "the game is stuck after 2 actions" in result.stderr
    assert "p1 quit: rules call each other more than 100 levels deep" in result.stderr
    [record] = out.glob("*.json")
    assert result.stderr.rstrip().endswith(f"(the record so far: {record})")
    replayed = runner.invoke(cli.app, ["replay", str(record)], env=WIDE)
    assert replayed.exit_code == 0 and "2 moves replayed, the game is not finished" in replayed.output
    # simulate keeps no record of it: its error says how to get one (the same game, by play)
    simulated = runner.invoke(cli.app, ["simulate", str(game), "--players", "2", "--games", "2", "--bot",
                                        "random", "--workers", "1", "--quiet", "--seed", "1",
                                        "--out", str(tmp_path / "r.csv")], env=WIDE)
    assert simulated.exit_code == 1 and "the game of seed 1: " in simulated.stderr, simulated.output
    assert simulated.stderr.rstrip().endswith("plays that game alone and writes its record so far")


def test_a_game_stuck_at_its_start_writes_no_record(tmp_path):
    """Nothing to keep: no moves were played (the error alone, as before)."""
    game = tmp_path / "never.rules"
    game.write_text('game never { players 2 }\nresource vp { }\naction w main { require vp > 5 else "never" }\n'
                    "flow { rounds 1 { step play: turns seat once { main w } } }\n", encoding="utf-8")
    out = tmp_path / "o"
    result = runner.invoke(cli.app, ["play", str(game), "--players", "2", "--quiet", "--out", str(out)], env=WIDE)
    assert result.exit_code == 1 and "the game is stuck after 0 actions" in result.stderr, result.output
    assert "record so far" not in result.stderr and not list(out.glob("*.json"))
