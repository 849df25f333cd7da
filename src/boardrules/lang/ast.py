"""The abstract syntax tree of the rules language: small frozen attrs classes.

Every node carries ``span``, the place in its rule file it came from, so that the
checker, the merger and runtime errors can point at the user's text.
"""

from __future__ import annotations

from typing import Optional, Union

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


@attrs.frozen(kw_only=True)
class TypeRef:
    name: str
    optional: bool = False
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
    obj: object
    name: str
    span: Span = _span()


@attrs.frozen(kw_only=True)
class Index:
    obj: object
    index: object
    span: Span = _span()


@attrs.frozen(kw_only=True)
class Of:
    """``expr of player``: evaluate ``expr`` as if ``player`` were ``me``."""

    expr: object
    player: object
    span: Span = _span()


@attrs.frozen(kw_only=True)
class Neg:
    operand: object
    span: Span = _span()


@attrs.frozen(kw_only=True)
class Not:
    operand: object
    span: Span = _span()


@attrs.frozen(kw_only=True)
class BinOp:
    op: str  # + - * // %
    left: object
    right: object
    span: Span = _span()


@attrs.frozen(kw_only=True)
class Compare:
    op: str  # == != < <= > >= in notin
    left: object
    right: object
    span: Span = _span()


@attrs.frozen(kw_only=True)
class Range:
    low: object
    high: object
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
    domain: object
    where: object = None
    span: Span = _span()


@attrs.frozen(kw_only=True)
class SumOf:
    """``sum E for x in D where C``."""

    expr: object
    var: str
    domain: object
    where: object = None
    span: Span = _span()


Expr = Union[Int, Str, Bool, NoneLit, Name, Call, ListLit, Field, Index, Of, Neg, Not, BinOp,
             Compare, Range, BoolOp, Quant, SumOf]


# ---- amounts ----------------------------------------------------------------


@attrs.frozen(kw_only=True)
class Amount:
    """``2 credits`` or ``1 vp per lab_count``: a count of a resource."""

    count: object
    resource: str
    per: object = None
    span: Span = _span()


@attrs.frozen(kw_only=True)
class AmountExpr:
    """``[b.cost]``: an expression that evaluates to a list of (count, resource) pairs."""

    expr: object
    span: Span = _span()


# ---- statements -------------------------------------------------------------


@attrs.frozen(kw_only=True)
class Gain:
    amounts: object  # tuple[Amount] | AmountExpr
    to: object = None
    span: Span = _span()


@attrs.frozen(kw_only=True)
class Pay:
    amounts: object
    span: Span = _span()


@attrs.frozen(kw_only=True)
class Lose:
    amounts: object
    to: object = None
    span: Span = _span()


@attrs.frozen(kw_only=True)
class Target:
    name: str
    index: object = None
    of: object = None
    span: Span = _span()


@attrs.frozen(kw_only=True)
class Set:
    target: Target
    value: object
    span: Span = _span()


@attrs.frozen(kw_only=True)
class Let:
    name: str
    value: object
    span: Span = _span()


@attrs.frozen(kw_only=True)
class Advance:
    track: str
    by: object = None
    span: Span = _span()


@attrs.frozen(kw_only=True)
class If:
    branches: tuple[tuple[object, "Block"], ...]  # ((cond, Block), ...)
    orelse: Optional["Block"] = None
    span: Span = _span()


@attrs.frozen(kw_only=True)
class For:
    var: str
    domain: object
    where: object
    body: "Block"
    span: Span = _span()


@attrs.frozen(kw_only=True)
class Require:
    cond: object
    message: str
    span: Span = _span()


@attrs.frozen(kw_only=True)
class Choose:
    var: str
    domain: object
    where: object
    by: object
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
    target: object  # a Field node: entity.slot
    for_: object = None
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
    entity: object
    span: Span = _span()


@attrs.frozen(kw_only=True)
class Give:
    entity: object
    to: object
    span: Span = _span()


@attrs.frozen(kw_only=True)
class Discard:
    entity: object
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
    stmts: tuple[object, ...]
    span: Span = _span()


# ---- declarations -----------------------------------------------------------


@attrs.frozen(kw_only=True)
class Param:
    """``name: type [in DOMAIN] [where CONDITION]`` — the condition prunes the candidates
    before an action is tried, and is part of its legality."""

    name: str
    type: TypeRef
    domain: object = None
    where: object = None
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
    cond: object
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
    params: tuple[object, ...]
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
    span: Span = _span()


@attrs.frozen(kw_only=True)
class TurnsStep:
    name: str
    order: object  # ("named", str) | ("reverse", str) | ("by", Expr)
    mode: str
    rules: tuple[tuple[object, ...], ...]  # ((kind, (action names...), span), ...); ("lanes", Expr, span)
    span: Span = _span()


@attrs.frozen(kw_only=True)
class StepEdit:
    """A module's change to one named flow step, outside the flow: a new ``step`` placed
    ``before`` or ``after`` a named one (``place`` = ("before"|"after", name)), or an
    ``override step`` that replaces one (``modifier`` = "override", no place)."""

    modifier: Optional[str]
    name: str
    place: Optional[tuple[str, str]]
    step: object  # DoStep | TurnsStep
    span: Span = _span()


@attrs.frozen(kw_only=True)
class StepExtend:
    """``extend step NAME { main a, b; free c }``: actions added to a ``turns`` step."""

    modifier: Optional[str]
    name: str
    rules: tuple[tuple[str, tuple[str, ...], Span], ...]  # ((kind, (action names...), span), ...)
    span: Span = _span()


@attrs.frozen(kw_only=True)
class Stage:
    kind: str  # setup | rounds | finish
    count: object
    steps: tuple[object, ...]
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
