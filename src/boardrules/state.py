"""Game state: a flat mapping of immutable values plus the decisions pending.

A :class:`State` is never changed in place: playing an action makes a new one, so
keeping the previous state (for undo, search or comparison) costs nothing. Two
states are equal when their values and pending decisions are; their hash is cheap
and cached. Values are ints, bools, text, None and tuples; keys are tuples (see
:mod:`boardrules.lang.semantics`).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import attrs
from cattrs.gen import make_dict_structure_fn, override

from .errors import NotationError
from .jsonshape import Expected, ShapeError, exact, strict_converter, structure, whole
from .limits import LIMITS
from .runtime import MAX_NUMBER, Decision, Dice


@attrs.frozen(eq=False)
class State:
    """``values``: key tuple → immutable value (defaults are not stored);
    ``pending``: decisions to make, front first."""

    values: dict[tuple[Any, ...], Any]
    pending: tuple[Decision, ...] = ()
    # the hash, once computed (a slot, not a list: one object fewer per state for the
    # garbage collector to count and walk)
    _hash: int | None = attrs.field(init=False, default=None, repr=False)

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, State) and self.pending == other.pending
                and self.values == other.values)

    def __hash__(self) -> int:
        h = self._hash
        if h is None:
            h = hash((frozenset(self.values.items()), self.pending))
            object.__setattr__(self, "_hash", h)
        return h

    def get(self, *key: Any, default: Any = None) -> Any:
        """The stored value at ``key`` (a tuple given as arguments), else ``default``."""
        return self.values.get(tuple(key), default)

    # ---- JSON ----
    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict: ``{"values": [[key, value], ...], "pending": [...]}``."""
        return {
            "values": [[list(k), _enc(v)] for k, v in sorted(self.values.items(), key=repr)],
            "pending": [_enc_decision(d) for d in self.pending],
        }

    @classmethod
    def from_json(cls, data: Any) -> "State":
        """Inverse of :meth:`to_json`. :class:`~boardrules.errors.NotationError` for data of
        another shape or holding what no state holds, naming the place (``$.values[3][1]``) and
        what it found: values are null, true/false, whole numbers within ±(2^63-1) (the rules'
        numbers), texts and ``{"t": [...]}`` tuples of them nested at most
        ``LIMITS.max_nesting`` deep, of at most ``LIMITS.max_list`` elements; keys are lists
        beginning with a text, each given once; at most ``LIMITS.max_values`` values."""
        try:
            return _decoded(data)
        except (Expected, ShapeError) as fault:
            said = f"{fault.at}: {fault}" if isinstance(fault, Expected) else str(fault)
            raise NotationError(f"not a state as State.to_json gives it ({{'values': [[key, value], ...], "
                                f"'pending': [decision, ...]}}): {said}") from None

    def dumps(self) -> str:
        return json.dumps(self.to_json(), separators=(",", ":"))

    def digest(self) -> str:
        """A stable fingerprint of the state (the same in every process), for records."""
        return hashlib.sha256(self.dumps().encode()).hexdigest()[:24]


_SET_VALUES, _SET_PENDING, _SET_HASH = (State.__dict__[f.name].__set__ for f in attrs.fields(State))
_new_object = object.__new__


def _state(values: dict[tuple[Any, ...], Any], pending: tuple[Decision, ...]) -> State:
    """``State(values, pending)`` for the engine's runs (one a move): its slots set directly,
    without attrs' frozen ``__init__`` (about a third of the making)."""
    s: State = _new_object(State)
    _SET_VALUES(s, values)
    _SET_PENDING(s, pending)
    _SET_HASH(s, None)
    return s


def _enc(v: Any) -> Any:
    if isinstance(v, tuple):
        return {"t": [_enc(x) for x in v]}
    if isinstance(v, Dice):
        return {"dice": v.count}
    return v


def _enc_decision(d: Decision) -> dict[str, Any]:
    out = attrs.asdict(d, recurse=False)
    if d.lane is None:  # (the digests of states without interleaved turns stay as they were)
        del out["lane"]
    out["options"] = _enc(d.options)
    out["env"] = [[k, _enc(v)] for k, v in d.env]
    return out


NUMBER = f"a whole number within ±{MAX_NUMBER} (the rules' numbers)"
VALUE = f"null, true, false, a whole number within ±{MAX_NUMBER}, a text or {{\"t\": [value, ...]}}"


def _decoded(data: Any) -> State:
    """The state ``data`` holds (:meth:`State.from_json`), else :class:`Expected` naming the
    place (``at``) or :class:`ShapeError` (a pending decision's fields)."""
    if not isinstance(data, dict) or set(data) != {"values", "pending"}:
        raise Expected("a mapping of 'values' and 'pending'", data, "$")
    pairs, pending = data["values"], data["pending"]
    for name, given in (("values", pairs), ("pending", pending)):
        if not isinstance(given, list):
            raise Expected("a list", given, f"$.{name}")
    if len(pairs) > LIMITS.max_values:
        raise Expected(f"at most {LIMITS.max_values} values (LIMITS.max_values)", pairs, "$.values")
    values = {}
    for i, pair in enumerate(pairs):
        at = f"$.values[{i}]"
        if not (isinstance(pair, list) and len(pair) == 2):
            raise Expected("a [key, value] pair", pair, at)
        key = pair[0]
        if not (isinstance(key, list) and key and isinstance(key[0], str)):
            raise Expected("a key: a list beginning with a text", key, f"{at}[0]")
        k = tuple(_value(x, f"{at}[0][{j}]") for j, x in enumerate(key))
        if k in values:
            raise Expected("a key not given before", key, f"{at}[0]")
        tally = pair[1]   # (a score by source, ("s", player, source): not a number the rules
        # read, it may pass theirs: VP gained from one source and lost from another)
        values[k] = tally if k[0] == "s" and type(tally) is int else _value(tally, f"{at}[1]")
    return State(values, tuple(structure(_converter, d, Decision, f"$.pending[{i}]")
                               for i, d in enumerate(pending)))


def _value(v: Any, at: str = "", depth: int = 0, dice: bool = False) -> Any:
    """A state's value as JSON holds it (:data:`VALUE`; a list for a tuple, as keys are
    written; ``dice``: also ``{"dice": N}``), checked all through: :class:`Expected` naming
    the place, ``at`` (the value's own) followed by the place within it."""
    if v is None or isinstance(v, (bool, str)):
        return v
    if isinstance(v, int):
        if -MAX_NUMBER <= v <= MAX_NUMBER:
            return v
        raise Expected(NUMBER, v, at)
    if isinstance(v, dict) and len(v) == 1:
        if dice and "dice" in v and type(v["dice"]) is int and 1 <= v["dice"] <= LIMITS.max_dice:
            return Dice(v["dice"])
        if "t" in v:
            at, v = f"{at}.t", v["t"]
    if not isinstance(v, list):
        raise Expected(VALUE + (", or {\"dice\": N}" if dice else ""), v, at)
    if depth >= LIMITS.max_nesting or len(v) > LIMITS.max_list:
        raise Expected(f"a list of at most {LIMITS.max_list} elements nested at most "
                       f"{LIMITS.max_nesting} deep (the rules' lists)", v, at)
    return tuple(_value(x, f"{at}[{i}]", depth + 1) for i, x in enumerate(v))


def _env(value: Any, _: Any) -> tuple[tuple[str, Any], ...]:
    """A decision's bindings: ``[[name, value], ...]``."""
    if not isinstance(value, list):
        raise Expected("a list of [name, value] pairs", value)
    for i, pair in enumerate(value):
        if not (isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], str)):
            raise Expected("a [name, value] pair", pair, f"[{i}]")
    return tuple((n, _value(v, f"[{i}][1]")) for i, (n, v) in enumerate(value))


# a pending decision as _enc_decision writes it: each field of its type (numbers the rules'),
# no other field; its options and bindings values as _value reads them
_PLAYER: Any = int | None   # (None: a queued step's, whoever's turn it then is)
_converter = strict_converter()
_converter.register_structure_hook(int, exact(lambda v: whole(v) and abs(v) <= MAX_NUMBER, NUMBER))
_decision_fields = make_dict_structure_fn(
    Decision, _converter, _cattrs_forbid_extra_keys=True, env=override(struct_hook=_env),
    options=override(struct_hook=lambda v, _: _value(v, dice=True)),
    player=override(struct_hook=lambda v, _: _converter.structure(v, _PLAYER)))


def _decision(value: Any, _: Any) -> Decision:
    if not isinstance(value, dict):
        raise Expected("a decision (a mapping)", value)
    decision: Decision = _decision_fields(value, Decision)
    return decision


_converter.register_structure_hook_func(lambda t: t is Decision, _decision)
