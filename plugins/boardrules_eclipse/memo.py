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


class _Memo:
    __slots__ = ("base", "rs", "values")

    def __init__(self) -> None:
        self.base: object = None
        self.rs: object = None
        self.values: dict[Hashable, Any] = {}


_MEMO = _Memo()
ENABLED = True     # False: every question computed afresh (tests compare the two)


def per_state(ctx: Any, key: Hashable, reads: frozenset[str], compute: Callable[[], Any]) -> Any:
    """``compute()``, memoised under ``key`` for ``ctx``'s committed state while ``ctx`` has
    written none of the rule variables named in ``reads`` (every variable ``compute`` reads:
    ``("v", NAME, ...)`` keys). ``key`` must name the question fully (the player asking, the
    arguments)."""
    if not ENABLED:
        return compute()
    for k in ctx.w:
        if k[0] == "v" and k[1] in reads:
            return compute()
    m = _MEMO
    if m.base is not ctx.base or m.rs is not ctx.rs:
        m.base, m.rs, m.values = ctx.base, ctx.rs, {}
    got = m.values.get(key, MISSING)
    if got is MISSING:
        got = m.values[key] = compute()
    return got
