"""The site's move notation: parsing, canonical printing, annotations, errors."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardrules_gaia import notation as n
from boardrules_gaia.geometry import (
    CENTRES_7, SMALL_MAP_SECTORS, Hex, MapPlacement, SectorPlacement, build_map,
)  # fmt: skip
from boardrules_gaia.notation import (
    Action, Bid, Brainstone, Build, Burn, Charge, ChooseBooster, ChooseFaction, Cover, Decline,
    EndTurn, FedTile, Federation, HexRef, Income, Init, Line, LostPlanet, NotationError, Pass,
    Reward, Rotate, SetTile, Special, Spend, SwapPI, Tech, Up, parse_command, parse_line,
    parse_rewards,
)  # fmt: skip
from boardrules_gaia.records import list_records
from tests.conftest import shared_path


def _all_moves():
    out = []
    for path in list_records(shared_path("gaia-records")):
        d = json.loads(path.read_text(encoding="utf-8"))
        out.extend(zip(d["moves"], d["moves_clean"], strict=True))
    return out


# --- examples ---------------------------------------------------------------------------------


def test_examples_from_the_notation_doc():
    assert parse_line("nevlas build lab 2x2. tech sci. up sci.") == Line(
        "nevlas", (Build("lab", HexRef(axial=Hex(2, 2))), Tech("sci"), Up("sci")), True
    )
    assert parse_line("baltaks spend 1gf for 1q. action power6. build m 10A9.").commands == (
        Spend((Reward(1, "gf"),), (Reward(1, "q"),)),
        Action("power6"),
        Build("m", HexRef(name="10A9")),
    )
    assert parse_line("ivits action qic1. tech adv-sci. cover free1. up eco.").commands[1:3] == (
        Tech("adv-sci"),
        Cover("free1"),
    )
    assert parse_line("ambas special swap-PI. swap-PI 3A8.").commands == (
        Special((Reward(None, "swap-PI"),)),
        SwapPI(HexRef.parse("3A8")),
    )
    lost = parse_line("hadsch-hallas up nav. lostPlanet -2x0.").commands[1]
    assert lost == LostPlanet(HexRef.parse("-2x0"))
    fed = parse_line("terrans federation 3A1,6B5 fed2.").commands[0]
    assert fed == Federation((HexRef.parse("3A1"), HexRef.parse("6B5")), "fed2")
    assert parse_line("gleens pass booster10") == Line("gleens", (Pass("booster10"),), False)
    assert parse_line("xenos pass").commands == (Pass(),)
    assert parse_line("gleens charge 2pw").commands == (Charge((Reward(2, "pw"),)),)
    assert parse_line("taklons charge 1t,4pw").commands[0].offer == (Reward(1, "t"), Reward(4, "pw"))
    assert parse_line("nevlas decline 3pw").commands[0] == Decline("3pw")
    assert parse_line("itars decline").commands[0] == Decline()
    assert parse_line("terrans income 4pw. income 1t").commands == (
        Income((Reward(4, "pw"),)),
        Income((Reward(1, "t"),)),
    )
    assert parse_line("init 4 deep-mind-2") == Line(None, (Init(4, "deep-mind-2"),), False)
    assert parse_line("p1 faction terrans").seat == 1
    assert parse_line("terrans burn 2").faction == "terrans"
    rot = parse_line("p4 rotate -2x-3 3 -1x8 2").commands[0]
    assert rot == Rotate(((HexRef.parse("-2x-3"), 3), (HexRef.parse("-1x8"), 2)))
    assert parse_line("p1 set booster 1 to booster3").commands == (SetTile("booster", "1", "booster3"),)
    assert parse_line("p2 bid gleens 3").commands == (Bid("gleens", 3),)
    assert parse_line("terrans endturn").commands == (EndTurn(),)
    assert parse_line("taklons brainstone area3").commands == (Brainstone("area3"),)
    assert parse_line("xenos fedtile fed4").commands == (FedTile("fed4"),)
    assert parse_line("p1 booster booster3").commands == (ChooseBooster("booster3"),)
    assert parse_line("p1 faction gleens").commands == (ChooseFaction("gleens"),)
    assert str(parse_line("terrans  build  m 9A1 .  burn 3 .")) == "terrans build m 9A1. burn 3."


def test_annotations_are_dropped():
    pairs = [
        ("gleens charge 1pw (2/4/0/0 ⇒ 1/5/0/0)", "gleens charge 1pw"),
        ("nevlas build lab 0x1. tech sci. up sci (1 ⇒ 2).", "nevlas build lab 0x1. tech sci. up sci."),
        ("nevlas special 4pw. (0/5/1/0 ⇒ 0/1/5/0)", "nevlas special 4pw."),
        ("baltaks build gf 1x2 using area1: 4, area2: 2. (4/2/0/0 ⇒ 0/0/0/6)", "baltaks build gf 1x2."),
        ("nevlas pass booster3 returning booster7 (1/3/2/0 ⇒ 0/3/3/0)", "nevlas pass booster3"),
        ("ambas special swap-PI (from 4B4). swap-PI 6B4 (from 4B4).", "ambas special swap-PI. swap-PI 6B4."),
        ("taklons charge 2pw,1t (3,B/1/0/0 ⇒ 1/2/1,B/0)", "taklons charge 2pw,1t"),
        ("p3 faction gleens (0/0/0/0 ⇒ 2/4/0/0)", "p3 faction gleens"),
    ]
    for raw, clean in pairs:
        assert parse_line(raw) == parse_line(clean), raw
        assert str(parse_line(raw)) == clean
        assert n.strip_annotations(raw) == clean


def test_hexref():
    assert str(HexRef.parse("9A1")) == "9A1" and HexRef.parse("9A1").sector == 9
    assert HexRef.parse("10A11").position == "A11"
    assert HexRef.parse("3C").position == "C"
    assert HexRef.parse("-3x4").axial == Hex(-3, 4) and HexRef.parse("-3x4").sector is None
    assert HexRef.parse("0x1") != HexRef.parse("1B0")  # style is kept
    for bad in ("9A12", "11A1", "9B6", "0A1", "x", "9", "1-x2"):
        with pytest.raises(ValueError):
            HexRef.parse(bad)
    placement = MapPlacement(
        tuple(SectorPlacement(s, 0, c) for s, c in zip(SMALL_MAP_SECTORS, CENTRES_7, strict=True))
    )
    gmap = build_map(placement)
    assert HexRef.parse("1B0").resolve(gmap) == Hex(1, 0) == HexRef.parse("1x0").resolve(gmap)
    assert HexRef.parse("2A6").resolve(placement) == Hex(3, -2)
    with pytest.raises(ValueError):
        HexRef.parse("9A1").resolve(gmap)  # sector 9 is not on a 7-sector map


def test_rewards():
    assert parse_rewards("q") == (Reward(None, "q"),)
    assert parse_rewards("q")[0].amount == 1
    assert parse_rewards("1t-a3") == (Reward(1, "t-a3"),)
    assert parse_rewards("range+3") == (Reward(None, "range+3"),)
    assert parse_rewards("q,5c") == (Reward(None, "q"), Reward(5, "c"))
    count, resource = Reward(3, "tg")
    assert (count, resource) == (3, "tg")
    for bad in ("", "4", "4x", "4pw,", "pw pw"):
        with pytest.raises(ValueError):
            parse_rewards(bad)


@pytest.mark.parametrize(
    ("text", "column", "fragment"),
    [
        ("terrans build m 9Z1.", 17, "9Z1"),
        ("terrans buld m 9A1", 9, "buld"),
        ("foo build m 1A1", 1, "foo"),
        ("terrans spend 4pw to 1q", 19, "to"),
        ("terrans spend 4pw for 1q,2zz", 26, "2zz"),
        ("terrans build m 1A1 extra", 21, "extra"),
        ("terrans up nav (1 ⇒ 2) junk", 24, "junk"),
        ("terrans pass booster11", 14, "booster11"),
        ("terrans federation 1A1,1Q2 fed2", 24, "1Q2"),
        ("terrans build m 1A1..", 21, "."),
        ("init x y", 6, "x"),
        ("init \u00b2 y", 6, "\u00b2"),     # (passed str.isdigit: a ValueError out of int())
        ("init -2 y", 6, "-2"),
        ("terrans", 1, "terrans"),
        ("terrans build", 14, "build"),
        ("terrans tech adv-foo", 14, "adv-foo"),
    ],
)
def test_errors_carry_column_and_fragment(text, column, fragment):
    with pytest.raises(NotationError) as info:
        parse_line(text)
    err = info.value
    assert isinstance(err, ValueError)
    assert (err.column, err.fragment) == (column, fragment)
    assert f"column {column}" in str(err) and text in str(err)


def test_errors_for_odd_input():
    for bad in ("", "   ", "terrans . build m 1A1", "init 2", "init 2 a b", "terrans init 2 x"):
        with pytest.raises(NotationError):
            parse_line(bad)
    with pytest.raises(NotationError):
        parse_command("build m 1A1. up nav")
    assert parse_command("build m 1A1") == Build("m", HexRef.parse("1A1"))
    with pytest.raises(ValueError):
        Build("castle", HexRef.parse("1A1"))  # the classes validate too


# --- all records --------------------------------------------------------------------------------


def test_every_record_line_round_trips():
    moves = _all_moves()
    assert len(moves) > 2000
    for raw, clean in moves:
        a, b = parse_line(raw), parse_line(clean)
        assert a == b, raw
        assert parse_line(str(a)) == a
        assert str(b) == clean  # the canonical text is the site's clean text
        assert n.strip_annotations(raw) == clean


def test_every_command_kind_seen_in_records_has_a_class():
    kinds = {type(c) for raw, _ in _all_moves() for c in parse_line(raw).commands}
    assert kinds <= set(n.COMMAND_CLASSES)
    assert {Build, Pass, Charge, Decline, Spend, Special, Federation, Tech, Cover, Up, Rotate, Init} <= kinds


# --- hypothesis ---------------------------------------------------------------------------------

named_hex = st.builds(
    lambda s, pos: HexRef(name=f"{s}{pos}"),
    st.integers(1, 10),
    st.sampled_from([*(f"A{i}" for i in range(12)), *(f"B{i}" for i in range(6)), "C"]),
)
axial_hex = st.builds(lambda q, r: HexRef(axial=Hex(q, r)), st.integers(-20, 20), st.integers(-20, 20))
hexref = st.one_of(named_hex, axial_hex)
reward = st.builds(Reward, st.one_of(st.none(), st.integers(0, 30)), st.sampled_from(n.RESOURCES))
rewards = st.lists(reward, min_size=1, max_size=3).map(tuple)
word = st.from_regex(r"[A-Za-z0-9_-]{1,8}", fullmatch=True)

commands = st.one_of(
    st.builds(Rotate, st.lists(st.tuples(axial_hex, st.integers(-6, 6)), min_size=1, max_size=4)),
    st.builds(SetTile, st.sampled_from(n.SET_TYPES), word, word),
    st.builds(ChooseFaction, st.sampled_from(n.FACTIONS)),
    st.builds(Bid, st.sampled_from(n.FACTIONS), st.integers(0, 40)),
    st.builds(Build, st.sampled_from(n.BUILDINGS), hexref),
    st.builds(ChooseBooster, st.sampled_from(n.BOOSTERS)),
    st.builds(Pass, st.one_of(st.none(), st.sampled_from(n.BOOSTERS))),
    st.builds(Up, st.sampled_from(n.TRACKS)),
    st.builds(Action, st.sampled_from(n.BOARD_ACTIONS)),
    st.builds(Special, rewards),
    st.builds(Federation, st.lists(hexref, min_size=1, max_size=6), st.sampled_from(n.FEDERATION_TILES)),
    st.builds(SwapPI, hexref),
    st.builds(Tech, st.sampled_from(n.TECH_POSITIONS)),
    st.builds(Cover, st.sampled_from(n.STD_TECH_POSITIONS)),
    st.builds(LostPlanet, hexref),
    st.builds(FedTile, st.sampled_from(n.FEDERATION_TILES)),
    st.builds(Brainstone, st.sampled_from(n.BRAINSTONE_TARGETS)),
    st.builds(Spend, rewards, rewards),
    st.builds(Burn, st.integers(0, 12)),
    st.builds(Charge, rewards),
    st.builds(Decline, st.one_of(st.none(), word)),
    st.builds(Income, rewards),
    st.just(EndTurn()),
)
actor = st.one_of(st.sampled_from(n.FACTIONS), st.sampled_from([f"p{i}" for i in range(1, 6)]))
lines = st.builds(Line, actor, st.lists(commands, min_size=1, max_size=5), st.booleans())


@settings(max_examples=400)
@given(commands)
def test_generated_commands_round_trip(cmd):
    assert parse_command(str(cmd)) == cmd


@settings(max_examples=300)
@given(lines)
def test_generated_lines_round_trip(line):
    assert parse_line(str(line)) == line


@given(st.from_regex(r"[a-z0-9 .,x-]{0,30}", fullmatch=True))
def test_garbage_never_escapes_as_other_errors(text):
    try:
        parse_line(text)
    except NotationError:
        pass


@given(st.builds(Init, st.integers(2, 5), st.from_regex(r"[!-~]{1,12}", fullmatch=True)))
def test_init_round_trip(cmd):
    line = Line(None, (cmd,), False)
    assert parse_line(str(line)) == line


@pytest.mark.parametrize("text", ["bid terrans \u0663", "build m \u0661x\u0662", "charge \u0663pw",
                                  "build m 4A\u0667"])
def test_site_notation_is_written_in_ascii_digits(text):
    """'bid terrans \u0663' (an Arabic-Indic three) was read as a bid of 3: regex '\\d' matches every
    script's digits and int() reads them. The site writes 0-9."""
    with pytest.raises(NotationError):
        parse_command(text)


def test_hex_and_sector_names_are_written_in_ascii_digits():
    """Hex.parse('\u0661x\u0662') was the hex 1x2 and sector_number('\u0665A') 5."""
    from boardrules_gaia.geometry import GeometryError, sector_number
    for read in (lambda: Hex.parse("\u0661x\u0662"), lambda: sector_number("\u0665A")):
        with pytest.raises(GeometryError):
            read()


@pytest.mark.parametrize("ch", ["\x0b", "\x0c", "\x1c", "\x1e", "\x85", "\xa0", "\u2028", "\u3000"])
def test_a_site_line_is_split_on_spaces_and_tabs_only(ch):
    """The site's words were found with ``\\S+``: a vertical tab, a no-break space or a line
    separator split them as a space does, so an odd line parsed as another move."""
    for odd in (f"terrans{ch}build m 1A1.", f"terrans build{ch}m 1A1.", f"terrans build m{ch}1A1."):
        with pytest.raises(NotationError):
            parse_line(odd)
    with pytest.raises(NotationError):
        parse_command(f"build{ch}m 1A1")
    assert parse_line("terrans\tbuild  m 1A1.") == parse_line("terrans build m 1A1.")
    # an annotation is dropped only when spaces or tabs set it off
    with pytest.raises(NotationError):
        parse_line(f"terrans build m 1A1{ch}(1/2/0/0 ⇒ 0/3/0/0).")
    assert parse_line("terrans build m 1A1 (1/2/0/0 ⇒ 0/3/0/0).") == parse_line("terrans build m 1A1.")
