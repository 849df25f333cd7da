"""The :class:`Game`: its public API (queries, play, undo, listing, legality, saves) and its
construction; :func:`new_game`, :func:`load_game`, :func:`final_mismatch`. The machinery is in
the mixins it is built from: flow.py, lanes.py, listing.py, verdicts.py, history.py."""

from __future__ import annotations

import os
import random
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any, Iterator, TypedDict

import attrs

from ..limits import LIMITS, raise_with
from .. import plugins
from ..errors import BoardrulesError, ExecutionBudgetError, IllegalActionError, NotationError, ReplayMismatch
from ..reader import StateReader, check_seat
from ..quoting import QUOTE, brief_text, brief_value, check_count
from ..record import LAYERS, Record, check_seed
from ..ruleset import Ruleset, Step, build_ruleset
from ..runtime import (CHANCE, F_ACTED, F_LANES, F_OVER, F_ROUND, F_STAGE, F_STEP, F_TURN,
                       NPLAYERS, Context, Decision, Event,
                       RuleViolation)
from ..state import State
from .actions import (Action, _FLOW_BROKEN, _broken, _candidate, _error_class, _player_count, _too_many_values,
                      brief_action, format_action)
from .flow import GameFlow
from .history import GameHistory
from .lanes import GameLanes, _fronts
from .listing import GameListing, LegalActions, _Meter, _chance_draws, chance_copies
from .notation import parse_generic, read_name
from .verdicts import GameVerdicts, _Known, _get


class Score(TypedDict):
    """One player's score: ``total`` and the victory points by ``sources`` (rule or entity)."""

    total: int
    sources: dict[str, int]


class View(TypedDict):
    """What one player may know (:meth:`Game.view`): state ``values`` by key, ``pending``
    decisions (others' without their bindings, chance's without their options)."""

    values: dict[tuple[Any, ...], Any]
    pending: list[Decision]


_MEMORY = ("_known", "_turn_memo", "_answer_memo", "_flow_memo", "_guard_memo", "_sure")   # (Game._forget's)


class Game(GameFlow, GameLanes, GameListing, GameVerdicts, GameHistory):
    """A game in progress. Build one with :func:`new_game` or :meth:`Game.from_record`."""

    def __init__(self, ruleset: Ruleset, players: int, seed: int | str = 0, *,
                 auto_chance: bool = True, max_steps: int | None = None):
        if not isinstance(ruleset, Ruleset):
            raise TypeError(f"Game needs a Ruleset (boardrules.build_ruleset(...)), not {brief_text(ruleset, 40)}; "
                            f"new_game(GAME, players=N) starts an installed game by its name")
        max_steps = check_count(LIMITS.max_steps if max_steps is None else max_steps, "max_steps", 1)
        players = _player_count(players)
        seed = check_seed(seed)
        if not isinstance(auto_chance, bool):   # ('no' would have switched chance on)
            raise TypeError(_not_a_bool(auto_chance))
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
                             ruleset=ruleset.id, sources=ruleset.sources)
        self.log: list[Event] = []
        # (state, record length, log length) before each action; the state None once dropped (_thin)
        self._history: list[tuple[State | None, int, int]] = []
        self._kept = 0   # the values of the states the history holds
        self._meter = _Meter()   # (what the listing now running may still spend)
        self._forget()
        self.notation = plugins.manager().hook.boardrules_notation(game=ruleset.game) \
            if ruleset.game else None
        self.state: State = self._initial_state()
        try:
            self._auto()
        except ExecutionBudgetError as err:
            raise ExecutionBudgetError(f"the game cannot start: {err}", rule=err.rule) from None
        self._thin_if_held()

    def _forget(self) -> None:
        """No memory of the states seen (a new game's, an unpickled one's)."""
        # id(state) -> _Known, most recently used last (shared by copies: see _known_for)
        self._known: OrderedDict[int, _Known] = OrderedDict()
        self._turn_memo: tuple[State, tuple[Any, Any, Any, Context, Any] | None] | None = None  # (state, its _turn_info)
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
        """The state the game starts from (the setup run up to its first decision or turn), its
        events logged. The same for every game of these rules with as many players and as large
        a budget, under the same limits: worked out once (``Ruleset.starts``; values and pending
        decisions are never changed in place, so games share them as states share them)."""
        starts = self.ruleset.starts
        key = (self.players, self.max_steps, LIMITS.copy())
        start = starts.get(key)
        if start is None:
            if len(starts) >= 16:   # (a caller trying many budgets: keep a few)
                starts.clear()
            start = starts[key] = self._setup_run()
        state, events = start
        self.log.extend(events)
        return state

    def _setup_run(self) -> tuple[State, tuple[Event, ...]]:
        """:meth:`_initial_state`'s state worked out, with the events of its run."""
        rs = self.ruleset
        ctx = Context(rs, {NPLAYERS: self.players}, ply=0, budget=self.max_steps)
        for p in range(self.players):
            for r in rs.resources.values():
                if r.start:
                    ctx.set(("r", r.name, p), r.start)
                    if r.scored:
                        ctx.set(("s", p, "start"), r.start)
            for t in rs.tracks.values():
                if t.start:
                    ctx.set(("t", t.name, p), t.start)
        ctx.set(F_STAGE, 0)
        ctx.set(F_STEP, 0)
        pending: list[Any] = []
        try:
            self._advance(ctx, pending)
        except RuleViolation as err:
            message = err.message.removeprefix(_FLOW_BROKEN)
            raise _error_class(err)(f"the game cannot start: {_broken(message, err.rule or 'setup', err.span, rs)}",
                      rule=err.rule) from None
        values = ctx.merged()
        if len(values) > LIMITS.max_values:
            raise ExecutionBudgetError(f"the game cannot start: {_too_many_values(len(values))}",
                                       rule="setup")
        return State(values, tuple(pending)), tuple(ctx.events)

    # ---- queries ----
    @property
    def over(self) -> bool:
        """True once the flow has finished."""
        return bool(self.state.values.get(F_OVER))

    def players_to_act(self) -> frozenset[int]:
        """The players who may act now (``CHANCE`` when a chance outcome is due; in a
        ``simultaneous`` step everyone yet to act; in a ``lanes`` step, per lane, whoever must
        decide its first pending decision, else its turn's player if they have a legal action
        now: see docs/api.md, "Interleaved turns")."""
        st = self.state
        if st.values.get(F_OVER):
            return frozenset()
        if st.pending and st.pending[0].lane is None:
            return frozenset({st.pending[0].player})
        turn = st.values.get(F_TURN)
        if turn is None:
            return frozenset()
        lanes = st.values.get(F_LANES)
        if lanes is not None:
            return self._lane_actors(st, lanes)
        order, pos, player, _ = turn
        if player is not None:
            return frozenset({player})
        acted = st.values.get(F_ACTED) or ()
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
        turn = values.get(F_TURN)
        if turn is None or values.get(F_LANES) is not None or turn[2] != seat:
            return None
        return bool(turn[3])

    def flow_step(self) -> Step | None:
        """The flow step under way (the ruleset's ``Step``: ``name``, ``kind`` ``"do"`` or
        ``"turns"``, ``mode`` such as ``"until_pass"``), None between steps or once over."""
        v, rs = self.state.values, self.ruleset
        stage_i: int = v.get(F_STAGE, 0)
        step_i: int = v.get(F_STEP, 0)
        if v.get(F_OVER) or stage_i >= len(rs.stages) or step_i >= len(rs.stages[stage_i].steps):
            return None
        return rs.stages[stage_i].steps[step_i]

    def flow_position(self) -> str:
        """Where the flow is, as text: ``"rounds (round 3), step 'actions'"``, ``"setup, step
        'pick'"``; ``"the end"`` once over."""
        v, rs = self.state.values, self.ruleset
        stage_i: int = v.get(F_STAGE, 0)
        if v.get(F_OVER) or stage_i >= len(rs.stages):
            return "the end"
        stage, step = rs.stages[stage_i], self.flow_step()
        where = stage.kind + (f" (round {v.get(F_ROUND)})" if stage.kind == "rounds" else "")
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

    def chance_outcomes(self) -> tuple[tuple[Action, Fraction], ...]:
        """The outcomes of the chance decision now due (:meth:`chance_due`) that the rules
        allow, each with its probability (an exact ``Fraction``; they sum to 1) as the game's
        own draw gives it (``decide_chance``, ``legal_actions().sample``, the seeded draw):
        a ``draw``'s card by its copies in the pile as it is now (copies / the cards allowed), an
        option of ``choose … by chance`` by the times it is listed, each roll of dice alike. An
        outcome the rules refuse (a ``require`` in the decision's body) is left out and the
        others share its probability, as the draw redraws among them (docs/api.md, *Chance*);
        each distinct outcome once, as ``legal_actions()`` lists them, in the order the pile or
        the options first hold them. Empty when no chance outcome is due or the rules allow none;
        ``ExecutionBudgetError`` for a roll of seven dice or more (279,936 outcomes and up:
        rolled, never listed)."""
        d = self.chance_due()
        if d is None:
            return ()
        copies = chance_copies(self, d)
        allowed = {a: n for a, n in ((_candidate(CHANCE, d.label, (v,)), n) for v, n in copies.items())
                   if self.is_legal(a)}
        total = sum(allowed.values())
        return tuple((a, Fraction(n, total)) for a, n in allowed.items())

    def _chance_alone(self, player: int | None) -> Decision | None:
        """The chance decision a sample of ``player``'s (None: everyone to act) actions draws
        from now, else None: the game's decision due is chance's, or, in a 'lanes' step,
        chance's ``player`` asks for and :meth:`chance_due` names it (the first lane's waiting
        for chance: when several are, the one the game's own chance decides first, as
        :meth:`decide_chance` draws it)."""
        pending = self.state.pending
        if not pending or player not in (None, CHANCE) or self.state.values.get(F_OVER):
            return None
        if pending[0].lane is None:
            return pending[0] if pending[0].player == CHANCE else None
        if player is None:
            return None
        return self.chance_due()

    def legal_actions(self, player: int | None = None) -> "LegalActions":
        """A lazy view of the legal actions (of ``player``, else of everyone to act)."""
        return LegalActions(self, None if player is None else self._check_player(player))

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
        values = self.state.values
        sources: list[dict[str, int]] = [{} for _ in range(self.players)]
        for k, v in values.items():   # (one pass: a pass per player took 26 s at 4,000 players)
            if k[0] == "s":
                sources[k[1]][k[2]] = v
        return [{"total": sum(values.get(("r", r, p), 0) for r in scored),
                 "sources": dict(sorted(sources[p].items()))} for p in range(self.players)]

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
            elif key == F_LANES:
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
        ``auto_chance`` is on; when drawing one fails (its redraws run past the listing's
        limit, ``LIMITS.max_listing_steps``; the game's moves would pass ``LIMITS.max_moves`` or its values
        ``LIMITS.max_values``) :class:`~boardrules.errors.ExecutionBudgetError` names the limit and the
        game is exactly as before the play (state, record, log, undo history). When the rules
        allow no outcome at all, the action stays played and chance waits (the game is stuck:
        :class:`~boardrules.errors.GameStuckError` from :meth:`legal_actions`). Any exception
        (a ``KeyboardInterrupt`` too) before the move and its chance outcomes are all written
        leaves the game exactly as before (docs/api.md).
        """
        if type(action) is not Action:   # (text, or not an action: the call says which)
            action = self._action(action)
        mark = (self.state, len(self._history), self._kept, len(self.record.actions), len(self.log))
        try:   # (whole or not at all, also on a KeyboardInterrupt amid _commit or before the chance)
            self._apply(action, check)
            if self.state.pending:   # (no chance outcome is due without a pending decision)
                try:
                    self._auto()
                except ExecutionBudgetError as err:
                    raise ExecutionBudgetError(f"{brief_action(action)}: {err} (the move is not played)",
                                               rule=err.rule, action=action) from None
        except BaseException:
            self._back_to(mark)
            raise
        self._thin_if_held()

    def _back_to(self, mark: tuple[State, int, int, int, int]) -> None:
        """The game as it was at ``mark`` (:meth:`play`'s, before its action): the moves
        applied since then taken back without a trace (no ``undo`` event)."""
        self.state, nhist, self._kept, nrec, nlog = mark
        del self._history[nhist:], self.record.actions[nrec:], self.log[nlog:]

    def _action(self, action: "Action | str") -> "Action":
        """``action`` as an :class:`Action` (text is parsed); ``TypeError`` for anything else."""
        if isinstance(action, str):
            return self.parse(action)
        if not isinstance(action, Action):
            raise TypeError(f"an action is an Action or its text such as 'p1 study', "
                            f"not {action!r}")
        return action

    def _auto(self) -> None:
        """The chance outcomes now due, drawn by the game's seeded generator (``auto_chance``);
        ExecutionBudgetError when a draw runs into a limit (:meth:`decide_chance`)."""
        # (chance_due is None while nothing is pending: the common case, without the call)
        while self.auto_chance and self.state.pending and self.chance_due() is not None:
            if not self._decide_chance(random.Random(f"{self.seed}/{len(self.record.actions)}")):
                break   # (stuck, as legal_actions() says; the action that led here stays played)

    def decide_chance(self, rng: random.Random) -> bool:
        """Play the chance outcome now due, drawn with ``rng`` as the game's own generator
        draws it (docs/api.md, *Chance*): the first draw the rules allow. False, and nothing
        played, when no chance outcome is due or the rules allow none (the game is stuck) or
        a bag emptied since the draw was queued. Bots decide chance in their look-ahead so.
        :class:`~boardrules.errors.ExecutionBudgetError`, nothing played, when the draws run
        into a limit: their runs (redraws included) past the listing's, ``LIMITS.max_listing_steps``;
        the game's moves at ``LIMITS.max_moves``; the outcome drawn would make the game hold more than
        ``LIMITS.max_values`` values (the limits are the engine's, not a rule refusing the outcome)."""
        mark = (self.state, len(self._history), self._kept, len(self.record.actions), len(self.log))
        try:   # (whole or not at all, as play: also on a KeyboardInterrupt amid _commit)
            drawn = self._decide_chance(rng)
        except BaseException:
            self._back_to(mark)
            raise
        self._thin_if_held()
        return drawn

    def _decide_chance(self, rng: random.Random) -> bool:
        """:meth:`decide_chance`, the undo history left unthinned (:meth:`play` may take it back)."""
        d = self.chance_due()
        if d is None:
            return False
        self._check_moves(Action(CHANCE, d.label, ()))
        self._meter.left = LIMITS.max_listing_steps   # (its redraws share one listing's budget)
        for value in _chance_draws(self, d, rng):
            action = Action(CHANCE, d.label, (value,))
            try:
                new_state, events = self._try(action, check=False)
            except IllegalActionError:
                # (the rules refuse it: it is not among chance's legal actions)
                if self._meter.left < 0:   # (its runs are charged as a listing's tries)
                    raise self._over_listing(d) from None
                continue
            self._commit(action, new_state, events)
            return True
        return False

    def canonical(self, action: Action) -> str:
        """The canonical text of ``action`` (player-typed arguments written ``pN``)."""
        if action.player == CHANCE or action.name not in self.ruleset.player_params:
            return format_action(action)
        adef = self.ruleset.actions[action.name]
        args = tuple(f"p{v + 1}" if p.type.name == "player" and isinstance(v, int) else v
                     for p, v in zip(adef.params, action.args))
        return format_action(Action(action.player, action.name, args))

    # ---- undo, records ----
    def undo(self) -> None:
        """Take back the last player action (and the chance outcomes that followed it): the
        log loses their events and gains an ``undo`` event whose detail is the texts of the
        moves taken back (docs/api.md). Raises :class:`IllegalActionError` when no player has
        acted."""
        if not any(not self.record.actions[nrec].startswith("chance ")
                   for _, nrec, _ in self._history):
            raise IllegalActionError("nothing to undo: no player has acted yet", rule="undo")
        # (the state to go back to first, then the changes: a KeyboardInterrupt in the replay of a
        # thinned history left the record cut and the state as it was, diverged)
        h, actions = self._history, self.record.actions
        back = len(h) - 1
        while back > 0 and h[back][1] < len(actions) and actions[h[back][1]].startswith("chance "):
            back -= 1
        state, nrec, nlog = h[back]
        state = self._replayed(nrec, back) if state is None else state
        undone = tuple(actions[nrec:])
        self._kept -= sum(len(s.values) for s, _, _ in h[back:] if s is not None)
        del h[back:], actions[nrec:], self.log[nlog:]
        self.state = state
        self.log.append(Event(len(actions), "undo", None, undone, "undo"))

    def candidates(self, player: int | None = None) -> Iterator[Action]:
        """Every action worth trying now (legal or not), of ``player`` or of everyone to act;
        :class:`LegalActions` filters them. ``ValueError`` for no player of the game."""
        player = self._check_player(player)
        self._meter.left = LIMITS.max_listing_steps   # (a listing begins)
        return self._candidates(player, False)

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

    @classmethod
    def from_record(cls, record: Record, *, check: bool = True,
                    max_steps: int | None = None, auto_chance: bool = True) -> "Game":
        """Replay ``record`` (with legality checks unless ``check=False``; ``max_steps``:
        the execution budget per action, as for :func:`new_game`). A record built in Python
        is held to the shape of one read from a file (:class:`NotationError` naming each
        field of the wrong type: ``modules="weather"`` was read as its letters).
        ``auto_chance``: the loaded game's, for the moves played after loading (the record
        holds every outcome so far; one due at its end stays due, to be played or decided).
        :class:`~boardrules.errors.ExecutionBudgetError` naming the move once the moves took
        more than ``LIMITS.max_replay_steps`` steps in all or made more than
        ``LIMITS.max_replay_events`` events (a record from a stranger must not run for hours at
        ``max_steps`` a move, nor fill the memory with its log)."""
        if not isinstance(record, Record):
            raise TypeError(f"from_record needs a Record, not {brief_text(record, 40)}")
        if not isinstance(auto_chance, bool):   # (before the replay, not after it)
            raise TypeError(_not_a_bool(auto_chance))
        record = record.checked()
        # (options a house rule declares exist only with the house rules: both at once)
        rs = build_ruleset(record.game, modules=plugins.exactly(record.game, record.modules),
                           options=None if record.rules else record.options,
                           texts=dict(record.texts) if record.texts else None)
        if record.rules:
            from ..ruleset import _frozen, _rebuild
            rs = _rebuild(attrs.evolve(rs.recipe, rules=tuple(map(tuple, record.rules)), options=tuple(
                sorted((k, _frozen(v, k)) for k, v in record.options.items()))))
        try:
            game = cls(rs, record.players, record.seed, auto_chance=False, max_steps=max_steps)
        except ExecutionBudgetError as err:   # (the budget, not the record: kept apart)
            raise ExecutionBudgetError(f"this record cannot start a game: {err}", rule=err.rule) from None
        except ValueError as err:
            raise NotationError(f"this record cannot start a game: {err}") from None
        left, meter = LIMITS.max_replay_steps, game._meter
        for i, text in enumerate(record.actions, 1):
            meter.left = LIMITS.max_listing_steps   # (the move's runs charge it: what it spent)
            try:
                game.play(text, check=check)
            except IllegalActionError as err:
                raise type(err)(f"move {i}: {err}{_changed_note(record, rs)}", rule=err.rule,
                                action=err.action) from None
            except (NotationError, TypeError) as err:  # text that is not a move (of these rules)
                raise NotationError(f"move {i}: {err}{_changed_note(record, rs)}") from None
            left -= LIMITS.max_listing_steps - meter.left
            if left < 0 or len(game.log) > LIMITS.max_replay_events:
                raise ExecutionBudgetError(f"move {i}: the record's moves so far " + (
                    f"took more than {LIMITS.max_replay_steps} steps in all, the most one replay may "
                    f"({raise_with('max_replay_steps')})" if left < 0 else
                    f"made more than {LIMITS.max_replay_events} events (game.log), the most one "
                    f"replay may ({raise_with('max_replay_events')})"), rule="replay")
        game.auto_chance = auto_chance
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
                            r.actions.copy(), r.final, r.ruleset, r.sources)
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


def new_game(game: str | None = None, *, players: int, seed: int | str = 0,
             modules: str | Iterable[str] = (), options: Mapping[str, Any] | None = None,
             rules: str | os.PathLike[str] | Iterable[str | os.PathLike[str]] = (),
             texts: Mapping[str, str] | None = None, backend: str = "compiled",
             max_steps: int | None = None, auto_chance: bool = True) -> Game:
    """Start a game: the one obvious entry point.

    ``game``: an installed game's name (``boardrules plugins`` lists them) or None with
    ``texts`` (rule files as ``{path: text}``); ``players``: the player count; ``seed``:
    decides chance outcomes not given explicitly; ``modules``: module ids to switch on
    (default modules are on; ``"-ID"`` switches one off; requirements come along);
    ``options``: option values; ``rules``: house-rule file paths; ``max_steps``: the
    execution budget, the steps (loop iterations, list elements walked or built, rules
    run) one action or the setup may take before
    :class:`~boardrules.errors.ExecutionBudgetError` stops it; ``auto_chance``: the game
    decides chance outcomes from ``seed`` (False: you play the ``chance`` actions, setup's
    included).
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
    return Game(rs, players, seed, auto_chance=auto_chance, max_steps=max_steps)


def _not_a_bool(auto_chance: object) -> str:
    """The ``TypeError`` message for an ``auto_chance`` that is not a bool."""
    return f"auto_chance must be True or False, not {brief_text(auto_chance, 40)}"


def load_game(text: str, *, check: bool = True, max_steps: int | None = None,
              auto_chance: bool = True) -> Game:
    """Rebuild a game from :meth:`Game.save` output by replaying its record (``check=False``:
    without legality checks, for trusted saves; ``auto_chance=False``: you go on playing the
    ``chance`` actions, as :func:`new_game`'s).

    ``text``: the JSON text (a str, or its bytes); a pickle is never unpickled. Raises
    ``TypeError`` for anything else (``None``, a ``Game``),
    :class:`~boardrules.errors.NotationError` (text that is not a record, a pickle, a move that
    does not parse), :class:`~boardrules.errors.IllegalActionError` naming the first illegal
    move (:class:`~boardrules.errors.ExecutionBudgetError` where the setup or a move needs
    more than ``max_steps``: a game played with a larger budget, or the moves all together more
    than ``LIMITS.max_replay_steps`` or more events than ``LIMITS.max_replay_events``), and
    :class:`~boardrules.errors.ReplayMismatch` (``move`` None) when the moves replay to a state
    other than the save's ``final`` digest: the save was altered, or the rules changed since (``Game.from_record(Record.loads(text))`` loads it without this check)."""
    record = Record.loads(text)
    game = Game.from_record(record, check=check, max_steps=max_steps, auto_chance=auto_chance)
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
    changed = rules_changed(record, game.ruleset)
    why = (f"; the rules changed since it was written: {changed}" if changed else
           "; the record was altered, or this version of boardrules plays its moves differently")
    return (f"after its {n} move{'' if n == 1 else 's'} the state digest is {digest}, the record "
            f"says {brief_value(record.final)}{why}")


def rules_changed(record: Record, ruleset: Ruleset) -> str:
    """How ``ruleset`` (the rules ``record`` is replayed with) differs from the rules that wrote
    it, in words, or ``""`` when they are the same: each rule file the record's ``sources``
    list that is gone (a plugin's, with the plugin not installed now or no longer giving it),
    changed (its digests then and now) or new, at most :data:`SHOWN_CHANGES` of them; for a
    record without ``sources`` (saved before they were kept), the two rulesets' ids."""
    if not record.ruleset or record.ruleset == ruleset.id:
        return ""
    ids = f"ruleset {brief_value(record.ruleset)} then, {ruleset.id} now"
    if not record.sources:
        return ids
    then = {(s.layer, s.name, s.file): s.digest for s in record.sources}
    now = {(s.layer, s.name, s.file): s.digest for s in ruleset.sources}
    installed = {name for name, _ in plugins.manager().list_name_plugin()}
    said: list[str] = []
    for (layer, name, file), digest in then.items():
        whose, shown = _whose(layer, name), brief_text(file, 80)
        if (layer, name, file) not in now:
            said.append(f"{whose} is not installed (it gave the rule file {shown})"
                        if layer == "plugin" and name not in installed else
                        f"{whose} no longer gives the rule file {shown}")
        elif now[layer, name, file] != digest:
            said.append(f"the rule file {shown} of {whose} changed (digest {brief_value(digest, 20)} "
                        f"then, {now[layer, name, file]} now)")
    said += [f"{_whose(*k[:2])} gives the rule file {brief_text(k[2], 80)}, which the record's rules "
             f"did not have" for k in now if k not in then]
    more = f"; and {len(said) - SHOWN_CHANGES} more" if len(said) > SHOWN_CHANGES else ""
    return "; ".join(said[:SHOWN_CHANGES]) + more if said else f"{ids} (the same rule files)"


def _changed_note(record: Record, ruleset: Ruleset) -> str:
    """What a replayed move's error ends with when the rules changed since ``record`` was
    written (:func:`rules_changed`), else ``""``."""
    changed = rules_changed(record, ruleset)
    return f" (note: the rules changed since this record was written: {changed})" if changed else ""


def _whose(layer: str, name: str) -> str:
    """Who gives a rule file, for :func:`rules_changed`: ``plugin 'NAME'``, ``module 'ID'``,
    ``game 'NAME'``; the record's rule texts or house rules."""
    if layer in ("texts", "house"):
        return "the record's " + ("rule texts" if layer == "texts" else "house rules")
    return f"{layer if layer in LAYERS else f'layer {brief_text(layer, 20)}'} {brief_text(name, 60)}"


SHOWN_CHANGES = 6
"""The most rule files :func:`rules_changed` names (a game's every file changed: a new version)."""
