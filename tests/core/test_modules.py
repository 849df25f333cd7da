"""Modules that compose: metadata and resolution, named flow steps, slots several modules
extend, the engine's events, primitives a module adds, wraps or replaces, records.

Harvest's bundled modules (``plugins/boardrules_demo/modules/``) are the examples; the
cases they cannot show (a default module, two modules at one step, two replacing one
primitive) come from small plugins registered for one test.
"""

from __future__ import annotations

import json
from pathlib import Path

import attrs
import pytest
from typer.testing import CliRunner

import boardrules
from boardrules import ModuleSpec, PluginError, RulesError, hookimpl, plugins, primitive
from boardrules.cli import app
from boardrules.ruleset import _build


def steps(rs) -> list[str]:
    return [s.name for st in rs.stages for s in st.steps]


@pytest.fixture
def extra_modules(tmp_path):
    """register(name, *specs, files={name: text}): a plugin offering Harvest modules,
    unregistered (and the ruleset cache cleared) after the test."""
    pm = plugins.manager()
    added = []

    def register(plugin_name, *specs, files=None):
        for fname, text in (files or {}).items():
            (tmp_path / fname).write_text(text, encoding="utf-8")

        class Plugin:
            @hookimpl
            def boardrules_modules(self):
                return [attrs_evolve_files(s, tmp_path) for s in specs]

        obj = Plugin()
        pm.register(obj, plugin_name)
        added.append(obj)
        _build.cache_clear()

    yield register
    for obj in added:
        pm.unregister(obj)
    _build.cache_clear()


def attrs_evolve_files(spec: ModuleSpec, folder: Path) -> ModuleSpec:
    import attrs
    return attrs.evolve(spec, rule_files=tuple(folder / f for f in spec.rule_files))


# ---- metadata and resolution --------------------------------------------------------------

def test_resolution_adds_requirements_in_load_order():
    rs = boardrules.build_ruleset("harvest", modules=["guilds", "drought"])
    # a module after what it requires, otherwise by id
    assert rs.modules == ("weather", "drought", "market-day", "guilds")
    assert boardrules.build_ruleset("harvest").modules == ()


INSTALL = ("another package's module must be installed first, e.g. with pip; 'boardrules plugins' "
           "lists the installed ones")


@pytest.mark.parametrize("mods,message", [
    (["drought", "monsoon"], "modules 'drought' and 'monsoon' conflict: enable only one of them"),
    (["hail"], "harvest has no module 'hail' (available: drought, guilds, market-day, monsoon, "
               "weather; " + INSTALL + ")"),
    # (the one meant, and how another package's module comes: it said neither)
    (["markt-day"], "harvest has no module 'markt-day' (available: drought, guilds, market-day, "
                    "monsoon, weather; did you mean 'market-day'? " + INSTALL + ")"),
    (["drought", "-weather"], "module 'drought' requires 'weather', which is switched off"),
    (["weather", "-weather"], "module 'weather' is both switched on and off"),
    # ('-ID' of a module off by default changed nothing without a word)
    (["-weather"], "module 'weather' is off by default, so '-weather' changes nothing (harvest's "
                   "default modules: none)"),
    (["-hail", "monsoon", "drought"], "harvest has no module 'hail' (available: drought, guilds, "
     "market-day, monsoon, weather; " + INSTALL + "); modules 'drought' and 'monsoon' conflict: "
     "enable only one of them"),
])
def test_resolution_refuses_with_one_clear_message(mods, message):
    with pytest.raises(PluginError) as err:
        boardrules.new_game("harvest", players=3, modules=mods)
    assert str(err.value) == message


def test_module_player_counts():
    boardrules.new_game("harvest", players=3, modules=["monsoon"])
    with pytest.raises(PluginError, match="module 'monsoon' is for 3–4 players, not 2; "
                                          "play without it$"):
        boardrules.new_game("harvest", players=2, modules=["monsoon"])


def test_a_default_module_refusing_the_player_count_says_how_to_switch_it_off(monkeypatch):
    """'-ID' is the way out only for a module on by default (trial: '-m alliances' with 3
    players was told to switch it off with '-alliances')."""
    from boardrules import plugins
    monsoon = plugins.modules("harvest")["monsoon"]
    monkeypatch.setattr(plugins, "modules", lambda game: {"monsoon": attrs.evolve(monsoon, default=True)})
    with pytest.raises(PluginError, match="module 'monsoon' is for 3–4 players, not 2; "
                                          "switch it off with '-monsoon'$"):
        plugins.check_players("harvest", ["monsoon"], 2)


def test_modules_belong_to_games():
    with pytest.raises(PluginError, match="modules belong to a game"):
        boardrules.build_ruleset(texts={"a.rules": "resource vp { scored true }"}, modules=["x"])


def test_a_default_module_is_on_unless_switched_off(extra_modules):
    extra_modules("test_festival", ModuleSpec(
        "festival", "harvest", ("festival.rules",), "a coin before income", default=True,
        title="Festival"), files={"festival.rules":
                                  "step festival before income: do { for p in players "
                                  "{ gain 1 coins to p } }\n"})
    on = boardrules.new_game("harvest", players=2, seed=3)
    assert on.ruleset.modules == ("festival",) and "festival" in steps(on.ruleset)
    off = boardrules.new_game("harvest", players=2, seed=3, modules=["-festival"])
    assert off.ruleset.modules == () and "festival" not in steps(off.ruleset)
    assert on.ruleset.id != off.ruleset.id
    # a record stores the modules in force: the one without the default module stays without
    again = boardrules.load_game(off.save())
    assert again.ruleset.modules == () and again.state == off.state
    assert json.loads(on.save())["modules"] == ["festival"]
    result = CliRunner().invoke(app, ["plugins"])
    assert ("harvest festival: Festival: a coin before income (on by default; players any)"
            in result.output)


def test_plugins_command_shows_every_module():
    result = CliRunner().invoke(app, ["plugins"])
    assert result.exit_code == 0
    assert ("harvest monsoon: Monsoon: 2 grain of rain a round; farms cost a coin more (off by "
            "default; players 3-4; requires weather; conflicts with drought)") in result.output
    assert ("harvest market-day: Market day: coins for everyone after income; coins score at "
            "the end (off by default; players any; options market_coins)") in result.output


def test_play_with_modules_from_the_command_line(tmp_path):
    runner = CliRunner()
    result = runner.invoke(app, ["play", "harvest", "--players", "3", "--quiet", "-m", "guilds",
                                 "-m", "monsoon", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    record = json.loads(next(tmp_path.glob("*.json")).read_text())
    assert record["modules"] == ["market-day", "guilds", "weather", "monsoon"]
    assert runner.invoke(app, ["replay", str(next(tmp_path.glob("*.json")))]).exit_code == 0
    result = runner.invoke(app, ["play", "harvest", "--players", "3", "--quiet", "-m", "drought",
                                 "-m", "-weather", "--out", str(tmp_path)])
    assert result.exit_code == 1
    assert "module 'drought' requires 'weather', which is switched off" in result.output


def test_records_store_modules_and_the_ruleset_id_covers_them():
    plain = boardrules.new_game("harvest", players=3, seed=4)
    withm = boardrules.new_game("harvest", players=3, seed=4, modules=["market-day"])
    assert plain.ruleset.id != withm.ruleset.id
    saved = json.loads(withm.save())
    assert saved["modules"] == ["market-day"] and saved["ruleset"] == withm.ruleset.id
    assert boardrules.load_game(withm.save()).ruleset is withm.ruleset


# ---- named flow steps ---------------------------------------------------------------------

def test_steps_of_several_modules_at_one_point_compose_in_module_order(extra_modules):
    extra_modules("test_steps", ModuleSpec("aa-early", "harvest", ("aa.rules",)),
                  ModuleSpec("zz-late", "harvest", ("zz.rules",)), files={
                      "aa.rules": "step aa_before before income: do { set order = [] }\n"
                                  "step aa_after after income: do { set order = [] }\n",
                      "zz.rules": "step zz_before before income: do { set order = [] }\n"
                                  "step zz_after after income: do { set order = [] }\n"})
    rs = boardrules.build_ruleset("harvest", modules=["zz-late", "aa-early", "market-day"])
    assert rs.modules == ("aa-early", "market-day", "zz-late")
    assert steps(rs) == ["reveal", "pick", "aa_before", "zz_before", "income", "aa_after",
                         "market_day", "zz_after", "actions", "tidy", "final"]


def test_a_module_step_runs_where_it_was_put():
    g = boardrules.new_game("harvest", players=2, seed=1, modules=["market-day"],
                            options={"market_coins": 3})
    g.play("p2 buy sow")
    g.play("p1 study")              # setup over: income, then market day (+3 coins each)
    assert g.get("coins", 1) == 5 - 1 + 3 and g.get("coins", 0) == 5 - 3 + 2 + 3  # farming 1: +2
    assert [e.source for e in g.log if e.kind != "round"][-2:] == ["market_day", "market_day"]


@pytest.mark.parametrize("text, what", [
    ("var census: int = 0\n", "var 'census'"),
    ("step census after income: do { set order = [] }\n", "step 'census'"),
])
def test_two_modules_defining_one_name_are_named(extra_modules, tmp_path, text, what):
    """Two third parties' modules that each define a name of their own (a clash of names, not
    a change of the game) were told 'is already defined' with the hint to 'override' it,
    which would make one module change the other's."""
    extra_modules("test_census", ModuleSpec("census-a", "harvest", ("a.rules",)),
                  ModuleSpec("census-b", "harvest", ("b.rules",)), files={"a.rules": text, "b.rules": text})
    with pytest.raises(RulesError) as err:
        boardrules.build_ruleset("harvest", modules=["census-a", "census-b"])
    assert err.value.diagnostics[0].message == \
        f"modules 'census-a' and 'census-b' both define {what} (the other is at {tmp_path / 'a.rules'}:1:1)"
    assert err.value.diagnostics[0].hint == "enable only one of them, or rename it in one"


def test_two_modules_replacing_one_step_conflict(extra_modules):
    text = "override step tidy: do { set order = [] }\n"
    extra_modules("test_tidy", ModuleSpec("neat", "harvest", ("neat.rules",)),
                  ModuleSpec("tidy2", "harvest", ("tidy2.rules",)),
                  files={"neat.rules": text, "tidy2.rules": text})
    boardrules.build_ruleset("harvest", modules=["neat"])
    with pytest.raises(RulesError) as err:
        boardrules.build_ruleset("harvest", modules=["neat", "tidy2"])
    assert "modules 'neat' and 'tidy2' both change step 'tidy'" in str(err.value)


def test_a_step_put_next_to_a_step_a_later_module_adds_names_that_module(extra_modules, tmp_path):
    """(It said "no step named 'zz_step' to put 'aa_step' after" with a 'did you mean' for
    another step: the step exists, but its module is merged after this one.)"""
    extra_modules("test_order", ModuleSpec("aa-early", "harvest", ("aa.rules",)),
                  ModuleSpec("zz-late", "harvest", ("zz.rules",)), files={
                      "aa.rules": "step aa_step after zz_step: do { set order = [] }\n",
                      "zz.rules": "\nstep zz_step after income: do { set order = [] }\n"})
    with pytest.raises(RulesError) as err:
        boardrules.build_ruleset("harvest", modules=["aa-early", "zz-late"])
    (d,) = err.value.diagnostics
    assert (d.span.file, d.span.line, d.span.column) == (str(tmp_path / "aa.rules"), 1, 1)
    assert d.message == ("step 'zz_step' is not in the flow yet when 'aa_step' is put after it "
                         f"(module 'aa-early'): it is placed later, by module 'zz-late', at {tmp_path / 'zz.rules'}:2:1")
    assert d.hint == ("make module 'aa-early' require module 'zz-late' (a module is merged after those "
                      "it requires)")
    extra_modules("test_order2", attrs.evolve(ModuleSpec("ab-early", "harvest", ("aa.rules",)),
                                              requires=("zz-late",)))
    rs = boardrules.build_ruleset("harvest", modules=["ab-early"])   # (as the hint says)
    assert steps(rs)[steps(rs).index("income"):][:3] == ["income", "zz_step", "aa_step"]


def test_a_house_rule_step_next_to_one_placed_further_down_is_told_so(tmp_path):
    house = tmp_path / "house.rules"
    house.write_text("step tally after bonus: do { set order = [] }\n"
                     "step bonus after income: do { set order = [] }\n", encoding="utf-8")
    with pytest.raises(RulesError) as err:
        boardrules.build_ruleset("harvest", rules=[house])
    (d,) = err.value.diagnostics
    assert d.message == ("step 'bonus' is not in the flow yet when 'tally' is put after it "
                         f"(the house rules): it is placed later, further down this file, at {house}:2:1")
    assert d.hint == "write the step 'bonus' above this"


@pytest.mark.parametrize("change, what", [
    ("extend step bonus { main study }", "it is extended"),
    ("override step bonus: do { set order = [] }", "it is overridden"),
    ("remove step bonus", "it is removed"),
])
def test_a_step_changed_before_it_is_placed_is_told_so(tmp_path, change, what):
    house = tmp_path / "house.rules"
    house.write_text(f"{change}\nstep bonus after income: turns seat once {{ main study }}\n", encoding="utf-8")
    with pytest.raises(RulesError) as err:
        boardrules.build_ruleset("harvest", rules=[house])
    assert err.value.diagnostics[0].message == (
        f"step 'bonus' is not in the flow yet when {what} (the house rules): it is placed later, "
        f"further down this file, at {house}:2:1")


# A house rule's 'override flow' dropped a module's 'step market_day after income' without a word:
# the module's step changes are made to the new flow too, or refused there by name.
HOUSE_FLOW = """override flow {
  rounds rounds {
    step %s: do { for p in players { gain 1 coins to p } }
    step actions: turns seat until_pass { main study, pass_round }%s
  }
}
"""


def test_an_override_flow_keeps_the_steps_modules_put_in_the_flow(tmp_path):
    house = tmp_path / "house.rules"
    house.write_text(HOUSE_FLOW % ("income", ""), encoding="utf-8")
    rs = boardrules.build_ruleset("harvest", modules=["market-day"], rules=[house])
    assert steps(rs) == ["income", "market_day", "actions"]
    house.write_text(HOUSE_FLOW % ("income", "\n    step market_day: do { set order = [] }"), encoding="utf-8")
    rs = boardrules.build_ruleset("harvest", modules=["market-day"], rules=[house])
    assert steps(rs) == ["income", "actions", "market_day"]   # (its own market day, where it put it)


def test_an_override_flow_without_the_step_a_module_needs_is_refused_naming_both(tmp_path):
    house = tmp_path / "house.rules"
    house.write_text(HOUSE_FLOW % ("earn", ""), encoding="utf-8")
    with pytest.raises(RulesError) as err:
        boardrules.build_ruleset("harvest", modules=["market-day"], rules=[house])
    (d,) = err.value.diagnostics
    assert (d.span.file, d.span.line) == (str(house), 1)
    assert d.message.startswith("no step named 'income' to put 'market_day' after: this 'override "
                                "flow' replaces the flow module 'market-day' changed at ")
    assert d.message.endswith("market-day.rules:5:1, and those changes are made to it too")
    assert d.hint == "keep the steps it needs in this flow, or switch module 'market-day' off"
    boardrules.build_ruleset("harvest", rules=[house])   # (without the module: nothing to keep)


# ---- slots several modules extend ------------------------------------------------------------

def test_modules_add_to_a_slot_in_module_order(extra_modules):
    extra_modules("test_sow", ModuleSpec("sow-grain", "harvest", ("sg.rules",)), files={
        "sg.rules": "extend card sow { extend income { gain 2 grain } }\n"})
    g = boardrules.new_game("harvest", players=2, seed=1, modules=["guilds", "sow-grain"])
    g.play("p2 buy sow")
    g.play("p1 study")
    # sow's own income (1 grain), guilds' (+1 coin) and sow-grain's (+2 grain); market day +1 coin
    assert (g.get("grain", 1), g.get("coins", 1)) == (3, 5 - 1 + 1 + 1)
    body = g.ruleset.entities["sow"].slots["income"]
    assert [type(s).__name__ for s in body.stmts] == ["Gain", "Gain", "Gain"]


def test_a_slot_extension_of_an_entity_without_the_slot_starts_from_the_kind_default():
    rs = boardrules.build_ruleset(texts={"g.rules": (
        "resource vp { scored true }\nkind card { slot income { gain 1 vp } }\ncard a { }\n"
        "extend card a { extend income { gain 2 vp } }\n")})
    assert len(rs.entities["a"].slots["income"].stmts) == 2


# ---- events ---------------------------------------------------------------------------------

def test_engine_events_action_taken_round_and_step():
    g = boardrules.new_game("harvest", players=2, seed=1, modules=["guilds"])
    g.play("p2 buy sow")
    g.play("p1 study")
    assert g.get("coins", 0) == 5 - 3 + 2 + 1 + 1  # farming 1, study refund, market day
    rs = boardrules.build_ruleset(texts={"e.rules": (
        "resource vp { scored true }\nvar seen: list[text] = []\n"
        "when step_begins(s) { set seen = seen + [\"begin\", s] }\n"
        "when step_ends(s) { set seen = seen + [\"end\", s] }\n"
        "when round_begins(n) { set seen = seen + [\"round\"] }\n"
        "when round_ends(n) { gain n vp to 0 }\n"
        "action go main { gain 1 vp }\n"
        "flow { rounds 2 { step a: do { set seen = seen }\n step b: turns seat once { main go } } }\n")})
    g = boardrules.Game(rs, 1)
    assert g.get("seen") == ("round", "begin", "a", "end", "a", "begin", "b")
    g.play("p1 go")
    g.play("p1 go")
    assert g.over and g.get("vp", 0) == 2 + 1 + 2
    assert g.get("seen") == ("round", "begin", "a", "end", "a", "begin", "b", "end", "b") * 2


def test_advanced_event():
    rs = boardrules.build_ruleset(texts={"e.rules": (
        "resource vp { scored true }\ntrack skill { levels 0..3; at 2 { gain 10 vp } }\n"
        "when advanced(p, t, lv) if t == \"skill\" { gain lv vp to p }\n"
        "action learn main { advance skill by 2 }\n"
        "flow { rounds 1 { step b: turns seat once { main learn } } }\n")})
    g = boardrules.Game(rs, 2)
    g.play("p1 learn")
    # each level reached raises the event, after the track's own reward
    assert g.get("vp", 0) == 1 + 10 + 2
    assert g.scores()[0]["sources"] == {"skill 2": 10, "when advanced": 3}


def test_a_built_in_event_cannot_be_declared():
    with pytest.raises(RulesError, match="event 'round_ends' is built in"):
        boardrules.build_ruleset(texts={"e.rules": "event round_ends(n: int)\n"})


# ---- primitives -----------------------------------------------------------------------------

def rain(**modules) -> list[int]:
    g = boardrules.new_game("harvest", players=3, seed=1, **modules)
    fn = g.ruleset.primitives["rainfall"].fn
    return [fn(None, n) for n in range(1, 7)]


def test_a_module_adds_wraps_or_replaces_a_primitive():
    assert rain(modules=["weather"]) == [1, 2, 0, 1, 2, 0]
    assert rain(modules=["drought"]) == [0, 1, 0, 0, 1, 0]
    assert rain(modules=["monsoon"]) == [2] * 6
    assert "rainfall" not in boardrules.build_ruleset("harvest").primitives


def _rain_module(name, prim, **kw):
    return ModuleSpec(name, "harvest", (), requires=("weather",), primitives=(prim,), **kw)


def test_two_modules_replacing_one_primitive_conflict(extra_modules):
    @primitive("rainfall", n="int", returns="int", replaces=True)
    def dry(ctx, n):
        return 0
    extra_modules("test_dry", _rain_module("desert", dry))
    assert rain(modules=["desert"]) == [0] * 6
    with pytest.raises(PluginError, match="modules 'desert' and 'monsoon' both replace the "
                                          "primitive 'rainfall': enable only one of them"):
        boardrules.build_ruleset("harvest", modules=["desert", "monsoon"])


def test_wrappers_compose_and_signatures_must_match(extra_modules):
    @primitive("rainfall", n="int", returns="int", wraps=True)
    def double(ctx, inner, n):
        return 2 * inner(ctx, n)

    @primitive("rainfall", n="hex", returns="int", replaces=True)
    def bad(ctx, n):
        return 0

    @primitive("snowfall", n="int", returns="int", wraps=True)
    def nothing(ctx, inner, n):
        return 0
    extra_modules("test_wrap", _rain_module("zz-double", double), _rain_module("bad-sig", bad),
                  _rain_module("no-snow", nothing))
    # drought's wrapper is inside (it comes first), the double outside
    assert rain(modules=["drought", "zz-double"]) == [0, 2, 0, 0, 2, 0]
    with pytest.raises(PluginError, match=r"another signature: rainfall\(n: hex\) -> int "
                                          r"instead of rainfall\(n: int\) -> int"):
        boardrules.build_ruleset("harvest", modules=["bad-sig"])
    with pytest.raises(PluginError, match="would wrap the primitive 'snowfall', which harvest "
                                          "does not have"):
        boardrules.build_ruleset("harvest", modules=["no-snow"])


def test_a_record_whose_house_rules_declare_an_option_loads(tmp_path):
    house = tmp_path / "bonus.rules"
    house.write_text('option bonus = 1 "a house option"\n', encoding="utf-8")
    g = boardrules.new_game("harvest", players=2, seed=1, rules=[house], options={"bonus": 2})
    again = boardrules.load_game(g.save())
    assert again.ruleset.option("bonus") == 2 and again.ruleset is g.ruleset


def test_a_wrapper_is_pure_only_around_a_pure_primitive(extra_modules):
    # (primitives.py, 'pure': the engine may leave calls of a pure primitive unevaluated)
    @primitive("rainfall", n="int", returns="int", wraps=True, pure=True)
    def same(ctx, inner, n):
        return inner(ctx, n)
    extra_modules("test_pure_wrap", _rain_module("pure-wrap", same))
    prims = boardrules.build_ruleset("harvest", modules=["pure-wrap"]).primitives
    assert prims["rainfall"].pure is False   # the weather module's rainfall is not declared pure
    with pytest.raises(ValueError, match="a pure primitive writes nothing"):
        primitive("flood", effect=True, pure=True)


def test_a_game_not_installed_gets_the_one_meant_and_how_to_install():
    with pytest.raises(PluginError) as err:
        boardrules.new_game("harvst", players=2)
    assert str(err.value) == ("no game named 'harvst'; installed: eclipse, gaia-project, harvest (did "
                              "you mean 'harvest'? another package's game must be installed first, e.g. "
                              "with pip; 'boardrules plugins' lists the installed ones)")


@pytest.mark.parametrize("game, names, said", [
    ("eclipse", ["rare-technologies", "rare-technologies"], "module 'rare-technologies' is named twice"),
    ("gaia-project", ["-factions", "random-factions", "-factions"], "module 'factions' is switched off twice"),
    ("harvest", ("market-day", "market-day"), "module 'market-day' is named twice"),
])
def test_a_module_named_twice_is_refused_naming_it(game, names, said):
    """``-m x -m x`` (or a list holding a module twice) was taken as x once, without a word."""
    with pytest.raises(PluginError, match=said + ": name each module once"):
        boardrules.new_game(game, players=2, modules=names)
    with pytest.raises(PluginError, match=said):
        boardrules.build_ruleset(game, modules=names)


def test_a_record_naming_a_module_twice_is_refused_naming_it():
    game = boardrules.new_game("harvest", players=2, modules=["market-day"])
    data = json.loads(game.save())
    assert data["modules"] == ["market-day"]
    data["modules"] = ["market-day", "market-day"]
    with pytest.raises(PluginError, match="module 'market-day' is named twice"):
        boardrules.load_game(json.dumps(data))
