"""Rise of the Ancients, alliances (``-m alliances``): the seed's rule values, the module's
invariant (allies never fight each other, the shared score is the rule's) over random 4-6
player games, and records that replay exactly."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import boardrules
from boardrules import Action
from boardrules.errors import BoardrulesError
from tests.eclipse.test_combat_play import FAR, _stage
from tests.eclipse.test_edge_cases import _set

from .common import SETTINGS, play_random

ALLIANCES = ("nova", "vortex", "flash")
CHANCE = -1


def _members(g, p) -> tuple:
    """``p``'s alliance's members (``p`` alone when in none)."""
    a = g.get("alliance_of", p)
    return g.get("members", index=a) if a is not None else (p,)


class AllianceInvariant:
    """Checked after every action: one alliance per player, its members' ``allies`` are
    exactly the other members, an alliance's size and tiles within the seed's limits, allies
    never on opposite sides of a battle, no alliance formed or left in the last round; at the
    end the alliance tiles' VP and the shared score as the seed says."""

    def __init__(self):
        self.last = None

    def __call__(self, g) -> None:
        if g.state.values.get(("f", "stage"), 0) < 1:
            return
        n = g.players
        size = g.get("alliance_size")[n]
        held = {p: g.get("alliance_of", p) for p in range(n)}
        for a in ALLIANCES:
            ms = g.get("members", index=a)
            assert len(ms) == len(set(ms)) <= size, (a, ms)
            assert all(held[p] == a for p in ms), (a, ms, held)
            traitors = sum(g.get("traitor_tiles", p).count(a) for p in range(n))
            assert g.get("tiles_taken", index=a) == len(ms) + traitors <= g.get("alliance_tiles")
        for p in range(n):
            allies = g.get("allies", p)
            assert sorted(allies) == sorted(q for q in _members(g, p) if q != p), (p, allies)
            assert held[p] not in g.get("traitor_tiles", p)   # never rejoins one they left
        battle = g.get("battle")
        if battle:
            b = dict(battle)
            att = b["att"] if isinstance(b["att"], tuple) else (b["att"],)
            dfn = b["dfn"] if isinstance(b["dfn"], tuple) else (b["dfn"],)
            assert not any(q in g.get("allies", p) for p in att if p != "npc" for q in dfn), b
        now = (g.get("round"), tuple(held.values()))
        if self.last is not None and now[0] == g.get("rounds") and self.last[0] == now[0]:
            assert now[1] == self.last[1], "an alliance changed in the last round"
        self.last = now
        if g.over:
            finals = g.final_scores()
            for p, sc in enumerate(g.scores()):
                tile = (2 if held[p] is not None else 0) - 3 * len(g.get("traitor_tiles", p))
                got = sc["sources"].get("score_alliance", 0)   # VP never go below 0
                assert got == tile or (sc["total"] == 0 and tile < got <= 0), (p, got, tile)
                ms = _members(g, p)
                assert finals[p] == sum(g.scores()[q]["total"] for q in ms) // len(ms)
            first = g.ranking()[0]
            for p in first:
                assert set(_members(g, p)) <= set(first)     # a shared win


def _start(players=4, seed=3, rounds=9):
    g = boardrules.new_game("eclipse", players=players, seed=seed, modules=["alliances"],
                            options={"rounds": rounds})
    for p in range(players, 0, -1):
        g.play(f"p{p} pick_species terrans")
    return g


def _relations(g, *pairs):
    """Diplomatic relations between each pair (ambassadors only: enough for the rules here)."""
    amb = {p: list(g.get("ambassadors", p)) for p in range(g.players)}
    for a, b in pairs:
        amb[a].append(b)
        amb[b].append(a)
    _set(g, **{f"v__ambassadors__{p}": tuple(v) for p, v in amb.items()})


def _ally(g, p, q, *consents):
    """``p`` (0-based) asks ``q``; the asked answer ``consents`` in turn (all true by default)."""
    g.play(f"p{p + 1} alliance p{q + 1}")
    for c in consents or (True,) * 9:
        if not g.state.pending or g.state.pending[0].label != "consent":
            break
        d = g.state.pending[0]
        g.play(Action(d.player, "consent", (c,)))


def test_two_players_with_relations_form_an_alliance_and_become_allies():
    """Seed: two players with diplomatic relations agree to form an alliance; each takes a tile
    of an alliance not yet formed, face up."""
    g = _start()
    with pytest.raises(BoardrulesError, match="diplomatic relations"):
        g.play("p1 alliance p2")
    _relations(g, (0, 1))
    _ally(g, 0, 1, False)                        # declined: nothing changes
    assert g.get("alliance_of", 0) is None and g.get("allies", 0) == ()
    before = g.state
    with pytest.raises(BoardrulesError, match="one alliance request"):
        g.play("p1 alliance p2")
    assert g.state == before                     # an illegal move leaves the state unchanged
    g = _start()
    _relations(g, (0, 1))
    _ally(g, 0, 1)
    assert g.get("alliance_of", 0) == g.get("alliance_of", 1) == "nova"
    assert g.get("allies", 0) == (1,) and g.get("allies", 1) == (0,)
    AllianceInvariant()(g)


def test_four_or_five_players_two_members_six_a_third_with_relations_to_either():
    """Seed: with 4-5 players at most two in one alliance; with 6+ a third joins if both
    founders agree, with relations to either of them."""
    g = _start(players=5)
    _relations(g, (0, 1), (1, 2))
    _ally(g, 0, 1)
    with pytest.raises(BoardrulesError, match="no room"):
        g.play("p1 alliance p3")
    g = _start(players=6)
    _relations(g, (0, 1))
    _ally(g, 0, 1)
    with pytest.raises(BoardrulesError, match="diplomatic relations"):
        g.play("p1 alliance p3")                 # p3 has relations with neither founder
    _relations(g, (1, 2))
    g.play("p1 alliance p3")                     # p3 (relations with p2) and p2 must agree
    assert {d.player for d in g.state.pending} == {1, 2}
    for _ in range(2):
        d = g.state.pending[0]
        g.play(Action(d.player, "consent", (True,)))
    assert g.get("members", index="nova") == (0, 1, 2)
    assert sorted(g.get("allies", 2)) == [0, 1]
    AllianceInvariant()(g)


def test_alliances_need_four_players():
    """Seed: alliances are not used with 2-3 players (the module refuses them)."""
    with pytest.raises(Exception, match="alliances"):
        g = boardrules.new_game("eclipse", players=3, seed=1, modules=["alliances"])
        for p in (3, 2, 1):
            g.play(f"p{p} pick_species terrans")


def test_leaving_flips_the_tile_and_fighting_a_former_ally_gives_the_traitor_card():
    """Seed: leave before your action, tile to its traitor side (-3 VP), relations kept, no
    Traitor card -- until you fight in a hex with a former ally's ships; never rejoin."""
    g = _start()
    _relations(g, (0, 1))
    _ally(g, 0, 1)
    g.play("p1 influence")
    while g.state.pending:
        g.play(f"p1 {g.state.pending[0].label}")          # decline the disc moves
    with pytest.raises(BoardrulesError, match="before the action"):
        g.play("p1 leave_alliance")
    g = _start()
    _relations(g, (0, 1))
    _ally(g, 0, 1)
    g.play("p1 leave_alliance")
    assert g.get("alliance_of", 0) is None and g.get("traitor_tiles", 0) == ("nova",)
    assert g.get("alliance_of", 1) == "nova" and g.get("allies", 1) == ()
    assert 1 in g.get("ambassadors", 0) and g.get("traitor") is None
    g.play("p1 done") if any(a.name == "done" for a in g.legal_actions()) else None
    AllianceInvariant()(g)
    # former allies' ships meet in a hex: the leaver takes the Traitor card at combat
    _stage(g, FAR, "s303", ships=[(1, "interceptor"), (0, "interceptor")])
    while g.get("round") == 1:
        legal = list(g.legal_actions())
        g.play(next((a for a in legal if a.name in ("pass_turn", "done")), legal[0]))
    assert g.get("traitor") == 0


def test_no_forming_or_leaving_in_the_last_round():
    """Seed: no alliance is formed or left in the last round."""
    g = _start(rounds=1)
    _relations(g, (0, 1))
    with pytest.raises(BoardrulesError, match="last round"):
        g.play("p1 alliance p2")


def test_the_shared_score_and_tile_values():
    """Seed example: 26 + 44 + 30 -> 33 each, which beats 32, 31, 30; a face-up tile +2 VP, a
    traitor side -3 VP."""
    g = _start(players=6, rounds=1)
    _set(g, v__members__nova=(0, 1, 2), v__alliance_of__0="nova", v__alliance_of__1="nova",
         v__alliance_of__2="nova", v__tiles_taken__nova=3,
         v__allies__0=(1, 2), v__allies__1=(0, 2), v__allies__2=(0, 1))
    vps = (26 - 2, 44 - 2, 30 - 2, 32, 31, 30)          # their totals after the +2 tiles
    _set(g, **{f"r__vp__{p}": v for p, v in enumerate(vps)})
    # at the end the scoring gives the tiles and scores by source; here we check the formula
    finals = g.final_scores()
    assert finals[:3] == [(24 + 42 + 28) // 3] * 3 and finals[3:] == [32, 31, 30]
    _set(g, **{f"r__vp__{p}": v for p, v in enumerate((26, 44, 30, 32, 31, 30))})
    assert g.final_scores()[:3] == [33, 33, 33]
    assert g.ranking()[0] == (0, 1, 2)                  # the shared win
    assert g.get("alliance_tile_vp") == 2 and g.get("alliance_traitor_vp") == 3
    assert g.get("alliance_size")[4:7] == (2, 2, 3) and g.get("alliance_tiles") == 3


def test_ties_are_broken_by_pooled_resources():
    """Seed: ties are broken by the members' resources pooled and divided the same way."""
    g = _start(players=4, rounds=1)
    _set(g, v__members__nova=(0, 1), v__alliance_of__0="nova", v__alliance_of__1="nova",
         v__allies__0=(1,), v__allies__1=(0,))
    _set(g, **{f"r__vp__{p}": 10 for p in range(4)})
    _set(g, r__money__0=10, r__money__1=0, r__science__0=0, r__science__1=0, r__materials__0=0,
         r__materials__1=0, r__money__2=6, r__science__2=0, r__materials__2=0, r__money__3=0,
         r__science__3=0, r__materials__3=0)
    assert g.ranking()[0] == (2,)                    # 6 beats (10 + 0) // 2 = 5
    _set(g, r__money__1=4)
    assert g.ranking()[0] == (0, 1)                  # (10 + 4) // 2 = 7


def _battle_at_far(ships, blueprint=None):
    """A 4-player game whose p1 and p2 are allies with ``ships`` in FAR beside an Ancient, the
    action phase ended: the battle's first decision is pending."""
    g = _start()
    g.auto_chance = False
    _set(g, v__allies__0=(1,), v__allies__1=(0,))
    if blueprint:
        _set(g, **{f"v__blueprint__{p}__interceptor": blueprint for p in (0, 1)})
    _stage(g, FAR, "s303", ships=ships, npcs=["ancient"])
    for p in (1, 2, 3, 4):
        g.play(f"p{p} pass_turn")
    return g


def _fight(g, rolls):
    """Play the battle's decisions: chance rolls from ``rolls`` (a die face each, then 6s),
    players fire without retreating and give hits to the first option."""
    faces = list(rolls)
    while g.get("battle"):
        d = g.state.pending[0]
        if d.label == "rolls":
            dice = tuple(faces.pop(0) if faces else 6 for _ in range(d.options.count))
            g.play(Action(CHANCE, "rolls", (dice,)))
        else:
            g.play(Action(d.player, d.label, (False,) if d.label == "retreat" else (d.options[0],)))


def test_each_ally_draws_for_the_ships_they_destroyed():
    """Seed: every ally draws for taking part and for the ships they destroyed themselves.
    The allies' interceptors (initiative 3) fire before the Ancient (2, hull 1): the first
    volley damages it, the second destroys it -- that ally alone draws for the kill."""
    g = _battle_at_far([(0, "interceptor"), (1, "interceptor")])
    _fight(g, [6, 6])
    assert g.get("npcs", index=FAR) == ()
    # the ally who entered last fires first on the allied side (fleet order), so p1 kills
    assert g.get("rep_owed", 0) == (2,) and g.get("rep_owed", 1) == (1,)


@pytest.mark.parametrize("entry, hit", [((0, 1), 1), ((1, 0), 0)])
def test_the_ancients_hit_the_ally_who_entered_last(entry, hit):
    """Seed: when the Ancients' roll allows equal targets of different allies, they attack the
    player who entered the hex last. Initiative 2 each: the Ancient (defender) fires first;
    one die hits an interceptor (hull 0)."""
    g = _battle_at_far([(p, "interceptor") for p in entry], blueprint=("ion_cannon", "nuclear_source"))
    d = g.state.pending[0]
    assert d.label == "rolls" and d.options.count == 2
    g.play(Action(CHANCE, "rolls", ((6, 1),)))
    owners = [o for o, _ in g.get("ships", index=FAR)] if not g.get("battle") else \
        [p for p in entry if _alive(g, p)]
    assert hit not in owners and (1 - hit) in owners


def _alive(g, p) -> bool:
    b = dict(g.get("battle"))
    from boardrules.runtime import Context
    from boardrules_eclipse.battle import _type_keys
    ctx = Context(g.ruleset, g.state.values, me=0)
    keys = _type_keys(ctx, FAR, b["att"])
    return any(o == p and b["state"][0][i] for i, (o, _) in enumerate(keys))


def test_an_ally_of_draco_fights_the_ancients_without_draco():
    """Seed: an ally of the Descendants of Draco still fights the Ancients; the Draco player
    does not take part (our reading of the seed's double negative, docs/eclipse.md)."""
    g = boardrules.new_game("eclipse", players=4, seed=3, modules=["alliances"])
    for p, sp in ((4, "terrans"), (3, "terrans"), (2, "draco"), (1, "terrans")):
        g.play(f"p{p} pick_species {sp}")
    g.auto_chance = False
    _set(g, v__allies__0=(1,), v__allies__1=(0,))
    _stage(g, FAR, "s303", ships=[(1, "interceptor"), (0, "interceptor")], npcs=["ancient"])
    for p in (1, 2, 3, 4):
        g.play(f"p{p} pass_turn")
    b = dict(g.get("battle"))
    assert b["att"] == 0 and b["dfn"] == "npc"           # p1 alone, not (p2, p1)
    _fight(g, [6, 6, 6, 6])
    assert g.get("rep_owed", 1) == () and g.get("rep_owed", 0) != ()


# A staged start for half the random games: diplomatic relations between p1-p2, p3-p4, p5-p6
# (and p2-p3 with 6 players, for a third member) through the rules' own envoys, so that
# random play reaches alliances within the few rounds it plays.
RELATIONS = """
step staged_relations after start_reputation: do {
  for i in 0..(nplayers // 2 - 1) {
    call send_envoy(players[2 * i], players[2 * i + 1], "money")
    call send_envoy(players[2 * i + 1], players[2 * i], "money")
  }
  if nplayers >= 6 {
    call send_envoy(players[1], players[2], "science")
    call send_envoy(players[2], players[1], "science")
  }
}
"""


def _relations_file():
    from tests.conftest import rules_file
    return rules_file(RELATIONS, "relations.rules")


@settings(SETTINGS, max_examples=6)
@given(data=st.data())
def test_random_games_with_alliances(data):
    players = data.draw(st.integers(4, 6), label="players")
    staged = data.draw(st.booleans(), label="staged relations")
    play_random(data, ("alliances",), AllianceInvariant(), players=players,
                prefer=("diplomacy", "alliance", "move"),
                rules=[_relations_file()] if staged else ())


def test_a_whole_game_ends_with_the_shared_score_and_tiles():
    """Seed: at the end a face-up tile is +2 VP, a traitor side -3 VP, and the members' score
    is their VP summed and divided by their number (rounded down); the record replays."""
    g = boardrules.new_game("eclipse", players=6, seed=5, modules=["alliances"],
                            options={"rounds": 2, "auto_combat": True}, rules=[_relations_file()])
    for p in range(6, 0, -1):
        g.play(f"p{p} pick_species terrans")
    _ally(g, 0, 1)                               # p1 + p2 found Nova
    g.play("p1 alliance p3")                     # p3 (relations with p2) joins
    for _ in range(2):
        d = g.state.pending[0]
        g.play(Action(d.player, "consent", (True,)))
    g.play("p1 pass_turn")
    g.play("p2 pass_turn")
    with pytest.raises(BoardrulesError, match="no room"):
        g.play("p3 alliance p4")                 # Nova is full: no fourth member
    inv = AllianceInvariant()
    while not g.over:
        legal = list(g.legal_actions())
        g.play(next((a for a in legal if a.name in ("pass_turn", "done")), legal[0]))
        inv(g)
    totals = [s["total"] for s in g.scores()]
    assert all(g.scores()[p]["sources"]["score_alliance"] == 2 for p in (0, 1, 2))
    assert g.final_scores()[:3] == [sum(totals[:3]) // 3] * 3
    assert g.final_scores()[3:] == totals[3:]
    again = boardrules.load_game(g.save(), check=True)
    assert again.final_scores() == g.final_scores() and again.ranking() == g.ranking()


def test_views_hide_an_allys_reputation_tiles():
    """Views stay correct with alliances: an ally's reputation tiles stay private (showing
    them is the players' choice, off the board)."""
    g = _start()
    _relations(g, (0, 1))
    _ally(g, 0, 1)
    _set(g, v__reputation__1=(3,))
    view = g.view(0)["values"]
    assert view[("v", "reputation", 1)] == ("hidden", 1)
    assert g.view(1)["values"][("v", "reputation", 1)] == (3,)


def test_allies_place_influence_after_combat_by_order_of_entry():
    """Seed: when several allies could place a disc in a hex at the end of combat, the first
    to have entered chooses first; if they decline, the next."""
    for entry in ((1, 0), (0, 1)):
        g = _start()
        _set(g, v__allies__0=(1,), v__allies__1=(0,))
        _stage(g, FAR, "s303", ships=[(p, "interceptor") for p in entry])
        for p in (1, 2, 3, 4):
            g.play(f"p{p} pass_turn")
        d = g.state.pending[0]
        assert d.label == "claim" and d.player == entry[0]
        g.play(f"p{entry[0] + 1} claim")                 # declined: the next ally may
        d = g.state.pending[0]
        assert d.label == "claim" and d.player == entry[1]
        g.play(f"p{entry[1] + 1} claim true")
        assert g.get("controller", index=FAR) == entry[1]
        assert not any(x.label == "claim" for x in g.state.pending)


def test_asking_to_join_an_alliance_asks_each_member_once():
    """Seed: a third player joins with 6+ players if both founders agree."""
    g = _start(players=6)
    _set(g, v__members__nova=(1, 2), v__alliance_of__1="nova", v__alliance_of__2="nova",
         v__tiles_taken__nova=2, v__unformed=("vortex", "flash"),
         v__allies__1=(2,), v__allies__2=(1,))
    _relations(g, (0, 1))
    g.play("p1 alliance p2")
    assert sorted(d.player for d in g.state.pending) == [1, 2]
    g.play("p2 consent true")
    g.play("p3 consent false")                   # one founder declines: no third member
    assert g.get("alliance_of", 0) is None and g.get("members", index="nova") == (1, 2)
    AllianceInvariant()(g)


def _reputation_draw_order(g) -> list:
    """Play on (claims declined, every tile a 1) until the Reputation step is done; return the
    players in the order their reputation draws were made (one entry per tile drawn)."""
    order = []
    while g.state.pending:
        d = g.state.pending[0]
        if d.label == "rep_tile":
            order.append(d.me)                  # the player the draw is made for
            g.play(Action(CHANCE, "rep_tile", (min(d.options),)))
        elif d.label == "claim":
            g.play(f"p{d.player + 1} claim")
        else:
            break
    return order


@pytest.mark.parametrize("entry", [(1, 0), (0, 1)])
def test_allies_draw_reputation_in_order_of_entry(entry):
    """Seed (alliances): "every ally draws for taking part and for the ships they destroyed, in
    order of entry into the hex" -- whatever the seat order. The allies destroy the Ancient in
    one round of 6s: one makes the kill (1 + 1 draws), the other draws 1 for taking part."""
    g = _battle_at_far([(p, "interceptor") for p in entry])
    _fight(g, [6, 6])
    owed = {p: g.get("rep_owed", p) for p in entry}
    assert sorted(owed.values()) == [(1,), (2,)]
    assert g.get("rep_rank", entry[0]) == (0,) and g.get("rep_rank", entry[1]) == (1,)
    order = _reputation_draw_order(g)
    assert order == [entry[0]] * owed[entry[0]][0] + [entry[1]] * owed[entry[1]][0], order


def test_players_not_allied_draw_reputation_in_seat_order():
    """The base game's order is kept when nobody is allied: every player's draws in seat order
    (p1 first though p2 entered the hex first and fought the later battle's defender)."""
    g = _start()
    g.auto_chance = False
    _stage(g, FAR, "s303", ships=[(1, "interceptor"), (0, "interceptor")])
    for p in (1, 2, 3, 4):
        g.play(f"p{p} pass_turn")
    _fight(g, [6, 6])
    assert g.get("rep_rank", 0) == (0,) and g.get("rep_rank", 1) == (0,)
    assert _reputation_draw_order(g)[:2] == [0, 1]
