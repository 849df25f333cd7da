"""A memo per game state for the Eclipse primitives.

``legal_actions()`` tries every candidate action of a state in its own context, each starting
from the same committed values (``ctx.base``, a dict the engine never changes); many of them
ask the same question of the board (the galaxy's connections, a player's hexes, the moves of
their ships). :func:`per_state` answers it once per committed state: a value is kept with the
state it was computed from and the rule variables it reads, and is computed afresh in a
context that has written one of those variables.

Most actions leave most of the board alone (a trade, a colony ship, a research), so when
another state asks, the answers whose variables hold the very same values in it (the same
objects: values are immutable, and a state is a copy of the one before with what an action
wrote) are carried over to it (:func:`_carried`) rather than computed afresh. What changed is
worked out from the keys the engine wrote between the two states (``runtime.changed_keys``),
not by comparing the two tables key by key, when the new state was made from the old. A
question about one player's own variables (``player``: their blueprints, technologies) keeps
its answer while that player's entries hold, whatever another player's Upgrade or Research
wrote.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from operator import itemgetter
from typing import Any

from boardrules.runtime import MISSING, changed_keys


# (committed state, ruleset, its memo: reads -> {key: answer}, the answers grouped by the
# variables they read, or by (reads, player) for those reading one player's entries only):
# replaced as a whole when another state asks. A group carried over is shared with the state
# it came from: its variables hold the same values in both, so an answer either adds to it
# holds in both (also with threads)
_CURRENT: tuple[object, object, dict[Hashable, dict[Hashable, Any]]] = (None, None, {})
ENABLED = True     # False: every question computed afresh (tests compare the two)
CARRY = True       # False: no answer is carried over to another state (tests compare the two)
DELTAS = True      # False: what changed is found by comparing the tables whole (tests compare)
CARRIED = 1000     # a memo with more answers than this starts afresh with the next state
_SECOND = itemgetter(1)


def per_state(ctx: Any, key: Hashable, reads: frozenset[str], compute: Callable[[], Any],
              player: int | None = None) -> Any:
    """``compute()``, memoised under ``key`` for ``ctx``'s committed state while ``ctx`` has
    written none of the rule variables named in ``reads`` (every variable ``compute`` reads:
    ``("v", NAME, ...)`` keys; it reads nothing else of the state). ``key`` must name the
    question fully (the player asking, the arguments); the answer must not be mutated.
    ``player``: ``compute`` reads only that player's entries of ``reads`` (each a variable
    declared per player: ``("v", NAME, player, ...)`` keys), so only writes of those count."""
    global _CURRENT
    if not ENABLED:
        return compute()
    w = ctx.w
    if w:
        try:   # (most writes are of other variables: told in C by the second item of each key)
            clear = reads.isdisjoint(map(_SECOND, w))
        except IndexError:   # (a key of one item: not a rule variable's)
            clear = False
        if not clear:
            for k in w:
                if k[0] == "v" and k[1] in reads and (player is None or len(k) < 3 or k[2] == player):
                    return compute()
    memo = _CURRENT
    if memo[0] is not ctx.base or memo[1] is not ctx.rs:
        if memo[1] is ctx.rs:
            kept = _carried(memo[0], ctx.base, memo[2]) if CARRY else {}
        else:   # (another ruleset: its groups indexed afresh, see _READERS)
            kept = _new_index()
        memo = _CURRENT = (ctx.base, ctx.rs, kept)
    at = reads if player is None else (reads, player)
    group = memo[2].get(at)
    if group is None:
        group = memo[2][at] = {}
    got = group.get(key, MISSING)
    if got is MISSING:
        got = group[key] = compute()
    return got


def _carried(old: Any, new: dict[Any, Any], memo: dict[Hashable, dict[Hashable, Any]]
             ) -> dict[Hashable, dict[Hashable, Any]]:
    """The groups of ``memo`` (answers for the values ``old``, by the variables they read, or
    by those and the one player whose entries they read) that hold for the values ``new``:
    those reading no rule variable (no entry of that player's) with a key whose value is not
    the same object in both (or is in one only). Found from the keys that changed, each
    dropping the groups that read its variable (:data:`_READERS`), not by testing every group
    (a state keeps about 24, and an action changes about 4 keys, dropping one or two)."""
    if not memo or type(old) is not dict or sum(map(len, memo.values())) > CARRIED:
        return {}
    keys = changed_keys(old, new) if DELTAS else None   # (from the keys the actions wrote)
    if keys is None:   # (not made from old by the last merges: both compared whole)
        keys = {k for k, v in new.items() if old.get(k, MISSING) is not v and k[0] == "v"}
        if not old.keys() <= new.keys():   # (a key gone: its variable changed too)
            keys.update(k for k in old.keys() - new.keys() if k[0] == "v")
    readers, entered = _READERS   # (one index throughout: another ruleset's replaces it whole)
    if not entered.issuperset(memo):
        readers = _index(memo)
    kept = memo.copy()
    pop = kept.pop
    for k in keys:
        if k[0] == "v":
            n = k[1]
            for at in readers.get(n, ()):
                pop(at, None)
            # (a key of another player's entries leaves that player's groups alone; one of no
            # player, those of every player)
            p = k[2] if len(k) > 2 else None
            for at in readers.get((n, p) if p is not None else (n,), ()):
                pop(at, None)
    return kept


# The groups' variables, each group as the memo keys it (``at``): NAME -> the groups reading
# NAME (of every player's entries), (NAME, player) -> the groups reading that player's entries
# of NAME only, (NAME,) -> all of the latter for NAME; with the set of the groups entered.
# Tuples, replaced whole when a group is first met (_index), so a thread walking one never sees
# it change. Of the ruleset the memo is for, begun afresh with another's (_new_index): a group's
# variables may be a ruleset's own (squares_of reads each structure's, and house rules add
# structures), so a process building ruleset after ruleset (a server of house rules) grew a
# module-global index, and the tuples walked for each change, without end
_READERS: tuple[dict[Hashable, tuple[Hashable, ...]], set[Hashable]] = ({}, set())
_INDEXING = threading.Lock()   # (two threads entering groups at once would lose one's)


def _new_index() -> dict[Hashable, dict[Hashable, Any]]:
    """Begin :data:`_READERS` afresh (the memo is for another ruleset now); an empty memo."""
    global _READERS
    with _INDEXING:
        _READERS = ({}, set())
    return {}


def _index(memo: dict[Hashable, Any]) -> dict[Hashable, tuple[Hashable, ...]]:
    """Enter each group of ``memo`` not met before in :data:`_READERS`; the groups' variables
    of the index it is in."""
    with _INDEXING:
        readers, entered = _READERS
        for at in list(memo):
            if at in entered:
                continue
            if type(at) is tuple:
                reads, p = at
                for n in reads:
                    readers[(n, p)] = readers.get((n, p), ()) + (at,)
                    readers[(n,)] = readers.get((n,), ()) + (at,)
            else:
                for n in at:
                    readers[n] = readers.get(n, ()) + (at,)
            entered.add(at)   # (last: a group is entered whole before it counts as entered)
        return readers
