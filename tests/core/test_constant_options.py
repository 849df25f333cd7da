"""Constants the checker computes (option defaults, starts, variables' defaults, track levels)
take the values the rules would compute when the game runs: options may name options declared
later but not themselves, a division by zero and a number beyond the rules' range are errors
with a position, and a player's option value is held to that range too (new-user trial).

Before: ``option a = b`` above ``option b = 4`` made ``a`` none (a start of 0), a cycle of
options was accepted, ``5 // 0`` was 0 and ``option a = 999999999999999999 * 99`` was a
20-digit start.
"""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardrules import OptionError, RulesError, new_game
from boardrules.runtime import MAX_NUMBER

TAIL = '''
resource coins { start a; scored true }
action w main { gain 1 coins }
flow { rounds 1 { step s: turns seat once { main w } } }
'''


def build(options_text: str, **options):
    return new_game(texts={"g.rules": "game g { players 2..2 }\n" + options_text + TAIL},
                    players=2, seed=1, options=options)


def rules_error(options_text: str) -> str:
    with pytest.raises(RulesError) as info:
        build(options_text)
    return str(info.value)


def test_an_option_may_name_one_declared_after_it():
    g = build("option a = b + 1\noption b = 4\n")
    assert g.ruleset.options["a"].default == 5
    assert [g.get("coins", p) for p in (0, 1)] == [5, 5]


def test_an_option_named_by_another_takes_the_players_choice():
    g = build("option a = b\noption b = 4\n", b=9)
    assert g.ruleset.options["a"].default == 9


@pytest.mark.parametrize("text, message", [
    ("option a = b\noption b = a\n",
     "g.rules:3:12: option 'a' is defined by itself: a -> b -> a"),
    ("option a = a + 1\n", "g.rules:2:12: option 'a' is defined by itself: a -> a"),
    ("option a = 1 in 0..a\n", "g.rules:2:20: option 'a' is defined by itself: a -> a"),
    ("option a = c\noption b = a\noption c = b\n",
     "g.rules:3:12: option 'a' is defined by itself: a -> c -> b -> a"),
])
def test_an_option_defined_by_itself_is_one_error_at_the_name_closing_the_cycle(text, message):
    errors = rules_error(text)
    assert message in errors
    assert errors.count("g.rules:") == 1


@pytest.mark.parametrize("text, message", [
    ("option a = 5 // 0\n", "g.rules:2:12: division by zero in '//'"),
    ("option a = 5 % (2 - 2)\n", "g.rules:2:12: division by zero in '%'"),
    ("option a = 999999999999999999 * 10\n",
     "g.rules:2:12: a number of 19 digits is too large for the rules (they use numbers up to "
     "9223372036854775807)"),
    ("option a = 999999999999999999 * 999999999999999999 * 999999999999999999\n",
     "g.rules:2:12: a number of 36 digits is too large"),
    ("option a = -999999999999999999 * 10\n", "g.rules:2:12: a number of 19 digits"),
])
def test_a_constant_the_game_could_not_compute_is_an_error(text, message):
    errors = rules_error(text)
    assert message in errors
    assert errors.count("g.rules:") == 1  # not also 'must be a constant' for the outer operation


def test_constants_beyond_the_range_are_errors_wherever_they_stand():
    text = ("game g { players 2..2 }\nresource coins { start 999999999999999999 * 99; scored true }\n"
            "var x: int = 999999999999999999 * 99\ntrack t { levels 0..999999999999999999 * 99 }\n"
            "action w main { gain 1 coins }\nflow { rounds 1 { step s: turns seat once { main w } } }\n")
    with pytest.raises(RulesError) as info:
        new_game(texts={"g.rules": text}, players=2, seed=1)
    assert [line.split(": ")[0] for line in str(info.value).splitlines()
            if line.startswith("g.rules:")] == ["g.rules:2:24", "g.rules:3:14", "g.rules:4:21"]


@pytest.mark.parametrize("value", [MAX_NUMBER + 1, -MAX_NUMBER - 1, -10**20])
def test_a_players_option_value_beyond_the_rules_numbers_is_refused(value):
    with pytest.raises(OptionError) as info:
        build("option a = 1\n", a=value)
    assert str(info.value) == (f"option 'a' may not be {value}: rules use numbers up to "
                               f"{MAX_NUMBER} (the option is declared at g.rules:2:1)")


def test_a_players_list_option_holding_a_number_beyond_the_range_is_refused():
    with pytest.raises(OptionError, match="option 'l' may not be"):
        build("option a = 1\noption l = [1]\n", l=(1, MAX_NUMBER + 1))
    assert build("option a = 1\n", a=MAX_NUMBER).ruleset.options["a"].default == MAX_NUMBER


def test_harvest_market_coins_from_the_command_line_is_held_to_the_range():
    with pytest.raises(OptionError, match="option 'market_coins' may not be"):
        new_game("harvest", players=3, modules=["market-day"],
                 options={"market_coins": -99999999999999999999})


_NUMBERS = st.integers(-999_999_999_999_999_999, 999_999_999_999_999_999)


@settings(max_examples=40, deadline=None)
@given(a=_NUMBERS, b=st.one_of(_NUMBERS, st.integers(-3, 3)),
       op=st.sampled_from(["+", "-", "*", "//", "%"]))
def test_a_constant_is_what_the_running_rules_compute(a, b, op):
    """The oracle is the interpreter: the same expression set by an action in play."""
    expr = f"({a}) {op} ({b})"
    rules = ("game g { players 2..2 }\nresource coins { scored true }\nvar out: int = 0\n"
             f"action w main {{ set out = {expr} }}\naction skip main {{ }}\n"
             "flow { rounds 1 { step s: turns seat once { main w, skip } } }\n")
    running = new_game(texts={"g.rules": rules}, players=2, seed=1)
    legal = [action for action in running.legal_actions() if action.name == "w"]
    constant = None
    try:
        constant = new_game(texts={"g.rules": rules + f"option a = {expr}\n"}, players=2, seed=1)
    except RulesError as error:
        assert not legal  # the running rules refuse it too
        assert ("division by zero" in str(error)) == (b == 0 and op in ("//", "%"))
        return
    assert legal
    running.play(legal[0])
    assert constant.ruleset.options["a"].default == running.get("out")


def test_a_variables_default_naming_a_removed_entity_is_one_error_per_name():
    """docs/language.md: removing Harvest's market leaves the deck's uses, each said once, by the
    type check (was also "'market' is not a constant here" at the same places)."""
    with pytest.raises(RulesError) as info:
        new_game("harvest", players=3, texts={"house.rules": "remove card market\n"})
    places = [line.split(": ")[0].rsplit("/", 1)[-1] + ": " + line.split(": ", 1)[1]
              for line in str(info.value).splitlines() if ".rules:" in line and ": " in line]
    assert places == ["harvest.rules:21:41: unknown name 'market'",
                      "harvest.rules:21:49: unknown name 'market'"]


# Declarations whose numbers no game could hold (trial: each was taken as written or replaced).

def _declaration_errors(decl: str) -> list[str]:
    text = ("game g { players 2..2 }\nresource coins { scored true }\n" + decl + "\n"
            "action w main { gain 1 coins }\nflow { rounds 1 { step s: turns seat once { main w } } }\n")
    with pytest.raises(RulesError) as info:
        new_game(texts={"g.rules": text}, players=2, seed=1)
    return [line for line in str(info.value).splitlines() if line.startswith("g.rules:")]


@pytest.mark.parametrize("decl, message", [
    # an empty range was read as no 'levels' at all: a track of the one level 0
    ("track t { levels 5..1 }", "g.rules:3:11: 'levels' must be a range such as 0..5, lowest first"),
    ("track t { levels 0..3; start 9 }", "g.rules:3:24: t starts at level 9, outside its levels 0..3"),
    ("track t { levels 2..3; start 0 }", "g.rules:3:24: t starts at level 0, outside its levels 2..3"),
    ("component c { supply -3 }", "g.rules:3:15: c has a supply of -3 pieces"),
])
def test_a_declaration_no_game_could_hold_is_an_error(decl, message):
    assert _declaration_errors(decl) == [message]


@pytest.mark.parametrize("decl, name, value", [
    ("track t { levels 0..3; start 3 }", "t", 3), ("track t { levels 2..3 }", "t", 2),
    ("track t { start 0 }", "t", 0), ("component c { supply 0 }", "c", 0),
])
def test_the_edges_of_those_declarations_are_taken(decl, name, value):
    text = ("game g { players 2..2 }\nresource coins { scored true }\n" + decl + "\n"
            "action w main { gain 1 coins }\nflow { rounds 1 { step s: turns seat once { main w } } }\n")
    assert new_game(texts={"g.rules": text}, players=2, seed=1).get(name, 0) == value
