"""Issue 12: the Eclipse primitives' memo per game state (plugins/boardrules_eclipse/memo.py)
changes no answer: random games with Rise of the Ancients modules that move ships, place
warp portals, turn sectors, carry interceptors and form alliances offer the same legal actions
at every state with the memo on as with it off, and play to the same record."""

from __future__ import annotations

import random

import pytest

import boardrules
from boardrules_eclipse import memo

MODULE_SETS = [(), ("rare-technologies", "new-species", "new-discoveries"),
               ("developments", "warp-portals", "alliances", "hives", "nine-players")]


def _play(seed: int, players: int, modules: tuple, memo_on: bool) -> list:
    """Every state's legal actions (as text) of a random game, and the final record."""
    memo.ENABLED = memo_on
    try:
        g = boardrules.new_game("eclipse", players=players, seed=seed, modules=list(modules),
                                options={"rounds": 3, "auto_combat": True})
        rnd, seen = random.Random(seed), []
        while not g.over and len(seen) < 700:
            legal = sorted(g.legal_actions(), key=g.format)
            seen.append([g.format(a) for a in legal])
            g.play(rnd.choice(legal))
        return seen + [[str(a) for a in g.record.actions]]
    finally:
        memo.ENABLED = True


@pytest.mark.parametrize("modules", MODULE_SETS, ids=lambda m: "+".join(m) or "base")
@pytest.mark.parametrize("seed,players", [(11, 4), (12, 6)])
def test_the_memo_changes_no_legal_action(seed, players, modules):
    if "nine-players" in modules:
        players = 7
    assert _play(seed, players, modules, True) == _play(seed, players, modules, False)


def test_the_memo_sees_what_the_context_wrote():
    """A memo that ignored what a context wrote (here: a ship moved away) would answer from
    the stale state: asked again in that context, move_options is computed afresh."""
    from boardrules.runtime import Context
    from boardrules_eclipse.primitives import move_options
    g = boardrules.new_game("eclipse", players=4, seed=11)
    rnd = random.Random(11)
    while True:
        g.play(rnd.choice(list(g.legal_actions())))
        ctx = Context(g.ruleset, g.state.values, me=0)
        before = move_options.fn(ctx)
        if before:
            break
    cls, _, src = before[0].partition(">")[0].partition("@")
    assert before == move_options.fn(ctx)                  # from the memo
    ctx.set(("v", "ships", src), ())                       # the ships leave: the context wrote it
    assert not any(o.partition(">")[0] == f"{cls}@{src}" for o in move_options.fn(ctx))


def test_blueprint_changes_sees_the_blueprints_and_parts_the_context_wrote(monkeypatch):
    """blueprint_changes is memoised per state (every listing runs an Upgrade): asked again in
    a context that wrote a blueprint or the parts placeable on a class, it answers afresh; a
    context that wrote another player's blueprint only is answered from the memo (it reads
    the asker's alone)."""
    from boardrules.runtime import Context
    from boardrules_eclipse.primitives import blueprint_changes
    g = boardrules.new_game("eclipse", players=2, seed=3)
    rnd = random.Random(3)
    while not g.get("blueprint", player=0, index="interceptor"):
        g.play(rnd.choice(list(g.legal_actions())))
    ctx = Context(g.ruleset, g.state.values, me=0)
    before = blueprint_changes.fn(ctx)
    assert before and blueprint_changes.fn(ctx) is before   # (from the memo)
    from boardrules_eclipse import primitives
    made = []
    monkeypatch.setattr(primitives, "_changes", lambda *a: made.append(a) or before)
    ctx.set(("v", "blueprint", 1, "interceptor"), ())
    assert blueprint_changes.fn(ctx) is before and not made   # (from the memo)
    monkeypatch.undo()
    grid = g.get("blueprint", player=0, index="interceptor")
    ctx.set(("v", "blueprint", 0, "interceptor"), grid[:-1])
    fewer = blueprint_changes.fn(ctx)
    assert len(fewer) < len(before) and not any(o.startswith(f"interceptor#{len(grid) - 1}=") for o in fewer)
    ctx.set(("v", "placeable_on", 0, "cruiser"), ())
    assert not any(o.startswith("cruiser#") for o in blueprint_changes.fn(ctx))
    assert any(o.startswith("cruiser#") for o in before)
    memo.ENABLED = False
    try:
        assert blueprint_changes.fn(Context(g.ruleset, g.state.values, me=0)) == before
    finally:
        memo.ENABLED = True


def test_squares_of_sees_the_hexes_and_orbitals_the_context_wrote():
    """squares_of is memoised per state (every listing lists the colony ships' squares): asked
    again in a context that built an orbital or gave a hex up, it answers afresh."""
    from boardrules.runtime import Context
    from boardrules_eclipse.influence import squares_of
    g = boardrules.new_game("eclipse", players=2, seed=3)
    rnd = random.Random(3)
    while not g.get("species_of", player=0):
        g.play(rnd.choice(list(g.legal_actions())))
    ctx = Context(g.ruleset, g.state.values, me=0)
    before = squares_of.fn(ctx, 0)
    home = before[0].partition("|")[0]
    assert squares_of.fn(ctx, 0) is before and not any(o.startswith(f"{home}|o:") for o in before)
    ctx.set(("v", "orbital_at", home), True)
    assert {f"{home}|o:money", f"{home}|o:science"} <= set(squares_of.fn(ctx, 0))
    ctx.set(("v", "controller", home), None)
    assert not any(o.startswith(f"{home}|") for o in squares_of.fn(ctx, 0))
    memo.ENABLED = False
    try:
        assert squares_of.fn(Context(g.ruleset, g.state.values, me=0), 0) == before
    finally:
        memo.ENABLED = True


# ---- answers carried over to the next state (memo._carried) ------------------------------------

_NAMES = ("ships", "controller", "blueprint", "techs")
_KEYS = [("v", n, i) for n in _NAMES for i in range(3)] + [("v", "techs"), ("c", "money", 0), ("f", "turn")]


def test_an_answer_is_carried_only_while_its_variables_hold_the_same_values():
    """Each answer of the old state's memo is kept for the new state exactly when no key of a
    variable it reads has another value in the new state, appeared or disappeared (keys of
    resources and the flow are no rule variables: answers do not read them); an answer about
    one player's entries (grouped by its variables and that player: ``per_state(...,
    player)``) when none of that player's keys of them has, whatever another player's did
    (a key of a variable by no player, such as ``("v", "techs")`` here, counts for every
    player). What changed drops the groups reading it (memo._READERS), each group entered when
    first met."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    values = st.sampled_from([(), ("a",), ("b", 1), 0, 1, None])
    reads = st.frozensets(st.sampled_from(_NAMES))

    @settings(max_examples=400, deadline=None)
    @given(st.dictionaries(st.sampled_from(_KEYS), values),
           st.lists(st.tuples(st.sampled_from(_KEYS), values | st.just("gone"))),
           st.lists(reads | st.tuples(reads, st.integers(0, 2)), max_size=6))
    def check(old, edits, ats):
        new = dict(old)
        for k, v in edits:
            if v == "gone":
                new.pop(k, None)
            else:
                new[k] = v if old.get(k, "missing") != v else old[k]   # (equal: the same object)
        groups = {at: {i: object()} for i, at in enumerate(ats)}
        kept = memo._carried(old, new, groups)
        for at, group in groups.items():
            r, p = at if type(at) is tuple else (at, None)
            same = all(old.get(k, "missing") == new.get(k, "missing") for k in set(old) | set(new)
                       if k[0] == "v" and k[1] in r and (p is None or len(k) < 3 or k[2] == p))
            assert (at in kept) == same, (old, new, at)
            if same:
                assert kept[at] is group
    check()


def test_the_index_of_groups_is_one_rulesets_and_does_not_grow_with_rulesets_built():
    """A long-running process building rulesets (a server of house rules) kept every group any
    ruleset made in a module-global index (squares_of reads each structure's variable: a house
    rule's structure makes a new group), growing it and the tuples walked for each change; the
    index is now the ruleset's asking, begun afresh for another."""
    from types import SimpleNamespace

    def ask(rs, base, reads):
        ctx = SimpleNamespace(w={}, base=base, rs=rs)
        return memo.per_state(ctx, ("q",), reads, lambda: len(reads))

    sizes = []
    for i in range(200):
        rs, old = object(), {("v", "hexes"): ("0,0",)}
        reads = frozenset({"hexes", f"fortress{i}_at"})   # (a house rule's structure)
        ask(rs, old, reads)
        ask(rs, {**old, ("v", "ships"): ()}, reads)   # (a new state: the group carried over)
        readers, entered = memo._READERS
        assert entered == {reads}
        sizes.append(sum(map(len, readers.values())))
    assert set(sizes) == {2}   # (hexes and fortressN_at, each naming the one group)


def test_squares_of_keeps_a_bounded_table_of_what_it_reads():
    from boardrules_eclipse import influence

    for i in range(1000):
        assert f"fortress{i}_at" in influence._square_reads((f"fortress{i}", "orbital"))
    assert len(influence._SQUARE_READS) <= influence.SQUARE_READS


def test_a_carried_answer_is_recomputed_when_an_object_is_replaced_by_an_equal_one():
    """Values are compared by identity (a state is a copy of the one before with what an
    action wrote): an equal value that is another object counts as changed, which is only ever
    a recomputation, never a stale answer."""
    old = {("v", "ships", "0,0"): ((0, "cruiser"),)}
    new = {("v", "ships", "0,0"): tuple([(0, "cruiser")])}
    assert memo._carried(old, new, {frozenset({"ships"}): {"k": 1}}) == {}
    assert memo._carried(old, dict(old), {frozenset({"ships"}): {"k": 1}}) == {frozenset({"ships"}): {"k": 1}}


@pytest.mark.parametrize("modules", MODULE_SETS[1:], ids=lambda m: "+".join(m))
def test_carrying_answers_over_changes_no_legal_action(modules):
    """The memo with its answers carried from state to state against one that starts afresh at
    every state (a third comparison beside the memo off, above)."""
    _plays_as_without("CARRY", 13, modules)


@pytest.mark.parametrize("modules", [MODULE_SETS[0], MODULE_SETS[2]], ids=lambda m: "+".join(m) or "base")
def test_what_changed_from_the_keys_written_changes_no_legal_action(modules):
    """The carry-over told what changed by the keys the engine wrote (runtime.changed_keys)
    against the two tables compared whole (``memo.DELTAS`` off)."""
    _plays_as_without("DELTAS", 14, modules)


def _plays_as_without(switch: str, seed: int, modules) -> None:
    """The seeded game of ``modules`` lists the same actions with the memo's ``switch`` on as
    with it off."""
    players = 7 if "nine-players" in modules else 4
    setattr(memo, switch, False)
    try:
        without = _play(seed, players, modules, True)
    finally:
        setattr(memo, switch, True)
    assert _play(seed, players, modules, True) == without


def test_an_answer_is_not_carried_to_a_sibling_state():
    """Two states made from one (as search or an undo goes back): the newer one's writes are
    not what changed since the other, whose ships moved. Carrying the first's answer by the
    second's writes would answer from ships that are not where they are."""
    from boardrules.runtime import Context
    from boardrules_eclipse.primitives import move_options
    g = boardrules.new_game("eclipse", players=4, seed=11)
    rnd = random.Random(11)
    while True:
        g.play(rnd.choice(list(g.legal_actions())))
        before = move_options.fn(Context(g.ruleset, g.state.values, me=0))
        if before:
            break
    src = before[0].partition(">")[0].partition("@")[2]
    moved = Context(g.ruleset, g.state.values)
    moved.set(("v", "ships", src), ())                      # S1: the ships gone
    asked = move_options.fn(Context(g.ruleset, moved.merged(), me=0))
    other = Context(g.ruleset, g.state.values)
    other.set(("v", "acts_left", 1), 3)                     # S2: from S0, the ships still there
    s2 = other.merged()
    again = move_options.fn(Context(g.ruleset, s2, me=0))
    assert asked != before and again == before



def test_move_options_keyed_by_the_askers_technologies_and_claims_left_out_at_each_call():
    """move_options' memo reads neither ``techs`` nor ``exploring``: the asker's pinning need
    (``pinned_by``) and half connections are in the question's key, and the spaces others
    explore are left out of the memoised moves at each call. Its answers equal the memo off's
    when the asker gains a Cloaking Device (a ship pinned by one enemy moves again), in the
    context and in a state made from it, when another player researches, and when another
    begins exploring a hex a ship could reach."""
    from boardrules.game import Action
    from boardrules.runtime import Context
    from boardrules_eclipse.primitives import move_options

    from .test_combat_play import _stage
    from .test_extension_points import X, X_SECTOR

    def both(values, writes=()):
        answers = []
        for on in (True, False):
            memo.ENABLED = on
            try:
                ctx = Context(g.ruleset, values, me=0)
                for k, v in writes:
                    ctx.set(k, v)
                answers.append(move_options.fn(ctx))
            finally:
                memo.ENABLED = True
        assert answers[0] == answers[1], writes
        return answers[0]

    def made(k, v):
        ctx = Context(g.ruleset, g.state.values)
        ctx.set(k, v)
        return ctx.merged()

    g = boardrules.new_game("eclipse", players=3, seed=0, modules=["new-species"])  # (the Cloaking Device)
    for p in reversed(range(3)):
        g.play(Action(p, "pick_species", ("terrans",)))
    _stage(g, X, X_SECTOR, ships=[(0, "interceptor"), (1, "interceptor")])
    before = both(g.state.values)
    assert before and not any(o.startswith(f"interceptor@{X}>") for o in before)   # pinned by one
    cloaked = ("v", "techs", 0), g.get("techs", player=0) + ("tech_cloaking_device",)
    moved = both(g.state.values, [cloaked])
    assert any(o.startswith(f"interceptor@{X}>") for o in moved) and moved == both(made(*cloaked))
    assert both(g.state.values) == before
    assert both(made(("v", "techs", 1), g.get("techs", player=1) + ("tech_cloaking_device",))) == before
    dest = before[0].rpartition(">")[2]
    claimed = both(g.state.values, [(("v", "exploring", 1), dest)])
    assert claimed == tuple(o for o in before if not o.endswith(f">{dest}")) != before
    assert both(made(("v", "exploring", 1), dest)) == claimed
    assert both(g.state.values) == before
