"""Issue 12: ``upgrade_options()`` (the Upgrade choice's options, computed as arithmetic on the
blueprints' totals) is exactly the old definition: every change of ``blueprint_changes()``
filtered through the rule condition below, evaluated by the rules language's interpreter.

Checked at every state of random games (hypothesis) with rare-technologies (parts, ``not_on``),
new-species (designs with printed shields and energy, a ship class that does not move) and
new-discoveries (parts outside the grid, a jump drive) on, rich players preferring Research and
Upgrade so that many parts get unlocked and placed; each game keeps the base invariants and
replays exactly (tests/rota/common.py).
"""

from __future__ import annotations

import attrs
from hypothesis import given
from hypothesis import strategies as st

from boardrules.lang import ast as A
from boardrules.lang import semantics as S
from boardrules.lang.backends import Interpreter
from boardrules.lang.parser import parse_text
from boardrules.runtime import Context
from boardrules_eclipse.primitives import upgrade_options
from tests.rota.common import SETTINGS, play_random, start

# The Upgrade choice as actions.rules wrote it before issue 12 (the oracle).
OLD_CHOICE = """
action old_upgrade_choice procedure {
  choose install in blueprint_changes(placeable) \\
      where stat_after(install, "energy") >= 0 \\
        and change_class(install).mobile == (stat_after(install, "move") + stat_after(install, "jumps") > 0) \\
        and not (change_class(install) in change_part(install).not_on) \\
      "upgrade: class#slot=part" { }
}
"""
MODULES = ("rare-technologies", "new-species", "new-discoveries")


def _old_choose() -> A.Choose:
    found = []

    def walk(node):
        if isinstance(node, A.Choose):
            found.append(node)
        elif isinstance(node, (list, tuple)):
            for x in node:
                walk(x)
        elif attrs.has(type(node)):
            for a in attrs.fields(type(node)):
                walk(getattr(node, a.name))
    walk(parse_text(OLD_CHOICE, "oracle.rules"))
    assert len(found) == 1
    return found[0]


OLD = _old_choose()


def _placeable(g, p: int) -> Context:
    """A context for player ``p`` in ``g``'s state in which the rules' ``placeable_parts`` has
    just run: ``placeable`` holds the parts ``p`` may place now."""
    ctx = Context(g.ruleset, g.state.values, me=p)
    S.call_procedure(ctx, "placeable_parts", ())
    return ctx


def old_options(g, p: int) -> tuple:
    """The old definition for player ``p`` in ``g``'s state."""
    interp = Interpreter(g.ruleset)
    domain, where = interp.expr(OLD.domain), interp.expr(OLD.where)
    ctx = _placeable(g, p)
    kept = []
    for o in domain(ctx):
        ctx.env = {"install": o}
        if where(ctx):
            kept.append(o)
    return tuple(kept)


def new_options(g, p: int) -> tuple:
    ctx = _placeable(g, p)
    return upgrade_options.fn(ctx, ctx.get(("v", "placeable", p)))


def assert_same_options(g) -> None:
    for p in range(g.players):
        assert new_options(g, p) == old_options(g, p), (p, g.record.actions[-3:])


@SETTINGS
@given(st.data())
def test_upgrade_options_are_the_old_definition_in_random_games(data):
    seen = []

    def own(g):
        assert_same_options(g)
        seen.append(sum(len(new_options(g, p)) for p in range(g.players)))

    play_random(data, MODULES, own, money=40,
                prefer=("research", "research_rare", "tile", "upgrade", "react_upgrade", "again",
                        "install", "use"))
    assert max(seen) > 0          # the comparison saw options


def test_the_oracle_tells_a_broken_rule():
    """The comparison fails when a condition is lost: an interceptor whose drive is taken out
    keeps no drive (``interceptor#2=hull``): legal for neither definition; with the drive
    condition dropped from the oracle it would be offered."""
    g = start(2, MODULES)
    assert "interceptor#2=hull" not in new_options(g, 0)
    assert "interceptor#2=hull" not in old_options(g, 0)
    interp = Interpreter(g.ruleset)
    energy_only = interp.expr(OLD.where.items[0])
    ctx = Context(g.ruleset, g.state.values, me=0)
    ctx.env = {"install": "interceptor#2=hull"}
    assert energy_only(ctx)       # only the drive rule refuses it
    assert new_options(g, 0) == old_options(g, 0)
