"""What the command line prints: its version, scores titled by whether the game is over,
players named with their faction or species, replay errors naming the move or the file."""

from __future__ import annotations

import json
import re

import pytest

from typer.testing import CliRunner

import boardrules
from boardrules import plugins
from boardrules.cli import app

runner = CliRunner()


def test_version():
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and result.output.strip() == f"boardrules {boardrules.__version__}"


def _record(tmp_path, name: str, cut: int, extra: list[str] = ()):
    game = boardrules.new_game("harvest", players=2, seed=1)
    boardrules.bots.play_out(game)
    data = json.loads(game.save())
    data["actions"] = data["actions"][:cut] + list(extra)
    data.pop("final", None)
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return path


def test_an_unfinished_game_is_titled_as_such(tmp_path):
    path = _record(tmp_path, "part.json", 10)
    result = runner.invoke(app, ["replay", str(path)], env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    assert f"{path}: 10 moves replayed, the game is not finished" in result.output
    assert "Harvest: scores so far (the game is not finished: 10 moves)" in result.output
    assert "final scores" not in result.output and "winner" not in result.output


def test_a_garbage_move_is_named_by_its_number(tmp_path):
    path = _record(tmp_path, "bad.json", 10, ["garbage move here"])
    result = runner.invoke(app, ["replay", str(path)], env={"COLUMNS": "200"})
    assert result.exit_code == 1
    assert "error: move 11: 'garbage move here':" in result.output
    assert "Traceback" not in result.output


def test_an_unreadable_rule_file_is_named(tmp_path):
    bad = tmp_path / "bin.rules"
    bad.write_bytes(b"\xff\xfe resource")
    result = runner.invoke(app, ["play", "harvest", "--players", "2", "--rules", str(bad)],
                           env={"COLUMNS": "300"})
    assert result.exit_code == 1
    assert f"cannot read rule file {bad}: it is not UTF-8 text" in result.output


def test_eclipse_scores_name_each_players_species(tmp_path):
    result = runner.invoke(app, ["play", "eclipse", "--players", "3", "--seed", "1", "--quiet",
                                 "--out", str(tmp_path)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    header = next(line for line in result.output.splitlines() if "source" in line)
    game = boardrules.load_game((tmp_path / "eclipse-3p-seed1.json").read_text())
    for p in range(3):
        species = game.get("species_of", p)
        title = game.ruleset.entities[species].fields["title"]   # its printed name
        assert species and title and f"p{p + 1} {title}" in header


def test_score_sources_show_an_entitys_title(tmp_path):
    from pathlib import Path

    from boardrules.cli import _source_label
    text = (Path(__file__).parent / "core" / "rules" / "harvest.rules").read_text()
    text = text.replace('card reap { cost 2; title "Reap"', 'card reap { cost 2; title "Reaping hook"')
    text = text.replace('card sow { cost 1; title "Sow"', "card sow { cost 1")
    game = boardrules.new_game(texts={"h.rules": text}, players=2, seed=1)
    assert _source_label(game, "reap") == "Reaping hook"
    assert _source_label(game, "sow") == "sow"
    assert _source_label(game, "start") == "starting score"    # the engine's own sources in words


def test_a_steps_score_row_shows_its_title(tmp_path):
    """A flow step's row showed its name ('final'): a step may have a title, as entities do,
    also one a module adds or overrides."""
    from boardrules.cli import _source_label

    house = tmp_path / "house.rules"
    house.write_text('step toll "Road toll" after income: do { for p in players { gain 1 vp to p } }\n'
                     "override step final: do { for p in players { call score_grain(p) } }\n")
    game = boardrules.new_game("harvest", players=2, seed=1, rules=[str(house)])
    assert _source_label(game, "toll") == "Road toll"
    assert _source_label(game, "final") == "final"   # (overridden without a title)
    game = boardrules.new_game("harvest", players=2, seed=1)
    assert _source_label(game, "final") == "Final scoring"


def test_top_level_reactions_of_a_module_and_a_house_rule_score_on_rows_of_their_own(tmp_path):
    """Harvest's market-day module and a house rule file both gain VP in a top-level 'when
    round_ends': each is its own row, titled by the module or the file (they shared one row,
    'when round_ends', that named neither)."""
    house = tmp_path / "house.rules"
    house.write_text("when round_ends(n) if n == rounds { for p in players { gain 1 vp to p } }\n")
    game = boardrules.new_game("harvest", players=2, seed=2, modules=["market-day"],
                               rules=[str(house)])
    boardrules.bots.play_out(game)
    for sc in game.scores():
        assert sc["sources"]["when round_ends (house.rules)"] == 1
    market = [sc["sources"].get("when round_ends (market-day)", 0) for sc in game.scores()]
    assert market == [(game.get("coins", p) // 4) for p in range(2)] and any(market)
    result = runner.invoke(app, ["play", "harvest", "--players", "2", "--seed", "2", "-m", "market-day",
                                 "--rules", str(house), "--out", str(tmp_path)], env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    rows = {line.split("│")[1].strip() for line in result.output.splitlines() if line.count("│") > 2}
    assert {"Market day: when round_ends", "house.rules: when round_ends"} <= rows
    assert "when round_ends" not in rows


# ---- score rows named as players read them (Gaia tiles, boosters, power charges) ----

def test_gaia_tiles_and_boosters_have_titles():
    rs = boardrules.build_ruleset("gaia-project")
    for kind in ("tech", "booster", "roundtile", "finaltile"):
        names = [n for n, e in rs.entities.items() if e.kind == kind]
        assert names, kind
        untitled = [n for n in names if not rs.entities[n].fields.get("title")]
        assert not untitled, f"{kind} without a title: {untitled}"
    assert rs.entities["score10"].fields["title"] == "Round: 5 VP per PI/academy"
    assert rs.entities["booster7"].fields["title"] == "Booster: +1 ore, pass: 2 VP per trading station"


def test_every_score_row_of_gaia_and_eclipse_reads_as_players_read_it():
    """No internal name on a score row (issue 13): every source of finished random games, with
    every Eclipse module on (and Harvest's: its cards and final step showed 'reap', 'final'), has a title (tiles, federation tokens, board actions, end-scoring
    steps, Eclipse's scorings) or is an engine source said in words."""
    import random

    from boardrules.cli import _source_label
    eclipse_modules = [m for m in boardrules.plugins.modules("eclipse")
                       if m not in ("nine-players", "small-galaxy", "secret-homeworlds", "simultaneous")]
    for game in (boardrules.new_game("harvest", players=3, seed=5, modules=["guilds", "drought"]),
                 boardrules.new_game("gaia-project", players=3, seed=5),
                 boardrules.new_game("eclipse", players=4, seed=5, modules=eclipse_modules,
                                     options={"auto_combat": True, "rounds": 3})):
        rng = random.Random(5)
        while not game.over:
            legal = game.legal_actions(min(game.players_to_act()))
            game.play(legal[rng.randrange(len(legal))])
        sources = {s for sc in game.scores() for s in sc["sources"]} - {"power_charge"}
        assert sources
        raw = sorted(s for s in sources if _source_label(game, s) == s)
        assert not raw, f"{game.ruleset.game}: score rows with internal names {raw}"
    rs = boardrules.build_ruleset("eclipse", modules=eclipse_modules)
    assert all(e.fields.get("title") for e in rs.entities.values() if e.kind == "scoring")


def _game_with_paid_charges() -> boardrules.Game:
    """The first random 3-player game (by seed) in which some player paid VP for a charge: which
    seed that is depends on the random bot's draws, not on the rule under test."""
    for seed in range(20):
        game = boardrules.bots.play_out(boardrules.new_game("gaia-project", players=3, seed=seed))
        if any(sc["sources"].get("power_charge", 0) < 0 for sc in game.scores()):
            return game
    raise AssertionError("no random game of 20 paid VP for a power charge")


def test_vp_paid_for_power_charges_is_its_own_row(tmp_path):
    game = _game_with_paid_charges()
    factions = {boardrules.simulate.player_role(game, p) for p in range(game.players)}
    sources = [sc["sources"] for sc in game.scores()]
    assert all(v >= 0 for s in sources for name, v in s.items() if name in factions)
    result = runner.invoke(app, ["replay", "--max-steps", "1000000", _saved(game, tmp_path)],
                           env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    table = result.output.split("\n", 1)[1]   # (the first line names the file: tmp_path holds the test's name)
    assert "VP paid for power charges" in table and "power_charge" not in table
    assert "score10" not in result.output and "booster" not in result.output


def _saved(game, folder) -> str:
    path = folder / "saved.json"
    path.write_text(game.save(), encoding="utf-8")
    return str(path)


def _raw_rows(game: boardrules.Game) -> list[str]:
    from boardrules.cli import _source_label
    sources = {s for sc in game.scores() for s in sc["sources"]}
    return sorted(s for s in sources if _source_label(game, s) == s)


def test_every_score_row_of_the_real_gaia_records_reads_as_players_read_it():
    """The real records score under titles only: the Gleens' 2 VP for a mine on a Gaia planet
    came under the action that built it ('build_mine', 'booster_mine'); they are the faction's."""
    from boardrules.replay import replay_file
    from tests.conftest import shared_path
    records = sorted(p for p in shared_path("gaia-records").glob("*.json") if p.name != "INDEX.json")
    assert len(records) == 18
    gleens_vp = 0
    for path in records:
        report = replay_file(path, check=False)
        assert not report.differences, (path.name, report.differences[:3])
        assert not _raw_rows(report.game), (path.name, _raw_rows(report.game))
        gleens_vp += sum(sc["sources"].get("gleens", 0) for sc in report.game.scores())
    assert gleens_vp > 0 and gleens_vp % 2 == 0   # 2 VP a Gaia mine (gaia-project.md, Gleens)


@pytest.mark.parametrize("form", ["choose-bid", "bid-while-choosing"])
def test_auction_bids_are_their_own_score_row(form, tmp_path):
    """The VP bid for the factions are paid at the end on a titled row (they came under
    'when round_ends', which says nothing of the auction)."""
    import random
    for seed in range(20):   # the first random game with a bid above 0 (bids of 0 are common)
        game = boardrules.new_game("gaia-project", players=3, seed=seed, modules=["auction"],
                                   options={"auction_form": form})
        rng = random.Random(seed)
        while not game.over:
            game.play(game.legal_actions().sample(rng))
        bids = [game.get("bid", p) for p in range(game.players)]
        if any(bids):
            break
    assert any(bids)
    paid = [sc["sources"].get("auction_bids", 0) for sc in game.scores()]
    assert paid == [-b for b in bids]   # paid whole, even below 0 VP
    assert not _raw_rows(game)
    result = runner.invoke(app, ["replay", _saved(game, tmp_path)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "Auction: VP bid for the faction" in result.output and "round_ends" not in result.output


def test_help_lists_each_command_in_one_piece_and_keeps_preformatted_lines_whole():
    """'boardrules --help' broke a command's summary where its docstring's lines broke, and
    'odds --help' (80 columns) cut its table of fleet syntax mid-line: every summary reads as one
    paragraph, and every line of a preformatted ('\\b') block of any command's help is whole."""
    import inspect

    from boardrules.cli import add_plugin_commands
    add_plugin_commands()
    names = [info.name or info.callback.__name__ for info in app.registered_commands]
    assert {"play", "replay", "check", "simulate", "odds", "export"} <= set(names)
    for info in app.registered_commands:
        doc = inspect.cleandoc(info.help or info.callback.__doc__)
        one_page = runner.invoke(app, [info.name or info.callback.__name__, "--help"],
                                 env={"COLUMNS": "80"}).output
        for block in doc.split("\n\n"):
            if block.startswith("\b"):
                for line in block.splitlines()[1:]:
                    assert line.rstrip() in one_page, (info.name, line)
    wide = runner.invoke(app, ["--help"], env={"COLUMNS": "400"}).output
    for info in app.registered_commands:
        summary = " ".join(inspect.cleandoc(info.help or info.callback.__doc__).split("\n\n")[0].split())
        assert summary in wide, summary


def test_every_commands_error_is_one_line_however_narrow_the_terminal(tmp_path, monkeypatch, capsys):
    """A plugin's command (odds, export), simulate and the last resort of main() printed their
    errors cut at the terminal's width ('... only gaia-project games' / 'have the site's
    notation'), a path or a fleet split; play's were whole. One printer now (cli.print_error)."""
    from boardrules import plugins
    from boardrules import cli

    plugins.manager().hook.boardrules_cli(app=app)
    record = tmp_path / ("a-long-folder-name-" * 3) / "harvest.json"
    record.parent.mkdir()
    record.write_text(boardrules.new_game("harvest", players=2, seed=1).save(), encoding="utf-8")
    cases = [
        (["odds", "2 interceptor, +pd, +point-defense", "1 cruiser"],
         "error: '+point-defense': fleet '2 interceptor, +pd, +point-defense' gives the flag +point-defense or +pd twice"),
        (["export", str(record), "-o", str(tmp_path / "x.json")],
         f"error: {record}: a game of 'harvest'; only gaia-project games have the site's notation"),
        (["simulate", "harvest", "--players", "2", "-n", "1", "-o", "goal=1", "-o", "goal=2"],
         "error: -o 'goal=2': option 'goal' is given already (-o 'goal=1'); give each option once"),
    ]
    for argv, line in cases:
        result = runner.invoke(app, argv, env={"COLUMNS": "40"})
        assert result.exit_code == 1 and line in result.output.splitlines(), (argv, result.output)

    def broken() -> None:
        raise boardrules.PluginError("a plugin's hook failed: " + "a long reason " * 8)
    monkeypatch.setattr(cli, "add_plugin_commands", broken)
    monkeypatch.setenv("COLUMNS", "40")
    with pytest.raises(SystemExit):
        cli.main()
    assert "error: a plugin's hook failed: " + "a long reason " * 7 + "a long reason" in capsys.readouterr().err


def test_an_option_several_commands_take_is_explained_alike():
    """-m and --bot mean the same to check, play and simulate, but check's and simulate's help
    said 'enable a module' (each takes '-ID' as play does) and simulate's --bot left out what
    mcts:N means and the default: one help text each (plugins.MODULE_HELP, bots.BOT_HELP)."""
    import typer.main

    from boardrules.bots import BOT_HELP
    from boardrules.plugins import MODULE_HELP

    commands = typer.main.get_command(app).commands   # type: ignore[attr-defined]
    helps: dict[str, set[str]] = {}
    for name in ("check", "play", "simulate"):
        for param in commands[name].params:
            if param.opts[0].startswith("-") and getattr(param, "help", None):
                helps.setdefault(max(param.opts, key=len), set()).add(param.help)
    assert helps["--module"] == {MODULE_HELP} and "-ID" in MODULE_HELP
    assert helps["--bot"] == {BOT_HELP} and "mcts:N" in BOT_HELP


def _narrow(text: str) -> list[str]:
    """The lines of ``text``, its tables' lines checked: at most 80 characters, nothing cut
    (a line of prose is the terminal's to wrap)."""
    lines = text.splitlines()
    assert all(len(line) <= 80 for line in lines if line[:1] in "┏┃┡│└"), text
    assert "…" not in text, text
    return lines


def test_a_score_table_of_nine_players_reads_at_80_columns(tmp_path):
    """At 80 columns a 9-player Eclipse table cut every heading and the sources ('Terr…',
    'Desc…', 'sour…'): a table too wide for its words is headed p1 … p9, the names below it."""
    import random
    game = boardrules.new_game("eclipse", players=9, seed=1, modules=["nine-players"])
    rng = random.Random(1)
    for _ in range(400):   # (past the choice of species)
        game.play(game.legal_actions().sample(rng))
    result = runner.invoke(app, ["replay", _saved(game, tmp_path)], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    lines = _narrow(result.output)
    assert any(line.startswith("┃ source ┃ p1 ┃ p2 ┃") and line.endswith("┃ p9 ┃") for line in lines)
    from boardrules.cli import _player_name
    names = [_player_name(game, p) for p in range(9)]
    assert all(" " in name for name in names)   # (every species chosen: p1 Terrans …)
    assert " · ".join(names) in " ".join(result.output.split())


def test_a_score_table_of_thousands_of_players_is_split_without_trying_every_width(monkeypatch):
    """(The trial of session 17: a rules file's game of 20,000 players drew its score table at
    20,000, 19,999 … columns, each whole, to find the width that fits: ten minutes and 900 MB.)
    At most the columns that can fit (4 characters each) are tried, and each table fits (the first
    table's width was taken for all: 'p1000' is wider than 'p1')."""
    from boardrules import cli
    tried = []
    real = cli.fits

    def counted(table, on=None):
        tried.append(len(table.columns))
        assert len(tried) <= 400, "tried every width"
        return real(table, on)

    monkeypatch.setattr(cli, "fits", counted)
    monkeypatch.setattr(cli, "console", cli.Console(width=80))
    names = [f"p{p + 1}" for p in range(3000)]
    rows = [("vp", ["1"] * 3000), ("[bold]total[/bold]", ["[bold]1[/bold]"] * 3000)]
    tables, short = cli._score_tables(names, rows)
    assert short == names and max(tried) <= 20 and len(tried) <= len(tables) + 20
    headings = [c.header for t in tables for c in t.columns if c.header != "source"]
    assert headings == names and all(real(t) for t in tables)   # (the last ones fit too: 'p3000')


def test_a_score_table_that_fits_keeps_the_names_in_its_headings(tmp_path):
    import random
    game = boardrules.new_game("gaia-project", players=4, seed=1)
    rng = random.Random(1)
    for _ in range(80):
        game.play(game.legal_actions().sample(rng))
    result = runner.invoke(app, ["replay", _saved(game, tmp_path)], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    assert "┃ p1 Hadsch Hallas ┃" in result.output and " · " not in result.output
    _narrow(result.output)


def test_the_summaries_of_nine_players_read_at_80_columns(monkeypatch):
    """``simulate``'s tables at 80 columns for 9 players: names wrap between words, no figure
    or heading is cut."""
    import io
    import random

    from rich.console import Console

    from boardrules import simulate_cli
    out = io.StringIO()
    monkeypatch.setattr(simulate_cli, "console", Console(file=out, width=80))
    rs = boardrules.build_ruleset("eclipse", modules=["nine-players"])
    species = sorted(e for e, d in rs.entities.items() if d.kind == "species")
    rng = random.Random(1)
    rows = []
    for seed in range(30):
        scores = [rng.randint(-5, 1500) for _ in range(9)]
        rows.append({"seed": seed, "players": 9, "roles": rng.sample(species * 2, 9), "scores": scores,
                     "bots": ["greedy", "random", "mcts:1000"] * 3, "ranks": [1] * 9,
                     "winners": [scores.index(max(scores))], "actions": 3000, "rounds": 9,
                     "seconds": 1.0, "record": ""})
    simulate_cli._print_summary(rs, rows)
    _narrow(out.getvalue())
    assert "│ Descendants of Draco │" in out.getvalue() and "mcts:1000" in out.getvalue()


def test_counts_of_one_are_singular_in_every_commands_summary(tmp_path):
    """'1 moves replayed', '(the game is not finished: 1 moves)', '1 games in', '1 players, 45
    move lines' and 'Monte-Carlo (1 battles)' (messages already counted in words)."""
    game = boardrules.new_game("harvest", players=2, seed=1)   # (the setup's draw: one move)
    record = tmp_path / "one.json"
    record.write_text(game.save())
    replay = runner.invoke(app, ["replay", str(record)], env={"COLUMNS": "200"})
    assert replay.exit_code == 0, replay.output
    assert f"{record}: 1 move replayed, the game is not finished" in replay.stdout
    assert "(the game is not finished: 1 move)" in replay.stdout
    simulated = runner.invoke(app, ["simulate", "harvest", "--players", "2", "-n", "1", "--quiet", "--out",
                                    str(tmp_path / "r.csv")], env={"COLUMNS": "200"})
    assert simulated.exit_code == 0 and "\n1 game in " in simulated.stdout, simulated.output
    plugins.manager().hook.boardrules_cli(app=app)   # (odds and export are the plugins' commands)
    odds = runner.invoke(app, ["odds", "2 interceptor", "1 ancient", "--mc", "1"], env={"COLUMNS": "200"})
    assert odds.exit_code == 0 and "Monte-Carlo (1 battle)" in odds.stdout, odds.output
    gaia = boardrules.new_game("gaia-project", players=1, seed=1)
    boardrules.bots.play_out(gaia, boardrules.bots.seat_bots(["random"], 1, 1))
    (tmp_path / "gaia.json").write_text(gaia.save())
    export = runner.invoke(app, ["export", str(tmp_path / "gaia.json"), "-o", str(tmp_path / "site.json")],
                           env={"COLUMNS": "200"})
    assert export.exit_code == 0, export.output
    assert re.fullmatch(rf"{re.escape(str(tmp_path / 'site.json'))}: 1 player, \d+ move lines\n", export.stderr)
