"""Guards: an action's checks run on their own, so candidates are listed without running the
rest of their bodies.

Listing the legal actions tries every candidate. An action's body is often a few checks
(``require``, ``pay``, ``take``...) followed by effects that cannot break a rule (``gain``,
``set``, an ``emit`` whose triggers only gain...: lang/inert.py). The *guard* of such a body
is its prefix up to that inert rest: the very statements of the body, compiled once, run in
the same order on the same context. A guard that breaks a rule proves the action illegal
(the body's run breaks it at the same point); a guard that passes, with enough of the
execution budget left for the rest, answers ``INERT``: the action is legal unless something
after its body fails, which the engine checks (game.py, ``_guard_verdict``). A body without
an inert rest has no guard: candidates run it whole, as before.

The guards are built lazily, per action, with the ruleset's back end (so the interpreter and
the compiler give the same guards).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .inert import Inert, type_name

if TYPE_CHECKING:
    from ..ruleset import Backend, Ruleset
    from ..runtime import Context

Guard = Callable[["Context"], Any]
"""An action's guard: runs its checks; ``INERT`` when they passed and the budget left covers
the inert rest, else False (the candidate is then tried in full)."""

INERT = "inert"


class Guards:
    """The guards of one ruleset's actions, built on first use and kept."""

    def __init__(self, rs: Ruleset, backend: Backend, inert: Inert) -> None:
        self.rs = rs
        self.backend = backend
        self.inert = inert
        self._actions: dict[str, Guard | None] = {}

    def action(self, name: str) -> Guard | None:
        """The guard of action ``name``'s body, None when the body has no inert rest."""
        if name in self._actions:
            return self._actions[name]
        rs = self.rs
        adef = rs.actions[name]
        scope: dict[str, str | None] = {p.name: type_name(p.type, rs.kinds) for p in adef.params}
        if adef.entity is not None:
            scope["self"] = f"entity:{rs.entities[adef.entity].kind}"
        stmts = adef.body.stmts
        k, cost = self.inert.split(adef.body, scope)
        guard: Guard | None = None
        if k < len(stmts):
            checks = [self.backend.stmt(s) for s in stmts[:k]]

            def guard(ctx: Context) -> Any:
                for check in checks:
                    check(ctx)
                return INERT if ctx.steps >= cost else False
        self._actions[name] = guard
        return guard
