"""Why the flow from a turns step's end is not proven unable to break a rule (lang/flow.py).

Usage: ``python scripts/flow_refusals.py [GAME] [--players N]``. For every unit the flow may
run after a turns step (the engine's events, each ``do`` step's body, a stage's number of
rounds) prints every statement or expression the inertness analysis (lang/inert.py)
refuses, the innermost ones, with their places in the rule files, and what it relies on that
it also writes; for every turns step, whether the walk foresees it and proves the flow from
its end (lang/flow.py ``after_step``). A diagnostic: it wraps the analysis' methods for the run, nothing else.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import boardrules
from boardrules.lang import ast as A
from boardrules.lang.flow import after_step
from boardrules.lang.inert import Facts, Inert

EVENTS = ("step_begins", "step_ends", "turn_begins", "round_begins", "round_ends")


def traced(inert: Inert, refused: list[Any]) -> Inert:
    """Wrap ``inert``'s statement and expression analysis: ``refused`` receives the innermost
    node of each refusal, and a refused statement is then taken as inert (cost 0) so that the
    analysis goes on to the next one: every refusal of a unit is listed, not just its first."""
    for name in ("stmt", "expr"):
        inner = getattr(inert, name)

        def wrap(node: Any, scope: Any, _inner: Any = inner, _stmt: bool = name == "stmt") -> Any:
            mark = len(refused)
            got = _inner(node, scope)
            if got is None:
                if len(refused) == mark:
                    refused.append(node)
                if _stmt:
                    return 0
            return got
        setattr(inert, name, wrap)
    return inert


def unit(inert: Inert, stmts: Any) -> Facts:
    """What a ``do`` step's body relies on and writes (as Inert.anonymous, sound or not)."""
    with inert._unit() as acc, inert._as_me(False):
        inert.stmts(stmts, {})
    return acc.facts()


def describe(node: Any) -> str:
    span = getattr(node, "span", None)
    where = f"{Path(span.file).name}:{span.line}:{span.column}" if span is not None else "?"
    return f"{where}  {type(node).__name__}"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("game", nargs="?", default="gaia-project")
    ap.add_argument("--players", type=int, default=4)
    args = ap.parse_args()
    g = boardrules.new_game(args.game, players=args.players, seed=1)
    rs = g.ruleset
    refused: list[Any] = []

    def fresh() -> Inert:   # (one per unit: cached results would hide where a callee refuses)
        return traced(Inert(rs, rs.guards.inert.caps), refused)

    def report(label: str, found: Any) -> None:
        seen = list(dict.fromkeys(describe(n) for n in refused))
        unsound = ""
        if isinstance(found, Facts):
            clash = found.needs & found.writes | found.sized & found.widens
            unsound = f"  facts: {sorted(clash)} read as present/short and written" if clash else ""
        print(f"{label:40s} {'ok' if not seen and not unsound else 'REFUSED'}{unsound}")
        for where in seen:
            print(f"      {where}")
        refused.clear()

    for ev in EVENTS:
        report(f"event {ev}", fresh().engine_event(ev))
    for si, st in enumerate(rs.stages):
        if st.node is not None and getattr(st.node, "count", None) is not None:
            report(f"stage {si} rounds count", fresh().anonymous_expr(st.node.count))
        for sj, s in enumerate(st.steps):
            label = f"stage {si} step {sj} {s.name if hasattr(s, 'name') else ''}"
            if s.kind == "do":
                node = s.node
                report(label, unit(fresh(), node.body.stmts) if isinstance(node, A.DoStep) else None)
            elif s.kind == "turns":
                why = "lanes" if s.lanes is not None else "order by an expression" \
                    if s.order[:1] == ("by",) else ""
                print(f"{label:40s} turns{' NOT FORESEEN: ' + why if why else ''}")
                for last in ((False, True) if st.kind == "rounds" else (None,)):
                    plan = after_step(rs, si, sj, last)
                    print(f"      flow after it{'' if last is None else ' (last round)' if last else ''}: "
                          + ("may break a rule" if plan is None else
                             f"proven: steps <= {plan[0]}, relies on {plan[1] + plan[2]}, seats {plan[4]}"))


if __name__ == "__main__":
    main()
