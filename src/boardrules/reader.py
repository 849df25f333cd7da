"""Fast reads of one state by rule name: :meth:`Game.reader` (for evaluations and bots).

    r = game.reader()
    r.get("vp", 0), r.get("controller", index="h101"), r.owner("booster3"), r.passed(2)

A :class:`StateReader` answers exactly what :meth:`Game.get` answers (and the rules' built-ins
``owner(e)`` and ``passed(p)``) for the state the game was in when it was made, without
building a rules context per read: a bot's evaluation reads hundreds of values per position.
The state's key layout stays the engine's own (:mod:`boardrules.lang.semantics`); where a name
is kept is worked out once per name and ruleset.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import repeat
from typing import TYPE_CHECKING, Any

from .lang import semantics as S
from .quoting import as_int, brief_text
from .runtime import CHANCE, F_PASSED, F_ROUND, MISSING, NPLAYERS, RuleViolation

if TYPE_CHECKING:
    from .game import Game
    from .ruleset import Ruleset
    from .state import State

Values = dict[tuple[Any, ...], Any]
HEXES = ("v", "hexes")


class AnyIndex:
    """Every index: what :meth:`Indexes.valid` gives when there is no list to check against."""

    def __contains__(self, index: object) -> bool:
        return True

    def issuperset(self, indexes: Iterable[Any]) -> bool:
        return True


ANY_INDEX = AnyIndex()


class Indexes:
    """The indexes of a variable kept per hex or per entity of a kind, in a state: the game's
    ``hexes`` then (they may grow: explored sectors) or the kind's entities. ``valid(values)``:
    them as a set, cached while the state's ``hexes`` is the same list; ``problem(values, name,
    index)``: why ``index`` is not one (a message naming it and the valid ones), None if it is."""

    __slots__ = ("ruleset", "per", "_list", "_set")

    def __init__(self, ruleset: Ruleset, per: str) -> None:
        self.ruleset, self.per = ruleset, per
        self._list: Any = None
        self._set: frozenset[Any] = frozenset()
        if per != "hex":
            self._list = tuple(ruleset.by_kind.get(per, ()))
            self._set = frozenset(self._list)

    def valid(self, values: Values) -> frozenset[Any] | AnyIndex:
        if self.per == "hex":
            hexes = values.get(HEXES, MISSING)
            if hexes is MISSING:
                if "hexes" not in self.ruleset.vars:
                    return ANY_INDEX   # (no 'hexes' in the rules nor the state: no list to check)
                hexes = self.ruleset.default_of(HEXES)
            if hexes is not self._list:
                self._list, self._set = hexes, frozenset(hexes or ())
        return self._set

    def problem(self, values: Values, name: str, index: Any) -> str | None:
        try:
            if index in self.valid(values):
                return None
        except TypeError:   # (unhashable: refused by the general read)
            return None
        from .quoting import brief_value
        what = "hexes" if self.per == "hex" else f"{self.per} entities"
        return (f"'{name}' is kept per {self.per}: {brief_value(index)} is not one of the game's "
                f"{len(self._list or ())} {what} ({brief_value(tuple(self._list or ()))})")


def index_problem(ruleset: Ruleset, values: Values, name: str, index: Any) -> str | None:
    """Why ``index`` cannot be read of variable ``name`` in the state ``values`` (a hex not in
    the game, an entity not of the kind it is kept per: :class:`Indexes`), None when it can or
    when ``name`` is no such variable."""
    var = ruleset.vars.get(name)
    if var is None or not var.per or var.per[-1] == "player":
        return None
    return Indexes(ruleset, var.per[-1]).problem(values, name, index)

class Reading:
    """How one name is read from a state's values, as :func:`~boardrules.game.read_name` reads
    it (this class: the general way, through a rules context; its subclasses read straight from
    where :mod:`boardrules.lang.semantics` keeps the values). ``one``: one value; ``each``: every
    player's; ``at``: one player's (or nobody's) at each of some indexes."""

    __slots__ = ("ruleset", "name")

    def __init__(self, ruleset: Ruleset, name: str) -> None:
        self.ruleset, self.name = ruleset, name

    def one(self, values: Values, player: Any = None, index: Any = None) -> Any:
        from .game import read_name
        return read_name(self.ruleset, values, self.name, player, index)

    def each(self, values: Values) -> list[Any]:
        # (every state holds its player count: the setup writes it first)
        return [self.one(values, p) for p in range(values[NPLAYERS])]

    def at(self, values: Values, indexes: Iterable[Any], player: Any = None) -> list[Any]:
        one = self.one
        return [one(values, player, i) for i in indexes]


class _Kept(Reading):
    """A name whose values are kept under ``start`` (+ whose, + where), ``default`` when unset
    (a default depends on the name alone, not on whose or where)."""

    __slots__ = ("start", "default")

    def __init__(self, ruleset: Ruleset, name: str, start: tuple[Any, ...]) -> None:
        super().__init__(ruleset, name)
        self.start, self.default = start, ruleset.default_of(start)


class _Plain(_Kept):
    __slots__ = ()

    def one(self, values: Values, player: Any = None, index: Any = None) -> Any:
        if index is not None:
            return super().one(values, player, index)
        value = values.get(self.start, MISSING)
        return self.default if value is MISSING else value


class _PerPlayer(_Kept):
    __slots__ = ("keys",)

    def __init__(self, ruleset: Ruleset, name: str, start: tuple[Any, ...]) -> None:
        super().__init__(ruleset, name, start)
        self.keys: dict[int, tuple[tuple[Any, ...], ...]] = {}   # per player count

    def one(self, values: Values, player: Any = None, index: Any = None) -> Any:
        if index is not None or type(player) is not int:
            return super().one(values, player, index)
        value = values.get(self.start + (player,), MISSING)
        if value is MISSING:   # (a player out of range is refused the general way)
            return self.default if 0 <= player < values[NPLAYERS] else super().one(values, player, index)
        return value

    def each(self, values: Values) -> list[Any]:
        n = values[NPLAYERS]
        keys = self.keys.get(n)
        if keys is None:
            keys = self.keys[n] = tuple(self.start + (p,) for p in range(n))
        return list(map(values.get, keys, repeat(self.default, n)))


class _Indexed(_Kept):
    """A name kept per hex or per entity of a kind (its last ``per``): an index that holds no
    value must be one of them (else the general way refuses it, naming the valid ones)."""

    __slots__ = ("indexes",)

    def __init__(self, ruleset: Ruleset, name: str, start: tuple[Any, ...], per: str) -> None:
        super().__init__(ruleset, name, start)
        self.indexes = Indexes(ruleset, per)


class _PerIndex(_Indexed):
    # the keys of the last tuple of indexes read ``at``, and the valid indexes they were checked
    # against (a tuple never changes: evaluations read the same ``hexes`` in state after state)
    __slots__ = ("_last",)

    def __init__(self, ruleset: Ruleset, name: str, start: tuple[Any, ...], per: str) -> None:
        super().__init__(ruleset, name, start, per)
        self._last: tuple[Any, tuple[tuple[Any, ...], ...], Any] = ((), (), None)

    def one(self, values: Values, player: Any = None, index: Any = None) -> Any:
        if index is None:
            return super().one(values, player, index)
        try:
            value = values.get(self.start + (index,), MISSING)
            if value is MISSING:
                return self.default if index in self.indexes.valid(values) else super().one(values, player, index)
        except TypeError:   # an index that cannot be a key (a list): refused the general way
            return super().one(values, player, index)
        return value

    def at(self, values: Values, indexes: Iterable[Any], player: Any = None) -> list[Any]:
        last, valid = self._last, self.indexes.valid(values)
        if last[0] is indexes and type(indexes) is tuple and last[2] is valid:
            return list(map(values.get, last[1], repeat(self.default, len(indexes))))
        start, default, given, indexes = self.start, self.default, indexes, list(indexes)
        try:
            if valid.issuperset(indexes):   # (else: refused the general way)
                keys = tuple(start + (i,) for i in indexes)
                got = list(map(values.get, keys, repeat(default, len(keys))))
                if type(given) is tuple:
                    self._last = (given, keys, valid)
                return got
        except TypeError:   # an index that cannot be a key
            pass
        return super().at(values, indexes, player)


class _PerPlayerIndex(_Indexed):
    __slots__ = ()

    def one(self, values: Values, player: Any = None, index: Any = None) -> Any:
        if index is None or type(player) is not int:
            return super().one(values, player, index)
        try:
            value = values.get(self.start + (player, index), MISSING)
            if value is MISSING and index not in self.indexes.valid(values):
                return super().one(values, player, index)
        except TypeError:
            return super().one(values, player, index)
        if value is MISSING:
            return self.default if 0 <= player < values[NPLAYERS] else super().one(values, player, index)
        return value


class _Hexes(_Kept):
    """The built-in ``hexes``: the variable ``hexes`` (its default when unset), else an empty
    list."""

    __slots__ = ()

    def one(self, values: Values, player: Any = None, index: Any = None) -> Any:
        if index is not None:
            return super().one(values, player, index)
        return values.get(self.start, self.default) or ()


class _Round(Reading):
    """The built-in ``round``: the flow's round, none before the first."""

    __slots__ = ()

    def one(self, values: Values, player: Any = None, index: Any = None) -> Any:
        return values.get(F_ROUND) if index is None else super().one(values, player, index)


def no_player(player: object, players: int) -> ValueError:
    """The error for ``player``, no player of a ``players``-player game."""
    return ValueError(f"no player {player!r} in a {players}-player game (players are 0..{players - 1})")


def check_seat(player: object, players: int, *, chance: bool = False) -> int:
    """``player`` as an int (:func:`~boardrules.quoting.as_int`) if it is a seat of a
    ``players``-player game (or ``CHANCE`` when ``chance``): ``TypeError`` for another
    type (a bool, a seat's name ``'p1'``: a bool is no player, as for :class:`Action`),
    ``ValueError`` for no such seat."""
    seat = as_int(player)
    if seat is None:
        raise TypeError(f"a player is a seat counted from 0 (an int: 0 for p1), not {brief_text(player, 40)}")
    if not (0 <= seat < players or chance and seat == CHANCE):
        raise no_player(seat, players)
    return seat


def check_name(name: object) -> None:
    """``TypeError`` unless ``name`` is a text (a number or None was looked up as a name:
    'unknown name '5'')."""
    if not isinstance(name, str):
        from .quoting import brief_text
        raise TypeError(f"a name of the rules is a text such as 'coins', not {brief_text(name, 40)}")


def reading(ruleset: Ruleset, name: str) -> Reading:
    """How ``name`` is read from a state of ``ruleset`` (:class:`Reading`): straight from where
    its values are kept for resources, tracks, component supplies, variables kept per player
    and/or one index and the built-ins ``round`` and ``hexes``; the general way for any other
    name (and for reads that raise: no such player, a missing index)."""
    try:
        cls, payload = S.classify(ruleset, name)
    except RuleViolation:
        return Reading(ruleset, name)
    if cls == S.BUILTIN:
        return _Hexes(ruleset, name, ("v", "hexes")) if name == "hexes" else \
            _Round(ruleset, name) if name == "round" else Reading(ruleset, name)
    prefix = {S.RESOURCE: "r", S.TRACK: "t", S.COMPONENT: "c"}.get(cls)
    if prefix is not None:
        return _PerPlayer(ruleset, name, (prefix, name))
    if cls != S.VAR:   # options, entities, kinds
        return Reading(ruleset, name)
    per = tuple(payload.per)
    start = ("v", name)
    if not per:
        return _Plain(ruleset, name, start)
    if per == ("player",):
        return _PerPlayer(ruleset, name, start)
    if len(per) == 1:
        return _PerIndex(ruleset, name, start, per[0])
    if len(per) == 2 and per[0] == "player" and per[1] != "player":
        return _PerPlayerIndex(ruleset, name, start, per[1])
    return Reading(ruleset, name)   # (kept per two indexes: rare)


class StateReader:
    """One state of ``game`` read by rule name (:meth:`Game.reader`): ``get``, ``owner`` and
    ``passed`` answer as :meth:`Game.get` and the rules' ``owner(e)`` and ``passed(p)`` do;
    ``each`` and ``at`` read one name many times at once. ``game``, ``ruleset``, ``players``,
    ``state`` and ``over`` are the game's, as they were when the reader was made (a state never
    changes: the reader goes on reading that state after the game moves on). Reads the whole
    state, hidden values too, as ``Game.get`` does."""

    __slots__ = ("game", "ruleset", "players", "state", "over", "_values", "_readings")

    def __init__(self, game: Game) -> None:
        self.game, self.ruleset, self.players = game, game.ruleset, game.players
        self.state: State = game.state
        self.over: bool = game.over
        self._values = game.state.values
        self._readings: dict[str, Reading] = game.ruleset.readings

    def _reading(self, name: str) -> Reading:
        try:
            return self._readings[name]
        except (KeyError, TypeError):
            check_name(name)
            found = self._readings[name] = reading(self.ruleset, name)
            return found

    def get(self, name: str, player: int | None = None, index: Any = None) -> Any:
        """What :meth:`Game.get` answers for this state: resource, track, component supply or
        variable ``name`` (``player``: whose, for what is kept per player; ``index``: the hex or
        entity of a per-hex or per-entity variable). Raises
        :class:`~boardrules.errors.BoardrulesError` as ``Game.get`` does."""
        found = self._readings.get(name)
        if found is None:
            found = self._reading(name)
        return found.one(self._values, player, index)

    def each(self, name: str) -> list[Any]:
        """``[get(name, p) for p in players]``: every player's value of a name kept per player."""
        return self._reading(name).each(self._values)

    def at(self, name: str, indexes: Iterable[Any], player: int | None = None) -> list[Any]:
        """``[get(name, player, i) for i in indexes]``: a per-hex or per-entity variable at each
        of ``indexes`` (``player``: whose, when it is kept per player too); one text is one
        index, not its letters."""
        if isinstance(indexes, str):
            indexes = (indexes,)
        return self._reading(name).at(self._values, indexes, player)

    def owner(self, entity: str) -> int | None:
        """The player who holds ``entity`` (a tile, a booster, ...), None when nobody does: the
        rules' ``owner(entity)``. ``BoardrulesError`` for a name that is no entity of the rules."""
        held = self._values.get(("o", entity))  # (an owner's default is None)
        if held is None and entity not in self.ruleset.entities:   # (a typo is not 'nobody')
            from .errors import BoardrulesError
            from .quoting import brief_text
            raise BoardrulesError(f"no entity {brief_text(entity, 40)} in {self.ruleset.title}")
        return held

    def passed(self, player: int) -> bool:
        """Whether ``player`` has passed in the turns step under way: the rules' ``passed(p)``.
        ``TypeError``/``ValueError`` for no player of the game, as :meth:`Game.legal_actions`."""
        return check_seat(player, self.players) in (self._values.get(F_PASSED) or ())
