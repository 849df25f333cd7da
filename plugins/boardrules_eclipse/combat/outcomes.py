"""Battle outcomes and their distribution :class:`Odds`, and :class:`Odds` as table rows."""

from __future__ import annotations

import enum
import math
from collections.abc import Mapping
from fractions import Fraction
from typing import TypeAlias

import attrs

from .notation import format_fleet
from .ships import Fleet


class Side(enum.Enum):
    ATTACKER = "attacker"
    DEFENDER = "defender"


class Stalemate(enum.Enum):
    """How a battle neither side can finish (no cannons left on either side) is scored.

    ``DEFENDER_WINS`` (default, the oracle's convention): defender wins, both keep their ships.
    ``DRAW``: no winner, both keep their ships. ``ATTACKER_DESTROYED``: defender wins and the
    attacker's ships are lost (Second Dawn's rule when the attacker cannot retreat — a candidate
    for the 1st edition, unconfirmed).
    """

    DEFENDER_WINS = "defender-wins"
    DRAW = "draw"
    ATTACKER_DESTROYED = "attacker-destroyed"


@attrs.frozen(order=True)
class Outcome:
    """One end of a battle: ``winner`` (``None`` for a draw) and the surviving ship count of each
    ship type on each side, in fleet order."""

    winner: Side | None = attrs.field(order=lambda w: "" if w is None else w.value)
    attacker: tuple[int, ...]
    defender: tuple[int, ...]


Number: TypeAlias = "float | Fraction"


@attrs.frozen
class Odds:
    """The distribution of battle outcomes.

    ``outcomes`` maps :class:`Outcome` to probability (floats, or ``Fraction`` when asked for);
    the probabilities sum to 1. ``runs`` is ``None`` for an exact result, else the number of
    Monte-Carlo battles behind the estimates.
    """

    attacker: Fleet
    defender: Fleet
    outcomes: Mapping[Outcome, Number]
    stalemate: Stalemate = Stalemate.DEFENDER_WINS
    runs: int | None = None

    @property
    def exact(self) -> bool:
        return self.runs is None

    def win_probability(self, side: Side | str | None) -> Number:
        """P(``side`` wins); ``None`` gives P(draw)."""
        side = None if side is None else Side(side)
        return sum((p for o, p in self.outcomes.items() if o.winner is side), 0)

    def survival(self, side: Side | str, ship: str | int, at_least: int = 1) -> Number:
        """P(at least ``at_least`` ships of type ``ship`` (name or index) on ``side`` survive the
        battle), whoever wins. Raises ``KeyError`` for an unknown ship name."""
        side = Side(side)
        fleet = self.attacker if side is Side.ATTACKER else self.defender
        index = ship if isinstance(ship, int) else _index_of(fleet, ship)
        total: Number = 0
        for outcome, p in self.outcomes.items():
            counts = outcome.attacker if side is Side.ATTACKER else outcome.defender
            if counts[index] >= at_least:
                total += p
        return total

    def std_error(self, p: float) -> float:
        """Standard error of a probability ``p`` estimated from ``runs`` battles (0 if exact)."""
        if self.runs is None:
            return 0.0
        p = float(p)
        return math.sqrt(max(p * (1 - p), 0.0) / self.runs)

    def total(self) -> Number:
        return sum(self.outcomes.values(), 0)


def _index_of(fleet: Fleet, name: str) -> int:
    for i, ship in enumerate(fleet.types):
        if ship.name.lower() == name.lower():
            return i
    raise KeyError(f"no ship type named {name!r} in fleet {format_fleet(fleet)}")


# ------------------------------------------------------------------------------------------ tables

OUTCOME_HEADERS = ("winner", "attacker survivors", "defender survivors", "probability")
SURVIVAL_HEADERS = ("side", "ship", "survivors >=", "probability")
SHOWN_LEAST = 0.00005
"""The least probability :func:`outcome_rows` shows an outcome of on a row of its own (less would
read 0.0000 at four decimals)."""


def _survivors(fleet: Fleet, counts: tuple[int, ...]) -> str:
    parts = [f"{n} {ship.name}" for ship, n in zip(fleet.types, counts) if n]
    return ", ".join(parts) if parts else "-"


def _prob(odds: Odds, p: Number) -> str:
    text = f"{float(p):.4f}"
    if odds.runs is not None:
        text += f" ± {odds.std_error(float(p)):.4f}"
    return text


def outcome_rows(odds: Odds) -> list[tuple[str, str, str, str]]:
    """Rows under :data:`OUTCOME_HEADERS`: first one row per winner (``attacker``, ``defender``,
    ``draw`` if possible) with survivors ``all outcomes``, then every outcome, most likely first,
    down to those that would show as 0.0000 (under :data:`SHOWN_LEAST`): one last row counts
    them and gives their sum. Probabilities have four decimals, with ``± standard error`` for a
    Monte-Carlo result."""
    rows: list[tuple[str, str, str, str]] = []
    winners: list[Side | None] = [Side.ATTACKER, Side.DEFENDER]
    if any(o.winner is None for o in odds.outcomes):
        winners.append(None)
    for w in winners:
        rows.append(("draw" if w is None else w.value, "all outcomes", "", _prob(odds, odds.win_probability(w))))
    ranked = sorted(odds.outcomes.items(), key=lambda kv: -float(kv[1]))
    shown = [(o, p) for o, p in ranked if float(p) >= SHOWN_LEAST]
    rare = [p for _, p in ranked[len(shown):]]
    for o, p in shown:
        rows.append(
            (
                "draw" if o.winner is None else o.winner.value,
                _survivors(odds.attacker, o.attacker),
                _survivors(odds.defender, o.defender),
                _prob(odds, p),
            )
        )
    if rare:
        rows.append(("", f"{len(rare)} more outcome{'s' if len(rare) > 1 else ''}", "each under "
                     f"{SHOWN_LEAST:.5f}", f"{float(sum(rare, 0)):.4f} in all"))
    return rows


def survival_rows(odds: Odds) -> list[tuple[str, str, str, str]]:
    """Rows under :data:`SURVIVAL_HEADERS`: P(at least k ships of each type survive), per side,
    type and k = 1..count."""
    rows = []
    for side, fleet in ((Side.ATTACKER, odds.attacker), (Side.DEFENDER, odds.defender)):
        for i, (ship, count) in enumerate(fleet.ships):
            for k in range(1, count + 1):
                rows.append((side.value, ship.name, str(k), _prob(odds, odds.survival(side, i, k))))
    return rows
