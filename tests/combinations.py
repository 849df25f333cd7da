"""Whole random games with random module sets, for every installed game: the module-combination
property (``tests/test_module_combinations.py``, bounded) and its runner
(``scripts/module_combinations.py``, as many examples as asked).

Every choice comes from ``pick(n) -> 0..n-1`` (hypothesis data in the test, a seeded generator
in the runner): the player count, the module set (each module switched on or off at random;
a default module may be switched off; requirements and conflicts respected), the seed, every
action, and when to try ``undo``. After every action the game's own invariants hold (those of
its property tests; for a game without any, scores equal the sum of their sources and no
resource is negative); ``undo`` restores the state exactly and playing the action again gives
the same state; at the end save -> load (legality checks on) gives the same state, scores and
modules.
"""

from __future__ import annotations

from typing import Callable

import boardrules
from boardrules import PluginError, plugins
from boardrules.errors import BoardrulesError
from boardrules.ruleset import build_ruleset
from tests.core.test_properties import check_invariants as harvest_invariants
from tests.eclipse.test_invariants import check_invariants as eclipse_invariants
from tests.gaia.test_invariants import check_all as gaia_invariants
from tests.rota.test_together import INVARIANTS as MODULE_INVARIANTS   # Eclipse's modules'

Pick = Callable[[int], int]
MAX_ACTIONS = 6000


def _generic(g) -> None:
    resources = g.ruleset.resources
    for key, val in g.state.values.items():
        if key[0] == "r":
            assert val >= resources[key[1]].floor, f"{key} below its floor: {val}"
    for s in g.scores():
        assert s["total"] == sum(s["sources"].values())


def invariants(game: str):
    """The per-action invariant check of ``game``'s own property tests (generic otherwise)."""
    own = {"harvest": harvest_invariants, "gaia-project": gaia_invariants,
           "eclipse": eclipse_invariants}.get(game)
    return _generic if own is None else (lambda g: (own(g), _generic(g)))


def with_module_invariants(check, modules):
    """``check`` and the own invariants of the modules in ``modules`` that have one."""
    extra = [MODULE_INVARIANTS[m] for m in modules if m in MODULE_INVARIANTS]
    return check if not extra else (lambda g: (check(g), *(f(g) for f in extra)))


def draw_modules(game: str, players: int, pick: Pick) -> tuple:
    """A random valid ``modules=`` request: modules in random order, each switched on (or a
    default one off) half of the time when that keeps the set valid for ``players``."""
    available = plugins.modules(game)
    rest = sorted(available)
    request: list = []
    top = plugins.game_spec(game).players[1]
    if players > top:       # a count only a module widening the game's allows: that one is on
        request = [n for n in rest if available[n].players
                   and top < available[n].players[0] <= players <= available[n].players[1]][:1]
        rest = [n for n in rest if n not in request]
    while rest:
        name = rest.pop(pick(len(rest)))
        if not pick(2):
            continue
        token = f"-{name}" if available[name].default else name
        try:
            mods = plugins.resolve_modules(game, request + [token])
            plugins.check_players(game, mods, players)
        except PluginError:
            continue
        request.append(token)
    return tuple(request)


def draw_example(game: str, pick: Pick, *, short: bool) -> dict:
    """Player count, module request, seed and options of one example (``short``: fewer rounds
    where the game has a ``rounds`` option, so that bounded CI runs stay fast)."""
    lo, hi = plugins.game_spec(game).players
    lo = max(lo, 2)
    players = lo + pick(hi - lo + 1)
    wider = max((m.players[1] for m in plugins.modules(game).values() if m.players), default=hi)
    if wider > hi and not pick(4):      # now and then a count a module adds (Eclipse 7-9)
        players = hi + 1 + pick(wider - hi)
    modules = draw_modules(game, players, pick)
    options = {}
    if short and game == "eclipse":
        options["rounds"] = 1 + pick(3)
    return dict(players=players, modules=modules, seed=pick(2**16), options=options)


def refusal(game: str, *, players, modules, options) -> str | None:
    """Why ``game`` must refuse to start with these modules, or None when it must start.

    Any game: a player count outside the ruleset's range (a module widens it, e.g. Eclipse's
    ``nine-players``: without it 7 players are refused, ``ValueError``). Gaia Project: every
    faction comes from a module (the standard 14 from ``factions``, on by default, a third
    party's from its own); without a faction module the ruleset is refused (``PluginError``),
    and factions of fewer colours than players refuse the start."""
    try:
        rs = build_ruleset(game, modules=modules, options=options)
    except PluginError:
        return "needs factions" if game == "gaia-project" else "refused"
    lo, hi = rs.players
    if not lo <= players <= hi:
        return f"is for {plugins.player_counts((lo, hi))} players, not {players}"
    if game != "gaia-project":
        return None
    homes = {rs.entities[f].fields["home"] for f in rs.by_kind.get("faction", ())}
    return "fewer colours" if len(homes) < players else None


def play_example(game: str, pick: Pick, *, players, modules, seed, options, undo_every=5):
    """Play one whole random game with checks; return it (None for a start the game refuses,
    which must be exactly the refusal :func:`refusal` expects, with its clear message)."""
    expected = refusal(game, players=players, modules=modules, options=options)
    try:
        g = boardrules.new_game(game, players=players, seed=seed, modules=modules, options=options)
    except (BoardrulesError, ValueError) as err:
        assert expected is not None and expected in str(err), f"refused: {err}"
        return None
    assert expected is None, f"started although it {expected}"
    check = with_module_invariants(invariants(game), g.ruleset.modules)
    check(g)
    n = 0
    while not g.over:
        assert n < MAX_ACTIONS, f"not over after {n} actions"
        legal = list(g.legal_actions())
        assert legal, f"no legal action after {g.record.actions[-3:]}"
        action = legal[pick(len(legal))]
        before, h, record = g.state, hash(g.state), list(g.record.actions)
        g.play(action)
        n += 1
        check(g)
        if pick(undo_every) == 0:
            after = g.state
            g.undo()
            assert g.state == before and hash(g.state) == h, f"undo of {action} differs"
            assert g.record.actions == record
            g.play(action)
            assert g.state == after, f"{action} played again differs"
    again = boardrules.load_game(g.save(), check=True)
    assert again.state == g.state and hash(again.state) == hash(g.state)
    assert again.scores() == g.scores() and again.ruleset.modules == g.ruleset.modules
    return g
