"""The checker catches values of the wrong type before play: entity field values, list
elements, literal players, none where a type is not optional; and a brace missing in
the middle of a file is named. Each error has its position, the line and a caret."""

from __future__ import annotations

from pathlib import Path

import pytest

import boardrules
from boardrules import RulesError

HARVEST = (Path(__file__).parent / "rules" / "harvest.rules").read_text()


def errors_of(text: str) -> list[str]:
    with pytest.raises(RulesError) as info:
        boardrules.build_ruleset(texts={"h.rules": text})
    return [f"{d.span.line}:{d.span.column}: {d.message}" for d in info.value.diagnostics]


def line_of(text: str, needle: str) -> int:
    return next(i for i, ln in enumerate(text.splitlines(), 1) if needle in ln)


@pytest.mark.parametrize("field_text, message", [
    ('cost "two"', "field 'cost' of a card is a number, but this value is a text"),
    ("cost true", "field 'cost' of a card is a number, but this value is a truth value"),
    ("cost sow", "field 'cost' of a card is a number, but this value is a card"),
    ("cost 1, 2", "'cost' takes one value"),
    ("cost none", "field 'cost' of a card is a number, so this value cannot be none"),
])
def test_entity_field_values_are_type_checked(field_text, message):
    text = HARVEST.replace("card sow { cost 1", f"card sow {{ {field_text}")
    line = line_of(text, "card sow {")
    assert any(e.startswith(f"{line}:") and message in e for e in errors_of(text)), errors_of(text)


def test_field_defaults_and_list_fields_are_type_checked():
    text = HARVEST.replace("field cost: int = 0", 'field cost: int = "free"\n  field tags: list[text] = []')
    text = text.replace("card reap { cost 2", 'card reap { cost 2; tags "a", 3')
    errs = errors_of(text)
    assert f"{line_of(text, 'field cost')}:21: field 'cost' is a number, but this value is a text" in errs
    assert (f"{line_of(text, 'card reap')}:31: an element of field 'tags' of a card is a text, "
            "but this value is a number") in errs


def test_list_elements_players_and_optional_types_are_checked():
    text = HARVEST + ('var l: list[int] = [1, true, "s"]\nvar who: player? = 7\n'
                      'var who2: player = none\nvar fine: player? = none\nvar seat: player = 3\n')
    errs = errors_of(text)
    n = line_of(text, "var l:")
    assert errs == [
        f"{n}:24: 'l' is a list of numbers, but this element is a truth value",
        f"{n}:30: 'l' is a list of numbers, but this element is a text",
        f"{n + 1}:20: 'who' is a player, but there is no player 7 (players are 0..3, counted from 0)",
        f"{n + 2}:20: 'who2' is a player, so its default cannot be none",
    ]


@pytest.mark.parametrize("declared, value, message", [
    # (it said "'x' is a list of numbers, but this element is a list of numbers": found by the
    # grammar fuzzer's nesting, tests/core/test_fuzz_grammar.py)
    ("list[int]", "[[1]]", "'x' is a list of numbers, but this element is a list of numbers, not a number"),
    ("list[list[int]]", "[[[[1]]]]", "'x' is a list of lists, but this element is a list of lists, not a number"),
    ("list[list[int]]", "[[[]]]", "'x' is a list of lists, but this element is a list of values, not a number"),
    ("list[player]", "[[me]]", "'x' is a list of players, but this element is a list of players, not a player"),
])
def test_a_list_where_an_element_is_wanted_says_what_the_element_must_be(declared, value, message):
    errs = errors_of(HARVEST + f"var x: {declared} = []\naction setx main {{ set x = {value} }}\n")
    assert [e.split(": ", 1)[1] for e in errs] == [message]


def test_assignments_are_checked_element_by_element():
    text = HARVEST.replace("set order = order + [me]", 'set order = [me, "p2"]')
    n = line_of(text, 'set order = [me, "p2"]')
    assert errors_of(text) == [f"{n}:20: 'order' is a list of players, but this element is a text"]


@pytest.mark.parametrize("game, house, message", [
    ("gaia-project", "extend building ts { credits \"four\" }",
     "field 'credits' of a building is a number, but this value is a text"),
    ("eclipse", "extend species terrans { money \"ten\" }",
     "field 'money' of a species is a number, but this value is a text"),
])
def test_house_rules_with_wrong_field_types_fail_the_check(tmp_path, game, house, message):
    path = tmp_path / "house.rules"
    path.write_text(house + "\n")
    with pytest.raises(RulesError) as info:
        boardrules.build_ruleset(game, rules=[path])
    (diag,) = info.value.diagnostics
    assert diag.message == message and diag.span.file == str(path) and diag.span.line == 1


@pytest.mark.parametrize("old, new, opening", [
    ("  advance farming\n}", "  advance farming\n", "action study main {"),
    ("  on_pass: gain (grain // 2) coins\n}", "  on_pass: gain (grain // 2) coins\n", "card market {"),
    ("resource grain { start 0; cap 9 }", "resource grain { start 0; cap 9", "resource grain {"),
    ("if farming >= 2 { gain 1 grain }", "if farming >= 2 { gain 1 grain", "if farming >= 2 {"),
    ("  if first_passer == none { set first_passer = me }",
     "  if first_passer == none { set first_passer = me", "if first_passer == none {"),
])
def test_a_brace_missing_in_the_middle_of_a_file_is_named(old, new, opening):
    assert old in HARVEST
    text = HARVEST.replace(old, new, 1)
    with pytest.raises(RulesError) as info:
        boardrules.build_ruleset(texts={"h.rules": text})
    (diag,) = info.value.diagnostics
    line = line_of(text, opening)
    column = text.splitlines()[line - 1].index(opening) + len(opening)
    assert diag.hint == f"the '{{' at line {line}, column {column} is not closed: add '}}'", \
        diag.format()


def test_a_type_is_shown_as_written():
    # (an optional list was shown without its '?': 'list[int]'; session 22: no list is optional,
    # as the grammar writes types, so none is shown 'list[int]?')
    from boardrules.lang.ast import TypeRef
    int_ = TypeRef(name="int")
    shown = [TypeRef(name="int", optional=True), TypeRef(name="list", list_of=int_),
             TypeRef(name="list", list_of=TypeRef(name="int", optional=True)),
             TypeRef(name="list", list_of=TypeRef(name="list", list_of=int_))]
    assert [str(t) for t in shown] == ["int?", "list[int]", "list[int?]", "list[list[int]]"]


def test_an_optional_list_can_be_neither_written_nor_built():
    """'list[T]?' was shown (a TypeRef built in Python) but could not be written; no list is none
    (an empty list stands for none): the grammar refuses it with that hint, and a TypeRef of it
    cannot be built."""
    from boardrules.lang.ast import TypeRef
    from boardrules.lang.parser import parse_text
    with pytest.raises(ValueError, match=r"list\[int\] cannot be optional: a list is never none"):
        TypeRef(name="list", list_of=TypeRef(name="int"), optional=True)
    for text in ("var x: list[int]? = []\n", "action a(x: list[list[card]]?) main { }\n"):
        with pytest.raises(RulesError) as err:
            parse_text(text, "t.rules")
        assert "unexpected '?'" in str(err.value) and "a list is never none" in str(err.value), str(err.value)
    with pytest.raises(RulesError) as err:
        parse_text("var y: int?? = none\n", "t.rules")
    assert "a list is never none" not in str(err.value)
    assert str(parse_text("var x: list[int?] = []\n", "t.rules").items[0].type) == "list[int?]"
