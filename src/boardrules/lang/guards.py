"""Guards: the leading part of a rule body, run on its own to prune candidate actions.

Listing the legal actions tries every candidate. Most illegal ones fail at their first
``require`` or ``pay``, so trying them in full (the turn's bookkeeping, the flow after the
action) is wasted work. A *guard* is a prefix of a body: the same compiled statements, run
in the same order on the same context, up to the first statement whose effects are not
the rules' own (a primitive with effects). ``call`` of a procedure, ``run`` of a slot,
``if``, ``for``, the triggers an ``emit`` runs and the rewards and triggers of an
``advance`` are followed into their bodies.

A guard is ``fn(ctx) -> bool``: it runs its statements and returns True when it ran the
*whole* body (nothing of it was left out on the way taken), False when it stopped early.
Because a guard is an exact prefix of the body's run, a guard that raises
:class:`~boardrules.runtime.RuleViolation` proves the action illegal (the engine drops the
candidate without trying it); a guard that returns True has run the body itself, so the
engine only has to know that what follows the body cannot fail (game.py, ``_settles``).

The guards are built from the AST once per ruleset (lazily, per body) with the ruleset's
back end, so the interpreter and the compiler give the same guards.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from . import ast as A
from . import semantics as S
from .inert import Inert, type_name

if TYPE_CHECKING:
    from ..ruleset import Backend, Ruleset
    from ..runtime import Context

Guard = Callable[["Context"], Any]
"""A guard: runs a prefix of a body; True when the whole body ran, ``INERT`` (an action's
guard) when it stopped where the rest of the body cannot break a rule (lang/inert.py) and
enough of the execution budget is left for that rest, False when it stopped otherwise."""

INERT = "inert"

# statements whose whole effect is on the context's own values, pending decisions and event
# log: a guard runs them as they are (they may raise: that is what prunes)
_SIMPLE = (A.Gain, A.Lose, A.Pay, A.Set, A.Let, A.Require, A.Choose, A.Draw, A.AfterTurn,
           A.Queue, A.Take, A.Give, A.Discard, A.Pass, A.Use, A.Restore)


def _stop(ctx: Context) -> bool:
    return False


class Guards:
    """The guards of one ruleset's bodies, built on first use and kept."""

    def __init__(self, rs: Ruleset, backend: Backend, inert: Inert) -> None:
        self.rs = rs
        self.backend = backend
        self.inert = inert
        self._blocks: dict[int, Guard] = {}
        self._building: set[int] = set()
        self._actions: dict[str, Guard] = {}

    def action(self, name: str) -> Guard:
        """The guard of action ``name``'s body: up to where its inert rest begins (if it has
        one: then it answers ``INERT`` once its checks passed with the budget the rest needs)."""
        found = self._actions.get(name)
        if found is not None:
            return found
        rs = self.rs
        adef = rs.actions[name]
        scope: dict[str, str | None] = {p.name: type_name(p.type, rs.kinds) for p in adef.params}
        if adef.entity is not None:
            scope["self"] = f"entity:{rs.entities[adef.entity].kind}"
        stmts = adef.body.stmts
        k, cost = self.inert.split(adef.body, scope)
        if k == len(stmts):
            guard = self.block(adef.body)
        else:
            prefix = _sequence([self.stmt(s) for s in stmts[:k]]) if k else None

            def guard(ctx: Context) -> Any:
                if prefix is not None and not prefix(ctx):
                    return False
                return INERT if ctx.steps >= cost else False
        self._actions[name] = guard
        return guard

    def block(self, block: A.Block) -> Guard:
        """The guard of ``block`` (a body of the ruleset)."""
        key = id(block)
        found = self._blocks.get(key)
        if found is not None:
            return found
        if key in self._building:  # a procedure calling itself: stop where it calls
            return _stop
        self._building.add(key)
        try:
            parts = [self.stmt(s) for s in block.stmts]
        finally:
            self._building.discard(key)
        guard = _sequence(parts)
        self._blocks[key] = guard
        return guard

    def stmt(self, s: A.Stmt) -> Guard:
        """The guard of one statement."""
        if isinstance(s, _SIMPLE):
            return _whole(self.backend.stmt(s))
        rs, backend = self.rs, self.backend
        if isinstance(s, A.If):
            branches = [(backend.expr(c), self.block(b)) for c, b in s.branches]
            orelse = self.block(s.orelse) if s.orelse is not None else None

            def if_(ctx: Context) -> Any:
                for fc, fb in branches:
                    if fc(ctx):
                        return fb(ctx)
                return True if orelse is None else orelse(ctx)
            return if_
        if isinstance(s, A.For):
            body = self.block(s.body)
            if body is _stop:
                return _stop
            return self._for(s, body)
        if isinstance(s, A.Emit):
            fs = [backend.expr(a) for a in s.args]
            event = s.event
            return lambda ctx: S.emit(ctx, event, [f(ctx) for f in fs], self)
        if isinstance(s, A.Advance):
            fb, track = backend.expr(s.by), s.track
            return lambda ctx: S.advance(ctx, track, 1 if fb is None else fb(ctx), self)
        if isinstance(s, A.CallStmt):
            if s.fn in rs.primitives or s.fn not in rs.actions:
                return _stop  # a primitive's effects are its own
            return self._call(s)
        if isinstance(s, A.Run):
            return self._run(s)
        return _stop  # anything new

    def _for(self, s: A.For, body: Guard) -> Guard:
        fd, fw = self.backend.expr(s.domain), self.backend.expr(s.where)
        name, span = s.var, s.span

        def for_(ctx: Context) -> bool:  # as the compiler's for_ (backends.py), body guarded
            saved = ctx.env
            env = dict(saved)
            try:
                for item in S.domain(ctx, fd(ctx)):
                    env[name] = item
                    ctx.env = env
                    if (fw is None or fw(ctx)) and not body(ctx):
                        return False
            except S.BudgetExceeded as err:
                raise S.at(err, span)
            finally:
                ctx.env = saved
            return True
        return for_

    def _call(self, s: A.CallStmt) -> Guard:
        proc = self.rs.actions[s.fn]
        body = self.block(proc.body)
        fs = [self.backend.expr(a) for a in s.args]
        names = [p.name for p in proc.params]
        fn = s.fn

        def call(ctx: Context) -> bool:  # as S.call_procedure, the body guarded
            env = dict(zip(names, [f(ctx) for f in fs]))
            return bool(S.run_unit(ctx, body, ctx.source or fn, env=env))
        return call

    def _run(self, s: A.Run) -> Guard:
        assert isinstance(s.target, A.Field)
        fo, ff = self.backend.expr(s.target.obj), self.backend.expr(s.for_)
        slot, rs = s.target.name, self.rs

        def run(ctx: Context) -> bool:  # as S.run_slot, the slot's body guarded
            entity = fo(ctx)
            for_ = None if ff is None else ff(ctx)
            ent = rs.entities.get(entity) if isinstance(entity, str) else None
            if ent is None:
                raise ctx.violation(f"{entity!r} is not an entity")
            body = rs.slot_body(entity, slot)
            if body is None:
                return True
            me = ctx.me if for_ is None else ctx.player(for_)
            return bool(S.run_unit(ctx, self.block(body), entity, me=me, env={"self": entity}))
        return run


def _whole(f: Callable[[Context], Any]) -> Guard:
    def whole(ctx: Context) -> bool:
        f(ctx)
        return True
    return whole


def _sequence(parts: list[Guard]) -> Guard:
    """Run ``parts`` in order while each ran whole; stop at the first that did not."""
    # (a body that stops at once needs no guard: _stop itself, which callers recognise)
    if parts and parts[0] is _stop:
        return _stop
    if _stop in parts:
        parts = parts[:parts.index(_stop) + 1]
    if len(parts) == 1:
        return parts[0]

    def sequence(ctx: Context) -> bool:
        for part in parts:
            if not part(ctx):
                return False
        return True
    return sequence


def is_stop(guard: Guard) -> bool:
    """True for a guard that runs nothing at all (no use trying it)."""
    return guard is _stop
