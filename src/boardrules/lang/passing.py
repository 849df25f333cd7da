"""Whether a turns step that goes on until its players pass can ever end (the checker's test).

A ``turns … until_pass`` (or ``until_all_pass``) step ends once every player of its order has
passed, and only the ``pass`` statement passes a player. When no rule that can run during the
step's turns reaches a ``pass``, the step never ends: :func:`never_passes` says so, and the
checker reports it at the step. What can run during a turn: the step's actions, the procedures
they ``call``, the slots they ``run`` (any entity's slot of that name), every ``when`` rule (the
engine's events fire during turns) and every track reward; the blocks inside them (``if``,
``for``, ``choose``, ``draw``, ``after turn``, ``queue``). An effect primitive may do anything
in Python, so a step that reaches one is not judged (the answer is "it may pass").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from . import ast as A


def never_passes(actions: Iterable[str], bodies: Mapping[str, A.Block],
                 slots: Mapping[str, list[A.Block]], always: Iterable[A.Block],
                 effects: set[str]) -> bool:
    """True when no ``pass`` can run from the step's ``actions`` (names), the ``always``
    blocks (when rules, track rewards) and what they reach: ``bodies`` maps an action's or
    procedure's name to its body, ``slots`` a slot's name to every body it has (entities' and
    kinds' defaults); ``effects``: the names of effect primitives (reaching one: False)."""
    todo: list[A.Block] = [bodies[n] for n in actions if n in bodies] + list(always)
    seen: set[int] = set()
    while todo:
        block = todo.pop()
        if id(block) in seen:
            continue
        seen.add(id(block))
        for s in block.stmts:
            if isinstance(s, A.Pass):
                return False
            if isinstance(s, A.CallStmt):
                if s.fn in effects:
                    return False
                if s.fn in bodies:
                    todo.append(bodies[s.fn])
            elif isinstance(s, A.Run) and isinstance(s.target, A.Field):
                todo.extend(slots.get(s.target.name, ()))
            elif isinstance(s, A.If):
                todo.extend(b for _, b in s.branches)
                if s.orelse is not None:
                    todo.append(s.orelse)
            elif isinstance(s, (A.For, A.Choose, A.Draw, A.AfterTurn, A.Queue)):
                todo.append(s.body)
    return True
