"""Records: how a game came to be — ruleset recipe, seed and the list of actions.

A saved game is its record; a state is derived by replay. Chance outcomes are in
the action list too (``chance LABEL VALUE``), so a replay never depends on
reproducing a random number generator.
"""

from __future__ import annotations

import json
import operator
from functools import partial
from typing import Any, Callable

import attrs
import cattrs

from .errors import NotationError

FORMAT = "boardrules-record/1"


@attrs.define
class Record:
    """``game`` (None for rules given as ``texts``), ``modules``, ``options``, ``players``,
    ``seed``, house ``rules`` and base ``texts`` as ((path, text), ...), and ``actions``
    (canonical action texts, in order)."""

    game: str | None
    modules: tuple[str, ...]
    options: dict[str, Any]
    players: int
    seed: int | str
    rules: tuple[tuple[str, str], ...] = ()
    texts: tuple[tuple[str, str], ...] = ()
    actions: list[str] = attrs.field(factory=list)
    final: str | None = None  # State.digest() after the last action, when saved
    ruleset: str | None = None  # Ruleset.id of the rules that wrote it

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, **_converter.unstructure(self)}

    def dumps(self, compact: bool = False) -> str:
        """JSON text, indented (``compact``: on one line without spaces)."""
        if compact:
            return json.dumps(self.to_json(), separators=(",", ":"))
        return json.dumps(self.to_json(), indent=1)

    @classmethod
    def loads(cls, text: str) -> "Record":
        """Read :meth:`dumps` output. Raises :class:`~boardrules.errors.NotationError`."""
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as err:   # (not JSON, or a number too long)
            raise NotationError(f"not a boardrules record: {err}") from None
        return cls.from_json(data)

    @classmethod
    def from_json(cls, data: Any) -> "Record":
        """The record a parsed :meth:`to_json` holds. Raises
        :class:`~boardrules.errors.NotationError` naming each field of the wrong type (as a
        path, ``$.players``), the value found and what was expected."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise NotationError(f"not a boardrules record (expected format {FORMAT!r})")
        data = {k: v for k, v in data.items() if k != "format"}
        try:
            record = _converter.structure(data, cls)
        except Exception as err:  # cattrs groups every field error; name each
            details = "; ".join(f"{path}: {message}" for message, path in (
                m.rsplit(" @ ", 1) for m in cattrs.transform_error(err, format_exception=_explain)
            )) if isinstance(err, cattrs.BaseValidationError) else str(err)
            raise NotationError(f"malformed boardrules record: {details}") from None
        if record.game is None and not record.texts:
            raise NotationError("malformed boardrules record: $.game is null and $.texts holds no "
                                "rule file: no rules to replay with")
        return record


class _Expected(ValueError):
    """A record value of the wrong type; the message says what was expected and what was found."""

    def __init__(self, expected: str, value: Any) -> None:
        super().__init__(f"expected {expected}, not {brief_json(value)}")


def _explain(err: BaseException, type_: Any) -> str:
    return str(err) if isinstance(err, _Expected) else cattrs.v.format_exception(err, type_)


def brief_json(value: Any, limit: int = 60) -> str:
    """``value`` as JSON, cut to about ``limit`` characters (a list or mapping: its first items;
    a huge number: its count of digits)."""
    if isinstance(value, dict):
        parts = [f"{json.dumps(str(k))[:limit // 3]}: {brief_json(v, limit // 3)}"
                 for k, v in list(value.items())[:3]]
        text = "{" + ", ".join(parts + (["..."] if len(value) > 3 else [])) + "}"
    elif isinstance(value, list):
        parts = [brief_json(v, limit // 3) for v in value[:3]]
        text = "[" + ", ".join(parts + (["..."] if len(value) > 3 else [])) + "]"
    elif isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10 ** 40:
        text = f"a number of {len(str(abs(value)))} digits"
    else:
        text = json.dumps(value if not isinstance(value, str) else value[:limit])
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _strict(test: Callable[[Any], bool], expected: str,
            make: Callable[[Any], Any] = lambda v: v) -> Callable[[Any, Any], Any]:
    """A structure hook that takes a value (as ``make`` of it) when ``test`` holds, else names it
    (cattrs' own hooks convert: ``str(1)``, ``int(True)``, ``int(1.5)``)."""
    def hook(value: Any, _: Any) -> Any:
        if test(value):
            return make(value)
        raise _Expected(expected, value)
    return hook


def _listed(item: Any, expected: str) -> Callable[[Any, Any], Any]:
    """A hook for a list of ``item`` (a text read as its letters, a mapping as its keys: no)."""
    def hook(value: Any, type_: Any) -> Any:
        if not isinstance(value, list):
            raise _Expected(expected, value)
        errors: list[Exception] = []
        out: list[Any] = []
        for i, v in enumerate(value):   # (each fault noted with its index, as cattrs does)
            try:
                out.append(_converter.structure(v, item))
            except Exception as err:
                err.__notes__ = [*getattr(err, "__notes__", []), cattrs.IterableValidationNote(
                    f"Structuring {type_} @ index {i}", i, item)]
                errors.append(err)
        if errors:
            raise cattrs.IterableValidationError(f"While structuring {type_}", errors, type_)
        return type_.__origin__(out)
    return hook


def _whole(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _text(v: Any) -> bool:
    return isinstance(v, str)


def _file(v: Any) -> bool:
    return isinstance(v, list) and len(v) == 2 and all(map(_text, v))


_converter = cattrs.Converter()
for _type, _hook in (
        (str, _strict(_text, "a text")),
        (str | None, _strict(lambda v: v is None or _text(v), "a text or null")),
        (int, _strict(_whole, "a whole number")),
        (int | str, _strict(lambda v: _whole(v) or _text(v), "a whole number or a text")),
        (tuple[str, str], _strict(_file, "a [file name, rule text] pair of texts", tuple)),
        (dict[str, Any], _strict(lambda v: isinstance(v, dict), "a mapping of option names to values")),
        (tuple[str, ...], _listed(str, "a list of module names")),
        (tuple[tuple[str, str], ...], _listed(tuple[str, str], "a list of [file name, rule text] pairs")),
        (list[str], _listed(str, "a list of moves (texts)"))):
    if isinstance(_type, type) and not hasattr(_type, "__origin__"):   # (a class: its own hook)
        _converter.register_structure_hook(_type, _hook)
    else:   # (a union or a generic: cattrs dispatches these by predicate)
        _converter.register_structure_hook_func(partial(operator.eq, _type), _hook)
