"""Records: how a game came to be — ruleset recipe, seed and the list of actions.

A saved game is its record; a state is derived by replay. Chance outcomes are in
the action list too (``chance LABEL VALUE``), so a replay never depends on
reproducing a random number generator.
"""

from __future__ import annotations

import json
from typing import Any

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
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise NotationError(f"not a boardrules record (expected format {FORMAT!r})")
        data.pop("format")
        for key in ("modules", "rules", "texts", "actions"):   # (cattrs would read a text as
            if not isinstance(data.get(key, []), list):        # its letters, a mapping as its keys)
                raise NotationError(f"malformed boardrules record: expected a list @ $.{key}")
        try:
            record = _converter.structure(data, cls)
        except Exception as err:  # cattrs groups every field error; name each
            details = "; ".join(cattrs.transform_error(err)) if isinstance(
                err, cattrs.BaseValidationError) else str(err)
            raise NotationError(f"malformed boardrules record: {details}") from None
        bad = [a for a in record.actions if not isinstance(a, str)]
        if bad:
            raise NotationError(f"malformed boardrules record: actions must be texts, got {bad[0]!r}")
        return record


_converter = cattrs.Converter()


def _seed(value: Any, _: Any) -> int | str:
    if isinstance(value, (int, str)) and not isinstance(value, bool):
        return value
    raise ValueError(f"a seed is a whole number or a text, not {value!r}")


_converter.register_structure_hook(int | str, _seed)
