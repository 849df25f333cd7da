"""A boardrules game as an OpenSpiel Python game (needs the ``openspiel`` extra).

    import pyspiel
    from boardrules.adapters.openspiel import register
    name = register("harvest")                  # "boardrules_harvest"
    game = pyspiel.load_game(name, {"players": 3, "seed": 7})
    state = game.new_initial_state()

OpenSpiel's int parameters are 32-bit: ``load(name, players=3, seed=2**40)`` takes any
seed the engine takes (a larger one goes in the text parameter ``seed_text``).

Then OpenSpiel's algorithms play it (``open_spiel.python.algorithms.mcts.MCTSBot`` …).
Action ids are those of :mod:`boardrules.adapters.encoding` (``num_distinct_actions`` is
``2**action_bits``); chance is explicit: at a chance node (a pending ``draw`` or
``choose … by chance``) ``chance_outcomes()`` lists the outcomes the rules allow with their
probabilities (``Game.chance_outcomes``: a bag's copies counted, an option by the times it
is listed, dice rolls uniform; a roll of
more than :data:`MAX_ROLLS` outcomes is given as that many rolls sampled from the game's
seed and move number, each as likely: an unbiased sample, since listing 6**n rolls is out
of reach). Several players to act at once act one after another, lowest seat first.
Returns are
:func:`~boardrules.adapters.encoding.outcome` (1 for first place … -1 for last), given
when the game ends; a game that reaches ``max_moves`` unfinished is truncated there (returns
0). The game type says imperfect information when the rules declare
``hidden`` or ``private`` variables. Observations come through OpenSpiel's observer
interface (``make_py_observer``): ``observation_tensor(player)`` is
:func:`~boardrules.adapters.encoding.observation` (``2**observation_bits`` numbers, as the
PettingZoo adapter's), ``observation_string(player)`` that player's view as text; with a
public-only observation type, a spectator's.

``state.serialize()`` is the game's record (:meth:`~boardrules.Game.save`: JSON, the moves in
the project's notation) and ``game.deserialize_state(text)`` reads one back
(:func:`deserialize_state`): data, bounded by :data:`~boardrules.limits.LIMITS`, safe to read
from anyone. OpenSpiel's own C++ forms of a Python game's state
(``pyspiel.serialize_game_and_state``, ``deserialize_game_and_state``, pickling a state) carry
its Python attributes as a pickle, which runs code as it loads: never load one you did not make.
"""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from typing import Any

try:
    import numpy as np
    import pyspiel  # type: ignore[import-not-found,import-untyped,unused-ignore]
except ImportError as err:  # pragma: no cover - depends on the installed extras
    raise ImportError("the OpenSpiel adapter needs the 'openspiel' extra: "
                      "pip install 'boardrules[openspiel]'") from err

from ..errors import NotationError, ReplayMismatch
from ..game import Action, Game, rules_changed
from ..quoting import brief_text, check_int, read_whole
from ..record import Record, check_seed
from ..ruleset import build_ruleset
from ..runtime import CHANCE, Dice
from . import encoding

_DEFAULT_MAX_MOVES = 10_000
MAX_ROLLS = 1296
"""Dice rolls with at most this many outcomes (four dice) are listed whole at a chance
node; larger ones (an Eclipse battle's volley) by this many sampled rolls."""


# short name → what was registered under it: the rules (Ruleset.id) and the sizes
_registered: dict[str, tuple[str, int, int, int]] = {}


def register(game: str | None = None, *, modules: tuple[str, ...] = (),
             options: dict[str, Any] | None = None, rules: tuple[str, ...] = (),
             texts: dict[str, str] | None = None,
             action_bits: int = encoding.ACTION_BITS, short_name: str | None = None,
             max_moves: int = _DEFAULT_MAX_MOVES,
             observation_bits: int = encoding.OBSERVATION_BITS) -> str:
    """Register ``game`` (with ``modules``, ``options``, house ``rules`` and ``texts``, as for
    :func:`boardrules.build_ruleset`; ``game`` None: Harvest, or with ``texts`` only your own
    rules) with
    OpenSpiel and return its short name (``boardrules_<game>``, from the title for your
    own rules, unless ``short_name`` is given). Registering the same rules with the same
    sizes again returns the name; other rules or sizes under a name already taken raise
    ``ValueError`` (the game registered first would be loaded). The game's
    parameters: ``players`` (default: the game's smallest count), ``seed`` (0; an OpenSpiel
    int, within :data:`SEED_PARAMETER`) and ``seed_text`` (a seed beyond that range in
    digits, or a text seed; :func:`load` chooses between them).
    ``max_moves`` is the game length OpenSpiel is told (``max_game_length``, chance outcomes
    counted): a game that reaches it unfinished is truncated there, terminal with returns of 0
    for everyone (as :func:`~boardrules.adapters.encoding.outcome` gives while a game goes
    on), so no game is longer than promised; ``observation_bits`` sets the
    length of ``observation_tensor`` (``2**observation_bits``). Raises what
    :func:`boardrules.build_ruleset` raises, ``ValueError`` for ``action_bits`` or
    ``observation_bits`` out of range, a ``max_moves`` below 1 or a ``short_name`` holding
    ``(``, and ``TypeError`` for a size or ``max_moves`` that is no whole number; loading the
    game with a player count the game does not allow raises too."""
    if short_name is not None and "(" in short_name:   # (registered for good, never loadable)
        raise ValueError(f"short_name {short_name!r}: OpenSpiel reads '(' in a game's name as "
                         f"the start of its parameters, so the game could not be loaded")
    action_bits = encoding.check_bits(action_bits, "action_bits")
    observation_bits = encoding.check_bits(observation_bits, "observation_bits")
    max_moves = encoding.check_max_moves(max_moves)
    ruleset = build_ruleset(encoding.adapter_game(game, texts), modules=modules, options=options,
                            rules=rules, texts=texts)
    name = short_name or f"boardrules_{encoding.game_name(ruleset)}"
    registration = (ruleset.id, action_bits, observation_bits, max_moves)
    if name in pyspiel.registered_names():
        if _registered.get(name) != registration:
            raise ValueError(f"OpenSpiel already has a game named {name!r} (other rules, or "
                             f"other action_bits, observation_bits or max_moves): "
                             f"give another short_name")
        return name
    _registered[name] = registration
    lo, hi = ruleset.players
    hidden = any(v.hidden or v.private for v in ruleset.vars.values())
    info = pyspiel.GameType.Information
    game_type = pyspiel.GameType(
        short_name=name, long_name=f"{ruleset.title} (boardrules)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=info.IMPERFECT_INFORMATION if hidden else info.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=hi, min_num_players=lo,
        provides_information_state_string=False, provides_information_state_tensor=False,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification={"players": lo, "seed": 0, "seed_text": ""})

    class BoardrulesGame(pyspiel.Game):  # type: ignore[misc,unused-ignore]
        """``game`` as an OpenSpiel game (parameters ``players``, ``seed`` and ``seed_text``)."""

        def __init__(self, params: dict[str, Any] | None = None) -> None:
            params = {"players": lo, "seed": 0, "seed_text": "", **(params or {})}
            self.players = int(params["players"])
            self.seed = _seed(params["seed"], params["seed_text"])
            Game(ruleset, self.players, self.seed, auto_chance=False)  # the engine checks them
            self.ruleset = ruleset
            self.action_bits = action_bits
            self.max_moves = max_moves
            size = 1 << action_bits
            super().__init__(game_type, pyspiel.GameInfo(
                num_distinct_actions=size, max_chance_outcomes=size, num_players=self.players,
                min_utility=-1.0, max_utility=1.0, max_game_length=max_moves), params)

        def new_initial_state(self) -> BoardrulesState:
            return BoardrulesState(self, Game(ruleset, self.players, self.seed, auto_chance=False))

        def deserialize_state(self, text: str) -> BoardrulesState:
            """The state ``state.serialize()`` gave (:func:`deserialize_state`)."""
            return deserialize_state(self, text)

        def make_py_observer(self, iig_obs_type: Any = None,
                             params: dict[str, Any] | None = None) -> BoardrulesObserver:
            """OpenSpiel's observer of this game (``observation_tensor``,
            ``observation_string`` and ``open_spiel.python.observation.make_observation``)."""
            return BoardrulesObserver(iig_obs_type, params, observation_bits)

    pyspiel.register_game(game_type, BoardrulesGame)
    return name


SEED_PARAMETER = (-2 ** 31, 2 ** 31 - 1)
"""The range of the game parameter ``seed``: OpenSpiel's int parameters are C++ ints, and
``pyspiel.load_game`` fails converting a larger one before the game sees it (a raw pybind
error); a seed beyond goes in ``seed_text`` (:func:`load` puts it there)."""


def _seed(seed: int, text: str) -> int | str:
    """The game's seed from the parameters ``seed`` and ``seed_text`` (digits: that whole
    number, to ±2^63; any other text: a text seed). ``ValueError`` for both given, or for
    a seed the engine refuses (naming ``seed_text``)."""
    if text == "":
        return int(seed)
    if seed != 0:
        raise ValueError(f"seed {seed} and seed_text {brief_text(text, 40)}: give one of them")
    number = read_whole(text)
    return check_seed(text if number is None else number, "seed_text")


def load(name: str, *, players: int | None = None, seed: int = 0) -> Any:
    """``pyspiel.load_game(name, ...)`` of a game :func:`register` registered, for ``players``
    (None: the game's smallest count) and any whole-number seed the engine takes (-2^63 to
    2^63-1): one beyond :data:`SEED_PARAMETER` goes as ``seed_text``. ``TypeError`` for a
    seed or player count that is no whole number, ``ValueError`` for a seed out of that
    range (naming the parameter and its range), for a ``name`` :func:`register` did not
    register in this process (naming those it did: another OpenSpiel game has no
    ``players`` or ``seed_text`` parameter), ``TypeError`` for a ``name`` that is no text,
    and what loading raises."""
    if not isinstance(name, str):
        raise TypeError(f"name is the text register() returned, not {brief_text(name, 40)}")
    if name not in _registered:
        known = ", ".join(sorted(_registered)) or "none yet"
        raise ValueError(f"{brief_text(name, 60)} is not a game boardrules registered with OpenSpiel "
                         f"(registered: {known}); register(GAME) returns the name to load, "
                         f"pyspiel.load_game loads OpenSpiel's own games")
    number = encoding.whole_seed(check_int(seed, "seed"))
    params: dict[str, Any] = {}
    if players is not None:
        params["players"] = check_int(players, "players")
    if SEED_PARAMETER[0] <= number <= SEED_PARAMETER[1]:
        params["seed"] = number
    else:
        params["seed_text"] = str(number)
    return pyspiel.load_game(name, params)


class BoardrulesObserver:
    """OpenSpiel's observer interface (``PyObserver``) for a boardrules game: ``tensor`` (and
    ``dict["observation"]``) is :func:`~boardrules.adapters.encoding.observation` of the
    player after :meth:`set_from`; :meth:`string_from` is the player's view as text. A
    public-only observation type observes as a spectator (``Game.view(None)``). Raises
    ``ValueError`` for observation parameters (there are none) and for a perfect-recall
    type or one that shows every player's private information (not provided: a view is
    what the player may know now)."""

    def __init__(self, iig_obs_type: Any, params: dict[str, Any] | None, bits: int) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params!r}")
        info = pyspiel.PrivateInfoType
        if iig_obs_type is not None and (iig_obs_type.perfect_recall
                                         or iig_obs_type.private_info == info.ALL_PLAYERS):
            raise ValueError("boardrules games provide a player's observation (no perfect "
                             "recall, no other player's private information)")
        self._public = iig_obs_type is not None and iig_obs_type.private_info == info.NONE
        self._bits = bits
        self.tensor = np.zeros(1 << bits, np.float32)
        self.dict = {"observation": self.tensor}

    def _viewer(self, player: int) -> int | None:
        return None if self._public else player

    def set_from(self, state: "BoardrulesState", player: int) -> None:
        self.tensor[:] = encoding.observation(state.game, self._viewer(player), self._bits)

    def string_from(self, state: "BoardrulesState", player: int) -> str:
        return repr(state.game.view(self._viewer(player)))


class BoardrulesState(pyspiel.State):  # type: ignore[misc,unused-ignore]
    """An OpenSpiel state holding a boardrules :class:`~boardrules.Game`
    (``self.game``; read it, do not play on it directly)."""

    def __init__(self, spiel_game: Any, game: Game) -> None:
        super().__init__(spiel_game)
        self.game = game
        self._bits = spiel_game.action_bits
        self._max_moves: int = spiel_game.max_moves
        self._ids_state: object = None
        self._ids: dict[int, Action] = {}
        self._probs: dict[int, float] = {}

    def _legal(self) -> dict[int, Action]:
        """``{id: action}`` for the actions legal now (the chance outcomes at a chance node;
        none at a terminal state, a truncated one too)."""
        if self.is_terminal():
            self._ids, self._probs = {}, {}
            self._ids_state = None
        elif self._ids_state is not self.game.state:
            weights = self._chance_weights()
            if weights is None:   # only the player OpenSpiel is told to act, in a simultaneous step too
                player = self.current_player()
                actions: Any = self.game.legal_actions(player) if player >= 0 else ()
            else:
                actions = weights
            self._ids = encoding.encode_actions(actions, self._bits)
            if not self._ids:
                encoding.check_not_stuck(self.game)
            self._ids_state = self.game.state
            total = sum(weights.values()) if weights else 0
            self._probs = {i: float(weights[a] / total) for i, a in self._ids.items()} if weights else {}
        return self._ids

    def _chance_weights(self) -> dict[Action, Fraction] | None:
        """At a chance node, each outcome the rules allow with its weight (else None): the
        game's :meth:`~boardrules.Game.chance_outcomes` (a bag's copies counted, an option by
        the times it is listed, each roll alike; an outcome a ``require`` in the decision's body
        refuses left out, the others sharing its probability, as the game's own draw does); a
        roll of more than :data:`MAX_ROLLS` outcomes as that many rolls sampled from the game's
        seed and move number."""
        decision = self.game.chance_due()
        if decision is None:
            return None
        if isinstance(decision.options, Dice) and len(decision.options) > MAX_ROLLS:
            rng = random.Random(f"{self.game.seed}/{len(self.game.record.actions)}")
            rolls = Counter(Action(CHANCE, decision.label, (decision.options.sample(rng),))
                            for _ in range(MAX_ROLLS))
            return {a: Fraction(n) for a, n in rolls.items() if self.game.is_legal(a)}
        return dict(self.game.chance_outcomes())

    def current_player(self) -> int:
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        to_act = self.game.players_to_act()
        if CHANCE in to_act:
            return int(pyspiel.PlayerId.CHANCE)
        return int(min(to_act))

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self._legal()) if player == self.current_player() else []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        self._legal()
        return sorted(self._probs.items())

    def _apply_action(self, action: int) -> None:
        chosen = self._legal().get(action)
        if chosen is None:
            raise ValueError(f"action id {action} is not legal now")
        self.game.play(chosen, check=False)

    def _action_to_string(self, player: int, action: int) -> str:
        chosen = self._legal().get(action)
        return str(chosen) if chosen is not None else f"action id {action}"

    def is_terminal(self) -> bool:
        """Over, or truncated at ``max_moves`` (OpenSpiel's ``max_game_length``: longer
        histories break its promise; the record holds every move of the state, chance's too)."""
        return self.game.over or len(self.game.record.actions) >= self._max_moves

    def returns(self) -> list[float]:
        return encoding.outcome(self.game)

    def __str__(self) -> str:
        return f"{self.game!r} {self.game.record.actions[-3:]}"

    def serialize(self) -> str:
        """The state as data: its game's record (:meth:`~boardrules.Game.save`, compact JSON),
        read back by ``game.deserialize_state`` (:func:`deserialize_state`)."""
        return self.game.save(compact=True)

    def clone(self) -> "BoardrulesState":
        """A copy that plays on independently (same ruleset, state and record so far)."""
        return BoardrulesState(self.get_game(), self.game.copy())



def deserialize_state(spiel_game: Any, text: str) -> BoardrulesState:
    """The state of ``spiel_game`` (a game :func:`register` registered, loaded) that
    ``state.serialize()`` gave: its record read as data (never unpickled), bounded by
    :data:`~boardrules.limits.LIMITS`, then replayed from a new initial state move by move
    through OpenSpiel's ``apply_action``, so the state's ``history()`` is as it was. Raises
    ``TypeError`` for ``text`` that is no str,
    :class:`~boardrules.errors.NotationError` for text that is no record (OpenSpiel's own
    pickled form named) or a move that does not parse, ``ValueError`` for a record of other
    rules, players or seed than the game's, of more moves than its ``max_moves``, or holding
    a move not legal (not offered) where it stands, and
    :class:`~boardrules.errors.ReplayMismatch` for moves that end in another state than the
    record's ``final`` digest."""
    if not isinstance(text, str):
        raise TypeError(f"a serialized state is the text state.serialize() gave, not {brief_text(text, 40)}")
    try:
        record = Record.loads(text)
    except NotationError:
        if "__dict__=" in text:   # (C++'s form of a Python game's state: its attributes pickled)
            raise NotationError("this is OpenSpiel's own serialization of a Python game's state, "
                                "whose attributes are a pickle (it runs code as it loads): boardrules "
                                "never reads it; give state.serialize()'s text") from None
        raise
    state: BoardrulesState = spiel_game.new_initial_state()
    mine = state.game.record
    for field in ("game", "modules", "options", "rules", "texts", "players", "seed"):
        if getattr(record, field) != getattr(mine, field):
            raise ValueError(f"the serialized state is of another game than this one: its {field} "
                             f"{brief_text(getattr(record, field), 60)}, not "
                             f"{brief_text(getattr(mine, field), 60)}")
    if len(record.actions) > state._max_moves:
        raise ValueError(f"the serialized state has {len(record.actions)} moves, more than this "
                         f"game's max_moves ({state._max_moves})")
    for n, move in enumerate(record.actions, 1):
        action = state.game.parse(move)
        ids = {a: i for i, a in state._legal().items()}
        if action not in ids:
            raise ValueError(f"move {n} of the serialized state, {brief_text(move, 60)}, is not "
                             f"legal (among the actions offered) where it stands")
        state.apply_action(ids[action])
    if record.final is not None and record.final != state.game.state.digest():
        changed = rules_changed(record, state.game.ruleset)
        raise ReplayMismatch("the serialized state's moves end in another state than its final digest: "
                             + (f"the rules changed since: {changed}" if changed else
                                "it was altered, or this version of boardrules plays its moves differently"))
    return state
