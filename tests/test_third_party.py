"""A third-party plugin adds a Gaia Project faction with abilities of new kinds, without
touching any bundled file: ``tests/thirdparty/weavers`` (its own ``pyproject.toml`` and an
entry point in the ``boardrules`` group). The Weavers gain 1 ore whenever they upgrade to a
research lab (a reaction to the game's ``structure_upgraded`` event) and, after their
planetary institute, may build a mine on any other planet type without terraforming for 1
extra ore (a new action offered in the actions phase with ``extend step``).

In process, the package is registered for one test; then it is installed with boardrules
into a fresh virtual environment, outside the checkout, and plays whole games from there.
"""

from __future__ import annotations

import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import boardrules
from boardrules import plugins
from boardrules.ruleset import _build
from boardrules.state import State
from tests.fresh_env import make_venv, run

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "tests" / "thirdparty" / "weavers"
GAME = "gaia-project"


@pytest.fixture
def weavers(monkeypatch):
    monkeypatch.syspath_prepend(str(PACKAGE))
    import boardrules_weavers
    pm = plugins.manager()
    pm.register(boardrules_weavers, "boardrules_weavers")
    _build.cache_clear()
    yield boardrules_weavers
    pm.unregister(boardrules_weavers)
    _build.cache_clear()


def _to_actions(g, faction: str) -> None:
    """p1 takes ``faction``, the others the first legal choices, until round 1's actions."""
    g.play(f"p1 pick_faction {faction}")
    while "pass_round" not in {a.name for a in g.legal_actions()}:
        g.play(next(iter(g.legal_actions())))


def _set(g, values: dict) -> None:
    g.state = State({**g.state.values, **values}, g.state.pending)


def _lab_upgrade(g):
    """Give p1 a trading station and the means to upgrade it; return the upgrade action."""
    (h, *_) = g.get("my_hexes", 0)
    _set(g, {("v", "bld", h): "ts", ("v", "built", 0, "mine"): g.get("built", 0, "mine") - 1,
             ("v", "built", 0, "ts"): 1, ("r", "credits", 0): 20, ("r", "ore", 0): 10})
    return boardrules.Action(0, "upgrade", (h, "lab"))


@pytest.mark.parametrize("faction,bonus", [("weavers", 1), ("terrans", 0)])
def test_weavers_gain_an_ore_when_they_upgrade_to_a_lab(weavers, faction, bonus):
    g = boardrules.new_game(GAME, players=2, seed=2)
    assert g.ruleset.modules == ("factions", "weavers")   # both on by default, as their ModuleSpecs say
    _to_actions(g, faction)
    action = _lab_upgrade(g)
    g.play(action)
    assert g.get("ore", 0) == 10 - 3 + bonus       # a lab costs 3 ore; the Weavers get 1 back


def test_weavers_weave_a_mine_after_their_planetary_institute(weavers):
    g = boardrules.new_game(GAME, players=2, seed=2)
    _to_actions(g, "weavers")
    assert not [a for a in g.legal_actions() if a.name == "weave_mine"]   # no PI yet
    _set(g, {("v", "built", 0, "pi"): 1, ("r", "ore", 0): 10, ("r", "credits", 0): 20})
    woven = [a for a in g.legal_actions() if a.name == "weave_mine"]
    assert woven
    h = woven[0].args[0]
    planet = g.get("planet", index=h)
    assert planet not in ("s", "g", "m")     # a planet type that needs terraforming otherwise
    g.play(woven[0])
    # a mine (2 credits, 1 ore) plus 1 ore, and no terraforming whatever the planet type
    assert (g.get("ore", 0), g.get("credits", 0)) == (10 - 1 - 1, 20 - 2)
    assert g.get("owner_at", index=h) == 0 and g.get("bld", index=h) == "mine"
    # the Weavers' own export line (their ModuleSpec.extras): a third-party faction exports too
    from boardrules_gaia.export import export_game
    assert export_game(g)["moves_clean"][-1] == f"weavers build m {h}"


def test_switched_off_the_weavers_are_not_in_the_game(weavers):
    g = boardrules.new_game(GAME, players=2, seed=2, modules=["-weavers"])
    assert "weavers" not in g.ruleset.entities
    assert not any(a.args == ("weavers",) for a in g.legal_actions())


@pytest.mark.slow
def test_installed_beside_boardrules_it_plays_whole_games(tmp_path):
    wheels = tmp_path / "wheels"
    package = tmp_path / "weavers"          # outside the checkout
    shutil.copytree(PACKAGE, package, ignore=shutil.ignore_patterns("__pycache__"))
    for source in (REPO, package):
        subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                        "--no-build-isolation", "-w", str(wheels), str(source)], check=True)
    env_dir = tmp_path / "venv"
    py = make_venv(env_dir)
    run(py, "-m", "pip", "install", "--quiet", "--no-deps", *map(str, sorted(wheels.glob("*.whl"))),
        cwd=tmp_path)
    listed = run(env_dir / "bin" / "boardrules", "plugins", cwd=tmp_path).stdout
    assert "gaia-project weavers: The Weavers: a 15th faction with new kinds of abilities " \
           "(on by default; players any)" in listed
    script = tmp_path / "play.py"
    script.write_text(PLAY, encoding="utf-8")
    out = run(py, str(script), cwd=tmp_path).stdout
    assert out.split() == ["over"] * 3, out


PLAY = """
import random, boardrules
for seed in (1, 2, 3):
    g = boardrules.new_game("gaia-project", players=3, seed=seed)
    assert g.ruleset.modules == ("factions", "weavers"), g.ruleset.modules
    g.play("p1 pick_faction weavers")
    rnd = random.Random(seed)
    while not g.over:
        legal = list(g.legal_actions())
        weave = [a for a in legal if a.name in ("weave_mine", "upgrade")]
        g.play(rnd.choice(weave) if weave and rnd.random() < 0.7 else rnd.choice(legal))
    again = boardrules.load_game(g.save())
    assert again.state == g.state
    print("over")
"""


def test_random_games_with_the_weavers(weavers):
    """Whole games in process with the Weavers in play (p1), random choices otherwise."""
    for seed in (4, 5):
        g = boardrules.new_game(GAME, players=2, seed=seed)
        g.play("p1 pick_faction weavers")
        rnd = random.Random(seed)
        while not g.over:
            legal = list(g.legal_actions())
            grow = [a for a in legal if a.name in ("weave_mine", "upgrade", "build_mine")]
            g.play(rnd.choice(grow) if grow and rnd.random() < 0.7 else rnd.choice(legal))
        assert boardrules.load_game(g.save()).state == g.state
