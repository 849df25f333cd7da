"""Issue 12: the Upgrade family's verdicts and options, held to the oracles where blueprints
change most (rich players preferring Research and Upgrade, so that many parts are unlocked and
placed), with the Rise of the Ancients modules that extend the Upgrade's slots and parts: rare
technologies (parts, ``not_on``), new species (designs with printed energy, a class that does
not move), new discoveries (parts outside the grid, spare parts), the ancients' homeworlds.

- The listing (guards, lazy choices: lang/lazy.py) lists ``upgrade``, ``react_upgrade`` and
  ``again`` exactly where trying each candidate in full finds them legal
  (``Game._legal_by_trying``): none listed but illegal, none legal but left out.
- A played Upgrade offers the options the interpreter's filter admits (each option's ``where``
  asked of ``stat_after`` and ``change_class`` one by one, no batch form, no memo shared with
  the compiled game's): the batch answers (blueprints.py, ``Tables.class_answers``) decide no
  option otherwise.
"""

from __future__ import annotations

import random

import pytest

import boardrules
from tests.rota.common import _rich

FAMILY = ("upgrade", "react_upgrade", "again")
MODULE_SETS = [("rare-technologies", "new-species", "new-discoveries"),
               ("ancient-homeworlds", "secret-homeworlds", "rare-technologies")]


@pytest.mark.parametrize("modules", MODULE_SETS, ids="+".join)
def test_upgrade_verdicts_and_options_are_the_oracles(modules):
    listed_family = installs = 0
    for seed in (4, 9):
        games = [boardrules.new_game("eclipse", players=4, seed=seed, modules=list(modules),
                                     options={"rounds": 3, "auto_combat": True}, rules=[_rich(30)],
                                     backend=backend) for backend in ("compiled", "interpreted")]
        g, oracle = games
        rnd = random.Random(seed)
        for _ in range(300):
            if g.over:
                break
            legal = list(g.legal_actions())
            family = [a for a in legal if a.name in FAMILY]
            assert family == [a for a in g._legal_by_trying() if a.name in FAMILY], (seed, len(g.record.actions))
            listed_family += len(family)
            own = [a for a in legal if a.name in (*FAMILY, "install", "research")]
            a = rnd.choice(own if own and rnd.random() < 0.7 else legal)
            for game in games:
                game.play(a)
            pending = g.state.pending
            if pending and pending[0].label == "install":
                assert pending[0].options == oracle.state.pending[0].options, (seed, a)
                installs += 1
    assert listed_family > 100 and installs > 20
