"""A memo per game state for the Eclipse primitives.

``legal_actions()`` tries every candidate action of a state in its own context, each starting
from the same committed values (``ctx.base``, a dict the engine never changes); many of them
ask the same question of the board (the galaxy's connections, a player's hexes, the moves of
their ships). :func:`per_state` answers it once per committed state: a value is kept with the
state it was computed from and the rule variables it reads, and is computed afresh in a
context that has written one of those variables (or in another state).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from boardrules.runtime import MISSING


# (committed state, ruleset, its memo): replaced as a whole when another state asks, so a memo
# dict only ever holds answers for its own state (also with threads)
_CURRENT: tuple[object, object, dict[Hashable, Any]] = (None, None, {})
ENABLED = True     # False: every question computed afresh (tests compare the two)


def per_state(ctx: Any, key: Hashable, reads: frozenset[str], compute: Callable[[], Any]) -> Any:
    """``compute()``, memoised under ``key`` for ``ctx``'s committed state while ``ctx`` has
    written none of the rule variables named in ``reads`` (every variable ``compute`` reads:
    ``("v", NAME, ...)`` keys). ``key`` must name the question fully (the player asking, the
    arguments); the answer must not be mutated."""
    global _CURRENT
    if not ENABLED:
        return compute()
    for k in ctx.w:
        if k[0] == "v" and k[1] in reads:
            return compute()
    memo = _CURRENT
    if memo[0] is not ctx.base or memo[1] is not ctx.rs:
        memo = _CURRENT = (ctx.base, ctx.rs, {})
    values = memo[2]
    got = values.get(key, MISSING)
    if got is MISSING:
        got = values[key] = compute()
    return got
