"""End-of-game conversions obey the caps (gaia-project.md §1, §12.6): leftover power becomes
credits (bowl III 1:1 after burning, the brainstone as 3, Nevlas PI tokens as 2) and QIC become
ore, each gain capped (credits 30, ore 15); what a cap cuts off is lost before the 1 VP per 3
credits + ore + knowledge is counted. Field case: shared/cases/gaia random-2p-2009 (Xenos at 30
credits with a token in bowl III scores 1 VP less than uncapped arithmetic).
Spent tokens all go back to bowl I, Nevlas' with the PI too (the site's engine returns only half of
them, dividing by the token value twice: kept as the rule, §12.6).
"""

from __future__ import annotations

import pytest

from .test_factions import _final_vp
from .test_game import res, var


@pytest.mark.parametrize("faction,changes,vp,credits,ore", [
    # at 30 credits the credits of bowl III are lost: (30 + 1) // 3 = 10, not (32 + 1) // 3 = 11
    ("xenos", {("r", "credits", 0): 30, ("r", "bowl3", 0): 2, ("r", "knowledge", 0): 1}, 10, 30, 0),
    ("xenos", {("r", "credits", 0): 29, ("r", "bowl3", 0): 2, ("r", "knowledge", 0): 2}, 10, 30, 0),
    # QIC to ore at 15 ore: lost
    ("xenos", {("r", "ore", 0): 15, ("r", "qic", 0): 3}, 5, 0, 15),
    ("xenos", {("r", "ore", 0): 14, ("r", "qic", 0): 3, ("r", "knowledge", 0): 2}, 5, 0, 15),
    # Nevlas PI: 3 bowl-III tokens worth 6 credits, capped at 30
    ("nevlas", {("r", "credits", 0): 27, ("r", "bowl3", 0): 3, ("v", "built", 0, "pi"): 1}, 10, 30, 0),
    # Taklons: the brainstone worth 3 in bowl III, capped
    ("taklons", {("r", "credits", 0): 29, ("r", "bowl3", 0): 1, ("r", "bowl1", 0): 0,
                 ("v", "brain", 0): "area3", ("r", "knowledge", 0): 2}, 10, 30, 0),
])
def test_end_of_game_conversions_obey_the_caps(faction, changes, vp, credits, ore):
    got, g = _final_vp(faction, changes)
    assert got == vp
    assert res(g, "credits", 0) == credits and res(g, "ore", 0) == ore and res(g, "qic", 0) == 0


def test_below_the_caps_every_resource_counts():
    got, g = _final_vp("xenos", {("r", "credits", 0): 20, ("r", "bowl3", 0): 2, ("r", "qic", 0): 2,
                                 ("r", "ore", 0): 3, ("r", "knowledge", 0): 2})
    assert got == (22 + 5 + 2) // 3 and res(g, "credits", 0) == 22 and res(g, "ore", 0) == 5


def test_nevlas_pi_spent_tokens_all_return_to_bowl_one():
    """The site's engine gives back only half of them; the rule: spent tokens go to bowl I."""
    got, g = _final_vp("nevlas", {("r", "bowl3", 0): 4, ("r", "bowl2", 0): 0, ("r", "bowl1", 0): 0,
                                  ("v", "built", 0, "pi"): 1})
    assert got == 8 // 3 and res(g, "credits", 0) == 8
    assert (res(g, "bowl1", 0), res(g, "bowl2", 0), res(g, "bowl3", 0)) == (4, 0, 0)
    assert var(g, "brain", 0) in (None, "none")
