"""``Game.reader()`` (src/boardrules/reader.py): one public fast reader of a state by rule
name, which both bot evaluations use. It answers exactly what ``Game.get`` answers (or raises
the same error), for every name of the three games' rulesets, at states of random games with
modules on, for every seat, for players that are no seat, and for indexes present, absent or
wrong; ``each``/``at`` equal ``get`` per player/index; ``owner``/``passed`` equal the rules'
built-ins. Checked to fail when a reading's key is spelled wrong (the last test)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import boardrules
from boardrules import BoardrulesError
from boardrules import reader as R
from boardrules.bots import RandomBot
from boardrules.lang import semantics as S
from boardrules.runtime import Context

GAMES = [("harvest", 3, ()), ("eclipse", 3, ("rare-technologies", "hives")),
         ("gaia-project", 3, ())]


def _answer(fn, *args):
    try:
        return ("value", fn(*args))
    except (BoardrulesError, TypeError) as err:   # (TypeError: a player that is no whole number)
        return ("error", type(err).__name__, str(err))


def _names(rs) -> list[str]:
    return sorted({*rs.resources, *rs.tracks, *rs.components, *rs.vars, *list(rs.options)[:5],
                   *list(rs.entities)[:5], *list(rs.by_kind)[:5], "round", "hexes", "players",
                   "nplayers", "no_such_name"})


def _indexes(game, name: str) -> list:
    """Indexes to read ``name`` at: those the state holds for it, one it does not, wrong ones."""
    held = [k[-1] for k in game.state.values if k[0] == "v" and k[1] == name and len(k) > 2]
    return [*dict.fromkeys(held[:6]), "nowhere", None, 3, ("a", "list")]


def check_state(game) -> int:
    """Every read of ``game``'s state through its reader equals ``Game.get``; returns the count."""
    r, n, checked = game.reader(), game.players, 0
    for name in _names(game.ruleset):
        for player in [*range(n), None, n, -1, True]:
            for index in _indexes(game, name):
                assert _answer(r.get, name, player, index) == _answer(game.get, name, player, index), \
                    (name, player, index)
                checked += 1
        if name in game.ruleset.resources or (name in game.ruleset.vars
                                              and game.ruleset.vars[name].per == ("player",)):
            assert r.each(name) == [game.get(name, p) for p in range(n)], name
        indexes = [i for i in _indexes(game, name) if i not in (None, ("a", "list"))]
        if name in game.ruleset.vars and len(game.ruleset.vars[name].per) == 1 and \
                game.ruleset.vars[name].per != ("player",):
            for given in (indexes, tuple(indexes)):   # (a tuple's keys are kept for the next state)
                assert _answer(r.at, name, given) == \
                    _answer(lambda: [game.get(name, index=i) for i in indexes]), name
    ctx = Context(game.ruleset, game.state.values)
    for e in list(game.ruleset.entities)[:40]:
        assert r.owner(e) == S.BUILTIN_FUNCTIONS["owner"](ctx, e)
    for p in range(n):
        assert r.passed(p) == S.BUILTIN_FUNCTIONS["passed"](ctx, p)
    return checked


@pytest.mark.parametrize("name, players, modules", GAMES)
def test_the_reader_reads_what_game_get_reads(name, players, modules):
    game = boardrules.new_game(name, players=players, seed=5, modules=list(modules))
    bot, rng, states = RandomBot(5), random.Random(5), 0
    while not game.over and states < 6:
        if rng.random() < 0.05:
            assert check_state(game) > 100
            states += 1
        game.play(bot.choose(game), check=False)
    assert states >= 3


@settings(max_examples=4, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**16), steps=st.integers(0, 120), which=st.sampled_from(GAMES))
def test_the_reader_agrees_at_random_states(seed, steps, which):
    name, players, modules = which
    game = boardrules.new_game(name, players=players, seed=seed, modules=list(modules))
    bot = RandomBot(seed)
    for _ in range(steps):
        if game.over:
            break
        game.play(bot.choose(game), check=False)
    check_state(game)


def test_a_reader_keeps_reading_its_state():
    game = boardrules.new_game("harvest", players=2, seed=1)
    r, before = game.reader(), game.get("coins", 1)
    game.play(next(iter(game.legal_actions())))
    assert r.get("coins", 1) == before and r.state is not game.state


def test_at_reads_each_state_at_the_same_tuple_of_indexes():
    """A per-hex read ``at`` a tuple keeps that tuple's keys for the next read (reader.py):
    the same tuple read at a later state gives that state's values."""
    game = boardrules.new_game("eclipse", players=3, seed=3)
    bot = RandomBot(3)
    for _ in range(40):
        game.play(bot.choose(game), check=False)
    where = game.get("hexes")
    assert type(where) is tuple
    seen = []
    while not game.over and len(seen) < 3:
        got = game.reader().at("ships", where)
        assert got == [game.get("ships", index=h) for h in where]
        if got not in seen:
            seen.append(got)
        game.play(bot.choose(game), check=False)
    assert len(seen) == 3   # (ships built and moved: three different answers at one tuple)


def test_a_key_spelled_wrong_is_caught(monkeypatch):
    """The checks above fail when a reading keeps a per-player name under a wrong key (read
    where a player's money is not their science: the wrong key then gives another value)."""
    game = boardrules.new_game("eclipse", players=3, seed=2)
    for _ in range(30):
        game.play(RandomBot(2).choose(game), check=False)
    while all(game.get("money", p) == game.get("science", p) for p in range(3)):
        game.play(RandomBot(2).choose(game), check=False)
    wrong = R._PerPlayer(game.ruleset, "money", ("r", "science"))
    monkeypatch.setitem(game.ruleset.readings, "money", wrong)
    with pytest.raises(AssertionError):
        check_state(game)


def test_an_index_not_in_the_game_is_refused_naming_the_valid_ones():
    """A per-hex or per-entity variable read at a hex the game does not have (or an entity of
    another kind) raises naming it and the valid ones, as other reads do (it answered the
    variable's default, None, as if the hex were empty); a valid index holding nothing still
    reads the default, and rules without a 'hexes' variable have no list to check against."""
    game = boardrules.new_game("harvest", players=2, seed=1)
    for read in (game.get, game.reader().get):
        with pytest.raises(BoardrulesError, match=r"'field_owner' is kept per hex: zz is not one of "
                                                  r"the game's 6 hexes \(a1,a2,a3,b1,b2,b3\)"):
            read("field_owner", index="zz")
        assert read("field_owner", index="a1") is None
    with pytest.raises(BoardrulesError, match="zz is not one of the game's 6 hexes"):
        game.reader().at("field_owner", ["a1", "zz"])
    gaia = boardrules.new_game("gaia-project", players=2, seed=1)
    with pytest.raises(BoardrulesError, match=r"'bld' is kept per hex: 10A99 is not one of the game's"):
        gaia.get("bld", index="10A99")
    eclipse = boardrules.new_game("eclipse", players=2, seed=1)
    with pytest.raises(BoardrulesError, match=r"'blueprint' is kept per ship_class: ion_cannon is not "
                                              r"one of the game's \d+ ship_class entities"):
        eclipse.reader().get("blueprint", 0, "ion_cannon")
    free = boardrules.new_game(texts={"f.rules": (
        "var owner_of: int per hex = 0\naction go main { set owner_of[\"x9\"] = 1 }\n"
        "flow { rounds 1 { step s: turns seat once { main go } } }\n")}, players=1)
    assert free.get("owner_of", index="anywhere") == 0


@pytest.mark.parametrize("player", [5, -1])
def test_a_read_for_a_player_not_in_the_game_names_the_players(player):
    """``get`` for a seat the game does not have says which seats it has (it said only "no player
    here", where ``view`` names the range)."""
    g = boardrules.new_game("gaia-project", players=3, seed=1)
    for read in (lambda: g.get("ore", player), lambda: g.reader().get("ore", player)):
        with pytest.raises(BoardrulesError, match=r"players are 0\.\.2"):
            read()
