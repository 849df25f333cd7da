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

from ..game import Action, Game
from ..quoting import as_int, brief_text, brief_value, check_int, format_value
from ..record import SEED_RANGE
from ..ruleset import Ruleset

ACTION_BITS = 16
"""Default size of the action space: ``2**16`` ids."""
OBSERVATION_BITS = 12
"""Default length of the observation vector: ``2**12`` numbers."""
OBSERVATION_LIMIT = 1_000_000.0
"""Observation entries are clipped to ``±OBSERVATION_LIMIT``."""


def whole(value: object, what: str) -> int:
    """``value`` as an int if it is a whole number (an int or a NumPy integer; no bool), else
    ``TypeError`` naming ``what``: ``int()`` cut 1.7 to action id 1 and read the text '7' as 7."""
    number = as_int(value)
    if number is None:
        raise TypeError(f"{what} is a whole number (an int or a NumPy integer), not {brief_text(value, 40)}")
    return number


def whole_seed(value: object, what: str = "seed") -> int:
    """``value`` as an int if it is a seed the adapters (and ``boardrules play --seed``) take: a
    whole number (:func:`whole`) from -2^63 to 2^63-1 (:data:`~boardrules.record.SEED_RANGE`,
    the 64-bit seeds learning toolkits pass), else ``TypeError`` for another type and
    ``ValueError`` naming that range (the engine's own message offers a text seed, which the
    adapters' ``seed`` and ``--seed`` do not take)."""
    number = whole(value, what)
    if not SEED_RANGE[0] <= number <= SEED_RANGE[1]:
        raise ValueError(f"{what} {brief_value(number, 40)}: expected a whole number (from -2^63 "
                         f"to 2^63-1: a 64-bit seed)")
    return number


MAX_BITS = 20
"""The most bits of an action space or observation: ``2**20`` ids or entries. The ids of one
state's legal actions are one-to-one, so they need at least as many ids as actions (an action
lists at most ``LIMITS.max_candidates``, 100,000: 2^17), and collisions (about
``n*n / 2**(bits+1)`` for ``n`` legal actions) are rare: 0.01 a state at 2^20 for the 150 or so
real games list at most. More only costs memory: every observation holds an action mask of
``2**bits`` bytes and ``2**bits`` float32 numbers built from a Python list of as many (at 20:
1 MiB and 4 MiB; at 30 a mask alone was 1 GiB)."""


def check_bits(bits: int, what: str = "bits") -> int:
    """``bits`` (as an int) if it is a size these encodings allow (a whole number from 1 to
    :data:`MAX_BITS`), else ``TypeError`` for another type, ``ValueError`` for a number out
    of range (both naming ``what``: ``action_bits``, ``observation_bits``)."""
    number = check_int(bits, what)
    if not 1 <= number <= MAX_BITS:
        raise ValueError(f"{what} must be an int from 1 to {MAX_BITS} (2**{what} ids or entries: "
                         f"{MAX_BITS} gives {1 << MAX_BITS:,}, far more than a game lists; each "
                         f"observation holds 2**{what} bytes or numbers), not {number}")
    return number


def check_max_moves(moves: int) -> int:
    """``moves`` (as an int) if it is a game length bound (a whole number, at least 1), else
    ``TypeError`` for another type (a text failed at the first move), ``ValueError`` for 0 or
    less (it truncated every game after its first move, or told OpenSpiel a game length it
    never has)."""
    number = check_int(moves, "max_moves")
    if number < 1:
        raise ValueError(f"max_moves must be a whole number of moves, at least 1, not {number}")
    return number


def check_not_stuck(game: Game) -> None:
    """Raise ``GameStuckError`` (where the flow is and why nothing is legal) when nobody can
    act and ``game`` is not over: called where an adapter found no legal id, which it would
    otherwise offer as an empty mask or an empty list of chance outcomes at a node that is
    not terminal."""
    if not game.over:
        len(game.legal_actions())   # (everyone's listing raises it when nobody can act)


DEFAULT_GAME = "harvest"
"""The game the adapters build when given none and no rules of one's own (the demo game)."""


def adapter_game(game: str | None, texts: object) -> str | None:
    """The game an adapter's ``game`` argument names: ``game``; when None, :data:`DEFAULT_GAME`
    unless ``texts`` gives rules of one's own (then those alone: on top of Harvest, a text
    declaring its own game was refused as 'a second game declaration')."""
    return DEFAULT_GAME if game is None and not texts else game


def game_name(ruleset: Ruleset) -> str:
    """The game's name for the toolkits' registries: its plugin name, or for rules given as
    texts their ``title`` (the game's name when untitled), lower case,
    other characters than letters and digits as ``_`` (``gaia_project``)."""
    name = ruleset.game or ruleset.title
    return "".join(c if c.isalnum() else "_" for c in name.lower())


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
    size = 1 << check_bits(bits)
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

    Built from ``game.view(player)`` only. Each named value adds to the entry its feature's
    name hashes to (as for action ids; the name is the key's parts joined by ``|``): a
    number or truth value its amount under its name (``r|coins|0``), a list its length
    (``NAME#``) and 1 for each element (``NAME=element``), any other value 1 under
    ``NAME=value``. Also the observer's seat (``seat|P``: 1), each player to act
    (``to_act|P``: 1) and each pending decision as the list of the options the player may
    see (``pending|LABEL|P``; a chance decision shows none). Entries are clipped to
    ``±OBSERVATION_LIMIT``.
    """
    size = 1 << check_bits(bits)
    vec = [0.0] * size
    view = game.view(player)
    items: list[tuple[tuple[object, ...], object]] = [(("seat", player), True)]
    items += [(("to_act", p), True) for p in sorted(game.players_to_act())]
    items += view["values"].items()
    for d in view["pending"]:
        # dice show no options: their outcome is still to come
        items.append((("pending", d.label, d.player), d.options if isinstance(d.options, tuple) else ()))
    for key, value in items:
        for i, amount in _features(key, value, size):
            vec[i] += amount
    if max(vec) > OBSERVATION_LIMIT or min(vec) < -OBSERVATION_LIMIT:
        vec = [min(max(x, -OBSERVATION_LIMIT), OBSERVATION_LIMIT) for x in vec]
    return vec


@functools.lru_cache(maxsize=1 << 16)
def _features(key: tuple[object, ...], value: object, size: int) -> tuple[tuple[int, float], ...]:
    """The (entry, amount) pairs one named value adds (cached: state values are immutable
    and most stay the same from one move to the next)."""
    name = "|".join(str(k) for k in key)
    if isinstance(value, (bool, int, float)):
        pairs = [(name, float(value))]
    elif isinstance(value, tuple):
        pairs = [(name + "#", float(len(value)))]
        pairs += [(f"{name}={format_value(element)}", 1.0) for element in value]
    else:
        pairs = [(f"{name}={format_value(value)}", 1.0)]
    return tuple((_digest(feature) % size, amount) for feature, amount in pairs)


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
