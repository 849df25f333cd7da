"""A candidate whose sure prechecks passed (lang/guards.py, ``Guards.sure``) and that ends its
player's turn (a main action of a step without free actions: Harvest's ``buy`` in the setup's
pick step, Gaia's ``pick_booster``) is listed without its run when the next turn of the step
begins without a rule running, as ``done`` is (game/verdicts.py, ``_sure_settles``, ``_done_settles``).
The oracle: the listing equals the full tries and the played state a full run
(tests/core/test_guards.py, ``compare_states``), also where the action's rest leaves an 'after
turn' block that breaks a rule when the turn ends (``Guards.sure_after``)."""

from __future__ import annotations

import random

import pytest

import boardrules
from boardrules import game as G
from tests.core.test_guards import compare_states

# buying the tithe in the setup leaves a block that breaks a rule where the turn ends
BROKE = """override action buy(c: card) main {
  require c in deck else "that card is not on offer"
  require not holds(c) else "you have that card already"
  pay c.cost coins
  take c
  after turn { require round > 0 or c != tithe else "a tithe bought in the setup ends no turn" }
}
"""


def broke(seed: int, tag: str = ""):
    """Harvest with BROKE (``tag``: rules of their own, so that no game before worked out their
    guards)."""
    return boardrules.new_game("harvest", players=3, seed=seed,
                               texts={"broke.rules": BROKE + f"# {tag}\n"})


def full_runs(monkeypatch) -> list[str]:
    """The names of the candidates run in full while listing, as they are run."""
    names: list[str] = []
    run = G.Game._candidate_run

    def counting(self, action, *args, **kw):
        names.append(action.name)
        return run(self, action, *args, **kw)
    monkeypatch.setattr(G.Game, "_candidate_run", counting)
    return names


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_harvest_and_the_broken_setup_are_the_full_tries(seed):
    g = boardrules.new_game("harvest", players=3, seed=seed)
    assert compare_states(g, 300, random.Random(seed)) > 20
    g = broke(seed)
    assert g.ruleset.guards.sure("buy") is not None and "buy" in g.ruleset.guards.sure_after
    assert compare_states(g, 300, random.Random(seed)) > 20


def test_the_setup_picks_are_listed_without_their_runs(monkeypatch):
    names = full_runs(monkeypatch)
    g = boardrules.new_game("harvest", players=3, seed=5)
    for _ in range(2):   # (the pick step's first two turns: the next turn then begins)
        assert {a.name for a in g.legal_actions()} >= {"buy", "study"}
        assert "buy" not in names
        g.play(list(g.legal_actions())[0])   # (then run: the run is the play's)
        del names[:]
    g = boardrules.new_game("gaia-project", players=4, seed=3)
    rng = random.Random(3)
    while not any(a.name == "pick_booster" for a in g.legal_actions()):
        g.play(rng.choice(list(g.legal_actions())), check=False)
    del names[:]
    assert len(g.legal_actions()) >= 4 and "pick_booster" not in names


def test_an_after_turn_block_left_by_the_rest_is_caught(monkeypatch):
    # taken for a rest that leaves no block, buying the tithe would be listed in the setup
    g = broke(2, "caught")
    assert g.ruleset.guards.sure("buy") is not None   # (worked out: buy's rest then known)
    monkeypatch.setattr(g.ruleset.guards, "sure_after", set())
    with pytest.raises(AssertionError, match="state"):
        compare_states(g, 300, random.Random(2))


TAKEN = """game pick { players 2..3 }
kind badge { field worth: int = 1 }
badge gold { worth 3 }
badge silver { worth 2 }
badge tin { worth 1 }
var mine: badge? per player = none
action choose_badge(b: badge) main {
  require owner(b) == none else "that badge is taken"
  take b
  set mine = b
}
flow { setup { step picks: turns seat once { main choose_badge } } }
"""


def test_a_take_whose_owner_is_required_is_a_sure_precheck(monkeypatch):
    """``require owner(b) == none; take b`` then inert statements: the take is tested by the
    prechecks and inert after the require (lang/inert.py): its rest begins at the take, among
    the statements tested, and the candidates are listed without their runs (Gaia's
    pick_faction too), the same as the full tries, a badge taken refused."""
    names = full_runs(monkeypatch)
    g = boardrules.new_game(texts={"pick.rules": TAKEN}, players=3)
    assert g.ruleset.guards.sure("choose_badge") is not None
    assert [a.args for a in g.legal_actions()] == [("gold",), ("silver",), ("tin",)]
    assert names == []
    g.play("p1 choose_badge silver")
    assert [a.args for a in g.legal_actions()] == [("gold",), ("tin",)] == \
        [a.args for a in g._legal_by_trying()]
    g = boardrules.new_game("gaia-project", players=4, seed=3)
    assert g.ruleset.guards.sure("pick_faction") is not None
    del names[:]
    assert len(g.legal_actions()) >= 10 and "pick_faction" not in names
    assert compare_states(g, 12, random.Random(3)) == 12
