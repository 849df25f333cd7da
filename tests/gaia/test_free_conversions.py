"""Property over random games (issue 14): a free conversion with the resource to spend is always
legal, no resource ever exceeds its cap, at the end of the game too, and every decision on what a
player *may* do can be declined.

Rules: gaia-project.md §12.9 (free conversions are not actions: always legal, even when a cap
cuts off their whole gain, the excess lost), §1 and §12.6 (caps credits 30, ore 15, knowledge 15,
for every gain, the end-of-game conversions included), §9 (conversion rates), §4 (faction
conversions: Hadsch Hallas PI, Bal T'aks, Nevlas, Taklons).

The bot favours conversions (one action in two when it may convert), so caps are reached often;
before every action in a player's turn each conversion the player can pay for must be among the
legal actions, and playing it must succeed; after every action (and so after final scoring)
``check_all`` checks the caps, power-token conservation and the VP sources; at the end the
leftover VP are 1 per 3 credits, ore and knowledge held after the capped conversions.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import boardrules
from boardrules import Action
from tests.gaia.test_game import GAME
from tests.gaia.test_invariants import check_all

MAX_ACTIONS = 700
STRESS = int(os.environ.get("BOARDRULES_STRESS", "1"))


def _r(v, name, p):
    return v.get(("r", name, p), 0)


def power_to_spend(v, p) -> int:
    """Power the player's bowl III pays (Taklons brainstone 3, Nevlas PI tokens 2: §4)."""
    bowl3 = _r(v, "bowl3", p)
    faction = v.get(("v", "myfaction", p))
    if faction == "nevlas" and v.get(("v", "built", p, "pi")):
        return 2 * bowl3
    if v.get(("v", "brain", p)) == "area3":
        return bowl3 + 2
    return bowl3


def payable(v, p) -> list[str]:
    """The conversions ``p`` has the resources to pay for (§9, §4)."""
    faction = v.get(("v", "myfaction", p))
    pi = bool(v.get(("v", "built", p, "pi")))
    pw = power_to_spend(v, p)
    out = [name for name, cost in (("pw_qic", 4), ("pw_ore", 3), ("pw_k", 4), ("pw_c", 1)) if pw >= cost]
    out += [name for name, res in (("qic_ore", "qic"), ("ore_token", "ore"), ("k_c", "knowledge"),
                                   ("ore_c", "ore")) if _r(v, res, p) >= 1]
    # burning: two tokens of bowl II (the Taklons brainstone is never the burnt one)
    if _r(v, "bowl2", p) - (v.get(("v", "brain", p)) == "area2") >= 2:
        out.append("burn")
    if faction == "hadsch_hallas" and pi:
        out += [name for name, c in (("hh_qic", 4), ("hh_ore", 3), ("hh_k", 4)) if _r(v, "credits", p) >= c]
    if faction == "baltaks" and _r(v, "gaiaformers", p) >= 1:
        out.append("baltaks_gf")
    if faction == "nevlas" and _r(v, "bowl3", p) >= 1:
        out.append("nevlas_k")
    if faction == "nevlas" and pi:
        out += [name for name, c in (("nevlas_c", 2), ("nevlas_oc", 4), ("nevlas_o", 6)) if pw >= c]
    if faction == "taklons" and pw >= 3:
        out.append("taklons_c")
    return out


def in_turn(g) -> int | None:
    """The player whose turn of the action phase it is (free actions allowed), else None."""
    v = g.state.values
    turn = v.get(("f", "turn"))
    if g.state.pending or g.over or turn is None or turn[2] is None:
        return None
    step = g.ruleset.stages[v[("f", "stage")]].steps[v[("f", "step")]]
    return turn[2] if "convert" in step.free else None


# Decisions on what the rules say a player *may* do: the research step after a tech tile or
# Firaks' downgrade (§6, seed 技術タイル "できます"), a power charge offer (§12.1), the Terrans' PI
# conversions and the Itars' PI trade (§4): each can be declined, by the label alone.
MAY = ("step_on", "leech", "gaia_spend", "itars_tech")


def check_may_decline(g, legal) -> None:
    for d in g.state.pending[:1]:
        if d.label in MAY:
            assert d.optional and Action(d.player, d.label, ()) in legal, f"{d.label} cannot be declined"


def check_conversions(g, legal) -> None:
    p = in_turn(g)
    if p is None:
        return
    v = g.state.values
    names = {a.args[0] for a in legal if a.name == "convert" and a.player == p}
    for c in payable(v, p):
        assert c in names, f"convert {c} is not legal for p{p + 1} ({v.get(('v', 'myfaction', p))}) " \
                           f"with {[(r, _r(v, r, p)) for r in ('credits', 'ore', 'knowledge', 'qic', 'bowl2', 'bowl3')]}"


@settings(max_examples=5 * STRESS, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                 HealthCheck.large_base_example])
@given(players=st.integers(2, 4), seed=st.integers(0, 2**16), data=st.data())
def test_free_conversions_always_legal_and_caps_hold(players, seed, data):
    def pick(n: int, label: str) -> int:
        return data.draw(st.integers(0, n - 1), label=label) if n > 1 else 0

    g = boardrules.new_game(GAME, players=players, seed=seed)
    n = 0
    while not g.over and n < MAX_ACTIONS:
        legal = list(g.legal_actions())
        assert legal, f"no legal action after {g.record.actions[-3:]}"
        check_conversions(g, legal)
        check_may_decline(g, legal)
        converts = [a for a in legal if a.name == "convert"]
        if converts and len(converts) < len(legal) and pick(2, "convert?"):
            legal = converts
        action = legal[pick(len(legal), "action")]
        g.play(action)
        n += 1
        check_all(g)
    assert g.over, f"not over after {n} actions"
    # the leftovers were converted under the caps before 1 VP per 3 was counted (§12.6): the VP
    # are those of what is held at the end (no QIC, no power left in bowl III)
    v = g.state.values
    for p in range(players):
        assert _r(v, "qic", p) == 0 and _r(v, "bowl3", p) == 0
        held = _r(v, "credits", p) + _r(v, "ore", p) + _r(v, "knowledge", p)
        assert g.scores()[p]["sources"].get("resources_vp", 0) == held // 3
