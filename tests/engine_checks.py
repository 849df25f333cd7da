"""Checks every game's property tests share: an illegal action is refused and changes nothing."""

from __future__ import annotations

from boardrules import IllegalActionError, NotationError


def parses_to_legal(g, text, legal_set) -> bool:
    """Whether ``text`` reads as one of the legal actions (so it is no illegal example)."""
    try:
        return g.parse(text) in legal_set
    except NotationError:
        return False


def illegal_pool(g, legal, bad_texts, bad_actions) -> tuple[list, list]:
    """(the non-legal candidates, every illegal example): candidates, then the game's
    malformed texts and actions that are not legal here."""
    legal_set = set(legal)
    bad = [a for a in g.candidates() if a not in legal_set]
    texts = [t for t in bad_texts if not parses_to_legal(g, t, legal_set)]
    actions = [a for a in bad_actions if a not in legal_set]
    return bad, bad + texts + actions


def assert_refused(g, choice) -> None:
    """Playing ``choice`` raises, and the state, its hash, the record and the log are unchanged."""
    state, h, record, nlog = g.state, hash(g.state), list(g.record.actions), len(g.log)
    try:
        g.play(choice)
    except (IllegalActionError, NotationError):
        pass
    else:
        raise AssertionError(f"illegal {choice!r} was played (after {record[-3:]})")
    assert g.state == state, f"{choice!r} changed the state"
    assert hash(g.state) == h, f"{choice!r} changed the state's hash"
    assert g.record.actions == record and len(g.log) == nlog, f"{choice!r} changed the record"
