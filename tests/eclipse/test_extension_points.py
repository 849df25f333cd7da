"""Issue 8: adjacency, pinning, movement reach and who fights whom are computations a module
extends through the rule files' data (warp portals, allies, ``pinned_by``, NPC ``pins``, part
``jumps``), not private Python. Each test sets the data as a module would and checks the
computation follows it, and that the base game is unchanged without it."""

from __future__ import annotations

import boardrules
from boardrules.game import Action
from boardrules.runtime import Context

from boardrules_eclipse.galaxy import neighbours
from boardrules_eclipse.primitives import move_options

from .test_combat_play import FAR, NEAR, _stage
from .test_edge_cases import HOME, _set
from .test_game import check_invariants, new

X, X_SECTOR = NEAR, "s301"    # next to p1's home, joined to it by a wormhole


def _moves(g, p=0):
    return set(move_options.fn(Context(g.ruleset, g.state.values, me=p)))


def test_warp_portals_are_adjacent_to_each_other():
    """Seed (RotA warp portals): every warp portal is adjacent to every other."""
    g = new(2)
    _stage(g, FAR, "s106")
    assert f"interceptor@{HOME}>{FAR}" not in _moves(g)
    _set(g, **{f"v__warp_portal_at__{HOME}": True, f"v__warp_portal_at__{FAR}": True})
    assert f"interceptor@{HOME}>{FAR}" in _moves(g)


def test_allies_neither_fight_nor_pin_and_pin_together():
    """Seed (RotA alliances): allies do not attack or pin each other and count together
    against an opponent's pinning."""
    g = new(3)
    _stage(g, X, X_SECTOR, ships=[(0, "interceptor"), (1, "interceptor"), (2, "interceptor")])
    assert not any(m.startswith(f"interceptor@{X}>") for m in _moves(g))   # two enemies pin it
    _set(g, v__allies__0=(1,), v__allies__1=(0,))
    assert any(m.startswith(f"interceptor@{X}>") for m in _moves(g))       # 2 of a side vs 1
    # the allies fight p3 as one side, in one battle; p3's hits say whose ship they hit
    g.auto_chance = False
    _set(g, v__blueprint__2__interceptor=("ion_cannon", "nuclear_source", "nuclear_drive",
                                          "positron_computer"))      # initiative 4: fires first
    for p in (1, 2, 3):
        g.play(f"p{p} pass_turn")
    assert g.get("battles_fought") == ((X, 2, (0, 1)),)
    options = set()
    while g.get("battle"):
        d = g.state.pending[0]
        if d.label == "rolls":
            g.play(Action(d.player, d.label, ((6,) * d.options.count,)))   # every die hits
        else:
            options |= set(d.options) if d.label == "hit" else set()
            g.play(Action(d.player, d.label, (False,) if d.label == "retreat" else (d.options[0],)))
    assert g.get("battles_fought") == ((X, 2, (0, 1)),)
    assert {"interceptor/p1:0", "interceptor/p2:0"} <= options
    # both allies took part: each draws for the battle and the side's kill
    lost = 3 - len(g.get("ships", index=X))
    assert lost >= 1
    check_invariants(g)


def test_pinned_by_and_npc_pins(tmp_path):
    """Player aid (Cloaking Device): opponents need two ships to pin each of yours -- as data:
    a technology's ``pinned_by``; an NPC ship's ``pins`` says how many ships it pins."""
    house = tmp_path / "cloak.rules"
    house.write_text("extend tech tech_gauss_shield { pinned_by 2 }\n"
                     "extend npc_ship ancient { pins 2 }\n", encoding="utf-8")
    g = boardrules.new_game("eclipse", players=2, rules=[house])
    for p in (1, 0):
        g.play(f"p{p + 1} pick_species terrans")
    _stage(g, X, X_SECTOR, ships=[(0, "interceptor"), (0, "interceptor"), (1, "interceptor")])
    leave = f"interceptor@{X}>"
    assert any(m.startswith(leave) for m in _moves(g))            # 2 ships vs 1 pin: one goes
    _set(g, **{f"v__npcs__{X}": ("ancient",)})                     # + an Ancient pinning 2
    assert not any(m.startswith(leave) for m in _moves(g))         # 2 ships vs 3 pins
    _set(g, v__techs__0=("tech_starbase", "tech_gauss_shield"))     # cloaked: 3 // 2 = 1 pin
    assert any(m.startswith(leave) for m in _moves(g))


def test_jumps_reach_any_neighbour(tmp_path):
    """Seed (Jump Drive): a jump goes to any neighbouring hex, wormholes or not, and may be
    the ship's only drive -- as data: a part's ``jumps``."""
    house = tmp_path / "jump.rules"
    house.write_text("part jump_drive { jumps 1; energy -2 }\n", encoding="utf-8")
    g = boardrules.new_game("eclipse", players=2, rules=[house])
    for p in (1, 0):
        g.play(f"p{p + 1} pick_species terrans")
    q, r = map(int, HOME.split(","))
    around = [f"{a},{b}" for a, b in neighbours((q, r))]
    for h in around:
        if h not in g.get("hexes"):
            _stage(g, h, "s304", rotation=1)
    drive = {m.split(">")[1] for m in _moves(g) if m.startswith(f"interceptor@{HOME}>")}
    _set(g, **{"v__blueprint__0__interceptor": ("ion_cannon", "nuclear_source", "jump_drive",
                                                "empty")})
    jump = {m.split(">")[1] for m in _moves(g) if m.startswith(f"interceptor@{HOME}>")}
    assert jump == set(around) and drive < jump
    check_invariants(g)


def test_a_module_step_goes_between_named_flow_steps(tmp_path):
    """The round's steps are named (phases.rules), so a module adds one where the seed puts
    it -- here after the new technology tiles, before the start player changes."""
    house = tmp_path / "tally.rules"
    house.write_text("var seen: list[int] = []\n"
                     "step tally after new_techs: do { set seen = seen + [len(tech_market)] }\n",
                     encoding="utf-8")
    g = boardrules.new_game("eclipse", players=2, rules=[house])
    for p in (1, 0):
        g.play(f"p{p + 1} pick_species terrans")
    start = len(g.get("tech_market"))
    while not g.over:
        for a in g.legal_actions():
            if a.name == "pass_turn":
                g.play(a)
                break
        else:
            g.play(next(iter(g.legal_actions())))
    per_round = g.get("techs_per_round")[2]
    assert g.get("seen") == tuple(start + per_round * r for r in range(1, 9)) + (start + 8 * per_round,)


def _house_game(path, text):
    """A 2-player Terran game with the house-rule ``text`` (written to ``path``)."""
    path.write_text(text, encoding="utf-8")
    g = boardrules.new_game("eclipse", players=2, rules=[path])
    for p in (2, 1):
        g.play(f"p{p} pick_species terrans")
    return g


def test_combat_flags_reach_the_battle_fleets(tmp_path):
    """Seed (RotA rare technologies, Ancient cruisers): a technology's or an NPC ship's
    ``combat_flags`` become combat.py's Fleet flags of its side in a play battle; an unknown
    flag is an error naming it."""
    import pytest

    from boardrules_eclipse.battle import _fleet
    g = _house_game(tmp_path / "flags.rules",
                    'extend tech tech_gauss_shield { combat_flags "point_defense", "antimatter_splitter" }\n'
                    'extend npc_ship ancient { combat_flags "distortion_shield" }\n')
    _stage(g, X, X_SECTOR, ships=[(0, "interceptor"), (1, "interceptor")], npcs=("ancient",))
    ctx = lambda: Context(g.ruleset, g.state.values, me=0)   # noqa: E731
    plain = _fleet(ctx(), X, 0)
    assert not (plain.point_defense or plain.antimatter_splitter or plain.distortion_shield)
    _set(g, v__techs__0=("tech_gauss_shield",))
    mine, theirs, npcs = _fleet(ctx(), X, 0), _fleet(ctx(), X, 1), _fleet(ctx(), X, "npc")
    assert mine.point_defense and mine.antimatter_splitter and not mine.distortion_shield
    assert not (theirs.point_defense or theirs.antimatter_splitter)
    assert npcs.distortion_shield and npcs.npc and not npcs.point_defense
    g2 = _house_game(tmp_path / "bad.rules", 'extend tech tech_gauss_shield { combat_flags "cloak" }\n')
    _set(g2, v__techs__0=("tech_gauss_shield",))
    with pytest.raises(Exception, match="unknown combat flag 'cloak'"):
        _fleet(Context(g2.ruleset, g2.state.values, me=0), HOME, 0)
