"""Bots that play legal moves: for demonstrations, tests, research and simulation.

Every bot has ``choose(game, player=None) -> Action`` and plays through the public API only:

- :class:`RandomBot`: uniform over the legal actions (the engine's smoke test);
- :class:`GreedyBot`: one ply over the game's evaluation (the plugin's ``boardrules_evaluation``
  hook, e.g. ``boardrules_gaia/bot.py``), fast and sensible: the default of ``boardrules play``;
- :class:`MCTSBot`: information-set Monte-Carlo tree search, for any game and module.

:func:`make_bot` builds one by name (``random``, ``greedy``, ``mcts``; ``mcts:N`` with N
iterations per decision, ``greedy:N`` with a look-ahead budget of N positions a decision),
:func:`play_out` plays a game to its end with one bot per seat.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ..game import Action, Game
from ..limits import LIMITS
from ..quoting import brief_text, check_count, counted, read_whole
from .common import Bot, actor, bot_seed, evaluation_for, no_action, sample_chance, seeded
from .greedy import BUDGET as GREEDY_BUDGET, GreedyBot
from .mcts import ITERATIONS as MCTS_ITERATIONS, MCTSBot


class RandomBot:
    """Plays a uniformly random legal action (seeded, so games are reproducible)."""

    name = "random"

    def __init__(self, seed: int | float | str = 0) -> None:
        self.rng = seeded(seed)

    def choose(self, game: Game, player: int | None = None) -> Action:
        """A random legal action of ``player`` (or of anyone to act), drawn without listing
        them all (``LegalActions.sample``). Raises ``LookupError`` when nobody can act."""
        try:
            return game.legal_actions(player).sample(self.rng)
        except IndexError:
            raise no_action(game) from None


BOTS: dict[str, Callable[[int | float | str], Bot]] = {"random": RandomBot, "greedy": GreedyBot, "mcts": MCTSBot}
DEFAULT_BOT = "greedy"
BOT_HELP = (f"random, greedy or mcts (mcts:N: N iterations per decision, {MCTS_ITERATIONS} by default; greedy:N: "
            f"its look-ahead tries at most about N positions a decision, {GREEDY_BUDGET} by default), for every "
            f"seat, or pN=BOT for seat N; repeatable (default {DEFAULT_BOT})")
"""The ``--bot`` option's help, the same for every command that takes it (play, simulate)."""


MAX_ITERATIONS = 100_000
"""The most ``mcts:N`` iterations per decision (or ``greedy:N`` positions) a bot name may ask
(more would take hours a decision: a typo, not a plan)."""


def make_bot(name: str, seed: int | float | str = 0) -> Bot:
    """A bot by name: ``random``, ``greedy``, ``mcts``, ``mcts:N`` (N iterations per
    decision) or ``greedy:N`` (a look-ahead budget of N positions a decision:
    :class:`GreedyBot`'s ``budget``), N from 1 to :data:`MAX_ITERATIONS`. Raises
    ``ValueError`` naming the bots there are."""
    if not isinstance(name, str):
        raise TypeError(f"a bot is named by a text such as 'greedy' or 'mcts:50', not {brief_text(name, 40)}")
    kind, colon, budget = name.partition(":")   # (a colon with no N: 'greedy:' was the default bot)
    n = read_whole(budget)
    if kind not in BOTS or (colon and (kind not in ("mcts", "greedy") or n is None
                                        or not 1 <= n <= MAX_ITERATIONS)):
        raise ValueError(f"no bot {name!r}: choose random, greedy, mcts or mcts:N "
                         f"(N iterations, 1 to {MAX_ITERATIONS}), or greedy:N (N positions a decision may try, "
                         f"1 to {MAX_ITERATIONS})")
    if n is not None:
        return MCTSBot(seed, iterations=n) if kind == "mcts" else GreedyBot(seed, budget=n)
    return BOTS[kind](seed)


def bot_specs(specs: str | Iterable[str] | None) -> tuple[str, ...]:
    """``specs`` as a tuple of bot specs (``"greedy"``, ``"p2=mcts"``): one text is one spec,
    not its letters; ``TypeError`` for a spec that is no text."""
    found = (specs,) if isinstance(specs, str) else tuple(specs or ())
    for spec in found:
        if not isinstance(spec, str):
            raise TypeError(f"a bot spec is a text such as 'greedy' or 'p2=mcts', not {brief_text(spec, 40)}")
    return found


def seat_bots(specs: str | Iterable[str] | None, players: int,
              seed: int | float | str = 0) -> list[Bot]:
    """One bot per seat from ``specs`` such as ``["greedy"]`` (every seat) or
    ``["random", "p2=mcts"]`` (seat 2 MCTS, the others random). Each seat's bot gets its own
    seed derived from ``seed``. Raises ``ValueError`` for an unknown bot or seat, for a
    seat (or every seat) given a bot twice, naming both, and for fewer than 1 player;
    ``TypeError`` for a player count or seed of another type."""
    players = check_count(players, "players", 1)
    seed = bot_seed(seed)
    default, per_seat = DEFAULT_BOT, dict[int, str]()
    given: dict[int | None, str] = {}     # seat (None: every seat) -> the spec that set it
    for spec in bot_specs(specs):
        seat, eq, name = spec.partition("=")
        number = read_whole(seat[1:]) if seat.startswith("p") else None
        if not eq:
            key: int | None = None
        elif number is not None and 1 <= number <= players:
            key = number - 1
        else:
            raise ValueError(f"--bot {spec!r}: {seat!r} is not a seat (p1..p{players})")
        if key in given:
            which = "every seat" if key is None else f"seat p{key + 1}"
            raise ValueError(f"--bot {spec!r}: {which} already has a bot (--bot {given[key]!r}); "
                             "give each seat one bot, and at most one --bot for every seat")
        given[key] = spec
        if key is None:
            default = spec
        else:
            per_seat[key] = name
    return [make_bot(per_seat.get(p, default), seed=f"{seed}/{p}") for p in range(players)]


def play_out(game: Game, bot: Bot | list[Bot] | tuple[Bot, ...] | None = None, *, max_actions: int | None = None,
             on_action: Callable[[Game, Action], object] | None = None) -> Game:
    """Let ``bot`` (a RandomBot by default; or a list with one bot per seat) play ``game``
    to its end; return the game. Raises ``RuntimeError`` if it does not end within
    ``max_actions`` (None: the moves a game may have, ``LIMITS.max_moves``) and ``LookupError``
    if nobody can act; ``TypeError``/``ValueError`` for a ``max_actions`` that is no whole
    number of at least 1."""
    max_actions = check_count(LIMITS.max_moves if max_actions is None else max_actions, "max_actions", 1)
    bot = bot or RandomBot(game.seed)
    for _ in range(max_actions):
        if game.over:
            return game
        if isinstance(bot, (list, tuple)):
            p = actor(game)
            if p is None:
                raise no_action(game)
            action = bot[p].choose(game, p)
        else:
            action = bot.choose(game)
        game.play(action, check=False)
        if on_action is not None:
            on_action(game, action)
    where, step = game.flow_position(), game.flow_step()
    endless = f" ('{step.name}' gives turns until every player has passed ({step.mode}): do its " \
        f"players ever pass?)" if step is not None and step.mode in ("until_pass", "until_all_pass") \
        else " (a flow that never ends?)"
    raise RuntimeError(f"the game did not end within {counted(max_actions, 'action')}: it is at {where}"
                       f"{endless}")


__all__ = ["BOTS", "DEFAULT_BOT", "Bot", "GreedyBot", "MCTSBot", "RandomBot", "evaluation_for",
           "make_bot", "play_out", "sample_chance", "seat_bots"]
