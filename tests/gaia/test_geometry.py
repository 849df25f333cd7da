"""Map geometry: hexes, sector table, naming, rotation, mirroring, validity, dealing."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from boardrules_gaia import geometry as g
from boardrules_gaia.geometry import Hex, MapPlacement, SectorPlacement
from boardrules_gaia.records import list_records, load_record
from tests.conftest import SHARED, shared_path

RECORD_NAMES = sorted(
    p.stem for p in (SHARED / "gaia-records").glob("*.json") if p.name != "INDEX.json"
) or ["(missing)"]

hexes = st.builds(Hex, st.integers(-20, 20), st.integers(-20, 20))


def test_hex_basics():
    h = Hex(-3, 4)
    assert h.s == -1
    assert str(h) == "-3x4" and Hex.parse("-3x4") == h
    assert Hex(0, 0).distance(Hex(2, -2)) == 2
    assert Hex(0, 0).distance(Hex(3, 1)) == 4
    assert set(Hex(0, 0).neighbours()) == set(g.DIRECTIONS)
    assert len(list(Hex(1, 1).within(2))) == 19
    with pytest.raises(g.GeometryError):
        Hex.parse("9A1")


@given(hexes, hexes)
def test_distance_metric(a, b):
    assert a.distance(b) == b.distance(a) >= 0
    assert (a.distance(b) == 0) == (a == b)
    assert all(a.distance(n) == 1 for n in a.neighbours())


@given(hexes, hexes, st.integers(-12, 12))
def test_rotation_preserves_distance(a, c, k):
    b = a.rotate_right(k, c)
    assert b.distance(c) == a.distance(c)
    assert b.rotate_right(-k, c) == a
    assert a.rotate_right(6, c) == a


def test_ring_offsets_follow_the_notation():
    # gaia-notation.md §2.4: one clockwise sixth-turn moves A_i to A_(i+2), B_i to B_(i+1)
    for i in range(12):
        assert g.RING_OFFSETS[f"A{i}"].rotate_right(1) == g.RING_OFFSETS[f"A{(i + 2) % 12}"]
        assert g.RING_OFFSETS[f"A{i}"].distance(Hex(0, 0)) == 2
    for i in range(6):
        assert g.RING_OFFSETS[f"B{i}"].rotate_right(1) == g.RING_OFFSETS[f"B{(i + 1) % 6}"]
        assert g.RING_OFFSETS[f"B{i}"] == g.DIRECTIONS[i]
    assert len(set(g.RING_OFFSETS.values())) == 19


def test_sector_table_matches_rules_doc():
    text = shared_path("rules", "gaia-project.md").read_text(encoding="utf-8")
    rows = {}
    for line in text.splitlines():
        m = re.match(r"^\| (\d+[AB]?) \|(.*)\|$", line)
        if m:
            rows[m.group(1)] = ["e" if c.strip() == "·" else c.strip() for c in m.group(2).split("|")]
    assert set(rows) == set(g.SECTOR_TABLE)
    for name, cells in rows.items():
        assert [g.SECTOR_TABLE[name][p] for p in g.RING_POSITIONS] == cells, name


def test_sector_table_counts():
    # every sector has 19 hexes; the 10 big-map sectors hold each home type equally often
    for name, row in g.SECTOR_TABLE.items():
        assert len(row) == 19 and set(row.values()) <= set(g.PLANETS)
    big = [p for s in g.BIG_MAP_SECTORS for p in g.SECTOR_TABLE[s].values()]
    assert len({big.count(p) for p in g.HOME_PLANETS}) == 1


@pytest.mark.parametrize("sector", sorted(g.SECTOR_TABLE))
def test_rotation_and_mirror_of_contents(sector):
    base = g.sector_contents(sector)
    assert base == dict(g.SECTOR_TABLE[sector])
    for r in range(6):
        rot = g.sector_contents(sector, r)
        for i in range(12):
            assert rot[f"A{(i + 2 * r) % 12}"] == base[f"A{i}"]
        for i in range(6):
            assert rot[f"B{(i + r) % 6}"] == base[f"B{i}"]
    mir = g.sector_contents(sector, 0, mirror=True)
    for pos in ("A0", "A6", "B0", "B3", "C"):
        assert mir[pos] == base[pos]
    assert mir["A1"] == base["A11"] and mir["B1"] == base["B5"]
    assert sorted(mir.values()) == sorted(base.values())


def test_sector_contents_agree_with_hex_rotation():
    # rotating a whole built sector geometrically == rotating its table contents
    c = Hex(5, -2)
    for r in range(6):
        m0 = g.build_map(MapPlacement((SectorPlacement("9", 0, c),)))
        mr = g.build_map(MapPlacement((SectorPlacement("9", r, c),)))
        for mh in m0:
            assert mr.planet(mh.hex.rotate_right(r, c)) == mh.planet


def test_names_round_trip():
    placement = MapPlacement(
        tuple(
            SectorPlacement(s, i % 6, c)
            for i, (s, c) in enumerate(zip(g.BIG_MAP_SECTORS, g.CENTRES_10, strict=True))
        )
    )
    gmap = g.build_map(placement)
    assert len(gmap) == 190
    for mh in gmap:
        assert g.parse_hex_name(mh.name, placement) == mh.hex
        assert g.hex_name(mh.hex, placement) == mh.name
        assert gmap.axial(mh.name) == mh.hex and gmap.name(mh.hex) == mh.name
        assert gmap.axial(str(mh.hex)) == mh.hex
    assert g.parse_hex_name("10A11", placement) == Hex(-8, 7) + Hex(2, -1)  # 10th centre
    with pytest.raises(g.GeometryError):
        g.hex_name(Hex(40, 40), placement)
    with pytest.raises(g.GeometryError):
        gmap.axial("99x99")


def test_standard_centres_do_not_overlap():
    for n in (7, 10):
        centres = g.standard_centres(n)
        cells = [c + o for c in centres for o in g.RING_OFFSETS.values()]
        assert len(cells) == len(set(cells)) == 19 * n
    with pytest.raises(g.GeometryError):
        g.standard_centres(8)


def test_overlap_and_unknown_sector_rejected():
    with pytest.raises(g.GeometryError):
        g.build_map(MapPlacement((SectorPlacement("1", 0, Hex(0, 0)), SectorPlacement("2", 0, Hex(1, 0)))))
    with pytest.raises(g.GeometryError):
        g.build_map(MapPlacement((SectorPlacement("5C", 0, Hex(0, 0)),)))


def test_validity_rule():
    # Two sector 1 copies can't be placed (same numbers); build a tiny invalid map by hand:
    p = MapPlacement((SectorPlacement("1", 0, Hex(0, 0)),))
    hexes = [g.MapHex("1C", Hex(0, 0), "1", "r"), g.MapHex("1B0", Hex(1, 0), "1", "r")]
    assert not g.is_valid_map(g.map_from_hexes(hexes, p))
    gaia = [g.MapHex("1C", Hex(0, 0), "1", "g"), g.MapHex("1B0", Hex(1, 0), "1", "g")]
    assert g.is_valid_map(g.map_from_hexes(gaia, p))  # gaia/transdim/empty are exempt
    assert g.is_valid_map(g.map_from_hexes(gaia, p), legacy=True)  # same sector: legacy ok


@pytest.mark.parametrize("players", [2, 3, 4])
def test_deal_map_is_valid_and_deterministic(players):
    a = g.deal_map(random.Random(7), players)
    b = g.deal_map(random.Random(7), players)
    assert a == b and a.is_valid()
    assert len(a) == (133 if players == 2 else 190)
    names = {p.sector for p in a.placement.sectors}
    assert names == set(g.SMALL_MAP_SECTORS if players == 2 else g.BIG_MAP_SECTORS)
    assert [p.center for p in a.placement.sectors] == list(g.standard_centres(len(names)))
    maps = {
        tuple(p.rotation for p in g.deal_map(random.Random(s), players).placement.sectors)
        for s in range(20)
    }
    assert len(maps) > 1


@pytest.mark.parametrize("layout", ["standard", "xshape"])
def test_deal_placement_is_deal_maps_placement(layout):
    # the primitive deal_map stores deal_placement's sectors and builds the map once from
    # them: the same draws as deal_map, the same placement, the rng left in the same place
    for seed in range(10):
        r1, r2 = random.Random(seed), random.Random(seed)
        placement = g.deal_placement(r1, 4, layout=layout)
        gmap = g.deal_map(r2, 4, layout=layout)
        assert placement == gmap.placement and g.build_map(placement) == gmap
        assert r1.random() == r2.random()
    with pytest.raises(g.GeometryError, match="1..5"):
        g.deal_placement(random.Random(1), 6)


def test_placement_json_round_trip():
    sector = {"sector": "5A", "rotation": 4, "center": {"q": 5, "r": -2, "s": -3}}
    data = {"sectors": [sector], "mirror": True}
    p = MapPlacement.from_json(data)
    assert p.sectors[0] == SectorPlacement("5A", 4, Hex(5, -2)) and p.mirror
    assert p.to_json() == data
    defaulted = MapPlacement.from_json({"sectors": [{"sector": "1", "rotation": 0}] * 7})
    # the site's older centre order (engine/src/map.ts, ``load``), not the standard one
    assert defaulted.sectors[3].center == Hex(0, 0)


# --- against the real records ----------------------------------------------------------------


def _record_paths():
    return list_records(shared_path("gaia-records"))


def _row(mh):
    return (mh.name, mh.q, mh.r, mh.sector, mh.planet)


def test_all_records_present():
    assert len(_record_paths()) == 18


@pytest.mark.parametrize("name", RECORD_NAMES)
def test_record_map_recomputed_exactly(name):
    rec = load_record(shared_path("gaia-records", f"{name}.json"))
    computed = rec.build_map()
    # planet letters of the files: r o v d s t i (home types), g gaia, m transdim, e empty
    assert {mh.planet for mh in rec.setup.hexes} <= set(g.PLANETS) - {"l"}
    assert [_row(h) for h in computed.hexes] == [_row(h) for h in rec.setup.hexes]
    assert len(computed) == (133 if rec.players == 2 else 190)
    assert computed.is_valid()
    # the map as a whole: every name resolves to its file coordinate
    for mh in rec.setup.hexes:
        assert g.parse_hex_name(mh.name, rec.placement_after_setup()) == mh.hex


def test_mirror_flag_and_legacy_seeds():
    mirrored = set()
    for path in _record_paths():
        rec = load_record(path)
        assert rec.setup.placement.mirror is False  # the flag is never set in these files ...
        if rec.mirrored:  # ... yet the legacy seeds are read mirrored (gaia-project.md §11)
            mirrored.add(rec.seed)
            assert rec.seed in g.LEGACY_MIRRORED_SEEDS
        rows = [_row(h) for h in rec.setup.hexes]
        flipped = g.build_map(rec.placement_after_setup(), mirror=not rec.mirrored)
        assert [_row(h) for h in flipped.hexes] != rows  # the reading matters for every game
        # an explicit mirror flag in the placement has the same effect as a legacy seed
        flagged = MapPlacement(rec.placement_after_setup().sectors, mirror=rec.mirrored)
        assert [_row(h) for h in g.build_map(flagged).hexes] == rows
    assert len(mirrored) == 8  # 9 games, two share seed "12"


def test_rotate_command_applies_on_top_of_placement():
    rec = load_record(shared_path("gaia-records", "TOS-1.json"))
    assert rec.rotations()  # 'p4 rotate 5x-2 4 -6x10 2 ...'
    unrotated = g.build_map(rec.setup.placement, mirror=rec.mirrored)
    assert [_row(h) for h in unrotated.hexes] != [_row(h) for h in rec.setup.hexes]
    with pytest.raises(g.GeometryError):
        g.apply_rotations(rec.setup.placement, [(Hex(1, 1), 2)])
