"""A record names what its rules were built from (``sources``: each rule file of the game, its
modules, a plugin's ``boardrules_rule_files`` layer and the house rules, with who gave it and a
digest of its text), so a replay with other rules says which plugin or file is missing, changed
or new, where it said only "the rules changed since this record was written: ruleset X then, Y
now" (a record played with a plugin's rule-file layer failed so at some move without it)."""

from __future__ import annotations

import json
import types
from pathlib import Path

import pytest

import boardrules
from boardrules import IllegalActionError, NotationError, PluginError, ReplayMismatch, plugins
from boardrules.record import Source
from boardrules.replay import replay_file
from boardrules.ruleset import _build

CHEAP = "override action study main {\n  pay 1 coins\n  advance farming\n}\n"


@pytest.fixture
def layer_plugin(tmp_path):
    """``install(files, name)``: a plugin ``name`` whose ``boardrules_rule_files`` gives Harvest
    ``files`` (paths, or one path alone), registered for the test; ``remove(name)`` unregisters it."""
    pm, added = plugins.manager(), {}

    def install(files, name="boardrules_cheap_study"):
        mod = types.ModuleType(name)

        @plugins.hookimpl
        def boardrules_rule_files(game, modules):
            return files if game == "harvest" else []
        mod.boardrules_rule_files = boardrules_rule_files
        pm.register(mod, name)
        added[name] = mod
        _build.cache_clear()

    def remove(name="boardrules_cheap_study"):
        pm.unregister(added.pop(name))
        _build.cache_clear()

    yield types.SimpleNamespace(install=install, remove=remove)
    for mod in added.values():
        pm.unregister(mod)
    _build.cache_clear()


def _named(sources) -> list[tuple[str, str, str]]:
    return [(s.layer, s.name, s.file) for s in sources]


def _cheap_file(tmp_path: Path, text: str = CHEAP) -> Path:
    path = tmp_path / "cheap.rules"
    path.write_text(text, encoding="utf-8")
    return path


def _studies_cheaply() -> boardrules.Game:
    """A Harvest game where p2 studies with 2 coins (legal only with the plugin's layer)."""
    g = boardrules.new_game("harvest", players=2, seed=1)
    for move in ["p2 study", "p1 buy sow", "p1 study", "p1 done", "p2 buy reap", "p2 done", "p1 study",
                 "p1 done", "p2 study", "p2 done"]:
        g.play(move)
    assert g.get("coins", 1) < 3 or g.record.actions.count("p2 study") == 2
    return g


def test_a_record_names_each_rule_file_and_who_gave_it(layer_plugin, tmp_path):
    layer_plugin.install([_cheap_file(tmp_path)])
    g = boardrules.new_game("harvest", players=2, seed=1, modules=["market-day"])
    saved = json.loads(g.save())
    assert [(d["layer"], d["name"], d["file"]) for d in saved["sources"]] == [
        ("game", "harvest", "harvest.rules"), ("module", "market-day", "market-day.rules"),
        ("plugin", "boardrules_cheap_study", "cheap.rules")]
    import hashlib
    assert saved["sources"][2]["digest"] == hashlib.sha256(CHEAP.encode()).hexdigest()[:16]
    assert boardrules.Record.loads(g.save()).sources == g.ruleset.sources
    assert all(isinstance(s, Source) for s in g.ruleset.sources)


def test_house_rules_and_rule_texts_are_named_by_their_path(tmp_path):
    house = tmp_path / "house.rules"
    house.write_text("override option goal = 7 in 0..100\n", encoding="utf-8")
    g = boardrules.new_game("harvest", players=2, rules=[house])
    assert _named(g.ruleset.sources)[-1] == ("house", "", str(house))
    text = (Path(__file__).parent / "rules" / "harvest.rules").read_text(encoding="utf-8")
    t = boardrules.new_game(players=2, texts={"mine.rules": text})
    assert _named(t.ruleset.sources) == [("texts", "", "mine.rules")]


def test_replayed_without_the_plugin_the_move_names_the_missing_plugin(layer_plugin, tmp_path):
    layer_plugin.install([_cheap_file(tmp_path)])
    text = _studies_cheaply().save()
    layer_plugin.remove()
    with pytest.raises(IllegalActionError) as err:
        boardrules.load_game(text)
    assert str(err.value).startswith("move 10: p2 study: needs 3 coins, has 2")
    assert str(err.value).endswith("(note: the rules changed since this record was written: plugin "
                                   "'boardrules_cheap_study' is not installed (it gave the rule file 'cheap.rules'))")


def test_a_changed_plugin_file_is_named_with_both_digests(layer_plugin, tmp_path):
    path = _cheap_file(tmp_path)
    layer_plugin.install([path])
    g = _studies_cheaply()
    before = g.ruleset.sources[-1].digest
    path.write_text(CHEAP.replace("pay 1", "pay 3"), encoding="utf-8")
    _build.cache_clear()
    now = boardrules.build_ruleset("harvest").sources[-1].digest
    with pytest.raises(IllegalActionError, match=rf"the rule file 'cheap.rules' of plugin 'boardrules_cheap_study' "
                                                 rf"changed \(digest {before} then, {now} now\)\)$"):
        boardrules.load_game(g.save())


def test_files_of_one_name_in_two_folders_are_told_apart(layer_plugin, tmp_path):
    """A plugin's two files named alike in two folders were both 'extra.rules' in the record:
    a change of one was said as a change of both names' one entry, and its digest compared with
    the other's. Each is named by the shortest end of its path that tells it apart (a file
    whose name no other file of its owner has keeps its name alone, as every shipped one)."""
    (tmp_path / "a").mkdir(), (tmp_path / "b" / "deep").mkdir(parents=True)
    first, second = tmp_path / "a" / "extra.rules", tmp_path / "b" / "deep" / "extra.rules"
    first.write_text(CHEAP, encoding="utf-8")
    second.write_text("override option goal = 8 in 0..100\n", encoding="utf-8")
    layer_plugin.install([first, second, _cheap_file(tmp_path)])
    g = _studies_cheaply()
    assert _named(g.ruleset.sources)[-3:] == [
        ("plugin", "boardrules_cheap_study", "a/extra.rules"),
        ("plugin", "boardrules_cheap_study", "deep/extra.rules"),
        ("plugin", "boardrules_cheap_study", "cheap.rules")]
    before = g.ruleset.sources[-2].digest
    second.write_text("override option goal = 9 in 0..100\n", encoding="utf-8")
    _build.cache_clear()
    now = boardrules.build_ruleset("harvest").sources[-2].digest
    path = tmp_path / "game.json"
    path.write_text(g.save(), encoding="utf-8")
    assert replay_file(path).notes == (
        f"replayed with other rules than it was written with: the rule file 'deep/extra.rules' of "
        f"plugin 'boardrules_cheap_study' changed (digest {before} then, {now} now)",)


def test_a_plugin_that_no_longer_gives_its_file_and_a_new_one_are_named(layer_plugin, tmp_path):
    layer_plugin.install([_cheap_file(tmp_path)])
    text = _studies_cheaply().save()
    layer_plugin.remove()
    layer_plugin.install([])   # (installed, giving nothing now)
    other = tmp_path / "more.rules"
    other.write_text("override option goal = 8 in 0..100\n", encoding="utf-8")
    layer_plugin.install(other, "boardrules_more")   # (one path alone stands for itself)
    with pytest.raises(IllegalActionError) as err:
        boardrules.load_game(text)
    assert ("plugin 'boardrules_cheap_study' no longer gives the rule file 'cheap.rules'; plugin "
            "'boardrules_more' gives the rule file 'more.rules', which the record's rules did not have)") in str(err.value)


def test_a_final_state_that_differs_names_the_plugin(layer_plugin, tmp_path):
    path = _cheap_file(tmp_path, "override option rounds = 1 in 0..20\n")   # (the game ends a round early)
    layer_plugin.install([path])
    g = boardrules.new_game("harvest", players=2, seed=4)
    boardrules.bots.play_out(g)
    text = g.save()
    layer_plugin.remove()
    with pytest.raises(ReplayMismatch, match=r"the rules changed since it was written: plugin 'boardrules_cheap_study' "
                                             r"is not installed \(it gave the rule file 'cheap.rules'\)$"):
        boardrules.load_game(text)


def test_replay_notes_rules_that_changed_without_an_error(layer_plugin, tmp_path):
    layer_plugin.install([_cheap_file(tmp_path, "option unused = 1 in 0..2\n")])
    g = boardrules.new_game("harvest", players=2, seed=4)
    boardrules.bots.play_out(g)
    saved = tmp_path / "game.json"
    saved.write_text(g.save(), encoding="utf-8")
    layer_plugin.remove()
    report = replay_file(saved)
    assert report.ok and report.notes == (
        "replayed with other rules than it was written with: plugin 'boardrules_cheap_study' is not "
        "installed (it gave the rule file 'cheap.rules')",)
    layer_plugin.install([_cheap_file(tmp_path, "option unused = 1 in 0..2\n")])
    assert replay_file(saved).notes == ()


def test_a_record_without_sources_names_the_rulesets(layer_plugin, tmp_path):
    layer_plugin.install([_cheap_file(tmp_path)])
    g = _studies_cheaply()
    data = json.loads(g.save())
    del data["sources"]   # (saved before records kept them)
    layer_plugin.remove()
    with pytest.raises(IllegalActionError, match=rf"written: ruleset {g.ruleset.id} then, \w+ now\)$"):
        boardrules.load_game(json.dumps(data))


def test_a_move_the_rules_no_longer_read_names_the_change_too(layer_plugin, tmp_path):
    layer_plugin.install([_cheap_file(tmp_path, CHEAP.replace("action study main", "action study(n: int in 1..2) main"))])
    g = boardrules.new_game("harvest", players=2, seed=1)
    g.play("p2 study 1")
    text = g.save()
    layer_plugin.remove()
    with pytest.raises(NotationError, match=r"^move 2: .*takes 0 arguments, given 1 \(note: the rules changed since "
                                            r"this record was written: plugin 'boardrules_cheap_study' is not installed"):
        boardrules.load_game(text)


@pytest.mark.parametrize("value, said", [
    ([["game", "harvest", "harvest.rules", "0"]], "$.sources[0]: expected a mapping"),
    ([{"layer": "game", "name": 1, "file": "x", "digest": "0"}], "$.sources[0].name: expected a text, not 1"),
    ("harvest.rules", '$.sources: expected a list'),
])
def test_sources_of_the_wrong_shape_are_named(value, said):
    data = json.loads(boardrules.new_game("harvest", players=2).save())
    with pytest.raises(NotationError, match=f"malformed boardrules record: {said}".replace("[", r"\[").replace("$", r"\$")):
        boardrules.load_game(json.dumps({**data, "sources": value}))


def test_sources_are_counted_as_a_records_other_names(limits):
    data = json.loads(boardrules.new_game("harvest", players=2).save())
    limits(max_record_names=3)
    data["sources"] = [{"layer": "house", "name": "", "file": f"{i}.rules", "digest": "0"} for i in range(4)]
    with pytest.raises(NotationError, match=r"\$\.sources: 4 entries, more than the 3"):
        boardrules.load_game(json.dumps(data))


@pytest.mark.parametrize("given", [Path("x.rules").absolute().parent, 7, ["a.rules", 3]])
def test_a_rule_files_hook_returning_no_paths_names_its_plugin(layer_plugin, given):
    layer_plugin.install(given if not isinstance(given, Path) else iter([given]), "boardrules_odd")
    with pytest.raises(PluginError, match=r"boardrules_rule_files of plugin 'boardrules_odd' must return a list "
                                          r"of rule-file paths"):
        boardrules.build_ruleset("harvest")


def test_an_openspiel_state_of_other_rules_names_the_plugin(layer_plugin, tmp_path):
    pytest.importorskip("pyspiel", reason="the 'openspiel' extra is not installed (CI installs it)")
    from boardrules.adapters.openspiel import load, register
    layer_plugin.install([_cheap_file(tmp_path, "override option rounds = 1 in 0..20\n")])
    state = load(register("harvest", short_name="boardrules_harvest_cheap"), players=2, seed=4).new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    text = state.serialize()
    layer_plugin.remove()
    with pytest.raises(ReplayMismatch, match=r"final digest: the rules changed since: plugin 'boardrules_cheap_study' "
                                             r"is not installed \(it gave the rule file 'cheap.rules'\)$"):
        load(register("harvest", short_name="boardrules_harvest_plain"), players=2, seed=4).deserialize_state(text)


def test_a_rule_files_hook_wrapper_is_refused_naming_its_plugin(layer_plugin):
    mod = types.ModuleType("boardrules_wrapping")

    @plugins.hookimpl(wrapper=True)
    def boardrules_rule_files(game, modules):
        return (yield)
    mod.boardrules_rule_files = boardrules_rule_files
    plugins.manager().register(mod, "boardrules_wrapping")
    _build.cache_clear()
    try:
        with pytest.raises(PluginError, match=r"boardrules_rule_files of plugin 'boardrules_wrapping' is a hook wrapper"):
            boardrules.build_ruleset("harvest")
    finally:
        plugins.manager().unregister(mod)
        _build.cache_clear()
