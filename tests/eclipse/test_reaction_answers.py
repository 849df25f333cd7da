"""The install answers of an Upgrade reaction are listed without being tried (game/verdicts.py,
``_answers_settle``: a decision left by a turn that has ended, lang/lazy.py ``answers_hold``
with the 'after turn' blocks behind it): random games with Rise of the Ancients modules offer
the same legal actions at every state as with every answer tried, and play to the same record."""

from __future__ import annotations

import random

import pytest

import boardrules
from boardrules.game import Game

MODULE_SETS = [(), ("rare-technologies", "developments", "warp-portals"),
               ("new-species", "new-discoveries", "alliances")]


def _play(seed: int, modules: tuple, untried: bool) -> tuple[list, int]:
    """Every state's legal actions (as text) of a random 4-player game and the final record;
    how many reactions' install decisions were listed untried."""
    g = boardrules.new_game("eclipse", players=4, seed=seed, modules=list(modules),
                            options={"rounds": 4})
    if not untried:   # (the general way: every answer tried in full)
        g._answers_settle = lambda: False  # type: ignore[method-assign]
    rnd, seen, settled = random.Random(seed), [], 0
    while not g.over:
        st = g.state
        legal = list(g.legal_actions())
        if st.pending and st.pending[0].source == "react_upgrade" and st.pending[0].label == "install":
            settled += Game._answers_settle(g)
        seen.append([g.format(a) for a in legal])
        g.play(rnd.choice(legal))
    return seen + [[str(a) for a in g.record.actions]], settled


@pytest.mark.parametrize("modules", MODULE_SETS, ids=lambda m: "+".join(m) or "base")
@pytest.mark.parametrize("seed", [3, 4])
def test_reaction_answers_listed_untried_play_the_same_games(seed, modules):
    fast, settled = _play(seed, modules, True)
    slow, _ = _play(seed, modules, False)
    assert settled and fast == slow
