"""The options of a game of the largest Gaia Project play site, mapped to what we play.

A site record carries the options its game was created with (the site's engine,
boardgamers/gaia-project ``engine/src/engine.ts``, ``EngineOptions``). Before the first move the
replayer asks :func:`check_site_options` whether each one is supported; an option that would
change the rules in a way our rules do not express is refused *up front*, naming the option and
its value (:class:`UnsupportedOption`), instead of replaying into a silently wrong state.

Supported today (the rules are the same as the base game, or the difference is in the record):

* ``layout``: ``"standard"`` and ``"xshape"`` (the map is given in the record and laid out from
  the layout's centres, :func:`.geometry.layout_centres`); ``map``: an explicit sector list;
* ``advancedRules`` (the last player rotates sectors before the faction choice: the ``rotate``
  lines of the setup), ``creator`` and ``noFedCheck`` (user interface only);
* ``factionVariant``: ``"standard"`` (version 0), ``"more-balanced"`` (version 0: the module
  ``more-balanced``) and ``"beta"`` (versions 0-2, the newest 2 when absent: the module ``beta``
  with its option ``beta_version``); an unknown version is refused naming it;
* ``auction`` ``"choose-bid"`` / ``"bid-while-choosing"``: the module ``auction`` with that
  ``auction_form``;
* ``randomFactions``: the module ``random-factions`` (the site deals each player one faction;
  the record's faction is one side of the board our module deals, so the deal is fed from it).

:func:`site_modules` names the modules a record's options switch on.

Refused: ``auction: true`` (a legacy value whose form depends on the engine version), other
faction boards or versions, ``frontiers``, ``lostFleet``, ``customBoardSetup``, ``flexibleFederations``, the ``"balanced"``
layout, and any option name the site's engine does not define.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from boardrules.errors import NotationError
from boardrules.quoting import QUOTE, brief_value, escape

from . import geometry as G

__all__ = ["UnsupportedOption", "check_site_options", "site_modules", "site_module_options", "SITE_OPTIONS",
           "AUCTION_FORMS"]

#: Every option name of the site's engine (``EngineOptions``), supported or not.
SITE_OPTIONS: frozenset[str] = frozenset({
    "advancedRules", "customBoardSetup", "noFedCheck", "map", "flexibleFederations", "frontiers",
    "lostFleet", "auction", "factionVariant", "factionVariantVersion", "layout", "randomFactions",
    "creator",
})  # fmt: skip

# Options whose every true value changes the rules in a way we do not play yet, with why.
_REFUSED_WHEN_SET = {
    "frontiers": "the Frontiers expansion is not supported",
    "lostFleet": "the Lost Fleet expansion is not supported",
    "customBoardSetup": "a custom board setup (the last player lays the whole map) is not supported",
    "flexibleFederations": "flexible federations (not the shortest route) are not supported",
}
#: faction board variant -> the versions we play (the modules ``more-balanced`` and ``beta``).
_FACTION_BOARDS = {"standard": (0,), "more-balanced": (0,), "beta": (0, 1, 2)}
#: The version the site's engine plays when a record gives none: its newest
#: (``latestVariantVersion``, engine/src/faction-boards/index.ts).
NEWEST_VERSION = {"standard": 0, "more-balanced": 0, "beta": 2}
#: faction board variant -> the module that plays it.
BOARD_MODULES = {"more-balanced": "more-balanced", "beta": "beta"}
#: The site's auction forms (``AuctionVariant``), played by the module ``auction``.
AUCTION_FORMS = ("choose-bid", "bid-while-choosing")


class UnsupportedOption(NotationError):
    """A site option (or option value) we cannot play; ``option`` names it, ``value`` holds it."""

    def __init__(self, option: str, value: Any, why: str):
        self.option = option
        self.value = value
        name = escape(option[:QUOTE]) + ("..." if len(option) > QUOTE else "")   # (a hostile record's: any size)
        super().__init__(f"unsupported site option {name}={brief_value(value)}: {why}")


def check_site_options(options: Mapping[str, Any], sectors: int | None = None) -> None:
    """Refuse, before any move, a record whose options we do not play.

    ``options``: the record's ``options`` object; ``sectors``: the number of sector tiles of its
    map (checked against ``layout``). Raises :class:`UnsupportedOption` (a
    :class:`~boardrules.errors.NotationError`) naming the first unsupported option; returns
    None when every option is supported. Source of the option names and values: the site's
    engine, ``engine/src/engine.ts`` and ``engine/src/map.ts``."""
    for name in sorted(options):
        if name not in SITE_OPTIONS:
            raise UnsupportedOption(name, options[name], "not an option of the site's engine")
    for name, why in _REFUSED_WHEN_SET.items():
        if options.get(name):
            raise UnsupportedOption(name, options[name], why)
    auction = options.get("auction")
    if auction and auction not in AUCTION_FORMS:
        why = ("the legacy value true means either form depending on the site's engine version"
               if auction is True else f"the auction's forms are {', '.join(AUCTION_FORMS)}")
        raise UnsupportedOption("auction", auction, why)
    if auction and options.get("randomFactions"):
        raise UnsupportedOption("randomFactions", options["randomFactions"],
                                "random factions with an auction are not supported")
    variant = options.get("factionVariant") or "standard"
    if variant not in _FACTION_BOARDS:
        raise UnsupportedOption("factionVariant", variant,
                                f"only the faction boards {', '.join(_FACTION_BOARDS)} are supported")
    version = options.get("factionVariantVersion")
    if version is not None and version not in _FACTION_BOARDS[variant]:
        raise UnsupportedOption("factionVariantVersion", version,
                                f"unknown version of the {variant!r} faction boards")
    layout = options.get("layout") or "standard"
    if layout not in G.LAYOUTS:
        raise UnsupportedOption("layout", layout, f"the map layouts supported are {', '.join(G.LAYOUTS)}")
    if sectors is not None:
        want = (len(G.CENTRES_XSHAPE),) if layout == "xshape" else (len(G.CENTRES_7), len(G.CENTRES_10))
        if sectors not in want:
            raise UnsupportedOption("layout", layout, f"a map of {sectors} sectors does not fit it")


def site_modules(options: Mapping[str, Any]) -> tuple[str, ...]:
    """The modules of this plugin that a record's (supported) options switch on, sorted."""
    out = []
    if options.get("auction"):
        out.append("auction")
    if options.get("randomFactions"):
        out.append("random-factions")
    if (options.get("layout") or "standard") == "xshape":
        out.append("xshape")
    board = BOARD_MODULES.get(options.get("factionVariant") or "standard")
    if board:
        out.append(board)
    return tuple(sorted(out))


def site_module_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """The options of our modules that a record's (supported) options set: ``auction_form`` for
    the auction, ``beta_version`` for the beta boards (the record's ``factionVariantVersion``, or
    the site engine's newest when it gives none, ``rules/gaia-notation.md`` §2.3)."""
    out: dict[str, Any] = {}
    if options.get("auction"):
        out["auction_form"] = options["auction"]
    variant = options.get("factionVariant") or "standard"
    if variant == "beta":
        version = options.get("factionVariantVersion")
        out["beta_version"] = NEWEST_VERSION[variant] if version is None else version
    return out
