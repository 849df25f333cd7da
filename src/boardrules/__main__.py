"""The ``boardrules`` command (and ``python -m boardrules``): the CLI (:mod:`boardrules.cli`),
loaded here so that Ctrl-C while the engine loads (its first second or two; the plugins load
in :func:`boardrules.cli.main`, which ends the same way) ends the command as Ctrl-C in a game
does, exit status 130, not with a traceback."""

from __future__ import annotations

import sys
from typing import NoReturn


def loading_interrupted() -> NoReturn:
    """End the command after Ctrl-C while the CLI or the plugins load: status 130, one line."""
    sys.stderr.write("\ninterrupted while boardrules was loading\n")
    sys.exit(130)


def main() -> None:
    """Entry point of the ``boardrules`` script."""
    try:
        from .cli import main as cli
    except KeyboardInterrupt:
        loading_interrupted()
    cli()


if __name__ == "__main__":
    main()
