"""A turns step's candidate listing compiled to generated Python source (issue 12).

``Game.legal_actions()`` lists a turn's candidates action by action: the prechecks that do not
depend on the arguments (lang/guards.py, ``Guards.hoisted``), then each parameter's values from
its domain, the leading part of its ``where`` that does not depend on the value
(``Guards.where_lead``), the ``where`` itself, then the action's own prechecks. The generic
listing (game/listing.py, ``Game._turn_candidates``) walks those pieces through per-candidate methods;
this module writes, per ``turns`` step, one generator function that does the same in a row:
one block per action of the step, one nested ``for`` per parameter, the compiled expressions
(either back end's) called inline. The generic listing stays the oracle
(tests/core/test_listgen.py: the same candidates in the same order on every state of random
games of the three bundled games, and with a house rule).

The source is registered with :mod:`linecache` under ``<listing FILE:LINE:COL 'STEP'>``, the
step's place, and each action's block opens with a comment naming the action and its place, so
a traceback through it points at the rules. Nothing of the rule files enters the source as
code: action and parameter names appear as ``repr()`` literals, compiled expressions as named
constants (``D0_1``: action 0's parameter 1's domain, ``W``: its ``where``, ``E``: the
``where`` per entity of the parameter's kind, ``L``: its lead,
``H0``: action 0's hoisted prechecks, ``S0``: what its sure prechecks leave to test).
A candidate that sure prechecks proved legal is left in ``game._sure`` as it is yielded
(lang/guards.py, ``Guards.sure``).
"""

from __future__ import annotations

import linecache
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..limits import LIMITS
from ..errors import BoardrulesError
from ..runtime import BudgetExceeded, RuleViolation
from . import semantics as S
from .guards import UNSURE, SureRest

if TYPE_CHECKING:
    from ..ruleset import Ruleset, Step

Lister = Callable[..., Any]
"""``fn(game, ctx, p, main_done, pctx, budget_error) -> Iterator[Action]``: the step's
candidates for player ``p``; settling, ``fn(game, ctx, p, main_done, budget_error, runs, info,
legal) -> list[Action]``: its legal actions (see :func:`step_lister`)."""


def step_lister(rs: Ruleset, step: Step, settling: bool = False) -> Lister | None:
    """The compiled listing of ``step``'s turn candidates for ruleset ``rs``: called as
    ``fn(game, ctx, p, main_done, pctx, budget_error)`` it yields what
    ``Game._turn_candidates(ctx, step, p, main_done, hoist=True)`` yields (the step's main
    actions unless ``main_done``, then its free ones; ``pctx``: the state's scratch context
    for the prechecks; ``budget_error(name, err)``
    raises the listing's error for action ``name`` from the ``BudgetExceeded`` ``err``), in the same order, and raises the
    same errors. Built once per ruleset and step (``Ruleset.step_lister``); None when Python
    cannot compile it (an action with more parameters than Python nests loops: about 19).

    ``settling``: instead, called as ``fn(game, ctx, p, main_done, budget_error, runs, info,
    legal)`` (``ctx``: the prechecks' scratch context ``info[3]`` of :meth:`Game._turn_info`,
    the listing's too) it returns the legal actions ``LegalActions`` lists one candidate at a
    time, each candidate settled where it is made: kept when ``runs`` holds its run, a sure
    one (``Game._sure``) accepted when ``Game._sure_settles`` says the flow lets its action settle,
    the others by ``legal(action, runs, True, info)`` (``Game._candidate_legal``) unless the
    flow's place settles them first (``done``, and an action whose bare guard reads no argument:
    ``Game._placed_settles``), the listing's meter tested after each, as
    ``LegalActions.__iter__`` does."""
    gen = _ListGen(rs, settling)
    src = gen.source(step)
    node = step.node
    span = getattr(node, "span", None)
    where = f"{span.file}:{span.line}:{span.column}" if span is not None else "flow"
    filename = f"<listing{' settled' if settling else ''} {where} {step.name!r}>"
    try:
        code = compile(src, filename, "exec")
    except (SyntaxError, RecursionError, MemoryError):
        return None   # (parameters nested deeper than Python's compiler allows: the generic way)
    linecache.cache[filename] = (len(src), None, src.splitlines(True), filename)
    exec(code, gen.ns)   # (our own source: names and texts only as repr() literals)
    return gen.ns["rule_listing"]  # type: ignore[no-any-return]


def _make(name: str, args: str) -> str:
    """The statement that makes candidate ``_a``, ``p``'s action ``name`` with the arguments
    ``args`` (source of a tuple): game/actions.py's ``_candidate`` without its call (a listing
    makes one per candidate)."""
    return f"_a = _new(_Action, (p, {name!r}, {args}))"


def _unsure(ctx: Any) -> str:
    """The prechecks of a sure action whose ``Guards.listed`` entry holds none (a caller's):
    they refuse nothing and prove nothing, as none."""
    return UNSURE


FREE = 64
"""Steps a listing's own check of one candidate or action may spend uncharged (see
``_ListGen.charge``)."""


class _ListGen:
    """Writes one step's listing function (see :func:`step_lister`)."""

    def __init__(self, rs: Ruleset, settling: bool) -> None:
        self.rs = rs
        self.settling = settling
        self.k = 0   # (the action whose block is being written)
        self.ns: dict[str, Any] = {
            "_BudgetExceeded": BudgetExceeded, "_Refused": (RuleViolation, BoardrulesError),
            "_RuleViolation": RuleViolation, "_domain": S.domain, "_unique": dict.fromkeys, "_guards": rs.guards,
            "_listed": rs.guards.listed, "_OFF": (None, False),
            "_unsure": _unsure}
        self.lines: list[str] = []
        self.step: Step | None = None
        self.done = ""   # (game.DONE, once source() imported it)

    def source(self, step: Step) -> str:
        """The source of ``step``'s listing function (its constants put in ``self.ns``)."""
        from ..game import DONE   # (game imports the ruleset, which imports this)
        from ..game.actions import Action
        from ..game.verdicts import ACCEPTED
        self.done = DONE
        self.ns.update({"_new": tuple.__new__, "_Action": Action, "_ACCEPTED": ACCEPTED})   # (_make's, settle's)
        self.ns["_LIMITS"] = LIMITS   # (read as the listing runs: the limit in force then)
        self.step = step
        out = self.lines
        out += ["def rule_listing(game, ctx, p, main_done, budget_error, runs, info, legal):",
                "    pctx, seen, found, meter, at = ctx, bool(runs), [], game._meter, info[4]"] if self.settling \
            else ["def rule_listing(game, ctx, p, main_done, pctx, budget_error):"]
        out += ["    budget = game.max_steps",
                f"    floor = budget - {FREE}",   # (see _ListGen.charge)
                "    ctx.me = p",
                "    if not main_done:"]
        for k, name in enumerate(step.main):
            self.action(k, name, 2)
        if not step.main:
            out.append("        pass")
        for k, name in enumerate(step.free, len(step.main)):
            self.action(k, name, 1)
        if step.free:
            out += ["    if main_done:", "        " + _make(DONE, "()")]
            self.settle(DONE, "        ", None)
        if self.settling:   # (the prechecks' context left clean, as the prechecks leave it)
            out += ["    if ctx.w or ctx.events or ctx.queued:",
                    "        ctx.w, ctx.events, ctx.queued = {}, [], []",
                    "    return found"]
        return "\n".join(out) + "\n"

    def settle(self, name: str, ind: str, sure: str | None) -> None:
        """Yield candidate ``_a`` of action ``name`` (``sure``: the local telling that its
        prechecks were sure, Game._sure), or when ``settling`` keep it in ``found`` if it is
        legal, as LegalActions.__iter__ and Game._candidate_legal find (the flow's verdict on a
        sure action asked once per listing, in ``ok`` + the action's number)."""
        out = self.lines
        if not self.settling:
            if sure is not None:
                out += [f"{ind}if {sure}:", f"{ind}    game._sure = _a"]
            out.append(f"{ind}yield _a")
            return
        ok = f"ok{self.k}"
        out += [f"{ind}if seen and _a in runs:",
                f"{ind}    found.append(_a)"]
        if sure is not None:   # (not kept as sure otherwise: _candidate_legal asks its guard)
            # (the verdict kept by the flow's place looked up at once, as Game._sure_settles does)
            out += [f"{ind}elif {sure} and ({ok} if {ok} is not None else ({ok} := (_g if at is not None and not ctx.w and (_g := at.get(({name!r}, p))) is not None else game._sure_settles({name!r}, p, info)))):",
                    f"{ind}    runs[_a] = _ACCEPTED   # (its prechecks were its body: run when played)",
                    f"{ind}    found.append(_a)"]
        if name == self.done:   # (settled by the flow's place, as Game._guard_way finds it)
            out += [f"{ind}elif at is not None and at.get({name!r}):",
                    f"{ind}    runs[_a] = _ACCEPTED",
                    f"{ind}    found.append(_a)"]
        guard = self.placed(name) if sure is None else None
        if guard is not None:   # (a verdict the place kept before, if any: Game._placed_settles)
            self.ns[f"G{self.k}"] = guard
            out += [f"{ind}elif at is not None and (G{self.k}, p) in at and game._placed_settles(_a, info):",
                    f"{ind}    runs[_a] = _ACCEPTED",
                    f"{ind}    found.append(_a)"]
        out += [f"{ind}elif legal(_a, runs, True, info):",
                f"{ind}    found.append(_a)",
                f"{ind}if meter.left < 0:",
                f"{ind}    raise game._over_listing()"]

    def placed(self, name: str) -> Any:
        """Action ``name``'s guard when it reads none of its arguments and runs no statement (its
        verdict kept by the flow's place: ``Game._guard_verdict``) and no rule reacts to
        actions, else None."""
        rs = self.rs
        if name == self.done or "action_taken" in rs.triggers_by_event or "action_begins" in rs.triggers_by_event:
            return None
        per_entity, guard, argument_free = rs.guards.way(name)
        return guard if not per_entity and argument_free and guard in rs.guards.bare else None

    def action(self, k: int, name: str, depth: int) -> None:
        """The block listing action ``name`` (the step's ``k``-th), indented ``depth`` levels:
        as ``Game._turn_candidates`` does for one action."""
        rs, out, ns = self.rs, self.lines, self.ns
        adef = rs.actions[name]
        guards = rs.guards
        ind = "    " * depth
        span = adef.span
        # (the place as a repr() literal: a file name may hold a line break)
        out.append(f"{ind}# action {name!r} at {str(span)!r}" if span is not None
                   else f"{ind}# action {name!r}")
        self.charge("ctx", ind)   # (what the action before spent)
        out.append(f"{ind}ctx.steps = budget")   # (each action's arguments have the whole budget)
        self.k = k
        if self.settling:
            out.append(f"{ind}ok{k} = None")
        hoisted = guards.hoisted(name)
        if hoisted is not None:   # (as Game._hoisted_fails)
            ns[f"H{k}"] = hoisted
            self_env = f"{{'self': {adef.entity!r}}}" if adef.entity is not None else "{}"
            out += [f"{ind}ctx.env = {self_env}",
                    f"{ind}_ok = H{k}(ctx)"]
            sure = self.sure(name) if guards.covered(name) else None
            if sure is not None:   # (then each candidate is: see emit)
                ns[f"S{k}"] = sure
                out.append(f"{ind}all_sure = _ok is True and S{k}(ctx)")
            out += [f"{ind}if ctx.w or ctx.events or ctx.queued:",
                    f"{ind}    ctx.w, ctx.events, ctx.queued = {{}}, [], []"]
            self.charge("ctx", ind)
            out += [f"{ind}ctx.steps = budget",
                    f"{ind}if _ok:"]
            depth += 1
            ind = "    " * depth
        if not guards.covered(name):   # (covered: the hoisted prechecks were all of them)
            guards.listing(name)   # (built now: the listing reads what it keeps)
            sure = self.sure(name)
            if self.settling and sure is not None:   # (never on trial nor switched off: see emit)
                out.append(f"{ind}check = _listed[{name!r}][0] or _unsure")
            else:
                out.append(f"{ind}check, trial = _listed[{name!r}]" + ("" if self.settling else " if pctx is not None else _OFF"))
            if sure is not None:   # (what sure prechecks leave to test: see emit)
                ns[f"S{k}"] = sure
                out.append(f"{ind}rest = S{k}")
        out.append(f"{ind}try:")
        if adef.params:
            out += [f"{ind}    n = 0", f"{ind}    _MAX = _LIMITS.max_candidates"]
            self.param(k, name, 0, (), depth + 1)
        else:
            self.emit(name, (), depth + 1, count=False)
        out += [f"{ind}except _BudgetExceeded as err:",
                f"{ind}    budget_error({name!r}, err)"]

    def charge(self, ctx: str, ind: str) -> None:
        """Charge the listing's budget for the steps context ``ctx`` (a local) spent since it
        last had the whole budget (``Game._charge``), when they are ``FREE`` or more: prechecks
        spend a step or a few, and charging each such spend cost Harvest's random games 0.7%
        (callgrind); what goes uncharged is under ``FREE`` steps a candidate or an action
        listed, about what the Python around it costs."""
        self.lines.extend([f"{ind}if {ctx}.steps < floor:",
                           f"{ind}    game._charge({ctx}.steps)"])

    def sure(self, name: str) -> SureRest | None:
        """``Guards.sure(name)`` where a candidate of action ``name`` may be settled by its sure
        prechecks: not for a main action of a simultaneous step (Game._sure_settles)."""
        step = self.step
        assert step is not None
        if name in step.main and step.mode == "simultaneous":
            return None
        return self.rs.guards.sure(name)

    def param(self, k: int, name: str, i: int, bound: tuple[str, ...], depth: int) -> None:
        """The loop over parameter ``i``'s values (``bound``: the earlier ones' locals), as
        ``Game._arg_tuples`` with ``lead``."""
        rs, out, ns = self.rs, self.lines, self.ns
        adef = rs.actions[name]
        prm = adef.params[i]
        ind = "    " * depth
        env = "{" + ", ".join(f"{adef.params[j].name!r}: {v}" for j, v in enumerate(bound)) + "}"
        out.append(f"{ind}ctx.env = {env}")
        dom = rs.param_domains[name][i]   # (the values: as Game._domain)
        t = prm.type.name
        vals = f"v{i}"
        if dom is not None:
            ns[f"D{k}_{i}"] = dom
            out += [f"{ind}try:",
                    f"{ind}    {vals} = " + (f"_unique(_domain(ctx, D{k}_{i}(ctx)))" if rs.param_repeats[name][i]
                                               else f"_domain(ctx, D{k}_{i}(ctx))"),
                    f"{ind}except _BudgetExceeded:",
                    f"{ind}    raise",
                    f"{ind}except _Refused:   # (play refuses every value: none is legal)",
                    f"{ind}    {vals} = ()"]
        elif t == "player":
            out.append(f"{ind}{vals} = tuple(range(ctx.np))")
        elif t == "hex":
            out.append(f"{ind}{vals} = ctx.get(('v', 'hexes')) or ()")
        elif t == "bool":
            out.append(f"{ind}{vals} = (False, True)")
        else:
            ns[f"K{k}_{i}"] = rs.by_kind.get(t, ())
            out.append(f"{ind}{vals} = K{k}_{i}")
        where = rs.param_wheres[name][i]
        lead = rs.guards.where_lead(name, i) if where is not None else None
        cond = vals
        if lead is not None:   # (as Game._lead_holds: an error lets the values be tried)
            ns[f"L{k}_{i}"] = lead
            out += [f"{ind}if {vals}:",
                    f"{ind}    try:",
                    f"{ind}        if not L{k}_{i}(ctx): {vals} = ()",
                    f"{ind}    except _RuleViolation:",
                    f"{ind}        pass"]
        out.append(f"{ind}for a{i} in {cond}:")
        inner = depth + 1
        ind2 = "    " * inner
        here = bound + (f"a{i}",)
        if where is not None:
            ns[f"W{k}_{i}"] = where
            env2 = "{" + ", ".join(f"{adef.params[j].name!r}: {v}" for j, v in enumerate(here)) + "}"
            # (compiled for the listing's bindings, and per entity: Ruleset.listing_wheres)
            listing = rs.listing_wheres(name, i)
            if listing is not None:
                ns[f"W{k}_{i}"] = listing[0]
            test = f"W{k}_{i}(ctx)"
            if listing is not None and listing[1] is not None:
                ns[f"E{k}_{i}"] = listing[1]
                test = f"E{k}_{i}.get(a{i}, W{k}_{i})(ctx)"
            out += [f"{ind2}ctx.env = {env2}",
                    f"{ind2}try:",
                    f"{ind2}    if not {test}:",
                    f"{ind2}        continue",
                    f"{ind2}except _BudgetExceeded:",
                    f"{ind2}    raise",
                    f"{ind2}except _Refused:   # (play refuses this value)",
                    f"{ind2}    continue"]
        if i + 1 < len(adef.params):
            self.param(k, name, i + 1, here, inner)
        else:
            self.emit(name, here, inner, count=True)

    def emit(self, name: str, args: tuple[str, ...], depth: int, count: bool) -> None:
        """Yield the candidate with arguments ``args`` (locals) unless its prechecks refuse it
        (as ``Game._precheck_fails``); ``count``: test the listing's limit first."""
        rs, out = self.rs, self.lines
        adef = rs.actions[name]
        ind = "    " * depth
        tup = "(" + "".join(f"{a}, " for a in args) + ")"
        if count:
            out += [f"{ind}if n == _MAX:",
                    f"{ind}    raise _BudgetExceeded(f'more than {{_MAX}} argument combinations "
                    f"to try (the listing\\'s limit)', ctx.source, game.ruleset.actions[{name!r}].span)",
                    f"{ind}n += 1"]
        if rs.guards.covered(name):   # (no prechecks of its own: see Game._turn_candidates)
            out.append(ind + _make(name, tup))
            # (the hoisted prechecks were sure: Game._sure)
            self.settle(name, ind, "all_sure" if self.sure(name) is not None else None)
            return
        env = {prm.name: a for prm, a in zip(adef.params, args)}
        if adef.entity is not None:
            env["self"] = repr(adef.entity)
        env_src = "{" + ", ".join(f"{n!r}: {v}" for n, v in env.items()) + "}"
        sure = self.sure(name)   # (its prechecks may prove it legal: Game._sure)
        if self.settling and sure is not None:
            self.emit_sure(name, tup, env_src, depth, count)
            return
        out += [f"{ind}fails = sure = False" if sure is not None else f"{ind}fails = False",
                f"{ind}if check is not None:"]
        if self.settling and self._listing_reads(adef, name):
            # (the listing's context is the prechecks' here: what its domains and wheres spent is
            # charged, and what a primitive of theirs wrote dropped, as the prechecks read values
            # elsewhere; its events and decisions are dropped at the end)
            self.charge("ctx", ind + "    ")
            out += [f"{ind}    if ctx.w:",
                    f"{ind}        ctx.w = {{}}"]
        out += [f"{ind}    pctx.env = {env_src}",
                f"{ind}    pctx.me = p",
                f"{ind}    pctx.steps = budget"]
        if sure is not None:   # (True, not UNSURE, and what they leave surely passes)
            out += [f"{ind}    verdict = check(pctx)",
                    f"{ind}    sure = verdict is True and rest(pctx)",
                    f"{ind}    fails = not verdict"]
        else:
            out.append(f"{ind}    fails = not check(pctx)")
        out += [f"{ind}    if pctx.w or pctx.events or pctx.queued:",
                f"{ind}        pctx.w, pctx.events, pctx.queued = {{}}, [], []",
                f"{ind}    if trial:",
                f"{ind}        _guards.count({name!r}, fails)"]
        self.charge("pctx", ind + "    ")
        if self.settling:   # (charged: the listing's context goes on from the whole budget)
            out.append(f"{ind}        pctx.steps = budget")
        if count and rs.guards.stops(name):   # (every later value is refused too; on trial, counted)
            out.append(f"{ind}if fails and not trial: break")
        out += [f"{ind}if not fails:", f"{ind}    " + _make(name, tup)]
        # (sure: its prechecks passed, not failed)
        self.settle(name, ind + "    ", "sure" if sure is not None else None)


    def emit_sure(self, name: str, tup: str, env_src: str, depth: int, count: bool) -> None:
        """:meth:`emit`'s settling block for an action whose prechecks may be sure (``Guards.sure``):
        they are never on trial nor switched off (``Guards.count``), so the candidate's verdict
        is the prechecks' own (``check``: ``_unsure`` when a caller left none), without the
        tests of the other actions' block."""
        rs, out = self.rs, self.lines
        adef = rs.actions[name]
        ind = "    " * depth
        if self._listing_reads(adef, name):
            self.charge("ctx", ind)
            out += [f"{ind}if ctx.w:",
                    f"{ind}    ctx.w = {{}}"]
        out += [f"{ind}pctx.env = {env_src}",
                f"{ind}pctx.me = p",
                f"{ind}pctx.steps = budget",
                f"{ind}verdict = check(pctx)",
                f"{ind}sure = verdict is True and rest(pctx)",
                f"{ind}if pctx.w or pctx.events or pctx.queued:",
                f"{ind}    pctx.w, pctx.events, pctx.queued = {{}}, [], []",
                f"{ind}if pctx.steps < floor:",
                f"{ind}    game._charge(pctx.steps)",
                f"{ind}    pctx.steps = budget"]
        if count and rs.guards.stops(name):   # (every later value is refused too)
            out.append(f"{ind}if not verdict: break")
        out += [f"{ind}if verdict:", f"{ind}    " + _make(name, tup)]
        self.settle(name, ind + "    ", "sure")

    def _listing_reads(self, adef: Any, name: str) -> bool:
        """Whether the listing's context ran a domain or ``where`` of action ``name``'s
        parameters before its prechecks (the same context, in ``settling``: see :meth:`emit`)."""
        rs = self.rs
        return any(rs.param_domains[name][i] is not None or rs.param_wheres[name][i] is not None
                   for i in range(len(adef.params)))
