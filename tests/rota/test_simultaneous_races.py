"""Simultaneous play (``-m simultaneous``): what one marker holder does while the other is
deciding. A space chosen for exploration is claimed at once, so the two holders never explore
the same space (a trial's 9-player game stuck on ``keep`` when both did: the second had chosen
the space before the first laid a sector there); an answer offered before the other holder
acted and no longer open is asked again (or, with nothing open, the activation is spent).
Seed: "announce your action clearly and carry it out" (eclipse-rota-rules.md §11)."""

from __future__ import annotations

import pytest

import boardrules
from boardrules import IllegalActionError
from boardrules.bots import make_bot

from .common import start

# Two players, seed 2: after these turns both marker holders (p1 main, p2 secondary) may
# explore the space -1,0 between their territories.
# (The chance outcomes follow from the seed.)
OPENING = """
p1 explore; p1 space 1,0; p1 rotation 1; p1 claim; p1 done
p2 explore; p2 space -3,0; p2 rotation 0; p2 claim true
 p2 use true; p2 done
p2 explore; p2 space -4,0; p2 rotation 0; p2 claim true
 p2 use true; p2 done
p1 explore; p1 space 2,-1; p1 rotation 0; p1 claim true; p1 done
p1 explore; p1 space 1,-1; p1 rotation 0; p1 claim true; p1 done
p2 explore; p2 space -4,1; p2 rotation 1; p2 claim; p2 done
p2 explore; p2 space -2,-1; p2 rotation 1; p2 claim true
 p2 use true; p2 done
p1 explore; p1 space 0,-1; p1 rotation 0; p1 claim true; p1 done
"""
SPACE = "-1,0"


def _both_may_explore():
    g = start(2, ("simultaneous",), seed=2)
    for a in OPENING.replace("\n", ";").split(";"):
        if a.strip():
            g.play(a.strip())
    assert g.players_to_act() == frozenset({0, 1})
    return g


def _space_options(g, p):
    return next(d.options for d in g.decisions_due() if d.player == p and d.label == "space")


def test_a_space_chosen_is_claimed_until_the_exploration_ends():
    g = _both_may_explore()
    g.play("p2 explore")
    assert SPACE in _space_options(g, 1)
    g.play("p1 explore")
    g.play(f"p1 space {SPACE}")                    # p1 announces it first: it is theirs
    # p2 chose Explore before p1 named the space: p2's answer is no longer open, so p2 is
    # asked again (no sector drawn), among the spaces still open
    stack = g.get("stack_inner"), g.get("stack_middle"), g.get("stack_outer")
    g.play(f"p2 space {SPACE}")
    assert (g.get("stack_inner"), g.get("stack_middle"), g.get("stack_outer")) == stack
    assert SPACE not in _space_options(g, 1) and _space_options(g, 1)
    assert g.get("exploring", 0) == SPACE and g.get("exploring", 1) is None


def test_the_trial_game_no_longer_sticks():
    """The trial's order: p1 chooses the space first, then p2 starts exploring. The space is
    not among p2's choices; both explorations end and the game goes on."""
    g = _both_may_explore()
    g.play("p1 explore")
    g.play(f"p1 space {SPACE}")
    g.play("p2 explore")
    assert SPACE not in _space_options(g, 1)
    before = g.state
    with pytest.raises(IllegalActionError, match="is not one of the choices for 'space'"):
        g.play(f"p2 space {SPACE}")
    assert g.state is before
    for _ in range(40):                            # both explorations, each to its end
        legal = list(g.legal_actions())
        assert legal, "stuck"
        done = [a for a in legal if a.name == "done"]
        g.play(done[0] if done else legal[0])
        if g.get("exploring", 0) is None and g.get("exploring", 1) is None:
            break
    assert list(g.legal_actions())


def _may_explore(g, p):
    """The spaces ``p`` would be offered by choosing Explore now."""
    c = g.copy()
    c.play(f"p{p + 1} explore")
    return _space_options(c, p)


def test_a_discarded_sector_frees_the_space_at_once():
    g = _both_may_explore()
    g.play("p1 explore")
    g.play(f"p1 space {SPACE}")
    assert SPACE not in _may_explore(g, 1)
    g.play("p1 rotation")                          # declined: the sector is discarded
    assert g.get("exploring", 0) is None and SPACE in _may_explore(g, 1)


def test_nobody_else_places_a_disc_on_or_moves_into_a_hex_being_explored():
    g = _both_may_explore()
    g.play("p1 explore")
    g.play(f"p1 space {SPACE}")
    g.play("p1 rotation 1")                        # laid, open to p2's disc and interceptor ...
    assert g.decisions_due()[0].label == "claim"   # ... while p1 decides on a disc there
    for name in ("influence", "move"):
        c = g.copy()
        c.play(f"p2 {name}")
        options = next(d.options for d in c.decisions_due() if d.player == 1)
        assert options and all(not str(o).endswith(SPACE) for o in options), (name, options)
    g.play("p1 claim true")
    assert g.get("controller", index=SPACE) == 0


def test_a_move_the_other_holder_forbade_meanwhile_is_asked_again_or_spent():
    """A seeded random 9-player game (486 moves): p6 reacts with a move whose one option
    p5's interceptor then pins (p5 moved in first). It stuck there before."""
    g = boardrules.new_game("eclipse", players=9, seed=1022, options={"auto_combat": True, "rounds": 3},
                            modules=["nine-players", "simultaneous", "new-discoveries", "rare-technologies"])
    bot = make_bot("random", seed=1022)
    for _ in range(486):
        g.play(bot.choose(g))
    fly = "interceptor@-2,-1>-3,0"
    assert g.record.actions[-1] == "p5 fly interceptor@-3,0>-2,-1"
    assert [(d.player, d.label, d.options) for d in g.decisions_due()] == [(5, "fly", (fly,))]
    ships = g.get("ships", index="-2,-1")
    assert f"p6 fly {fly}" in g.legal_actions()    # the answer stands, the move does not
    g.play(f"p6 fly {fly}")
    assert g.get("ships", index="-2,-1") == ships and not g.decisions_due()
