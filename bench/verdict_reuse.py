"""How much of the listing's verdicts a listing could reuse from an earlier one: an upper bound.

Usage: ``python bench/verdict_reuse.py GAME SEED [SEED ...] [--players N]``. Plays the seeded
random games of bench/bench_callgrind.py (no warm-up) and times each verdict the listing works
out (``Game._candidate_legal``: a guard or a full try, in CPU time). After each one, the same
verdict is worked out again on a copy of the game whose state table records every key read
(fresh memos; Eclipse's per-state memo off), so the keys the verdict read and the values it saw
are known. A later verdict of the same action (player, name, arguments) could reuse the last
one when the pending decisions are equal and every key read holds the identical value (``is``),
or an equal one (``==``). Prints the verdicts' time, the time of those that could be reused
(per action name), the keys whose change most often prevents it, and ``wrong``: reuses whose
verdict differs (a read the recording missed: it must be 0 for the bound to mean anything).
The bound is free of costs: recording the reads and testing them are not counted, nor the run
a reused verdict does not keep for the play. A diagnostic: it wraps ``Game._candidate_legal``
and lists by iterating (the turn's settled listing, ``Game._turn_legal``, off: each candidate
goes through ``_candidate_legal``) for the run, nothing else.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from boardrules.errors import BoardrulesError
from boardrules.game.core import Game
from boardrules.runtime import MISSING, RuleViolation
from boardrules.state import State

sys.path.insert(0, str(Path(__file__).parent))
from bench_callgrind import arguments, play  # noqa: E402

try:
    from boardrules_eclipse import memo as eclipse_memo
except ImportError:   # (Eclipse's plugin not installed)
    eclipse_memo = None


class Recording(dict):  # type: ignore[type-arg]
    """A state table that records each key read and the value seen (MISSING: absent); ``whole``
    once it was walked or copied whole (its reads are then everything)."""

    def __init__(self, values: dict[Any, Any]) -> None:
        super().__init__(values)
        self.reads: dict[Any, Any] = {}
        self.whole = False

    def _seen(self, key: Any) -> Any:
        v = dict.get(self, key, MISSING)
        self.reads.setdefault(key, v)
        return v

    def get(self, key: Any, default: Any = None) -> Any:
        v = self._seen(key)
        return default if v is MISSING else v

    def __getitem__(self, key: Any) -> Any:
        v = self._seen(key)
        if v is MISSING:
            raise KeyError(key)
        return v

    def __contains__(self, key: object) -> bool:
        return self._seen(key) is not MISSING


def _walking(name: str) -> Any:
    """``dict``'s method ``name``, which walks the whole table: a recording table's reads are
    then everything."""
    method = getattr(dict, name)

    def walked(self: Recording, *args: Any) -> Any:
        self.whole = True
        return method(self, *args)
    return walked


for _name in ("copy", "__iter__", "items", "keys", "values", "__len__"):
    setattr(Recording, _name, _walking(_name))


def recorded_reads(game: Game, action: Any, prechecked: bool) -> dict[Any, Any] | None:
    """The keys (with the values seen) read by ``action``'s verdict worked out afresh on a copy
    of ``game`` (None: the table was walked whole)."""
    shadow = game.copy()
    shadow._forget()
    table = Recording(game.state.values)
    shadow.state = State(table, game.state.pending)
    if eclipse_memo is not None:
        eclipse_memo.ENABLED = False
    try:
        shadow._candidate_legal(action, {}, prechecked)
    except (RuleViolation, BoardrulesError):
        pass
    finally:
        if eclipse_memo is not None:
            eclipse_memo.ENABLED = True
    return None if table.whole else table.reads


class Bound:
    """What :func:`measure` found: ``counts`` (verdicts, keys read, reusable and wrong reuses by
    ``is`` / ``==``), ``times`` (CPU seconds by (``all``/``is``/``==``, action name)) and the
    keys whose change prevented a reuse (``blocking[kind]``, by variable or kind of key)."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self.times: Counter[tuple[str, str]] = Counter()
        self.blocking: dict[str, Counter[Any]] = {"is": Counter(), "==": Counter()}

    def total(self, kind: str) -> float:
        return sum(t for (k, _), t in self.times.items() if k == kind)


def measure(game: str, seeds: list[int], players: int) -> tuple[Bound, list[int]]:
    """The bound over seeded random games of ``game`` (and their decision counts)."""
    verdict = Game._candidate_legal
    found = Bound()
    counts, times, blocking = found.counts, found.times, found.blocking
    last: dict[Any, tuple[dict[Any, Any], Any, bool]] = {}   # action -> (reads, pending, verdict)
    busy = [False]   # (a shadow's own verdicts are not counted)

    def timed(self: Game, action: Any, tried: Any, prechecked: bool = True, *more: Any) -> bool:
        if busy[0]:
            return verdict(self, action, tried, prechecked, *more)
        t = time.process_time()
        got = verdict(self, action, tried, prechecked, *more)
        took = time.process_time() - t
        busy[0] = True
        try:
            reads = recorded_reads(self, action, prechecked)
        finally:
            busy[0] = False
        st, name = self.state, action.name
        counts["verdicts"] += 1
        times["all", name] += took
        if reads is None:
            counts["read whole"] += 1
        else:
            counts["keys read"] += len(reads)
        before = last.get(action)
        if before is not None and before[1] == st.pending:
            now = {k: st.values.get(k, MISSING) for k in before[0]}
            changed = [k for k, v in before[0].items() if now[k] is not v]
            unequal = [k for k in changed if now[k] != before[0][k]]
            for kind, keys in (("is", changed), ("==", unequal)):
                blocking[kind].update(k[:2] if k[0] in ("f", "v") else k[:1] for k in keys)
                if not keys:
                    times[kind, name] += took
                    counts["reusable " + kind] += 1
                    counts["wrong " + kind] += before[2] != got
        if reads is None:
            last.pop(action, None)
        else:
            last[action] = (reads, st.pending, got)
        return got

    settled = Game._turn_legal
    Game._candidate_legal = timed  # type: ignore[method-assign]
    Game._turn_legal = lambda self, state, player: None  # type: ignore[method-assign]
    try:
        decisions = [play(game, players, seed) for seed in seeds]
    finally:
        Game._candidate_legal = verdict  # type: ignore[method-assign]
        Game._turn_legal = settled  # type: ignore[method-assign]
    return found, decisions


def main() -> None:
    args, players = arguments(__doc__.split("\n")[0])
    found, decisions = measure(args.game, args.seeds, players)
    print("decisions:", dict(zip(args.seeds, decisions)))
    print(dict(found.counts))
    every, same, equal = found.total("all"), found.total("is"), found.total("==")
    print(f"verdicts {every:.3f} s CPU; reusable: identical reads {same:.3f} s "
          f"({100 * same / every:.1f}%), equal reads {equal:.3f} s ({100 * equal / every:.1f}%)")
    times = found.times
    for name in sorted({n for _, n in times}, key=lambda n: -times["all", n]):
        print(f"  {name:28} {times['all', name]:.3f} s   is {times['is', name]:.3f}   == {times['==', name]:.3f}")
    for kind, keys in found.blocking.items():
        print(f"keys changed ({kind}):", ", ".join(f"{k} {n}" for k, n in keys.most_common(12)))


if __name__ == "__main__":
    main()
