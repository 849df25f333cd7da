"""The abstract syntax tree of the rules language: small frozen attrs classes.

Every node carries ``span``, the place in its rule file it came from, so that the
checker, the merger and runtime errors can point at the user's text.
"""

from __future__ import annotations

from typing import Any, Optional, Union

import attrs


@attrs.frozen
class Span:
    """A region of a rule file: 1-based line and column, end exclusive."""

    file: str
    line: int
    column: int
    end_line: int
    end_column: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


NOWHERE = Span("<builtin>", 0, 0, 0, 0)



def _span() -> Span:
    return attrs.field(default=NOWHERE, eq=False, repr=False)


# ---- types ------------------------------------------------------------------


def _not_a_list(type_: "TypeRef", _: Any, optional: bool) -> None:
    if optional and type_.list_of is not None:
        raise ValueError(f"list[{type_.list_of}] cannot be optional: a list is never none (an empty "
                         f"list stands for none), as the rules language writes types")


@attrs.frozen(kw_only=True)
class TypeRef:
    """A declared type as written: ``name`` (``int``, a kind...), ``T?`` (``optional``: may be
    none; never a list: ``ValueError``) or ``list[T]`` (``list_of``)."""

    name: str
    optional: bool = attrs.field(default=False, validator=_not_a_list)
    list_of: Optional["TypeRef"] = None
    span: Span = _span()

    def __str__(self) -> str:
        if self.list_of is not None:
            return f"list[{self.list_of}]"
        return self.name + ("?" if self.optional else "")


# ---- expressions ------------------------------------------------------------


@attrs.frozen(kw_only=True)
class Int:
    value: int
    span: Span = _span()


@attrs.frozen(kw_only=True)
class Str:
    value: str
    span: Span = _span()


@attrs.frozen(kw_only=True)
class Bool:
    value: bool
    span: Span = _span()


@attrs.frozen(kw_only=True)
class NoneLit:
    span: Span = _span()


@attrs.frozen(kw_only=True)
class Name:
    id: str
    span: Span = _span()


@attrs.frozen(kw_only=True)
class Call:
    fn: str
    args: tuple["Expr", ...]
    span: Span = _span()


@attrs.frozen(kw_only=True)
class ListLit:
    items: tuple["Expr", ...]
    span: Span = _span()


@attrs.frozen(kw_only=True)
class Field:
    obj: "Expr"
    name: str
    span: Span = _span()


@attrs.frozen(kw_only=True)
class Index:
    obj: "Expr"
    index: "Expr"
    span: Span = _span()


@attrs.frozen(kw_only=True)
class Of:
    """``expr of player``: evaluate ``expr`` as if ``player`` were ``me``."""

    expr: "Expr"
    player: "Expr"
    span: Span = _span()


@attrs.frozen(kw_only=True)
class Neg:
    operand: "Expr"
    span: Span = _span()


@attrs.frozen(kw_only=True)
class Not:
    operand: "Expr"
    span: Span = _span()


@attrs.frozen(kw_only=True)
class BinOp:
    op: str  # + - * // %
    left: "Expr"
    right: "Expr"
    span: Span = _span()


@attrs.frozen(kw_only=True)
class Compare:
    op: str  # == != < <= > >= in notin
    left: "Expr"
    right: "Expr"
    span: Span = _span()


@attrs.frozen(kw_only=True)
class Range:
    low: "Expr"
    high: "Expr"
    span: Span = _span()


@attrs.frozen(kw_only=True)
class BoolOp:
    op: str  # and / or
    items: tuple["Expr", ...]
    span: Span = _span()


@attrs.frozen(kw_only=True)
class Quant:
    """``count x in D where C``, ``any …``, ``all …``."""

    kind: str
    var: str
    domain: "Expr"
    where: Optional["Expr"] = None
    span: Span = _span()


@attrs.frozen(kw_only=True)
class SumOf:
    """``sum E for x in D where C``."""

    expr: "Expr"
    var: str
    domain: "Expr"
    where: Optional["Expr"] = None
    span: Span = _span()


Expr = Union[Int, Str, Bool, NoneLit, Name, Call, ListLit, Field, Index, Of, Neg, Not, BinOp,
             Compare, Range, BoolOp, Quant, SumOf]


# ---- amounts ----------------------------------------------------------------


@attrs.frozen(kw_only=True)
class Amount:
    """``2 credits`` or ``1 vp per lab_count``: a count of a resource."""

    count: "Expr"
    resource: str
    per: Optional["Expr"] = None
    span: Span = _span()


@attrs.frozen(kw_only=True)
class AmountExpr:
    """``[b.cost]``: an expression that evaluates to a list of (count, resource) pairs."""

    expr: "Expr"
    span: Span = _span()


# ---- statements -------------------------------------------------------------


@attrs.frozen(kw_only=True)
class Gain:
    amounts: Union[tuple["Amount", ...], "AmountExpr"]
    to: Optional["Expr"] = None
    span: Span = _span()


@attrs.frozen(kw_only=True)
class Pay:
    amounts: Union[tuple["Amount", ...], "AmountExpr"]
    span: Span = _span()


@attrs.frozen(kw_only=True)
class Lose:
    amounts: Union[tuple["Amount", ...], "AmountExpr"]
    to: Optional["Expr"] = None
    span: Span = _span()


@attrs.frozen(kw_only=True)
class Target:
    name: str
    index: Optional["Expr"] = None
    of: Optional["Expr"] = None
    span: Span = _span()


@attrs.frozen(kw_only=True)
class Set:
    target: Target
    value: "Expr"
    span: Span = _span()


@attrs.frozen(kw_only=True)
class Let:
    name: str
    value: "Expr"
    span: Span = _span()


@attrs.frozen(kw_only=True)
class Advance:
    track: str
    by: Optional["Expr"] = None
    span: Span = _span()


@attrs.frozen(kw_only=True)
class If:
    branches: tuple[tuple["Expr", "Block"], ...]  # ((cond, Block), ...)
    orelse: Optional["Block"] = None
    span: Span = _span()


@attrs.frozen(kw_only=True)
class For:
    var: str
    domain: "Expr"
    where: Optional["Expr"]
    body: "Block"
    span: Span = _span()


@attrs.frozen(kw_only=True)
class Require:
    cond: "Expr"
    message: str
    span: Span = _span()


@attrs.frozen(kw_only=True)
class Choose:
    var: str
    domain: "Expr"
    where: Optional["Expr"]
    by: Optional["Expr"]
    optional: bool
    prompt: str
    body: "Block"
    span: Span = _span()


@attrs.frozen(kw_only=True)
class Draw:
    var: str
    bag: str
    body: "Block"
    span: Span = _span()


@attrs.frozen(kw_only=True)
class Emit:
    event: str
    args: tuple["Expr", ...]
    span: Span = _span()


@attrs.frozen(kw_only=True)
class Run:
    target: "Expr"  # a Field node: entity.slot (the checker refuses others)
    for_: Optional["Expr"] = None
    span: Span = _span()


@attrs.frozen(kw_only=True)
class AfterTurn:
    body: "Block"
    span: Span = _span()


@attrs.frozen(kw_only=True)
class Queue:
    """``queue { ... }``: the block runs when the decisions raised before it are decided
    (what it computes, e.g. an offer's size, is computed then)."""

    body: "Block"
    span: Span = _span()


@attrs.frozen(kw_only=True)
class Take:
    entity: "Expr"
    span: Span = _span()


@attrs.frozen(kw_only=True)
class Give:
    entity: "Expr"
    to: "Expr"
    span: Span = _span()


@attrs.frozen(kw_only=True)
class Discard:
    entity: "Expr"
    span: Span = _span()


@attrs.frozen(kw_only=True)
class CallStmt:
    fn: str
    args: tuple["Expr", ...]
    span: Span = _span()


@attrs.frozen(kw_only=True)
class Pass:
    span: Span = _span()


@attrs.frozen(kw_only=True)
class Use:
    component: str
    span: Span = _span()


@attrs.frozen(kw_only=True)
class Restore:
    component: str
    span: Span = _span()


@attrs.frozen(kw_only=True)
class Block:
    stmts: tuple["Stmt", ...]
    span: Span = _span()


Stmt = Union[Gain, Pay, Lose, Set, Let, Advance, If, For, Require, Choose, Draw, Emit, Run,
             AfterTurn, Queue, Take, Give, Discard, CallStmt, Pass, Use, Restore]


# ---- declarations -----------------------------------------------------------


@attrs.frozen(kw_only=True)
class Param:
    """``name: type [in DOMAIN] [where CONDITION]`` — the condition prunes the candidates
    before an action is tried, and is part of its legality."""

    name: str
    type: TypeRef
    domain: Optional[Expr] = None
    where: Optional[Expr] = None
    message: str = ""
    span: Span = _span()


@attrs.frozen(kw_only=True)
class Property:
    name: str
    values: tuple[object, ...]
    span: Span = _span()


@attrs.frozen(kw_only=True)
class FieldDef:
    name: str
    type: TypeRef
    default: object = None
    span: Span = _span()


@attrs.frozen(kw_only=True)
class SlotDef:
    name: str
    body: Optional[Block] = None
    span: Span = _span()


@attrs.frozen(kw_only=True)
class AtDef:
    level: int
    body: Block
    span: Span = _span()


@attrs.frozen(kw_only=True)
class SlotUse:
    name: str
    body: Block
    span: Span = _span()


@attrs.frozen(kw_only=True)
class SlotExtend:
    """``extend SLOT { ... }`` inside an ``extend`` of an entity: the statements run after
    what the slot does already (several modules may each add some)."""

    name: str
    body: Block
    span: Span = _span()


@attrs.frozen(kw_only=True)
class Trigger:
    event: str
    names: tuple[str, ...]
    cond: Optional[Expr]
    body: Block
    span: Span = _span()


@attrs.frozen(kw_only=True)
class ActionDecl:
    modifier: Optional[str]
    name: str
    params: tuple["Param", ...]
    tags: tuple[str, ...]
    body: Block
    span: Span = _span()


@attrs.frozen(kw_only=True)
class Decl:
    """``[override|extend] KIND NAME { entries }``."""

    modifier: Optional[str]
    kind: str
    name: str
    entries: tuple[object, ...]
    span: Span = _span()


@attrs.frozen(kw_only=True)
class OptionDecl:
    modifier: Optional[str]
    name: str
    default: object
    doc: str = ""
    span: Span = _span()
    domain: object = None  # the values allowed (a range or list expression), or None: any


@attrs.frozen(kw_only=True)
class VarDecl:
    modifier: Optional[str]
    name: str
    type: TypeRef
    per: tuple[str, ...]
    default: object
    hidden: bool = False
    private: bool = False
    span: Span = _span()


@attrs.frozen(kw_only=True)
class EventDecl:
    name: str
    params: tuple[Param, ...]
    span: Span = _span()


@attrs.frozen(kw_only=True)
class RemoveDecl:
    kind: str
    name: str
    span: Span = _span()


@attrs.frozen(kw_only=True)
class DoStep:
    name: str
    body: Block
    title: str = ""   # (``step NAME "TITLE": …``: what players read on its score row)
    span: Span = _span()


TurnRule = tuple[str, Union[tuple[str, ...], Expr], Span]
"""``main a, b`` / ``free c`` of a turns step: (kind, (action names...), span); ``lanes EXPR``:
("lanes", Expr, span)."""


@attrs.frozen(kw_only=True)
class TurnsStep:
    name: str
    order: tuple[str, Union[str, Expr]]  # ("named", str) | ("reverse", str) | ("by", Expr)
    mode: str
    rules: tuple[TurnRule, ...]
    title: str = ""   # (as DoStep's)
    span: Span = _span()


@attrs.frozen(kw_only=True)
class StepEdit:
    """A module's change to one named flow step, outside the flow: a new ``step`` placed
    ``before`` or ``after`` a named one (``place`` = ("before"|"after", name)), or an
    ``override step`` that replaces one (``modifier`` = "override", no place)."""

    modifier: Optional[str]
    name: str
    place: Optional[tuple[str, str]]
    step: Union[DoStep, TurnsStep]
    span: Span = _span()


@attrs.frozen(kw_only=True)
class StepExtend:
    """``extend step NAME { main a, b; free c }``: actions added to a ``turns`` step."""

    modifier: Optional[str]
    name: str
    rules: tuple[TurnRule, ...]
    span: Span = _span()


@attrs.frozen(kw_only=True)
class Stage:
    kind: str  # setup | rounds | finish
    count: Optional[Expr]  # the number of rounds (None for setup and finish)
    steps: tuple[Union[DoStep, TurnsStep], ...]
    span: Span = _span()


@attrs.frozen(kw_only=True)
class FlowDecl:
    modifier: Optional[str]
    stages: tuple["Stage", ...]
    span: Span = _span()


@attrs.frozen(kw_only=True)
class RuleFile:
    """One parsed rule file: its path (as shown in errors), text and items."""

    path: str
    text: str = attrs.field(eq=False, repr=False)
    items: tuple[object, ...]


def decl_key(item: object) -> tuple[str, str] | None:
    """The (kind, name) under which a top-level item is merged, or None."""
    match item:
        case Decl(kind=kind, name=name):
            return (kind, name)
        case OptionDecl(name=name):
            return ("option", name)
        case VarDecl(name=name):
            return ("var", name)
        case EventDecl(name=name):
            return ("event", name)
        case ActionDecl(name=name):
            return ("action", name)
        case FlowDecl():
            return ("flow", "flow")
        case StepEdit(name=name) | StepExtend(name=name):
            return ("step", name)
        case RemoveDecl(kind=kind, name=name):
            return (kind, name)
    return None
