"""The LALR parser's reductions building AST nodes at once: lark's parse tree, never built.

Lark builds a ``Tree`` and a ``Meta`` per rule, and then a transformer walks the tree again;
for a rule file that was 60% of its parse. Here each reduction calls the AST builder's method
for its rule directly, with the children and the span the tree node would have had: the same
shaping as lark's tree builder (anonymous tokens dropped, ``_rule`` children inlined in their
parent, a ``?rule`` with one child replaced by it, ``None`` for an absent ``[item]``) and the
same positions as ``propagate_positions`` (a node runs from its first child with a position,
dropped tokens and inlined rules included, to its last). ``tests/core/test_parse_paths.py``
compares the two on every rule file and on mutated ones.

Values on the parser's stack are lark Tokens, ``None`` (an absent item a ``?rule`` passed on)
or tuples ``(value, line, column, end_line, end_column, height)``: the position is the node's
*container* (what its parent measures: for a ``?rule`` that passed its one child on, the
rule's whole text), ``value`` is a list of children for an inlined ``_rule``, and ``height``
is the depth of the tree node as ``parser._depth_diagnostic`` counts it (0: no tree node).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from typing import Any

import attrs
from lark import Token

from . import ast as A

Reduce = Callable[[list[Any]], Any]
CHAINS = frozenset({"sum", "product"})  # a chain ``a + b + c`` is one level per operator

_TOKEN, _NODE, _INLINE = 0, 1, 2


@attrs.frozen
class Shape:
    """How one grammar rule (an alternative) turns its matched symbols into children.

    ``include``: (index of the symbol, its kind: token, node or inlined ``_rule``, placeholders
    ``None`` before it); ``trailing``: placeholders after the last; ``name``: the builder's method.
    """

    rule: Any
    name: str
    include: tuple[tuple[int, int, int], ...]
    trailing: int
    expand1: bool
    inline: bool


def shapes(rules: list[Any], maybe_placeholders: bool) -> tuple[Shape, ...]:
    """The shape of each of lark's rules, as lark's ``ParseTreeBuilder`` shapes its trees."""
    out = []
    for rule in rules:
        opts = rule.options
        n = len(rule.expansion)
        empty = opts.empty_indices if maybe_placeholders else None
        if empty:   # (lark's encoding: True for each absent item, False for each symbol)
            runs = "".join("1" if b else "0" for b in empty).split("0")
            nones = [len(r) for r in runs]
        else:
            nones = [0] * (n + 1)
        include = []
        pending = 0
        for i, sym in enumerate(rule.expansion):
            pending += nones[i]
            if opts.keep_all_tokens or not (sym.is_term and sym.filter_out):
                kind = _TOKEN if sym.is_term else _INLINE if sym.name.startswith("_") else _NODE
                include.append((i, kind, pending))
                pending = 0
        name = rule.alias or opts.template_source or rule.origin.name
        inline = name.startswith("_")
        expand1 = bool(opts.expand1) and not rule.alias
        out.append(Shape(rule, str(name), tuple(include), pending + nones[n], expand1, inline))
    return tuple(out)


class Reductions:
    """lark's callbacks (rule → function of the matched values), made once for a grammar and
    a builder class: each calls the builder's method for its rule, ``method(builder, span,
    children)``, on the builder that :meth:`running` set for the parse under way in this thread.

    Raises AttributeError when the builder class lacks a method for one of the grammar's rules."""

    def __init__(self, shapes: tuple[Shape, ...], builder_class: type) -> None:
        self._local = threading.local()
        self.callbacks: dict[Any, Reduce] = {}
        for s in shapes:
            if s.expand1 and len(s.rule.expansion) == 1 and s.include == ((0, _NODE, 0),) \
                    and not s.trailing:
                self.callbacks[s.rule] = _passed_on   # ``?rule: other``: the child as it is
            else:
                one = len(s.include) == 1 and s.include[0][1] != _INLINE and not s.include[0][2] \
                    and not s.trailing   # (``?atom: "(" expr ")"``: never a node of its own)
                method = _no_node if s.inline or (s.expand1 and one) else getattr(builder_class, s.name)
                self.callbacks[s.rule] = _reduction(s, method, self._local, s.name in CHAINS)

    @contextlib.contextmanager
    def running(self, builder: object, path: str) -> Iterator[dict[Any, Reduce]]:
        """The callbacks, building with ``builder``, spans in file ``path``, until the end."""
        saved = getattr(self._local, "current", None)
        self._local.current = (builder, path)
        try:
            yield self.callbacks
        finally:
            self._local.current = saved


def _passed_on(raw: list[Any]) -> Any:
    return raw[0]


def _no_node(builder: object, span: A.Span, children: list[Any]) -> Any:
    raise AssertionError("this rule never makes a node of its own")


def _reduction(shape: Shape, method: Callable[[Any, A.Span, list[Any]], Any],
               local: threading.local, chain: bool) -> Reduce:
    include, trailing, expand1, inline = shape.include, shape.trailing, shape.expand1, shape.inline
    Span, NOWHERE = A.Span, A.NOWHERE

    def reduce(raw: list[Any]) -> Any:
        children: list[Any] = []
        height = 0
        for i, kind, nones in include:
            if nones:
                children += [None] * nones
            c = raw[i]
            if kind == _TOKEN or c.__class__ is not tuple:
                children.append(c)
                continue
            if c[5] > height:
                height = c[5]
            if kind == _NODE:
                children.append(c[0])
            elif children:
                children += c[0]
            else:   # (a left-recursive repetition: reuse its list, as lark does)
                children = c[0]
        if trailing:
            children += [None] * trailing
        line: Any = None
        column = end_line = end_column = line
        for a in raw:   # the first and the last child with a position
            if (a[1] if a.__class__ is tuple else a) is not None:
                for z in reversed(raw):
                    if (z[1] if z.__class__ is tuple else z) is not None:
                        break
                line, column = (a[1], a[2]) if a.__class__ is tuple else (a.line, a.column)
                end_line, end_column = (z[3], z[4]) if z.__class__ is tuple else (z.end_line, z.end_column)
                break
        if inline:   # an inlined ``_rule``: its children go to the parent
            return (children, line, column, end_line, end_column, height)
        if expand1 and len(children) == 1:
            # the one child stands for the rule: a token or None as it is; a node keeps its
            # own span and height, its parent measures the rule's whole text (lark changes
            # only a tree child's container)
            c = children[0]
            if c is None or isinstance(c, Token):
                return c
            return (c, line, column, end_line, end_column, height)
        if height:
            height += 1 + (len(children) - 1) // 2 if chain else 1
        else:
            height = 1
        builder, path = local.current
        span = NOWHERE if line is None else Span(path, line, column, end_line, end_column)
        return (method(builder, span, children), line, column, end_line, end_column, height)

    return reduce
