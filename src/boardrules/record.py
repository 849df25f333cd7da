"""Records: how a game came to be — ruleset recipe, seed and the list of actions.

A saved game is its record; a state is derived by replay. Chance outcomes are in
the action list too (``chance LABEL VALUE``), so a replay never depends on
reproducing a random number generator.
"""

from __future__ import annotations

import json

import attrs

from .errors import NotationError

FORMAT = "boardrules-record/1"


@attrs.define
class Record:
    """``game`` (None for rules given as ``texts``), ``modules``, ``options``, ``players``,
    ``seed``, house ``rules`` and base ``texts`` as ((path, text), ...), and ``actions``
    (canonical action texts, in order)."""

    game: str | None
    modules: tuple
    options: dict
    players: int
    seed: object
    rules: tuple = ()
    texts: tuple = ()
    actions: list = attrs.field(factory=list)

    def to_json(self) -> dict:
        return {
            "format": FORMAT, "game": self.game, "modules": list(self.modules),
            "options": self.options, "players": self.players, "seed": self.seed,
            "rules": [list(r) for r in self.rules], "texts": [list(t) for t in self.texts],
            "actions": list(self.actions),
        }

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1)

    @classmethod
    def loads(cls, text: str) -> "Record":
        """Read :meth:`dumps` output. Raises :class:`~boardrules.errors.NotationError`."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as err:
            raise NotationError(f"not a boardrules record: {err}") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise NotationError(f"not a boardrules record (expected format {FORMAT!r})")
        return cls(game=data["game"], modules=tuple(data["modules"]), options=dict(data["options"]),
                   players=data["players"], seed=data["seed"],
                   rules=tuple(tuple(r) for r in data.get("rules", ())),
                   texts=tuple(tuple(t) for t in data.get("texts", ())),
                   actions=list(data["actions"]))
