# mypy: disable-error-code="misc"
# (its methods take self: Game, the class built from the mixins: mypy calls that "misc")
"""Simultaneous play: the lanes of a ``simultaneous`` turns step, their actors and
candidates, an action played in one lane and the lanes moved on together."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Iterator

import attrs

from ..quoting import rules_value
from ..runtime import F_AFTER, F_LANES, F_TURN, RuleViolation
from ..state import State
from .actions import Action, _who

if TYPE_CHECKING:
    from .core import Game


def _deciding(pending: Iterable[Any]) -> bool:
    """Whether ``pending`` holds a decision to make (a player's or chance's, not a 'queue'
    block's)."""
    return any(d.player is not None for d in pending)


def _first_by_lane(pending: Iterable[Any]) -> dict[Any, Any]:
    """{lane: its first pending decision} (interleaved turns; None: the game's)."""
    first: dict[Any, Any] = {}
    for d in pending:
        first.setdefault(d.lane, d)
    return first


def _fronts(pending: tuple[Any, ...]) -> list[Any]:
    """The first pending decision of each lane, in lane order (the game's first)."""
    first = _first_by_lane(pending)
    return [first[k] for k in sorted(first, key=lambda lane: -1 if lane is None else lane)]


def _waiting_cycle(targets: dict[int, int], holder: dict[int, int]) -> list[int]:
    """Lanes that each wait for the place the next one holds, round to the first: they pass
    their turns on together (else none could ever move). Empty when there is no such ring."""
    for start in targets:
        ring, i = [start], holder.get(targets[start])
        while i in targets and i not in ring:
            ring.append(i)
            i = holder.get(targets[i])
        if i == start:
            return ring
    return []


class GameLanes:
    """Simultaneous play of a :class:`Game` (a mixin)."""

    # ---- interleaved turns: a 'lanes' step (docs/api.md, "Interleaved turns") ----
    # F_LANES holds one (pos, player, main_done, after) per lane: ``player`` takes the
    # lane's turn at place ``pos`` of the order (None: that turn is over and the lane waits to
    # move on), ``after`` the turn's 'after turn' blocks; ``pos`` None: the lane is out (nobody
    # is left for it). Decisions raised in a lane carry its number (Decision.lane) and are
    # decided in that lane, front first, while the other lanes go on.

    def _lane_actors(self: Game, st: State, lanes: tuple[Any, ...]) -> frozenset[int]:
        fronts = _first_by_lane(st.pending)
        out = set()
        for i, (_, player, _, _) in enumerate(lanes):
            d = fronts.get(i)
            if d is not None:
                out.add(d.player)
            elif player is not None and self.legal_actions(player):
                out.add(player)
        return frozenset(out)

    def _lane_candidates(self: Game, ctx: Any, step: Any, st: State, lanes: tuple[Any, ...],
                         player: int | None) -> Iterator[Action]:
        fronts = _first_by_lane(st.pending)
        seen: set[Action] = set()
        for i, (_, who, main_done, _) in enumerate(lanes):
            d = fronts.get(i)
            if d is not None:
                found: Iterable[Action] = self._decision_candidates(d, player)
            elif who is not None and player in (None, who):
                found = self._turn_candidates(ctx, step, who, main_done)
            else:
                continue
            for a in found:
                if a not in seen:  # (two lanes may wait for the same answer)
                    seen.add(a)
                    yield a

    def _lane_action(self: Game, ctx: Any, pending: list[Any], action: Action, check: bool,
                     args_checked: bool) -> None:
        """Play ``action`` in its lane: the first lane whose first decision it answers, else
        the lane whose turn is its player's (and has no decision pending). The lane's turn is
        put in F_TURN and F_AFTER while its rules run, so a lane's turn is an
        ordinary turn to everything else."""
        lanes = list(ctx.get(F_LANES))
        fronts = _first_by_lane(pending)
        # (an answer first: its decider may be taking a turn in another lane)
        lane = next((i for i in sorted(fronts)
                     if (action.player, action.name) == (fronts[i].player, fronts[i].label)), None)
        deciding = lane is not None
        if lane is None:
            lane = next((i for i, (_, player, _, _) in enumerate(lanes)
                         if i not in fronts and player == action.player), None)
        if lane is None:
            raise RuleViolation(self._lane_refusal(lanes, fronts, action), "turn order")
        turn = ctx.get(F_TURN)
        pos, player, main_done, after = lanes[lane]
        mine = [d for d in pending if d.lane == lane]
        ctx.set(F_TURN, (turn[0], pos, player, main_done))
        ctx.set(F_AFTER, after)
        if deciding:
            self._resolve(ctx, mine, action, check)
        else:
            self._turn_action(ctx, mine, action, check, args_checked)
        self._run_queued(ctx, mine)
        _, pos, player, main_done = ctx.get(F_TURN)
        lanes[lane] = (pos, player, main_done, ctx.get(F_AFTER) or ())
        ctx.set(F_TURN, turn)
        ctx.set(F_AFTER, ())
        ctx.set(F_LANES, tuple(lanes))
        pending[:] = [d for d in pending if d.lane != lane] + [
            d if d.lane == lane else attrs.evolve(d, lane=lane) for d in mine]

    @staticmethod
    def _lane_refusal(lanes: list[Any], fronts: dict[Any, Any], action: Action) -> str:
        """Why no lane takes ``action``: whose decision or turn comes first."""
        who = _who(action.player)
        for i, (_, player, _, _) in enumerate(lanes):
            d = fronts.get(i)
            if d is not None and action.player in (player, d.player):
                return (f"{_who(d.player)} must first decide '{d.label}'"
                        + (f" ({d.prompt})" if d.prompt else ""))
        acting = ", ".join(_who(p) for _, p, _, _ in lanes if p is not None) or "nobody"
        return f"it is not {who}'s turn (the turns under way are {acting}'s)"

    def _move_lanes(self: Game, ctx: Any, step: Any, order: tuple[int, ...], pending: list[Any]) -> bool:
        """Start the lanes of ``step`` (when it begins) and move each lane whose turn is over
        and whose decisions are decided to its next player in the order, unless that player
        holds another lane: it waits for them (lanes that wait for each other move together).
        True once every lane is out and nothing is pending: the step is over."""
        lanes = ctx.get(F_LANES)
        begun = []
        if lanes is None:
            starts = step.lanes(ctx)
            # (no lane while the order has players: the step ended at once, skipping their turns)
            if (not isinstance(starts, tuple) or len(set(starts)) != len(starts)
                    or any(p not in order for p in starts) or (order and not starts)):
                raise RuleViolation(f"the lanes of '{step.name}' must start with distinct players "
                                    f"of its turn order (at least one), not {rules_value(starts)}", step.name)
            lanes = tuple((order.index(p), p, False, ()) for p in starts)
            begun = list(starts)
        lanes = list(lanes)
        busy = {d.lane for d in pending}
        while True:
            targets = {}
            for i, (pos, player, _, _) in enumerate(lanes):
                if pos is None or player is not None or i in busy:
                    continue
                nxt = self._next(ctx, step, order, pos)
                if nxt is None:
                    lanes[i] = (None, None, False, ())  # nobody is left for this lane
                else:
                    targets[i] = nxt
            holder = {lane[0]: i for i, lane in enumerate(lanes) if lane[0] is not None}
            free = [i for i, t in targets.items() if holder.get(t, i) == i]
            go = free[:1] or _waiting_cycle(targets, holder)
            if not go:
                break
            for i in go:
                lanes[i] = (targets[i], order[targets[i]], False, ())
                begun.append(order[targets[i]])
        ctx.set(F_LANES, tuple(lanes))
        if "turn_begins" in ctx.rs.triggers_by_event:
            for p in begun:
                self._emit(ctx, "turn_begins", p)
            pending[:0] = ctx.queued  # (the game's decisions: every lane waits for them)
            ctx.queued = []
        return not pending and all(lane[0] is None for lane in lanes)
