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

from .errors import NotationError
from .runtime import Decision, Dice


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
    def from_json(cls, data: dict[str, Any]) -> "State":
        """Inverse of :meth:`to_json`. :class:`~boardrules.errors.NotationError` for data of
        another shape (it names what it found)."""
        try:
            values = {tuple(_dec(x) for x in k): _dec(v) for k, v in data["values"]}
            state = cls(values, tuple(_dec_decision(d) for d in data["pending"]))
            hash(state)   # (a dict or a set in a key or value: no state holds one)
        except (KeyError, TypeError, ValueError, AttributeError, RecursionError) as err:
            raise NotationError(f"not a state as State.to_json gives it ({{'values': [[key, value], ...], "
                                f"'pending': [decision, ...]}}): {type(err).__name__}: {str(err)[:80]}") from None
        return state

    def dumps(self) -> str:
        return json.dumps(self.to_json(), separators=(",", ":"))

    def digest(self) -> str:
        """A stable fingerprint of the state (the same in every process), for records."""
        return hashlib.sha256(self.dumps().encode()).hexdigest()[:24]


def _enc(v: Any) -> Any:
    if isinstance(v, tuple):
        return {"t": [_enc(x) for x in v]}
    if isinstance(v, Dice):
        return {"dice": v.count}
    return v


def _dec(v: Any) -> Any:
    if isinstance(v, dict):
        if "t" in v:
            return tuple(_dec(x) for x in v["t"])
        if "dice" in v:
            return Dice(v["dice"])
    if isinstance(v, list):
        return tuple(_dec(x) for x in v)
    return v


def _enc_decision(d: Decision) -> dict[str, Any]:
    out = attrs.asdict(d, recurse=False)
    if d.lane is None:  # (the digests of states without interleaved turns stay as they were)
        del out["lane"]
    out["options"] = _enc(d.options)
    out["env"] = [[k, _enc(v)] for k, v in d.env]
    return out


def _dec_decision(data: dict[str, Any]) -> Decision:
    data = dict(data)
    data["options"] = _dec(data["options"])
    data["env"] = tuple((k, _dec(v)) for k, v in data["env"])
    return Decision(**data)
