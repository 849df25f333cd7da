"""Faction abilities the federation algorithm needs to see (gaia-project.md §2, §4, §8).

Only reading of the state the rules keep (``rules/factions.rules``); every value is set there:

* ``lant_at[h]`` / ``shared_pval[h]``: a Lantids mine on another player's planet and its power;
* ``stations`` (per player) and ``pval[h]`` on those hexes: Ivits space stations, power 1 for
  federations, on space hexes, not structures;
* ``fed_grows`` (per player): one federation that grows (Ivits), passed to :mod:`.federation` as
  ``ivits_federation`` (the union of the player's ``fed_groups``);
* ``sat_qic`` (per player): satellites cost QIC (Ivits), so the satellite budget is the QIC held.

:func:`federation_inputs` is called by ``primitives._position``.
"""

from __future__ import annotations


def federation_inputs(ctx, me):
    """``(structures, grown, budget)`` of player ``me`` for a federation ``Position``.

    ``structures``: hex name -> power value of every structure of ``me`` that counts for
    federations (own structures, Lantids mines on others' planets, space stations);
    ``grown``: the hex names of the one growing federation (or None when the player forms
    separate federations or has none yet); ``budget``: satellites payable now (power tokens in
    bowls I-III, or QIC), before the 25-piece cap.
    """
    structures = {}
    for h in ctx.get(("v", "my_hexes", me)) or ():
        if ctx.get(("v", "owner_at", h)) == me:
            structures[h] = ctx.get(("v", "pval", h))
        elif ctx.get(("v", "lant_at", h)) == me:
            structures[h] = ctx.get(("v", "shared_pval", h))
    for h in ctx.get(("v", "stations", me)) or ():
        structures[h] = ctx.get(("v", "pval", h))
    grown = None
    if ctx.get(("v", "fed_grows", me)):
        hexes = set()
        for g in ctx.get(("v", "fed_groups", me)) or ():
            hexes.update(g.split(","))
        grown = sorted(hexes) or None
    if ctx.get(("v", "sat_qic", me)):
        budget = ctx.get(("r", "qic", me))
    else:
        budget = sum(ctx.get(("r", b, me)) for b in ("bowl1", "bowl2", "bowl3"))
    return structures, grown, budget


PRIMITIVES: list = []
