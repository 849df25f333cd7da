"""The greedy bot's look-ahead budget: a decision tries a bounded number of positions, counted
(not timed), at any player count and module set. A 9-player Eclipse decision with Rise of the
Ancients (simultaneous play, alliances) took 83 s of CPU before: the bot looked ahead about 5
decisions deep there, each level rating every option, and the game could not be finished."""

from __future__ import annotations

import boardrules
from boardrules.bots import GreedyBot, MCTSBot, evaluation_for, seat_bots
from boardrules.bots.common import actor
from boardrules.bots.greedy import BUDGET
from tests.eclipse.test_invariants import check_invariants


def _explore_decision():
    """Two-player Eclipse, seed 0, after two greedy decisions: p1's first action, where the
    look-ahead behind Explore (space, rotation, disc, discovery) tries over a thousand positions."""
    g = boardrules.new_game("eclipse", players=2, seed=0)
    bots = seat_bots(("greedy",), 2, 0)
    for _ in range(2):
        p = actor(g)
        g.play(bots[p].choose(g, p), check=False)
    return g


def _counting(game):
    evaluate = evaluation_for(game)
    calls = [0]

    def counted(g, p):
        calls[0] += 1
        return evaluate(g, p)
    return counted, calls


def test_a_decisions_work_is_bounded_by_the_budget():
    g = _explore_decision()
    state, n = g.state, len(list(g.legal_actions(actor(g))))
    whole = GreedyBot(7, budget=10**6)
    chosen = whole.choose(g)
    assert whole.tried > 1000 and g.state is state
    evaluate, calls = _counting(g)
    bounded = GreedyBot(7, evaluate, budget=100)
    assert bounded.choose(g) in g.legal_actions()
    assert calls[0] <= bounded.tried <= 2 * 100 + n and g.state is state
    # within the default budget the whole look-ahead is made, as without one
    default = GreedyBot(7)
    assert default.budget == BUDGET and default.choose(g) == chosen and default.tried == whole.tried


def test_the_search_bots_greedy_ratings_share_one_budget():
    """MCTS rates its root's actions by the greedy look-ahead (and answers a leaf's pending
    decisions with it): all within the greedy helper's budget."""
    g = _explore_decision()
    n = len(list(g.legal_actions(actor(g))))
    evaluate, calls = _counting(g)
    bot = MCTSBot(3, iterations=1, evaluate=evaluate)
    bot._greedy.budget = 50
    bot.choose(g)
    assert calls[0] <= 2 * (2 * 50 + n) + 10   # the root's ratings, the free-action pick, one iteration


def test_a_nine_player_simultaneous_round_with_alliances_finishes():
    """Round 1 of a 9-player game with simultaneous play and alliances, greedy bots in every
    seat (a small budget, to keep the test short), each decision within its bound and the
    invariants checked after every action; the record replays exactly."""
    g = boardrules.new_game("eclipse", players=9, seed=5, options={"rounds": 1},
                            modules=["nine-players", "simultaneous", "alliances"])
    bots = seat_bots(("greedy",), 9, 5)
    for b in bots:
        b.budget = 60
    while not g.over:
        p = actor(g)
        n = len(list(g.legal_actions(p)))
        action = bots[p].choose(g, p)
        assert bots[p].tried <= 2 * 60 + n
        g.play(action, check=False)
        check_invariants(g)
    again = boardrules.load_game(g.save(), check=True)
    assert again.state == g.state


def test_a_decision_tries_at_most_twice_the_budget_or_its_actions():
    """The documented bound, ``max(2 * budget, legal actions)``, at every decision of a Gaia
    Project game with a small budget: the free actions looked past before a pass took one try
    each beyond the cap (19 tries for 8 actions and a budget of 5), and a decision with more
    actions than the budget spent a budget on a whole look-ahead that could not fit."""
    g = boardrules.new_game("gaia-project", players=4, seed=4)
    bots = [GreedyBot(f"4/{p}", budget=5) for p in range(4)]
    for _ in range(120):
        p = actor(g)
        n = len(list(g.legal_actions(p)))
        action = bots[p].choose(g, p)
        assert bots[p].tried <= max(2 * 5, n), (len(g.record.actions), bots[p].tried, n)
        g.play(action, check=False)
