"""Mistakes a new user made, each answered with a clear error (found by trying it as one)."""

from __future__ import annotations

import re

import pytest

import boardrules
import boardrules.bots
from boardrules import BoardrulesError, IllegalActionError, NotationError, RulesError
from boardrules.lang.parser import parse_text


def test_option_values_are_type_checked():
    with pytest.raises(BoardrulesError, match=r"option 'rounds' needs a whole number \(allowed from 0 to 20\), got 'abc'"):
        boardrules.new_game("harvest", players=2, options={"rounds": "abc"})


def test_zero_rounds_play_no_round():
    game = boardrules.new_game("harvest", players=2, seed=1, options={"rounds": 0})
    boardrules.bots.play_out(game)
    assert game.state.values.get(("f", "round")) is None  # straight from setup to the finish
    assert not any(a.split()[1] in ("harvest_now", "build_farm") for a in game.record.actions)


def test_undo_at_the_start_is_refused_and_changes_nothing():
    game = boardrules.new_game("harvest", players=3, seed=7)
    before = game.state
    with pytest.raises(IllegalActionError, match="nothing to undo"):
        game.undo()
    assert game.state is before and game.record.actions[0].startswith("chance ")


def test_get_errors_are_boardrules_errors():
    game = boardrules.new_game("harvest", players=2, seed=1)
    with pytest.raises(BoardrulesError, match="'coins' is kept per player: pass player="):
        game.get("coins")
    with pytest.raises(BoardrulesError, match="unknown name 'nosuch'"):
        game.get("nosuch", 0)
    with pytest.raises(BoardrulesError, match="kept per hex: pass index="):
        game.get("field_owner")
    assert game.get("field_owner", index="a1") is None


def test_bad_players_are_named():
    game = boardrules.new_game("harvest", players=3, seed=2)
    with pytest.raises(IllegalActionError, match="there is no player p6 in a 3-player game"):
        game.play(boardrules.Action(5, "study"))
    with pytest.raises(ValueError, match="no player 5"):
        game.view(5)
    with pytest.raises(ValueError, match="no player 5"):
        game.legal_actions(5)
    with pytest.raises(IllegalActionError, match="it is p3's turn, not chance's"):
        game.play(boardrules.Action(boardrules.CHANCE, "c", ("sow",)))


def test_checker_checks_defaults_and_assignments():
    text = ('var n: int = "x"\nvar h: list[hex] = [1, 2]\nresource coins { start 8; cap 6 }\n'
            'action a main { set n = "y" }\n')
    with pytest.raises(RulesError) as err:
        boardrules.build_ruleset(texts={"t.rules": text})
    messages = [d.message for d in err.value.diagnostics]
    assert messages == ["'n' is a number, but its default is a text",
                        "'h' is a list of hexes, but this element is a number",
                        "'h' is a list of hexes, but this element is a number",
                        "coins starts at 8, above its cap 6",
                        "'n' is a number, but this value is a text"]


def test_byte_order_mark_is_accepted():
    assert parse_text("\ufeffresource coins { start 1 }\n", "bom.rules").items


def test_long_lines_are_clipped_in_diagnostics():
    with pytest.raises(RulesError) as err:
        parse_text("resource coins { start 1 }\n" + "x " * 20_000 + "@\n", "long.rules")
    shown = err.value.diagnostics[0].format().splitlines()[1]
    assert len(shown) < 200 and shown.endswith("…")


def test_malformed_records():
    with pytest.raises(NotationError, match=r"\$\.players"):
        boardrules.Record.loads('{"format": "boardrules-record/1", "game": "harvest", "modules": [],'
                                ' "options": {}, "players": "three", "seed": 1, "actions": []}')
    with pytest.raises(NotationError, match="cannot start a game"):
        boardrules.load_game('{"format": "boardrules-record/1", "game": "harvest", "modules": [],'
                             ' "options": {}, "players": 7, "seed": 1, "actions": []}')


def test_a_record_without_its_moves_is_refused():
    """A record whose "actions" key was lost replayed as a game of no moves (a missing
    "players" or "seed" was named): the moves are named missing too."""
    with pytest.raises(NotationError, match=r"\$\.actions: missing"):
        boardrules.Record.loads('{"format": "boardrules-record/1", "game": "harvest", "modules": [],'
                                ' "options": {}, "players": 2, "seed": 1}')
    assert boardrules.Record.loads('{"format": "boardrules-record/1", "game": "harvest", "modules": [],'
                                   ' "options": {}, "players": 2, "seed": 1, "actions": []}').actions == []


def test_a_record_of_other_rules_says_so(tmp_path):
    game = boardrules.new_game("harvest", players=2, seed=3)
    boardrules.bots.play_out(game)
    record = boardrules.Record.loads(game.save())
    record.ruleset = "0000000000000000"
    record.actions.insert(1, "p1 nonsense")
    with pytest.raises(IllegalActionError, match="the rules changed since this record was written"):
        boardrules.Game.from_record(record)


@pytest.mark.parametrize("players, shown", [
    ("0..0", "not one of 0"), ("-1..3", "not from -1 to 3"), ("5..2", "not an empty range"),
    ("0", "not 0"), ('"four"', "not 'four'"),
])
def test_a_players_range_that_allows_no_game_is_a_rules_error(players, shown):
    # it was ignored (1..9 instead, or 0..0 and then no player count at all was accepted)
    text = f"game tiny {{ players {players} }}\nresource coins {{ scored true }}\n"
    with pytest.raises(RulesError) as info:
        boardrules.build_ruleset(texts={"tiny.rules": text})
    (diagnostic,) = info.value.diagnostics
    assert (diagnostic.span.line, diagnostic.span.column) == (1, 21)
    assert diagnostic.message == f"'players' must be a player count or a range of counts, each at least 1, {shown}"


def test_one_player_count_means_exactly_that_many():
    # 'players 3' was read as 1..9
    rs = boardrules.build_ruleset(texts={"tiny.rules": "game tiny { players 3 }\nresource coins { scored true }\n"})
    assert rs.players == (3, 3)
    with pytest.raises(ValueError, match="^tiny is for 3 players, not 2"):
        boardrules.Game(rs, players=2)


def test_a_game_without_a_title_is_called_by_its_name():
    rs = boardrules.build_ruleset(texts={"tiny.rules": "game tiny { players 2..3 }\nresource coins { scored true }\n"})
    assert (rs.title, rs.players) == ("tiny", (2, 3))
    with pytest.raises(ValueError, match="^tiny is for 2–3 players, not 1"):
        boardrules.Game(rs, players=1)


@pytest.mark.parametrize("field, value, message", [
    ("seed", [1], r"\$\.seed: expected a whole number \(from -2\^63 to 2\^63-1\) or a text \(at most 200 characters, no lone surrogate\), not \[1\]"),   # was a TypeError (a traceback in 'replay')
    ("seed", True, r"\$\.seed: expected a whole number \(from -2\^63 to 2\^63-1\) or a text \(at most 200 characters, no lone surrogate\), not true"),
    ("modules", "drought", r"\$\.modules: expected a list of module names"),   # was read as its letters
    ("actions", {"p1 study": 1}, r"\$\.actions: expected a list of moves"),   # was read as its keys
    ("rules", "house.rules", r"\$\.rules: expected a list of \[file name, rule text\] pairs"),
])
def test_a_record_field_of_the_wrong_shape_is_a_notation_error(field, value, message):
    import json
    data = json.loads(boardrules.new_game("harvest", players=2, seed=1).save())
    data[field] = value
    with pytest.raises(NotationError, match="malformed boardrules record: .*" + message):
        boardrules.load_game(json.dumps(data))


# ---- values the rules computed are shown as the rules write them (fixes lane) -----------------
# ('none', '[1, 2]', 'true'; a Python 'None', '(1, 2)' or 'True' meant nothing to a rules author)

_NONE_RULES = """resource coins { scored true }
var n: int? = none
var l: list[int] = [1, 2]
%s
flow { rounds 1 { step s: turns seat once { main go } } }
"""


@pytest.mark.parametrize("backend", ["interpreted", "compiled"])
@pytest.mark.parametrize("body, message", [
    ("gain n + 1 coins", "'+' needs numbers, got none"),
    ("let k = n; gain 1 coins to k", "no player here (got none; players are 0..1)"),
    ("for x in n { gain 1 coins }", "cannot iterate over none"),
    ("gain l[n] coins", "a list index must be a number, not none"),
])
def test_rule_values_in_messages_are_written_as_the_rules_write_them(backend, body, message):
    g = boardrules.new_game(texts={"t.rules": _NONE_RULES % f"action go main {{ {body} }}"},
                            players=2, backend=backend)
    with pytest.raises(IllegalActionError) as err:
        g.play("p1 go")
    assert message in str(err.value) and "None" not in str(err.value)


@pytest.mark.parametrize("value, shown", [(True, "got true"), ([1, (2,)], "got [1, [2]]"),
                                          ("x", "got 'x'")])
def test_an_option_of_the_wrong_kind_shows_its_value_as_the_rules_write_it(value, shown):
    with pytest.raises(boardrules.OptionError, match=rf"option 'goal' .*needs a whole number \(allowed from 0 to 100\), {re.escape(shown)}"):
        boardrules.new_game("harvest", players=2, options={"goal": value})


RANKED = ("game t {{ players 1..2; {} }}\nresource c {{ scored true }}\naction a main {{ gain 1 c }}\n"
          "flow {{ rounds 1 {{ step s: turns seat once {{ main a }} }} }}\n")


@pytest.mark.parametrize("entry, what, column", [("final_score c // 0", "final_score", 36),
                                                 ("tiebreak 1 // (c - c)", "tiebreak", 33)])
def test_a_ranking_expression_that_breaks_a_rule_is_named(entry, what, column):
    # (the engine's internal RuleViolation came out of ranking() and final_scores())
    game = boardrules.new_game(texts={"t.rules": RANKED.format(entry)}, players=2)
    game.play("p1 a")
    game.play("p2 a")
    message = (f"the game cannot be ranked: its {what} for p1 breaks a rule: division by zero in '//' "
               f"[rule: {what} (t.rules:1:{column})]")
    for ask in (game.ranking, *([game.final_scores] if what == "final_score" else [])):
        with pytest.raises(IllegalActionError) as err:
            ask()
        assert str(err.value) == message


@pytest.mark.parametrize("rng", [None, 7, object()])
def test_sampling_with_something_other_than_a_random_generator_is_a_type_error(rng):
    # (an AttributeError: "'int' object has no attribute 'randrange'")
    game = boardrules.new_game("harvest", players=2, seed=1)
    with pytest.raises(TypeError, match="sample needs a random.Random, such as random.Random"):
        game.legal_actions().sample(rng)


def test_a_house_rule_file_given_twice_is_refused_as_such(tmp_path, monkeypatch):
    """'--rules h.rules --rules h.rules' said "resource 'gems' is already defined at
    h.rules:2:1" of every definition, at itself, hinting to override it."""
    import boardrules

    house = tmp_path / "h.rules"
    house.write_text("override option goal = 2 in 0..100\nresource gems { start 1 }\n")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(boardrules.PluginError, match=r"^the rule file h.rules is given twice: give it once$"):
        boardrules.build_ruleset("harvest", rules=["h.rules", "h.rules"])
    with pytest.raises(boardrules.PluginError, match=f"^the rule file {re.escape(str(house))} is given "
                                                     r"twice \(as h.rules too\): give it once$"):
        boardrules.build_ruleset("harvest", rules=["h.rules", house])
    assert boardrules.build_ruleset("harvest", rules=["h.rules"]).recipe.rules[0][0] == "h.rules"


def house_errors(path, game: str, text: str) -> list[tuple[str, str | None]]:
    """(message, hint) of each error the house rules ``text`` (written to ``path``) give ``game``."""
    path.write_text(text, encoding="utf-8")
    with pytest.raises(boardrules.RulesError) as err:
        boardrules.build_ruleset(game, rules=[path])
    return [(d.message, d.hint) for d in err.value.diagnostics]


def test_a_house_rule_changing_what_a_module_off_defines_names_the_module(tmp_path):
    """A house rule overriding market-day's option without the module said only "nothing to
    override: no option named 'market_coins'"; the hint names the module that defines it (and
    no module, for a name none defines: the hint is then the one it had)."""
    house = tmp_path / "house.rules"
    assert house_errors(house, "harvest", 'override option market_coins = 3 "more"\nremove step guild_dues\n'
                        'override resource coinz { }\n') == [
        ("nothing to override: no option named 'market_coins'",
         "the module 'market-day' defines it: switch it on (-m market-day)"),
        ("nothing to remove: no step named 'guild_dues'",
         "the module 'guilds' defines it: switch it on (-m guilds)"),
        ("nothing to override: no resource named 'coinz'", "did you mean 'coins'?")]
    house.write_text('override option market_coins = 3 "more"\n', encoding="utf-8")
    assert boardrules.new_game("harvest", players=2, rules=[house], modules=["market-day"]).get("market_coins") == 3


def test_a_house_rule_using_what_a_module_off_defines_names_the_module(tmp_path):
    """Using (not only changing) what a switched-off module defines: a development of Eclipse's
    developments said "unknown declaration kind 'development'", hint "declare it first with
    'kind NAME { ... }'"; its variable "did you mean 'sector_at'?". Each now names the module;
    a name no module defines keeps its own hint."""
    house = tmp_path / "house.rules"
    assert house_errors(house, "harvest", "action tip main { gain market_coins coins }\n"
                        "extend step actions { main tip }\naction tap main { gain coinz coins }\n") == [
        ("unknown name 'market_coins'", "the module 'market-day' defines it: switch it on (-m market-day)"),
        ("unknown name 'coinz'", "did you mean 'coins'?")]
    switch = "the module 'developments' defines it: switch it on (-m developments)"
    assert house_errors(house, "eclipse", 'development dev_yard { money 4; bought { gain 2 vp } }\n'
                        'var yards: list[development] = [dev_research_station]\n'
                        'action x main { set shellworld_at["0,0"] = true; call place_tile("shellworld") }\n') == [
        ("unknown declaration kind 'development'", switch),
        ("unknown type 'development'", switch),
        ("unknown name 'dev_research_station'", switch),
        ("'shellworld_at' is not a variable", switch),
        ("unknown procedure 'place_tile'", switch)]
    assert boardrules.build_ruleset("eclipse", rules=[house], modules=["developments"]).entities["dev_yard"]
