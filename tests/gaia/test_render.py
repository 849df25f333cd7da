"""The Gaia Project map renderer: the SVG shows exactly what the state holds."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from collections import Counter

import pytest
from typer.testing import CliRunner

import boardrules
from boardrules.bots import RandomBot, play_out
from boardrules.cli import app
from boardrules.state import State
from boardrules_gaia.render import faction_name, render_map
from tests.svg import count, elements, var

GAME = "gaia-project"
BUILDINGS = ("mine", "ts", "lab", "pi", "ac1", "ac2")


class BuilderBot(RandomBot):
    """Random, but mostly builds, upgrades and federates, so that the map fills up."""

    WANTED = ("build_mine", "upgrade", "gaia_project", "form_federation", "power_mine",
              "booster_mine")

    def choose(self, game, player=None):
        actions = list(game.legal_actions(player))
        wanted = [a for a in actions if a.name in self.WANTED]
        if wanted and self.rng.random() < 0.8:
            return self.rng.choice(wanted)
        return self.rng.choice(actions)


def check_matches_state(g, svg: str) -> None:
    els = elements(svg)
    hexes = var(g, "hexes", default=())
    polygons = [attrs for tag, _, attrs in els if tag == "polygon"]
    assert len(polygons) == len(hexes)
    assert sorted(a["data-hex"] for a in polygons) == sorted(hexes)
    for p in range(g.players):
        me = f"p{p + 1}"
        owned = [h for h in hexes if var(g, "owner_at", h) == p and var(g, "bld", h) is not None]
        shared = [h for h in hexes if var(g, "guest_at", h) == p]
        assert count(els, "building", me) == len(owned) + len(shared)
        kinds = Counter(var(g, "bld", h) for h in owned)
        for kind in BUILDINGS:
            assert count(els, "building", kind, me) - (len(shared) if kind == "mine" else 0) \
                == kinds[kind], (me, kind)
        assert count(els, "gaiaformer", me) == sum(1 for h in hexes if var(g, "gf_at", h) == p)
        assert count(els, "satellite", me) == len(var(g, "satellites", p, default=()))
        assert count(els, "station", me) == sum(1 for h in hexes if var(g, "station_at", h) == p)
        assert count(els, "federation", me) == len(var(g, "fed_groups", p, default=()))
        assert count(els, "legend-player", me) == 1
    planets = [h for h in hexes if var(g, "planet", h, default="e") != "e"]
    assert count(els, "planet") == len(planets)


@pytest.fixture(scope="module")
def played():
    g = boardrules.new_game(GAME, players=2, seed=3)
    return play_out(g, BuilderBot(3))


def test_final_map_matches_the_state(played):
    svg = render_map(played)
    assert len(var(played, "hexes")) == 7 * 19                # the 2-player map: 7 sectors
    check_matches_state(played, svg)
    els = elements(svg)
    assert count(els, "building") >= 4          # at least the setup mines
    text = "".join(ET.fromstring(svg).itertext())
    for p, score in enumerate(played.scores()):
        assert f"{score['total']} VP" in text
        assert f"p{p + 1} {faction_name(var(played, 'myfaction', p))}" in text


def test_federations_satellites_gaiaformers_and_the_lost_planet():
    """A position with every kind of piece, set directly in the state (a Gaiaformer, the
    Lost Planet, federations, satellites, a space station, a Lantids mine)."""
    g = boardrules.new_game(GAME, players=2, seed=5)
    bot = RandomBot(5)
    while not var(g, "map_layout"):
        g.play(bot.choose(g))
    hexes = sorted(var(g, "hexes"))
    planets = [h for h in hexes if var(g, "planet", h, default="e") not in ("e",)]
    space = [h for h in hexes if var(g, "planet", h, default="e") == "e"]
    values = dict(g.state.values)
    for i, (h, b) in enumerate(zip(planets, BUILDINGS)):
        values[("v", "bld", h)], values[("v", "owner_at", h)] = b, i % 2
    lost = space[0]
    values[("v", "planet", lost)] = "l"
    values[("v", "bld", lost)], values[("v", "owner_at", lost)] = "mine", 1
    values[("v", "gf_at", planets[10])] = 0
    values[("v", "satellites", 0)] = tuple(space[1:4])
    values[("v", "satellites", 1)] = (space[3],)
    values[("v", "fed_groups", 0)] = (",".join(planets[:3] + space[1:4]),)
    values[("v", "station_at", space[5])] = 1             # an Ivits space station
    values[("v", "guest_at", planets[0])] = 1              # a Lantids mine on p1's planet
    g.state = State(values, g.state.pending)
    svg = render_map(g)
    check_matches_state(g, svg)
    els = elements(svg)
    assert count(els, "planet", "planet-l") == 1
    assert count(els, "building", "ac2", "p2") == 1 and count(els, "building", "ac1", "p1") == 1
    assert count(els, "satellite") == 4 and count(els, "federation", "p1") == 1
    assert count(els, "station", "p2") == 1 and count(els, "building", "mine", "shared") == 1


def test_a_new_game_and_a_game_without_a_map():
    g = boardrules.new_game(GAME, players=3, seed=1)
    svg = render_map(g)                                  # no factions chosen yet
    check_matches_state(g, svg)
    assert "p3" in "".join(ET.fromstring(svg).itertext())
    values = {k: v for k, v in g.state.values.items() if k[:2] not in (("v", "map_layout"),
                                                                     ("v", "hexes"))}
    g.state = State(values, g.state.pending)
    els = elements(render_map(g))
    assert not any(tag == "polygon" for tag, _, _ in els)
    assert count(els, "legend-player") == 3


def test_notebooks_show_the_map(played):
    assert played._repr_svg_() == render_map(played)
    harvest = boardrules.new_game("harvest", players=2, seed=1)
    assert harvest._repr_svg_() is None                 # no plugin draws Harvest


def test_play_writes_the_svg(tmp_path):
    result = CliRunner().invoke(app, ["play", GAME, "--players", "2", "--seed", "1", "--quiet",
                                      "--out", str(tmp_path)], env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    svg = (tmp_path / f"{GAME}-2p-seed1.svg").read_text(encoding="utf-8")
    record = (tmp_path / f"{GAME}-2p-seed1.json").read_text(encoding="utf-8")
    g = boardrules.load_game(record, check=False)
    assert svg == render_map(g)
    check_matches_state(g, svg)


def test_random_positions_render(played):
    """Any prefix of a game draws without error and matches its state."""
    rng = random.Random(0)
    g = boardrules.new_game(GAME, players=2, seed=3)
    bot = BuilderBot(3)
    stops = sorted(rng.sample(range(1, len(played.record.actions)), 3))
    n = 0
    for stop in stops:
        while n < stop and not g.over:
            g.play(bot.choose(g), check=False)
            n += 1
        check_matches_state(g, render_map(g))
