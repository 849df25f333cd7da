"""Modules built apart, switched on together: what one module draws or deals follows the rules
another adds to the base game's data (the module-combination property draws random subsets; these
pin the pairs whose interplay a rule names)."""

from __future__ import annotations

import boardrules


def _start(modules, seed):
    g = boardrules.new_game("eclipse", players=2, seed=seed, modules=modules)
    for p in (2, 1):
        g.play(f"p{p} pick_species terrans")
    return g


def test_the_technology_preview_sets_rare_technologies_aside():
    """predictable-technology's preview is a draw like any other: with rare-technologies on, a
    rare technology drawn for it goes aside, never into the preview, and does not count toward
    the preview's size (RotA seed, rare technologies; official variants)."""
    seen_aside = 0
    for seed in range(12):
        g = _start(["predictable-technology", "rare-technologies"], seed)
        rare = {t for t in g.get("tech_aside")}
        seen_aside += len(rare)
        preview = g.get("tech_next")
        assert len(preview) == g.get("techs_per_round")[2]
        assert not any(g.ruleset.entities[t].fields.get("drawn_aside") for t in preview), preview
    assert seen_aside, "no rare technology was drawn aside in any game: the test shows nothing"
