"""Many seeded games at once, for balance testing and bot research.

    rs = boardrules.build_ruleset("gaia-project", rules=["house.rules"])
    rows = simulate(SimulationSpec(rs, players=4, games=100, bots=("greedy",)), workers=2)

Game ``i`` of a simulation uses seed ``first_seed + i`` for chance and its bots (each seat's
bot is seeded from it), so every game is reproducible alone; each row keeps the game's record
(JSON), so :func:`boardrules.load_game` replays any of them. Games run in a process pool by
default, or on a Ray cluster (``backend="ray"``, the optional extra ``boardrules[ray]``): each
worker gets the ruleset once, then only seeds, in chunks (:mod:`boardrules.simulate_pool`).
"""

from __future__ import annotations

import csv
import importlib.util
import io
import math
import os
import statistics
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import attrs

from .limits import LIMITS, in_bytes, raise_with
from .bots import bot_specs, play_out, seat_bots
from .errors import GameStuckError, NotationError
from .files import make_folder, not_readable, read_bounded
from .game import Game
from .quoting import as_int, brief_text, check_count, counted, escape, read_whole
from .record import check_seed
from .ruleset import Ruleset
from .runtime import F_ROUND

ROLE_KINDS = ("faction", "species")

Row = dict[str, Any]
"""A result row: column name to value (see :func:`run_game` and :data:`COLUMNS`)."""


@attrs.frozen
class GameTask:
    """One game to play: everything a worker needs (it is pickled; a ruleset pickles as the
    recipe that built it: game, modules, options and house-rule texts, so workers on other
    machines need no files). ``bots``: bot specs as for :func:`boardrules.bots.seat_bots`."""

    ruleset: Ruleset
    players: int
    seed: int
    bots: tuple[str, ...] = ()
    max_actions: int = 100_000
    max_steps: int | None = None


@attrs.frozen
class SimulationSpec:
    """``games`` games with ``players`` players under ``ruleset``, seeds ``first_seed`` onwards;
    ``max_actions`` bounds a game's length, ``max_steps`` is each game's execution budget (as
    for :func:`boardrules.new_game`; None: the limit in force now, ``LIMITS.max_steps``)."""

    ruleset: Ruleset
    players: int
    games: int
    first_seed: int = 0
    bots: tuple[str, ...] = attrs.field(default=(), converter=bot_specs)
    max_actions: int = 100_000
    max_steps: int | None = None

    def __attrs_post_init__(self) -> None:
        # (whole numbers of other integer types, NumPy's, kept as ints: they reach Game)
        object.__setattr__(self, "games", check_count(self.games, "games", 1))
        object.__setattr__(self, "max_actions", check_count(self.max_actions, "max_actions", 1))
        object.__setattr__(self, "max_steps", check_count(   # (the caller's, also in workers)
            LIMITS.max_steps if self.max_steps is None else self.max_steps, "max_steps", 1))
        object.__setattr__(self, "first_seed", check_seed(self.first_seed, "first_seed"))
        players = as_int(self.players)
        if players is not None:   # (another type: Game refuses it in our words)
            object.__setattr__(self, "players", players)
        check_seed(self.first_seed + max(0, self.games - 1), "the last game's seed (first_seed + games - 1)")

    def tasks(self) -> list[GameTask]:
        return [GameTask(self.ruleset, self.players, self.first_seed + i, self.bots,
                         self.max_actions, self.max_steps) for i in range(self.games)]


def player_role(game: Game, player: int) -> str | None:
    """The faction or species ``player`` plays (an entity of kind ``faction``/``species``
    owned by that player, else the value of a per-player variable of that kind, such as
    Eclipse's ``species_of``), or None."""
    found: str | None = None
    values = game.state.values
    for kind in ROLE_KINDS:
        for e in game.ruleset.by_kind.get(kind, ()):
            if values.get(("o", e)) == player:
                found = e
        for var in game.ruleset.vars.values():
            if found is None and var.type.name == kind and var.per == ("player",):
                found = values.get(("v", var.name, player))
    return found


def entity_title(rs: Ruleset, name: str) -> str | None:
    """Entity ``name``'s ``title`` field (the name players read: "Terrans" for ``terrans``),
    or None when ``name`` is no entity or has no title."""
    entity = rs.entities.get(name)
    title = entity.fields.get("title") if entity is not None else None
    return title if isinstance(title, str) and title else None


def step_title(rs: Ruleset, name: str) -> str | None:
    """Flow step ``name``'s title (``step final "Final scoring": …``), or None when no step
    of that name has one."""
    for stage in rs.stages:
        for step in stage.steps:
            if step.name == name and step.node is not None and step.node.title:
                return step.node.title
    return None


def run_game(task: GameTask) -> Row:
    """Play ``task``'s game to its end; return its row: ``seed``, ``players``, ``actions``
    (record length), ``rounds``, ``seconds`` (wall clock) and ``cpu`` (CPU seconds of this
    process), ``winners`` (seats, 0-based), per seat ``scores``, ``roles`` and ``ranks`` (1 =
    first; shared places share a rank), ``bots`` and ``record`` (the game's JSON record,
    compact). Exceptions propagate (a game that cannot end is a bug)."""
    return _play(task.ruleset, task.players, task.seed, task.bots, task.max_actions, task.max_steps)


def _play(ruleset: Ruleset, players: int, seed: int, bot_specs: tuple[str, ...],
          max_actions: int, max_steps: int | None = None) -> Row:
    start, cpu = time.perf_counter(), time.process_time()
    g = Game(ruleset, players, seed, max_steps=max_steps)
    bots = seat_bots(bot_specs, players, seed)
    try:
        play_out(g, bots, max_actions=max_actions)
    except GameStuckError as err:   # (which game: its seed replays it)
        raise GameStuckError(f"the game of seed {seed}: {err}", refusals=err.refusals) from None
    ranks = [0] * players
    place = 1
    ranking = g.ranking()
    for group in ranking:
        for p in group:
            ranks[p] = place
        place += len(group)
    row = {
        "seed": seed, "players": players, "actions": len(g.record.actions),
        "rounds": g.state.values.get(F_ROUND, 0),
        "winners": list(ranking[0]),
        "scores": [s["total"] for s in g.scores()],
        "roles": [player_role(g, p) for p in range(players)],
        "ranks": ranks,
        "bots": [b.name for b in bots],
        "record": g.save(compact=True),
    }
    del g, bots   # (freeing the game is part of its cost)
    row["seconds"] = round(time.perf_counter() - start, 3)
    row["cpu"] = round(time.process_time() - cpu, 6)
    return row


def winner_score(row: Row) -> int:
    """The best scored total among the game's winners (``row["winners"]``, those the ranking puts
    first): not the game's highest total, where a ``final_score`` ranks (an alliance's shared
    score can put a player with fewer VP first)."""
    return int(max(row["scores"][p] for p in row["winners"]))


def run_tasks(tasks: Iterable[GameTask], *, workers: int = 0, backend: str = "process",
              on_result: Callable[[Row], object] | None = None, chunksize: int = 0,
              start_method: str | None = None) -> list[Row]:
    """Run ``tasks`` (:class:`GameTask`) and return their rows in task order. ``workers``:
    processes (0: one per CPU; 1: in this process); ``backend``: ``process`` or ``ray`` (the
    running Ray cluster, else a local one with ``workers`` CPUs); ``on_result(row)`` is called
    as each game ends. ``chunksize``: games per message to a worker (0: chosen from the games'
    measured CPU time, see :mod:`boardrules.simulate_pool`); ``start_method``: how pool
    workers start (``fork``, ``forkserver`` or ``spawn``; default ``fork`` where the platform
    has it safely, Linux, else the platform's default). Raises ``ValueError`` for an unknown
    backend or start method and ``ImportError`` naming the extra to install when Ray is
    missing."""
    tasks = list(tasks)
    workers = check_count(workers, "workers", 0)
    chunksize = check_count(chunksize, "chunksize", 0)
    workers = workers or os.cpu_count() or 1
    rows: list[Row] = [{} for _ in tasks]

    def done(i: int, row: Row) -> None:
        rows[i] = row
        if on_result is not None:
            on_result(row)

    if backend not in ("process", "ray"):
        raise ValueError(f"no backend {backend!r}: choose process or ray")
    if backend == "process" and (workers == 1 or len(tasks) <= 1):
        for i, t in enumerate(tasks):
            done(i, run_game(t))
        return rows
    from .simulate_pool import run_pool
    run_pool(tasks, workers, backend, done, chunksize=chunksize, start_method=start_method)
    return rows


def simulate(spec: SimulationSpec, *, workers: int = 0, backend: str = "process",
             on_result: Callable[[Row], object] | None = None, chunksize: int = 0,
             start_method: str | None = None) -> list[Row]:
    """Play every game of ``spec``; return the rows (see :func:`run_game`) in seed order.
    The keywords are :func:`run_tasks`'s."""
    return run_tasks(spec.tasks(), workers=workers, backend=backend, on_result=on_result,
                     chunksize=chunksize, start_method=start_method)


# ---- results -------------------------------------------------------------------------------

COLUMNS = ("seed", "players", "seat", "role", "bot", "score", "rank", "won", "actions", "rounds",
           "seconds", "cpu", "record")


def seat_rows(rows: Iterable[Row]) -> list[Row]:
    """One flat row per game and seat (the columns of :data:`COLUMNS`); the record is kept
    on seat 1's row only (empty on the others), so each game's record is stored once."""
    out = []
    for r in rows:
        for p in range(r["players"]):
            out.append({"seed": r["seed"], "players": r["players"], "seat": p + 1,
                        "role": r["roles"][p] or "", "bot": r["bots"][p], "score": r["scores"][p],
                        "rank": r["ranks"][p], "won": int(p in r["winners"]),
                        "actions": r["actions"], "rounds": r["rounds"], "seconds": r["seconds"],
                        "cpu": r.get("cpu", 0.0), "record": r["record"] if p == 0 else ""})
    return out


PARQUET_NEEDS = 'Parquet files need pyarrow: pip install "boardrules[analysis]"'
RESULT_SUFFIXES = (".csv", ".parquet")
"""The kinds of results file :func:`write_results` writes, by the file name's ending."""


def results_kind(path: str | Path) -> str:
    """The kind of results file ``path`` names (one of :data:`RESULT_SUFFIXES`); a
    ``ValueError`` naming the supported endings for any other, an ``ImportError`` for
    ``.parquet`` without pyarrow."""
    suffix = Path(path).suffix
    if suffix not in RESULT_SUFFIXES:
        raise ValueError(f"cannot write results to {path}: a results file ends in "
                         + " or ".join(RESULT_SUFFIXES) + (f", not {suffix!r}" if suffix else
                                                           ", and this name has no ending"))
    if suffix == ".parquet" and importlib.util.find_spec("pyarrow") is None:
        raise ImportError(PARQUET_NEEDS)
    return suffix


def write_results(rows: Iterable[Row], path: str | Path) -> Path:
    """Write the per-seat table to ``path``: Parquet when it ends in ``.parquet`` (needs
    pyarrow, the extra ``boardrules[analysis]``), CSV when it ends in ``.csv``. Returns the
    path; :func:`results_kind`'s errors for any other ending."""
    kind = results_kind(path)
    flat = seat_rows(rows)
    path = Path(path)
    make_folder(path.parent)
    if kind == ".parquet":
        pa, pq = _parquet()
        pq.write_table(pa.Table.from_pylist(flat), path)
        return path
    with path.open("w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=COLUMNS)
        w.writeheader()
        w.writerows(flat)
    return path


WHOLE_COLUMNS = ("seed", "players", "seat", "score", "rank", "won", "actions", "rounds")
"""The columns of a results file that hold whole numbers; ``seconds`` and ``cpu`` hold numbers."""
_NOT_RESULTS = "not a results file of 'boardrules simulate'"


def _parquet() -> tuple[Any, Any]:
    """The modules ``pyarrow`` and ``pyarrow.parquet``; an ``ImportError`` naming the extra."""
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise ImportError(PARQUET_NEEDS) from None
    return pa, pq


@contextmanager
def _field_limit(limit: int) -> Iterator[None]:
    """Python's csv reading fields of up to ``limit`` characters, then its limit as it was (a
    limit for the whole process: not left raised for its other readers)."""
    old = csv.field_size_limit()
    csv.field_size_limit(max(old, limit))
    try:
        yield
    finally:
        csv.field_size_limit(old)


def _check_columns(shown: str, columns: Sequence[str]) -> None:
    """A :class:`~boardrules.errors.NotationError` for a results file (named ``shown``) whose
    columns lack one of :data:`COLUMNS` (``cpu`` may be missing: older files lack it)."""
    missing = [c for c in COLUMNS if c not in columns and c != "cpu"]
    if missing:
        raise NotationError(f"{shown}: {_NOT_RESULTS}: its header lacks the columns "
                            f"{', '.join(missing)} (a results file's: {', '.join(COLUMNS)})")


def _csv_row(shown: str, line: int, header: list[str], fields: list[str]) -> Row:
    """The row of CSV ``fields`` at ``line``, its numbers read; a
    :class:`~boardrules.errors.NotationError` naming the file, the line and the column."""
    if len(fields) != len(header):
        raise NotationError(f"{shown}: line {line}: {counted(len(fields), 'field')}, the header has "
                            f"{len(header)}")
    r: Row = dict(zip(header, fields))
    for k in WHOLE_COLUMNS:
        number = read_whole(r[k])
        if number is None:
            raise NotationError(f"{shown}: line {line}: {k} is {brief_text(r[k], 40)}, not a whole number")
        r[k] = number
    for k in ("seconds", "cpu"):
        try:   # (files written before the cpu column was added lack it)
            r[k] = float(r.get(k) or 0.0)
        except ValueError:
            raise NotationError(f"{shown}: line {line}: {k} is {brief_text(r[k], 40)}, not a number") from None
    return r


def read_results(path: str | Path) -> list[Row]:
    """The per-seat rows of a results file :func:`write_results` wrote (Parquet when ``path``
    ends in ``.parquet``, else CSV), numbers as ints and floats, each game's record (JSON text)
    in the ``record`` column of seat 1's row. The file is read whole, so a stranger's is held to
    ``LIMITS.max_results_bytes`` (its bytes, and a Parquet file's data uncompressed) and
    ``LIMITS.max_results_rows``, checked before its rows are read (a device or a pipe is read
    as :func:`~boardrules.files.read_bounded` reads). Raises
    :class:`~boardrules.errors.NotationError` naming the file, and the line and column where
    there is one, for a file past those limits or that is not a results file (a column
    missing, a line of another number of fields, a number that is none, a record longer than a
    record file may be, ``LIMITS.max_record_bytes``, text that is not UTF-8, a ``.parquet``
    file that is not Parquet); ``OSError`` for a file that cannot be read; ``ImportError`` for
    Parquet without pyarrow."""
    path = Path(path)
    shown = escape(str(path))
    parquet = _parquet() if path.suffix == ".parquet" else None   # (said before the file is read)
    most = LIMITS.max_results_bytes
    size = path.stat().st_size if path.is_file() else 0
    if size > most:   # (refused before a byte of it is read)
        raise _too_large(shown, f"{size} bytes")
    data, _ = read_bounded(path, most + 1)
    if len(data) > most:   # (a device or a pipe)
        raise _too_large(shown)
    if parquet is not None:
        return _parquet_rows(shown, data, *parquet)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise NotationError(f"{shown}: {not_readable(err)}") from None
    del data
    rows: list[Row] = []
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        with _field_limit(LIMITS.max_record_bytes):
            header = next(reader, None)
            if header is None:
                raise NotationError(f"{shown}: {_NOT_RESULTS}: it is empty")
            _check_columns(shown, header)
            for fields in reader:
                if len(rows) == LIMITS.max_results_rows:
                    raise _too_many(shown, f"line {reader.line_num}: ")
                rows.append(_csv_row(shown, reader.line_num, header, fields))
    except csv.Error as err:
        line = reader.line_num
        if "field limit" in str(err):
            raise NotationError(f"{shown}: line {line}: a field of more than {in_bytes(LIMITS.max_record_bytes)} "
                                f"(a game's record is at most that: {raise_with('max_record_bytes')})") from None
        raise NotationError(f"{shown}: line {line}: not CSV ({escape(str(err))})") from None
    return rows


def _parquet_rows(shown: str, data: bytes, pa: Any, pq: Any) -> list[Row]:
    """The rows of the Parquet results file ``data`` (named ``shown``), its rows and its data
    uncompressed counted from its footer before they are read (:func:`read_results`)."""
    try:
        parquet = pq.ParquetFile(pa.BufferReader(data))
    except (pa.ArrowInvalid, OSError) as err:
        raise NotationError(f"{shown}: {_NOT_RESULTS}: it is not Parquet "
                            f"({brief_text(str(err), 60)})") from None
    meta = parquet.metadata
    _check_columns(shown, parquet.schema_arrow.names)
    if meta.num_rows > LIMITS.max_results_rows:
        raise _too_many(shown, "")
    size = sum(meta.row_group(i).total_byte_size for i in range(meta.num_row_groups))
    if size > LIMITS.max_results_bytes:
        raise _too_large(shown, f"{size} bytes of data uncompressed")
    # texts read as dictionaries, as they may be stored: a text stored once for every row (a
    # megabyte's record, a million rows) would be as many copies; their size counted first
    texts = [f.name for f in parquet.schema_arrow if pa.types.is_string(f.type) or pa.types.is_large_string(f.type)]
    table = pq.ParquetFile(pa.BufferReader(data), read_dictionary=texts).read()
    size = sum(_decoded_bytes(pa, chunk) for column in table.columns for chunk in column.chunks)
    if size > LIMITS.max_results_bytes:
        raise _too_large(shown, f"{size} bytes of data decoded")
    rows: list[Row] = table.to_pylist()
    for i, r in enumerate(rows):
        r.setdefault("cpu", 0.0)
        if isinstance(r["record"], str) and len(r["record"]) > LIMITS.max_record_bytes:
            raise NotationError(f"{shown}: row {i + 1}: a record of more than {in_bytes(LIMITS.max_record_bytes)} "
                                f"(a game's record is at most that: {raise_with('max_record_bytes')})")
    return rows


def _decoded_bytes(pa: Any, chunk: Any) -> int:
    """Bytes of Arrow array ``chunk`` with its dictionary's values written out (at each row)."""
    if not pa.types.is_dictionary(chunk.type):
        return int(chunk.nbytes)
    import pyarrow.compute as pc
    lengths = pc.binary_length(chunk.dictionary)
    return int(pc.sum(pc.take(lengths, chunk.indices)).as_py() or 0) + int(chunk.indices.nbytes)


def _too_large(shown: str, size: str = "") -> NotationError:
    """The error for a results file ``shown`` of ``size`` (in words) past ``max_results_bytes``."""
    this = f"this one: {size}; " if size else ""
    return NotationError(f"{shown}: a results file is read whole, at most {in_bytes(LIMITS.max_results_bytes)} "
                         f"({this}{raise_with('max_results_bytes')})")


def _too_many(shown: str, where: str) -> NotationError:
    """The error for a results file ``shown`` past ``max_results_rows`` (``where``: its line)."""
    return NotationError(f"{shown}: {where}a results file is read whole, at most {LIMITS.max_results_rows} "
                         f"rows ({raise_with('max_results_rows')})")


# ---- summaries ------------------------------------------------------------------------------

def proportion_ci(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval of a proportion ``k/n`` (95% by default): (low, high)."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_ci(values: Iterable[float], z: float = 1.96) -> tuple[float, float, float]:
    """Mean of ``values`` with a normal-approximation interval (95%): (mean, low, high); one
    value tells nothing of the spread: (value, -inf, inf), not an interval of width 0."""
    values = list(values)
    if not values:
        return (math.nan, math.nan, math.nan)
    m = statistics.fmean(values)
    if len(values) < 2:
        return (m, -math.inf, math.inf)
    half = z * statistics.stdev(values) / math.sqrt(len(values))
    return (m, m - half, m + half)


def summarise(flat: Iterable[Row], by: str) -> list[Row]:
    """Per value of column ``by`` (``role``, ``seat``, ``bot``): games, wins, win rate with
    its 95% interval, and the score's mean, its interval, median, min and max; sorted by
    win rate. ``ValueError`` for a ``by`` that is no column of the rows."""
    groups: dict[Any, list[Row]] = {}
    for r in flat:
        if by not in r:
            raise ValueError(f"summarise: no column {brief_text(by, 40)} in the rows (columns: {', '.join(r)})")
        groups.setdefault(r[by], []).append(r)
    out = []
    for key, rs in groups.items():
        wins = sum(r["won"] for r in rs)
        scores = [r["score"] for r in rs]
        mean, lo, hi = mean_ci(scores)
        out.append({by: key, "games": len(rs), "wins": wins, "win_rate": wins / len(rs),
                    "win_ci": proportion_ci(wins, len(rs)), "score_mean": mean,
                    "score_ci": (lo, hi), "score_median": statistics.median(scores),
                    "score_min": min(scores), "score_max": max(scores)})
    return sorted(out, key=lambda s: (-s["win_rate"], str(s[by])))


def task_bytes(task: GameTask) -> int:
    """Bytes a task costs to send to a worker (pickled)."""
    import pickle
    return len(pickle.dumps(task, protocol=pickle.HIGHEST_PROTOCOL))


def compare(base: Iterable[Row], variant: Iterable[Row], by: str = "seat") -> list[Row]:
    """Base game vs house rule: per value of column ``by`` found in both (over the per-seat rows
    of each), the change in win rate and in mean score, each with a 95% interval: Newcombe's
    (hybrid Wilson score) for the win rates, Welch's normal approximation for the means
    (unbounded where a side has one game: its spread is unknown). Rows: ``{by, games, win_rate:
    (base, variant), win_diff: (diff, low, high), score_mean: (base, variant), score_diff: (diff,
    low, high)}``; a difference whose interval excludes 0 is unlikely to be chance. (The win
    rates had a normal-approximation interval, of width 0 where a rate is 0% or 100%: 0 of 10
    wins against 3 of 10 "excluded 0"; Newcombe's interval includes it.)"""
    z = 1.96
    a: dict[Any, list[Row]] = {}
    b: dict[Any, list[Row]] = {}
    for rows, out in ((base, a), (variant, b)):
        for r in rows:
            out.setdefault(r[by], []).append(r)
    result = []
    for key in sorted(set(a) & set(b), key=str):
        ra, rb = a[key], b[key]
        wa, wb = sum(r["won"] for r in ra), sum(r["won"] for r in rb)
        pa, pb = wa / len(ra), wb / len(rb)
        (la, ua), (lb, ub) = proportion_ci(wa, len(ra), z), proportion_ci(wb, len(rb), z)
        sa, sb = [r["score"] for r in ra], [r["score"] for r in rb]
        ma, mb = statistics.fmean(sa), statistics.fmean(sb)
        shalf = (z * math.sqrt(statistics.variance(sa) / len(sa) + statistics.variance(sb) / len(sb))
                 if len(sa) > 1 and len(sb) > 1 else math.inf)
        result.append({by: key, "games": (len(ra), len(rb)), "win_rate": (pa, pb),
                       "win_diff": (pb - pa, pb - pa - math.hypot(pb - lb, ua - pa),
                                    pb - pa + math.hypot(ub - pb, pa - la)),
                       "score_mean": (ma, mb), "score_diff": (mb - ma, mb - ma - shalf, mb - ma + shalf)})
    return result


def plot_scores(groups: Mapping[str, Sequence[float]], path: str | Path,
                title: str = "scores") -> Path:
    """Draw the score distribution of each group (``{label: [score, ...]}``) as overlaid
    histograms to ``path`` (PNG or SVG by its suffix). Needs matplotlib (the extra
    ``boardrules[analysis]``); raises ``ImportError`` naming it otherwise."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise ImportError('plots need matplotlib: pip install "boardrules[analysis]"') from None
    fig, ax = plt.subplots(figsize=(6, 3.5))
    lo = min(min(v) for v in groups.values())
    hi = max(max(v) for v in groups.values())
    bins = range(int(lo), int(hi) + 2, max(1, (int(hi) - int(lo)) // 20 or 1))
    for label, scores in groups.items():
        ax.hist(scores, bins=bins, alpha=0.5, label=f"{label} (n={len(scores)})")
    ax.set_xlabel("final score (VP)")
    ax.set_ylabel("players")
    ax.set_title(title)
    ax.legend()
    fig.tight_layout()
    out = Path(path)
    fig.savefig(out)
    plt.close(fig)
    return out
