"""The site notation (``rules/gaia-notation.md`` §2) of the factions' own actions and decisions,
for :func:`boardrules_gaia.export.export_game` (the module's ``ModuleSpec.extras``)."""

from __future__ import annotations

from .replay import FED_NAMES

EXPORT_KEY = "gaia-project.export"   # boardrules_gaia.export.EXPORT_KEY (imported lazily: heavy)


def _up(track: str) -> str:
    from boardrules_gaia.export import SITE_TRACK
    return SITE_TRACK[track]

# Terrans PI in the Gaia phase: Gaia-area tokens per unit gained (gaia-project.md, Terrans)
TERRANS_RATE = {"q": 4, "o": 3, "k": 4, "c": 1}


def _gaia_spend(args: tuple) -> str | None:
    if not args:  # declined: the site writes nothing (the replay's default)
        return None
    res = args[0].lstrip("0123456789")
    return f"spend {TERRANS_RATE[res]}tg for 1{res}"


EXPORT = {EXPORT_KEY: {
    "lines": {
        "place_pi": lambda a: f"build PI {a[0]}",
        "bescods_research": lambda a: f"special up-lowest. up {_up(a[0])}",
        "ambas_swap": lambda a: f"special swap-PI. swap-PI {a[0]}",
        "firaks_downgrade": lambda a: f"special down-lab. build ts {a[0]}",
        "ivits_station": lambda a: f"special space-station. build sp {a[0]}",
        "brainstone": lambda a: f"brainstone {a[0]}",
        "itars_tech": lambda a: "spend 4tg for tech" if a else "decline tech",
        "gaia_spend": _gaia_spend,
    },
    "own_lines": ("itars_tech", "gaia_spend"),
    "turn_ends": ("place_pi",),
    "names": FED_NAMES,
}}


# The faction-board variants (modules more-balanced and beta): the site's factionVariant option.
BALANCED_EXPORT = {EXPORT_KEY: {
    "options": lambda rs: {"factionVariant": "more-balanced", "factionVariantVersion": 0}}}
BETA_EXPORT = {EXPORT_KEY: {
    "options": lambda rs: {"factionVariant": "beta", "factionVariantVersion": rs.option("beta_version")}}}
