"""The base Gaia Project rules name no faction (issue 7): what a faction does differently is
in the faction's own entity (its fields and slots), so a faction can be removed or added
without editing the base files. The factions are the module ``factions``
(``plugins/boardrules_gaia_factions``)."""

from __future__ import annotations

import re

import pytest

import boardrules
import boardrules_gaia


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
