"""The compact fleet notation: :func:`parse_fleet` / :func:`format_fleet`, and the presets."""

from __future__ import annotations

import re


from .ships import _DIE_LETTER, _LETTER_DIE, ION, MAX_DICE, Fleet, ShipType, SizeClass


PRESETS: dict[str, ShipType] = {
    # 1st-edition default blueprints, eclipse-data.md §4 (boards; stats D: calculator presets agree).
    "interceptor": ShipType("interceptor", SizeClass.INTERCEPTOR, 3, 0, 0, 0, (ION,)),
    "cruiser": ShipType("cruiser", SizeClass.CRUISER, 2, 1, 1, 0, (ION,)),
    "dreadnought": ShipType("dreadnought", SizeClass.DREADNOUGHT, 1, 2, 1, 0, (ION, ION)),
    "starbase": ShipType("starbase", SizeClass.STARBASE, 4, 2, 1, 0, (ION,)),
    # NPCs, eclipse-data.md §5 (tile art): Ancient 2/1/+1/0 2 ion; 1st-edition GCDS 0/7/+1/0 4 ion.
    "ancient": ShipType("ancient", SizeClass.ANCIENT, 2, 1, 1, 0, (ION, ION)),
    "gcds": ShipType("gcds", SizeClass.GCDS, 0, 7, 1, 0, (ION,) * 4),
}


def preset(name: str) -> ShipType:
    """The 1st-edition default ship ``name`` (see :data:`PRESETS`); ``KeyError`` if unknown."""
    return PRESETS[name.lower()]


_FLAGS = {
    "splitter": "antimatter_splitter",
    "antimatter-splitter": "antimatter_splitter",
    "distortion": "distortion_shield",
    "distortion-shield": "distortion_shield",
    "point-defense": "point_defense",
    "pd": "point_defense",
    "npc": "npc",
    "player": "player",
}
# A count, with an optional multiplication sign: '×' or '*', or an 'x' followed by a space
# ('2x interceptor', '2 x interceptor'); an 'x' running on into letters or ':' begins the
# ship's name ('1 x:cruiser(...)' is one ship named x, '1 xx:cruiser(...)' one named xx).
_COUNT = re.compile(r"([0-9]+)\s*(?:(?:[×*]|x(?=\s))\s*)?")
_NAME = re.compile(r"([A-Za-z][\w\-]*)(?::([A-Za-z][\w\-]*))?")
_STATS = re.compile(
    r"([+-]?[0-9]+)\s*/\s*([+-]?[0-9]+)\s*/\s*([+-]?[0-9]+)\s*/\s*([+-]?[0-9]+)(?:\s*/\s*([0-9]+))?(?:\s+(.*))?", re.S
)
_DIE = re.compile(r"([0-9]*)([YORyor])")


def _parse_dice(text: str, where: str) -> tuple[int, ...]:
    compact = re.sub(r"[\s+]", "", text)
    if compact in ("", "-", "0"):
        return ()
    dice: list[int] = []
    pos = 0
    while pos < len(compact):
        m = _DIE.match(compact, pos)
        if not m:
            raise ValueError(
                f"{where}: bad dice {text.strip()!r}; write e.g. '2Y', '1O 1R' or 'YYR' "
                "(Y = ion, O = plasma, R = antimatter; '-' for none)"
            )
        count = int(m.group(1)) if m.group(1) else 1
        if len(dice) + count > MAX_DICE:   # (before a list of a billion dice is built)
            raise ValueError(f"{where}: at most {MAX_DICE} dice per ship, got {text.strip()[:40]!r}")
        dice.extend([_DIE_LETTER[m.group(2).upper()]] * count)
        pos = m.end()
    return tuple(dice)


def _parse_group(item: str) -> tuple[ShipType, int]:
    text = item.strip()
    pos = 0
    count = 1
    m = _COUNT.match(text)
    if m:
        count = int(m.group(1))
        pos = m.end()
    m = _NAME.match(text, pos)
    if not m:
        found = f"{text[pos:pos + 12]!r}" if pos < len(text) else "nothing"
        raise ValueError(f"{item.strip()!r}: expected a ship name (a letter first) at column {pos + 1}, "
                         f"found {found}; write '[count] name[:class] [(init/hull/computer/shield; "
                         "cannons; missiles)]'")
    name, cls = m.group(1), m.group(2)
    rest = text[m.end():].strip()
    if count < 1:
        raise ValueError(f"{item.strip()!r}: count must be at least 1")
    if not rest:
        if cls is not None or name.lower() not in PRESETS:
            times = name[1:].lower() in PRESETS and name[0] in "xX"
            raise ValueError(
                f"{item.strip()!r}: give stats '(init/hull/computer/shield; cannons; missiles)' "
                f"or use a preset name ({', '.join(PRESETS)})"
                + (f"; for {count} times {name[1:]!r} put a space after the x" if times else "")
            )
        return PRESETS[name.lower()], count
    if rest.startswith("("):
        if not rest.endswith(")"):
            raise ValueError(f"{item.strip()!r}: unbalanced parenthesis")
        rest = rest[1:-1].strip()
    parts = rest.split(";")
    if len(parts) > 3:
        raise ValueError(f"{item.strip()!r}: too many ';' (stats; cannons; missiles)")
    sm = _STATS.fullmatch(parts[0].strip())
    if not sm:
        raise ValueError(f"{item.strip()!r}: stats must be init/hull/computer/shield, e.g. 3/0/+1/-1")
    init, hull, comp, shield = (int(sm.group(i)) for i in range(1, 5))
    regenerate = int(sm.group(5) or 0)
    cannon_text = sm.group(6) or ""
    if len(parts) >= 2:
        if cannon_text.strip():
            raise ValueError(f"{item.strip()!r}: cannons given twice")
        cannon_text = parts[1]
    missile_text = parts[2] if len(parts) == 3 else ""
    if init < 0 or hull < 0 or comp < 0:
        raise ValueError(f"{item.strip()!r}: initiative, hull and computer cannot be negative")
    size_name = (cls or name).lower()
    try:
        size = SizeClass(size_name)
    except ValueError:
        raise ValueError(
            f"{item.strip()!r}: unknown size class {size_name!r}; name the ship after a class or "
            f"write name:class with class one of {', '.join(s.value for s in SizeClass)}"
        ) from None
    ship = ShipType(
        name=name,
        size=size,
        initiative=init,
        hull=hull,
        computer=comp,
        shield=abs(shield),  # printed shields are negative (Gauss -1); accept either sign
        cannons=_parse_dice(cannon_text, item.strip()),
        missiles=_parse_dice(missile_text, item.strip()),
        regenerate=regenerate,
    )
    return ship, count


def parse_fleet(text: str) -> Fleet:
    """Parse the fleet notation: comma-separated ship groups and ``+flag`` items.

    A group is ``[count[x]] name[:class] [(init/hull/computer/shield; cannons; missiles)]``
    (the ``x`` of a count is followed by a space: ``2x interceptor``; ``1 x:cruiser(...)`` is a
    ship named ``x``):

    * ``2 interceptor`` — a preset (:data:`PRESETS`: interceptor, cruiser, dreadnought, starbase,
      ancient, gcds);
    * ``2 interceptor(3/0/+1/0; 1O)`` or ``2 interceptor 3/0/+1/0 1O`` — custom stats; the name is
      the size class unless written ``name:class`` (``3 raider:interceptor(...)``);
    * dice: ``Y`` ion, ``O`` plasma, ``R`` antimatter, with optional counts: ``2Y``, ``YYR``,
      ``1O 1Y``; ``-`` or nothing for none. Missiles are the third field: ``(2/1/1/0; Y; 2O)``.
    * shields may be written negative as printed (``-1``) or as a magnitude (``1``);
    * a fifth stat is regeneration, the damage each ship repairs after every engagement round:
      ``1 ancient:ancient-cruiser(3/5/+2/0/1; 2O)``.

    Flags: ``+splitter`` (Antimatter Splitter), ``+distortion`` (Distortion Shield),
    ``+point-defense`` or ``+pd`` (Point Defense), ``+npc``
    (use the NPC targeting rule; implied when every ship is an NPC class unless ``+player`` is
    given). Example:
    ``"1 dreadnought(1/2/+1/0; 2R), +splitter"``. Returns a :class:`Fleet`; raises ``ValueError``
    (with the offending item) for anything else, including an empty fleet.
    """
    if not isinstance(text, str):
        raise ValueError(f"fleet text must be a string, got {type(text).__name__}")
    items = _split_top(text)
    groups: list[tuple[ShipType, int]] = []
    flags: dict[str, bool] = {}
    for item in items:
        stripped = item.strip()
        if not stripped:
            raise ValueError(f"empty item in fleet {text!r}")
        if stripped.startswith("+"):
            flag = stripped[1:].strip().lower()
            if flag not in _FLAGS:
                raise ValueError(f"unknown flag {stripped!r}; known: {', '.join('+' + f for f in _FLAGS)}")
            if _FLAGS[flag] in flags:   # (a flag is on or not: twice is a slip, '+pd, +point-defense')
                raise ValueError(f"{stripped!r}: fleet {text!r} gives the flag "
                                 f"{' or '.join('+' + f for f, to in _FLAGS.items() if to == _FLAGS[flag])} twice")
            flags[_FLAGS[flag]] = True
            continue
        ship, count = _parse_group(stripped)
        for i, (other, n) in enumerate(groups):
            if other.name.lower() == ship.name.lower():
                if other != ship:
                    raise ValueError(f"{stripped!r}: ship name {ship.name!r} used with different stats")
                groups[i] = (other, n + count)
                break
        else:
            groups.append((ship, count))
    if not groups:
        raise ValueError(f"no ships in fleet {text!r}")
    player = flags.pop("player", False)
    if player and flags.get("npc"):
        raise ValueError(f"fleet {text!r} has both +npc and +player")
    if not player and all(ship.size.is_npc for ship, _ in groups):
        flags["npc"] = True
    return Fleet(tuple(groups), **flags)


def _split_top(text: str) -> list[str]:
    items, depth, current = [], 0, []
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth < 0:
                raise ValueError(f"unbalanced ')' in fleet {text!r}")
        if ch == "," and depth == 0:
            items.append("".join(current))
            current = []
        else:
            current.append(ch)
    if depth:
        raise ValueError(f"unbalanced '(' in fleet {text!r}")
    items.append("".join(current))
    return items


def _format_dice(dice: tuple[int, ...]) -> str:
    if not dice:
        return "-"
    parts = []
    for damage in sorted(set(dice), reverse=True):
        letter = _LETTER_DIE.get(damage)
        if letter is None:
            raise ValueError(f"no die letter for damage {damage}")
        parts.append(f"{dice.count(damage)}{letter}")
    return " ".join(parts)


def format_ship(ship: ShipType) -> str:
    """``name[:class](init/hull/+computer/shield; cannons[; missiles])`` — parseable."""
    label = ship.name if ship.name.lower() == ship.size.value else f"{ship.name}:{ship.size.value}"
    regen = f"/{ship.regenerate}" if ship.regenerate else ""
    spec = f"{ship.initiative}/{ship.hull}/+{ship.computer}/{ship.shield}{regen}; {_format_dice(ship.cannons)}"
    if ship.missiles:
        spec += f"; {_format_dice(ship.missiles)}"
    return f"{label}({spec})"


def format_fleet(fleet: Fleet) -> str:
    """The notation of :func:`parse_fleet` for ``fleet`` (round-trips)."""
    items = [f"{count} {format_ship(ship)}" for ship, count in fleet.ships]
    if fleet.antimatter_splitter:
        items.append("+splitter")
    if fleet.distortion_shield:
        items.append("+distortion")
    if fleet.point_defense:
        items.append("+point-defense")
    all_npc = all(ship.size.is_npc for ship, _ in fleet.ships)
    if fleet.npc and not all_npc:
        items.append("+npc")
    elif not fleet.npc and all_npc:
        items.append("+player")
    return ", ".join(items)
