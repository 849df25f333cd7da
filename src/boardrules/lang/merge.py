"""Merging rule files on the AST: the game's files, then modules, then house rules.

A later file may add a definition, ``override`` one (replace it whole), ``extend``
one (add or replace entries inside it, or ``extend SLOT { ... }`` to add to what a slot
does) or ``remove`` one; it may put a new flow step ``before``/``after`` a named one,
``override step`` or ``remove step``. Redefining a name without ``override``, changing
something that does not exist, and two modules replacing the same thing (the same
definition, entry or step) are errors; additions (slot extensions, triggers, new steps)
compose in layer order. Every node keeps its own file's span, so errors point into the
file that caused them. House rules (the last layer) win over modules.
"""

from __future__ import annotations

from pathlib import PurePath
from typing import Any, Iterable, Union, cast

import attrs

from . import ast as A
from .diagnostics import INCOMPLETE, Diagnostic, Hints

NEAREST = 3
"""The names a change to something not there (``override step nosuch``) is told are nearest,
when none is close enough to be meant."""

Item = Union[A.Decl, A.OptionDecl, A.VarDecl, A.EventDecl, A.ActionDecl, A.FlowDecl]
"""A definition as merged: what :func:`boardrules.lang.ast.decl_key` names."""
Change = Union[Item, A.StepEdit, A.StepExtend, A.RemoveDecl]
"""A top-level item of a rule file other than a trigger: a definition or a change to one."""
StepChange = Union[A.StepEdit, A.StepExtend, A.RemoveDecl]
"""A change to a named flow step: placed before or after one, overridden, removed, extended."""
Key = tuple[str, str]
"""``(kind, name)`` of a definition, as :func:`boardrules.lang.ast.decl_key` gives it."""


@attrs.frozen
class Layer:
    """Rule files of one origin: ``kind`` is ``game``, ``module`` or ``house``."""

    name: str
    kind: str
    files: tuple[A.RuleFile, ...]


@attrs.frozen
class Merged:
    """The merged items in definition order, and the unnamed top-level triggers, each with the
    score source of what it gains (:func:`trigger_source`)."""

    items: dict[Key, Any]  # (kind, name) -> Item (the kind of item the key names)
    triggers: tuple[tuple[A.Trigger, str], ...]  # top-level, in file order
    sources: dict[str, str]  # path -> text, for diagnostics
    # option name -> its first declaration, when a later file overrides it (the checker holds
    # an override to the kind of value the option was declared with)
    declared_options: dict[str, Any] = attrs.field(factory=dict)


def _entry_key(entry: object) -> tuple[str, object]:
    match entry:
        case A.Property(name=n) | A.SlotUse(name=n):
            return ("entry", n)
        case A.FieldDef(name=n):
            return ("field", n)
        case A.SlotDef(name=n):
            return ("slot", n)
        case A.AtDef(level=lv):
            return ("at", lv)
        case A.ActionDecl(name=n):
            return ("action", n)
    return ("add", id(entry))  # triggers and slot extensions accumulate


def _extend(base: A.Decl, ext: A.Decl, items: dict[Key, Any]) -> A.Decl:
    entries: dict[tuple[str, object], Any] = {_entry_key(e): e for e in base.entries}
    for e in ext.entries:
        if isinstance(e, A.SlotExtend):
            old = entries.get(("entry", e.name))
            if old is None:
                old = A.SlotUse(name=e.name, body=_slot_default(items, base.kind, e.name)
                                or A.Block(stmts=()), span=e.span)
            entries[("entry", e.name)] = attrs.evolve(
                old, body=attrs.evolve(old.body, stmts=old.body.stmts + e.body.stmts))
        else:
            entries[_entry_key(e)] = e
    return attrs.evolve(base, entries=tuple(entries.values()))


def _slot_default(items: dict[Key, Any], kind: str, slot: str) -> A.Block | None:
    kind_decl = items.get(("kind", kind))
    for e in kind_decl.entries if kind_decl is not None else ():
        if isinstance(e, A.SlotDef) and e.name == slot:
            return e.body
    return None


def _replacing(item: object) -> frozenset[tuple[str, object]] | None:
    """What a change replaces: None for the whole definition, else the entry keys an
    ``extend`` replaces (its slot extensions and triggers replace nothing)."""
    if isinstance(item, A.Decl) and item.modifier == "extend":
        return frozenset(_entry_key(e) for e in item.entries
                         if not isinstance(e, (A.SlotExtend, A.Trigger)))
    return None


class _Merger:
    def __init__(self) -> None:
        self.items: dict[Key, Any] = {}  # (kind, name) -> Item (the kind of item the key names)
        self.declared_options: dict[str, Any] = {}   # (Merged.declared_options)
        self.origin: dict[Key, tuple[Layer, A.Span]] = {}  # key -> where it is defined
        # key -> [(layer, span, replaced entries or None)]
        self.changes: dict[Key, list[tuple[Layer, A.Span, frozenset[tuple[str, object]] | None]]] = {}
        self.after_tail: dict[str, str] = {}  # step name -> the last step a module put after it
        # step name -> its closing turn rule (or None), see _closing_rule
        self.closing: dict[str, A.TurnRule | None] = {}
        # the step changes made to the flow, in order: made again on a flow that replaces it
        self.step_edits: list[tuple[Layer, A.RuleFile, StepChange]] = []
        self.replacing: tuple[A.RuleFile, A.FlowDecl] | None = None   # (the flow they are made on)
        self.errors: list[Diagnostic] = []
        self.hint = Hints()   # ('did you mean' hints, bounded in all: a hostile file's thousands)
        self.places: tuple[A.FlowDecl | None, dict[str, tuple[int, int]]] = (None, {})   # (step_places)
        # step name -> where a layer places it (a step edit's position in the merge, its layer,
        # its span): a step put next to one placed only later is told where that one comes from
        self.placed: dict[str, list[tuple[int, Layer, A.Span]]] = {}
        self.position = 0   # (of the change being merged)

    def error(self, node: Change, message: str, hint: str, rf: A.RuleFile, kind: str = "") -> None:
        self.errors.append(Diagnostic(node.span, message, hint, rf.text, kind))

    def conflicts(self, key: Key, layer: Layer, item: Change, rf: A.RuleFile) -> bool:
        """Two modules changing the same thing (the same entries of it) is an error."""
        touched = _replacing(item)
        if layer.kind == "module":
            for prev, span, prev_touched in self.changes.get(key, ()):
                if prev.kind == "module" and prev.name != layer.name and (
                        touched is None or prev_touched is None or touched & prev_touched):
                    what = f"{key[0]} '{key[1]}'"
                    if touched is not None and prev_touched is not None:
                        entries = sorted(f"'{k[1]}'" for k in touched & prev_touched)
                        what = f"{', '.join(entries)} of {what}"
                    self.error(item, f"modules '{prev.name}' and '{layer.name}' both change "
                               f"{what} (the other change is at {span})",
                               "enable only one of them, or resolve it in a house-rule file", rf)
                    return True
        self.changes.setdefault(key, []).append((layer, item.span, touched))
        return False

    def add(self, layer: Layer, rf: A.RuleFile, item: Change) -> None:
        key = A.decl_key(item)
        assert key is not None  # (every item but a trigger has one)
        if isinstance(item, (A.StepEdit, A.StepExtend)) or (
                isinstance(item, A.RemoveDecl) and item.kind == "step"):
            self.edit_step(layer, rf, item)
            return
        modifier = getattr(item, "modifier", None)
        if isinstance(item, A.RemoveDecl) or modifier is not None:
            if key not in self.items:
                verb = "remove" if isinstance(item, A.RemoveDecl) else modifier
                names = (n for (k, n) in self.items if k == key[0])   # (listed for a hint only)
                self.error(item, f"nothing to {verb}: no {key[0]} named '{key[1]}'",
                           self.hint(key[1], names, NEAREST), rf, INCOMPLETE)
                return
            # (`extend event E { }`, `override event E { }` read as an entity's braces: they
            # met an event, which no change can take)
            if modifier == "extend" and not isinstance(item, A.Decl) \
                    or isinstance(item, A.Decl) and not isinstance(self.items[key], A.Decl):
                self.unextendable(key, item, rf)
                return
            if self.conflicts(key, layer, item, rf):
                return
            if isinstance(item, A.RemoveDecl):
                del self.items[key]
            elif modifier == "extend" and isinstance(item, A.Decl):
                self.items[key] = _extend(self.items[key], item, self.items)
            else:
                if key[0] == "option":
                    self.declared_options.setdefault(key[1], self.items[key])
                # (an item with a modifier is a definition: they all have the field)
                self.items[key] = self.new_decl(attrs.evolve(item, modifier=None))  # type: ignore[arg-type]
                if isinstance(item, A.FlowDecl):
                    self.keep_step_edits(rf, item)
        elif key in self.items:
            self.redefined(key, layer, item, f"write 'override {_keyword(item)} {key[1]}' to replace it"
                           if key[0] != "flow" else "write 'override flow' to replace it", rf)
        else:
            self.items[key] = self.new_decl(item)
            self.origin[key] = (layer, item.span)

    def unextendable(self, key: Key, item: Change, rf: A.RuleFile) -> None:
        """``extend`` of an action, option, variable or flow: none has entries to add to (it
        replaced the definition whole without a word: 'extend action study { gain 1 vp }' lost
        the action's own pay and advance). An event takes neither ``extend`` (it crashed the
        merge) nor ``override`` (it became an entity of an unknown kind 'event')."""
        keyword = _keyword(item)
        if keyword == "event":
            self.error(item, f"'{getattr(item, 'modifier', None)}' cannot change event '{key[1]}' "
                       f"(declared as 'event {key[1]}(...)'): an event has no entries and no "
                       f"other definition", "declare a new event with 'event NAME(param: type, "
                       "...)' and emit that one", rf)
            return
        what, written = ("the flow", "override flow") if keyword == "flow" else \
            (f"{keyword} '{key[1]}'", f"override {keyword} {key[1]}")
        self.error(item, f"'extend' adds entries to a declaration in braces (a resource, a card, a "
                   f"track...); {what} has none to add to",
                   f"write '{written}' with the whole new definition"
                   + (" (its own statements too)" if keyword == "action" else ""), rf)

    def redefined(self, key: Key, layer: Layer, item: Change, hint: str, rf: A.RuleFile) -> None:
        """``key`` defined again: by another module, a clash of their names (``hint``, to
        override, would make one module change the other's); else where it is defined."""
        prev, span = self.origin.get(key, (None, None))
        what = f"{key[0]} '{key[1]}'"
        if prev is not None and prev.kind == layer.kind == "module" and prev.name != layer.name:
            self.error(item, f"modules '{prev.name}' and '{layer.name}' both define {what} "
                       f"(the other is at {span})", "enable only one of them, or rename it in one", rf)
        else:
            self.error(item, f"{what} is already defined" + (f" at {span}" if span else ""), hint, rf)

    def new_decl(self, item: Item) -> Item:
        """A definition written whole: its ``extend SLOT`` entries add to the kind's default."""
        if isinstance(item, A.Decl) and any(isinstance(e, A.SlotExtend) for e in item.entries):
            plain = attrs.evolve(item, entries=tuple(
                e for e in item.entries if not isinstance(e, A.SlotExtend)))
            return _extend(plain, attrs.evolve(item, entries=tuple(
                e for e in item.entries if isinstance(e, A.SlotExtend))), self.items)
        return item

    # ---- named flow steps ----
    def keep_step_edits(self, rf: A.RuleFile, flow: A.FlowDecl) -> None:
        """``override flow`` (in house rules, or a module): the changes made so far to the steps
        of the flow it replaces (modules', and any written before it) are made again on it, in
        their order, as a module's steps go into whichever flow the game has (a module's ``step
        X after income`` went without a word). A step placed that the new flow has already is
        its own; a change the new flow cannot take (no step ``income``) is an error at it."""
        edits, self.step_edits, self.after_tail, self.closing = self.step_edits, [], {}, {}
        self.replacing = (rf, flow)
        try:
            for edit in edits:
                self.edit_step(*edit)
        finally:
            self.replacing = None

    def step_error(self, layer: Layer, rf: A.RuleFile, item: StepChange, message: str, hint: str,
                   kind: str = "") -> None:
        """A step change that cannot be made: at the change, or when it is made again on a flow
        that replaces the one it changed (:meth:`keep_step_edits`), at that flow's override."""
        if self.replacing is None:
            self.error(item, message, hint, rf, kind)
            return
        flow_rf, flow = self.replacing
        self.error(flow, f"{message}: this 'override flow' replaces the flow {layer.kind} "
                   f"'{layer.name}' changed at {item.span}, and those changes are made to it too",
                   "keep the steps it needs in this flow" + (
                       f", or switch module '{layer.name}' off" if layer.kind == "module" else ""),
                   flow_rf, kind)

    def step_places(self, flow: A.FlowDecl) -> dict[str, tuple[int, int]]:
        """{step name: (stage index, step index)} of ``flow`` (kept while the flow is unchanged)."""
        if self.places[0] is not flow:
            self.places = (flow, {s.name: (i, j) for i, st in enumerate(flow.stages)
                                  for j, s in enumerate(st.steps)})
        return self.places[1]

    def placed_later(self, name: str) -> tuple[Layer, A.Span] | None:
        """Where a change merged after the current one places step ``name``, or None."""
        for position, layer, span in self.placed.get(name, ()):
            if position > self.position:
                return layer, span
        return None

    def placed_later_error(self, layer: Layer, rf: A.RuleFile, item: StepChange, name: str,
                           what: str) -> bool:
        """When step ``name``, missing, is placed by a later change: the error saying so (changes
        are made in order: the game, its modules in load order, house rules; each file top to
        bottom), and True. ``what`` says what was done to it ("'x' is put after it")."""
        later = self.placed_later(name) if self.replacing is None else None
        if later is None:
            return False
        other, span = later
        if other is layer and span.file == item.span.file:
            hint = f"write the step '{name}' above this"
        elif other is layer:
            hint = f"give {span.file} before {item.span.file}"
        elif layer.kind == other.kind == "module":
            hint = (f"make module '{layer.name}' require module '{other.name}' (a module is merged "
                    f"after those it requires)")
        else:
            hint = f"change only steps that are in the flow at this point"
        by = ("further down this file" if span.file == item.span.file else "in a later file"
              if other is layer else f"by {_named(other)}")
        self.error(item, f"step '{name}' is not in the flow yet when {what} ({_named(layer)}): "
                   f"it is placed later, {by}, at {span}", hint, rf)
        return True

    def edit_step(self, layer: Layer, rf: A.RuleFile, item: StepChange) -> None:
        flow = self.items.get(("flow", "flow"))
        if flow is None:
            self.error(item, "there is no flow whose steps to change",
                       "a step edit belongs in a module of a game that has a flow", rf, INCOMPLETE)
            return
        where = self.step_places(flow)
        stages = None   # (the flow's steps as lists, made for a change only: a refused edit costs
        if isinstance(item, A.StepExtend):   # nothing per step, thousands were quadratic)
            if item.modifier != "extend":
                self.step_error(layer, rf, item, "a block of turn rules adds actions to a turns step",
                                f"write 'extend step {item.name} {{ main ... }}'")
                return
            if item.name not in where:
                if not self.placed_later_error(layer, rf, item, item.name, "it is extended"):
                    self.step_error(layer, rf, item, f"nothing to extend: no step named '{item.name}'",
                                    self.hint(item.name, where, NEAREST), INCOMPLETE)
                return
            i, j = where[item.name]
            step = flow.stages[i].steps[j]
            if not isinstance(step, A.TurnsStep):
                self.step_error(layer, rf, item, f"step '{item.name}' is a 'do' step: only a 'turns' "
                                "step has actions to add to", "add a step of your own with 'step NAME "
                                f"after {item.name}: turns ...'")
                return
            if item.name not in self.closing:
                self.closing[item.name] = _closing_rule(step.rules)
            stages = [list(st.steps) for st in flow.stages]
            stages[i][j] = attrs.evolve(step, rules=_extended_rules(
                step.rules, item.rules, self.closing[item.name]))
        elif isinstance(item, A.StepEdit) and item.modifier is None and item.place is not None:
            side, anchor = item.place
            if item.name in where and self.replacing is not None:
                return   # (the replacing flow has this step of its own: it placed it)
            if anchor not in where:
                if not self.placed_later_error(layer, rf, item, anchor, f"'{item.name}' is put {side} it"):
                    self.step_error(layer, rf, item, f"no step named '{anchor}' to put '{item.name}' {side}",
                                    self.hint(anchor, where, NEAREST))
                return
            if item.name in where:
                self.redefined(("step", item.name), layer, item,
                               f"write 'override step {item.name}: ...' to replace it", rf)
                return
            self.origin[("step", item.name)] = (layer, item.span)
            i, j = where[anchor]
            if side == "after":
                # several modules after one step: in module order
                i, j = where.get(self.after_tail.get(anchor, anchor), (i, j))
                j += 1
                self.after_tail[anchor] = item.name
            stages = [list(st.steps) for st in flow.stages]
            stages[i].insert(j, item.step)
        elif isinstance(item, A.RemoveDecl) or (isinstance(item, A.StepEdit)
                                                and item.modifier == "override" and item.place is None):
            verb = "remove" if isinstance(item, A.RemoveDecl) else "override"
            if item.name not in where:
                done = "it is removed" if verb == "remove" else "it is overridden"
                if not self.placed_later_error(layer, rf, item, item.name, done):
                    self.step_error(layer, rf, item, f"nothing to {verb}: no step named '{item.name}'",
                                    self.hint(item.name, where, NEAREST), INCOMPLETE)
                return
            # (made again on a replacing flow: checked against the other modules' changes once)
            if self.replacing is None and self.conflicts(("step", item.name), layer, item, rf):
                return
            i, j = where[item.name]
            stages = [list(st.steps) for st in flow.stages]
            if isinstance(item, A.RemoveDecl):
                del stages[i][j]
            else:
                stages[i][j] = item.step
        else:
            self.step_error(layer, rf, item, "a step outside the flow is placed before or after a "
                            "named step, or replaces one", f"write 'step {item.name} after STEP: ...' "
                            f"or 'override step {item.name}: ...'")
            return
        assert stages is not None   # (each change made above)
        self.step_edits.append((layer, rf, item))
        self.items[("flow", "flow")] = attrs.evolve(flow, stages=tuple(
            attrs.evolve(st, steps=tuple(steps)) for st, steps in zip(flow.stages, stages)))


def _named(layer: Layer) -> str:
    """A layer as a message names it: "module 'x'", "game 'x'", 'the house rules'."""
    return "the house rules" if layer.kind == "house" else f"{layer.kind} '{layer.name}'"


def _closing_rule(rules: tuple[A.TurnRule, ...]) -> A.TurnRule | None:
    """The closing rule of a turns step as its definition wrote it: a last ``main`` rule of its
    own after another (the actions that end a player's part, e.g. passing), or None."""
    mains = [r for r in rules if r[0] == "main"]
    return mains[-1] if len(mains) > 1 else None


def _extended_rules(rules: tuple[A.TurnRule, ...], added: tuple[A.TurnRule, ...],
                    closing: A.TurnRule | None) -> tuple[A.TurnRule, ...]:
    """A turns step's rules with a module's ``added``: right before the step's closing rule
    when it has one (so what modules add comes before passing, in module order), else last."""
    for k, r in enumerate(rules):
        if r is closing:
            return rules[:k] + added + rules[k:]
    return rules + added


def merge(layers: Iterable[Layer]) -> tuple[Merged, list[Diagnostic]]:
    """Merge layers in order. Returns the result and every diagnostic found."""
    m = _Merger()
    triggers: list[tuple[A.Trigger, str]] = []
    layers = tuple(layers)
    changes = [(layer, rf, item) for layer in layers for rf in layer.files for item in rf.items]
    for position, (layer, rf, item) in enumerate(changes):
        if isinstance(item, A.StepEdit) and item.modifier is None and item.place is not None:
            m.placed.setdefault(item.name, []).append((position, layer, item.span))
    sources = {rf.path: rf.text for layer in layers for rf in layer.files}
    for m.position, (layer, rf, item) in enumerate(changes):
        if isinstance(item, A.Trigger):
            triggers.append((item, trigger_source(item.event, layer, rf.path)))
        else:
            m.add(layer, rf, cast(Change, item))
    return Merged(items=m.items, triggers=tuple(triggers), sources=sources,
                  declared_options=m.declared_options), m.errors


def trigger_source(event: str, layer: Layer, path: str) -> str:
    """The score source of a top-level ``when EVENT`` (what it gains is scored under it):
    ``when EVENT`` in the game's own files; ``when EVENT (MODULE)`` in a module's, ``when EVENT
    (FILE NAME)`` in a house rule file, so that each scores on a row of its own."""
    if layer.kind == "game":
        return f"when {event}"
    return f"when {event} ({layer.name if layer.kind == 'module' else PurePath(path).name})"


def _keyword(item: Change) -> str:
    if isinstance(item, A.Decl):
        return item.kind
    key = A.decl_key(item)
    assert key is not None  # (every item but a trigger has one)
    return key[0]
