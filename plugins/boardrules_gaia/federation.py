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
next to non-member clusters forbidden: the *region* of ``M``).  Every hex set is one Python integer
bitset over the map, so a breadth-first step is six shifts and an AND.  ``sat`` brackets the
answer: lower bound = max(largest pairwise distance, ceil(MST/2), the exact three-cluster value of
every triple via a meeting hex), upper bound = the shortest-path heuristic from each cluster.  Only
when the bounds differ does the exact Dreyfus-Wagner programme run (one root terminal, layers
deepened one satellite at a time up to the upper bound, each layer cut to the hexes from which
every terminal outside the subset is still within the remaining budget); its tables also give a
minimum satellite set.

:func:`candidates` never tries a member set that cannot be joined.  Key fact: take a valid
federation ``Z`` with ``s >= 1`` satellites and an optimal tree rooted at its lowest cluster (Ivits:
at the old federation); remove a deepest satellite ``v`` with the leaf clusters hanging on it.
What is left joins a smaller member set ``N`` with ``s - 1`` satellites inside ``N``'s region, so
``power(N) < threshold`` (else ``Z`` is superfluous), ``v`` is next to ``N``'s tree, and ``Z = N``
+ the clusters around ``v``.  Hence:

1. *Bases*: member sets ``N`` that can be joined inside their own region, with power below the
   threshold.  They are grown from each root by adding the clusters around one usable hex next to
   the part of the region reachable from the root (so every set generated is joinable, and every
   base is reached: walk along its tree), using only hexes within ``budget - 1`` satellites of
   every cluster so far (free distances) and keeping free pairwise distances <= ``budget - 1``.
2. *Candidates*: a base plus the clusters around one more such hex ``v``, power reaching the
   threshold.  For each base, breadth-first layers inside its region give, for every ``v``, a lower
   bound on ``g_N(v)`` = fewest satellites joining ``N`` next to ``v`` (exact for bases of one or
   two clusters, via the meeting hex); for a valid ``Z``, ``sat(Z) = 1 + min g_N(v)`` over its
   generating pairs, so the least bound ``lz`` is a lower bound on ``sat(Z)`` for valid ``Z``.
3. *Validity*, by increasing cluster count: ``Z`` is valid iff ``sat(Z) <= cap`` = min(budget,
   ``sat`` of every valid proper subset) - a superfluity witness of least satellite count is itself
   valid, and single clusters over the threshold (0 satellites) are valid and end every superset.
   ``val(Z) = max(sat(Z), lz)`` can stand in for ``sat(Z)`` (equal for valid ``Z``, never below
   it), which lets the Steiner bounds stop at ``lz``, and skips the Steiner search entirely when
   the exact bases give ``lz``.

The enumeration is exact (checked against brute force over all satellite subsets on random small
boards, Ivits included).  One result per member set (its satellite count is forced by the
fewest-satellites rule).

Cost (bench/bench_federation.py, CPU ms on a shared 2-core machine, 30 boards per row): the
68 reconstructed record positions take 1-2 ms (median), 35-70 ms (worst) at budgets 8-25;
20 late-game structures packed in one region 15-35 ms median, 65-140 ms worst; the synthetic
worst case, 20 structures scattered over the map (mostly single-planet clusters), 55 ms median /
280 ms worst at budget 8, 170 / 830 ms at 12, and seconds at 16-25, where the legal federations
themselves number in the hundreds (up to ~1300) and each needs an exact Steiner solution (the
long chains of 10-25 satellites are the slow ones: their lower bounds rarely meet the heuristic,
and the Dreyfus-Wagner programme over five or six clusters does the rest).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping
from collections import OrderedDict
from functools import lru_cache
from typing import Any, Optional

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


class HexSet(frozenset):
    """A set of axial hexes already as pairs of ints: a :class:`Position` takes it as it is
    (a caller that builds the same board's hex sets often can keep them)."""


def _hexset(xs: Iterable[Hex]) -> frozenset[Hex]:
    if type(xs) is HexSet:
        return xs
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


@attrs.frozen(cache_hash=True)  # (a dict key of the preparations and listings, often asked)
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
#: Layers of the exact two-cluster programme in the candidate bounds (cost grows as its square).
_PAIR_LAYERS = 12


class _Board:
    """The bit layout of one map (internal; built once per map by :func:`_board`): hex (q, r) is
    bit ``(r - rmin) * W + (q - qmin + 1)``, one padding column on each side, so the six
    neighbours of a bitset are three shifts each way, masked by ``board_mask``."""

    def __init__(self, space: frozenset[Hex], planets: frozenset[Hex]):
        board = space | planets
        qs = [q for q, _ in board] or [0]
        rs = [r for _, r in board] or [0]
        self.qmin, self.rmin = min(qs), min(rs)
        self.W = W = max(qs) - self.qmin + 3
        self.shifts = (1, W, W - 1)
        qmin, rmin = self.qmin, self.rmin
        #: hex -> its bit index
        self.index = {(q, r): (r - rmin) * W + (q - qmin + 1) for q, r in board}
        self.board_mask = self.mask(board)
        self.space_mask = self.mask(space)

    def mask(self, hs: Iterable[Hex]) -> int:
        idx = self.index
        m = 0
        for h in hs:
            m |= 1 << idx[h]
        return m


@lru_cache(maxsize=32)
def _board(space: frozenset[Hex], planets: frozenset[Hex]) -> _Board:
    return _Board(space, planets)


class _Prep:
    """Bitset encoding of a Position and its clusters (internal; built once per Position)."""

    def __init__(self, pos: Position):
        self.pos = pos
        bd = _board(pos.space, pos.planets)
        self.qmin, self.rmin, self.W, self.shifts = bd.qmin, bd.rmin, bd.W, bd.shifts
        self.board_mask = bd.board_mask
        index = bd.index
        power = pos.power_of
        self.power = power
        ivits = pos.ivits_federation is not None

        # forbidden hexes (non-Ivits): existing federations and their neighbours (a mask)
        forbidden = 0
        for h in pos.excluded:
            b = index.get(h)
            if b is not None:
                forbidden |= 1 << b
        if not ivits:
            for f in pos.federations:
                fm = bd.mask(h for h in f if h in index)
                forbidden |= fm | self.nbr(fm)
        # clusters of all own structures
        comps = _components(set(power))
        cl_of: dict[Hex, int] = {}
        for i, c in enumerate(comps):
            for h in c:
                cl_of[h] = i
        comp_masks = [bd.mask(c) for c in comps]
        blocked = [bool(m & forbidden) for m in comp_masks]
        # Ivits: the existing federation absorbs touching clusters
        e_hexes: set[Hex] = set()
        if ivits:
            assert pos.ivits_federation is not None
            e_hexes = set(pos.ivits_federation) & index.keys()
            absorbed = {cl_of[h] for h in e_hexes if h in cl_of}
            for h in list(e_hexes):
                for n in neighbours(h):
                    if n in cl_of:
                        absorbed.add(cl_of[n])
            for i in absorbed:
                e_hexes |= comps[i]
        else:
            absorbed = set()
        for i, m in enumerate(comp_masks):
            if blocked[i]:
                forbidden |= m | self.nbr(m)

        usable = [i for i in range(len(comps)) if not blocked[i] and i not in absorbed]
        # cluster list: index 0 is the Ivits federation when present
        self.clusters: list[frozenset[Hex]] = []
        self.cmask: list[int] = []
        if ivits:
            self.clusters.append(frozenset(e_hexes))
            self.cmask.append(bd.mask(e_hexes))
        self.clusters += [frozenset(comps[i]) for i in usable]
        self.cmask += [comp_masks[i] for i in usable]
        self.ivits = ivits
        self.cpower = [sum(power.get(h, 0) for h in c) for c in self.clusters]
        self.hex_cluster = {h: k for k, c in enumerate(self.clusters) for h in c}
        self.all_cmask = 0
        for m in self.cmask:
            self.all_cmask |= m
        # usable satellite hexes: space, not forbidden, not a structure, not in the Ivits fed
        struct = 0
        for m in comp_masks:
            struct |= m
        self.A = bd.space_mask & ~forbidden & ~struct & ~bd.mask(e_hexes)
        self.cnbr = [self.nbr(m) & ~m for m in self.cmask]
        self.touch = [(m | nb, m) for m, nb in zip(self.cmask, self.cnbr)]
        self.K = len(self.clusters)
        # usable space hexes grouped by the set of clusters they touch (bit k = cluster k):
        # a hex is in the region of member set N iff its signature is a subset of N
        groups: dict[int, int] = {0: self.A} if self.A else {}
        for k, cn in enumerate(self.cnbr):
            for sig, m in list(groups.items()):
                x = m & cn
                if x:
                    groups[sig | 1 << k] = x
                    if x == m:
                        del groups[sig]
                    else:
                        groups[sig] = m ^ x
        self.free = groups.pop(0, 0)
        self.sig_at: dict[int, int] = {}
        self.groups_by_cluster: list[list[tuple[int, int]]] = [[] for _ in range(self.K)]
        for sig, m in groups.items():
            for k in range(self.K):
                if sig >> k & 1:
                    self.groups_by_cluster[k].append((sig, m))
            while m:
                b = m & -m
                m ^= b
                self.sig_at[b.bit_length() - 1] = sig
        self.sig_groups = sorted(groups.items())
        # connected components of the free space, for the fast feasibility flood
        comps_free = []
        rest = self.free
        while rest:
            x = rest & -rest
            while True:
                y = x | (self.nbr(x) & self.free)
                if y == x:
                    break
                x = y
            comps_free.append(x)
            rest &= ~x
        self.free_comps = comps_free
        self.free_lay: list[list[int]] = []
        self.D = [self._free_dist(k) for k in range(self.K)]
        self.sat_memo: dict[int, tuple[int, bool]] = {}
        # filled by candidates(): its result, and each result by its hex set (members and
        # satellites), which validate() answers from without searching again
        self.cands: Optional[tuple[Federation, ...]] = None
        self.known: dict[frozenset[Hex], Federation] = {}

    def allowed(self, h: Hex) -> bool:
        """Whether a satellite may go on the map hex ``h``."""
        return bool(self.A >> self.bit(h) & 1)

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
    def zc(x: int, tl) -> int:
        """Add every member cluster that ``x`` touches (entering a member hex costs nothing).

        ``tl`` lists (cluster + its neighbours, cluster) masks; clusters are never adjacent to
        each other, so one pass is enough.
        """
        for t, c in tl:
            if x & t:
                x |= c
        return x

    def spread(self, x: int, A: int, tl, T: int) -> int:
        """``zc(x | (nbr(x) & A), tl)`` for an ``x`` that is closed already (``zc(x) == x``):
        one breadth-first step inside ``A``.  ``T`` is the union of ``tl``'s first masks; only
        a new hex inside it can bring in a cluster, so most steps skip the cluster loop."""
        a, b, c = self.shifts
        y = x | (((x << a) | (x >> a) | (x << b) | (x >> b) | (x << c) | (x >> c))
                 & self.board_mask & A)
        new = (y ^ x) & T
        if new:
            for t, cm in tl:
                if new & t:
                    y |= cm
        return y

    @staticmethod
    def touch_union(tl) -> int:
        """The union of the (cluster + its neighbours) masks of ``tl``."""
        T = 0
        for t, _ in tl:
            T |= t
        return T

    def _free_dist(self, k: int) -> list[int]:
        """Satellites on a cheapest path from cluster k to every cluster, all clusters free.

        Also records ``free_lay[k]``: hexes within j satellites of cluster k, all clusters
        free, a space hex counting itself (the last layer repeats beyond its index).

        Only distances up to the budget matter (the search never places more satellites), so
        the layers stop at budget + 1 and a farther (or unreachable) cluster gets budget + 1:
        still a lower bound where :meth:`mst_lb` uses it, and over every budget test of
        :meth:`grow` as the true distance is.
        """
        A = self.A
        tl = self.touch
        T = self.touch_union(tl)
        spread = self.spread
        dist = [_INF] * self.K
        x = self.zc(self.cmask[k], tl)
        j = 0
        lay = [x]
        cap = self.pos.budget + 1
        while True:
            for t in range(self.K):
                if dist[t] == _INF and x & self.cmask[t]:
                    dist[t] = j
            if j >= cap:
                self.free_lay.append(lay)
                return [min(d, cap) for d in dist]
            y = spread(x, A, tl, T)
            if y == x:
                self.free_lay.append(lay)
                return dist
            x, j = y, j + 1
            lay.append(x)

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
    def region(self, ks: list[int]):
        """(usable space mask, member hex mask, touch list) for member clusters ``ks``."""
        nb = 0
        H = 0
        for k in ks:
            nb |= 1 << k
            H |= self.cmask[k]
        A = self.free
        for sig, m in self.sig_groups:
            if not sig & ~nb:
                A |= m
        return A, H, [self.touch[k] for k in ks]

    def feasible(self, ks: list[int], An: int, tl) -> bool:
        """Whether the member clusters can be joined at all inside their region."""
        spread, T = self.spread, self.touch_union(tl)
        x = self.zc(self.cmask[ks[0]], tl)
        comps = self.free_comps
        while True:
            y = spread(x, An, tl, T)
            for c in comps:
                if y & c:
                    y |= c
            if y == x:
                break
            x = y
        return all(x & self.cmask[k] for k in ks)

    def steiner(
        self,
        ks: list[int],
        limit: int,
        want_tree: bool = False,
        floor: int = 0,
        connected: bool = False,
    ):
        """Fewest satellites connecting clusters ``ks`` (closure-consistent), if <= limit.

        Returns ``(s, satellites-mask or None)`` or ``None`` when more than ``limit`` are needed.
        With ``floor``, returns ``max(s, floor)`` instead (the tree then has s satellites; the
        caller knows the set can only matter if s >= floor).  ``connected``: the caller knows the
        clusters can be joined.  Region bounds first: lower bound = max(largest pairwise
        distance, ceil(MST / 2)) over distances inside the region; upper bound = the
        shortest-path heuristic (grow a tree from one cluster, joining the nearest cluster each
        time).  Equal bounds are the answer; else the exact Dreyfus-Wagner programme decides
        below the upper bound.
        """
        n = len(ks)
        if n == 1:
            return (max(0, floor), 0) if floor <= limit else None
        if limit < 0 or floor > limit:
            return None
        An, Hn, tl = self.region(ks)
        if not connected and not self.feasible(ks, An, tl):
            return None
        zc, spread, T = self.zc, self.spread, self.touch_union(tl)
        term = [self.cmask[k] for k in ks]
        heur = None
        if floor:
            # the caller's lower bound first: when the heuristic tree meets it, that is the
            # answer (the bounds below can only lie between the two), and the distance layers
            # are not needed
            heur = self._heuristic(term, An, Hn, tl)
            if heur[0] <= floor:
                return (floor, heur[1])
        # BFS layers from every member cluster inside the region (other members free)
        lays = []
        dist = [[_INF] * n for _ in range(n)]
        for i in range(n):
            x = zc(term[i], tl)
            lay = [x]
            j = 0
            todo = n
            while True:
                for t in range(n):
                    if dist[i][t] == _INF and x & term[t]:
                        dist[i][t] = j
                        todo -= 1
                if not todo or j >= limit:
                    break
                y = spread(x, An, tl, T)
                if y == x:
                    break
                x, j = y, j + 1
                lay.append(x)
            if todo:
                return None  # some member out of reach within the limit
            lays.append(lay)
        lb = max(max(r) for r in dist)
        best = dist[0][:]
        used = [False] * n
        used[0] = True
        mst = 0
        for _ in range(n - 1):
            j = min((i for i in range(n) if not used[i]), key=best.__getitem__)
            mst += best[j]
            used[j] = True
            for i in range(n):
                if not used[i] and dist[j][i] < best[i]:
                    best[i] = dist[j][i]
        lb = max(lb, (mst + 1) // 2, floor)
        if lb > limit:
            return None
        # the heuristic tree first: it mostly meets the lower bound, which settles it (and then
        # no three clusters can need more than the limit: they are joined within the tree)
        ub, tree = heur if heur is not None else self._heuristic(term, An, Hn, tl)
        if ub <= lb:
            return (lb, tree)
        sums: dict = {}
        if n >= 3:  # can every three clusters meet within the limit?  Often settles "more"
            if self._triple_lb(lays, dist, lb, limit + 1, An, Hn, tl, sums, quick=True) > limit:
                return None
            lb = self._triple_lb(lays, dist, lb, min(ub, limit + 1), An, Hn, tl, sums)
            if lb > limit:
                return None
            if ub <= lb:
                return (lb, tree)
            for start in range(1, n):
                u2, t2 = self._heuristic(term[start:] + term[:start], An, Hn, tl)
                if u2 < ub:
                    ub, tree = u2, t2
                    if ub <= lb:
                        return (lb, tree)
        # root the programme at the most central cluster (a little less work)
        r = min(range(n), key=lambda i: max(dist[i]))
        order = [i for i in range(n) if i != r] + [r]
        roots = [ks[i] for i in order]
        rlays = [lays[i] for i in order]
        top = min(limit, ub - 1)
        res = self._dw(roots, top, want_tree, An, Hn, tl, rlays)
        if res is not None:
            if want_tree and res[0] < top:
                # the programme's masks depend on its limit: the tree is traced again at its
                # own value, so that the tree of a member set does not depend on the limit
                # asked (candidates() reuses a search under a larger budget: _Preps)
                res = self._dw(roots, res[0], want_tree, An, Hn, tl, rlays)
                assert res is not None
            return (max(res[0], floor), res[1])
        return (ub, tree) if ub <= limit else None

    def _triple_lb(
        self, lays, dist, lb: int, stop: int, An: int, Hn: int, tl, sums: dict, quick=False
    ) -> int:
        """max(lb, the largest exact Steiner value over any three members), capped at ``stop``.

        Three clusters are joined by three shortest paths from one meeting hex v:
        cost = d_a(v) + d_b(v) + d_c(v) - 2 w(v).  The distances are held bit-sliced (bit k of
        every hex's distance in one integer), so a sum is a ripple-carry adder over a few
        integers and its least value over a hex set is read from the top bit down.  Pair sums
        are kept in ``sums`` across calls.  ``quick``: stop at the first triple over the cap
        (returns ``stop``), else return ``lb`` unchanged.
        """
        spread, T = self.spread, self.touch_union(tl)
        n = len(lays)
        top = stop + 1  # distances beyond this index are all "far": the value is >= stop
        for lay in lays:
            while len(lay) <= top:
                lay.append(spread(lay[-1], An, tl, T))
        universe = An | Hn

        def planes(i: int) -> list[int]:
            got = sums.get(i)
            if got is None or got[0] != top:
                lay = lays[i]
                out = [0] * top.bit_length()
                prev = 0
                for d in range(top + 1):
                    ring = lay[d] & ~prev
                    prev = lay[d]
                    k = 0
                    while d >> k:
                        if d >> k & 1:
                            out[k] |= ring
                        k += 1
                far = universe & ~prev  # farther than top: counted as top
                k = 0
                while top >> k:
                    if top >> k & 1:
                        out[k] |= far
                    k += 1
                got = sums[i] = (top, out)
            return got[1]

        def add(xs: list[int], ys: list[int]) -> list[int]:
            if len(xs) < len(ys):
                xs, ys = ys, xs
            out = []
            carry = 0
            for k, x in enumerate(xs):
                y = ys[k] if k < len(ys) else 0
                xy = x ^ y
                out.append(xy ^ carry)
                carry = (x & y) | (carry & xy)
            out.append(carry)
            return out

        def least(ps: list[int], within: int) -> int:
            if not within:
                return _INF
            val = 0
            for k in range(len(ps) - 1, -1, -1):
                z = within & ~ps[k]
                if z:
                    within = z
                else:
                    val |= 1 << k
            return val

        def pair(b: int, c: int) -> list[int]:
            got = sums.get((b, c))
            if got is None or got[0] != top:
                got = sums[(b, c)] = (top, add(planes(b), planes(c)))
            return got[1]

        # widest triples first: a triple over the cap settles it at once
        triples = sorted(
            itertools.combinations(range(n), 3),
            key=lambda abc: -(dist[abc[0]][abc[1]] + dist[abc[0]][abc[2]] + dist[abc[1]][abc[2]]),
        )
        for a, b, c in triples:
            tot = add(pair(b, c), planes(a))
            t = min(least(tot, An) - 2, least(tot, Hn))
            if t >= stop:
                return stop
            if not quick and t > lb:
                lb = t
        return lb

    def _heuristic(self, term: list[int], An: int, Hn: int, tl) -> tuple[int, int]:
        """Shortest-path heuristic Steiner tree: (satellites, mask); callers know all connect."""
        nbr, zc = self.nbr, self.zc
        T = self.touch_union(tl)
        tree = zc(term[0], tl)
        sats = 0
        left = [t for t in term[1:] if not tree & t]
        while left:
            lays = [tree]
            pres = [tree]
            while True:
                prev = lays[-1]  # (closed)
                p = prev | (nbr(prev) & An)
                x = p
                new = (p ^ prev) & T
                if new:
                    for t, cm in tl:
                        if new & t:
                            x |= cm
                pres.append(p)
                lays.append(x)
                hit = [t for t in left if x & t]
                if hit:
                    break
            j = len(lays) - 1
            h = lays[j] & hit[0]
            v = (h & -h).bit_length() - 1
            path = 0
            while j > 0:
                bv = 1 << v
                if lays[j - 1] & bv:
                    j -= 1
                    continue
                if not pres[j] & bv:  # entered a member cluster at no cost
                    k = self.hex_cluster[self.unbit(v)]
                    u = pres[j] & (self.cmask[k] | self.cnbr[k])
                    v = (u & -u).bit_length() - 1
                    continue
                path |= bv
                u = nbr(bv) & lays[j - 1]
                v = (u & -u).bit_length() - 1
                j -= 1
            sats += bin(path).count("1")
            tree = zc(tree | path, tl)
            left = [t for t in left if not tree & t]
        return sats, tree & An

    def _dw(self, ks: list[int], limit: int, want_tree: bool, An: int, Hn: int, tl, lays):
        """Fewest satellites connecting clusters ``ks`` (closure-consistent), if <= limit.

        Returns ``(s, satellites-mask or None)``, or ``None`` when more than ``limit`` are
        needed.  Dreyfus-Wagner over the terminals except the last (the root), deepened one
        satellite at a time; layer ``L[S][j]`` = hexes v with dp[S][v] <= j that can still be
        completed within ``limit``: a tree of cost <= limit containing the partial tree of cost j
        for S at v also holds a path from v to every terminal t outside S, so
        j + d_t(v) - w(v) <= limit (``lays`` = the BFS layers d_t <= k of each terminal).
        Whatever such a tree is built from passes these masks, so the result stays exact.
        """
        n = len(ks)
        nbr, zc = self.nbr, self.zc
        m = n - 1
        full = (1 << m) - 1
        root = 1 << m
        term = [self.cmask[k] for k in ks]

        spread, T = self.spread, self.touch_union(tl)

        def layer(i: int, d: int) -> int:
            lay = lays[i]
            while len(lay) <= d:
                lay.append(spread(lay[-1], An, tl, T))
            return lay[d]

        # E[t][j]: hexes v with d_t(v) <= limit - j + w(v)
        E = [
            [layer(t, limit - j) | (layer(t, limit - j + 1) & An) for j in range(limit + 1)]
            for t in range(n)
        ]
        order = sorted(range(1, full + 1), key=lambda x: bin(x).count("1"))
        splits: dict[int, list[tuple[int, int]]] = {}
        for S in order:
            sp = []
            if S & (S - 1):
                S1 = (S - 1) & S
                while S1:
                    S2 = S ^ S1
                    if S1 < S2:
                        sp.append((S1, S2))
                    S1 = (S1 - 1) & S
            splits[S] = sp
        splits[root | full] = [(full, root)]
        everything = root | full
        outside = {S: [t for t in range(n) if not (S >> t) & 1] for S in order}
        outside[root] = list(range(m))
        outside[everything] = []

        def mask(S: int, j: int) -> int:
            x = -1
            for t in outside[S]:
                x &= E[t][j]
            return x

        L: dict[int, list[int]] = {}
        P: dict[int, list[int]] = {}
        lo: dict[int, int] = {}
        singles = [(1 << i, term[i]) for i in range(m)] + [(root, term[m])]
        for S, t in singles:
            first = zc(t, tl) & mask(S, 0)
            L[S], P[S] = [first], [t]
            lo[S] = 0 if first else _INF
        composite = [S for S in order if S & (S - 1)] + [everything]
        for S in composite:
            L[S], P[S], lo[S] = [], [], _INF
        for j in range(0, limit + 1):
            if j:
                for S, _ in singles:
                    prev = L[S][-1]
                    p = prev | (nbr(prev) & An)
                    P[S].append(p)
                    x = zc(p, tl) & mask(S, j)
                    L[S].append(x)
                    if x and lo[S] > j:
                        lo[S] = j
            for S in composite:
                acc = 0
                for S1, S2 in splits[S]:
                    lo1, lo2 = lo[S1], lo[S2]
                    if lo1 + lo2 > j + 1:
                        continue
                    L1, L2 = L[S1], L[S2]
                    # space hexes: dp1 + dp2 - 1 <= j; member hexes: dp1 + dp2 <= j
                    for a in range(max(1, lo1), j + 2 - max(1, lo2)):
                        x = L1[a]
                        if x:
                            acc |= x & L2[j + 1 - a] & An
                    for a in range(lo1, j + 1 - lo2):
                        x = L1[a]
                        if x:
                            acc |= x & L2[j - a] & Hn
                lay = L[S]
                if j:
                    prev = lay[-1]
                    if prev:
                        acc |= prev | (nbr(prev) & An)
                P[S].append(acc)
                x = zc(acc, tl) & mask(S, j) if acc else 0
                lay.append(x)
                if x and lo[S] > j:
                    lo[S] = j
            hit = L[everything][j] & Hn
            if hit:
                if not want_tree:
                    return (j, None)
                v = (hit & -hit).bit_length() - 1
                return (j, self._trace(everything, v, j, L, P, splits, An, Hn))
        return None

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

    def grow(self, roots: list[int], thr: int, B: int, strong: int) -> dict[int, list[int]]:
        """Candidate member sets (cluster bitmasks) with >= 2 clusters and power >= thr.

        Returns candidate -> ``[u, b]``: for a valid candidate, sat = the least over its
        generating pairs (base N, hex v) of 1 + (fewest satellites joining N next to v); ``u`` is
        that least value over the pairs where it is known exactly (bases of one or two
        clusters; always >= sat), ``b`` the least lower bound over the other pairs.

        Bases: member sets that can be joined inside their own region, with power < thr,
        grown from a root (their lowest cluster; Ivits: the federation) by adding the clusters
        around one usable hex next to the reachable part of the region.  Candidates: a base plus
        the clusters around one more such hex, power reaching thr.  Every valid federation Z of
        >= 2 clusters is a candidate: in an optimal tree rooted at the root, removing a deepest
        satellite v and its leaf clusters leaves a base N (joined with s - 1 satellites, power
        below thr, else Z would be superfluous), v next to N's tree, Z = N + clusters around v.
        So only hexes within reach are used: v lies on Z's tree, at most s <= budget satellites
        from every cluster (free distances); the same holds for the hexes that build N (taken
        along N's tree, at most budget - 1 satellites), and s >= 1 + (free distances in N),
        which gives the returned bound.
        """
        cp, nbr, A = self.cpower, self.nbr, self.A
        sig_at = self.sig_at
        gby = self.groups_by_cluster
        D = self.D
        flay = self.free_lay

        def within(k: int, d: int) -> int:
            lay = flay[k]
            return lay[d] if d < len(lay) else lay[-1]

        cands: dict[int, list[int]] = {}
        ivits = self.ivits
        for root in roots:
            low = 0 if ivits else (1 << root) - 1
            M0 = 1 << root
            Q0 = self.free | self.cmask[root]
            for sig, m in gby[root]:
                if sig == M0:
                    Q0 |= m
            R0 = self._flood(self.cmask[root], Q0)
            seen = {M0}
            stack = [(M0, Q0, R0, cp[root], 0, within(root, B - 1), within(root, B))]
            while stack:
                M, Q, R, p, mp, near1, near = stack.pop()
                fr = nbr(R) & near & A & ~R
                done: dict[int, Optional[tuple]] = {}
                G = None
                rmp = 0
                exact_upto = -1
                while fr:
                    b = fr & -fr
                    fr ^= b
                    bi = b.bit_length() - 1
                    sig = sig_at[bi]
                    info = done.get(sig, 0)
                    if info == 0:
                        if sig & low or sig & strong:
                            info = None
                        else:
                            M2 = M | sig
                            new = sig & ~M
                            mp2 = mp
                            p2 = p
                            nb = new
                            while nb:
                                c = nb & -nb
                                nb ^= c
                                k = c.bit_length() - 1
                                p2 += cp[k]
                                dk = D[k]
                                x = M2
                                while x:
                                    c = x & -x
                                    x ^= c
                                    d = dk[c.bit_length() - 1]
                                    if d > mp2:
                                        mp2 = d
                            info = (M2, new, p2, mp2)
                        done[sig] = info
                    if info is None:
                        continue
                    M2, new, p2, mp2 = info
                    if p2 >= thr:
                        if G is None:
                            G, rmp, exact_upto = self._reach(M, Q, B - 1)
                        if rmp + 1 > B or not b & G[-1]:
                            continue
                        j = 0
                        while not b & G[j]:
                            j += 1
                        # exact: 1 + j satellites are enough for M2 (and needed via this N, h)
                        exact = j <= exact_upto
                        lz = j + 1 if exact else max(rmp + 1, mp2, j + 1)
                        old = cands.get(M2)
                        if old is None:
                            cands[M2] = [lz, _INF] if exact else [_INF, lz]
                        elif exact:
                            if lz < old[0]:
                                old[0] = lz
                        elif lz < old[1]:
                            old[1] = lz
                        continue
                    if M2 in seen or mp2 > B - 1 or not b & near1:
                        continue
                    seen.add(M2)
                    Q2 = Q
                    n1, n2 = near1, near
                    nb = new
                    while nb:
                        c = nb & -nb
                        nb ^= c
                        k = c.bit_length() - 1
                        Q2 |= self.cmask[k]
                        n1 &= within(k, B - 1)
                        n2 &= within(k, B)
                        for sg, m in gby[k]:
                            if not sg & ~M2:
                                Q2 |= m
                    stack.append((M2, Q2, self._flood(R, Q2), p2, mp2, n1, n2))
        return cands

    def _reach(self, M: int, Q: int, limit: int) -> tuple[list[int], int, bool]:
        """Distances inside the region of the member clusters ``M`` (mask ``Q``: its usable
        space hexes and member hexes).

        Returns ``(G, maxpair, exact)``.  ``G[j]`` (j = 0..limit) holds every hex next to a
        formation of ``M`` with <= j satellites (inside the region): the hexes next to a tree
        joining the farthest two members with <= j satellites (for j above ``_PAIR_LAYERS``:
        next to hexes within j of every member); with one or two members, for j <= ``exact``,
        exactly the hexes next to such a formation (``exact`` = -1: never).  ``maxpair`` = the
        largest distance between two members (a lower bound on their satellite count), or _INF
        if over ``limit`` (G is then empty).
        """
        nbr, zc = self.nbr, self.zc
        ks = []
        x = M
        while x:
            c = x & -x
            x ^= c
            ks.append(c.bit_length() - 1)
        tl = [self.touch[k] for k in ks]
        spread, T = self.spread, self.touch_union(tl)
        n = len(ks)
        cm = [self.cmask[k] for k in ks]
        lays: list[list[int]] = []
        closed = []  # whether a member's layers stopped growing (the last repeats)
        dist = []  # dist[i][t]: first layer of member i's BFS meeting member t
        # Each member's layers are grown only until every other member is met (they give the
        # pairwise distances); the farthest pair's layers, and beyond _PAIR_LAYERS everyone's,
        # are grown further below as needed.
        for i, k in enumerate(ks):
            x = zc(cm[i], tl)
            lay = [x]
            d = [0] * n
            todo = [t for t in range(n) if t != i] if n > 1 else []
            j = 0
            shut = False
            while True:
                if todo:
                    rest = [t for t in todo if not x & cm[t]]
                    if len(rest) < len(todo):
                        for t in todo:
                            if x & cm[t]:
                                d[t] = j
                        todo = rest
                if (n > 1 and not todo) or j >= limit:
                    break
                y = spread(x, Q, tl, T)
                if y == x:  # closed: the remaining layers are all equal
                    shut = True
                    break
                x, j = y, j + 1
                lay.append(x)
            if todo:  # some member is farther than the limit
                return [0] * (limit + 1), _INF, -1
            lays.append(lay)
            closed.append(shut)
            dist.append(d)

        def layer(i: int, j: int) -> int:
            lay = lays[i]
            while len(lay) <= j:
                if closed[i]:
                    lay.append(lay[-1])
                    continue
                x = lay[-1]
                y = spread(x, Q, tl, T)
                if y == x:
                    closed[i] = True
                lay.append(y)
            return lay[j]

        if n == 1:
            return [nbr(layer(0, j)) for j in range(limit + 1)], 0, limit
        maxpair = max(max(d) for d in dist)
        # The farthest pair (with two members: the pair itself): a formation of M next to v
        # holds a tree joining the two next to v; such trees with <= j satellites cover exactly
        # the hexes where the two distances meet (meeting hex v: d_a + d_b - w(v) <= j), grown.
        # (Intersecting more pairs or the single-cluster layers barely tightens it.)
        Hn = 0
        for c in cm:
            Hn |= c
        An = Q & ~Hn
        a, b = max(((a, b) for a in range(n) for b in range(a + 1, n)),
                   key=lambda ab: dist[ab[0]][ab[1]])
        top = min(limit, _PAIR_LAYERS)  # the pair programme costs O(top^2)
        layer(a, top)
        layer(b, top)
        if limit > top:
            for i in range(n):
                layer(i, limit)
        La, Lb = lays[a], lays[b]
        G = []
        prev = 0
        for j in range(top + 1):
            acc = prev | (nbr(prev) & An)
            for i in range(1, j + 1):
                acc |= La[i] & Lb[j + 1 - i] & An
            for i in range(0, j + 1):
                acc |= La[i] & Lb[j - i] & Hn
            new = (acc ^ prev) & T  # (prev is closed: only new hexes can bring in a cluster)
            if new:
                for t, c in tl:
                    if new & t:
                        acc |= c
            prev = acc
            G.append(nbr(prev))
        for j in range(top + 1, limit + 1):  # beyond: next to hexes near every member
            x = -1
            for lay in lays:
                x &= nbr(lay[j])
            G.append(x)
        return G, maxpair, top if n == 2 else -1

    def _flood(self, x: int, Q: int) -> int:
        """Hexes of ``Q`` connected to ``x`` (free-space components added whole)."""
        nbr = self.nbr
        comps = self.free_comps
        while True:
            y = x | (nbr(x) & Q)
            if y == x:
                return x
            new = y & ~x & self.free
            if new:
                for c in comps:
                    if new & c:
                        y |= c
            x = y

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


class _Preps:
    """The preparations of the last 128 positions (``_prep(pos)``), and the searches of the last
    256 positions regardless of their budget (``found``).

    A search under budget B gives every legal federation under any smaller budget b: exactly
    those of its results with at most b satellites.  (A federation's validity does not depend
    on the budget beyond its own satellite count: a superfluity witness needs fewer satellites
    than the federation, so it is within any budget the federation is; and the satellites of a
    member set's federation are a function of the member set alone, see ``_Prep.steiner``.)
    So a player whose board is unchanged but who has fewer power tokens is not searched again.
    ``cache_clear()`` empties both (a fresh search, as tests and benchmarks need).
    """

    def __init__(self, size: int = 128, found_size: int = 256):
        self.size, self.found_size = size, found_size
        self.preps: OrderedDict[Position, _Prep] = OrderedDict()
        self.found: OrderedDict[tuple, tuple[int, tuple[Federation, ...]]] = OrderedDict()

    def __call__(self, pos: Position) -> _Prep:
        got = self.preps.get(pos)
        if got is None:
            got = self.preps[pos] = _Prep(pos)
            if len(self.preps) > self.size:
                self.preps.popitem(last=False)
        else:
            self.preps.move_to_end(pos)
        return got

    @staticmethod
    def key(pos: Position) -> tuple:
        """The position without its budget."""
        return (pos.space, pos.planets, pos.structures, pos.federations, pos.excluded,
                pos.threshold, pos.ivits_federation)

    def search(self, prep: _Prep) -> tuple[Federation, ...]:
        """The legal federations of ``prep``'s position: from a search under a budget at least
        as large when one is remembered, else searched (and remembered)."""
        key = self.key(prep.pos)
        budget = prep.pos.budget
        got = self.found.get(key)
        if got is not None and got[0] >= budget:
            self.found.move_to_end(key)
            if got[0] == budget:
                return got[1]
            return tuple(f for f in got[1] if len(f.satellites) <= budget)
        cands = tuple(_search(prep))
        self.found[key] = (budget, cands)
        self.found.move_to_end(key)
        if len(self.found) > self.found_size:
            self.found.popitem(last=False)
        return cands

    def cache_clear(self) -> None:
        self.preps.clear()
        self.found.clear()


_prep = _Preps()


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
    known = prep.known.get(listed)
    if known is not None:  # validated before, or a candidate named by all its hexes
        return known
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
        elif prep.allowed(h):
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
    fed = Federation(members, frozenset(sats), power)
    # the same list again, or the federation named by all its hexes (as the rules name it
    # after a record's line listed only some), is answered from memory
    prep.known[listed] = prep.known[members | fed.satellites] = fed
    return fed


def candidates(position: Position) -> list[Federation]:
    """Every legal federation for the player now, one per member set, sorted.

    Exact (see the module docstring for the search and its pruning).  Each result satisfies
    :func:`validate`.  Sorted by (satellite count, sorted hexes).  Returns [] when none exists.
    The result is remembered with the position's preparation (equal positions, e.g. the same
    player's board over several turns, are searched once), and the same board under a smaller
    budget reads it too (:class:`_Preps`).
    """
    if _short_of_power(position):
        return []
    prep = _prep(position)
    if prep.cands is None:
        prep.cands = _prep.search(prep)
        prep.known.update((f.members | f.satellites, f) for f in prep.cands)
    return list(prep.cands)


def _short_of_power(position: Position) -> bool:
    """:func:`short_of_power` of a position (never for the Ivits' growing federation)."""
    if position.ivits_federation is not None:
        return False
    return short_of_power(position.structures, position.federations, position.threshold)


def short_of_power(structures: Iterable[tuple[Any, int]], federations: Iterable[Iterable[Any]],
                   threshold: int) -> bool:
    """Whether the structures ``(hex, power value)`` outside the ``federations`` (hex sets)
    hold less power in all than ``threshold``: then no new federation can form (its members
    are such structures), known without preparing a position (most turns of a game). Hexes
    may be given in any one form (axial or names). Not for the Ivits' growing federation."""
    federated: set[Any] = set()
    for f in federations:
        federated.update(f)
    return sum(v for h, v in structures if h not in federated) < threshold


def _search(prep: _Prep) -> list[Federation]:
    """The search of :func:`candidates`, on a prepared position."""
    position = prep.pos
    thr, B, K = position.threshold, position.budget, prep.K
    cp = prep.cpower
    out: list[Federation] = []
    if not K:
        return out
    if prep.ivits:
        if cp[0] >= thr:  # grown by adjacency alone: no satellite, nothing may be added
            return [prep.federation([0], 0)]
        roots = [0]
        strong = 0
    else:
        strong = 0  # clusters that are federations on their own (0 satellites)
        for k in range(K):
            if cp[k] >= thr:
                strong |= 1 << k
                out.append(prep.federation([k], 0))
        roots = [k for k in range(K) if not strong >> k & 1]
    if B == 0:
        out.sort(key=lambda f: (len(f.satellites), f.hexes))
        return out
    cands = prep.grow(roots, thr, B, strong)
    # Validity, by increasing cluster count: a candidate is valid iff sat(Z) <= budget and no
    # valid proper subset has fewer satellites (a superfluity witness of least satellite count
    # is itself valid, and every valid set is a candidate).
    valid: dict[int, int] = {}
    for Z in sorted(cands, key=lambda z: (bin(z).count("1"), z)):
        cap = B
        sub = (Z - 1) & Z
        while sub:
            v = valid.get(sub)
            if v is not None and v < cap:
                cap = v
            sub = (sub - 1) & Z
        u, b = cands[Z]
        lz = min(u, b)
        if lz > cap:
            continue  # a valid Z would need more satellites than allowed
        ks = [k for k in range(K) if Z >> k & 1]
        # val(Z) = max(sat(Z), lz) serves as well as sat(Z): it is sat(Z) when Z is valid
        # and never below it.  When u <= b, val(Z) = u (sat <= u = lz).
        if u <= b:
            res = prep.steiner(ks, u, want_tree=True, floor=u, connected=True)
            assert res is not None
        else:
            res = prep.steiner(ks, cap, want_tree=True, floor=lz, connected=True)
            if res is None:
                continue
        valid[Z] = res[0]
        out.append(prep.federation(ks, res[1]))
    out.sort(key=lambda f: (len(f.satellites), f.hexes))
    return out
