"""Merging rule files on the AST: the game's files, then modules, then house rules.

A later file may add a definition, ``override`` one (replace it whole), ``extend``
one (add or replace entries inside it) or ``remove`` one. Redefining a name without
``override``, overriding something that does not exist, and two modules changing the
same definition are errors; every node keeps its own file's span, so errors point
into the file that caused them. House rules (the last layer) win over modules.
"""

from __future__ import annotations

from typing import Iterable

import attrs

from . import ast as A
from .diagnostics import Diagnostic, did_you_mean


@attrs.frozen
class Layer:
    """Rule files of one origin: ``kind`` is ``game``, ``module`` or ``house``."""

    name: str
    kind: str
    files: tuple  # tuple[A.RuleFile]


@attrs.frozen
class Merged:
    """The merged items in definition order, and the unnamed top-level triggers."""

    items: dict  # (kind, name) -> item
    triggers: tuple  # top-level A.Trigger, in file order
    sources: dict  # path -> text, for diagnostics


def _entry_key(entry) -> tuple:
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
    return ("trigger", id(entry))  # triggers accumulate


def _extend(base: A.Decl, ext: A.Decl) -> A.Decl:
    entries = {_entry_key(e): e for e in base.entries}
    for e in ext.entries:
        entries[_entry_key(e)] = e
    return attrs.evolve(base, entries=tuple(entries.values()))


def merge(layers: Iterable[Layer]) -> tuple[Merged, list[Diagnostic]]:
    """Merge layers in order. Returns the result and every diagnostic found."""
    items: dict = {}
    origin: dict = {}  # key -> (layer, span) of the last change
    triggers: list = []
    sources: dict = {}
    errors: list[Diagnostic] = []
    for layer in layers:
        for rf in layer.files:
            sources[rf.path] = rf.text
            for item in rf.items:
                if isinstance(item, A.Trigger):
                    triggers.append(item)
                    continue
                key = A.decl_key(item)
                modifier = getattr(item, "modifier", None)
                changes = isinstance(item, A.RemoveDecl) or modifier is not None
                if changes:
                    if key not in items:
                        verb = "remove" if isinstance(item, A.RemoveDecl) else modifier
                        names = [n for (k, n) in items if k == key[0]]
                        errors.append(Diagnostic(
                            item.span, f"nothing to {verb}: no {key[0]} named '{key[1]}'",
                            did_you_mean(key[1], names), rf.text))
                        continue
                    prev_layer, prev_span = origin[key]
                    if (layer.kind == "module" and prev_layer.kind == "module"
                            and prev_layer.name != layer.name):
                        errors.append(Diagnostic(
                            item.span,
                            f"modules '{prev_layer.name}' and '{layer.name}' both change "
                            f"{key[0]} '{key[1]}' (the other change is at {prev_span})",
                            "enable only one of them, or resolve it in a house-rule file",
                            rf.text))
                        continue
                    if isinstance(item, A.RemoveDecl):
                        del items[key]
                    elif modifier == "extend" and isinstance(item, A.Decl):
                        items[key] = _extend(items[key], item)
                    else:
                        items[key] = attrs.evolve(item, modifier=None)
                    origin[key] = (layer, item.span)
                elif key in items:
                    errors.append(Diagnostic(
                        item.span, f"{key[0]} '{key[1]}' is already defined at {origin[key][1]}",
                        f"write 'override {_keyword(item)} {key[1]}' to replace it"
                        if key[0] != "flow" else "write 'override flow' to replace it",
                        rf.text))
                else:
                    items[key] = item
                    origin[key] = (layer, item.span)
    return Merged(items=items, triggers=tuple(triggers), sources=sources), errors


def _keyword(item) -> str:
    if isinstance(item, A.Decl):
        return item.kind
    return A.decl_key(item)[0]
