"""Harvest: a small demonstration game written in the rules language.

It exercises every construct (resources, a track, components, cards with slots and
triggers, choices, chance, turn orders, a finish stage) in under 150 lines, and is
the worked example of docs/language.md. It is a plugin like any other.

Its five modules (all off by default) show the extension points of docs/plugins.md:
flow steps put after a named one, options, the engine's events, a slot extended, a
primitive added (``weather``), wrapped (``drought``) and replaced (``monsoon``),
requirements, a conflict and a player-count limit.
"""

from boardrules import GameSpec, ModuleSpec, hookimpl, primitive
from boardrules.plugins import rule_files_dir

RULES = rule_files_dir(__file__)
MODULES = RULES.parent / "modules"
GAME = "harvest"


@primitive("rainfall", n="int", returns="int")
def rainfall(ctx, n):
    """Grain the rain brings in round ``n`` (1, 2, 0, 1, 2, 0, ...)."""
    return n % 3


@primitive("rainfall", n="int", returns="int", wraps=True)
def drought_rainfall(ctx, inner, n):
    """A drought: one grain less than the weather would bring, never below 0."""
    return max(0, inner(ctx, n) - 1)


@primitive("rainfall", n="int", returns="int", replaces=True)
def monsoon_rainfall(ctx, n):
    """A monsoon: 2 grain every round."""
    return 2


def _module(name, title, description, **kw):
    return ModuleSpec(name, GAME, (MODULES / f"{name}.rules",), description, title=title, **kw)


@hookimpl
def boardrules_games():
    return [GameSpec(GAME, "Harvest (demonstration)", (RULES / "harvest.rules",), (2, 4),
                     "a small game that shows every construct of the rules language")]


@hookimpl
def boardrules_modules():
    return [
        _module("market-day", "Market day", "coins for everyone after income; coins score at the end"),
        _module("guilds", "Guilds", "dues for the rich, sowing pays, study refunds a coin",
                requires=("market-day",)),
        _module("weather", "Weather", "rain brings grain after income",
                primitives=(rainfall,)),
        _module("drought", "Drought", "less rain; farming 3 brings grain",
                requires=("weather",), conflicts=("monsoon",), primitives=(drought_rainfall,)),
        _module("monsoon", "Monsoon", "2 grain of rain a round; farms cost a coin more",
                requires=("weather",), conflicts=("drought",), players=(3, 4),
                primitives=(monsoon_rainfall,)),
    ]
