"""Gaia Project: property tests of the game's invariants over random legal play (hypothesis).

A random bot, whose every choice (player count 2-4, seed, each action) is drawn from hypothesis
data, plays games to their end (cut after ``MAX_ACTIONS``; the uniform bot's games end after
80-320 actions, so every example reaches round 6 and final scoring). A "developer" style
prefers building, upgrading, research, federations and the power/QIC actions (2 times in 3) and
anything to passing (9 times in 10), which gives longer rounds and bigger economies: federations,
planetary institutes and higher research are reached more often.

After every action (``check_invariants`` of ``test_game.py``, plus the key scan below):

* credits <= 30, ore <= 15, knowledge <= 15; no resource (``("r", name, p)``) is negative;
* power tokens are conserved (bowls I-III + Gaia area + removed = start + gained) and the
  Taklons brainstone lies in a bowl that holds a token;
* VP = ``scores()[p]["total"]`` = the sum of ``scores()[p]["sources"]``.

Around one action in three each (drawn from the data), every 97 actions and at the end:

* save -> ``boardrules.load_game`` gives an equal state (``==`` and ``hash``), record and scores
  (every 97 actions, and at the end with the legality check of every action on);
* ``undo()`` gives exactly the previous state (``==`` and ``hash``) and record, and playing the
  same action again gives the same state and record as before;
* an illegal action (a candidate of ``game.candidates()`` that is not legal, a malformed text,
  a malformed ``Action``) raises ``IllegalActionError`` or ``NotationError`` and leaves
  ``game.state``, its hash and ``game.record.actions`` unchanged.

And over the real records of ``shared/gaia-records`` (replayed as ``replay.py`` does): at a random
line of a random record, save/load gives an equal state, and undoing the last 1-4 player actions
gives the state of the shortened record replayed from scratch; playing the undone actions again
gives the same state back.

``BOARDRULES_STRESS=N`` multiplies the examples (a longer bug hunt; the default keeps the file
well under a minute on a loaded 2-core machine).
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import boardrules
from boardrules import Action, IllegalActionError
from boardrules.game import CHANCE
from tests.conftest import SHARED, shared_path
from tests.engine_checks import assert_refused, illegal_pool
from tests.gaia.test_game import GAME, check_invariants

MAX_ACTIONS = 600
PASSES = ("pass_round", "pass_last")
# what the "developer" bot prefers when it can (2 times in 3)
GROWTH = ("build_mine", "upgrade", "research", "form_federation", "gaia_project",
          "booster_mine", "booster_gaia_project", "tech_action", "board", "power_mine",
          "academy_qic", "ivits_station", "ambas_swap", "firaks_downgrade", "bescods_research")


def check_all(g) -> None:
    """The per-action invariants: ``test_game.check_invariants`` and no resource below its
    floor (0 unless a module lowers it: the auction's bids may take VP below 0)."""
    check_invariants(g)
    resources = g.ruleset.resources
    for key, val in g.state.values.items():
        if key[0] == "r":
            assert val >= resources[key[1]].floor, f"{key} below its floor: {val}"


# ---- illegal actions -------------------------------------------------------------------------

def _bad_texts(g) -> list[str]:
    n = g.players
    texts = ["", "p1", "chance", "research", f"p{n + 1} research terraforming", "p0 done",
             "p1 nosuchaction", "p1 research", "p1 research nosuchtrack", "p1 research 3",
             "p1 build_mine", "p1 build_mine ZZ99", "p1 build_mine 3A11 extra",
             "p1 upgrade 3A11 castle", "p1 pick_faction klingons", "p1 convert nosuch",
             "p1 pass_round booster99", "p1 form_federation nonsense", "p1 tech_action nosuch",
             "p1 charge p1 5", "p1 spend 3", "p1 board nosuch", "p1 gain_qic x",
             "p2 leech 99", "p1 done done", "chance map_seed", "chance std_tile nosuch",
             "p1 academy_qic now"]
    for d in g.state.pending[:1]:
        who = "chance" if d.player < 0 else f"p{d.player + 1}"
        texts += [f"{who} {d.label} no-such-option", f"{who} {d.label} 1 2 3",
                  f"p{(max(d.player, 0) + 1) % n + 1} {d.label}"]
        if not d.optional:
            texts.append(f"{who} {d.label}")
    return texts


def _bad_actions(g) -> list[Action]:
    n = g.players
    return [Action(n, "research", ("terraforming",)), Action(CHANCE, "pass_last"),
            Action(0, "research", ("terraforming", "extra")), Action(0, "research", (3,)),
            Action(0, "build_mine", (None,)), Action(0, "upgrade", ("3A11",)),
            Action(0, "pick_faction", (None,)), Action(0, "charge", (0, 3)),
            Action(0, "convert", ((1, 2),)), Action(CHANCE, "std_tile", ("no-such-tile",))]


def check_illegal(g, legal, pick) -> None:
    """Play one illegal action (``pick(n)`` chooses among ``n``): it must raise and change nothing."""
    bad, pool = illegal_pool(g, legal, _bad_texts(g), _bad_actions(g))
    # a non-legal candidate half of the time when there are some (they are the subtle ones)
    assert_refused(g, bad[pick(len(bad))] if bad and pick(2) else pool[pick(len(pool))])


def check_undo_redo(g, action, before, h_before, record_before) -> None:
    """``undo()`` restores the state before ``action``; playing it again gives the same state."""
    after, h_after, record_after = g.state, hash(g.state), list(g.record.actions)
    g.undo()
    assert g.state == before and hash(g.state) == h_before, f"undo of {action} differs"
    assert g.record.actions == record_before, f"undo of {action} left {g.record.actions[-3:]}"
    g.play(action)
    assert g.state == after and hash(g.state) == h_after, f"{action} replayed differently"
    assert g.record.actions == record_after


def check_save_load(g, check: bool = False) -> None:
    again = boardrules.load_game(g.save(), check=check)
    assert again.state == g.state and hash(again.state) == hash(g.state)
    assert again.record.actions == g.record.actions
    assert again.over == g.over and again.scores() == g.scores()


# ---- the random bot --------------------------------------------------------------------------

def play_checked(data, g, *, developer: bool, check_every: int) -> int:
    """Play to the end (at most ``MAX_ACTIONS``), every choice drawn from ``data``."""

    def pick(n: int, label: str = "pick") -> int:
        return data.draw(st.integers(0, n - 1), label=label) if n > 1 else 0

    check_all(g)
    n = 0
    while not g.over and n < MAX_ACTIONS:
        legal = list(g.legal_actions())
        assert legal, f"no legal action after {g.record.actions[-3:]}"
        # one draw decides which checks run around this action (1 in ``check_every`` each)
        probe = pick(check_every * check_every, "probe")
        if probe % check_every == 0:
            check_illegal(g, legal, pick)
        if developer:
            growth = [a for a in legal if a.name in GROWTH]
            others = [a for a in legal if a.name not in PASSES]
            if growth and len(growth) < len(legal) and pick(3, "grow?"):
                legal = growth
            elif others and len(others) < len(legal) and pick(10, "pass?"):
                legal = others
        action = legal[pick(len(legal), "action")]
        before, h_before, record_before = g.state, hash(g.state), list(g.record.actions)
        g.play(action)
        n += 1
        check_all(g)
        if probe // check_every == 0:
            check_undo_redo(g, action, before, h_before, record_before)
        if n % 97 == 0:
            check_save_load(g)
    return n


STRESS = int(os.environ.get("BOARDRULES_STRESS", "1"))
SETTINGS = dict(deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.large_base_example])


@settings(max_examples=6 * STRESS, **SETTINGS)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**16), developer=st.booleans(),
       data=st.data())
def test_invariants_random_games(players, seed, developer, data):
    g = boardrules.new_game(GAME, players=players, seed=seed)
    n = play_checked(data, g, developer=developer, check_every=3)
    assert g.over, f"not over after {n} actions (round {g.get('round')})"
    assert g.get("round") == 6
    for p in range(players):
        assert g.scores()[p]["sources"]["start"] == 10
    check_save_load(g, check=True)     # the whole record again, legality checks on
    with pytest.raises(IllegalActionError):
        g.play(Action(0, "pass_last"))  # nothing is legal once the game is over


# ---- the real records ------------------------------------------------------------------------

RECORD_NAMES = sorted(p.stem for p in (SHARED / "gaia-records").glob("*.json")
                      if p.name != "INDEX.json") or ["(missing)"]


def _replay_to(name: str, upto: float):
    """A replayer (``replay.py``) of record ``name`` after its first ``upto`` fraction of lines."""
    from boardrules_gaia import replay as R
    from boardrules_gaia.records import load_record

    rec = load_record(shared_path("gaia-records", f"{name}.json"))
    rp = R.Replayer(rec, check=False)
    n_lead = rec.setup.consumes_leading_moves
    k = max(1, round(upto * len(rec.lines)))
    for i in range(k):
        rp.line(i, rec.lines, rec.moves_raw[n_lead + i])
    return rp.game, k


@settings(max_examples=8 * STRESS, **SETTINGS)
@given(name=st.sampled_from(RECORD_NAMES), upto=st.floats(0.0, 1.0), back=st.integers(1, 4),
       data=st.data())
def test_record_points_save_load_and_undo(name, upto, back, data):
    g, k = _replay_to(name, upto)
    state, h, actions = g.state, hash(g.state), list(g.record.actions)
    check_all(g)
    check_save_load(g)

    # undo the last ``back`` player actions (each with the chance outcomes that followed it)
    players_at = [i for i, a in enumerate(actions) if not a.startswith("chance ")]
    back = min(back, len(players_at))
    for _ in range(back):
        g.undo()
    cut = players_at[-back]
    assert g.record.actions == actions[:cut]
    fresh = boardrules.Record.loads(g.save())
    assert fresh.actions == actions[:cut]
    expected = boardrules.Game.from_record(fresh, check=False).state
    assert g.state == expected and hash(g.state) == hash(expected), \
        f"{name} line {k}: undo of {actions[cut:]} differs from a replay of the shorter record"
    check_all(g)
    if not g.over:
        legal = list(g.legal_actions())
        check_illegal(g, legal, lambda n: data.draw(st.integers(0, n - 1)) if n > 1 else 0)

    # the same actions again (chance outcomes as recorded), with legality checks
    for text in actions[cut:]:
        g.play(text)
    assert g.state == state and hash(g.state) == h, f"{name} line {k}: redo differs"
    assert g.record.actions == actions
