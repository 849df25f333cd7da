"""Eclipse map SVG: NPC ships (Ancients, Guardians, GCDS) in colours far from every seat colour
(issue 13: player 1's red was the Ancients' red)."""

import re

import boardrules
from boardrules_eclipse.render import NPC_COLOURS, PLAYER_COLOURS, render_map


def _rgb(colour: str) -> tuple:
    return tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))


def _far(a: str, b: str) -> bool:
    return sum((x - y) ** 2 for x, y in zip(_rgb(a), _rgb(b))) ** 0.5 > 120


def test_npc_colours_are_far_from_every_seat_colour():
    for npc_fill, _ in NPC_COLOURS.values():
        assert all(_far(npc_fill, fill) for fill, _ in PLAYER_COLOURS), npc_fill


def test_the_map_draws_npcs_in_their_own_colours():
    svg = render_map(boardrules.new_game("eclipse", players=6, seed=1))
    shapes = re.findall(r'<(?:path|circle) class="[^"]*"[^>]*?fill="(#[0-9a-f]{6})"', svg)
    for npc_fill, _ in NPC_COLOURS.values():
        assert npc_fill in shapes   # the legend's keys at least
    assert "#c8242c" not in svg and "#7a0c14" not in svg   # the old NPC reds, close to seat 1's
