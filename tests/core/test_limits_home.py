"""boardrules.limits: the one home of the engine's limits. Every check reads LIMITS when it runs
(record.py kept copies of the engine's limits, and tests patched the copy of one module: a record
could be read under other limits than its game was played under); LIMITS.changed() changes them
for a block and puts the old ones back, also on an error."""

from __future__ import annotations

import re
from pathlib import Path

import attrs
import pytest

import boardrules
from boardrules.limits import LIMITS, Limits
from boardrules.record import Record

from .test_history_bounds import WIDE

SRC = Path(boardrules.__file__).parent
DEFAULTS = Limits()


def test_changed_is_in_force_for_the_block_and_undone_after_it():
    with LIMITS.changed(max_moves=7, pipe_wait=0.5) as inside:
        assert inside is LIMITS and (LIMITS.max_moves, LIMITS.pipe_wait) == (7, 0.5)
        with LIMITS.changed(max_moves=3):
            assert (LIMITS.max_moves, LIMITS.pipe_wait) == (3, 0.5)
        assert LIMITS.max_moves == 7
    assert LIMITS == DEFAULTS


def test_changed_is_undone_after_an_error():
    with pytest.raises(KeyError):
        with LIMITS.changed(max_list=5, max_steps=99):
            raise KeyError("in the block")
    assert LIMITS == DEFAULTS


@pytest.mark.parametrize("changes, error, words", [
    ({"max_moves": 0}, ValueError, "max_moves must be a whole number of at least 1, not 0"),
    ({"max_steps": 2.5}, ValueError, "max_steps must be a whole number"),
    ({"max_steps": True}, ValueError, "max_steps must be a whole number"),
    ({"pipe_wait": 0}, ValueError, "pipe_wait must be a number of seconds above 0"),
    ({"max_nesting": 49}, ValueError, "max_nesting may be lowered, not raised past 48"),
    ({"max_tree_depth": 10_000}, ValueError, "max_tree_depth may be lowered"),
    ({"max_moves": 5, "max_sheep": 3}, TypeError, "max_sheep"),
])
def test_a_limit_out_of_bounds_is_refused_before_anything_changes(changes, error, words):
    with pytest.raises(error, match=re.escape(words)):
        with LIMITS.changed(**changes):
            pass
    assert LIMITS == DEFAULTS


def test_a_copy_holds_the_limits_as_they_were_and_is_taken_anew_once_they_change():
    before = LIMITS.copy()
    assert before == DEFAULTS and before is not LIMITS
    with LIMITS.changed(max_moves=7):
        inside = LIMITS.copy()
        assert inside.max_moves == 7 and inside is not before
        assert LIMITS.copy() is inside   # (unchanged since: the same value, the cache's key)
        with LIMITS.changed(max_moves=3):
            assert LIMITS.copy().max_moves == 3
        assert LIMITS.copy() == inside
    assert before.max_moves == DEFAULTS.max_moves   # (taken before: unchanged)
    assert LIMITS.copy() == DEFAULTS
    other = Limits(max_moves=9)
    assert other.copy() == other and other.copy() is not other


def test_limits_are_frozen_outside_changed():
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        LIMITS.max_moves = 3  # type: ignore[misc]


def test_a_record_is_read_under_the_limits_its_game_is_played_under():
    with LIMITS.changed(max_moves=3):
        game = boardrules.new_game(texts={"wide.rules": WIDE}, players=2)
        for move in ("p1 work", "p2 work", "p1 stop"):
            game.play(move)
        with pytest.raises(boardrules.ExecutionBudgetError, match="the game has had 3 moves"):
            game.play("p2 work")
        saved = game.save()
        assert boardrules.load_game(saved).state == game.state   # (3 moves: within the limit)
    longer = boardrules.new_game(texts={"wide.rules": WIDE}, players=2)
    for move in ("p1 work", "p2 work", "p1 work", "p2 work"):
        longer.play(move)
    text = longer.save()
    with LIMITS.changed(max_moves=3):   # (refused when read, as it was when played)
        with pytest.raises(boardrules.NotationError, match=r"\$\.actions: 4 moves, more than the 3 a game may have"):
            boardrules.load_game(text)
    assert boardrules.load_game(text).state == longer.state


def test_an_option_is_held_to_one_nesting_limit_in_a_record_and_in_the_rules():
    # (a record's options were checked against the parser's limit, the rules' against runtime's)
    nested: list = [1]
    for _ in range(5):
        nested = [nested]   # 6 levels
    record = {"format": "boardrules-record/1", "game": "harvest", "players": 2, "seed": 1,
              "options": {"deep": nested}, "modules": [], "actions": []}
    with LIMITS.changed(max_nesting=5):
        for build in (lambda: boardrules.Game.from_record(Record.from_json(record)),
                      lambda: boardrules.build_ruleset("harvest", options={"deep": nested})):
            with pytest.raises(boardrules.OptionError, match="nested deeper than 5 levels"):
                build()
    with LIMITS.changed(max_nesting=6):   # (within it: the option is then unknown to Harvest)
        with pytest.raises(boardrules.OptionError, match="unknown option"):
            boardrules.Game.from_record(Record.from_json(record))


def test_the_rules_run_under_the_limits_in_force():
    texts = {"l.rules": """game l { players 1 }
resource coins { }
var xs: list[int] = []
var n: int = 11
action grow main { set xs = 1..n }
action roll main {
  let d = dice(3)
  gain 1 coins
}
flow { rounds 1 { step play: turns seat once { main grow, roll } } }
"""}
    with LIMITS.changed(max_list=10, max_dice=2, max_steps=5000):
        game = boardrules.new_game(texts=texts, players=1)
        assert game.max_steps == 5000   # (new_game's default budget: the limit in force)
        with pytest.raises(boardrules.IllegalActionError, match=r"at most 10"):
            game.play("p1 grow")
        with pytest.raises(boardrules.IllegalActionError, match=r"rules roll 0 to 2 dice"):
            game.play("p1 roll")
    game = boardrules.new_game(texts=texts, players=1)
    assert game.max_steps == DEFAULTS.max_steps
    game.play("p1 grow")


def test_a_ruleset_built_under_other_limits_is_not_served_from_the_cache():
    text = "game t { players 1 }\nresource coins { }\n" + "".join(
        f"resource r{i} {{ }}\n" for i in range(40)) + "flow { }\n"
    boardrules.build_ruleset(texts={"t.rules": text})   # (cached under the defaults)
    with LIMITS.changed(max_tokens=100):
        with pytest.raises(boardrules.RulesError, match="more than 100 words, numbers and symbols"):
            boardrules.build_ruleset(texts={"t.rules": text})


def test_rule_files_and_records_are_read_within_the_limits_in_force(tmp_path):
    rules = tmp_path / "big.rules"
    rules.write_text("game big { players 1 }\n" + "# padding\n" * 20)
    with LIMITS.changed(max_file_bytes=100):
        with pytest.raises(boardrules.RulesError, match="larger than 100 bytes"):
            boardrules.build_ruleset("harvest", rules=[rules])
    game = boardrules.new_game(texts={"wide.rules": WIDE}, players=2)
    game.play("p1 work")
    record = tmp_path / "game.json"
    record.write_text(game.save())
    from boardrules.replay import replay_file
    with LIMITS.changed(max_record_bytes=100):
        with pytest.raises(boardrules.NotationError, match="a record file is at most 100 bytes"):
            replay_file(record)
    assert replay_file(record).moves == 1


def test_every_limit_is_read_from_its_home_and_kept_nowhere_else():
    fields = [f.name for f in attrs.fields(Limits)]
    code = {p: p.read_text() for p in sorted(SRC.rglob("*.py")) if p.name != "limits.py"}
    for name in fields:   # (each limit checked somewhere)
        assert any(f"LIMITS.{name}" in text for text in code.values()), name
    copies = [(p.name, m.group(0)) for p, text in code.items()
              for m in re.finditer(r"^\w+ *(?::[^=\n]*)?= *LIMITS\.\w+", text, re.M)]
    assert not copies   # (a module-level copy would not follow LIMITS.changed)


def test_a_plugins_replay_hook_receives_the_budget_in_force_as_a_number(tmp_path, monkeypatch):
    """replay_file's max_steps=None is resolved before a plugin's boardrules_replay hook sees it
    (the hook's contract: a number of steps)."""
    from types import SimpleNamespace

    from boardrules import plugins
    from boardrules.replay import replay_file
    seen = {}

    def hook(**kw):
        seen.update(kw)
        raise LookupError("seen")
    monkeypatch.setattr(plugins, "manager", lambda: SimpleNamespace(hook=SimpleNamespace(boardrules_replay=hook)))
    foreign = tmp_path / "site.json"
    foreign.write_text('{"site": "elsewhere"}')
    with LIMITS.changed(max_steps=4321), pytest.raises(LookupError, match="seen"):
        replay_file(foreign)
    assert seen["max_steps"] == 4321
