"""Simulation at scale: seeded, reproducible games in a pool (or on Ray), results files that
hold each game's record, and summaries with confidence intervals."""

from __future__ import annotations

import csv
import json
import math
import re

import attrs
import pytest
from typer.testing import CliRunner

import boardrules
from boardrules.cli import app
from boardrules.errors import NotationError
from boardrules.limits import LIMITS
from boardrules.simulate import (COLUMNS, GameTask, SimulationSpec, mean_ci, proportion_ci, read_results,
                                 run_game, seat_rows, simulate, summarise, task_bytes, write_results)

runner = CliRunner()


def _spec(games=4, **kw):
    rs = boardrules.build_ruleset("harvest")
    return SimulationSpec(rs, players=3, games=games, first_seed=10, bots=("greedy", "p3=random"), **kw)


def _stable(rows):
    return [{k: v for k, v in r.items() if k not in ("seconds", "cpu")} for r in rows]


def test_pool_and_single_process_give_the_same_games():
    spec = _spec()
    alone = simulate(spec, workers=1)
    pooled = simulate(spec, workers=2)
    assert _stable(alone) == _stable(pooled)
    assert [r["seed"] for r in alone] == [10, 11, 12, 13]
    for r in alone:
        g = boardrules.load_game(r["record"])          # each record replays, checks on
        assert [s["total"] for s in g.scores()] == r["scores"]
        assert g.seed == r["seed"] and sorted(r["ranks"])[0] == 1
        assert r["bots"] == ["greedy", "greedy", "random"]


def test_tasks_are_small_and_carry_house_rules(tmp_path):
    house = tmp_path / "house.rules"
    house.write_text("override resource coins { start 9 }\n")
    rs = boardrules.build_ruleset("harvest", rules=[house])
    task = GameTask(rs, 3, 1, ("random",))
    assert task_bytes(task) < 1000          # the ruleset travels as its recipe
    house.unlink()                          # a worker elsewhere needs no file
    row = run_game(task)
    g = boardrules.load_game(row["record"])
    assert g.ruleset.id == rs.id


def test_results_files_round_trip(tmp_path):
    rows = simulate(_spec(games=3), workers=1)
    flat = seat_rows(rows)
    assert len(flat) == 9 and sum(r["won"] for r in flat) >= 3
    back = read_results(write_results(rows, tmp_path / "r.csv"))
    assert [{k: r[k] for k in ("seed", "seat", "score", "rank", "won")} for r in back] == \
        [{k: r[k] for k in ("seed", "seat", "score", "rank", "won")} for r in flat]
    assert boardrules.load_game(back[0]["record"]).scores()[0]["total"] == back[0]["score"]
    pytest.importorskip("pyarrow", reason="Parquet needs the extra boardrules[analysis]")
    parquet = read_results(write_results(rows, tmp_path / "r.parquet"))
    assert [r["score"] for r in parquet] == [r["score"] for r in flat]


def test_intervals():
    lo, hi = proportion_ci(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-3) and hi == pytest.approx(0.5962, abs=1e-3)
    assert proportion_ci(0, 10)[0] == 0.0 and proportion_ci(10, 10)[1] == 1.0
    m, lo, hi = mean_ci([1, 2, 3, 4])
    assert m == 2.5 and lo == pytest.approx(2.5 - 1.96 * 1.2910 / 2, abs=1e-3)
    flat = [{"seat": 1, "won": 1, "score": 10}, {"seat": 1, "won": 0, "score": 4},
            {"seat": 2, "won": 0, "score": 6}, {"seat": 2, "won": 1, "score": 12}]
    s = summarise(flat, "seat")
    assert [(x["seat"], x["wins"], x["score_median"]) for x in s] == [(1, 1, 7.0), (2, 1, 9.0)]


def _seats(seat, wins, games, score=5):
    return [{"seat": seat, "won": int(i < wins), "score": score + i} for i in range(games)]


def test_intervals_of_small_samples_claim_no_certainty():
    """compare's win-rate interval was the normal approximation, of width 0 at 0% or 100%: 0 of
    10 wins against 3 of 10 (Fisher's exact p 0.21) "excluded 0", as did 0 of 1 against 1 of 1;
    one game's score had an interval of width 0 (in compare and in summarise's tables)."""
    from boardrules.simulate import compare
    (row,) = compare(_seats(1, 0, 10), _seats(1, 3, 10))
    diff, lo, hi = row["win_diff"]
    assert diff == pytest.approx(0.3) and lo < 0 < hi
    assert (lo, hi) == pytest.approx((-0.0376, 0.6032), abs=1e-3)   # (Newcombe 1998, method 10, by hand)
    (row,) = compare(_seats(1, 0, 1), _seats(1, 1, 1))
    assert row["win_diff"][1] < 0 < row["win_diff"][2]
    assert row["score_diff"][1:] == (-math.inf, math.inf)
    (row,) = compare(_seats(1, 50, 100), _seats(1, 60, 100))   # (large samples: about the normal one's)
    assert row["win_diff"][1:] == pytest.approx((-0.0373, 0.2321), abs=1e-3)
    assert mean_ci([7]) == (7, -math.inf, math.inf)
    (one,) = summarise([{"seat": 1, "won": 1, "score": 7}], "seat")
    assert one["score_ci"] == (-math.inf, math.inf)


def test_ray_backend_gives_the_same_games():
    pytest.importorskip("ray", reason="the ray backend needs the extra boardrules[ray]")
    import ray
    spec = _spec(games=2)
    try:
        rows = simulate(spec, workers=1, backend="ray")
    finally:
        ray.shutdown()
    assert _stable(rows) == _stable(simulate(spec, workers=1))


def test_unknown_backend():
    with pytest.raises(ValueError, match="no backend 'spark'"):
        simulate(_spec(games=2), backend="spark")


@pytest.mark.parametrize("rounds, said", [("1", "1 round;"), ("2", "2 rounds;")])
def test_the_game_length_counts_rounds_in_words(rounds, said, tmp_path):
    """A one-round game's summary said '1 rounds'."""
    result = runner.invoke(app, ["simulate", "harvest", "--players", "2", "-n", "3", "-w", "1", "-o",
                                 f"rounds={rounds}", "--quiet", "--out", str(tmp_path / "r.csv")],
                           env={"COLUMNS": "160"})
    assert result.exit_code == 0, result.output
    length = next(line for line in result.stdout.splitlines() if line.startswith("game length: "))
    assert re.fullmatch(rf"game length: \d+ actions median \(\d+–\d+\), {said} winner's score median \d+",
                        length), length


def test_simulate_command(tmp_path):
    out = tmp_path / "sim.csv"
    result = runner.invoke(app, ["simulate", "gaia-project", "--players", "2", "-n", "2", "-w", "2",
                                 "--bot", "random", "--quiet", "--out", str(out)],
                           env={"COLUMNS": "160"})
    assert result.exit_code == 0, result.output
    # (the table was titled 'by faction / species' in every game: Gaia Project's are factions)
    assert "Gaia Project: by faction" in result.output and "species" not in result.output
    assert "by seat" in result.output
    assert "game length" in result.output and "bytes per task" in result.output
    rows = read_results(out)
    assert len(rows) == 4 and {r["seed"] for r in rows} == {0, 1}
    first = boardrules.load_game(rows[0]["record"])
    assert json.loads(first.save())["seed"] == 0
    # the summary names each faction by its title (the results file keeps the ids)
    rs = boardrules.build_ruleset("gaia-project")
    roles = {r["role"] for r in rows}
    titles = {rs.entities[role].fields["title"] for role in roles}
    assert all(t != role for t, role in zip(sorted(titles), sorted(roles)))
    table = result.output.split("by faction")[1].split("by seat")[0]
    assert all(t in table for t in titles) and not any(f"│ {role} " in table for role in roles)


@pytest.mark.parametrize("finished", [2, 0])
def test_simulate_interrupted_keeps_the_games_already_finished(tmp_path, monkeypatch, finished):
    """Ctrl-C lost every game played (a traceback, no results file): the games finished are
    summarised and written, a line says how many; exit status 130, as play's."""
    import boardrules.simulate as simulate_module

    real = simulate_module.run_game
    played = []

    def run_game(task):
        if len(played) == finished:
            raise KeyboardInterrupt
        played.append(task.seed)
        return real(task)
    monkeypatch.setattr(simulate_module, "run_game", run_game)
    out = tmp_path / "sim.csv"
    result = runner.invoke(app, ["simulate", "harvest", "--players", "2", "-n", "5", "-w", "1",
                                 "--quiet", "--out", str(out)], env={"COLUMNS": "160"})
    assert result.exit_code == 130 and "Traceback" not in result.output, result.output
    if finished:
        assert f"interrupted: 2 of 5 games finished; their results are written ({out}" in result.stderr
        assert "by seat" in result.stdout
        assert sorted({r["seed"] for r in read_results(out)}) == [0, 1]
    else:
        assert "interrupted before any game finished: no results written" in result.stderr
        assert not out.exists()


def test_roles_are_factions_and_species():
    from boardrules.bots import RandomBot
    from boardrules.simulate import player_role

    def advance(g, n):
        bot = RandomBot(1)
        for _ in range(n):
            g.play(bot.choose(g))

    g = boardrules.new_game("eclipse", players=3, seed=2)
    advance(g, 40)
    assert [player_role(g, p) for p in range(3)] == [g.get("species_of", p) for p in range(3)]
    assert all(player_role(g, p) for p in range(3))
    g = boardrules.new_game("gaia-project", players=2, seed=2)
    advance(g, 20)
    assert [player_role(g, p) for p in range(2)] == [g.get("myfaction", p) for p in range(2)]
    assert player_role(boardrules.new_game("harvest", players=2, seed=1), 0) is None


@pytest.mark.parametrize("args,message", [
    (["--bot", "chess"], "no bot 'chess'"), (["--bot", "p9=random"], "not a seat"),
    (["--players", "9"], "not 9"), (["--backend", "spark"], "no backend")])
def test_simulate_command_errors(args, message, tmp_path):
    argv = ["simulate", "harvest", "-n", "1", "--quiet", "--out", str(tmp_path / "x.csv")]
    if "--players" not in args:
        argv += ["--players", "3"]
    result = runner.invoke(app, argv + args)
    assert result.exit_code == 1 and message in result.output and "Traceback" not in result.output


def test_play_with_bots_per_seat(tmp_path):
    result = runner.invoke(app, ["play", "harvest", "--players", "3", "--bot", "random", "--bot",
                                 "p2=greedy", "--quiet", "--out", str(tmp_path)], env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    bad = runner.invoke(app, ["play", "harvest", "--players", "3", "--bot", "p4=greedy"])
    assert bad.exit_code == 1 and "not a seat" in bad.output


def test_chunks_and_start_methods_give_the_same_games():
    """Games sent three to a message, or to workers started by forkserver (which rebuild the
    ruleset from its recipe once each), are the same games as in this process."""
    import multiprocessing
    spec = _spec(games=5)
    alone = _stable(simulate(spec, workers=1))
    assert _stable(simulate(spec, workers=2, chunksize=3)) == alone
    if "forkserver" in multiprocessing.get_all_start_methods():
        assert _stable(simulate(spec, workers=2, start_method="forkserver")) == alone
    with pytest.raises(ValueError, match="no start method 'telepathy'"):
        simulate(spec, workers=2, start_method="telepathy")


def test_automatic_chunks():
    from boardrules.simulate_pool import CHUNK_SECONDS, chunk_size
    assert chunk_size(0.0, 0, 1000, 2) == 1                 # nothing measured yet: one game
    assert chunk_size(1.0, 100, 1000, 2) == int(CHUNK_SECONDS / 0.01)   # 10 ms games
    assert chunk_size(30.0, 10, 1000, 2) == 1               # long games go one by one
    assert chunk_size(1.0, 1000, 40, 2) == 10               # the last chunks shrink
    assert chunk_size(1.0, 1000, 3, 2) == 1


def test_what_travels_is_small(tmp_path):
    """Per game a worker receives (index, setup, seed), not the ruleset's recipe; the
    recipe (with the house rules' text) travels once per worker."""
    from boardrules.simulate_pool import ROW_FIELDS, wire_bytes
    house = tmp_path / "house.rules"
    house.write_text("override resource coins { start 9 }\n" + "# a long comment\n" * 200)
    base = SimulationSpec(boardrules.build_ruleset("harvest"), 3, 50, bots=("random",))
    ruled = SimulationSpec(boardrules.build_ruleset("harvest", rules=[house]), 3, 50, bots=("random",))
    plain, with_house = wire_bytes(base.tasks()), wire_bytes(ruled.tasks())
    assert plain["task"] == with_house["task"] < 16
    assert 100 < plain["setup"] < 1000 < len(house.read_text()) < with_house["setup"]
    rows = simulate(attrs.evolve(base, games=4), workers=2)
    assert set(rows[0]) == set(ROW_FIELDS)
    back = wire_bytes(base.tasks()[:4], rows)["result"]
    assert back < len(rows[0]["record"]) + 200          # the record, and little else


def test_a_failing_game_stops_the_pool():
    spec = _spec(games=6, max_actions=3)
    with pytest.raises(RuntimeError, match="did not end within 3 actions"):
        simulate(spec, workers=2)


def test_summary_tables_cut_no_figure_at_80_columns(monkeypatch):
    """Piped to a file (80 columns) the tables showed '44%–10…' and '49.6–8…' for '44%–100%'
    and '49.6–83.7': a cut figure reads as another number. Every figure is whole; names fold."""
    import io

    from rich.console import Console

    from boardrules import simulate_cli
    from boardrules.ruleset import build_ruleset
    from boardrules.simulate import seat_rows, summarise
    # long names no entity has (they fold, shown as their ids) and one with a title
    roles = ["descendants-of-draco", "enlightened-of-lyra", "hadsch_hallas"]
    rows = [{"seed": s, "players": 3, "actions": 400, "rounds": 6, "winners": [s % 3],
             "scores": [101 + s, 150 + 7 * s, 99 - s], "roles": roles[s % 3:] + roles[:s % 3],
             "ranks": [1, 2, 3], "bots": ["greedy", "mcts", "random"], "record": "",
             "seconds": 1.0, "cpu": 1.0} for s in range(5)]
    out = io.StringIO()
    monkeypatch.setattr(simulate_cli, "console", Console(file=out, width=80))
    simulate_cli._print_summary(build_ruleset(game="gaia-project"), rows)
    text = out.getvalue()
    assert "Hadsch" in text and "hadsch_hallas" not in text   # (the title may fold)
    assert "…" not in text
    assert max(len(line) for line in text.splitlines()) <= 80
    for by in ("role", "seat", "bot"):
        for g in summarise(seat_rows(rows), by):
            lo, hi = g["score_ci"]
            assert f"{lo:.1f}–{hi:.1f}" in text and f"{g['score_min']}–{g['score_max']}" in text
            assert f"{g['win_ci'][0]:.0%}–{g['win_ci'][1]:.0%}" in text


def _results_text(record: str, **cells: str) -> str:
    """A one-row CSV results file whose record is ``record`` (``cells``: other columns' texts)."""
    row = {"seed": "1", "players": "1", "seat": "1", "role": "", "bot": "random", "score": "3",
           "rank": "1", "won": "1", "actions": "2", "rounds": "1", "seconds": "0.5", "cpu": "0.5",
           "record": record, **cells}
    return ",".join(COLUMNS) + "\r\n" + ",".join(row[c] for c in COLUMNS) + "\r\n"


def test_results_with_a_record_of_more_than_128_kib_are_read(tmp_path):
    """A long game's record is one field (Eclipse's run to 200 KiB and more): Python's csv
    refused any field over 128 KiB."""
    big = "x" * (300 << 10)
    path = tmp_path / "big.csv"
    path.write_text(_results_text(big), encoding="utf-8")
    limit = csv.field_size_limit()
    rows = read_results(path)
    assert len(rows) == 1 and rows[0]["record"] == big and rows[0]["score"] == 3
    assert csv.field_size_limit() == limit   # (the process's limit left as it was)


def test_a_field_longer_than_any_record_is_refused(tmp_path):
    path = tmp_path / "huge.csv"
    path.write_text(_results_text("x" * (LIMITS.max_record_bytes + 1)), encoding="utf-8")
    with pytest.raises(NotationError, match=r"huge\.csv: line 2: .*more than 64 MiB"):
        read_results(path)


@pytest.mark.parametrize("text,says", [
    ("name,score\r\nada,3\r\n", r"no\.csv: not a results file of 'boardrules simulate': its "
                                r"header lacks the columns seed, players, seat"),
    ("", r"no\.csv: not a results file .*it is empty"),
    ('{"format": "boardrules-record/1"}', r"its header lacks the columns seed, players"),
    (",".join(COLUMNS) + "\r\n1,2\r\n", r"no\.csv: line 2: 2 fields, the header has 13"),
    (_results_text("{}", score="lots"), r"no\.csv: line 2: score is 'lots', not a whole number"),
    (_results_text("{}", seconds="soon"), r"no\.csv: line 2: seconds is 'soon', not a number"),
    (_results_text("{}", seed="\x1b[2J"), r"seed is '\\x1b\[2J', not a whole number"),
])
def test_a_file_that_is_not_a_results_file_is_named(tmp_path, text, says):
    path = tmp_path / "no.csv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(NotationError, match=says):
        read_results(path)


def test_results_that_are_not_utf8_or_not_parquet_are_named(tmp_path):
    path = tmp_path / "latin.csv"
    path.write_bytes(_results_text("caf\xe9").encode("latin-1"))
    with pytest.raises(NotationError, match=r"latin\.csv: .*not UTF-8 text"):
        read_results(path)
    pytest.importorskip("pyarrow", reason="Parquet needs the extra boardrules[analysis]")
    import pyarrow as pa
    import pyarrow.parquet as pq
    path = tmp_path / "other.parquet"
    pq.write_table(pa.Table.from_pylist([{"name": "ada", "score": 3}]), path)
    with pytest.raises(NotationError, match=r"other\.parquet: not a results file .*lacks the columns seed"):
        read_results(path)
    path = tmp_path / "text.parquet"
    path.write_text("seed,score\n")
    with pytest.raises(NotationError, match=r"text\.parquet: not a results file .*not Parquet"):
        read_results(path)


@pytest.mark.parametrize("start_method", ["fork", "forkserver", "spawn"])
def test_pool_workers_play_under_the_callers_limits(start_method, limits):
    """A worker started by forkserver or spawn imported boardrules afresh: its games ran under
    the default limits, not the caller's LIMITS.changed (a game of 5 moves at most went on)."""
    import multiprocessing
    if start_method not in multiprocessing.get_all_start_methods():
        pytest.skip(f"no {start_method} here")
    limits(max_moves=5)
    with pytest.raises(boardrules.ExecutionBudgetError, match="the game has had 5 moves"):
        simulate(_spec(games=2), workers=2, start_method=start_method)


def test_ray_workers_play_under_the_callers_limits(limits):
    pytest.importorskip("ray", reason="the ray backend needs the extra boardrules[ray]")
    import ray
    limits(max_moves=5)
    try:
        with pytest.raises(boardrules.ExecutionBudgetError, match="the game has had 5 moves"):
            simulate(_spec(games=2), workers=1, backend="ray")
    finally:
        ray.shutdown()


def test_the_winners_score_is_a_winners_where_a_final_score_ranks(tmp_path):
    """The summary's "winner's score" was the game's highest total; where the game's
    ``final_score`` ranks (Eclipse's alliances share one), the player with the most VP need not
    win. Here the fewest coins win: the winner's score is the lowest total."""
    rules = tmp_path / "lowball.rules"
    rules.write_text("game lowball { players 2..2; final_score 0 - coins }\n"
                     "resource coins { start 0; scored true }\n"
                     "action work(n: int in 1..3) main { gain n coins }\n"
                     "flow { rounds 1 { step play: turns seat once { main work } } }\n")
    out = tmp_path / "r.csv"
    result = runner.invoke(app, ["simulate", str(rules), "--players", "2", "-n", "3", "-w", "1",
                                 "--bot", "random", "--quiet", "--out", str(out)], env={"COLUMNS": "160"})
    assert result.exit_code == 0, result.output
    rows = read_results(out)
    best = sorted(min(r["score"] for r in rows if r["seed"] == seed) for seed in (0, 1, 2))
    assert any(min(r["score"] for r in rows if r["seed"] == s) < max(r["score"] for r in rows if r["seed"] == s)
               for s in (0, 1, 2)), "no game where the winner has fewer coins: the test shows nothing"
    assert all(r["won"] == (r["score"] == min(q["score"] for q in rows if q["seed"] == r["seed"])) for r in rows)
    length = next(line for line in result.stdout.splitlines() if line.startswith("game length: "))
    assert length.endswith(f"winner's score median {best[1]}"), length


def test_a_results_file_past_its_limits_is_refused_before_its_rows_are_read(tmp_path, limits):
    """A results file is read whole (every row kept): a stranger's was read to its end,
    however large or long; now LIMITS.max_results_bytes and max_results_rows hold it."""
    path = tmp_path / "many.csv"
    path.write_text(_results_text("{}") + _results_text("{}").split("\r\n", 1)[1] * 3, encoding="utf-8")
    assert len(read_results(path)) == 4
    size = path.stat().st_size
    limits(max_results_bytes=size - 1)
    with pytest.raises(NotationError, match=rf"many\.csv: a results file is read whole, at most {size - 1} bytes "
                                            rf"\(this one: {size} bytes; LIMITS\.max_results_bytes; raise it"):
        read_results(path)
    limits(max_results_bytes=size, max_results_rows=3)
    with pytest.raises(NotationError, match=r"many\.csv: line 5: a results file is read whole, at most 3 rows "
                                            r"\(LIMITS\.max_results_rows; raise it"):
        read_results(path)


def test_a_device_as_results_file_is_read_no_further_than_the_limit(limits):
    limits(max_results_bytes=1000)
    with pytest.raises(NotationError, match=r"/dev/zero: a results file is read whole, at most 1000 bytes "
                                            r"\(LIMITS\.max_results_bytes"):
        read_results("/dev/zero")


def test_a_parquet_results_file_is_bounded_by_its_rows_and_its_data_uncompressed(tmp_path, limits):
    pytest.importorskip("pyarrow", reason="Parquet needs the extra boardrules[analysis]")
    rows = [{**r, "record": "x" * 100_000} for r in read_results(_one_csv(tmp_path))] * 3
    path = write_results([], tmp_path / "r.parquet")
    import pyarrow as pa
    import pyarrow.parquet as pq
    pq.write_table(pa.Table.from_pylist(rows), path)   # (a record of one letter repeated packs small)
    assert len(read_results(path)) == 3 and path.stat().st_size < 10_000
    limits(max_results_bytes=200_000)   # (100,000 bytes stored once: three rows read hold 300,000)
    with pytest.raises(NotationError, match=r"r\.parquet: a results file is read whole, at most 200000 bytes "
                                            r"\(this one: 3\d{5} bytes of data decoded; LIMITS\.max_results_bytes"):
        read_results(path)
    limits(max_results_bytes=1 << 20, max_results_rows=2)
    with pytest.raises(NotationError, match=r"r\.parquet: a results file is read whole, at most 2 rows"):
        read_results(path)
    limits(max_results_rows=3, max_record_bytes=99_999)
    with pytest.raises(NotationError, match=r"r\.parquet: row 1: a record of more than 99999 bytes"):
        read_results(path)


def _one_csv(tmp_path) -> Path:
    path = tmp_path / "one.csv"
    path.write_text(_results_text("{}"), encoding="utf-8")
    return path


def test_the_summary_by_role_is_titled_by_the_games_kind(tmp_path):
    # (every game's said 'by faction / species')
    result = runner.invoke(app, ["simulate", "eclipse", "--players", "2", "-n", "1", "-w", "1", "--bot", "random",
                                 "--quiet", "--out", str(tmp_path / "e.csv")], env={"COLUMNS": "160"})
    assert result.exit_code == 0, result.output
    assert "Eclipse: by species" in result.output and "faction" not in result.output
