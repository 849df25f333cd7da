"""Random games of Eclipse with Rise of the Ancients modules on (hypothesis-driven), checking
after every action the base game's invariants (tests/eclipse/test_invariants.py) and a
module's own invariant; at the end the record replays exactly (save -> load, legality checked).
"""

from __future__ import annotations

from typing import Callable

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

import boardrules
from tests.eclipse.test_invariants import check_invariants

SETTINGS = settings(max_examples=3, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
MAX_ACTIONS = 4000


def _rich(n: int):
    """A house-rule text: every player starts with ``n`` of each resource."""
    from tests.conftest import rules_file
    return rules_file("".join(f"extend resource {r} {{ start {n} }}\n"
                              for r in ("money", "science", "materials")), "rich.rules")


def play_random(data, modules: tuple, own: Callable, *, players=None, prefer=(), money=0, picks=None,
                rules=(), rounds=None):
    """Play one whole random game with ``modules`` on (player count 2-6, seed, rounds 1-3 and
    every action drawn from ``data``), checking the invariants; return the finished game.
    ``prefer``: action names the bot picks half of the time when legal (the module's own);
    ``money``: the ``start`` of every resource, so that what the module sells gets bought;
    ``picks(data, n)``: the species of seats p1..pn, picked first (else the bot picks them);
    ``rules``: further house-rule files (a staged start); ``rounds``: a fixed round count (for a
    module acting between rounds)."""
    n = players or data.draw(st.integers(2, 6), label="players")
    species = picks(data, n) if picks else ()
    seed = data.draw(st.integers(0, 2**16), label="seed")
    rounds = rounds or data.draw(st.integers(1, 3), label="rounds")
    g = boardrules.new_game("eclipse", players=n, seed=seed, modules=list(modules),
                            options={"rounds": rounds, "auto_combat": True},
                            rules=([_rich(money)] if money else []) + list(rules))
    for p in range(len(species), 0, -1):
        g.play(f"p{p} pick_species {species[p - 1]}")
    steps = 0
    while not g.over:
        assert steps < MAX_ACTIONS, "the game does not end"
        legal = list(g.legal_actions())
        assert legal, f"no legal action after {g.record.actions[-3:]}"
        # prefer passing now and then so that rounds (combat, upkeep, cleanup) are reached
        passing = [a for a in legal if a.name in ("pass_turn", "done")]
        own_moves = [a for a in legal if a.name in prefer]
        pool = passing if passing and data.draw(st.integers(0, 3)) == 0 else legal
        pool = own_moves if own_moves and data.draw(st.integers(0, 1)) else pool
        g.play(pool[data.draw(st.integers(0, len(pool) - 1))])
        steps += 1
        check_invariants(g)
        own(g)
    again = boardrules.load_game(g.save(), check=True)
    assert again.state == g.state and again.ruleset.modules == g.ruleset.modules
    assert again.scores() == g.scores()
    return g


def play_greedy(modules: tuple, own: Callable, *, players: int, seed: int, rounds: int, picks=()):
    """Play one whole game with ``modules`` on and the greedy bot in every seat (issue 12: the
    property tests also run with the greedy bot, so the deep rules a random bot rarely reaches
    get visited), checking after every action the base game's invariants and ``own``; at the
    end the record replays exactly. ``picks``: the species of seats p1..pn, picked first.
    Returns the finished game."""
    from boardrules.bots import play_out, seat_bots
    g = boardrules.new_game("eclipse", players=players, seed=seed, modules=list(modules),
                            options={"rounds": rounds, "auto_combat": True})
    for p in range(len(picks), 0, -1):
        g.play(f"p{p} pick_species {picks[p - 1]}")

    def check(g, _action) -> None:
        check_invariants(g)
        own(g)
    play_out(g, seat_bots(["greedy"], players, seed), max_actions=MAX_ACTIONS, on_action=check)
    again = boardrules.load_game(g.save(), check=True)
    assert again.state == g.state and again.scores() == g.scores()
    return g


def start(players: int, modules: tuple, seed: int = 3):
    """A game of Eclipse with ``modules`` on, every player's species picked (Terrans), at the
    first turn of the Action phase."""
    g = boardrules.new_game("eclipse", players=players, seed=seed, modules=list(modules))
    for p in range(players, 0, -1):
        g.play(f"p{p} pick_species terrans")
    return g
