"""Rise of the Ancients, the new species: an Eclipse module (``-m new-species``).

The Enlightened of Lyra (shrines), the Rho Indi Syndicate, the Exiles (orbitals as warships)
and the Magellan side of the three new boards (``wardens``, ``keepers``, ``sentinels``). Content
only: ``rules/new-species.rules``; ``rules/start-tiles.rules`` adds the two rare technologies the
boards start with when the module ``rare-technologies`` (which defines them) is off, and
``rules/magellan-sectors.rules`` the Magellan start sectors when ``nine-players`` is off.
Sources: the seed ``000_92782212a183c471`` (new species) and ``shared/rules/eclipse-rota.md`` §1.
"""

from __future__ import annotations

from boardrules.plugins import ModuleSpec, hookimpl, rule_files_dir

NAME = "new-species"
RARE = "rare-technologies"
NINE = "nine-players"
RULES = rule_files_dir(__file__)


@hookimpl
def boardrules_modules():
    return [ModuleSpec(NAME, "eclipse", (RULES / "new-species.rules",),
                       "Enlightened of Lyra, Rho Indi Syndicate, the Exiles and the Magellan board sides",
                       title="Rise of the Ancients: new species")]


@hookimpl
def boardrules_rule_files(game, modules):
    """What another module may bring instead (a list of rule-file paths; empty for other games or
    without this module): the start tiles Cloaking Device and Distortion Shield unless
    ``rare-technologies`` is on, the Magellan start sectors 233, 235, 237 unless ``nine-players``
    is on."""
    if game != "eclipse" or NAME not in modules:
        return []
    return ([] if RARE in modules else [RULES / "start-tiles.rules"]) \
        + ([] if NINE in modules else [RULES / "magellan-sectors.rules"])
