"""Issue 8: the Eclipse rules emit events at the moments the Rise of the Ancients modules hook
into; a module (here a house-rule file) reacts to them with `when`."""

from __future__ import annotations

import random

import boardrules

EVENTS = {
    "space_explored": "p, h", "sector_placed": "p, h, s", "discovery_taken": "p, h, d",
    "tech_researched": "p, t", "ship_built": "p, h, what", "move_activation": "p",
    "battle_begun": "h", "engagement_round_ended": "h", "battle_ended": "h",
    "cleanup_done": "r", "game_ending": "",
}


def _listener(tmp_path):
    lines = ["var heard: list[text] = []"]
    for name, args in EVENTS.items():
        lines.append(f'when {name}({args}) {{ set heard = heard + ["{name}"] }}')
    path = tmp_path / "listen.rules"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_every_event_is_emitted_in_bot_games(tmp_path):
    heard: dict = {}
    for seed in (2,):
        g = boardrules.new_game("eclipse", players=4, seed=seed, rules=[_listener(tmp_path)],
                                options={"auto_combat": True})
        rng = random.Random(seed)
        while not g.over:
            g.play(rng.choice(list(g.legal_actions())))
        for name in g.get("heard"):
            heard[name] = heard.get(name, 0) + 1
    assert set(heard) == set(EVENTS), set(EVENTS) - set(heard)
    assert heard["cleanup_done"] == 9 and heard["game_ending"] == 1
    assert heard["battle_begun"] == heard["battle_ended"]
    assert heard["sector_placed"] <= heard["space_explored"]    # a drawn sector may be discarded


def test_events_carry_their_arguments(tmp_path):
    path = tmp_path / "vp_for_research.rules"
    path.write_text('when tech_researched(p, t) if t.category == "grid": gain 1 vp to p\n',
                    encoding="utf-8")
    g = boardrules.new_game("eclipse", players=2, seed=0, rules=[path])
    for p in (1, 0):
        g.play(f"p{p + 1} pick_species terrans")
    st = dict(g.state.values)
    st[("r", "science", 0)] = 10
    st[("v", "tech_market")] = ("tech_gauss_shield", "tech_nanorobots")
    g.state = type(g.state)(st, g.state.pending)
    g.play("p1 research")
    g.play("p1 tile tech_gauss_shield")                     # a grid technology: +1 VP
    assert g.get("vp", 0) == 1
    g.play("p1 done")
    g.play("p2 pass_turn")
    g.play("p1 research")
    g.play("p1 tile tech_nanorobots")                       # nano: nothing
    assert g.get("vp", 0) == 1
