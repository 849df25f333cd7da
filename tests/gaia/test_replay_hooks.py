"""The replay of site records takes each module's notation from the module
(``ModuleSpec.extras["gaia-project.replay"]``, :mod:`boardrules_gaia.replay`), as the export does.

The base replay names no faction and no faction's action: without the module ``factions`` it
translates nothing of theirs (a faction's line is refused, a base line still replays); the
standard factions' notation is in ``boardrules_gaia_factions/replay.py``; the third-party
Weavers (``tests/thirdparty/weavers``) replay with a contribution of their own, nothing of
``boardrules_gaia`` edited.
"""

from __future__ import annotations

import ast
import json
import random
import re
from pathlib import Path

import pytest

import boardrules
from boardrules.ruleset import build_ruleset
from boardrules_gaia import notation as N
from boardrules_gaia import replay as R
from boardrules_gaia.replay import final_state
from boardrules_gaia.replay_hooks import CONVERSIONS, PLACEMENTS, replay_notation
from boardrules_gaia_factions.replay import REPLAY
from tests.gaia.test_cases import _replayer_before
from tests.gaia.test_export import _FinalTiles
from tests.test_third_party import weavers  # noqa: F401  (the Weavers registered, a fixture)

GAIA = Path(R.__file__).parent
GAME = "gaia-project"


def _strings(value):
    """Every string in a (nested) contribution value."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(k)
            yield from _strings(v)
    elif isinstance(value, (tuple, list)):
        for v in value:
            yield from _strings(v)


def _faction_words() -> set[str]:
    """The factions (site and rules names), the actions the module ``factions`` adds and every
    name in its replay contribution, less the site's words every faction uses (the command
    keywords, the basic resource codes, buildings, tracks, the record's ``brainstone`` field)."""
    full, base = build_ruleset(GAME), build_ruleset(GAME, modules=["-factions", "weavers"])
    words = set(full.by_kind["faction"]) | set(N.FACTIONS) | (set(full.actions) - set(base.actions))
    words |= set(_strings(list(REPLAY["gaia-project.replay"].values())))
    site = {"tech", "brainstone", *N.BUILDINGS, *N.TRACKS, *N.BRAINSTONE_TARGETS,
            *(set(N._PARSERS) - set(N.RESOURCES))}   # command keywords (swap-PI is a faction's)
    return {w for w in words if w not in site and len(w) > 2 and re.fullmatch(r"[\w-]+", w)}


def _code_words(path: Path) -> list[str]:
    """Identifiers and string constants of a module, docstrings and comments left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = {id(n.body[0].value) for n in ast.walk(tree)
            if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef)) and n.body
            and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    out = []
    for n in ast.walk(tree):
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs:
            out.append(n.value)
        elif isinstance(n, ast.Name):
            out.append(n.id)
        elif isinstance(n, ast.Attribute):
            out.append(n.attr)
    return out


@pytest.mark.parametrize("module", ["replay.py", "replay_hooks.py", "notation.py"])
def test_the_base_replay_names_no_faction_and_no_factions_action(weavers, module):
    words = _faction_words()
    assert {"ivits_station", "nevlas_oc", "itars_tech", "gaia_spend", "brain", "fed_gleens",
            "taklons", "space-station"} <= words   # the check knows what it looks for
    found = {w for text in _code_words(GAIA / module) for w in words
             if re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", text)}
    if module == "notation.py":  # the site's grammar: its 14 factions, keywords, special words
        found -= {*N.FACTIONS, *N.RESOURCES, *N._PARSERS}
    assert not found, f"{module} names {sorted(found)}"


@pytest.mark.parametrize("modules,commands", [((), ()), (("xshape",), ()), (("auction",), ("bid", "faction")),
                                               (("random-factions",), ("faction",))])
def test_without_the_module_factions_the_replay_notation_is_the_base_games(modules, commands):
    """(The site's variants translate only how a faction is chosen.)"""
    base = replay_notation(modules)
    assert dict(base.conversions) == CONVERSIONS and dict(base.placements) == PLACEMENTS
    assert base.stone is None and sorted(base.commands) == list(commands)
    for table in ("grouped", "combined", "spends", "specials", "builds", "declines",
                  "declined_unless_written", "answered_ahead", "names"):
        assert not getattr(base, table), table
    with_factions = replay_notation(("factions",))
    assert with_factions.specials["space-station"] == ("ivits_station", "build")
    assert with_factions.conversions[("gf", "q")] == ("baltaks_gf", 1, 1)
    assert with_factions.stone == "brain"


# record deep-mind-2 before its move 201: the Nevlas (with their PI) to play; a line of theirs
# each faction translation of the base game's notation alone refuses, and a base line it plays
FACTION_LINES = [
    ("nevlas special 4pw. spend 4pw for 1o,1c.", "no translation for the combined conversion"),
    ("nevlas special 4pw. spend 1t-a3 for 1k.", "no conversion for 'spend 1t-a3 for 1k'"),
    ("nevlas spend 4c for 1q.", "no conversion for 'spend 4c for 1q'"),
    ("nevlas spend 4tg for tech.", "no conversion for 'spend 4tg for tech'"),
    ("nevlas special up-lowest. up sci.", "no translation for 'special up-lowest'"),
    ("nevlas special swap-PI. swap-PI 1A1.", "no translation for 'special swap-PI'"),
    ("nevlas swap-PI 1A1.", "no translation for 'swap-PI 1A1'"),
    ("nevlas brainstone area1.", "no translation for 'brainstone area1'"),
]


@pytest.mark.parametrize("text,refusal", FACTION_LINES)
def test_the_base_notation_alone_replays_no_faction_line(text, refusal):
    rec, rp, k = _replayer_before("deep-mind-2", 201)
    rp.notation = replay_notation(m for m in rp.game.ruleset.modules if m != "factions")
    with pytest.raises(R.ReplayError, match=refusal):
        rp.line(k, (*rec.lines[:k], N.parse_line(text)))


def test_the_base_notation_alone_still_replays_base_lines():
    rec, rp, k = _replayer_before("deep-mind-2", 201)
    rp.notation = replay_notation(m for m in rp.game.ruleset.modules if m != "factions")
    p = rec.factions.index("nevlas")
    before = rp.game.state.values.get(("r", "ore", p), 0)
    rp.line(k, (*rec.lines[:k], N.parse_line("nevlas special 4pw. spend 3pw for 1o.")))
    assert rp.game.state.values[("r", "ore", p)] == before + 1
    assert str(rp.game.record.actions[-1]) == f"p{p + 1} convert pw_ore"


def test_the_factions_line_replays_with_their_contribution():
    rec, rp, k = _replayer_before("deep-mind-2", 201)
    rp.line(k, (*rec.lines[:k], N.parse_line("nevlas special 4pw. spend 4pw for 1o,1c.")))
    assert str(rp.game.record.actions[-1]).endswith("convert nevlas_oc")


# ---- the Weavers: a third-party faction's site lines replay through its contribution --------

def _weavers_game(seed: int = 6, weaves: int = 2):
    """A 2-player game, p1 the Weavers, played until they have woven ``weaves`` mines."""
    g = boardrules.new_game(GAME, players=2, seed=seed)
    g.play("p1 pick_faction weavers")
    rnd = random.Random(seed)
    woven = 0
    while woven < weaves:
        assert not g.over, "the Weavers never wove: choose another seed"
        legal = list(g.legal_actions())
        weave = [a for a in legal if a.name == "weave_mine"]
        grow = [a for a in legal if a.name in ("upgrade", "build_mine")]
        a = weave[0] if weave else rnd.choice(grow) if grow and rnd.random() < 0.7 else rnd.choice(legal)
        g.play(a)
        woven += a.name == "weave_mine"
    return g


def _replay_export(game, tmp_path):
    from boardrules_gaia.export import export_game
    doc = export_game(game)
    path = tmp_path / "weavers.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return doc, R.replay_record(path, strict=True)


def test_a_weavers_line_replays_through_their_contribution(weavers, tmp_path):
    g = _weavers_game()
    woven = [a for a in map(g.parse, g.record.actions) if a.name == "weave_mine"]
    doc, out = _replay_export(g, tmp_path)
    assert doc["factions"][0] == "weavers"
    for a in woven:   # the site's line of the Weavers' action ...
        assert f"weavers build m {a.args[0]}" in " ".join(doc["moves_clean"])
    assert out.ok, out.first_problem()
    # ... replayed as that action, and the whole game to the same state
    again = [a for a in map(out.game.parse, out.game.record.actions) if a.name == "weave_mine"]
    assert again == woven
    tiles = _FinalTiles(g)
    assert final_state(out.game, tiles) == final_state(g, tiles)
    assert out.game.scores() == g.scores()


def test_without_their_contribution_the_weavers_lines_replay_otherwise(weavers, monkeypatch, tmp_path):
    g = _weavers_game()
    monkeypatch.delitem(weavers.EXTRAS["gaia-project.replay"], "builds")
    _doc, out = _replay_export(g, tmp_path)
    replayed = [a.name for a in map(out.game.parse, out.game.record.actions)]
    tiles = _FinalTiles(g)
    assert "weave_mine" not in replayed
    assert not (out.ok and final_state(out.game, tiles) == final_state(g, tiles))
