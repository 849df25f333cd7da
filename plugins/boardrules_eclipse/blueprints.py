"""Blueprint arithmetic for the Eclipse primitives: tables read once per ruleset from the rule
files' entities, and memoised statistics of a list of parts.

Which blueprints are legal is the rules' (``rules/actions.rules``: ``upgrade_step``, energy and
drives; ``placeable_parts``, ``not_on``); this module only makes the numbers they ask for cheap.
An Upgrade choice asks for the statistics after every single-part change of every blueprint:
they are sums of the parts' fields, so each distinct list of parts is summed once
(:meth:`Tables.stats`), a change's are the blueprint's without that slot plus the new part's
(:meth:`Tables.after`), and an option text ``"cls#slot=part"`` is parsed once
(:meth:`Tables.change`).
"""

from __future__ import annotations

import weakref
from operator import add
from typing import Any

from boardrules.primitives import NOT_BATCHED

# A blueprint's statistics: the part fields that add up (kind part, rules/ships.rules) and the
# printed bonuses of a design (kind design) for the first five of them.
STAT_FIELDS = ("hull", "computer", "shield", "initiative", "move", "jumps", "energy", "regenerates")
STATS = frozenset(STAT_FIELDS) | {"drives"}   # drives: move + jumps (a ship that can move)
DESIGN_BONUSES = ("initiative", "energy", "computer", "shield", "hull")
MEMO_SIZE = 100_000   # statistics kept per ruleset before the memo starts afresh


class Tables:
    """What the blueprint primitives read of one ruleset, read once.

    ``classes``: the ship classes (a frozenset of entity names); ``parts``: the parts in the
    rule files' order."""

    __slots__ = ("rs", "classes", "class_order", "parts", "part_set", "_lists", "_changes", "resolved", "_stats", "_after",
                 "_last", "_parts", "segments", "_answers", "_by_class", "__weakref__")

    def __init__(self, rs: Any) -> None:
        self.rs = weakref.ref(rs)
        self.classes = frozenset(rs.by_kind.get("ship_class", ()))
        self.class_order: tuple[str, ...] = tuple(rs.by_kind.get("ship_class", ()))
        self._lists: dict[tuple, tuple[str, ...]] = {}
        self.parts: tuple[str, ...] = tuple(rs.by_kind.get("part", ()))
        self.part_set = frozenset(self.parts)
        self._changes: dict[str, tuple[str, int, str]] = {}
        # (option, player) -> what :meth:`resolve` answered (read directly by stat_after)
        self.resolved: dict[tuple[Any, int], tuple] = {}
        self._stats: dict[tuple[tuple[str, ...], Any], dict[str, Any]] = {}
        # per (blueprint, outside, design): its statistics without each slot's part
        self._after: dict[tuple, tuple[dict[str, int], ...]] = {}
        # the blueprint asked last (by identity: an Upgrade choice asks of one blueprint's
        # changes in a row) and its sums without each slot's part
        self._last: tuple[Any, Any, Any, tuple[dict[str, int], ...]] = ((), (), None, ())
        self._parts: dict[str, dict[str, int]] = {}   # part -> its STATS
        # id of a tuple :meth:`changes` made -> (that tuple, its options per ship class that
        # has any: ((class, grid, parts, (slot, ...), (part, ...)), ...), in its order; the
        # slots and parts as two flat tuples, not a pair per option: these live as long as the
        # memo, and ~100 pairs per entry kept alive doubled the collector's young collections)
        self.segments: dict[int, tuple[tuple[str, ...], tuple]] = {}
        self._answers: dict[tuple, tuple] = {}   # :meth:`class_answers`
        # (class, grid, parts) -> that class's option texts and its segment (None: no option)
        self._by_class: dict[tuple, tuple[tuple[str, ...], tuple | None]] = {}

    def change(self, o: Any) -> tuple[str, int, str] | None:
        """``(class, slot, part)`` of an option text ``"cls#slot=part"`` naming a ship class and
        a part of this ruleset, or None (the slot is not checked against a blueprint here)."""
        got = self._changes.get(o) if type(o) is str else None
        if got is not None:
            return got
        return self._parse(o)

    def resolve(self, o: Any, me: int) -> tuple[str, int, str, tuple, tuple, tuple] | None:
        """:meth:`change` of ``o`` with the state keys player ``me``'s class reads: ``(class,
        slot, part, blueprint key, grid_extras key, design_of key)``; None as :meth:`change`."""
        got = self.resolved.get((o, me)) if type(o) is str else None
        if got is not None:
            return got
        change = self.change(o)
        if change is None:
            return None
        cls = change[0]
        got = (*change, ("v", "blueprint", me, cls), ("v", "grid_extras", me, cls),
               ("v", "design_of", me, cls))
        if len(self.resolved) >= MEMO_SIZE:
            self.resolved.clear()
        self.resolved[(o, me)] = got
        return got

    def _parse(self, o: Any) -> tuple[str, int, str] | None:
        try:
            left, part = o.split("=")
            cls, i = left.split("#")
            slot = int(i)
        except (ValueError, AttributeError, TypeError):
            return None
        if cls not in self.classes or part not in self.part_set or slot < 0:
            return None
        got = (cls, slot, part)
        if len(self._changes) < MEMO_SIZE:
            self._changes[o] = got
        return got

    def changes(self, grids: tuple[tuple[str, ...], ...], parts: tuple[tuple[str, ...], ...]) -> tuple[str, ...]:
        """Every ``"cls#slot=part"`` putting a part of that class's list in ``parts`` into a
        slot of its blueprint in ``grids`` that holds another part (both one entry per ship
        class, in the ruleset's order), by class, slot, then part. Memoised, and each class's
        share apart (:meth:`class_changes`): an Upgrade changes one class's blueprint, and the
        classes' options are the same texts for every player."""
        key = (grids, parts)
        got = self._lists.get(key)
        if got is None:
            texts: list[str] = []
            kept = []
            by_class = self._by_class
            for cls, grid, mine in zip(self.class_order, grids, parts):
                made = by_class.get((cls, grid, mine)) or self.class_changes(cls, grid, mine)
                if made[1] is not None:
                    texts += made[0]
                    kept.append(made[1])
            got, segments = tuple(texts), tuple(kept)
            if len(self._lists) >= MEMO_SIZE // 10:
                self._lists.clear()
                self.segments.clear()
            self._lists[key] = got
            self.segments[id(got)] = (got, segments)
        return got

    def class_changes(self, cls: str, grid: tuple[str, ...], mine: tuple[str, ...]
                      ) -> tuple[tuple[str, ...], tuple | None]:
        """Ship class ``cls``'s share of :meth:`changes` (its blueprint ``grid``, the parts
        ``mine`` it may take) and its segment ``(cls, grid, mine, slots, parts)`` (None when it
        has no option); memoised."""
        slots = [i for i, old in enumerate(grid) for part in mine if part != old]
        placed = [part for old in grid for part in mine if part != old]
        got = (tuple(f"{cls}#{i}={part}" for i, part in zip(slots, placed)),
               (cls, grid, mine, tuple(slots), tuple(placed)) if slots else None)
        if len(self._by_class) >= MEMO_SIZE // 10:
            self._by_class.clear()
        self._by_class[(cls, grid, mine)] = got
        return got

    def class_answers(self, bp: tuple, outside: tuple, design: Any, segment: tuple, stat: str) -> tuple:
        """:meth:`after` of statistic ``stat`` for each change of one class's ``segment`` (of
        ``segments``: its slots and their parts) on blueprint ``bp`` (plus ``outside``, on
        ``design``), NOT_BATCHED for a slot ``bp`` does not have (memoised: an Upgrade changes
        one class's blueprint, the other classes' answers are asked again)."""
        key = (bp, outside, design, segment[1], segment[2], stat)
        got = self._answers.get(key)
        if got is None:
            # (a column of the sums and a value per part, then one pass in C: an Upgrade's
            # filter asks for the class it just changed afresh, about 40 options)
            col = [sums[stat] for sums in self.without(bp, outside, design)]
            own = {part: self._part(part)[stat] for part in segment[2]}
            slots, parts = segment[3], segment[4]
            if len(bp) >= len(segment[1]):   # (every slot of the grid the options were made from)
                got = tuple(map(add, map(col.__getitem__, slots), map(own.__getitem__, parts)))
            else:
                n = len(bp)
                got = tuple(col[i] + own[part] if i < n else NOT_BATCHED for i, part in zip(slots, parts))
            if len(self._answers) >= MEMO_SIZE // 10:
                self._answers.clear()
            self._answers[key] = got
        return got

    def after(self, bp: tuple, outside: tuple, design: Any, slot: int, part: str, stat: str) -> int:
        """Statistic ``stat`` (of ``STATS``) of blueprint ``bp`` (plus the ``outside`` parts, on
        ``design``) once ``part`` fills slot ``slot``: the blueprint's sum without that slot's
        part (kept per blueprint, :meth:`without`) plus the part's own; a ``ValueError`` when
        ``bp`` has no such slot. (A sum, so one per slot serves every part: an Upgrade choice
        asks of every part in every slot.)"""
        if not 0 <= slot < len(bp):
            raise ValueError(f"no slot {slot} in a blueprint of {len(bp)}")
        last = self._last
        sums = last[3] if last[0] is bp and last[1] is outside and last[2] is design else \
            self.without(bp, outside, design)
        return sums[slot][stat] + self._part(part)[stat]  # type: ignore[no-any-return]

    def without(self, bp: tuple, outside: tuple, design: Any) -> tuple[dict[str, int], ...]:
        """Per slot of blueprint ``bp``: the ``STATS`` of ``bp`` plus ``outside`` on ``design``
        with that slot's part left out (memoised; the last asked kept by identity)."""
        key = (bp, outside, design)
        sums = self._after.get(key)
        if sums is None:
            total = self.stats(bp + outside, design)
            sums = tuple({k: total[k] - p[k] for k in STATS} for p in map(self._part, bp))
            if len(self._after) >= MEMO_SIZE:
                self._after.clear()
            self._after[key] = sums
        self._last = (bp, outside, design, sums)
        return sums

    def _part(self, part: str) -> dict[str, int]:
        """The ``STATS`` of one part (``drives``: its move plus jumps)."""
        got = self._parts.get(part)
        if got is None:
            rs = self.rs()
            assert rs is not None
            f = rs.entities[part].fields
            got = self._parts[part] = {k: f[k] for k in STAT_FIELDS}
            got["drives"] = got["move"] + got["jumps"]
        return got

    def stats(self, parts: tuple[str, ...], design: Any) -> dict[str, Any]:
        """Summed ``STAT_FIELDS`` of ``parts`` plus ``design``'s printed bonuses, and their
        ``cannons`` and ``missiles`` (tuples of dice damages). Shared: do not mutate."""
        key = (parts, design)
        s = self._stats.get(key)
        if s is not None:
            return s
        rs = self.rs()
        assert rs is not None
        ents = rs.entities
        s = dict.fromkeys(STAT_FIELDS, 0)
        cannons: list[int] = []
        missiles: list[int] = []
        for part in parts:
            f = ents[part].fields
            for k in STAT_FIELDS:
                s[k] += f[k]
            cannons += f["cannons"]
            missiles += f["missiles"]
        if design is not None:
            d = ents[design].fields
            for k in DESIGN_BONUSES:
                s[k] += d[k]
        s["drives"] = s["move"] + s["jumps"]
        s["cannons"], s["missiles"] = tuple(cannons), tuple(missiles)
        if len(self._stats) >= MEMO_SIZE:
            self._stats.clear()
        self._stats[key] = s
        return s


_TABLES: dict[int, Tables] = {}


def tables(rs: Any) -> Tables:
    """The :class:`Tables` of ruleset ``rs`` (built on first use; dropped with the ruleset)."""
    if _LAST[0] is rs:
        return _LAST[1]
    t = _TABLES.get(id(rs))
    if t is None or t.rs() is not rs:
        t = _TABLES[id(rs)] = Tables(rs)
        weakref.finalize(rs, _TABLES.pop, id(rs), None)
    _LAST[:] = [rs, t]
    return t


_LAST: list = [None, None]     # the ruleset asked last and its tables
