"""Gaia Project as a boardrules game plugin.

The rules are in ``rules/*.rules`` (see ``rules/README.md`` for what is covered); the
algorithms they call (map, distances, federations) are in :mod:`.primitives`, imported only
when a ruleset is built so that importing the plugin stays light.
"""

from __future__ import annotations

from boardrules.errors import BoardrulesError, PluginError
from boardrules.plugins import GameSpec, ModuleSpec, hookimpl, rule_files_dir

GAME = "gaia-project"
MODULES = rule_files_dir(__file__).parent / "modules"
RULE_FILES = ("resources.rules", "research.rules", "buildings.rules", "tiles.rules",
              "factions.rules", "flow.rules")


@hookimpl
def boardrules_games():
    rules = rule_files_dir(__file__)
    return [GameSpec(GAME, "Gaia Project", rule_files=tuple(rules / f for f in RULE_FILES),
                     players=(1, 4), description="Gaia Project base game, 1-4 players")]


def _auction_evaluation(game, player: int, base) -> float:
    """The bots' evaluation with the auction on: ``base`` less the player's standing bid, which
    the rules take from its score at the end of the game (modules/auction.rules). Without it
    the greedy bots outbid each other on one faction for ever (2 players, seed 3)."""
    value = base(game, player)
    return value if game.over else value - game.get("bid", player)


@hookimpl
def boardrules_modules():
    """The site's variants as modules (docs/gaia-project.md, "Variants")."""
    from .module_export import AUCTION, RANDOM_FACTIONS, XSHAPE
    from .primitives import xshape_deal_map

    def module(name, title, description, **kw):
        return ModuleSpec(name, GAME, (MODULES / f"{name}.rules",), description, title=title, **kw)

    return [
        module("auction", "Auction", "factions are auctioned for victory points (both of the site's forms)",
               conflicts=("random-factions",), extras=AUCTION, evaluation=_auction_evaluation),
        module("random-factions", "Random factions",
               "each player is dealt a faction board at random and chooses a side (seed 002)",
               conflicts=("auction",), extras=RANDOM_FACTIONS),
        module("xshape", "X-shape map", "the site's x-shape layout: sectors 1-8 for any player count",
               primitives=(xshape_deal_map,), extras=XSHAPE),
    ]


@hookimpl
def boardrules_primitives(game):
    if game != GAME:
        return []
    from .primitives import PRIMITIVES
    return list(PRIMITIVES)


@hookimpl
def boardrules_ruleset_built(ruleset):
    """The option ``factions`` names factions of this ruleset (issue 7); some module (by default
    ``factions``) must offer factions at all."""
    if ruleset.game != GAME:
        return
    _check_round_tiles(ruleset)
    known = ruleset.by_kind.get("faction", ())
    if not known:
        raise PluginError("gaia-project needs factions: switch on the module 'factions' "
                              "(on by default) or another module that adds some")
    if "factions" not in ruleset.options:
        return
    unknown = [n for n in ruleset.option("factions") if n not in known]
    if unknown:
        raise BoardrulesError(f"option 'factions': no faction {', '.join(map(repr, unknown))}; "
                              f"the factions are {', '.join(sorted(known))}")


def _check_round_tiles(ruleset) -> None:
    """A round tile scores the events the procedure ``did`` reports (``what``: "terraform",
    "research", …) by its field ``event`` (tiles.rules, ``kind roundtile``): one whose event is
    none of them, and that has no ``score`` slot of its own, would score nothing, silently (a house
    rule's ``event "reserch"``). Raises :class:`RulesError` naming each such tile where it is
    declared, with the events (or the one meant)."""
    from boardrules.errors import RulesError
    from boardrules.lang import ast as A
    from boardrules.lang.diagnostics import Diagnostic, did_you_mean
    from boardrules.lang.parser import read_rule_file

    did = ruleset.actions.get("did")
    domain = did.params[0].domain if did is not None and did.params else None
    kind = ruleset.kinds.get("roundtile")
    if not isinstance(domain, A.ListLit) or kind is None or "event" not in kind.fields:
        return   # (rules changed beyond this check's reading: nothing to hold them to)
    events = [item.value for item in domain.items if isinstance(item, A.Str)]
    texts = dict(ruleset.recipe.rules + ruleset.recipe.texts)
    diagnostics = []
    for name in ruleset.by_kind["roundtile"]:
        tile = ruleset.entities[name]
        event = tile.fields.get("event")
        if event in events or "score" in tile.slots:
            continue
        try:
            source = texts.get(tile.span.file) or read_rule_file(tile.span.file)
        except (OSError, UnicodeDecodeError, BoardrulesError):
            source = ""
        diagnostics.append(Diagnostic(
            tile.span, f"round tile '{name}' scores the event {event!r}, which no action reports" if event
            else f"round tile '{name}' has no event to score (its field 'event') and no 'score' of its own",
            did_you_mean(str(event), events) or f"the events: {', '.join(map(repr, events))}", source=source))
    if diagnostics:
        raise RulesError(diagnostics)


@hookimpl
def boardrules_replay(path, data, check, max_steps):
    """Replay a record of the largest Gaia Project play site (``shared/gaia-records``)."""
    from .replay import boardrules_report
    return boardrules_report(path, data, check, max_steps)


@hookimpl
def boardrules_cli(app):
    """``boardrules export RECORD -o FILE``: a game in the play site's notation (:mod:`.export`)."""
    from .export_cli import export
    app.command("export")(export)


@hookimpl
def boardrules_renderers(game):
    if game != GAME:
        return {}
    from .render import render_map
    return {"map": render_map}


@hookimpl
def boardrules_evaluation(game):
    """The bots' evaluation of a Gaia Project position (:mod:`.bot`)."""
    if game != GAME:
        return None
    from .bot import evaluate
    return evaluate
