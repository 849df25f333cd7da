"""Tests for the Gaia Project federation primitive (plugins/boardrules_gaia/federation.py)."""

from __future__ import annotations

import itertools
import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardrules_gaia.federation import (
    DisconnectedError,
    ExcludedHexError,
    Federation,
    FederationError,
    InsufficientPowerError,
    NotOwnPlanetError,
    Position,
    SatelliteBudgetError,
    SuperfluousMembersError,
    TooManySatellitesError,
    UnknownHexError,
    _prep,
    candidates,
    ivits_threshold,
    neighbours,
    validate,
)
from tests.conftest import shared_path


def disk(radius: int, centre=(0, 0)) -> set[tuple[int, int]]:
    cq, cr = centre
    return {
        (cq + q, cr + r)
        for q in range(-radius, radius + 1)
        for r in range(-radius, radius + 1)
        if abs(q + r) <= radius
    }


def position(structures, *, other_planets=(), radius=5, **kw) -> Position:
    board = disk(radius)
    planets = set(structures) | set(other_planets)
    return Position(space=board - planets, planets=planets, structures=structures, **kw)


def keyset(feds):
    return {(f.members, len(f.satellites)) for f in feds}


# ----------------------------------------------------------------- hand-built boards


def test_chain_needs_two_satellites():
    # PI (3) . TS (2) . lab (2): one empty hex between neighbours -> 2 satellites, power 7
    pos = position({(-2, 0): 3, (0, 0): 2, (2, 0): 2}, budget=5)
    fed = validate(pos, [(-2, 0), (-1, 0), (0, 0), (1, 0), (2, 0)])
    assert fed == Federation({(-2, 0), (0, 0), (2, 0)}, {(-1, 0), (1, 0)}, 7)
    assert fed.hexes == ((-2, 0), (-1, 0), (0, 0), (1, 0), (2, 0))
    assert keyset(candidates(pos)) == {(fed.members, 2)}
    # the notation may list the satellites only: the structures join by adjacency
    assert validate(pos, [(-1, 0), (1, 0)]) == fed


def test_longer_path_is_rejected():
    pos = position({(-2, 0): 3, (0, 0): 2, (2, 0): 2}, budget=5)
    # detour (1,-1),(2,-1) instead of (1,0) between the TS and the lab: 3 satellites
    detour = [(-1, 0), (1, -1), (2, -1)]
    with pytest.raises(TooManySatellitesError) as info:
        validate(pos, detour)
    assert info.value.minimum == 2
    assert isinstance(info.value, ValueError)


def test_fewer_planets_and_fewer_satellites_wins():
    # PI + academy with tech tile (4 + 4 = 8) need 1 satellite; adding a mine costs one more:
    # valid with one fewer planet and one fewer satellite -> superfluous (cf. gaia-project #250)
    pos = position({(0, 0): 4, (2, 0): 4, (4, 0): 1}, budget=5)
    with pytest.raises(SuperfluousMembersError) as info:
        validate(pos, [(1, 0), (3, 0)])
    assert info.value.alternative.members == {(0, 0), (2, 0)}
    assert keyset(candidates(pos)) == {(frozenset({(0, 0), (2, 0)}), 1)}


def test_equal_satellites_with_more_planets_is_allowed():
    # one satellite in the middle touches three clusters: each pair also needs 1 -> all legal
    pos = position({(1, 0): 4, (-1, 1): 4, (0, -1): 4}, budget=3)
    fed = validate(pos, [(0, 0)])
    assert fed.members == {(1, 0), (-1, 1), (0, -1)} and fed.power == 12
    # the satellite at (0,0) touches all three, so no federation of two of them uses it;
    # pairs need one satellite on another hex next to both
    got = keyset(candidates(pos))
    assert (fed.members, 1) in got


def test_single_cluster_needs_no_satellite_and_blocks_bigger_ones():
    pos = position({(0, 0): 3, (1, 0): 2, (0, 1): 2, (3, 0): 1}, budget=5)
    fed = validate(pos, [(0, 0)])
    assert fed.members == {(0, 0), (1, 0), (0, 1)} and not fed.satellites and fed.power == 7
    with pytest.raises(SuperfluousMembersError):
        validate(pos, [(2, 0)])
    assert keyset(candidates(pos)) == {(fed.members, 0)}


def test_adjacent_structures_join_automatically():
    # satellite (1,0) touches the mine at (2,0) too: it is a member whether listed or not
    pos = position({(0, 0): 3, (2, 0): 1, (2, -1): 3}, budget=5)
    fed = validate(pos, [(0, 0), (1, 0)])
    assert fed.members == {(0, 0), (2, 0), (2, -1)} and fed.power == 7


def test_other_planets_and_unknown_hexes():
    pos = position({(-2, 0): 3, (0, 0): 2, (2, 0): 2}, other_planets={(1, 0)}, budget=5)
    with pytest.raises(NotOwnPlanetError):
        validate(pos, [(-1, 0), (1, 0)])
    with pytest.raises(UnknownHexError):
        validate(pos, [(-1, 0), (40, 40)])
    # around the foreign planet the TS and the lab need two satellites
    fed = validate(pos, [(-1, 0), (1, -1), (2, -1)])
    assert fed.members == {(-2, 0), (0, 0), (2, 0)} and len(fed.satellites) == 3


def test_disconnected_and_threshold():
    pos = position({(-2, 0): 3, (0, 0): 2, (2, 0): 2}, budget=5)
    with pytest.raises(DisconnectedError):
        validate(pos, [(-1, 0), (2, 0)])
    weak = position({(-2, 0): 3, (0, 0): 2, (2, 0): 1}, budget=5)
    with pytest.raises(InsufficientPowerError):
        validate(weak, [(-1, 0), (1, 0)])
    assert candidates(weak) == []
    # Xenos with PI: threshold 6
    xenos = position({(-2, 0): 3, (0, 0): 2, (2, 0): 1}, budget=5, threshold=6)
    assert validate(xenos, [(-1, 0), (1, 0)]).power == 6
    assert len(candidates(xenos)) == 1


def test_budget():
    pos = position({(-2, 0): 3, (0, 0): 2, (2, 0): 2}, budget=1)
    with pytest.raises(SatelliteBudgetError):
        validate(pos, [(-1, 0), (1, 0)])
    assert candidates(pos) == []
    assert len(candidates(attrs_evolve(pos, budget=2))) == 1


def attrs_evolve(pos: Position, **kw) -> Position:
    import attrs

    return attrs.evolve(pos, **kw)


def test_existing_federation_excludes_its_neighbourhood():
    # old federation at the left: PI at (-3,0) with satellite (-2,0); the hex (-1,0) touches it
    st_ = {(-3, 0): 3, (0, 0): 3, (2, 0): 2, (0, 2): 2}
    pos = position(st_, federations=[{(-3, 0), (-4, 0), (-2, 0)}], budget=6)
    with pytest.raises(ExcludedHexError):
        validate(pos, [(-3, 0), (-2, 0), (-1, 0), (1, 0)])
    with pytest.raises(ExcludedHexError):
        validate(pos, [(-1, 0), (1, 0)])  # (-1,0) is next to the old satellite
    fed = validate(pos, [(1, 0), (0, 1)])
    assert fed.members == {(0, 0), (2, 0), (0, 2)}
    assert all((-3, 0) not in f.members for f in candidates(pos))
    # a structure touching an old federation belongs to it: its whole cluster is unusable
    blocked = position({(-1, 0): 1, (0, 0): 4, (2, 0): 4}, federations=[{(-2, 0), (-3, 0)}])
    assert candidates(blocked) == []
    with pytest.raises(ExcludedHexError):
        validate(blocked, [(1, 0)])


def test_ivits_extension():
    assert ivits_threshold(0) == 7 and ivits_threshold(2) == 21
    # federation: PI (3) + space station (1) + lab (2) + mine (1) = 7 at the left
    old = {(-3, 0), (-2, 0), (-3, 1), (-4, 1)}
    st_ = {(-3, 0): 3, (-2, 0): 1, (-3, 1): 2, (-4, 1): 1, (0, 0): 3, (2, 0): 2, (0, 3): 4}
    pos = position(st_, ivits_federation=old, threshold=14, budget=4)
    # old + (0,0) + (2,0) = 12 < 14
    with pytest.raises(InsufficientPowerError):
        validate(pos, [(-1, 0), (1, 0)])
    # old + (0,0) + (0,3) = 14 with 3 satellites (QIC); adding (2,0) too is superfluous
    fed = validate(pos, [(-1, 0), (0, 1), (0, 2)])
    assert fed.members == old | {(0, 0), (0, 3)} and fed.power == 14
    with pytest.raises(SuperfluousMembersError):
        validate(pos, [(-1, 0), (0, 1), (0, 2), (1, 0)])
    assert keyset(candidates(pos)) == {(fed.members, 3)}
    with pytest.raises(SatelliteBudgetError):
        validate(attrs_evolve(pos, budget=2), [(-1, 0), (0, 1), (0, 2)])
    # second token at threshold 12: (0,0) and (2,0) suffice
    pos12 = attrs_evolve(pos, threshold=12)
    fed = validate(pos12, [(-1, 0), (1, 0)])
    assert fed.members == old | {(0, 0), (2, 0)} and fed.power == 12
    got = candidates(pos12)
    assert got and all(old <= f.members for f in got)
    for f in got:
        assert validate(pos12, f.hexes) == f
    # hexes next to the Ivits federation are usable; not connecting to it is not
    with pytest.raises(DisconnectedError):
        validate(pos12, [(1, 0), (0, 1), (0, 2)])


def test_ivits_growth_without_satellites():
    # space stations placed next to the federation joined it: power alone reaches 14
    old = {(0, 0), (1, 0)}
    st_ = {(0, 0): 3, (1, 0): 2, (2, 0): 1, (3, 0): 1, (4, 0): 3, (5, 0): 4, (0, 4): 4}
    pos = position(st_, ivits_federation=old, threshold=14, budget=4)
    fed = validate(pos, [(0, 0), (5, 0)])
    assert fed.satellites == frozenset() and fed.power == 14
    assert keyset(candidates(pos)) == {(fed.members, 0)}


def test_enclosed_cluster_over_threshold_with_budget_0():
    # regression (hypothesis): the only structure has no usable space hex around it (map edge
    # and planets), so no hex-based bound applies; power 2 >= threshold 2 with 0 satellites
    board = disk(2)
    planets = {(-2, 0), (-2, 1), (-2, 2), (-1, -1), (-1, 0)}
    pos = Position(
        space=board - planets, planets=planets, structures={(-2, 0): 2}, budget=0, threshold=2
    )
    expected = {(frozenset({(-2, 0)}), 0)}
    assert keyset(candidates(pos)) == expected == brute(pos)
    assert validate(pos, [(-2, 0)]).satellites == frozenset()


def test_enclosed_strong_cluster_beside_other_clusters():
    # a strong cluster (power 10) walled in by planets, and elsewhere a satellite hex touching
    # two clusters (power 3): the lone cluster is a federation with 0 satellites
    wall = {(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)}
    st_ = {(0, 0): 10, (3, -1): 1, (3, 1): 2}
    alone = (frozenset({(0, 0)}), 0)
    pos = position(st_, other_planets=wall, budget=0)
    assert keyset(candidates(pos)) == {alone} == brute(pos)
    got = keyset(candidates(attrs_evolve(pos, budget=3)))
    assert alone in got
    assert (frozenset({(3, -1), (3, 1)}), 1) not in got  # power 3 < 7


def test_position_input_errors():
    with pytest.raises(ValueError):
        Position(space={(0, 0)}, planets={(0, 0)}, structures={})
    with pytest.raises(ValueError):
        Position(space={(0, 0)}, planets=set(), structures={(5, 5): 1})
    with pytest.raises(ValueError):
        Position(space={(0, 0)}, planets=set(), structures={}, budget=-1)
    with pytest.raises(FederationError):
        validate(position({(0, 0): 7}), [])


# ----------------------------------------------------------------- brute force


def components(hexes) -> list[set]:
    """The connected groups of ``hexes`` (hex adjacency), in order of their smallest hex."""
    hexes, seen, out = set(hexes), set(), []
    for h in sorted(hexes):
        if h in seen:
            continue
        comp, stack = {h}, [h]
        seen.add(h)
        while stack:
            for n in neighbours(stack.pop()):
                if n in hexes and n not in seen:
                    seen.add(n)
                    comp.add(n)
                    stack.append(n)
        out.append(comp)
    return out


def brute(pos: Position):
    """Independent reference: every satellite subset within the budget, rules applied."""
    power = pos.power_of
    board = pos.space | pos.planets
    forb = set(pos.excluded)
    for f in pos.federations:
        for h in f:
            forb.add(h)
            forb.update(neighbours(h))
    own = set(power)
    clusters = [frozenset(c) for c in components(own)]
    usable = []
    for c in clusters:
        if c & forb:
            for h in c:
                forb.add(h)
                forb.update(neighbours(h))
        else:
            usable.append(c)
    usable = [c for c in usable if not c & forb]
    allowed = sorted(pos.space - forb - own)
    where = {h: i for i, c in enumerate(usable) for h in c}

    def connected(hexes):
        hexes = set(hexes)
        start = next(iter(hexes))
        seen, stack = {start}, [start]
        while stack:
            for n in neighbours(stack.pop()):
                if n in hexes and n not in seen:
                    seen.add(n)
                    stack.append(n)
        return len(seen) == len(hexes)

    best: dict[frozenset, int] = {}
    for i in range(len(usable)):
        best[frozenset([i])] = 0
    for size in range(1, pos.budget + 1):
        for T in itertools.combinations(allowed, size):
            M = frozenset(where[n] for h in T for n in neighbours(h) if n in where)
            if not M:
                continue
            if M in best and best[M] <= size:
                continue
            hexes = set(T).union(*(usable[i] for i in M))
            if connected(hexes):
                best[M] = min(best.get(M, size), size)
    pw = {M: sum(power[h] for i in M for h in usable[i]) for M in best}
    valid = set()
    for M, s in best.items():
        if pw[M] < pos.threshold:
            continue
        if any(M2 < M and pw[M2] >= pos.threshold and s2 < s for M2, s2 in best.items()):
            continue
        members = frozenset(h for i in M for h in usable[i])
        valid.add((members, s))
    assert board  # the map is not empty
    return valid


@st.composite
def small_boards(draw):
    board = sorted(disk(2))
    n_planets = draw(st.integers(3, 9))
    planets = draw(st.lists(st.sampled_from(board), min_size=n_planets, max_size=n_planets, unique=True))
    n_own = draw(st.integers(1, len(planets)))
    own = planets[:n_own]
    structures = {h: draw(st.sampled_from([1, 1, 2, 2, 3, 4])) for h in own}
    feds = []
    if draw(st.booleans()) and len(own) > 1:
        feds = [{own[-1]}]
    excluded = set(draw(st.lists(st.sampled_from(board), max_size=2)))
    return Position(
        space=set(board) - set(planets),
        planets=set(planets),
        structures=structures,
        federations=feds,
        excluded=excluded,
        budget=draw(st.integers(0, 4)),
        threshold=draw(st.integers(2, 7)),
    )


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_boards())
def test_candidates_match_brute_force(pos):
    got = candidates(pos)
    assert keyset(got) == brute(pos)
    assert len(keyset(got)) == len(got)  # canonical: one per member set
    assert_validated_afresh(pos, got)
    for f in got:
        if f.satellites:
            assert validate(pos, sorted(f.satellites)) == f


def assert_validated_afresh(pos: Position, got) -> None:
    """Each candidate passes validate() searched afresh (the position's preparation, which
    remembers the candidates for validate, emptied first), and validate() answers the same
    from the remembered candidates; candidates() gives the same list again from memory."""
    _prep.cache_clear()
    fresh = [validate(pos, f.hexes) for f in got]
    assert fresh == got
    assert candidates(pos) == got  # (searched again: the preparation was emptied)
    assert [validate(pos, f.hexes) for f in got] == got  # from the remembered candidates
    assert candidates(pos) == got  # from memory


def brute_ivits(pos: Position):
    """Independent reference for Ivits positions (no exclusions): every satellite subset."""
    power = pos.power_of
    own = set(power)
    old = set(pos.ivits_federation) & (pos.space | pos.planets)

    fed = set(old)
    rest = []
    for c in components(own):
        if c & old or any(n in old for h in c for n in neighbours(h)):
            fed |= c
        else:
            rest.append(c)
    parts = [fed] + rest
    where = {h: i for i, c in enumerate(parts) for h in c}
    allowed = sorted(pos.space - own - old)
    best = {frozenset([0]): 0}
    for size in range(1, pos.budget + 1):
        for T in itertools.combinations(allowed, size):
            M = frozenset([0]) | {where[n] for h in T for n in neighbours(h) if n in where}
            if M in best and best[M] <= size:
                continue
            if len(components(set(T).union(*(parts[i] for i in M)))) == 1:
                best[M] = min(best.get(M, size), size)
    pw = {M: sum(power.get(h, 0) for i in M for h in parts[i]) for M in best}
    thr = pos.threshold
    return {
        (frozenset(h for i in M for h in parts[i] if h in power), s)
        for M, s in best.items()
        if pw[M] >= thr and not any(M2 < M and pw[M2] >= thr and s2 < s for M2, s2 in best.items())
    }


@st.composite
def ivits_boards(draw):
    pos = draw(small_boards())
    first = pos.structures[0][0]
    fed = {first}
    space_next = sorted(n for n in neighbours(first) if n in pos.space)
    if space_next and draw(st.booleans()):
        fed.add(draw(st.sampled_from(space_next)))  # a satellite of the old federation
    return attrs_evolve(
        pos,
        federations=(),
        excluded=(),
        ivits_federation=fed,
        threshold=draw(st.integers(2, 16)),
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ivits_boards())
def test_ivits_candidates_match_brute_force(pos):
    got = candidates(pos)
    assert keyset(got) == brute_ivits(pos)
    assert_validated_afresh(pos, got)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_boards(), st.data())
def test_validate_rejects_what_candidates_omit(pos, data):
    legal = keyset(candidates(pos))
    space = sorted(pos.space)
    if not space:
        return
    T = data.draw(st.lists(st.sampled_from(space), min_size=1, max_size=4, unique=True))
    try:
        f = validate(pos, T)
    except FederationError:
        return
    assert (f.members, len(f.satellites)) in legal


# ----------------------------------------------------------------- the 18 records


def _records():
    folder = shared_path("gaia-records")
    out = []
    for path in sorted(folder.glob("*.json")):
        if path.name == "INDEX.json":
            continue
        out.append((path.name, json.loads(path.read_text())))
    return out


BASE_POWER = {"m": 1, "ts": 2, "lab": 2, "PI": 3, "ac1": 3, "ac2": 3, "sp": 1}


def _replay_federations(rec):
    """Rough reconstruction of each federation line's board (no engine: builds, swaps, tiles).

    Yields (faction, listed hexes, Position).
    """
    hexes = {h["name"]: (h["q"], h["r"]) for h in rec["setup"]["map"]["hexes"]}
    planet = {(h["q"], h["r"]): h["planet"] for h in rec["setup"]["map"]["hexes"]}
    t3 = [k for k, v in rec["setup"]["tiles"]["techTiles"].items() if v == "tech3"]
    factions = rec["factions"]

    def at(name):
        if name in hexes:
            return hexes[name]
        q, r = re.fullmatch(r"(-?\d+)x(-?\d+)", name).groups()
        return (int(q), int(r))

    built: dict[str, dict] = {}
    feds: dict[str, list[set]] = {}
    tile3: set[str] = set()
    lost: set = set()
    tokens: dict[str, int] = {}
    for line in rec["moves_clean"][rec["setup"]["consumesLeadingMoves"] :]:
        actor, _, rest = line.partition(" ")
        if re.fullmatch(r"p\d", actor):
            actor = factions[int(actor[1]) - 1]
        for part in (p.strip() for p in rest.split(".")):
            if m := re.match(r"build (\S+) (\S+)", part):
                if m[1] == "gf":
                    continue
                h = at(m[2])
                built.setdefault(actor, {})[h] = m[1]
                for f in feds.get(actor, []):
                    if h in f or any(n in f for n in neighbours(h)):
                        f.add(h)
            elif m := re.match(r"lostPlanet (\S+)", part):
                h = at(m[1])
                built.setdefault(actor, {})[h] = "m"
                lost.add(h)
            elif m := re.match(r"swap-PI (\S+)", part):
                b = built[actor]
                h = at(m[1])
                old = next(k for k, v in b.items() if v == "PI")
                b[old], b[h] = b[h], "PI"
            elif m := re.match(r"tech (\S+)", part):
                if m[1] in t3:
                    tile3.add(actor)
            elif m := re.match(r"cover (\S+)", part):
                if m[1] in t3:
                    tile3.discard(actor)
            elif m := re.match(r"federation (\S+) (\S+)", part):
                listed = [at(x) for x in m[1].split(",")]
                b = built.get(actor, {})
                structures = {}
                for h, kind in b.items():
                    v = BASE_POWER[kind] + (actor in tile3 and kind in ("PI", "ac1", "ac2"))
                    if actor == "bescods" and "PI" in b.values() and planet.get(h) == "t":
                        v += 1
                    structures[h] = v
                planets = {h for h, p in planet.items() if p != "e"} | (lost - set(structures))
                ivits = actor == "ivits" and bool(feds.get(actor))
                threshold = 6 if actor == "xenos" and "PI" in b.values() else 7
                if ivits:
                    threshold = ivits_threshold(tokens.get(actor, 0))
                pos = Position(
                    space=set(planet) - planets,
                    planets=planets,
                    structures=structures,
                    federations=[] if actor == "ivits" else feds.get(actor, []),
                    budget=25,
                    threshold=threshold,
                    ivits_federation=feds[actor][0] if ivits else None,
                )
                yield actor, listed, pos
                fed = validate(pos, listed)
                if ivits:
                    feds[actor][0] |= set(listed) | fed.members
                else:
                    feds.setdefault(actor, []).append(set(listed) | fed.members)
                tokens[actor] = tokens.get(actor, 0) + 1


def test_record_hex_lists_are_consistent_with_the_map():
    seen = 0
    for name, rec in _records():
        hexes = {(h["q"], h["r"]): h["planet"] for h in rec["setup"]["map"]["hexes"]}
        for actor, listed, pos in _replay_federations(rec):
            seen += 1
            own = pos.power_of
            for h in listed:
                assert h in hexes, (name, actor, h)
                # a listed hex is the player's structure or an empty space hex (satellite)
                assert h in own or hexes[h] == "e", (name, actor, h)
            group = set(listed)
            for h in listed:  # structures next to a listed hex complete the federation
                group.update(n for n in neighbours(h) if n in own)
            start = next(iter(group))
            reach, stack = {start}, [start]
            while stack:
                for n in neighbours(stack.pop()):
                    if n in group and n not in reach:
                        reach.add(n)
                        stack.append(n)
            assert reach == group, (name, actor, listed)
    assert seen == 68


def test_record_federations_validate_and_are_enumerated():
    """Each recorded federation is legal on the reconstructed board and among candidates()."""
    for name, rec in _records():
        for actor, listed, pos in _replay_federations(rec):
            _prep.cache_clear()
            fed = validate(pos, listed)
            got = candidates(pos)
            assert (fed.members, len(fed.satellites)) in keyset(got), (name, actor, listed)
            assert_validated_afresh(pos, got)


def test_positions_kept_by_their_inputs_are_the_positions_the_state_gives():
    """primitives._POSITIONS keeps a federation position by what it is made of (map, planets,
    structures, federations, budget, threshold): over a seeded game's states, the kept one is
    the one built afresh, and federation_options lists the federations of the position built
    afresh (also once the player's structures, bowls or federations change)."""
    import random

    import boardrules
    from boardrules.runtime import Context
    from boardrules_gaia import federation as F
    from boardrules_gaia import primitives as GP

    g = boardrules.new_game("gaia-project", players=4, seed=2)
    rnd = random.Random(2)
    seen = found = 0
    while not g.over:
        g.play(rnd.choice(list(g.legal_actions())), check=False)
        if g.state.values.get(("v", "map_layout")) is None:
            continue
        for me in range(4):
            seen += 1
            kept = GP._compute_position(Context(g.ruleset, g.state.values, me=me))
            GP._POSITIONS.clear()
            fresh = GP._compute_position(Context(g.ruleset, g.state.values, me=me))
            assert kept == fresh and kept is not fresh
            listed = GP.federation_options.fn(Context(g.ruleset, g.state.values, me=me))
            own, grown, _ = GP._federation_inputs(Context(g.ruleset, g.state.values, me=me), me)
            if grown is None and F.short_of_power(
                    own.items(), (x.split(",") for x in g.get("fed_groups", player=me) or ()),
                    g.get("fed_threshold", player=me) or 7):
                assert listed == ()
            else:
                layout = tuple(g.get("map_layout"))
                assert listed == GP._federation_codes(fresh, layout)[0]
                found += bool(listed)
    assert seen >= 300 and found   # (federations were listed in some of them)
