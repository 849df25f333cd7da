# mypy: disable-error-code="misc"
# (its methods take self: Game, the class built from the mixins: mypy calls that "misc")
"""Legality verdicts without a full run: the runs remembered per state (:class:`_Known`),
guards, prechecks, answers and ``settles`` (the flow after an action proved unable to
break a rule), and the tried runs of candidates."""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING, Any

from ..errors import BoardrulesError
from ..lang import semantics as S
from ..lang import lazy as L   # (modules, not names: tests put stand-ins in them)
from ..lang.guards import INERT, PASSES
from ..lang.inert import Facts
from ..ruleset import Ruleset, Step
from ..runtime import (CHANCE, F_ACTED, F_AFTER, F_LANES, F_OVER, F_PASSED, F_ROUND, F_STAGE, F_STEP, F_TURN,
                       Context, RuleViolation)
from ..state import State
from .actions import Action, DONE

if TYPE_CHECKING:
    from .core import Game


_UNSEEN = object()   # (a memo's missing entry, an argument not given)
_PER_ENTITY = object()   # (Game._guard_way: a guard per entity an argument names)


# how many states a game remembers its action runs for (search comes back to a state by undo)
KNOWN_STATES = 256
# a run not made yet: the action was listed as legal from its guard (_guard_settles)
ACCEPTED: tuple[Any, ...] = (None, None)
# the flow's values :meth:`GameVerdicts._flow_waits` reads (a place of the flow: its memo's key)
_WAIT_KEYS = (F_OVER, F_STAGE, F_STEP, F_ROUND, F_TURN, F_PASSED)
_WAIT_AT = {k: i for i, k in enumerate(_WAIT_KEYS)}
# the most places of the flow a ruleset keeps verdicts for (Guards.flow_waits, by_place)
FLOW_VERDICTS = 20_000
_first = operator.itemgetter(0)   # (a run's context, or its resulting state)


def _bindings(rs: Ruleset, adef: Any, args: tuple[Any, ...]) -> dict[str, Any]:
    """Action ``adef``'s arguments ``args`` bound to its parameters' names, and ``self`` to
    the entity it belongs to (if any): the bindings its body runs with."""
    names = rs.param_names[adef.name]
    if not names:
        env: dict[str, Any] = {}
    elif len(names) == 1:   # (the common cases without the zip)
        env = {names[0]: args[0]}
    else:
        env = dict(zip(names, args))
    if adef.entity is not None:
        env["self"] = adef.entity
    return env


def _get(runs: dict[Action, Any], action: Action) -> Any:
    """``runs.get(action)``; None for an action that cannot be a key (arguments that are not
    values of the rules language, such as lists: the rules refuse those)."""
    try:
        return runs.get(action)
    except TypeError:
        return None


class _Known:
    """What is known about the actions from one ``state`` at one ``ply``: the legal actions
    ``listed`` per player filter, and the ``runs`` of the actions found legal: (context,
    pending decisions), replaced by (resulting state, events) once played (only the newest
    state keeps the runs of actions not played)."""

    __slots__ = ("state", "ply", "listed", "runs")

    def __init__(self, state: State, ply: int):
        self.state = state
        self.ply = ply
        self.listed: dict[int | None, list[Action]] = {}
        self.runs: dict[Action, Any] = {}


class GameVerdicts:
    """How a :class:`Game` finds actions legal without running them fully (a mixin)."""

    _guard_memo: tuple[State | None, dict[tuple[str, int], Any], Context | None]   # (Game._forget's)

    def _known_for(self: Game, state: State, create: bool = False) -> "_Known | None":
        """What is known about the actions from ``state`` at this point of the record (None
        if nothing and not ``create``). A run depends only on the state, the ruleset and the
        ply (its events carry it), so copies of this game share these entries."""
        ply = len(self.record.actions) + 1
        known = self._known.get(id(state))
        if known is not None and known.state is state and known.ply == ply:
            self._known.move_to_end(id(state))
            return known
        if not create:
            return None
        if self._known:
            # only the newest state keeps the runs of actions not played: holding every
            # candidate's context alive for long costs the garbage collector more than
            # running one again when search comes back
            _, last = self._known.popitem(last=True)
            if Context in map(type, map(_first, last.runs.values())):   # (a scan in C: few have one)
                last.runs = {a: r for a, r in last.runs.items() if type(r[0]) is not Context}
            self._known[id(last.state)] = last
        known = self._known[id(state)] = _Known(state, ply)
        if len(self._known) > KNOWN_STATES:
            self._known.popitem(last=False)
        return known

    def _candidate_legal(self: Game, action: Action, tried: dict[Any, Any],
                         prechecked: bool = True, info: Any = _UNSEEN) -> bool:
        """:meth:`is_legal` for an action :meth:`candidates` just listed (its arguments are
        within their domains and ``where`` conditions: they are not checked again); the run of
        a legal one is kept in ``tried`` (``ACCEPTED`` when its guard proved it legal without
        running the inert rest of its body: lang/guards.py). ``prechecked``: a turn's
        candidate passed its action's prechecks when it was listed (``_candidates(player,
        True)``), else they are tested here. ``info``: :meth:`_turn_info`, when the caller has
        it."""
        try:
            if info is _UNSEEN:
                info = self._turn_info()
            if info is not None:   # a turn's candidate (the common case first)
                if not prechecked and self._precheck_refuses(action, info[3]):
                    return False
                if self._sure is action and prechecked:
                    at = info[4]   # (_sure_settles' memory by place, looked up at once)
                    sure = None if at is None or info[3].w else at.get((action.name, action.player))
                    if sure or sure is None and self._sure_settles(action.name, action.player, info):
                        tried[action] = ACCEPTED   # (its prechecks were its body: run when played)
                        return True
                settled = self._guard_settles(action, info)
                if settled is None:   # (no guard to run: the run itself)
                    run = self._candidate_run(action, info)
                    tried[action] = ACCEPTED if run[0].partial else run
                elif settled:
                    tried[action] = ACCEPTED
                else:
                    return self._tried_legal(action, tried)
            elif self._answers_settle():
                tried[action] = ACCEPTED   # (lang/lazy.py: no answer can break a rule)
            elif self._answer_settles(action):
                tried[action] = ACCEPTED   # (its guard: lang/guards.py, Guards.answer)
            else:   # a decision's answers (or a 'lanes' step): the general way
                run = self._run(action, args_checked=True)
                # (a draw's run holds a copy of its pile: kept for each of a pile's thousands
                # of values, they held its square; run again when played)
                pending = self.state.pending
                tried[action] = ACCEPTED if pending and pending[0].bag is not None else run
        except (RuleViolation, BoardrulesError):
            return False
        return True

    def _answers_all_legal(self: Game) -> bool:
        """:meth:`_answers_settle`, False where working it out breaks a rule (each answer is
        then tried: :meth:`_candidate_legal` refuses it)."""
        try:
            return self._answers_settle()
        except (RuleViolation, BoardrulesError):
            return False

    def _answers_settle(self: Game) -> bool:
        """Whether every answer to the decision now due is legal without being tried: a
        player's decision in that player's turn (:meth:`_answering_in_turn`), whose body
        cannot break a rule whichever option is the answer (lang/lazy.py, ``answers_hold``),
        and after which the flow runs nothing (:meth:`_settles`: the body cannot change the
        flow). A decision left by a turn that has ended (Eclipse's reactions) settles too when
        the turn's 'after turn' blocks behind it cannot break a rule and the flow then only
        hands the turn on (``handover``), or when another decision follows it (the flow then
        waits for that one, the 'after turn' blocks behind it). Chance's decision in a player's
        turn settles as a player's does (a draw from a pile of 5,000 cards: each outcome tried,
        a copy of the pile each, made listing it quadratic, 0.6 s for 2,000 and 13 s for 8,000).
        Worked out once per state."""
        st = self.state
        memo = self._answer_memo
        if memo[0] is st:
            return memo[1]
        values = st.values
        turn = self._answer_due(st)
        ok = False
        if turn is not None and turn[2] is not None:
            ctx = Context(self.ruleset, values, budget=self.max_steps)
            ok = L.answers_hold(ctx, st.pending[0]) and self._settles(ctx, list(st.pending[1:]))
        elif turn is None:
            turn = self._answer_due(st, chance=True)
            if turn is not None and turn[2] is not None:   # (chance's, in a player's turn)
                ctx = Context(self.ruleset, values, budget=self.max_steps)
                ok = L.runs_for_a_player(ctx, st.pending[0]) and L.answers_hold(ctx, st.pending[0]) \
                    and self._settles(ctx, list(st.pending[1:]))
        elif turn is not None:   # (the turn has ended: see the docstring)
            rest = st.pending[1:]
            if rest and rest[0].player is not None and rest[0].lane is None:
                # (another decision follows: once this one is answered, the flow waits for it
                # and the turn's 'after turn' blocks wait behind it, running nothing)
                ctx = Context(self.ruleset, values, budget=self.max_steps)
                ok = L.runs_for_a_player(ctx, st.pending[0]) and L.answers_hold(ctx, st.pending[0])
            elif all(d.player is None and d.lane is None for d in rest) \
                    and not values.get(F_AFTER):
                ctx = Context(self.ruleset, values, budget=self.max_steps)
                # (only inert bodies run before the flow: they write no flow value, so the
                # handover is the same as from this state)
                ok = L.answers_hold(ctx, st.pending[0], rest) and self._settles(ctx, [], handover=True)
        self._answer_memo = (st, ok)
        return ok

    @staticmethod
    def _answer_due(st: State, chance: bool = False) -> Any:
        """The flow's turn value when the decision due in ``st`` is a player's (``chance``:
        chance's instead), of the game's one line of play (no 'lanes' step, not over), else
        None."""
        values = st.values
        turn = values.get(F_TURN)
        if (st.pending and st.pending[0].lane is None and (st.pending[0].player == CHANCE) == chance
                and values.get(F_LANES) is None and not values.get(F_OVER)):
            return turn
        return None

    @staticmethod
    def _answering_in_turn(st: State) -> bool:
        """Whether the decision due in ``st`` is a player's, in that player's turn (of the
        game's one line of play): once it is answered, the turn goes on (no 'after turn'
        block runs)."""
        turn = GameVerdicts._answer_due(st)
        return turn is not None and turn[2] is not None

    def _answer_settles(self: Game, action: Action) -> bool:
        """Whether ``action``, an answer to the decision now due (from
        :meth:`_decision_candidates`), is legal by its guard alone (lang/guards.py,
        ``Guards.answer``): a decision in its decider's turn (:meth:`_answering_in_turn`) whose
        body's checks pass for this answer (``INERT``), after which the flow runs nothing
        (:meth:`_settles`). False when that is not known (the answer is then tried in full);
        raises RuleViolation when the checks fail (the body breaks that rule there)."""
        st = self.state
        if len(action.args) != 1 or not self._answering_in_turn(st):
            return False
        d, value = st.pending[0], action.args[0]
        guard = L.answer_guard(self.ruleset, d, value)
        if guard is None:
            return False
        ctx = self._scratch()
        ctx.lazy = True   # (as a turn's guard: the run is not kept)
        env = dict(d.env)
        env[d.label] = value
        try:
            verdict = S.run_unit(ctx, guard, d.source, me=d.me, env=env)
        except (RuleViolation, BoardrulesError):
            if ctx.partial:
                return False
            raise
        finally:
            self._meter.spend(ctx)   # (a listing's try: charged to it)
        turn = ctx.get(F_TURN)   # (as _resolve: the turn goes on, no 'after turn' runs)
        return verdict == INERT and turn is not None and turn[2] is not None \
            and self._settles(ctx, ctx.queued + list(st.pending[1:]))

    def _precheck_refuses(self: Game, action: Action, ctx: Context) -> bool:
        """Whether its action's prechecks prove a turn's candidate ``action`` illegal (as
        :meth:`_turn_candidates` tests them while listing), on the scratch context ``ctx``."""
        rs = self.ruleset
        name = action.name
        if name == DONE or "action_begins" in rs.triggers_by_event:
            return False
        check = rs.guards.precheck(name)
        return check is not None and self._precheck_fails(rs.actions[name], action.player,
                                                          action.args, ctx, check)

    def _hoisted_fails(self: Game, ctx: Context, adef: Any) -> bool:
        """Whether the prechecks of action ``adef`` that do not depend on its arguments
        (lang/guards.py, ``hoisted``) prove every candidate of it illegal for ``ctx.me``
        (``ctx``: the listing's scratch context, left as it was but for its bindings)."""
        check = self.ruleset.guards.hoisted(adef.name)
        if check is None:
            return False
        ctx.env = {"self": adef.entity} if adef.entity is not None else {}
        fails = not check(ctx)
        if ctx.w or ctx.events or ctx.queued:   # (only a primitive could write: none is kept)
            ctx.w, ctx.events, ctx.queued = {}, [], []
        self._charge(ctx.steps)
        ctx.steps = self.max_steps
        return fails

    def _precheck_fails(self: Game, adef: Any, player: int, args: tuple[Any, ...], ctx: Context,
                        check: Any) -> bool:
        """Whether the prechecks ``check`` of action ``adef`` (lang/guards.py) prove the turn's
        candidate of ``player`` with ``args`` illegal, evaluated on ``ctx`` (the state's shared
        scratch context, left as it was but for its bindings)."""
        name = adef.name
        ctx.env = _bindings(self.ruleset, adef, args)
        ctx.me = player
        ctx.steps = self.max_steps
        fails = not check(ctx)
        if ctx.w or ctx.events or ctx.queued:   # (only a primitive could write: none is kept)
            ctx.w, ctx.events, ctx.queued = {}, [], []
        self.ruleset.guards.count(name, fails)
        self._charge(ctx.steps)
        return fails

    def _turn_info(self: Game) -> tuple[Any, Any, Any, Context, Any] | None:
        """(step, turn, acted, a scratch context, verdicts by place) of the current state when its
        candidates are a turn's actions (no decision first, no 'lanes' step), else None; worked
        out once per state. The verdicts by place: the dict of the verdicts that depend on the
        rules and the flow's place alone (:meth:`_sure_settles`, ``done``'s), kept across states
        and games in ``Guards.by_place`` by the values :meth:`_flow_waits` reads and whether an
        'after turn' block waits; None while a decision is pending (asked anew)."""
        st = self.state
        memo = self._turn_memo
        if memo is not None and memo[0] is st:
            return memo[1]
        values = st.values
        info = None
        turn = values.get(F_TURN)
        if (turn is not None and not values.get(F_OVER)
                and not (st.pending and st.pending[0].lane is None)
                and values.get(F_LANES) is None):
            ctx = self._scratch()
            at = None
            if not st.pending:   # (the flow's place: what the verdicts kept by place read)
                place = (*map(values.get, _WAIT_KEYS), not values.get(F_AFTER))
                places = self.ruleset.guards.by_place
                try:
                    at = places.get(place)
                except TypeError:   # (a value no rule writes: a plugin's primitive moved the flow)
                    pass
                else:
                    if at is None:
                        if len(places) >= FLOW_VERDICTS:
                            places.clear()
                        at = places[place] = {}
            step = self.ruleset.stages[values[F_STAGE]].steps[values[F_STEP]]   # (_step's: a turn has both)
            info = (step, turn, values.get(F_ACTED) or (), ctx, at)   # (its default: None)
        self._turn_memo = (st, info)
        return info

    def _candidate_run(self: Game, action: Action, info: tuple[Any, ...],
                       lazy: bool = True, settle: bool = True) -> tuple[Any, ...]:
        """:meth:`_run` of a turn's candidate action, without the checks of the turn it passes
        by construction (it comes from :meth:`_turn_candidates`): (context, pending decisions),
        and a third item True when the flow was left where a turns step finishes, as nothing
        it runs from there can break a rule (:meth:`_advance`, ``settle``: playing the
        candidate runs it on). ``lazy``: its choices may be cut short (lang/lazy.py); a run
        that was (``ctx.partial``) is not the full run, and one that then breaks a rule is run
        again in full. Without ``settle``, the flow is run on to the next wait (as :meth:`_run`,
        whose run it is then)."""
        st = self.state
        ctx = self._scratch()
        ctx.lazy = lazy
        pending = list(st.pending)
        try:
            if action.name == DONE:
                self._end_turn(ctx, pending, action.player)
            else:
                step, turn, acted = info[0], info[1], info[2]
                self._act(ctx, pending, action, step, turn, acted, False, True)
            if self._advance(ctx, pending, settle):
                return ctx, pending, True
        except (RuleViolation, BoardrulesError):
            if not ctx.partial:
                raise
        else:
            return ctx, pending
        finally:   # (a listing's try: charged to it, as _Meter.spend without the call)
            self._meter.left -= ctx.budget - ctx.steps
        return self._candidate_run(action, info, lazy=False, settle=settle)   # (cut short: in full)

    def _tried_legal(self: Game, action: Action, tried: dict[Any, Any]) -> bool:
        """Whether candidate ``action`` is legal, by trying it in full (kept in ``tried``)."""
        try:
            tried[action] = self._run(action, args_checked=True)
        except (RuleViolation, BoardrulesError):
            return False
        return True

    def _legal_by_trying(self: Game, player: int | None = None) -> list[Action]:
        """The legal actions found by trying every candidate in full, without guards: the
        oracle the guards are tested against (tests/core/test_guards.py); each once, as
        :class:`LegalActions` lists them."""
        return [a for a in dict.fromkeys(self.candidates(player)) if self._tried_legal(a, {})]

    def _guard_settles(self: Game, action: Action, info: tuple[Any, ...]) -> bool | None:
        """Run turn candidate ``action``'s guard (lang/guards.py) in place of its body: True when
        its checks passed (``INERT``) and nothing after the body can break a rule (the turn does
        not end, the flow has nothing to run: see :meth:`_settles`), so the candidate is legal;
        False when they passed but that is not known (the candidate is then tried in full);
        None when it is run as a candidate (:meth:`_candidate_run`, whose run may stop where
        the step ends): one whose rest may pass its player when the turn's end is not known to
        settle (``PASSES``, :meth:`_pass_settles`), and when there is no guard to run:
        ``done`` unless the turn's end settles (:meth:`_done_settles`), an action without one,
        one that surely ends the turn (its body is run in full at once, not its guard and then
        the whole again), a game with ``action_begins`` or ``action_taken`` rules. Raises RuleViolation
        when the checks fail: the body breaks that rule at the same point. How the candidates
        of one name and player are settled is worked out once per state (:meth:`_guard_way`)."""
        st = self.state
        memo = self._guard_memo
        if memo[0] is not st:   # (its scratch context moves onto this state: _guard_context)
            memo = self._guard_memo = (st, {}, memo[2])
        key = (action.name, action.player)
        got = memo[1].get(key, _UNSEEN)
        if got is _UNSEEN:
            got = memo[1][key] = self._guard_way(action, info)
        if type(got) is tuple:   # (its guard, run per argument tuple)
            return self._guard_verdict(action, info, got[0])
        if got is _PER_ENTITY:
            guard = self.ruleset.guards.action_for(action.name, action.args)
            return None if guard is None else self._guard_verdict(action, info, guard)
        if isinstance(got, Exception):
            raise got.with_traceback(None)
        return got   # type: ignore[no-any-return]

    def _guard_way(self: Game, action: Action, info: tuple[Any, ...]) -> Any:
        """How :meth:`_guard_settles` settles the turn candidates of ``action``'s name and
        player in the current state: the answer for all of them (None: no guard to run; a
        guard that reads no argument: its verdict, or the violation its checks raise), or
        ``(guard,)`` to run per argument tuple, or ``_PER_ENTITY`` for an action whose guard is
        chosen by the entity an argument names (lang/guards.py, ``action_for``)."""
        rs = self.ruleset
        name = action.name
        triggers = rs.triggers_by_event
        if name == DONE:
            at = info[4]
            if at is None:
                return True if self._done_settles() else None
            got = at.get(DONE)
            if got is None:   # (a question about the flow's place alone)
                got = at[DONE] = self._done_settles()
            return True if got else None
        if "action_taken" in triggers or "action_begins" in triggers:
            return None
        if self._ends_turn(name, action.player, info[0]):
            return None
        per_entity, guard, argument_free = rs.guards.way(name)
        if per_entity:
            return _PER_ENTITY
        if guard is None:
            return None
        if not argument_free:
            return (guard,)
        # (its verdict is the same for every argument tuple: worked out once per player)
        try:
            return self._guard_verdict(action, info, guard)
        except (RuleViolation, BoardrulesError) as err:
            return err

    def _ends_turn(self: Game, name: str, player: int, step: Step) -> bool:
        """Whether a turn candidate of ``player``'s action ``name`` in ``step`` surely ends the
        player's turn: a main action of a simultaneous step, of a step without free actions, or
        of a player who has passed (:meth:`_act`)."""
        return name in step.main and (
            step.mode == "simultaneous" or not step.free
            or player in (self.state.values.get(F_PASSED) or ()))

    def _sure_settles(self: Game, name: str, player: int, info: tuple[Any, ...]) -> bool:
        """Whether a turn candidate of ``player``'s action ``name``, whose prechecks proved that
        its body runs without breaking a rule (lang/guards.py, ``sure``: the listing marked it
        ``_sure``), is legal without its run: no rule reacts to the action, and the flow runs
        nothing after it (:meth:`_settles`, as for a guard whose rest is inert), or it ends the
        turn of a step taken in turns and the next turn begins without a rule running, as after
        ``done`` (:meth:`_done_settles`; its rest leaves no 'after turn' block: ``sure_after``).
        The same for every candidate of the name in a listing; kept per flow place, name and
        player (``Guards.by_place``)."""
        at = info[4]
        if at is None or info[3].w:   # (a decision pending, a write: asked anew)
            return self._sure_settles_now(name, player, info)
        key = (name, player)
        got = at.get(key)
        if got is None:
            got = at[key] = self._sure_settles_now(name, player, info)
        return got   # type: ignore[no-any-return]

    def _sure_settles_now(self: Game, name: str, player: int, info: tuple[Any, ...]) -> bool:
        """:meth:`_sure_settles` worked out: a question about the rules and the flow's place
        (``info[4]``) alone, when nothing is pending and ``info[3]`` holds no write."""
        rs = self.ruleset
        triggers = rs.triggers_by_event
        if "action_taken" in triggers or "action_begins" in triggers:
            return False
        step = info[0]
        if self._ends_turn(name, player, step):
            return step.mode != "simultaneous" and name not in rs.guards.sure_after \
                and self._done_settles()
        return self._settles(info[3], list(self.state.pending))

    def _placed_settles(self: Game, action: Action, info: tuple[Any, ...]) -> bool:
        """Whether turn candidate ``action`` is settled by the verdict its bare argument-free
        guard had at this flow's place before (:meth:`_guard_verdict`'s first test), as
        :meth:`_candidate_legal` would find; False when that does not settle it (asked then)."""
        at, ctx = info[4], info[3]
        if at is None or ctx.w:
            return False
        rs = self.ruleset
        name, player = action.name, action.player
        per_entity, guard, argument_free = rs.guards.way(name)
        if guard is None or per_entity or not argument_free:
            return False
        placed = at.get((guard, player))
        bare = rs.guards.bare.get(guard)
        if placed is None or bare is None or self._ends_turn(name, player, info[0]):
            return False
        ctx.steps, ctx.depth = self.max_steps, 0   # (as _guard_verdict)
        if bare(ctx, rs.actions[name].entity or name) != placed:
            return False
        rs.guards.settled(name, True)
        return True

    def _guard_verdict(self: Game, action: Action, info: tuple[Any, ...], guard: Any) -> bool | None:
        """:meth:`_guard_settles` once its guard ``guard`` is known to be run. A guard that runs
        no statement (``bare``) writes nothing: when its rest passes the player and the turn is
        handed on (:meth:`_pass_settles`), what follows its verdict is a question about the
        flow's place and the player, kept by place (``info[4]``); a later state at that place
        runs only the guard's own test, on the prechecks' clean context ``info[3]``."""
        rs = self.ruleset
        name = action.name
        adef = rs.actions[name]
        bare = rs.guards.bare.get(guard)
        if bare is not None:   # (it runs no statement: lang/guards.py, _bare)
            placed = None if info[4] is None else info[4].get((guard, action.player))
            ctx = info[3]
            if placed is not None and not ctx.w:   # (the place settled this verdict before)
                ctx.steps, ctx.depth = self.max_steps, 0   # (as _guard_context leaves them)
                if bare(ctx, adef.entity or name) == placed:
                    rs.guards.settled(name, True)
                    return True
            ctx = self._guard_context()
            verdict = bare(ctx, adef.entity or name)
        else:
            ctx = self._guard_context()
            env = _bindings(rs, adef, action.args)
            try:
                verdict = S.run_unit(ctx, guard, adef.entity or name, me=action.player, env=env)
            except (RuleViolation, BoardrulesError):
                if ctx.partial:   # (maybe the budget charged for the options not tested: in full)
                    return False
                raise
            finally:
                self._meter.spend(ctx)   # (a listing's try: charged to it)
        st, step = self.state, info[0]
        main = name in step.main
        queued, w = ctx.queued, ctx.w
        passed = (w[F_PASSED] if F_PASSED in w else ctx.base.get(F_PASSED)) or ()
        pending = queued + list(st.pending) if st.pending else queued
        settled = (verdict == INERT or verdict == PASSES and action.player not in passed) \
            and not (main and action.player in passed) and self._settles(ctx, pending)
        if settled and verdict == PASSES and main:
            settled = self._pass_settles(ctx, pending, action.player, passed, rs.guards.rests[guard],
                                         info[4])
            if not settled:   # (what follows the pass may break a rule: tried as a candidate)
                rs.guards.settled(name, False)
                return None
            at = info[4]
            if bare is not None and at is not None and at.get(("pass", action.player)):
                at[(guard, action.player)] = verdict   # (settled by the place alone: a handover)
        rs.guards.settled(name, settled)
        return settled

    def _guard_context(self: Game) -> Context:
        """The scratch context of the guards' runs on the current state (lazy: a choice in the
        checks may be cut short; no run is kept): made for the state's first run, kept in the
        guards' memo and reset for each later run."""
        memo = self._guard_memo
        ctx = memo[2]
        values = self.state.values
        if ctx is None:
            ctx = self._scratch()
            ctx.lazy = True
            self._guard_memo = (memo[0], memo[1], ctx)
            return ctx
        if ctx.base is not values:   # (the last state's, moved onto this one: no new context)
            ctx.base = values
            ctx.ply = len(self.record.actions) + 1
            ctx.budget = self.max_steps
        # (a run sets its source, player and bindings, and restores them: what it wrote and
        # the counters are reset; the depth too, which a run refused at once leaves raised)
        if ctx.w or ctx.events or ctx.queued:
            ctx.w, ctx.events, ctx.queued = {}, [], []
        ctx.steps = self.max_steps
        ctx.depth = 0
        ctx.partial = False
        return ctx

    def _done_settles(self: Game) -> bool:
        """Whether ``done`` (listed once the turn's main action is taken) is legal without its
        run: nothing is pending, no rule reacts to ``turn_ends``, no 'after turn' block waits
        (so :meth:`_end_turn` runs no rule) and the next turn of the step begins without a
        rule running (:meth:`_settles`, ``handover``: as for a pass, :meth:`_pass_settles`)."""
        st = self.state
        if st.pending or "turn_ends" in self.ruleset.triggers_by_event or st.values.get(F_AFTER):
            return False
        ctx = self._scratch()
        order, pos, _, _ = ctx.get(F_TURN)
        ctx.set(F_TURN, (order, pos, None, False))   # (as _end_turn)
        return self._settles(ctx, [], handover=True)

    def _pass_settles(self: Game, ctx: Context, pending: list[Any], player: int,
                      passed: tuple[int, ...], rest: Facts, at: dict[Any, bool] | None = None) -> bool:
        """For a main action whose inert rest may pass ``player`` (``PASSES``; the guard has
        run on ``ctx``, the player has not passed): whether the run that passes settles too,
        as :meth:`_act` then ends the turn: no rule reacts to ``turn_ends``, no 'after turn'
        block waits, and the next turn of the step begins without a rule running, or the
        pass was the step's last and nothing the flow runs from the step's end to the next
        wait can break a rule (:meth:`_last_turn_settles`). ``at``: the verdicts kept by the
        flow's place of the state (:meth:`_turn_info`), where whether the next turn begins is
        kept per player when ``ctx`` wrote nothing and nothing is pending (a question about
        the place alone)."""
        w = ctx.w   # (ctx.get, ctx.set of the flow's keys without the calls, as _end_turn)
        if "turn_ends" in ctx.rs.triggers_by_event or (w[F_AFTER] if F_AFTER in w else ctx.base.get(F_AFTER)):
            return False
        key = None if at is None or w or pending else ("pass", player)
        handover = None if key is None else at.get(key)   # type: ignore[union-attr]
        order, pos, _, _ = w[F_TURN] if F_TURN in w else ctx.base.get(F_TURN)
        w[F_PASSED] = passed + (player,)
        w[F_TURN] = (order, pos, None, False)   # (as _end_turn)
        if handover is None:
            handover = self._settles(ctx, pending, handover=True)
            if key is not None:
                at[key] = handover   # type: ignore[index]
        return handover or not pending and self._last_turn_settles(ctx, rest)

    def _last_turn_settles(self: Game, ctx: Context, rest: Facts) -> bool:
        """Whether the turn that has just ended in ``ctx`` (a guard's run: the inert rest of
        the body was not run) was the last of its turns step, and the flow from the step's end
        to the next wait cannot break a rule (:meth:`_step_end_settles`, with what the flow
        relies on read in ``ctx`` when the rest not run, of facts ``rest``, leaves it alone)."""
        get = ctx.get
        stages = self.ruleset.stages
        stage_i = get(F_STAGE)
        if get(F_OVER) or stage_i >= len(stages):
            return False
        stage, step_i = stages[stage_i], get(F_STEP)
        turn = get(F_TURN)
        if step_i >= len(stage.steps) or turn is None or turn[2] is not None:
            return False
        step = stage.steps[step_i]
        return (step.kind == "turns" and step.lanes is None and step.mode != "simultaneous"
                and self._next(ctx, step, turn[0], turn[1]) is None
                and self._step_end_settles(ctx, stage, stage_i, step_i, rest))

    def _settles(self: Game, ctx: Context, pending: list[Any], handover: bool = False) -> bool:
        """Whether :meth:`_advance` on ``ctx`` with ``pending`` returns at once, running
        nothing (a decision is due, or a player is in the middle of a turn). ``handover``: or
        a turn has ended and the next one of the same turns step begins without a rule
        running (none reacts to ``turn_begins``). Without pending decisions and ``handover``
        that is a question about the flow's place, which rules do not change (they write the
        flow's ``passed`` and ``after`` only): answered once per committed state."""
        if pending:
            return pending[0].player is not None and pending[0].lane is None
        if handover:   # (who passed matters: not the committed state's question)
            return self._flow_waits(ctx, True)
        for k in ctx.w:   # (a primitive that moved the flow: asked of ctx itself)
            if k[0] == "f" and k[1] != "passed" and k[1] != "after":
                return self._flow_waits(ctx)
        memo = self._flow_memo
        if memo[0] is not ctx.base:
            memo = self._flow_memo = (ctx.base, self._flow_waits(ctx))
        return memo[1]

    def _flow_waits(self: Game, ctx: Context, handover: bool = False) -> bool:
        """:meth:`_settles` without pending decisions: whether the flow's place in ``ctx`` is
        a wait (the game is over, a player is in the middle of a turn, or with ``handover``
        the next turn of the step begins). A question about the values ``_WAIT_KEYS`` alone:
        answered once per place of the flow (``Guards.flow_waits``)."""
        place = list(map(ctx.base.get, _WAIT_KEYS))   # (a flow key's default is None)
        w = ctx.w
        if w:   # (its writes of those keys: by the shorter walk, an action's run writes dozens)
            if len(w) < len(_WAIT_KEYS):
                for k, v in w.items():
                    i = _WAIT_AT.get(k)
                    if i is not None:
                        place[i] = v
            else:
                for i, k in enumerate(_WAIT_KEYS):
                    if k in w:
                        place[i] = w[k]
        place.append(handover)
        key = tuple(place)
        memo = self.ruleset.guards.flow_waits
        try:
            got = memo.get(key)
        except TypeError:   # (a value no rule writes: a plugin's primitive moved the flow)
            return self._flow_waits_now(ctx, handover)
        if got is None:
            if len(memo) >= FLOW_VERDICTS:
                memo.clear()
            got = memo[key] = self._flow_waits_now(ctx, handover)
        return got   # type: ignore[no-any-return]

    def _flow_waits_now(self: Game, ctx: Context, handover: bool = False) -> bool:
        """:meth:`_flow_waits` worked out."""
        get = ctx.flow_reader()
        if get(F_OVER):
            return True
        stages = self.ruleset.stages
        stage_i = get(F_STAGE)
        if stage_i >= len(stages):
            return False
        stage, step_i = stages[stage_i], get(F_STEP)
        if step_i >= len(stage.steps) or stage.steps[step_i].kind == "do" or (
                stage.kind == "rounds" and step_i == 0 and not get(F_ROUND)):
            return False
        turn = get(F_TURN)
        if turn is None or turn[2] is not None:
            return turn is not None
        step = stage.steps[step_i]
        return (handover and "turn_begins" not in self.ruleset.triggers_by_event and step.lanes is None
                and step.mode != "simultaneous" and self._next(ctx, step, turn[0], turn[1]) is not None)
