"""Eclipse setup primitives: the galaxy at the start (galaxy.py lays it; the rules deal the
sectors and species).

Split out of ``primitives.py`` by topic (issue 8).
"""

from __future__ import annotations

from boardrules.primitives import primitive

from . import galaxy as G
from .primitives import (RESOURCES, _advanced_ok, _disc_take, _f, _hexes, _hid, _kind, _pos, _set,
                         _species, _tile, _v)


# ---- setup -------------------------------------------------------------------------------------

@primitive("setup_galaxy", effect=True)
def setup_galaxy(ctx):
    """Lay the galactic centre and every player's home sector (the species' next unused one, then
    ``spare_homes`` but those of species or boards in play; turned so that a wormhole faces the centre), with the start ship, a disc and population cubes on the home planets
    (advanced squares only with the matching technology) [M: eclipse.md §2.1-2.2]."""
    n = ctx.nplayers
    layout = G.galaxy_layout(n)
    centre = next(s for s in _kind(ctx, "sector") if _f(ctx, s, "ring") == 0)
    _place(ctx, _hid(G.CENTER), centre, 0)
    used = set()
    # Spare homes are never those of a species in play nor of a board in play (species ``board``).
    picked = {_species(ctx, p) for p in range(n)} - {None}
    boards = {_f(ctx, sp, "board") for sp in picked} - {""}
    reserved = {s for sp in _kind(ctx, "species") if sp in picked or _f(ctx, sp, "board") in boards
                for s in _f(ctx, sp, "homes")}
    spare = tuple(s for s in _v(ctx, "spare_homes") or () if s not in reserved)
    for seat in range(n):
        p = seat
        sp = _species(ctx, p)
        if sp is None:
            raise ctx.violation(f"p{p + 1} has no species")
        homes = tuple(_f(ctx, sp, "homes")) + spare
        home = next((s for s in homes if s not in used), None)
        if home is None:
            raise ctx.violation(f"no home sector of {sp} is left for p{p + 1} (every one of "
                                f"{', '.join(homes)} is taken)")
        used.add(home)
        pos = layout.start_positions[seat]
        h = _hid(pos)
        _place(ctx, h, home, _centre_rotation(ctx, pos, home))
        _disc_take(ctx, p)
        _set(ctx, "controller", (h,), p)
        _set(ctx, "ships", (h,), ((p, _f(ctx, sp, "start_ship")),))
        cubes = []
        for i, planet in enumerate(_f(ctx, home, "planets")):
            res = planet.rstrip("*")
            if res in RESOURCES and (not planet.endswith("*") or _advanced_ok(ctx, p, res)):
                cubes.append(f"{i}:{res}")
                _set(ctx, f"out_{res}", (p,), _v(ctx, f"out_{res}", p) + 1)
        _set(ctx, "cubes", (h,), tuple(cubes))


def _centre_rotation(ctx, pos, sector) -> int:
    """The first rotation of ``sector`` at ``pos`` with a wormhole facing the centre."""
    toward = next(e for e, nb in enumerate(G.neighbours(pos)) if G.distance(nb) < G.distance(pos))
    tile = _tile(ctx, sector)
    return next(k for k in range(6) if G.rotate_mask(tile.wormholes, k) >> toward & 1)


@primitive("start_spaces_left", returns="list:hex")
def start_spaces_left(ctx):
    """The start-sector positions no player uses at this player count (``galaxy.galaxy_layout``'s
    ``homeworld_positions``: where RotA Ancient homeworlds go), as hex ids; none for 6 or 9
    players."""
    return tuple(_hid(pos) for pos in G.galaxy_layout(ctx.nplayers).homeworld_positions)


@primitive("centre_rotation", returns="int", h="hex", s="sector")
def centre_rotation(ctx, h, s):
    """The rotation a start-like sector ``s`` is laid with at ``h`` at setup: the first with a
    wormhole facing the centre, as the home sectors are."""
    return _centre_rotation(ctx, _pos(h), s)


def _place(ctx, h, sector, rotation):
    _set(ctx, "hexes", (), _hexes(ctx) + (h,))
    _set(ctx, "sector_at", (h,), sector)
    _set(ctx, "rotation_at", (h,), rotation)


PRIMITIVES = [v for v in list(globals().values()) if type(v).__name__ == "Primitive"]
