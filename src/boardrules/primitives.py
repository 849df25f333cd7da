"""Primitives: Python functions that rules call by name, declared with a typed signature.

A plugin returns them from ``boardrules_primitives``. The checker validates every
call against ``params`` and ``returns``; at run time the function receives the
:class:`~boardrules.runtime.Context` first, then the arguments::

    @primitive("hex_distance", a="hex", b="hex", returns="int")
    def hex_distance(ctx, a, b): ...

Types are the rules language's: ``int``, ``bool``, ``text``, ``player``, ``hex``,
``any``, an entity kind, or ``list:T``. A primitive with ``effect=True`` may change
the state (through ``ctx.set``/``ctx.gain``…) and is called with ``call NAME(...)``;
one without is a function of the state used in expressions. A primitive signals a broken
rule by raising ``ctx.violation("message")``.

A primitive declared ``pure=True`` (never with ``effect``) promises more: it writes nothing and
never breaks a rule, whatever its arguments; it returns a value of its declared type (an
entity kind: an entity of that kind; a list: at most ``LIMITS.max_list`` items, :mod:`boardrules.limits`), and a call
it cannot answer is a programming error (a Python exception such as ``ValueError``), never a
rule violation. The engine may then leave calls of it unevaluated where their value cannot
change whether an action is legal (lang/inert.py; a ``choose`` while the legal actions are
listed: lang/lazy.py).
"""

from __future__ import annotations

from typing import Any, Callable

import attrs


@attrs.frozen
class Primitive:
    """A named, typed Python function the rules language may call."""

    name: str
    fn: Callable[..., Any]
    params: tuple[tuple[str, str], ...]  # ((name, type), ...)
    returns: str = "any"
    effect: bool = False
    doc: str = ""
    replaces: bool = False  # a module's: takes the place of the game's primitive of this name
    wraps: bool = False  # a module's: fn(ctx, inner, *args) around the game's primitive
    pure: bool = False  # writes nothing, never breaks a rule (see the module's docstring)
    batch: Callable[..., Any] | None = None   # a pure one's answers for many options (batched)


def primitive(name: str, *, returns: str = "any", effect: bool = False,
              replaces: bool = False, wraps: bool = False, pure: bool = False,
              **params: str) -> Callable[[Callable[..., Any]], Primitive]:
    """Decorator: declare ``fn(ctx, *args)`` as primitive ``name`` with typed ``params``.

    In a module (``ModuleSpec.primitives``), ``replaces=True`` puts it in the place of the
    game's primitive ``name``; ``wraps=True`` makes it ``fn(ctx, inner, *args)``, called
    instead of the game's with that one as ``inner`` (same signature in both cases).
    ``pure=True``: see the module's docstring (a wrapper is pure when it and the primitive it
    wraps are)."""
    if pure and effect:
        raise ValueError(f"primitive {name!r}: a pure primitive writes nothing (effect=False)")

    def wrap(fn: Callable[..., Any]) -> Primitive:
        return Primitive(name, fn, tuple(params.items()), returns, effect,
                         (fn.__doc__ or "").strip(), replaces, wraps, pure)
    return wrap


class _NotBatched:
    """The type of :data:`NOT_BATCHED`."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "NOT_BATCHED"


NOT_BATCHED: Any = _NotBatched()
"""What a batch form (:func:`batched`) answers for an option it leaves to the primitive's call."""


def batched(prim: Primitive, each: Callable[..., Any]) -> Primitive:
    """``prim`` (pure) with a batch form: ``each(ctx, opts, *rest)`` gives, for a sequence of
    options, what ``prim.fn(ctx, o, *rest)`` returns for each ``o`` of them, in order (a list
    or tuple; anything else is not used), or
    :data:`NOT_BATCHED` for one it leaves to that call (one the call would raise for, or that
    it does not know); it never raises. A choice's compiled ``where`` asks it once for all its
    options where it calls ``prim`` with the option and written constants (lang/codegen.py,
    ``ExprCompiler.filter``): one call in place of one per option. As ``prim`` is pure,
    answering options the ``where`` would not have asked of (``and``, ``or``) is not seen.
    A module's replacement or wrapper of ``prim`` does not keep ``each``. Answers that are
    not ``prim``'s make playing an action listed as legal raise
    :class:`~boardrules.errors.PrimitiveError` naming the batch form (docs/plugins.md).
    ``ValueError`` for a primitive that is not pure."""
    if not prim.pure:
        raise ValueError(f"primitive {prim.name!r}: only a pure primitive has a batch form")
    return attrs.evolve(prim, batch=each)
