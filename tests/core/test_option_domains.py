"""Option domains (`option NAME = DEFAULT in DOMAIN`): values outside are an OptionError naming
the option, the value and what is allowed, before the game starts (issue 13)."""
import pytest

from boardrules import OptionError, RulesError, build_ruleset, new_game

RULES = '''
game g { players 2..2 }
option rounds = 3 in 1..9 "rounds"
option speed = "normal" in ["slow", "normal", "fast"]
option picks = [1] in [1, 2, 3]
resource vp { scored true }
action pass_round main { pass }
flow { rounds rounds { step play: turns seat until_pass { main pass_round } } }
'''


def game(**options):
    return new_game(texts={"g.rules": RULES}, players=2, seed=1, options=options)


@pytest.mark.parametrize("options, fragment", [
    ({"rounds": 0}, "option 'rounds' may not be 0: allowed from 1 to 9"),
    ({"rounds": -1}, "option 'rounds' may not be -1: allowed from 1 to 9"),
    ({"rounds": 10}, "option 'rounds' may not be 10: allowed from 1 to 9"),
    ({"speed": "warp"}, "option 'speed' may not be 'warp': allowed one of 'slow', 'normal', 'fast'"),
    ({"picks": (1, 4)}, "option 'picks' may not be [1, 4]"),
])
def test_value_outside_the_domain_is_an_option_error(options, fragment):
    with pytest.raises(OptionError) as info:
        game(**options)
    assert fragment in str(info.value)


@pytest.mark.parametrize("options", [{"rounds": 1}, {"rounds": 9}, {"speed": "fast"},
                                     {"picks": (2, 3)}, {}])
def test_values_inside_the_domain_are_taken(options):
    g = game(**options)
    for name, value in options.items():
        assert g.ruleset.options[name].default == value


@pytest.mark.parametrize("decl, message", [
    ("option r = 30 in 1..9", "the default 30 of option 'r' is outside its domain (from 1 to 9)"),
    ('option r = 1 in "abc"', "the domain of option 'r' must be a non-empty list or range"),
    ("option r = 1 in []", "the domain of option 'r' must be a non-empty list or range"),
])
def test_bad_domain_declarations_are_rules_errors_with_a_position(decl, message):
    with pytest.raises(RulesError) as info:
        new_game(texts={"g.rules": RULES + decl + "\n"}, players=2, seed=1)
    text = str(info.value)
    assert message in text and "g.rules:" in text


@pytest.mark.parametrize("game_name, options, fragment", [
    ("eclipse", {"rounds": 0}, "option 'rounds' may not be 0"),
    ("eclipse", {"rounds": -1}, "option 'rounds' may not be -1"),
    ("harvest", {"rounds": -1}, "option 'rounds' may not be -1: allowed from 0 to 20"),
    ("harvest", {"goal": -3}, "option 'goal' may not be -3"),
])
def test_shipped_games_check_their_option_domains(game_name, options, fragment):
    with pytest.raises(OptionError, match=fragment):
        new_game(game_name, players=2, seed=1, options=options)


def test_gaia_auction_form_is_checked_up_front():
    with pytest.raises(OptionError, match="option 'auction_form' may not be 'sealed'"):
        new_game("gaia-project", players=2, seed=1, modules=["auction"],
                 options={"auction_form": "sealed"})


@pytest.mark.parametrize("layout, fragment", [
    ("garbage", "'garbage' is not SECTOR:ROTATION"),
    ("4:x", "'4:x' is not SECTOR:ROTATION"),
    ("1:0:3", "'1:0:3' is not SECTOR:ROTATION"),
    # (a superscript digit passed str.isdigit, then int() failed inside the map's deal: a PrimitiveError)
    ("1:\u00b2,2:0", "'1:\u00b2' is not SECTOR:ROTATION"),
    ("1:-1,2:0", "'1:-1' is not SECTOR:ROTATION"),
    ("99:1", "unknown sector '99'"),
    ("1:0", "no standard layout with 1 sectors"),
])
def test_gaia_fixed_map_refuses_malformed_text_clearly(layout, fragment):
    with pytest.raises(OptionError) as info:
        new_game("gaia-project", players=2, seed=1, options={"fixed_map": layout})
    text = str(info.value)
    assert text.startswith(f"option fixed_map may not be {layout!r}") and fragment in text
    assert "unpack" not in text and "int()" not in text


# ---- the place of an option's bad value (fixes lane) ----------------------------------------

def test_an_option_value_given_of_the_wrong_kind_names_where_the_option_is_declared():
    from boardrules import plugins

    with pytest.raises(OptionError) as err:
        new_game("harvest", players=2, options={"goal": "abc"})
    harvest = plugins.game_spec("harvest").rule_files[0]
    assert str(err.value) == (f"option 'goal' needs a whole number (allowed from 0 to 100), got 'abc' (the option is "
                              f"declared at {harvest}:4:1)")


@pytest.mark.parametrize("value, message", [
    (True, "option 'mode' needs a text (allowed one of 'calm', 'wild'), got true"),
    (3, "option 'mode' needs a text (allowed one of 'calm', 'wild'), got 3"),
    ("x", "option 'mode' may not be 'x': allowed one of 'calm', 'wild'"),
    ("big", "option 'size' needs a whole number (allowed one of 2, 4, 8), got 'big'"),
    (1, "option 'flag' needs true or false, got 1"),
])
def test_an_option_value_of_the_wrong_kind_lists_the_allowed_values(value, message):
    """(A wrong kind named the kind only, 'needs a whole number', though the option allows
    a few values: the player had to read the rules for them.)"""
    rules = ('game g { players 2..2 }\noption mode = "calm" in ["calm", "wild"]\n'
             'option size = 4 in [2, 4, 8]\noption flag = false\nresource vp { scored true }\n'
             'action a main { gain 1 vp }\nflow { rounds 1 { step s: turns seat once { main a } } }\n')
    name = message.split("'")[1]
    with pytest.raises(OptionError) as err:
        new_game(texts={"g.rules": rules}, players=2, options={name: value})
    assert str(err.value).startswith(message + " (the option is declared at g.rules:")


def test_a_domain_of_many_values_is_listed_in_brief():
    from boardrules.lang.checker import DOMAIN_SHOWN, describe_domain
    assert describe_domain(tuple(range(0, 200, 2))) == (
        "one of " + ", ".join(str(n) for n in range(0, 2 * DOMAIN_SHOWN, 2)) + ", ... (100 values)")
    assert describe_domain((1, 2, 3)) == "from 1 to 3"


def test_an_override_changing_an_options_kind_is_an_error_at_the_override(tmp_path):
    """The error was at a use of the option in the game's own file ('>=' compares numbers),
    never at the house rule that made it a text."""
    from boardrules import plugins

    house = tmp_path / "house.rules"
    house.write_text('override option goal = "abc"\n')
    with pytest.raises(RulesError) as err:
        new_game("harvest", players=2, rules=[house])
    # (the one error: the game's uses of the option are checked with its declared kind)
    [first] = err.value.diagnostics
    harvest = plugins.game_spec("harvest").rule_files[0]
    assert (str(first.span), first.message, first.hint) == (
        f"{house}:1:24", f"this override makes option 'goal' a text, but it is declared a whole "
                         f"number (at {harvest}:4:1), as the rules that use it expect",
        "give it a whole number, e.g. 'override option goal = 6'")
    house.write_text("override option goal = 9\n")   # the same kind: as before
    assert new_game("harvest", players=2, rules=[house]).players == 2


def test_diagnostics_come_file_by_file_in_the_order_the_files_load(tmp_path):
    """They were sorted by the files' names: which came first hung on where the game and the
    user's files lay on disk (a house rule in /tmp before a game under /work, after one under
    /check)."""
    house = tmp_path / "a.rules"
    house.write_text("resource }\n")
    with pytest.raises(RulesError) as err:
        build_ruleset(texts={"z.rules": "resource {\n"}, rules=[house])
    assert [d.span.file for d in err.value.diagnostics] == ["z.rules", str(house)]
