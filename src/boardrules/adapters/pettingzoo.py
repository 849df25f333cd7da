"""A PettingZoo AEC environment for any boardrules game (needs the ``rl`` extra).

    from boardrules.adapters.pettingzoo import env
    e = env("harvest", players=3)
    e.reset(seed=1)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else \\
            e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

Agents are ``player_0`` … ``player_{n-1}`` (seats p1 … pn). The action space is
``Discrete(2**action_bits)`` with the ids of :mod:`boardrules.adapters.encoding`; the
observation is ``{"observation": float32[2**observation_bits], "action_mask":
int8[2**action_bits]}``, built from ``Game.view(player)`` so it holds only what that
player may know. Chance is played by the game from the seed given to :meth:`reset`.
Several players to act at once (a ``simultaneous`` step) act one after another, lowest
seat first. Rewards come at the end: :func:`~boardrules.adapters.encoding.outcome` (1 for
first place … -1 for last). ``max_moves`` truncates long games. Before the first ``reset()``,
as PettingZoo's API has it, only ``possible_agents`` and the spaces are there: ``agents``,
``rewards`` and the other attributes ``reset()`` sets, and the methods that need a game,
raise :class:`NotResetError` ("call reset() first"; a ``RuntimeError`` and an
``AttributeError``).
"""

from __future__ import annotations

from typing import Any

try:
    import gymnasium
    import numpy as np
    from pettingzoo import AECEnv  # type: ignore[import-untyped,unused-ignore]
except ImportError as err:  # pragma: no cover - depends on the installed extras
    raise ImportError("the PettingZoo adapter needs the 'rl' extra: "
                      "pip install 'boardrules[rl]'") from err

from ..errors import IllegalActionError
from ..game import Action, Game
from ..record import SEED_RANGE
from ..ruleset import build_ruleset
from ..runtime import CHANCE
from . import encoding


class NotResetError(RuntimeError, AttributeError):
    """What the environment raises when a game in play is asked for before :meth:`reset`
    (or after :meth:`close`): a ``RuntimeError``, and an ``AttributeError`` too, since
    PettingZoo's API has the attributes ``reset`` sets (``agents``, ``rewards`` …) missing
    before it (its ``OrderEnforcingWrapper`` raises ``AttributeError`` for them;
    ``hasattr(env, "agents")`` is False)."""


_SET_BY_RESET = frozenset({"agents", "num_agents", "agent_selection", "rewards", "_cumulative_rewards",
                           "terminations", "truncations", "infos"})


class BoardrulesEnv(AECEnv):  # type: ignore[misc,unused-ignore]
    """A boardrules game as a PettingZoo AEC environment (see the module docstring).

    ``game``, ``modules``, ``options``, ``rules`` and ``texts`` are those of
    :func:`boardrules.build_ruleset` (``game`` None with ``texts``: your own rules);
    ``players`` the player count; ``action_bits`` and
    ``observation_bits`` the sizes of the action and observation spaces (powers of two);
    ``max_moves`` the number of player moves after which a game is truncated (None: never);
    ``render_mode`` None or ``"ansi"``. Raises what :func:`boardrules.build_ruleset` raises,
    ``ValueError`` for a player count the game does not allow, sizes out of range or a
    ``max_moves`` below 1, and ``TypeError`` for a size or ``max_moves`` that is no whole number.
    """

    metadata = {"render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, game: str | None, *, players: int, modules: tuple[str, ...] = (),
                 options: dict[str, Any] | None = None, rules: tuple[str, ...] = (),
                 texts: dict[str, str] | None = None, action_bits: int = encoding.ACTION_BITS,
                 observation_bits: int = encoding.OBSERVATION_BITS, max_moves: int | None = None,
                 render_mode: str | None = None):
        super().__init__()
        action_bits = encoding.check_bits(action_bits, "action_bits")   # (before the rules are built)
        observation_bits = encoding.check_bits(observation_bits, "observation_bits")
        self.ruleset = build_ruleset(game, modules=modules, options=options, rules=rules,
                                     texts=texts)
        Game(self.ruleset, players)     # the engine checks the player count
        self.game: Game | None = None   # until reset()
        if max_moves is not None:
            max_moves = encoding.check_max_moves(max_moves)
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.metadata = {**self.metadata, "name": f"boardrules_{encoding.game_name(self.ruleset)}_v0"}
        self.players = players
        self.action_bits = action_bits
        self.observation_bits = observation_bits
        self.max_moves = max_moves
        self.render_mode = render_mode
        self.possible_agents: list[str] = [f"player_{p}" for p in range(players)]
        self._seat = {a: p for p, a in enumerate(self.possible_agents)}
        n_obs, n_act = 1 << observation_bits, 1 << action_bits
        space = gymnasium.spaces.Dict({
            "observation": gymnasium.spaces.Box(-encoding.OBSERVATION_LIMIT, encoding.OBSERVATION_LIMIT,
                                                (n_obs,), np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (n_act,), np.int8),
        })
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {a: gymnasium.spaces.Discrete(n_act) for a in self.possible_agents}
        self._ids_state: object = None
        self._ids: dict[int, dict[int, Action]] = {}
        self._next_seed = 0

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[agent]

    # ---- the game ----
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game: with ``seed``, else with the seed after the last one used
        (0 first; after 2^63-1, -2^63). Same seed, same actions: same game. ``seed`` is a whole
        number from -2^63 to 2^63-1 (:func:`~boardrules.adapters.encoding.whole_seed`): else
        ``TypeError`` or ``ValueError``, the environment as it was."""
        start = self._next_seed if seed is None else encoding.whole_seed(seed)
        self.game = Game(self.ruleset, self.players, start)
        # (after the largest seed, the smallest: seeds as 64-bit integers wrap)
        self._next_seed = start + 1 if start < SEED_RANGE[1] else SEED_RANGE[0]
        self._moves = 0
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self._to_act()

    def _game(self) -> Game:
        if self.game is None:
            raise NotResetError("call reset() first: no game is running")
        return self.game

    def __getattr__(self, name: str) -> Any:
        # (called for what is not set, before the first reset(), and for agent_selection when it
        # raises NotResetError, an AttributeError: no game is running)
        if name in _SET_BY_RESET:
            raise NotResetError(f"{name}: call reset() first (possible_agents names the agents before it)")
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    @property
    def agent_selection(self) -> str:
        """The agent to act (:class:`NotResetError` before :meth:`reset` or after
        :meth:`close`: PettingZoo's ``last()`` and ``step()`` read it first)."""
        self._game()
        return self._agent_selection

    @agent_selection.setter
    def agent_selection(self, agent: str) -> None:
        self._agent_selection = agent

    def _to_act(self) -> str:
        to_act = self._game().players_to_act()
        if CHANCE in to_act:   # (the game plays chance itself: only when no outcome is allowed)
            encoding.check_not_stuck(self._game())
        return self.possible_agents[int(min(to_act))]

    def legal_ids(self, agent: str) -> dict[int, Action]:
        """``{id: action}`` for the actions ``agent`` may play now (empty when it is not
        that agent's turn)."""
        game = self._game()
        state = game.state
        if self._ids_state is not state:     # states are immutable: cache per state
            self._ids_state, self._ids = state, {}
        seat = self._seat[agent]
        if seat not in self._ids:
            self._ids[seat] = encoding.encode_actions(game.legal_actions(seat), self.action_bits)
        return self._ids[seat]

    def observe(self, agent: str) -> dict[str, Any]:
        mask = np.zeros(1 << self.action_bits, np.int8)
        mask[list(self.legal_ids(agent))] = 1
        vec = encoding.observation(self._game(), self._seat[agent], self.observation_bits)
        return {"observation": np.asarray(vec, np.float32), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Play action id ``action`` for the agent selected (None once it is done).
        Raises :class:`~boardrules.IllegalActionError` for an id that is not legal now
        (the game is unchanged) or once every agent is done (the game over, its agents
        removed: :meth:`reset` starts another), ``TypeError`` for one that is no whole number."""
        if not self.agents:   # (the dead steps removed them all: a KeyError of the last one's name)
            raise IllegalActionError(f"action id {action!r}: the game is over and every agent is done; "
                                     "reset() starts a new one", rule="flow")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        legal = self.legal_ids(agent)
        number = None if action is None else encoding.whole(action, f"{agent}: an action id")
        chosen = None if number is None else legal.get(number)
        if chosen is None:
            if not legal:
                encoding.check_not_stuck(self._game())
            raise IllegalActionError(f"{agent}: action id {number!r} is not legal now "   # (np.int64(3): 3)
                                     f"({len(legal)} legal ids)", rule="action_mask")
        game = self._game()
        self._cumulative_rewards[agent] = 0.0
        game.play(chosen)
        self._moves += 1
        self.rewards = {a: 0.0 for a in self.agents}
        if game.over:
            for a, value in zip(self.possible_agents, encoding.outcome(game)):
                self.rewards[a] = value
                self.terminations[a] = True
        elif self.max_moves is not None and self._moves >= self.max_moves:
            self.truncations = {a: True for a in self.agents}
        if not game.over:
            self.agent_selection = self._to_act()
        self._accumulate_rewards()

    def render(self) -> str | None:
        """``"ansi"``: the game, its scores and who is to act, as text."""
        if self.render_mode != "ansi" or self.game is None:
            return None
        scores = ", ".join(f"p{p + 1} {s['total']}" for p, s in enumerate(self.game.scores()))
        to_act = ", ".join(f"p{p + 1}" for p in sorted(self.game.players_to_act()))
        return f"{self.game!r} scores: {scores}; to act: {to_act or '-'}"

    def close(self) -> None:
        self.game = None


def env(game: str | None = None, **kwargs: Any) -> BoardrulesEnv:
    """A :class:`BoardrulesEnv` for ``game`` (arguments as the class's; None: Harvest, or
    with ``texts`` only those rules: :func:`~boardrules.adapters.encoding.adapter_game`);
    ``players`` defaults to the game's smallest player count."""
    game = encoding.adapter_game(game, kwargs.get("texts"))
    if "players" not in kwargs:
        kwargs["players"] = build_ruleset(game, modules=kwargs.get("modules", ()),
                                          options=kwargs.get("options"),
                                          rules=kwargs.get("rules", ()),
                                          texts=kwargs.get("texts")).players[0]
    return BoardrulesEnv(game, **kwargs)
