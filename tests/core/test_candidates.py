"""The engine's candidates are made without attrs' ``__init__`` (game/actions.py, ``_candidate``): they
must be the very actions ``Action(...)`` makes (equal, same hash, same text), with every field
set, so a field added to :class:`Action` cannot be left out."""

from __future__ import annotations

import attrs

import boardrules
from boardrules.game import Action, _candidate, _slot_setters


def test_candidates_are_the_actions_attrs_makes():
    for player, name, args in [(0, "buy", ("sow",)), (2, "done", ()), (-1, "tile", (("a", 1),)),
                               (1, "sell", (3,))]:
        made, fast = Action(player, name, args), _candidate(player, name, args)
        assert fast == made and hash(fast) == hash(made) and {made: 1}[fast] == 1
        assert attrs.asdict(fast) == attrs.asdict(made) and repr(fast) == repr(made)
        assert str(fast) == str(made)
    assert len(_slot_setters()) == len(attrs.fields(Action)) + 1   # (every field, the cached hash)


def test_listed_candidates_are_actions():
    g = boardrules.new_game("harvest", players=3, seed=3)
    for a in g.legal_actions():
        assert type(a) is Action and a == Action(a.player, a.name, a.args)


def test_a_listing_runs_once(monkeypatch):
    """``list(game.legal_actions())`` asks for an iterator before the length: the candidates
    are listed once, whichever comes first (a listing begun before another filled the cache
    reads it)."""
    from boardrules.game import Game
    listings = []
    candidates = Game._candidates
    monkeypatch.setattr(Game, "_candidates", lambda self, *a, **k: listings.append(1) or candidates(self, *a, **k))
    g = boardrules.new_game("harvest", players=3, seed=3)
    listed = list(g.legal_actions())
    assert listed and len(listings) == 1
    g = boardrules.new_game("harvest", players=3, seed=3)
    it = iter(g.legal_actions())   # (not begun: the next listing fills the cache it reads)
    assert list(g.legal_actions()) == listed and list(it) == listed and len(listings) == 2
