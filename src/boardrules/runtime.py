"""The runtime every rule runs on: a copy-on-write view of the state plus the
effects of one action, shared by the compiled rules and the interpreter.

A :class:`Context` reads the committed state's values and writes into a small
overlay, so trying an action costs only what it changes, and an action that breaks
a rule leaves the committed state untouched (the overlay is simply dropped).
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any, NamedTuple

import attrs

from .lang.ast import Span
from .limits import LIMITS
from .quoting import counted, rules_value

if TYPE_CHECKING:
    from .ruleset import Ruleset

MISSING = object()
CHANCE = -1  # the "player" who decides chance outcomes
BUDGET_HELP = ("execution budget: the steps (loop turns, list elements, rules run) one action, "
               "setup step or flow step may take before it is stopped with an error "
               "(default: the limit in force, limits.LIMITS.max_steps)")


def budget_hint(max_steps: int | None) -> str:
    """What a stuck game's error adds when the budget was lowered (``play`` and ``simulate``
    ``--max-steps``; None: not given): every action may be refused only for running past it."""
    return (f" (or every action takes more than the {max_steps} steps of --max-steps?)"
            if max_steps is not None and max_steps < LIMITS.max_steps else "")


MAX_NUMBER = 2 ** 63 - 1

# The keys of the flow's values (the engine's own: stage, step, round, whose turn...) and of the
# player count, made once and shared by every module that reads or writes them: a state's table
# then holds these very objects, and a lookup matches at the identity test instead of comparing
# an equal tuple item by item (the flow reads them several times an action).
F_STAGE, F_STEP, F_ROUND, F_ROUNDS = ("f", "stage"), ("f", "step"), ("f", "round"), ("f", "rounds")
F_TURN, F_PASSED, F_ACTED, F_AFTER = ("f", "turn"), ("f", "passed"), ("f", "acted"), ("f", "after")
F_LANES, F_OVER = ("f", "lanes"), ("f", "over")
NPLAYERS = ("nplayers",)
FLOW_KEYS = (F_STAGE, F_STEP, F_ROUND, F_ROUNDS, F_TURN, F_PASSED, F_ACTED, F_AFTER, F_LANES, F_OVER)


class RuleViolation(Exception):
    """Raised inside rules when an action breaks one; the engine turns it into
    :class:`~boardrules.errors.IllegalActionError`."""

    def __init__(self, message: str, rule: str = "", span: Span | None = None):
        self.message = message
        self.rule = rule
        self.span = span
        super().__init__(message)


class BudgetExceeded(RuleViolation):
    """Raised when rules run past their execution budget (``max_steps``, :mod:`boardrules.limits`); the
    innermost loop that sees it fills in its position."""


class RuleFailed(RuleViolation):
    """Raised when a rule fails at run time on a value it cannot take (an index outside a list,
    a text where a number is needed, no entity where one is, a value of another type set to a
    variable, a player that is none): a defect of the rules, not a rule saying no; the engine
    turns it into :class:`~boardrules.errors.RuleFailedError`."""


class TooDeep(RuleViolation):
    """Raised when rules run one another more than ``LIMITS.max_call_depth`` levels deep (a
    procedure, trigger or slot running itself without end): its rule is the procedure entered
    (a procedure runs under its caller's name otherwise), and the innermost ``call`` or ``run``
    statement that sees it gives it its position."""


class NumberTooLarge(RuleViolation):
    """Raised when rules would make a number beyond theirs (±MAX_NUMBER: a sum, a product, a
    resource gained). Listing the legal actions assumes numbers stay far below that
    (lang/inert.py: a ``gain`` cannot break a rule), so an action listed as legal may meet it
    when played: it is refused then, the game unchanged (game/flow.py, ``_listed_but_broken``)."""


class PrimitiveFailed(RuleViolation):
    """Raised when a primitive's Python code raises something other than a rule violation (a
    defect of the plugin that provides it: see ``lang/semantics.primitive_failed``); the engine
    turns it into :class:`~boardrules.errors.PrimitiveError`."""


@attrs.frozen
class Decision:
    """A choice some player (or chance) must make before play goes on.

    ``options`` is the tuple of allowed values (for dice, a :class:`Dice`);
    ``block`` indexes the ``choose``/``draw`` body in the ruleset; ``env`` holds the
    bindings the body sees; ``bag`` names the list variable a ``draw`` takes from;
    ``lane`` the lane of a ``lanes`` step whose turn raised it (docs/api.md, "Interleaved
    turns"), None for a decision of the game's one line of play.
    """

    player: int
    label: str
    options: Any
    optional: bool
    prompt: str
    block: int
    env: tuple[tuple[str, Any], ...]
    me: int | None
    source: str
    bag: str | None = None
    lane: int | None = None  # the lane of interleaved turns it belongs to (None: the game's)


@attrs.frozen
class Dice:
    """The outcomes of rolling ``count`` six-sided dice: tuples of values 1..6."""

    count: int

    def __contains__(self, value: object) -> bool:
        return (isinstance(value, tuple) and len(value) == self.count
                and all(isinstance(v, int) and 1 <= v <= 6 for v in value))

    def __iter__(self) -> Iterator[tuple[int, ...]]:
        import itertools
        return itertools.product(range(1, 7), repeat=self.count)

    def __len__(self) -> int:
        n: int = 6 ** self.count
        return n

    def sample(self, rng: random.Random) -> tuple[int, ...]:
        return tuple(rng.randint(1, 6) for _ in range(self.count))


class Event(NamedTuple):
    """One entry of the event log: what changed, for whom, and which rule did it.

    An immutable named tuple (``ply``, ``kind``, ``player``, ``detail``, ``source``): the engine
    makes several per action and the log keeps them all, and a tuple of plain values is quick to
    make and drops out of the garbage collector's walks once it has been through one."""

    ply: int
    kind: str
    player: int | None
    detail: Any
    source: str


# The tables Context.merged made last: (table, the table it was made from, the keys written),
# newest last (strong references: an entry's tables cannot be freed and their ids reused);
# kept once changed_keys has been asked (a game whose plugins never ask pays nothing)
MERGES_KEPT = 16
_MERGES: deque[tuple[dict[Any, Any], dict[Any, Any], tuple[Any, ...]]] = deque(maxlen=MERGES_KEPT)
_MERGES_ASKED = False


def changed_keys(old: dict[Any, Any], new: dict[Any, Any]) -> set[Any] | None:
    """The keys whose values differ between state tables ``old`` and ``new`` (not the same
    object, or in one only), worked out from the keys written, without comparing the tables
    whole, when ``new`` was made from ``old`` by one or more of the last ``MERGES_KEPT``
    :meth:`Context.merged`; else None (the caller compares them). Per-state memos ask it to
    carry their answers to the next state (an Eclipse state has about 150 keys, an action
    writes a few). The first call starts the record: it and those soon after answer None."""
    global _MERGES_ASKED
    _MERGES_ASKED = True
    written: set[Any] = set()
    table = new
    try:
        for _ in range(MERGES_KEPT + 1):
            if table is old:
                break
            for made, base, keys in reversed(_MERGES):
                if made is table:
                    written.update(keys)
                    table = base
                    break
            else:
                return None
        else:
            return None
    except RuntimeError:   # (another thread merged meanwhile: the deque changed)
        return None
    return {k for k in written if old.get(k, MISSING) is not new.get(k, MISSING)}


# ``_event(Event, (ply, kind, player, detail, source))``: an Event without the named tuple's own
# ``__new__`` (a Python function: the engine makes several events per action)
_event = tuple.__new__


class Context:
    """Working view of one state while an action runs.

    ``base`` is the committed values (never mutated); writes go to ``w``.
    ``me`` is the player the current rule speaks for; ``env`` the local bindings;
    ``queued`` the decisions created so far; ``events`` what changed.
    """

    __slots__ = ("rs", "base", "w", "me", "env", "queued", "events", "source", "ply", "depth", "np",
                 "steps", "budget", "lazy", "partial")

    def __init__(self, rs: Ruleset, base: dict[tuple[Any, ...], Any], me: int | None = None,
                 ply: int = 0, budget: int | None = None) -> None:
        self.rs = rs
        self.base = base
        self.w: dict[tuple[Any, ...], Any] = {}
        self.me = me
        self.env: dict[str, Any] = {}
        self.queued: list[Decision] = []
        self.events: list[Event] = []
        self.source = ""
        self.ply = ply
        self.depth = 0
        # the player count never changes during a game: read once (rules ask for it constantly)
        # (every state holds it: the game's setup writes it first)
        self.np: int = base.get(NPLAYERS)  # type: ignore[assignment]
        self.budget = budget = LIMITS.max_steps if budget is None else budget
        self.steps = budget  # left of the execution budget
        self.lazy = False     # a listing's run: choices may be cut short (lang/lazy.py)
        self.partial = False  # one was: the run is not the full run

    # ---- values ----
    def get(self, key: tuple[Any, ...]) -> Any:
        w = self.w
        if w and key in w:   # (a key tuple is hashed on every lookup: none in an empty overlay)
            return w[key]
        v = self.base.get(key, MISSING)
        if v is MISSING:
            return self.rs.key_defaults[key]
        return v

    def flow_reader(self) -> Callable[[tuple[Any, ...]], Any]:
        """A reader of the flow's keys (``FLOW_KEYS``, whose default is None:
        :meth:`Ruleset.default_of`) that reads them as :meth:`get` does, for a caller that reads
        several and writes nothing meanwhile: while this context has written nothing, the
        committed table's own ``get`` (a call into C instead of one into Python)."""
        return self.get if self.w else self.base.get

    def get_each(self, keys: Iterable[tuple[Any, ...]]) -> list[Any]:
        """``[self.get(k) for k in keys]`` in one call: a primitive that reads many values (every
        hex in range) saves a call and a test of the overlay per key."""
        w, base, defaults = self.w, self.base, self.rs.key_defaults
        out = []
        for key in keys:
            v = w[key] if w and key in w else base.get(key, MISSING)
            out.append(defaults[key] if v is MISSING else v)
        return out

    def set(self, key: tuple[Any, ...], value: Any) -> None:
        self.w[key] = value

    def merged(self) -> dict[tuple[Any, ...], Any]:
        """The committed values with this context's writes applied (defaults dropped): a new
        table, never to be changed (the next state's values; :func:`changed_keys` knows it
        differs from ``base`` at most at the keys written)."""
        # (dict.copy clones the table as it is; dict(base) inserts the keys one by one, hashing
        # every key tuple again once the table has holes: 20-40 µs for a Gaia state)
        out = self.base.copy()
        defaults = self.rs.key_defaults
        w = self.w
        for k, v in w.items():
            if v == defaults[k]:
                out.pop(k, None)
            else:
                out[k] = v
        if _MERGES_ASKED:
            _MERGES.append((out, self.base, tuple(w)))
        return out

    # ---- players ----
    @property
    def nplayers(self) -> int:
        return self.np

    def player(self, p: object = MISSING) -> int:
        if p is MISSING:
            p = self.me
        if type(p) is int and 0 <= p < self.np:  # the common case, checked as below
            return p
        if p is None or not isinstance(p, int) or isinstance(p, bool) or not 0 <= p < self.nplayers:
            raise RuleFailed(f"no player here (got {rules_value(p)}; players are 0..{self.np - 1})", self.source)
        return p

    # ---- resources ----
    def gain(self, res: str, n: int, p: int | None = None) -> None:
        rs = self.rs
        if p is None:
            p = self.me
        if type(p) is not int or not 0 <= p < self.np:   # (the common case of player())
            p = self.player(p)
        rdef = rs.resources[res]
        if n < 0:
            return self.lose(res, -n, p)
        key = ("r", res, p)
        old = self.get(key)
        new = old + n
        cap = rdef.cap(self, p) if rdef.cap is not None else None
        if cap is not None and new > cap:
            new = max(cap, old)
        if new > MAX_NUMBER:
            raise NumberTooLarge(f"gaining {n} {res} would make {new}, more than the rules' numbers "
                                 f"go to ({MAX_NUMBER})", self.source)
        self._change(res, p, key, old, new, "gain")

    def pay(self, res: str, n: int, p: int | None = None) -> None:
        if p is None:
            p = self.me
        if type(p) is not int or not 0 <= p < self.np:   # (the common case of player())
            p = self.player(p)
        rdef = self.rs.resources[res]
        key = ("r", res, p)
        old = self.get(key)
        if n < 0:
            raise RuleViolation(f"cannot pay a negative amount of {res}", self.source)
        if old - n < rdef.floor:
            raise RuleViolation(f"needs {n} {res}, has {old - rdef.floor}", self.source)
        self._change(res, p, key, old, old - n, "pay")

    def lose(self, res: str, n: int, p: int | None = None) -> None:
        p = self.player(self.me if p is None else p)
        if n < 0:   # (as 'gain' of a negative count loses: within the cap and the numbers)
            return self.gain(res, -n, p)
        rdef = self.rs.resources[res]
        key = ("r", res, p)
        old = self.get(key)
        self._change(res, p, key, old, max(old - n, min(rdef.floor, old)), "lose")

    def _change(self, res: str, p: int, key: tuple[Any, ...], old: int, new: int, kind: str) -> None:
        if new == old:
            return
        w = self.w   # (Context.set inlined: every resource change comes here)
        w[key] = new
        source = self.source or "rules"
        if self.rs.resources[res].scored:
            skey = ("s", p, source)
            w[skey] = self.get(skey) + new - old
        self.events.append(_event(Event, (self.ply, kind, p, (res, new - old), source)))

    # ---- decisions ----
    def queue(self, decision: Decision) -> None:
        self.queued.append(decision)

    def violation(self, message: str, span: Span | None = None) -> RuleViolation:
        return RuleViolation(message, self.source, span)

    def failure(self, message: str, span: Span | None = None) -> RuleFailed:
        """A rule failing at run time on a value it cannot take (:class:`RuleFailed`)."""
        return RuleFailed(message, self.source, span)

    def over_budget(self) -> BudgetExceeded:
        """The error for rules that ran past the execution budget (``steps`` < 0)."""
        return BudgetExceeded(f"the rules ran more than {counted(self.budget, 'step')} (the execution "
                              "budget: a loop too long, or rules calling each other without end)",
                              self.source)
