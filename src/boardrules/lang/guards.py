"""Guards: an action's checks run on their own, so candidates are listed without running the
rest of their bodies.

Listing the legal actions tries every candidate. An action's body is often a few checks
(``require``, ``pay``, ``take``...) followed by effects that cannot break a rule (``gain``,
``set``, an ``emit`` whose triggers only gain...: lang/inert.py). The *guard* of such a body
is its prefix up to that inert rest: the very statements of the body, compiled alike (a
block of them, by the same back end), run in the same order on the same context. A guard that breaks a rule proves the action illegal
(the body's run breaks it at the same point); a guard that passes, with enough of the
execution budget left for the rest, answers ``INERT``: the action is legal unless something
after its body fails, which the engine checks (game/verdicts.py, ``_guard_settles``). A body without
an inert rest has no guard: candidates run it whole, as before.

The guards are built lazily, per action, with the ruleset's back end (so the interpreter and
the compiler give the same guards).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import attrs

from ..limits import LIMITS
from . import ast as A
from ..errors import BoardrulesError
from ..runtime import RuleViolation
from .backends import player_fn
from .inert import AFTER, FIXED, PASS, SHORT, Facts, Inert, names_in, type_name
from . import semantics as S

if TYPE_CHECKING:
    from ..ruleset import Backend, Ruleset
    from ..runtime import Context

Guard = Callable[["Context"], Any]
"""An action's guard: runs its checks; ``INERT`` when they passed and the budget left covers
the inert rest (``PASSES`` when that rest passes the player; the rest's bound is then charged to
the context's budget), else False (the candidate is then tried in full)."""

INERT = "inert"
PASSES = "passes"   # as INERT, and the rest passes the player (lang/inert.py, PASS): the turn ends
TRIAL, WORTH = 200, 0.2   # prechecks tried on that many candidates must refuse that share
UNSURE = "unsure"   # a sure action's prechecks passed without proving its body passes (Guards.sure)


Precheck = Callable[["Context"], bool]
"""An action's prechecks: False when its leading checks surely fail (the action is illegal)."""
SureRest = Callable[["Context"], bool]
"""What an action's sure prechecks leave to test (:meth:`Guards.sure`)."""


def _no_rest(ctx: Context) -> bool:
    """:meth:`Guards.sure`'s test for prechecks that are the whole body: a step left for its unit."""
    return ctx.steps > 0


class Guards:
    """The guards of one ruleset's actions, built on first use and kept."""

    def __init__(self, rs: Ruleset, backend: Backend, inert: Inert) -> None:
        self.rs = rs
        self.backend = backend
        self.inert = inert
        self._actions: dict[str, Guard | None] = {}
        self._fixed: dict[tuple[str, Any], Guard | None] = {}   # (action, entity) -> action_for
        self._fixings: dict[str, tuple[int, str] | None] = {}   # action -> _fixing
        self._free: set[str] = set()   # actions whose guard reads none of their parameters
        self._prechecks: dict[str, Precheck | None] = {}
        self._hoisted: dict[str, Precheck | None] = {}
        self._leads: dict[tuple[str, int], Precheck | None] = {}
        self._slots: dict[tuple[str, str], Precheck | None] = {}
        self._answers: dict[tuple[int, Any], Guard | None] = {}   # (block, its scope) -> guard
        self._plans: dict[Any, _Plan] = {}   # (block, its scope, busy) -> its plan
        self._covered: set[str] = set()
        self._sure: dict[str, SureRest | None] = {}   # action -> sure()
        # the sure actions whose rest may leave an 'after turn' block (run where the turn ends)
        self.sure_after: set[str] = set()
        self._tally: dict[str, list[int]] = {}   # action -> [prechecks, refusals]
        # action -> (precheck(action), whether count() still counts it): what a listing reads
        self.listed: dict[str, tuple[Precheck | None, bool]] = {}
        self.rests: dict[Guard, Facts] = {}   # guard -> what the rest it leaves out relies on, writes
        # guard -> its verdict without a unit's run, for a guard that runs no statement (_bare)
        self.bare: dict[Guard, Callable[["Context", str], Any]] = {}
        self._settled: dict[str, list[int]] = {}   # action -> [guards passed, settled]
        self._ways: dict[str, tuple[bool, Guard | None, bool]] = {}   # action -> way()
        # the engine's verdicts that depend on these rules and the flow's place alone, kept by
        # place (every game of the ruleset meets the same places): whether the flow waits there
        # (game/verdicts.py, _flow_waits), and per place the verdicts of _turn_info's
        self.flow_waits: dict[Any, bool] = {}
        self.by_place: dict[Any, dict[Any, bool]] = {}

    def count(self, name: str, refused: bool) -> None:
        """Count one precheck of ``name``; after ``TRIAL`` of them, an action whose prechecks
        refuse fewer than ``WORTH`` of its candidates has them switched off (they would cost
        more than the full tries they save: speed only, the answers are the same)."""
        tally = self._tally.get(name)
        if tally is None:
            if self.sure(name) is not None:   # (they stand for its guard: never switched off)
                return
            tally = self._tally[name] = [0, 0]
        elif tally[0] >= TRIAL:
            return   # (decided)
        tally[0] += 1
        tally[1] += refused
        if tally[0] == TRIAL:   # (decided: kept, or switched off)
            if tally[1] < WORTH * TRIAL:
                self._prechecks[name] = None
            self.listed[name] = (self._prechecks[name], False)

    def listing(self, name: str) -> tuple[Precheck | None, bool]:
        """``(precheck(name), on_trial(name))``, kept in :attr:`listed` for a listing to read
        (lang/listgen.py: one lookup per action and listing, not two calls)."""
        got = self.listed.get(name)
        if got is None:
            check = self.precheck(name)
            got = self.listed[name] = (check, check is not None and self.sure(name) is None
                                       and self.on_trial(name))
        return got

    def on_trial(self, name: str) -> bool:
        """Whether the prechecks of action ``name`` are still counted (:meth:`count` does
        nothing once they are kept or switched off)."""
        tally = self._tally.get(name)
        return tally is None or tally[0] < TRIAL

    def settled(self, name: str, accepted: bool) -> None:
        """Count one run of action ``name``'s guard whose checks passed: ``accepted`` when
        that settled the candidate, False when it was then tried in full all the same (the
        turn ended, the flow ran rules). After ``TRIAL`` of them, an action whose guard
        settles fewer than ``WORTH`` of its candidates has it switched off: its body is run
        in full at once instead of twice (speed only, the answers are the same)."""
        tally = self._settled.get(name)
        if tally is None:
            tally = self._settled[name] = [0, 0]
        elif tally[0] >= TRIAL:
            return   # (decided)
        tally[0] += 1
        tally[1] += accepted
        if tally[0] == TRIAL and tally[1] < WORTH * TRIAL:
            self._actions[name] = None
            self._fixings[name] = None   # (action_for then answers action's None too)
            self._ways.pop(name, None)

    def way(self, name: str) -> tuple[bool, Guard | None, bool]:
        """``(per_entity(name), action(name), argument_free(name))`` in one call, kept until
        :meth:`settled` switches the guard off (the engine asks once per state and player)."""
        got = self._ways.get(name)
        if got is None:
            entity = self.per_entity(name)
            guard = self.action(name)
            got = self._ways[name] = (entity, guard, self.argument_free(name))
        return got

    def _precheck_steps(self, name: str) -> list[tuple[str, Any, Any, A.Stmt]]:
        """The statements of action ``name``'s ``precheck`` (see :meth:`_block_steps`)."""
        adef = self.rs.actions[name]
        bound = {p.name for p in adef.params} | ({"self"} if adef.entity is not None else set())
        return self._block_steps(adef.body.stmts, frozenset({name}), frozenset(bound))

    def _block_steps(self, stmts: tuple[A.Stmt, ...], busy: frozenset[str], names: frozenset[str]
                     ) -> list[tuple[str, Any, Any, A.Stmt]]:
        """The prechecks of a block: (kind, compiled expression or statement, argument, the
        statement) for its leading ``require``s, ``let``s and ``set``s (run on the scratch
        context: what they write is dropped after the prechecks), up to and with its first
        ``pay`` of one amount, ``use``, ``take``, ``advance``, ``call`` of a procedure or ``run``
        of a slot (whose own prechecks then run, with the bindings and player the call or run
        gives them; ``busy``: the procedures on the way, so one that calls itself first ends
        there), and after a first ``pay``, ``use`` or ``take`` those of :meth:`_effect_steps`
        (``names``: the bindings the block begins with)."""
        rs, backend = self.rs, self.backend
        steps: list[tuple[str, Any, Any, A.Stmt]] = []
        for i, s in enumerate(stmts):
            if isinstance(s, A.Require):
                steps.append(("require", backend.expr(s.cond), None, s))
                continue
            if isinstance(s, (A.Let, A.Set)):
                steps.append(("let" if isinstance(s, A.Let) else "set", backend.stmt(s), None, s))
                continue
            if isinstance(s, A.Pay) and not isinstance(s.amounts, A.AmountExpr) \
                    and len(s.amounts) == 1 and s.amounts[0].per is None:
                res = s.amounts[0].resource
                steps.append(("pay", self._operand(s.amounts[0].count, names),
                              (res, rs.resources[res].floor), s))
            elif isinstance(s, A.Use):
                steps.append(("use", None, s.component, s))
            elif isinstance(s, A.Take):
                steps.append(("take", self._operand(s.entity, names), None, s))
            elif isinstance(s, A.Advance):
                steps.append(self._advance_step(s, names))
            elif isinstance(s, A.CallStmt) and s.fn not in rs.primitives and s.fn in rs.actions \
                    and s.fn not in busy and len(busy) < LIMITS.max_call_depth:   # (deeper: the full try refuses)
                bound = tuple(p.name for p in rs.actions[s.fn].params)
                inner = self._block_steps(rs.actions[s.fn].body.stmts, busy | {s.fn},
                                          frozenset(bound))
                if inner:
                    fs = tuple(backend.expr(a) for a in s.args)
                    steps.append(("call", (fs, bound),
                                  self._precheck(inner), s))
            elif isinstance(s, A.Run) and isinstance(s.target, A.Field):
                fo, ffor = backend.expr(s.target.obj), player_fn(backend.expr(s.for_), span=s.span)
                slot = s.target.name
                steps.append(("run", (fo, ffor), lambda e, slot=slot: self._slot_precheck(e, slot, busy), s))
            if steps and steps[-1][3] is s and steps[-1][0] in ("pay", "use", "take"):
                steps.extend(self._effect_steps(stmts[i + 1:], steps, names))
            break
        while steps and steps[-1][0] in ("let", "set"):
            steps.pop()
        return steps

    def _effect_steps(self, stmts: tuple[A.Stmt, ...], before: list[tuple[str, Any, Any, A.Stmt]],
                      names: frozenset[str]) -> list[tuple[str, Any, Any, A.Stmt]]:
        """The prechecks of the ``pay``s (of one amount), ``use``s and ``take``s that follow
        a block's first one, up to its first other statement (and with an ``advance``, the last:
        its level rewards may gain what a later one tests): each is tested on the state
        before the first, which refuses only what the body refuses, as what they write only
        makes later ones harder (a ``pay`` lowers a resource, a ``use`` a supply, and a
        ``take`` makes an entity the player's, which a later ``take`` allows: an entity
        another player holds is refused by the first ``take`` of it too); so each amount or
        entity must be worked out from what no statement changes: literals, entities, fields
        (fixed data), the block's parameters ``names`` and the ``let``s of ``before`` (Harvest's
        buy: ``pay c.cost coins; take c``)."""
        rs, backend = self.rs, self.backend
        fixed = names | {s.name for _, _, _, s in before if isinstance(s, A.Let)} | (
            set(rs.entities) - set(rs.vars) - set(rs.resources) - set(rs.components))
        steps: list[tuple[str, Any, Any, A.Stmt]] = []
        for s in stmts:
            if isinstance(s, A.Pay) and not isinstance(s.amounts, A.AmountExpr) \
                    and len(s.amounts) == 1 and s.amounts[0].per is None \
                    and _fixed(s.amounts[0].count, fixed):
                res = s.amounts[0].resource
                steps.append(("pay", self._operand(s.amounts[0].count, names),
                              (res, rs.resources[res].floor), s))
            elif isinstance(s, A.Use):
                steps.append(("use", None, s.component, s))
            elif isinstance(s, A.Take) and _fixed(s.entity, fixed):
                steps.append(("take", self._operand(s.entity, names), None, s))
            elif isinstance(s, A.Advance) and (s.by is None or _fixed(s.by, fixed)):
                steps.append(self._advance_step(s, names))
                break   # (its level rewards may gain what a later step tests: the last)
            else:
                break
        return steps

    def _advance_step(self, s: A.Advance, names: frozenset[str]) -> tuple[str, Any, Any, A.Stmt]:
        """The precheck step of ``advance T [by N]``: the level it meets is the state's (no
        ``pay``, ``use`` or ``take`` before it changes a track), refused past the top as
        S.advance refuses it (``names``: the block's bindings, :meth:`_operand`)."""
        fb = None if s.by is None else self._operand(s.by, names)
        return ("advance", fb, (s.track, self.rs.tracks[s.track].high), s)

    def _operand(self, e: A.Expr, names: frozenset[str]) -> Any:
        """A precheck step's amount or entity ``e``: compiled, or a :class:`_Binding` when it
        is one of the bindings ``names`` the block begins with (the prechecks read it in place:
        no call)."""
        if isinstance(e, A.Name) and e.id in names:
            return _Binding(e.id)
        return self.backend.expr(e)

    def _precheck(self, steps: list[tuple[str, Any, Any, A.Stmt]], sure: bool = False) -> Precheck:
        """:func:`_precheck` of ``steps`` (:meth:`_block_steps`'), their expressions written
        into its source where the back end writes source (``Compiler.inline``)."""
        return _precheck(tuple((k, f, a) for k, f, a, _ in steps), sure,
                         getattr(self.backend, "inline", None), tuple(_operand_of(k, f, s) for k, f, _, s in steps))

    def _slot_precheck(self, entity: str, slot: str, busy: frozenset[str]) -> Precheck | None:
        """The prechecks of entity ``entity``'s ``slot`` body (None when it has none), built on
        first use."""
        key = (entity, slot)
        if key not in self._slots:
            rs = self.rs
            ent = rs.entities[entity]
            body = ent.slots.get(slot, rs.kinds[ent.kind].slots.get(slot))
            steps = self._block_steps(body.stmts, busy, frozenset({"self"})) if body is not None \
                and rs.slot_fn(entity, slot) is not None else []
            self._slots[key] = self._precheck(steps) if steps else None
        return self._slots[key]

    def hoisted(self, name: str) -> Precheck | None:
        """The prechecks of action ``name`` that do not depend on its arguments (they mention
        no parameter, nor a ``let`` that does), as :meth:`precheck` evaluates them; evaluated
        once per player and state before the arguments are listed: False proves every
        candidate of the action illegal (each would fail at one of its prechecks, or at an
        earlier statement). None when there are none."""
        if name in self._hoisted:
            return self._hoisted[name]
        dependent = {p.name for p in self.rs.actions[name].params}
        kept = []
        for kind, f, arg, s in self._precheck_steps(name):
            if names_in(s) & dependent:
                if isinstance(s, A.Let):
                    dependent.add(s.name)
                    continue
                if kind == "set":
                    break   # (what it writes may be read further on)
                continue
            kept.append((kind, f, arg, s))
        while kept and kept[-1][0] in ("let", "set"):
            kept.pop()
        covered = len(kept) == len(self._precheck_steps(name))
        check = self._precheck(kept, covered and self.sure(name) is not None) if kept else None
        self._hoisted[name] = check
        if check is not None and covered:
            self._covered.add(name)
        return check

    def covered(self, name: str) -> bool:
        """Whether :meth:`hoisted` is the whole of :meth:`precheck` for action ``name`` (none of
        its prechecks depends on the arguments): once it passed, the candidates' own prechecks
        would pass too (call after :meth:`hoisted`)."""
        return name in self._covered

    def stops(self, name: str) -> bool:
        """Whether action ``name``'s prechecks, once they refuse a value of its last parameter,
        refuse every later one with the same earlier arguments: that parameter is a whole number
        of a range ``lo..hi`` (walked upwards) and each step is a ``require``, ``use`` or ``pay``
        that does not mention it, or a ``pay`` of exactly it from a literal ``lo`` of 0 or more
        (a larger amount is refused too, as Context.pay refuses; a negative one is refused while
        larger ones may pass; Harvest's ``sell(n: int in 1..3) { pay n grain ... }``). The listing
        then stops at the first refusal (lang/listgen.py): the same candidates, fewer tries."""
        adef = self.rs.actions[name]
        if not adef.params:
            return False
        last = adef.params[-1]
        if not isinstance(last.domain, A.Range) or last.type.name != "int" \
                or last.type.list_of is not None or last.type.optional:
            return False
        steps = self._precheck_steps(name)
        # (a pay of a negative amount is refused while larger ones may pass: only from 0 up)
        from_zero = isinstance(last.domain.low, A.Int) and last.domain.low.value >= 0
        return bool(steps) and all(
            kind == "pay" and from_zero and type(f) is _Binding and f.name == last.name
            or kind in ("require", "use", "pay") and last.name not in names_in(stmt)
            for kind, f, _, stmt in steps)

    def where_lead(self, name: str, i: int) -> Precheck | None:
        """The leading conjuncts of the ``where`` of parameter ``i`` of action ``name`` that do
        not mention that parameter: they do not depend on its value, so when they are false
        no value passes (evaluated once, with the earlier parameters bound). None when there
        are none."""
        key = (name, i)
        if key in self._leads:
            return self._leads[key]
        prm = self.rs.actions[name].params[i]
        where = prm.where
        items = where.items if isinstance(where, A.BoolOp) and where.op == "and" else (where,)
        lead = []
        for item in items:
            if item is None or prm.name in names_in(item):
                break
            lead.append(self.backend.expr(item))
        check: Precheck | None = None
        if lead:
            fs = tuple(lead)

            def check(ctx: Context) -> bool:
                for f in fs:
                    if not f(ctx):
                        return False
                return True
        self._leads[key] = check
        return check

    def precheck(self, name: str) -> Precheck | None:
        """The prechecks of action ``name``: its leading ``require``s (and ``let``s), up to and
        with its first ``pay`` of one amount, ``use``, ``take`` or ``call`` of a procedure
        (then the procedure's own prechecks, with its parameters bound to the arguments: the
        checks a called procedure starts with are the caller's), evaluated without raising,
        writing nothing but bindings (so one context serves every candidate of a listing):
        False when one of them surely fails, True otherwise (also when evaluating one breaks
        a rule: the full try says which). None when the body does not start with a check."""
        if name in self._prechecks:
            return self._prechecks[name]
        steps = self._precheck_steps(name)
        check = self._precheck(steps, self.sure(name) is not None) if steps else None
        self._prechecks[name] = check
        return check

    def sure(self, name: str) -> SureRest | None:
        """When the prechecks of action ``name`` refuse exactly what the statements they test
        refuse and those are all of its body but an inert rest (lang/inert.py): ``rest(ctx)``,
        which tells on the prechecks' context, once they returned True (not ``UNSURE``), whether
        the body surely runs without breaking a rule: the budget left covers the statements
        tested (charged as the prechecks were, and the body's unit) and the rest's bound, and
        what the rest relies on holds (as its guard tells after running those statements: they
        write no variable). Else None. The prechecks are then ``require``s and after them
        ``pay``s (each of another resource, by an amount :meth:`precheck` tests: True only for a
        whole number >= 0), ``use``s (each of another component) and at most one ``take`` (True
        only for an entity), and, as the body's last statement, at most one ``advance`` (True
        only for a whole number of levels >= 0; the level rewards inert: :meth:`_advance_rest`),
        no ``let`` or ``set``: each is tested on the state its statement meets, as no ``pay``,
        ``use`` or ``take`` changes what another one tests, and no rule reacts to what they
        write. The engine lists a candidate whose prechecks were sure
        without running its guard or body (game/verdicts.py, ``_sure_settles``)."""
        if name in self._sure:
            return self._sure[name]
        steps = self._precheck_steps(name)
        kinds = [k for k, *_ in steps]
        stmts = self.rs.actions[name].body.stmts
        paid = [arg[0] for k, _, arg, _ in steps if k == "pay"]
        used = [arg for k, _, arg, _ in steps if k == "use"]
        rest: SureRest | None = None
        if (0 < len(steps) <= len(stmts) and all(step[3] is s for step, s in zip(steps, stmts))
                and set(kinds) <= {"require", "pay", "use", "take", "advance"}
                and kinds == sorted(kinds, key=lambda k: k != "require")   # (requires first)
                and len(set(paid)) == len(paid) and len(set(used)) == len(used)
                and kinds.count("take") <= 1 and "advance" not in kinds[:-1]):
            rest = self._sure_rest(name, len(steps))
        self._sure[name] = rest
        return rest

    def _sure_rest(self, name: str, tested: int) -> SureRest | None:
        """:meth:`sure`'s ``rest`` for action ``name`` whose first ``tested`` statements its
        prechecks test, None when the others are not an inert rest its guard may leave out."""
        stmts = self.rs.actions[name].body.stmts
        last = stmts[tested - 1]
        if isinstance(last, A.Advance):   # (its rewards may write what a rest reads: the last)
            return self._advance_rest(last.track, name) if tested == len(stmts) else None
        if tested == len(stmts):
            return _no_rest
        plan = self._plan(stmts, self._scope(name), frozenset({name}))   # (the guard's: action)
        facts, cost = plan.facts, plan.cost
        # (a rest that begins among the statements tested, as a take after a require of its
        # owner, holds from there on too: the same facts and bound cover its end)
        if not 0 <= plan.head <= tested or PASS in facts.writes or 1 + facts.depth > LIMITS.max_call_depth:
            return None   # (the rest is not all inert, or passes the player: its guard decides)
        if AFTER in facts.writes:
            self.sure_after.add(name)
        return _within(cost, self._holds(facts))   # (as the guard's test after its run: _guard)

    def _advance_rest(self, track: str, name: str) -> SureRest | None:
        """:meth:`sure`'s ``rest`` for action ``name`` whose last statement, tested by its
        prechecks, is an ``advance`` of ``track``: the level rewards it runs (each a unit of its
        own, for the player) must be inert (lang/inert.py) as one rest, pass nobody, and no rule
        may react to ``advanced``, else None. ``rest(ctx)`` tests the budget for a reward at every
        level of the track (a bound: a unit each, and the largest reward's) and what they rely
        on."""
        rs = self.rs
        if "advanced" in rs.triggers_by_event:
            return None
        tdef = rs.tracks[track]
        facts, worst = Facts(), 0
        for block in tdef.rewards.values():
            plan = self._plan(block.stmts, {}, frozenset({name}))
            if plan.head != 0:
                return None
            facts, worst = facts | plan.facts, max(worst, plan.cost)
        if not facts.sound or PASS in facts.writes or AFTER in facts.writes \
                or 2 + facts.depth > LIMITS.max_call_depth:   # (the body's unit, a reward's)
            return None
        bound = (tdef.high - tdef.low) * (1 + worst)
        return _within(bound, self._holds(facts))

    def _holds(self, facts: Facts) -> Callable[["Context"], bool] | None:
        """:func:`facts_check` of what a rest with ``facts`` relies on; None when it relies on
        nothing (no call to make)."""
        if not facts.needs and not facts.sized:
            return None
        rs = self.rs
        return facts_check(tuple((v, bool(rs.vars[v].per)) for v in sorted(facts.needs)),
                           tuple((v, bool(rs.vars[v].per)) for v in sorted(facts.sized)))

    def action(self, name: str) -> Guard | None:
        """The guard of action ``name``'s body, None when the body has no inert rest."""
        if name in self._actions:
            return self._actions[name]
        adef = self.rs.actions[name]
        plan = self._plan(adef.body.stmts, self._scope(name), frozenset({name}))
        guard = self._guard(plan)
        self._actions[name] = guard
        # (a body that runs its parameter's slot has a guard per entity: never argument-free)
        if not plan.reads & {p.name for p in adef.params} and self._fixing(name) is None:
            self._free.add(name)
        return guard

    def _scope(self, name: str) -> dict[str, Any]:
        """The bindings action ``name``'s body begins with, typed (lang/inert.py)."""
        rs = self.rs
        adef = rs.actions[name]
        scope: dict[str, Any] = {p.name: type_name(p.type, rs.kinds) for p in adef.params}
        if adef.entity is not None:
            scope["self"] = f"entity:{rs.entities[adef.entity].kind}"
        return scope

    def action_for(self, name: str, args: tuple[Any, ...]) -> Guard | None:
        """The guard of action ``name``'s body for arguments ``args``: when the body runs a
        slot of an entity its parameter names (``run b.on_build``, ``b: building``), the guard
        analysed with that parameter holding the entity ``args`` give it (lang/inert.py,
        ``FIXED``: only that entity's slot body must be inert, not every one of the kind);
        else :meth:`action`. None when the body has no inert rest."""
        fixed = self._fixing(name)
        if fixed is None:
            return self.action(name)
        i, param = fixed
        value = args[i] if i < len(args) else None
        key = (name, value)
        if key not in self._fixed:
            kind = self.rs.actions[name].params[i].type.name
            if value not in self.rs.by_kind.get(kind, ()):
                self._fixed[key] = self.action(name)   # (not an entity of the kind: the run refuses it)
            else:
                scope = self._scope(name)
                scope[FIXED] = ((param, value),)
                self._fixed[key] = self._guard(self._plan(self.rs.actions[name].body.stmts, scope,
                                                          frozenset({name})))
        return self._fixed[key]

    def per_entity(self, name: str) -> bool:
        """Whether the guard of action ``name`` depends on the entity an argument names
        (:meth:`action_for`: not :meth:`action` for every argument tuple)."""
        return self._fixing(name) is not None

    def _fixing(self, name: str) -> tuple[int, str] | None:
        """(position, name) of the first parameter of action ``name`` that its body's own
        statements name as the entity of a ``run`` (not rebound before it: :func:`inert._bind`
        drops the fact then), of an entity kind and not a list; None when there is none."""
        if name not in self._fixings:
            rs, found = self.rs, None
            adef = rs.actions[name]
            targets = {s.target.obj.id for s in _statements(adef.body.stmts)
                       if isinstance(s, A.Run) and isinstance(s.target, A.Field)
                       and isinstance(s.target.obj, A.Name)}
            for i, p in enumerate(adef.params):
                if p.name in targets and p.type.list_of is None and not p.type.optional \
                        and p.type.name in rs.kinds:
                    found = (i, p.name)
                    break
            self._fixings[name] = found
        return self._fixings[name]

    def argument_free(self, name: str) -> bool:
        """Whether the guard of action ``name`` (call :meth:`action` first) mentions none of
        its parameters: what it runs, the facts it checks and what it writes are then the
        same for every argument tuple (primitives never read the bindings: docs/plugins.md),
        so its verdict on one candidate of a state and player is its verdict on all."""
        return name in self._free

    def answer(self, block: int, scope: dict[str, Any]) -> Guard | None:
        """The guard of the body of ``choose`` block ``block`` (an answer to its decision runs
        it), its bindings typed ``scope``; None when the body has no inert rest."""
        key = (block, tuple(sorted(scope.items(), key=repr)))
        if key not in self._answers:
            body = self.rs.block_owner(block).body  # type: ignore[union-attr]  # (a choose)
            self._answers[key] = self._guard(self._plan(body.stmts, scope, frozenset()))
        return self._answers[key]

    def _guard(self, plan: "_Plan") -> Guard | None:
        """The guard that runs ``plan`` (None when it leaves nothing out): ``INERT`` when the
        checks passed, the budget left covers the rest, the rest nests within LIMITS.max_call_depth and
        what it relies on holds (:func:`facts_check`), else False. None too for a rest that
        passes its player and leaves an 'after turn' block: the pass ends the turn, which runs
        the block, and the block may break a rule (the body is run in full)."""
        run, facts, levels = plan.run, plan.facts, plan.levels
        if not plan.useful or PASS in facts.writes and AFTER in facts.writes:
            return None
        depth = levels + facts.depth
        hold = self._holds(facts)
        verdict = PASSES if PASS in facts.writes else INERT

        def guard(ctx: Context) -> Any:
            cost = run(ctx)
            if ctx.steps < cost or ctx.depth + depth > LIMITS.max_call_depth \
                    or hold is not None and not hold(ctx):
                return False
            ctx.steps -= cost   # (charged for the rest: what the flow runs after it, the engine
            return verdict      # bounds with what is left: game/flow.py, _step_end_settles)
        self.rests[guard] = facts   # (the flow after a rest not run: game/verdicts.py, _last_turn_settles)
        if runs_nothing(plan):
            self.bare[guard] = _bare(guard)
        return guard

    def _plan(self, stmts: tuple[A.Stmt, ...], scope: dict[str, Any], busy: frozenset[str]
              ) -> "_Plan":
        """How a guard runs ``stmts``: the statements before their inert rest, where the last
        of them may be entered in turn (the *pivot*: a ``call`` of a procedure, an ``if``, a
        ``run`` of a slot, whose own rest is then inert too: the rest of an action may begin
        inside a procedure it calls). ``busy``: the procedures and slots on the way."""
        key = (id(stmts), tuple(sorted(scope.items())), busy)
        plan = self._plans.get(key)
        if plan is None:
            plan = self._plans[key] = self._new_plan(stmts, scope, busy)
        return plan

    def _new_plan(self, stmts: tuple[A.Stmt, ...], scope: dict[str, Any], busy: frozenset[str]
                  ) -> "_Plan":
        inert, backend = self.inert, self.backend
        k, cost, facts, scopes = inert.split_facts(stmts, scope)
        pivot: _Plan | None = None
        if k > 0:
            pivot = self._pivot(stmts[k - 1], scopes[k - 1], busy)
            if pivot is not None and not (pivot.useful and (pivot.facts | facts).sound) \
                    or pivot is not None and PASS in pivot.facts.writes and PASS in facts.writes:
                pivot = None   # (the rests of both would pass the player: twice)
        # the statements before the rest (and the pivot), compiled as a block of the body's
        head = stmts[:k - 1 if pivot is not None else k]
        prefix = backend.block(A.Block(stmts=head, span=head[0].span)) if head else None
        reads = frozenset(names_in(stmts[:k]))   # (the pivot whole: its rests too)
        if pivot is None:
            def run(ctx: Context) -> int:
                if prefix is not None:
                    prefix(ctx)
                return cost
            return _Plan(run, facts, 0, k < len(stmts), reads, k, cost)
        enter = pivot.run

        def run_pivot(ctx: Context) -> int:
            if prefix is not None:
                prefix(ctx)
            return enter(ctx) + cost
        return _Plan(run_pivot, facts | pivot.facts, pivot.levels, True, reads)

    def _pivot(self, s: A.Stmt, scope: dict[str, Any], busy: frozenset[str]) -> "_Plan | None":
        """The plan of statement ``s`` entered by a guard (see :meth:`_plan`), None when it is
        not one to enter (or the procedures and slots on the way are as deep as rules nest)."""
        rs, backend = self.rs, self.backend
        if len(busy) >= LIMITS.max_call_depth:
            return None
        if isinstance(s, A.CallStmt) and s.fn not in rs.primitives and s.fn in rs.actions \
                and s.fn not in busy:
            proc = rs.actions[s.fn]
            sub = self._plan(proc.body.stmts, {p.name: type_name(p.type, rs.kinds) for p in proc.params},
                             busy | {s.fn})
            fs = tuple(backend.expr(a) for a in s.args)
            names = tuple(p.name for p in proc.params)
            fn, inner = s.fn, sub.run
            run_unit = S.run_unit

            def call(ctx: Context) -> int:   # (as the compiled call: backends.py)
                env = dict(zip(names, [f(ctx) for f in fs]))
                return run_unit(ctx, inner, ctx.source or fn, env=env)   # type: ignore[no-any-return]
            return _Plan(call, sub.facts, sub.levels + 1, sub.useful)
        if isinstance(s, A.If):
            branches, seen = [], dict(scope)
            for cond, block in s.branches:
                branches.append((backend.expr(cond),
                                 self._plan(block.stmts, self.inert.narrow(cond, seen, True), busy)))
                seen = self.inert.narrow(cond, seen, False)
            orelse = self._plan(s.orelse.stmts, seen, busy) if s.orelse is not None else None
            plans = [p for _, p in branches] + ([orelse] if orelse is not None else [])
            facts = Facts()
            for p in plans:
                facts = facts | p.facts
            compiled = tuple((fc, p.run) for fc, p in branches)
            other = orelse.run if orelse is not None else None

            def if_(ctx: Context) -> int:   # (as the compiled if: backends.py)
                for fc, fb in compiled:
                    if fc(ctx):
                        return fb(ctx)
                return other(ctx) if other is not None else 0
            return _Plan(if_, facts, max(p.levels for p in plans), any(p.useful for p in plans))
        if isinstance(s, A.Run) and isinstance(s.target, A.Field):
            return self._run_pivot(s, scope, busy)
        return None

    def _run_pivot(self, s: A.Run, scope: dict[str, Any], busy: frozenset[str]) -> "_Plan | None":
        """The plan of ``run E.slot [for P]`` entered by a guard: the plan of the slot's body
        of each entity of E's kind (as the analysis types E; an entity of another kind runs
        its slot in full)."""
        rs, backend, inert = self.rs, self.backend, self.inert
        assert isinstance(s.target, A.Field)
        slot = s.target.name
        with inert._unit():   # (the entity is worked out by the guard, not relied on)
            found = inert.entity(s.target.obj, scope)
        kind = found[0][7:] if found is not None and found[0] is not None else None
        if kind not in rs.kinds or slot not in rs.kinds[kind].slots or f"{kind}.{slot}" in busy:
            return None
        plans: dict[str, _Plan] = {}
        facts = Facts()
        obj = s.target.obj
        only = dict(scope.get(FIXED, ())).get(obj.id) if isinstance(obj, A.Name) else None
        for e in rs.by_kind.get(kind, ()) if only is None else (only,):
            body = rs.entities[e].slots.get(slot, rs.kinds[kind].slots[slot])
            if body is None or rs.slot_fn(e, slot) is None:
                continue
            plans[e] = self._plan(body.stmts, {"self": f"entity:{kind}"}, busy | {f"{kind}.{slot}"})
            facts = facts | plans[e].facts
        if not plans or s.for_ is not None and PASS in facts.writes:
            return None   # (none, or a rest would pass the player named, not the actor)
        span = s.span
        fo, ffor = backend.expr(s.target.obj), player_fn(backend.expr(s.for_), span=span)
        runs = {e: p.run for e, p in plans.items()}
        run_unit = S.run_unit

        def run(ctx: Context) -> int:   # (as S.run_slot)
            entity = fo(ctx)
            for_ = None if ffor is None else ffor(ctx)
            if type(entity) is not str or entity not in rs.entities:
                raise S.at(S.entity_arg_error(ctx, "run", entity), span)
            fn = rs.slot_fn(entity, slot)
            if fn is None:
                return 0
            me = ctx.me if for_ is None else ctx.player(for_)
            inner = runs.get(entity)
            if inner is None:   # (an entity the plans left out: run in full)
                run_unit(ctx, fn, entity, me=me, env={"self": entity})
                return 0
            return run_unit(ctx, inner, entity, me=me, env={"self": entity})  # type: ignore[no-any-return]
        return _Plan(run, facts, 1 + max(p.levels for p in plans.values()),
                     any(p.useful for p in plans.values()))


def runs_nothing(plan: _Plan) -> bool:
    """Whether a guard of ``plan`` runs no statement (its body is all inert rest, no pivot)."""
    return plan.head == 0


def _bare(guard: Guard) -> Callable[["Context", str], Any]:
    """``S.run_unit(ctx, guard, source)``'s answer for a guard whose plan runs no statement (a
    body all inert rest: Harvest's pass_round), without the unit's bindings and labels, which
    nothing reads: its step and its level counted as run_unit counts them. Where run_unit would
    refuse (no step left, as deep as rules nest) it is run_unit."""
    run_unit = S.run_unit

    def bare(ctx: Context, source: str) -> Any:
        if ctx.steps < 1 or ctx.depth >= LIMITS.max_call_depth:
            return run_unit(ctx, guard, source)   # (its violation)
        ctx.steps -= 1
        ctx.depth += 1
        try:
            return guard(ctx)
        finally:
            ctx.depth -= 1
    return bare


@attrs.frozen
class _Plan:
    """How a guard runs a block: ``run(ctx)`` runs it up to its inert rest and returns a bound
    on the steps of what it left out; ``facts``: what that rest relies on; ``levels``: how many
    procedures, slots deep the rest may begin; ``useful``: whether anything is left out."""

    run: Callable[["Context"], int]
    facts: Facts
    levels: int
    useful: bool
    reads: frozenset[str] = frozenset()   # names the statements it runs mention (a superset)
    head: int = -1   # without a pivot: how many statements it runs (its rest's bound: ``cost``)
    cost: int = 0


def _within(bound: int, hold: Callable[["Context"], bool] | None) -> SureRest:
    """A sure ``rest(ctx)``: the budget left covers ``bound`` steps and what the rest relies on
    holds (``hold``; None: nothing)."""
    if hold is None:
        return lambda ctx: ctx.steps > bound
    return lambda ctx: ctx.steps > bound and hold(ctx)


def facts_hold(ctx: Context, needs: tuple[tuple[str, bool], ...],
               lists: tuple[tuple[str, bool], ...], grown: Mapping[str, int] | None = None) -> bool:
    """Whether what an inert rest relies on holds in ``ctx`` (lang/inert.py, ``Facts``): the
    variables ``needs`` are present and the lists ``lists`` short, for every player when kept
    per player (``(name, per player)`` pairs), also once ``grown[name]`` elements are added."""
    get, players = ctx.get, range(ctx.np)
    for v, per in needs:   # (read as present by the rest: Facts.needs)
        for key in ([("v", v, p) for p in players] if per else [("v", v)]):
            if get(key) is None:
                return False
    for v, per in lists:   # (read as short lists by the rest: Facts.sized)
        most = SHORT - grown.get(v, 0) if grown else SHORT
        for key in ([("v", v, p) for p in players] if per else [("v", v)]):
            if len(get(key) or ()) > most:
                return False
    return True


def seats_hold(ctx: Context, names: tuple[str, ...]) -> bool:
    """Whether the global list variables ``names`` hold only players of the game (lang/inert.py,
    ``Facts.seats``: the flow reads their elements as seats)."""
    n = ctx.np
    return all(type(p) is int and 0 <= p < n for v in names for p in ctx.get(("v", v)) or ())


def facts_check(needs: tuple[tuple[str, bool], ...], lists: tuple[tuple[str, bool], ...]
                ) -> Callable[["Context"], bool]:
    """:func:`facts_hold` of these facts as one guard checks them, candidate after candidate:
    the answer on the committed values it last checked is kept, and serves every context over
    the same values that wrote none of the variables the facts read."""
    if not needs and not lists:
        return lambda ctx: True
    keys: dict[int, frozenset[tuple[Any, ...]]] = {}   # player count -> the keys the facts read
    last: list[Any] = [None, False]   # (committed values, the answer on them)

    def check(ctx: Context) -> bool:
        read = keys.get(ctx.np)
        if read is None:
            read = keys[ctx.np] = frozenset(
                k for v, per in needs + lists
                for k in ([("v", v, p) for p in range(ctx.np)] if per else [("v", v)]))
        if ctx.w and not read.isdisjoint(ctx.w):
            return facts_hold(ctx, needs, lists)
        if last[0] is not ctx.base:
            last[1] = facts_hold(ctx, needs, lists)
            last[0] = ctx.base
        return last[1]  # type: ignore[no-any-return]
    return check


def _fixed(e: A.Expr, names: "set[str] | frozenset[str]") -> bool:
    """Whether expression ``e`` is worked out from nothing a statement changes: literals, the
    ``names`` (bindings and entities), fields of them (entities' fixed data) and arithmetic."""
    if isinstance(e, (A.Int, A.Str, A.Bool, A.NoneLit)):
        return True
    if isinstance(e, A.Name):
        return e.id in names
    if isinstance(e, A.Field):
        return _fixed(e.obj, names)
    if isinstance(e, A.Neg):
        return _fixed(e.operand, names)
    if isinstance(e, A.BinOp):
        return _fixed(e.left, names) and _fixed(e.right, names)
    return False


def _read(key: str, default: str) -> str:
    """The source of ``ctx.get(key)`` for a key whose default is ``default`` (resources and
    tracks 0, owners None: :meth:`Ruleset.default_of`): the committed table's own ``get`` while
    the context has written nothing (the common case: a C call instead of a Python one)."""
    return f"(ctx.base.get({key}, {default}) if not ctx.w else ctx.get({key}))"


@attrs.frozen
class _Binding:
    """A precheck step's operand that is a binding of its block (a parameter): its ``name``."""

    name: str


def _operand_of(kind: str, f: Any, s: A.Stmt) -> A.Expr | None:
    """The expression a precheck step's ``f`` (of :meth:`Guards._block_steps`) is compiled from
    (statement ``s``'s condition, amount, entity or levels), None when ``f`` is none of them."""
    if f is None or type(f) is _Binding:
        return None
    if isinstance(s, A.Require):
        return s.cond
    if isinstance(s, A.Pay) and not isinstance(s.amounts, A.AmountExpr):
        return s.amounts[0].count
    if isinstance(s, (A.Take, A.Advance)) and kind in ("take", "advance"):
        return s.entity if isinstance(s, A.Take) else s.by
    return None


def _precheck(steps: tuple[tuple[str, Any, Any], ...], sure: bool = False,
              inline: Callable[[A.Expr, dict[str, Any]], str] | None = None,
              exprs: tuple[A.Expr | None, ...] = ()) -> Precheck:
    """The prechecks ``steps`` as one function (see :meth:`Guards.precheck`): generated Python
    source, one line or two a step, calling the steps' compiled expressions (a loop over the
    steps that tests each one's kind costs about as much as the checks themselves; the source is
    made here from the kinds alone, no text of the rules goes into it). ``sure``: the steps are
    an action's whole body (:meth:`Guards.sure`): True only when each passed as its statement
    would, else ``UNSURE`` at once (an amount or an entity that the body's statement refuses,
    or an error: the full try says which; the steps after it are not tested). ``inline``: the
    source of an expression (``exprs``: each step's, else None) written into the function
    instead of a call of its compiled function (codegen's, ``Compiler.inline``: a frame less a
    step); an error of it is then met as that function would raise it (a primitive's defect a
    violation, ``primitive_failed``; an engine's defect raised)."""
    if inline is not None and any(e is not None for e in exprs):
        try:
            return _precheck_source(steps, sure, inline, exprs)
        except (SyntaxError, RecursionError, MemoryError):   # (nested deeper than Python compiles)
            pass
    return _precheck_source(steps, sure, None, ())


def _precheck_source(steps: tuple[tuple[str, Any, Any], ...], sure: bool,
                     inline: Callable[[A.Expr, dict[str, Any]], str] | None,
                     exprs: tuple[A.Expr | None, ...]) -> Precheck:
    """:func:`_precheck`'s function, written with ``inline`` or without (``None``)."""
    names: dict[str, Any] = {"RuleViolation": RuleViolation, "BoardrulesError": BoardrulesError,
                             "UNSURE": UNSURE, "primitive_failed": S.primitive_failed}
    lines = ["def precheck(ctx):", "    try:"]
    me = False   # (whether ``me`` holds ``ctx.player()`` yet: no step changes ``ctx.me``)

    def player() -> str:
        nonlocal me
        if not me:   # (ctx.player()'s test inlined, where it was first asked: it may raise)
            lines.extend(["        me = ctx.me",
                          "        if type(me) is not int or not 0 <= me < ctx.np: me = ctx.player()"])
            me = True
        return "me"
    for i, (kind, f, arg) in enumerate(steps):
        names[f"f{i}"], names[f"a{i}"] = f, arg
        e = exprs[i] if inline is not None else None
        # (an operand that is a binding read in place, as its compiled expression reads it)
        value = f"ctx.env[{f.name!r}]" if type(f) is _Binding else f"f{i}(ctx)" if e is None or inline is None \
            else f"({inline(e, names)})"
        if kind == "require":
            lines.append(f"        if not {value}: return False")
        elif kind in ("let", "set"):   # (run on the scratch context: the caller drops writes)
            lines.append(f"        f{i}(ctx)")
        elif kind == "pay":   # (as Context.pay: a count that is no number breaks a rule)
            names[f"r{i}"], names[f"m{i}"] = arg
            lines.append(f"        n = {value}")
            if sure:   # (Context.pay refuses it, or _num converts it: the full try decides)
                lines.append("        if type(n) is not int or n < 0: return UNSURE")
            lines.append(f"        k = ('r', r{i}, {player()})")
            lines.append("        if " + ("" if sure else "type(n) is int and n >= 0 and ")
                         + f"{_read('k', '0')} - n < m{i}: return False")
        elif kind == "use":
            lines.append(f"        if ctx.get(('c', a{i}, {player()})) <= 0: return False")
        elif kind == "take":   # (as S.take)
            if sure:   # (S.take refuses what is not an entity)
                lines += [f"        e = {value}",
                          "        if type(e) is not str or e not in ctx.rs.entities: return UNSURE",
                          "        k = ('o', e)"]
            else:
                lines.append(f"        k = ('o', {value})")
            lines.append(f"        owner = {_read('k', 'None')}")
            lines.append(f"        if owner is not None and owner != {player()}: return False")
        elif kind == "advance":   # (as S.advance: past the top, or a negative amount, refused)
            names[f"t{i}"], names[f"m{i}"] = arg
            lines.append("        n = 1" if f is None else f"        n = {value}")
            if sure:
                lines.append("        if type(n) is not int or n < 0: return UNSURE")
            lines.append(f"        k = ('t', t{i}, {player()})")
            lines.append("        if " + ("" if sure else "type(n) is int and n >= 0 and ")
                         + f"{_read('k', '0')} + n > m{i}: return False")
        else:   # a call's or a slot's own prechecks
            names[f"h{i}"] = _call_step if kind == "call" else _run_step
            lines += [f"        verdict = h{i}(ctx, f{i}, a{i})",
                      "        if verdict is not None: return verdict"]
    lines += ["    except (RuleViolation, BoardrulesError):   # (the full try says which)",
              "        return UNSURE" if sure else "        pass"]
    if inline is not None:   # (as the compiled expression's own handler: codegen.ExprCompiler.compile)
        lines += ["    except Exception as err:",
                  "        if primitive_failed(ctx, err) is err: raise",
                  "        return UNSURE" if sure else "        pass"]
    lines.append("    return True")
    exec(compile("\n".join(lines), "<prechecks>", "exec"), names)   # (our own source: see above)
    return names["precheck"]  # type: ignore[no-any-return]


def _call_step(ctx: Context, f: Any, check: Precheck) -> bool | None:
    """A ``call`` step of the prechecks: the procedure's own prechecks on its arguments (as
    S.call_procedure); False when they refuse, True when the rest is left to the full try (rules
    running rules as deep as they may), None to go on."""
    if ctx.depth >= LIMITS.max_call_depth:
        return True
    fs, names = f
    env = dict(zip(names, [g(ctx) for g in fs]))
    saved, ctx.env = ctx.env, env
    ctx.depth += 1
    try:
        return None if check(ctx) else False
    finally:
        ctx.env = saved
        ctx.depth -= 1


def _run_step(ctx: Context, f: Any, slot_check: Any) -> bool | None:
    """A ``run`` step of the prechecks: the slot body's own prechecks (as S.run_slot); the
    answers of :func:`_call_step`."""
    if ctx.depth >= LIMITS.max_call_depth:
        return True
    fo, ffor = f
    entity = fo(ctx)
    if type(entity) is not str or entity not in ctx.rs.entities:
        return True   # (a violation: the full try says which)
    check = slot_check(entity)
    if check is None:
        return True
    me = ctx.me if ffor is None else ctx.player(ffor(ctx))
    saved_env, saved_me = ctx.env, ctx.me
    ctx.env, ctx.me = {"self": entity}, me
    ctx.depth += 1
    try:
        return None if check(ctx) else False
    finally:
        ctx.env, ctx.me = saved_env, saved_me
        ctx.depth -= 1


def _statements(stmts: tuple[A.Stmt, ...]) -> list[A.Stmt]:
    """``stmts`` and the statements of their ``if`` branches, at any depth (not of loops: a
    loop's body may rebind its names from one element to the next)."""
    out: list[A.Stmt] = []
    stack = list(stmts)
    while stack:
        s = stack.pop()
        out.append(s)
        if isinstance(s, A.If):
            stack.extend(t for _, b in s.branches for t in b.stmts)
            stack.extend(s.orelse.stmts if s.orelse is not None else ())
    return out
