"""The engine: a :class:`Game` is a ruleset, a state and the record that led to it.

    game = boardrules.new_game("gaia-project", players=4, seed=7)
    for action in game.legal_actions(): ...
    game.play("p1 build_mine 3A11")     # text or Action; atomic; IllegalActionError if not legal
    game.undo()

Flow: the ruleset's ``flow`` runs its ``setup`` steps, then its ``rounds`` steps each
round, then ``finish``. A ``do`` step runs rules; a ``turns`` step lets players act in
an order (``seat``, ``snake``, ``reverse seat`` or ``by EXPR``) in a mode (``once``,
``until_pass``, ``simultaneous``). A turn is one ``main`` action plus any number of
``free`` actions, ended by ``done`` (automatic when the step has no free actions).
Pending decisions (``choose``, ``draw``) come before anything else, front first.

The package, by what each module owns (the :class:`Game` is built from mixins, one per part of
its machinery, so the hot paths look their methods up on ``self`` as before):

* ``core.py``: the :class:`Game` class, its public API and construction; :func:`new_game`,
  :func:`load_game`, :func:`final_mismatch`, :func:`rules_changed`
* ``actions.py``: :class:`Action`, its text forms, the wording of refusals
* ``notation.py``: the generic notation (:func:`parse_generic`), :func:`read_name`
* ``flow.py``: running an action, the flow's steps, turns and ``after turn`` blocks
* ``lanes.py``: simultaneous play (a ``simultaneous`` turns step's lanes)
* ``listing.py``: the candidates, the listing meter, :class:`LegalActions`, chance draws
* ``verdicts.py``: legality without a full run (guards, prechecks, settles, remembered runs)
* ``history.py``: the undo history (a played move kept, thinning, replay of dropped states)
"""

from __future__ import annotations

from ..runtime import CHANCE
from .actions import DONE, Action, _candidate, brief_action, format_action   # (_x: for tests)
from .core import Game, Score, View, final_mismatch, load_game, new_game, rules_changed
from .history import HISTORY_VALUES, RECENT_STATES
from .listing import LegalActions, _Meter, _redraws
from .notation import parse_generic, read_name
from .verdicts import ACCEPTED, KNOWN_STATES

# (pickles name a class by its module: these kept the path they had when all of this was one
# module, boardrules/game.py, so saved pickles load and new ones read as before)
for _cls in (Action, Game, LegalActions, _Meter):
    _cls.__module__ = __name__
del _cls

__all__ = ["ACCEPTED", "CHANCE", "DONE", "HISTORY_VALUES", "KNOWN_STATES",
           "RECENT_STATES", "Action", "Game", "LegalActions", "Score",
           "View", "brief_action", "final_mismatch", "format_action", "load_game", "new_game", "parse_generic",
           "read_name", "rules_changed"]
