"""Reading a file a user names, bounded: a rule file or a record may be a device that never ends
(``/dev/zero``), a named pipe that no program writes to, or one whose writer never writes."""

from __future__ import annotations

import errno
import os
import select
import stat
import time
from pathlib import Path

from .limits import LIMITS


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
    waiting for a writer without end; one that is not a regular file is read for at most
    ``LIMITS.pipe_wait`` seconds (:mod:`boardrules.limits`): a writer that does not write, or
    does not finish, ends the read with ``TimeoutError`` saying so. Raises ``OSError``."""
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
            if regular or not nonblocking:
                os.set_blocking(fd, True)
                return f.read(limit), regular
            return _read_waiting(fd, limit), False
    except OSError as err:   # (a folder: its error named the descriptor, '... directory: 3')
        raise type(err)(err.errno, err.strerror, str(path)) from None


def _read_waiting(fd: int, limit: int) -> bytes:
    """At most ``limit`` bytes of non-blocking ``fd`` (a pipe, a device), as they come, within
    ``LIMITS.pipe_wait`` seconds in all. Raises ``TimeoutError`` past them."""
    wait = LIMITS.pipe_wait
    deadline = time.monotonic() + wait
    chunks: list[bytes] = []
    size = 0
    while size < limit:
        try:
            data = os.read(fd, min(limit - size, 1 << 16))
        except BlockingIOError:   # (a writer, nothing written yet)
            data = None
        if data == b"":
            break   # (the writer closed it)
        if data:
            chunks.append(data)
            size += len(data)
        left = deadline - time.monotonic()
        if size < limit and (left <= 0 or data is None and not select.select([fd], [], [], left)[0]):
            raise TimeoutError(errno.ETIMEDOUT, f"it is a pipe or device that gave {size} bytes and "
                               f"no end in {wait:g} seconds (its writer does not write, or finish)")
    return b"".join(chunks)
