"""Replaying records: boardrules' own JSON records and, through plugins, other sites' logs."""

from __future__ import annotations

from pathlib import Path

import attrs

from .limits import LIMITS
from . import plugins
from .errors import NotationError
from .game import Game, final_mismatch, rules_changed
from .jsonshape import brief_json
from .quoting import escape
from .record import FORMAT, Record, RecordFileError, read_record_file

@attrs.frozen
class ReplayReport:
    """The outcome of a replay: the game reached, the number of moves replayed, the
    differences from the state the record claims (empty when it matches) and notes on how it
    was replayed (e.g. a plugin's lenient mode for old records; printed by the CLI)."""

    game: Game
    moves: int
    differences: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.differences


def _results_hint(text: bytes) -> str:
    """For a file that is not a record: how to replay a game of it when it is the results file
    of ``boardrules simulate`` (which holds each game's record in a column), else ``""``."""
    from .simulate import COLUMNS   # (simulate plays games: not needed to read a record)
    if not text.startswith(",".join(COLUMNS).encode()):
        return ""
    return ("; it is the results file of 'boardrules simulate': a game's record is in its "
            "'record' column (boardrules.load_game(row['record']), or save it to a file first)")


def replay_file(path: str | Path, *, check: bool = True, max_steps: int | None = None) -> ReplayReport:
    """Replay a record file: a boardrules record, or any format a plugin reads; ``max_steps``:
    the execution budget (see :func:`boardrules.new_game`; None: ``LIMITS.max_steps``, resolved
    here, so a plugin's ``boardrules_replay`` hook receives a number as ever).

    Raises :class:`~boardrules.errors.NotationError` for a file no plugin reads (or one over
    :data:`LIMITS.max_record_bytes`) and
    :class:`~boardrules.errors.IllegalActionError` (naming the move) for an illegal move.
    """
    path = Path(path)
    max_steps = LIMITS.max_steps if max_steps is None else max_steps
    shown = escape(str(path))   # (a file name may hold control characters)
    try:
        data = read_record_file(path)
    except OSError as err:
        raise NotationError(f"{shown}: cannot read a record ({escape(err.strerror or str(err))})") from None
    except RecordFileError as err:
        raise NotationError(f"{shown}: cannot read a record ({escape(str(err))}){_results_hint(err.text)}") from None
    if isinstance(data, dict) and data.get("format") == FORMAT:
        record = Record.from_json(data)
        game = Game.from_record(record, check=check, max_steps=max_steps)
        mismatch = final_mismatch(record, game)
        changed = rules_changed(record, game.ruleset) if mismatch is None else ""   # (else said there)
        return ReplayReport(game, len(record.actions), () if mismatch is None else (mismatch,),
                            (f"replayed with other rules than it was written with: {changed}",) if changed else ())
    report = plugins.manager().hook.boardrules_replay(path=path, data=data, check=check,
                                                      max_steps=max_steps)
    if not isinstance(report, ReplayReport):
        kind = data.get("format") if isinstance(data, dict) else None
        if isinstance(kind, str) and kind.startswith("boardrules-record/"):   # (a later version's)
            raise NotationError(f"{shown}: a record of format {brief_json(kind)}; this version of "
                                f"boardrules reads {FORMAT!r}")
        raise NotationError(f"{shown}: no installed plugin reads this kind of record")
    return report
