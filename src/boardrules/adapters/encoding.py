"""Stable action ids and per-player observation vectors.

Learning toolkits want a fixed set of action numbers and fixed-length numeric
observations, while a boardrules game has open-ended action texts and a state of named
values. This module maps one onto the other the same way in every state, game and process:

* **Action id.** An action's *key* is its canonical text without the actor
  (``"build_farm a1"`` for ``p2 build_farm a1``, ``"c sow"`` for ``chance c sow``). Its id
  is the first 8 bytes of the BLAKE2b digest of the key (UTF-8), big-endian, modulo
  ``2**bits``. The same action thus has the same id in every state, for every player,
  in every run. When two actions legal in one state share an id (rare: about
  ``n*n / 2**(bits+1)`` expected for ``n`` legal actions), they are taken in key order and
  each later one moves to the next free id (wrapping around), so ids stay one-to-one
  within the state.
* **Observation.** :func:`observation` hashes the named values of ``Game.view(player)``
  (feature hashing) into a vector of ``2**bits`` float32 numbers: what the player may not
  know is not in the view, so it is not in the vector.
"""

from __future__ import annotations

import functools
import hashlib
from typing import Iterable

from ..game import Action, Game, format_value

ACTION_BITS = 16
"""Default size of the action space: ``2**16`` ids."""
OBSERVATION_BITS = 12
"""Default length of the observation vector: ``2**12`` numbers."""
OBSERVATION_LIMIT = 1_000_000.0
"""Observation entries are clipped to ``±OBSERVATION_LIMIT``."""


def action_key(action: Action) -> str:
    """The canonical text of ``action`` without its actor: ``"build_farm a1"``."""
    return " ".join([action.name, *(format_value(a) for a in action.args)])


@functools.lru_cache(maxsize=1 << 16)
def _digest(text: str) -> int:
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")


def action_id(action: Action, bits: int = ACTION_BITS) -> int:
    """The id of ``action`` before collisions are resolved: ``0 <= id < 2**bits``."""
    return _digest(action_key(action)) % (1 << bits)


def encode_actions(actions: Iterable[Action], bits: int = ACTION_BITS) -> dict[int, Action]:
    """Ids of the actions legal in one state: ``{id: action}``, one-to-one (see the
    module's docstring for how colliding ids are moved)."""
    size = 1 << bits
    if size <= 0:
        raise ValueError("bits must be positive")
    out: dict[int, Action] = {}
    for action in sorted(actions, key=action_key):
        i = action_id(action, bits)
        for _ in range(size):
            if i not in out:
                break
            i = (i + 1) % size
        else:
            raise ValueError(f"more than {size} legal actions: use more action bits")
        out[i] = action
    return out


def observation(game: Game, player: int | None, bits: int = OBSERVATION_BITS) -> list[float]:
    """``player``'s observation of ``game`` (``None``: a spectator's): ``2**bits`` numbers.

    Built from ``game.view(player)`` only. Each value adds to the entry its feature's name
    hashes to (as for action ids): a number or truth value under its key (``"r|coins|0"``),
    any other value as ``key=value`` counted once, a list as its length (``key#``) and
    each element counted (``key=element``); pending decisions as ``pending|label|player``
    and their visible options; the observer's seat (``seat=P``) and the players to act
    (``to_act=P``). Entries are clipped to ``±OBSERVATION_LIMIT``.
    """
    size = 1 << bits
    vec = [0.0] * size

    def add(feature: str, amount: float = 1.0) -> None:
        vec[_digest(feature) % size] += amount

    add(f"seat={player}")
    for p in game.players_to_act():
        add(f"to_act={p}")
    view = game.view(player)
    for key, value in view["values"].items():
        name = "|".join(str(k) for k in key)
        if isinstance(value, (bool, int, float)):
            add(name, float(value))
        elif isinstance(value, tuple):
            add(name + "#", float(len(value)))
            for element in value:
                add(f"{name}={format_value(element)}")
        else:
            add(f"{name}={format_value(value)}")
    for d in view["pending"]:
        prefix = f"pending|{d.label}|{d.player}"
        add(prefix)
        if isinstance(d.options, tuple):     # dice show no options: their outcome is to come
            for option in d.options:
                add(f"{prefix}={format_value(option)}")
    return [min(max(x, -OBSERVATION_LIMIT), OBSERVATION_LIMIT) for x in vec]


def outcome(game: Game) -> list[float]:
    """Each player's result of a finished game in ``[-1, 1]`` from
    :meth:`Game.ranking`: first place 1, last place -1, places between evenly spaced;
    players sharing a place share its value; 0 for everyone while the game goes on or when
    all share one place."""
    result = [0.0] * game.players
    if not game.over:
        return result
    places = game.ranking()
    if len(places) > 1:
        for i, place in enumerate(places):
            for p in place:
                result[p] = 1.0 - 2.0 * i / (len(places) - 1)
    return result
