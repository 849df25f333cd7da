"""The engine's limits, in one place: how far rules, rule files, records and games may go before
the engine stops them with an error (an untrusted rule file or record must not hang or exhaust
whoever reads it). Every check reads :data:`LIMITS` when it runs; nothing keeps a copy, so a
record is read under the limits its game is played under.

    from boardrules.limits import LIMITS
    with LIMITS.changed(max_steps=50_000, max_moves=2_000):
        game = boardrules.new_game("harvest", players=2, seed=1)
        ...   # played, saved and loaded under these limits; the old ones are back afterwards

docs/language.md, *Limits*, says what each one refuses and how it is said.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import attrs


def _at_least_one(_: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    """A limit is a whole number (seconds: any number) of at least 1 (seconds: above 0)."""
    if attribute.name == "pipe_wait":
        if not (isinstance(value, (int, float)) and not isinstance(value, bool) and 0 < value < float("inf")):
            raise ValueError(f"limit pipe_wait must be a number of seconds above 0, not {value!r}")
    elif not (type(value) is int and value >= 1):
        raise ValueError(f"limit {attribute.name} must be a whole number of at least 1, not {value!r}")


def _no_deeper(_: Any, attribute: attrs.Attribute[Any], value: int) -> None:
    """A limit of depth bounds a recursion: it may be lowered, not raised past Python's stack."""
    _at_least_one(_, attribute, value)
    default = attribute.default
    if value > default:   # type: ignore[operator]
        raise ValueError(f"limit {attribute.name} may be lowered, not raised past {default}: it "
                         f"keeps the engine's recursion within Python's stack")


@attrs.frozen(kw_only=True)
class Limits:
    """The engine's limits; each field a unit and what it bounds. Changed only for a block
    (:meth:`changed`); the validators refuse a value that is not a whole number of at least 1
    (``ValueError``), and the depths past their defaults, which keep recursion within Python's."""

    max_steps: int = attrs.field(default=1_000_000, validator=_at_least_one)
    """Steps (loop turns, list elements walked or built, rules run) one action, setup step or
    flow step may take: the default execution budget of :func:`boardrules.new_game` and
    ``--max-steps``. Rules that take more are stopped with ``ExecutionBudgetError``."""
    max_listing_steps: int = attrs.field(default=200_000_000, validator=_at_least_one)
    """Steps one listing (``legal_actions()``, ``sample``, ``candidates()``, chance's redraws)
    may spend in all: each candidate tried has the whole ``max_steps``, so rules taking many
    steps for each of many candidates would multiply them without end. The games here spend at
    most about 1,200,000 in one listing; a Gaia house rule of an action over two hexes without
    a ``where`` (about 36,000 candidates) spends 58,700,000 (about a second)."""
    max_replay_steps: int = attrs.field(default=100_000_000, validator=_at_least_one)
    """Steps the moves of one record may take in all when it is replayed (``load_game``,
    ``Game.from_record``, ``boardrules replay``): each move has the whole ``max_steps``, so a
    record of ``max_moves`` moves each spending it would take 10^11 steps (hours). A whole game
    here takes under 100,000 (Eclipse 4p, 991 moves: 47,591); a record past it is refused
    with ``ExecutionBudgetError`` naming the move, after at most about a minute."""
    max_replay_events: int = attrs.field(default=1_000_000, validator=_at_least_one)
    """Events (``game.log``: resource changes, the rules' events) the moves of one record may
    make in all when it is replayed: an event is kept for the game's life (about 150 bytes), and
    a loop's ``gain`` makes one each turn, so a record's moves may make many more than their
    steps. A whole game here makes under 1,000 (Eclipse 6p, 1,433 moves: 480); past it the
    replay is refused with ``ExecutionBudgetError`` naming the move (about 150 MB kept)."""
    max_candidates: int = attrs.field(default=100_000, validator=_at_least_one)
    """Argument combinations one action lists in one state, and outcomes of a roll listed
    (6^N for N dice): real games list at most about 150; each is tried and kept."""
    max_list: int = attrs.field(default=100_000, validator=_at_least_one)
    """Elements of a list rules build (at every depth, for a list of lists), of a range, and of
    an option's value: saving, hashing and comparing a value walk all of it."""
    max_nesting: int = attrs.field(default=48, validator=_no_deeper)
    """Levels of brackets nested in a rule file, and of lists nested in a value rules build or
    an option holds: saving, hashing and comparing a value recurse to its bottom (Python's hash
    of a list 100,000 levels deep overflows the C stack)."""
    max_tree_depth: int = attrs.field(default=200, validator=_no_deeper)
    """Levels of a rule file's syntax tree (a chain ``a + b + ...`` is one level per operator): every pass
    (building, checking, compiling, running) recurses over it. Real rule files stay under 25."""
    max_call_depth: int = attrs.field(default=100, validator=_no_deeper)
    """Levels of rules running rules (triggers, procedures, slots); real games use under 10."""
    max_tokens: int = attrs.field(default=50_000, validator=_at_least_one)
    """Words, numbers and symbols of one rule file, counted before it is parsed: parsing costs
    some 20 µs a token. The largest rule file shipped has under 4,000."""
    max_file_bytes: int = attrs.field(default=1 << 20, validator=_at_least_one)
    """Bytes of one rule file (a device such as ``/dev/zero`` is read no further)."""
    max_record_bytes: int = attrs.field(default=64 << 20, validator=_at_least_one)
    """Bytes of one record file."""
    max_results_bytes: int = attrs.field(default=1 << 30, validator=_at_least_one)
    """Bytes of one results file of ``boardrules simulate`` read back (``read_results``), and of
    its data uncompressed (Parquet): it is read whole, its every row kept. 100,000 Gaia games,
    the most one ``simulate`` plays, write about 1 GiB of records."""
    max_results_rows: int = attrs.field(default=900_000, validator=_at_least_one)
    """Rows (one a seat) of one results file read back: a row costs about 1 KB in memory, its
    record apart; ``simulate`` writes at most 100,000 games of at most 9 players."""
    max_record_names: int = attrs.field(default=1_000, validator=_at_least_one)
    """Options, modules, house-rule files and rule texts one record may give, each (a game
    declares a few dozen options and modules; a record holds a few files): each is checked
    (looked up, its value read, parsed) before a move is replayed, so a record of a million
    options took 21 s and 415 MB to be refused; counted as soon as the JSON is read."""
    max_record_tokens: int = attrs.field(default=100_000, validator=_at_least_one)
    """Words, numbers and symbols of all the rule texts one record gives (house rules and base
    texts) together, counted as soon as its JSON is read: each is parsed, checked and compiled
    before a move is replayed, some 50 µs a token, so a 64 MiB record of files each within
    ``max_tokens`` took about 20 minutes. A whole game's rules hold under 25,000."""
    max_record_elements: int = attrs.field(default=200_000, validator=_at_least_one)
    """Elements (a list's items, a mapping's entries, at every depth) one record's JSON may
    hold besides its moves (``max_moves`` more), counted from its commas and brackets outside
    its texts before it is parsed: parsing costs about 1 µs and 200 bytes an element (a record
    of a million options took 1.4 s and 200 MB to read before it was refused). A game's record
    holds one per move and some dozens besides; a Gaia site record about 2,500."""
    max_moves: int = attrs.field(default=100_000, validator=_at_least_one)
    """Moves (player actions and chance outcomes) a game may have, and a record hold (the
    games here take a few thousand; ``play_out`` stops bots after as many actions): every move
    is kept for undo and the record."""
    max_values: int = attrs.field(default=100_000, validator=_at_least_one)
    """Values a game's state holds (resources, levels, variables, owners... that differ from
    their defaults; the games here hold a few hundred): every action copies them."""
    max_dice: int = attrs.field(default=64, validator=_at_least_one)
    """Dice one ``dice(n)`` rolls at once."""
    pipe_wait: float = attrs.field(default=20.0, validator=_at_least_one)
    """Seconds a read of a rule file or record that is a pipe or a device (a FIFO, a shell's
    ``<(...)``, a terminal) may take in all before it gives up with ``TimeoutError``: a writer
    that never writes, or never finishes, would hang the reader."""

    @contextmanager
    def changed(self, **changes: Any) -> Iterator[Limits]:
        """The limits with ``changes`` (field names and values) in force for the block, for the
        whole process; the values before are back when it ends, also on an error. Raises
        ``TypeError`` for an unknown field and ``ValueError`` for a value out of bounds, before
        anything changes. Not for threads that play at once: every thread reads the same limits.
        Rulesets built in the block are built (checked, analysed) under its limits."""
        new = attrs.evolve(self, **changes)   # (validated: nothing changed yet on an error)
        old = attrs.evolve(self)
        _set(self, new)
        try:
            yield self
        finally:
            _set(self, old)

    def copy(self) -> Limits:
        """These limits as they are now, a value no block changes (what a worker is sent, the
        ruleset cache's key). For :data:`LIMITS` the same object until they change: every
        ``new_game`` asks, and a new copy checks every field again and is compared field by
        field in the cache (about a third of a cached ``build_ruleset``)."""
        global _copy
        if self is not LIMITS:
            return attrs.evolve(self)
        if _copy is None:
            _copy = attrs.evolve(self)
        return _copy


def _set(limits: Limits, values: Limits) -> None:
    global _copy
    _copy = None   # (LIMITS.copy() is taken anew)
    for field in attrs.fields(Limits):   # (frozen for everyone else: only changed() and adopt())
        object.__setattr__(limits, field.name, getattr(values, field.name))


def raise_with(name: str) -> str:
    """What a message ends with for the limit ``name`` a user hit: its field and how to raise
    it (a record of a long game, a larger file, is refused by a limit, not broken)."""
    return f"LIMITS.{name}; raise it with boardrules.limits.LIMITS.changed({name}=N)"


def in_bytes(size: int) -> str:
    """A limit in bytes as a user reads it: ``64 MiB`` when it is whole mebibytes, else ``N bytes``."""
    return f"{size >> 20} MiB" if size % (1 << 20) == 0 else f"{size} bytes"


def adopt(values: Limits) -> None:
    """Put ``values`` in force for the rest of this process: a worker process of ``simulate``
    takes its caller's limits so (its pool's initializer, or a Ray task)."""
    _set(LIMITS, values)


LIMITS = Limits()
"""The limits in force, read by every check when it runs."""
_copy: Limits | None = None   # (LIMITS.copy() while they stay as they are)
