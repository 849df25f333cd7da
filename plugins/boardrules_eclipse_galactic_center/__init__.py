"""Rise of the Ancients, the Galactic Center takeover: an Eclipse module
(``-m galactic-center-takeover``).

The Ancient dreadnought, on a random side, replaces the Galactic Center Defense System; its
destroyer gains 1 VP and three reputation draws. Content in
``rules/galactic-center-takeover.rules``; one primitive says who fought the last battle of a
hex. Source: the Rise of the Ancients rulebook (seed ``000_92782212a183c471``, New Ancients);
the dreadnought's parts from the data set of ``shared/rules/eclipse-rota.md`` §4.
"""

from __future__ import annotations

from boardrules import primitive
from boardrules.plugins import ModuleSpec, hookimpl, rule_files_dir

NAME = "galactic-center-takeover"


@primitive("battle_attackers", h="hex", returns="list:player")
def battle_attackers(ctx, h):
    """The attacking player of the last battle fought in hex ``h`` this round, as a list of
    one; ``()`` when none was fought there or the NPCs attacked. Allies fighting as one side:
    the first of them (the tile is one) [our choice]."""
    for hex_, att, _dfn in reversed(ctx.get(("v", "battles_fought")) or ()):
        if hex_ == h:
            members = att if isinstance(att, tuple) else (att,) if isinstance(att, int) else ()
            return tuple(members[:1])
    return ()


@hookimpl
def boardrules_modules():
    return [ModuleSpec(NAME, "eclipse", (rule_files_dir(__file__) / f"{NAME}.rules",),
                       "the Ancient dreadnought (random side) replaces the centre's defense system",
                       title="Rise of the Ancients: Galactic Center takeover",
                       primitives=(battle_attackers,))]
