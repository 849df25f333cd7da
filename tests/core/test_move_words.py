"""A move's text is split into words on spaces and tabs only. ``str.split()`` also split on
vertical tab, form feed, the file/group/record separators, NEL, no-break space, the line and
paragraph separators...: ``'p1\\x0bstudy'`` was read as ``p1 study`` and ``'p1 x 1\\x0c2'`` as the
answer ``1 2``, so odd text played as another move."""

from __future__ import annotations

import pytest

import boardrules
from boardrules import IllegalActionError, NotationError
from boardrules.quoting import move_words

ODD = ["\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x1f", "\x85", "\xa0", "\u1680", "\u2000",
       "\u2028", "\u2029", "\u3000", "\n", "\r"]


def test_move_words_are_split_on_spaces_and_tabs():
    assert move_words(" p1\t study  a1 \t") == ["p1", "study", "a1"]
    assert move_words("") == [] and move_words(" \t ") == []
    for ch in ODD:
        assert move_words(f"p1{ch}study a1") == [f"p1{ch}study", "a1"], repr(ch)


@pytest.mark.parametrize("ch", ODD)
def test_odd_whitespace_is_no_separator_of_a_move(ch):
    g = boardrules.new_game("harvest", players=2, seed=1)
    move = g.format(next(iter(g.legal_actions())))
    words = move.split(" ")
    assert len(words) == 3   # (harvest's first move: 'p1 buy sow')
    before = g.state
    for odd in (ch.join(words), f"{words[0]} {words[1]}{ch}{words[2]}", f"{move}{ch}", f"{ch}{move}"):
        with pytest.raises((NotationError, IllegalActionError)):
            g.play(odd)
        assert g.state is before
    g.play(" " + "\t  ".join(words) + "\t")   # spaces and tabs, as many as wished: the same move
    assert g.record.actions[-1] == move


DECIDE = """
resource coins { }
var said: text = ""
action talk main { choose words in ["1 2", "12"] "say" { set said = words } }
flow { rounds 1 { step play: turns seat once { main talk } } }
"""


@pytest.mark.parametrize("ch", ["\x0c", "\u2028", "\xa0"])
def test_odd_whitespace_in_an_answer_is_no_other_answer(ch):
    g = boardrules.new_game(texts={"d.rules": DECIDE}, players=1)
    g.play("p1 talk")
    before = g.state
    with pytest.raises((NotationError, IllegalActionError)):
        g.play(f"p1 words 1{ch}2")      # was the answer '1 2'
    assert g.state is before
    g.play("p1 words 1 2")
    assert g.get("said") == "1 2"
