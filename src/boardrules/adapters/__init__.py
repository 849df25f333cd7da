"""Adapters to reinforcement-learning and game-theory toolkits.

* :mod:`boardrules.adapters.encoding` — the stable action ids and per-player observation
  vectors both adapters use (no third-party dependency);
* :mod:`boardrules.adapters.pettingzoo` — a PettingZoo AEC environment for any game
  (needs the ``rl`` extra: ``pip install "boardrules[rl]"``);
* :mod:`boardrules.adapters.openspiel` — a boardrules game registered as an OpenSpiel
  Python game (needs the ``openspiel`` extra).
"""
