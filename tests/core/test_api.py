"""The public API refuses arguments of the wrong type with our own message, accepts a
single text where a list of names is expected, and agrees with itself."""

from __future__ import annotations

from pathlib import Path

import pytest

import boardrules
from boardrules import CHANCE, Action, IllegalActionError, OptionError, PluginError

HARVEST = (Path(__file__).parent / "rules" / "harvest.rules").read_text()


@pytest.fixture
def game():
    return boardrules.new_game("harvest", players=3, seed=1)


def test_is_legal_agrees_with_legal_actions_for_text_and_actions(game):
    legal = game.legal_actions()
    for action in legal:
        text = game.format(action)
        assert game.is_legal(action) and game.is_legal(text) and text in legal
    for text in ("p1 study", "p3 fly", "p3 buy nothing", "garbage"):
        assert game.is_legal(text) is (text in game.legal_actions()) is False


@pytest.mark.parametrize("bad", [None, 123, ("p3", "study"), b"p3 study"])
def test_play_refuses_what_is_not_an_action(game, bad):
    state = game.state
    with pytest.raises(TypeError, match="an action is an Action or its text such as 'p1 study'"):
        game.play(bad)
    with pytest.raises(TypeError, match="an action is an Action or its text"):
        game.is_legal(bad)
    assert bad not in game.legal_actions() and game.state is state


@pytest.mark.parametrize("kwargs, message", [
    ({"player": "p1", "name": "study"}, "player must be a number counted from 0"),
    ({"player": True, "name": "study"}, "player must be a number counted from 0"),
    ({"player": 0, "name": 5}, "name must be the action's name as a text"),
    ({"player": 0, "name": "study", "args": 5}, "args must be a tuple of values"),
])
def test_actions_of_the_wrong_types_are_refused(kwargs, message):
    with pytest.raises(TypeError, match=message):
        Action(**kwargs)


def test_one_text_is_one_argument_not_its_letters():
    assert Action(2, "buy", "reap").args == ("reap",)
    assert Action(2, "buy", ["reap"]).args == ("reap",)
    game = boardrules.new_game("harvest", players=3, seed=1)
    game.play(Action(2, "buy", "reap"))
    assert game.record.actions[-1] == "p3 buy reap"


def test_a_single_module_or_rules_file_is_one_name(tmp_path):
    assert boardrules.new_game("harvest", players=2, modules="drought").ruleset.modules == \
        boardrules.new_game("harvest", players=2, modules=["drought"]).ruleset.modules
    with pytest.raises(PluginError, match="harvest has no module 'x'"):
        boardrules.new_game("harvest", players=2, modules="x")
    house = tmp_path / "house.rules"
    house.write_text("override resource coins { start 9; cap 12 }\n")
    game = boardrules.new_game("harvest", players=2, rules=str(house))
    assert game.get("coins", 0) == 9
    assert boardrules.new_game("harvest", players=2, rules=house).get("coins", 0) == 9


def test_unknown_options_are_named_briefly():
    """A record's or command line's unknown option names were echoed whole, however many and
    however long (a thousand-character name, a million names): ten at most, each cut at 40."""
    with pytest.raises(OptionError) as err:
        boardrules.new_game("harvest", players=2, options={"x" * 1000: 1})
    assert str(err.value) == "unknown option(s): '" + "x" * 37 + "...'; known: goal, rounds"
    with pytest.raises(OptionError) as err:
        boardrules.new_game("harvest", players=2, options={f"o{i}": 1 for i in range(51)})
    assert str(err.value).startswith("unknown option(s): 'o0', 'o1', 'o10', ")
    assert str(err.value).endswith(" and 41 more; known: goal, rounds")


def test_an_option_of_a_module_that_is_off_names_the_module():
    """An option given while the module declaring it is off was only 'unknown' (known: the
    game's own), as a player count a module allows names that module: now it names it."""
    with pytest.raises(OptionError) as err:
        boardrules.new_game("harvest", players=2, options={"market_coins": 2, "nosuch": 1})
    assert str(err.value) == ("unknown option(s): 'market_coins', 'nosuch'; known: goal, rounds; "
                              "module 'market-day' declares 'market_coins' (-m market-day)")
    assert boardrules.new_game("harvest", players=2, modules=["market-day"],
                               options={"market_coins": 2}).get("coins", 0) == 5


@pytest.mark.parametrize("kwargs, error, message", [
    ({"players": "2"}, TypeError, "players must be a whole number, not '2'"),
    ({"players": 2.0}, TypeError, "players must be a whole number"),
    ({"players": 2, "seed": None}, TypeError, "seed must be a whole number or a text, not None"),
    ({"players": 2, "seed": 1.5}, TypeError, "seed must be a whole number or a text, not 1.5"),
    ({"players": 2, "seed": True}, TypeError, "seed must be a whole number"),
    ({"players": 2, "options": "rounds=2"}, TypeError, "options must be a dict"),
    ({"players": 2, "modules": 5}, TypeError, "modules must be a name or a list of names"),
    ({"players": 2, "rules": [3]}, TypeError, "rules must be a name or a list of names"),
    ({"players": 2, "options": {"nosuch": 1}}, OptionError, "unknown option"),
    ({"players": 2, "options": {"rounds": "x"}}, OptionError, "option 'rounds' needs a whole number"),
])
def test_new_game_refuses_arguments_of_the_wrong_type(kwargs, error, message):
    with pytest.raises(error, match=message):
        boardrules.new_game("harvest", **kwargs)


def test_game_refuses_an_auto_chance_that_is_not_a_bool():
    """``auto_chance="no"`` (or 0) was taken for its truth: 'no' switched the game's chance on."""
    rs = boardrules.build_ruleset("harvest")
    for bad in ("no", 0, None):
        with pytest.raises(TypeError, match="auto_chance must be True or False, not "):
            boardrules.Game(rs, 2, auto_chance=bad)
        with pytest.raises(TypeError, match="auto_chance must be True or False, not "):
            boardrules.new_game("harvest", players=2, auto_chance=bad)
        with pytest.raises(TypeError, match="auto_chance must be True or False, not "):
            boardrules.load_game(boardrules.new_game("harvest", players=2).save(), auto_chance=bad)


def test_new_game_and_load_game_leave_chance_to_the_caller():
    """docs/eclipse.md said "start with auto_chance=False" beside new_game, the one obvious entry
    point, which refused the argument (TypeError: only Game took it); and a game saved with
    chance left to the caller loaded with the game's chance on. Both entry points take it now:
    setup's outcome is the caller's, and a loaded game goes on as the saved one did."""
    game = boardrules.new_game("harvest", players=2, seed=1, auto_chance=False)
    assert game.players_to_act() == frozenset({CHANCE}) and game.record.actions == []
    game.play("chance c sow")
    game.play(next(a for a in game.legal_actions() if a.player != CHANCE))
    again = boardrules.load_game(game.save(), auto_chance=False)
    assert again.state == game.state and not again.auto_chance
    assert boardrules.load_game(game.save()).auto_chance    # (the default, as before)


@pytest.mark.parametrize("texts", [{"tiny.rules": 5}, {"tiny.rules": b"resource coins { }"}, {3: "resource coins { }"}])
def test_texts_must_map_names_to_texts(texts):
    # a number or bytes as a rule text was an AttributeError from deep inside the parser
    with pytest.raises(TypeError, match="texts must map file names to rule texts"):
        boardrules.new_game(texts=texts, players=1)


@pytest.mark.parametrize("name", ["", "   "])
def test_a_rule_text_needs_a_file_name(name):
    """texts={"": ...} built a game titled "" whose errors read ':1:5: ...': an empty file name is
    refused; a named file titles a game that declares no title."""
    text = ("resource coins { }\naction work main { gain 1 coins }\n"
            "flow { rounds 1 { step play: turns seat once { main work } } }\n")
    with pytest.raises(ValueError, match="texts: a file name must not be empty"):
        boardrules.new_game(texts={name: text}, players=1)
    assert boardrules.new_game(texts={"tiny.rules": text}, players=1).ruleset.title == "tiny"


def test_option_errors_are_value_errors():
    with pytest.raises(ValueError):
        boardrules.new_game("harvest", players=2, options={"rounds": "x"})


def test_game_name_must_be_text():
    with pytest.raises(TypeError, match="game must be a game's name"):
        boardrules.new_game(5, players=2)


def test_an_argument_outside_its_domain_is_refused_in_the_rules_words():
    text = HARVEST.replace("action buy(c: card) main {",
                           'action buy(c: card where c in deck else "that card is not on offer") main {')
    game = boardrules.new_game(texts={"h.rules": text}, players=3, seed=1)
    with pytest.raises(IllegalActionError, match=r"that card is not on offer \(gold\) \[rule: buy"):
        game.play(Action(2, "buy", ("gold",)))


def test_legal_actions_index_and_show_the_first_few(game):
    legal = game.legal_actions()
    listed = list(legal)
    assert legal[0] == listed[0] and legal[-1] == listed[-1] and legal[1:3] == listed[1:3]
    with pytest.raises(IndexError):
        legal[len(listed)]
    with pytest.raises(TypeError, match="indexed by number"):
        legal["p3 study"]
    shown = repr(legal)
    assert shown.startswith(f"<LegalActions {len(listed)}: {game.format(listed[0])}, ")
    many = boardrules.new_game("gaia-project", players=2, seed=1).legal_actions()
    assert len(many) > 5 and repr(many).endswith(f", … {len(many) - 5} more>")


def test_the_package_is_marked_typed():
    from importlib import resources
    assert resources.files("boardrules").joinpath("py.typed").is_file()


def test_a_value_that_was_never_a_choice_is_not_blamed_on_an_unrelated_condition():
    """A condition written on a parameter that holds for the refused value (a precondition
    about something else) does not explain the refusal: the plain fact is given instead."""
    text = HARVEST.replace("action buy(c: card) main {",
                           'action buy(c: card where 1 > 0 else "the market is closed") main {')
    game = boardrules.new_game(texts={"h.rules": text}, players=3, seed=1)
    before = game.state
    with pytest.raises(IllegalActionError, match=r"nothing.* is not a possible c \(one of: sow, reap, market, tithe\) "
                                                       r"\[rule: buy"):
        game.play(Action(2, "buy", ("nothing",)))
    assert game.state == before


def test_main_action_done_follows_a_turn_with_free_actions(game):
    """Harvest's 'actions' step: main actions, then free 'sell' until 'done' (docs/api.md)."""
    while game.get("round") is None or not any(a.name == "harvest_now" for a in game.legal_actions()):
        game.play(game.legal_actions()[0])
    p = min(game.players_to_act())
    others = [q for q in range(game.players) if q != p]
    assert game.main_action_done(p) is False
    assert all(game.main_action_done(q) is None for q in others)
    game.play(next(a for a in game.legal_actions() if a.name == "study"))
    assert game.main_action_done(p) is True
    assert "done" in {a.name for a in game.legal_actions()}
    game.play(next(a for a in game.legal_actions() if a.name == "done"))
    assert game.main_action_done(p) is None
    for bad in ("p1", 1.5, game.players):
        with pytest.raises((TypeError, ValueError)):
            game.main_action_done(bad)


@pytest.mark.parametrize("backend", ["compiled", "interpreted"])
def test_a_value_of_no_entity_is_not_blamed_on_a_condition_it_cannot_be_tested_with(backend):
    """'p1 pass_round booster99' said "that booster is taken (booster99)": the condition
    ('owner(b) == none') fails to run for a text that is no booster, and that failure was taken
    for the condition failing. A value the condition cannot be tested with gets the plain fact."""
    text = HARVEST.replace("action buy(c: card) main {",
                           'action buy(c: card where owner(c) == none else "that card is taken") main {')
    game = boardrules.new_game(texts={"h.rules": text}, players=3, seed=1, backend=backend)
    before = game.state
    with pytest.raises(IllegalActionError, match=r"^p3 buy nothing: nothing is not a possible c \(one of: "
                                                 r"sow, reap, market, tithe\) \[rule: buy"):
        game.play(Action(2, "buy", ("nothing",)))
    assert game.state == before


def test_a_value_that_was_never_a_choice_is_told_the_choices():
    """'gaiaa is not a possible t' left the player guessing: a refused value outside a
    parameter's domain names the choices (a range by its ends, up to 12 values; not players,
    written pN, nor a long list such as Gaia's hexes)."""
    game = boardrules.new_game("harvest", players=2, seed=1)
    game.play("p2 buy reap")
    game.play("p1 study")
    before = game.state
    for text, said in [("p1 sell 5", "5 is not a possible n (one of: 1, 2, 3)"),
                       ("p1 buy xyz", "xyz is not a possible c (one of: sow, reap, market, tithe)"),
                       ("p1 build_farm zz", "zz is not a possible h (one of: a1, a2, a3, b1, b2, b3)")]:
        with pytest.raises(IllegalActionError) as err:
            game.play(text)
        assert f"{text}: {said} [rule: " in str(err.value)
        assert game.state == before
    gaia = boardrules.new_game("gaia-project", players=2, seed=1)
    while "research" not in {a.name for a in gaia.legal_actions()}:
        gaia.play(gaia.legal_actions()[0])
    with pytest.raises(IllegalActionError, match=r"gaiaa is not a possible t \(one of: terraforming, "
                                                 r"navigation, intelligence, gaia, economy, science\) "):
        gaia.play("p1 research gaiaa")
    with pytest.raises(IllegalActionError, match=r": 99Z9 is not a possible h \[rule: build_mine"):
        gaia.play("p1 build_mine 99Z9")   # (the hexes in range: too many to list)
