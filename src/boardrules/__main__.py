"""The ``boardrules`` command (and ``python -m boardrules``): the CLI (:mod:`boardrules.cli`),
loaded here so that Ctrl-C while the engine loads (its first second or two) ends the
command as Ctrl-C in a game does, exit status 130, not with a traceback."""

from __future__ import annotations

import sys


def main() -> None:
    """Entry point of the ``boardrules`` script."""
    try:
        from .cli import main as cli
    except KeyboardInterrupt:
        sys.stderr.write("\ninterrupted while boardrules was loading\n")
        sys.exit(130)
    cli()


if __name__ == "__main__":
    main()
