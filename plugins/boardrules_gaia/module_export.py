"""The site notation (``rules/gaia-notation.md`` §2) of the ``auction`` and ``random-factions``
modules' actions, for :func:`.export.export_game` (their ``ModuleSpec.extras``; the keys are
those of :mod:`.export`'s module docstring).

* ``auction``: ``auction_faction X`` is ``faction X`` (putting X up for auction, or choosing it in
  the form bid-while-choosing); a following ``bid_amount N`` makes the command ``bid X N``. The
  lines go by seat (``p1 faction X``) until the auction ends, as on the site; the file's options
  carry ``auction`` (the module's ``auction_form``).
* ``random-factions``: ``pick_side X`` is written ``faction X``; the boards dealt (``chance board
  B``) go to the file's ``setup.dealtBoards`` (home planet letters in seat order), which our replay
  reads back (module ``random-factions`` with that deal). The file's options do not set the site's
  ``randomFactions``: the site deals a *faction* per seat from its own seed, not a board, so the
  game is written as the free faction choice it also is (the same game to the site's engine).
"""

from __future__ import annotations

EXPORT_KEY = "gaia-project.export"   # export.EXPORT_KEY (export imports replay: heavy)


def _bid(last: str, args: tuple) -> str:
    return f"bid {last.split()[-1]} {args[0]}"


AUCTION = {EXPORT_KEY: {
    "lines": {"auction_faction": lambda a: f"faction {a[0].replace('_', '-')}"},
    "amends": {"bid_amount": _bid},
    "by_seat": ("auction_faction", "bid_amount"),
    "options": lambda rs: {"auction": rs.option("auction_form")},
}}

RANDOM_FACTIONS = {EXPORT_KEY: {
    "picks": ("pick_side",),
    "setup": lambda draws: {"dealtBoards": list(draws.get("board", ()))},
}}
