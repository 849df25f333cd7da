"""Lazy choices: a ``choose`` cut short while the legal actions are listed.

Listing the legal actions runs each candidate of a turn (game/verdicts.py, ``_candidate_run``). A
``choose`` in it filters its options with its ``where``, and the action is legal as soon as one
option passes (or at once when the choice is ``optional``): the other options matter only
when the action is played. When the ``where`` cannot break a rule (lang/inert.py: only
constructs that cannot fail and ``pure`` primitives, primitives.py), the listing's run stops
at the first admitted option: the options it did not test are charged the step bound of one
test each (so the run never has more of its budget left than the full run would), and the run
is marked ``partial``: the candidate is listed as legal without keeping the run, and playing it
runs it again in full. A partial run that breaks a rule later on is tried again in full (the
budget charged for the untested options may be what broke it).

The options of a decision made by a partial run are not the full list: nothing reads them
before the run is dropped (the flow stops at a pending decision; the engine's chance answers
come after a run is kept).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..limits import LIMITS
from . import ast as A
from .guards import Guard, facts_hold
from .inert import AFTER, PASS, SEATS, names_in
from .semantics import FilterFn, admitted_by

if TYPE_CHECKING:
    from ..ruleset import Ruleset
    from ..runtime import Context

Lazy = tuple[int, frozenset[str]]
"""(a bound on the steps of one test of the ``where``, the names it reads besides the option)."""


def where_bound(rs: Ruleset, node: A.Choose) -> Lazy | None:
    """How choice ``node``'s ``where`` may be cut short, None when it may not (it could break a
    rule, or there is none). Its names are typed as the rules declare them: the engine cuts a
    choice short only where no binding hides one of them (:func:`admitted`)."""
    if node.where is None:
        return None
    inert = rs.guards.inert
    dom = inert.expr(node.domain, {})
    t = dom[0] if dom is not None else None
    elem = t[5:] if t is not None and t.startswith("list:") else None
    with inert._unit() as acc:   # (what the analysis relies on: nothing may be assumed here)
        found = inert.expr(node.where, {node.var: elem})
    if found is None or acc.needs or acc.sized:
        return None
    return found[1], frozenset(names_in(node.where) - {node.var})


def admitted(ctx: Context, var: str, opts: tuple[Any, ...], where: Callable[[Context], Any],
             optional: bool, lazy: Lazy, each: FilterFn | None = None) -> tuple[Any, ...] | None:
    """The options of a choice in a listing's run (``ctx.lazy``) that the run needs: the first
    one its ``where`` admits (none for an optional choice: it is legal either way); None when
    the choice must be evaluated in full (a binding hides a name of the ``where``, or the budget
    left does not cover the options not tested). ``each``: the ``where`` as one loop
    (semantics.py, ``FilterFn``), when there is one."""
    cost, names = lazy
    if not names.isdisjoint(ctx.env):
        return None
    n = len(opts)
    kept: tuple[Any, ...] = ()
    tested = 0
    if not optional and each is not None:
        tested = each(ctx, opts, True)
        if tested:
            kept = (opts[tested - 1],)
        else:
            tested = n
    elif not optional:
        saved = ctx.env
        try:
            for o in opts:
                tested += 1
                ctx.env = {**saved, var: o}
                if where(ctx):
                    kept = (o,)
                    break
        finally:
            ctx.env = saved
    skipped = n - tested
    if skipped:
        if ctx.steps < skipped * cost:
            if not kept:
                return None
            return kept + admitted_by(ctx, var, opts[tested:], where, each)
        ctx.steps -= skipped * cost
        ctx.partial = True
    return kept



# ---- answers whose body cannot break a rule ----------------------------------------------------

def value_type(rs: Ruleset, v: Any) -> str | None:
    """The analysis' type (lang/inert.py) of a value a decision carries: its own, exact for
    this value (an entity's name: that entity's kind; a list: unknown)."""
    if v is None:
        return "none"
    t = type(v)
    if t is bool:
        return "bool"
    if t is int:
        return "int"
    if t is str:
        ent = rs.entities.get(v)
        return f"entity:{ent.kind}" if ent is not None else "text"
    return None


def common_type(rs: Ruleset, values: tuple[Any, ...]) -> str | None:
    """The :func:`value_type` of every one of ``values`` when they share one, else None (a
    decision's options: an Eclipse Upgrade offers about 100 texts, typed in one pass)."""
    if {*map(type, values)} == {str}:   # (the common case, without a call per value)
        ents = rs.entities
        if ents.keys().isdisjoint(values):   # (texts naming no entity: one test in C)
            return "text"
        kinds = {e.kind if (e := ents.get(v)) is not None else None for v in values}
        if len(kinds) != 1:
            return None
        kind = kinds.pop()
        return "text" if kind is None else f"entity:{kind}"
    types = {value_type(rs, v) for v in values}
    return types.pop() if len(types) == 1 else None


def answer_guard(rs: Ruleset, d: Any, value: Any) -> Guard | None:
    """The guard (lang/guards.py, ``Guards.answer``) of decision ``d``'s body answered ``value``,
    the bindings typed as their values are; None for a draw from a bag, or a body without an
    inert rest. (The guards of the last decision asked about are kept by the answer's type:
    a listing asks for each of its answers in turn.)"""
    if d.bag is not None:
        return None
    t = value_type(rs, value)
    if _LAST[0] is not d or _LAST[1] is not rs:
        _LAST[:] = [d, rs, {}]
    known = _LAST[2]
    if t not in known:
        scope = {name: value_type(rs, v) for name, v in d.env}
        scope[d.label] = t
        known[t] = rs.guards.answer(d.block, scope)
    return known[t]  # type: ignore[no-any-return]


_LAST: list[Any] = [None, None, {}]   # (decision, ruleset, its answers' guards by type)


_ANSWERS: weakref.WeakKeyDictionary[Any, dict[tuple[Any, ...], Any]] = weakref.WeakKeyDictionary()


def answers_hold(ctx: Context, d: Any, later: tuple[Any, ...] | None = None) -> bool:
    """Whether decision ``d``'s body cannot break a rule in ``ctx`` whichever of its options
    is the answer (lang/inert.py, with the bindings typed as the decision's values are; what
    the analysis relies on, ``Facts``, checked in ``ctx`` as a guard checks it; one block's
    analysis kept per ruleset and types).

    ``later``: ``d`` is decided after its turn ended, and the flow then runs these 'queue' and
    'after turn' entries (game/flow.py, ``_run_queued``): none of them may break a rule either,
    relying on nothing the body could change (no ``Facts``), each run for a player, and none
    of them, the body included, may leave an 'after turn' block (outside a turn it runs at
    once, unanalysed)."""
    if type(d.options) is not tuple:
        return False
    # (a draw's answers are the pile's values now: game/listing.py, _decision_candidates)
    options = d.options if d.bag is None else tuple(ctx.get(("v", d.bag)) or ())
    body = _analysis(ctx, d, common_type(ctx.rs, options))
    if body is None:
        return False
    cost, needs, lists, depth, leaves = body
    if d.bag is not None and any(v == d.bag for v, _ in needs + lists):
        return False   # (the facts are checked before the answer leaves the pile)
    if later is not None:
        if leaves or not runs_for_a_player(ctx, d):
            return False
        cost += 1
        for q in later:
            got = _analysis(ctx, q) if runs_for_a_player(ctx, q) else None
            if got is None or got[1] or got[2] or got[3] + 2 >= LIMITS.max_call_depth or got[4]:
                return False
            cost += 1 + got[0]
    # (the body runs one level down, with the whole budget less one step)
    return cost < ctx.steps and depth + 2 < LIMITS.max_call_depth and facts_hold(ctx, needs, lists)


def runs_for_a_player(ctx: Context, d: Any) -> bool:
    return type(d.me) is int and 0 <= d.me < ctx.np


def _analysis(ctx: Context, d: Any, answer: str | None = None) -> tuple[Any, ...] | None:
    """``(cost, needs, lists, depth, leaves)`` of the block of pending entry ``d`` (a
    decision's body, with its answer typed ``answer``; a 'queue' or 'after turn' block) when
    it cannot break a rule, else None: a bound on its steps, what it relies on (``Facts``:
    ``(variable, per player)`` pairs), how deep it nests rules, whether it leaves an 'after
    turn' block."""
    rs = ctx.rs
    scope: dict[str, Any] = {name: value_type(rs, v) for name, v in d.env}
    # (a binding that holds a seat of this game is one: 'gain 1 coins to p' cannot fail)
    # (the answer, bound last, hides a binding of its name)
    seats = frozenset(name for name, v in d.env if type(v) is int and 0 <= v < ctx.np
                      and (d.player is None or name != d.label))
    if seats:
        scope[SEATS] = seats
    if d.player is not None:
        scope[d.label] = answer
    known = _ANSWERS.get(rs)
    if known is None:
        known = _ANSWERS[rs] = {}
    key = (d.block, tuple(sorted(scope.items(), key=repr)))
    if key not in known:
        node = rs.block_owner(d.block).body  # type: ignore[union-attr]  # (a statement with a body)
        k, cost, facts, _ = rs.guards.inert.split_facts(node.stmts, scope)
        known[key] = None if k or PASS in facts.writes else (   # (a pass ends the turn: tried)
            cost, tuple((v, bool(rs.vars[v].per)) for v in sorted(facts.needs)),
            tuple((v, bool(rs.vars[v].per)) for v in sorted(facts.sized)), facts.depth,
            AFTER in facts.writes)
    got: tuple[Any, ...] | None = known[key]
    return got
