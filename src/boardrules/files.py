"""Reading a file a user names, bounded: a rule file or a record may be a device that never ends
(``/dev/zero``) or a named pipe that no program writes to."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path


def make_folder(path: Path) -> None:
    """Make folder ``path`` and the folders above it that are missing. Raises ``OSError``; a
    file where a folder is wanted is named (``out is not a folder``), where mkdir said
    ``File exists`` (a file ``out``, ``--out /dev/null``) and the user looked for a file ``x.csv``."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):   # (a file in its place, or above it)
        taken = next((p for p in (path, *path.parents) if p.exists() and not p.is_dir()), path)
        raise NotADirectoryError(errno.ENOTDIR, f"{taken} is not a folder", str(path)) from None


def not_readable(err: OSError | UnicodeDecodeError) -> str:
    """Why a file a user named cannot be read, in the user's terms, the one wording of every
    command: the system's reason (``No such file or directory``) or ``it is not UTF-8 text
    (invalid start byte at byte 0)``."""
    if isinstance(err, UnicodeDecodeError):
        return f"it is not UTF-8 text ({err.reason} at byte {err.start})"
    return err.strerror or str(err)


def read_bounded(path: str | Path, limit: int) -> tuple[bytes, bool]:
    """At most ``limit`` bytes from the start of ``path``, and whether it is a regular file
    (not a device or a pipe). A named pipe that no program writes to reads as empty instead of
    waiting for a writer without end. Raises ``OSError``."""
    nonblocking = getattr(os, "O_NONBLOCK", 0)   # (opening a pipe so does not wait for a writer)
    fd = os.open(path, os.O_RDONLY | nonblocking | getattr(os, "O_BINARY", 0))
    try:
        try:
            f = open(fd, "rb")
        except BaseException:
            os.close(fd)   # (open() refused it, a folder: the descriptor was left open)
            raise
        with f:
            regular = stat.S_ISREG(os.fstat(fd).st_mode)
            if nonblocking:
                os.set_blocking(fd, True)   # (a pipe with a writer is read as it writes)
            return f.read(limit), regular
    except OSError as err:   # (a folder: its error named the descriptor, '... directory: 3')
        raise type(err)(err.errno, err.strerror, str(path)) from None
