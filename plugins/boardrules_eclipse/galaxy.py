"""Eclipse galaxy geometry: hex positions, rings, tile rotation, wormhole connections.

This module knows *geometry* only. Which sector has which wormholes, planets, Ancients or
discoveries is game content that lives in rule files; here a sector tile is just an id, a
6-bit wormhole mask and an optional warp-portal flag.

Coordinates
-----------
Positions are axial hex coordinates ``(q, r)`` as plain ``tuple[int, int]`` (cheap to hash and
compare, which matters because the engine calls these functions per move). The galactic centre
(sector 001) is at ``(0, 0)``. Drawn with pointy-top hexes and screen *y* pointing down, the six
neighbour directions, numbered **clockwise** starting from east, are::

    edge 0  E   (+1,  0)
    edge 1  SE  ( 0, +1)
    edge 2  SW  (-1, +1)
    edge 3  W   (-1,  0)
    edge 4  NW  ( 0, -1)
    edge 5  NE  (+1, -1)

Edge ``e`` of a hex faces edge ``(e + 3) % 6`` of its neighbour in direction ``e``.

Tiles and rotation
------------------
A :class:`SectorTile` lists its wormholes as a mask over its **printed** edges: bit ``i`` set
means a wormhole on printed edge ``i``, where printed edge 0 is the edge facing east when the
tile lies unrotated (rotation 0) and the printed edges are numbered clockwise like the
directions above. Placing a tile with rotation ``k`` turns it ``k`` sixth-turns clockwise, so
printed edge ``i`` ends up facing direction ``(i + k) % 6`` (see :func:`rotate_mask`).

Rule sources (cited by the short names used in ``/work/shared/rules/eclipse.md``)
------------------------------------------------------------------------------
* "seed": the Rise of the Ancients rulebook (Traditional Chinese text), warp portals, jump
  drive, hives, Ancient homeworlds and the 7-9 player setup.
* "eclipse.md §2.2": base-game explore / influence / move rules, tagged [M] there (recalled
  1st-edition rules, not checked against the printed rulebook).
"""

from __future__ import annotations

from collections import deque
from enum import IntEnum
from typing import Callable, Iterable, Mapping

import attrs

Pos = tuple[int, int]
"""An axial hex position ``(q, r)``; the galactic centre is ``(0, 0)``."""

CENTER: Pos = (0, 0)
ALL_EDGES = 0b111111

DIRECTIONS: tuple[Pos, ...] = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))
"""Neighbour offsets indexed by edge number 0..5 (clockwise from east, see module doc)."""

_DIR_INDEX: dict[Pos, int] = {d: i for i, d in enumerate(DIRECTIONS)}


def opposite(edge: int) -> int:
    """The edge of the neighbour that faces ``edge`` (``(edge + 3) % 6``)."""
    return (edge + 3) % 6


# ---------------------------------------------------------------------------------------------
# Positions, distance, rings


class Ring(IntEnum):
    """Sector ring of a position, by hex distance from the galactic centre.

    ``CENTER`` = distance 0 (sector 001), ``I`` inner = 1, ``II`` middle = 2, ``III`` outer = 3
    or more (eclipse.md §2.2: stacks I 101-108, II 201-211, III 301-318 [D]).
    """

    CENTER = 0
    I = 1  # noqa: E741 - the rulebook's own name for the inner ring
    II = 2
    III = 3


def distance(a: Pos, b: Pos = CENTER) -> int:
    """Hex distance (number of edge crossings) between two positions; default from the centre."""
    dq = a[0] - b[0]
    dr = a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def ring(pos: Pos) -> Ring:
    """The :class:`Ring` of ``pos``: CENTER (0), I (1), II (2) or III (distance >= 3)."""
    d = distance(pos)
    return Ring(d if d < 3 else 3)


_NEIGHBOURS: dict[Pos, tuple[Pos, ...]] = {}
_TABLE_RADIUS = 10


def _build_neighbour_table() -> None:
    for q in range(-_TABLE_RADIUS - 1, _TABLE_RADIUS + 2):
        for r in range(-_TABLE_RADIUS - 1, _TABLE_RADIUS + 2):
            if distance((q, r)) <= _TABLE_RADIUS:
                _NEIGHBOURS[(q, r)] = tuple((q + dq, r + dr) for dq, dr in DIRECTIONS)


_build_neighbour_table()


def neighbours(pos: Pos) -> tuple[Pos, ...]:
    """The six adjacent positions of ``pos``, indexed by edge 0..5 (pre-computed near the centre)."""
    n = _NEIGHBOURS.get(pos)
    if n is None:
        q, r = pos
        n = tuple((q + dq, r + dr) for dq, dr in DIRECTIONS)
    return n


def edge_between(a: Pos, b: Pos) -> int | None:
    """The edge of ``a`` that faces ``b`` if they are adjacent, else ``None``."""
    return _DIR_INDEX.get((b[0] - a[0], b[1] - a[1]))


def ring_positions(radius: int) -> tuple[Pos, ...]:
    """All positions at ``radius`` from the centre, clockwise, starting at ``radius * E``.

    ``radius`` 0 gives ``((0, 0),)``; ``radius`` r > 0 gives ``6 * r`` positions.
    Raises ``ValueError`` for a negative radius.
    """
    if radius < 0:
        raise ValueError(f"radius must be >= 0, got {radius}")
    if radius == 0:
        return (CENTER,)
    q, r = radius * DIRECTIONS[0][0], radius * DIRECTIONS[0][1]
    out: list[Pos] = []
    for side in range(6):
        dq, dr = DIRECTIONS[(side + 2) % 6]
        for _ in range(radius):
            out.append((q, r))
            q, r = q + dq, r + dr
    return tuple(out)


# ---------------------------------------------------------------------------------------------
# Tiles and rotation


def rotate_mask(mask: int, k: int) -> int:
    """Rotate a 6-bit edge mask ``k`` sixth-turns clockwise (bit i moves to bit (i + k) % 6).

    ``k`` may be any integer (taken mod 6; negative = counter-clockwise).
    Raises ``ValueError`` if ``mask`` is not in 0..63.
    """
    if not 0 <= mask <= ALL_EDGES:
        raise ValueError(f"wormhole mask must be a 6-bit value 0..63, got {mask}")
    k %= 6
    return ((mask << k) | (mask >> (6 - k))) & ALL_EDGES


def _check_mask(_inst: object, attribute: attrs.Attribute, value: int) -> None:
    if not isinstance(value, int) or not 0 <= value <= ALL_EDGES:
        raise ValueError(f"{attribute.name} must be a 6-bit mask 0..63, got {value!r}")


@attrs.frozen
class SectorTile:
    """A sector hex as printed: id, wormhole mask over printed edges 0..5, warp-portal flag.

    ``wormholes``: bit ``i`` set = a wormhole on printed edge ``i`` (module doc for edge order).
    ``warp_portal``: the hex itself carries a warp portal (RotA warp sectors; the seed lists
    three, one in ring II and two in ring III, printed ids given there as #291, #393-394).
    Raises ``ValueError`` for a mask outside 0..63.
    """

    id: str
    wormholes: int = attrs.field(validator=_check_mask)
    warp_portal: bool = False


@attrs.frozen
class PlacedHex:
    """A tile lying in the galaxy at ``pos`` turned ``rotation`` (0..5) sixth-turns clockwise.

    ``extra_warp_portal`` marks a warp portal that was put into the hex later (RotA Warp
    Portal development or Ancient Warp Portal discovery, seed p.8: "place it in the hex").
    Raises ``ValueError`` for a rotation outside 0..5.
    """

    pos: Pos
    tile: SectorTile
    rotation: int = attrs.field(default=0)
    extra_warp_portal: bool = False

    @rotation.validator
    def _check_rotation(self, _attribute: attrs.Attribute, value: int) -> None:
        if not isinstance(value, int) or not 0 <= value <= 5:
            raise ValueError(f"rotation must be 0..5, got {value!r}")

    @property
    def wormholes(self) -> int:
        """Wormhole mask by board direction (after rotation)."""
        return rotate_mask(self.tile.wormholes, self.rotation)

    @property
    def has_warp_portal(self) -> bool:
        """True if the printed tile or a later-placed portal gives this hex a warp portal."""
        return self.tile.warp_portal or self.extra_warp_portal

    def board_edge(self, printed_edge: int) -> int:
        """The board direction (0..5) that printed edge ``printed_edge`` faces after rotation.

        Used e.g. for hive dice (seed: each hive wormhole is marked with a die face).
        """
        return (printed_edge + self.rotation) % 6


# ---------------------------------------------------------------------------------------------
# The galaxy


def _sorted_hexes(hexes: Iterable[PlacedHex]) -> tuple[PlacedHex, ...]:
    out = tuple(sorted(hexes, key=lambda h: h.pos))
    for a, b in zip(out, out[1:]):
        if a.pos == b.pos:
            raise ValueError(f"two hexes placed at {a.pos}")
    return out


@attrs.frozen
class Galaxy:
    """An immutable set of placed hexes with pre-computed wormhole masks and adjacency.

    Build with ``Galaxy(hexes)``, :meth:`empty`, then :meth:`place` / :meth:`with_warp_portal`
    (each returns a new Galaxy). Raises ``ValueError`` if two hexes share a position.
    """

    hexes: tuple[PlacedHex, ...] = attrs.field(converter=_sorted_hexes, factory=tuple)
    _by_pos: dict[Pos, PlacedHex] = attrs.field(init=False, eq=False, repr=False, hash=False)
    _mask: dict[Pos, int] = attrs.field(init=False, eq=False, repr=False, hash=False)
    _warp: frozenset[Pos] = attrs.field(init=False, eq=False, repr=False, hash=False)
    _adj: dict[bool, dict[Pos, tuple[Pos, ...]]] = attrs.field(
        init=False, eq=False, repr=False, hash=False
    )

    def __attrs_post_init__(self) -> None:
        by_pos = {h.pos: h for h in self.hexes}
        object.__setattr__(self, "_by_pos", by_pos)
        object.__setattr__(self, "_mask", {p: h.wormholes for p, h in by_pos.items()})
        object.__setattr__(
            self, "_warp", frozenset(p for p, h in by_pos.items() if h.has_warp_portal)
        )
        object.__setattr__(self, "_adj", {})

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def empty(cls) -> Galaxy:
        """A galaxy with no hexes."""
        return cls(())

    def place(self, pos: Pos, tile: SectorTile, rotation: int = 0) -> Galaxy:
        """Return a new galaxy with ``tile`` at ``pos`` turned ``rotation`` sixth-turns.

        No rule check is made here (use :func:`legal_rotations` for the explore rule).
        Raises ``ValueError`` if ``pos`` is already occupied or ``rotation`` not in 0..5.
        """
        if pos in self._by_pos:
            raise ValueError(f"position {pos} already holds sector {self._by_pos[pos].tile.id}")
        return Galaxy(self.hexes + (PlacedHex(pos, tile, rotation),))

    def with_warp_portal(self, pos: Pos) -> Galaxy:
        """Return a new galaxy where the hex at ``pos`` also has a warp portal.

        For the RotA Warp Portal development / Ancient Warp Portal discovery (seed p.8).
        Raises ``KeyError`` if no hex is at ``pos``.
        """
        h = self._by_pos[pos]
        rest = tuple(x for x in self.hexes if x.pos != pos)
        return Galaxy(rest + (attrs.evolve(h, extra_warp_portal=True),))

    # -- queries ------------------------------------------------------------------------------

    def __contains__(self, pos: object) -> bool:
        return pos in self._by_pos

    def __len__(self) -> int:
        return len(self.hexes)

    def __getitem__(self, pos: Pos) -> PlacedHex:
        """The hex at ``pos``; raises ``KeyError`` if the position is unexplored."""
        return self._by_pos[pos]

    def get(self, pos: Pos) -> PlacedHex | None:
        """The hex at ``pos`` or ``None``."""
        return self._by_pos.get(pos)

    @property
    def positions(self) -> frozenset[Pos]:
        """All explored positions."""
        return frozenset(self._by_pos)

    @property
    def warp_portals(self) -> frozenset[Pos]:
        """Positions of hexes with a warp portal (printed or placed later)."""
        return self._warp

    def wormholes(self, pos: Pos) -> int:
        """Board-direction wormhole mask of the hex at ``pos``; ``KeyError`` if unexplored."""
        return self._mask[pos]

    def has_wormhole(self, pos: Pos, edge: int) -> bool:
        """True if the hex at ``pos`` has a wormhole facing board direction ``edge``."""
        return bool(self._mask[pos] >> edge & 1)

    # -- connections --------------------------------------------------------------------------

    def connected(self, a: Pos, b: Pos, *, wormhole_generator: bool = False) -> bool:
        """Whether explored hexes ``a`` and ``b`` are connected for moving and influence.

        Adjacent hexes connect through their shared edge when both sides have a wormhole (full
        connection), or when either side has one and ``wormhole_generator`` is true (half
        connection; the Wormhole Generator tech, eclipse.md §2.2 [M]). Two distinct hexes that
        both have a warp portal are connected for **every** player, controllers or not: the
        seed says all warp-portal hexes count as adjacent to each other with a full wormhole
        connection, and you may move, influence and form diplomatic relations through them.
        A hex is not connected to itself; unexplored positions are never connected.
        Symmetric in ``a`` and ``b``.
        """
        if a == b:
            return False
        ma = self._mask.get(a)
        mb = self._mask.get(b)
        if ma is None or mb is None:
            return False
        if a in self._warp and b in self._warp:
            return True
        e = _DIR_INDEX.get((b[0] - a[0], b[1] - a[1]))
        if e is None:
            return False
        sa = ma >> e & 1
        sb = mb >> ((e + 3) % 6) & 1
        return bool(sa | sb) if wormhole_generator else bool(sa & sb)

    def connected_neighbours(self, pos: Pos, *, wormhole_generator: bool = False) -> tuple[Pos, ...]:
        """Explored hexes connected to ``pos`` (see :meth:`connected`), cached per galaxy.

        Order: adjacent hexes by edge 0..5, then other warp-portal hexes by position.
        Returns ``()`` for an unexplored ``pos``.
        """
        table = self._adj.get(wormhole_generator)
        if table is None:
            table = self._build_adjacency(wormhole_generator)
            self._adj[wormhole_generator] = table
        return table.get(pos, ())

    def _build_adjacency(self, generator: bool) -> dict[Pos, tuple[Pos, ...]]:
        mask = self._mask
        warp = sorted(self._warp)
        table: dict[Pos, tuple[Pos, ...]] = {}
        for p, m in mask.items():
            out: list[Pos] = []
            for e, n in enumerate(neighbours(p)):
                mn = mask.get(n)
                if mn is None:
                    continue
                sa = m >> e & 1
                sb = mn >> ((e + 3) % 6) & 1
                if (sa | sb) if generator else (sa & sb):
                    out.append(n)
            if p in self._warp:
                out.extend(w for w in warp if w != p and w not in out)
            table[p] = tuple(out)
        return table

    def physical_neighbours(self, pos: Pos) -> tuple[Pos, ...]:
        """Explored hexes sharing an edge with ``pos``, wormholes ignored, plus other warp
        portals if ``pos`` has one (the seed: warp-portal hexes count as adjacent).

        This is the adjacency a Jump Drive uses (seed: "move to any adjacent hex regardless of
        wormholes").
        """
        out = [n for n in neighbours(pos) if n in self._mask]
        if pos in self._warp:
            out.extend(w for w in sorted(self._warp) if w != pos and w not in out)
        return tuple(out)


# ---------------------------------------------------------------------------------------------
# Exploring


def explorable_positions(
    galaxy: Galaxy,
    anchors: Iterable[Pos],
    *,
    wormhole_generator: bool = False,
    max_radius: int | None = None,
) -> frozenset[Pos]:
    """Unexplored positions that the owner of ``anchors`` can explore.

    ``anchors``: explored hexes where the explorer has an influence disc or a ship (the engine
    decides which; unexplored anchors are ignored). A position qualifies when it is unexplored,
    adjacent to an anchor, and *some* tile orientation could satisfy the placement rule of
    :func:`legal_rotations`: without the Wormhole Generator the anchor needs a wormhole facing
    the position (a full connection needs wormholes on both sides); with it any adjacent
    anchor will do. ``max_radius`` (optional) excludes positions farther from the centre.

    Open rule question: whether a player may pick a space that no drawn tile could legally
    connect to (and then discard) is not settled in our sources (eclipse.md §2.2 is [M]); this
    function lists only spaces where a legal placement is possible.
    """
    out: set[Pos] = set()
    mask = galaxy._mask
    for a in anchors:
        m = mask.get(a)
        if m is None:
            continue
        for e, n in enumerate(neighbours(a)):
            if n in mask:
                continue
            if max_radius is not None and distance(n) > max_radius:
                continue
            if wormhole_generator or m >> e & 1:
                out.add(n)
    return frozenset(out)


def legal_rotations(
    galaxy: Galaxy,
    pos: Pos,
    tile: SectorTile,
    anchors: Iterable[Pos],
    *,
    wormhole_generator: bool = False,
    distinct: bool = False,
) -> tuple[int, ...]:
    """Rotations (0..5, ascending) in which ``tile`` may be placed at unexplored ``pos``.

    The explore rule (eclipse.md §2.2 [M]): at least one wormhole of the new hex must meet a
    wormhole of an adjacent hex where the explorer has an influence disc or a ship
    (``anchors``; non-adjacent or unexplored anchors are ignored). With ``wormhole_generator``
    a half connection suffices: a wormhole on either side of a shared edge with an anchor.
    Warp portals do not count for this rule (it is about the printed edges).

    ``distinct=True`` drops rotations whose board mask equals that of a smaller legal rotation
    (symmetric tiles). Returns ``()`` when no rotation is legal (the explorer then discards
    the hex, eclipse.md §2.2). Raises ``ValueError`` if ``pos`` is already explored.
    """
    if pos in galaxy:
        raise ValueError(f"position {pos} is already explored")
    anchor_set = anchors if isinstance(anchors, (set, frozenset)) else set(anchors)
    mask = galaxy._mask
    facing = 0  # edges of pos that touch an anchor
    facing_wormhole = 0  # edges of pos where the anchor has a wormhole toward pos
    for e, n in enumerate(neighbours(pos)):
        if n in anchor_set and n in mask:
            facing |= 1 << e
            if mask[n] >> ((e + 3) % 6) & 1:
                facing_wormhole |= 1 << e
    if wormhole_generator:
        return _rotations(tile, lambda m: bool(m & facing) or bool(facing_wormhole), distinct)
    return _rotations(tile, lambda m: bool(m & facing_wormhole), distinct)


def _rotations(tile: SectorTile, fits: Callable[[int], bool], distinct: bool) -> tuple[int, ...]:
    """The rotations 0..5 (ascending) whose rotated wormhole mask ``fits``; with ``distinct``,
    a rotation whose mask a smaller one already gave is dropped (symmetric tiles)."""
    out: list[int] = []
    seen: set[int] = set()
    for k in range(6):
        m = rotate_mask(tile.wormholes, k)
        if fits(m) and not (distinct and m in seen):
            seen.add(m)
            out.append(k)
    return tuple(out)


def start_sector_rotations(pos: Pos, tile: SectorTile, *, distinct: bool = False) -> tuple[int, ...]:
    """Legal rotations of a start sector at ``pos`` in a 7-9 player game.

    Seed (7-9 players, setup): each player may orient his start sector freely provided at
    least one of its wormholes connects toward a middle-ring (II) sector position (the
    middle ring is laid face down first). Returns rotations 0..5 ascending for which some
    wormhole faces a ring-II position; ``distinct`` as in :func:`legal_rotations`.
    """
    toward_ii = 0
    for e, n in enumerate(neighbours(pos)):
        if distance(n) == 2:
            toward_ii |= 1 << e
    return _rotations(tile, lambda m: bool(m & toward_ii), distinct)


def hive_target(galaxy: Galaxy, pos: Pos, printed_edge: int) -> Pos | None:
    """Where a hive at ``pos`` sends an Ancient for the die face marked on ``printed_edge``.

    Seed (Ancient hives): at the end of each Cleanup a die is rolled per hive; each hive
    wormhole is marked with a die face; if an explored hex lies on that side an Ancient moves
    there; hive Ancients have the Wormhole Generator, so a half connection suffices (the
    marked side is a wormhole of the hive, so any explored neighbour there qualifies).
    The die-face-to-printed-edge mapping is content (rule files). Returns ``None`` if that
    side is unexplored. Raises ``KeyError`` if ``pos`` is unexplored.
    """
    h = galaxy[pos]
    target = neighbours(pos)[h.board_edge(printed_edge)]
    return target if target in galaxy else None


# ---------------------------------------------------------------------------------------------
# Movement


@attrs.frozen
class Pinning:
    """Pinning counts for one moving ship, supplied by the engine.

    ``pins[pos]``: how many of the mover's side's ships must stay in ``pos`` to pin the
    opponents there (eclipse.md §2.2: each enemy ship pins one of yours; Ancients and the GCDS
    pin too; a Cloaking Device doubles what the opponent needs [S player aid]; allied ships
    count together [seed]). The engine computes the number; 0 or absent = nothing to pin.
    ``own[pos]``: ships of the mover's side already in ``pos``; in the start hex this
    **includes** the moving ship (absent = 1 there, 0 elsewhere).

    A ship may leave (or pass through) a hex when the ships of its side present there,
    itself included, exceed ``pins`` for that hex (eclipse.md §2.2: "you may move out only as
    many ships as you have in excess of the enemy ships there"). Otherwise it must stop
    there. Entering is always allowed.
    """

    pins: Mapping[Pos, int] = attrs.field(factory=dict)
    own: Mapping[Pos, int] = attrs.field(factory=dict)

    def may_leave_start(self, start: Pos) -> bool:
        """True if the moving ship may leave its start hex."""
        return self.own.get(start, 1) > self.pins.get(start, 0)

    def may_pass(self, pos: Pos) -> bool:
        """True if the moving ship, having entered ``pos``, may continue out of it."""
        p = self.pins.get(pos, 0)
        return p <= 0 or self.own.get(pos, 0) + 1 > p


MayPass = Callable[[Pos], bool]


def reachable(
    galaxy: Galaxy,
    start: Pos,
    steps: int,
    *,
    wormhole_generator: bool = False,
    pinning: Pinning | None = None,
    may_pass: MayPass | None = None,
    may_leave_start: bool | None = None,
    jumps: int = 0,
) -> dict[Pos, int]:
    """Hexes one ship can reach from ``start`` within one activation.

    ``steps``: the ship's movement (drive total), >= 0. Each step crosses one connection of
    :meth:`Galaxy.connected` (warp portals included). ``jumps``: extra Jump Drive moves, each
    to any hex of :meth:`Galaxy.physical_neighbours` regardless of wormholes and costing no
    movement (seed: a cruiser with jump drive and fusion drive moves 2 hexes and 1 jump per
    activation; pass 1 per jump-drive activation).

    Pinning: give either ``pinning`` counts (:class:`Pinning`) or a ``may_pass(pos)`` callback
    (True if the ship may continue after entering ``pos``) plus ``may_leave_start``; explicit
    ``may_pass`` / ``may_leave_start`` override ``pinning``. With neither, nothing pins.
    A ship that must stop in a hex is still reported as reaching it.

    Returns ``{pos: fewest movement steps}`` including ``start`` at 0. Raises ``ValueError``
    for negative ``steps``/``jumps`` and ``KeyError`` if ``start`` is unexplored.
    """
    if steps < 0 or jumps < 0:
        raise ValueError(f"steps and jumps must be >= 0, got {steps}, {jumps}")
    if start not in galaxy:
        raise KeyError(start)
    if pinning is None:
        pinning = _NO_PINNING
    if may_pass is None:
        may_pass = pinning.may_pass
    if may_leave_start is None:
        may_leave_start = pinning.may_leave_start(start)

    best: dict[Pos, int] = {start: 0}
    if not may_leave_start or (steps == 0 and jumps == 0):
        return best
    adj = galaxy.connected_neighbours
    # 0-1 BFS over (position, jumps used): a step costs 1, a jump costs 0 movement.
    dist: dict[tuple[Pos, int], int] = {(start, 0): 0}
    dq: deque[tuple[Pos, int]] = deque([(start, 0)])
    passable: dict[Pos, bool] = {}
    while dq:
        state = dq.popleft()
        pos, used = state
        d = dist[state]
        if pos != start:
            ok = passable.get(pos)
            if ok is None:
                ok = passable[pos] = bool(may_pass(pos))
            if not ok:
                continue
        if used < jumps:
            for n in galaxy.physical_neighbours(pos):
                ns = (n, used + 1)
                if dist.get(ns, steps + 1) > d:
                    dist[ns] = d
                    dq.appendleft(ns)
        if d < steps:
            for n in adj(pos, wormhole_generator=wormhole_generator):
                ns = (n, used)
                if dist.get(ns, steps + 1) > d + 1:
                    dist[ns] = d + 1
                    dq.append(ns)
    for (pos, _), d in dist.items():
        if d < best.get(pos, steps + 1):
            best[pos] = d
    return best


_NO_PINNING = Pinning()


def influence_targets(
    galaxy: Galaxy, sources: Iterable[Pos], *, wormhole_generator: bool = False
) -> frozenset[Pos]:
    """Explored hexes connected to any of ``sources`` (hexes you control or have a ship in).

    eclipse.md §2.2 [M]: an influence target must be adjacent via wormhole to such a hex;
    warp portals count (seed). Whether the target also holds no enemy ships / Ancients /
    GCDS, and whether the sources themselves qualify, is for the engine. Sources that are
    unexplored are ignored.
    """
    out: set[Pos] = set()
    for s in sources:
        out.update(galaxy.connected_neighbours(s, wormhole_generator=wormhole_generator))
    return frozenset(out)


# ---------------------------------------------------------------------------------------------
# Layout by player count


@attrs.frozen
class GalaxyLayout:
    """Where start sectors (and RotA Ancient homeworlds) go for a player count.

    ``start_positions[i]`` is the start sector of the i-th player in clockwise turn order
    from the start player (index 0 = the start player's position "[1]" in the seed's 7-9
    diagram). ``homeworld_positions``: the empty start positions that RotA Ancient
    homeworlds (271-274) fill when that module is used. ``confidence`` names the source
    grade for the positions (see module constants).
    """

    players: int
    start_positions: tuple[Pos, ...]
    homeworld_positions: tuple[Pos, ...]
    confidence: str


_BASE_SLOTS: tuple[Pos, ...] = tuple((2 * dq, 2 * dr) for dq, dr in DIRECTIONS)
"""The six ring-II start-sector slots, clockwise from east: the ring-II hexes straight out
from the centre through one inner hex. [M: recalled 1st-edition setup picture; a third-party
setup guide (cajorgen57/eclipse_sim SETUP_GUIDE.md) only says "six middle-ring entry points,
two hexes from the centre" — weak support.]"""

_BASE_USED: dict[int, tuple[int, ...]] = {
    # Which of the six slots are used, as slot indices. [M: recalled; symmetric spacing.]
    2: (0, 3),
    3: (0, 2, 4),
    4: (0, 1, 3, 4),
    5: (0, 1, 2, 3, 4),
    6: (0, 1, 2, 3, 4, 5),
}

_RING3 = ring_positions(3)
_NINE_SLOTS: tuple[Pos, ...] = _RING3[::2]
"""The nine 7-9-player start slots: every second position of the distance-3 ring, clockwise.
[Inferred: the seed says 7-9 players start in the outer ring (III), the middle ring then has
12 hexes = all distance-2 positions, and "some start positions can reach two middle hexes" —
which holds for this pattern (3 corner slots touch one ring-II hex, 6 side slots touch two).
The seed's diagram itself is not in the text.]"""

_NINE_HOMEWORLD_GAPS: dict[int, tuple[int, ...]] = {
    # Slots of the 9-player layout left to Ancient homeworlds. [Guess: the seed says to use the
    # 9-player layout and place homeworlds by player count, per a diagram not in the text; a
    # 7-player session report speaks of "2 ancients filling the gaps of the two missing
    # players". Which slots: unknown — open question.]
    7: (4, 8),
    8: (8,),
    9: (),
}

CONFIDENCE_BASE = "M: recalled 1st-edition layout, unverified"
CONFIDENCE_NINE = "inferred from the RotA seed text (diagram not readable)"
CONFIDENCE_SEVEN_EIGHT = "guess: gap slots not given in the seed text"


def galaxy_layout(players: int) -> GalaxyLayout:
    """Start-sector positions for ``players`` (2-6 base game, 7-9 Rise of the Ancients).

    2-6 players: ring-II slots (:data:`_BASE_SLOTS`); unused slots are where Ancient
    homeworlds go (seed: "with fewer than six players Ancient homeworlds can fill the empty
    start-sector places"; 4 homeworld tiles = the 4 empty slots of a 2-player game).
    7-9 players: ring-III slots (:data:`_NINE_SLOTS`); for 7 and 8 players the seed uses the
    9-player layout with homeworlds in the missing players' slots. Without the homeworld
    module the seed shows separate 7- and 8-player diagrams we could not read; this function
    returns the same player slots (documented choice, open question).
    Raises ``ValueError`` outside 2..9.
    """
    if players in _BASE_USED:
        used = _BASE_USED[players]
        return GalaxyLayout(
            players,
            tuple(_BASE_SLOTS[i] for i in used),
            tuple(s for i, s in enumerate(_BASE_SLOTS) if i not in used),
            CONFIDENCE_BASE,
        )
    if players in _NINE_HOMEWORLD_GAPS:
        gaps = _NINE_HOMEWORLD_GAPS[players]
        return GalaxyLayout(
            players,
            tuple(s for i, s in enumerate(_NINE_SLOTS) if i not in gaps),
            tuple(_NINE_SLOTS[i] for i in gaps),
            CONFIDENCE_NINE if players == 9 else CONFIDENCE_SEVEN_EIGHT,
        )
    raise ValueError(f"Eclipse supports 2-6 players (7-9 with Rise of the Ancients), got {players}")


__all__ = [
    "ALL_EDGES",
    "CENTER",
    "CONFIDENCE_BASE",
    "CONFIDENCE_NINE",
    "CONFIDENCE_SEVEN_EIGHT",
    "DIRECTIONS",
    "Galaxy",
    "GalaxyLayout",
    "Pinning",
    "PlacedHex",
    "Pos",
    "Ring",
    "SectorTile",
    "distance",
    "edge_between",
    "explorable_positions",
    "galaxy_layout",
    "hive_target",
    "influence_targets",
    "legal_rotations",
    "neighbours",
    "opposite",
    "reachable",
    "ring",
    "ring_positions",
    "rotate_mask",
    "start_sector_rotations",
]
