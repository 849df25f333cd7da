"""Hidden information: draw piles are ``hidden``, reputation tiles ``private``; ``game.view(p)``
shows each player only what they may know."""

from __future__ import annotations

import random

import boardrules
from boardrules.game import Action
from boardrules.runtime import CHANCE

from .test_game import new

HIDDEN_PILES = ("stack_inner", "stack_middle", "stack_outer", "tech_bag", "discovery_bag",
                "reputation_bag")
PRIVATE = ("reputation", "rep_best", "rep_drawn")


def _mid_game(players=4, seed=5, moves=600):
    g = boardrules.new_game("eclipse", players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        g.play(rng.choice(list(g.legal_actions())))
    return g


def test_piles_show_only_their_size():
    g = _mid_game()
    for p in (0, 1, None):
        values = g.view(p)["values"]
        for name in HIDDEN_PILES:
            real = g.state.values.get(("v", name), g.ruleset.default_of(("v", name)))
            shown = values.get(("v", name))
            if shown is not None:
                assert shown == ("hidden", len(real)), name


def test_reputation_tiles_only_to_their_owner():
    g = new(3, species=["eridani", "terrans", "terrans"])   # Eridani start with 2 tiles
    tiles = g.get("reputation", 0)
    assert len(tiles) == 2
    assert g.view(0)["values"][("v", "reputation", 0)] == tiles
    for viewer in (1, 2, None):
        assert g.view(viewer)["values"][("v", "reputation", 0)] == ("hidden", 1)


def test_views_never_contain_other_players_secrets():
    g = _mid_game(seed=7)
    for viewer in range(g.players):
        values = g.view(viewer)["values"]
        for key, value in values.items():
            if key[0] == "v" and key[1] in PRIVATE and key[2] != viewer:
                assert value == ("hidden", 1), key


def test_a_drawn_discovery_is_seen_by_its_finder_only():
    g = new(2)
    g.auto_chance = False
    g.play("p1 explore")
    assert "2,-1" in g.state.pending[0].options               # a ring-II space by the home
    g.play("p1 space 2,-1")
    g.play(Action(CHANCE, "sector", ("s206",)))               # discovery, no Ancients
    g.play(Action(0, "rotation", (g.state.pending[0].options[0],)))
    g.play("p1 claim true")
    g.play(Action(CHANCE, "discovery", ("find_money",)))
    d = g.state.pending[0]
    assert (d.player, d.label) == (0, "use")
    assert ("discovery", "find_money") in g.view(0)["pending"][0].env
    for viewer in (1, None):
        assert g.view(viewer)["pending"][0].env == ()
    # a chance decision's options (the pile) are hidden from everyone
    g.play("p1 use false")                                    # kept face down: 2 VP at the end
    assert g.get("discoveries_kept", 0) == 1
