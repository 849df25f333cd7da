"""``boardrules export RECORD -o FILE``: a Gaia Project game in the site's record format.

    boardrules play gaia-project --players 3 --seed 1     # writes out/…json
    boardrules export out/gaia-project-3p-seed1.json -o game.json
    boardrules replay game.json                           # reads it back: same final state

RECORD is anything ``boardrules replay`` reads (a boardrules record, a site record); the file
written is :func:`.export.export_game`'s JSON (docs/gaia-project.md, "Export").
"""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.console import Console

from boardrules.cli import fail
from boardrules.errors import BoardrulesError
from boardrules.quoting import counted

err_console = Console(stderr=True)


def export(record: Path = typer.Argument(..., help="a game record (boardrules JSON or a site record)"),
           output: Path = typer.Option(..., "-o", "--output", help="the file to write")) -> None:
    """Write a Gaia Project game as the play site's engine takes it (players, factions,
    options with the explicit map, move lines); exit 1 naming the move it cannot write."""
    from boardrules.replay import replay_file

    from . import GAME
    from .export import ExportError, export_game

    try:
        if output.exists() and record.exists() and output.samefile(record):   # (the record written over)
            raise ExportError(f"{record}: -o names the record itself; write the export to another file")
        report = replay_file(record)
        if report.differences:   # (a move it could not play, or a record altered: the rest is lost)
            raise ExportError(f"{record}: its replay does not reach the state it records "
                              f"({report.differences[0]}); nothing written ('boardrules replay "
                              f"{record}' lists every difference)")
        if report.game.ruleset.game != GAME:
            raise ExportError(f"{record}: a game of {report.game.ruleset.game!r}; "
                              f"only {GAME} games have the site's notation")
        text = json.dumps(export_game(report.game), indent=1)
    except (BoardrulesError, ExportError, OSError) as err:
        fail(str(err))
    try:
        output.write_text(text + "\n", encoding="utf-8")
    except OSError as err:   # (said as the record's errors are: the file, then why)
        fail(f"cannot write {output}: {err.strerror or err}")
    err_console.print(f"{output}: {counted(report.game.players, 'player')}, "
                      f"{counted(len(json.loads(text)['moves']), 'move line')}", highlight=False, markup=False)
