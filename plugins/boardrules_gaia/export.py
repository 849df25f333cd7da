"""Export a Gaia Project game to the notation of the largest play site (boardgamers.space).

The inverse of :mod:`.replay`: :func:`export_game` turns a game's actions into the site's move
lines (``rules/gaia-notation.md`` §2) and writes them in the shape of the normalized site records
(``shared/gaia-records``), so that ``boardrules replay FILE`` reads the export back:

* ``players``, ``factions`` (seat order, site names), ``options`` with the explicit map
  (``options.map``: sector, rotation, centre per sector, the site's ``MapPlacement`` JSON); the
  dealt tiles are fixed by the site engine's ``set TYPE POSITION to OPTION`` setup lines (§2.2)
  after ``init`` (whether the site's engine takes them without its ``customBoardSetup`` option,
  which our replay refuses, is not checked yet);
* ``moves`` (with the ``using areaN: k`` annotations that name the bowls paid, §2.5) and
  ``moves_clean`` (without), ``setup`` (map, tiles, leading lines) and ``final`` (the state the
  game reached, in the records' fields) so the replay compares its end with ours.

Action kinds translated (the rest raise :class:`ExportError` naming the action): setup
(``pick_faction``, ``place_mine``, ``pick_booster``), main actions (``build_mine``,
``gaia_project``, ``upgrade``, ``research``, ``board``, ``power_mine``, ``booster_mine``,
``booster_gaia_project``, ``tech_action``, ``academy_qic``, ``form_federation`` + ``fed_token``,
``pass_round``, ``pass_last``), follow-ups (``tile``, ``cover``, ``step_on``, ``lost_at``,
``rescore``, ``bowls``), free conversions (``convert``), reactions (``leech``, ``income``),
``done`` and the setup chance draws; and the actions of the modules in force that contribute
lines (:data:`EXPORT_KEY` in their ``ModuleSpec.extras``: the ``factions`` module gives its
factions' actions and decisions; the ``auction`` and ``random-factions`` modules theirs,
:mod:`.module_export`).

A module's contribution, ``ModuleSpec(..., extras={EXPORT_KEY: {...}})``, has the keys (each
optional; a game with a module in force that gives no contribution is refused, so a module the
notation carries as it is gives ``{}``): ``lines``, action name -> ``fn(args) -> str | None`` (the command; None: nothing is
written, the site's default); ``own_lines``, actions the site writes on lines of their own;
``turn_ends``, actions that end the player's turn part without a ``done``; ``names``, engine
name -> the site's name of a tile in the final state (a federation token); ``picks``, actions
that choose the seat's faction (``args[0]``, written ``faction X``; the seat goes by it
afterwards); ``by_seat``, actions written by seat while the factions are not settled (an
auction: the seats go by their final factions from the first other action on); ``amends``,
action name -> ``fn(last_command, args) -> str`` that rewrites the player's last command on the
line (a bid completes ``faction X`` to ``bid X N``); ``options``, ``fn(ruleset) -> dict`` of
site options the export adds; ``setup``, ``fn(draws) -> dict`` of entries for the file's
``setup`` (``draws``: chance label -> the outcomes in order).
"""

from __future__ import annotations

from collections.abc import Callable

from boardrules import plugins
from boardrules.game import DONE, Game
from boardrules.quoting import brief_text, read_whole
from boardrules.runtime import CHANCE

from .records import ADV_SLOTS, STD_SLOTS
from .replay import BUILDINGS, FINAL_TILES, TECH_SPECIALS, TRACKS, final_state
from .replay_hooks import replay_notation

SITE_TRACK = {v: k for k, v in TRACKS.items()}
SITE_BUILDING = {v: k for k, v in BUILDINGS.items()}
SITE_FINAL = {v: k for k, v in FINAL_TILES.items()}
SPECIAL_OF_TECH = {v: k for k, v in TECH_SPECIALS.items()}


# actions that end the player's turn part without a ``done``: the next line is a new one
TURN_ENDS = ("pick_faction", "place_mine", "pick_booster", "pass_round", "pass_last")
# answers the site writes on lines of their own (income order, Gaia phase: §2.3)
OWN_LINES = ("income",)
# actions that choose the seat's faction (args[0]): the seat goes by that faction afterwards
PICKS = ("pick_faction",)
#: The key of a module's export contribution in ``ModuleSpec.extras`` (module docstring).
EXPORT_KEY = "gaia-project.export"


class _Notation:
    """The lines of the base game and of the modules in force of ``rs``."""

    def __init__(self, rs):
        self.lines = dict(LINES)
        self.own = set(OWN_LINES)
        self.ends = set(TURN_ENDS)
        self.names: dict = {}
        self.picks = set(PICKS)
        self.by_seat: set = set()
        self.amends: dict = {}
        self.options: list = []
        self.setup: list = []
        # the conversions the replay reads, of the base game and the modules in force (.replay)
        self.conversions = replay_notation(rs.modules).conversion_text()
        specs = plugins.modules(rs.game)
        for m in rs.modules:
            extra = specs[m].extras.get(EXPORT_KEY, {}) if m in specs else {}
            self.lines.update(extra.get("lines", {}))
            self.own.update(extra.get("own_lines", ()))
            self.ends.update(extra.get("turn_ends", ()))
            self.names.update(extra.get("names", {}))
            self.picks.update(extra.get("picks", ()))
            self.by_seat.update(extra.get("by_seat", ()))
            self.amends.update(extra.get("amends", {}))
            self.options += [extra["options"]] if "options" in extra else []
            self.setup += [extra["setup"]] if "setup" in extra else []


class ExportError(ValueError):
    """An action the site's notation cannot express (its index and text are in the message)."""


def site_faction(name: str) -> str:
    return name.replace("_", "-")


class _Lines:
    """The move lines being written: one per turn part of one player."""

    def __init__(self, factions: list):
        self.factions = factions
        self.clean: list[str] = []
        self.raw: list[str] = []
        self.actor: int | None = None
        self.cmds: list[str] = []
        self.notes: list[str] = []
        self.kind: str | None = None  # the answers this line holds (OWN_LINES), else None
        self.next_kind: str | None = None  # that of the action being written

    def add(self, p: int, cmd: str, note: str = "") -> None:
        if self.actor != p or (self.cmds and self.next_kind != self.kind):
            self.close(False)
        if not self.cmds:
            self.actor, self.kind = p, self.next_kind
        self.cmds.append(cmd)
        self.notes.append(note)

    def close(self, closed: bool) -> None:
        if self.actor is None:
            return
        who = self.factions[self.actor] or f"p{self.actor + 1}"
        end = "." if closed else ""
        self.clean.append(f"{who} {'. '.join(self.cmds)}{end}")
        self.raw.append(f"{who} {'. '.join(c + n for c, n in zip(self.cmds, self.notes))}{end}")
        self.actor, self.cmds, self.notes = None, [], []


def export_game(game: Game) -> dict:
    """The site-record JSON object of ``game`` (any state; a finished game gives ``ended``).

    Raises :class:`ExportError` for an action of a kind the notation has no line for, and for
    a game played with house rules or rule texts of its own, or with a module that gives no
    export contribution (:data:`EXPORT_KEY`; ``{}`` says it needs none), which the site's
    records cannot carry (its engine would play the moves by the printed rules)."""
    rs = game.ruleset
    changed = [path for path, _ in (*rs.recipe.rules, *rs.recipe.texts)]
    if changed:
        raise ExportError(f"the game was played with house rules ({', '.join(map(brief_text, changed))}): "
                          f"the site's records cannot carry them, and its engine would play the moves by "
                          f"the printed rules")
    specs = plugins.modules(rs.game)
    mute = [m for m in rs.modules if EXPORT_KEY not in specs[m].extras]
    if mute:   # (a module that only reacts to events changes the game without an action of its own)
        raise ExportError(f"the game was played with the module{'s' * (len(mute) > 1)} "
                          f"{', '.join(map(repr, mute))}, which the site's notation has no export for "
                          f"(ModuleSpec.extras[{EXPORT_KEY!r}]): its engine would play the moves without")
    n = game.players
    draws: dict[str, list] = {}
    factions: list = [None] * n
    booster: list = [None] * n
    out = _Lines(factions)
    fed_at: dict[int, int] = {}  # the federation command waiting for its token, per player
    notation = _Notation(rs)
    acts = [game.parse(t) for t in game.record.actions]
    i = 0
    while i < len(acts):
        a = acts[i]
        p, name, args = a.player, a.name, a.args
        i += 1
        if p == CHANCE:
            draws.setdefault(name, []).append(args[0])
            continue
        if notation.by_seat and name not in notation.by_seat and None in factions:
            # the lines before were written by seat (an auction); the seats go by their factions now
            out.close(False)
            for q in range(n):
                f = game.get("myfaction", q)
                factions[q] = factions[q] or (site_faction(f) if f else None)
        out.next_kind = name if name in notation.own else None
        if name == DONE:
            if out.actor == p:
                out.close(True)
            continue
        if name in notation.amends:  # completes the player's last command (an auction's bid)
            if out.actor != p or not out.cmds:
                raise ExportError(f"action {i - 1} '{game.record.actions[i - 1]}': "
                                  f"nothing to complete on the line")
            out.cmds[-1] = notation.amends[name](out.cmds[-1], args)
        elif name in notation.lines:
            cmd = notation.lines[name](args)
            if cmd is not None:
                out.add(p, cmd)
        elif name in notation.picks:  # written by the seat, which then goes by the faction
            out.add(p, f"faction {site_faction(args[0])}")
            factions[p] = site_faction(args[0])
        elif name == "pick_booster":
            out.add(p, f"booster {args[0]}")
        elif name in ("booster_mine", "booster_gaia_project"):  # the booster says which
            steps = rs.entities[booster[p]].fields.get("act_steps", 0) if booster[p] else 0
            what = "step" if name == "booster_mine" and steps > 0 else "range+3"
            out.add(p, f"special {what}. build {'m' if name == 'booster_mine' else 'gf'} {args[0]}")
        elif name == "academy_qic":  # the board's QIC academy: credits or QIC
            credits = rs.entities[game.get("myfaction", p)].fields.get("ac2_c", 0)
            out.add(p, f"special {credits}c" if credits else "special q")
        elif name == "form_federation":  # the token (fed_token) follows, maybe after the bowls
            out.add(p, f"federation {args[0]}")
            fed_at[p] = len(out.cmds) - 1
        elif name == "fed_token":
            if fed_at.get(p) is None or out.actor != p:
                raise ExportError(f"action {i - 1} '{game.record.actions[i - 1]}': "
                                  f"a token without its federation")
            out.cmds[fed_at.pop(p)] += f" {args[0]}"
        elif name in ("tile", "cover"):
            out.add(p, f"{'tech' if name == 'tile' else 'cover'} {_slot(draws, args[0])}")
        elif name == "bowls":  # the site's default is bowl I first: say which were paid
            parts = [f"area{k + 1}: {v}" for k, v in enumerate(_items(args[0])[:3]) if v]
            if out.actor == p and out.cmds and parts:
                out.notes[-1] += " using " + ", ".join(parts)
        elif name == "convert":  # equal conversions in a row: one spend
            count = 1
            while i < len(acts) and acts[i].player == p and acts[i].name == "convert" \
                    and acts[i].args == args:
                count += 1
                i += 1
            out.add(p, _convert(args[0], count, notation.conversions))
        else:
            raise ExportError(f"action {i - 1} '{game.record.actions[i - 1]}': "
                              f"the site's notation has no line for '{name}'")
        if name in ("pick_booster", "pass_round"):
            booster[p] = args[0]
        if name in notation.ends or name == "leech":
            out.close(False)
    out.close(False)
    doc = _document(game, draws, factions, out, notation.names)
    for fn in notation.options:
        doc["options"].update(fn(rs))
    for fn in notation.setup:
        doc["setup"].update(fn(draws))
    return doc


def _slot(draws: dict, tile: str) -> str:
    for label, slots in (("std_tile", STD_SLOTS), ("adv_tile", ADV_SLOTS)):
        if tile in draws.get(label, ()):
            return slots[draws[label].index(tile)]
    raise ExportError(f"tech tile {tile} was not dealt")


def _convert(name: str, count: int, conversions: dict) -> str:
    """``count`` conversions ``name`` as one ``spend`` (``conversions``: name -> (paid, paid per
    unit, ((gained, gained per unit), ...)), :meth:`.replay_hooks.ReplayNotation.conversion_text`)."""
    if name == "burn":
        return f"burn {count}"
    if name not in conversions:
        raise ExportError(f"the site's notation has no spend for the conversion '{name}'")
    cost, per_cost, gains = conversions[name]
    return f"spend {count * per_cost}{cost} for " + ",".join(f"{count * g}{r}" for r, g in gains)


def _leech(args: tuple) -> str:
    if not args:
        return "decline"
    offer = _items(args[0])
    if len(offer) > 1:  # Taklons PI: ("1t", 4) token first, (4, "1t") after
        return "charge " + ",".join(f"{x}pw" if isinstance(x, int) else x for x in offer)
    return f"charge {offer[0]}pw"


def _items(value) -> tuple:
    """A tuple argument as a tuple (canonical action text writes ``(2, "pw")`` as ``2,pw``)."""
    if isinstance(value, tuple):
        return value
    return tuple(x if (n := read_whole(x)) is None else n for x in str(value).split(","))


#: Actions whose line depends on their arguments only (the rest: :func:`export_game`).
LINES: dict[str, Callable[[tuple], str | None]] = {
    "place_mine": lambda a: f"build m {a[0]}",
    "build_mine": lambda a: f"build m {a[0]}",
    "gaia_project": lambda a: f"build gf {a[0]}",
    "upgrade": lambda a: f"build {SITE_BUILDING[a[1]]} {a[0]}",
    "research": lambda a: f"up {SITE_TRACK[a[0]]}",
    "step_on": lambda a: f"up {SITE_TRACK[a[0]]}" if a else "decline up",
    "board": lambda a: f"action {a[0]}",
    "power_mine": lambda a: f"action {a[0]}. build m {a[1]}",
    "tech_action": lambda a: f"special {SPECIAL_OF_TECH[a[0]]}",
    "pass_round": lambda a: f"pass {a[0]}",
    "pass_last": lambda a: "pass",
    "lost_at": lambda a: f"lostPlanet {a[0]}",
    "rescore": lambda a: f"fedtile {a[0]}",
    "leech": lambda a: _leech(a),
    "income": lambda a: "income {}{}".format(*_items(a[0])),
}



def _document(game: Game, draws: dict, factions: list, out: _Lines, names: dict) -> dict:
    from .primitives import _map

    v = game.state.values
    gmap = _map(v[("v", "map_layout")])
    placement = gmap.placement
    tiles = {
        "boosters": list(draws.get("booster_tile", ())),
        "techTiles": dict(zip(STD_SLOTS, draws.get("std_tile", ()))),
        "advTechTiles": dict(zip(ADV_SLOTS, draws.get("adv_tile", ()))),
        "terraformingFederation": (draws.get("terra_fed") or [""])[0],
        "roundScoring": list(draws.get("round_tile", ())),
        "finalScoring": [SITE_FINAL.get(x, x) for x in draws.get("final_tile", ())],
    }
    lead = [f"init {game.players} {game.seed}"]
    for kind, key in (("techTile", "techTiles"), ("advTechTile", "advTechTiles")):
        lead += [f"p1 set {kind} {pos} to {t}" for pos, t in tiles[key].items()]
    lead += [f"p1 set booster {k} to {b}" for k, b in enumerate(tiles["boosters"])]
    lead += [f"p1 set roundScoringTile {k + 1} to {t}" for k, t in enumerate(tiles["roundScoring"])]
    lead += [f"p1 set finalScoringTile {k} to {t}" for k, t in enumerate(tiles["finalScoring"])]
    if tiles["terraformingFederation"]:
        lead.append(f"p1 set terraformingFederation 0 to {tiles['terraformingFederation']}")
    fake = _FinalView(tiles)
    final_players = []
    for p, f in enumerate(final_state(game, fake)):
        feds = f["federations"]
        final_players.append({
            "player": p, "faction": factions[p], "victoryPoints": f["vp"], "credits": f["credits"],
            "ores": f["ore"], "knowledge": f["knowledge"], "qics": f["qic"],
            "power": dict(zip(("area1", "area2", "area3", "gaia"), f["power"])),
            "brainstone": f["brainstone"], "research": f["research"], "buildings": f["buildings"],
            "gaiaformers": f["gaiaformers"], "gaiaformersInGaia": f["gaiaformers_in_gaia"],
            "satellites": f["satellites"],
            "techs": [{"tile": t, "pos": pos, "enabled": en} for t, pos, en in f["techs"]],
            "federations": [{"tile": names.get(t, t),
                             "green": k < f["green_federations"]} for k, t in enumerate(feds)],
        })
    return {
        "source": "boardrules export",
        "players": game.players,
        "factions": factions,
        "options": {"map": placement.to_json()},
        "moves": lead + out.raw,
        "moves_clean": lead + out.clean,
        "setup": {
            "map": {"placement": placement.to_json(),
                    "hexes": [{"name": h.name, "q": h.q, "r": h.r, "sector": h.sector,
                               "planet": h.planet} for h in gmap.hexes]},
            "tiles": tiles,
            "consumesLeadingMoves": len(lead),
        },
        "final": {"ended": game.over, "phase": "end" if game.over else "playing",
                  "round": v.get(("v", "round"), 0) or 0, "players": final_players},
    }


class _FinalView:
    """What :func:`.replay.final_state` reads of a record: the dealt tech tiles."""

    def __init__(self, tiles: dict):
        from types import SimpleNamespace
        t = SimpleNamespace(tech=tiles["techTiles"], adv_tech=tiles["advTechTiles"])
        self.setup = SimpleNamespace(tiles=t)


__all__ = ["EXPORT_KEY", "ExportError", "export_game", "site_faction"]
