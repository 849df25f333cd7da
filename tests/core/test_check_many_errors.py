"""Checking rule files of thousands of errors takes time linear in their size: a hostile file
cannot make ``boardrules check`` (or any build) slow. Every error is still found and counted
(``RulesError.diagnostics``; the message shows the first ones, then "... and K more"); the 'did
you mean' hints compare a bounded number of names in all (diagnostics.HINT_BUDGET), so the
errors found past it have none. Before: 45,000 misspellings against 9,000 resource names took
more than ten minutes (each hint compared every name), 8,000 variables with a bad default 11 s
(the errors list rebuilt per variable), 8,000 unknown names 10 s (every name listed per error),
thousands of step edits naming no step a second per thousand (the steps listed per edit).

The work is counted, never timed: the lines Python runs (``sys.settrace``) for a file and for
one twice its size, or the names handed to difflib."""

from __future__ import annotations

import difflib
import sys

import pytest

import boardrules
import boardrules.lang.diagnostics as D
import boardrules.lang.parser as P
import boardrules.ruleset as R

HEAD = "game g { players 1..2 }\nresource coins { start 0 }\n"
FLOW = "flow { rounds 1 { step s: turns seat once { main a } } }\n"


def _errors(texts: dict[str, str]) -> boardrules.RulesError:
    R._build.cache_clear()
    P._parse_cached.cache_clear()
    with pytest.raises(boardrules.RulesError) as err:
        boardrules.build_ruleset(None, texts=texts)
    return err.value


def _lines_run(texts: dict[str, str]) -> tuple[int, int]:
    """(the lines Python ran checking ``texts``, the errors found)."""
    count = 0

    def tracer(frame, event, arg):
        nonlocal count
        count += 1
        return tracer

    R._build.cache_clear()
    P._parse_cached.cache_clear()
    sys.settrace(tracer)
    try:
        boardrules.build_ruleset(None, texts=texts)
    except boardrules.RulesError as err:
        found = len(err.diagnostics)
    finally:
        sys.settrace(None)
    return count, found


SHAPES = {
    # a variable's default of the wrong type: said once, by the more precise check
    "bad defaults": lambda n: {"g.rules": HEAD + "".join(f'var v{i}: int = "x"\n' for i in range(n))
                               + "action a main { }\n" + FLOW},
    # unknown names among as many variables
    "unknown names": lambda n: {"g.rules": HEAD + "".join(f"var v{i}: int = w{i}\n" for i in range(n))
                                + "action a main { }\n" + FLOW},
    # misspelt resources among as many declared
    "misspellings": lambda n: {"g.rules": HEAD + "".join(f"resource rs{i:05d} {{ }}\n" for i in range(n))
                               + "action a main {\n" + "".join(f"  gain 1 sr{i:05d}\n" for i in range(n))
                               + "}\n" + FLOW},
    # steps placed after no step, in a flow of as many steps
    "step edits": lambda n: {"a.rules": HEAD + "action a main { }\nflow {\n  rounds 1 {\n"
                             + "".join(f"    step s{i}: do {{ }}\n" for i in range(n))
                             + "    step s: turns seat once { main a }\n  }\n}\n",
                             "b.rules": "".join(f"step t{i} after zz{i}: do {{ }}\n" for i in range(n))},
}


@pytest.mark.parametrize("shape", SHAPES)
def test_checking_twice_as_many_errors_takes_about_twice_the_work(shape, monkeypatch):
    monkeypatch.setattr(D, "HINT_BUDGET", 2_000)   # (spent at the smaller size: hints then end)
    _lines_run(SHAPES[shape](10))   # (the parser built, the plugins loaded: not counted below)
    small, n_small = _lines_run(SHAPES[shape](300))
    large, n_large = _lines_run(SHAPES[shape](600))
    assert n_small >= 300 and n_large >= 600
    assert large < 2.4 * small, (small, large)   # (quadratic: about 4 times)


def test_hints_compare_a_bounded_number_of_names_and_every_error_is_counted(monkeypatch):
    compared = []

    def counting(word, possibilities, *args, **kw):
        compared.append(len(possibilities))
        return close(word, possibilities, *args, **kw)

    close = difflib.get_close_matches
    monkeypatch.setattr(difflib, "get_close_matches", counting)
    err = _errors(SHAPES["misspellings"](1_000))
    assert len(err.diagnostics) == 1_000   # (every one found)
    assert sum(compared) <= D.HINT_BUDGET < 1_000 * 1_000   # (each hint compared all 1,001 names)
    hinted = [d for d in err.diagnostics if d.hint]
    assert hinted and hinted[0].hint == "did you mean 'rs00000'?" and err.diagnostics[0] is hinted[0]
    assert len(hinted) < 1_000 and not err.diagnostics[-1].hint   # (those past the budget: none)
    assert str(err).endswith("\n... and 980 more errors (1000 in all)")   # (the first 20 shown)


def test_a_rule_set_s_few_errors_keep_their_hints():
    err = _errors({"g.rules": HEAD + "resource knowledge { }\naction a main {\n"
                   + "".join("  gain 1 knowlege\n" for _ in range(150)) + "}\n" + FLOW})
    assert len(err.diagnostics) == 150
    assert all(d.hint == "did you mean 'knowledge'?" for d in err.diagnostics)


def test_a_hint_is_not_sought_for_a_very_long_word(monkeypatch):
    # (difflib compares two names in the product of their lengths: 40 misspellings of
    # 8,000-character names took 7 s)
    calls = []
    monkeypatch.setattr(difflib, "get_close_matches", lambda *a, **kw: calls.append(a) or [])
    long = "r" + "ab" * 40
    err = _errors({"g.rules": HEAD + f"resource {long} {{ }}\naction a main {{\n  gain 1 {long}c\n"
                   f"  gain 1 knowlege\n}}\n" + FLOW})
    assert [d.message.split("'")[1][:3] for d in err.diagnostics] == ["rab", "kno"]
    assert len(calls) == 1 and calls[0][0] == "knowlege"
