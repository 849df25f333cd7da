"""The documentation is tested: its examples build, run and say what the code does.

* ``docs/language.md``: every fenced block tagged ``rules`` builds on its own;
  ``rules fragment`` blocks parse; ``rules house`` blocks build as house rules on top of
  ``harvest.rules``; ``rules error`` blocks fail with exactly the message of the
  ``text`` block after them. Together the examples use every construct of the grammar,
  every turn order and mode, and every built-in name and function is documented.
* ``docs/plugins.md`` documents every hook of :mod:`boardrules.hookspecs`, and names no
  hook that does not exist; its example plugin works.
* ``docs/api.md``: its Python blocks run, in order, as one program (with their asserts).
"""

from __future__ import annotations

import random
import re
import types
from pathlib import Path

import lark
import pytest

from boardrules.limits import LIMITS
import boardrules
from boardrules import hookspecs
from boardrules.lang import checker
from boardrules.errors import RulesError
from boardrules.game import new_game
from boardrules.lang.parser import _parser, parse_text

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "docs"
FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```\s*$", re.S | re.M)


def blocks(name: str) -> list[tuple[str, str, int]]:
    """(info string, text, line number) of every fenced block in ``docs/NAME``."""
    text = (DOCS / name).read_text(encoding="utf-8")
    return [(m.group(1).strip(), m.group(2), text.count("\n", 0, m.start()) + 1)
            for m in FENCE.finditer(text)]


def harvest_text() -> str:
    for path in (REPO / "plugins" / "boardrules_demo" / "rules" / "harvest.rules",
                 REPO / "tests" / "core" / "rules" / "harvest.rules"):
        if path.exists():
            return path.read_text(encoding="utf-8")
    pytest.fail("harvest.rules not found")


LANG = blocks("language.md")
RULES = [(info.split()[1:], text, line) for info, text, line in LANG
         if info.split()[:1] == ["rules"]]


def _ids(items):
    return [f"language.md:{line}" for _, _, line in items]


def test_language_has_examples():
    assert len(RULES) >= 30
    unknown = {tag for tags, _, _ in RULES for tag in tags} - {"fragment", "house", "error"}
    assert not unknown, f"unknown rules block tags: {unknown}"


@pytest.mark.parametrize("tags,text,line", [r for r in RULES if not r[0]], ids=_ids(
    [r for r in RULES if not r[0]]))
def test_complete_example_builds(tags, text, line):
    boardrules.build_ruleset(texts={"example.rules": text})


def plays_to_the_end(ruleset: boardrules.Ruleset, label: str) -> None:
    """A random game of ``ruleset`` at every player count it declares ends (a documented game
    that a count it allows cannot start or finish is an example that does not work as printed:
    plugins.md's Orchard ran out of hexes with 3 players, api.md's relay had no third seat for
    its second lane with 2)."""
    lo, hi = ruleset.players
    for players in range(lo, hi + 1):
        game = boardrules.Game(ruleset, players, seed=players)
        rng = random.Random(players)
        for _ in range(5000):
            if game.over:
                break
            game.play(game.legal_actions().sample(rng))
        assert game.over, f"{label}: a random {players}-player game did not end in 5000 moves"


def _playable(text: str) -> bool:
    try:
        boardrules.build_ruleset(texts={"example.rules": text}).check_playable()
    except RulesError:   # (an example of a few definitions, with no flow step)
        return False
    return True


@pytest.mark.parametrize("tags,text,line", [r for r in RULES if not r[0] and _playable(r[1])], ids=_ids(
    [r for r in RULES if not r[0] and _playable(r[1])]))
def test_complete_example_games_play_to_the_end(tags, text, line):
    plays_to_the_end(boardrules.build_ruleset(texts={"example.rules": text}), f"language.md:{line}")


@pytest.mark.parametrize("tags,text,line", [r for r in RULES if r[0] == ["fragment"]], ids=_ids(
    [r for r in RULES if r[0] == ["fragment"]]))
def test_fragment_parses(tags, text, line):
    parse_text(text, "example.rules")


@pytest.mark.parametrize("tags,text,line", [r for r in RULES if r[0] == ["house"]], ids=_ids(
    [r for r in RULES if r[0] == ["house"]]))
def test_house_rules_build_on_harvest(tags, text, line, tmp_path):
    house = tmp_path / "house.rules"
    house.write_text(text, encoding="utf-8")
    rs = boardrules.build_ruleset(texts={"harvest.rules": harvest_text()}, rules=[house])
    game = boardrules.new_game(texts={"harvest.rules": harvest_text()}, rules=[house],
                               players=2, seed=1)
    assert game.ruleset is rs and game.legal_actions()


@pytest.mark.parametrize("tags,text,line", [r for r in RULES if r[0] == ["house"]], ids=_ids(
    [r for r in RULES if r[0] == ["house"]]))
def test_house_rules_play_to_the_end(tags, text, line, tmp_path):
    # (the trial of session 17: market-day.rules's step 'late_trade' offered only 'study', and a
    # player short of 3 coins could not act in it: the game stuck in the first round)
    from boardrules.bots import play_out, seat_bots
    house = tmp_path / "house.rules"
    house.write_text(text, encoding="utf-8")
    for players in (2, 3, 4):
        for seed in (1, 2):
            game = boardrules.new_game(texts={"harvest.rules": harvest_text()}, rules=[house],
                                       players=players, seed=seed)
            play_out(game, seat_bots(["random"], players, seed))
            assert game.over, f"language.md:{line}: {players} players, seed {seed}"


def test_error_examples_fail_as_documented():
    pairs = [(LANG[i], LANG[i + 1]) for i in range(len(LANG) - 1)
             if LANG[i][0] == "rules error"]
    assert pairs
    for (_, text, line), (info, expected, _) in pairs:
        assert info == "text", f"language.md:{line}: a 'rules error' block needs a 'text' block after it"
        with pytest.raises(boardrules.RulesError) as err:
            boardrules.build_ruleset(texts={"example.rules": text})
        assert str(err.value) == expected.rstrip("\n"), f"language.md:{line}"


def _tree_names(text: str) -> set[str]:
    source = text if text.endswith("\n") else text + "\n"
    tree = _parser().parse(source)
    names = {t.data for t in tree.iter_subtrees()}
    names |= {tok.type for tok in tree.scan_values(lambda v: isinstance(v, lark.Token))}
    return {str(n) for n in names}


def test_examples_use_every_construct():
    """Every rule and alternative of the grammar appears in some example."""
    used: set[str] = set()
    words: set[str] = set()
    for tags, text, _ in RULES:
        if tags != ["error"]:
            used |= _tree_names(text)
            words |= set(re.findall(r"[A-Za-z_]+", text))
    grammar = {str(r.alias or r.origin.name) for r in _parser().rules}
    grammar = {g for g in grammar if not g.startswith("_") and g != "start"}
    # '?' rules only show up as tree nodes when they do something (an operator, ...)
    inlined = {"expr", "or_expr", "and_expr", "not_expr", "comparison", "range", "sum",
               "product", "unary", "postfix", "atom", "quantified"}
    missing = sorted(grammar - used - inlined)
    assert not missing, f"no example in docs/language.md uses: {missing}"
    needed = (checker.TURN_MODES | checker.TURN_ORDERS | {"reverse", "by", "main", "free",
              "procedure", "hidden", "private", "per", "start", "cap", "floor", "scored",
              "supply", "levels", "title", "players", "override", "extend", "remove"})
    for props in checker.CORE_PROPERTIES.values():
        needed |= props
    assert not needed - words, f"never used in an example: {sorted(needed - words)}"


def test_the_keyword_list_is_the_grammars_words():
    """docs/language.md's keywords are exactly the words the grammar reserves: it lacked
    'lanes' (a turns step's interleaved turns)."""
    text = (DOCS / "language.md").read_text(encoding="utf-8")
    listed = re.search(r"\* Keywords: `([^`]*)`", text)
    assert listed is not None
    words = {t.pattern.value for t in _parser().terminals
             if isinstance(t.pattern, lark.lexer.PatternStr) and t.pattern.value.isalpha()}
    assert listed.group(1).split() == sorted(words)


_KEYWORD_HEAD = "game t { players 1..2 }\nresource coins { start 0 }\n"
_KEYWORD_FLOW = "flow { rounds 1 { step s: turns seat once { main a } } }\n"


def _coins_after_a(body: str) -> int:
    g = new_game(texts={"t.rules": _KEYWORD_HEAD + body + _KEYWORD_FLOW}, players=1)
    g.play("p1 a")
    return g.get("coins", 0)


def test_keywords_are_names_where_the_keyword_cannot_stand_as_documented():
    """docs/language.md said keywords must not be names; most are, where the keyword cannot
    stand (the fixes lane's note): the doc says what the grammar does, this holds it to it."""
    assert _coins_after_a("resource pass { start 0 }\naction a main { let from = 2; gain from coins; "
                          "gain 1 pass }\n") == 2
    assert _coins_after_a("var true: bool = false\naction a main { if true { gain 1 coins } }\n") == 1
    for name in ("to", "and", "or", "not", "in", "of", "by", "for", "else", "where", "hidden",
                 "private", "optional"):
        with pytest.raises(RulesError, match=r"^t.rules:4:2\d: unexpected "):
            _coins_after_a(f"resource {name} {{ start 0 }}\naction a main {{ gain 1 {name} }}\n")


def test_builtins_are_documented():
    text = (DOCS / "language.md").read_text(encoding="utf-8")
    for name in checker.BUILTIN_NAMES:
        assert f"| `{name}` |" in text, f"built-in name {name!r} is not in the table"
    for fn in checker.BUILTIN_FUNCTIONS:
        assert f"`{fn}(" in text, f"built-in function {fn!r} is not documented"
    used = set()
    for tags, src, _ in RULES:
        if tags != ["error"]:
            used |= set(re.findall(r"\b([a-z_]+)\s*\(", src))
            used |= set(re.findall(r"[A-Za-z_]+", src))
    assert not (set(checker.BUILTIN_FUNCTIONS) | set(checker.BUILTIN_NAMES)) - used


def test_limits_are_documented():
    from boardrules.lang import parser
    text = (DOCS / "language.md").read_text(encoding="utf-8")
    assert f"{LIMITS.max_nesting} levels" in text
    assert f"{LIMITS.max_file_bytes} bytes" in text
    assert f"more than {LIMITS.max_tokens} words, numbers and symbols" in text
    with pytest.raises(boardrules.RulesError, match="nested deeper than 48 levels"):
        parse_text("action a main { gain " + "(" * 48 + "1" + ")" * 48 + " coins }\n")
    with pytest.raises(boardrules.RulesError, match="larger than 1048576 bytes"):
        parse_text("#" * LIMITS.max_file_bytes + "\n")


def test_module_conflict_message_is_as_documented():
    from boardrules.lang.merge import Layer, merge
    base = parse_text("resource coins { start 5 }\n", "game.rules")
    a = parse_text("override resource coins { start 6 }\n", "a.rules")
    b = parse_text("extend resource coins { cap 9 }\n", "b.rules")
    _, errors = merge([Layer("game", "game", (base,)), Layer("a", "module", (a,)),
                       Layer("b", "module", (b,))])
    (err,) = errors
    assert err.message == ("modules 'a' and 'b' both change resource 'coins' "
                           "(the other change is at a.rules:1:1)")
    assert err.hint == "enable only one of them, or resolve it in a house-rule file"
    text = (DOCS / "language.md").read_text(encoding="utf-8")
    assert err.message in text.replace("\n  ", " ") and err.hint in text


# ---- plugins.md -----------------------------------------------------------------------


def _hooks() -> set[str]:
    return {n for n in dir(hookspecs) if n.startswith("boardrules_")
            and callable(getattr(hookspecs, n))}


def test_every_hook_is_documented():
    text = (DOCS / "plugins.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"^### `(boardrules_\w+)", text, re.M))
    assert documented == _hooks(), (
        f"undocumented hooks: {sorted(_hooks() - documented)}; "
        f"documented but not hooks: {sorted(documented - _hooks())}")
    mentioned = set(re.findall(r"\bboardrules_[a-z_]+(?=\()", text))
    assert mentioned <= _hooks(), f"plugins.md names unknown hooks: {mentioned - _hooks()}"


def test_plugin_example_works(tmp_path):
    """The example plugin of plugins.md, registered for the length of this test."""
    code = next(t for info, t, _ in blocks("plugins.md") if info == "python")
    rules = next(t for info, t, _ in blocks("plugins.md") if info == "rules")
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "orchard.rules").write_text(rules, encoding="utf-8")
    module = types.ModuleType("boardrules_orchard_doc_example")
    module.__file__ = str(tmp_path / "boardrules_orchard.py")
    exec(compile(code, "plugins.md", "exec"), module.__dict__)
    pm = boardrules.plugins.manager()
    pm.register(module)
    try:
        game = boardrules.new_game("orchard", players=2, seed=3)
        assert "p1 plant a1" in game.legal_actions()
        game.play("p1 plant a1")
        assert game.get("apples", 0) == 2
        assert "p2 plant a1" not in game.legal_actions()
        plays_to_the_end(boardrules.build_ruleset("orchard"), "plugins.md's Orchard")
    finally:
        pm.unregister(module)


def test_plugin_example_packages_as_shown(tmp_path):
    """The layout and ``pyproject.toml`` of plugins.md make a wheel that ships the rule file and
    the entry point (the page's toml once lacked a build system and the version ``[project]``
    requires: ``pip install`` refused it)."""
    import subprocess
    import sys
    import zipfile
    toml = next(t for info, t, _ in blocks("plugins.md") if info == "toml")
    code = next(t for info, t, _ in blocks("plugins.md") if info == "python")
    rules = next(t for info, t, _ in blocks("plugins.md") if info == "rules")
    package = tmp_path / "orchard" / "boardrules_orchard"
    (package / "rules").mkdir(parents=True)
    (package / "rules" / "orchard.rules").write_text(rules, encoding="utf-8")
    (package / "__init__.py").write_text(code, encoding="utf-8")
    (tmp_path / "orchard" / "pyproject.toml").write_text(toml, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                           "--no-build-isolation", "-w", str(tmp_path / "wheels"),
                           str(tmp_path / "orchard")], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    (wheel,) = (tmp_path / "wheels").glob("*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        assert "boardrules_orchard/rules/orchard.rules" in names, names
        (entry_points,) = [n for n in names if n.endswith("entry_points.txt")]
        assert "[boardrules]\norchard = boardrules_orchard" in archive.read(entry_points).decode()


# ---- api.md -------------------------------------------------------------------------


def test_api_examples_run():
    namespace: dict = {"__name__": "api_md"}
    code = [t for info, t, _ in blocks("api.md") if info == "python"]
    assert code
    for i, text in enumerate(code):
        exec(compile(text, f"docs/api.md block {i + 1}", "exec"), namespace)
    games = [value for value in namespace.values() if isinstance(value, str) and "flow" in value]
    assert len(games) == 2   # (tiny and relay)
    for text in games:
        plays_to_the_end(boardrules.build_ruleset(texts={"api.rules": text}), "an api.md game")


@pytest.mark.parametrize("page", ["README.md", "docs/index.md"])
def test_the_front_pages_example_runs_as_it_says(page):
    """The first Python a new user runs (not run by any test before the trial): it plays, the
    record it saves loads back to the same state, and an illegal move changes nothing."""
    text = (REPO / page).read_text(encoding="utf-8")
    (code,) = [m.group(2) for m in FENCE.finditer(text) if m.group(1).strip() == "python"]
    namespace: dict = {"__name__": "front_page"}
    exec(compile(code, f"{page} example", "exec"), namespace)
    game = namespace["game"]
    assert boardrules.load_game(namespace["text"]).state == game.state
    with pytest.raises(boardrules.IllegalActionError):
        game.play("p1 buy reap")   # (p3's turn)
    assert game.save() == namespace["text"]


def test_the_front_page_lists_every_extra():
    """docs/index.md's "Optional extras" listed test, rl, openspiel and docs, not the analysis
    extra (simulate's Parquet files), ray or bench that pyproject.toml declares."""
    import tomllib
    extras = set(tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
                 ["project"]["optional-dependencies"])
    text = (DOCS / "index.md").read_text(encoding="utf-8").split("## Optional extras", 1)[1]
    listed = set(re.findall(r"^\| `([a-z]+)` \|", text, re.M))
    assert listed == extras


# ---- plugins.md: the modules tutorial ------------------------------------------------------

DEMO = REPO / "plugins" / "boardrules_demo"


def test_module_examples_are_the_tested_demo_modules():
    """The tutorial's examples are Harvest's modules, which tests/core/test_modules.py and the
    module-combination property exercise: rule files verbatim, Python excerpts verbatim."""
    shown = [(info.split(), text) for info, text, _ in blocks("plugins.md")
             if info.split()[1:2] == ["demo"]]
    assert len(shown) >= 5
    source = (DEMO / "__init__.py").read_text(encoding="utf-8")
    for info, text in shown:
        if info[0] == "rules":
            assert text == (DEMO / "modules" / info[2]).read_text(encoding="utf-8"), info[2]
        else:
            assert text in source, f"not in boardrules_demo/__init__.py:\n{text}"


def _signature(name, params) -> str:
    def show(t):
        if t.list_of is not None:
            return f"list[{show(t.list_of)}]"
        return t.name + ("?" if t.optional else "")
    return f"{name}({', '.join(f'{p.name}: {show(p.type)}' for p in params)})"


def _events_table(text: str, heading: str) -> set[str]:
    """The events a table lists, each once: Eclipse's listed eleven of its events twice, the
    second rows stale (a set compared equal all the same)."""
    section = text.split(heading + "\n", 1)[1]
    section = re.split(r"^#{2,4} ", section, maxsplit=1, flags=re.M)[0]
    rows = re.findall(r"^\| `([a-z_]+\([^`]*\))` \|", section, re.M)
    twice = sorted({r for r in rows if rows.count(r) > 1})
    assert not twice, f"{heading}: listed more than once: {twice}"
    return set(rows)


def test_events_are_documented_for_the_engine_and_every_game():
    text = (DOCS / "plugins.md").read_text(encoding="utf-8")
    builtin = {_signature(n, [types.SimpleNamespace(name=p, type=types.SimpleNamespace(
        name=t, optional=False, list_of=None)) for p, t in params])
        for n, params in checker.BUILTIN_EVENTS.items()}
    assert _events_table(text, "### React to an event") == builtin
    for game in ("harvest", "gaia-project", "eclipse"):
        rs = boardrules.build_ruleset(game)
        declared = {_signature(n, ps) for n, ps in rs.events.items()
                    if n not in checker.BUILTIN_EVENTS}
        assert _events_table(text, f"#### {game}") == declared, game


def test_module_step_order_is_as_documented():
    text = (DOCS / "plugins.md").read_text(encoding="utf-8").replace("\n  ", " ")
    rs = boardrules.build_ruleset("harvest", modules=["weather", "market-day", "guilds"])
    rounds = [s.name for s in rs.stages[1].steps]
    assert "Harvest's rounds run " + ", ".join(f"`{s}`" for s in rounds) + "." in text


def test_faction_example_is_the_tested_third_party_plugin():
    package = REPO / "tests" / "thirdparty" / "weavers" / "boardrules_weavers"
    shown = [(info.split(), text) for info, text, _ in blocks("plugins.md")
             if info.split()[1:2] == ["weavers"]]
    assert len(shown) == 2
    for info, text in shown:
        if info[0] == "rules":
            assert text == (package / info[2]).read_text(encoding="utf-8")
        else:
            assert text in (package / "__init__.py").read_text(encoding="utf-8")


LOG_KINDS_GAME = """game d { players 1..1 }
resource coins { start 5 }
track fame { levels 0..1 }
kind card { }
card c1 { }
action go main { gain 1 coins; pay 1 coins; lose 1 coins; advance fame; take c1; discard c1 }
action stop main { pass }
flow { rounds 2 { step s: turns seat until_pass { main go, stop } } }
"""


def test_the_log_kinds_are_the_documented_ones():
    """docs/api.md's table of ``game.log`` kinds is what the engine logs: a game that makes each
    kind, undone at the end, and whole Harvest games log those kinds and no other."""
    text = (DOCS / "api.md").read_text(encoding="utf-8")
    table = text.split("`kind` one of these:", 1)[1].split("\n\n", 2)[1]
    documented = {k for row in table.splitlines() for k in re.findall(r"`([a-z ]+)`", row.split("|")[1])}
    game = boardrules.new_game(None, players=1, texts={"d.rules": LOG_KINDS_GAME})
    for move in ("p1 go", "p1 stop", "p1 stop"):
        game.play(move)
    game.undo()
    assert {e.kind for e in game.log} | {"game over"} == documented
    assert game.log[-1][1:] == ("undo", None, ("p1 stop",), "undo") and game.log[-1].ply == 2
    from boardrules.bots import play_out, seat_bots
    for seed in range(3):
        harvest = boardrules.new_game("harvest", players=3, seed=seed)
        play_out(harvest, seat_bots([], 3, seed))
        assert harvest.log[-1].kind == "game over"
        assert {e.kind for e in harvest.log} <= documented
