"""Blueprint arithmetic for the Eclipse primitives: tables read once per ruleset from the rule
files' entities, and memoised statistics of a list of parts.

Which blueprints are legal is the rules' (``upgrade_step`` in ``rules/actions.rules``: energy,
drives, ``not_on``); this module only makes the numbers they ask for cheap. An Upgrade choice
asks for the statistics after every single-part change of every blueprint: they are sums of
the parts' fields, so each distinct list of parts is summed once (:meth:`Tables.stats`) and an
option text ``"cls#slot=part"`` is parsed once (:meth:`Tables.change`).
"""

from __future__ import annotations

import weakref
from typing import Any

# A blueprint's statistics: the part fields that add up (kind part, rules/ships.rules) and the
# printed bonuses of a design (kind design) for the first five of them.
STAT_FIELDS = ("hull", "computer", "shield", "initiative", "move", "jumps", "energy", "regenerates")
DESIGN_BONUSES = ("initiative", "energy", "computer", "shield", "hull")
MEMO_SIZE = 100_000   # statistics kept per ruleset before the memo starts afresh


class Tables:
    """What the blueprint primitives read of one ruleset, read once.

    ``classes``: the ship classes (a frozenset of entity names); ``parts``: the parts in the
    rule files' order; ``basic``: the parts everybody may place; ``tech_parts``: ``(part,
    tech)`` for the parts a technology unlocks, in the same order."""

    __slots__ = ("rs", "classes", "parts", "part_set", "basic", "tech_parts", "_changes",
                 "_stats", "_after", "_legal", "class_order", "mobile", "energy", "drive",
                 "not_on", "__weakref__")

    def __init__(self, rs: Any) -> None:
        self.rs = weakref.ref(rs)
        ents = rs.entities
        self.class_order: tuple[str, ...] = tuple(rs.by_kind.get("ship_class", ()))
        self.classes = frozenset(self.class_order)
        self.mobile = {c: bool(ents[c].fields["mobile"]) for c in self.class_order}
        self.parts: tuple[str, ...] = tuple(rs.by_kind.get("part", ()))
        self.part_set = frozenset(self.parts)
        self.basic = frozenset(p for p in self.parts if ents[p].fields["basic"])
        self.tech_parts = tuple((p, ents[p].fields["tech"]) for p in self.parts)
        self._changes: dict[str, tuple[str, int, str]] = {}
        self._stats: dict[tuple[tuple[str, ...], Any], dict[str, Any]] = {}
        self._after: dict[tuple, dict[str, Any]] = {}
        self._legal: dict[tuple, tuple[str, ...]] = {}
        self.energy = {p: ents[p].fields["energy"] for p in self.parts}
        self.drive = {p: ents[p].fields["move"] + ents[p].fields["jumps"] for p in self.parts}
        self.not_on = {p: frozenset(ents[p].fields["not_on"]) for p in self.parts}

    def available(self, techs: tuple, spares: tuple) -> list[str]:
        """The parts a player with technologies ``techs`` and spare discovery parts ``spares``
        may place: basic parts and those of their technologies (rule-file order), then the
        spare parts not among them (first-come order)."""
        have = set(techs)
        out = [p for p, t in self.tech_parts if p in self.basic or t in have]
        out += [p for p in dict.fromkeys(spares) if p not in out]
        return out

    def legal_changes(self, techs: tuple, spares: tuple, boards: tuple) -> tuple[str, ...]:
        """The legal single-part changes ``"cls#slot=part"`` of a player with ``techs`` and
        ``spares`` whose blueprints are ``boards`` (``(grid parts, outside parts, design)`` per
        ship class, in ``class_order``): afterwards energy >= 0, a drive (move + jumps > 0)
        exactly on ``mobile`` classes, no part on a class in its ``not_on``. Sums are
        linear: a change's totals are the blueprint's minus the old part's plus the new one's."""
        key = (techs, spares, boards)
        got = self._legal.get(key)
        if got is not None:
            return got
        avail = self.available(techs, spares)
        energy, drive, not_on = self.energy, self.drive, self.not_on
        out = []
        for cls, (bp, extra, design) in zip(self.class_order, boards):
            if not bp:
                continue
            s = self.stats(bp + extra, design)
            e0, d0, mobile = s["energy"], s["move"] + s["jumps"], self.mobile[cls]
            for i, old in enumerate(bp):
                e1, d1 = e0 - energy[old], d0 - drive[old]
                for part in avail:
                    if part != old and e1 + energy[part] >= 0 \
                            and mobile == (d1 + drive[part] > 0) and cls not in not_on[part]:
                        out.append(f"{cls}#{i}={part}")
        got = tuple(out)
        if len(self._legal) >= MEMO_SIZE:
            self._legal.clear()
        self._legal[key] = got
        return got

    def change(self, o: Any) -> tuple[str, int, str] | None:
        """``(class, slot, part)`` of an option text ``"cls#slot=part"`` naming a ship class and
        a part of this ruleset, or None (the slot is not checked against a blueprint here)."""
        got = self._changes.get(o) if type(o) is str else None
        if got is not None:
            return got
        return self._parse(o)

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

    def after(self, bp: tuple, outside: tuple, design: Any, slot: int, part: str) -> dict[str, Any]:
        """The statistics of blueprint ``bp`` (plus the ``outside`` parts, on ``design``) once
        ``part`` fills slot ``slot``."""
        key = (bp, outside, design, slot, part)
        s = self._after.get(key)
        if s is None:
            s = self.stats(bp[:slot] + (part,) + bp[slot + 1:] + outside, design)
            if len(self._after) >= MEMO_SIZE:
                self._after.clear()
            self._after[key] = s
        return s

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
