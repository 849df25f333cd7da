"""Input a hostile stranger gives through the public API and the command line: files that never
end, option values nested without end. Each is refused with a clear error, never a Python
exception (MemoryError, RecursionError) out of the library."""

from __future__ import annotations

import json
import os
import re
import time

import pytest
from typer.testing import CliRunner

from boardrules.limits import LIMITS
import boardrules
from boardrules import NotationError, OptionError, RulesError
from boardrules.cli import app
from boardrules.lang.parser import parse_text
from boardrules.replay import replay_file

ENDLESS = "/dev/zero"
endless = pytest.mark.skipif(not os.path.exists(ENDLESS), reason="no /dev/zero here")


@endless
def test_an_endless_house_rule_file_is_refused_without_reading_it_all():
    # (it read /dev/zero into memory until a MemoryError)
    with pytest.raises(RulesError, match=f"^{ENDLESS}:1:1: rule file is larger than {LIMITS.max_file_bytes} bytes"):
        boardrules.new_game("harvest", players=2, rules=[ENDLESS])


@endless
@pytest.mark.parametrize("command", [["check"], ["play", "--players", "2"], ["simulate", "--players", "2"]])
def test_the_cli_refuses_an_endless_rule_file(command, tmp_path):
    link = tmp_path / "endless.rules"
    link.symlink_to(ENDLESS)
    result = CliRunner().invoke(app, command[:1] + [str(link)] + command[1:])
    assert result.exit_code == 1
    assert f"{link}:1:1: rule file is larger than {LIMITS.max_file_bytes} bytes" in result.output


def test_a_rule_file_of_exactly_the_limit_is_read(tmp_path):
    path = tmp_path / "big.rules"
    path.write_text("\ufeff" + "resource coins { start 1 }\n" + "#" * (LIMITS.max_file_bytes - 28) + "\n", encoding="utf-8")
    assert len(path.read_bytes()) == LIMITS.max_file_bytes + 3     # (the byte-order mark does not count)
    with pytest.raises(RulesError, match="no flow step"):   # (read and parsed: only the flow is missing)
        boardrules.new_game(players=2, rules=[], texts={"big.rules": path.read_text(encoding="utf-8")})


@endless
def test_replay_refuses_an_endless_record():
    with pytest.raises(NotationError, match="a record file is at most 64 MiB"):
        replay_file(ENDLESS)


def _nested(depth: int) -> list:
    value: list = []
    for _ in range(depth):
        value = [value]
    return value


def test_an_option_nested_without_end_is_an_option_error():
    # (a RecursionError out of load_game: a record's option of 900 nested lists)
    data = json.loads(boardrules.new_game("harvest", players=2).save())
    data["options"] = {"goal": _nested(900)}
    with pytest.raises(OptionError, match=f"option 'goal' holds lists nested deeper than {LIMITS.max_nesting} levels"):
        boardrules.load_game(json.dumps(data))
    itself: list = []
    itself.append(itself)
    with pytest.raises(OptionError, match="option 'goal' holds lists nested deeper"):
        boardrules.new_game("harvest", players=2, options={"goal": itself})


def test_options_nested_as_deep_as_rules_may_write_them_are_checked_as_before():
    with pytest.raises(OptionError, match="option 'goal' needs a whole number"):
        boardrules.new_game("harvest", players=2, options={"goal": _nested(LIMITS.max_nesting - 1)})


@pytest.mark.parametrize("args, message", [
    # (a traceback out of pyarrow, after the games were played: "Python int too large to convert")
    (["--seed", str(-10 ** 30)], "must be 64-bit whole numbers, from -2^63 to 2^63-1"),
    (["--seed", str(2 ** 63 - 1), "--games", "2"], "must be 64-bit whole numbers"),
    # (accepted and ignored when one worker played)
    (["--start-method", "teleport"], "no start method 'teleport' here"),
    # (a list of a billion tasks built before the first game)
    (["--games", str(10 ** 9)], "100000"),
])
def test_simulate_refuses_what_it_cannot_do_before_playing(args, message, tmp_path):
    out = tmp_path / "r.parquet"
    result = CliRunner().invoke(app, ["simulate", "harvest", "--players", "2", "--games", "1",
                                      "--workers", "1", "--quiet", "--out", str(out), *args])
    assert result.exit_code != 0 and message in " ".join(result.output.split()), result.output
    assert not out.exists()


def test_simulate_plays_up_to_the_last_64_bit_seed(tmp_path):
    out = tmp_path / "r.csv"
    result = CliRunner().invoke(app, ["simulate", "harvest", "--players", "2", "--games", "2", "--workers", "1",
                                      "--quiet", "--seed", str(2 ** 63 - 2), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert f"\n{2 ** 63 - 1},2,1," in out.read_text(encoding="utf-8")


def test_a_rule_file_of_too_many_tokens_is_refused_before_it_is_parsed():
    # (a list of 500,000 numbers, within 1 MiB, took 18 s of CPU to parse)
    from boardrules.lang.parser import parse_text
    numbers = ",".join(["1"] * LIMITS.max_tokens)
    with pytest.raises(RulesError) as err:
        parse_text(f"var xs: list[int] = [{numbers}]\n", "big.rules")
    (d,) = err.value.diagnostics
    assert (d.span.line, d.span.column, d.message) == (
        1, len("var xs: list[int] = [") + (LIMITS.max_tokens - 9) + 1,   # the token past the limit (9 before the numbers)
        f"rule file has more than {LIMITS.max_tokens} words, numbers and symbols")


def test_comments_do_not_count_as_tokens():
    from boardrules.lang.parser import parse_text
    comments = "# a comment of several words, numbers (1, 2, 3) and symbols\n" * (LIMITS.max_tokens // 10)
    assert parse_text(comments + "resource coins { start 1 }\n", "long.rules").items


def _cyclic() -> list:
    itself: list = []
    itself.append(itself)
    return itself


@pytest.mark.parametrize("argument", [_nested(10_000), _cyclic()], ids=["deep", "cyclic"])
def test_an_action_of_a_deep_or_cyclic_python_list_is_refused_with_its_rule(argument):
    # (a RecursionError out of play: the message quoted the argument with repr)
    game = boardrules.new_game("harvest", players=2, seed=1)
    state = game.state
    with pytest.raises(boardrules.IllegalActionError, match=r"^p1 sell \.\.\.: it is p2's turn"):
        game.play(boardrules.Action(0, "sell", (argument,)))
    assert game.state is state


@pytest.mark.parametrize("index", [[1, 2], {"a1": 1}, _cyclic()], ids=["list", "dict", "cyclic"])
def test_an_index_that_no_state_holds_is_refused_by_get_and_the_reader(index):
    # (a TypeError "unhashable type: 'list'" out of Game.get and StateReader.get / at)
    game = boardrules.new_game("harvest", players=2, seed=1)
    for read in (lambda: game.get("field_owner", index=index),
                 lambda: game.reader().get("field_owner", index=index),
                 lambda: game.reader().at("field_owner", [index])):
        with pytest.raises(boardrules.BoardrulesError, match=r"^index= is a hex, an entity or a number, not "):
            read()


def test_a_long_name_is_quoted_in_brief_in_a_diagnostic():
    # (the message quoted all 400,000 letters, the caret line ran as long: 800 KB)
    name = "c" * 400_000
    flow = "flow { rounds 1 { step play: turns seat once { main work } } }\n"
    with pytest.raises(RulesError) as err:
        boardrules.new_game(texts={"h.rules": f"action work main {{ gain 1 {name} }}\n{flow}"}, players=2)
    assert len(str(err.value)) < 500
    assert f"h.rules:1:25: unknown resource '{'c' * 40}…' (400000 characters)" in str(err.value)
    assert err.value.diagnostics[0].message == f"unknown resource '{name}'"   # (kept whole)


SPAM = '''
game spam { title "Spam"; players 2..2 }
resource coins { start 0 }
action spam(a: int in 1..100000, b: int in 1..N) main { gain 1 coins }
action pass_round main { pass }
flow { rounds 1 { step actions: turns seat until_pass { main spam, pass_round } } }
'''


def test_an_action_of_countless_argument_combinations_is_refused_at_the_listings_limit():
    # (400,000 combinations fitted in the execution budget, each tried and kept: 7-19 s of CPU
    # and 525 MB for one listing; now the listing stops at LIMITS.max_candidates)
    g = boardrules.new_game(texts={"spam.rules": SPAM.replace("N", "100000")}, players=2, seed=1)
    before = g.state
    with pytest.raises(boardrules.ExecutionBudgetError,
                       match=rf"^listing the arguments of 'spam': more than {LIMITS.max_candidates} "
                             r"argument combinations .*\[rule: spam \(spam.rules:4:1\)\]"):
        list(g.legal_actions())
    assert g.state is before and not g.record.actions
    # as many as the limit are listed (and the pass)
    g = boardrules.new_game(texts={"spam.rules": SPAM.replace("1..100000", f"1..{LIMITS.max_candidates}")
                                   .replace("1..N", "1..1")}, players=2, seed=1)
    assert len(g.legal_actions()) == LIMITS.max_candidates + 1


# ---- special files (fixes lane) ----------------------------------------------------------------

@endless
def test_an_endless_device_is_named_as_such_and_its_bytes_not_quoted():
    """The error quoted 200 NULs as the file's 'line' (800 characters of '\\x00') and hinted to
    split the file."""
    with pytest.raises(RulesError) as err:
        boardrules.new_game("harvest", players=2, rules=[ENDLESS])
    assert str(err.value) == (f"{ENDLESS}:1:1: rule file is larger than {LIMITS.max_file_bytes} bytes: it is "
                              "not a regular file (a device or a pipe that may never end)\n"
                              "hint: give the path of a rule file")


def _within(seconds: float, call) -> object:
    """``call()``'s result or exception, failing the test when it has not returned in time."""
    import threading
    out: list = []

    def run() -> None:
        try:
            out.append(call())
        except Exception as err:   # noqa: BLE001  (the test looks at it)
            out.append(err)
    thread = threading.Thread(target=run, daemon=True)   # (one that hangs is left behind)
    thread.start()
    thread.join(seconds)
    assert out, f"still reading after {seconds} s"
    return out[0]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_named_pipe_nobody_writes_to_is_read_as_empty_not_waited_for(tmp_path):
    """Reading it waited for a writer without end: 'boardrules check PIPE' hung."""
    pipe = tmp_path / "pipe.rules"
    os.mkfifo(pipe)
    got = _within(10, lambda: boardrules.new_game("harvest", players=2, rules=[pipe]))
    assert isinstance(got, boardrules.Game)   # (an empty house-rule file changes nothing)
    got = _within(10, lambda: replay_file(pipe))
    assert isinstance(got, NotationError) and "cannot read a record" in str(got)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_named_pipe_whose_writer_never_writes_is_given_up_on(tmp_path, limits):
    """A writer that opened the pipe and never writes made every read wait without end (the
    read is now bounded by LIMITS.pipe_wait, 20 s by default; 0.3 s here)."""
    limits(pipe_wait=0.3)
    pipe = tmp_path / "pipe.rules"
    os.mkfifo(pipe)
    writer = os.open(pipe, os.O_RDWR)   # (a writer that holds it open and writes nothing)
    try:
        said = "it is a pipe or device that gave 0 bytes and no end in 0.3 seconds"
        got = _within(10, lambda: boardrules.new_game("harvest", players=2, rules=[pipe]))
        assert isinstance(got, boardrules.PluginError) and said in str(got), got
        got = _within(10, lambda: replay_file(pipe))
        assert isinstance(got, NotationError) and f"cannot read a record ({said}" in str(got), got
        os.write(writer, b"# a house rule that never ends\n")   # (bytes, but no end: bounded in all)
        got = _within(10, lambda: boardrules.new_game("harvest", players=2, rules=[pipe]))
        assert isinstance(got, boardrules.PluginError) and "gave 31 bytes and no end" in str(got), got
    finally:
        os.close(writer)


# Whole numbers in action texts, options and bot names are ASCII digits, as they are written.
# (str.isdigit admitted '²', which int() then refused: a ValueError traceback out of
# load_game, `boardrules replay`, `-o`, `--bot`; and int() read '٣', '１', '1_0', '+2'.)
@pytest.mark.parametrize("text, fragment", [
    ("p\u00b2 study", "'p\u00b2' is not a player"),
    ("p\u0661 study", "'p\u0661' is not a player"),
    ("p2 sell \uff12", "'\uff12' is not a number"),
    ("p2 sell 1_0", "'1_0' is not a number"),
    ("p2 sell +2", "'+2' is not a number"),
    # (one move, one text: 'p01' was read as p1, '007' as 7, '-0' as 0)
    ("p01 study", "'p01' is not a player (p1..p2)"),
    ("p0 study", "'p0' is not a player (p1..p2)"),
    ("p2 sell 07", "'07' is not a number (written as 12 or -3: ASCII digits, no leading zero)"),
    ("p2 sell -0", "'-0' is not a number"),
])
def test_action_texts_read_only_ascii_whole_numbers(text, fragment):
    game = boardrules.new_game("harvest", players=2, seed=1)
    with pytest.raises(NotationError, match=re.escape(fragment)):
        game.parse(text)
    data = json.loads(game.save())
    data["actions"].append(text)
    with pytest.raises(NotationError, match=re.escape(f"move 2: {text!r}: {fragment}")):
        boardrules.load_game(json.dumps(data))


def test_dice_read_only_ascii_whole_numbers():
    rules = ('game d { players 1..1 }\nresource vp { scored true }\naction roll main { choose r in dice(2) '
             'by chance { gain r[0] vp } }\nflow { rounds 1 { step s: turns seat once { main roll } } }\n')
    game = boardrules.new_game(texts={"d.rules": rules}, players=1, seed=1)
    game.auto_chance = False
    game.play("p1 roll")
    assert game.parse("chance r 3,5").args == ((3, 5),)
    for text in ("chance r 3,\uff15", "chance r 3,\u00b2", "chance r 3, 5"):
        with pytest.raises(NotationError, match="dice are written as 1,6,3"):
            game.parse(text)


@pytest.mark.parametrize("args, message", [
    (["-o", "goal=\u00b2"], "option 'goal' needs a whole number (allowed from 0 to 100), got '\u00b2'"),
    (["-o", "goal=\u0663"], "option 'goal' needs a whole number (allowed from 0 to 100), got '\u0663'"),
    (["--bot", "p\u00b2=random"], "'p\u00b2' is not a seat"),
    (["--bot", "mcts:\u00b2"], "no bot 'mcts:\u00b2'"),
])
def test_the_cli_reads_only_ascii_whole_numbers(args, message, tmp_path):
    result = CliRunner().invoke(app, ["play", "harvest", "--players", "2", "--out", str(tmp_path), *args])
    assert result.exit_code == 1 and message in result.output, result.output


# A number of more digits than Python's int() reads (4300): `-o goal=999...` said "needs a whole
# number", and options={"goal": 10 ** 5000} raised int's ValueError ("Exceeds the limit (4300
# digits) for integer string conversion") out of the error message that quoted it.
@pytest.mark.parametrize("command", ["play", "simulate"])
@pytest.mark.parametrize("sign", ["", "-"])
def test_the_cli_refuses_an_option_of_thousands_of_digits_naming_its_bound(command, sign, tmp_path):
    result = CliRunner().invoke(app, [command, "harvest", "--players", "2", "--out", str(tmp_path),
                                      "-o", f"goal={sign}{'9' * 5000}"])
    assert result.exit_code == 1 and result.exception is None or isinstance(result.exception, SystemExit)
    assert "option 'goal' may not be a number of 5000 digits: allowed from 0 to 100" in result.output, result.output
    assert "Traceback" not in result.output and len(result.output) < 400


def test_an_option_of_thousands_of_digits_with_no_domain_names_the_rules_bound(tmp_path):
    rules = tmp_path / "g.rules"
    rules.write_text("game g { players 2..2 }\noption goal = 3\nresource vp { scored true }\n"
                     "action a main { gain goal vp }\nflow { rounds 1 { step s: turns seat once { main a } } }\n")
    result = CliRunner().invoke(app, ["play", str(rules), "--players", "2", "--out", str(tmp_path),
                                      "-o", "goal=" + "1" * 4001])
    assert result.exit_code == 1
    assert ("option 'goal' may not be a number of 4001 digits: rules use whole numbers from "
            "-9223372036854775807 to 9223372036854775807") in result.output, result.output


@pytest.mark.parametrize("value, shown", [(10 ** 5000, "a number of 5001 digits"),
                                          (-10 ** 5000, "a number of 5001 digits"),
                                          ((10 ** 5000,), "[a number of 5001 digits]")],
                         ids=["huge", "huge-negative", "list-of-huge"])   # (pytest's ids call str)
def test_an_option_of_thousands_of_digits_from_python_is_an_option_error(value, shown):
    with pytest.raises(OptionError, match=re.escape(f"option 'goal' ") + ".*" + re.escape(shown)):
        boardrules.new_game("harvest", players=2, options={"goal": value})


@pytest.mark.parametrize("digits", [1, 39, 40, 41, 4300, 4301, 5000, 20_000])
def test_digit_count_counts_past_what_str_reads(digits):
    from boardrules.quoting import digit_count
    for n in (10 ** (digits - 1), 10 ** digits - 1, -(10 ** digits - 1)):
        assert digit_count(n) == digits


def test_a_folder_given_as_a_record_is_named_not_its_file_descriptor(tmp_path):
    """'boardrules replay /tmp' said 'cannot read a record ([Errno 21] Is a directory: 3)': the
    error named the descriptor the folder was opened as, and Python's errno besides."""
    from boardrules.files import read_bounded
    with pytest.raises(IsADirectoryError) as err:
        read_bounded(tmp_path, 10)
    assert err.value.filename == str(tmp_path)
    with pytest.raises(NotationError) as err2:
        replay_file(tmp_path)
    assert str(err2.value) == f"{tmp_path}: cannot read a record (Is a directory)"


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="no /proc/self/fd here")
def test_a_folder_read_as_a_file_leaves_no_descriptor_open(tmp_path):
    """Each read of a folder (a record, a rule file) left the descriptor it was opened as open."""
    from boardrules.files import read_bounded
    before = len(os.listdir("/proc/self/fd"))
    for _ in range(20):
        with pytest.raises(OSError):
            read_bounded(tmp_path, 10)
    assert len(os.listdir("/proc/self/fd")) == before


def test_an_else_after_a_comment_of_many_hashes_is_diagnosed_at_once():
    # (what may stand between a '}' and a stray 'else' was matched with backtracking: a comment
    # of 26 '#'s followed by a statement took 10 s, each '#' doubling the time)
    text = ("game tiny { players 2..3 }\nresource coins { start 0 }\naction a main {\n"
            "  if coins > 1 { gain 1 coins } " + "#" * 28 + "\n  gain 1 coins\n  else { gain 2 coins }\n}\n")
    start = time.perf_counter()
    with pytest.raises(RulesError, match="nothing it could continue comes right before it"):
        parse_text(text, "hashes.rules")
    assert time.perf_counter() - start < 5


@pytest.mark.parametrize("text", [
    "\n" * 1_000_000,                                  # blank lines: one line-break token
    "#\n" * 500_000,                                   # comment lines: the same token
    "option x = 1" + ";" * 1_000_000 + "\n",           # separators: the same token
    'option x = "' + "a" * 1_000_000 + '"\n',          # a long text
    'option x = "' + "\\n" * 500_000 + '"\n',          # a long text of escapes
])
def test_a_rule_file_within_the_size_limit_is_read_in_bounded_memory(text):
    """A 1 MB rule file of blank lines took 690 MB (and 3 s) to lex, one of comment lines 540 MB,
    a text of a million letters 240 MB: the grammar's patterns for a line break and for a text
    repeated groups, and Python's regular expressions keep a backtracking entry per repetition.
    Their repetitions are possessive now; a file within the limits is read in tens of MB."""
    import tracemalloc
    from boardrules.lang import parser
    parser._parser()   # (built once, not counted)
    tracemalloc.start()
    try:
        try:
            parse_text(text, "big.rules")
        except RulesError:
            pass   # (over the token limit, or no flow: the reading is what is measured)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 40 * 2**20, f"{peak / 2**20:.0f} MiB"
