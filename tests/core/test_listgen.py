"""The compiled listing of a turns step (lang/listgen.py) against its oracle, the generic listing.

At every state of random games of the three bundled games (random modules on), the step's
generated listing yields the candidates the generic code (``Game._turn_candidates`` with
``compiled=False``) yields, in the same order, and the legal actions are the full tries'. A
house rule defeats what the generated code could fix in advance: its hexes, a parameter's
domain and a ``where``'s lead read values the game changes, one action has two parameters and
another is refused by its prechecks.

A turn's legal actions made and settled in one call (``settling``: ``Game._turn_legal``, what
``list()`` and ``len`` of a view use) are, for everyone and for each player, those the view lists
iterated (each candidate tried by ``Game._candidate_legal``), with the same runs kept.
"""

from __future__ import annotations

import linecache
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import boardrules
from boardrules.lang import listgen
from boardrules.errors import ExecutionBudgetError
from boardrules.game.verdicts import ACCEPTED
from tests.combinations import draw_example, refusal
from tests.core.test_guards import compare_states, harvest

STATES = {"harvest": 300, "gaia-project": 80, "eclipse": 80}


def same_candidates(g) -> int:
    """Assert the compiled and the generic listing's candidates are equal at ``g``'s state; how
    many there are."""
    guards = g.ruleset.guards
    # (the prechecks' tallies may switch an action's prechecks off during a listing: the
    # second listing starts from the same tallies)
    prechecks, tally = dict(guards._prechecks), {k: list(v) for k, v in guards._tally.items()}
    compiled = list(g._candidates(None, True, compiled=True))
    guards._prechecks, guards._tally = prechecks, tally
    generic = list(g._candidates(None, True, compiled=False))
    assert compiled == generic, f"state {len(g.record.actions)} of {g!r}"
    return len(compiled)


def _fresh(g):
    """A copy of ``g`` with no memory of the states seen (its listings start afresh)."""
    c = g.copy()
    c._forget()
    return c


def _kept(c) -> dict:
    """The runs ``c`` keeps for its state: whether each was accepted without a run."""
    return {a: r is ACCEPTED for a, r in c._known_for(c.state).runs.items()}


def same_legal_actions(g) -> int:
    """Assert the settled listing and the iterated one agree at ``g``'s state, for everyone and
    for each player; how many times the settled listing answered."""
    answered = 0
    for player in (None, *range(g.players)):
        settled, iterated = _fresh(g), _fresh(g)
        got = settled._turn_legal(settled.state, player)
        if got is not None:
            answered += 1
            assert got == [a for a in iterated.legal_actions(player)], f"{g!r}, player {player}"
            assert _kept(settled) == _kept(iterated), f"{g!r}, player {player}"
    return answered


def play_comparing(g, steps: int, rng: random.Random) -> int:
    """Play ``steps`` random actions, comparing the two listings, and the settled one with the
    iterated view, at each state; the states where there were candidates of a turn."""
    seen = 0
    while not g.over and steps:
        seen += same_candidates(g) > 0 and g._turn_info() is not None
        same_legal_actions(g)
        g.play(rng.choice(list(g.legal_actions())), check=False)
        steps -= 1
    return seen


@pytest.mark.parametrize("game", sorted(STATES))
@settings(max_examples=3, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_compiled_listing_is_the_generic_one(game, data):
    example = draw_example(game, lambda n: data.draw(st.integers(0, n - 1)), short=True)
    if refusal(game, **{k: example[k] for k in ("players", "modules", "options")}) is not None:
        return
    g = boardrules.new_game(game, **example)
    assert play_comparing(g, STATES[game], random.Random(example["seed"])) > 0


HOUSE = """game house { players 2..3 }
resource coins { start 4 }
resource grain { start 3 }
resource vp { start 0; scored true }
var hexes: list[hex] = ["a1", "a2"]
var spare: list[hex] = ["b1", "b2", "b3"]
var owner: player? per hex = none
var bar: int = 3
action claim(h: hex where coins >= bar and owner[h] == none else "taken") main {
  pay 1 coins
  set owner[h] = me
}
action widen(x: hex in spare where not (x in hexes)) main { pay 1 coins; set hexes = hexes + [x] }
action trade(n: int in 1..grain, q: player where n <= coins and q != me) main {
  pay n grain
  gain n coins to q
}
action raise_bar main { set bar = bar + 1 }
action lower_bar main { require bar > 0 else "no lower"; set bar = bar - 1 }
action rest main { gain 2 coins; gain 1 grain }
action tip free { pay 1 coins; gain 1 vp }
action stop main { pass }
flow { rounds 8 { step play: turns seat until_pass {
  main claim, widen, trade, raise_bar, lower_bar, rest, stop
  free tip
} } }
"""


def test_a_house_rule_that_moves_what_the_listing_reads():
    """Hexes added during the game, a domain `1..grain` and a lead `n <= coins` that change,
    two parameters, a precheck that refuses: the compiled listing is the generic one and the
    legal actions the full tries' at every state; the listing's source is registered under the
    step's place."""
    hexes = set()
    for seed in range(6):
        g = boardrules.new_game(texts={"house.rules": HOUSE}, players=3, seed=seed)
        rng = random.Random(seed)
        while not g.over:
            same_candidates(g)
            hexes |= {a.args[0] for a in g.legal_actions() if a.name == "claim"}
            g.play(rng.choice(list(g.legal_actions())), check=False)
        g = boardrules.new_game(texts={"house.rules": HOUSE}, players=2, seed=seed)
        assert compare_states(g, 10_000, random.Random(seed)) > 10
    assert hexes > {"a1", "a2"}   # (widened hexes were claimed)
    rs = g.ruleset
    step = rs.stages[0].steps[0]
    src = "".join(linecache.getlines(rs.step_lister(step).__code__.co_filename))
    assert "house.rules:23:" in rs.step_lister(step).__code__.co_filename
    assert "# action 'trade' at 'house.rules:14:1'" in src


def test_a_file_name_cannot_write_the_listing_source():
    """A rules file's name is data: a line break in it stays inside the listing's comment
    (before, the text after it became a statement of the generated function)."""
    name = "house.rules\nraise SystemExit('from a file name')"
    g = boardrules.new_game(texts={name: HOUSE}, players=3, seed=1)
    assert len(g.legal_actions()) > 0
    step = g.ruleset.stages[0].steps[0]
    src = "".join(linecache.getlines(g.ruleset.step_lister(step).__code__.co_filename))
    assert "\nraise SystemExit" not in src.replace("\\n", "")


@pytest.mark.parametrize("method", ["emit", "settle"])
def test_a_wrong_compiled_listing_is_caught(monkeypatch, method):
    """The comparison fails when the generated listing drops candidates (here: build_farm's), and
    when the settled listing drops legal actions (``settle``: its own only)."""
    original = getattr(listgen._ListGen, method)

    def dropping(self, name, *rest, **kw):
        if name != "build_farm" or method == "settle" and not self.settling:
            return original(self, name, *rest, **kw)
        self.lines.append((rest[0] if method == "settle" else "    " * rest[1]) + "pass")
    monkeypatch.setattr(listgen._ListGen, method, dropping)
    g = harvest(seed=3)
    g.ruleset._listers.clear()   # (the cached ruleset's listings: made again, wrong)
    try:
        with pytest.raises(AssertionError):
            play_comparing(g, 10_000, random.Random(3))
    finally:
        g.ruleset._listers.clear()


@pytest.mark.parametrize("game, players", [("harvest", 3), ("gaia-project", 4), ("eclipse", 4)])
def test_the_settled_listing_answers_in_turns(game, players):
    g, rng, answered = boardrules.new_game(game, players=players, seed=2), random.Random(2), 0
    for _ in range(40):
        answered += same_legal_actions(g) > 0
        g.play(rng.choice(list(g.legal_actions())), check=False)
    assert answered > 5


def test_list_settles_a_sure_candidate_where_it_is_made(monkeypatch):
    """``list()`` of a turn's view tries only the candidates that are not sure with
    ``_candidate_legal`` (Harvest's pass_round and done), and ``len`` answers from it."""
    g, rng = harvest(seed=5), random.Random(5)
    while "build_farm" not in {a.name for a in g.legal_actions()}:
        g.play(rng.choice(list(g.legal_actions())), check=False)
    tried, legal = [], type(g)._candidate_legal
    monkeypatch.setattr(type(g), "_candidate_legal",
                        lambda self, a, *rest: tried.append(a.name) or legal(self, a, *rest))
    fresh = _fresh(g)
    listed = list(fresh.legal_actions())
    assert "build_farm" in {a.name for a in listed} and set(tried) <= {"pass_round", "done"}
    assert len(fresh.legal_actions()) == len(listed)


def test_a_sure_action_without_prechecks_is_tried(monkeypatch):
    """A sure action whose ``Guards.listed`` entry holds no prechecks (a caller's) is listed
    as without them: each candidate tried by ``_candidate_legal``, none settled as sure, the
    legal actions the iterated view's; and ``done`` settled by the flow's place (the settling
    listing's shortcut) is kept as ``_guard_way`` keeps it."""
    g, rng = harvest(seed=5), random.Random(5)
    monkeypatch.setitem(g.ruleset.guards.listed, "buy", (None, False))
    monkeypatch.setitem(g.ruleset.guards.listed, "sell", (None, False))
    tried, legal = [], type(g)._candidate_legal
    monkeypatch.setattr(type(g), "_candidate_legal",
                        lambda self, a, *rest: tried.append(a.name) or legal(self, a, *rest))
    for _ in range(60):
        if g.over:
            break
        same_legal_actions(g)
        g.play(rng.choice(list(g.legal_actions())), check=False)
    assert {"buy", "sell"} <= set(tried)


def test_a_place_settles_a_bare_guard_as_the_full_chain(monkeypatch):
    """Harvest's pass_round (a guard that runs no statement and reads no argument) is settled
    in the settling listing by the verdict its flow's place kept (``Game._placed_settles``)
    in most of its listings, and each one so settled is what ``_candidate_legal`` settles."""
    g, rng = harvest(seed=3), random.Random(3)
    asked, settled = [], 0
    placed = type(g)._placed_settles
    monkeypatch.setattr(type(g), "_placed_settles",
                        lambda self, a, info: asked.append(placed(self, a, info)) or asked[-1])
    while not g.over:
        info = g._turn_info()
        if info is not None and info[1][2] is not None and info[4] is not None:
            p = info[1][2]
            a = next((a for a in _fresh(g).legal_actions() if a.name == "pass_round"), None)
            c = _fresh(g)
            c._turn_legal(c.state, None)   # (the place's verdicts kept as a listing keeps them)
            fresh = _fresh(c)
            info = fresh._turn_info()
            if a is not None and placed(fresh, a, info):
                runs = {}
                assert _fresh(c)._candidate_legal(a, runs) and runs[a] is ACCEPTED, f"{g!r}, p{p + 1}"
                settled += 1
        g.play(rng.choice(list(g.legal_actions())), check=False)
    assert settled > 3 and sum(asked) > len(asked) / 2


def test_more_parameters_than_python_nests():
    """An action with 25 parameters (more nested loops than Python compiles) is listed the
    generic way: the listing's limit, not a SyntaxError."""
    params = ", ".join(f"x{i}: bool" for i in range(25))
    text = (f"game t {{ players 2..2 }}\nresource coins {{ start 3 }}\n"
            f"action many({params}) main {{ gain 1 coins }}\naction rest main {{ gain 1 coins }}\n"
            "flow { rounds 2 { step play: turns seat once { main rest, many } } }\n")
    g = boardrules.new_game(texts={"t.rules": text}, players=2, seed=1)
    assert g.ruleset.step_lister(g.ruleset.stages[0].steps[0]) is None
    with pytest.raises(ExecutionBudgetError, match="listing the arguments of 'many': more than"):
        list(g.legal_actions())


def test_house_rules_and_the_interpreter_get_listings_of_their_own(tmp_path):
    """A house rule that rewrites build_farm's condition (a field may be farmed again) and the
    interpreter's back end: each ruleset's listing is built from its own rules and expressions
    and is the generic one at every state."""
    house = tmp_path / "house.rules"
    house.write_text("override action build_farm(h: hex where coins >= 3 and field_owner[h] != me) main {\n"
                     "  pay 2 coins\n  set field_owner[h] = me\n}\n")
    plain = boardrules.new_game("harvest", players=3, seed=5)
    twice = boardrules.new_game("harvest", players=3, seed=5, rules=[str(house)])
    slow = boardrules.new_game("harvest", players=3, seed=5, backend="interpreted")
    assert len({id(g.ruleset) for g in (plain, twice, slow)}) == 3
    for g in (plain, twice, slow):
        assert play_comparing(g, 10_000, random.Random(5)) > 10
    farmed = [a.split()[-1] for a in twice.record.actions if "build_farm" in a]
    assert len(farmed) > len(set(farmed))   # (a field farmed again: the house rule's)


def test_a_traceback_names_the_step_and_shows_the_line(monkeypatch):
    """An error raised inside a step's listing (here: testing a candidate's prechecks) has a
    frame named after the step's place whose line, from linecache, is the generated source's."""
    import traceback

    def broken(ctx):
        raise LookupError("buy")
    g = harvest(seed=1)
    monkeypatch.setitem(g.ruleset.guards.listed, "buy", (broken, False))
    with pytest.raises(LookupError) as got:
        list(g.legal_actions())
    frames = [f for f in traceback.extract_tb(got.value.__traceback__) if f.filename.startswith("<listing")]
    assert frames and frames[-1].filename.endswith("harvest.rules:99:5 'pick'>")
    # (buy's prechecks are sure: their verdict is kept to tell a sure candidate)
    assert frames[-1].line == "verdict = check(pctx)"


SHOP = """game shop { players 2..3 }
resource coins { start 3 }
resource vp { start 0; scored true }
kind card {
  field cost: int = 1
  field tag: text = ""
  field gives: list[int] = [1]
}
card cheap { cost 1 }
card dear { cost 4; tag "rare"; gives 2, 3 }
card odd { cost 2; tag "odd" }
var sold: bool per card = false
action buy(c: card where not sold[c] and coins >= c.cost and c.tag != "odd" or c.gives[0] > 1) main {
  pay c.cost coins
  set sold[c] = true
  gain c.gives[0] vp
}
# (a parameter named as an entity: the name is the binding's, in the 'where' too)
action swap(dear: card where dear.cost <= coins and dear != cheap and not sold[dear]) main {
  pay 1 coins
  set sold[dear] = true
}
action work main { gain 2 coins }
flow { rounds 6 { step play: turns seat once { main buy, swap, work } } }
"""


def test_an_entity_parameter_gets_a_where_of_its_own():
    """A parameter of an entity kind is tested by its ``where`` compiled once per entity, the
    entity's fields written in as constants (``c.cost`` a number compared at once, no field
    read; a parameter named as an entity is the binding): the listing stays the generic one
    and the legal actions the full tries' at every state; the interpreter's back end keeps
    the one ``where``."""
    games = []
    for seed in range(4):
        g = boardrules.new_game(texts={"shop.rules": SHOP}, players=3, seed=seed)
        play_comparing(g, 10_000, random.Random(seed))
        games.append(g)
        g = boardrules.new_game(texts={"shop.rules": SHOP}, players=2, seed=seed)
        assert compare_states(g, 10_000, random.Random(seed)) > 5
    rs = g.ruleset
    wheres = rs.listing_wheres("buy", 0)[1]
    assert set(wheres) == {"cheap", "dear", "odd"}
    src = "".join(linecache.getlines(wheres["dear"].__code__.co_filename))
    assert "_field(" not in src and ">= 4 if" in src and "'rare' != 'odd'" in src
    slow = boardrules.new_game(texts={"shop.rules": SHOP}, players=2, seed=1, backend="interpreted")
    assert slow.ruleset.listing_wheres("buy", 0) is None
    swaps = {a.split()[-1] for g in games for a in g.record.actions if " swap " in a}
    assert swaps == {"dear", "odd"}   # (never 'cheap': 'dear != cheap' read the binding)


STOPS = """game stops { players 2..2 }
resource coins { start 2 }
resource grain { start 1 }
resource vp { start 0; scored true }
action sell(n: int in 1..5) main { require coins < 9 else "rich"; pay n grain; gain n coins }
action two(q: player, n: int in 0..4) main { pay 1 coins; pay n grain }
action odd(n: int in 1..5) main { require n != 2 else "not two"; pay n grain }
action more(n: int in 1..5) main { pay (n + 1) grain }
action listed(n: int in [3, 1, 2]) main { pay n grain }
action neg(n: int in -2..3) main { pay n grain; gain 1 vp }
action rest main { gain 1 grain; gain 1 coins }
action stop main { pass }
flow { rounds 4 { step play: turns seat until_pass { main sell, two, odd, more, listed, neg, rest, stop } } }
"""


def test_a_listing_stops_at_the_first_amount_refused(monkeypatch):
    """A last parameter of a range whose prechecks are ``require``s and ``pay``s not mentioning
    it, or a ``pay`` of exactly it: once a value is refused, every larger one is, and the
    listing tries no more of them (one try a state for ``sell`` with 1 grain: 1 passes, 2 is
    refused, not 3, 4, 5). Not for a ``require`` or an amount reading it, nor a list of
    values, nor a range from below 0 (a negative pay is refused, a larger one not). The candidates stay the generic listing's, the legal actions the full tries'."""
    g = boardrules.new_game(texts={"stops.rules": STOPS}, players=2, seed=1)
    guards = g.ruleset.guards
    assert [n for n in ("sell", "two", "odd", "more", "listed", "neg", "rest")
            if guards.stops(n)] == ["sell", "two"]
    assert guards.stops("sell") and harvest(seed=1).ruleset.guards.stops("sell")
    check, _ = guards.listing("sell")
    tried = []

    def counted(ctx):
        tried.append(ctx.env["n"])
        return check(ctx)
    monkeypatch.setitem(guards.listed, "sell", (counted, False))
    assert [a.args for a in g.legal_actions() if a.name == "sell"] == [(1,)]
    assert tried == [1, 2]
    assert [a.args for a in g.legal_actions() if a.name == "neg"] == [(0,), (1,)]
    for seed in range(4):
        g = boardrules.new_game(texts={"stops.rules": STOPS}, players=2, seed=seed)
        assert play_comparing(g, 200, random.Random(seed)) > 5
        g = boardrules.new_game(texts={"stops.rules": STOPS}, players=2, seed=seed)
        assert compare_states(g, 200, random.Random(seed)) > 5


def test_the_settled_listing_answers_a_decision_whose_answers_all_hold():
    """A decision whose answers are all legal untried (an Eclipse Upgrade's ~140: Game._all_answers)
    is answered in one call too, as iterating lists them: ``list()`` walks them once."""
    g, rng, answered = boardrules.new_game("eclipse", players=4, seed=2), random.Random(2), 0
    for _ in range(150):
        if g.state.pending and g._turn_info() is None:
            answered += same_legal_actions(g) > 0
        g.play(rng.choice(list(g.legal_actions())), check=False)
    assert answered >= 3
