"""Issue 12: the statistics the Upgrade choice asks for (``stat_after``, memoised and derived
from one parse of the option text, ``blueprints.py``) are the plain sums of the rule files'
numbers: every part of the blueprint after the change, the parts outside its grid, and the
design's printed bonus; ``drives`` (the drive rule's) is ``move`` plus ``jumps``.

Checked at every state of random games (hypothesis) with rare-technologies (parts, ``not_on``),
new-species (designs with printed shields and energy, a ship class that does not move) and
new-discoveries (parts outside the grid, a jump drive) on, rich players preferring Research and
Upgrade so that many parts get unlocked and placed; each game keeps the base invariants and
replays exactly (tests/rota/common.py).
"""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

import boardrules
from boardrules.primitives import NOT_BATCHED
from boardrules.runtime import Context
from boardrules_eclipse.blueprints import DESIGN_BONUSES, STAT_FIELDS
from boardrules_eclipse.blueprints import tables
from boardrules_eclipse.primitives import _change_classes, _stats_after, blueprint_changes, change_class, stat_after
from tests.rota.common import SETTINGS, _rich, play_random, start

MODULES = ("rare-technologies", "new-species", "new-discoveries")
STATS = tuple(s for s in STAT_FIELDS if s != "regenerates")


def plain_stat(g, p: int, change: str, stat: str) -> int:
    """The oracle: ``stat`` of ``p``'s blueprint after ``change``, summed from the entities."""
    (cls, slot), part = change.split("=")[0].split("#"), change.split("=")[1]
    v, ents = g.state.values, g.ruleset.entities
    bp = list(v.get(("v", "blueprint", p, cls), g.ruleset.default_of(("v", "blueprint", p, cls))))
    bp[int(slot)] = part
    outside = v.get(("v", "grid_extras", p, cls), g.ruleset.default_of(("v", "grid_extras", p, cls))) or ()
    design = v.get(("v", "design_of", p, cls), g.ruleset.default_of(("v", "design_of", p, cls)))
    total = sum(ents[x].fields[stat] for x in [*bp, *outside])
    if design is not None and stat in DESIGN_BONUSES:
        total += ents[design].fields[stat]
    return total


def assert_plain_sums(g) -> int:
    parts = tuple(g.ruleset.by_kind["part"])
    classes = g.ruleset.by_kind["ship_class"]
    seen = 0
    for p in range(g.players):
        ctx = Context(g.ruleset, g.state.values, me=p)
        grids = tuple(tuple(g.get("blueprint", p, index=c)) for c in classes)
        for change in tables(g.ruleset).changes(grids, (parts,) * len(classes)):   # (every part)
            for stat in STATS:
                assert stat_after.fn(ctx, change, stat) == plain_stat(g, p, change, stat), (p, change, stat)
            assert stat_after.fn(ctx, change, "drives") == \
                plain_stat(g, p, change, "move") + plain_stat(g, p, change, "jumps"), (p, change)
            seen += 1
        opts = tables(g.ruleset).changes(grids, (parts,) * len(classes))
        for stat in (*STATS, "drives"):   # (the batch form, its answers kept per class)
            assert _stats_after(ctx, opts, stat) == one_by_one(ctx, opts, stat), (p, stat)
        assert _change_classes(ctx, opts) == [change_class.fn(ctx, o) for o in opts], p
    return seen


def one_by_one(ctx, opts, stat) -> list:
    """The oracle of the batch form: ``stat_after`` asked of each option (NOT_BATCHED where
    the call raises)."""
    out = []
    for o in opts:
        try:
            out.append(stat_after.fn(ctx, o, stat))
        except ValueError:
            out.append(NOT_BATCHED)
    return out


@SETTINGS
@given(st.data())
def test_upgrade_statistics_are_the_plain_sums_in_random_games(data):
    seen = []
    play_random(data, MODULES, lambda g: seen.append(assert_plain_sums(g)), money=40,
                prefer=("research", "research_rare", "tile", "upgrade", "react_upgrade", "again",
                        "install", "use"))
    assert max(seen) > 0          # the comparison saw changes


def test_a_drive_taken_out_is_no_upgrade():
    """The rules refuse an interceptor without its drive (``interceptor#2=hull``: energy is
    fine, only the drive rule refuses it), as the stats say: no move, no jumps."""
    g = start(2, MODULES)
    ctx = Context(g.ruleset, g.state.values, me=0)
    assert stat_after.fn(ctx, "interceptor#2=hull", "energy") >= 0
    assert stat_after.fn(ctx, "interceptor#2=hull", "move") + stat_after.fn(ctx, "interceptor#2=hull", "jumps") == 0
    names = {str(a) for a in g.legal_actions()}
    assert not any("interceptor#2=hull" in n for n in names)


def test_the_batch_answers_are_those_of_the_blueprint_read():
    """Each class's answers are kept by the blueprint the context holds, not by the grid the
    options were made from: a context that wrote another blueprint, or a shorter one (a slot
    it lacks: NOT_BATCHED), gets answers for what it wrote."""
    g = start(2, MODULES)
    rs = g.ruleset
    classes, parts = rs.by_kind["ship_class"], tuple(rs.by_kind["part"])
    grids = tuple(tuple(g.get("blueprint", 0, index=c)) for c in classes)
    opts = tables(rs).changes(grids, (parts,) * len(classes))
    ctx = Context(rs, g.state.values, me=0)
    first = _stats_after(ctx, opts, "energy")
    assert first == one_by_one(ctx, opts, "energy")
    cls = classes[0]
    grid = grids[0]
    other = tuple(p for p in parts if p not in grid)[0]
    for written in ((other, *grid[1:]), grid[:1]):
        ctx = Context(rs, g.state.values, me=0)
        ctx.set(("v", "blueprint", 0, cls), written)
        got = _stats_after(ctx, opts, "energy")
        assert got == one_by_one(ctx, opts, "energy") and got != first
    assert NOT_BATCHED in got


def test_the_batch_answers_with_a_class_without_options():
    """A ship class with no part to place (no options of its own) adds no answers: each batch
    form still answers the options in their order, as asked one by one."""
    g = start(2, MODULES)
    rs = g.ruleset
    classes, parts = rs.by_kind["ship_class"], tuple(rs.by_kind["part"])
    grids = tuple(tuple(g.get("blueprint", 0, index=c)) for c in classes)
    for empty in range(len(classes)):
        mine = tuple(() if i == empty else parts for i in range(len(classes)))
        opts = tables(rs).changes(grids, mine)
        assert opts and not any(o.startswith(f"{classes[empty]}#") for o in opts)
        ctx = Context(rs, g.state.values, me=0)
        for stat in ("energy", "drives"):
            assert _stats_after(ctx, opts, stat) == one_by_one(ctx, opts, stat), (empty, stat)
        assert _change_classes(ctx, opts) == [change_class.fn(ctx, o) for o in opts], empty


def test_the_kept_options_hold_no_container_per_option():
    """The options ``changes`` made are kept by ship class in a few flat tuples (slots and
    parts), not a ``(slot, part)`` pair per option: the memo lives as long as the ruleset, and
    ~140 pairs kept per blueprint combination nearly doubled the garbage collector's young
    collections in random play (72 -> 133 in seeds 2-4)."""
    g = start(2, MODULES)
    rs = g.ruleset
    classes, parts = rs.by_kind["ship_class"], tuple(rs.by_kind["part"])
    grids = tuple(tuple(g.get("blueprint", 0, index=c)) for c in classes)
    opts = tables(rs).changes(grids, (parts,) * len(classes))
    assert len(opts) > 4 * len(classes)
    kept, segments = tables(rs).segments[id(opts)]
    assert kept is opts

    def containers(x) -> int:
        return 1 + sum(containers(y) for y in x) if type(x) is tuple else 0
    # (the segments, and per class: itself, its grid, its parts, the slots and their parts)
    assert containers(segments) <= 1 + 5 * len(classes)


def plain_changes(g, p: int) -> list[str]:
    """The oracle of ``blueprint_changes``: player ``p``'s options enumerated as the rules'
    comment says, by ship class (rule files' order), slot, then part in its ``placeable_on``
    order, every part but the one the slot holds."""
    rs, v = g.ruleset, g.state.values

    def read(*key):
        return v.get(("v", *key), rs.default_of(("v", *key))) or ()
    return [f"{cls}#{i}={part}" for cls in rs.by_kind["ship_class"]
            for i, old in enumerate(read("blueprint", p, cls))
            for part in read("placeable_on", p, cls) if part != old]


def test_the_upgrade_options_are_the_plain_enumeration_in_seeded_games():
    """At every state of seeded random games (rich players with the modules' parts, Upgrade
    preferred so that blueprints change), each player's options (kept per ship class and
    shared between players, blueprints.py) are the plain enumeration, in its order; a class's
    texts are made once, whoever asks."""
    compared = upgraded = 0
    for seed in (1, 2):
        g = boardrules.new_game("eclipse", players=3, seed=seed, modules=list(MODULES),
                                options={"rounds": 2, "auto_combat": True}, rules=[_rich(30)])
        rnd = random.Random(seed)
        while not g.over and compared < 400 * seed:
            for p in range(g.players):
                ctx = Context(g.ruleset, g.state.values, me=p)
                got = blueprint_changes.fn(ctx)
                assert list(got) == plain_changes(g, p), (seed, p)
                compared += 1
            legal = list(g.legal_actions())
            own = [a for a in legal if a.name in ("upgrade", "react_upgrade", "install", "research")]
            a = rnd.choice(own if own and rnd.random() < 0.6 else legal)
            upgraded += a.name == "install"
            g.play(a)
    assert upgraded > 10
    t = tables(g.ruleset)
    classes = g.ruleset.by_kind["ship_class"]
    parts = tuple(g.ruleset.by_kind["part"])
    grids = tuple(tuple(g.get("blueprint", 0, index=c)) for c in classes)
    first = t.changes(grids, (parts,) * len(classes))
    other = tuple(p for p in parts if p != grids[0][0])[-1]
    second = t.changes(((other, *grids[0][1:]), *grids[1:]), (parts,) * len(classes))
    n = sum(o.startswith(f"{classes[0]}#") for o in first)
    assert first[n:] == second[n:] and all(a is b for a, b in zip(first[n:], second[n:]))
    assert first[:n] != second[:n]
