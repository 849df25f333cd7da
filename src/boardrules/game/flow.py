# mypy: disable-error-code="misc"
# (its methods take self: Game, the class built from the mixins: mypy calls that "misc")
"""Running an action and the flow: an action run on a scratch context (decision, turn or
lane), its arguments checked, and the flow advanced through steps, turns and ``after turn``
blocks (the ruleset's analysis of the flow is lang/flow.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NoReturn

from ..limits import LIMITS
from ..errors import IllegalActionError
from ..lang import semantics as S
from ..lang import flow as F   # (modules, not names: tests put stand-ins in them)
from ..lang.guards import facts_hold, seats_hold
from ..lang.inert import Facts
from ..quoting import brief_text, brief_value, rules_value
from ..runtime import (CHANCE, F_ACTED, F_AFTER, F_LANES, F_OVER, F_PASSED, F_ROUND, F_ROUNDS, F_STAGE,
                       F_STEP, F_TURN, Context, Decision, Event, NumberTooLarge, PrimitiveFailed,
                       RuleViolation)
from ..state import State, _state
from .actions import Action, DONE, _broken, _error_class, _flow_broken, _offered, _who, _why_not, brief_action
from .lanes import _deciding
from .notation import _params_wanted, _shape_problem, answer_problem, arg_problem
from .verdicts import ACCEPTED, _bindings

if TYPE_CHECKING:
    from .core import Game


class GameFlow:
    """How a :class:`Game` runs an action and moves its flow on (a mixin)."""

    def _run(self: Game, action: Action, check: bool = True,
             args_checked: bool = False) -> tuple[Context, list[Any]]:
        """Run ``action`` on a scratch context over the current state; return
        (context, pending decisions). Raises RuleViolation; changes nothing.
        ``args_checked``: the arguments come from :meth:`_arg_tuples` on this very state (a
        candidate), so their domains and ``where`` conditions hold already."""
        if not isinstance(action, Action):
            raise RuleViolation(f"{action!r} is not an action", "notation")
        if action.player != CHANCE and not (isinstance(action.player, int)
                                            and 0 <= action.player < self.players):
            raise RuleViolation(f"there is no player {_who(action.player)} in a "
                                f"{self.players}-player game", "players")
        st = self.state
        if st.values.get(F_OVER):
            raise RuleViolation("the game is over", "flow")
        ctx = self._scratch()
        pending = list(st.pending)
        try:
            if pending and pending[0].lane is None:
                self._resolve(ctx, pending, action, check)
            elif st.values.get(F_LANES) is not None:
                self._lane_action(ctx, pending, action, check, args_checked)
            else:
                self._turn_action(ctx, pending, action, check, args_checked)
            self._advance(ctx, pending)
        finally:
            self._meter.spend(ctx)   # (a listing's try: charged to it)
        return ctx, pending

    def _scratch(self: Game) -> Context:
        """A new context over the current state for a run of the next move, with the whole
        execution budget (made with positional arguments: keywords cost a third more, and the
        engine makes about three a decision)."""
        return Context(self.ruleset, self.state.values, None, len(self.record.actions) + 1, self.max_steps)

    def _try(self: Game, action: Action, check: bool = True) -> tuple[State, list[Event]]:
        """Run ``action``; return (new state, events) or raise IllegalActionError."""
        known = self._known_for(self.state)
        run = None
        if known is not None:
            try:   # (_get, without the call)
                run = known.runs.get(action)
            except TypeError:   # (arguments that cannot be a key: never listed)
                pass
        listed = run is ACCEPTED  # listed as legal from its guard alone: run it now
        if listed:
            assert known is not None
            info = self._turn_info()
            try:   # (a turn's candidate: run as one, without the checks of the turn it passed)
                ctx, pending = self._run(action, check, args_checked=True) if info is None \
                    else self._candidate_run(action, info, lazy=False, settle=False)
            except RuleViolation as err:  # (the guards' soundness is tested: never here)
                self._listed_but_broken(action, err, "breaks a rule")
            run = known.runs[action] = (_state(ctx.merged(), tuple(pending)), ctx.events)
            return run
        if run is not None:
            # listed as legal on this very state: its run is known (the same with or without
            # ``check``, as a candidate's arguments pass the argument checks); once played, the
            # resulting state is kept, so search that comes back here meets the same objects
            if type(run[0]) is Context:
                ctx, pending = run[0], run[1]
                assert known is not None
                if len(run) == 3:   # (listed with its flow left where it cannot break a rule)
                    self._advance_listed(action, ctx, pending)
                run = known.runs[action] = (_state(ctx.merged(), tuple(pending)), ctx.events)
            return run
        try:
            ctx, pending = self._run(action, check)
        except RuleViolation as err:
            raise self._refusal(action, err) from None
        run = _state(ctx.merged(), tuple(pending)), ctx.events
        if known is not None and known.listed:   # (legal, listed without a run: kept as one)
            known.runs[action] = run
        return run

    def _advance_listed(self: Game, action: Action, ctx: Context, pending: list[Any]) -> None:
        """Run on the flow of a listed candidate's run that :meth:`_advance` left at a step's
        end (``settle``: lang/flow.py proved that what follows cannot break a rule)."""
        ctx.lazy = False   # (the played run: no choice may be cut short from here on)
        try:
            self._advance(ctx, pending)
        except RuleViolation as err:  # (the analysis' soundness is tested: never here)
            self._listed_but_broken(action, err, "its flow breaks a rule")

    def _refusal(self: Game, action: Action, err: RuleViolation) -> IllegalActionError:
        """The public error of playing ``action``, which broke the rule of ``err``."""
        rule = err.rule or action.name
        return _error_class(err)(f"{brief_action(action)}: {_broken(err.message, rule, err.span, self.ruleset)}",
                                 rule=rule, action=action)

    def _listed_but_broken(self: Game, action: Action, err: RuleViolation, what: str) -> NoReturn:
        """Raise the error of ``action``, listed as legal, whose play broke a rule (``err``;
        ``what`` says where). A number beyond the rules' is refused as when not listed: the
        listing assumes numbers stay far below it (lang/inert.py), as the bundled games' do.
        The listing's analyses are otherwise tested sound, so a plugin's defect is likely: a batch form answering other values than its primitive (primitives.batched;
        play asks it, the listing the primitive), or a primitive that failed only now. The
        action is run again with each batch form's answers held to the primitive's (only
        here: one call per option): a :class:`PrimitiveError` naming what failed, else the
        ``AssertionError`` of an engine defect."""
        if isinstance(err, NumberTooLarge):
            raise self._refusal(action, err) from None
        from ..lang.codegen import checking_batches
        try:
            with checking_batches():
                self._run(action)
        except PrimitiveFailed as found:
            raise self._refusal(action, found) from None
        except RuleViolation:
            pass
        raise AssertionError(f"{brief_action(action)} was listed as legal but {what}: "
                             f"{err.message}") from None

    def _resolve(self: Game, ctx: Any, pending: Any, action: Any, check: Any) -> None:
        d = pending[0]
        if action.player != d.player or action.name != d.label:
            who = "chance" if d.player == CHANCE else f"p{d.player + 1}"
            raise RuleViolation(f"{who} must first decide '{d.label}'"
                                + (f" ({d.prompt})" if d.prompt else ""), "decision")
        if not action.args:
            if not d.optional:
                raise RuleViolation(f"'{d.label}' cannot be declined", "decision")
            pending.pop(0)
            return
        value = action.args[0]
        if len(action.args) != 1 or not _offered(d.options, value):
            raise RuleViolation(f"{brief_value(value)} is not one of the choices for '{d.label}'"
                                + (_why_not(self.ruleset, ctx, d, value) if len(action.args) == 1
                                   else ""), "decision")
        problem = answer_problem(d, value)
        if problem:
            raise RuleViolation(problem, "decision")
        pending.pop(0)
        if d.bag is not None:
            bag = tuple(ctx.get(("v", d.bag)) or ())
            try:   # (one walk and one copy: a listing tries each of a pile's values)
                i = bag.index(value)
            except ValueError:
                raise RuleViolation(f"{brief_value(value)} is no longer in '{d.bag}'", "decision") from None
            ctx.set(("v", d.bag), bag[:i] + bag[i + 1:])
            S.undrawn(ctx, d.bag)
        env = dict(d.env)
        env[d.label] = value
        S.run_unit(ctx, ctx.rs.blocks[d.block], d.source, me=d.me, env=env)
        pending[:0] = ctx.queued
        ctx.queued = []
        self._after_outside_turn(ctx, pending)

    def _after_outside_turn(self: Game, ctx: Any, pending: list[Any]) -> None:
        """A block run outside anyone's turn (a decision's, a 'queue' block's) left 'after
        turn' blocks: they run now, not after the next player's turn, once the decisions
        still pending are made (docs/language.md, 'after turn')."""
        if ctx.get(F_AFTER):
            turn = ctx.get(F_TURN)
            if turn is None or turn[2] is None:
                self._run_after(ctx, pending, _deciding(pending))

    def _turn_action(self: Game, ctx: Any, pending: Any, action: Any, check: Any,
                     args_checked: bool = False) -> None:
        rs = ctx.rs
        turn = ctx.get(F_TURN)
        if turn is None:
            raise RuleViolation("nobody is to act now", "flow")
        step = self._step(ctx)
        order, pos, player, main_done = turn
        simultaneous = step.mode == "simultaneous"
        acted = ctx.get(F_ACTED) or ()
        if simultaneous:
            if action.player not in order or action.player in acted:
                raise RuleViolation(f"{_who(action.player)} has already acted in '{step.name}'", "turn")
        elif action.player != player:
            raise RuleViolation(f"it is {_who(player)}'s turn, not {_who(action.player)}'s", "turn order")
        if action.name == DONE:
            if not main_done:
                raise RuleViolation("a turn needs its main action before it ends", "turn")
            if action.args:
                raise RuleViolation("'done' takes no arguments", "turn")
            self._end_turn(ctx, pending, action.player)
            return
        if action.name in step.main:
            if main_done:
                raise RuleViolation("the main action of this turn is already taken", "turn")
        elif action.name not in step.free:
            allowed = ", ".join(step.main + step.free)
            raise RuleViolation(f"'{brief_value(action.name)}' is not an action of '{step.name}' "
                                f"(there: {allowed})", "turn")
        adef = rs.actions[action.name]
        if len(action.args) != len(adef.params):
            raise RuleViolation(f"'{action.name}' takes {_params_wanted(adef.params)}, given "
                                f"{len(action.args)}: {brief_text(action.args, 40)}", action.name)
        self._act(ctx, pending, action, step, turn, acted, check, args_checked)

    def _act(self: Game, ctx: Any, pending: Any, action: Action, step: Any, turn: Any, acted: Any,
             check: bool, args_checked: bool) -> None:
        """The part of :meth:`_turn_action` after its checks of the turn: the arguments, the
        body, the turn's bookkeeping. ``turn``, ``acted``: their values now."""
        rs = ctx.rs
        name = action.name
        adef = rs.actions[name]
        ctx.me = action.player
        if not args_checked:
            mistyped = arg_problem(ctx, adef, action.args)   # (with or without ``check``)
            if mistyped is not None:
                raise mistyped
            if check or name in rs.param_where_actions:
                # (without ``check`` the domains are not tested: only the conditions the rules
                # wrote on the parameters, with their messages)
                self._check_args(ctx, adef, action.args, check)
        triggers = rs.triggers_by_event
        if "action_begins" in triggers:
            S.emit(ctx, "action_begins", [action.player, name])
        env = _bindings(rs, adef, action.args)   # (as many as the parameters: checked, or listed so)
        S.run_unit(ctx, rs.action_body(name), adef.entity or name, me=action.player, env=env)
        if "action_taken" in triggers:
            S.emit(ctx, "action_taken", [action.player, name])
        if ctx.queued:
            pending[:0] = ctx.queued
            ctx.queued = []
        if name in step.main:
            order, pos, player, _ = turn
            if step.mode == "simultaneous":
                ctx.set(F_ACTED, acted + (action.player,))
                self._run_after(ctx, pending, _deciding(pending))
            elif not step.free or action.player in (ctx.get(F_PASSED) or ()):
                ctx.set(F_TURN, (order, pos, player, True))
                self._end_turn(ctx, pending, action.player)
            else:
                ctx.set(F_TURN, (order, pos, player, True))

    def _run_queued(self: Game, ctx: Any, pending: list[Any]) -> None:
        """Run the 'queue' blocks at the front of ``pending`` (their turn has come); the
        'after turn' blocks one leaves outside a turn run as a decision's would
        (:meth:`_resolve`)."""
        while pending and pending[0].player is None:
            d = pending.pop(0)
            S.run_unit(ctx, ctx.rs.blocks[d.block], d.source, me=d.me, env=dict(d.env))
            pending[:0] = ctx.queued
            ctx.queued = []
            self._after_outside_turn(ctx, pending)

    def _check_args(self: Game, ctx: Any, adef: Any, args: Any, domains: bool = True) -> None:
        """Raise RuleViolation unless each argument is within its parameter's domain (not
        tested without ``domains``: ``play(check=False)``) and meets its ``where`` condition,
        earlier parameters bound (the rule's ``else`` message, else "X is not a possible P")."""
        env: dict[str, Any] = {}
        wheres = ctx.rs.param_wheres[adef.name]
        for i, (prm, v) in enumerate(zip(adef.params, args)):
            where = wheres[i]
            if domains:
                ctx.env = dict(env)
                domain = self._domain(ctx, adef, i)
                if v not in domain:
                    raise RuleViolation(self._outside_domain(ctx, prm, where, env, v, domain),
                                        adef.name, prm.span)
            env[prm.name] = v
            if where is None:
                continue
            ctx.env = dict(env)
            if not where(ctx):
                raise RuleViolation(prm.message or f"{brief_value(v)} is not a possible {prm.name} here",
                                    adef.name, prm.where.span)
        ctx.env = {}

    @staticmethod
    def _outside_domain(ctx: Any, prm: Any, where: Any, env: dict[str, Any], v: Any,
                        domain: Any) -> str:
        """Why ``v`` is refused for ``prm`` although it is not among the choices at all: the
        rule's own words where its condition fails for ``v`` too (it says why, in the game's
        terms), else the plain fact with the choices (a range, or up to 12 values; not players,
        whose text form is pN); a condition about something else (a precondition written on
        the parameter) must not be blamed for a value that was never a choice."""
        shape = _shape_problem(prm, v, domain)
        if shape:
            return shape
        if prm.message and where is not None:
            ctx.env = {**env, prm.name: v}
            try:
                blamed = not where(ctx)
            except Exception:  # (a condition it cannot be tested with, e.g. 'owner(b)' of a text
                blamed = False   # that is no booster, says nothing of it: "that booster is taken")
            if blamed:
                return f"{prm.message} ({brief_value(v)})"
        choices = ""
        if isinstance(domain, range) and len(domain):
            choices = f" (from {domain[0]} to {domain[-1]})"
        elif isinstance(domain, (tuple, list)) and 0 < len(domain) <= 12 and prm.type.name != "player":
            choices = f" (one of: {', '.join(brief_value(x) for x in domain)})"
        return f"{brief_value(v)} is not a possible {prm.name}{choices}"

    def _end_turn(self: Game, ctx: Any, pending: Any, player: Any) -> None:
        w = ctx.w   # (ctx.get, ctx.set of a flow key without the calls: see _advance)
        order, pos, _, _ = w[F_TURN] if F_TURN in w else ctx.base.get(F_TURN)
        # (a main action that ended the turn left decisions)
        deciding = bool(pending) and _deciding(pending)
        w[F_TURN] = (order, pos, None, False)
        if "turn_ends" in ctx.rs.triggers_by_event:
            self._emit(ctx, "turn_ends", player)
            pending[:0] = ctx.queued
            ctx.queued = []
        self._run_after(ctx, pending, deciding)

    def _run_after(self: Game, ctx: Any, pending: Any, deciding: bool = False,
                   at_once: bool = False) -> None:
        """Run the turn's 'after turn' blocks; ``deciding``: the turn's decisions are still to
        be made, so the blocks wait for them, as 'queue' blocks behind them (docs/language.md,
        'after turn'). The blocks those blocks leave (a procedure's 'after turn' called from
        one) belong to the same turn: they run next, or wait behind the decisions the blocks
        raised, unless ``at_once`` (a do step's, which never wait). A block that leaves
        another for ever runs out of the execution budget."""
        while True:
            w = ctx.w   # (ctx.get, ctx.set of a flow key without the calls: see _advance)
            after = w[F_AFTER] if F_AFTER in w else ctx.base.get(F_AFTER)
            if after == ():   # (the common case: nothing to run, and the value is () already)
                return
            w[F_AFTER] = ()
            if not after:
                return
            if deciding:
                pending.extend(Decision(None, "after turn", (), False, "", block, env,  # type: ignore[arg-type]
                                        me, source) for block, env, me, source in after)
                return
            queued = []
            for block, env, me, source in after:
                S.run_unit(ctx, ctx.rs.blocks[block], source, me=me, env=dict(env))
                queued.extend(ctx.queued)
                ctx.queued = []
            pending[:0] = queued
            deciding = not at_once and _deciding(pending)

    def _step(self: Game, ctx: Any) -> Any:
        get = ctx.flow_reader()
        return self.ruleset.stages[get(F_STAGE)].steps[get(F_STEP)]

    def _advance(self: Game, ctx: Any, pending: Any, settle: bool = False) -> bool:
        """Run the flow until someone must decide or act, or the game ends. ``settle``: a
        listing's run, which stops where a turns step finishes when nothing the flow runs
        from there to the next wait can break a rule (:meth:`_step_end_settles`): True when
        it stopped there (calling it again on ``ctx`` runs on from there, as one call would)."""
        # (the flow's keys read as ctx.get reads them, their default None, and written as
        # ctx.set writes them, without a call into Python: the flow reads them a dozen times)
        w = ctx.w
        wget, bget = w.get, ctx.base.get
        if not pending and not ctx.queued:
            # (the common case, a player in the middle of a turn: only a turns step that has
            # begun holds a turn with a player, so the loop below would return at once)
            turn = wget(F_TURN, bget(F_TURN))
            if turn is not None and turn[2] is not None:
                return False
        rs = self.ruleset
        for _ in range(100000):
            if ctx.queued:  # decisions the engine's events queued
                pending[:0] = ctx.queued
                ctx.queued = []
            if pending and pending[0].player is None:  # a 'queue' block's turn has come
                self._run_queued(ctx, pending)
            if pending and pending[0].lane is None or wget(F_OVER, bget(F_OVER)):
                return False  # (decisions of lanes wait in their lanes: the other lanes go on)
            stage_i = wget(F_STAGE, bget(F_STAGE))
            if stage_i >= len(rs.stages):
                w[F_OVER] = True
                ctx.events.append(S._event(ctx, "game over", None, None))
                return False
            stage = rs.stages[stage_i]
            step_i = wget(F_STEP, bget(F_STEP))
            if stage.kind == "rounds" and step_i == 0 and not wget(F_ROUND, bget(F_ROUND)):
                count = stage.count(ctx) if stage.count else 1
                if not isinstance(count, int) or isinstance(count, bool):
                    raise RuleViolation(f"the number of rounds must be a whole number, not {rules_value(count)}",
                                        "flow", stage.node.span if stage.node else None)
                if count <= 0:  # no rounds at all: go straight to the next stage
                    w[F_STAGE] = stage_i + 1
                    continue
                w[F_ROUND] = 1
                w[F_ROUNDS] = count
                self._emit(ctx, "round_begins", 1)
            if step_i >= len(stage.steps):
                if stage.kind == "rounds":
                    self._emit(ctx, "round_ends", wget(F_ROUND, bget(F_ROUND)))
                if stage.kind == "rounds" and wget(F_ROUND, bget(F_ROUND)) < wget(F_ROUNDS, bget(F_ROUNDS)):
                    w[F_ROUND] = wget(F_ROUND, bget(F_ROUND)) + 1
                    ctx.events.append(S._event(ctx, "round", None, wget(F_ROUND, bget(F_ROUND))))
                    self._emit(ctx, "round_begins", wget(F_ROUND, bget(F_ROUND)))
                else:
                    w[F_STAGE] = stage_i + 1
                w[F_STEP] = 0
                continue
            step = stage.steps[step_i]
            if step.kind == "do":
                w[F_STEP] = step_i + 1
                ctx.me = None  # a do step speaks for no player: rules name them
                try:
                    self._emit(ctx, "step_begins", step.name)
                    S.run_unit(ctx, step.body, step.name)
                    pending[:0] = ctx.queued
                    ctx.queued = []
                    self._run_after(ctx, pending, at_once=True)  # a do step is no turn: 'after turn' runs now
                    self._emit(ctx, "step_ends", step.name)
                except RuleViolation as err:
                    raise _flow_broken(err, f"step '{step.name}'", step.name) from None
                pending[:0] = ctx.queued
                ctx.queued = []
                continue
            turn = wget(F_TURN, bget(F_TURN))
            if turn is None:
                w[F_TURN] = (self._order(ctx, step), -1, None, False)
                w[F_PASSED] = ()
                w[F_ACTED] = ()
                self._emit(ctx, "step_begins", step.name)
                continue
            order, pos, player, main_done = turn
            if player is not None:
                return False  # waiting for the player
            if step.lanes is not None:
                if not self._move_lanes(ctx, step, order, pending):
                    return False
                self._finish_step(ctx, step_i)
                continue
            if step.mode == "simultaneous":
                acted = wget(F_ACTED, bget(F_ACTED)) or ()
                if any(p not in acted for p in order):
                    return False
                self._finish_step(ctx, step_i)
                continue
            nxt = self._next(ctx, step, order, pos)
            if nxt is None:
                if settle and not pending and self._step_end_settles(ctx, stage, stage_i, step_i):
                    return True
                self._finish_step(ctx, step_i)
                continue
            w[F_TURN] = (order, nxt, order[nxt], False)
            if "turn_begins" in rs.triggers_by_event:
                self._emit(ctx, "turn_begins", order[nxt])
                pending[:0] = ctx.queued
                ctx.queued = []
            return False
        raise RuleViolation("the flow does not progress (a loop without turns?)", "flow")

    def _step_end_settles(self: Game, ctx: Context, stage: Any, stage_i: int, step_i: int,
                          rest: Facts | None = None) -> bool:
        """Whether nothing the flow runs from the end of turns step ``step_i`` of ``stage`` (its
        last turn over, nothing pending) to the next wait can break a rule (lang/flow.py), with
        the execution budget left in ``ctx`` and what the rules there rely on holding
        (``rest``: ``ctx`` lacks the writes of an inert rest with these facts, lang/inert.py:
        then only when the rest leaves what the flow relies on alone)."""
        last = ctx.get(F_ROUND) >= ctx.get(F_ROUNDS) if stage.kind == "rounds" else None
        plan = F.after_step(self.ruleset, stage_i, step_i, last)
        if plan is None:
            return False
        cost, needs, lists, depth, seats = plan
        grown: dict[str, int] = {}
        if rest is not None:
            if rest.seat_deps:   # (the rest may fill them from other lists: those must hold seats too)
                seats = tuple(Facts(seated=frozenset(seats), seat_deps=rest.seat_deps).seats)
            if any(v in rest.writes for v, _ in needs) or any(v in rest.widens for v, _ in lists) \
                    or any(v in rest.unseats for v in seats):
                return False   # (the rest may make a variable none, a list long or not of seats)
            grown = dict(rest.growth)   # (its appends: the lists must have room for them)
        return cost < ctx.steps and ctx.depth + depth < LIMITS.max_call_depth \
            and facts_hold(ctx, needs, lists, grown) and seats_hold(ctx, seats)

    def _finish_step(self: Game, ctx: Any, step_i: int) -> None:
        ctx.set(F_TURN, None)
        ctx.set(F_ACTED, ())
        if ctx.get(F_LANES) is not None:
            ctx.set(F_LANES, None)
        ctx.set(F_STEP, step_i + 1)
        self._emit(ctx, "step_ends", self.ruleset.stages[ctx.get(F_STAGE)].steps[step_i].name)

    @staticmethod
    def _emit(ctx: Any, event: str, arg: Any) -> None:
        """Raise one of the engine's own events (only when some rule reacts to it); decisions
        its triggers queue stay in ``ctx.queued`` for the flow to pick up."""
        if event in ctx.rs.triggers_by_event:
            ctx.me = None
            try:
                S.emit(ctx, event, [arg])
            except RuleViolation as err:   # (its triggers run for the flow, not for an action)
                raise _flow_broken(err, f"event '{event}'", event) from None

    def _order(self: Game, ctx: Any, step: Any) -> tuple[int, ...]:
        n = ctx.np
        kind, fn = step.order
        if kind == "by":
            order = fn(ctx)
            if not isinstance(order, tuple) or any(not isinstance(p, int) for p in order):
                raise RuleViolation(f"the turn order of '{step.name}' must be a list of players",
                                    step.name)
            return order
        seat = tuple(range(n))
        return {"seat": seat, "reverse seat": seat[::-1], "snake": seat + seat[::-1],
                "reverse snake": seat[::-1] + seat}[kind]

    def _next(self: Game, ctx: Any, step: Any, order: Any, pos: int) -> int | None:
        if not order:
            return None
        if step.mode == "once":
            return pos + 1 if pos + 1 < len(order) else None
        w = ctx.w   # (ctx.get of a flow key without the call: see _advance)
        passed = (w[F_PASSED] if F_PASSED in w else ctx.base.get(F_PASSED)) or ()
        if step.mode == "until_all_pass":   # passed players keep their turns
            return None if all(p in passed for p in order) else (pos + 1) % len(order)
        for i in range(1, len(order) + 1):
            j = (pos + i) % len(order)
            if order[j] not in passed:
                return j
        return None
