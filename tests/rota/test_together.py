"""The Rise of the Ancients modules built so far, all on at once: random games keep the base
game's invariants and every module's own (the module-combination property of
tests/test_module_combinations.py also draws random subsets of them)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from .common import SETTINGS, play_random
from .test_ancient_homeworlds import homeworlds_invariant
from .test_developments import developments_invariant
from .test_galactic_center import takeover_invariant
from .test_hives import hives_invariant
from .test_new_discoveries import discoveries_invariant
from .test_new_species import new_species_invariant
from .test_rare_techs import rare_invariant
from .test_variants import PreviewWatch, direction_invariant
from .test_simultaneous import simultaneous_invariant
from .test_warp_portals import warp_invariant

# module -> its own invariant (one line each)
INVARIANTS = {
    "warp-portals": warp_invariant,
    "developments": developments_invariant,
    "galactic-center-takeover": takeover_invariant,
    "ancient-homeworlds": homeworlds_invariant,
    "new-discoveries": discoveries_invariant,
    "new-species": new_species_invariant,
    "rare-technologies": rare_invariant,
    "hives": hives_invariant,
    "predictable-technology": PreviewWatch(),
    "game-direction": direction_invariant,
    "simultaneous": simultaneous_invariant,
}
MODULES = tuple(INVARIANTS)


def _all(g) -> None:
    for check in INVARIANTS.values():
        check(g)


@SETTINGS
@given(data=st.data())
def test_random_games_with_every_module(data):
    g = play_random(data, MODULES, _all, prefer=("develop", "move", "shrine", "magellan_flip"),
                    money=data.draw(st.sampled_from([0, 30])))
    assert g.ruleset.modules == tuple(sorted(MODULES))
