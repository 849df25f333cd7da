"""The generic notation: an action read from its text (:func:`parse_generic`, for games without
a notation plugin), the checks of its arguments' shapes, and a name of the state read
(:func:`read_name`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import BoardrulesError, NotationError
from ..lang import semantics as S
from ..reader import check_name, index_problem
from ..quoting import brief_text, brief_value, format_value, move_words, read_whole
from ..ruleset import Ruleset
from ..runtime import CHANCE, Context, Dice, RuleViolation
from .actions import Action, DONE, _Unlisted, _plain_value, _same_kinds
from .lanes import _fronts

if TYPE_CHECKING:
    from .core import Game


def _bag(game: Game, name: str) -> tuple[Any, ...]:
    """The contents of list variable ``name`` now (its default when never changed)."""
    values = game.state.values
    key = ("v", name)
    return tuple((values[key] if key in values else game.ruleset.default_of(key)) or ())


def parse_generic(game: Game, text: str) -> Action:
    """Read the canonical text form (see :func:`format_action`), its words split on spaces and
    tabs (:func:`~boardrules.quoting.move_words`)."""
    parts = move_words(text)
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
          (list, "a list"), (dict, "a mapping"), (type(None), "none"))


def _python_kind(v: Any) -> str:
    return next((what for t, what in _KINDS if isinstance(v, t)), f"a {type(v).__name__}")


def _shape_problem(prm: Any, v: Any, domain: Any) -> str:
    """Whether ``v`` is of another Python kind than the values of ``prm``'s domain (a list
    given for a card): then what was given and what is expected, else ``""``."""
    sample = next(iter(domain), None) if isinstance(domain, (tuple, list, range)) else None
    if sample is None:
        return ""
    want = _python_kind(sample)
    return "" if want == _python_kind(v) else _expected(prm.name, prm.type.name, want, v)


def arg_problem(ctx: Context, adef: Any, args: tuple[Any, ...]) -> RuleViolation | None:
    """The violation of an argument of ``args`` of another kind than its parameter's declared
    type (:func:`~boardrules.lang.semantics.fits`; a kind's entity: any text, the domain says
    which), naming the parameter, its type and what was given, at the parameter; else None.
    ``True == 1`` (and ``1.0 == 1``) would let a truth value pass a number's domain and run as
    one, or the reverse."""
    for prm, v in zip(adef.params, args):
        if type(v) is not _Unlisted and not S.fits(ctx, prm.type, v, entities=False):   # (<n>: its domain says why)
            return RuleViolation(_expected(prm.name, str(prm.type), _type_kind(prm.type), v), adef.name, prm.span)
    return None


def answer_problem(d: Any, value: Any) -> str:
    """Whether ``value``, among the options of decision ``d``, equals one of another kind (a
    truth value for the number 1, a float for an int, in a dice roll too): what was expected
    and given; else ``""`` (the options' kinds are looked up for such values only)."""
    if not _ambiguous(value):
        return ""
    if isinstance(d.options, Dice):
        if type(value) is tuple and all(type(x) is int for x in value):
            return ""
        return _expected(d.label, "roll", "a tuple of whole numbers", value)
    if type(d.options) is not tuple:   # (a plugin's domain: its own test of membership)
        return ""
    other = next((o for o in d.options if o == value and not _same_kinds((o,), (value,))), None)
    return "" if other is None else _expected(d.label, "choice", _python_kind(other), value)


def _expected(name: str, type_name: str, want: str, v: Any) -> str:
    article = "an" if type_name[:1] in ("a", "e", "i", "o", "u") else "a"
    return f"{name}: expected {article} {type_name} ({want}), given {_python_kind(v)}: {brief_text(v, 40)}"


def _type_kind(t: Any) -> str:
    """The Python kind of declared type ``t``'s values, as :func:`_python_kind` says it."""
    kind = ("a tuple" if t.list_of is not None else "a whole number" if t.name in ("int", "player")
            else "true or false" if t.name == "bool" else "a text")
    return kind + (" or none" if t.optional else "")


def _ambiguous(v: Any) -> bool:
    """Whether ``v`` equals a value of another kind the rules hold (a truth value and 0 or 1; a
    float and an int)."""
    t = type(v)
    if t is tuple:
        return any(map(_ambiguous, v))
    return t is bool or t is float or (t is int and (v == 0 or v == 1))


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
