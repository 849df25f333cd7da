"""Actions without effect are illegal (gaia-project.md §12.9); §13: replaying old records may
allow them with the explicit option ``lenient_no_effect``.

Rule values: §1 (caps ore 15, knowledge 15, credits 30), §9 (power3 = 4pw -> +2o, power1 =
7pw -> +3k, power4 = 4pw -> +7c, qic1 = 4q -> a tech tile; free conversions 3pw -> 1o,
1pw -> 1c, 1k -> 1c), §6 (tech9: charge 4 power; advtech11: +3 ore).
"""

from __future__ import annotations

import pytest

import boardrules
from boardrules.errors import IllegalActionError

from .test_game import patch, res, var

GAME = "gaia-project"
WHY = "an action without effect is illegal"


def start(lenient=False, factions=("terrans", "hadsch_hallas"), seed=3):
    """A game at its first action turn; player 0 (seat 1) is to act."""
    options = {"lenient_no_effect": True} if lenient else {}
    g = boardrules.new_game(GAME, players=2, seed=seed, options=options)
    for i, f in enumerate(factions):
        g.play(f"p{i + 1} pick_faction {f}")
    while g.get("round") is None:
        g.play(next(iter(g.legal_actions())))
    while g.state.pending:
        d = g.state.pending[0]
        g.play(boardrules.Action(d.player, d.label, () if d.optional else (d.options[0],)))
    p = next(iter(g.legal_actions())).player
    # plenty of power in bowl III and QIC for the actions below
    patch(g, {("r", "bowl1", p): 0, ("r", "bowl2", p): 0, ("r", "bowl3", p): 8, ("r", "qic", p): 5})
    return g, p


def legal(g):
    return {str(a) for a in g.legal_actions()}


def refused(g, text):
    with pytest.raises(IllegalActionError) as info:
        g.play(text)
    return str(info.value)


def test_power3_at_15_ore_is_illegal_and_says_why():
    g, p = start()
    patch(g, {("r", "ore", p): 15})
    act = f"p{p + 1} board power3"
    assert act not in legal(g)
    assert WHY in refused(g, act)
    assert res(g, "ore", p) == 15 and res(g, "bowl3", p) == 8   # nothing happened


def test_power3_gaining_part_of_its_ore_is_legal():
    g, p = start()
    patch(g, {("r", "ore", p): 14})
    g.play(f"p{p + 1} board power3")
    assert res(g, "ore", p) == 15 and res(g, "bowl3", p) == 4


def test_power3_at_15_ore_allowed_with_lenient_option():
    g, p = start(lenient=True)
    patch(g, {("r", "ore", p): 15})
    act = f"p{p + 1} board power3"
    assert act in legal(g)
    g.play(act)
    assert res(g, "ore", p) == 15 and res(g, "bowl3", p) == 4   # the power is spent anyway
    assert var(g, "action_used", "power3") is True


@pytest.mark.parametrize("action,resource,value", [("power1", "knowledge", 15), ("power5", "knowledge", 15),
                                                   ("power4", "credits", 30)])
def test_other_power_actions_at_the_cap(action, resource, value):
    g, p = start()
    patch(g, {("r", resource, p): value})
    assert WHY in refused(g, f"p{p + 1} board {action}")


# Free conversions are not actions: always legal, the excess lost at the caps (§12.9; the site's
# engine allows them in live play: shared/cases/gaia/random-2p-2014.json move 15, Hadsch Hallas at
# 30 credits play `spend 1pw for 1c`).
@pytest.mark.parametrize("conv,resource,value,paid,left", [
    ("pw_ore", "ore", 15, "bowl3", 5), ("pw_c", "credits", 30, "bowl3", 7),
    ("k_c", "credits", 30, "knowledge", 2), ("qic_ore", "ore", 15, "qic", 4),
    ("pw_k", "knowledge", 15, "bowl3", 4), ("ore_c", "credits", 30, "ore", 2),
    ("pw_qic", "qic", 5, "bowl3", 4)])
def test_conversion_into_a_capped_resource_is_legal_and_the_excess_lost(conv, resource, value, paid, left):
    g, p = start()
    patch(g, {("r", resource, p): value, ("r", "knowledge", p): 3 if resource != "knowledge" else value,
              ("r", "ore", p): 3 if resource != "ore" else value})
    act = f"p{p + 1} convert {conv}"
    assert act in legal(g)
    g.play(act)
    cap = value if resource != "qic" else value + 1     # QIC has no cap
    assert res(g, resource, p) == cap and res(g, paid, p) == left
    if paid == "bowl3":       # the spent tokens went back to bowl I
        assert res(g, "bowl1", p) == 8 - left


def test_conversion_without_the_resource_to_spend_is_refused():
    g, p = start()
    patch(g, {("r", "bowl3", p): 0, ("r", "knowledge", p): 0})
    for act in (f"p{p + 1} convert pw_c", f"p{p + 1} convert k_c"):
        assert act not in legal(g)
        refused(g, act)


def test_conversion_below_the_cap_is_legal():
    g, p = start()
    patch(g, {("r", "credits", p): 29})
    g.play(f"p{p + 1} convert pw_c")
    assert res(g, "credits", p) == 30


def test_tech_tile_ore_action_at_15_ore_is_refused():
    g, p = start()
    patch(g, {("v", "has_tech", p, "advtech11"): True, ("r", "ore", p): 15})
    assert WHY in refused(g, f"p{p + 1} tech_action advtech11")
    patch(g, {("r", "ore", p): 12})
    g.play(f"p{p + 1} tech_action advtech11")
    assert res(g, "ore", p) == 15


def test_charge_action_with_nothing_to_charge_is_refused():
    g, p = start()          # every token of player p is in bowl III
    patch(g, {("v", "has_tech", p, "tech9"): True})
    assert WHY in refused(g, f"p{p + 1} tech_action tech9")
    patch(g, {("r", "bowl2", p): 1, ("r", "bowl3", p): 7})
    g.play(f"p{p + 1} tech_action tech9")
    assert res(g, "bowl3", p) == 8


def test_qic_tech_action_needs_a_tile_to_take():
    g, p = start()
    slots = var(g, "tech_slots")
    patch(g, {("v", "has_tech", p, t): True for t in slots})   # every standard tile, no green token
    act = f"p{p + 1} board qic1"
    assert act not in legal(g)
    with pytest.raises(IllegalActionError):
        g.play(act)
    assert res(g, "qic", p) == 5


# ---- replaying records: lenient mode only when needed, and said ------------------------------

def _altered(tmp_path):
    import json

    from tests.conftest import shared_path

    data = json.loads(shared_path("gaia-records", "deep-mind-2.json").read_text(encoding="utf-8"))
    # the Nevlas, every token in bowl III, use their charge-4 tile action instead: nothing to charge
    assert data["moves_clean"][249] == "nevlas action power5."
    data["moves_clean"][249] = "nevlas special 4pw."
    path = tmp_path / "deep-mind-2-no-effect.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_replay_is_lenient_only_when_needed_and_says_so(tmp_path):
    from boardrules_gaia import replay as R

    path = _altered(tmp_path)
    strict = R.replay_record(path, lenient=False)
    assert strict.divergence.index == 249 and WHY in strict.divergence.reason
    assert not strict.lenient and strict.notes == ()
    out = R.replay_record(path)                     # default: retried in lenient mode
    assert out.lenient
    # past the added conversion (its token is missing later: the record diverges after it)
    assert out.divergence is None or out.divergence.index > 249
    assert "lenient mode" in out.notes[0] and "move 249" in out.notes[0]


def test_cli_replay_prints_the_lenient_mode(tmp_path):
    from typer.testing import CliRunner

    from boardrules.cli import app

    res = CliRunner().invoke(app, ["replay", str(_altered(tmp_path))], env={"COLUMNS": "300"})
    assert "note: replayed in lenient mode (option lenient_no_effect)" in res.output
