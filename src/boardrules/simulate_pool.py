"""Where a simulation's games run: a local process pool or a Ray cluster, in chunks.

:func:`boardrules.simulate.run_tasks` calls :func:`run_pool` when more than one worker plays.
What travels between the parent and its workers (``bench/bench_bots.py --only scaling``
measures it):

* once per worker, the *setups*: one ``(ruleset, players, bots, max_actions, max_steps)`` per kind of game
  in the simulation (a ruleset pickles as its recipe: game, modules, options and house-rule
  texts). With the ``fork`` start method (the default on Linux) nothing is pickled at all: the
  pool's processes are forked from the parent after it imported boardrules and built the
  ruleset, so every worker starts with both. With ``forkserver`` (the server imports
  boardrules once) or ``spawn``, each worker rebuilds the ruleset once, when it receives the
  setups, never per game. On Ray the setups go once to the object store. The caller's limits
  (:data:`boardrules.limits.LIMITS`) go with the setups and are put in force in the worker
  before its rulesets are rebuilt.
* per chunk of games: ``((task index, setup index, seed), ...)``, a few bytes a game.
* per game back: the row's values as a tuple in :data:`ROW_FIELDS` order (no key names); the
  compact JSON record is most of it.

Chunks: ``chunksize`` games per message, or (0) chosen as the games go: one game per chunk
until the first results tell the CPU time of a game, then enough games to fill about
:data:`CHUNK_SECONDS` of CPU time, never more than the games left divided by twice the
workers (so the last chunks are small and the workers finish together). At most two chunks
per worker are in flight, and results are handed on as each chunk ends.
"""

from __future__ import annotations

import gc
import multiprocessing
import pickle
import signal
import sys
from collections import deque
from collections.abc import Callable, Collection, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import TYPE_CHECKING, Any

from .limits import LIMITS, Limits, adopt
from .ruleset import freeze_once
from .simulate import _play

if TYPE_CHECKING:
    from .ruleset import Ruleset
    from .simulate import GameTask, Row

ROW_FIELDS = ("seed", "players", "actions", "rounds", "winners", "scores", "roles", "ranks",
              "bots", "record", "seconds", "cpu")
"""The keys of a result row (:func:`boardrules.simulate.run_game`), in the order a worker
sends their values."""

CHUNK_SECONDS = 0.25
"""CPU seconds of games an automatic chunk aims at: a chunk costs the parent and the worker
one to two milliseconds of CPU to send and collect (measured), so this keeps that under 1%."""

Setup = tuple["Ruleset", int, tuple[str, ...], int, "int | None"]  # (ruleset, players, bots, max_actions, max_steps)
Item = tuple[int, int, int]                           # (task index, setup index, seed)
Result = list[tuple[int, tuple[Any, ...]]]            # ((task index, row values), ...)

_SETUPS: tuple[Setup, ...] = ()  # a pool worker's setups (set once, by _init_worker)


def plan(tasks: Sequence[GameTask]) -> tuple[tuple[Setup, ...], list[Item]]:
    """The distinct setups of ``tasks`` and one item per task naming its setup and seed."""
    index: dict[tuple[Any, ...], int] = {}
    setups: list[Setup] = []
    items = []
    for i, t in enumerate(tasks):
        key = (t.ruleset.recipe, t.players, t.bots, t.max_actions, t.max_steps)
        if key not in index:
            index[key] = len(setups)
            setups.append((t.ruleset, t.players, t.bots, t.max_actions, t.max_steps))
        items.append((i, index[key], t.seed))
    return tuple(setups), items


def play_items(setups: Sequence[Setup], chunk: Iterable[Item]) -> Result:
    """Play the games of ``chunk``; their rows' values in :data:`ROW_FIELDS` order."""
    out = []
    for i, s, seed in chunk:
        ruleset, players, bots, max_actions, max_steps = setups[s]
        row = _play(ruleset, players, seed, bots, max_actions, max_steps)
        out.append((i, tuple(row[k] for k in ROW_FIELDS)))
    return out


def _adopted(limits: Limits, setups: tuple[Setup, ...] | bytes) -> tuple[Setup, ...]:
    """``setups`` (pickled: so their rulesets are rebuilt only now) under the caller's
    ``limits``, put in force in this worker first: its games and rule files are held to the
    limits the caller set (``LIMITS.changed``), not the defaults."""
    adopt(limits)
    return pickle.loads(setups) if isinstance(setups, bytes) else setups


def _init_worker(limits: Limits, setups: tuple[Setup, ...] | bytes) -> None:
    global _SETUPS
    _SETUPS = _adopted(limits, setups)
    # Ctrl-C is the parent's to handle (it ends the workers, see run_pool): a worker of its own
    # printed a traceback, or died first and the parent saw a broken pool instead
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    freeze_once()   # (the setups' rulesets, unpickled here, live as long as the worker)


def _pool_chunk(chunk: tuple[Item, ...]) -> Result:
    return play_items(_SETUPS, chunk)


def _ray_chunk(shared: tuple[Limits, bytes], chunk: tuple[Item, ...]) -> Result:
    return play_items(_adopted(*shared), chunk)   # (a Ray worker serves other callers' tasks too)


def check_start_method(start_method: str | None) -> None:
    """Raise ``ValueError`` for a start method the platform lacks (None: its default)."""
    if start_method is not None and start_method not in multiprocessing.get_all_start_methods():
        raise ValueError(f"no start method {start_method!r} here: choose "
                         + ", ".join(multiprocessing.get_all_start_methods()))


def start_context(start_method: str | None) -> Any:
    """The multiprocessing context for ``start_method`` (None: ``fork`` on Linux, where the
    workers inherit the imported modules and the built ruleset; elsewhere the platform's
    default, ``spawn``, as fork is unsafe on macOS and absent on Windows). Raises
    ``ValueError`` for a method the platform lacks."""
    if start_method is None and sys.platform.startswith("linux"):
        start_method = "fork"
    check_start_method(start_method)
    ctx = multiprocessing.get_context(start_method)
    if start_method == "forkserver":
        ctx.set_forkserver_preload(["boardrules.simulate", "boardrules.simulate_pool"])
    return ctx


def chunk_size(cpu: float, games: int, left: int, workers: int) -> int:
    """Games for the next automatic chunk, after ``games`` games took ``cpu`` CPU seconds,
    with ``left`` games not yet sent to ``workers`` workers."""
    if games == 0:
        return 1
    per_game = max(cpu / games, 1e-4)
    return max(1, min(int(CHUNK_SECONDS / per_game), left // (2 * workers)))


def run_pool(tasks: Sequence[GameTask], workers: int, backend: str,
             done: Callable[[int, Row], None], *, chunksize: int = 0,
             start_method: str | None = None) -> None:
    """Play ``tasks`` on ``workers`` processes (``backend`` ``process``) or on Ray (``ray``),
    calling ``done(task index, row)`` as each game's chunk ends. See the module's docstring
    for ``chunksize`` and ``start_method``. A game's exception propagates (the games not
    started are cancelled)."""
    setups, items = plan(tasks)
    if backend == "ray":
        _ray_run(setups, items, workers, done, chunksize)
        return
    ctx = start_context(start_method)
    frozen = ctx.get_start_method() == "fork"
    if frozen:  # forked workers then leave the parent's objects alone (no copy-on-write by gc)
        gc.freeze()
    # (forked workers have the parent's limits and rulesets; the others get them pickled)
    sent = setups if frozen else pickle.dumps(setups, pickle.HIGHEST_PROTOCOL)
    pool = ProcessPoolExecutor(max_workers=min(workers, len(items)), mp_context=ctx,
                               initializer=_init_worker, initargs=(LIMITS.copy(), sent))
    try:
        def submit(chunk: tuple[Item, ...]) -> Future[Result]:
            return pool.submit(_pool_chunk, chunk)

        def collect(pending: Collection[Future[Result]]) -> tuple[list[Result], set[Future[Result]]]:
            finished, rest = wait(pending, return_when=FIRST_COMPLETED)
            return [f.result() for f in finished], rest

        schedule(items, workers, chunksize, submit, collect, done, started=gc.unfreeze if frozen else None)
    except BaseException as err:
        if isinstance(err, KeyboardInterrupt):   # (not waiting for the games under way)
            for process in list((getattr(pool, "_processes", None) or {}).values()):
                process.terminate()
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    finally:
        if frozen:
            gc.unfreeze()
    pool.shutdown()


def _ray_run(setups: tuple[Setup, ...], items: list[Item], workers: int,
             done: Callable[[int, Row], None], chunksize: int) -> None:
    try:
        import ray
    except ImportError:
        raise ImportError('the ray backend needs Ray: pip install "boardrules[ray]"') from None
    if not ray.is_initialized():
        ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
    shared = ray.put((LIMITS.copy(), pickle.dumps(setups, pickle.HIGHEST_PROTOCOL)))   # once; tasks name it
    remote = ray.remote(_ray_chunk)

    def submit(chunk: tuple[Item, ...]) -> Any:
        return remote.remote(shared, chunk)

    def collect(pending: Collection[Any]) -> tuple[list[Result], set[Any]]:
        ready, rest = ray.wait(list(pending), num_returns=1)
        return ray.get(ready), set(rest)

    schedule(items, workers, chunksize, submit, collect, done)


def schedule(items: list[Item], workers: int, chunksize: int,
             submit: Callable[[tuple[Item, ...]], Any],
             collect: Callable[[Collection[Any]], tuple[list[Result], set[Any]]],
             done: Callable[[int, Row], None], started: Callable[[], None] | None = None) -> None:
    """Send ``items`` in chunks (at most two per worker in flight) through ``submit`` and hand
    each finished game's row to ``done``; ``collect(pending)`` waits for at least one chunk
    and returns the finished chunks' results and the still pending ones; ``started()`` is
    called once the first chunks are sent (the workers exist)."""
    queue = deque(items)
    pending: set[Any] = set()
    cpu, games = 0.0, 0
    while queue or pending:
        while queue and len(pending) < 2 * workers:
            n = chunksize or chunk_size(cpu, games, len(queue), workers)
            chunk = tuple(queue.popleft() for _ in range(min(n, len(queue))))
            pending.add(submit(chunk))
        if started is not None:
            started()
            started = None
        results, pending = collect(pending)
        for result in results:
            for i, values in result:
                row = dict(zip(ROW_FIELDS, values))
                cpu += row["cpu"]
                games += 1
                done(i, row)


def wire_bytes(tasks: Sequence[GameTask], rows: Sequence[Row] = ()) -> dict[str, float]:
    """What a pool run of ``tasks`` sends, pickled as it is sent: ``setup`` (bytes once per
    worker with ``forkserver``/``spawn``; nothing with ``fork``), ``task`` (mean bytes per
    game in the chunks) and, given the ``rows`` of a run, ``result`` (mean bytes per game
    back)."""
    setups, items = plan(tasks)
    out = {"setup": float(len(pickle.dumps(setups, pickle.HIGHEST_PROTOCOL))),
           "task": len(pickle.dumps(tuple(items), pickle.HIGHEST_PROTOCOL)) / max(1, len(items))}
    if rows:
        back = [(i, tuple(r[k] for k in ROW_FIELDS)) for i, r in enumerate(rows)]
        out["result"] = len(pickle.dumps(back, pickle.HIGHEST_PROTOCOL)) / len(rows)
    return out
