"""An action listed as legal whose play would make a number beyond the rules' (±(2**63 - 1))
is refused with an IllegalActionError naming the number, the game unchanged. The listing
assumes numbers stay far below that (lang/inert.py: a `gain` or a sum cannot break a rule),
which hostile house rules break; play raised an AssertionError ("listed as legal but breaks a
rule") for such a move."""

from __future__ import annotations

import json

import pytest

import boardrules
from boardrules import IllegalActionError

BIG = 999_999_999_999_999_999   # the most digits a rule file may write (18)

HOARD = f"""game hoard {{ players 2..2 }}
resource coins {{ start 0 }}
resource vp {{ start 0; scored true }}
var heap: int per player = 0
action hoard main {{ choose n in [1, 2] "how many" {{ require n >= 1 else "one at least"; gain n * {BIG} coins }} }}
action pile main {{ choose n in [1, 2] "how many" {{ require n >= 1 else "one at least"; set heap = heap + n * {BIG} }} }}
action rest main {{ gain 1 vp }}
action tip free {{ gain 1 vp }}
flow {{ rounds 30 {{ step play: turns seat once {{ main hoard, pile, rest; free tip }} }} }}
"""


@pytest.mark.parametrize("name, grows", [("hoard", "coins"), ("pile", "heap")])
def test_a_listed_move_past_the_numbers_is_refused_and_changes_nothing(name, grows):
    g = boardrules.new_game(texts={"hoard.rules": HOARD}, players=2, seed=1)
    for _ in range(4):   # p1 grows, p2 rests, until 2 more would pass 2**63 - 1
        g.play(f"p1 {name}")
        g.play("p1 n 2")
        g.play("p1 done")
        g.play("p2 rest")
        g.play("p2 done")
    assert g.get(grows, 0) == 8 * BIG
    g.play(f"p1 {name}")
    # an answer whose guard (the require) passes is listed untried: its rest "cannot" fail
    assert "p1 n 2" in [str(a) for a in g.legal_actions()]   # (the listing does not foresee it, as documented)
    before = g.save()
    with pytest.raises(IllegalActionError, match="9223372036854775807") as err:
        g.play("p1 n 2")
    assert type(err.value) is IllegalActionError and "listed as legal" not in str(err.value)
    assert g.save() == before
    g.play("p1 n 1")   # the game goes on
    assert g.get(grows, 0) == 9 * BIG


SWING = f"""game swing {{ players 2..2 }}
resource vp {{ start 0; scored true }}
action up main {{ gain {BIG} vp }}
action down main {{ lose {BIG} vp }}
action rest main {{ gain 0 vp }}
flow {{ rounds 30 {{ step play: turns seat once {{ main up, down, rest }} }} }}
"""


def test_a_score_by_source_past_the_numbers_reads_back():
    """VP gained from one source and lost from another: the total stays small, but each
    source's tally (a score's bookkeeping, no number the rules read) grows past the rules'
    numbers; State.from_json refused such a state (and so a view sent as docs/api.md says)."""
    g = boardrules.new_game(texts={"swing.rules": SWING}, players=2, seed=1)
    for _ in range(10):
        for text in ("p1 up", "p2 rest", "p1 down", "p2 rest"):
            g.play(text)
    assert g.scores()[0] == {"total": 0, "sources": {"up": 10 * BIG, "down": -10 * BIG}}
    assert boardrules.State.from_json(g.state.to_json()) == g.state
    view = g.view(1)
    sent = boardrules.State(view["values"], tuple(view["pending"])).dumps()
    assert boardrules.State.from_json(json.loads(sent)).values == view["values"]
    with pytest.raises(boardrules.NotationError, match="a whole number within"):   # the rules' own
        boardrules.State.from_json({"values": [[["r", "vp", 0], 10 * BIG]], "pending": []})
