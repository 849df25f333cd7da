"""Rise of the Ancients, the official variants (seed ``000_92782212a183c471``, "official
variants"; eclipse-rota-rules.md §12): ``predictable-technology``, ``game-direction``,
``small-galaxy`` (and ``secret-homeworlds`` when its requirement is installed)."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

import boardrules
from boardrules.errors import PluginError
from tests.eclipse.test_invariants import _field, _kind

from .common import SETTINGS, play_random
from .test_ancient_homeworlds import homeworlds_invariant


def _start(modules, n=3, seed=5, rounds=9):
    g = boardrules.new_game("eclipse", players=n, seed=seed, modules=modules,
                            options={"rounds": rounds, "auto_combat": True})
    for p in range(n, 0, -1):
        g.play(f"p{p} pick_species terrans")
    return g


def _play_round(g, direction=None):
    """Everybody passes at once; the direction card's holder answers ``direction``."""
    r = g.get("round")
    while g.get("round") == r and not g.over:
        legal = list(g.legal_actions())
        pending = g.state.pending[0] if g.state.pending else None
        if pending is not None and pending.label == "direction" and direction is not None:
            g.play(f"p{pending.player + 1} direction {direction}")
            continue
        g.play(next((a for a in legal if a.name == "pass_turn"), legal[0]))


# ---- predictable-technology ------------------------------------------------------------------

class PreviewWatch:
    """The module's invariant: the preview never holds more than a Cleanup's count, and a Cleanup
    adds exactly the previous preview to the supply (the base invariants count every tile, the
    preview's with them)."""

    def __init__(self):
        self.last = None
        self.game = None

    def __call__(self, g) -> None:
        if g is not self.game:          # one watch serves game after game (the all-modules table)
            self.game, self.last = g, None
        if g.state.values.get(("f", "stage"), 0) < 1:
            return
        assert len(g.get("tech_next")) <= g.get("techs_per_round")[g.players]
        now = (g.get("round"), Counter(g.get("tech_market")), Counter(g.get("tech_next")))
        # The action that runs a Cleanup changes the preview; the round may only advance later
        # (a decision of another module, e.g. game-direction's card, comes between).
        if self.last is not None and now[2] != self.last[2]:
            assert now[1] == self.last[1] + self.last[2], "the Cleanup did not add the preview"
        self.last = now


@given(st.data())
@SETTINGS
def test_random_games_with_predictable_technology(data):
    play_random(data, ("predictable-technology",), PreviewWatch())


def test_the_preview_is_drawn_at_setup_and_joins_the_supply_in_the_cleanup():
    g = _start(["predictable-technology"], n=4)
    preview, market = g.get("tech_next"), g.get("tech_market")
    assert len(market) == 16 and len(preview) == 7          # base 4 players: 16 at start, 7 a round
    assert all(g.view(p)["values"][("v", "tech_next")] == preview for p in range(4))   # public
    assert g.view(0)["values"][("v", "tech_bag")][0] == "hidden"
    _play_round(g)
    assert Counter(g.get("tech_market")) == Counter(market) + Counter(preview)
    assert len(g.get("tech_next")) == 7 and g.get("tech_next") != preview


def test_no_preview_for_the_last_rounds_cleanup():
    g = _start(["predictable-technology"], rounds=2)
    assert len(g.get("tech_next")) == 6
    _play_round(g)
    assert g.get("tech_next") == ()                          # round 2's Cleanup adds nothing
    g1 = _start(["predictable-technology"], rounds=1)
    assert g1.get("tech_next") == ()


# ---- game-direction ----------------------------------------------------------------------------

def direction_invariant(g) -> None:
    """The turn order is the first passer, then the others clockwise or counter-clockwise as the
    direction card shows; the card's holder is the second player to pass."""
    if g.state.values.get(("f", "stage"), 0) < 1:
        return
    if g.state.pending and g.state.pending[0].label == "direction":
        return
    order = list(g.get("turn_order"))
    n = g.players
    clockwise = [(order[0] + i) % n for i in range(1, n)]
    expected = clockwise if g.get("turn_direction") == "clockwise" else clockwise[::-1]
    assert order[1:] == expected, (order, g.get("turn_direction"))
    passers = g.get("passers")
    assert g.get("direction_holder") == (passers[1] if len(passers) > 1 else None)


@given(st.data())
@SETTINGS
def test_random_games_with_game_direction(data):
    n = data.draw(st.integers(3, 6), label="players")
    g = play_random(data, ("game-direction",), direction_invariant, players=n, prefer=("direction",),
                    rounds=3)
    assert any(" direction " in a for a in g.record.actions)      # the card was used


def test_the_second_passer_chooses_counter_clockwise_order():
    g = _start(["game-direction"], n=5)
    # p1 passes first (starts the next round), p2 second (takes the card)
    _play_round(g, direction="counterclockwise")
    assert g.get("turn_direction") == "counterclockwise"
    assert g.get("turn_order") == (0, 4, 3, 2, 1)
    _play_round(g, direction="clockwise")
    assert g.get("turn_order") == (0, 1, 2, 3, 4)


def test_only_the_card_holder_chooses_the_direction():
    g = _start(["game-direction"], n=4)
    r = g.get("round")
    while not (g.state.pending and g.state.pending[0].label == "direction"):
        legal = list(g.legal_actions())
        g.play(next((a for a in legal if a.name == "pass_turn"), legal[0]))
        assert g.get("round") == r
    holder = g.state.pending[0].player
    passes = [a.split()[0] for a in g.record.actions if " pass_turn" in a]
    assert f"p{holder + 1}" == list(dict.fromkeys(passes))[1]          # the second to pass
    before = g.state
    other = (holder + 1) % 4
    with pytest.raises(boardrules.IllegalActionError):
        g.play(f"p{other + 1} direction counterclockwise")
    assert g.state == before
    with pytest.raises(boardrules.IllegalActionError):
        g.play(f"p{holder + 1} direction sideways")
    assert g.state == before


# ---- small-galaxy ------------------------------------------------------------------------------

def _outer_sectors(g) -> int:
    homes = set()
    for s in _kind(g, "species"):
        homes |= set(_field(g, s, "homes"))
    return sum(1 for h in g.get("hexes") if _field(g, g.get("sector_at", index=h), "ring") == 3
               and g.get("sector_at", index=h) not in homes)


def small_invariant(g) -> None:
    """Never more than 7 ring-III hexes explored, counting those still to come."""
    if g.state.values.get(("f", "stage"), 0) < 1:
        return
    assert _outer_sectors(g) + g.get("outer_left") <= 7


@given(st.data())
@SETTINGS
def test_random_small_galaxy_games(data):
    play_random(data, ("small-galaxy",), small_invariant, players=3)


def test_small_galaxy_has_seven_ring_iii_hexes_and_only_three_players():
    assert _start(["small-galaxy"]).get("outer_left") == 7
    assert _start([]).get("outer_left") == 10                  # the base game's 3-player count
    for n in (2, 4, 6):
        with pytest.raises(PluginError, match="'small-galaxy' is for 3 players"):
            boardrules.new_game("eclipse", players=n, modules=["small-galaxy"])


# ---- secret-homeworlds -------------------------------------------------------------------------

HOMEWORLDS = ("s271", "s272", "s273", "s274")


def secret_invariant(g) -> None:
    """The homeworlds shuffled in (the option's count) are each in the ring-II stack or on one
    ring-II hex, never on a start position at setup, the others nowhere; a cruiser lies only on a
    laid homeworld, and while it lives nobody controls the hex."""
    if g.state.values.get(("f", "stage"), 0) < 1:
        return
    secret = g.get("secret_homeworld_tiles")
    assert len(secret) == g.ruleset.options["secret_homeworlds"].default
    laid = {g.get("sector_at", index=h): h for h in g.get("hexes")
            if g.get("sector_at", index=h) in HOMEWORLDS}
    stacked = [s for s in g.get("stack_middle") if s in HOMEWORLDS]
    assert sorted([*laid, *stacked]) == sorted(secret) or set(laid) | set(stacked) <= set(secret)
    assert len(stacked) == len(set(stacked)) and not set(stacked) & set(laid)
    for s, h in laid.items():
        q, r = (int(x) for x in h.split(","))
        assert max(abs(q), abs(r), abs(q + r)) == 2, (s, h)
    for h in g.get("hexes"):
        live = g.get("homeworld_cruiser", index=h)
        if live is not None:
            assert g.get("sector_at", index=h) in laid and live in g.get("npcs", index=h)
            assert g.get("controller", index=h) is None, f"a disc on {h}, whose cruiser lives"


def _secret_and_homeworlds(g) -> None:
    secret_invariant(g)
    homeworlds_invariant(g)      # ancient-homeworlds' own (its cruisers, tiles and VP)


@given(st.data())
@SETTINGS
def test_random_games_with_secret_homeworlds(data):
    play_random(data, ("secret-homeworlds",), _secret_and_homeworlds, prefer=("explore", "space"))


def test_secret_homeworlds_go_into_the_ring_ii_stack_not_the_start_positions():
    g = _start(["secret-homeworlds"], n=2, seed=1)
    secret = g.get("secret_homeworld_tiles")
    assert len(secret) == 2 and set(secret) <= set(HOMEWORLDS)
    assert set(secret) <= set(g.get("stack_middle"))
    assert not any(g.get("sector_at", index=h) in HOMEWORLDS for h in g.get("hexes"))   # base layout
    assert g.view(0)["values"][("v", "stack_middle")] == ("hidden", 13)
    assert g.view(0)["values"][("v", "secret_homeworld_tiles")] == ("hidden", 2)   # which: secret
    three = boardrules.new_game("eclipse", players=2, seed=1, modules=["secret-homeworlds"],
                                options={"secret_homeworlds": 4})
    for p in (2, 1):
        three.play(f"p{p} pick_species terrans")
    assert len(three.get("secret_homeworld_tiles")) == 4


def test_an_explored_homeworld_brings_its_cruiser_and_refuses_a_disc():
    g = _start(["secret-homeworlds"], n=2, seed=1)
    tile = g.get("secret_homeworld_tiles")[0]
    g.auto_chance = False
    g.play("p1 explore")
    g.play("p1 space 2,-1")
    g.play(f"chance sector {tile}")
    rotation = g.state.pending[0].options[0]
    g.play(f"p1 rotation {rotation}")
    cruiser = g.get("homeworld_cruiser", index="2,-1")
    assert cruiser is not None and g.get("npcs", index="2,-1") == (cruiser,)
    assert g.get("discovery_at", index="2,-1")
    assert [str(a) for a in g.legal_actions()] == ["p1 claim"]     # declining only: the cruiser lives
    assert g.get("controller", index="2,-1") is None
    secret_invariant(g)
