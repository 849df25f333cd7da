# mypy: disable-error-code="misc"
# (its methods take self: Game, the class built from the mixins: mypy calls that "misc")
"""The listing of candidates: the arguments a rule allows, the compiled and generic candidate
listers, the listing meter (:class:`_Meter`: steps a listing may still spend), the lazy
:class:`LegalActions` view and the draws of chance outcomes."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from typing import TYPE_CHECKING, Any, Iterator, NoReturn, overload

from ..limits import LIMITS
from ..errors import (BoardrulesError, ExecutionBudgetError, GameStuckError, IllegalActionError, NotationError,
                      PrimitiveError, RuleFailedError)
from ..lang import semantics as S
from ..quoting import MESSAGE, brief_text, brief_value, counted
from ..ruleset import Step
from ..runtime import (CHANCE, F_LANES, F_OVER, F_TURN, BudgetExceeded, Context, Decision,
                       Dice, RuleViolation)
from .actions import Action, DONE, _FLOW_BROKEN, _Unlisted, _answer, _answers, _broken, _candidate, _who
from ..state import State
from .notation import _bag
from .verdicts import _UNSEEN

if TYPE_CHECKING:
    from .core import Game


# A stuck game's error: the candidates it tries, of one action at most (while others wait),
# and the actions whose refusal its message shows
_STUCK_TRIES, _STUCK_EACH, _STUCK_SHOWN = 200, 20, 4
# The refusals that are defects of the rules or a plugin, not the rules saying no: shown first.
_DEFECTS = (ExecutionBudgetError, PrimitiveError, RuleFailedError)
_TEXT_ONLY = {str}


def _some_of_each(candidates: Iterator[Action]) -> list[Action]:
    """At most ``_STUCK_TRIES`` of ``candidates``, at most ``_STUCK_EACH`` of an action's while
    the listing holds others (an action of 500 argument values tried alone hid the next one's
    refusal); of the first ``LIMITS.max_candidates`` listed."""
    tries: list[Action] = []
    held: Counter[str] = Counter()
    for action in itertools.islice(candidates, LIMITS.max_candidates):
        if held[action.name] < _STUCK_EACH:
            held[action.name] += 1
            tries.append(action)
            if len(tries) == _STUCK_TRIES:
                break
    return tries


def _refusals(game: Game, tries: list[Action]) -> tuple[IllegalActionError, ...]:
    """Why each of the actions ``tries`` holds is refused, one error per action's name (its
    first; a later one for a defect: the execution budget run out, a primitive's failure): the
    rule each breaks, with its position. A refusal by the flow (a step run after the action
    breaks a rule) alone: that is the rule to mend. The defects first, then the order tried."""
    found: dict[str, IllegalActionError] = {}
    for action in tries:
        try:
            game._try(action)
        except IllegalActionError as err:
            if _FLOW_BROKEN in str(err):
                return (err,)
            known = found.get(action.name)
            if known is None or isinstance(err, _DEFECTS) and not isinstance(known, _DEFECTS):
                found[action.name] = err
    return tuple(sorted(found.values(), key=lambda err: not isinstance(err, _DEFECTS)))


class _Meter:
    """What the listing now running may still spend (``left``, steps: below 0 once its tries
    spent more than ``LIMITS.max_listing_steps``; Game._charge). Each listing sets it anew, and any run
    charges it (a run outside a listing too: the next listing starts afresh); copies of a game
    share it (they list one at a time)."""

    __slots__ = ("left",)

    def __init__(self) -> None:
        self.left = LIMITS.max_listing_steps

    def spend(self, ctx: Context) -> None:
        """Charge the steps the run on ``ctx`` spent (``ctx.budget - ctx.steps``), without
        raising: runs charge it in ``finally`` blocks, where an error would be taken for the
        action's refusal; the listing looks at ``left`` after the try (Game._charge raises)."""
        self.left -= ctx.budget - ctx.steps


class LegalActions:
    """Lazy view of the legal actions: ``in`` tests one action, iteration and ``len``
    try each candidate once (the result is cached) and list each legal action once (a value
    that a parameter's domain or a decision's options hold twice too), :meth:`sample` draws
    one uniformly (chance's outcomes by the draw's odds, a pile's card by its copies: their
    probabilities are :meth:`Game.chance_outcomes`).
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
        game, state, player = self._game, self._state, self._player
        if game.state is not state:
            self._fresh()
        found, known, info = self._cache, None, None
        if found is None:   # (as Game._turn_legal begins: one helper for both cost Harvest +0.57%)
            known = game._known_for(state, create=True)
            assert known is not None  # (created when missing)
            found = known.listed.get(player)
            if found is None:
                game._meter.left = LIMITS.max_listing_steps   # (a listing begins: Game._charge)
                info = game._turn_info()
                if info is None:
                    found = game._all_answers(player)
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
            # (each candidate is met once: a domain that may hold a value twice is made
            # unique where it is listed, Ruleset.param_repeats, and a decision's options too)
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
        order of the candidates is uniform over the legal ones). When the actions are the
        outcomes of one chance decision, one is drawn as the game's own chance draws it
        (:meth:`Game.decide_chance`): by the decision's distribution (a bag's copies, each die)
        among the outcomes the rules allow, without listing them (7 dice and more, whose
        outcomes are not listed, are rolled). Raises ``IndexError`` when
        there is no legal action (:class:`~boardrules.errors.GameStuckError` when nobody can
        act and the game is not over), :class:`~boardrules.errors.ExecutionBudgetError` when
        the tries run past the listing's limit. The same answer for the same state and ``rng`` state.
        ``TypeError`` for an ``rng`` without ``randrange`` (None, a seed, NumPy's generator)."""
        if not callable(getattr(rng, "randrange", None)):
            raise TypeError(f"sample needs a random.Random, such as random.Random(7), not {brief_text(rng, 40)}")
        self._fresh()
        game = self._game
        known = game._known_for(self._state, create=True)
        assert known is not None  # (created when missing)
        listed = self._cache if self._cache is not None else known.listed.get(self._player)
        d = game._chance_alone(self._player)
        if d is not None:
            return self._sample_chance(d, rng, listed, known.runs)
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

    def _sample_chance(self, d: Decision, rng: random.Random, listed: list[Action] | None,
                       runs: dict[Action, Any]) -> Action:
        """:meth:`sample` of the outcomes of chance's decision ``d`` (``listed``: the legal
        actions when known): the first of :func:`_chance_draws` that is legal."""
        game = self._game
        game._meter.left = LIMITS.max_listing_steps   # (a listing begins: its tries share the limit)
        legal = None if listed is None else set(listed)
        for value in _chance_draws(game, d, rng):
            action = _candidate(CHANCE, d.label, (value,))
            if legal is not None:
                if action in legal:
                    return action
            elif action in runs or game._candidate_legal(action, runs, False):
                return action
            if game._meter.left < 0:
                raise game._over_listing(d)
        if isinstance(d.options, Dice) and d.bag is None and len(d.options) > _DICE_LISTED:
            raise ExecutionBudgetError(
                f"drawing chance's outcome for '{d.label}': the rules refused each of the "
                f"{1 + _DICE_REDRAWS} rolls of {d.options.count} dice drawn (rolls of more than "
                f"{_DICE_LISTED} outcomes are redrawn at most {_DICE_REDRAWS} times, not listed)",
                rule=d.label)
        if self._player is None and not game.over:
            raise game._stuck()
        raise IndexError("no legal action to sample")

    def _all(self) -> list[Action]:
        """Every legal action, listed once (``RuntimeError`` once the game moved on: ``len``,
        indexing and ``repr`` answered from the list of the earlier state)."""
        if self._cache is None:
            game = self._game
            # (a turn's actions made and settled in one call, or a decision's answers, when the
            # view is of the game's state: list() then walks them once)
            found = game._turn_legal(self._state, self._player) if game.state is self._state else None
            if found is not None:
                self._cache = found
            else:
                for _ in self:   # (it tests that the game has not moved on)
                    pass
        elif self._game.state is not self._state:
            self._fresh()
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
        outcomes = _drawn_from(game, d)
        if not outcomes:
            return
        value = rng.choice(outcomes)
        yield value
    yield from _redraws(outcomes, value, rng)


def _drawn_from(game: Game, d: Decision) -> tuple[Any, ...]:
    """What chance's draw for ``d`` (not a roll of dice) picks one element of, each alike: the
    bag as it is now (a card held three times three times), else the decision's options (an
    option listed twice twice)."""
    return _bag(game, d.bag) if d.bag is not None else tuple(d.options)


def chance_copies(game: Game, d: Decision) -> Counter[Any]:
    """Each outcome of chance's decision ``d`` with its weight in the draw (:func:`_chance_draws`):
    its copies in the bag or the options, 1 for each roll of dice. ``ExecutionBudgetError`` for a
    roll of more than ``_DICE_LISTED`` outcomes (seven dice or more: rolled, never listed)."""
    if isinstance(d.options, Dice):
        if len(d.options) > _DICE_LISTED:
            raise ExecutionBudgetError(
                f"chance's outcomes for '{d.label}': a roll of {d.options.count} dice has "
                f"{len(d.options)} outcomes, more than the {_DICE_LISTED} listed (it is rolled: "
                f"legal_actions().sample draws one)", rule=d.label)
        return Counter(dict.fromkeys(d.options, 1))
    return Counter(_drawn_from(game, d))


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


class GameListing:
    """How a :class:`Game` lists its candidates (a mixin)."""

    def _stuck(self: Game) -> GameStuckError:
        """The error for a state where nobody can act and the game is not over: where the
        flow is (stage, round, step) and the decision or turn that has no legal action."""
        v = self.state.values
        step = self.flow_step()   # (None while a `do` step's decision waits: it has moved on)
        acts = "" if step is None else ", ".join(step.main + step.free)
        where = self.flow_position()
        pending = self.state.pending
        turn = v.get(F_TURN)
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
        tries = _some_of_each(self.candidates(None))
        if not tries and not pending and turn is not None and turn[2] is not None and step is not None:
            first = self._unchecked_candidate(turn[2], step)   # (every value's 'where' failed)
            tries = [] if first is None else [first]
        refusals = _refusals(self, tries)
        shown = [str(err).strip() for err in refusals[:_STUCK_SHOWN]]
        if len(refusals) > _STUCK_SHOWN:
            shown.append(f"and {counted(len(refusals) - _STUCK_SHOWN, 'other action')}")
        why = f"e.g. {'; '.join(shown)}" if shown else "a rule that can never be met?"
        return GameStuckError(f"nobody can act and the game is not over: {where}: {what} ({why})",
                              refusals=refusals)

    def _unchecked_candidate(self: Game, player: int, step: Step) -> Action | None:
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

    def _domain(self: Game, ctx: Any, adef: Any, i: int) -> Any:
        """The values parameter ``i`` of ``adef`` may take (earlier ones bound in ctx.env)."""
        dom = ctx.rs.param_domains[adef.name][i]
        if dom is not None:   # (each value once, Ruleset.param_repeats; a plugin's collection
            values = S.domain(ctx, dom(ctx))   # kept: its own 'in', Gaia's FederationChoices)
            return tuple(dict.fromkeys(values)) \
                if type(values) is tuple and ctx.rs.param_repeats[adef.name][i] else values
        t = adef.params[i].type.name
        if t == "player":
            return tuple(range(ctx.np))
        if t == "hex":
            return ctx.get(("v", "hexes")) or ()
        if t == "bool":
            return (False, True)
        return ctx.rs.by_kind.get(t, ())

    def _arg_tuples(self: Game, ctx: Any, adef: Any, i: int = 0, bound: tuple[Any, ...] = (),
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

    def _candidates(self: Game, player: int | None, hoist: bool, compiled: bool = True,
                    info: Any = _UNSEEN) -> Iterator[Action]:
        """:meth:`candidates`; ``hoist``: without the turn's actions whose prechecks that do not
        depend on the arguments fail (lang/guards.py, ``hoisted``: each of those candidates is
        illegal), the way :class:`LegalActions` lists them (``compiled``: by the turns step's
        generated listing, lang/listgen.py). The iterator of the part that lists them (no
        generator of its own around it: a listing resumes it once per candidate). ``info``:
        :meth:`_turn_info`, when the caller has it."""
        st = self.state
        if st.values.get(F_OVER):
            return iter(())
        if st.pending and st.pending[0].lane is None:
            return self._decision_candidates(st.pending[0], player)
        turn = st.values.get(F_TURN)
        if turn is None:
            return iter(())
        ctx = Context(self.ruleset, st.values, None, 0, self.max_steps)   # (positional: Game._scratch)
        lanes = st.values.get(F_LANES)
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

    def _actors_candidates(self: Game, ctx: Any, step: Any, player: int | None, main_done: bool,
                           hoist: bool, compiled: bool) -> Iterator[Action]:
        """:meth:`_turn_candidates` of each player to act (of ``player`` only, unless None)."""
        for p in sorted(self.players_to_act()):
            if player is None or p == player:
                yield from self._turn_candidates(ctx, step, p, main_done, hoist, compiled)

    def _turn_legal(self: Game, state: State, player: int | None) -> list[Action] | None:
        """:class:`LegalActions`' list of ``player``'s legal actions in ``state``, the game's
        state, made in one call as iterating lists them: the actions of one player's turn listed
        by its step's generated listing, made and settled at once (lang/listgen.py,
        ``settling``), the listing's candidates made by ``_turn_candidates`` and each tried by
        ``_candidate_legal``; the answers to a decision when all are legal untried
        (:meth:`_all_answers`). None in the other cases (a decision's answers to be tried, a
        simultaneous or 'lanes' step, ``action_begins`` rules, a step listed the generic way):
        iterating lists them."""
        known = self._known_for(state, create=True)
        assert known is not None  # (created when missing)
        found = known.listed.get(player)
        if found is None:
            self._meter.left = LIMITS.max_listing_steps   # (a listing begins: Game._charge)
            info = self._turn_info()
            rs = self.ruleset
            if info is None:   # (a decision: its answers when all are legal untried)
                found = self._all_answers(player)
                if found is None:
                    return None
            elif info[1][2] is None or "action_begins" in rs.triggers_by_event:
                return None
            elif player is not None and player != info[1][2]:
                found = []
            else:
                who = info[1][2]
                lister = rs.step_lister(info[0], settling=True)
                if lister is None:
                    return None
                found = lister(self, info[3], who, info[1][3], self._listing_budget_error, known.runs,
                               info, self._candidate_legal)
            known.listed[player] = found
        if not found and player is None and not self.over:
            raise self._stuck()
        return found

    def _all_answers(self: Game, player: int | None) -> list[Action] | None:
        """``player``'s answers to the decision due when every one of them is legal untried, as
        :meth:`_candidate_legal` would find one by one (:meth:`_answers_all_legal`): listed at
        once, no run kept (:meth:`_try` keeps the one played; an Eclipse Upgrade offers about
        100); else None. Called as a listing begins (its meter set by the caller)."""
        return list(self._candidates(player, True)) if self._answers_all_legal() else None

    def _decision_candidates(self: Game, d: Decision, player: int | None) -> Iterator[Action]:
        """The answers to decision ``d`` (none unless ``player`` is None or its decider): made at
        once when more than 8 texts (an Upgrade's ~140: a listing then walks a list in C), else
        one by one (:meth:`_each_answer`)."""
        opts = d.options
        if d.bag is None and type(opts) is tuple and len(opts) > 8 and player in (None, d.player):
            texts = dict.fromkeys(opts)   # (each answer once: the values hashed, not the actions)
            if len(texts) > 8 and {*map(type, texts)} == _TEXT_ONLY:
                found = _answers(d.player, d.label, texts)
                if d.optional:
                    found.append(_candidate(d.player, d.label, ()))
                return iter(found)
        return self._each_answer(d, player)

    def _each_answer(self: Game, d: Decision, player: int | None) -> Iterator[Action]:
        """:meth:`_decision_candidates`, one by one (the cards of a bag, each roll of dice)."""
        if player is not None and player != d.player:
            return
        opts = d.options
        if d.bag is not None:
            opts = tuple(dict.fromkeys(_bag(self, d.bag)))
        elif type(opts) is tuple:
            opts = dict.fromkeys(opts)   # (each answer once: the values hashed, not the actions)
        elif isinstance(opts, Dice) and 6 ** opts.count > LIMITS.max_candidates:   # (7 dice and more;
            raise ExecutionBudgetError(                                   # len() overflows past 24)
                f"listing the answers to '{d.label}': the {6 ** opts.count} outcomes of {opts.count} dice "
                f"are more than the {LIMITS.max_candidates} to try (the listing's limit): the game's own "
                "chance (auto_chance) rolls them, or play one outcome", rule=d.label)
        for o in opts:
            yield _answer(d.player, d.label, o)
        if d.optional:
            yield _candidate(d.player, d.label, ())

    def _turn_candidates(self: Game, ctx: Any, step: Any, p: int, main_done: bool,
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
            return lister(self, ctx, p, main_done, pctx,  # type: ignore[no-any-return]
                          self._listing_budget_error)
        return self._generic_candidates(ctx, step, p, main_done, hoist, pctx)

    def _generic_candidates(self: Game, ctx: Any, step: Any, p: int, main_done: bool, hoist: bool,
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
                    if n == LIMITS.max_candidates:
                        raise BudgetExceeded(f"more than {LIMITS.max_candidates} argument combinations "
                                             "to try (the listing's limit)", ctx.source, adef.span)
                    if check is not None and pctx is not None \
                            and self._precheck_fails(adef, p, args, pctx, check):
                        continue
                    yield _candidate(p, name, args)
            except BudgetExceeded as err:
                self._listing_budget_error(name, err)
        if main_done and step.free:
            yield _candidate(p, DONE, ())

    def _charge(self: Game, left: int) -> None:
        """Charge the listing now running for a try that left ``left`` of its ``max_steps``;
        raise its :meth:`_over_listing` error once its tries have spent more than its budget."""
        meter = self._meter
        meter.left -= self.max_steps - left
        if meter.left < 0:
            raise self._over_listing()

    def _over_listing(self: Game, chance: Decision | None = None) -> ExecutionBudgetError:
        """The error of the listing now running (drawing an outcome of ``chance``, if given),
        whose tries spent more than ``LIMITS.max_listing_steps`` in all (the game is as it was: a
        listing changes nothing)."""
        what = "listing the legal actions" if chance is None \
            else f"drawing chance's outcome for '{chance.label}'"
        return ExecutionBudgetError(
            f"{what}: the candidates tried took more than {counted(LIMITS.max_listing_steps, 'step')} "
            f"in all (the listing's limit; each may take up to max_steps, here {self.max_steps}): "
            "rules that take many steps for each of many candidates", rule="listing")

    def _listing_budget_error(self: Game, name: str, err: BudgetExceeded) -> NoReturn:
        """Raise the error of listing action ``name``'s arguments past the execution budget
        or the listing's limit (``err``)."""
        raise ExecutionBudgetError(
            f"listing the arguments of '{name}': {_broken(err.message, name, err.span, self.ruleset)}",
            rule=name) from None
