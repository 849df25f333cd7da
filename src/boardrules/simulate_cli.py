"""``boardrules simulate``: many seeded bot games, a summary table and a results file."""

from __future__ import annotations

import importlib.util
import math
import statistics
import time
from pathlib import Path
from typing import List, Optional

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from .limits import LIMITS
from . import plugins
from .bots import BOT_HELP, seat_bots
from .errors import BoardrulesError, GameStuckError, PluginError, RulesError
from .files import make_folder
from .quoting import QUOTE, brief_value, counted, escape as escape_text
from .ruleset import Ruleset, build_ruleset
from .runtime import BUDGET_HELP, budget_hint
from .plugins import modules_allowing, player_counts
from .simulate import (ROLE_KINDS, Row, SimulationSpec, entity_title, results_kind, seat_rows, simulate, summarise,
                       winner_score, write_results)
from .simulate_pool import check_start_method, wire_bytes

#: The most games one ``simulate`` run plays (its rows stay in memory until they are written).
MAX_GAMES = 100_000

console = Console()
err_console = Console(stderr=True)


def simulate_command(
        game: str = typer.Argument(..., help="game name (see 'boardrules plugins'), or a .rules file"),
        games: int = typer.Option(100, "--games", "-n", min=1, max=MAX_GAMES,
                                  help=f"number of games (at most {MAX_GAMES}: every game's result "
                                       f"and record are held until the results file is written)"),
        players: int = typer.Option(..., help="players per game"),
        seed: int = typer.Option(0, help="seed of the first game; game i has seed SEED + i"),
        module: List[str] = typer.Option([], "--module", "-m", help=plugins.MODULE_HELP),
        option: List[str] = typer.Option([], "--option", "-o", help="NAME=VALUE"),
        rules: List[Path] = typer.Option([], help="house-rule files"),
        bot: List[str] = typer.Option([], help=BOT_HELP),
        workers: int = typer.Option(0, "--workers", "-w", min=0, help="processes (0: one per CPU)"),
        backend: str = typer.Option("process", help="process (a local pool) or ray"),
        start_method: Optional[str] = typer.Option(
            None, help="how pool workers start: fork (the default on Linux: workers inherit the "
                       "built ruleset), forkserver or spawn (each worker builds it once)"),
        out: Optional[Path] = typer.Option(None, help="results file: .csv, or .parquet with pyarrow; "
                                                      "written over if it exists; default "
                                                      "out/sim-GAME-Pp-seedS-N+MODULE….csv, ~2… "
                                                      "when taken"),
        quiet: bool = typer.Option(False, help="no progress bar: a line on stderr every minute "
                                                "(as games end) instead"),
        max_steps: Optional[int] = typer.Option(None, "--max-steps", min=1, help=BUDGET_HELP)) -> None:
    """Play GAMES seeded games with bots; print win rates and score distributions per faction
    (or species) and per seat, and game lengths; write one row per game and seat with each
    game's record (replay one with 'boardrules replay' after saving its record column).
    Ctrl-C stops the games and keeps those already finished (their summary and results)."""
    from .cli import (_game_texts, _options, _rules_failed, _unknown_game, bar_shown, fail, free_name,
                      heartbeat, modules_named, rules_text)   # (as play reads and shows them)
    texts = _game_texts(game)
    try:
        options = _options(option, lambda: build_ruleset(None if texts else game, modules=module, rules=rules,
                                                         texts=texts).options)
        rs = build_ruleset(None if texts else game, modules=module, options=options, rules=rules, texts=texts)
        rs.check_playable()
        lo, hi = rs.players
        if not lo <= players <= hi:
            raise ValueError(f"{brief_value(rs.title, QUOTE)} is for {player_counts((lo, hi))} players, "
                             f"not {brief_value(players, 24)}" + modules_allowing(rs.game, players, (lo, hi)))
        seat_bots(bot, players)   # refuses unknown bots and seats before any game starts
        check_start_method(start_method)
        if not -2 ** 63 <= seed <= 2 ** 63 - games:   # (a Parquet column of 64-bit numbers)
            raise ValueError(f"--seed {brief_value(seed, 30)}: the seeds of the games, SEED to SEED+GAMES-1, "
                             f"must be 64-bit whole numbers, from -2^63 to 2^63-1")
        if out is not None:
            results_kind(out)     # and a results file it cannot write
    except RulesError as err:
        _rules_failed(err, "simulate", game, players)
    except PluginError as err:
        _unknown_game(err, game)
    except (BoardrulesError, ValueError, ImportError) as err:
        fail(str(err))
    spec = SimulationSpec(rs, players, games, seed, tuple(bot), max_steps=max_steps)
    stem = Path(game).stem if texts else game
    if out is None:   # (a name of its own: it never replaces earlier results; --out FILE does)
        folder = Path("out")
        out = folder / (free_name(folder, f"sim-{stem}-{players}p-seed{seed}-{games}{modules_named(rs)}",
                                  ".csv") + ".csv")
    try:
        _check_writable(out)
    except OSError as err:
        fail(f"cannot write the results to {out}: {err.strerror or err}")
    start = time.perf_counter()
    # redrawn as games end, with no refresh thread: pool workers are forked from this process
    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), TimeRemainingColumn(), console=console, disable=not bar_shown(quiet),
                  transient=True, auto_refresh=False) as progress:
        task = progress.add_task(f"{rules_text(rs.title)}: {counted(games, 'game')}", total=games)
        beat = heartbeat(live=bar_shown(quiet))

        finished: list[Row] = []   # (what Ctrl-C keeps)

        def advance(row: Row) -> None:
            finished.append(row)
            progress.advance(task)
            progress.refresh()
            beat(lambda: f"{rules_text(rs.title)}, {int(progress.tasks[0].completed)} of {games} games played")
        interrupted = False
        try:
            rows = simulate(spec, workers=workers, backend=backend, on_result=advance,
                            start_method=start_method)
        except KeyboardInterrupt:   # (Ctrl-C: the games already finished are kept, as play keeps its record)
            interrupted = True
            rows = sorted(finished, key=lambda row: row["seed"])
        except (KeyError, IndexError) as err:
            if not isinstance(err, GameStuckError):
                raise   # not a stuck game: a bug in Python the rules call (a primitive); its traceback
            fail(f"{err.headline() if err.failed is not None else err}{budget_hint(max_steps)}"
                 f"{STUCK_REPLAY}")
        except (ImportError, ValueError, LookupError, RuntimeError, BoardrulesError) as err:
            fail(str(err))   # (a game that is stuck, never ends or breaks the budget, too)
    elapsed = time.perf_counter() - start
    if not rows:
        err_console.print("interrupted before any game finished: no results written",
                          highlight=False, markup=False)
        raise typer.Exit(130)
    _print_summary(rs, rows)
    try:
        written = [write_results(rows, out)]
        if out.suffix == ".csv":
            if importlib.util.find_spec("pyarrow") is not None:
                written.append(write_results(rows, out.with_suffix(".parquet")))
    except (OSError, ImportError) as err:
        fail(f"cannot write the results to {out}: {err}")
    sent = wire_bytes(spec.tasks(), rows)
    console.print(f"{counted(len(rows), 'game')} in {elapsed:.1f} s ({len(rows) / elapsed:.2f} games/s, {backend}; "
                  f"{sent['task']:.0f} bytes per task, {sent['result']:.0f} per result) · results: "
                  + ", ".join(map(str, written)), soft_wrap=True)
    if interrupted:
        err_console.print(f"interrupted: {len(rows)} of {games} games finished; their results are "
                          f"written ({', '.join(escape_text(str(w)) for w in written)})",
                          highlight=False, markup=False, soft_wrap=True)
        raise typer.Exit(130)


#: What a stuck game's error adds: play (not simulate) keeps the moves that led there.
STUCK_REPLAY = ("; 'boardrules play' with that seed, the same players, modules, options, rules and bots "
                "plays that game alone and writes its record so far")


def _check_writable(out: Path) -> None:
    """Raise ``OSError`` when the results file ``out`` cannot be written (its folder made, the
    file opened to append), before the games: after them, their results would be lost."""
    existed = out.exists()
    make_folder(out.parent)
    with open(out, "a", encoding="utf-8"):
        pass
    if not existed:
        out.unlink()


def _summary_table(title: str, label: str, names: list[str], groups: list[Row], *, stacked: bool) -> Table:
    """One summary table: a row per group named ``names``. Figures never wrap (a cut one
    reads as another number: '44%–10…'); two-word headings and the names do, so the table
    fits 80 columns, the width of a pipe or a file. ``stacked``: each interval under its
    figure, in one column, for a table too wide so (scores of four digits, which cut
    'Descendants' to 'Descendant|s'); only then is a name too long folded, never cut."""
    table = Table(title=title)
    table.add_column(label, overflow="fold" if stacked else "ellipsis")
    heads = ("games", "win rate\n(95% CI)", "mean score\n(95% CI)", "median", "min–max") if stacked else \
        ("games", "win\nrate", "95% CI", "mean\nscore", "95% CI", "median", "min–max")
    for col in heads:
        table.add_column(col, justify="right", no_wrap=True)
    sep = "\n" if stacked else None
    for name, g in zip(names, groups):
        lo, hi = g["win_ci"]
        slo, shi = g["score_ci"]
        wins = (f"{g['win_rate']:.0%}", f"{lo:.0%}–{hi:.0%}")
        means = (f"{g['score_mean']:.1f}", f"{slo:.1f}–{shi:.1f}" if math.isfinite(slo) else "—")  # (one game)
        figures = [sep.join(wins), sep.join(means)] if sep else [*wins, *means]
        table.add_row(name, str(g["games"]), *figures, f"{g['score_median']:g}",
                      f"{g['score_min']}–{g['score_max']}")
    return table


def _print_summary(rs: Ruleset, rows: list[Row]) -> None:
    """Per role (by its title: "Terrans", not ``terrans``), seat and bot: win rates and scores."""
    from .cli import fits, rules_text
    title = rules_text(rs.title)
    flat = seat_rows(rows)
    role = next((kind for kind in ROLE_KINDS if kind in rs.kinds), "role")   # (Gaia's faction, Eclipse's species)
    for by, label in (("role", role), ("seat", "seat"), ("bot", "bot")):
        groups = summarise(flat, by)
        if by == "role" and all(g["role"] == "" for g in groups):
            continue
        if by == "bot" and len(groups) < 2:
            continue
        names = [rules_text((entity_title(rs, g[by]) or g[by]) if by == "role" else str(g[by]))
                 for g in groups]
        table = _summary_table(f"{title}: by {label}", label, names, groups, stacked=False)
        if not fits(table, console):
            table = _summary_table(f"{title}: by {label}", label, names, groups, stacked=True)
        console.print(table)
    lengths = [r["actions"] for r in rows]
    winners = [winner_score(r) for r in rows]
    console.print(f"game length: {counted(statistics.median(lengths), 'action')} median "
                  f"({min(lengths)}–{max(lengths)}), {counted(statistics.median(r['rounds'] for r in rows), 'round')}; "
                  f"winner's score median {statistics.median(winners):g}", soft_wrap=True)
