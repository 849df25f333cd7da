"""Candidate pruning (lang/guards.py, lang/inert.py) and ``LegalActions.sample``.

The soundness property: in random games of every bundled game with random modules on, at
every state, the legal actions listed with guards are exactly (same actions, same order) those
found by trying every candidate in full (``Game._legal_by_trying``, the oracle), and playing
them gives the states the full tries give. Example tests hold the analysis' answers for the
rules of Harvest, and show that the property catches a wrong analysis.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardrules.limits import LIMITS
import boardrules
from boardrules import GameStuckError
from boardrules.lang import ast as A
from boardrules.lang import inert as I
from boardrules.lang.guards import Guards
from boardrules.lang.inert import Inert, type_name
from boardrules.lang.parser import parse_text
from tests.combinations import draw_example, refusal

HARVEST = Path(__file__).resolve().parents[2] / "plugins" / "boardrules_demo" / "rules" / "harvest.rules"
STATES = {"harvest": 400, "gaia-project": 120, "eclipse": 120}   # states checked per example


def compare_states(g, steps: int, rng: random.Random) -> int:
    """Play ``steps`` random actions, checking at each state the listed legal actions against
    the full tries and the played state against a full run; the states checked."""
    checked = 0
    while not g.over and checked < steps:
        listed = list(g.legal_actions())
        assert listed == g._legal_by_trying(), f"state {len(g.record.actions)} of {g!r}"
        action = rng.choice(listed)
        ctx, pending = g._run(action, check=False)   # the full run, no guard
        before = len(g.record.actions)
        g.play(action, check=False)
        if len(g.record.actions) == before + 1:   # (no chance outcome followed)
            assert g.state.values == ctx.merged() and g.state.pending == tuple(pending)
        checked += 1
    return checked


@pytest.mark.parametrize("game", sorted(STATES))
@settings(max_examples=3, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_guarded_listing_is_the_full_tries(game, data):
    example = draw_example(game, lambda n: data.draw(st.integers(0, n - 1)), short=True)
    if refusal(game, **{k: example[k] for k in ("players", "modules", "options")}) is not None:
        return
    g = boardrules.new_game(game, **example)
    assert compare_states(g, STATES[game], random.Random(example["seed"])) > 0
    g2 = boardrules.load_game(g.save())   # the record replays exactly, checks on
    assert g2.state == g.state


def harvest(**kw):
    return boardrules.new_game(texts={"harvest.rules": HARVEST.read_text()}, players=3, **kw)


def test_the_interpreter_prunes_alike():
    g, rng = harvest(seed=4, backend="interpreted"), random.Random(4)
    assert compare_states(g, 10_000, rng) > 50


def test_a_small_budget_leaves_the_rest_to_the_full_try():
    # harvest_now's inert rest may walk every hex (a bound of LIMITS.max_list steps): with less budget
    # than that its guard cannot accept it, and the full try decides
    g, rng = harvest(seed=6, max_steps=50_000), random.Random(6)
    assert compare_states(g, 10_000, rng) > 50
    assert g.ruleset.guards.inert.split(g.ruleset.actions["harvest_now"].body, {})[1] >= 50_000



@pytest.mark.parametrize("players,modules,seed", [
    (4, (), 5),
    (3, ("rare-technologies", "new-discoveries", "developments"), 7),
    (5, ("new-species", "alliances", "warp-portals"), 11),
])
def test_eclipse_later_states_list_as_the_full_tries(players, modules, seed):
    """Past the first rounds (where the short property games stop): upgrades with researched
    and discovery parts, research rows with discounts, trades, reactions after passing,
    diplomacy, with Rise of the Ancients modules on."""
    g = boardrules.new_game("eclipse", players=players, modules=list(modules), seed=seed)
    rng = random.Random(seed)
    while not g.over and g.get("round") in (None, 1, 2):
        g.play(rng.choice(list(g.legal_actions())), check=False)
    assert not g.over
    assert compare_states(g, 150, rng) == 150

def splits(rs) -> dict[str, int]:
    inert = rs.guards.inert
    return {n: inert.split(a.body, {p.name: type_name(p.type, rs.kinds) for p in a.params})[0]
            for n, a in rs.actions.items()}


def test_harvest_splits():
    """Where each Harvest action's inert rest begins (harvest.rules)."""
    assert splits(harvest().ruleset) == {
        "build_farm": 2,    # pay 2 coins, use farm | set, emit farm_built (reap: gain 1 vp), after turn
        "study": 2,         # pay 3 coins, advance farming (may be at the top): no inert rest
        "buy": 4,           # require, require, pay, take: all checks
        "sell": 1,          # pay n grain | gain (n * 2) coins
        "harvest_now": 1,   # require not harvested | set, gain (count ...), if ... gain/lose
        "pass_round": 0,    # set, set (append), for ... run on_pass, pass: the turn ends (PASSES)
        "score_grain": 3,   # gain ... to p: a player argument may be none
    }


def test_what_is_not_inert():
    rs = harvest().ruleset
    inert = Inert(rs, {})
    def body(text: str):
        return parse_text(f"action x main {{ {text} }}\n", "x.rules").items[0].body

    assert inert.stmts(body("gain 1 coins").stmts, {}) == 0
    assert inert.stmts(body("gain (coins // 2) coins").stmts, {}) == 0   # (by a number written, not zero)
    for text in ("pay 1 coins", "require coins > 1 else \"poor\"", "gain (coins // grain) coins",
                 "gain (coins % 0) coins", "take sow",
                 "gain 1 coins to first_passer", "advance farming",
                 "gain len(order) coins per deck[0]", "let x = nosuchname", "pass; pass",
                 "for p in players { pass }", "if coins > 1 { pass } else { pass }",
                 "if owner(sow) == none { pay 1 coins; take sow }"):
        assert inert.stmts(body(text).stmts, {}) is None, text


def test_a_wrong_analysis_is_caught(monkeypatch):
    """The property fails when the analysis calls a check inert (here: every statement). The
    prechecks are off: they refuse buy's cards held by others before the guard would accept
    them."""
    monkeypatch.setattr(I.Inert, "stmt", lambda self, s, scope: 0)
    g, rng = harvest(seed=2), random.Random(2)
    rs = g.ruleset   # (cached, its guards built: new ones, from the wrong analysis)
    guards = Guards(rs, rs.backend, Inert(rs, {}))
    monkeypatch.setattr(guards, "precheck", lambda name: None)
    monkeypatch.setattr(guards, "hoisted", lambda name: None)
    monkeypatch.setattr(rs, "guards", guards)
    with pytest.raises(AssertionError):
        compare_states(g, 10_000, rng)


def test_a_wrong_precheck_is_caught(monkeypatch):
    """The property fails when prechecks refuse what the full try allows."""
    g, rng = harvest(seed=2), random.Random(2)
    rs = g.ruleset
    guards = Guards(rs, rs.backend, Inert(rs, {}))
    monkeypatch.setattr(guards, "precheck", lambda name: (lambda ctx: False))
    monkeypatch.setattr(rs, "guards", guards)
    with pytest.raises((AssertionError, GameStuckError)):   # (the listing is empty: stuck)
        compare_states(g, 10_000, rng)


# ---- sample ------------------------------------------------------------------------------------

def chi_square(counts: list[int]) -> float:
    n, k = sum(counts), len(counts)
    return sum((c - n / k) ** 2 / (n / k) for c in counts)


# the 99.9% points of chi-square for 1..12 degrees of freedom
CRITICAL = [10.83, 13.82, 16.27, 18.47, 20.52, 22.46, 24.32, 26.12, 27.88, 29.59, 31.26, 32.91]


def sampled_counts(g, draws: int, rng: random.Random, sample=None) -> dict:
    counts: dict = {}
    for _ in range(draws):
        g._known.clear()   # each draw as on a fresh visit of the state
        a = (sample or (lambda la: la.sample(rng)))(g.legal_actions())
        counts[a] = counts.get(a, 0) + 1
    return counts


def mid_game(seed: int, plies: int):
    g, rng = harvest(seed=seed), random.Random(seed)
    for _ in range(plies):
        g.play(rng.choice(list(g.legal_actions())), check=False)
    return g


@pytest.mark.parametrize("seed,plies", [(3, 15), (5, 12), (8, 50)])
def test_sample_is_uniform_over_the_legal_actions(seed, plies):
    g = mid_game(seed, plies)
    legal = list(dict.fromkeys(g.legal_actions()))
    assert 2 <= len(legal) <= 13
    counts = sampled_counts(g, 400 * len(legal), random.Random(seed))
    assert set(counts) == set(legal)   # only legal actions, every one of them
    assert chi_square([counts[a] for a in legal]) < CRITICAL[len(legal) - 2]


def test_the_uniformity_test_sees_a_bias():
    """A sampler that prefers the first legal action fails the same test."""
    g = mid_game(5, 12)
    legal = list(dict.fromkeys(g.legal_actions()))
    rng = random.Random(1)
    biased = sampled_counts(g, 400 * len(legal), rng,
                            lambda la: la[0] if rng.random() < 0.3 else la.sample(rng))
    assert chi_square([biased.get(a, 0) for a in legal]) > CRITICAL[len(legal) - 2]


def test_sample_after_listing_and_when_nothing_is_legal():
    g = mid_game(5, 20)
    view = g.legal_actions()
    assert view.sample(random.Random(0)) in list(view)   # (drawn from the listing now)
    g2 = mid_game(5, 0)
    while not g2.over:
        g2.play(g2.legal_actions().sample(random.Random(len(g2.record.actions))), check=False)
    with pytest.raises(IndexError):
        g2.legal_actions().sample(random.Random(0))


def test_harvest_hoisted_prechecks():
    """The prechecks that do not depend on the arguments, tested once per action before its
    arguments are listed: build_farm's `pay 2 coins` (not its parameter's), none of buy's."""
    guards = harvest().ruleset.guards
    assert guards.hoisted("build_farm") is not None
    assert guards.hoisted("study") is not None       # (no arguments: its prechecks)
    assert guards.hoisted("buy") is None             # both requires name c
    assert guards.hoisted("sell") is None            # pay n grain
    assert guards.where_lead("build_farm", 0) is None   # field_owner[h] == none names h


def test_where_leads_of_gaia():
    """A `where` whose leading conjuncts do not name the parameter is tested once per listing:
    booster_mine's (all of it: the booster held), build_mine's `built[mine] < mine.count`."""
    rs = boardrules.new_game("gaia-project", players=2, seed=1).ruleset
    assert rs.guards.where_lead("booster_mine", 0) is not None
    assert rs.guards.where_lead("build_mine", 0) is not None
    assert rs.guards.where_lead("gaia_project", 0) is None   # planet[h] == "m"


def test_a_wrong_hoisted_precheck_is_caught(monkeypatch):
    """The property fails when a hoisted precheck refuses an action that has legal candidates."""
    g, rng = harvest(seed=2), random.Random(2)
    rs = g.ruleset
    guards = Guards(rs, rs.backend, Inert(rs, {}))
    monkeypatch.setattr(guards, "hoisted", lambda name: (lambda ctx: name != "build_farm"))
    monkeypatch.setattr(rs, "guards", guards)
    with pytest.raises(AssertionError):
        compare_states(g, 10_000, rng)


def test_a_wrong_where_lead_is_caught(monkeypatch):
    """The property fails when a where's lead wrongly says no value passes (the oracle lists
    every value its domain and condition allow, without leads)."""
    g, rng = harvest(seed=2), random.Random(2)
    rs = g.ruleset
    guards = Guards(rs, rs.backend, Inert(rs, {}))
    monkeypatch.setattr(guards, "where_lead", lambda name, i: (lambda ctx: False))
    monkeypatch.setattr(rs, "guards", guards)
    with pytest.raises(AssertionError):
        compare_states(g, 10_000, rng)


def test_prechecks_follow_sets_calls_and_slots():
    """A body's prechecks go on through `set`s (run on the scratch context) into the first
    procedure it calls or slot it runs, with the arguments, `self` and player these give:
    Gaia's power actions (`set action_used[a] = true`, `call spend(a.pw)` → `run
    myfaction.spend_power` → its `pay`) and conversions (`run c.effect` → its `pay`)."""
    rs = boardrules.new_game("gaia-project", players=2, seed=1).ruleset

    def kinds(name):
        return [k for k, *_ in rs.guards._precheck_steps(name)]
    assert kinds("power_mine") == ["require", "set", "call"]
    assert kinds("convert") == ["require", "require", "run"]
    assert rs.guards.hoisted("power_mine") is None    # every step names a
    assert rs.guards.hoisted("gaia_project") is None   # call gaia_project_at(h, 0): h is passed on


SLOTS = """game t { players 2..2 }
resource coins { start 1 }
kind deal { slot cost }
deal cheap { cost { pay 1 coins } }
deal dear { cost { pay 3 coins } }
deal loop { cost { run loop.cost } }
var seen: int = 0
action buy(d: deal) main { set seen = 1; call settle(d) }
action settle(d: deal) procedure { run d.cost }
action rest main { gain 1 coins }
flow { rounds 2 { step play: turns seat once { main buy, rest } } }
"""


def test_slot_prechecks_refuse_and_end():
    """The prechecks of a slot refuse what its body refuses (dear: 3 coins), and a slot that
    runs itself first ends them (the full try then meets the depth limit): the listing is the
    full tries' at every state."""
    g = boardrules.new_game(texts={"t.rules": SLOTS}, players=2, seed=1)
    assert sorted(str(a) for a in g.legal_actions()) == ["p1 buy cheap", "p1 rest"]
    assert compare_states(g, 100, random.Random(1)) > 2
    refused = g.ruleset.guards._tally["buy"]
    assert refused[1] > 0


# ---- the forms the inert analysis follows (lang/inert.py), each with a game where they matter ----

EFFECTS = """game t { players 2..2 }
resource coins { start 3 }
resource grain { start 1 }
component cart { supply 1 }
kind good { field price: int = 0 }
good salt { price 2 }
good silk { price 3 }
var cheap: int = 1
action buy(g: good) main { let n = g.price - 1; pay 1 coins; pay n coins; take g }
action hire main { use cart; use cart }
action haul(g: good) main { pay 1 coins; pay cheap grain; take g }
action grab(g: good) main { take g; take g; pay 1 grain }
action rest main { gain 1 coins }
flow { rounds 3 { step play: turns seat once { main buy, hire, haul, grab, rest } } }
"""


def test_prechecks_go_on_through_payments_and_takes():
    """After a body's first `pay`, `use` or `take`, its prechecks go on through the `pay`s,
    `use`s and `take`s that follow whose amounts and entities no statement changes (tested on
    the state before the first: each only makes the later ones harder): Harvest's buy refuses
    a card another player holds without being tried; `pay cheap grain` (a variable) ends them.
    The listing is the full tries' at every state."""
    guards = harvest().ruleset.guards
    assert [k for k, *_ in guards._precheck_steps("buy")] == ["require", "require", "pay", "take"]
    g = boardrules.new_game(texts={"t.rules": EFFECTS}, players=2, seed=1)
    kinds = {n: [k for k, *_ in g.ruleset.guards._precheck_steps(n)] for n in ("buy", "hire", "haul", "grab")}
    assert kinds == {"buy": ["let", "pay", "pay", "take"], "hire": ["use", "use"],
                     "haul": ["pay"], "grab": ["take", "take", "pay"]}
    assert sorted(str(a) for a in g.legal_actions()) == [
        "p1 buy salt", "p1 buy silk", "p1 grab salt", "p1 grab silk", "p1 haul salt", "p1 haul silk",
        "p1 rest"]   # (hire: one cart for two uses; buy silk: 1 + 2 coins of 3)
    for seed in range(4):
        g = boardrules.new_game(texts={"t.rules": EFFECTS}, players=2, seed=seed)
        assert compare_states(g, 100, random.Random(seed)) > 2


SURE = """game t { players 2..2 }
resource coins { start 3 }
resource vp { start 0; scored true }
component cart { supply 1 }
kind good { field price: int = 0 }
good salt { price 1 }
good silk { price 2 }
var stock: list[good] = [salt, silk, salt, silk, salt, silk, salt, silk]
action double free { pay 2 coins; pay 2 coins }
action hire free { use cart; use cart }
action owe(n: int in -1..1) free { pay n coins; gain 1 vp }
action grab(g: good) free { require g in stock else "gone"; take g; gain g.price vp }
action late free { pay 1 coins; require coins >= 2 else "broke" }
action rest main { gain 1 coins }
flow { rounds 3 { step play: turns seat once { main rest
  free double, hire, owe, grab, late } } }
"""


def sure_game(seed: int, **kw):
    return boardrules.new_game(texts={"t.rules": SURE}, players=2, seed=seed, **kw)


def test_sure_prechecks_settle_their_candidates(monkeypatch):
    """Prechecks that test what their statements refuse, exactly, and are the whole body but
    an inert rest (``Guards.sure``: Harvest's buy, sell, build_farm, harvest_now and study) settle a
    candidate as its guard would, without running the guard or the body: not when a `pay` or
    `use` follows one of the same resource or component (each is tested on the state before
    the first), nor when a `require` follows them (`late`). Amounts and entities the body
    refuses (`owe -1`: a negative payment) and budgets too small for the body leave the
    candidate to the full try. The listing is the full tries' at every state."""
    from boardrules.game import ACCEPTED, Game
    rs = harvest().ruleset
    assert {n for n in rs.actions if rs.guards.sure(n)} == {"buy", "sell", "build_farm", "harvest_now",
                                                             "study"}
    g = sure_game(1)
    assert {n for n in g.ruleset.actions if g.ruleset.guards.sure(n)} == {"owe", "grab"}
    g = _main_state_with("sell", 2)
    runs: list[str] = []
    for name in ("_guard_verdict", "_candidate_run"):
        method = getattr(Game, name)
        monkeypatch.setattr(Game, name, lambda self, a, *args, method=method, **kw:
                            runs.append(a.name) or method(self, a, *args, **kw))
    sells = [a for a in g.legal_actions() if a.name == "sell"]
    assert len(sells) >= 2 and "sell" not in runs
    assert all(g._known_for(g.state).runs[a] is ACCEPTED for a in sells)
    monkeypatch.undo()
    for budget in (6, 7, 8, 9, 10, 1_000_000):   # (grab's `require` costs 8 steps, its unit 1)
        for seed in range(4):
            assert compare_states(sure_game(seed, max_steps=budget), 60, random.Random(seed)) > 10


def test_a_wrong_sure_precheck_is_caught(monkeypatch):
    """The property fails when prechecks are taken as sure that are not (double's second
    `pay` is tested on the coins before the first)."""
    g = sure_game(0)
    rs = g.ruleset
    guards = Guards(rs, rs.backend, Inert(rs, {}))
    monkeypatch.setattr(guards, "sure", lambda name: (lambda ctx: True) if name == "double" else None)
    monkeypatch.setattr(rs, "guards", guards)
    with pytest.raises(AssertionError):
        for seed in range(4):
            compare_states(sure_game(seed), 60, random.Random(seed))


ADVANCE = """game t { players 2..2 }
resource coins { start 6 }
resource vp { start 0; scored true }
track skill {
  levels 0..2
  at 1 { gain 1 vp }
  at 2 { gain 2 coins }
}
track risky {
  levels 0..2
  at 2 { pay 5 coins }
}
action train free { pay 2 coins; advance skill }
action leap free { advance skill by 2 }
action gamble free { pay 2 coins; advance risky }
action rest main { gain 1 coins }
flow { rounds 4 { step play: turns seat once { main rest
  free train, leap, gamble } } }
"""


def test_sure_prechecks_test_an_advance():
    """An ``advance`` is a precheck (refused past the track's top) and, as a body's last
    statement whose level rewards are inert, sure (Harvest's study: `pay 3 coins; advance
    farming`); not when a reward may break a rule (risky's `pay`) or a rule reacts to
    ``advanced``. The listing is the full tries' at every state, also on small budgets."""
    g = boardrules.new_game(texts={"t.rules": ADVANCE}, players=2, seed=1)
    guards = g.ruleset.guards
    assert [k for k, *_ in guards._precheck_steps("train")] == ["pay", "advance"]
    assert {n for n in g.ruleset.actions if guards.sure(n)} == {"train", "leap"}
    for budget in (1, 2, 3, 4, 1_000_000):
        for seed in range(4):
            g = boardrules.new_game(texts={"t.rules": ADVANCE}, players=2, seed=seed, max_steps=budget)
            assert compare_states(g, 60, random.Random(seed)) > 10
    reacting = ADVANCE + "when advanced(p, track, level) { gain 1 vp to p }\n"
    g = boardrules.new_game(texts={"t.rules": reacting}, players=2, seed=1)
    assert not any(g.ruleset.guards.sure(n) for n in ("train", "leap"))
    assert compare_states(g, 60, random.Random(1)) > 10


FORMS = """game forms { players 2..2 }
resource coins { start 6 }
resource vp { start 0; scored true }
kind deal { field worth: int = 0; slot effect }
deal plain { worth 1; effect { gain 1 vp } }
deal strict { worth 2; effect { gain 2 vp; require vp > 100 else "for the rich only" } }
var fav: deal? per player = none
var picks: list[int] = []
var tally: int = 0
action pick(d: deal) main { pay 1 coins; set fav = d }
action play_fav main { pay 1 coins; run fav.effect }
action worth main { pay 1 coins; gain fav.worth vp }
action first main { pay 1 coins; gain picks[0] vp }
action second main { pay 1 coins; if len(picks) > 1 { gain picks[1] vp } }
action push main { pay 1 coins; set picks = [1, 2] }
action append main { pay 1 coins; set picks = picks + [3] }
var heap: list[int] = [1]
action explode main { pay 1 coins; for x in [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17] { set heap = heap + heap } }
action deep(n: int in 0..2) main { pay 1 coins; call settle(n) }
action settle(n: int in 0..2) procedure {
  set tally = n
  if n == 2 { pay 4 coins }
  gain 1 vp
  call score(n)
}
action score(n: int in 0..2) procedure { require n != 1 else "no ones"; gain n vp }
action ask main { pay 1 coins
  choose k in [1, 5, 9] "how many" { pay k coins
    gain k vp } }
action drop(x: int in 0..1) main { if x == 1 { set fav = none }
  gain fav.worth vp }
action rest main { gain 2 coins }
action tip free { gain 1 coins }
flow { rounds 6 { step play: turns seat once {
  main pick, play_fav, worth, first, second, push, append, explode, deep, drop, ask, rest
  free tip
} } }
"""


def forms(**kw):
    return boardrules.new_game(texts={"forms.rules": FORMS}, players=2, **kw)


def inert_of(rs, text: str, scope: dict | None = None):
    """The inert analysis' bound for the statements ``text`` (None: they may break a rule)."""
    inert = Inert(rs, {})
    body = parse_text(f"action x main {{ {text} }}\n", "x.rules").items[0].body
    return inert.stmts(body.stmts, dict(scope or {}))


def test_forms_list_as_the_full_tries():
    """With every form in use (a slot run, an optional variable's field, a list index, a rest
    beginning inside a called procedure, behind an `if`), the guarded listing is the full
    tries' at every state, and the guards accept candidates of each of those actions."""
    for seed in range(6):
        g = forms(seed=seed)
        assert compare_states(g, 10_000, random.Random(seed)) > 10
    guards = g.ruleset.guards
    assert all(guards.action(n) is not None for n in ("pick", "worth", "second", "append", "deep"))
    assert guards.action("explode") is None   # (heap doubles 17 times: beyond LIMITS.max_list)
    assert guards.action("first") is None   # (picks may be empty)


def test_a_slot_run_is_inert_when_every_body_is():
    rs = forms().ruleset
    assert inert_of(rs, "run d.effect", {"d": "entity:deal"}) is None   # strict's require
    assert inert_of(rs, "run fav.effect") is None
    rs2 = boardrules.new_game(texts={"forms.rules": FORMS.replace(
        '; require vp > 100 else "for the rich only"', "")}, players=2).ruleset
    assert inert_of(rs2, "run d.effect", {"d": "entity:deal"}) is not None
    assert inert_of(rs2, "run d.effect", {"d": "entity:deal?"}) is None   # may be none
    assert inert_of(rs2, "run d.effect for p", {"d": "entity:deal", "p": "player?"}) is None


def test_optional_values_are_read_where_proven_present():
    rs = forms().ruleset
    scope = {"d": "entity:deal?"}
    assert inert_of(rs, "gain d.worth vp", scope) is None
    assert inert_of(rs, "if d != none { gain d.worth vp }", scope) is not None
    assert inert_of(rs, "if d == none { gain d.worth vp }", scope) is None
    assert inert_of(rs, "if d == none { gain 1 vp } else { gain d.worth vp }", scope) is not None
    assert inert_of(rs, "if d != none and d.worth > 1 { gain 1 vp }", scope) is not None
    assert inert_of(rs, "if d != none or d.worth > 1 { gain 1 vp }", scope) is None
    assert inert_of(rs, "if d == none or d.worth > 1 { gain 1 vp }", scope) is not None
    assert inert_of(rs, "gain round vp") is None   # none before the rounds
    assert inert_of(rs, "if round != none { gain round vp }") is not None


def test_an_optional_variable_is_relied_on_only_when_the_rest_leaves_it_alone():
    rs = forms().ruleset
    inert = Inert(rs, {})
    body = parse_text("action x main { gain fav.worth vp }\n", "x.rules").items[0].body
    k, _, facts, _ = inert.split_facts(body.stmts, {})
    assert k == 0 and facts.needs == {"fav"}
    body = parse_text("action x main { gain fav.worth vp\n set fav = none }\n", "x.rules").items[0].body
    assert inert.split_facts(body.stmts, {})[0] == 1   # (a rest that sets fav does not rely on it)
    body = parse_text("action x main { set fav = none\n gain fav.worth vp }\n", "x.rules").items[0].body
    assert inert.split_facts(body.stmts, {})[0] == 1   # (the guard runs the set, then checks fav)


def test_list_indexes_need_a_proof_of_range():
    rs = forms().ruleset
    n = {"n": "int"}
    assert inert_of(rs, "gain picks[0] vp") is None
    assert inert_of(rs, "if len(picks) > 0 { gain picks[0] vp }") is not None
    assert inert_of(rs, "if len(picks) >= 0 { gain picks[0] vp }") is None
    assert inert_of(rs, "if len(picks) > 1 { gain picks[1] vp }") is not None
    assert inert_of(rs, "if len(picks) > 1 { gain picks[2] vp }") is None
    assert inert_of(rs, "if n >= 1 and len(picks) >= n { gain picks[n - 1] vp }", n) is not None
    assert inert_of(rs, "if len(picks) >= n { gain picks[n - 1] vp }", n) is None   # n may be 0
    assert inert_of(rs, "if n < len(picks) { gain picks[n] vp }", n) is None        # n may be < 0
    # a fact holds until a statement writes what it reads
    assert inert_of(rs, "if len(picks) > 0 { set picks = []\n gain picks[0] vp }") is None
    assert inert_of(rs, "if len(picks) > 0 { set tally = 1\n gain picks[0] vp }") is not None



# a resource that may go below zero (its floor), and actions whose rests pay what was read
PAYS = """game pays { players 2..2 }
resource coins { start 6 }
resource debt { start 0; floor -3 }
resource vp { start 0; scored true }
action spend free { pay 1 coins; let n = coins; pay n coins; gain n vp }
action borrow free { pay 1 coins; lose 1 debt }
action repay free { pay 1 coins; gain 2 debt }
action settle free { pay 1 coins; let n = debt; pay n debt; gain 1 vp }
action over free { pay 1 coins; let n = coins + 1; pay n coins }
action earn main { gain 2 coins }
flow { rounds 6 { step play: turns seat once { main earn\n free spend, borrow, repay, settle, over } } }
"""


@pytest.mark.parametrize("text,inert", [
    ("let n = coins\n pay n coins", True),                  # (all that is held: 0 or more)
    ("pay coins coins", True),
    ("if coins >= 3 { pay 3 coins }", True),
    ("if coins >= 3 { pay 4 coins }", False),
    ("if coins >= 3 { let n = 2\n pay n coins }", False),    # (facts are not chained)
    ("let n = coins + 1\n pay n coins", False),
    ("let n = coins - 1\n pay n coins", False),             # (may be -1: a negative amount)
    ("let n = vp\n pay n coins", False),
    ("let n = coins\n pay n coins\n pay n coins", False),   # (the first pay writes coins)
    ("let n = coins\n gain 1 coins\n pay n coins", False),  # (a write drops the fact)
    ("let n = coins\n let n = vp\n pay n coins", False),    # (rebound)
    ("let n = coins\n pay n coins, n vp", False),
    ("let n = coins\n pay n coins per 1", False),
    ("let n = debt\n pay n debt", False),                   # (below zero: a negative amount)
    ("if debt >= 0 { pay debt debt }", True),
    ("if debt >= 1 { pay debt debt }", True),
    ("pay debt debt", False),
])
def test_a_payment_needs_a_proof_that_it_is_covered(text, inert):
    """`pay N R` cannot break a rule where the facts on the way prove 0 <= N <= R - floor:
    `let n = R` states n == R (gaia_phase's `let n = gaia_power; pay n gaia_power`)."""
    rs = boardrules.new_game(texts={"pays.rules": PAYS}, players=2).ruleset
    assert (inert_of(rs, text) is not None) is inert


def test_payments_of_what_was_read_list_as_the_full_tries():
    """spend's rest pays all the coins read (inert); settle's pays a debt that may be below
    zero (a broken rule: tried in full); over's pays one more than held (never legal). Free
    actions, so that their guards are used."""
    for seed in range(4):
        g = boardrules.new_game(texts={"pays.rules": PAYS}, players=2, seed=seed)
        assert compare_states(g, 10_000, random.Random(seed)) > 4
    rs = g.ruleset
    assert rs.guards.inert.split(rs.actions["spend"].body, {})[0] == 1
    assert rs.guards.inert.split(rs.actions["settle"].body, {})[0] == 3
    assert rs.guards.inert.split(rs.actions["over"].body, {})[0] == 3


# a queue taken from its front: pop's rest is inert (first behind a test of the length), peek's
# is not (first of an empty queue is none: 'gain none vp' breaks a rule); free actions, so that
# their guards are used (a main action ending the turn is run in full)
QUEUE = """game queue { players 2..2 }
resource coins { start 9 }
resource vp { start 0; scored true }
var queue: list[int] = []
var other: list[int] = []
action push main { set queue = queue + [len(queue) + 1] }
action pop main { pay 1 coins; if len(queue) > 0 { let x = first(queue); set queue = without(queue, x); gain x vp } }
action peek main { pay 1 coins; gain first(queue) vp }
action lengthen main { set other = other + [1] }
action reach main { pay 1 coins; if len(queue) <= len(other) and len(queue) >= 1 {
  set queue = queue + [1]
  gain other[len(queue) - 1] vp } }
flow { rounds 8 { step play: turns seat once { main push, lengthen
 free pop, peek, reach } } }
"""


@pytest.mark.parametrize("text,inert", [
    ("if len(queue) > 0 { gain first(queue) vp }", True),
    ("if len(queue) >= 1 { let x = first(queue)\n gain x vp }", True),
    ("gain first(queue) vp", False),                          # (none when empty)
    ("if len(queue) >= 0 { gain first(queue) vp }", False),
    ("if len(queue) > 0 { set queue = []\n gain first(queue) vp }", False),
    ("set queue = without(queue, 1)", True),
    ("for x in without(queue, 2) { gain x vp }", True),
    ("gain len(without(queue, nosuch)) vp", False),
    # a shrink or an append of a list drops what was known of its length
    ("if len(queue) > 0 { let x = first(queue)\n set queue = without(queue, x)\n gain first(queue) vp }", False),
    ("if len(queue) <= len(other) and len(queue) >= 1 { gain other[len(queue) - 1] vp }", True),
    ("if len(queue) <= len(other) and len(queue) >= 1 {"
     " set queue = queue + [1]\n gain other[len(queue) - 1] vp }", False),
])
def test_first_needs_a_proof_of_length(text, inert):
    """`first(L)` is none when L is empty: of L's element type where `len(L) >= 1` is proven,
    until L is written, shrunk or grown (an append used to keep `len(queue) <= len(other)`)."""
    rs = boardrules.new_game(texts={"queue.rules": QUEUE}, players=2).ruleset
    assert (inert_of(rs, text) is not None) is inert


def test_a_queue_taken_from_its_front_lists_as_the_full_tries():
    """(reach, its index out of range when the queue is as long as other, listed legal before
    an append dropped the facts of the list's length.)"""
    for seed in range(4):
        g = boardrules.new_game(texts={"queue.rules": QUEUE}, players=2, seed=seed)
        assert compare_states(g, 10_000, random.Random(seed)) > 4
    inert = g.ruleset.guards.inert
    assert inert.split(g.ruleset.actions["pop"].body, {})[0] == 1
    assert inert.split(g.ruleset.actions["peek"].body, {})[0] == 2


def test_lists_grow_by_bounded_appends():
    """`set V = V + L` appends: V, checked short where the rest begins, may grow by GROW
    elements in all (loops counted) and stay bounded; any other write to V, or more growth,
    and the rest relies on nothing."""
    rs = forms().ruleset
    inert = Inert(rs, {})

    def rest(text: str) -> int:
        body = parse_text(f"action x main {{ {text} }}\n", "x.rules").items[0].body
        k, _, facts, _ = inert.split_facts(body.stmts, {"n": "int"})
        return k
    assert rest("gain 1 vp\n set picks = picks + [1]") == 0
    assert rest("gain len(picks) vp\n set picks = picks + [1, 2]\n gain len(picks) vp") == 0
    assert rest("set picks = picks + picks") == 1            # (grows by as much as it holds)
    assert rest("for x in picks { set picks = picks + [x] }") == 1   # (once per element)
    assert rest("for x in [1, 2] { set picks = picks + [x] }") == 0
    assert rest("gain len(picks) vp\n set picks = [1] + picks") == 2   # (not an append: a write)
    assert rest("set picks = heap + [1]") == 0               # (a write of picks, not read)
    assert inert_of(rs, "set picks = picks + [1]") is not None


def test_the_rest_may_begin_inside_a_called_procedure():
    """deep's checks end inside settle (its `pay 4 coins` behind an `if`) and score (its
    require): the guard enters both calls, and nothing of deep's own body is its rest."""
    rs = forms().ruleset
    assert rs.guards.inert.split(rs.actions["deep"].body, {"n": "int"})[0] == 2   # (no tail of its own)
    assert rs.guards.action("deep") is not None


def _caught(monkeypatch, name, wrong, target=I.Inert):
    """A wrong analysis (``wrong`` patched onto Inert, or ``target``, as ``name``) makes the
    property fail."""
    monkeypatch.setattr(target, name, wrong)
    g = forms(seed=1)
    rs = g.ruleset
    monkeypatch.setattr(rs, "guards", Guards(rs, rs.backend, Inert(rs, {})))
    with pytest.raises(AssertionError):
        for seed in range(6):
            compare_states(forms(seed=seed), 10_000, random.Random(seed))


def test_a_wrong_slot_analysis_is_caught(monkeypatch):
    _caught(monkeypatch, "_slot", lambda self, kind, slot, only=None: 0)   # strict's require called inert


def test_a_wrong_presence_analysis_is_caught(monkeypatch):
    real = I.Inert.entity

    def unchecked(self, e, scope):   # an optional variable read as present, not relied on
        found = real(self, e, scope)
        self._acc.needs.clear()
        return found
    _caught(monkeypatch, "entity", unchecked)


def test_a_wrong_range_analysis_is_caught(monkeypatch):
    _caught(monkeypatch, "_in_range", lambda self, lst, i, scope: True)


def test_a_wrong_analysis_of_a_called_procedure_is_caught(monkeypatch):
    real = I.Inert.split_facts

    def all_inert(self, stmts, scope):   # a procedure's checks called inert
        k, cost, facts, scopes = real(self, stmts, scope)
        return (0 if stmts and isinstance(stmts[0], A.Set) else k), cost, facts, scopes
    _caught(monkeypatch, "split_facts", all_inert)


def test_a_wrong_growth_analysis_is_caught(monkeypatch):
    """explode's appends called free of growth: its heap is taken to stay short."""
    _caught(monkeypatch, "_appended", lambda t, value, found: 0 if isinstance(value, A.BinOp) else None,
            target=I)


def test_what_the_guard_relies_on_is_checked_after_its_checks_ran(monkeypatch):
    """drop's rest reads fav as present (checked for every player where the rest begins); its
    checks may set fav to none: the answer kept for the state's values (drop 0, both favs
    present) must not serve drop 1, whose checks wrote fav."""
    g = forms(seed=1)
    rs = g.ruleset
    monkeypatch.setattr(rs, "guards", Guards(rs, rs.backend, Inert(rs, {})))   # (fresh tallies)
    for text in ("p1 pick plain", "p1 done", "p2 pick strict", "p2 done"):
        g.play(text)
    listed = [str(a) for a in g.legal_actions()]
    assert "p1 drop 0" in listed and "p1 drop 1" not in listed
    assert listed == [str(a) for a in g._legal_by_trying()]
    assert rs.guards._settled["drop"] == [2, 1]   # (drop 0 settled by its guard)


def test_a_facts_answer_kept_past_a_write_is_caught(monkeypatch):
    """The listing differs from the full tries when the kept answer ignores the checks' writes."""
    from boardrules.lang import guards as G

    def careless(needs, lists):
        last = [None, False]

        def check(ctx):
            if last[0] is not ctx.base:
                last[:] = [ctx.base, G.facts_hold(ctx, needs, lists)]
            return last[1]
        return check
    monkeypatch.setattr(G, "facts_check", careless)
    g = forms(seed=1)
    rs = g.ruleset
    monkeypatch.setattr(rs, "guards", Guards(rs, rs.backend, Inert(rs, {})))
    for text in ("p1 pick plain", "p1 done", "p2 pick strict", "p2 done"):
        g.play(text)
    assert "p1 drop 1" in [str(a) for a in g.legal_actions()]
    with pytest.raises(AssertionError, match="listed as legal but breaks a rule"):
        g.play("p1 drop 1")


def test_answers_in_a_turn_are_listed_by_their_guard():
    """An answer to a decision in its decider's turn runs its body's checks (`pay k coins`),
    not its inert rest: 9 coins cannot be paid; 1 and 5 are listed from their guard alone."""
    from boardrules.game import ACCEPTED
    g = forms(seed=1)
    g.play("p1 ask")   # (5 coins left)
    listed = list(g.legal_actions())
    assert [str(a) for a in listed] == ["p1 k 1", "p1 k 5"]
    assert listed == g._legal_by_trying()
    assert all(g._known_for(g.state).runs[a] is ACCEPTED for a in listed)
    g.play("p1 k 5")
    assert g.get("coins", 0) == 0 and g.get("vp", 0) == 5


def test_a_wrong_answer_guard_is_caught(monkeypatch):
    """The property fails when an answer's guard passes what its body refuses."""
    from boardrules.lang.guards import INERT
    _caught(monkeypatch, "answer", lambda self, block, scope: (lambda ctx: INERT), target=Guards)


def test_a_guard_that_rarely_settles_is_switched_off():
    """A guard whose passing checks are then tried in full all the same (the turn ends, the
    flow runs rules) costs a second run: after TRIAL such candidates with fewer than WORTH of
    them settled, the action's body is run in full at once (the listing stays the same)."""
    from boardrules.lang.guards import TRIAL, WORTH
    g = forms(seed=3)
    guards = Guards(g.ruleset, g.ruleset.backend, Inert(g.ruleset, {}))
    assert guards.action("deep") is not None and guards.action("worth") is not None
    for i in range(TRIAL):
        guards.settled("deep", i < WORTH * TRIAL - 1)
        guards.settled("worth", i < WORTH * TRIAL)
    assert guards.action("deep") is None and guards.action("worth") is not None


def test_the_way_of_a_guard_follows_its_switching_off():
    """``Guards.way`` keeps what the engine asks once per state and player; a guard switched off
    after its trial is no longer the way."""
    from boardrules.lang.guards import TRIAL
    rs = harvest(seed=1).ruleset
    guards = Guards(rs, rs.backend, Inert(rs, {}))
    per_entity, guard, free = guards.way("sell")
    assert guard is not None and not per_entity and not free   # (it reads n)
    assert guards.way("build_farm")[1:] == (guards.action("build_farm"), True)
    for _ in range(TRIAL):
        guards.settled("sell", False)
    assert guards.way("sell") == (False, None, False)


def test_a_listing_reads_what_the_prechecks_trial_decided(monkeypatch):
    """The compiled listing reads an action's prechecks and whether they are still counted from
    ``Guards.listed``: switched off after a trial that refused too few, kept and no longer
    counted after one that refused enough; sure prechecks (``Guards.sure``) are not tried."""
    from boardrules.lang.guards import TRIAL
    rs = harvest(seed=1).ruleset
    guards = Guards(rs, rs.backend, Inert(rs, {}))
    sell = guards.listing("sell")
    assert sell[0] is not None and not sell[1]   # (sure: it stands for sell's guard)
    for _ in range(TRIAL):
        guards.count("sell", False)
    assert guards.listing("sell") == sell and guards.precheck("sell") is sell[0]
    guards = Guards(rs, rs.backend, Inert(rs, {}))
    monkeypatch.setattr(guards, "sure", lambda name: None)
    sell, buy = guards.listing("sell"), guards.listing("buy")
    assert sell[0] is not None and buy[0] is not None and sell[1] and buy[1]
    for _ in range(TRIAL):
        guards.count("sell", False)
        guards.count("buy", True)
    assert guards.listing("sell") == (None, False) and guards.precheck("sell") is None
    assert guards.listing("buy") == (buy[0], False) and not guards.on_trial("buy")


def _unsure(monkeypatch, rs) -> Guards:
    """Guards for ``rs`` (put in its place) whose prechecks are never sure (``Guards.sure``):
    the candidates they would settle go the guards' way."""
    guards = Guards(rs, rs.backend, Inert(rs, {}))
    monkeypatch.setattr(guards, "sure", lambda name: None)
    monkeypatch.setattr(rs, "guards", guards)
    return guards


def test_each_guard_run_starts_from_the_state(monkeypatch):
    """The guards' runs of one state share a scratch context, reset between runs: selling 2
    grain is legal after the guard of selling 1 has paid 1 of the 2 (or 3, 4, 5) held."""
    g = _main_state_with("sell", 2)
    _unsure(monkeypatch, g.ruleset)   # (else sell's prechecks settle it: no guard runs)
    assert 2 <= g.get("grain", g.state.values[("f", "turn")][2]) < 6
    sells = [a for a in g.legal_actions() if a.name == "sell"]
    assert len(sells) >= 2 and sells == [a for a in g._legal_by_trying() if a.name == "sell"]
    ctx = g._guard_memo[2]   # (the scratch context, used)
    assert ctx is not None and ctx.base is g.state.values and ctx.steps < g.max_steps


# a loop whose body writes what the condition before it stated: the second element reads past
# the list's end (the body's analysis must not rely on 'k < len(deck)' after the first element)
PROBE = """var k: int = 3
action probe main {
  require k >= 0 and k < len(deck) else "no"
  for p in players { let y = deck[k]; set k = k + 1 }
}
action peek main {
  require k >= 0 and k < len(deck) else "no"
  for p in players { gain deck[k].cost coins }
}
extend step actions { main probe, peek }
"""


def test_a_loop_body_keeps_only_the_facts_every_element_sees():
    g = boardrules.new_game("harvest", players=3, seed=1, texts={"probe.rules": PROBE})
    rs = g.ruleset
    assert splits(rs)["probe"] == 2 and splits(rs)["peek"] == 1   # (peek writes nothing it read)
    rng = random.Random(1)
    while len(g.record.actions) < 4:
        g.play(rng.choice([a for a in g.legal_actions() if a.name not in ("probe", "peek")]), check=False)
    assert [a.name for a in g.legal_actions()] == [a.name for a in g._legal_by_trying()]
    assert "peek" in [a.name for a in g.legal_actions()] and "probe" not in [a.name for a in g.legal_actions()]


# play's body runs the slot of the deal its parameter names: plain's effect cannot break a
# rule, strict's can (its require)
FIXED_FORMS = FORMS.replace("action rest main", "action play(d: deal) main { pay 1 coins\n"
                            "  set tally = 1\n  run d.effect\n  gain 1 coins }\naction rest main") \
    .replace("main pick, play_fav,", "main pick, play_fav, play,")


def test_a_guard_knows_the_entity_its_parameter_holds():
    """A body that runs ``d.effect`` for its parameter ``d`` has a guard per deal
    (``Guards.action_for``): for plain its rest begins after the payment, for strict (and
    for every deal at once) after the slot run, whose body the guard enters (a pivot); the
    listing is the full tries'."""
    g = boardrules.new_game(texts={"forms.rules": FIXED_FORMS}, players=2, seed=0)
    guards = g.ruleset.guards
    plain, strict = guards.action_for("play", ("plain",)), guards.action_for("play", ("strict",))
    assert plain is not None and strict is not None and len({plain, strict, guards.action("play")}) == 3
    assert guards.action_for("play", ("nothing",)) is guards.action("play")   # (the run refuses it)
    assert guards.action_for("worth", ()) is guards.action("worth")   # (no such parameter)
    inert, body = guards.inert, g.ruleset.actions["play"].body
    scope = {"d": "entity:deal"}
    assert inert.split_facts(body.stmts, scope)[0] == 3
    assert inert.split_facts(body.stmts, {**scope, I.FIXED: (("d", "plain"),)})[0] == 1
    assert inert.split_facts(body.stmts, {**scope, I.FIXED: (("d", "strict"),)})[0] == 3
    # (a let that rebinds d forgets which deal it holds)
    rebound = parse_text("action x(d: deal) main { pay 1 coins\n let d = strict\n run d.effect }\n",
                         "x.rules").items[0].body
    assert inert.split_facts(rebound.stmts, {**scope, I.FIXED: (("d", "plain"),)})[0] == 3
    for seed in range(8):
        g = boardrules.new_game(texts={"forms.rules": FIXED_FORMS}, players=2, seed=seed)
        assert compare_states(g, 10_000, random.Random(seed)) > 10


def test_a_guard_for_the_wrong_entity_is_caught(monkeypatch):
    """A guard that took plain's for every deal would list play(strict) where it breaks a
    rule: the listing property fails."""
    real = Guards.action_for
    monkeypatch.setattr(Guards, "action_for",
                        lambda self, name, args: real(self, name, ("plain",) if name == "play" else args))
    with pytest.raises(AssertionError):
        for seed in range(8):
            g = boardrules.new_game(texts={"forms.rules": FIXED_FORMS}, players=2, seed=seed)
            compare_states(g, 10_000, random.Random(seed))


def _main_state_with(name: str, count: int, seed: int = 1):
    """A Harvest game at a state where ``count`` or more candidates of action ``name`` are
    legal, not listed yet (replayed from the record)."""
    g, rng = harvest(seed=seed), random.Random(seed)
    while sum(a.name == name for a in g.legal_actions()) < count:
        g.play(rng.choice(list(g.legal_actions())), check=False)
    return boardrules.load_game(g.save())


def test_an_argument_free_guard_runs_once_per_state_and_player(monkeypatch):
    """A guard that mentions none of its action's parameters (build_farm's `pay 2 coins; use
    farm`) has one verdict for every argument tuple: it runs once per state and player; one
    that mentions them (sell's `pay n grain`) is not argument-free."""
    from boardrules.game import Game
    g = _main_state_with("build_farm", 4)
    guards = _unsure(monkeypatch, g.ruleset)   # (else its prechecks settle it: no guard runs)
    for n in g.ruleset.actions:
        guards.action(n)
    assert {n for n in g.ruleset.actions if guards.argument_free(n)} >= {"build_farm", "harvest_now"}
    assert not guards.argument_free("sell") and not guards.argument_free("buy")
    runs: list[str] = []
    verdict = Game._guard_verdict
    monkeypatch.setattr(Game, "_guard_verdict",
                        lambda self, a, info, guard: runs.append(a.name) or verdict(self, a, info, guard))
    listed = list(g.legal_actions())
    assert runs.count("build_farm") == 1 and sum(a.name == "build_farm" for a in listed) >= 4
    assert listed == g._legal_by_trying()


CLAIM = """action claim(h: hex) main {
  if coins > 100 { gain 1 vp }
  require h != "a2" else "not that field"
  gain 1 coins
}
extend step actions { main claim }
"""


def test_a_wrong_argument_free_answer_is_caught(monkeypatch):
    """The property fails when a guard that reads its parameter (claim's `require h != "a2"`,
    past what the prechecks test) is taken as argument-free: the first candidate's verdict
    would be every candidate's."""
    def claims(seed):
        return boardrules.new_game("harvest", players=3, seed=seed, texts={"claim.rules": CLAIM})
    assert compare_states(claims(1), 40, random.Random(1)) == 40   # (right as it is)
    assert not claims(1).ruleset.guards.argument_free("claim")
    monkeypatch.setattr(Guards, "argument_free", lambda self, name: True)
    monkeypatch.setattr(claims(1).ruleset.guards, "_ways", {})   # (Guards.way keeps what it read)
    with pytest.raises(AssertionError):
        for seed in range(4):
            compare_states(claims(seed), 400, random.Random(seed))


def test_answers_after_a_turn_are_listed_by_their_guard():
    """The neighbour bonus Harvest offers after a build_farm turn (`gain bonus coins to p`, p a
    seat of the game) is answered after the turn has ended, maybe with another player's bonus
    decision behind it: its answers cannot break a rule and the flow runs nothing before the
    next decision or turn, so they are listed from the analysis alone, as the full tries
    list them."""
    from boardrules.game import ACCEPTED
    seen = {"alone": 0, "followed": 0}
    for seed in range(1, 30):
        g, rng = harvest(seed=seed), random.Random(seed)
        while not g.over:
            pending = g.state.pending
            if pending and pending[0].label == "bonus":
                listed = list(g.legal_actions())
                assert listed == g._legal_by_trying()
                # (none run: listed at once, with no run kept, or marked ACCEPTED)
                runs = g._known_for(g.state).runs
                assert all(runs.get(a, ACCEPTED) is ACCEPTED for a in listed)
                seen["followed" if len(pending) > 1 and pending[1].player is not None else "alone"] += 1
            g.play(rng.choice(list(g.legal_actions())), check=False)
    assert seen["alone"] and seen["followed"]


SHADOW = """action gift main {
  after turn {
    for p in others {
      choose p in [1, 7] by p optional "a gift" { gain 1 coins to p }
    }
  }
}
extend step actions { main gift }
"""


def test_an_answer_hides_the_seat_of_its_name():
    """A decision's binding that holds a seat is a seat to the analysis, but not once the
    answer, bound by the same name, hides it: answering 7 to `choose p ... { gain 1 coins to
    p }` breaks a rule (no player 7), and is not listed."""
    g = boardrules.new_game("harvest", players=3, seed=1, texts={"shadow.rules": SHADOW})
    rng, seen = random.Random(1), 0
    while not g.over and len(g.record.actions) < 300:
        listed = list(g.legal_actions())
        pending = g.state.pending
        if pending and pending[0].label == "p":
            assert listed == g._legal_by_trying()
            assert [a.args for a in listed] == [(1,), ()]
            seen += 1
        g.play(rng.choice([a for a in listed if a.name == "gift"] or listed), check=False)
    assert seen >= 2


def test_only_the_newest_state_keeps_the_runs_of_actions_not_played():
    """A listing that runs actions in full keeps their contexts (the first such state of a
    seeded game: an action that ends the turn into a flow not known to run nothing, such as
    the setup's `study`); once the next state is listed, it keeps only the played run (its
    resulting state), and a state whose runs hold no context keeps them as they are."""
    from boardrules.runtime import Context
    g, rng = harvest(seed=3), random.Random(3)
    for _ in range(200):
        first = g.state
        listed = list(g.legal_actions())
        if any(type(r[0]) is Context for r in g._known_for(first).runs.values()):
            break
        g.play(rng.choice(listed), check=False)
    else:
        raise AssertionError("no listing in 200 moves ran an action in full")
    played = rng.choice(listed)
    g.play(played, check=False)
    list(g.legal_actions())
    g.undo()
    kept = g._known_for(first).runs
    assert list(kept) == [played] and kept[played][0] is not None   # (the played run: a state)
    assert not any(type(r[0]) is Context for r in kept.values())
