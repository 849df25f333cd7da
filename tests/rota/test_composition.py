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


def test_the_preview_joins_the_supply_when_another_module_decides_between():
    """predictable-technology with game-direction: the direction card's choice comes between the
    Cleanup (the preview joins the supply) and the next round; the supply gains exactly the
    preview all the same (the module's invariant, PreviewWatch, checked after every action)."""
    from tests.rota.test_variants import PreviewWatch

    g = boardrules.new_game("eclipse", players=2, seed=0, options={"rounds": 3, "auto_combat": True},
                            modules=["predictable-technology", "game-direction"])
    for p in (2, 1):
        g.play(f"p{p} pick_species terrans")
    watch, cleanups = PreviewWatch(), 0
    while not g.over:
        p = min(g.players_to_act())
        acts = g.legal_actions(p)
        before = g.get("tech_next")
        g.play(next((a for a in acts if a.name == "pass_turn"), acts[0]))
        cleanups += g.get("tech_next") != before
        watch(g)
    assert cleanups == 2          # rounds 1 and 2 swap the preview in; the last round's adds none
