"""Which statements cannot break a rule: the static half of candidate pruning (guards.py).

An action's body is often a few checks (``require``, ``pay``, ``take``...) followed by
effects that cannot fail (``gain``, ``set``, an ``emit`` whose triggers only gain...). Once
the checks have passed, the action is legal whatever those effects do, so listing the legal
actions need not run them. :meth:`Inert.split` finds where that *inert rest* of a body
begins, and a bound on the execution-budget steps it may take (the engine accepts the
candidate only when that many steps are left: a budget overrun is a broken rule too).

"Cannot fail" is decided conservatively, on the rules as the checker typed them:

- statements: ``gain``/``lose`` of whole numbers to ``me`` (with a cap that is a number),
  ``set`` of a variable for ``me`` (by index for per-hex/per-entity ones), ``let``, ``if``
  and ``for`` over inert parts, ``emit`` whose every trigger has an inert condition and
  body, ``call`` of a procedure with an inert body, ``run`` of a slot whose body is inert for
  every entity of the kind (the merged ruleset's bodies: a module's ``extend`` is part of
  them), ``after turn`` (its block runs when the turn ends, which the engine handles apart);
- expressions: constants, names (bindings, resources, tracks, supplies, variables, options,
  entities, kinds, ``me``, ``players``...), fields of an entity that is present (see below),
  indexes of per-hex/per-entity variables, indexes of lists proven in range (below),
  ``== != not and or``, ``< <= > >= + - *`` on whole numbers (``//`` and ``%`` by a number
  written in the rule, not zero), ``in`` of a list,
  ``any/all/count/sum`` over lists, ``held(KIND)``, ``holds``, ``owner``, ``len``,
  ``passed``, ``+`` of lists whose sizes are bounded (below), ``without_one`` and ``without``
  of a list, ``first`` of a list (optional unless its length is proven 1 or more, below),
  calls of ``pure`` primitives (primitives.py); nothing else (no other primitive, no division by a
  value, no range).

Optional values (``T?``) are narrowed as the rules test them: a binding (a parameter, a
``let``, a loop variable) or ``round`` is known present after ``X != none`` in the condition of
an ``if`` (in its branch; ``X == none`` in the branches after it), in the items after it of an
``and`` (``X == none or ...``: of an ``or``), in a loop's or quantifier's ``where`` for its
body, and after a ``require`` run before the inert rest. A field of a *variable* of an optional
entity (per player or global, as ``myfaction``) is read as present when the rest never sets
that variable: the guard then checks, where the rest begins, that it is present for every
player (:attr:`Facts.needs`). Likewise a list variable (per player or global) the rest reads
but never sets is taken to hold at most SHORT elements, which the guard checks
(:attr:`Facts.sized`): a loop over it is then bounded by that, not by LIMITS.max_list. The rest may
still append to it (``set V = V + L``, ``L`` of a bounded size: :attr:`Facts.growth`) when all
its appends, loops counted, add at most GROW elements: its reads are then bounded by SHORT +
GROW. A list index ``L[i]`` is in range when conditions tested on the
way (an ``if``, an ``and``, a ``where``) state ``i >= 0`` and ``i < len(L)`` in so many
words, up to constants added on either side (``len(L) >= n and n >= 1`` proves ``L[n - 1]``);
such a fact holds until a statement writes a name it mentions. ``let n = E`` (``E`` a whole
number) states ``n == E``, and ``pay N R`` (for ``me``) is inert where the facts prove
``0 <= N <= R - floor``: ``let n = R; pay n R`` with a floor of 0 or more, ``if R >= 3 {
pay 3 R }`` (a resource never goes below its floor: it starts at or above it, and gain, lose
and pay keep it there).

Rules the flow runs speak for no player (a ``do`` step, the engine's own events: game/flow.py,
``_advance``): :meth:`Inert.anonymous` analyses them with ``me`` unknown, where anything read or
written for ``me`` (a resource, ``gain`` without ``to``, ``held``, a per-player variable, a
primitive) is not inert. A player is named there by a loop variable over ``players`` or
``others`` (a *seat*: surely one of the game's players): ``gain ... to p``, ``set V of p``,
``E of p`` (analysed with ``me`` known) and ``call f(p)`` (the procedure's parameter a seat
too) are inert with it. So is a loop variable over a global ``list[player]`` variable, or
``first`` of one (its length proven), whose elements are then relied on as seats
(:attr:`Facts.seats`: the flow checks them where its walk begins, lang/flow.py; an action's
rest never relies on them): every write of such a variable must keep them seats (a list of
seats, ``players``, ``+``, ``without``, another such variable, itself relied on).

Ownership: ``discard`` of a present entity cannot fail; ``take X`` can (X belongs to another
player) and is inert where ``owner(X) == none`` or ``== me`` was tested on the way (a ``require``
before the rest, an ``if``, a ``where``), until ``X``'s names are rebound or a ``take`` runs (no
inert statement but ``take`` gives an entity to a player). ``pass`` is inert for the player whose
unit it is, once (not in a loop, a trigger, a slot run for another player, a unit the flow runs):
the rest then ends its player's turn, which the engine checks apart (:data:`PASS`,
game/verdicts.py ``_guard_settles``).

The analysis also bounds how deep the rules (procedures, slots, triggers), so the
guard can check that the rest stays within LIMITS.max_call_depth.

Numbers: ``+``/``-``/``*``/``sum`` refuse results beyond ±MAX_NUMBER (2**63 - 1); the analysis
assumes the whole numbers in a state stay far below that (each is made by rules bounded by
the same limit), as every bundled game's do. Lists: a list in the state is taken to have at
most LIMITS.max_list elements (rules cannot build a longer one; a primitive that stored one would
make the step bound too low).
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

import attrs

from ..limits import LIMITS
from . import ast as A
from . import semantics as S

if TYPE_CHECKING:
    from ..ruleset import Ruleset

# a type: "int", "bool", "text", "player", "hex", "none", "entity:KIND", "list:T", "handle"
# (a per-hex/per-entity variable named without its index), or None (a value of unknown type);
# a trailing "?" marks an optional value. A size bound goes with lists.
Typed = tuple[str | None, int, int]   # (type, step cost bound, size bound for a list)
Scope = dict[str, Any]   # binding -> its type; FACTS -> the linear facts known there
FACTS = "#facts"   # (no binding has this name)
SEATS = "#seats"   # in a Scope: the bindings that are surely players of the game (seats)
FIXED = "#fixed"   # in a Scope: ((binding, entity), ...) the bindings known to hold that entity
AFTER = "#after"   # in Facts.writes: the unit leaves an 'after turn' block (no variable has this name)
PASS = "#pass"     # in Facts.writes: the unit passes its player, once (do_pass; see Inert.stmt)
TAKE = "#take"     # in Facts.writes: the unit takes an entity (facts of owners are dropped)
OWNED = "#owned"   # a Fact's first item: (OWNED, key of X, 0, names) states owner(X) is none or me
SHORT = 1024   # the length a list variable read by an inert rest is checked to be within
GROW = 64      # what an inert rest may append to such a variable, in all
LOOP_TRIALS = 6   # loops nested deeper keep no fact of the scope around them (Inert._loop_facts)
Linear = tuple[Any, int]   # (the key of a term, or None for a constant; the constant added)
Fact = tuple[Any, Any, int, frozenset[str]]   # x - y <= d (term keys; None: 0), the names read


@attrs.frozen
class Facts:
    """What an inert rest relies on: ``needs``, the optional variables it reads as present
    (checked present for every player where the rest begins); ``writes``, the variables and
    resources it writes; ``depth``, how deep it nests rules (procedures, slots, triggers);
    ``sized``, the list variables it reads as short, and ``widens``, those of its writes that
    may leave a list variable longer than SHORT (a write of a value of at most SHORT elements,
    as ``set V = []``, keeps it short: read before or after it, V is within the bound);
    ``seated``, the global ``list[player]`` variables whose elements it reads as seats (only
    the flow's units may: lang/flow.py, checked where the flow's walk begins), and
    ``unseats``, the ``list[player]`` variables it writes with what may hold another value;
    ``seat_deps``, which such variables it writes from which (:attr:`seats`)."""

    needs: frozenset[str] = frozenset()
    writes: frozenset[str] = frozenset()
    depth: int = 0
    sized: frozenset[str] = frozenset()
    growth: tuple[tuple[str, int], ...] = ()   # (variable, elements its appends may add)
    widens: frozenset[str] = frozenset()
    seated: frozenset[str] = frozenset()
    unseats: frozenset[str] = frozenset()
    seat_deps: frozenset[tuple[str, str]] = frozenset()   # (V, W): V written from W's elements

    def __or__(self, other: "Facts") -> "Facts":
        return Facts(self.needs | other.needs, self.writes | other.writes,
                     max(self.depth, other.depth), self.sized | other.sized,
                     _added(self.growth, other.growth), self.widens | other.widens,
                     self.seated | other.seated, self.unseats | other.unseats,
                     self.seat_deps | other.seat_deps)

    @property
    def seats(self) -> frozenset[str]:
        """The variables relied on to hold seats: those read as seats, and those their
        values were written from (and so on)."""
        out, more = set(self.seated), list(self.seated)
        while more:
            v = more.pop()
            for w in (w for x, w in self.seat_deps if x == v and w not in out):
                out.add(w)
                more.append(w)
        return frozenset(out)

    @property
    def sound(self) -> bool:
        """Whether the rest leaves what it relies on alone (the variables it reads as present
        or as short lists, the latter but for appends of GROW elements in all)."""
        return not (self.needs & self.writes or self.sized & self.widens or self.seats & self.unseats) \
            and all(n <= GROW for _, n in self.growth)


def type_name(t: A.TypeRef, kinds: Any) -> str:
    """The analysis' name of a declared type (``list:entity:card``, ``int``, ``player?``)."""
    if t.list_of is not None:
        return "list:" + type_name(t.list_of, kinds)
    name = f"entity:{t.name}" if t.name in kinds else t.name
    return name + ("?" if t.optional else "")


def _may_be_list(t: str | None) -> bool:
    """Whether a value of analysis type ``t`` may be a list (a list built of it may then be
    refused by :func:`semantics.nested`)."""
    return t is None or t.startswith("list") or t.rstrip("?") == "any"


def _fits(found: str | None, wanted: str) -> bool:
    """Whether a value of analysis type ``found`` is surely one of declared type ``wanted``
    as semantics.fits tests it (a number for int and player, a text for text, hex or an
    entity's name; none only where ``wanted`` is optional or any)."""
    if found is None or found == "handle":
        return False
    if wanted.rstrip("?") == "any":
        return True
    if found.endswith("?") or found == "none":
        if not wanted.endswith("?"):
            return False
        found = found.rstrip("?")
        if found == "none":
            return True
    wanted = wanted.rstrip("?")
    if found.startswith("list:") and wanted.startswith("list:"):
        return _fits(found[5:], wanted[5:])
    if found == wanted or found.startswith("entity:") and wanted == "text":
        return True
    family = {"int": "num", "player": "num", "text": "str", "hex": "str"}
    return found in family and family[found] == family.get(wanted)


def _value_type(v: object) -> str | None:
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "int"
    if isinstance(v, str):
        return "text"
    return None


class Inert:
    """The inertness analysis of one ruleset (results of procedures and slots kept)."""

    def __init__(self, rs: Ruleset, caps: dict[str, A.Expr]) -> None:
        self.rs = rs
        self.caps = caps   # resource -> its cap expression
        self._procs: dict[str, tuple[int, Facts] | None] = {}
        self._slots: dict[tuple[str, str, str | None], tuple[int, Facts] | None] = {}
        self._busy: set[Any] = set()
        self._emitting: set[str] = set()   # events whose triggers are under analysis
        self._acc = _Acc()   # what the unit under analysis relies on (see Facts)
        self._sizes: dict[tuple[str, str], int] = {}   # (kind, field) -> _field_size
        self.me = True   # whether the unit under analysis runs for a player (see anonymous)
        self._loops = 0   # loop bodies under trial (_loop_facts)
        self._procs_as: dict[Any, tuple[int, Facts] | None] = {}   # (name, seats, me) -> _proc

    def anonymous(self, block: A.Block | tuple[A.Stmt, ...], scope: Scope) -> tuple[int, Facts] | None:
        """``(cost, facts)`` of a unit the flow runs for no player (``me`` is none: a ``do``
        step's body, a trigger of the engine's events) when it cannot break a rule, else None."""
        stmts = block.stmts if isinstance(block, A.Block) else block
        with self._unit() as acc, self._as_me(False):
            cost = self.stmts(stmts, dict(scope))
        facts = acc.facts()
        return None if cost is None or not facts.sound else (cost, facts)

    def engine_event(self, event: str) -> tuple[int, Facts] | None:
        """``(cost, facts)`` of the triggers of one of the engine's own events (game/flow.py,
        ``_emit``: raised for no player) when none of them can break a rule, else None."""
        if not self.rs.triggers_by_event.get(event):
            return (0, Facts())
        with self._unit() as acc, self._as_me(False):
            self._emitting.add(event)
            try:
                cost = self._emit_cost(event, 0)
            finally:
                self._emitting.discard(event)
        facts = acc.facts()
        return None if cost is None or not facts.sound else (cost, facts)

    def anonymous_expr(self, e: A.Expr) -> tuple[str | None, int, Facts] | None:
        """``(type, cost, facts)`` of an expression the flow evaluates for no player (a stage's
        number of rounds) when it cannot break a rule, else None."""
        with self._unit() as acc, self._as_me(False):
            found = self.expr(e, {})
        return None if found is None else (found[0], found[1], acc.facts())

    def _as_me(self, known: bool) -> "_Me":
        """``with self._as_me(known)``: analyse with ``me`` known (a player) or not."""
        return _Me(self, known)

    # ---- bodies ----
    def split(self, block: A.Block, scope: Scope) -> tuple[int, int]:
        """``(k, cost)``: the statements from ``k`` on cannot break a rule and take at most
        ``cost`` steps (``k`` is ``len(block.stmts)`` when no tail is inert)."""
        k, cost, _, _ = self.split_facts(block.stmts, scope)
        return k, cost

    def scopes(self, stmts: tuple[A.Stmt, ...], scope: Scope) -> list[Scope]:
        """The bindings (and facts) each statement of ``stmts`` sees, and after the last: a
        ``let`` adds to them, a ``require`` narrows them (it ran before what follows)."""
        scopes = [dict(scope)]
        for s in stmts:
            nxt = dict(scopes[-1])
            if isinstance(s, A.Let):   # (the type only: a prefix statement is run, not relied on)
                _bind(nxt, s.name, self.type_of(s.value, nxt))
            elif isinstance(s, A.Require):
                nxt = self.narrow(s.cond, nxt, True)
            else:   # (a 'let' in an 'if' stays bound after it, its type unknown here)
                nxt[FACTS] = ()   # (what a statement run before the rest wrote is not known)
                for n in _lets_in(s):
                    _bind(nxt, n, None)
            scopes.append(nxt)
        return scopes

    def split_facts(self, stmts: tuple[A.Stmt, ...], scope: Scope
                    ) -> tuple[int, int, Facts, list[Scope]]:
        """:meth:`split` of statements ``stmts``, with what the rest relies on and the scopes
        of :meth:`scopes`."""
        scopes = self.scopes(stmts, scope)
        best: tuple[int, int, Facts] = (len(stmts), 0, Facts())
        read: set[str] = set()   # (the names stmts[seen:] mention)
        seen = len(stmts)
        for k in range(len(stmts) - 1, -1, -1):
            with self._unit() as acc:
                cost = self.stmts(stmts[k:], dict(scopes[k]))
            facts = acc.facts()
            if cost is not None and facts.sound and not facts.seats:   # (guards check no seats)
                best = (k, cost, facts)
                continue
            if any(isinstance(s, A.Require) for s in stmts[:k]):
                continue
            lets = {s.name for s in stmts[:k] if isinstance(s, A.Let)}
            if not lets:
                break   # (only a require, or a let of a name the rest reads, may state a fact it needs)
            for s in stmts[k:seen]:
                read |= names_in(s)
            seen = k
            if not lets & read:
                break
        return best + (scopes,)

    def stmts(self, stmts: tuple[A.Stmt, ...] | list[A.Stmt], scope: Scope) -> int | None:
        total = 0
        takes = self._acc.takes
        for s in stmts:
            mark = len(self._acc.log)
            c = self.stmt(s, scope)
            if c is None:
                return None
            total += c
            written = set(self._acc.log[mark:]) | _lets_in(s) | (
                {s.name} if isinstance(s, A.Let) else set())
            if self._acc.takes != takes:   # (a take, maybe in a unit run from here: see Take)
                written.add(TAKE)
                takes = self._acc.takes
            if written and scope.get(FACTS):
                scope[FACTS] = tuple(f for f in scope[FACTS] if not f[3] & written)
            if isinstance(s, A.Let):
                self._equal(s.name, s.value, scope)
        return total

    def _equal(self, name: str, value: A.Expr, scope: Scope) -> None:
        """After ``let name = value`` (``value`` a whole number): the facts ``name == value``,
        kept until a statement writes a name either side mentions (``let n = R; pay n R``)."""
        if scope.get(name) != "int" or name in names_in(value):
            return
        t, c = _linear(value)
        names = frozenset(names_in(value) | {name})
        own = _key(A.Name(id=name))
        scope[FACTS] = tuple(scope.get(FACTS, ())) + ((own, t, c, names), (t, own, -c, names))

    def stmt(self, s: A.Stmt, scope: Scope) -> int | None:
        """A bound on the steps of ``s`` when it cannot break a rule, else None."""
        rs = self.rs
        match s:
            case A.Gain(amounts=am, to=to) | A.Lose(amounts=am, to=to):
                if isinstance(am, A.AmountExpr) or not (self.me if to is None else self._is_seat(to, scope)):
                    return None
                total = 0
                for a in am:
                    parts = [self.int_(a.count, scope)] + ([] if a.per is None else [self.int_(a.per, scope)])
                    if None in parts or not self._cap_ok(a.resource, scope):
                        return None
                    total += sum(p for p in parts if p is not None)
                    self._acc.write(a.resource)
                return total
            case A.Set(target=t, value=v):
                var = rs.vars.get(t.name)
                if var is None or (t.of is not None and not ("player" in var.per and self._is_seat(t.of, scope))) \
                        or (t.of is None and "player" in var.per and not self.me):
                    return None
                value = self.expr(v, scope)
                declared = type_name(var.type, rs.kinds)
                if value is None or id(s) not in rs.proven_sets and not _fits(value[0], declared) \
                        and not (v == A.ListLit(items=(), span=v.span) and declared.startswith("list:")):
                    return None   # (a value the set tests when it runs: semantics.conform)
                if type_name(var.type, rs.kinds) == "list:player":
                    read: set[str] = set()
                    if not self._seats(v, scope, read):
                        self._acc.unseats.add(t.name)
                    self._acc.seat_deps.update((t.name, w) for w in read)
                added = _appended(t, v, value)
                if added is not None:   # set V = V + L: V grows by L's size at most
                    self._acc.grow(t.name, added)
                else:
                    self._acc.write(t.name)
                    if t.index is not None or value[2] > SHORT:
                        self._acc.widens.add(t.name)
                if not [p for p in var.per if p != "player"]:
                    return value[1] if t.index is None else None
                if var.per not in ((var.per[0],), ("player", var.per[-1])) or t.index is None:
                    return None
                index = self.expr(t.index, scope)
                return None if index is None else value[1] + index[1]
            case A.Let(name=n, value=v):
                found = self.expr(v, scope)
                if found is None:
                    return None
                seat = found[0] == "player" and isinstance(v, A.Call) and v.fn == "first" \
                    and self._seats(v.args[0], scope)   # (the first of a list of seats, proven there)
                _bind(scope, n, found[0] if scope.get(n, found[0]) == found[0] else None, seat)
                return found[1]
            case A.If(branches=branches, orelse=orelse):
                total = 0
                seen = dict(scope)   # (the branches after one see its condition false)
                for cond, block in branches + (((None, orelse),) if orelse is not None else ()):
                    c = 0 if cond is None else self._cost(self.expr(cond, seen))
                    inner = seen if cond is None else self.narrow(cond, seen, True)
                    b = self.stmts(block.stmts, dict(inner))  # (a 'let' in a branch stays bound after it)
                    if c is None or b is None:
                        return None
                    total += c + b
                    if cond is not None:
                        seen = self.narrow(cond, seen, False)
                for n in _lets_in(s):   # (bound or not after it: type unknown)
                    _bind(scope, n, None)
                return total
            case A.For(var=name, domain=d, where=w, body=b):
                dom = self.expr(d, scope)
                if dom is None or not (dom[0] or "").startswith("list:"):
                    return None
                inner = _bound(scope, name, dom[0][5:], self._seats(d, scope))  # type: ignore[index]
                if inner.get(FACTS) and not self._loop_facts(inner, w, b):
                    return None
                cw = 0 if w is None else self._cost(self.expr(w, inner))
                before = dict(self._acc.growth)
                had_pass = PASS in self._acc.writes
                cb = self.stmts(b.stmts, self.narrow(w, inner, True) if w is not None else dict(inner))
                if cw is None or cb is None or (not had_pass and PASS in self._acc.writes):
                    return None   # (a pass in a loop may run twice: 'you have already passed')
                for grown, added in list(self._acc.growth.items()):   # (the body's appends, per element)
                    self._acc.growth[grown] = before.get(grown, 0) + (added - before.get(grown, 0)) * dom[2]
                return dom[1] + dom[2] * (1 + cw + cb)
            case A.Emit(event=event, args=args):
                emitted = self._costs(args, scope)
                if emitted is None or event in self._emitting or self._too_deep():
                    return None   # (an event whose triggers raise it again has no bound)
                self._emitting.add(event)
                try:
                    return self._emit_cost(event, emitted)
                finally:
                    self._emitting.discard(event)
            case A.CallStmt(fn=fn, args=args):
                if fn in rs.primitives or fn not in rs.actions:
                    return None
                passed = self._costs(args, scope)
                seats = frozenset(i for i, a in enumerate(args) if self._is_seat(a, scope))
                body = self._proc(fn, seats)
                return None if passed is None or body is None else passed + 1 + body
            case A.Run(target=A.Field(obj=o, name=slot), for_=f):
                return self._run(o, slot, f, scope)
            case A.AfterTurn():
                self._acc.write(AFTER)   # (a block left to run: lang/lazy.py asks)
                return 0
            case A.Discard(entity=e):   # (semantics.discard: any entity, held or not)
                return self._cost(self.entity(e, scope))
            case A.Take(entity=e):   # (semantics.take: refused when another player holds it)
                found = self.entity(e, scope)
                if found is None or not self.me or not any(
                        f[0] == OWNED and f[1] == _key(e) for f in scope.get(FACTS, ())):
                    return None
                self._acc.write(TAKE)
                self._acc.takes += 1
                return found[1]
            case A.Pay(amounts=am):   # (runtime.pay: refused below the floor, or a negative amount)
                if isinstance(am, A.AmountExpr) or not self.me \
                        or len({a.resource for a in am}) != len(am):
                    return None
                total = 0
                for a in am:
                    cost = self.int_(a.count, scope)
                    if cost is None or a.per is not None or not self._covers(a.count, a.resource, scope):
                        return None
                    total += cost
                    self._acc.write(a.resource)
                return total
            case A.Pass():   # (semantics.do_pass: refused when the player has passed already)
                if not self.me or PASS in self._acc.writes:
                    return None
                self._acc.write(PASS)
                return 0
        return None

    def _loop_facts(self, inner: Scope, where: A.Expr | None, body: A.Block) -> bool:
        """Keep in ``inner`` (a loop body's scope) the facts that hold at every element: none
        that mentions a name the body writes, binds or grows, nor an owner's when it takes (the
        body ran for the elements before). False when the body is not inert anyway. Worked out
        by analysing the body once with them all (loops nested deeper than LOOP_TRIALS keep no
        fact: a trial per loop level is 2 ** depth analyses)."""
        kept = tuple(f for f in inner[FACTS] if not f[3] & _bound_in(body))
        if self._loops >= LOOP_TRIALS:
            kept = ()
        if kept:
            self._loops += 1
            try:
                with self._unit() as trial:
                    found = self.stmts(body.stmts, self.narrow(where, inner, True) if where is not None
                                       else dict(inner))
            finally:
                self._loops -= 1
            if found is None:
                return False
            written = trial.writes | set(trial.growth) | ({TAKE} if trial.takes else set())
            kept = tuple(f for f in kept if not f[3] & written and not (f[0] == OWNED and trial.takes))
        inner[FACTS] = kept
        return True

    def _run(self, obj: A.Expr, slot: str, for_: A.Expr | None, scope: Scope) -> int | None:
        """``run obj.slot [for p]`` (as S.run_slot): ``obj`` a present entity, ``p`` a player,
        and the slot's body inert for every entity of the kind that has one."""
        found = self.entity(obj, scope)
        if found is None or not (self.me or for_ is not None and self._is_seat(for_, scope)):
            return None
        cost = found[1]
        if for_ is not None:
            player = self.expr(for_, scope)
            if player is None or player[0] != "player":
                return None
            cost += player[1]
        had_pass = PASS in self._acc.writes
        only = dict(scope.get(FIXED, ())).get(obj.id) if isinstance(obj, A.Name) else None
        with self._as_me(True):   # (the slot runs for me, or for the player named)
            body = self._slot(found[0][7:], slot, only)   # type: ignore[index]
        if for_ is not None and not had_pass and PASS in self._acc.writes:
            return None   # (it would pass the player named, not the unit's)
        return None if body is None else cost + 1 + body

    def _slot(self, kind: str, slot: str, only: str | None = None) -> int | None:
        """A bound on the steps of slot ``slot``'s body over the entities of ``kind`` (as
        :meth:`_proc`; ``only``: of that entity alone, the one a binding is known to hold:
        :data:`FIXED`), None when one of them may break a rule."""
        key = (kind, slot, only)
        if key not in self._slots:
            if key in self._busy or self._too_deep():
                return None
            rs = self.rs
            kdef = rs.kinds.get(kind)
            if kdef is None or slot not in kdef.slots:
                return None
            self._busy.add(key)
            worst: tuple[int, Facts] | None = (0, Facts())
            try:
                for e in rs.by_kind.get(kind, ()) if only is None else (only,):
                    body = rs.entities[e].slots.get(slot, kdef.slots[slot])
                    if body is None or rs.slot_fn(e, slot) is None:
                        continue
                    with self._unit() as acc:
                        cost = self.stmts(body.stmts, {"self": f"entity:{kind}"})
                    if cost is None or worst is None:
                        worst = None
                        break
                    worst = (max(worst[0], cost), worst[1] | acc.facts())
            finally:
                self._busy.discard(key)
            self._slots[key] = worst
        return self._unit_used(self._slots[key])

    def _unit_used(self, found: tuple[int, Facts] | None) -> int | None:
        """The cost of a unit (procedure, slot, trigger) run from here, its facts added."""
        if found is None:
            return None
        cost, facts = found
        if PASS in facts.writes and PASS in self._acc.writes:
            return None   # (its player would pass a second time)
        if TAKE in facts.writes:
            self._acc.takes += 1
        self._acc.needs |= facts.needs
        self._acc.write(*facts.writes)
        self._acc.widens |= facts.widens
        self._acc.sized |= facts.sized
        self._acc.seated |= facts.seated
        self._acc.unseats |= facts.unseats
        self._acc.seat_deps |= facts.seat_deps
        for var, n in facts.growth:
            self._acc.grow(var, n)
        self._acc.depth = max(self._acc.depth, 1 + facts.depth)
        return cost

    def _emit_cost(self, event: str, emitted: int) -> int | None:
        """``emitted`` plus the steps of every trigger of ``event``, when all are inert, else None."""
        rs = self.rs
        params = rs.events.get(event, ())
        for trig in rs.triggers_by_event.get(event, ()):
            if trig.node is None:
                return None
            tscope: Scope = {n: type_name(p.type, rs.kinds) for n, p in zip(trig.names, params)}
            if trig.entity is not None:
                tscope["self"] = f"entity:{rs.entities[trig.entity].kind}"
            with self._as_me(self.me or trig.entity is not None):   # (an entity's: for its holder)
                cc = 0 if trig.cond_node is None else self._cost(self.expr(trig.cond_node, tscope))
                if cc is None:
                    return None
                with self._unit() as acc:
                    cb = self.stmts(trig.node.stmts, self.narrow(trig.cond_node, tscope, True)
                                    if trig.cond_node is not None else tscope)
            if cb is None or PASS in acc.writes \
                    or self._unit_used((cb, acc.facts())) is None:   # (a trigger passes nobody)
                return None
            emitted += 1 + cc + cb
        return emitted

    def _costs(self, args: tuple[A.Expr, ...], scope: Scope) -> int | None:
        """The summed cost of expressions ``args`` when none can break a rule, else None."""
        total = 0
        for arg in args:
            c = self._cost(self.expr(arg, scope))
            if c is None:
                return None
            total += c
        return total

    def _too_deep(self) -> bool:
        """Whether the units under analysis nest as deep as rules may run (LIMITS.max_call_depth):
        the one inside is not inert (a hostile chain of procedures, slots or triggers; the full
        try meets the depth limit)."""
        return len(self._busy) + len(self._emitting) >= LIMITS.max_call_depth

    def _proc(self, name: str, seats: frozenset[int] = frozenset()) -> int | None:
        """A bound on the steps of procedure ``name``'s body (None when it may break a rule),
        run for ``me`` as analysed now; ``seats``: the positions of its arguments that are
        seats (its parameters there are seats too)."""
        known = self._procs if self.me and not seats else self._procs_as
        key: Any = name if known is self._procs else (name, seats, self.me)
        if key not in known:
            if name in self._busy or self._too_deep():
                return None   # a procedure calling itself, or too deep: no bound
            self._busy.add(name)
            try:
                proc = self.rs.actions[name]
                scope: Scope = {p.name: type_name(p.type, self.rs.kinds) for p in proc.params}
                if seats:
                    scope[SEATS] = frozenset(p.name for i, p in enumerate(proc.params) if i in seats)
                with self._unit() as acc:
                    cost = self.stmts(proc.body.stmts, scope)
            finally:
                self._busy.discard(name)
            known[key] = None if cost is None else (cost, acc.facts())
        return self._unit_used(known[key])

    def _seats(self, e: A.Expr, scope: Scope, read: set[str] | None = None) -> bool:
        """Whether every element of list ``e`` is surely a player of the game: ``players``,
        ``others``, a list of seats, ``+`` of such lists, ``without``/``without_one`` of one,
        or a global ``list[player]`` variable, then relied on (:attr:`Facts.seated`; with
        ``read``: gathered there instead)."""
        match e:
            case A.Name(id=n) if n not in scope:
                if n in ("players", "others"):
                    return True
                var = self.rs.vars.get(n)
                if var is None or var.per or type_name(var.type, self.rs.kinds) != "list:player":
                    return False
                (self._acc.seated if read is None else read).add(n)
                return True
            case A.ListLit(items=items):
                return all(self._is_seat(x, scope) for x in items)
            case A.BinOp(op="+", left=l, right=r):
                return self._seats(l, scope, read) and self._seats(r, scope, read)
            case A.Call(fn="without" | "without_one", args=(lst, _)):
                return self._seats(lst, scope, read)
        return False

    def _is_seat(self, e: A.Expr, scope: Scope) -> bool:
        """Whether ``e`` is surely a player of the game: a seat binding (:func:`_seat`), or
        ``me`` while the unit runs for a player (as ``gain`` without ``to`` takes it)."""
        return _seat(e, scope) or self.me and isinstance(e, A.Name) and e.id == "me" \
            and "me" not in scope

    def _unit(self) -> "_Unit":
        """``with self._unit() as acc``: analyse a unit with accumulators of its own."""
        return _Unit(self)

    def _cap_ok(self, resource: str, scope: Scope) -> bool:
        """Whether ``resource``'s cap is a number that cannot break a rule (it is evaluated
        where the gain is, with that place's bindings)."""
        cap = self.caps.get(resource)
        if cap is None:
            return True
        with self._as_me(True):   # (evaluated for the player who gains: ruleset._cap_fn)
            found = self.expr(cap, scope)
        return found is not None and found[0] in ("int", "none", "int?")

    # ---- narrowing and facts ----
    def narrow(self, cond: A.Expr | None, scope: Scope, positive: bool) -> Scope:
        """``scope`` where ``cond`` is known true (``positive``) or false: the bindings it
        proves present, the facts it states (a new dict)."""
        out = dict(scope)
        if cond is not None:
            self._narrow(cond, out, positive)
        return out

    def _narrow(self, e: A.Expr, scope: Scope, positive: bool) -> None:
        match e:
            case A.Not(operand=o):
                self._narrow(o, scope, not positive)
            case A.BoolOp(op=op, items=items) if (op == "and") == positive:
                for x in items:   # (all of them hold)
                    self._narrow(x, scope, positive)
            case A.Compare(op="==", left=A.Call(fn="owner", args=(owned,)), right=A.NoneLit() | A.Name(id="me") as who) \
                    if positive and not (isinstance(who, A.Name) and "me" in scope):
                scope[FACTS] = tuple(scope.get(FACTS, ())) + (   # (owner(X) is none or me: take X)
                    (OWNED, _key(owned), 0, frozenset(names_in(owned) | {TAKE})),)
            case A.Compare(op=op, left=l, right=r) if op in ("==", "!="):
                present = (op == "!=") == positive
                for x, y in ((l, r), (r, l)):
                    if present and isinstance(y, A.NoneLit) and isinstance(x, A.Name):
                        t = scope.get(x.id) if x.id in scope else ("int?" if x.id == "round" else None)
                        if isinstance(t, str) and t.endswith("?"):
                            scope[x.id] = t[:-1]
            case A.Compare(op=op, left=l, right=r) if op in ("<", "<=", ">", ">="):
                if not positive:
                    op = {"<": ">=", "<=": ">", ">": "<=", ">=": "<"}[op]
                if op in (">", ">="):
                    l, r, op = r, l, "<" if op == ">" else "<="
                a, b = _linear(l), _linear(r)   # a op b: a - b <= (0 or -1)
                d = (0 if op == "<=" else -1) - a[1] + b[1]
                names = frozenset(names_in(l) | names_in(r))
                scope[FACTS] = tuple(scope.get(FACTS, ())) + ((a[0], b[0], d, names),)

    def _proves(self, scope: Scope, x: Any, y: Any, d: int) -> bool:
        """Whether a fact of ``scope`` states ``x - y <= d`` (or a stronger bound)."""
        if x == y:   # (both None, or one term: x - x is 0)
            return 0 <= d
        return any(f[0] == x and f[1] == y and f[2] <= d for f in scope.get(FACTS, ()))

    def _covers(self, count: A.Expr, resource: str, scope: Scope) -> bool:
        """Whether the facts of ``scope`` prove that ``me`` can pay ``count`` of ``resource``
        (read as the name ``resource``, not rebound): 0 <= count <= resource - floor. A
        resource never goes below its floor (it starts at or above it; gain, lose and pay
        keep it there; rules cannot set it), so ``count == resource`` with a floor of 0 or
        more is enough."""
        rdef = self.rs.resources.get(resource)
        if rdef is None or resource in scope:
            return False
        t, c = _linear(count)
        held = _key(A.Name(id=resource))
        floor = rdef.floor
        at_least = self._proves(scope, None, t, c) or floor >= 0 and self._proves(scope, held, t, c)
        return at_least and self._proves(scope, t, held, -floor - c)

    def _in_range(self, lst: A.Expr, i: A.Expr, scope: Scope) -> bool:
        """Whether the facts of ``scope`` put index ``i`` within list ``lst``: 0 <= i < len(lst)."""
        t, c = _linear(i)
        length = _key(A.Call(fn="len", args=(lst,)))
        return self._proves(scope, None, t, c) and self._proves(scope, t, length, -1 - c)

    # ---- expressions ----
    def type_of(self, e: A.Expr, scope: Scope) -> str | None:
        """The type of ``e``'s value when evaluating it does not break a rule (None: unknown),
        also for expressions that may break one (a statement run before the inert rest binds
        a value the rest reads): whole numbers from ``position``, ``abs``, ``min``/``max`` of
        numbers and arithmetic on them, truth values from tests."""
        with self._unit():
            found = self.expr(e, scope)
        if found is not None:
            return found[0]
        match e:
            case A.Call(fn=fn, args=args) if fn not in self.rs.primitives:
                if fn in ("position", "abs", "len") or (fn in ("min", "max") and len(args) > 1 and all(
                        self.type_of(a, scope) == "int" for a in args)):
                    return "int"
            case A.BinOp(left=l, right=r) if self.type_of(l, scope) == "int" == self.type_of(r, scope):
                return "int"
            case A.Not() | A.BoolOp() | A.Compare():
                return "bool"
        return None

    @staticmethod
    def _cost(found: Typed | None) -> int | None:
        return None if found is None else found[1]

    def int_(self, e: A.Expr, scope: Scope) -> int | None:
        """The cost of ``e`` when it is surely a whole number, else None."""
        found = self.expr(e, scope)
        return found[1] if found is not None and found[0] == "int" else None

    def entity(self, e: A.Expr, scope: Scope) -> Typed | None:
        """:meth:`expr` of ``e`` when it is surely an entity (``entity:KIND``): of a
        non-optional type, or a variable of an optional one that is then relied on
        (:attr:`Facts.needs`)."""
        found = self.expr(e, scope)
        if found is None or not (found[0] or "").startswith("entity:"):
            return None
        t: str = found[0]  # type: ignore[assignment]
        if not t.endswith("?"):
            return found
        # (``V of p``, p a seat: V for one of the players, all of whom the guard checks)
        x = e.expr if isinstance(e, A.Of) and self._is_seat(e.player, scope) else e
        if isinstance(x, A.Name) and x.id not in scope and x.id in self.rs.vars \
                and self.rs.vars[x.id].per in ((), ("player",)):
            self._acc.needs.add(x.id)
            return (t[:-1], found[1], found[2])
        return None

    def expr(self, e: A.Expr, scope: Scope) -> Typed | None:
        """``(type, cost, size)`` of ``e`` when it cannot break a rule, else None."""
        rs = self.rs
        match e:
            case A.Int():
                return ("int", 0, 0)
            case A.Bool():
                return ("bool", 0, 0)
            case A.Str():
                return ("text", 0, 0)
            case A.NoneLit():
                return ("none", 0, 0)
            case A.Name(id=n):
                if n in scope:
                    t = scope[n]
                    return (t, 0, LIMITS.max_list)
                return self._name(n)
            case A.Field(obj=o, name=n):
                obj = self.entity(o, scope)
                if obj is None:
                    return None
                kind = rs.kinds.get(obj[0][7:])  # type: ignore[index]
                if kind is None or n not in kind.fields:
                    return None
                return (type_name(kind.fields[n][0], rs.kinds), obj[1], self._field_size(kind.name, n))
            case A.Index(obj=A.Name(id=n), index=i) if n not in scope and n in rs.vars \
                    and any(p != "player" for p in rs.vars[n].per):
                try:
                    cls, var = S.classify(rs, n)
                except S.RuleViolation:
                    return None
                if cls != S.VAR or not var.per or var.per[-1] == "player" or \
                        var.per not in ((var.per[0],), ("player", var.per[-1])) or \
                        "player" in var.per and not self.me:
                    return None
                index = self.expr(i, scope)
                hashed = None if index is None else self._size(i, index)   # (semantics.keyed)
                if index is None or hashed is None:
                    return None
                return (type_name(var.type, rs.kinds), index[1] + hashed, LIMITS.max_list)
            case A.Index(obj=o, index=i):   # a list's element (semantics.index): in range
                lst, index = self.expr(o, scope), self.expr(i, scope)
                if lst is None or index is None or index[0] != "int" \
                        or not (lst[0] or "").startswith("list:") or not self._in_range(o, i, scope):
                    return None
                return (lst[0][5:], lst[1] + index[1], LIMITS.max_list)  # type: ignore[index]
            case A.Of(expr=x, player=p) if self._is_seat(p, scope):   # (semantics.with_me)
                with self._as_me(True):
                    return self.expr(x, scope)
            case A.Not(operand=o):
                found = self.expr(o, scope)
                return None if found is None else ("bool", found[1], 0)
            case A.BoolOp(op=op, items=items):
                total, seen = 0, scope   # (each item is evaluated only when those before it
                for x in items:          # were true ('and') or false ('or'))
                    found = self.expr(x, seen)
                    if found is None:
                        return None
                    total += found[1]
                    seen = self.narrow(x, seen, op == "and")
                return ("bool", total, 0)
            case A.Compare(op=op, left=l, right=r):
                a, b = self.expr(l, scope), self.expr(r, scope)
                if a is None or b is None:
                    return None
                if op in ("==", "!="):   # (semantics.equal: the smaller size of the two)
                    sizes = [x for x in (self._size(l, a), self._size(r, b)) if x is not None]
                    return ("bool", a[1] + b[1] + min(sizes), 0) if sizes else None
                if op in ("in", "notin"):
                    needle = self._size(l, a)
                    if not (b[0] or "").startswith("list:") or needle is None:
                        return None
                    return ("bool", a[1] + b[1] + b[2] * (1 + needle), 0)
                if a[0] == "int" and b[0] == "int":
                    return ("bool", a[1] + b[1], 0)
                return None
            case A.BinOp(op="//" | "%", left=l, right=A.Int(value=v)) if v != 0:   # (by a number
                found = self.expr(l, scope)                                        # written: not zero)
                return None if found is None or found[0] != "int" else ("int", found[1], 0)
            case A.BinOp(op=op, left=l, right=r) if op in ("+", "-", "*"):
                a, b = self.expr(l, scope), self.expr(r, scope)
                if a is None or b is None:
                    return None
                if op == "+" and (a[0] or "").startswith("list:") and (b[0] or "").startswith("list:"):
                    size = a[2] + b[2]   # (semantics.sized: charged by its length, at most LIMITS.max_list)
                    if size > LIMITS.max_list or _may_be_list(a[0][5:]) or _may_be_list(b[0][5:]):  # type: ignore[index]
                        return None   # (semantics.nested: lists of lists may be refused)
                    return (a[0] if a[0] == b[0] else None, a[1] + b[1] + size, size)
                if a[0] != "int" or b[0] != "int":
                    return None
                return ("int", a[1] + b[1], 0)
            case A.Quant(kind=k, var=v, domain=d, where=w) | A.SumOf(var=v, domain=d, where=w, expr=k):
                dom = self.expr(d, scope)
                if dom is None or not (dom[0] or "").startswith("list:"):
                    return None
                inner = _bound(scope, v, dom[0][5:], self._seats(d, scope))  # type: ignore[index]
                cw = 0 if w is None else self._cost(self.expr(w, inner))
                if cw is None:
                    return None
                if isinstance(e, A.SumOf):
                    cx = self.int_(e.expr, self.narrow(w, inner, True))
                    if cx is None:
                        return None
                    return ("int", dom[1] + dom[2] * (1 + cw + cx), 0)
                return ("int" if k == "count" else "bool", dom[1] + dom[2] * (1 + cw), 0)
            case A.ListLit(items=items):
                total, types = (len(items) if len(items) > S.FREE_LIST else 0), set()
                for x in items:
                    found = self.expr(x, scope)
                    if found is None or _may_be_list(found[0]):   # (semantics.nested)
                        return None
                    total += found[1]
                    types.add(found[0])
                item = types.pop() if len(types) == 1 else None
                return (None if item is None else "list:" + item, total, len(items))
            case A.Call(fn=fn, args=args):
                return self._call(fn, args, scope)
        return None

    def _size(self, e: A.Expr, found: Typed) -> int | None:
        """A bound on :func:`semantics.size` of ``e``'s value (what comparing it may be charged),
        or None when unknown: 0 for a number, truth value, none, player or hex (a map's name for
        it, short) and for a text written in the rule under 64 characters; an entity's name by
        the longest one; a list of those, its size bound times one plus that."""
        t = (found[0] or "").rstrip("?")
        if isinstance(e, A.Str):
            return len(e.value) >> 6
        if isinstance(e, A.Field) and t == "text":   # (an entity's field: a constant)
            return self._longest_field(e.name)
        if t in ("int", "bool", "none", "player", "hex"):
            return 0
        if t.startswith("entity:"):
            return self._longest_name
        elem = t[5:].rstrip("?") if t.startswith("list:") else ""
        if elem in ("int", "bool", "none", "player", "hex") or elem.startswith("entity:"):
            return found[2] * (1 + (self._longest_name if elem.startswith("entity:") else 0))
        return None

    @functools.lru_cache(maxsize=None)
    def _longest_field(self, name: str) -> int:
        """The size (as :meth:`_size`) of the longest text any entity has in field ``name``."""
        texts = [e.fields.get(name) for e in self.rs.entities.values()]
        return max((len(v) for v in texts if isinstance(v, str)), default=0) >> 6

    @functools.cached_property
    def _longest_name(self) -> int:
        return max((len(n) for n in self.rs.entities), default=0) >> 6

    def _name(self, n: str) -> Typed | None:
        rs = self.rs
        try:
            cls, payload = S.classify(rs, n)
        except S.RuleViolation:
            return None   # a name nothing binds: loading it breaks a rule
        if not self.me and (cls in (S.RESOURCE, S.TRACK, S.COMPONENT)
                            or cls == S.VAR and "player" in payload.per or n == "me"):
            return None   # (read for me: no player here)
        if cls in (S.RESOURCE, S.TRACK, S.COMPONENT):
            return ("int", 0, 0)
        if cls == S.VAR:
            if any(p != "player" for p in payload.per):
                return ("handle", 0, 0)
            t = type_name(payload.type, rs.kinds)
            if t.startswith("list:"):   # (checked short where the rest begins: Facts.sized)
                self._acc.sized.add(n)
                return (t, 0, SHORT + GROW)
            return (t, 0, LIMITS.max_list)
        if cls == S.OPTION:
            return (_value_type(payload.default), 0, LIMITS.max_list)
        if cls == S.ENTITY:
            return (f"entity:{rs.entities[payload].kind}", 0, 0)
        if cls == S.KIND:
            kind = rs.entities[payload[0]].kind if payload else None
            return ("list:entity:" + kind if kind else None, 0, len(payload))
        builtin = {"me": "player", "players": "list:player", "others": "list:player",
                   "hexes": "list:hex", "round": "int?", "nplayers": "int", "chance": "int"}
        name = next((k for k, v in S.BUILTIN_VALUES.items() if v is payload), None)
        if name not in builtin:
            return None
        size = self.rs.players[1] if name in ("players", "others") else LIMITS.max_list
        return (builtin[name], 0, size)

    def _call(self, fn: str, args: tuple[A.Expr, ...], scope: Scope) -> Typed | None:
        rs = self.rs
        found = [self.expr(a, scope) for a in args]
        if None in found:
            return None
        if fn in rs.primitives:   # (a primitive may read me)
            return self._pure(rs.primitives[fn], found) if self.me else None  # type: ignore[arg-type]
        if not self.me and fn in ("held", "holds"):
            return None
        typed: list[Typed] = [f for f in found if f is not None]
        cost = sum(f[1] for f in typed)
        if fn == "held" and len(args) == 1 and isinstance(args[0], A.Name) and args[0].id not in scope \
                and args[0].id in rs.by_kind:
            kind = args[0].id
            return (f"list:entity:{kind}", cost + len(rs.by_kind[kind]), len(rs.by_kind[kind]))
        if fn in ("holds", "owner") and len(typed) == 1 and (typed[0][0] or "").startswith("entity:") \
                and not (typed[0][0] or "").endswith("?"):
            return ("bool" if fn == "holds" else "player?", cost, 0)
        if fn == "len" and len(typed) == 1 and (typed[0][0] or "").startswith("list:"):
            return ("int", cost + typed[0][2], 0)
        if fn == "passed" and len(typed) == 1 and self._is_seat(args[0], scope):
            return ("bool", cost, 0)   # (of another value: 'no player here')
        if (fn in ("min", "max") and len(typed) > 1 or fn == "abs" and len(typed) == 1) \
                and all(t[0] == "int" for t in typed):   # (of whole numbers: one of them, or its size)
            return ("int", cost, 0)
        if fn in ("first", "without") and len(typed) == len(args) == (1 if fn == "first" else 2) \
                and (typed[0][0] or "").startswith("list:"):
            return self._first_without(fn, args[0], typed[0], cost, scope)
        if fn == "without_one" and len(typed) == 2 and (typed[0][0] or "").startswith("list:"):
            walked = self._size(args[0], typed[0])   # (semantics._without_one: the list walked)
            return None if walked is None else (typed[0][0], cost + walked, typed[0][2])
        return None

    def _first_without(self, fn: str, lst: A.Expr, found: Typed, cost: int, scope: Scope) -> Typed | None:
        """``first(L)`` (semantics: L walked twice; none when L is empty, so its element type
        only where the facts prove ``len(L) >= 1``) or ``without(L, x)`` (L walked and its
        elements compared: a list no longer than L)."""
        t: str = found[0]   # type: ignore[assignment]
        if fn == "without":
            walked = self._size(lst, found)
            return None if walked is None else (t, cost + walked, found[2])
        elem = t[5:]
        if not elem.endswith("?") and not self._proves(scope, None, _key(A.Call(fn="len", args=(lst,))), -1):
            elem += "?"
        return (elem, cost + 2 * found[2], LIMITS.max_list if elem.startswith("list:") else 0)

    def _field_size(self, kind: str, name: str) -> int:
        """A bound on the length of field ``name`` of the entities of ``kind`` (their fields
        are the rule files' constants): the longest list among them, LIMITS.max_list if one is not a
        list."""
        key = (kind, name)
        got = self._sizes.get(key)
        if got is None:
            ents = self.rs.entities
            values = [ents[e].fields.get(name) for e in self.rs.by_kind.get(kind, ())]
            got = max((len(v) if type(v) is tuple else LIMITS.max_list for v in values), default=0)
            self._sizes[key] = got
        return got

    def _pure(self, prim: Any, found: list[Typed]) -> Typed | None:
        """A call of primitive ``prim`` on arguments typed ``found``: cannot break a rule when
        the primitive is declared ``pure`` (primitives.py), typed by its declaration; it takes
        no steps of its own (a list it returns: at most LIMITS.max_list items)."""
        if not prim.pure or prim.effect:
            return None
        return (declared_type(prim.returns, self.rs.kinds), sum(f[1] for f in found), LIMITS.max_list)


def declared_type(t: str, kinds: Any) -> str | None:
    """The analysis' name of a primitive's declared type (``"list:ship_class"`` is
    ``"list:entity:ship_class"``; ``"any"``: None, a value of unknown type)."""
    opt = "?" if t.endswith("?") else ""
    t = t.rstrip("?")
    if t.startswith("list:"):
        inner = declared_type(t[5:], kinds)
        return None if inner is None else "list:" + inner + opt
    if t == "any":
        return None
    return (f"entity:{t}" if t in kinds else t) + opt


def _bound_in(block: A.Block) -> set[str]:
    """The names a block binds at any depth (``let``s, loop variables, ``choose``/``draw``
    labels): a loop's body keeps them from one element to the next (backends.py, one binding
    dict for the loop)."""
    out: set[str] = set()
    stack: list[Any] = list(block.stmts)
    while stack:
        x = stack.pop()
        if isinstance(x, A.Let):
            out.add(x.name)
        elif isinstance(x, (A.For, A.Choose, A.Draw)):
            out.add(x.var)
        if isinstance(x, A.If):
            stack.extend(t for _, b in x.branches for t in b.stmts)
            stack.extend(x.orelse.stmts if x.orelse is not None else ())
        elif isinstance(x, (A.For, A.Choose, A.Draw, A.AfterTurn, A.Queue)):
            stack.extend(x.body.stmts)
    return out


def _lets_in(s: A.Stmt) -> set[str]:
    """The names a statement's nested ``let``s leave bound after it (those of its ``if``
    branches: a ``for`` body, a procedure or a slot gets its bindings back afterwards)."""
    if not isinstance(s, A.If):
        return set()
    names: set[str] = set()
    blocks = [b for _, b in s.branches] + ([s.orelse] if s.orelse is not None else [])
    for block in blocks:
        for t in block.stmts:
            names |= {t.name} if isinstance(t, A.Let) else _lets_in(t)
    return names


class _Acc:
    """The facts gathered while one unit is analysed (see :class:`Facts`)."""

    __slots__ = ("needs", "writes", "depth", "sized", "growth", "takes", "widens", "log", "seated", "unseats",
                 "seat_deps")

    def __init__(self) -> None:
        self.takes = 0   # the takes analysed so far (stmts drops the facts of owners after one)
        self.needs: set[str] = set()
        self.writes: set[str] = set()
        self.depth = 0
        self.sized: set[str] = set()
        self.growth: dict[str, int] = {}
        self.widens: set[str] = set()
        self.log: list[str] = []   # every write in turn (a name written again drops facts again)
        self.seated: set[str] = set()
        self.unseats: set[str] = set()
        self.seat_deps: set[tuple[str, str]] = set()

    def write(self, *names: str) -> None:
        self.writes.update(names)
        self.log.extend(names)

    def facts(self) -> Facts:
        return Facts(frozenset(self.needs), frozenset(self.writes), self.depth,
                     frozenset(self.sized), tuple(sorted(self.growth.items())), frozenset(self.widens),
                     frozenset(self.seated), frozenset(self.unseats), frozenset(self.seat_deps))

    def grow(self, var: str, n: int) -> None:
        self.growth[var] = self.growth.get(var, 0) + n
        self.log.append(var)   # (its length changed: the facts that mention it are dropped)


class _Me:
    """``me`` known or not for the duration of a ``with`` (see :meth:`Inert.anonymous`)."""

    def __init__(self, inert: Inert, known: bool) -> None:
        self.inert, self.known = inert, known

    def __enter__(self) -> None:
        self.saved = self.inert.me
        self.inert.me = self.known

    def __exit__(self, *exc: object) -> None:
        self.inert.me = self.saved


class _Unit:
    """A fresh accumulator for the duration of a ``with`` (the outer one is put back)."""

    def __init__(self, inert: Inert) -> None:
        self.inert = inert

    def __enter__(self) -> _Acc:
        self.saved = self.inert._acc
        self.inert._acc = _Acc()
        return self.inert._acc

    def __exit__(self, *exc: object) -> None:
        self.inert._acc = self.saved


def names_in(node: object) -> set[str]:
    """Every name an AST node (expression or statement) mentions, at any depth (quantifier and
    loop variables included: a superset of what it reads)."""
    out: set[str] = set()
    stack = [node]
    while stack:
        x = stack.pop()
        if isinstance(x, A.Name):
            out.add(x.id)
        elif isinstance(x, tuple):
            stack.extend(x)
        elif attrs.has(type(x)):
            stack.extend(getattr(x, f.name) for f in attrs.fields(type(x))  # type: ignore[arg-type]
                         if f.name != "span")
    return out


def _key(e: object) -> Any:
    """A hashable key of an AST node, equal for nodes written alike (spans left out)."""
    if isinstance(e, tuple):
        return tuple(_key(x) for x in e)
    if attrs.has(type(e)):
        return (type(e).__name__,) + tuple(_key(getattr(e, f.name)) for f in attrs.fields(type(e))  # type: ignore[arg-type]
                                          if f.name != "span")
    return e


def _linear(e: A.Expr) -> Linear:
    """``e`` as a term plus a constant (``n - 1``: (key of n, -1); ``3``: (None, 3))."""
    if isinstance(e, A.Int):
        return (None, e.value)
    if isinstance(e, A.BinOp) and e.op in ("+", "-"):
        if isinstance(e.right, A.Int):
            t, c = _linear(e.left)
            return (t, c + e.right.value if e.op == "+" else c - e.right.value)
        if isinstance(e.left, A.Int) and e.op == "+":
            t, c = _linear(e.right)
            return (t, c + e.left.value)
    return (_key(e), 0)


def _bind(scope: Scope, name: str, t: str | None, seat: bool = False) -> None:
    """Bind ``name`` (of type ``t``; ``seat``: surely a player of the game) in ``scope``: the
    facts that mention it are dropped."""
    scope[name] = t
    if scope.get(FACTS):
        scope[FACTS] = tuple(f for f in scope[FACTS] if name not in f[3])
    if scope.get(FIXED):
        scope[FIXED] = tuple(f for f in scope[FIXED] if f[0] != name)
    seats: frozenset[str] = scope.get(SEATS) or frozenset()
    if seat:
        scope[SEATS] = seats | {name}
    elif name in seats:
        scope[SEATS] = seats - {name}


def _bound(scope: Scope, name: str, t: str | None, seat: bool = False) -> Scope:
    """A copy of ``scope`` with ``name`` bound (:func:`_bind`)."""
    out = dict(scope)
    _bind(out, name, t, seat)
    return out


def _seat(e: A.Expr, scope: Scope) -> bool:
    """Whether ``e`` is surely a player of the game: a binding that is a seat (Inert._seats)."""
    return isinstance(e, A.Name) and e.id in scope.get(SEATS, ())


def _added(a: tuple[tuple[str, int], ...], b: tuple[tuple[str, int], ...]) -> tuple[tuple[str, int], ...]:
    """Two growths (:attr:`Facts.growth`) added up."""
    out = dict(a)
    for var, n in b:
        out[var] = out.get(var, 0) + n
    return tuple(sorted(out.items()))


def _appended(t: A.Target, value: A.Expr, found: Typed) -> int | None:
    """The most ``set t = value`` adds to the list variable ``t`` when it appends to it
    (``value`` is ``t + L``: L's size bound) or takes from it (``without(t, x)``,
    ``without_one(t, x)``: 0), else None."""
    if t.index is None and t.of is None and isinstance(value, A.Call) and value.fn in ("without", "without_one") \
            and len(value.args) == 2 and isinstance(value.args[0], A.Name) and value.args[0].id == t.name:
        return 0
    if t.index is not None or t.of is not None or not isinstance(value, A.BinOp) or value.op != "+" \
            or not isinstance(value.left, A.Name) or value.left.id != t.name \
            or not (found[0] or "").startswith("list:"):
        return None
    return found[2] - (SHORT + GROW)
