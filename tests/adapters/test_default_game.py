"""The adapters' ``game`` defaults to Harvest only without rules of one's own: ``env(texts=…)`` and
``register(texts=…)`` built the texts on top of Harvest, refused as 'a second game declaration'."""

from __future__ import annotations

import pytest

TINY = """game tiny { players 1..2 }
resource coins { start 0; scored true }
action work main { gain 1 coins }
flow { rounds 2 { step play: turns seat once { main work } } }
"""


def test_pettingzoo_env_of_texts_alone_and_harvest_by_default():
    pz = pytest.importorskip("boardrules.adapters.pettingzoo", exc_type=ImportError)
    own = pz.env(texts={"tiny.rules": TINY})
    assert own.metadata["name"] == "boardrules_tiny_v0" and own.players == 1
    assert pz.env().metadata["name"] == pz.env(None).metadata["name"] == "boardrules_harvest_v0"


def test_openspiel_register_of_texts_alone_and_harvest_by_default():
    pytest.importorskip("pyspiel")
    from boardrules.adapters.openspiel import register
    assert register(texts={"tiny.rules": TINY}) == "boardrules_tiny"
    assert register() == register(None) == "boardrules_harvest"


def test_a_named_game_with_a_game_of_its_own_says_to_build_it_alone():
    import boardrules
    with pytest.raises(boardrules.RulesError, match=r"a second game declaration: 'tiny'(.|\n)*built alone "
                                                    r"\(game=None, with only their texts=\)"):
        boardrules.build_ruleset("harvest", texts={"tiny.rules": TINY})
