"""Gaia Project federations: validate a proposed federation, enumerate every legal one.

Stand-alone module: hexes are plain axial ``(q, r)`` tuples (the same axial system as the
record files' ``setup.map.hexes`` and the ``qxr`` notation); it does not import the geometry
module.

Rules encoded (sources: ../shared/rules/gaia-project.md §2, §4, §8; the Japanese rules summary
in ../shared/seeds/002_*.txt, "同盟の構築"; the printed rulebook's federation section as quoted on
the BoardGameGeek rules forum, thread 1906761, and the designer-approved "Federation FAQ" on
BoardGameGeek):

* A federation is a connected set (hex adjacency) of the player's structures plus satellites
  placed on space hexes.  Only the player's own colonised planets (and Ivits space stations) can
  be members or links; planets of others, empty planets and Gaiaformer-only planets cannot
  (gaia-project.md §8).  Other players' satellites and space stations do not block a space hex
  (seed; Ivits faction text).
* Power value: mine 1, trading station / lab 2, PI / academy 3 (4 with the tech tile), space
  station 1 (gaia-project.md §2).  The caller computes these per hex (tech tile, Bescods PI bonus,
  Lost Planet = mine) and passes them in ``structures``; Gaiaformers are not structures and must not
  be passed.
* Total power >= threshold: 7, Xenos with PI 6, a house rule may change it (a parameter).
* **Clusters.**  Adjacent structures of the player are always together: a structure next to a
  member or next to a satellite of the federation is a member (printed rules / FAQ "planet
  clusters"; gaia-project.md §8 "new structures built next to a federation join it").  Decision
  checked on the 18 shared records: every recorded ``federation`` hex list is closed under this
  adjacency, and several older lines list **only the satellites** (``itars federation 9A1 fed4
  using area1: 1``) - the site derives the structures.  :func:`validate` therefore accepts any
  list that names every satellite; the listed structures may be all, some or none of the members,
  and the members are the closure.
* Hexes in or adjacent to one of the player's existing federations cannot be used (FAQ rule 2;
  gaia-project.md §8).  A structure cluster touching such a hex belongs to that federation, so
  hexes next to that cluster are unusable too.
* **Fewest satellites** (printed rules: connect the structures with as few satellites as possible;
  the site rejects more, gaia-project.md §8): with ``sat(M)`` = the least number of satellites
  that makes the member set ``M`` a valid federation (satellites on usable space hexes not adjacent
  to any other own cluster, so that the member set stays exactly ``M``), a federation must use
  exactly ``sat(M)`` satellites.
* **No superfluous planets** (printed rules: if the federation would be valid with at least one
  fewer planet *and* one fewer satellite, it must be changed; seed: "余分な建物を同盟に含めることは
  できません"): rejected when some proper sub-union ``M'`` of the member clusters has power >=
  threshold and ``sat(M') < |satellites|``.  (An equal satellite count with fewer planets is
  allowed: both must be fewer.)
* The satellite budget (power tokens in bowls I-III, the Taklons brainstone counting 1; QIC for
  Ivits; at most 25 satellites in total, gaia-project.md §1) is a parameter.
* **Ivits** (gaia-project.md §4): one federation that grows.  Pass its current hexes as
  ``ivits_federation``; a new formation must connect to that federation; the threshold applies
  to the whole federation's power (``ivits_threshold(tokens)`` = 7 x (tokens + 1)); own
  structures next to it are part of it.  The fewest-satellites and no-superfluous-planet rules
  apply to the added part, the old federation being always kept.  The federation has no memory
  (designer's answer, BoardGameGeek thread 1904800): when structures built next to it (e.g. a
  chain of space stations) already bring it to the threshold, the formation needs no satellite
  and no new planet - records Gentle-officer-4378 and TNG-6 do exactly that.

Algorithm (exact).  The player's usable structures are grouped into clusters (connected
components).  A federation with satellites is determined by its member clusters ``M``; ``sat(M)``
is a node-weighted Steiner tree problem on the hex grid (space hexes cost 1, member hexes 0, hexes
next to non-member clusters forbidden).  It is solved exactly by the Dreyfus-Wagner dynamic
programme over subsets of the (few) member clusters, with every layer "hexes reachable within j
satellites" held as one Python integer bitset over the map, so a breadth-first step is six shifts
and an AND; costs above the current bound are never built.  :func:`candidates` walks subsets of
clusters depth-first in index order and prunes a whole subtree with two monotone facts: (1) for
``Z`` containing ``N``, ``sat(Z) >= ceil(MST(N) / 2)`` where the MST is over the cluster-to-cluster
satellite distances in the graph in which *all* own clusters are free (the doubled Steiner tree of
``Z`` is a closed walk through the clusters of ``N``); (2) a valid ``Z`` needs ``sat(Z) <=
budget`` and ``sat(Z) <= sat(N')`` for every subset ``N'`` on the path with power >= threshold
(no-superfluous-planet rule).  Nothing pruned can be valid, so the enumeration is exact; each
surviving member set is checked with the exact rules and one satellite set of minimum size is
reconstructed from the DP tables (deterministically).  Results are canonical: one per member set
(the satellite count of a member set is forced by the fewest-satellites rule).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Optional

import attrs

Hex = tuple[int, int]

#: Axial neighbour offsets (q, r).
NEIGHBOURS: tuple[Hex, ...] = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))

#: Default federation threshold (gaia-project.md §8); Xenos with PI: 6 (§4).
DEFAULT_THRESHOLD = 7


def neighbours(h: Hex) -> list[Hex]:
    """The six axial neighbours of ``h`` (on or off the map)."""
    q, r = h
    return [(q + dq, r + dr) for dq, dr in NEIGHBOURS]


def ivits_threshold(tokens_owned: int) -> int:
    """Power the Ivits federation needs for its next token: 7 x (tokens owned + 1).

    ``tokens_owned`` excludes the terraforming level-5 token (gaia-project.md §4, seed).
    Raises ``ValueError`` for a negative count.
    """
    if tokens_owned < 0:
        raise ValueError("tokens_owned must be >= 0")
    return DEFAULT_THRESHOLD * (tokens_owned + 1)


# --------------------------------------------------------------------------- errors


class FederationError(ValueError):
    """Base class: the proposed federation breaks a rule (the subclass names which)."""


class EmptyFederationError(FederationError):
    """No hex listed."""


class UnknownHexError(FederationError):
    """A listed hex is not on the map."""


class NotOwnPlanetError(FederationError):
    """A listed hex is a planet not colonised by the player (gaia-project.md §8)."""


class ExcludedHexError(FederationError):
    """A listed hex is in or next to an existing federation of the player, or excluded."""


class DisconnectedError(FederationError):
    """Members and satellites are not one connected group (Ivits: not connected to the federation)."""


class InsufficientPowerError(FederationError):
    """Total power value below the threshold."""


class SatelliteBudgetError(FederationError):
    """More satellites than the player can pay for."""


class TooManySatellitesError(FederationError):
    """The member set can be federated with fewer satellites (printed rules; site rejects more).

    ``minimum`` is the fewest satellites for the same member set.
    """

    def __init__(self, message: str, minimum: int):
        super().__init__(message)
        self.minimum = minimum


class SuperfluousMembersError(FederationError):
    """A smaller federation (fewer planets and fewer satellites) would be valid.

    ``alternative`` is such a federation.
    """

    def __init__(self, message: str, alternative: "Federation"):
        super().__init__(message)
        self.alternative = alternative


# --------------------------------------------------------------------------- data


def _hexset(xs: Iterable[Hex]) -> frozenset[Hex]:
    return frozenset((int(q), int(r)) for q, r in xs)


def _structures(m: Mapping[Hex, int] | Iterable[tuple[Hex, int]]) -> tuple[tuple[Hex, int], ...]:
    items = m.items() if isinstance(m, Mapping) else m
    out = {}
    for (q, r), p in items:
        p = int(p)
        if p < 0:
            raise ValueError(f"negative power value at {(q, r)}")
        out[(int(q), int(r))] = p
    return tuple(sorted(out.items()))


def _feds(fs: Iterable[Iterable[Hex]]) -> tuple[frozenset[Hex], ...]:
    return tuple(_hexset(f) for f in fs)


def _opt_hexset(xs: Optional[Iterable[Hex]]) -> Optional[frozenset[Hex]]:
    return None if xs is None else _hexset(xs)


@attrs.frozen
class Federation:
    """A legal federation.

    ``members``: hexes of the player's structures in it (Ivits: the whole grown federation);
    ``satellites``: hexes where this action places satellites (their count = tokens/QIC paid);
    ``power``: total power value of ``members``.
    """

    members: frozenset[Hex] = attrs.field(converter=_hexset)
    satellites: frozenset[Hex] = attrs.field(converter=_hexset)
    power: int

    @property
    def hexes(self) -> tuple[Hex, ...]:
        """Members and satellites, sorted: a hex list the notation accepts."""
        return tuple(sorted(self.members | self.satellites))


@attrs.frozen
class Position:
    """What the federation rules need to know about the board, for one player.

    * ``space``: map hexes without a planet (satellites may go there; other players' satellites
      and space stations do not block).  A Lost Planet hex is a planet, not space.
    * ``planets``: map hexes with a planet (any owner, or none; Gaiaformer-only planets too).
    * ``structures``: the player's structures, hex -> power value for federations (mine 1,
      TS/lab 2, PI/academy 3 or 4, space station 1, Lost Planet 1, Bescods PI bonus included).
      A structure may sit on a space hex (space station, Lost Planet).
    * ``federations``: hex sets (members and satellites) of the player's existing federations;
      ignored when ``ivits_federation`` is given.
    * ``excluded``: further hexes that cannot be used.
    * ``budget``: satellites the player can place now (tokens in bowls I-III / Ivits QIC, capped by
      the 25 satellite pieces).
    * ``threshold``: power needed (7; 6 for Xenos with PI; Ivits: :func:`ivits_threshold`).
    * ``ivits_federation``: the Ivits' existing federation (hexes), or None.

    Raises ``ValueError`` on inconsistent input (a structure off the map, a hex both space and
    planet, a negative budget, a threshold below 1).
    """

    space: frozenset[Hex] = attrs.field(converter=_hexset)
    planets: frozenset[Hex] = attrs.field(converter=_hexset)
    structures: tuple[tuple[Hex, int], ...] = attrs.field(converter=_structures)
    federations: tuple[frozenset[Hex], ...] = attrs.field(default=(), converter=_feds)
    excluded: frozenset[Hex] = attrs.field(default=frozenset(), converter=_hexset)
    budget: int = 25
    threshold: int = DEFAULT_THRESHOLD
    ivits_federation: Optional[frozenset[Hex]] = attrs.field(default=None, converter=_opt_hexset)

    def __attrs_post_init__(self) -> None:
        if self.space & self.planets:
            raise ValueError(f"hexes both space and planet: {sorted(self.space & self.planets)[:5]}")
        board = self.space | self.planets
        for h, _ in self.structures:
            if h not in board:
                raise ValueError(f"structure at {h} is not on the map")
        if self.budget < 0:
            raise ValueError("budget must be >= 0")
        if self.threshold < 1:
            raise ValueError("threshold must be >= 1")
        if self.ivits_federation is not None and not self.ivits_federation:
            raise ValueError("ivits_federation must be None or non-empty")

    @property
    def power_of(self) -> dict[Hex, int]:
        """Structures as a dict hex -> power value."""
        return dict(self.structures)


# --------------------------------------------------------------------------- preparation

_INF = 10**9


class _Prep:
    """Bitset encoding of a Position and its clusters (internal; built once per Position)."""

    def __init__(self, pos: Position):
        self.pos = pos
        board = pos.space | pos.planets
        qs = [q for q, _ in board] or [0]
        rs = [r for _, r in board] or [0]
        self.qmin, self.rmin = min(qs), min(rs)
        self.W = W = max(qs) - self.qmin + 3  # one padding column on each side
        self.shifts = (1, W, W - 1)
        self.board_mask = self.mask(board)
        power = pos.power_of
        self.power = power
        ivits = pos.ivits_federation is not None

        # forbidden hexes (non-Ivits): existing federations and their neighbours
        forbidden = set(pos.excluded)
        if not ivits:
            for f in pos.federations:
                forbidden |= f
                for h in f:
                    forbidden.update(neighbours(h))
        # clusters of all own structures
        comps = _components(set(power))
        cl_of: dict[Hex, int] = {}
        for i, c in enumerate(comps):
            for h in c:
                cl_of[h] = i
        blocked = [any(h in forbidden for h in c) for c in comps]
        # Ivits: the existing federation absorbs touching clusters
        e_hexes: set[Hex] = set()
        if ivits:
            e_hexes = set(pos.ivits_federation) & board
            absorbed = {cl_of[h] for h in e_hexes if h in cl_of}
            for h in list(e_hexes):
                for n in neighbours(h):
                    if n in cl_of:
                        absorbed.add(cl_of[n])
            for i in absorbed:
                e_hexes |= comps[i]
        else:
            absorbed = set()
        for i, c in enumerate(comps):
            if blocked[i]:
                forbidden |= c
                for h in c:
                    forbidden.update(neighbours(h))
        self.forbidden = frozenset(forbidden)
        self.blocked_structures = frozenset(h for i, c in enumerate(comps) if blocked[i] for h in c)

        usable = [i for i in range(len(comps)) if not blocked[i] and i not in absorbed]
        # cluster list: index 0 is the Ivits federation when present
        self.clusters: list[frozenset[Hex]] = []
        if ivits:
            self.clusters.append(frozenset(e_hexes))
        self.clusters += [frozenset(comps[i]) for i in usable]
        self.ivits = ivits
        self.cpower = [sum(power.get(h, 0) for h in c) for c in self.clusters]
        self.cmask = [self.mask(c) for c in self.clusters]
        self.hex_cluster = {h: k for k, c in enumerate(self.clusters) for h in c}
        self.all_cmask = 0
        for m in self.cmask:
            self.all_cmask |= m
        # usable satellite hexes: space, not forbidden, not a structure, not in the Ivits fed
        allowed = pos.space - forbidden - set(power) - e_hexes
        self.allowed_hexes = frozenset(allowed)
        self.A = self.mask(allowed)
        self.cnbr = [self.nbr(m) & ~m for m in self.cmask]
        self.K = len(self.clusters)
        self.D = [self._free_dist(k) for k in range(self.K)]
        self.sat_memo: dict[int, tuple[int, bool]] = {}

    # -- bitsets
    def bit(self, h: Hex) -> int:
        return (h[1] - self.rmin) * self.W + (h[0] - self.qmin + 1)

    def mask(self, hs: Iterable[Hex]) -> int:
        m = 0
        for h in hs:
            m |= 1 << self.bit(h)
        return m

    def unbit(self, i: int) -> Hex:
        r, c = divmod(i, self.W)
        return (c - 1 + self.qmin, r + self.rmin)

    def hexes_of(self, m: int) -> frozenset[Hex]:
        out = []
        while m:
            low = m & -m
            out.append(self.unbit(low.bit_length() - 1))
            m ^= low
        return frozenset(out)

    def nbr(self, x: int) -> int:
        a, b, c = self.shifts
        return ((x << a) | (x >> a) | (x << b) | (x >> b) | (x << c) | (x >> c)) & self.board_mask

    @staticmethod
    def zc(x: int, h: int, nbr) -> int:
        """Add the zero-cost hexes ``h`` reachable from ``x`` through ``h``."""
        while True:
            y = x | (nbr(x) & h)
            if y == x:
                return x
            x = y

    def _free_dist(self, k: int) -> list[int]:
        """Satellites on a cheapest path from cluster k to every cluster, all clusters free."""
        nbr, A, H = self.nbr, self.A, self.all_cmask
        dist = [_INF] * self.K
        x = self.zc(self.cmask[k], H, nbr)
        j = 0
        while True:
            for t in range(self.K):
                if dist[t] == _INF and x & self.cmask[t]:
                    dist[t] = j
            y = self.zc(x | (nbr(x) & A), H, nbr)
            if y == x:
                return dist
            x, j = y, j + 1

    # -- lower bound
    def mst_lb(self, ks: list[int]) -> int:
        """ceil(MST over free distances / 2): a lower bound on sat() of any superset of ks."""
        n = len(ks)
        if n < 2:
            return 0
        D = self.D
        best = [D[ks[0]][k] for k in ks]
        used = [False] * n
        used[0] = True
        total = 0
        for _ in range(n - 1):
            j = min((i for i in range(n) if not used[i]), key=best.__getitem__)
            if best[j] >= _INF:
                return _INF
            total += best[j]
            used[j] = True
            dj = D[ks[j]]
            for i in range(n):
                if not used[i] and dj[ks[i]] < best[i]:
                    best[i] = dj[ks[i]]
        return (total + 1) // 2

    # -- exact Steiner (Dreyfus-Wagner on bitset layers)
    def region(self, ks: list[int]) -> tuple[int, int]:
        H = 0
        bad = 0
        for k in ks:
            H |= self.cmask[k]
        kset = set(ks)
        for k in range(self.K):
            if k not in kset:
                bad |= self.cnbr[k]
        return self.A & ~bad, H

    def steiner(self, ks: list[int], limit: int, want_tree: bool = False):
        """Fewest satellites connecting clusters ``ks`` (closure-consistent), if <= limit.

        Returns ``(s, satellites-mask or None)`` or ``None`` when more than ``limit`` are needed.
        """
        n = len(ks)
        if n == 1:
            return (0, 0)
        if limit < 0:
            return None
        An, Hn = self.region(ks)
        nbr, zc = self.nbr, self.zc
        R = An | Hn
        full = (1 << n) - 1
        L: dict[int, list[int]] = {}
        P: dict[int, list[int]] = {}
        term = [self.cmask[k] for k in ks]
        for i in range(n):
            S = 1 << i
            lay = [zc(term[i], Hn, nbr)]
            pre = [term[i]]
            top = limit if n > 2 or i == 0 else -1
            for j in range(1, top + 1):
                prev = lay[-1]
                p = prev | (nbr(prev) & An)
                pre.append(p)
                lay.append(zc(p, Hn, nbr))
            L[S], P[S] = lay, pre
        if n == 2:
            lay = L[1]
            for j, x in enumerate(lay):
                if x & term[1]:
                    break
            else:
                return None
            if not want_tree:
                return (j, None)
            v = ((lay[j] & term[1]) & -(lay[j] & term[1])).bit_length() - 1
            return (j, self._trace(1, v, j, L, P, {}, An, Hn))
        splits: dict[int, list[tuple[int, int]]] = {}
        for S in sorted(range(1, full + 1), key=lambda s: bin(s).count("1")):
            if S & (S - 1) == 0:
                continue
            sp = []
            S1 = (S - 1) & S
            while S1:
                S2 = S ^ S1
                if S1 < S2:
                    sp.append((S1, S2))
                S1 = (S1 - 1) & S
            splits[S] = sp
            self._layers_for(S, sp, L, P, limit, An, Hn)
        lay = L[full]
        for j, x in enumerate(lay):
            if x & term[0]:
                break
        else:
            return None
        if not want_tree:
            return (j, None)
        v = ((lay[j] & term[0]) & -(lay[j] & term[0])).bit_length() - 1
        return (j, self._trace(full, v, j, L, P, splits, An, Hn))

    def _layers_for(self, S, sp, L, P, limit, An, Hn):
        nbr, zc = self.nbr, self.zc
        lay: list[int] = []
        pre: list[int] = []
        for j in range(limit + 1):
            m = 0
            for S1, S2 in sp:
                L1, L2 = L[S1], L[S2]
                for a in range(0, j + 2):
                    b = j + 1 - a
                    if a < len(L1) and b < len(L2):
                        m |= L1[a] & L2[b] & An
                    b -= 1
                    if b >= 0 and a < len(L1) and b < len(L2):
                        m |= L1[a] & L2[b] & Hn
            if j:
                prev = lay[-1]
                m |= prev | (nbr(prev) & An)
            pre.append(m)
            lay.append(zc(m, Hn, nbr))
        L[S], P[S] = lay, pre

    def _trace(self, S, v, j, L, P, splits, An, Hn) -> int:
        lay, pre = L[S], P[S]
        while j > 0 and (lay[j - 1] >> v) & 1:
            j -= 1
        bitv = 1 << v
        if S & (S - 1) == 0 and j == 0 and pre[0] & bitv:
            return 0
        if not pre[j] & bitv:
            # added by the zero-cost closure: v lies in a member cluster reached from pre[j]
            k = self.hex_cluster[self.unbit(v)]
            c = self.cmask[k]
            u = pre[j] & (c | self.cnbr[k])
            u = (u & -u).bit_length() - 1
            return self._trace(S, u, j, L, P, splits, An, Hn)
        w = 1 if An & bitv else 0
        for S1, S2 in splits.get(S, ()):
            L1, L2 = L[S1], L[S2]
            for a in range(0, j + w + 1):
                b = j + w - a
                if a < len(L1) and b < len(L2) and L1[a] & L2[b] & bitv:
                    return self._trace(S1, v, a, L, P, splits, An, Hn) | self._trace(
                        S2, v, b, L, P, splits, An, Hn
                    )
        # grown from a neighbour one layer down
        u = self.nbr(bitv) & lay[j - 1]
        u = (u & -u).bit_length() - 1
        return bitv | self._trace(S, u, j - 1, L, P, splits, An, Hn)

    def sat(self, ks: list[int], limit: int) -> Optional[int]:
        """Memoised sat(): exact value if <= limit, else None."""
        key = 0
        for k in ks:
            key |= 1 << k
        hit = self.sat_memo.get(key)
        if hit is not None:
            val, exact = hit
            if exact:
                return val if val <= limit else None
            if limit <= val:  # known: > val >= limit
                return None
        if self.mst_lb(ks) > limit:
            res = None
        else:
            res = self.steiner(ks, limit)
        if res is None:
            self.sat_memo[key] = (limit, False)
            return None
        self.sat_memo[key] = (res[0], True)
        return res[0]

    def federation(self, ks: list[int], sats: int) -> Federation:
        members = frozenset().union(*(self.clusters[k] for k in ks))
        members = frozenset(h for h in members if h in self.power)
        return Federation(members, self.hexes_of(sats), sum(self.cpower[k] for k in ks))

    def superfluous(self, ks: list[int], s: int) -> Optional[list[int]]:
        """A proper sub-union with power >= threshold and fewer satellites, if any."""
        if s == 0:
            return None
        thr = self.pos.threshold
        n = len(ks)
        fixed = 1 if self.ivits else 0  # Ivits: the old federation is always kept
        free = ks[fixed:]
        m = len(free)
        for bits in range(0 if self.ivits else 1, (1 << m) - 1):
            sub = ks[:fixed] + [free[i] for i in range(m) if bits >> i & 1]
            if len(sub) >= n:
                continue
            if sum(self.cpower[k] for k in sub) < thr:
                continue
            if self.sat(sub, s - 1) is not None:
                return sub
        return None


def _components(hexes: set[Hex]) -> list[set[Hex]]:
    seen: set[Hex] = set()
    out = []
    for h in sorted(hexes):
        if h in seen:
            continue
        comp = {h}
        stack = [h]
        seen.add(h)
        while stack:
            x = stack.pop()
            for n in neighbours(x):
                if n in hexes and n not in seen:
                    seen.add(n)
                    comp.add(n)
                    stack.append(n)
        out.append(comp)
    return out


@lru_cache(maxsize=32)
def _prep(pos: Position) -> _Prep:
    return _Prep(pos)


# --------------------------------------------------------------------------- API


def validate(position: Position, hexes: Iterable[Hex]) -> Federation:
    """Check a proposed federation and return it.

    ``hexes``: the hex list of the ``federation <hex,hex,...> fedN`` command as axial tuples:
    every satellite, plus any of the member structures (members are completed by adjacency, see
    the module docstring).  Returns the :class:`Federation` (members, satellites placed, power).

    Raises (all ``ValueError`` subclasses of :class:`FederationError`):
    ``EmptyFederationError``, ``UnknownHexError``, ``NotOwnPlanetError``, ``ExcludedHexError``,
    ``DisconnectedError``, ``InsufficientPowerError``, ``TooManySatellitesError``,
    ``SuperfluousMembersError``, ``SatelliteBudgetError`` - checked in that order.
    """
    pos = position
    prep = _prep(pos)
    listed = _hexset(hexes)
    if not listed:
        raise EmptyFederationError("a federation needs at least one hex")
    board = pos.space | pos.planets
    chosen: set[int] = set()
    sats: set[Hex] = set()
    for h in sorted(listed):
        if h not in board:
            raise UnknownHexError(f"{h} is not on the map")
        if h in prep.hex_cluster:
            chosen.add(prep.hex_cluster[h])
        elif h in prep.power:
            raise ExcludedHexError(f"structure at {h} already belongs to (or touches) a federation")
        elif h in pos.planets:
            raise NotOwnPlanetError(f"{h} is a planet not colonised by the player")
        elif h in prep.allowed_hexes:
            sats.add(h)
        elif prep.ivits and h in pos.ivits_federation:
            continue  # a satellite of the existing Ivits federation
        else:
            raise ExcludedHexError(f"{h} is in or next to an existing federation, or excluded")
    # closure: clusters next to satellites join
    for h in sats:
        for n in neighbours(h):
            if n in prep.hex_cluster:
                chosen.add(prep.hex_cluster[n])
    if prep.ivits:
        chosen.add(0)
    ks = sorted(chosen)
    # connectivity of members + satellites (+ existing Ivits federation)
    group: set[Hex] = set(sats)
    for k in ks:
        group |= prep.clusters[k]
    if len(_components(group)) != 1:
        raise DisconnectedError(
            "members and satellites are not connected"
            + (" to the Ivits federation" if prep.ivits else "")
        )
    power = sum(prep.cpower[k] for k in ks)
    if power < pos.threshold:
        raise InsufficientPowerError(f"power value {power} < threshold {pos.threshold}")
    n_sat = len(sats)
    s = prep.sat(ks, n_sat - 1) if n_sat else None
    if s is not None:
        raise TooManySatellitesError(
            f"{n_sat} satellites used; this member set needs only {s}", minimum=s
        )
    sub = prep.superfluous(ks, n_sat)
    if sub is not None:
        s2 = prep.sat(sub, n_sat - 1)
        _, tree = prep.steiner(sub, s2, want_tree=True)
        alt = prep.federation(sub, tree or 0)
        raise SuperfluousMembersError(
            f"a federation with fewer planets and fewer satellites ({s2}) would be valid: "
            f"{alt.hexes}",
            alternative=alt,
        )
    if n_sat > pos.budget:
        raise SatelliteBudgetError(f"{n_sat} satellites needed, only {pos.budget} available")
    members = frozenset(h for k in ks for h in prep.clusters[k] if h in prep.power)
    return Federation(members, frozenset(sats), power)


def candidates(position: Position) -> list[Federation]:
    """Every legal federation for the player now, one per member set, sorted.

    Exact (see the module docstring for the search and its pruning).  Each result satisfies
    :func:`validate`.  Sorted by (satellite count, sorted hexes).  Returns [] when none exists.
    """
    prep = _prep(position)
    thr, B, K = position.threshold, position.budget, prep.K
    out: list[Federation] = []
    cp = prep.cpower

    def visit(ks: list[int], power: int, cap: int) -> None:
        start = ks[-1] + 1 if ks else 0
        for i in range(start, K):
            nks = ks + [i]
            bound = min(B, cap)
            if prep.mst_lb(nks) > bound:
                continue
            npower = power + cp[i]
            ncap = cap
            if npower >= thr:
                s = prep.sat(nks, bound)
                if s is not None:
                    ncap = min(cap, s)
                    if prep.superfluous(nks, s) is None:
                        _, tree = prep.steiner(nks, s, want_tree=True) if s else (0, 0)
                        out.append(prep.federation(nks, tree))
            visit(nks, npower, ncap)

    if prep.ivits:
        cap = _INF
        if cp[0] >= thr:  # the federation grew by adjacency alone: no satellite, nothing new
            out.append(prep.federation([0], 0))
            cap = 0
        visit([0], cp[0], cap)
    else:
        visit([], 0, _INF)
    out.sort(key=lambda f: (len(f.satellites), f.hexes))
    return out
