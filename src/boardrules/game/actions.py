"""Actions as values and as text: :class:`Action`, the listing's fast candidate maker, the
text forms (:func:`brief_action`, :func:`format_action`) and the wording of refusals and of a
broken flow."""

from __future__ import annotations

import os
from collections.abc import Collection
from typing import Any, NamedTuple

from ..limits import LIMITS
from ..errors import ExecutionBudgetError, IllegalActionError, PrimitiveError, RuleFailedError
from ..lang import ast as A
from ..lang import semantics as S
from ..quoting import MESSAGE, QUOTE, as_int, brief_text, brief_value, format_value, rules_value
from ..ruleset import Ruleset
from ..runtime import (CHANCE, BudgetExceeded, Context, Decision, PrimitiveFailed, RuleFailed, RuleViolation,
                       TooDeep)


DONE = "done"
# What a flow step's failure says (a candidate that ends a turns step runs the flow on): a stuck
# game's error tries up to _STUCK_TRIES candidates to name such a failure, the rule to mend.
_FLOW_BROKEN = "the game cannot go on: "


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
    if isinstance(value, (tuple, list)) and not isinstance(value, Action):
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


class _Fields(NamedTuple):
    player: int
    name: str
    args: tuple[Any, ...] = ()


class Action(_Fields):
    """One move: ``player`` (0-based; ``CHANCE`` = -1 for chance), ``name`` (an action,
    a decision's label, or ``done``) and ``args`` (a tuple; empty to decline an
    optional decision; a single text is one argument). Whole numbers of other integer
    types (NumPy's) are kept as ints. Raises ``TypeError`` for values of the wrong type and
    ``ValueError`` for a player below ``CHANCE``. Two actions are equal when their arguments
    are equal and of the same types: ``p1 sell true`` is not ``p1 sell 1`` (Python's
    ``True == 1`` found the one listed for the other, played as a number). Never equal to a
    plain tuple, and not ordered."""

    # (a tuple underneath: the engine makes and hashes actions by the thousand, and a tuple is
    # made and hashed in C, where a class of slots took a Python call for each: about 7% of a
    # Harvest decision's instructions)
    __slots__ = ()

    def __new__(cls, player: int, name: str, args: Any = ()) -> Action:
        # one cheap test on the common case
        if type(player) is not int or player < CHANCE or type(name) is not str \
                or type(args) is not tuple or not _PLAIN.issuperset(map(type, args)):
            player = _action_player(player)
            _action_name(name)
            args = _action_args(args)
        return _new_tuple(cls, (player, name, args))

    __hash__ = tuple.__hash__   # (in C: see above; equal actions hold equal tuples)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not Action:   # (a plain tuple would compare as one, from either side)
            return False if isinstance(other, tuple) else NotImplemented
        return _tuple_eq(self, other) and _same_kinds(self[2], other[2])   # type: ignore[index]

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def _unordered(self, other: object) -> bool:
        raise TypeError("actions have no order")

    __lt__ = __le__ = __gt__ = __ge__ = _unordered   # type: ignore[assignment]

    def __str__(self) -> str:
        return format_action(self)


_new_tuple = tuple.__new__
_tuple_eq = tuple.__eq__


def _same_kinds(a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
    """Whether the equal tuples ``a`` and ``b`` hold values of the same types, at every depth."""
    # (a loop, not all() over a generator: every equality of actions comes here)
    if a is b:
        return True
    for x, y in zip(a, b):
        t = type(x)
        if t is not type(y) or t is tuple and not _same_kinds(x, y):
            return False
    return True


def _candidate(player: int, name: str, args: tuple[Any, ...]) -> Action:
    """``Action(player, name, args)`` for the engine's own candidates, whose values are of the
    right types by construction: made without the type checks."""
    return _new_tuple(Action, (player, name, args))   # type: ignore[no-any-return]


# The answers to decisions whose options are texts, one Action kept per (decider, label, text):
# a listing of an Eclipse Upgrade offers ~140 of them and lists them again at each step;
# kept, an answer is not rebuilt. Bounded:
# started afresh past MAX_ANSWERS (hostile rules may offer texts without end).
MAX_ANSWERS = 20_000
_ANSWERS: dict[tuple[int, str], dict[str, Action]] = {}   # (decider, label) -> text -> Action
_KEPT = [0]   # how many _ANSWERS holds


def _answer(player: int, label: str, option: Any) -> Action:
    """``_candidate(player, label, (option,))``: the answer ``option`` to decision ``label`` of
    ``player``, the same Action each time for a text option (``_ANSWERS``)."""
    if type(option) is not str:   # (other values: 1 == True would share a key)
        return _candidate(player, label, (option,))
    return _answers(player, label, (option,))[0]


def _answers(player: int, label: str, options: Collection[str]) -> list[Action]:
    """:func:`_answer` of each of ``options``, all texts (the kept ones looked up in C)."""
    kept = _ANSWERS.get((player, label))
    if kept is None or not all(map(kept.__contains__, options)):
        if _KEPT[0] >= MAX_ANSWERS:
            _ANSWERS.clear()
            _KEPT[0] = 0
        kept = _ANSWERS.setdefault((player, label), {})
        for o in options:
            if o not in kept:
                kept[o] = _candidate(player, label, (o,))
                _KEPT[0] += 1
    return list(map(kept.__getitem__, options))


def _too_many_values(held: int) -> str:
    return (f"the game would hold {held} values, more than the {LIMITS.max_values} a game may hold "
            "(the games here hold a few hundred)")


def _error_class(err: RuleViolation) -> type[IllegalActionError]:
    """The public error for a rule violation: the execution budget spent (its steps, or its
    depth: rules running one another past LIMITS.max_call_depth), a primitive's Python error (a
    plugin's defect), a rule failing at run time (the rules' defect), else an illegal action."""
    if isinstance(err, (BudgetExceeded, TooDeep)):
        return ExecutionBudgetError
    if isinstance(err, RuleFailed):
        return RuleFailedError
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


_OFFERED: tuple[Any, frozenset[Any]] = ((), frozenset())
"""The options of the last long decision :func:`_offered` was asked about, and their set."""


def _offered(options: Any, value: Any) -> bool:
    """Whether ``value`` is among a decision's ``options``. A long tuple of them is looked up in
    its set, kept for the decision a listing asks about for each of its answers (a ``choose x in
    1..99999`` was walked once per answer listed: quadratic, its listing took minutes)."""
    global _OFFERED
    if type(options) is not tuple or len(options) < 64:
        return value in options
    last = _OFFERED
    if last[0] is not options:
        last = _OFFERED = (options, frozenset(options))
    return value in last[1]


def _why_not(rs: Ruleset, ctx: Context, d: Decision, value: Any) -> str:
    """Why ``value`` is no option of the ``choose`` decision ``d``: the domain it is not in, or
    the first conjunct of the ``where`` that is false for it, as ``": it is not in `DOMAIN`
    (FILE:LINE:COL)"`` or ``": `COND` is false (FILE:LINE:COL)"``; ``""`` when that cannot be
    said (never raises: this only sharpens the refusal's message)."""
    try:
        node = rs.block_owner(d.block)
        if not isinstance(node, A.Choose):
            return ""
        from ..lang.backends import Interpreter
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
