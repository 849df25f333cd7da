"""The base Gaia Project rules name no faction (issue 7): what a faction does differently is
in the faction's own entity (its fields and slots), so a faction can be removed or added
without editing the base files. The factions are the module ``factions``
(``plugins/boardrules_gaia_factions``)."""

from __future__ import annotations

import random
import re

import pytest

import boardrules
import boardrules_gaia
from boardrules.errors import IllegalActionError
from tests.combinations import play_example, refusal
from tests.test_third_party import weavers  # noqa: F401  (the Weavers registered, a fixture)


def _code(path):
    """The rule file's lines without comments (a '#' outside a string starts one)."""
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        yield n, re.sub(r'#.*', "", re.sub(r'"[^"]*"', '""', line))


def test_no_faction_name_in_the_base_rule_files():
    g = boardrules.new_game(boardrules_gaia.GAME, players=2, seed=1)
    assert "factions" in g.ruleset.modules              # on by default
    names = sorted(g.ruleset.by_kind["faction"])
    assert len(names) == 14
    word = re.compile(r"\b(" + "|".join(names) + r")\b")
    rules = boardrules_gaia.rule_files_dir(boardrules_gaia.__file__)
    found = [f"{f}:{n}: {line.strip()}" for f in boardrules_gaia.RULE_FILES
             for n, line in _code(rules / f) if word.search(line)]
    assert not found, "faction names in the base rule files:\n" + "\n".join(found)


def test_without_a_faction_module_the_game_says_so():
    with pytest.raises(boardrules.PluginError, match="needs factions.*'factions'"):
        boardrules.new_game(boardrules_gaia.GAME, players=2, seed=1, modules=["-factions"])


# What the faction boards of the base declare: numbers every board has (resources, bowls,
# incomes, costs, the home planet, setup mines), no ability of one faction (issue 7).
GENERIC_FIELDS = {
    "title", "home", "credits", "ore", "knowledge", "qic", "bowl1", "bowl2", "base_c", "base_o", "base_k",
    "base_q", "base_t", "pi_pw", "pi_t", "pi_q", "pi_o", "ac1_k", "ac2_q", "ac2_c", "gaia_qic",
    "gaia_ore", "gaia_mine_vp", "start_mines", "ts_c", "ts_k", "lab_c", "lab_k"}

# The per-faction flags the base once read and the machinery of single factions, now in the
# module 'factions' (plugins/boardrules_gaia_factions): none may come back to the base.
FACTION_ONLY = (
    "shared_mines", "shared_pi_k", "qic_as_ore", "pi_home_pw", "one_federation", "satellite_qic",
    "station_action", "third_mine", "pi_at_setup", "setup_mines", "gaia_bowl2", "lab_pw",
    "locked_track", "upgrade_path", "from_swap", "shared_mine_at", "lant_at", "shared_pval",
    "ivits_station", "ivits_pi", "place_pi", "pi_order", "station_power", "station_limit",
    r"brain\w*", "fed_gleens", "tg_left", "terrans_offer", "itars_offer", "taklons_leech",
    "bescods_research", "ambas_swap", "firaks_downgrade")


def _base_code():
    rules = boardrules_gaia.rule_files_dir(boardrules_gaia.__file__)
    for f in boardrules_gaia.RULE_FILES:
        for n, line in _code(rules / f):
            yield f, n, line


def test_the_base_rule_files_name_no_faction_machinery():
    word = re.compile(r"\b(" + "|".join(FACTION_ONLY) + r")\b")
    found = [f"{f}:{n}: {line.strip()}" for f, n, line in _base_code() if word.search(line)]
    assert not found, "faction machinery in the base rule files:\n" + "\n".join(found)


def test_the_base_faction_kind_declares_only_generic_fields():
    text = "\n".join(line for _, _, line in _base_code())
    kind = re.search(r"kind faction \{(.*?)\n\}", text, re.S).group(1)
    fields = set(re.findall(r"^\s*field (\w+)", kind, re.M))
    assert fields == GENERIC_FIELDS


def test_the_grep_sees_a_faction_flag():
    """The two checks above can fail: a faction flag read in a base rule is found."""
    word = re.compile(r"\b(" + "|".join(FACTION_ONLY) + r")\b")
    assert word.search("  if myfaction.qic_as_ore { gain 1 ore }")
    assert word.search("  if brain == \"area3\" { set brain = \"area1\" }")
    assert not word.search("  call offer_charge(h)")


def test_the_base_plays_with_a_third_party_faction_alone(weavers):
    """Without the module 'factions', the Weavers are the only faction: a whole random solo
    game plays with the invariants, undo and save -> load checked (tests/combinations.py)."""
    rnd = random.Random(7)
    g = play_example(boardrules_gaia.GAME, lambda n: rnd.randrange(n) if n > 1 else 0,
                     players=1, modules=("-factions",), seed=3, options={}, undo_every=25)
    assert g is not None and g.over and g.ruleset.modules == ("weavers",)
    assert g.get("myfaction", 0) == "weavers"


def test_one_faction_colour_for_two_players_is_refused_at_the_start(weavers):
    example = dict(players=2, modules=("-factions",), options={})
    assert refusal(boardrules_gaia.GAME, **example) == "fewer colours"
    with pytest.raises(IllegalActionError, match="offer fewer colours than there are players"):
        boardrules.new_game(boardrules_gaia.GAME, seed=1, **example)
    assert play_example(boardrules_gaia.GAME, lambda n: 0, seed=1, **example) is None


def test_an_unexpected_refusal_fails_the_combination_property(weavers, monkeypatch):
    """The property's refusal check can fail: a start refused where none is expected."""
    import tests.combinations as C
    monkeypatch.setattr(C, "refusal", lambda game, **kw: None)
    with pytest.raises(AssertionError, match="refused"):
        C.play_example(boardrules_gaia.GAME, lambda n: 0, players=2, modules=("-factions",),
                       seed=1, options={})


def _actions_step(rs):
    return next(s for st in rs.stages for s in st.steps if s.name == "actions")


def test_actions_modules_add_come_before_passing(weavers):
    """Passing is the closing main rule of the base's actions step: the factions' and the
    Weavers' actions come before it, in module order (factions, then weavers)."""
    g = boardrules.new_game(boardrules_gaia.GAME, players=2, seed=1)
    main = _actions_step(g.ruleset).main
    assert main[-2:] == ("pass_round", "pass_last")
    assert main.index("form_federation") < main.index("bescods_research") \
        < main.index("ivits_station") < main.index("weave_mine") < main.index("pass_round")


def test_without_a_closing_rule_added_actions_come_last():
    from boardrules.ruleset import build_ruleset
    texts = {"g.rules": "resource vp { scored true }\naction a main { gain 1 vp }\n"
             "action b main { pass }\naction c main { gain 2 vp }\n"
             "flow { rounds 1 { step act: turns seat until_pass { main a, b } } }\n",
             "m.rules": "extend step act { main c }\n"}
    rs = build_ruleset(texts=texts)
    assert next(s for st in rs.stages for s in st.steps).main == ("a", "b", "c")
    texts["g.rules"] = texts["g.rules"].replace("main a, b", "main a\n main b")
    rs = build_ruleset(texts=texts)
    assert next(s for st in rs.stages for s in st.steps).main == ("a", "c", "b")


@pytest.mark.parametrize("broken", ["guest", "station", "lock"])
def test_the_switch_invariant_sees_a_broken_state(broken):
    """tests/gaia/test_game.check_switches (run after every action of the random games) can fail."""
    from boardrules.state import State
    from tests.gaia.test_game import check_switches, start
    g = start(factions=("lantids", "baltaks"))
    check_switches(g)
    mine = g.get("my_hexes", 1)[0]
    values = dict(g.state.values)
    if broken == "guest":
        values[("v", "guest_at", mine)] = 1           # a guest mine on one's own planet
    elif broken == "station":
        values[("v", "stations", 0)] = [mine]         # a station on a planet
    else:
        values[("v", "built", 1, "pi")] = 1           # the Bal T'aks' lock outlives their PI
    g.state = State(values, g.state.pending)
    with pytest.raises(AssertionError):
        check_switches(g)
