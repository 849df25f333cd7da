"""Reading parsed JSON into typed values as they are, for records of games.

cattrs' own hooks convert what they are given (``str(1)``, ``int(True)``, ``int(1.5)``, a text
read as a list of its letters, a mapping as its keys): a record with ``"players": true`` started a
game of 1 player. :func:`strict_converter` takes each value as it is or names it;
:func:`structure` raises :class:`ShapeError` listing every value of the wrong type with its path
(``$.setup.map.hexes[3].q``), the value (in brief) and what was expected.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from types import UnionType
from typing import Any, TypeVar, Union, get_args, get_origin, is_typeddict

import attrs
import cattrs
from cattrs.gen import make_dict_structure_fn, typeddicts

from .errors import SHOWN
from .quoting import brief_number, counted

T = TypeVar("T")


class ShapeError(ValueError):
    """JSON of the wrong shape; ``details`` lists each fault as ``$.path: expected ..., not ...``;
    the message shows the first :data:`~boardrules.errors.SHOWN` and counts the rest (a record of
    99 999 moves that were numbers said each: 4 MB)."""

    def __init__(self, details: list[str]) -> None:
        self.details = details
        rest = len(details) - SHOWN
        more = [f"... and {counted(rest, 'more fault')} ({len(details)} in all)"] if rest > 0 else []
        super().__init__("; ".join(details[:SHOWN] + more))


class Expected(ValueError):
    """One value of the wrong type: the message says what was expected and what was found;
    ``at`` is the place within the value a hook was given (``.t[3]``, ``[0][1]``; "" for the
    value itself), which :func:`structure` puts after the value's own path."""

    def __init__(self, expected: str, value: Any, at: str = "") -> None:
        super().__init__(f"expected {expected}, not {brief_json(value)}")
        self.expected, self.value, self.at = expected, value, at


def brief_json(value: Any, limit: int = 60) -> str:
    """``value`` as JSON, cut to about ``limit`` characters (a list or mapping: its first items;
    a huge number: its count of digits)."""
    if limit < 5:
        return "..."
    if isinstance(value, dict):
        parts = [f"{json.dumps(str(k))[:limit // 3]}: {brief_json(v, limit // 3)}"
                 for k, v in list(value.items())[:3]]
        text = "{" + ", ".join(parts + (["..."] if len(value) > 3 else [])) + "}"
    elif isinstance(value, list):
        parts = [brief_json(v, limit // 3) for v in value[:3]]
        text = "[" + ", ".join(parts + (["..."] if len(value) > 3 else [])) + "]"
    elif isinstance(value, int) and not isinstance(value, bool):
        text = brief_number(value)
    else:
        try:
            text = json.dumps(value if not isinstance(value, str) else value[:limit])
        except (TypeError, ValueError):   # (a value no JSON holds, in a record built in Python)
            text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def whole(v: Any) -> bool:
    """A JSON whole number (not true or false, not 1.5)."""
    return isinstance(v, int) and not isinstance(v, bool)


JSON_VALUE = "null, true, false, a number, a text, or a list or mapping of them"


def json_value(v: Any, deepest: int, depth: int = 0) -> bool:
    """Whether ``v`` is a value JSON holds (:data:`JSON_VALUE`; a tuple as a list, a mapping's
    keys texts), looked into ``deepest`` levels of lists and mappings: deeper values are left to
    whoever reads them (the rules refuse an option nested deeper than they may write)."""
    if isinstance(v, (list, tuple)):
        return depth >= deepest or all(json_value(x, deepest, depth + 1) for x in v)
    if isinstance(v, dict):
        return depth >= deepest or all(isinstance(k, str) and json_value(x, deepest, depth + 1)
                                       for k, x in v.items())
    return v is None or isinstance(v, (bool, int, float, str))


def elements(v: Any, most: int) -> int:
    """The elements of the lists (tuples) and mappings in ``v`` at every depth, counted until
    the count passes ``most`` (so a list that holds itself, or one of millions, costs little)."""
    n, stack = 0, [v]
    while stack and n <= most:
        x = stack.pop()
        if isinstance(x, (list, tuple, dict)):
            n += len(x)
            if n <= most:
                stack.extend(x.values() if isinstance(x, dict) else x)
    return n


def exact(test: Callable[[Any], bool], expected: str,
          make: Callable[[Any], Any] = lambda v: v) -> Callable[[Any, Any], Any]:
    """A structure hook that takes a value (as ``make`` of it) when ``test`` holds, else raises
    :class:`Expected` naming it."""
    def hook(value: Any, _: Any) -> Any:
        if test(value):
            return make(value)
        raise Expected(expected, value)
    return hook


def listed(converter: cattrs.Converter, expected: str = "a list") -> Callable[[Any, Any], Any]:
    """A hook for ``list[X]`` and ``tuple[X, ...]``: a JSON list of X, never a text or a mapping
    read as its letters or keys."""
    def hook(value: Any, type_: Any) -> Any:
        if not isinstance(value, list):
            raise Expected(expected, value)
        return get_origin(type_)(v for _, v in _each(converter, enumerate(value), get_args(type_)[0],
                                                     type_, keyed=False))
    return hook


def mapped(converter: cattrs.Converter, expected: str = "a mapping",
           values: Any = None) -> Callable[[Any, Any], Any]:
    """A hook for ``dict[str, X]``: a JSON object of X (of ``values``, a type the converter
    has a hook for, when given: ``Any`` takes every value as it is)."""
    def hook(value: Any, type_: Any) -> Any:
        if not isinstance(value, dict):
            raise Expected(expected, value)
        item = get_args(type_)[1] if values is None else values
        return dict(value) if item is Any else dict(_each(converter, value.items(), item, type_, keyed=True))
    return hook


def _each(converter: cattrs.Converter, pairs: Iterable[tuple[Any, Any]], item: Any, type_: Any,
          keyed: bool) -> list[tuple[Any, Any]]:
    """``(key, value as item)`` for each ``(key, value)`` of ``pairs`` (a list's index or a
    mapping's key); every fault noted with its index or key as cattrs notes them, raised at once."""
    errors: list[Exception] = []
    out: list[tuple[Any, Any]] = []
    for k, v in pairs:
        try:
            out.append((k, converter.structure(v, item)))
        except Exception as err:
            note = (cattrs.AttributeValidationNote(f"Structuring {type_} @ key {k!r}", k, item) if keyed
                    else cattrs.IterableValidationNote(f"Structuring {type_} @ index {k}", k, item))
            err.__notes__ = [*getattr(err, "__notes__", []), note]
            errors.append(err)
    if errors:
        group = cattrs.ClassValidationError if keyed else cattrs.IterableValidationError
        raise group(f"While structuring {type_}", errors, type_)
    return out


def _optional(t: Any) -> bool:
    args = get_args(t)
    return len(args) == 2 and args[1] is type(None) and get_origin(t) in (Union, UnionType)


def nullable(converter: cattrs.Converter) -> Callable[[Any, Any], Any]:
    """A hook for ``X | None``: null, or an X (its fault says "or null")."""
    def hook(value: Any, type_: Any) -> Any:
        if value is None:
            return None
        try:
            return converter.structure(value, get_args(type_)[0])
        except Expected as err:
            raise Expected(f"{err.expected} or null", err.value, err.at) from None
    return hook


def _homogeneous(t: Any) -> bool:
    args = get_args(t)
    return get_origin(t) is list or (get_origin(t) is tuple and len(args) == 2 and args[1] is ...)


def _mapping(t: Any) -> bool:
    return get_origin(t) is dict


def _record(t: Any) -> bool:
    return is_typeddict(t) or attrs.has(t)


def _fields(converter: cattrs.Converter) -> Callable[[Any], Callable[[Any, Any], Any]]:
    """A hook factory for TypedDicts and attrs classes: a JSON object (cattrs' own says "invalid
    type (expected a mapping, not list)", without the value), then cattrs' field by field."""
    def factory(type_: Any) -> Callable[[Any, Any], Any]:
        fields = (typeddicts.make_dict_structure_fn if is_typeddict(type_)
                  else make_dict_structure_fn)(type_, converter)

        def hook(value: Any, _: Any) -> Any:
            if not isinstance(value, dict):
                raise Expected("a mapping", value)
            return fields(value, type_)
        return hook
    return factory


def strict_converter() -> cattrs.Converter:
    """A cattrs converter for JSON taken as it is: texts, whole numbers, true/false, lists
    (``list[X]``, ``tuple[X, ...]``) and mappings (``dict[str, X]``, TypedDicts, attrs classes)
    of the right type only.
    Register more precise hooks (with :func:`exact`) on it for a field's own wording."""
    c = cattrs.Converter()
    c.register_structure_hook(str, exact(lambda v: isinstance(v, str), "a text"))
    c.register_structure_hook(int, exact(whole, "a whole number"))
    c.register_structure_hook(bool, exact(lambda v: isinstance(v, bool), "true or false"))
    c.register_structure_hook_func(_optional, nullable(c))
    c.register_structure_hook_func(_homogeneous, listed(c))
    c.register_structure_hook_func(_mapping, mapped(c))
    c.register_structure_hook_factory(_record, _fields(c))
    return c


def structure(converter: cattrs.Converter, data: Any, type_: type[T], root: str = "$") -> T:
    """``data`` structured as ``type_`` by ``converter``. Raises :class:`ShapeError` naming
    every value of the wrong type or missing (``$.path: expected ..., not ...``; paths begin
    with ``root``, the place of ``data``)."""
    try:
        return converter.structure(data, type_)
    except cattrs.BaseValidationError as err:
        details = [f"{path}{message}" if message[:1] in ".[" else f"{path}: {message}" for message, path in (
            m.rsplit(" @ ", 1) for m in cattrs.transform_error(err, path=root, format_exception=_explain))]
        raise ShapeError(details) from None
    except Expected as err:
        raise ShapeError([f"{root}{_explain(err, type_)}" if err.at else f"{root}: {err}"]) from None


def _explain(err: BaseException, type_: Any) -> str:
    if isinstance(err, Expected):
        return f"{err.at}: {err}" if err.at else str(err)
    if isinstance(err, KeyError):
        return "missing"
    return str(cattrs.v.format_exception(err, type_))
