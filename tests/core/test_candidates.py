"""The engine's candidates are made without ``Action``'s checks (game/actions.py, ``_candidate``, and
the generated listings): they must be the very actions ``Action(...)`` makes (equal, same hash, same
text). An Action is a tuple underneath, yet behaves as the value it was: equal only to an action of
equal arguments of the same types, never to a plain tuple, not ordered, pickled whole."""

from __future__ import annotations

import copy
import pickle

import pytest

import boardrules
from boardrules.game import Action, _candidate


def test_candidates_are_the_actions_action_makes():
    for player, name, args in [(0, "buy", ("sow",)), (2, "done", ()), (-1, "tile", (("a", 1),)),
                               (1, "sell", (3,))]:
        made, fast = Action(player, name, args), _candidate(player, name, args)
        assert type(fast) is Action and fast == made and hash(fast) == hash(made) and {made: 1}[fast] == 1
        assert repr(fast) == repr(made) == f"Action(player={player!r}, name={name!r}, args={args!r})"
        assert str(fast) == str(made) and (fast.player, fast.name, fast.args) == (player, name, args)


def test_actions_compare_by_value_and_kind():
    a = Action(0, "sell", (1,))
    assert a == Action(0, "sell", (1,)) and not a != Action(0, "sell", (1,))
    assert a != Action(0, "sell", (True,)) and not a == Action(0, "sell", (True,))   # (True == 1 in Python)
    assert Action(0, "t", ((1, "a"),)) != Action(0, "t", ((True, "a"),))
    assert {a: 1}.get(Action(0, "sell", (True,))) is None and Action(0, "sell", (True,)) not in [a]
    for plain in [(0, "sell", (1,)), tuple(a)]:   # (from either side)
        assert a != plain and plain != a and not a == plain and not plain == a
    assert a != "p1 sell 1" and a != None   # noqa: E711
    with pytest.raises(TypeError):
        sorted([a, Action(1, "buy")])
    with pytest.raises(AttributeError):
        a.name = "buy"   # type: ignore[misc]


def test_actions_pickle_and_copy_whole():
    for a in [Action(0, "sell", (True,)), Action(-1, "roll", ((3, 5),)), Action(1, "study")]:
        for b in [pickle.loads(pickle.dumps(a)), copy.copy(a), copy.deepcopy(a)]:
            assert type(b) is Action and b == a and hash(b) == hash(a) and type(b.args[0] if b.args else 0) \
                is type(a.args[0] if a.args else 0)


def test_listed_candidates_are_actions():
    g = boardrules.new_game("harvest", players=3, seed=3)
    for a in g.legal_actions():
        assert type(a) is Action and a == Action(a.player, a.name, a.args)


def test_a_listing_runs_once(monkeypatch):
    """``list(game.legal_actions())`` asks for an iterator before the length: the candidates
    are listed once, whichever comes first (a listing begun before another filled the cache
    reads it)."""
    from boardrules.ruleset import Ruleset
    listings = []
    step_lister = Ruleset.step_lister

    def counted(self, step, settling=False):   # (each run of a step's listing, settled or not)
        lister = step_lister(self, step, settling)
        return lambda *a: listings.append(1) or lister(*a)
    monkeypatch.setattr(Ruleset, "step_lister", counted)
    g = boardrules.new_game("harvest", players=3, seed=3)
    listed = list(g.legal_actions())
    assert listed and len(listings) == 1
    g = boardrules.new_game("harvest", players=3, seed=3)
    it = iter(g.legal_actions())   # (not begun: the next listing fills the cache it reads)
    assert list(g.legal_actions()) == listed and list(it) == listed and len(listings) == 2


def test_the_engines_states_are_the_states_state_makes():
    """game/flow.py makes a move's state without attrs' ``__init__`` (state.py, ``_state``): every
    field set, the same value as ``State(...)`` makes."""
    import attrs

    from boardrules.state import State, _state
    g = boardrules.new_game("harvest", players=3, seed=3)
    g.play(g.legal_actions()[0])
    made, fast = State(dict(g.state.values), g.state.pending), _state(dict(g.state.values), g.state.pending)
    assert type(g.state) is State and attrs.asdict(fast) == attrs.asdict(made) and hash(fast) == hash(made)
    assert fast == made == g.state and repr(fast) == repr(made)
