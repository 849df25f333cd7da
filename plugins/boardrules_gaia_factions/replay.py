"""How the play site writes the factions' own actions and decisions (``rules/gaia-notation.md``
§2), for the replay of site records (:mod:`boardrules_gaia.replay`, whose module docstring says
what each key does) and the export's ``spend`` lines (:mod:`boardrules_gaia.export`): the
module's ``ModuleSpec.extras``. The actions named are those of ``rules/factions.rules``; the
notation is the site's (gaia-notation.md §2.2-§2.3).
"""

from __future__ import annotations

REPLAY_KEY = "gaia-project.replay"   # boardrules_gaia.replay_hooks.REPLAY_KEY

#: Our name of a faction's federation token -> the site's (the Gleens' own token).
FED_NAMES = {"fed_gleens": "gleens"}

# The site's engine lets the Bescods decline the step of their own action; the rules keep it
# illegal: an action without effect (gaia-project.md §12.9, §13).
UP_LOWEST_DECLINED = ("Bescods' up-lowest with its step declined is an action without effect "
                      "(gaia-project.md §12.9): the rules refuse it, the site's engine allows it")


def _itars_tech(cost, gain) -> tuple:
    """Itars PI, Gaia phase: ``spend 4tg for tech`` -> the tokens paid for a tech tile."""
    return (("itars_tech", (cost.amount,)),)


def _gaia_spend(cost, gain) -> tuple:
    """Terrans PI, Gaia phase: ``spend 3tg for 1o`` -> one decision per unit gained."""
    return (("gaia_spend", (f"1{gain.resource}",)),) * gain.amount


REPLAY = {REPLAY_KEY: {
    # free conversions of one faction (paid, gained) -> (conversion, paid per unit, gained per unit):
    # Hadsch Hallas PI credits, Bal T'aks gaiaformers, Nevlas a bowl-III token to the Gaia area
    "conversions": {("c", "q"): ("hh_qic", 4, 1), ("c", "o"): ("hh_ore", 3, 1), ("c", "k"): ("hh_k", 4, 1),
                    ("gf", "q"): ("baltaks_gf", 1, 1), ("t-a3", "k"): ("nevlas_k", 1, 1)},
    # several units paid differently, tried first: Nevlas PI (a bowl-III token is 2 power),
    # Taklons (the brainstone pays 3)
    "grouped": {("pw", "c"): (("nevlas", "nevlas_c", 2, 2), ("taklons", "taklons_c", 3, 3)),
                ("pw", "o"): (("nevlas", "nevlas_o", 6, 2),)},
    # Nevlas PI: 4pw (two bowl-III tokens) -> 1o + 1c (§4)
    "combined": {("pw", 4, (("o", 1), ("c", 1))): ("nevlas", "nevlas_oc")},
    "spends": {("tg", "tech"): _itars_tech, ("tg", "*"): _gaia_spend},
    # the once-per-round actions: special text -> (action, the command giving its argument)
    "specials": {"space-station": ("ivits_station", "build"),
                 "up-lowest": ("bescods_research", "up", {"decline": UP_LOWEST_DECLINED}),
                 "swap-PI": ("ambas_swap", "swap-PI"),
                 "down-lab": ("firaks_downgrade", "build")},
    "builds": {"sp": (("ivits", "ivits_station"),)},
    "placements": {"ivits_pi": "place_pi"},        # the Ivits' PI at setup (§12.4)
    "commands": {"swap-PI": "ambas_swap", "brainstone": "brainstone"},
    "declines": {"tech": "itars_tech"},
    "declined_unless_written": {"itars_tech": "tg", "gaia_spend": "tg"},
    "answered_ahead": {"brainstone": "brainstone"},
    "names": FED_NAMES,
    "stone": "brain",                              # the Taklons' brainstone
}}
