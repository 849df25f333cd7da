"""Export to the play site's notation (issue 11, "Export"): export → replay gives an equal game.

The round trip: a game (bot games of every player count, the 18 shared records' replays) is
written by :func:`boardrules_gaia.export.export_game`, the file is read back by ``boardrules
replay`` (:func:`boardrules.replay.replay_file`, legality checks on), and the final state of the
replay equals the original's field by field (:func:`boardrules_gaia.replay.final_state`: VP,
resources, bowls, research, buildings, tiles, federations).
"""

from __future__ import annotations

import json

import attrs
import pytest
from typer.testing import CliRunner

import boardrules
from boardrules import plugins
from boardrules.bots import make_bot, play_out
from boardrules.cli import app
from boardrules.replay import replay_file
from boardrules_gaia import notation as N
from boardrules_gaia.export import EXPORT_KEY, ExportError, export_game
from boardrules_gaia.records import load_record
from boardrules_gaia.replay import final_state, replay_record
from tests.conftest import SHARED, shared_path

RECORD_NAMES = sorted(
    p.stem for p in (SHARED / "gaia-records").glob("*.json") if p.name != "INDEX.json"
) or ["(missing)"]


def _round_trip(game, tmp_path):
    """Export ``game``, replay the file; return (document, replay report)."""
    doc = export_game(game)
    path = tmp_path / "export.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return doc, replay_file(path)


def _assert_equal_games(game, report):
    assert report.ok, report.differences[:5]
    tiles = _FinalTiles(game)
    assert final_state(report.game, tiles) == final_state(game, tiles)
    assert report.game.over == game.over
    assert report.game.scores() == game.scores()


def _play_some(game, bot, n):
    for _ in range(n):
        game.play(bot.choose(game))


class _FinalTiles:
    """The dealt tech tiles :func:`final_state` reads, from the game's own record."""

    def __init__(self, game):
        doc = export_game(game)
        from types import SimpleNamespace
        t = doc["setup"]["tiles"]
        self.setup = SimpleNamespace(tiles=SimpleNamespace(tech=t["techTiles"], adv_tech=t["advTechTiles"]))


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_random_bot_games_round_trip(players, seed, tmp_path):
    game = boardrules.new_game("gaia-project", players=players, seed=seed)
    play_out(game, make_bot("random", seed))
    assert game.over
    doc, report = _round_trip(game, tmp_path)
    _assert_equal_games(game, report)
    assert doc["players"] == players and len(doc["factions"]) == players
    assert doc["options"]["map"]["sectors"]


def test_greedy_bot_game_round_trips(tmp_path):
    """Greedy bots build, upgrade, research, take tiles and form federations."""
    game = boardrules.new_game("gaia-project", players=3, seed=1)
    play_out(game, make_bot("greedy", 1))
    doc, report = _round_trip(game, tmp_path)
    _assert_equal_games(game, report)
    kinds = {c.keyword for line in doc["moves_clean"][1:] for c in N.parse_line(line).commands}
    assert {"faction", "build", "booster", "pass", "up", "tech", "charge"} <= kinds


def test_unfinished_game_round_trips(tmp_path):
    game = boardrules.new_game("gaia-project", players=2, seed=5)
    _play_some(game, make_bot("random", 5), 60)   # random 2p games may end after ~130 moves
    assert not game.over
    _, report = _round_trip(game, tmp_path)
    _assert_equal_games(game, report)


@pytest.mark.parametrize("name", RECORD_NAMES)
def test_shared_record_replay_round_trips(name, tmp_path):
    """Each real game, replayed, exported and replayed again: the same final state, and the
    exported lines say what the site's lines say (same commands, annotations aside)."""
    record = load_record(shared_path("gaia-records", f"{name}.json"))
    out = replay_record(record)
    assert out.ok, out.first_problem()
    doc, report = _round_trip(out.game, tmp_path)
    _assert_equal_games(out.game, report)
    assert doc["factions"] == list(record.factions)
    assert doc["setup"]["tiles"]["roundScoring"] == list(record.setup.tiles.round_scoring)


def test_lines_are_canonical_site_notation():
    """Every exported line parses (gaia-notation.md §2.2) and prints back as written; the dealt
    tiles are fixed by ``set`` setup lines after ``init``."""
    game = boardrules.new_game("gaia-project", players=4, seed=3)
    play_out(game, make_bot("random", 3))
    doc = export_game(game)
    assert doc["moves_clean"][0] == f"init 4 {game.seed}"
    for line in doc["moves_clean"]:
        assert str(N.parse_line(line)) == line
    lead = doc["moves_clean"][1:doc["setup"]["consumesLeadingMoves"]]
    sets = [N.parse_line(x).commands[0] for x in lead]
    assert all(isinstance(c, N.SetTile) for c in sets)
    assert {c.kind for c in sets} == {"techTile", "advTechTile", "booster", "roundScoringTile",
                                      "finalScoringTile", "terraformingFederation"}
    # the raw lines differ only by the bowls annotations
    for raw, clean in zip(doc["moves"], doc["moves_clean"]):
        assert N.parse_line(raw) == N.parse_line(clean)


def test_untranslatable_action_is_named(monkeypatch):
    """A module's action without a site line (here the auction's, its contribution taken away)
    is refused naming it."""
    game = boardrules.new_game("gaia-project", players=2, seed=1, modules=["auction"])
    _play_some(game, make_bot("random", 1), 40)
    specs = {k: (attrs.evolve(v, extras={EXPORT_KEY: {}}) if k == "auction" else v)
             for k, v in plugins.modules("gaia-project").items()}
    monkeypatch.setattr(plugins, "modules", lambda game=None: specs)
    with pytest.raises(ExportError, match="auction_faction"):
        export_game(game)


def test_a_game_with_house_rules_is_refused(tmp_path):
    # (its export replayed, by the printed rules, to other scores: "taklons vp: 27 != recorded 31")
    house = tmp_path / "house.rules"
    house.write_text("when advanced(p, track, level) { gain 1 vp to p }\n", encoding="utf-8")
    game = boardrules.new_game("gaia-project", players=2, seed=3, rules=[house])
    with pytest.raises(ExportError, match=r"^the game was played with house rules \('.*house.rules'\): "
                                          r"the site's records cannot carry them"):
        export_game(game)


@pytest.fixture
def gift_module(tmp_path):
    """A third party's Gaia module that only reacts to an event (3 QIC each when round 3 begins),
    with no export contribution, registered for the test."""
    from boardrules.ruleset import _build
    rules = tmp_path / "gift.rules"
    rules.write_text("when round_begins(n) if n == 3 { for p in players { gain 3 qic to p } }\n",
                     encoding="utf-8")

    class Plugin:
        @plugins.hookimpl
        def boardrules_modules(self):
            return [plugins.ModuleSpec("qic-gift", "gaia-project", (rules,), "3 QIC at round 3")]
    pm, plugin = plugins.manager(), Plugin()
    pm.register(plugin, "gift_plugin")
    _build.cache_clear()
    yield
    pm.unregister(plugin)
    _build.cache_clear()


def test_a_game_with_a_module_the_notation_cannot_carry_is_refused(gift_module, tmp_path):
    """A module without a contribution was exported as if it were not there (a trial's qic-gift
    game replayed to 'move 60: ... build m 7B5: no mine of yours can go there'); like house
    rules, it is refused naming the module. With a contribution, even an empty one, it exports."""
    game = boardrules.new_game("gaia-project", players=2, seed=3, modules=["qic-gift"])
    play_out(game, [make_bot("random", 3)] * 2)
    with pytest.raises(ExportError, match=r"^the game was played with the module 'qic-gift', which the "
                                          r"site's notation has no export for"):
        export_game(game)
    specs = {k: (attrs.evolve(v, extras={EXPORT_KEY: {}}) if k == "qic-gift" else v)
             for k, v in plugins.modules("gaia-project").items()}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(plugins, "modules", lambda game=None: specs)
        assert export_game(game)["players"] == 2


# ---- the modules' actions (their ModuleSpec.extras: boardrules_gaia/module_export.py) -------------

@pytest.mark.parametrize("form", ["choose-bid", "bid-while-choosing"])
@pytest.mark.parametrize(("players", "seed"), [(2, 2), (3, 2), (4, 7)])
def test_auction_bot_games_round_trip(form, players, seed, tmp_path):
    """The auction's moves are the site's 'faction X' and 'bid X N' lines, by seat; the file's
    options carry the auction's form; the replay gives the same bids and the same game."""
    game = boardrules.new_game("gaia-project", players=players, seed=seed, modules=["auction"],
                               options={"auction_form": form})
    play_out(game, make_bot("random", seed))
    doc, report = _round_trip(game, tmp_path)
    _assert_equal_games(game, report)
    assert doc["options"]["auction"] == form
    assert "auction" in report.game.ruleset.modules
    assert [report.game.get("bid", p) for p in range(players)] == [game.get("bid", p) for p in range(players)]
    lead = doc["setup"]["consumesLeadingMoves"]
    auction = [x for x in doc["moves_clean"][lead:] if x.startswith("p")]
    bids = [x for x in auction if " bid " in x]
    assert auction and all(N.parse_line(x).seat is not None for x in auction)
    assert len(bids) >= (players if form == "choose-bid" else 0)
    assert doc["factions"] == [game.get("myfaction", p).replace("_", "-") for p in range(players)]


@pytest.mark.parametrize(("players", "seed"), [(2, 3), (3, 4), (4, 5)])
def test_random_factions_bot_games_round_trip(players, seed, tmp_path):
    """The boards dealt go to setup.dealtBoards, the side chosen is 'faction X'; the replay deals
    the same boards (module random-factions) and reaches the same game."""
    game = boardrules.new_game("gaia-project", players=players, seed=seed, modules=["random-factions"])
    play_out(game, make_bot("random", seed))
    doc, report = _round_trip(game, tmp_path)
    _assert_equal_games(game, report)
    dealt = [game.get("dealt_board", p) for p in range(players)]
    assert doc["setup"]["dealtBoards"] == dealt
    assert "random-factions" in report.game.ruleset.modules
    assert [report.game.get("dealt_board", p) for p in range(players)] == dealt
    assert "randomFactions" not in doc["options"]   # the site deals factions, not boards


@pytest.mark.parametrize("module", ["more-balanced", "beta"])
def test_board_variant_bot_games_round_trip(module, tmp_path):
    """The board modules export as the site's factionVariant (beta: with its version)."""
    game = boardrules.new_game("gaia-project", players=3, seed=6, modules=[module],
                               options={"beta_version": 1} if module == "beta" else {})
    play_out(game, make_bot("random", 6))
    doc, report = _round_trip(game, tmp_path)
    _assert_equal_games(game, report)
    assert doc["options"]["factionVariant"] == module
    assert doc["options"]["factionVariantVersion"] == (1 if module == "beta" else 0)
    assert module in report.game.ruleset.modules


@pytest.mark.parametrize(("players", "modules"), [(2, ["xshape"]), (3, ["xshape", "auction"])])
def test_xshape_bot_games_round_trip(players, modules, tmp_path):
    """The x-shape map exports with the site's ``layout: "xshape"`` (it had none: the replay read
    its 8 sectors as a standard map and refused the file; trial)."""
    game = boardrules.new_game("gaia-project", players=players, seed=1, modules=modules)
    play_out(game, make_bot("random", 1))
    doc, report = _round_trip(game, tmp_path)
    assert doc["options"]["layout"] == "xshape"
    _assert_equal_games(game, report)
    assert "xshape" in report.game.ruleset.modules


def test_export_command(tmp_path):
    plugins.manager().hook.boardrules_cli(app=app)
    game = boardrules.new_game("gaia-project", players=2, seed=4)
    play_out(game, make_bot("random", 4))
    rec = tmp_path / "game.json"
    rec.write_text(game.save(), encoding="utf-8")
    out = tmp_path / "site.json"
    result = CliRunner().invoke(app, ["export", str(rec), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text())["factions"] == export_game(game)["factions"]
    again = CliRunner().invoke(app, ["replay", str(out)])
    assert again.exit_code == 0 and "final state matches" in again.output
    bad = CliRunner().invoke(app, ["export", str(tmp_path / "missing.json"), "-o", str(out)])
    assert bad.exit_code == 1 and "missing.json" in bad.output and "Traceback" not in bad.output
    unwritable = tmp_path / "no-such-folder" / "site.json"   # was "error: [Errno 2] No such file ..."
    bad = CliRunner().invoke(app, ["export", str(rec), "-o", str(unwritable)], env={"COLUMNS": "400"})
    assert bad.exit_code == 1
    assert f"error: cannot write {unwritable}: No such file or directory" in bad.output


@pytest.mark.parametrize("damage", ["a line changed", "lines cut"])
def test_a_record_that_does_not_replay_to_its_final_state_is_not_exported(damage, tmp_path):
    """A site record whose replay stops at a line it cannot play, or whose lines were cut short
    (its `final` kept), was exported with exit 0: the game up to the fault, the rest of it dropped,
    and the file written then replayed as a sound game (trial3). Now refused, nothing written."""
    plugins.manager().hook.boardrules_cli(app=app)
    data = json.loads(shared_path("gaia-records", "djfjjv4k.json").read_text(encoding="utf-8"))
    if damage == "a line changed":   # (the docs' example: p2 is to play)
        data["moves_clean"][30] = data["moves"][30] = "geodens build m 4A1."
        said = "(first divergence: move 30 'geodens build m 4A1.': p1 build_mine 4A1: it is p2's turn"
    else:
        data["moves_clean"], data["moves"] = data["moves_clean"][:60], data["moves"][:60]
        said = "(geodens vp: 14 != recorded 130)"
    rec = tmp_path / "damaged.json"
    rec.write_text(json.dumps(data), encoding="utf-8")
    out = tmp_path / "site.json"
    result = CliRunner().invoke(app, ["export", str(rec), "-o", str(out)], env={"COLUMNS": "400"})
    assert result.exit_code == 1
    assert f"error: {rec}: its replay does not reach the state it records {said}" in result.output
    assert "nothing written" in result.output and not out.exists()
    out.write_text("kept", encoding="utf-8")   # (an earlier export of that name stays as it was)
    assert CliRunner().invoke(app, ["export", str(rec), "-o", str(out)]).exit_code == 1
    assert out.read_text(encoding="utf-8") == "kept"


def test_an_export_over_its_own_record_is_refused(tmp_path):
    """'export game.json -o game.json' wrote the site's notation over the boardrules record
    (its seed, modules and options gone with it): refused, the record as it was (trial3)."""
    plugins.manager().hook.boardrules_cli(app=app)
    game = boardrules.new_game("gaia-project", players=2, seed=4)
    rec = tmp_path / "game.json"
    rec.write_text(game.save(), encoding="utf-8")
    for given in (rec, tmp_path / "." / "game.json"):
        result = CliRunner().invoke(app, ["export", str(rec), "-o", str(given)], env={"COLUMNS": "400"})
        assert result.exit_code == 1 and "-o names the record itself" in result.output
        assert rec.read_text(encoding="utf-8") == game.save()
