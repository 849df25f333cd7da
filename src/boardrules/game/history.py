# mypy: disable-error-code="misc"
# (its methods take self: Game, the class built from the mixins: mypy calls that "misc")
"""The undo history: a played move recorded (:meth:`GameHistory._apply`), the history thinned
to a bound on the values it holds, and a dropped state replayed from the record."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..limits import LIMITS, raise_with
from ..errors import ExecutionBudgetError
from ..runtime import BudgetExceeded, Event
from ..state import State
from .actions import Action, _too_many_values, brief_action, format_action

if TYPE_CHECKING:
    from .core import Game


HISTORY_VALUES = 4_000_000
"""The most values the undo history holds, summed over its states (a whole random 6-player
Eclipse game holds some 250,000): past it, :meth:`Game._thin` drops older states, so a long
record over a large state replays in bounded memory (a 300 KB record of 3,000 moves over
24,000 values took 3.9 GB)."""
RECENT_STATES = 64
"""The newest states of the undo history, dropped only when they alone hold more than
HISTORY_VALUES values: undoing them replays nothing."""


class GameHistory:
    """The undo history of a :class:`Game` (a mixin)."""

    def _check_moves(self: Game, action: Action) -> None:
        """ExecutionBudgetError when the game has had ``LIMITS.max_moves`` moves (``action`` would pass it)."""
        if len(self.record.actions) >= LIMITS.max_moves:
            raise ExecutionBudgetError(f"{brief_action(action)}: the game has had {LIMITS.max_moves} moves, "
                                       f"the most a game may have ({raise_with('max_moves')})",
                                       rule=action.name, action=action)

    def _apply(self: Game, action: Action, check: bool) -> None:
        """Play ``action`` (its run, then :meth:`_commit`): IllegalActionError, nothing changed,
        when it breaks a rule or a limit. The caller thins the undo history (:meth:`_thin_if_held`)."""
        if len(self.record.actions) >= LIMITS.max_moves:   # (the call only to raise)
            self._check_moves(action)
        new_state, events = self._try(action, check)
        self._commit(action, new_state, events)

    def _commit(self: Game, action: Action, new_state: State, events: list[Event]) -> None:
        """Make ``new_state`` (``action``'s run, with its ``events``) the game's: the state before
        it kept for undo. ExecutionBudgetError, nothing changed, when it holds more than
        ``LIMITS.max_values`` values (and more than the state before)."""
        held = len(new_state.values)
        if held > LIMITS.max_values and held > len(self.state.values):
            raise self._refusal(action, BudgetExceeded(_too_many_values(held)))
        self._history.append((self.state, len(self.record.actions), len(self.log)))
        self._kept += len(self.state.values)
        self.state = new_state
        # (Game.canonical: the common case, no argument of a player, without the call)
        self.record.actions.append(format_action(action) if action.name not in self.ruleset.player_params
                                   else self.canonical(action))
        self.log.extend(events)

    def _thin_if_held(self: Game) -> None:
        """:meth:`_thin` once the undo history holds more than ``HISTORY_VALUES`` values (after a
        play: one :meth:`play` may be taken back whole, its history as it was)."""
        if self._kept > HISTORY_VALUES:
            self._thin()

    def _thin(self: Game) -> None:
        """Drop every other state the undo history holds (but the first and the newest
        RECENT_STATES, unless those alone pass the bound), as it holds more than HISTORY_VALUES
        values: undoing to one dropped replays the moves from the last one kept before it
        (:meth:`_replayed`)."""
        h = self._history
        held = [i for i in range(1, len(h) - RECENT_STATES) if h[i][0] is not None] or \
            [i for i in range(1, len(h) - 1) if h[i][0] is not None]   # (the newest pass it alone)
        for i in held[::2]:
            state, nrec, nlog = h[i]
            assert state is not None
            h[i] = (None, nrec, nlog)
            self._kept -= len(state.values)

    def _replayed(self: Game, upto: int, below: int) -> State:
        """The state before the record's move ``upto`` (from 0), dropped from the undo history:
        the moves from the last state its first ``below`` entries hold played again, as a replay
        plays them (:meth:`from_record`)."""
        j = below - 1
        while self._history[j][0] is None:   # (the first state is never dropped)
            j -= 1
        state, start, _ = self._history[j]
        assert state is not None
        scratch = self.copy()
        scratch.state, scratch._history, scratch._kept, scratch.auto_chance = state, [], 0, False
        del scratch.record.actions[start:]
        for text in self.record.actions[start:upto]:
            scratch.play(text, check=False)
        return scratch.state
