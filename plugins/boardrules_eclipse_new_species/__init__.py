"""Rise of the Ancients, the new species: an Eclipse module (``-m new-species``).

The Enlightened of Lyra (shrines), the Rho Indi Syndicate, the Exiles (orbitals as warships)
and the Magellan side of the three new boards (``wardens``, ``keepers``, ``sentinels``). Content
only: ``rules/new-species.rules``; ``rules/start-tiles.rules`` adds the two rare technologies the
boards start with when the module ``rare-technologies`` (which defines them) is off. Sources: the
seed ``000_92782212a183c471`` (new species) and ``shared/rules/eclipse-rota.md`` §1.
"""

from __future__ import annotations

from boardrules.plugins import ModuleSpec, hookimpl, rule_files_dir

NAME = "new-species"
RARE = "rare-technologies"
RULES = rule_files_dir(__file__)


@hookimpl
def boardrules_modules():
    return [ModuleSpec(NAME, "eclipse", (RULES / "new-species.rules",),
                       "Enlightened of Lyra, Rho Indi Syndicate, the Exiles and the Magellan board sides",
                       title="Rise of the Ancients: new species")]


@hookimpl
def boardrules_rule_files(game, modules):
    """The start tiles Cloaking Device and Distortion Shield, unless ``rare-technologies`` brings
    them (a list of rule-file paths; empty for other games or without this module)."""
    if game != "eclipse" or NAME not in modules or RARE in modules:
        return []
    return [RULES / "start-tiles.rules"]
