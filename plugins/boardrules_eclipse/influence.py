"""Eclipse influence and colony-ship primitives: the hexes an influence disc may reach and the
population squares of a hex; the rules (``rules/actions.rules``) decide what is legal.

Split out of ``primitives.py`` by topic (issue 8).
"""

from __future__ import annotations

from boardrules.primitives import primitive

from . import galaxy as G
from .memo import per_state
from .primitives import (_GALAXY_READS, RESOURCES, _controlled, _disc_return, _f, _galaxy, _hid, _kind, _me,
                         _opt, _pos, _set, _ship_column, _v, _wg)


# ---- influence and colony ships -----------------------------------------------------------------

@primitive("influence_reach", returns="list:hex", pure=True)
def influence_reach(ctx):
    """Hexes an influence disc of ``me`` can reach: connected by a wormhole (half connections
    with ``half_connections``; warp portals) to a hex ``me`` controls or holds a ship in, and
    the hexes holding ``me``'s ships [M: eclipse.md §2.2]. Pure (primitives.py); memoised per
    state (memo.py): Influence's ``where`` asks of every hex."""
    me = _me(ctx)
    return per_state(ctx, ("influence_reach", me), _REACH_READS, lambda: _reach(ctx, me))


@primitive("in_reach", returns="bool", pure=True, h="hex")
def in_reach(ctx, h):
    """Whether ``h`` is among :func:`influence_reach`'s hexes (a test of one hex costs the rules
    one step, where ``h in influence_reach()`` costs a step per hex of the list). Pure."""
    return h in influence_reach.fn(ctx)


# the rule variables influence_reach reads (its memo per state: memo.py)
_REACH_READS = _GALAXY_READS | frozenset({"ships", "controller", "techs", "half_connections"})


def _reach(ctx, me) -> tuple:
    ship_hexes = {h for h, ships in _ship_column(ctx) if any(o == me for o, _ in ships)}
    sources = [_pos(h) for h in set(_controlled(ctx, me)) | ship_hexes]
    near = {_hid(p) for p in G.influence_targets(_galaxy(ctx), sources, wormhole_generator=_wg(ctx, me))}
    return tuple(sorted(near | ship_hexes))


@primitive("release_hex", effect=True, h="hex")
def release_hex(ctx, h):
    """The controller's disc leaves ``h`` for their track; its cubes go back to their tracks."""
    p = _v(ctx, "controller", h)
    if p is None:
        raise ctx.violation(f"nobody controls {h}")
    for cube in _v(ctx, "cubes", h) or ():
        res = cube.split(":")[1]
        _set(ctx, f"out_{res}", (p,), _v(ctx, f"out_{res}", p) - 1)
    _set(ctx, "cubes", (h,), ())
    _set(ctx, "controller", (h,), None)
    _disc_return(ctx, p)


def _squares(ctx, h):
    """``(square, cube type, advanced)`` for every population square of ``h``: its sector's
    planets (a grey "any" square takes each type) and the squares of structures built there."""
    for i, planet in enumerate(_f(ctx, _v(ctx, "sector_at", h), "planets")):
        base = planet.rstrip("*")
        for res in (RESOURCES if base == "any" else (base,)):
            yield str(i), res, planet.endswith("*")
    for what in _kind(ctx, "structure"):       # a structure's own square (the orbital's)
        square = _f(ctx, what, "square")
        if square and _v(ctx, f"{what}_at", h):
            for res in _f(ctx, what, "cube_types"):
                yield square, res, False


@primitive("squares_of", returns="list:text", p="player")
def squares_of(ctx, p):
    """Every population square, taken or free, in the hexes ``p`` controls, one entry per cube
    type it takes: ``"hex|square:type"`` (``"2,0|1:science"``; square ``o`` is the orbital's).
    Which of them a colony ship may fill is the rules' ``colonize``. Memoised per state (memo.py:
    every listing asks, and the hexes and structures change far less often than the turn)."""
    kinds = _kind(ctx, "structure")
    reads = _SQUARE_READS.get(kinds)
    if reads is None:
        reads = _square_reads(kinds)
    return per_state(ctx, ("squares_of", p), reads, lambda: tuple(
        f"{h}|{sq}:{res}" for h in _controlled(ctx, p) for sq, res, _ in _squares(ctx, h)))


_SQUARE_READS: dict = {}   # the structures' names -> the variables squares_of reads
SQUARE_READS = 16   # the most _SQUARE_READS keeps (house rules add structures: a ruleset's own)


def _square_reads(kinds: tuple) -> frozenset:
    """The variables squares_of reads with the structures ``kinds``, kept in _SQUARE_READS (begun
    afresh past SQUARE_READS: a process building ruleset after ruleset must not grow it)."""
    if len(_SQUARE_READS) >= SQUARE_READS:
        _SQUARE_READS.clear()
    reads = _SQUARE_READS[kinds] = frozenset({"hexes", "controller", "sector_at", *(f"{w}_at" for w in kinds)})
    return reads


@primitive("square_advanced", returns="bool", h="hex", square="text")
def square_advanced(ctx, h, square):
    """Whether population square ``square`` of ``h`` is an advanced ("*") square."""
    return any(sq == square and adv for sq, _, adv in _squares(ctx, h))


@primitive("square_free", returns="bool", o="text")
def square_free(ctx, o):
    """Whether no population cube stands on the square of colony option ``o``
    (``"hex|square:type"``, of :func:`squares_of`); a violation for a text that is no such option."""
    h, cube = _opt(ctx, o, "|", "colony")
    square = cube.partition(":")[0]
    return not any(c.partition(":")[0] == square for c in _v(ctx, "cubes", h) or ())


PRIMITIVES = [v for v in list(globals().values()) if type(v).__name__ == "Primitive"]
