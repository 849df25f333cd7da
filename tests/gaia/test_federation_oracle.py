"""The fast federation search against the brute-force oracle on boards cut from the records.

``tests/gaia/test_federation.py`` compares :func:`candidates` with a brute force (every satellite
subset within the budget, the rules applied) on random small disks.  Here the boards are windows
of real positions: the board before each federation of the 18 shared records (the rough
reconstruction of ``_replay_federations``), cut to the hexes within 2 or 3 of one of the player's
structures, with a small budget and a random threshold, so the clusters, planets and existing
federations are laid out as in real games.  A last test breaks one pruning of the search on
purpose and checks that these comparisons notice.
"""

from __future__ import annotations

import functools

import attrs
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardrules_gaia import federation as F
from boardrules_gaia.federation import Position, _prep, candidates
from tests.gaia.test_federation import (
    _records,
    _replay_federations,
    assert_validated_afresh,
    brute,
    brute_ivits,
    small_boards,
    disk,
    keyset,
)


@functools.cache
def record_positions() -> tuple[Position, ...]:
    """The board before each recorded federation of the shared records."""
    return tuple(pos for _, rec in _records() for _, _, pos in _replay_federations(rec))


def window(pos: Position, centre, radius: int, budget: int, threshold: int) -> Position:
    """``pos`` cut to the hexes within ``radius`` of ``centre``, with a new budget and threshold."""
    keep = disk(radius, centre) & (pos.space | pos.planets)
    feds = [set(f) & keep for f in pos.federations]
    ivits = None
    if pos.ivits_federation is not None:
        ivits = set(pos.ivits_federation) & keep or None
    return Position(
        space=pos.space & keep,
        planets=pos.planets & keep,
        structures={h: p for h, p in pos.structures if h in keep},
        federations=[f for f in feds if f],
        budget=budget,
        threshold=threshold,
        ivits_federation=ivits,
    )


@st.composite
def record_windows(draw) -> Position:
    positions = record_positions()
    pos = draw(st.sampled_from(positions))
    centre = draw(st.sampled_from([h for h, _ in pos.structures]))
    radius = draw(st.sampled_from([2, 3]))
    # the brute force tries every subset of the window's space hexes up to the budget
    budget = draw(st.integers(0, 4 if radius == 2 else 3))
    cut = window(pos, centre, radius, budget, 7)
    low, high = _thresholds(cut)
    return attrs.evolve(cut, threshold=draw(st.integers(low, high)))


def _thresholds(pos: Position) -> tuple[int, int]:
    """Thresholds that make a window interesting: above its strongest structure (so joining
    clusters takes satellites), at most its whole power (else nothing can be formed)."""
    powers = [p for _, p in pos.structures] or [0]
    return max(2, max(powers) + 1), max(2, max(powers) + 1, sum(powers))


def oracle(pos: Position):
    return brute(pos) if pos.ivits_federation is None else brute_ivits(pos)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(record_windows())
def test_candidates_match_brute_force_on_record_windows(pos):
    _prep.cache_clear()
    got = candidates(pos)
    assert keyset(got) == oracle(pos)
    assert len(keyset(got)) == len(got)  # one per member set
    assert_validated_afresh(pos, got)


def _fixed_windows(count: int):
    """A fixed, spread-out sample of record windows (deterministic, for the mutation test)."""
    positions = record_positions()
    out = []
    for i in range(count):
        pos = positions[(i * 7) % len(positions)]
        own = [h for h, _ in pos.structures]
        centre = own[(i * 5) % len(own)]
        cut = window(pos, centre, 3, 3, 7)
        low, high = _thresholds(cut)
        out.append(attrs.evolve(cut, threshold=min(high, low + i % 3)))
    return out


def test_the_record_windows_catch_a_wrong_pruning(monkeypatch):
    """Breaking one pruning of the search (bases and candidates grown as if one satellite fewer
    were available) makes some window differ from the oracle: the comparisons above can fail."""
    windows = _fixed_windows(60)
    for pos in windows:  # the real search agrees on all of them
        _prep.cache_clear()
        assert keyset(candidates(pos)) == oracle(pos)
    grow = F._Prep.grow

    def wrong_grow(self, roots, thr, B, strong):
        return grow(self, roots, thr, B - 1, strong)

    monkeypatch.setattr(F._Prep, "grow", wrong_grow)
    differ = 0
    for pos in windows:
        _prep.cache_clear()
        differ += keyset(candidates(attrs.evolve(pos))) != oracle(pos)
    _prep.cache_clear()
    assert differ > 0


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(record_windows(), small_boards()), st.integers(0, 4), st.integers(0, 4))
def test_a_search_under_a_larger_budget_gives_the_smaller_budgets(pos, a, b):
    """candidates() under budget b after a search of the same board under budget B >= b (read
    from that search, _Preps) equals a fresh search under b, satellites included: the listing
    does not depend on what was searched before."""
    small, large = sorted((a, b))
    pos_small, pos_large = attrs.evolve(pos, budget=small), attrs.evolve(pos, budget=large)
    _prep.cache_clear()
    fresh = candidates(pos_small)
    _prep.cache_clear()
    candidates(pos_large)
    # (a board short of power is not searched: there is no search to read)
    assert F._short_of_power(pos_large) or next(iter(_prep.found.values()))[0] == large
    assert candidates(pos_small) == fresh
    assert keyset(fresh) == oracle(pos_small)
    assert_validated_afresh(pos_small, fresh)


def test_listed_federations_satellites_are_validates_on_a_record():
    """federation_satellites() answers a listed federation from the listing (primitives.py,
    _LISTINGS): the same satellites as validating its code afresh, on every federation turn of
    a record (djfjjv4k: turns of 1-18 legal federations)."""
    from boardrules.runtime import Context
    from boardrules_gaia import primitives as GP
    from boardrules_gaia import replay as R
    from boardrules_gaia.records import load_record
    from tests.conftest import shared_path

    record = load_record(shared_path("gaia-records", "djfjjv4k.json"))
    rp = R.Replayer(record, check=False)
    lines, n_lead = record.lines, record.setup.consumes_leading_moves
    turns = compared = 0
    for i in range(len(lines)):
        rp.line(i, lines, record.moves_raw[n_lead + i])
        game = rp.game
        codes = [a for a in game.legal_actions() if a.name == "form_federation"]
        if not codes:
            continue
        turns += 1
        ctx = Context(game.ruleset, game.state.values, me=codes[0].player)
        sats = game.ruleset.primitives["federation_satellites"].fn
        from_listing = [sats(ctx, a.args[0]) for a in codes]
        GP._LISTINGS.clear()
        _prep.cache_clear()
        assert [sats(ctx, a.args[0]) for a in codes] == from_listing
        compared += len(codes)
    assert turns >= 3 and compared >= 20
