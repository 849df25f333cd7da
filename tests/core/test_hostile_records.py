"""Hostile records and arguments (found in the new-user trial): an option value the rules
cannot hold is an OptionError naming the option (it was a TypeError out of the ruleset cache),
and a huge module name or player count is quoted in brief."""

from __future__ import annotations

import json
import pickle
import re

import pytest

import boardrules
from boardrules import NotationError, OptionError, PluginError
from boardrules.replay import replay_file


@pytest.fixture
def record() -> dict:
    g = boardrules.new_game("harvest", players=2, seed=1)
    return json.loads(g.save())


@pytest.mark.parametrize("value", [{"a": 1}, 1.5, 6.0, [1, {"b": 2}], object()])
def test_an_option_value_the_rules_cannot_hold_is_an_option_error(value):
    # ('must be a number ..., not 6.0' refused a number: the rules' numbers are whole)
    with pytest.raises(OptionError, match="option 'goal' must be a whole number, true or false, a text"):
        boardrules.new_game("harvest", players=2, options={"goal": value})


def test_a_record_with_such_an_option_is_refused_so(record):
    record["options"] = {"goal": {"a": 1}}
    with pytest.raises(OptionError, match="option 'goal' must be"):
        boardrules.load_game(json.dumps(record))


def test_a_huge_module_name_is_quoted_in_brief(record):
    record["modules"] = ["x" * 1_000_000]
    with pytest.raises(PluginError) as err:
        boardrules.load_game(json.dumps(record))
    assert len(str(err.value)) < 300 and "(1000000 characters)" in str(err.value)
    with pytest.raises(PluginError) as err:
        boardrules.new_game("y" * 1_000_000, players=2)
    assert len(str(err.value)) < 300


def test_a_huge_player_count_is_quoted_in_brief(record):
    record["players"] = 10 ** 4000
    with pytest.raises(NotationError) as err:
        boardrules.load_game(json.dumps(record))
    assert len(str(err.value)) < 200


# ---- a save whose moves do not lead to its saved state (fixes lane) ---------------------------

def _played(moves: int) -> boardrules.Game:
    g = boardrules.new_game("harvest", players=2, seed=3)
    for _ in range(moves):
        g.play(g.legal_actions()[0])
    return g


@pytest.mark.parametrize("check", [True, False])
def test_a_save_with_a_tampered_final_digest_is_refused(check):
    g = _played(10)
    saved = json.loads(g.save())
    saved["final"] = "0" * len(saved["final"])
    with pytest.raises(boardrules.ReplayMismatch) as err:
        boardrules.load_game(json.dumps(saved), check=check)
    n = len(g.record.actions)
    assert err.value.move is None
    assert (f"after its {n} moves the state digest is {g.state.digest()}, the record says "
            f"{'0' * len(saved['final'])}; the record was altered") in str(err.value)


def test_a_save_missing_its_last_moves_is_refused():
    """Moves cut off the end still replay legally: only the saved digest shows it."""
    saved = json.loads(_played(10).save())
    saved["actions"] = saved["actions"][:-2]
    with pytest.raises(boardrules.ReplayMismatch, match="after its 9 moves"):
        boardrules.load_game(json.dumps(saved))


def test_a_mismatch_under_other_rules_names_both_rulesets():
    saved = json.loads(_played(4).save())
    saved["final"], saved["ruleset"] = "1" * 24, "feedfacefeedface"
    with pytest.raises(boardrules.ReplayMismatch, match="ruleset feedfacefeedface then, [0-9a-f]+ now"):
        boardrules.load_game(json.dumps(saved))


def test_a_true_save_loads_and_so_does_one_without_a_digest():
    g = _played(10)
    assert boardrules.load_game(g.save()).state.digest() == g.state.digest()
    saved = json.loads(g.save())
    saved["final"] = None
    assert boardrules.load_game(json.dumps(saved)).state.digest() == g.state.digest()


# A Record built in Python is held to the shape of one read from a file.
# (modules="weather" was read as its letters, "harvest has no module 'a', 'e', ...";
# actions="p1 study" as moves 'p', '1', ...; rules="x" failed with a ValueError unpacking it)
@pytest.mark.parametrize("fields, message", [
    ({"modules": "weather"}, '$.modules: expected a list of module names, not "weather"'),
    ({"actions": "p1 study"}, '$.actions: expected a list of moves (texts), not "p1 study"'),
    ({"rules": "x"}, '$.rules: expected a list of [file name, rule text] pairs, not "x"'),
    ({"players": "2"}, '$.players: expected a whole number, not "2"'),
])
def test_a_record_built_in_python_is_checked_as_a_file_is(fields, message):
    built = boardrules.Record(**{"game": "harvest", "modules": (), "options": {}, "players": 2, "seed": 1,
                                 **fields})
    with pytest.raises(NotationError, match=f"^malformed boardrules record: {re.escape(message)}$"):
        boardrules.Game.from_record(built)


def test_a_record_built_in_python_with_tuples_replays():
    house = (("h.rules", "override resource coins { start 9 }\n"),)
    built = boardrules.Record("harvest", ("weather",), {"goal": 3}, 3, 1, rules=house,
                              actions=("chance c tithe",))
    game = boardrules.Game.from_record(built)
    assert (game.get("coins", 0), game.ruleset.modules, game.record.actions) == (9, ("weather",), ["chance c tithe"])
    with pytest.raises(TypeError, match="from_record needs a Record, not"):
        boardrules.Game.from_record({"game": "harvest"})


# A Record built in Python with an option value no JSON holds was taken until the game was built
# (an OptionError then; its dumps() a TypeError): it is a field of the wrong type, named as such.
@pytest.mark.parametrize("value, shown", [({1, 2}, "{1, 2}"), ([1, frozenset()], "[1, frozenset()]"),
                                          ({"a": b"x"}, "{\"a\": b'x'}"), ({3: 1}, '{"3": 1}')])
def test_a_record_built_in_python_with_an_option_no_json_holds_is_refused(value, shown):
    built = boardrules.Record("harvest", (), {"goal": value}, 2, 1)
    message = ("malformed boardrules record: $.options.goal: expected null, true, false, a number, "
               f"a text, or a list or mapping of them, not {shown}")
    with pytest.raises(NotationError, match=f"^{re.escape(message)}$"):
        built.checked()
    with pytest.raises(NotationError, match=f"^{re.escape(message)}$"):
        boardrules.Game.from_record(built)


def test_a_record_built_in_python_keeps_its_json_option_values():
    value = [1, (2, "x"), {"a": None, "b": 1.5}, True]
    assert boardrules.Record("harvest", (), {"goal": value}, 2, 1).checked().options == {"goal": value}


@pytest.mark.parametrize("text, reason", [
    ('{"format": "boardrules-record/1", "players": ' + "9" * 5000 + "}", "a number of more than 4300 digits"),
    ("[" * 100_000 + "]" * 100_000, "nested deeper than can be read"),
])
def test_json_a_record_cannot_hold_is_said_in_the_users_terms(tmp_path, text, reason):
    """A 5000-digit number said 'use sys.set_int_max_str_digits() to increase the limit' (advice
    for a programmer, to a user replaying a file); brackets nested 100 000 deep said 'maximum
    recursion depth exceeded while decoding a JSON array from a unicode string'."""
    path = tmp_path / "r.json"
    path.write_text(text, encoding="utf-8")
    for read in (lambda: boardrules.Record.loads(text), lambda: replay_file(path)):
        with pytest.raises(NotationError) as err:
            read()
        message = str(err.value)
        assert reason in message and "sys." not in message and "recursion" not in message, message


def test_a_record_file_that_is_not_utf8_is_said_so_not_a_long_number(tmp_path):
    """A binary file given as a record (or bytes to load_game) said 'it holds a number of more
    than 4300 digits': its UnicodeDecodeError, a ValueError, was taken for int()'s."""
    data = b'{"format": "boardrules-record/1", "game": "harv\xd0st"}'
    path = tmp_path / "r.json"
    path.write_bytes(data)
    reason = "it is not UTF-8 text (invalid continuation byte at byte 47)"
    for read in (lambda: boardrules.Record.loads(data), lambda: replay_file(path),   # type: ignore[arg-type]
                 lambda: boardrules.load_game(data)):   # type: ignore[arg-type]
        with pytest.raises(NotationError) as err:
            read()
        assert reason in str(err.value) and "digits" not in str(err.value), str(err.value)


@pytest.mark.parametrize("doubled", ['"players": 3', '"options": {"goal": 1, "goal": 2}'])
def test_a_record_giving_a_key_twice_is_refused(tmp_path, record, doubled):
    """JSON readers differ on which of a key given twice counts (Python's json the last): a
    record with a second "players" was replayed as another game ('move 2: p2 study: it is p3's
    turn'), one with a second option value took it without a word."""
    text = json.dumps(record)[:-1] + ", " + doubled + "}"
    path = tmp_path / "r.json"
    path.write_text(text, encoding="utf-8")
    key = doubled.split('"')[3] if "options" in doubled else "players"
    for read in (lambda: boardrules.Record.loads(text), lambda: replay_file(path),
                 lambda: boardrules.load_game(text)):
        with pytest.raises(NotationError, match=f"an object gives the key '{key}' twice; JSON readers "
                                                "differ on which one counts"):
            read()


def test_a_file_that_is_no_json_is_said_in_the_files_terms(tmp_path):
    """JSON's own message said 'Expecting value: line 1 column 1 (char 0)' for an empty file
    and a rule file alike; simulate's results file (whose docs say to replay its games) too."""
    from boardrules.cli import app
    from typer.testing import CliRunner

    empty, rules, results = tmp_path / "e.json", tmp_path / "h.rules", tmp_path / "r.csv"
    empty.write_text("\n")
    rules.write_text("resource coins { start 1 }\n")
    result = CliRunner().invoke(app, ["simulate", "harvest", "--players", "2", "-n", "1", "--quiet",
                                      "--out", str(results)])
    assert result.exit_code == 0, result.output
    said = {empty: "cannot read a record (it is empty)",
            rules: "cannot read a record (it is not JSON: expecting value at line 1, column 1)",
            results: "cannot read a record (it is not JSON: expecting value at line 1, column 1); it is the "
                     "results file of 'boardrules simulate': a game's record is in its 'record' column"}
    for path, message in said.items():
        with pytest.raises(NotationError) as err:
            replay_file(path)
        assert str(err.value).startswith(f"{path}: {message}") and "char" not in str(err.value)


@pytest.mark.parametrize("protocol", [2, pickle.HIGHEST_PROTOCOL])
def test_a_pickle_is_never_unpickled_and_is_said_so(tmp_path, protocol, monkeypatch):
    """A pickled game given to load_game (or as a record file) said 'it is not UTF-8 text
    (invalid start byte at byte 0)': it is named, and never unpickled (a pickle runs code)."""
    data = pickle.dumps(boardrules.new_game("harvest", players=2, seed=1), protocol=protocol)
    path = tmp_path / "game.pickle"
    path.write_bytes(data)

    def refuse(*args, **kwargs):
        raise AssertionError("unpickled")
    monkeypatch.setattr(pickle, "loads", refuse)
    monkeypatch.setattr(pickle, "load", refuse)
    for read in (lambda: boardrules.load_game(data), lambda: boardrules.Record.loads(data),  # type: ignore[arg-type]
                 lambda: replay_file(path)):
        with pytest.raises(NotationError, match=r"it is a Python pickle, not a record's JSON text; "
                                                r"boardrules never unpickles"):
            read()


@pytest.mark.parametrize("value", [None, 5, memoryview(b"{}"), ["{}"]])
def test_load_game_of_no_text_names_what_it_takes(value):
    """load_game(None) said 'the JSON object must be str, bytes or bytearray, not NoneType'
    (json's words, not the API's)."""
    for read in (lambda: boardrules.load_game(value), lambda: boardrules.Record.loads(value)):
        with pytest.raises(TypeError, match=r"a record is JSON text \(a str, as Game\.save\(\) writes "
                                            rf"it\), not {type(value).__name__}"):
            read()
    game = boardrules.new_game("harvest", players=2, seed=1)
    with pytest.raises(TypeError, match=r"not Game: give game\.save\(\)"):
        boardrules.load_game(game)   # type: ignore[arg-type]


@pytest.mark.parametrize("spoil, said", [
    (lambda t: t[:60], "it is not JSON: unterminated string starting at line 4, column 2"),
    (lambda t: t.replace('"harvest"', '"har\x07vest"'),
     "it is not JSON: invalid control character at line 3, column 14"),
    (lambda t: t.replace('"harvest"', '"ha\\u12"'), "it is not JSON: invalid \\uXXXX escape at line 3, column 14"),
])
def test_json_errors_are_said_once_in_the_files_terms(spoil, said):
    """A truncated record said 'unterminated string starting at at line 4' (JSON's message ends
    in 'at', and its place was added after it), a control character 'invalid control character
    at at', and '\\uXXXX' was lowercased to '\\uxxxx'."""
    text = spoil(boardrules.new_game("harvest", players=2, seed=1).save())
    with pytest.raises(NotationError) as err:
        boardrules.load_game(text)
    assert str(err.value) == f"cannot read a boardrules record: {said}"


def test_a_record_text_with_a_byte_order_mark_loads_as_its_file_does(tmp_path):
    """A record file beginning with a UTF-8 byte-order mark replays (JSON reads bytes so), but
    the same text given to load_game said 'unexpected utf-8 bom (decode using utf-8-sig)'."""
    g = boardrules.new_game("harvest", players=2, seed=1)
    g.play(g.legal_actions()[0])
    text = "\ufeff" + g.save()
    path = tmp_path / "r.json"
    path.write_bytes(text.encode("utf-8"))
    assert replay_file(path).game.state == g.state
    assert boardrules.load_game(text).state == g.state


def test_a_record_of_many_faults_names_the_first_ones_and_counts_the_rest(record):
    """A record of 99 999 moves that are numbers said each of them: a 4 MB message. It shows the
    first 20 faults (as RulesError shows diagnostics) and counts the rest; ShapeError.details keeps
    every one."""
    record["actions"] = [1] * 99_999
    with pytest.raises(NotationError) as err:
        boardrules.load_game(json.dumps(record))
    message = str(err.value)
    assert len(message) < 2000, len(message)
    assert message.startswith("malformed boardrules record: $.actions[0]: expected a text, not 1; ")
    assert "$.actions[19]: expected a text, not 1; ... and 99979 more faults (99999 in all)" in message
    assert "$.actions[20]" not in message


N = 1_001   # (one past the limit: a million took 21 s and 415 MB, each read before it was refused)


@pytest.mark.parametrize("field, value", [
    ("options", {f"o{i}": i for i in range(N)}), ("modules", [f"m{i}" for i in range(N)]),
    ("rules", [[f"r{i}.rules", "x"] for i in range(N)]), ("texts", [[f"t{i}.rules", "x"] for i in range(N)])])
def test_a_record_giving_too_many_is_refused_before_any_is_read(record, field, value, monkeypatch):
    from boardrules import record as records
    record[field] = value
    def unread(*_):
        raise AssertionError("read")
    monkeypatch.setattr(records, "structure", unread)
    with pytest.raises(NotationError, match=rf"^malformed boardrules record: \$\.{field}: {N} entries, more than "
                                            r"the 1000 a record may give \(LIMITS\.max_record_names; raise it with "
                                            r"boardrules\.limits\.LIMITS\.changed\(max_record_names=N\)\)$"):
        boardrules.load_game(json.dumps(record))
    with boardrules.limits.LIMITS.changed(max_moves=1), pytest.raises(NotationError, match=r"\$\.actions: 2 moves"):
        boardrules.load_game(json.dumps({**record, field: [], "actions": ["p1 study", "p2 study"]}))


def test_a_record_giving_as_many_as_the_limit_is_read(record):
    from boardrules.limits import LIMITS
    record["modules"] = ["weather", "drought"]
    with LIMITS.changed(max_record_names=2):
        assert boardrules.load_game(json.dumps(record)).record.modules == ("weather", "drought")
        record["modules"].append("guilds")
        with pytest.raises(NotationError, match=r"\$\.modules: 3 entries"):
            boardrules.load_game(json.dumps(record))


@pytest.mark.parametrize("spoil, error, said", [
    (lambda r: r["options"].update(goal=True), OptionError, "option 'goal' needs a whole number .*, got true"),
    (lambda r: r["actions"].append("p1 sell true"), NotationError, "'true' is not a number")])
def test_a_record_giving_a_truth_value_for_a_number_is_refused(record, spoil, error, said):
    spoil(record)
    with pytest.raises(error, match=said):
        boardrules.load_game(json.dumps(record))


def test_a_record_of_many_large_rule_texts_is_refused_before_any_is_parsed(record):
    """Each house-rule file within LIMITS.max_tokens was parsed, checked and compiled in turn: a 64 MiB
    record of some 500 such files took about 20 minutes (4 files of 50,000 tokens: 10 s)."""
    from boardrules.limits import LIMITS
    text = "".join(f"var v{i}: int = 1 + 2 + 3\n" for i in range(2_000))   # (20,000 tokens)
    files = [[f"h{k}.rules", text.replace("var v", f"var w{k}_")] for k in range(6)]
    for field in ("rules", "texts"):
        with pytest.raises(NotationError, match=r"its rule texts \(\$\.rules and \$\.texts\) hold more than "
                           r"100000 words, numbers and symbols in all \(LIMITS.max_record_tokens; raise it"):
            boardrules.load_game(json.dumps({**record, field: files}))
    two = {**record, "rules": files[:1] + [["c.rules", "# a comment\nvar z: int = 1"]], "final": None}
    with LIMITS.changed(max_record_tokens=20_005), pytest.raises(NotationError, match="more than 20005 words"):
        boardrules.load_game(json.dumps(two))
    with LIMITS.changed(max_record_tokens=20_006):   # (the comment is not counted)
        assert boardrules.load_game(json.dumps(two)).ruleset.vars["z"]


@pytest.mark.parametrize("text, said", [
    ("override action study { require 1 == 2 else \"no\" }\n", "no [rule: study ("),
    ("override action study { let z = [1][5] }\n", "index 5 is outside a list of 1 [rule: study ("),
    ("override action study { gain 1 nothing }\n", ".rules:1:30: unknown resource 'nothing'"),
])
def test_a_house_rule_named_with_a_terminals_escapes_is_named_escaped(record, text, said):
    """A record's house rule is named by the record: its name was shown raw in the errors at its
    rules ('[rule: study (\\x1b[31m...rules:1:25)]'), colouring or clearing the terminal that printed them."""
    name = "\x1b[2J\x1b[31mx\u202e\u0085.rules"
    record.update(rules=[[name, text]], actions=record["actions"][:1] + ["p2 study"], final=None)
    with pytest.raises(boardrules.BoardrulesError) as err:
        boardrules.load_game(json.dumps(record))
    shown = str(err.value)
    assert said in shown and "\\x1b[2J\\x1b[31mx\\u202e\\x85.rules" in shown
    assert not any(c in shown for c in "\x1b\u202e\x85")
