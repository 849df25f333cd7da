"""The site notation (``rules/gaia-notation.md`` §2) of the ``auction``, ``random-factions`` and
``xshape`` modules' actions and options, for :func:`.export.export_game` and :mod:`.replay` (their
``ModuleSpec.extras``; the keys are those of :mod:`.export`'s and :mod:`.replay`'s module
docstrings).

* ``auction``: ``auction_faction X`` is ``faction X`` (putting X up for auction, or choosing it in
  the form bid-while-choosing); a following ``bid_amount N`` makes the command ``bid X N``. The
  lines go by seat (``p1 faction X``) until the auction ends, as on the site; the file's options
  carry ``auction`` (the module's ``auction_form``).
* ``xshape``: the file's options carry ``layout: "xshape"`` (the site lays the map's sectors out by
  it; without it our replay read the 8 sectors as a standard map and refused them).
* ``random-factions``: ``pick_side X`` is written ``faction X``; the boards dealt (``chance board
  B``) go to the file's ``setup.dealtBoards`` (home planet letters in seat order), which our replay
  reads back (module ``random-factions`` with that deal). The file's options do not set the site's
  ``randomFactions``: the site deals a *faction* per seat from its own seed, not a board, so the
  game is written as the free faction choice it also is (the same game to the site's engine).

Read back (:data:`REPLAY_KEY`): with ``auction``, ``faction X`` is ``auction_faction X`` and
``bid X N`` is ``auction_faction X`` then ``bid_amount N``; with ``random-factions``, ``faction X``
is ``pick_side X`` and the boards dealt are the file's ``setup.dealtBoards``, else (a site record)
the home planets of the factions the seats played.
"""

from __future__ import annotations

from boardrules.quoting import move_words

EXPORT_KEY = "gaia-project.export"   # export.EXPORT_KEY (export imports replay: heavy)
REPLAY_KEY = "gaia-project.replay"   # replay_hooks.REPLAY_KEY


def _bid(last: str, args: tuple) -> str:
    return f"bid {move_words(last)[-1]} {args[0]}"


def _auction_bid(bid) -> tuple:
    return (("auction_faction", (bid.faction.replace("-", "_"),)), ("bid_amount", (bid.amount,)))


def _dealt_boards(record, rs) -> dict:
    """The board dealt to each seat: the export's deal, else its faction's home planet."""
    return {"board": list(record.setup.dealt_boards)
            or [rs.entities[f.replace("-", "_")].fields["home"] for f in record.factions]}


AUCTION = {EXPORT_KEY: {
    "lines": {"auction_faction": lambda a: f"faction {a[0].replace('_', '-')}"},
    "amends": {"bid_amount": _bid},
    "by_seat": ("auction_faction", "bid_amount"),
    "options": lambda rs: {"auction": rs.option("auction_form")},
}, REPLAY_KEY: {
    "commands": {"faction": "auction_faction", "bid": _auction_bid},
}}

XSHAPE = {EXPORT_KEY: {"options": lambda rs: {"layout": "xshape"}}}

RANDOM_FACTIONS = {EXPORT_KEY: {
    "picks": ("pick_side",),
    "setup": lambda draws: {"dealtBoards": list(draws.get("board", ()))},
}, REPLAY_KEY: {
    "commands": {"faction": "pick_side"},
    "outcomes": _dealt_boards,
}}
