"""Generated code reads a name of the rules (a resource, variable, entity...) without looking in
the bindings first when no rule binds that name (``Ruleset.binding_names``, codegen.py
``_Gen.may_bind``). A name some rule binds keeps the look-up: a block run without bindings of
its own (a track's level reward) sees those of the rule that ran it, as the interpreter does."""

from __future__ import annotations

import random

import pytest

import boardrules
from tests.core.test_guards import compare_states

# a level reward reading 'coins', advanced by an action whose parameter is named 'coins': the
# reward runs with the action's bindings, so it reads the parameter (1 or 2), not the resource
LORE = """track lore { levels 0..2; at 1 { gain coins grain } }
action learn(coins: int in 1..2) main { advance lore }
override step pick: turns reverse seat once { main buy, study, learn }
"""


def lore(backend: str = "compiled", seed: int = 1, text: str = LORE):
    return boardrules.new_game("harvest", players=2, seed=seed, texts={"lore.rules": text},
                               backend=backend)


def grain_after_learning(g) -> int:
    """The grain of the first player to take ``learn(2)``, once it is played."""
    while not any(a.name == "learn" for a in g.legal_actions()):
        g.play(list(g.legal_actions())[0])
    action = next(a for a in g.legal_actions() if a.name == "learn" and a.args == (2,))
    g.play(action)
    return g.state.values.get(("r", "grain", action.player), 0)


def test_the_names_rules_bind():
    rs = boardrules.new_game("harvest", players=2, seed=1).ruleset
    # parameters (build_farm's h, sell's n, buy's c), loop and decision variables, a trigger's
    # names, 'self'; not a quantifier's variable (h2: a Python local of the generated code)
    assert rs.binding_names == {"h", "n", "c", "p", "bonus", "self"}
    assert "coins" in lore().ruleset.binding_names


@pytest.mark.parametrize("backend", ["compiled", "interpreted"])
def test_a_reward_reads_the_binding_that_hides_a_resource(backend):
    assert grain_after_learning(lore(backend)) == 2   # (the parameter; 'coins' held are 5)


def test_a_name_wrongly_taken_as_unbound_is_caught(monkeypatch):
    # with 'coins' taken for a name no rule binds, the reward would gain the 5 coins held
    # (rules of their own, so that no game before compiled the reward with the right answer)
    g = lore(text=LORE + "# a ruleset of its own\n")
    monkeypatch.setattr(g.ruleset, "binding_names", frozenset({"self"}))
    assert grain_after_learning(g) == 5


@pytest.mark.parametrize("seed", [1, 2])
def test_the_listing_and_play_are_the_full_tries(seed):
    assert compare_states(lore(seed=seed), 400, random.Random(seed)) > 20
