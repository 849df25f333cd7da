"""The Eclipse galaxy renderer: the SVG shows exactly what the state holds."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter

import pytest
from typer.testing import CliRunner

import boardrules
from boardrules.bots import play_out
from boardrules.cli import app
from boardrules.state import State
from boardrules_eclipse.galaxy import rotate_mask
from boardrules_eclipse.render import render_map
from tests.svg import count, elements, var

GAME = "eclipse"


def check_matches_state(g, svg: str) -> None:
    els = elements(svg)
    hexes = var(g, "hexes", default=())
    polygons = [attrs for tag, _, attrs in els if tag == "polygon"]
    assert len(polygons) == len(hexes)
    assert sorted(a["data-hex"] for a in polygons) == sorted(hexes)
    for a in polygons:
        assert a["data-sector"] == var(g, "sector_at", a["data-hex"])
    wormholes = 0
    for h in hexes:
        printed = 0
        for e in g.ruleset.entities[var(g, "sector_at", h)].fields["wormholes"]:
            printed |= 1 << e
        wormholes += bin(rotate_mask(printed, var(g, "rotation_at", h, default=0))).count("1")
    assert count(els, "wormhole") == wormholes
    for p in range(g.players):
        me = f"p{p + 1}"
        held = [h for h in hexes if var(g, "controller", h) == p]
        assert count(els, "disc", me) == len(held)
        fleet = Counter(cls for h in hexes for owner, cls in var(g, "ships", h, default=())
                        if owner == p)
        assert count(els, "ship", me) == sum(fleet.values())
        for cls, n in fleet.items():
            assert count(els, "ship", cls, me) == n
        assert count(els, "cube", me) == sum(len(var(g, "cubes", h, default=())) for h in held)
        assert count(els, "legend-player", me) == 1
    npcs = Counter(n for h in hexes for n in var(g, "npcs", h, default=()))
    assert count(els, "npc", "ancient") == npcs["ancient"]
    assert count(els, "npc", "gcds") == npcs["gcds"]
    assert count(els, "discovery") == sum(1 for h in hexes if var(g, "discovery_at", h))


@pytest.fixture(scope="module")
def played():
    return play_out(boardrules.new_game(GAME, players=3, seed=1))


def test_final_galaxy_matches_the_state(played):
    svg = render_map(played)
    check_matches_state(played, svg)
    els = elements(svg)
    assert len(var(played, "hexes")) > played.players + 1 and count(els, "wormhole") > 6
    text = "".join(ET.fromstring(svg).itertext())
    for p, score in enumerate(played.scores()):
        assert f"{score['total']} VP" in text
        assert f"p{p + 1} {var(played, 'species_of', p).title()}" in text


def test_a_crowded_hex():
    """Many ships of several players, an orbital and a monolith in one hex."""
    g = boardrules.new_game(GAME, players=3, seed=2)
    while not var(g, "hexes"):
        g.play(next(iter(g.legal_actions())))
    centre = var(g, "hexes")[0]
    values = dict(g.state.values)
    values[("v", "ships", centre)] = ((0, "interceptor"),) * 8 + ((1, "dreadnought"),) * 2 \
        + ((2, "starbase"), (2, "cruiser"))
    values[("v", "npcs", centre)] = ()
    values[("v", "controller", centre)] = 2
    values[("v", "cubes", centre)] = ("0:science", "o:money")
    values[("v", "orbital_at", centre)] = True
    values[("v", "monolith_at", centre)] = True
    g.state = State(values, g.state.pending)
    svg = render_map(g)
    check_matches_state(g, svg)
    els = elements(svg)
    assert count(els, "orbital") == 1 and count(els, "monolith") == 1
    ns = {"svg": "http://www.w3.org/2000/svg"}
    group = ET.fromstring(svg).find(f"svg:g[@data-hex='{centre}']", ns)
    inside = Counter(tuple(sorted(e.get("class", "").split())) for e in group.iter())
    assert inside[("interceptor", "p1", "ship")] == 8
    assert inside[("dreadnought", "p2", "ship")] == 2
    assert inside[("cube", "p3")] == 2 and inside[("disc", "p3")] == 1


def test_notebooks_show_the_galaxy(played):
    assert played._repr_svg_() == render_map(played)


def test_play_writes_the_svg(tmp_path):
    result = CliRunner().invoke(app, ["play", GAME, "--players", "2", "--seed", "1", "--quiet",
                                      "--out", str(tmp_path)], env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    svg = (tmp_path / f"{GAME}-2p-seed1.svg").read_text(encoding="utf-8")
    g = boardrules.load_game((tmp_path / f"{GAME}-2p-seed1.json").read_text(encoding="utf-8"),
                             check=False)
    assert svg == render_map(g)
    check_matches_state(g, svg)


def _legend_overflow(svg: str) -> list:
    """The legend's texts and shapes that reach past the picture's right edge (a text's width
    estimated at 0.6 of its font size a character)."""
    root = ET.fromstring(svg)
    min_x, _, width, _ = (float(n) for n in root.get("viewBox").split())
    right = min_x + width
    ns = "{http://www.w3.org/2000/svg}"
    out = []
    for e in root.find(f"{ns}g[@class='legend']").iter():
        if e.tag == f"{ns}text":
            size, x = float(e.get("font-size")), float(e.get("x"))
            w = 0.6 * size * len(e.text or "")
            end = {"middle": x + w / 2, "end": x}.get(e.get("text-anchor", ""), x + w)
            if end > right:
                out.append(e.text)
        elif e.tag == f"{ns}path":
            xs = [float(p.split(",")[0]) for p in e.get("d").replace("M", " ").replace("L", " ")
                  .replace("Z", " ").replace("A7,7 0 0 1", " ").split() if "," in p]
            if xs and max(xs) > right:
                out.append(e.get("class"))
    return out


def test_the_legend_of_five_ship_classes_stays_in_the_picture_and_names_them_as_words():
    """(New species' fifth class, the Exiles' orbital, was drawn past the right edge, labelled
    'exile_orbital', and its ships titled so on the map.)"""
    g = boardrules.new_game(GAME, players=2, seed=1, modules=["new-species"])
    assert len(g.ruleset.by_kind["ship_class"]) == 5
    while not var(g, "hexes"):
        g.play(next(iter(g.legal_actions())))
    values = dict(g.state.values)
    values[("v", "ships", var(g, "hexes")[0])] = ((0, "exile_orbital"),)
    g.state = State(values, g.state.pending)
    svg = render_map(g)
    assert _legend_overflow(svg) == []
    root = ET.fromstring(svg)
    texts = set(root.itertext())
    assert "exile orbital" in texts and not any("exile_orbital" in t for t in texts)
    assert count(elements(svg), "ship", "exile_orbital", "p1") == 1   # (the class stays the name)


def test_the_base_games_legend_stays_in_the_picture(played):
    assert _legend_overflow(render_map(played)) == []
