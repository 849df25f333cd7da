"""Rise of the Ancients, official variant: secret homeworlds (``-m secret-homeworlds``).

Ancient homeworld hexes (the option ``secret_homeworlds``, 2 by default) are shuffled into the
ring-II stack at setup instead of being laid on the empty start positions; an explored one comes
with its discovery tile and an Ancient cruiser. Requires ``ancient-homeworlds`` (its hexes,
cruisers, VP and rules). Content only: ``rules/secret-homeworlds.rules``. Source: the Rise of the
Ancients rulebook (seed ``000_92782212a183c471``, official variants).
"""

from __future__ import annotations

from boardrules.plugins import rules_module

NAME = "secret-homeworlds"


boardrules_modules = rules_module(__file__, NAME, "eclipse",
                                  "Ancient homeworlds shuffled into the ring-II stack, base layout",
                                  title="Rise of the Ancients variant: secret homeworlds",
                                  requires=("ancient-homeworlds",))
