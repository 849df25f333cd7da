"""The engine: a :class:`Game` is a ruleset, a state and the record that led to it.

    game = boardrules.new_game("gaia-project", players=4, seed=7)
    for action in game.legal_actions(): ...
    game.play("p1 build_mine 3A11")     # text or Action; atomic; IllegalActionError if not legal
    game.undo()

Flow: the ruleset's ``flow`` runs its ``setup`` steps, then its ``rounds`` steps each
round, then ``finish``. A ``do`` step runs rules; a ``turns`` step lets players act in
an order (``seat``, ``snake``, ``reverse seat`` or ``by EXPR``) in a mode (``once``,
``until_pass``, ``simultaneous``). A turn is one ``main`` action plus any number of
``free`` actions, ended by ``done`` (automatic when the step has no free actions).
Pending decisions (``choose``, ``draw``) come before anything else, front first.
"""

from __future__ import annotations

import itertools
import operator
import os
import random
import reprlib
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from typing import Any, Iterator, NoReturn, TypedDict, overload

import attrs

from . import plugins
from .errors import (BoardrulesError, ExecutionBudgetError, GameStuckError, IllegalActionError,
                     NotationError, PrimitiveError, ReplayMismatch)
from .lang import ast as A
from .lang import semantics as S
from .lang import flow as F, lazy as L   # (modules, not names: tests put stand-ins in them)
from .lang.guards import INERT, PASSES, facts_hold, seats_hold
from .lang.inert import Facts
from .reader import StateReader, check_name, check_seat, index_problem
from .quoting import (MESSAGE, QUOTE, as_int, brief_text, brief_value, check_count, counted, format_value,
                      read_whole, rules_value)
from .record import Record, check_seed
from .ruleset import Ruleset, Step, build_ruleset
from .runtime import (CHANCE, MAX_LISTING_STEPS, MAX_MOVES, MAX_STEPS, MAX_VALUES, BudgetExceeded, Context, Decision, Dice, Event,
                      PrimitiveFailed, RuleViolation)
from .state import State

DONE = "done"
# Most argument combinations one action may list in one state, as many as a list's elements
# (docs/language.md, Limits): the rules list a few hundred at most (Eclipse's install about 150,
# Gaia's Ivits station about 120; a house rule's two hexes some 36,000); a hostile rule (two
# `int in 1..100000` parameters) listed 400,000 within the execution budget, each then tried
# and kept: 19 s and 525 MB for one listing (now about 5 s and 140 MB).
MAX_CANDIDATES = 100_000
# What a flow step's failure says (a candidate that ends a turns step runs the flow on): a stuck
# game's error tries up to _STUCK_TRIES candidates to name such a failure, the rule to mend.
_FLOW_BROKEN = "the game cannot go on: "
_STUCK_TRIES = 200


_UNSEEN = object()   # (a memo's missing entry, an argument not given)
_PER_ENTITY = object()   # (Game._guard_way: a guard per entity an argument names)


def _flow_broken(err: RuleViolation, what: str, rule: str) -> RuleViolation:
    """``err``, raised by what the flow runs (``what``: a step, an engine event), said so:
    the same class (a budget error stays one), rule and position. A failure already said so
    (an event's inside a step) is said once, with the chain of places, innermost first:
    "event 'step_begins' in step 'audit' breaks a rule (...)"."""
    chain: tuple[str, str] | None = getattr(err, "flow_chain", None)
    places, cause = (what, err.message) if chain is None else (f"{chain[0]} in {what}", chain[1])
    out = type(err)(f"{_FLOW_BROKEN}{places} breaks a rule ({cause})", err.rule or rule, err.span)
    out.flow_chain = (places, cause)   # type: ignore[attr-defined]
    return out


def _broken(message: str, rule: str, span: A.Span | None, ruleset: Ruleset) -> str:
    """``MESSAGE [rule: RULE (FILE:LINE:COLUMN)]``, a broken rule's message: the message at
    most about :data:`~boardrules.quoting.MESSAGE` characters (a rule file's ``require`` text
    may be huge), escaped; the place ``span``, where it broke, or else where the rule is
    declared (:meth:`Ruleset.rule_span`: a ``pay`` that cannot be met has no place of its own).
    A rule named after its file (a house rule's trigger: ``when round_ends (house.rules)``)
    leaves the file to the place, so it is named once."""
    message = brief_value(message, MESSAGE)
    if span is None or not span.line:
        span = ruleset.rule_span(rule)
    if span is None:
        return f"{message} [rule: {brief_value(rule, QUOTE)}]"
    name, _, origin = rule.removesuffix(")").rpartition(" (")
    if name and origin and rule.endswith(")") and os.path.basename(span.file) == origin:
        rule = name
    return f"{message} [rule: {brief_value(rule, QUOTE)} ({span})]"


class Score(TypedDict):
    """One player's score: ``total`` and the victory points by ``sources`` (rule or entity)."""

    total: int
    sources: dict[str, int]


class View(TypedDict):
    """What one player may know (:meth:`Game.view`): state ``values`` by key, ``pending``
    decisions (others' without their bindings, chance's without their options)."""

    values: dict[tuple[Any, ...], Any]
    pending: list[Decision]


def _action_player(value: object) -> int:
    """``value`` as a player (an int: :func:`~boardrules.quoting.as_int`), ``CHANCE`` or a seat
    counted from 0: ``TypeError`` for another type, ``ValueError`` below ``CHANCE`` (-2 was
    taken and shown as ``p-1``; whether a seat is in the game is the game's to say)."""
    player = as_int(value)
    if player is None:
        raise TypeError(f"Action: player must be a number counted from 0 (CHANCE = -1 for "
                        f"chance), not {brief_text(value)}; to write 'p1 study', use Game.parse")
    if player < CHANCE:
        raise ValueError(f"Action: player must be a number counted from 0 (CHANCE = -1 for "
                         f"chance), not {player}")
    return player


def _player_count(value: object) -> int:
    """``value`` as a player count (an int: :func:`~boardrules.quoting.as_int`), else ``TypeError``."""
    players = as_int(value)
    if players is None:
        raise TypeError(f"players must be a whole number, not {brief_text(value, 40)}")
    return players


def _action_name(value: object) -> None:
    if not isinstance(value, str):
        raise TypeError(f"Action: name must be the action's name as a text, not {brief_text(value)}")


def _action_args(value: object) -> tuple[Any, ...]:
    """A tuple of arguments; one text stands for itself (not split into characters); whole
    numbers of other integer types (NumPy's) as ints, in tuples too (a dice roll)."""
    if isinstance(value, str):
        return (value,)
    if isinstance(value, (tuple, list)):
        return tuple(map(_plain_value, value))
    raise TypeError(f"Action: args must be a tuple of values, not {brief_text(value)}")


_PLAIN = frozenset({str, int, bool, type(None)})   # (argument types kept as they are)


def _plain_value(value: Any) -> Any:
    """``value`` with any whole number of another integer type as an int (in tuples too)."""
    if type(value) in _PLAIN:
        return value
    if type(value) is tuple:
        return tuple(map(_plain_value, value))
    number = as_int(value)
    return value if number is None else number


@attrs.frozen(cache_hash=True)  # (actions are dict keys by the thousand: runs, listings)
class Action:
    """One move: ``player`` (0-based; ``CHANCE`` = -1 for chance), ``name`` (an action,
    a decision's label, or ``done``) and ``args`` (a tuple; empty to decline an
    optional decision; a single text is one argument). Whole numbers of other integer
    types (NumPy's) are kept as ints. Raises ``TypeError`` for values of the wrong type and
    ``ValueError`` for a player below ``CHANCE``."""

    player: int
    name: str
    args: tuple[Any, ...] = ()

    def __attrs_post_init__(self) -> None:
        # one cheap test on the common case: the engine makes actions by the thousand
        if type(self.player) is not int or self.player < CHANCE or type(self.name) is not str \
                or type(self.args) is not tuple or not _PLAIN.issuperset(map(type, self.args)):
            object.__setattr__(self, "player", _action_player(self.player))
            _action_name(self.name)
            object.__setattr__(self, "args", _action_args(self.args))

    def __str__(self) -> str:
        return format_action(self)


def _slot_setters() -> tuple[Any, ...]:
    """The setters of :class:`Action`'s slots, in the order of its fields and then its cached
    hash (tests/core/test_api.py holds them to the attrs class)."""
    names = [f.name for f in attrs.fields(Action)] + ["_attrs_cached_hash"]
    return tuple(Action.__dict__[n].__set__ for n in names)


_SET_PLAYER, _SET_NAME, _SET_ARGS, _SET_HASH = _slot_setters()
_new_object = object.__new__


def _candidate(player: int, name: str, args: tuple[Any, ...]) -> Action:
    """``Action(player, name, args)`` for the engine's own candidates, whose values are of the
    right types by construction: the slots set directly (a listing makes one per candidate;
    attrs' ``__init__`` and its type checks cost several times as much)."""
    a = _new_object(Action)
    _SET_PLAYER(a, player)
    _SET_NAME(a, name)
    _SET_ARGS(a, args)
    _SET_HASH(a, None)
    return a


def _too_many_values(held: int) -> str:
    return (f"the game would hold {held} values, more than the {MAX_VALUES} a game may hold "
            "(the games here hold a few hundred)")


def _error_class(err: RuleViolation) -> type[IllegalActionError]:
    """The public error for a rule violation: the execution budget spent, a primitive's
    Python error (a plugin's defect), else an illegal action."""
    if isinstance(err, BudgetExceeded):
        return ExecutionBudgetError
    return PrimitiveError if isinstance(err, PrimitiveFailed) else IllegalActionError


class _Unlisted:
    """The argument of a stuck game's example action whose parameter's values cannot be listed
    (its domain breaks a rule): shown as ``<name>`` (it was ``none``, a value the rules may hold)."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"<{self.name}>"


def _who(p: object) -> str:
    return "chance" if p == CHANCE else (f"p{p + 1}" if isinstance(p, int) else rules_value(p))


def brief_action(a: Action, limit: int = QUOTE) -> str:
    """The canonical text of ``a`` for an error message (:func:`format_action`), at most about
    ``limit`` characters: the player, the action's name and its first arguments, then
    ``...``."""
    actor = "chance" if a.player == CHANCE else f"p{a.player + 1}" if isinstance(a.player, int) \
        else brief_text(a.player, 20)
    parts = [actor, brief_value(a.name, limit // 2)]
    size = len(parts[0]) + len(parts[1])
    for x in a.args:
        text = brief_value(x, max(8, (limit - size) // 2))
        if size + 1 + len(text) > limit:
            parts.append("...")
            break
        parts.append(text)
        size += 1 + len(text)
    return " ".join(parts)


def format_action(a: Action) -> str:
    """Canonical text: ``p1 build_mine 3A11``, ``chance tile tech3``, ``p2 charge`` (declined)."""
    actor = "chance" if a.player == CHANCE else f"p{a.player + 1}"
    args = a.args
    if not args:
        return f"{actor} {a.name}"
    if len(args) == 1:   # (the common case, without the list: every action played is written)
        v = args[0]
        return f"{actor} {a.name} {v if type(v) is str else format_value(v)}"
    return " ".join([actor, a.name, *map(format_value, args)])


def _why_not(rs: Ruleset, ctx: Context, d: Decision, value: Any) -> str:
    """Why ``value`` is no option of the ``choose`` decision ``d``: the domain it is not in, or
    the first conjunct of the ``where`` that is false for it, as ``": it is not in `DOMAIN`
    (FILE:LINE:COL)"`` or ``": `COND` is false (FILE:LINE:COL)"``; ``""`` when that cannot be
    said (never raises: this only sharpens the refusal's message)."""
    try:
        node = rs.block_owner(d.block)
        if not isinstance(node, A.Choose):
            return ""
        from .lang.backends import Interpreter
        interp = Interpreter(rs)
        saved = ctx.env, ctx.me
        ctx.env, ctx.me = {**dict(d.env), node.var: value}, d.me
        try:
            failed: A.Expr | None = None
            domain = S.domain(ctx, interp.expr(node.domain)(ctx))
            if value not in domain:   # an answer the parser could not type: match it as written
                value = next((v for v in domain if format_value(v) == str(value)), value)
                ctx.env[node.var] = value
            if value not in domain:
                failed = node.domain
            else:
                where = node.where
                parts = where.items if isinstance(where, A.BoolOp) and where.op == "and" else (where,)
                failed = next((c for c in parts if c is not None and not interp.expr(c)(ctx)), None)
        finally:
            ctx.env, ctx.me = saved
        if failed is None or not failed.span.line:
            return ""
        span = failed.span
        if failed is node.domain:
            return f": it is not in `{_span_text(rs, span)}` ({span})"
        return f": `{_span_text(rs, span)}` is false ({span})"
    except Exception:  # noqa: BLE001 - a sharper message is a nicety; the refusal stands
        return ""


def _span_text(rs: Ruleset, span: A.Span) -> str:
    """The rule text at ``span`` (one line, shortened), from the ruleset's own texts or the
    rule file; else ``the condition``."""
    try:
        import linecache
        text = dict(rs.recipe.texts).get(span.file)
        if text is not None:
            all_lines = text.splitlines(True)
            lines = all_lines[span.line - 1:span.end_line]
        else:
            lines = [linecache.getline(span.file, n) for n in range(span.line, span.end_line + 1)]
        if not lines or not lines[0]:
            return "the condition"
        if len(lines) == 1:
            text = lines[0][span.column - 1:span.end_column - 1]
        else:
            text = lines[0][span.column - 1:] + "".join(lines[1:-1]) + lines[-1][:span.end_column - 1]
        text = " ".join(text.replace("\\\n", " ").split())
        return text if len(text) <= 80 else text[:77] + "..."
    except Exception:  # noqa: BLE001
        return "the condition"


_MEMORY = ("_known", "_turn_memo", "_answer_memo", "_flow_memo", "_guard_memo", "_sure")   # (Game._forget's)


class Game:
    """A game in progress. Build one with :func:`new_game` or :meth:`Game.from_record`."""

    def __init__(self, ruleset: Ruleset, players: int, seed: int | str = 0, *,
                 auto_chance: bool = True, max_steps: int = MAX_STEPS):
        if not isinstance(ruleset, Ruleset):
            raise TypeError(f"Game needs a Ruleset (boardrules.build_ruleset(...)), not {brief_text(ruleset, 40)}; "
                            f"new_game(GAME, players=N) starts an installed game by its name")
        max_steps = check_count(max_steps, "max_steps", 1)
        players = _player_count(players)
        seed = check_seed(seed)
        if not isinstance(auto_chance, bool):   # ('no' would have switched chance on)
            raise TypeError(f"auto_chance must be True or False, not {brief_text(auto_chance, 40)}")
        self.max_steps = max_steps
        lo, hi = ruleset.players
        if not lo <= players <= hi:
            raise ValueError(f"{brief_value(ruleset.title, QUOTE)} is for {plugins.player_counts((lo, hi))} "
                             f"players, not {brief_value(players, 24)}"
                             + plugins.modules_allowing(ruleset.game, players, (lo, hi)))
        plugins.check_players(ruleset.game, ruleset.modules, players)
        ruleset.check_playable()
        self.ruleset = ruleset
        self.players = players
        self.seed = seed
        self.auto_chance = auto_chance
        self.record = Record(game=ruleset.game, modules=ruleset.modules,
                             options=dict(ruleset.recipe.options), players=players, seed=seed,
                             rules=ruleset.recipe.rules, texts=ruleset.recipe.texts,
                             ruleset=ruleset.id)
        self.log: list[Event] = []
        # (state, record length, log length) before each action; the state None once dropped (_thin)
        self._history: list[tuple[State | None, int, int]] = []
        self._kept = 0   # the values of the states the history holds
        self._meter = _Meter()   # (what the listing now running may still spend)
        self._forget()
        self.notation = plugins.manager().hook.boardrules_notation(game=ruleset.game) \
            if ruleset.game else None
        self.state = self._initial_state()
        self._auto()

    def _forget(self) -> None:
        """No memory of the states seen (a new game's, an unpickled one's)."""
        # id(state) -> _Known, most recently used last (shared by copies: see _known_for)
        self._known: OrderedDict[int, _Known] = OrderedDict()
        self._turn_memo: tuple[State, tuple[Any, Any, Any, Context] | None] | None = None  # (state, its _turn_info)
        self._answer_memo: tuple[State | None, bool] = (None, False)   # (state, its _answers_settle)
        self._flow_memo: tuple[Any, bool] = (None, False)   # (committed values, _settles without decisions)
        # (state, {(action, player): Game._guard_way}, the guards' scratch context or None)
        self._guard_memo: tuple[State | None, dict[tuple[str, int], Any], Context | None] = \
            (None, {}, None)
        # the candidate a listing just yielded whose sure prechecks passed (lang/guards.py, sure)
        self._sure: Action | None = None

    def __getstate__(self) -> dict[str, Any]:
        """What a pickle (or ``copy.deepcopy``) keeps: the game without its memory of the states
        it saw, which holds the rules' generated functions (no pickle takes them: a Gaia game
        failed to pickle from its third move) and is rebuilt as it plays."""
        kept = self.__dict__.copy()
        for name in _MEMORY:
            del kept[name]
        return kept

    def __setstate__(self, kept: dict[str, Any]) -> None:
        self.__dict__.update(kept)
        self._forget()

    # ---- construction ----
    def _initial_state(self) -> State:
        rs = self.ruleset
        ctx = Context(rs, {("nplayers",): self.players}, ply=0, budget=self.max_steps)
        for p in range(self.players):
            for r in rs.resources.values():
                if r.start:
                    ctx.set(("r", r.name, p), r.start)
                    if r.scored:
                        ctx.set(("s", p, "start"), r.start)
            for t in rs.tracks.values():
                if t.start:
                    ctx.set(("t", t.name, p), t.start)
        ctx.set(("f", "stage"), 0)
        ctx.set(("f", "step"), 0)
        pending: list[Any] = []
        try:
            self._advance(ctx, pending)
        except RuleViolation as err:
            message = err.message.removeprefix(_FLOW_BROKEN)
            raise _error_class(err)(f"the game cannot start: {_broken(message, err.rule or 'setup', err.span, rs)}",
                      rule=err.rule) from None
        self.log.extend(ctx.events)
        values = ctx.merged()
        if len(values) > MAX_VALUES:
            raise ExecutionBudgetError(f"the game cannot start: {_too_many_values(len(values))}",
                                       rule="setup")
        return State(values, tuple(pending))

    # ---- queries ----
    @property
    def over(self) -> bool:
        """True once the flow has finished."""
        return bool(self.state.values.get(("f", "over")))

    def players_to_act(self) -> frozenset[int]:
        """The players who may act now (``CHANCE`` when a chance outcome is due; in a
        ``simultaneous`` step everyone yet to act; in a ``lanes`` step, per lane, whoever must
        decide its first pending decision, else its turn's player if they have a legal action
        now: see docs/api.md, "Interleaved turns")."""
        st = self.state
        if st.values.get(("f", "over")):
            return frozenset()
        if st.pending and st.pending[0].lane is None:
            return frozenset({st.pending[0].player})
        turn = st.values.get(("f", "turn"))
        if turn is None:
            return frozenset()
        lanes = st.values.get(("f", "lanes"))
        if lanes is not None:
            return self._lane_actors(st, lanes)
        order, pos, player, _ = turn
        if player is not None:
            return frozenset({player})
        acted = st.values.get(("f", "acted")) or ()
        return frozenset(p for p in order if p not in acted)

    def main_action_done(self, player: int) -> bool | None:
        """Whether ``player``'s turn, under way now, has had its main action: True once it has
        (only free actions or ``done`` may follow), False while it is still to come (free
        actions may come first), None when it is not ``player``'s turn alone (another
        player's, a ``simultaneous`` or ``lanes`` step, or between turns). Raises
        ``TypeError``/``ValueError`` for a ``player`` that is not a seat, as
        :meth:`legal_actions` does."""
        seat = self._check_player(player)
        values = self.state.values
        turn = values.get(("f", "turn"))
        if turn is None or values.get(("f", "lanes")) is not None or turn[2] != seat:
            return None
        return bool(turn[3])

    def flow_step(self) -> Step | None:
        """The flow step under way (the ruleset's ``Step``: ``name``, ``kind`` ``"do"`` or
        ``"turns"``, ``mode`` such as ``"until_pass"``), None between steps or once over."""
        v, rs = self.state.values, self.ruleset
        stage_i: int = v.get(("f", "stage"), 0)
        step_i: int = v.get(("f", "step"), 0)
        if v.get(("f", "over")) or stage_i >= len(rs.stages) or step_i >= len(rs.stages[stage_i].steps):
            return None
        return rs.stages[stage_i].steps[step_i]

    def flow_position(self) -> str:
        """Where the flow is, as text: ``"rounds (round 3), step 'actions'"``, ``"setup, step
        'pick'"``; ``"the end"`` once over."""
        v, rs = self.state.values, self.ruleset
        stage_i: int = v.get(("f", "stage"), 0)
        if v.get(("f", "over")) or stage_i >= len(rs.stages):
            return "the end"
        stage, step = rs.stages[stage_i], self.flow_step()
        where = stage.kind + (f" (round {v.get(('f', 'round'))})" if stage.kind == "rounds" else "")
        return where + (f", step '{step.name}'" if step is not None else "")

    def decisions_due(self) -> list[Decision]:
        """The pending decisions that may be made now: the first one, or in a ``lanes`` step
        the first of each lane (docs/api.md, "Interleaved turns")."""
        pending = self.state.pending
        if not pending:
            return []
        return [pending[0]] if pending[0].lane is None else _fronts(pending)

    def chance_due(self) -> Decision | None:
        """The chance decision to be made now (the first lane's waiting for chance), or None."""
        pending = self.state.pending
        if not pending:
            return None
        d = pending[0]
        if d.lane is not None:
            d = next((f for f in _fronts(pending) if f.player == CHANCE), d)
        return d if d.player == CHANCE else None

    def legal_actions(self, player: int | None = None) -> "LegalActions":
        """A lazy view of the legal actions (of ``player``, else of everyone to act)."""
        player = self._check_player(player)
        return LegalActions(self, player)

    def _stuck(self) -> GameStuckError:
        """The error for a state where nobody can act and the game is not over: where the
        flow is (stage, round, step) and the decision or turn that has no legal action."""
        v = self.state.values
        step = self.flow_step()   # (None while a `do` step's decision waits: it has moved on)
        acts = "" if step is None else ", ".join(step.main + step.free)
        where = self.flow_position()
        pending = self.state.pending
        turn = v.get(("f", "turn"))
        if pending:
            d = pending[0]
            prompt = f" ({brief_value(d.prompt, MESSAGE)})" if d.prompt else ""
            what = f"{_who(d.player)}'s decision '{d.label}'{prompt} has no legal option"
        elif turn is not None and turn[2] is not None:
            what = f"it is {_who(turn[2])}'s turn and none of its actions ({acts}) is legal"
        elif turn is not None:
            what = f"none of its players to act has a legal action ({acts})"
        else:
            what = "no player is to act"
        tries = list(itertools.islice(self.candidates(None), _STUCK_TRIES))
        if not tries and not pending and turn is not None and turn[2] is not None and step is not None:
            first = self._unchecked_candidate(turn[2], step)   # (every value's 'where' failed)
            tries = [] if first is None else [first]
        why = "a rule that can never be met?"
        for action in tries:   # (the flow's failure first: the rule to mend is there)
            try:
                self._try(action)
            except IllegalActionError as err:
                if why.startswith("a rule") or _FLOW_BROKEN in str(err):
                    why = f"e.g. {str(err).strip()}"
                if _FLOW_BROKEN in str(err):
                    break
        return GameStuckError(f"nobody can act and the game is not over: {where}: {what} ({why})")

    def _unchecked_candidate(self, player: int, step: Step) -> Action | None:
        """An action of ``player``'s turn in ``step`` whose arguments are the first value of
        each parameter's domain, their ``where`` not tested (a stuck game's error tries it to
        say why nothing is legal; a domain that breaks a rule gives :class:`_Unlisted` arguments,
        shown as ``<n>``, whose try names that rule); None when a domain is empty."""
        ctx = Context(self.ruleset, self.state.values, me=player)
        for name in step.main + step.free:
            adef = self.ruleset.actions[name]
            args: list[Any] = []
            try:
                for i in range(len(adef.params)):
                    ctx.env = dict(zip(self.ruleset.param_names[name], args))
                    values = self._domain(ctx, adef, i)
                    if not values:
                        break
                    args.append(next(iter(values)))
                else:
                    return Action(player, name, tuple(args))
            except (RuleViolation, BoardrulesError):
                return Action(player, name, tuple(args) + tuple(
                    _Unlisted(p) for p in self.ruleset.param_names[name][len(args):]))
        return None

    def _check_player(self, player: object) -> int | None:
        """``player`` (None, ``CHANCE`` or a seat of this game) as an int, else ``TypeError``
        (another type) or ``ValueError`` (no seat of this game): :func:`~boardrules.reader.check_seat`."""
        return None if player is None else check_seat(player, self.players, chance=True)

    def get(self, name: str, player: int | None = None, index: Any = None) -> Any:
        """Read a resource, track, component supply or variable by its rules name
        (``player``: whose, for what is kept per player; ``index``: the hex or entity of a
        per-hex or per-entity variable). Raises :class:`~boardrules.errors.BoardrulesError`.
        Many reads of one state: :meth:`reader`."""
        return read_name(self.ruleset, self.state.values, name, player, index)

    def reader(self) -> StateReader:
        """A fast reader of the state now by rule name (:class:`~boardrules.reader.StateReader`:
        ``get`` as :meth:`get`, ``owner(e)``, ``passed(p)``), for evaluations that read many
        values of one position; it keeps reading this state after the game moves on."""
        return StateReader(self)

    def scores(self) -> list[Score]:
        """Per player: ``{"total": int, "sources": {source: int}}`` for the scored resource."""
        scored = [r.name for r in self.ruleset.resources.values() if r.scored]
        out: list[Score] = []
        for p in range(self.players):
            sources = {k[2]: v for k, v in self.state.values.items() if k[0] == "s" and k[1] == p}
            total = sum(self.state.values.get(("r", r, p), 0) for r in scored)
            out.append({"total": total, "sources": dict(sorted(sources.items()))})
        return out

    def final_scores(self) -> list[int]:
        """Per player, the score that ranks them: the game's ``final_score`` expression
        evaluated as that player (e.g. a score an alliance shares), else the scored total.
        A rule the expression breaks raises :class:`IllegalActionError` naming it."""
        fn = self.ruleset.final_score
        if fn is None:
            return [sc["total"] for sc in self.scores()]
        ctx = Context(self.ruleset, self.state.values)
        return [self._ranked_by(ctx, fn, "final_score", p) for p in range(self.players)]

    def _ranked_by(self, ctx: Context, fn: Any, what: str, player: int) -> Any:
        """The game's ``final_score`` or a ``tiebreak`` (``what``), ``fn``, evaluated as
        ``player``. A rule it breaks (a division by zero) raises the error of a rule broken
        at the start (:class:`IllegalActionError` …) naming it, its place and the player,
        not the engine's internal violation."""
        ctx.me = player
        try:
            return fn(ctx)
        except RuleViolation as err:
            raise _error_class(err)(
                f"the game cannot be ranked: its {what} for p{player + 1} breaks a rule: "
                f"{_broken(err.message, err.rule or what, err.span, self.ruleset)}", rule=err.rule or what) from None

    def ranking(self) -> list[tuple[int, ...]]:
        """Players from first to last: by :meth:`final_scores` (the scored total unless the
        game declares a ``final_score``), then by the game's ``tiebreak`` expressions in
        order. Players still tied share a place: each entry is a tuple of the players on
        that place."""
        ctx = Context(self.ruleset, self.state.values)
        keys = {}
        for p, total in enumerate(self.final_scores()):
            keys[p] = (total, *(self._ranked_by(ctx, fn, "tiebreak", p) for fn in self.ruleset.tiebreak))
        places: list[tuple[int, ...]] = []
        for p in sorted(keys, key=lambda q: keys[q], reverse=True):
            if places and keys[places[-1][0]] == keys[p]:
                places[-1] = places[-1] + (p,)
            else:
                places.append((p,))
        return places

    def view(self, player: int | None) -> View:
        """What ``player`` may know (None: a spectator): hidden variables show only their size,
        private ones only to their owner, pending chance decisions without their options, and
        other players' pending decisions without their bindings (``env``: e.g. a tile drawn for
        that player)."""
        player = self._check_player(player)
        rs = self.ruleset
        out = {}
        for key, value in self.state.values.items():
            if key[0] == "v":
                var = rs.vars.get(key[1])
                if var is not None and var.hidden:
                    value = ("hidden", len(value) if isinstance(value, tuple) else 1)
                elif var is not None and var.private and "player" in var.per:
                    owner = key[2 + var.per.index("player")]
                    if owner != player:
                        value = ("hidden", 1)
            elif key == ("f", "lanes"):
                value = tuple((pos, who, done, tuple(
                    (block, env if me == player else (), me, source) for block, env, me, source in after))
                    for pos, who, done, after in value)
            out[key] = value
        pending = []
        for d in self.state.pending:
            if d.player == CHANCE:
                d = attrs.evolve(d, options=("hidden",), env=())
            elif d.player != player:
                d = attrs.evolve(d, env=())   # its bindings may hold what was drawn for d.player
            pending.append(d)
        return {"values": out, "pending": pending}

    # ---- playing ----
    def parse(self, text: str) -> Action:
        """Read an action from text (the game's notation if it has one, else the generic one).
        :class:`~boardrules.errors.NotationError` for text it cannot read, ``TypeError`` for
        anything but a text."""
        if not isinstance(text, str):
            raise TypeError(f"parse reads an action's text such as 'p1 study', not {brief_text(text, 40)}")
        if self.notation is not None:
            action: Action = self.notation.parse(self, text)
            return action
        return parse_generic(self, text)

    def format(self, action: Action) -> str:
        """The text of ``action`` (the game's notation if it has one, else its canonical text,
        which :meth:`parse` reads back); ``TypeError`` for anything but an :class:`Action`."""
        if not isinstance(action, Action):
            raise TypeError(f"format writes an Action, not {brief_text(action, 40)}; parse reads a text")
        return self.notation.format(self, action) if self.notation is not None else format_action(action)

    def play(self, action: Action | str, *, check: bool = True) -> None:
        """Play ``action`` (an :class:`Action` or its text).

        With ``check`` (the default) the action must be legal: otherwise
        :class:`~boardrules.errors.IllegalActionError` names the rule it breaks and the
        game is exactly as before. ``check=False`` is the fast path for trusted replays:
        it skips the membership test and the test that each argument is within its
        parameter's domain, but still refuses actions that break a rule (a parameter's
        ``where``, a ``require``, a payment); it never changes what a legal action does
        (tests/gaia/test_unchecked_replay.py).
        Chance outcomes that follow are decided by the seeded generator when
        ``auto_chance`` is on.
        """
        action = self._action(action)
        self._apply(action, check)
        self._auto()

    def _action(self, action: "Action | str") -> "Action":
        """``action`` as an :class:`Action` (text is parsed); ``TypeError`` for anything else."""
        if isinstance(action, str):
            return self.parse(action)
        if not isinstance(action, Action):
            raise TypeError(f"an action is an Action or its text such as 'p1 study', "
                            f"not {action!r}")
        return action

    def _auto(self) -> None:
        while self.auto_chance and self.chance_due() is not None:
            try:
                drawn = self.decide_chance(random.Random(f"{self.seed}/{len(self.record.actions)}"))
            except ExecutionBudgetError:   # (the redraws ran past the listing's limit)
                drawn = False
            if not drawn:
                break   # (stuck, as legal_actions() says; the action that led here stays played)

    def decide_chance(self, rng: random.Random) -> bool:
        """Play the chance outcome now due, drawn with ``rng`` as the game's own generator
        draws it (docs/api.md, *Chance*): the first draw the rules allow. False, and nothing
        played, when no chance outcome is due or the rules allow none (the game is stuck) or
        a bag emptied since the draw was queued. Bots decide chance in their look-ahead so."""
        d = self.chance_due()
        if d is None:
            return False
        self._meter.left = MAX_LISTING_STEPS   # (its redraws share one listing's budget)
        for value in _chance_draws(self, d, rng):
            try:
                self._apply(Action(CHANCE, d.label, (value,)), check=False)
                return True
            except IllegalActionError:
                # (the rules refuse it: it is not among chance's legal actions)
                if self._meter.left < 0:   # (its runs are charged as a listing's tries)
                    raise self._over_listing(d) from None
        return False

    def _apply(self, action: Action, check: bool) -> None:
        if len(self.record.actions) >= MAX_MOVES:
            raise ExecutionBudgetError(f"{brief_action(action)}: the game has had {MAX_MOVES} moves, "
                                       "the most a game may have", rule=action.name, action=action)
        new_state, events = self._try(action, check)
        held = len(new_state.values)
        if held > MAX_VALUES and held > len(self.state.values):
            raise self._refusal(action, BudgetExceeded(_too_many_values(held)))
        self._history.append((self.state, len(self.record.actions), len(self.log)))
        self._kept += len(self.state.values)
        if self._kept > HISTORY_VALUES:
            self._thin()
        self.state = new_state
        self.record.actions.append(self.canonical(action))
        self.log.extend(events)

    def canonical(self, action: Action) -> str:
        """The canonical text of ``action`` (player-typed arguments written ``pN``)."""
        if action.player == CHANCE or action.name not in self.ruleset.player_params:
            return format_action(action)
        adef = self.ruleset.actions[action.name]
        args = tuple(f"p{v + 1}" if p.type.name == "player" and isinstance(v, int) else v
                     for p, v in zip(adef.params, action.args))
        return format_action(Action(action.player, action.name, args))

    def _run(self, action: Action, check: bool = True,
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
        if st.values.get(("f", "over")):
            raise RuleViolation("the game is over", "flow")
        ctx = Context(self.ruleset, st.values, ply=len(self.record.actions) + 1,
                      budget=self.max_steps)
        pending = list(st.pending)
        try:
            if pending and pending[0].lane is None:
                self._resolve(ctx, pending, action, check)
            elif st.values.get(("f", "lanes")) is not None:
                self._lane_action(ctx, pending, action, check, args_checked)
            else:
                self._turn_action(ctx, pending, action, check, args_checked)
            self._advance(ctx, pending)
        finally:
            self._meter.left -= ctx.budget - ctx.steps   # (a listing's try: charged to it)
        return ctx, pending

    def _try(self, action: Action, check: bool = True) -> tuple[State, list[Event]]:
        """Run ``action``; return (new state, events) or raise IllegalActionError."""
        known = self._known_for(self.state)
        run = None if known is None else _get(known.runs, action)
        listed = run is ACCEPTED  # listed as legal from its guard alone: run it now
        if listed:
            assert known is not None
            info = self._turn_info()
            try:   # (a turn's candidate: run as one, without the checks of the turn it passed)
                ctx, pending = self._run(action, check, args_checked=True) if info is None \
                    else self._candidate_run(action, info, lazy=False, settle=False)
            except RuleViolation as err:  # (the guards' soundness is tested: never here)
                self._listed_but_broken(action, err, "breaks a rule")
            run = known.runs[action] = (State(ctx.merged(), tuple(pending)), ctx.events)
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
                run = known.runs[action] = (State(ctx.merged(), tuple(pending)), ctx.events)
            return run
        try:
            ctx, pending = self._run(action, check)
        except RuleViolation as err:
            raise self._refusal(action, err) from None
        run = State(ctx.merged(), tuple(pending)), ctx.events
        if known is not None and known.listed:   # (legal, listed without a run: kept as one)
            known.runs[action] = run
        return run

    def _advance_listed(self, action: Action, ctx: Context, pending: list[Any]) -> None:
        """Run on the flow of a listed candidate's run that :meth:`_advance` left at a step's
        end (``settle``: lang/flow.py proved that what follows cannot break a rule)."""
        ctx.lazy = False   # (the played run: no choice may be cut short from here on)
        try:
            self._advance(ctx, pending)
        except RuleViolation as err:  # (the analysis' soundness is tested: never here)
            self._listed_but_broken(action, err, "its flow breaks a rule")

    def _refusal(self, action: Action, err: RuleViolation) -> IllegalActionError:
        """The public error of playing ``action``, which broke the rule of ``err``."""
        rule = err.rule or action.name
        return _error_class(err)(f"{brief_action(action)}: {_broken(err.message, rule, err.span, self.ruleset)}",
                                 rule=rule, action=action)

    def _listed_but_broken(self, action: Action, err: RuleViolation, what: str) -> NoReturn:
        """Raise the error of ``action``, listed as legal, whose play broke a rule (``err``;
        ``what`` says where). The listing's analyses are tested sound, so a plugin's defect is
        likely: a batch form answering other values than its primitive (primitives.batched;
        play asks it, the listing the primitive), or a primitive that failed only now. The
        action is run again with each batch form's answers held to the primitive's (only
        here: one call per option): a :class:`PrimitiveError` naming what failed, else the
        ``AssertionError`` of an engine defect."""
        from .lang.codegen import checking_batches
        try:
            with checking_batches():
                self._run(action)
        except PrimitiveFailed as found:
            raise self._refusal(action, found) from None
        except RuleViolation:
            pass
        raise AssertionError(f"{brief_action(action)} was listed as legal but {what}: "
                             f"{err.message}") from None

    def _resolve(self, ctx: Any, pending: Any, action: Any, check: Any) -> None:
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
        if len(action.args) != 1 or value not in d.options:
            raise RuleViolation(f"{brief_value(value)} is not one of the choices for '{d.label}'"
                                + (_why_not(self.ruleset, ctx, d, value) if len(action.args) == 1
                                   else ""), "decision")
        pending.pop(0)
        if d.bag is not None:
            bag = list(ctx.get(("v", d.bag)) or ())
            if value not in bag:
                raise RuleViolation(f"{brief_value(value)} is no longer in '{d.bag}'", "decision")
            bag.remove(value)
            ctx.set(("v", d.bag), tuple(bag))
            S.undrawn(ctx, d.bag)
        env = dict(d.env)
        env[d.label] = value
        S.run_unit(ctx, ctx.rs.blocks[d.block], d.source, me=d.me, env=env)
        pending[:0] = ctx.queued
        ctx.queued = []
        turn = ctx.get(("f", "turn"))
        if turn is None or turn[2] is None:
            # decided outside anyone's turn: its 'after turn' blocks run now, not after the
            # next player's turn, once the decisions still pending are made (docs/language.md,
            # 'after turn')
            self._run_after(ctx, pending, _deciding(pending))

    def _turn_action(self, ctx: Any, pending: Any, action: Any, check: Any,
                     args_checked: bool = False) -> None:
        rs = ctx.rs
        turn = ctx.get(("f", "turn"))
        if turn is None:
            raise RuleViolation("nobody is to act now", "flow")
        step = self._step(ctx)
        order, pos, player, main_done = turn
        simultaneous = step.mode == "simultaneous"
        acted = ctx.get(("f", "acted")) or ()
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

    def _act(self, ctx: Any, pending: Any, action: Action, step: Any, turn: Any, acted: Any,
             check: bool, args_checked: bool) -> None:
        """The part of :meth:`_turn_action` after its checks of the turn: the arguments, the
        body, the turn's bookkeeping. ``turn``, ``acted``: their values now."""
        rs = ctx.rs
        name = action.name
        adef = rs.actions[name]
        ctx.me = action.player
        if not args_checked and (check or name in rs.param_where_actions):
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
                ctx.set(("f", "acted"), acted + (action.player,))
                self._run_after(ctx, pending, _deciding(pending))
            elif not step.free or action.player in (ctx.get(("f", "passed")) or ()):
                ctx.set(("f", "turn"), (order, pos, player, True))
                self._end_turn(ctx, pending, action.player)
            else:
                ctx.set(("f", "turn"), (order, pos, player, True))

    # ---- interleaved turns: a 'lanes' step (docs/api.md, "Interleaved turns") ----
    # ("f", "lanes") holds one (pos, player, main_done, after) per lane: ``player`` takes the
    # lane's turn at place ``pos`` of the order (None: that turn is over and the lane waits to
    # move on), ``after`` the turn's 'after turn' blocks; ``pos`` None: the lane is out (nobody
    # is left for it). Decisions raised in a lane carry its number (Decision.lane) and are
    # decided in that lane, front first, while the other lanes go on.

    def _lane_actors(self, st: State, lanes: tuple[Any, ...]) -> frozenset[int]:
        fronts = _first_by_lane(st.pending)
        out = set()
        for i, (_, player, _, _) in enumerate(lanes):
            d = fronts.get(i)
            if d is not None:
                out.add(d.player)
            elif player is not None and self.legal_actions(player):
                out.add(player)
        return frozenset(out)

    def _lane_candidates(self, ctx: Any, step: Any, st: State, lanes: tuple[Any, ...],
                         player: int | None) -> Iterator[Action]:
        fronts = _first_by_lane(st.pending)
        seen: set[Action] = set()
        for i, (_, who, main_done, _) in enumerate(lanes):
            d = fronts.get(i)
            if d is not None:
                found: Iterable[Action] = self._decision_candidates(d, player)
            elif who is not None and player in (None, who):
                found = self._turn_candidates(ctx, step, who, main_done)
            else:
                continue
            for a in found:
                if a not in seen:  # (two lanes may wait for the same answer)
                    seen.add(a)
                    yield a

    def _lane_action(self, ctx: Any, pending: list[Any], action: Action, check: bool,
                     args_checked: bool) -> None:
        """Play ``action`` in its lane: the first lane whose first decision it answers, else
        the lane whose turn is its player's (and has no decision pending). The lane's turn is
        put in ("f", "turn") and ("f", "after") while its rules run, so a lane's turn is an
        ordinary turn to everything else."""
        lanes = list(ctx.get(("f", "lanes")))
        fronts = _first_by_lane(pending)
        # (an answer first: its decider may be taking a turn in another lane)
        lane = next((i for i in sorted(fronts)
                     if (action.player, action.name) == (fronts[i].player, fronts[i].label)), None)
        deciding = lane is not None
        if lane is None:
            lane = next((i for i, (_, player, _, _) in enumerate(lanes)
                         if i not in fronts and player == action.player), None)
        if lane is None:
            raise RuleViolation(self._lane_refusal(lanes, fronts, action), "turn order")
        turn = ctx.get(("f", "turn"))
        pos, player, main_done, after = lanes[lane]
        mine = [d for d in pending if d.lane == lane]
        ctx.set(("f", "turn"), (turn[0], pos, player, main_done))
        ctx.set(("f", "after"), after)
        if deciding:
            self._resolve(ctx, mine, action, check)
        else:
            self._turn_action(ctx, mine, action, check, args_checked)
        self._run_queued(ctx, mine)
        _, pos, player, main_done = ctx.get(("f", "turn"))
        lanes[lane] = (pos, player, main_done, ctx.get(("f", "after")) or ())
        ctx.set(("f", "turn"), turn)
        ctx.set(("f", "after"), ())
        ctx.set(("f", "lanes"), tuple(lanes))
        pending[:] = [d for d in pending if d.lane != lane] + [
            d if d.lane == lane else attrs.evolve(d, lane=lane) for d in mine]

    @staticmethod
    def _lane_refusal(lanes: list[Any], fronts: dict[Any, Any], action: Action) -> str:
        """Why no lane takes ``action``: whose decision or turn comes first."""
        who = _who(action.player)
        for i, (_, player, _, _) in enumerate(lanes):
            d = fronts.get(i)
            if d is not None and action.player in (player, d.player):
                return (f"{_who(d.player)} must first decide '{d.label}'"
                        + (f" ({d.prompt})" if d.prompt else ""))
        acting = ", ".join(_who(p) for _, p, _, _ in lanes if p is not None) or "nobody"
        return f"it is not {who}'s turn (the turns under way are {acting}'s)"

    def _move_lanes(self, ctx: Any, step: Any, order: tuple[int, ...], pending: list[Any]) -> bool:
        """Start the lanes of ``step`` (when it begins) and move each lane whose turn is over
        and whose decisions are decided to its next player in the order, unless that player
        holds another lane: it waits for them (lanes that wait for each other move together).
        True once every lane is out and nothing is pending: the step is over."""
        lanes = ctx.get(("f", "lanes"))
        begun = []
        if lanes is None:
            starts = step.lanes(ctx)
            # (no lane while the order has players: the step ended at once, skipping their turns)
            if (not isinstance(starts, tuple) or len(set(starts)) != len(starts)
                    or any(p not in order for p in starts) or (order and not starts)):
                raise RuleViolation(f"the lanes of '{step.name}' must start with distinct players "
                                    f"of its turn order (at least one), not {rules_value(starts)}", step.name)
            lanes = tuple((order.index(p), p, False, ()) for p in starts)
            begun = list(starts)
        lanes = list(lanes)
        busy = {d.lane for d in pending}
        while True:
            targets = {}
            for i, (pos, player, _, _) in enumerate(lanes):
                if pos is None or player is not None or i in busy:
                    continue
                nxt = self._next(ctx, step, order, pos)
                if nxt is None:
                    lanes[i] = (None, None, False, ())  # nobody is left for this lane
                else:
                    targets[i] = nxt
            holder = {lane[0]: i for i, lane in enumerate(lanes) if lane[0] is not None}
            free = [i for i, t in targets.items() if holder.get(t, i) == i]
            go = free[:1] or _waiting_cycle(targets, holder)
            if not go:
                break
            for i in go:
                lanes[i] = (targets[i], order[targets[i]], False, ())
                begun.append(order[targets[i]])
        ctx.set(("f", "lanes"), tuple(lanes))
        if "turn_begins" in ctx.rs.triggers_by_event:
            for p in begun:
                self._emit(ctx, "turn_begins", p)
            pending[:0] = ctx.queued  # (the game's decisions: every lane waits for them)
            ctx.queued = []
        return not pending and all(lane[0] is None for lane in lanes)

    def _run_queued(self, ctx: Any, pending: list[Any]) -> None:
        """Run the 'queue' blocks at the front of ``pending`` (their turn has come)."""
        while pending and pending[0].player is None:
            d = pending.pop(0)
            S.run_unit(ctx, ctx.rs.blocks[d.block], d.source, me=d.me, env=dict(d.env))
            pending[:0] = ctx.queued
            ctx.queued = []

    def _domain(self, ctx: Any, adef: Any, i: int) -> Any:
        """The values parameter ``i`` of ``adef`` may take (earlier ones bound in ctx.env)."""
        dom = ctx.rs.param_domains[adef.name][i]
        if dom is not None:
            return S.domain(ctx, dom(ctx))
        t = adef.params[i].type.name
        if t == "player":
            return tuple(range(ctx.nplayers))
        if t == "hex":
            return ctx.get(("v", "hexes")) or ()
        if t == "bool":
            return (False, True)
        return ctx.rs.by_kind.get(t, ())

    def _arg_tuples(self, ctx: Any, adef: Any, i: int = 0, bound: tuple[Any, ...] = (),
                    env: Any = None, lead: bool = False) -> Iterator[tuple[Any, ...]]:
        """Every argument tuple allowed by the parameters' domains and ``where`` conditions
        (``env``: the earlier parameters' bindings; ``lead``: test first the part of each
        ``where`` that does not depend on the value, see :meth:`_lead_holds`)."""
        params = adef.params
        if i == len(params):
            yield bound
            return
        name, where = params[i].name, ctx.rs.param_wheres[adef.name][i]
        env = {} if env is None else env
        last = i + 1 == len(params)
        ctx.env = env
        try:
            values = self._domain(ctx, adef, i)
        except BudgetExceeded:
            raise
        except (RuleViolation, BoardrulesError):   # (play refuses every value: none is legal)
            return
        if lead and where is not None and values and not self._lead_holds(ctx, adef.name, i):
            return
        for v in values:
            if where is None and last:
                yield bound + (v,)
                continue
            inner = {**env, name: v}
            if where is not None:
                ctx.env = inner
                try:
                    if not where(ctx):
                        continue
                except BudgetExceeded:
                    raise
                except (RuleViolation, BoardrulesError):   # (play refuses this value)
                    continue
            if last:
                yield bound + (v,)
            else:
                yield from self._arg_tuples(ctx, adef, i + 1, bound + (v,), inner, lead)

    @staticmethod
    def _lead_holds(ctx: Any, name: str, i: int) -> bool:
        """Whether the leading conjuncts of parameter ``i``'s ``where`` that do not depend on
        its value (lang/guards.py, ``where_lead``) hold, with the earlier parameters bound in
        ``ctx.env``: when they do not, no value passes and none is tried. An error evaluating
        them answers True (the values are tried one by one, as without this test, and raise
        it there with its own position)."""
        lead = ctx.rs.guards.where_lead(name, i)
        if lead is None:
            return True
        try:
            return bool(lead(ctx))
        except RuleViolation:
            return True

    def _check_args(self, ctx: Any, adef: Any, args: Any, domains: bool = True) -> None:
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
            except Exception:  # the rules never expected this value: their words still fit
                blamed = True
            if blamed:
                return f"{prm.message} ({brief_value(v)})"
        choices = ""
        if isinstance(domain, range) and len(domain):
            choices = f" (from {domain[0]} to {domain[-1]})"
        elif isinstance(domain, (tuple, list)) and 0 < len(domain) <= 12 and prm.type.name != "player":
            choices = f" (one of: {', '.join(brief_value(x) for x in domain)})"
        return f"{brief_value(v)} is not a possible {prm.name}{choices}"

    def _end_turn(self, ctx: Any, pending: Any, player: Any) -> None:
        turn = ctx.get(("f", "turn"))
        order, pos, _, _ = turn
        # (a main action that ended the turn left decisions)
        deciding = bool(pending) and _deciding(pending)
        ctx.set(("f", "turn"), (order, pos, None, False))
        if "turn_ends" in ctx.rs.triggers_by_event:
            self._emit(ctx, "turn_ends", player)
            pending[:0] = ctx.queued
            ctx.queued = []
        self._run_after(ctx, pending, deciding)

    def _run_after(self, ctx: Any, pending: Any, deciding: bool = False) -> None:
        """Run the turn's 'after turn' blocks; ``deciding``: the turn's decisions are still to
        be made, so the blocks wait for them, as 'queue' blocks behind them (docs/language.md,
        'after turn')."""
        after = ctx.get(("f", "after"))
        if after == ():   # (the common case: nothing to run, and the value is () already)
            return
        ctx.set(("f", "after"), ())
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

    def _step(self, ctx: Any) -> Any:
        stage = self.ruleset.stages[ctx.get(("f", "stage"))]
        return stage.steps[ctx.get(("f", "step"))]

    def _advance(self, ctx: Any, pending: Any, settle: bool = False) -> bool:
        """Run the flow until someone must decide or act, or the game ends. ``settle``: a
        listing's run, which stops where a turns step finishes when nothing the flow runs
        from there to the next wait can break a rule (:meth:`_step_end_settles`): True when
        it stopped there (calling it again on ``ctx`` runs on from there, as one call would)."""
        if not pending and not ctx.queued:
            # (the common case, a player in the middle of a turn: only a turns step that has
            # begun holds a turn with a player, so the loop below would return at once)
            turn = ctx.get(("f", "turn"))
            if turn is not None and turn[2] is not None:
                return False
        rs = self.ruleset
        get = ctx.get
        for _ in range(100000):
            if ctx.queued:  # decisions the engine's events queued
                pending[:0] = ctx.queued
                ctx.queued = []
            if pending and pending[0].player is None:  # a 'queue' block's turn has come
                self._run_queued(ctx, pending)
            if pending and pending[0].lane is None or get(("f", "over")):
                return False  # (decisions of lanes wait in their lanes: the other lanes go on)
            stage_i = get(("f", "stage"))
            if stage_i >= len(rs.stages):
                ctx.set(("f", "over"), True)
                ctx.events.append(S._event(ctx, "game over", None, None))
                return False
            stage = rs.stages[stage_i]
            step_i = get(("f", "step"))
            if stage.kind == "rounds" and step_i == 0 and not get(("f", "round")):
                count = stage.count(ctx) if stage.count else 1
                if not isinstance(count, int) or isinstance(count, bool):
                    raise RuleViolation(f"the number of rounds must be a whole number, not {rules_value(count)}",
                                        "flow", stage.node.span if stage.node else None)
                if count <= 0:  # no rounds at all: go straight to the next stage
                    ctx.set(("f", "stage"), stage_i + 1)
                    continue
                ctx.set(("f", "round"), 1)
                ctx.set(("f", "rounds"), count)
                self._emit(ctx, "round_begins", 1)
            if step_i >= len(stage.steps):
                if stage.kind == "rounds":
                    self._emit(ctx, "round_ends", get(("f", "round")))
                if stage.kind == "rounds" and get(("f", "round")) < get(("f", "rounds")):
                    ctx.set(("f", "round"), get(("f", "round")) + 1)
                    ctx.events.append(S._event(ctx, "round", None, get(("f", "round"))))
                    self._emit(ctx, "round_begins", get(("f", "round")))
                else:
                    ctx.set(("f", "stage"), stage_i + 1)
                ctx.set(("f", "step"), 0)
                continue
            step = stage.steps[step_i]
            if step.kind == "do":
                ctx.set(("f", "step"), step_i + 1)
                ctx.me = None  # a do step speaks for no player: rules name them
                try:
                    self._emit(ctx, "step_begins", step.name)
                    S.run_unit(ctx, step.body, step.name)
                    pending[:0] = ctx.queued
                    ctx.queued = []
                    self._run_after(ctx, pending)  # a do step is no turn: 'after turn' runs now
                    self._emit(ctx, "step_ends", step.name)
                except RuleViolation as err:
                    raise _flow_broken(err, f"step '{step.name}'", step.name) from None
                pending[:0] = ctx.queued
                ctx.queued = []
                continue
            turn = get(("f", "turn"))
            if turn is None:
                ctx.set(("f", "turn"), (self._order(ctx, step), -1, None, False))
                ctx.set(("f", "passed"), ())
                ctx.set(("f", "acted"), ())
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
                acted = get(("f", "acted")) or ()
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
            ctx.set(("f", "turn"), (order, nxt, order[nxt], False))
            if "turn_begins" in rs.triggers_by_event:
                self._emit(ctx, "turn_begins", order[nxt])
                pending[:0] = ctx.queued
                ctx.queued = []
            return False
        raise RuleViolation("the flow does not progress (a loop without turns?)", "flow")

    def _step_end_settles(self, ctx: Context, stage: Any, stage_i: int, step_i: int,
                          rest: Facts | None = None) -> bool:
        """Whether nothing the flow runs from the end of turns step ``step_i`` of ``stage`` (its
        last turn over, nothing pending) to the next wait can break a rule (lang/flow.py), with
        the execution budget left in ``ctx`` and what the rules there rely on holding
        (``rest``: ``ctx`` lacks the writes of an inert rest with these facts, lang/inert.py:
        then only when the rest leaves what the flow relies on alone)."""
        last = ctx.get(("f", "round")) >= ctx.get(("f", "rounds")) if stage.kind == "rounds" else None
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
        return cost < ctx.steps and ctx.depth + depth < S.MAX_DEPTH \
            and facts_hold(ctx, needs, lists, grown) and seats_hold(ctx, seats)

    def _finish_step(self, ctx: Any, step_i: int) -> None:
        ctx.set(("f", "turn"), None)
        ctx.set(("f", "acted"), ())
        if ctx.get(("f", "lanes")) is not None:
            ctx.set(("f", "lanes"), None)
        ctx.set(("f", "step"), step_i + 1)
        self._emit(ctx, "step_ends", self.ruleset.stages[ctx.get(("f", "stage"))].steps[step_i].name)

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

    def _order(self, ctx: Any, step: Any) -> tuple[int, ...]:
        n = ctx.nplayers
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

    def _next(self, ctx: Any, step: Any, order: Any, pos: int) -> int | None:
        if not order:
            return None
        if step.mode == "once":
            return pos + 1 if pos + 1 < len(order) else None
        passed = ctx.get(("f", "passed")) or ()
        if step.mode == "until_all_pass":   # passed players keep their turns
            return None if all(p in passed for p in order) else (pos + 1) % len(order)
        for i in range(1, len(order) + 1):
            j = (pos + i) % len(order)
            if order[j] not in passed:
                return j
        return None

    # ---- undo, records ----
    def undo(self) -> None:
        """Take back the last player action (and the chance outcomes that followed it): the
        log loses their events and gains an ``undo`` event whose detail is the texts of the
        moves taken back (docs/api.md). Raises :class:`IllegalActionError` when no player has
        acted."""
        if not any(not self.record.actions[nrec].startswith("chance ")
                   for _, nrec, _ in self._history):
            raise IllegalActionError("nothing to undo: no player has acted yet", rule="undo")
        undone: list[str] = []
        while self._history:
            state, nrec, nlog = self._history.pop()
            if state is not None:
                self._kept -= len(state.values)
            moves = self.record.actions[nrec:]
            undone[:0] = moves
            del self.record.actions[nrec:]
            del self.log[nlog:]
            if not moves or not moves[0].startswith("chance "):
                break
        self.state = self._replayed(nrec) if state is None else state
        self.log.append(Event(len(self.record.actions), "undo", None, tuple(undone), "undo"))

    def _thin(self) -> None:
        """Drop every other state the undo history holds (but the first and the newest
        RECENT_STATES, unless those alone pass the bound), as it holds more than HISTORY_VALUES
        values: undoing to one dropped replays the moves from the last one kept before it
        (:meth:`_replayed`)."""
        h = self._history
        held = [i for i in range(1, len(h) - RECENT_STATES) if h[i][0] is not None] or \
            [i for i in range(1, len(h) - 1) if h[i][0] is not None]   # (the newest pass it alone)
        for i in held[::2]:
            state, nrec, nlog = h[i]
            assert state is not None
            h[i] = (None, nrec, nlog)
            self._kept -= len(state.values)

    def _replayed(self, upto: int) -> State:
        """The state before the record's move ``upto`` (from 0), dropped from the undo history:
        the moves from the last state it holds before that played again, as a replay plays
        them (:meth:`from_record`)."""
        j = len(self._history) - 1
        while self._history[j][0] is None:   # (the first state is never dropped)
            j -= 1
        state, start, _ = self._history[j]
        assert state is not None
        scratch = self.copy()
        scratch.state, scratch._history, scratch._kept, scratch.auto_chance = state, [], 0, False
        del scratch.record.actions[start:]
        for text in self.record.actions[start:upto]:
            scratch.play(text, check=False)
        return scratch.state

    def candidates(self, player: int | None = None) -> Iterator[Action]:
        """Every action worth trying now (legal or not), of ``player`` or of everyone to act;
        :class:`LegalActions` filters them. ``ValueError`` for no player of the game."""
        player = self._check_player(player)
        self._meter.left = MAX_LISTING_STEPS   # (a listing begins)
        return self._candidates(player, False)

    def _candidates(self, player: int | None, hoist: bool, compiled: bool = True,
                    info: Any = _UNSEEN) -> Iterator[Action]:
        """:meth:`candidates`; ``hoist``: without the turn's actions whose prechecks that do not
        depend on the arguments fail (lang/guards.py, ``hoisted``: each of those candidates is
        illegal), the way :class:`LegalActions` lists them (``compiled``: by the turns step's
        generated listing, lang/listgen.py). The iterator of the part that lists them (no
        generator of its own around it: a listing resumes it once per candidate). ``info``:
        :meth:`_turn_info`, when the caller has it."""
        st = self.state
        if st.values.get(("f", "over")):
            return iter(())
        if st.pending and st.pending[0].lane is None:
            return self._decision_candidates(st.pending[0], player)
        turn = st.values.get(("f", "turn"))
        if turn is None:
            return iter(())
        ctx = Context(self.ruleset, st.values, budget=self.max_steps)
        lanes = st.values.get(("f", "lanes"))
        if lanes is not None:
            return self._lane_candidates(ctx, self._step(ctx), st, lanes, player)
        if info is _UNSEEN:
            info = self._turn_info()   # (a turn's: its step is known, once per state)
        step = info[0] if info is not None else self._step(ctx)
        who, main_done = turn[2], turn[3]
        if who is None:   # (a simultaneous step: everyone yet to act)
            return self._actors_candidates(ctx, step, player, main_done, hoist, compiled)
        if player is not None and player != who:
            return iter(())
        return self._turn_candidates(ctx, step, who, main_done, hoist, compiled, info)

    def _actors_candidates(self, ctx: Any, step: Any, player: int | None, main_done: bool,
                           hoist: bool, compiled: bool) -> Iterator[Action]:
        """:meth:`_turn_candidates` of each player to act (of ``player`` only, unless None)."""
        for p in sorted(self.players_to_act()):
            if player is None or p == player:
                yield from self._turn_candidates(ctx, step, p, main_done, hoist, compiled)

    def _decision_candidates(self, d: Decision, player: int | None) -> Iterator[Action]:
        """The answers to decision ``d`` (none unless ``player`` is None or its decider)."""
        if player is not None and player != d.player:
            return
        opts = d.options
        if d.bag is not None:
            opts = tuple(dict.fromkeys(_bag(self, d.bag)))
        elif isinstance(opts, Dice) and 6 ** opts.count > MAX_CANDIDATES:   # (7 dice and more;
            raise ExecutionBudgetError(                                   # len() overflows past 24)
                f"listing the answers to '{d.label}': the {6 ** opts.count} outcomes of {opts.count} dice "
                f"are more than the {MAX_CANDIDATES} to try (the listing's limit): the game's own "
                "chance (auto_chance) rolls them, or play one outcome", rule=d.label)
        for o in opts:
            yield _candidate(d.player, d.label, (o,))
        if d.optional:
            yield _candidate(d.player, d.label, ())

    def _turn_candidates(self, ctx: Any, step: Any, p: int, main_done: bool,
                         hoist: bool = False, compiled: bool = True, info: Any = _UNSEEN
                         ) -> Iterator[Action]:
        """The actions worth trying in ``p``'s turn of ``step`` (``hoist``: see
        :meth:`_candidates`; ``compiled``: listed by the step's generated listing,
        lang/listgen.py, else by :meth:`_generic_candidates`, its oracle; ``info``: see
        :meth:`_candidates`)."""
        rs = self.ruleset
        hoist = hoist and "action_begins" not in rs.triggers_by_event
        if not hoist:
            info = None
        elif info is _UNSEEN:
            info = self._turn_info()
        pctx = info[3] if info is not None else None   # (the prechecks' scratch context)
        lister = rs.step_lister(step) if hoist and compiled else None
        if lister is not None:   # (the same, generated per step: lang/listgen.py)
            return lister(self, ctx, p, main_done, pctx, _candidate,  # type: ignore[no-any-return]
                          self._listing_budget_error)
        return self._generic_candidates(ctx, step, p, main_done, hoist, pctx)

    def _generic_candidates(self, ctx: Any, step: Any, p: int, main_done: bool, hoist: bool,
                            pctx: Context | None) -> Iterator[Action]:
        """:meth:`_turn_candidates` action by action through the engine's methods (``pctx``: the
        prechecks' scratch context, None: no prechecks)."""
        ctx.me = p
        names = (() if main_done else step.main) + step.free
        rs = self.ruleset
        for name in names:
            adef = rs.actions[name]
            self._charge(ctx.steps)
            ctx.steps = self.max_steps  # each action's arguments have the whole budget
            if hoist and self._hoisted_fails(ctx, adef):
                continue
            check = rs.guards.precheck(name) if pctx is not None and not rs.guards.covered(name) \
                else None
            try:
                # (an action without parameters has one candidate: no generator to make)
                tuples = self._arg_tuples(ctx, adef, lead=hoist) if adef.params else ((),)
                for n, args in enumerate(tuples):
                    if n == MAX_CANDIDATES:
                        raise BudgetExceeded(f"more than {MAX_CANDIDATES} argument combinations "
                                             "to try (the listing's limit)", ctx.source, adef.span)
                    if check is not None and pctx is not None \
                            and self._precheck_fails(adef, p, args, pctx, check):
                        continue
                    yield _candidate(p, name, args)
            except BudgetExceeded as err:
                self._listing_budget_error(name, err)
        if main_done and step.free:
            yield _candidate(p, DONE, ())

    def _charge(self, left: int) -> None:
        """Charge the listing now running for a try that left ``left`` of its ``max_steps``;
        raise its :meth:`_over_listing` error once its tries have spent more than its budget."""
        meter = self._meter
        meter.left -= self.max_steps - left
        if meter.left < 0:
            raise self._over_listing()

    def _over_listing(self, chance: Decision | None = None) -> ExecutionBudgetError:
        """The error of the listing now running (drawing an outcome of ``chance``, if given),
        whose tries spent more than ``MAX_LISTING_STEPS`` in all (the game is as it was: a
        listing changes nothing)."""
        what = "listing the legal actions" if chance is None \
            else f"drawing chance's outcome for '{chance.label}'"
        return ExecutionBudgetError(
            f"{what}: the candidates tried took more than {counted(MAX_LISTING_STEPS, 'step')} "
            f"in all (the listing's limit; each may take up to max_steps, here {self.max_steps}): "
            "rules that take many steps for each of many candidates", rule="listing")

    def _listing_budget_error(self, name: str, err: BudgetExceeded) -> NoReturn:
        """Raise the error of listing action ``name``'s arguments past the execution budget
        or the listing's limit (``err``)."""
        raise ExecutionBudgetError(
            f"listing the arguments of '{name}': {_broken(err.message, name, err.span, self.ruleset)}",
            rule=name) from None

    def is_legal(self, action: "Action | str") -> bool:
        """Whether ``action`` (an :class:`Action` or its text) may be played now (tries it on
        a scratch copy): the same answer as ``action in game.legal_actions()``. Text that
        does not parse is not legal; ``TypeError`` for anything else."""
        try:
            action = self._action(action)
        except NotationError:
            return False
        known = self._known_for(self.state)
        if known is not None and _get(known.runs, action) is not None:
            return True
        try:
            self._run(action)
        except (RuleViolation, BoardrulesError):
            return False
        return True

    def _known_for(self, state: State, create: bool = False) -> "_Known | None":
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

    def _candidate_legal(self, action: Action, tried: dict[Any, Any],
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
                if self._sure is action and prechecked and self._sure_settles(action, info):
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
                tried[action] = self._run(action, args_checked=True)
        except (RuleViolation, BoardrulesError):
            return False
        return True

    def _answers_all_legal(self) -> bool:
        """:meth:`_answers_settle`, False where working it out breaks a rule (each answer is
        then tried: :meth:`_candidate_legal` refuses it)."""
        try:
            return self._answers_settle()
        except (RuleViolation, BoardrulesError):
            return False

    def _answers_settle(self) -> bool:
        """Whether every answer to the decision now due is legal without being tried: a
        player's decision in that player's turn (:meth:`_answering_in_turn`), whose body
        cannot break a rule whichever option is the answer (lang/lazy.py, ``answers_hold``),
        and after which the flow runs nothing (:meth:`_settles`: the body cannot change the
        flow). A decision left by a turn that has ended (Eclipse's reactions) settles too when
        the turn's 'after turn' blocks behind it cannot break a rule and the flow then only
        hands the turn on (``handover``), or when another decision follows it (the flow then
        waits for that one, the 'after turn' blocks behind it). Worked out once per state."""
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
        elif turn is not None:   # (the turn has ended: see the docstring)
            rest = st.pending[1:]
            if rest and rest[0].player is not None and rest[0].lane is None:
                # (another decision follows: once this one is answered, the flow waits for it
                # and the turn's 'after turn' blocks wait behind it, running nothing)
                ctx = Context(self.ruleset, values, budget=self.max_steps)
                ok = L.runs_for_a_player(ctx, st.pending[0]) and L.answers_hold(ctx, st.pending[0])
            elif all(d.player is None and d.lane is None for d in rest) \
                    and not values.get(("f", "after")):
                ctx = Context(self.ruleset, values, budget=self.max_steps)
                # (only inert bodies run before the flow: they write no flow value, so the
                # handover is the same as from this state)
                ok = L.answers_hold(ctx, st.pending[0], rest) and self._settles(ctx, [], handover=True)
        self._answer_memo = (st, ok)
        return ok

    @staticmethod
    def _answer_due(st: State) -> Any:
        """The flow's turn value when the decision due in ``st`` is a player's, of the game's
        one line of play (no 'lanes' step, not over), else None."""
        values = st.values
        turn = values.get(("f", "turn"))
        if (st.pending and st.pending[0].lane is None and st.pending[0].player != CHANCE
                and values.get(("f", "lanes")) is None and not values.get(("f", "over"))):
            return turn
        return None

    @staticmethod
    def _answering_in_turn(st: State) -> bool:
        """Whether the decision due in ``st`` is a player's, in that player's turn (of the
        game's one line of play): once it is answered, the turn goes on (no 'after turn'
        block runs)."""
        turn = Game._answer_due(st)
        return turn is not None and turn[2] is not None

    def _answer_settles(self, action: Action) -> bool:
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
        ctx = Context(self.ruleset, st.values, ply=len(self.record.actions) + 1,
                      budget=self.max_steps)
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
            self._meter.left -= ctx.budget - ctx.steps   # (a listing's try: charged to it)
        turn = ctx.get(("f", "turn"))   # (as _resolve: the turn goes on, no 'after turn' runs)
        return verdict == INERT and turn is not None and turn[2] is not None \
            and self._settles(ctx, ctx.queued + list(st.pending[1:]))

    def _precheck_refuses(self, action: Action, ctx: Context) -> bool:
        """Whether its action's prechecks prove a turn's candidate ``action`` illegal (as
        :meth:`_turn_candidates` tests them while listing), on the scratch context ``ctx``."""
        rs = self.ruleset
        name = action.name
        if name == DONE or "action_begins" in rs.triggers_by_event:
            return False
        check = rs.guards.precheck(name)
        return check is not None and self._precheck_fails(rs.actions[name], action.player,
                                                          action.args, ctx, check)

    def _hoisted_fails(self, ctx: Context, adef: Any) -> bool:
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

    def _precheck_fails(self, adef: Any, player: int, args: tuple[Any, ...], ctx: Context,
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

    def _turn_info(self) -> tuple[Any, Any, Any, Context] | None:
        """(step, turn, acted, a scratch context) of the current state when its candidates are
        a turn's actions (no decision first, no 'lanes' step), else None; worked out once per
        state."""
        st = self.state
        memo = self._turn_memo
        if memo is not None and memo[0] is st:
            return memo[1]
        values = st.values
        info = None
        turn = values.get(("f", "turn"))
        if (turn is not None and not values.get(("f", "over"))
                and not (st.pending and st.pending[0].lane is None)
                and values.get(("f", "lanes")) is None):
            ctx = Context(self.ruleset, values, ply=len(self.record.actions) + 1,
                          budget=self.max_steps)
            info = (self._step(ctx), turn, ctx.get(("f", "acted")) or (), ctx)
        self._turn_memo = (st, info)
        return info

    def _candidate_run(self, action: Action, info: tuple[Any, ...],
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
        ctx = Context(self.ruleset, st.values, ply=len(self.record.actions) + 1,
                      budget=self.max_steps)
        ctx.lazy = lazy
        pending = list(st.pending)
        try:
            if action.name == DONE:
                self._end_turn(ctx, pending, action.player)
            else:
                step, turn, acted, _ = info
                self._act(ctx, pending, action, step, turn, acted, False, True)
            if self._advance(ctx, pending, settle):
                return ctx, pending, True
        except (RuleViolation, BoardrulesError):
            if not ctx.partial:
                raise
        else:
            return ctx, pending
        finally:
            self._meter.left -= ctx.budget - ctx.steps   # (a listing's try: charged to it)
        return self._candidate_run(action, info, lazy=False, settle=settle)   # (cut short: in full)

    def _tried_legal(self, action: Action, tried: dict[Any, Any]) -> bool:
        """Whether candidate ``action`` is legal, by trying it in full (kept in ``tried``)."""
        try:
            tried[action] = self._run(action, args_checked=True)
        except (RuleViolation, BoardrulesError):
            return False
        return True

    def _legal_by_trying(self, player: int | None = None) -> list[Action]:
        """The legal actions found by trying every candidate in full, without guards: the
        oracle the guards are tested against (tests/core/test_guards.py)."""
        return [a for a in self.candidates(player) if self._tried_legal(a, {})]

    def _guard_settles(self, action: Action, info: tuple[Any, ...]) -> bool | None:
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
        if memo[0] is not st:
            memo = self._guard_memo = (st, {}, None)
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

    def _guard_way(self, action: Action, info: tuple[Any, ...]) -> Any:
        """How :meth:`_guard_settles` settles the turn candidates of ``action``'s name and
        player in the current state: the answer for all of them (None: no guard to run; a
        guard that reads no argument: its verdict, or the violation its checks raise), or
        ``(guard,)`` to run per argument tuple, or ``_PER_ENTITY`` for an action whose guard is
        chosen by the entity an argument names (lang/guards.py, ``action_for``)."""
        rs = self.ruleset
        name = action.name
        triggers = rs.triggers_by_event
        if name == DONE:
            return True if self._done_settles() else None
        if "action_taken" in triggers or "action_begins" in triggers:
            return None
        if self._ends_turn(action, info[0]):
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

    def _ends_turn(self, action: Action, step: Step) -> bool:
        """Whether turn candidate ``action`` of ``step`` surely ends its player's turn: a main
        action of a simultaneous step, of a step without free actions, or of a player who has
        passed (:meth:`_act`)."""
        return action.name in step.main and (
            step.mode == "simultaneous" or not step.free
            or action.player in (self.state.values.get(("f", "passed")) or ()))

    def _sure_settles(self, action: Action, info: tuple[Any, ...]) -> bool:
        """Whether turn candidate ``action``, whose prechecks proved that its body runs without
        breaking a rule (lang/guards.py, ``sure``: the listing marked it ``_sure``), is legal
        without its run: no rule reacts to the action, and the flow runs nothing after it
        (:meth:`_settles`, as for a guard whose rest is inert), or it ends the turn of a step
        taken in turns and the next turn begins without a rule running, as after ``done``
        (:meth:`_done_settles`; its rest leaves no 'after turn' block: ``sure_after``)."""
        rs = self.ruleset
        triggers = rs.triggers_by_event
        if "action_taken" in triggers or "action_begins" in triggers:
            return False
        step = info[0]
        if self._ends_turn(action, step):
            return step.mode != "simultaneous" and action.name not in rs.guards.sure_after \
                and self._done_settles()
        return self._settles(info[3], list(self.state.pending))

    def _guard_verdict(self, action: Action, info: tuple[Any, ...], guard: Any) -> bool | None:
        """:meth:`_guard_settles` once its guard ``guard`` is known to be run."""
        rs = self.ruleset
        name = action.name
        st, step = self.state, info[0]
        main = name in step.main
        ctx = self._guard_context()
        adef = rs.actions[name]
        bare = rs.guards.bare.get(guard)
        if bare is not None:   # (it runs no statement: lang/guards.py, _bare)
            verdict = bare(ctx, adef.entity or name)
        else:
            env = _bindings(rs, adef, action.args)
            try:
                verdict = S.run_unit(ctx, guard, adef.entity or name, me=action.player, env=env)
            except (RuleViolation, BoardrulesError):
                if ctx.partial:   # (maybe the budget charged for the options not tested: in full)
                    return False
                raise
            finally:
                self._meter.left -= ctx.budget - ctx.steps   # (a listing's try: charged to it)
        queued = ctx.queued
        passed = ctx.get(("f", "passed")) or ()
        pending = queued + list(st.pending) if st.pending else queued
        settled = (verdict == INERT or verdict == PASSES and action.player not in passed) \
            and not (main and action.player in passed) and self._settles(ctx, pending)
        if settled and verdict == PASSES and main:
            settled = self._pass_settles(ctx, pending, action.player, passed, rs.guards.rests[guard])
            if not settled:   # (what follows the pass may break a rule: tried as a candidate)
                rs.guards.settled(name, False)
                return None
        rs.guards.settled(name, settled)
        return settled

    def _guard_context(self) -> Context:
        """The scratch context of the guards' runs on the current state (lazy: a choice in the
        checks may be cut short; no run is kept): made for the state's first run, kept in the
        guards' memo and reset for each later run."""
        memo = self._guard_memo
        ctx = memo[2]
        if ctx is None or ctx.base is not self.state.values:
            ctx = Context(self.ruleset, self.state.values, ply=len(self.record.actions) + 1,
                          budget=self.max_steps)
            ctx.lazy = True
            self._guard_memo = (memo[0], memo[1], ctx)
            return ctx
        # (a run sets its source, player and bindings, and restores them: what it wrote and
        # the counters are reset; the depth too, which a run refused at once leaves raised)
        if ctx.w or ctx.events or ctx.queued:
            ctx.w, ctx.events, ctx.queued = {}, [], []
        ctx.steps = self.max_steps
        ctx.depth = 0
        ctx.partial = False
        return ctx

    def _done_settles(self) -> bool:
        """Whether ``done`` (listed once the turn's main action is taken) is legal without its
        run: nothing is pending, no rule reacts to ``turn_ends``, no 'after turn' block waits
        (so :meth:`_end_turn` runs no rule) and the next turn of the step begins without a
        rule running (:meth:`_settles`, ``handover``: as for a pass, :meth:`_pass_settles`)."""
        st = self.state
        if st.pending or "turn_ends" in self.ruleset.triggers_by_event or st.values.get(("f", "after")):
            return False
        ctx = Context(self.ruleset, st.values, ply=len(self.record.actions) + 1, budget=self.max_steps)
        order, pos, _, _ = ctx.get(("f", "turn"))
        ctx.set(("f", "turn"), (order, pos, None, False))   # (as _end_turn)
        return self._settles(ctx, [], handover=True)

    def _pass_settles(self, ctx: Context, pending: list[Any], player: int,
                      passed: tuple[int, ...], rest: Facts) -> bool:
        """For a main action whose inert rest may pass ``player`` (``PASSES``; the guard has
        run on ``ctx``, the player has not passed): whether the run that passes settles too,
        as :meth:`_act` then ends the turn: no rule reacts to ``turn_ends``, no 'after turn'
        block waits, and the next turn of the step begins without a rule running, or the
        pass was the step's last and nothing the flow runs from the step's end to the next
        wait can break a rule (:meth:`_last_turn_settles`)."""
        if "turn_ends" in ctx.rs.triggers_by_event or ctx.get(("f", "after")):
            return False
        ctx.set(("f", "passed"), passed + (player,))
        order, pos, _, _ = ctx.get(("f", "turn"))
        ctx.set(("f", "turn"), (order, pos, None, False))   # (as _end_turn)
        return self._settles(ctx, pending, handover=True) \
            or not pending and self._last_turn_settles(ctx, rest)

    def _last_turn_settles(self, ctx: Context, rest: Facts) -> bool:
        """Whether the turn that has just ended in ``ctx`` (a guard's run: the inert rest of
        the body was not run) was the last of its turns step, and the flow from the step's end
        to the next wait cannot break a rule (:meth:`_step_end_settles`, with what the flow
        relies on read in ``ctx`` when the rest not run, of facts ``rest``, leaves it alone)."""
        get = ctx.get
        stages = self.ruleset.stages
        stage_i = get(("f", "stage"))
        if get(("f", "over")) or stage_i >= len(stages):
            return False
        stage, step_i = stages[stage_i], get(("f", "step"))
        turn = get(("f", "turn"))
        if step_i >= len(stage.steps) or turn is None or turn[2] is not None:
            return False
        step = stage.steps[step_i]
        return (step.kind == "turns" and step.lanes is None and step.mode != "simultaneous"
                and self._next(ctx, step, turn[0], turn[1]) is None
                and self._step_end_settles(ctx, stage, stage_i, step_i, rest))

    def _settles(self, ctx: Context, pending: list[Any], handover: bool = False) -> bool:
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

    def _flow_waits(self, ctx: Context, handover: bool = False) -> bool:
        """:meth:`_settles` without pending decisions: whether the flow's place in ``ctx`` is
        a wait (the game is over, a player is in the middle of a turn, or with ``handover``
        the next turn of the step begins)."""
        get = ctx.get
        if get(("f", "over")):
            return True
        stages = self.ruleset.stages
        stage_i = get(("f", "stage"))
        if stage_i >= len(stages):
            return False
        stage, step_i = stages[stage_i], get(("f", "step"))
        if step_i >= len(stage.steps) or stage.steps[step_i].kind == "do" or (
                stage.kind == "rounds" and step_i == 0 and not get(("f", "round"))):
            return False
        turn = get(("f", "turn"))
        if turn is None or turn[2] is not None:
            return turn is not None
        step = stage.steps[step_i]
        return (handover and "turn_begins" not in self.ruleset.triggers_by_event and step.lanes is None
                and step.mode != "simultaneous" and self._next(ctx, step, turn[0], turn[1]) is not None)

    @classmethod
    def from_record(cls, record: Record, *, check: bool = True,
                    max_steps: int = MAX_STEPS) -> "Game":
        """Replay ``record`` (with legality checks unless ``check=False``; ``max_steps``:
        the execution budget per action, as for :func:`new_game`). A record built in Python
        is held to the shape of one read from a file (:class:`NotationError` naming each
        field of the wrong type: ``modules="weather"`` was read as its letters)."""
        if not isinstance(record, Record):
            raise TypeError(f"from_record needs a Record, not {brief_text(record, 40)}")
        record = record.checked()
        # (options a house rule declares exist only with the house rules: both at once)
        rs = build_ruleset(record.game, modules=plugins.exactly(record.game, record.modules),
                           options=None if record.rules else record.options,
                           texts=dict(record.texts) if record.texts else None)
        if record.rules:
            from .ruleset import _build, _frozen
            rs = _build(attrs.evolve(rs.recipe, rules=tuple(map(tuple, record.rules)), options=tuple(
                sorted((k, _frozen(v, k)) for k, v in record.options.items()))))
        try:
            game = cls(rs, record.players, record.seed, auto_chance=False, max_steps=max_steps)
        except ExecutionBudgetError as err:   # (the budget, not the record: kept apart)
            raise ExecutionBudgetError(f"this record cannot start a game: {err}", rule=err.rule) from None
        except ValueError as err:
            raise NotationError(f"this record cannot start a game: {err}") from None
        for i, text in enumerate(record.actions, 1):
            try:
                game.play(text, check=check)
            except IllegalActionError as err:
                changed = (f" (note: the rules changed since this record was written: ruleset "
                           f"{record.ruleset} then, {rs.id} now)"
                           if record.ruleset and record.ruleset != rs.id else "")
                raise type(err)(f"move {i}: {err}{changed}", rule=err.rule,
                                action=err.action) from None
            except (NotationError, TypeError) as err:  # text that is not a move
                raise NotationError(f"move {i}: {err}") from None
        game.auto_chance = True
        return game

    def copy(self) -> "Game":
        """An independent game at the same point, for search: it shares the ruleset and the
        (immutable) state, and has its own record, event log and undo history, so playing or
        undoing on either leaves the other as it was. Costs a few µs (three list copies);
        ``copy.copy(game)`` does the same. What the game learnt about the actions from the
        states it saw (see ``_known_for``) stays shared: it holds for any game of the ruleset."""
        new = Game.__new__(Game)
        new.__dict__.update(self.__dict__)
        r = self.record   # (a shallow copy with its own action list; copy.copy is slower)
        new.record = Record(r.game, r.modules, r.options, r.players, r.seed, r.rules, r.texts,
                            r.actions.copy(), r.final, r.ruleset)
        new.log = self.log.copy()
        new._history = self._history.copy()
        return new

    __copy__ = copy

    def save(self, compact: bool = False) -> str:
        """The game as JSON text: its record with the final state's digest
        (load it with :func:`boardrules.load_game`); ``compact``: on one line, no spaces."""
        self.record.final = self.state.digest()
        return self.record.dumps(compact)

    def __repr__(self) -> str:
        return (f"<Game {self.ruleset.title} players={self.players} "
                f"moves={len(self.record.actions)}{' over' if self.over else ''}>")

    def _repr_svg_(self) -> str | None:
        """The picture notebooks show: the game's ``map`` renderer (a plugin's
        ``boardrules_renderers``), or None when no plugin draws this game."""
        if not self.ruleset.game:
            return None
        renderers: dict[str, Any] = {}
        for group in plugins.manager().hook.boardrules_renderers(game=self.ruleset.game):
            renderers.update(group or {})
        draw = renderers.get("map")
        return draw(self) if draw is not None else None


# how many states a game remembers its action runs for (search comes back to a state by undo)
KNOWN_STATES = 256
HISTORY_VALUES = 4_000_000
"""The most values the undo history holds, summed over its states (a whole random 6-player
Eclipse game holds some 250,000): past it, :meth:`Game._thin` drops older states, so a long
record over a large state replays in bounded memory (a 300 KB record of 3,000 moves over
24,000 values took 3.9 GB)."""
RECENT_STATES = 64
"""The newest states of the undo history, dropped only when they alone hold more than
HISTORY_VALUES values: undoing them replays nothing."""
# a run not made yet: the action was listed as legal from its guard (_guard_settles)
ACCEPTED: tuple[Any, ...] = (None, None)
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


class _Meter:
    """What the listing now running may still spend (``left``, steps: below 0 once its tries
    spent more than ``MAX_LISTING_STEPS``; Game._charge). Each listing sets it anew, and any run
    charges it (a run outside a listing too: the next listing starts afresh); copies of a game
    share it (they list one at a time)."""

    __slots__ = ("left",)

    def __init__(self) -> None:
        self.left = MAX_LISTING_STEPS


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


class LegalActions:
    """Lazy view of the legal actions: ``in`` tests one action, iteration and ``len``
    try each candidate once (the result is cached), :meth:`sample` draws one uniformly.
    The view of everyone to act (no ``player``) raises
    :class:`~boardrules.errors.GameStuckError` instead of being empty while the game is not
    over: nobody can act (the error names the flow step and the turn or decision)."""

    def __init__(self, game: Game, player: int | None):
        self._game = game
        self._player = player
        self._state = game.state
        self._cache: list[Action] | None = None

    def _fresh(self) -> None:
        if self._game.state is not self._state:
            raise RuntimeError("the game has moved on since these legal actions were listed")

    def __contains__(self, action: object) -> bool:
        self._fresh()
        if not isinstance(action, (str, Action)):
            return False
        try:
            action = self._game._action(action)
        except NotationError:
            return False
        if self._player is not None and action.player != self._player:
            return False
        if self._cache is not None:
            return action in self._cache
        return self._game.is_legal(action)

    def __iter__(self) -> Iterator[Action]:
        """The legal actions in listing order, found when first asked for: the list kept for
        this state when it was listed before (also meanwhile: ``list()`` asks for the iterator,
        then the length), all answers at once when every one of them is legal untried, else
        each candidate tried as it comes (:meth:`Game._candidate_legal`). ``RuntimeError`` when
        the game has moved on since the view was made, also between two of them (a loop that
        plays what it lists without undoing it: the rest would be tried against another
        state). Playing and undoing before the next one is fine: undo restores the very state."""
        self._fresh()
        game, state, player = self._game, self._state, self._player
        found, known, info = self._cache, None, None
        if found is None:
            known = game._known_for(state, create=True)
            assert known is not None  # (created when missing)
            found = known.listed.get(player)
            if found is None:
                game._meter.left = MAX_LISTING_STEPS   # (a listing begins: Game._charge)
                info = game._turn_info()
                if info is None and game._answers_all_legal():
                    # (every answer to the decision due is legal untried, as _candidate_legal
                    # would find one by one: listed at once, no run kept: _try keeps the one
                    # played. An Eclipse Upgrade offers about 100)
                    found = list(game._candidates(player, True))
        if found is not None:
            for a in found:
                yield a
                if game.state is not state:
                    self._fresh()
        else:
            assert known is not None
            found = []
            runs = known.runs
            # (a state listed for the first time has no runs to look up: each candidate is
            # tried; one met twice, or tried meanwhile by other means, is tried again to the
            # same answer)
            seen = bool(runs)
            legal, meter = game._candidate_legal, game._meter
            for a in game._candidates(player, True, info=info):
                if seen and a in runs or legal(a, runs, True, info):
                    found.append(a)
                    yield a
                    if game.state is not state:
                        self._fresh()
                if meter.left < 0:
                    raise game._over_listing()
        if known is not None:
            self._cache = known.listed[player] = found
        if not found and player is None and not game.over:
            raise game._stuck()

    def sample(self, rng: random.Random) -> Action:
        """One legal action drawn uniformly at random with ``rng`` (every distinct legal action
        equally likely), usually without listing them all: candidates are drawn without
        replacement and tried until one is legal (the first legal action of a uniformly random
        order of the candidates is uniform over the legal ones). Raises ``IndexError`` when
        there is no legal action (:class:`~boardrules.errors.GameStuckError` when nobody can
        act and the game is not over). The same answer for the same state and ``rng`` state.
        ``TypeError`` for an ``rng`` without ``randrange`` (None, a seed, NumPy's generator)."""
        if not callable(getattr(rng, "randrange", None)):
            raise TypeError(f"sample needs a random.Random, such as random.Random(7), not {brief_text(rng, 40)}")
        self._fresh()
        game = self._game
        known = game._known_for(self._state, create=True)
        assert known is not None  # (created when missing)
        listed = self._cache if self._cache is not None else known.listed.get(self._player)
        # (every candidate in the pool, pruned or not, so a seeded draw stays what it was:
        # the random bot's games do not change with the pruning; a turn's candidates are
        # prechecked as they are drawn)
        pool = list(dict.fromkeys(game.candidates(self._player) if listed is None else listed))
        runs = known.runs
        while pool:
            i = rng.randrange(len(pool))
            action = pool[i]
            if listed is not None or action in runs or game._candidate_legal(action, runs, False):
                return action
            if game._meter.left < 0:
                raise game._over_listing()
            pool[i] = pool[-1]   # (tried and illegal: out of the draw)
            pool.pop()
        if self._player is None and not game.over:
            raise game._stuck()
        raise IndexError("no legal action to sample")

    def _all(self) -> list[Action]:
        """Every legal action, listed once (``RuntimeError`` once the game moved on: ``len``,
        indexing and ``repr`` answered from the list of the earlier state)."""
        self._fresh()
        if self._cache is None:
            for _ in self:
                pass
        assert self._cache is not None
        return self._cache

    def __len__(self) -> int:
        return len(self._all())

    def __bool__(self) -> bool:
        return any(True for _ in self)

    @overload
    def __getitem__(self, index: int) -> Action: ...

    @overload
    def __getitem__(self, index: slice) -> list[Action]: ...

    def __getitem__(self, index: int | slice) -> Action | list[Action]:
        """The action at ``index`` in listing order (negative indexes count from the end)."""
        if isinstance(index, bool) or not isinstance(index, (int, slice)):
            raise TypeError(f"legal actions are indexed by number, not {index!r}")
        return self._all()[index]

    def __repr__(self) -> str:
        if self._game.state is not self._state:
            return "<LegalActions of an earlier state: the game has moved on>"
        try:
            listed = self._all()
        except GameStuckError:
            return "<LegalActions 0: nobody can act>"
        n = len(listed)
        shown = ", ".join(self._game.format(a) for a in listed[:5])
        more = f", … {n - 5} more" if n > 5 else ""
        return f"<LegalActions {n}: {shown}{more}>"


def _deciding(pending: Iterable[Any]) -> bool:
    """Whether ``pending`` holds a decision to make (a player's or chance's, not a 'queue'
    block's)."""
    return any(d.player is not None for d in pending)


def _first_by_lane(pending: Iterable[Any]) -> dict[Any, Any]:
    """{lane: its first pending decision} (interleaved turns; None: the game's)."""
    first: dict[Any, Any] = {}
    for d in pending:
        first.setdefault(d.lane, d)
    return first


def _fronts(pending: tuple[Any, ...]) -> list[Any]:
    """The first pending decision of each lane, in lane order (the game's first)."""
    first = _first_by_lane(pending)
    return [first[k] for k in sorted(first, key=lambda lane: -1 if lane is None else lane)]


def _waiting_cycle(targets: dict[int, int], holder: dict[int, int]) -> list[int]:
    """Lanes that each wait for the place the next one holds, round to the first: they pass
    their turns on together (else none could ever move). Empty when there is no such ring."""
    for start in targets:
        ring, i = [start], holder.get(targets[start])
        while i in targets and i not in ring:
            ring.append(i)
            i = holder.get(targets[i])
        if i == start:
            return ring
    return []


_DICE_LISTED = 6 ** 6   # (rolls of more dice than this are redrawn, not listed, once one is refused)
_DICE_REDRAWS = 1000


def _chance_draws(game: Game, d: Decision, rng: random.Random) -> Iterator[Any]:
    """Chance's outcomes for ``d``, drawn with ``rng`` one after another: first the seeded draw
    docs/api.md describes (the dice rolled, a card of the bag, one of the options); the next
    only when the rules refused the one before (a ``require`` in the decision's body), each
    from those not refused yet, so the outcome played is one of chance's legal actions, as
    likely among them as it was among all. Rolls of more than six dice, once one is refused,
    are redrawn at most ``_DICE_REDRAWS`` times. Nothing for an empty bag."""
    outcomes: Any
    if isinstance(d.options, Dice):
        value = d.options.sample(rng)
        yield value
        if len(d.options) > _DICE_LISTED:
            refused = {value}
            for _ in range(_DICE_REDRAWS):
                value = d.options.sample(rng)
                if value not in refused:
                    refused.add(value)
                    yield value
            return
        outcomes = tuple(d.options)
    else:
        outcomes = _bag(game, d.bag) if d.bag is not None else d.options
        if not outcomes:
            return
        value = rng.choice(outcomes)
        yield value
    yield from _redraws(outcomes, value, rng)


def _redraws(outcomes: Any, first: Any, rng: random.Random) -> Iterator[Any]:
    """The values of the sequence ``outcomes`` other than ``first``, drawn one after another,
    each as ``rng.choice`` draws from the list of those not drawn yet in their order (every copy
    of a value drawn leaves with it). That list is not rebuilt after each draw (quadratic: a
    ``choose`` of 1..99999 that the rules refused but once took 42 s): the positions left are
    counted in a Fenwick tree, so each draw finds the k-th left and each removal in O(log n)."""
    n = len(outcomes)
    tree = [0] * (n + 1)   # tree[i]: the positions left among (i - (i & -i), i]
    at: dict[Any, list[int]] = {}
    for i, v in enumerate(outcomes, 1):
        at.setdefault(v, []).append(i)
        tree[i] += 1
        up = i + (i & -i)
        if up <= n:
            tree[up] += tree[i]
    left = n
    top = 1 << n.bit_length() >> 1   # (the highest power of 2 up to n: the search's first stride)
    value = first
    while True:
        for i in at.pop(value, ()):
            left -= 1
            while i <= n:
                tree[i] -= 1
                i += i & -i
        if not left:
            return
        k = rng.choice(range(left)) + 1   # (the draw rng.choice makes from a list of ``left``)
        pos, stride = 0, top
        while stride:   # (the k-th position left: the last prefix holding fewer than k, plus one)
            nxt = pos + stride
            if nxt <= n and tree[nxt] < k:
                pos = nxt
                k -= tree[nxt]
            stride >>= 1
        value = outcomes[pos]
        yield value


def _bag(game: Game, name: str) -> tuple[Any, ...]:
    """The contents of list variable ``name`` now (its default when never changed)."""
    values = game.state.values
    key = ("v", name)
    return tuple((values[key] if key in values else game.ruleset.default_of(key)) or ())


def parse_generic(game: Game, text: str) -> Action:
    """Read the canonical text form (see :func:`format_action`)."""
    parts = text.split()
    if len(parts) < 2:
        raise NotationError(f"{brief_text(text)}: expected 'pN ACTION [ARGS...]' or 'chance LABEL VALUE'")
    actor, name, raw = parts[0], parts[1], parts[2:]
    seat = read_whole(actor[1:]) if actor.startswith("p") else None
    if actor == "chance":
        player = CHANCE
    elif seat is not None and 1 <= seat <= game.players:
        player = seat - 1
    else:
        raise NotationError(f"{brief_text(text)}: '{brief_value(actor)}' is not a player "
                            f"(p1..p{game.players}) or 'chance'")
    st = game.state
    d = next((f for f in _fronts(st.pending) if (f.label, f.player) == (name, player)), None) \
        if st.pending else None
    if d is not None:
        if not raw:
            return Action(player, name, ())
        arg = " ".join(raw)
        opts = d.options
        if d.bag is not None:
            opts = _bag(game, d.bag)
        if isinstance(opts, Dice):
            dice = tuple(read_whole(x) for x in arg.split(","))
            if None in dice:
                raise NotationError(f"{brief_text(text)}: dice are written as 1,6,3")
            return Action(player, name, (dice,))
        for o in opts:
            if format_value(o) == arg:
                return Action(player, name, (o,))
        return Action(player, name, (arg,))
    if name == DONE:
        return Action(player, DONE, tuple(raw))
    adef = game.ruleset.actions.get(name)
    if adef is None:
        return Action(player, name, tuple(raw))
    if len(raw) != len(adef.params):
        raise NotationError(f"{brief_text(text)}: '{name}' takes {_params_wanted(adef.params)}, "
                            f"given {len(raw)}")
    return Action(player, name, tuple(_convert(text, p.type.name, r) for p, r in zip(adef.params, raw)))


def _params_wanted(params: Any) -> str:
    """What an action's arguments should be, for a message: ``1 argument (c: card)``."""
    named = ", ".join(f"{p.name}: {p.type.name}" for p in params)
    return f"{len(params)} argument{'' if len(params) == 1 else 's'}" + (f" ({named})" if named else "")


_KINDS = ((bool, "true or false"), (int, "a whole number"), (str, "a text"), (tuple, "a tuple"),
          (list, "a list"), (dict, "a mapping"))


def _python_kind(v: Any) -> str:
    return next((what for t, what in _KINDS if isinstance(v, t)), f"a {type(v).__name__}")


def _shape_problem(prm: Any, v: Any, domain: Any) -> str:
    """Whether ``v`` is of another Python kind than the values of ``prm``'s domain (a list
    given for a card): then what was given and what is expected, else ``""``."""
    sample = next(iter(domain), None) if isinstance(domain, (tuple, list, range)) else None
    if sample is None:
        return ""
    want, got = _python_kind(sample), _python_kind(v)
    if want == got:
        return ""
    return f"{prm.name}: expected a {prm.type.name} ({want}), given {got}: {brief_text(v, 40)}"


def _convert(text: str, type_name: str, raw: str) -> Any:
    if type_name == "int":
        number = read_whole(raw)
        if number is None:
            raise NotationError(f"{brief_text(text)}: {brief_text(raw)} is not a number (written as 12 "
                                f"or -3: ASCII digits, no leading zero)")
        return number
    if type_name == "player":
        seat = read_whole(raw[1:]) if raw.startswith("p") else None
        if seat is not None and seat >= 1:   # ('p0' was read as chance, -1)
            return seat - 1
        raise NotationError(f"{brief_text(text)}: {brief_text(raw)} is not a player (p1, p2, ...)")
    if type_name == "bool":
        if raw in ("true", "false"):
            return raw == "true"
        raise NotationError(f"{brief_text(text)}: {brief_text(raw)} is not true or false")
    if raw == "none":
        return None
    return raw


def read_name(ruleset: Ruleset, values: dict[tuple[Any, ...], Any], name: str,
              player: int | None = None, index: Any = None) -> Any:
    """:meth:`Game.get` of the state ``values`` (also :class:`~boardrules.reader.StateReader`'s
    general way). ``TypeError`` for a ``name`` that is no text, or a ``player`` that is no whole
    number where the name is kept per player (``'0'`` and ``2.0`` were 'no player here', a
    ``BoardrulesError``; a name that is not kept per player ignores ``player``, as the reader does)."""
    check_name(name)
    player, index = _plain_value(player), _plain_value(index)   # (NumPy's integers as ints)
    ctx = Context(ruleset, values, me=player)
    try:
        value = S.load_name(ctx, name)
        if index is not None:
            try:
                hash(index)
            except TypeError:   # (a list or a dict from Python: no key of the state)
                raise BoardrulesError(f"index= is a hex, an entity or a number, not "
                                      f"{brief_text(index, 40)}") from None
            found = S.index(ctx, value, index)
            if isinstance(value, S.VarHandle) and S.var_key(ctx, value.var, index) not in values:
                problem = index_problem(ruleset, values, name, index)   # (an index of nothing)
                if problem is not None:
                    raise BoardrulesError(problem)
            return found
    except RuleViolation as err:
        if player is None and "no player" in err.message:
            raise BoardrulesError(f"'{name}' is kept per player: pass player=") from None
        if "no player" in err.message and type(player) is not int:
            raise TypeError(f"a player is a seat counted from 0 (an int: 0 for p1), not {brief_text(player, 40)}") from None
        raise BoardrulesError(err.message) from None
    if isinstance(value, S.VarHandle):
        raise BoardrulesError(f"'{name}' is kept per {value.var.per[-1]}: pass index=")
    return value


def new_game(game: str | None = None, *, players: int, seed: int | str = 0,
             modules: str | Iterable[str] = (), options: Mapping[str, Any] | None = None,
             rules: str | os.PathLike[str] | Iterable[str | os.PathLike[str]] = (),
             texts: Mapping[str, str] | None = None, backend: str = "compiled",
             max_steps: int = MAX_STEPS) -> Game:
    """Start a game: the one obvious entry point.

    ``game``: an installed game's name (``boardrules plugins`` lists them) or None with
    ``texts`` (rule files as ``{path: text}``); ``players``: the player count; ``seed``:
    decides chance outcomes not given explicitly; ``modules``: module ids to switch on
    (default modules are on; ``"-ID"`` switches one off; requirements come along);
    ``options``: option values; ``rules``: house-rule file paths; ``max_steps``: the
    execution budget, the steps (loop iterations, list elements walked or built, rules
    run) one action or the setup may take before
    :class:`~boardrules.errors.ExecutionBudgetError` stops it.
    Raises :class:`~boardrules.errors.RulesError` (also for rules with no flow step, an
    empty file: nothing to play), :class:`~boardrules.errors.PluginError`
    (unknown or conflicting modules, a module that does not allow this player count)
    or ``ValueError`` (player count; neither ``game`` nor ``texts``; an empty file name in ``texts``).
    """
    players = _player_count(players)
    seed = check_seed(seed)
    if game is None and not texts:   # (house rules alone change nothing: there is no game)
        raise ValueError("no game to play: name an installed game or give its rule files as "
                         "texts={path: text}")
    rs = build_ruleset(game, modules=modules, options=options, rules=rules, texts=texts,
                       backend=backend)
    return Game(rs, players, seed, max_steps=max_steps)


def load_game(text: str, *, check: bool = True, max_steps: int = MAX_STEPS) -> Game:
    """Rebuild a game from :meth:`Game.save` output by replaying its record (``check=False``:
    without legality checks, for trusted saves).

    Raises :class:`~boardrules.errors.NotationError` (text that is not a record, a move that
    does not parse), :class:`~boardrules.errors.IllegalActionError` naming the first illegal
    move (:class:`~boardrules.errors.ExecutionBudgetError` where the setup or a move needs
    more than ``max_steps``: a game played with a larger budget), and :class:`~boardrules.errors.ReplayMismatch` (``move`` None) when the moves replay
    to a state other than the save's ``final`` digest: the save was altered, or the rules
    changed since (``Game.from_record(Record.loads(text))`` loads it without this check)."""
    record = Record.loads(text)
    game = Game.from_record(record, check=check, max_steps=max_steps)
    mismatch = final_mismatch(record, game)
    if mismatch is not None:
        raise ReplayMismatch(f"the saved game does not replay to its saved state: {mismatch}")
    return game


def final_mismatch(record: Record, game: Game) -> str | None:
    """How ``game`` (``record`` replayed) differs from the state ``record`` claims (its
    ``final`` digest), naming the moves replayed and, when they differ, the rulesets then and
    now; None when it matches or the record claims none. Only the end state is saved, so a
    difference cannot be placed at an earlier move; an illegal move is found by the replay."""
    digest = game.state.digest()
    if record.final is None or digest == record.final:
        return None
    n = len(record.actions)
    changed = (f"; the rules changed since it was written (ruleset {brief_value(record.ruleset)} "
               f"then, {game.ruleset.id} now)" if record.ruleset and record.ruleset != game.ruleset.id
               else "; the record was altered, or this version of boardrules plays its moves "
               "differently")
    return (f"after its {n} move{'' if n == 1 else 's'} the state digest is {digest}, the record "
            f"says {brief_value(record.final)}{changed}")
