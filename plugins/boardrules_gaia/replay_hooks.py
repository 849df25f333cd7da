"""The site notation a Gaia Project replay reads: the base game's, merged with the replay
contributions of the modules in force (``ModuleSpec.extras[REPLAY_KEY]``, the keys are described
in :mod:`.replay`'s module docstring).

:func:`replay_notation` gives the merged tables of a ruleset (:class:`ReplayNotation`), which
:class:`.replay.Replayer` translates with and :mod:`.export` writes conversions with;
:func:`contributed_factions` the faction names the installed modules add to the site's
(:func:`.notation.site_factions`). Light: imports no rules machinery.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

import attrs

from boardrules import plugins

GAME = "gaia-project"
#: The key of a module's replay contribution in ``ModuleSpec.extras`` (:mod:`.replay`).
REPLAY_KEY = "gaia-project.replay"

#: The base game's free conversions (gaia-project.md §9): (paid resource, gained resource) ->
#: (conversion, paid per unit, gained per unit), in the site's resource codes (notation.RESOURCES).
CONVERSIONS: dict[tuple[str, str], tuple[str, int, int]] = {
    ("pw", "c"): ("pw_c", 1, 1), ("pw", "o"): ("pw_ore", 3, 1), ("pw", "q"): ("pw_qic", 4, 1),
    ("pw", "k"): ("pw_k", 4, 1), ("q", "o"): ("qic_ore", 1, 1), ("o", "t"): ("ore_token", 1, 1),
    ("k", "c"): ("k_c", 1, 1), ("o", "c"): ("ore_c", 1, 1),
}
#: The setup steps in which the site's ``build`` places a structure: step -> the action (hex).
PLACEMENTS: dict[str, str] = {"mines": "place_mine", "extra_mines": "place_mine"}
#: ``build B H`` in the actions phase: the site's building -> the action (hex); any other
#: building of ``BUILDINGS`` is ``upgrade H B``.
BUILDS: dict[str, str] = {"m": "build_mine", "gf": "gaia_project"}


@attrs.frozen
class ReplayNotation:
    """The merged tables (module docstring of :mod:`.replay` for each key). ``builds`` holds the
    contributed alternatives only: site building -> ((faction or None, action), ...)."""

    conversions: Mapping[tuple[str, str], tuple[str, int, int]]
    grouped: Mapping[tuple[str, str], tuple[tuple[str, str, int, int], ...]]
    combined: Mapping[tuple, tuple[str, str]]
    spends: Mapping[tuple[str, str], Callable[[Any, Any], Iterable[tuple[str, tuple]]]]
    specials: Mapping[str, tuple]
    builds: Mapping[str, tuple[tuple[str | None, str], ...]]
    placements: Mapping[str, str]
    commands: Mapping[str, str | Callable[[Any], Iterable[tuple[str, tuple]]]]
    declines: Mapping[str, str]
    declined_unless_written: Mapping[str, str]
    answered_ahead: Mapping[str, str]
    names: Mapping[str, str]
    stone: str | None
    outcomes: tuple[Callable[[Any, Any], dict[str, list]], ...] = ()

    def conversion_text(self) -> dict[str, tuple[str, int, tuple[tuple[str, int], ...]]]:
        """Every conversion the site writes as a ``spend``: name -> (paid resource, paid per
        unit, ((gained resource, gained per unit), ...)); the export's inverse of the tables."""
        out = {name: (cost, per_cost, ((gain, per_gain),))
               for (cost, gain), (name, per_cost, per_gain) in self.conversions.items()}
        out.update({name: (cost, g_cost, ((gain, g_gain),))
                    for (cost, gain), groups in self.grouped.items() for _, name, g_cost, g_gain in groups})
        out.update({name: (res, per_cost, gains) for (res, per_cost, gains), (_, name) in self.combined.items()})
        return out


def _contributions(names: Iterable[str] | None) -> list[dict]:
    """The replay contributions of the installed Gaia Project modules (``names``: only those)."""
    specs = plugins.modules(GAME)
    chosen = specs if names is None else {n: specs[n] for n in names if n in specs}
    return [spec.extras[REPLAY_KEY] for spec in chosen.values() if REPLAY_KEY in spec.extras]


def replay_notation(modules: Iterable[str]) -> ReplayNotation:
    """The base game's site notation and that of ``modules`` (a ruleset's modules, in order; a
    later module's entry replaces an earlier one's of the same key)."""
    tables: dict[str, dict] = {k: {} for k in ("conversions", "grouped", "combined", "spends", "specials",
                                               "builds", "placements", "commands", "declines",
                                               "declined_unless_written", "answered_ahead", "names")}
    tables["conversions"].update(CONVERSIONS)
    tables["placements"].update(PLACEMENTS)
    stone = None
    outcomes: list = []
    for extra in _contributions(modules):
        for key, table in tables.items():
            if key in ("grouped", "builds"):  # alternatives accumulate
                for k, alts in extra.get(key, {}).items():
                    table[k] = (*table.get(k, ()), *alts)
            else:
                table.update(extra.get(key, {}))
        stone = extra.get("stone", stone)
        outcomes += [extra["outcomes"]] if "outcomes" in extra else []
    return ReplayNotation(stone=stone, outcomes=tuple(outcomes), **tables)


def contributed_factions() -> frozenset[str]:
    """The site faction names the installed modules add (their contribution's ``factions``)."""
    return frozenset(f for extra in _contributions(None) for f in extra.get("factions", ()))
