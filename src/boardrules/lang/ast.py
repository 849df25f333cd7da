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

_node = attrs.frozen(kw_only=True)


def _span() -> Span:
    return attrs.field(default=NOWHERE, eq=False, repr=False)


# ---- types ------------------------------------------------------------------


@_node
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


@_node
class Int:
    value: int
    span: Span = _span()


@_node
class Str:
    value: str
    span: Span = _span()


@_node
class Bool:
    value: bool
    span: Span = _span()


@_node
class NoneLit:
    span: Span = _span()


@_node
class Name:
    id: str
    span: Span = _span()


@_node
class Call:
    fn: str
    args: tuple
    span: Span = _span()


@_node
class ListLit:
    items: tuple
    span: Span = _span()


@_node
class Field:
    obj: object
    name: str
    span: Span = _span()


@_node
class Index:
    obj: object
    index: object
    span: Span = _span()


@_node
class Of:
    """``expr of player``: evaluate ``expr`` as if ``player`` were ``me``."""

    expr: object
    player: object
    span: Span = _span()


@_node
class Neg:
    operand: object
    span: Span = _span()


@_node
class Not:
    operand: object
    span: Span = _span()


@_node
class BinOp:
    op: str  # + - * // %
    left: object
    right: object
    span: Span = _span()


@_node
class Compare:
    op: str  # == != < <= > >= in notin
    left: object
    right: object
    span: Span = _span()


@_node
class Range:
    low: object
    high: object
    span: Span = _span()


@_node
class BoolOp:
    op: str  # and / or
    items: tuple
    span: Span = _span()


@_node
class Quant:
    """``count x in D where C``, ``any …``, ``all …``."""

    kind: str
    var: str
    domain: object
    where: object = None
    span: Span = _span()


@_node
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


@_node
class Amount:
    """``2 credits`` or ``1 vp per lab_count``: a count of a resource."""

    count: object
    resource: str
    per: object = None
    span: Span = _span()


@_node
class AmountExpr:
    """``[b.cost]``: an expression that evaluates to a list of (count, resource) pairs."""

    expr: object
    span: Span = _span()


# ---- statements -------------------------------------------------------------


@_node
class Gain:
    amounts: object  # tuple[Amount] | AmountExpr
    to: object = None
    span: Span = _span()


@_node
class Pay:
    amounts: object
    span: Span = _span()


@_node
class Lose:
    amounts: object
    to: object = None
    span: Span = _span()


@_node
class Target:
    name: str
    index: object = None
    of: object = None
    span: Span = _span()


@_node
class Set:
    target: Target
    value: object
    span: Span = _span()


@_node
class Let:
    name: str
    value: object
    span: Span = _span()


@_node
class Advance:
    track: str
    by: object = None
    span: Span = _span()


@_node
class If:
    branches: tuple  # ((cond, Block), ...)
    orelse: Optional["Block"] = None
    span: Span = _span()


@_node
class For:
    var: str
    domain: object
    where: object
    body: "Block"
    span: Span = _span()


@_node
class Require:
    cond: object
    message: str
    span: Span = _span()


@_node
class Choose:
    var: str
    domain: object
    where: object
    by: object
    optional: bool
    prompt: str
    body: "Block"
    span: Span = _span()


@_node
class Draw:
    var: str
    bag: str
    body: "Block"
    span: Span = _span()


@_node
class Emit:
    event: str
    args: tuple
    span: Span = _span()


@_node
class Run:
    target: object  # a Field node: entity.slot
    for_: object = None
    span: Span = _span()


@_node
class AfterTurn:
    body: "Block"
    span: Span = _span()


@_node
class Queue:
    """``queue { ... }``: the block runs when the decisions raised before it are decided
    (what it computes, e.g. an offer's size, is computed then)."""

    body: "Block"
    span: Span = _span()


@_node
class Take:
    entity: object
    span: Span = _span()


@_node
class Give:
    entity: object
    to: object
    span: Span = _span()


@_node
class Discard:
    entity: object
    span: Span = _span()


@_node
class CallStmt:
    fn: str
    args: tuple
    span: Span = _span()


@_node
class Pass:
    span: Span = _span()


@_node
class Use:
    component: str
    span: Span = _span()


@_node
class Restore:
    component: str
    span: Span = _span()


@_node
class Block:
    stmts: tuple
    span: Span = _span()


# ---- declarations -----------------------------------------------------------


@_node
class Param:
    """``name: type [in DOMAIN] [where CONDITION]`` — the condition prunes the candidates
    before an action is tried, and is part of its legality."""

    name: str
    type: TypeRef
    domain: object = None
    where: object = None
    message: str = ""
    span: Span = _span()


@_node
class Property:
    name: str
    values: tuple
    span: Span = _span()


@_node
class FieldDef:
    name: str
    type: TypeRef
    default: object = None
    span: Span = _span()


@_node
class SlotDef:
    name: str
    body: Optional[Block] = None
    span: Span = _span()


@_node
class AtDef:
    level: int
    body: Block
    span: Span = _span()


@_node
class SlotUse:
    name: str
    body: Block
    span: Span = _span()


@_node
class SlotExtend:
    """``extend SLOT { ... }`` inside an ``extend`` of an entity: the statements run after
    what the slot does already (several modules may each add some)."""

    name: str
    body: Block
    span: Span = _span()


@_node
class Trigger:
    event: str
    names: tuple
    cond: object
    body: Block
    span: Span = _span()


@_node
class ActionDecl:
    modifier: Optional[str]
    name: str
    params: tuple
    tags: tuple
    body: Block
    span: Span = _span()


@_node
class Decl:
    """``[override|extend] KIND NAME { entries }``."""

    modifier: Optional[str]
    kind: str
    name: str
    entries: tuple
    span: Span = _span()


@_node
class OptionDecl:
    modifier: Optional[str]
    name: str
    default: object
    doc: str = ""
    span: Span = _span()
    domain: object = None  # the values allowed (a range or list expression), or None: any


@_node
class VarDecl:
    modifier: Optional[str]
    name: str
    type: TypeRef
    per: tuple
    default: object
    hidden: bool = False
    private: bool = False
    span: Span = _span()


@_node
class EventDecl:
    name: str
    params: tuple
    span: Span = _span()


@_node
class RemoveDecl:
    kind: str
    name: str
    span: Span = _span()


@_node
class DoStep:
    name: str
    body: Block
    span: Span = _span()


@_node
class TurnsStep:
    name: str
    order: object  # ("named", str) | ("reverse", str) | ("by", Expr)
    mode: str
    rules: tuple  # ((kind, (action names...), span), ...); ("lanes", Expr, span) for lanes
    span: Span = _span()


@_node
class StepEdit:
    """A module's change to one named flow step, outside the flow: a new ``step`` placed
    ``before`` or ``after`` a named one (``place`` = ("before"|"after", name)), or an
    ``override step`` that replaces one (``modifier`` = "override", no place)."""

    modifier: Optional[str]
    name: str
    place: Optional[tuple]
    step: object  # DoStep | TurnsStep
    span: Span = _span()


@_node
class StepExtend:
    """``extend step NAME { main a, b; free c }``: actions added to a ``turns`` step."""

    modifier: Optional[str]
    name: str
    rules: tuple  # ((kind, (action names...), span), ...)
    span: Span = _span()


@_node
class Stage:
    kind: str  # setup | rounds | finish
    count: object
    steps: tuple
    span: Span = _span()


@_node
class FlowDecl:
    modifier: Optional[str]
    stages: tuple
    span: Span = _span()


@_node
class RuleFile:
    """One parsed rule file: its path (as shown in errors), text and items."""

    path: str
    text: str = attrs.field(eq=False, repr=False)
    items: tuple


def decl_key(item) -> tuple[str, str] | None:
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
