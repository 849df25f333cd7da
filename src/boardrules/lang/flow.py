"""Whether the flow from the end of a turns step to the next wait can break a rule.

When the last turn of a turns step ends (the last player passes, the last ``once`` turn is
over), the flow runs on: the step's end, the ``do`` steps, the engine's events, the round's end,
the next round's start, up to the next turn (game/flow.py, ``_advance``). Listing a candidate that
ends the step used to run all of that to learn whether it breaks a rule.

:func:`after_step` walks the flow's steps statically from a turns step and answers whether
everything the flow may run on the way cannot break a rule (lang/inert.py, analysed for no
player: ``Inert.anonymous``), with a bound on its steps and what it relies on: the engine then
lists the candidate as legal with its run stopped there, and runs the rest of the flow on
that run when the candidate is played.
The walk takes every way the flow may go (another round or the next stage, a stage of no
rounds) and stops at a turns step whose first turn surely begins (an order by seat); it
refuses a step it cannot foresee: a ``lanes`` step, a turn order ``by`` an expression (which
may be empty, or no list of players), a way back to a step already on the way (a flow that
may loop), a ``do`` step that leaves an 'after turn' block.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any

from ..limits import LIMITS
from . import ast as A
from .inert import AFTER, Facts

if TYPE_CHECKING:
    from ..ruleset import Ruleset

Plan = tuple[int, tuple[tuple[str, bool], ...], tuple[tuple[str, bool], ...], int, tuple[str, ...]]
"""(a bound on the steps, the optional variables read as present and the lists read as short
(``(name, per player)`` pairs, lang/guards.py ``facts_hold``), how deep rules nest, the global
``list[player]`` variables relied on to hold only seats (``seats_hold``))."""

_PLANS: weakref.WeakKeyDictionary[Any, dict[tuple[int, int, bool | None], Plan | None]] = \
    weakref.WeakKeyDictionary()


def after_step(rs: Ruleset, stage: int, step: int, last: bool | None) -> Plan | None:
    """The :data:`Plan` of the flow from the end of turns step ``step`` of stage ``stage`` to
    the next wait, None when it may break a rule; ``last``: whether this round is the stage's
    last (None outside a ``rounds`` stage). Worked out once per ruleset and arguments."""
    known = _PLANS.get(rs)
    if known is None:
        known = _PLANS[rs] = {}
    key = (stage, step, last)
    if key not in known:
        known[key] = _Walk(rs).after_step(stage, step, last)
    return known[key]


class _Walk:
    """One walk of the flow: the units it may run, gathered with their costs and facts."""

    def __init__(self, rs: Ruleset) -> None:
        self.rs = rs
        self.inert = rs.guards.inert
        self.cost = 0
        self.facts = Facts()
        self.done: set[Any] = set()   # the places whose units are counted
        self.ok = True

    def after_step(self, stage: int, step: int, last: bool | None) -> Plan | None:
        self._event("step_ends")
        entered: set[int] = set()   # the stages the flow may enter from their start
        self._within(stage, step + 1, last, frozenset({(stage, step)}), entered)
        # (stages only go forward: each one entered is walked once, in order, without recursion)
        for later in range(stage + 1, len(self.rs.stages)):
            if not self.ok:
                break
            if later in entered:
                self._enter(later, entered)
        facts = self.facts
        if not self.ok or not facts.sound or AFTER in facts.writes or facts.depth + 2 >= LIMITS.max_call_depth:
            return None
        rs = self.rs
        return (self.cost, tuple((v, bool(rs.vars[v].per)) for v in sorted(facts.needs)),
                tuple((v, bool(rs.vars[v].per)) for v in sorted(facts.sized)), facts.depth + 1,
                tuple(sorted(facts.seats)))

    def _add(self, found: tuple[int, Facts] | None, place: Any) -> None:
        """Count a unit (once per place: a unit the flow may reach by two ways runs on one)."""
        if found is None:
            self.ok = False
        elif place not in self.done:
            self.done.add(place)
            self.cost += found[0] + 1   # (+1: the rule run itself, semantics.run_unit)
            self.facts = self.facts | found[1]

    def _event(self, event: str, place: Any = None) -> None:
        self._add(self.inert.engine_event(event), (event, place))

    def _within(self, stage: int, step: int, last: bool | None, way: frozenset[Any],
                entered: set[int]) -> None:
        """Walk on from step ``step`` of stage ``stage`` to a wait or the stage's end (then the
        next stage is ``entered``). ``last``: as :func:`after_step`; ``way``: the steps on the
        way here, to which the flow must not come back."""
        st = self.rs.stages[stage]
        while self.ok:
            if step >= len(st.steps):
                if (stage, "end") in way:
                    self.ok = False   # (rounds without a turn: the flow loops on its own)
                    return
                way = way | {(stage, "end")}
                if st.kind != "rounds":
                    entered.add(stage + 1)
                    return
                self._event("round_ends", stage)
                if last is not True:   # (another round: at most once more, `way` stops it)
                    self._event("round_begins", stage)
                    self._within(stage, 0, None, way, entered)
                if last is not False:   # (the next stage)
                    entered.add(stage + 1)
                return
            place = (stage, step)
            s = st.steps[step]
            waits = s.kind == "turns" and s.lanes is None and s.order[:1] != ("by",)
            if place in way and not waits:
                self.ok = False   # (the flow may come back here: no bound)
                return
            way = way | {place}
            self._event("step_begins", place)
            if s.kind == "do":
                node = s.node
                self._add(self.inert.anonymous(node.body, {}) if isinstance(node, A.DoStep) else None,
                          place)
                self._event("step_ends", place)
                step += 1
                continue
            if not waits:
                self.ok = False   # (its turns may not begin: not foreseen)
                return
            self._event("turn_begins", place)
            return   # (a turn by seat surely begins: the flow waits)

    def _enter(self, stage: int, entered: set[int]) -> None:
        """Walk stage ``stage`` from its start (a ``rounds`` stage counts its rounds: it may
        have none, and the next stage is entered at once)."""
        st = self.rs.stages[stage]
        if st.kind == "rounds":
            node = st.node
            count = None if node is None or node.count is None else self.inert.anonymous_expr(node.count)
            if node is not None and node.count is not None and (count is None or count[0] != "int"):
                self.ok = False   # (a number of rounds that may be no whole number)
                return
            if count is not None:
                self._add((count[1], count[2]), ("rounds", stage))
            self._event("round_begins", stage)
            entered.add(stage + 1)   # (no rounds at all)
        self._within(stage, 0, None, frozenset(), entered)
