"""Replaying the real Gaia Project records (``shared/gaia-records/*.json``) move by move.

A record (loaded by :mod:`.records`, its lines parsed by :mod:`.notation`) is replayed on a fresh
game of the rules in ``rules/*.rules``:

* **Setup.** The record's map enters through the ``fixed_map`` option (``"sector:rotation"`` per
  standard centre, then ``mirror`` for the site's mirrored reading: :func:`map_option`), so a
  saved boardrules record of the replay carries it too. The dealt tiles are fed as the chance
  outcomes the setup draws (``chance std_tile tech3`` …, :func:`setup_outcomes`), in the order the
  flow draws them. The game runs with ``auto_chance=False``.
* **Lines to actions.** :class:`Replayer` turns each site line into boardrules actions
  (:meth:`Replayer._command`): the main action with its follow-up decisions (``tile``, ``cover``,
  ``step_on``, ``lost_at``, ``fed_token``, ``rescore``; a forced research step the rules applied
  already is skipped), free conversions (``convert NAME``: a ``spend`` of several units is several
  conversions, a faction's grouped conversion first), the ``done`` that closes a
  turn (played when the next action is not a free action of the same player), leech answers
  (``leech N``, ``leech`` to decline, an offer with more than the charge, ``charge 1t,4pw``, the
  rules' option with its items in that order), income order
  (``income [n, "pw"|"t"]`` per ``income`` command, matched to the rules' questions per player),
  the optional research step after a tech tile (``up TRACK`` takes it, ``decline up`` declines it,
  also where no step is possible: gaia-project.md §6), and what the modules in force contribute
  (below: the factions' actions, conversions and Gaia-phase choices).
  Decisions the site never writes take the site engine's default: ``bowls`` = the bowls the raw
  line's ``using area1: a, …`` annotation names, else the first option (bowl I, then II, then III,
  gaia-project.md §13); ``income`` when the site did not ask (the order makes no difference then)
  = the first item; a ``step_on`` with no step possible = declined; a module's decisions as its
  contribution says (``declined_unless_written``, ``answered_ahead``).
  Federations are named by their closure (:meth:`Replayer._federation_code`): some lines list only
  the satellites.
* **Modules' notation.** The base translates the base game's commands only; a module's own
  actions and decisions come from its contribution, ``ModuleSpec(..., extras={REPLAY_KEY: {...}})``
  with ``REPLAY_KEY = "gaia-project.replay"`` (the replay's counterpart of the export's
  ``"gaia-project.export"``, :mod:`.export`), merged over the modules in force in their order
  (:func:`.replay_hooks.replay_notation`). The keys, each optional (resources in the site's codes,
  ``notation.RESOURCES``; factions by their site names; actions by the rules' names):

  - ``factions``: site names of factions the site does not have; lines by them parse
    (:func:`.notation.site_factions`, read from every installed module);
  - ``conversions``: ``(paid, gained)`` -> ``(conversion, paid per unit, gained per unit)``, free
    conversions written ``spend 4c for 1q`` (also what the export writes for them);
  - ``grouped``: ``(paid, gained)`` -> ``((faction, conversion, paid, gained), ...)``, several units
    one faction pays at once, tried before the unit conversion;
  - ``combined``: ``(paid, paid per unit, ((gained, per unit), ...))`` -> ``(faction, conversion)``,
    a conversion the site writes with several gains (``spend 4pw for 1o,1c``);
  - ``spends``: ``(paid, gained)`` or ``(paid, "*")`` -> ``fn(cost, gain)`` giving ``((action, args),
    ...)`` (``cost``, ``gain``: :class:`.notation.Reward`): a decision the site writes as a spend;
  - ``specials``: ``special`` text -> ``(action, keyword)`` or ``(action, keyword, {keyword: reason})``:
    the action takes the argument (hex, track) of the command that follows, which must have
    ``keyword``; a following command of a keyword of the third item is refused with that reason;
  - ``builds``: site building -> ``((faction or None, action), ...)``, actions ``build B H`` may be
    (hex), tried in order before the base's (``build_mine``, ``gaia_project``, ``upgrade``): the
    first the rules accept is played;
  - ``placements``: setup step -> the action a ``build`` is during it (hex);
  - ``commands``: command keyword -> the action it plays with its argument (hex, track, faction,
    destination; a main action when the rules tag it ``main``), or ``fn(command)`` giving
    ``((action, args), ...)`` (arguments needing no map); replaces the base's translation;
  - ``outcomes``: ``fn(record, ruleset)`` giving ``{chance label: [outcomes in order]}``, the
    draws of the module's setup the record fixes;
  - ``declines``: the word of ``decline WORD`` -> the optional decision it declines;
  - ``declined_unless_written``: a decision -> the resource a ``spend`` pays when the line takes it;
    declined by default (the site writes it only when taken);
  - ``answered_ahead``: a decision -> the command keyword answering it further on the line (a
    decision asked inside a multi-unit spend), else its first option;
  - ``names``: our name of a federation token -> the site's (the final state);
  - ``stone``: the per-player variable placing a token the rules count in its bowl and the site
    shows apart (the record's ``brainstone``, the annotation ``brainstone: n``).

  The 14 standard factions' contribution: ``boardrules_gaia_factions/replay.py``.
* **Checks.** Every action is played with ``check=True`` (the engine's legality check); with
  ``strict=True`` the main action of each line, and every move a module's command plays (the
  auction's ``faction`` and ``bid`` lines, answers to decisions), is also asserted to be in
  ``game.legal_actions()``. At the end :func:`compare_final` lists every field of the record's
  ``final`` that differs.
* **Lenient mode** (gaia-project.md §13). The rules refuse actions without effect (§12.9); old
  records may contain them. A record is replayed under the rules first; only when that replay
  stops at such an action is it replayed again with the option ``lenient_no_effect``, and the
  :class:`Outcome` says so (``lenient``, ``notes``; the CLI prints the note). None of the 18
  shared records needs it.

:func:`replay_record` never raises for a divergence: it returns an :class:`Outcome` naming the first
illegal or untranslatable move (index in ``moves``, line text, reason), the first line whose power
log (the raw line's ``(a/b/c/d ⇒ e/f/g/h)``) disagrees with the game, and the final differences.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import attrs

from boardrules.limits import LIMITS
from boardrules.errors import IllegalActionError
from boardrules.game import DONE, Action, Game
from boardrules.quoting import escape
from boardrules.ruleset import build_ruleset
from boardrules.runtime import CHANCE, Context

from . import federation as F
from . import geometry as G
from . import notation as N
from . import primitives as P
from .records import ADV_SLOTS, STD_SLOTS, TRACK_ORDER, Record, load_record
from .replay_hooks import BUILDS, REPLAY_KEY, replay_notation  # noqa: F401  (REPLAY_KEY: docstring)
from .site_options import check_site_options, site_module_options, site_modules

GAME = "gaia-project"

TRACKS = {"terra": "terraforming", "nav": "navigation", "int": "intelligence", "gaia": "gaia",
          "eco": "economy", "sci": "science"}
BUILDINGS = {"m": "mine", "ts": "ts", "lab": "lab", "PI": "pi", "ac1": "ac1", "ac2": "ac2"}
FINAL_TILES = {"gaia": "gaia_planets", "sector": "sectors"}  # site name -> rules name where they differ
# ``special`` reward text -> the tech tile whose action it is (the QIC academy's is ``q`` or
# ``<n>c``, the boosters' ``step`` and ``range+3``; the modules' in their contributions).
TECH_SPECIALS = {"4pw": "tech9", "3k": "advtech13", "3o": "advtech11", "q,5c": "advtech3"}


class ReplayError(Exception):
    """A line that cannot be translated or an action the rules refuse."""


@attrs.frozen
class Divergence:
    """The first move that does not replay: ``index`` (0-based in ``moves``), the line, the
    boardrules action tried (text, may be empty) and why."""

    index: int
    line: str
    action: str
    reason: str

    def __str__(self) -> str:
        return (f"move {self.index} {N.quoted(self.line)}: "
                f"{N.quoted(self.action) + ': ' if self.action else ''}{self.reason}")


@attrs.frozen
class Outcome:
    """Result of :func:`replay_record`: the game reached, lines and actions replayed, the first
    divergence (None when every line replayed) and the final differences."""

    game: Game
    lines: int
    actions: int
    divergence: Divergence | None
    differences: tuple[str, ...]
    seconds: float
    power_log: str | None = None  # first line whose power log disagrees with the game
    lenient: bool = False  # replayed with the option lenient_no_effect (§13), see replay_record
    lenient_reason: str | None = None  # the refusal of the strict replay that made it necessary

    @property
    def notes(self) -> tuple[str, ...]:
        """What the replay allowed beyond the rules (empty for a strict replay)."""
        if not self.lenient:
            return ()
        why = f" (strict replay refused {self.lenient_reason})" if self.lenient_reason else ""
        return (f"replayed in lenient mode (option lenient_no_effect): actions without effect "
                f"allowed (gaia-project.md §12.9, §13){why}",)

    @property
    def ok(self) -> bool:
        return self.divergence is None and not self.differences

    def first_problem(self) -> str | None:
        if self.divergence is not None:
            return str(self.divergence)
        return self.differences[0] if self.differences else None


# ---- setup ------------------------------------------------------------------------------------

def map_option(record: Record) -> str:
    """The ``fixed_map`` option text for the record's map (rotations and mirroring applied):
    the sectors in the centre order of their layout (:func:`.geometry.layout_centres`), whatever
    order the record lists them in. Raises :class:`ReplayError` for a map of another shape."""
    placement = record.placement_after_setup()
    try:
        centres = G.layout_centres(len(placement.sectors))
    except G.GeometryError as err:
        raise ReplayError(f"{escape(record.name)}: {err}") from None
    at = {p.center: p for p in placement.sectors}
    if set(at) != set(centres):
        raise ReplayError(f"{escape(record.name)}: the sectors are not on the centres of a site layout")
    items = [f"{at[c].sector}:{at[c].rotation}" for c in centres]
    if record.mirrored:
        items.append("mirror")
    return ",".join(items)


def check_listed_hexes(record: Record) -> None:
    """Raise :class:`ReplayError` naming the first hex of ``setup.map.hexes`` that is not the
    hex the placement builds there (name, coordinate, sector, planet): the replay plays on the
    placement's map, so a file whose list says otherwise (a planet changed) replayed as if it
    agreed."""
    try:
        built = record.build_map().by_name
    except G.GeometryError as err:
        raise ReplayError(f"{escape(record.name)}: {err}") from None
    for h in record.setup.hexes:
        ours = built.get(h.name)
        if ours != h:
            there = ("no such hex" if ours is None else
                     f"q={ours.q}, r={ours.r}, sector {ours.sector}, planet {ours.planet!r}")
            raise ReplayError(f"{escape(record.name)}: setup.map.hexes lists {escape(h.name)} at q={h.q}, "
                              f"r={h.r}, sector {escape(h.sector)}, planet {escape(h.planet)!r}; the "
                              f"placement's map has {there}")


def setup_outcomes(record: Record) -> dict[str, list]:
    """The chance outcomes of the setup draws, per draw label, in drawing order."""
    t = record.setup.tiles
    return {
        "std_tile": [t.tech[s] for s in STD_SLOTS],
        "adv_tile": [t.adv_tech[s] for s in ADV_SLOTS],
        "terra_fed": [t.terraforming_federation],
        "booster_tile": list(t.boosters),
        "round_tile": list(t.round_scoring),
        "final_tile": [FINAL_TILES.get(x, x) for x in t.final_scoring],
    }


#: The refusal of an action without effect (``effect_check`` in ``rules/resources.rules``).
NO_EFFECT = "an action without effect is illegal"


def new_replay_game(record: Record, lenient: bool = False, max_steps: int | None = None) -> Game:
    """A game of the record's player count on its map, before any chance draw, with the modules
    its options switch on (:func:`.site_options.site_modules`); ``lenient`` sets the option
    ``lenient_no_effect`` (actions without effect allowed, §13); ``max_steps``: the execution
    budget per action (:func:`boardrules.new_game`). Raises :class:`ReplayError` for a map or a
    player count the game cannot start with."""
    options = {"fixed_map": map_option(record)}
    check_listed_hexes(record)
    if lenient:
        options["lenient_no_effect"] = True
    options.update(site_module_options(record.options))
    modules = site_modules(record.options)
    if record.setup.dealt_boards and "random-factions" not in modules:  # our export's deal
        modules = (*modules, "random-factions")
    rs = build_ruleset(GAME, modules=modules, options=options)
    try:
        return Game(rs, record.players, record.seed, auto_chance=False, max_steps=max_steps)
    except ValueError as err:   # (a player count the game is not for)
        raise ReplayError(f"{escape(record.name)}: {err}") from None


# ---- translation ---------------------------------------------------------------------------------

class Replayer:
    """Plays a record's lines on a game; see the module docstring."""

    def __init__(self, record: Record, *, strict: bool = False, check: bool = True, lenient: bool = False,
                 max_steps: int | None = None):
        self.record = record
        self.strict = strict
        self.check = check
        self.game = new_replay_game(record, lenient, max_steps)
        self.notation = replay_notation(self.game.ruleset.modules)
        # the map the game laid out from the record's (``map_option``), built once per layout
        self.gmap = P._map(tuple(self.game.state.values[("v", "map_layout")]))
        self.outcomes = {k: list(v) for k, v in setup_outcomes(record).items()}
        for outcomes in self.notation.outcomes:  # chance draws of the modules' setup
            self.outcomes.update(outcomes(record, self.game.ruleset))
        self.tiles = dict(record.setup.tiles.tech)
        self.tiles.update(record.setup.tiles.adv_tech)
        self.income_plan: dict[int, list] = {}
        self.actions = 0
        self.follow = False  # a main action (or a tile) was played in this line
        self.cmds: list = []  # the commands of the line being played, the index of the current one
        self.cmd_index = 0
        self.consumed: set[int] = set()
        self.using: list[tuple[int, int, int, int]] = []  # bowls (and brainstone) the line names

    # -- helpers --
    def seat(self, line: N.Line) -> int:
        if line.seat is not None:
            return line.seat - 1
        try:
            return self.record.factions.index(line.faction)
        except ValueError:
            raise ReplayError(f"{line.actor} is not in this game") from None

    def hex(self, ref: N.HexRef) -> str:
        try:
            return self.gmap.name(ref.resolve(self.gmap))
        except (G.GeometryError, KeyError, ValueError) as err:
            raise ReplayError(f"no hex {ref} on this map ({err})") from None

    def _step(self):
        g = self.game
        st = g.state.values
        return g.ruleset.stages[st[("f", "stage")]].steps[st[("f", "step")]]

    def settle(self, action: Action, end_turn: bool = True) -> None:
        """Make the decisions and the ``done`` the site does not write, up to ``action``."""
        g = self.game
        for _ in range(1000):
            st = g.state
            if st.pending:
                d = st.pending[0]
                if d.player == CHANCE:
                    queue = self.outcomes.get(d.label)
                    if not queue:
                        raise ReplayError(f"no recorded outcome for the chance draw '{d.label}'")
                    self._play(Action(CHANCE, d.label, (queue.pop(0),)))
                    continue
                if d.player == action.player and d.label == action.name:
                    return
                if d.label == "step_on" and d.optional and not d.options:
                    # no research step possible after a tile: the decline is the only answer
                    # (the site writes it as `decline up`, which answers it when it comes first)
                    self._play(Action(d.player, "step_on", ()))
                    continue
                if d.label == "bowls":
                    self._play(Action(d.player, "bowls", (self._bowls_choice(d),)))
                    continue
                if d.label == "income":
                    self._play(Action(d.player, "income", (self._income_choice(d),)))
                    continue
                keyword = self.notation.answered_ahead.get(d.label)
                if keyword is not None:
                    self._play(Action(d.player, d.label, (self._answer_ahead(d, keyword),)))
                    continue
                paid = self.notation.declined_unless_written.get(d.label)
                if paid is not None and d.optional and not (
                        d.player == action.player and self._spend_ahead(paid)):
                    self._play(Action(d.player, d.label, ()))
                    continue
                who = self.record.factions[d.player] if d.player >= 0 else "chance"
                raise ReplayError(f"the rules wait for {who} to decide '{d.label}' "
                                  f"(options {_short(d.options)})")
            turn = st.values.get(("f", "turn"))
            if end_turn and turn is not None and turn[2] is not None and turn[3]:
                player = turn[2]
                if action.player != player or action.name not in self._step().free:
                    self._play(Action(player, DONE, ()))
                    continue
            return

    def _income_choice(self, d):
        """The next income item the player's ``income`` line names (any when the site did not
        ask: then the order makes no difference)."""
        plan = self.income_plan.get(d.player)
        if plan:
            want = plan.pop(0)
            # "income pw" is "income 1pw" (a reward without a number is one)
            for o in d.options:
                if o[1] == want.resource and o[0] == want.amount:
                    return o
            raise ReplayError(f"income {N.quoted(str(want))} is not among the items left ({_short(d.options)})")
        return d.options[0]

    def _spend_ahead(self, paid: str) -> bool:
        """Whether the rest of the line spends resource ``paid`` (``spend 4tg for …``)."""
        return any(isinstance(c, N.Spend) and c.cost[0].resource == paid
                   for c in self.cmds[self.cmd_index + 1:])

    def _answer_ahead(self, d, keyword: str):
        """A decision (``answered_ahead``) the line does not answer where the rules ask it (a
        ``spend`` of several units is several conversions): the argument of the line's next
        ``keyword`` command if it is a choice here (then consumed), else the first option."""
        for j in range(self.cmd_index + 1, len(self.cmds)):
            c = self.cmds[j]
            if c.keyword == keyword and j not in self.consumed:
                answer = self._argument(c)
                if answer in d.options:
                    self.consumed.add(j)
                    return answer
                break
        return d.options[0]

    def _argument(self, c: N.Command):
        """The rules' argument a command names: its hex, research track, faction or destination."""
        if isinstance(c, (N.ChooseFaction, N.Bid)):
            return c.faction.replace("-", "_")
        if isinstance(c, (N.Build, N.SwapPI, N.LostPlanet)):
            return self.hex(c.hex)
        if isinstance(c, N.Up):
            return TRACKS[c.track]
        if isinstance(c, N.Brainstone):
            return c.dest
        raise ReplayError(f"no argument in {N.quoted(str(c))}")

    def _income(self, p: int) -> None:
        """An ``income`` command of ``p``: the next item of the plan, when the rules ask for it
        (the plan entry may be taken already, when the rules asked p before the line came)."""
        plan = self.income_plan.get(p)
        if not plan:
            return
        self.settle(Action(p, "income", ()), end_turn=False)
        d = self.game.state.pending[0] if self.game.state.pending else None
        if d is not None and d.player == p and d.label == "income":
            self._play(Action(p, "income", (self._income_choice(d),)))
        else:
            plan.pop(0)  # nothing left to order: the rules received the rest already

    def _bowls_choice(self, d):
        """The bowls the site's ``using area1: a, area2: b`` annotation names, else the default."""
        if self.using:
            want = list(self.using.pop(0))
            # `brainstone: 1` is the contribution's stone paid from the bowl it is in (the rules
            # count it as a token of that bowl; cases/gaia random-4p-4032 move 35)
            stone = want.pop()
            place = brainstone(self.game, d.player, self.notation.stone)
            if stone and place in AREAS[:3]:
                want[AREAS.index(place)] += stone
            want = tuple(want)
            for o in d.options:
                if tuple(o) == want:
                    return o
            raise ReplayError(f"the tokens {want} from bowls I/II/III are not a choice here "
                              f"(options {_short(d.options)})")
        return d.options[0]

    def finish_line(self, p: int) -> None:
        """Decisions of ``p`` the site settles inside its line (bowls for satellites/Gaia projects)."""
        while True:
            st = self.game.state
            if st.pending and st.pending[0].player == p and st.pending[0].label == "bowls":
                self._play(Action(p, "bowls", (self._bowls_choice(st.pending[0]),)))
            else:
                return

    def _play(self, action: Action, main: bool = False) -> None:
        g = self.game
        if main and self.strict and action not in g.legal_actions():
            try:
                g._try(action)
            except IllegalActionError as err:
                raise ReplayError(f"{N.quoted(g.canonical(action))} is illegal: {err}") from None
            raise ReplayError(f"{N.quoted(g.canonical(action))} is not among the legal actions")
        try:
            g.play(action, check=self.check)
        except IllegalActionError as err:
            raise ReplayError(str(err)) from None
        self.actions += 1

    def act(self, action: Action, main: bool = False, move: bool = False) -> None:
        """Play ``action`` of a line once what comes before it is settled; ``main``: a main
        action; ``move``: a player's move of the site's notation that the rules take as the
        answer to a decision (a module's command, e.g. the auction's ``faction``/``bid``):
        in a strict replay both are checked against the legal actions."""
        self.settle(action)
        self._play(action, main or move)
        if main or action.name == "tile":
            self.follow = True

    def _settled_quiet(self, action: Action) -> bool:
        """Settle up to ``action``; True when nothing is waiting for a decision of its player."""
        try:
            self.settle(action, end_turn=False)
        except ReplayError:
            return False
        st = self.game.state
        return not (st.pending and st.pending[0].player == action.player)

    # -- lines --
    def line(self, index: int, lines: tuple, raw: str | None = None) -> None:
        line = lines[index]
        self.using = [_using(u) for u in _USING.findall(raw)] if raw and "using" in raw else []
        p = self.seat(line)
        cmds = list(line.commands)
        if cmds and isinstance(cmds[0], N.Income) and (
                index == 0 or not lines[index - 1].commands
                or not isinstance(lines[index - 1].commands[0], N.Income)):
            # the income-order answers of this block of income lines, as the rules ask them
            self.income_plan = {}
            for nxt in lines[index:]:
                if not nxt.commands or not isinstance(nxt.commands[0], N.Income):
                    break
                self.income_plan.setdefault(self.seat(nxt), []).extend(
                    r for c in nxt.commands if isinstance(c, N.Income) for r in c.rewards)
        i = 0
        self.follow = False
        self.cmds = cmds
        self.consumed: set[int] = set()
        while i < len(cmds):
            self.cmd_index = i
            i = i + 1 if i in self.consumed else self._command(p, cmds, i)
        self.finish_line(p)

    def _command(self, p: int, cmds: list, i: int) -> int:
        """Play command ``cmds[i]`` (with the follow-ups it absorbs); return the next index."""
        c = cmds[i]
        nxt = cmds[i + 1] if i + 1 < len(cmds) else None
        A = lambda name, *args: Action(p, name, tuple(args))  # noqa: E731
        if c.keyword in self.notation.commands:  # a module's translation (before the base's)
            how = self.notation.commands[c.keyword]
            if isinstance(how, str):
                self.act(A(how, self._argument(c)), self._is_main(how), move=True)
            else:
                for name, args in how(c):
                    self.act(A(name, *args), self._is_main(name), move=True)
        elif isinstance(c, N.ChooseFaction):
            self.act(A("pick_faction", self._argument(c)), True)
        elif isinstance(c, N.ChooseBooster):
            self.act(A("pick_booster", c.booster), True)
        elif isinstance(c, N.Build):
            self._build(p, c)
        elif isinstance(c, N.Up):
            if self.follow:
                # the research step granted by the command before (a tech tile, a module's action)
                if self._settled_pending(A("step_on", TRACKS[c.track])) != "step_on":
                    raise ReplayError(f"'up {c.track}' but no research step is offered here")
                self._play(A("step_on", TRACKS[c.track]))
            else:
                self.act(A("research", TRACKS[c.track]), True)
        elif isinstance(c, N.Action):
            if c.action in ("power2", "power6"):
                if not isinstance(nxt, N.Build):
                    raise ReplayError(f"action {c.action} without the mine it builds")
                self.act(A("power_mine", c.action, self.hex(nxt.hex)), True)
                return i + 2
            self.act(A("board", c.action), True)
        elif isinstance(c, N.Special):
            return self._special(p, c, cmds, i)
        elif isinstance(c, N.Federation):
            self.act(A("form_federation", self._federation_code(p, c)), True)
            self.act(A("fed_token", c.tile))
        elif isinstance(c, N.Pass):
            self.act(A("pass_round", c.booster) if c.booster else A("pass_last"), True)
        elif isinstance(c, N.Tech):
            self.act(A("tile", self.tiles[c.pos]))
        elif isinstance(c, N.Cover):
            self.act(A("cover", self.tiles[c.pos]))
        elif isinstance(c, N.LostPlanet):
            self.act(A("lost_at", self.hex(c.hex)))
        elif isinstance(c, N.FedTile):
            self.act(A("rescore", c.tile))
        elif isinstance(c, N.Spend):
            self._spend(p, c)
        elif isinstance(c, N.Burn):
            for _ in range(c.amount):
                self.act(A("convert", "burn"))
        elif isinstance(c, N.Charge):
            self._charge(p, c)
        elif isinstance(c, N.Decline):
            if c.what in self.notation.declines:
                self.act(A(self.notation.declines[c.what]))
            elif c.what in (None, "up") and self._settled_pending(A("step_on")) == "step_on":
                # the research step after a tech tile (or a module's action) declined (§6);
                # `decline up` answers only that decision, never a power charge
                self.act(A("step_on"))
            elif c.what == "up":
                raise ReplayError("'decline up' but no research step is offered here")
            else:
                self.act(A("leech"))
        elif isinstance(c, N.Income):
            self._income(p)
        elif isinstance(c, N.EndTurn):
            pass
        else:
            raise ReplayError(f"no translation for {N.quoted(str(c))}")
        return i + 1

    def _is_main(self, name: str) -> bool:
        action = self.game.ruleset.actions.get(name)
        return action is not None and "main" in action.tags

    def _build(self, p: int, c: N.Build) -> None:
        """``build B H``: a placement in a setup step (``placements``), else the first action the
        rules accept of the contributed ones for the player's faction (``builds``) and the base's
        (:data:`.replay_hooks.BUILDS`, else an upgrade)."""
        h = self.hex(c.hex)
        if not self.game.state.pending and self._step().name in self.notation.placements:
            self.act(Action(p, self.notation.placements[self._step().name], (h,)), True)
            return
        faction = self.record.factions[p]
        tries = [Action(p, name, (h,)) for who, name in self.notation.builds.get(c.building, ())
                 if who in (None, faction)]
        if c.building in BUILDS:
            tries.append(Action(p, BUILDS[c.building], (h,)))
        elif c.building in BUILDINGS:
            tries.append(Action(p, "upgrade", (h, BUILDINGS[c.building])))
        if not tries:
            raise ReplayError(f"no translation for {N.quoted(str(c))}")
        for k, action in enumerate(tries):
            try:
                self.act(action, True)
                return
            except ReplayError:
                if k == len(tries) - 1:
                    raise

    def _federation_code(self, p: int, c: N.Federation) -> str:
        """The rules' name of the federation a site line lists: some lines name only the
        satellites or part of the structures (federation.py); the members are their closure."""
        names = sorted(self.hex(h) for h in c.hexes)
        ctx = Context(self.game.ruleset, self.game.state.values, me=p)
        try:
            fed = F.validate(P._position(ctx), [(self.gmap.by_name[h].hex.q, self.gmap.by_name[h].hex.r)
                                                for h in names])
        except (ValueError, KeyError) as err:
            raise ReplayError(f"federation {','.join(names)}: {err}") from None
        return P._encode(ctx, fed)

    def _charge(self, p: int, c: N.Charge) -> None:
        pw = [r.amount for r in c.offer if r.resource == "pw"]
        if len(c.offer) == 1:
            self.act(Action(p, "leech", (pw[0] if pw else 0,)))
            return
        # a charge with something more (a token before, "1t,4pw", or after, "4pw,1t"): the
        # offer whose items come in that order (the rules write the charge as a number)
        other_first = c.offer[0].resource != "pw"
        probe = Action(p, "leech", ())
        self.settle(probe)
        d = self.game.state.pending[0] if self.game.state.pending else None
        if d is None or d.player != p or d.label != "leech":
            raise ReplayError("no power charge offer to answer")
        for o in d.options:
            if isinstance(o, tuple) and isinstance(o[0], str) == other_first:
                self._play(Action(p, "leech", (o,)))
                return
        raise ReplayError(f"'charge {N.format_rewards(c.offer)}' is not an offer here ({_short(d.options)})")

    def _settled_pending(self, action: Action):
        """The label of the decision of ``action``'s player waiting once settled up to it."""
        self._settled_quiet(action)
        return self._pending_label(action.player)

    def _pending_label(self, p: int):
        st = self.game.state
        return st.pending[0].label if st.pending and st.pending[0].player == p else None

    def _special(self, p: int, c: N.Special, cmds: list, i: int) -> int:
        A = lambda name, *args: Action(p, name, tuple(args))  # noqa: E731
        text = N.format_rewards(c.rewards)
        nxt = cmds[i + 1] if i + 1 < len(cmds) else None
        if text in TECH_SPECIALS:
            self.act(A("tech_action", TECH_SPECIALS[text]), True)
        elif text == "q" or re.fullmatch(r"[0-9]+c", text):  # the QIC academy (QIC or credits)
            self.act(A("academy_qic"), True)
        elif text in ("step", "range+3"):
            if not isinstance(nxt, N.Build):
                raise ReplayError(f"special {N.quoted(text)} without the build it is for")
            h = self.hex(nxt.hex)
            self.act(A("booster_gaia_project" if nxt.building == "gf" else "booster_mine", h), True)
            return i + 2
        elif text in self.notation.specials:
            # a module's action, on the command that follows (whose argument it takes)
            name, keyword, *more = self.notation.specials[text]
            refusals = more[0] if more else {}
            if nxt is not None and nxt.keyword in refusals:
                raise ReplayError(refusals[nxt.keyword])
            if nxt is None or nxt.keyword != keyword:
                raise ReplayError(f"special {N.quoted(text)} without the '{keyword}' command it is for")
            self.act(A(name, self._argument(nxt)), True)
            return i + 2
        else:
            raise ReplayError(f"no translation for {N.quoted('special ' + text)}")
        return i + 1

    def _spend(self, p: int, c: N.Spend) -> None:
        if len(c.cost) == 1 and len(c.gain) > 1:
            self._combined(p, c)
            return
        if len(c.cost) != 1 or len(c.gain) != 1:
            raise ReplayError(f"no translation for the combined conversion {N.quoted(str(c))}")
        cost, gain = c.cost[0], c.gain[0]
        spends = self.notation.spends
        decide = spends.get((cost.resource, gain.resource)) or spends.get((cost.resource, "*"))
        if decide is not None:  # a module's decision written as a spend (a Gaia-phase choice)
            for name, args in decide(cost, gain):
                self.act(Action(p, name, tuple(args)))
            return
        conv = self.notation.conversions.get((cost.resource, gain.resource))
        if conv is None:
            raise ReplayError(f"no conversion for {N.quoted(str(c))}")
        name, per_cost, per_gain = conv
        n_cost, n_gain = cost.amount, gain.amount
        faction = self.record.factions[p]
        for who, gname, g_cost, g_gain in self.notation.grouped.get((cost.resource, gain.resource), ()):
            while who == faction and n_cost >= g_cost and n_gain >= g_gain:
                try:
                    self.act(Action(p, "convert", (gname,)))
                except ReplayError:
                    break
                n_cost -= g_cost
                n_gain -= g_gain
        n = n_gain // per_gain
        if n * per_gain != n_gain or n * per_cost != n_cost:
            raise ReplayError(f"{N.quoted(str(c))} is not a whole number of {name} conversions")
        for _ in range(n):
            self.act(Action(p, "convert", (name,)))

    def _combined(self, p: int, c: N.Spend) -> None:
        """A conversion with several gains (``spend 4pw for 1o,1c``): whole units of a
        combined conversion of the player's faction (the contributions' ``combined``)."""
        cost = c.cost[0]
        faction = self.record.factions[p]
        gains = sorted((g.resource, g.amount) for g in c.gain)
        for (res, per_cost, per_gain), (who, name) in self.notation.combined.items():
            n = cost.amount // per_cost
            if (res == cost.resource and who == faction and n > 0 and n * per_cost == cost.amount
                    and gains == sorted((r, a * n) for r, a in per_gain)):
                for _ in range(n):
                    self.act(Action(p, "convert", (name,)))
                return
        raise ReplayError(f"no translation for the combined conversion {N.quoted(str(c))} of {faction}")


# (possessive: Python's re keeps a backtracking entry per repetition of a group, 500 MB for a
# raw line of 200 000 amounts)
_USING = re.compile(r"using ((?:(?:area[123]|gaia|brainstone): [0-9]++(?:, )?+)++)")
_AMOUNT = re.compile(r"(area[123]|gaia|brainstone): ([0-9]+)")


def _using(text: str) -> tuple[int, int, int, int]:
    """Tokens from bowls I, II, III and the brainstone named by a ``using …`` annotation (the
    last amount of each place counts). :class:`ReplayError` for a count too long to be one."""
    amounts = {}
    for m in _AMOUNT.finditer(text):
        if len(m.group(2)) > N.MAX_DIGITS:
            raise ReplayError(f"'using {m.group(1)}: …' gives a count of {len(m.group(2))} digits")
        amounts[m.group(1)] = int(m.group(2))
    return (amounts.get("area1", 0), amounts.get("area2", 0), amounts.get("area3", 0),
            amounts.get("brainstone", 0))


def _short(options) -> str:
    opts = tuple(options) if not isinstance(options, tuple) else options
    text = ", ".join(str(o) for o in opts[:6])
    return text + (", …" if len(opts) > 6 else "")


# (counts of at most 18 digits: a log of longer ones, which int() may refuse, is no log)
_POWER_LOG = re.compile(r"\(([0-9]{1,18})(?:,B)?/([0-9]{1,18})(?:,B)?/([0-9]{1,18})(?:,B)?/([0-9]{1,18})(?:,B)? ⇒ "
                        r"([0-9]{1,18})(?:,B)?/([0-9]{1,18})(?:,B)?/([0-9]{1,18})(?:,B)?/([0-9]{1,18})(?:,B)?\)")


def power_after(raw_line: str) -> tuple[int, ...] | None:
    """The actor's bowls I/II/III/Gaia after a raw site line, from its last power log."""
    logs = _POWER_LOG.findall(raw_line)
    return tuple(int(x) for x in logs[-1][4:]) if logs else None


AREAS = ("area1", "area2", "area3", "gaia")


def bowls(game: Game, p: int, stone: str | None = None) -> tuple[int, ...]:
    """Power tokens in bowls I/II/III and the Gaia area, the token the variable ``stone`` places
    not counted (a contribution's ``stone``: the rules count it as a token of its bowl; the site
    shows it apart as the ``brainstone``)."""
    v = game.state.values
    out = [v.get(("r", k, p), 0) for k in ("bowl1", "bowl2", "bowl3", "gaia_power")]
    where = brainstone(game, p, stone)
    if where in AREAS:
        out[AREAS.index(where)] -= 1
    return tuple(out)


def brainstone(game: Game, p: int, stone: str | None = None) -> str | None:
    """Where the token of the variable ``stone`` is (``area1`` … ``discard``), None without one."""
    where = game.state.values.get(("v", stone, p)) if stone else None
    return None if where in (None, "none") else where


# ---- final state ---------------------------------------------------------------------------------

def final_state(game: Game, record: Record) -> list[dict]:
    """Per player, the fields of the record's ``final`` as the rules hold them."""
    v = game.state.values
    rs = game.ruleset

    def r(name, p):
        return v.get(("r", name, p), 0)

    def var(name, *idx, default=None):
        key = ("v", name, *idx)
        return v[key] if key in v else rs.default_of(key) if hasattr(rs, "default_of") else default

    slot_of = {tile: pos for pos, tile in record.setup.tiles.tech.items()}
    slot_of.update({tile: pos for pos, tile in record.setup.tiles.adv_tech.items()})
    stone = replay_notation(rs.modules).stone
    out = []
    for p in range(game.players):
        built = {k: var("built", p, b) or 0 for k, b in BUILDINGS.items()}
        gf_map = len(var("gf_hexes", p) or ())
        built["gf"] = gf_map
        built["sp"] = len(var("stations", p) or ())
        techs = sorted((t, slot_of.get(t, "?"), not bool(var("covered", p, t)))
                       for t in (*record.setup.tiles.tech.values(), *record.setup.tiles.adv_tech.values())
                       if var("has_tech", p, t))
        feds = []
        for t in rs.by_kind.get("fedtoken", ()):
            feds += [t] * (var("fed_held", p, t) or 0)
        out.append({
            "vp": r("vp", p), "credits": r("credits", p), "ore": r("ore", p),
            "knowledge": r("knowledge", p), "qic": r("qic", p),
            "power": bowls(game, p, stone),
            "brainstone": brainstone(game, p, stone),
            "research": {k: v.get(("t", TRACKS[k], p), 0) for k in TRACK_ORDER},
            "buildings": built,
            "gaiaformers": r("gaiaformers", p) + gf_map + r("gf_resting", p),
            "gaiaformers_in_gaia": r("gf_resting", p),
            "satellites": len(var("satellites", p) or ()),
            "techs": techs,
            "federations": sorted(feds),
            "green_federations": r("green_feds", p),
        })
    return out


def record_final(record: Record, names: dict[str, str] | None = None) -> list[dict]:
    """The record's ``final`` in the shape of :func:`final_state`; ``names``: our name of a
    federation token -> the site's where they differ (the contributions' ``names``)."""
    ours = {site: name for name, site in (names or {}).items()}
    out = []
    for pf in record.final.players:
        b = {k: pf.buildings.get(k, 0) for k in (*BUILDINGS, "gf", "sp")}
        feds = sorted(ours.get(f.tile, f.tile) for f in pf.federations)
        out.append({
            "vp": pf.vp, "credits": pf.credits, "ore": pf.ore, "knowledge": pf.knowledge,
            "qic": pf.qic,
            "power": (pf.power.area1, pf.power.area2, pf.power.area3, pf.power.gaia),
            "brainstone": pf.brainstone,
            "research": {k: pf.research.get(k, 0) for k in TRACK_ORDER},
            "buildings": b,
            "gaiaformers": pf.gaiaformers,
            "gaiaformers_in_gaia": pf.gaiaformers_in_gaia,
            "satellites": pf.satellites,
            "techs": sorted((t.tile, t.pos, t.enabled) for t in pf.techs),
            "federations": feds,
            "green_federations": sum(1 for f in pf.federations if f.green),
        })
    return out


def compare_final(game: Game, record: Record) -> tuple[str, ...]:
    """Every field of the record's final state that the game does not have, as text."""
    diffs = []
    names = replay_notation(game.ruleset.modules).names
    ours, theirs = final_state(game, record), record_final(record, dict(names))
    for p, (a, b) in enumerate(zip(ours, theirs)):
        for k in b:
            if a[k] != b[k]:
                diffs.append(f"{record.factions[p]} {k}: {a[k]} != recorded {b[k]}")
    return tuple(diffs)


# ---- entry points --------------------------------------------------------------------------------

def replay_record(record: Record | str | Path, *, strict: bool = False, check: bool = True,
                  lenient: bool | None = None, max_steps: int | None = None) -> Outcome:
    """Replay a record to its end or to its first divergence; compare with ``final``.

    Raises :class:`.site_options.UnsupportedOption` before the first move when the record's
    options ask for a variant we do not play (:func:`.site_options.check_site_options`).

    ``check``: the engine's legality check on every action (``game.play(check=True)``);
    ``strict``: also assert that the main action of each line (and a module's move, e.g. an
    auction line) is in ``game.legal_actions()``.
    ``lenient``: the option ``lenient_no_effect`` (actions without effect allowed, §12.9/§13).
    ``None`` (the default) replays under the rules and, only when that replay stops at an
    action without effect, replays again in lenient mode; ``Outcome.lenient`` (and
    ``Outcome.notes``, printed by ``boardrules replay``) then says so and why. ``False``: never
    lenient; ``True``: lenient from the start."""
    if not isinstance(record, Record):
        record = load_record(record)
    check_site_options(record.options, len(record.setup.placement.sectors))
    out = _replay(record, strict, check, bool(lenient), max_steps)
    if lenient is None and out.divergence is not None and NO_EFFECT in out.divergence.reason:
        again = _replay(record, strict, check, True, max_steps)
        return attrs.evolve(again, lenient_reason=str(out.divergence))
    return out


def _replay(record: Record, strict: bool, check: bool, lenient: bool, max_steps: int | None) -> Outcome:
    t0 = time.perf_counter()
    rp = Replayer(record, strict=strict, check=check, lenient=lenient, max_steps=max_steps)
    lines = record.lines
    n_lead = record.setup.consumes_leading_moves
    divergence = None
    power_log = None
    done = 0
    for i in range(len(lines)):
        try:
            rp.line(i, lines, record.moves_raw[n_lead + i])
        except ReplayError as err:
            divergence = Divergence(n_lead + i, record.moves_clean[n_lead + i], "", str(err))
            break
        done += 1
        if power_log is None:
            raw = record.moves_raw[n_lead + i]
            want = power_after(raw)
            gaia_phase = all(isinstance(c, N.Spend) and c.cost[0].resource == "tg" for c in lines[i].commands)
            seat = rp.seat(lines[i])
            # (a question of the actor still open, e.g. where a brainstone goes in the income that
            # the line's pass started: the site logs its effects with the answer, on a later line)
            asked = any(d.player == seat for d in rp.game.state.pending)
            if want is not None and not isinstance(lines[i].commands[0], N.Income) and not gaia_phase \
                    and not asked:
                have = bowls(rp.game, seat, rp.notation.stone)
                if have != want:
                    power_log = f"move {n_lead + i} {N.quoted(raw)}: bowls {have} != logged {want}"
    seconds = time.perf_counter() - t0
    diffs = compare_final(rp.game, record)
    return Outcome(rp.game, done, rp.actions, divergence, diffs, seconds, power_log, lenient)


#: The fields every normalized site record has (gaia-records README; ``records._RecordShape``).
SITE_FIELDS = frozenset({"players", "factions", "moves", "moves_clean", "setup", "final"})


def is_site_record(data) -> bool:
    """Whether parsed JSON is meant as one of the normalized site records (gaia-records README):
    an object that is no boardrules record (``format``) and holds four or more of its six fields,
    so that one cut short or missing a field or two is read, and refused naming what is missing
    or of the wrong shape (it was "no installed plugin reads this kind of record")."""
    return isinstance(data, dict) and "format" not in data and len(SITE_FIELDS & data.keys()) >= 4


def boardrules_report(path, data, check: bool = True, max_steps: int | None = None):
    """The :class:`boardrules.replay.ReplayReport` of a site record (``boardrules replay``):
    ``differences`` starts with the first divergence (move, line, reason), then every final field
    that differs. ``check=False`` still refuses actions that break a rule (the engine's fast path)."""
    from boardrules.replay import ReplayReport

    from boardrules.errors import NotationError

    from .records import RecordError

    if not is_site_record(data):
        return None
    try:
        record = load_record(path, data)
    except (RecordError, G.GeometryError) as err:  # a missing field, an unreadable line or map
        said = str(err).removeprefix(f"{escape(Path(path).name)}: ")   # (named once, in full, here)
        raise NotationError(f"{escape(str(path))}: {said}") from None
    try:
        out = replay_record(record, check=check, max_steps=max_steps)
    except ReplayError as err:   # a setup it cannot start from (a line's error is a divergence)
        raise NotationError(f"{escape(str(path))}: {err}") from None
    diffs = ()
    if out.divergence is not None:
        diffs = (f"first divergence: {out.divergence}",)
    diffs += tuple(out.differences)
    return ReplayReport(out.game, out.actions, diffs, out.notes)
