"""Every input is read with a bound (T-161): `/dev/zero`, or a file someone made huge, stops with one line.

A whole file is read at most one byte past its limit; a stream (a log, a --save file) a line at a
time, each line at most LINE_LIMIT. Past either, `TooLarge` names the input and the limit, and both
command lines exit EXIT_TOO_LARGE (referee.console). Nothing here imports more than the standard library:
the engine, the workers and the tournament read through it.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import BinaryIO

EXIT_TOO_LARGE = 9  # neither a verdict (0-4) nor a usage error (2): the input is past what is read of it
LINE_LIMIT = 1 << 24  # 16 MiB: a log's header with six players' decks is a few hundred kilobytes
LOG_LIMIT = 1 << 26  # 64 MiB: a whole log read at once (rejudge, a tournament's report); a long bot game is 100 KB
TEXT_LIMIT = 1 << 24  # 16 MiB: a CSV of players or results, a file of log heads


def _size(limit: int) -> str:
    return f"{limit >> 20} MiB" if limit >= 1 << 20 else f"{limit:,} bytes"


class TooLarge(Exception):
    """An input past its bound: its message names the input and the limit."""

    def __init__(self, where: str, what: str, limit: int) -> None:
        super().__init__(f"{where}: more than {_size(limit)}, the most {what} may hold; nothing was read past it")
        self.where, self.what, self.limit = where, what, limit

    def __reduce__(self) -> tuple[type[TooLarge], tuple[str, str, int]]:  # rebuilt in the parent of a worker that raised it
        return (TooLarge, (self.where, self.what, self.limit))

    def at(self, where: str) -> TooLarge:
        """The same bound, naming `where` (the engine's reader knows no path)."""
        return TooLarge(where, self.what, self.limit)


def read_stream(stream: BinaryIO, where: str, limit: int, what: str = "a file") -> bytes:
    """A stream's bytes, read at most one byte past `limit`."""
    data = stream.read(limit + 1)
    if len(data) > limit:
        raise TooLarge(where, what, limit)
    return data


def read_file(path: str | Path, limit: int, what: str = "a file", *, regular: bool = False) -> bytes:
    """A file's bytes, read at most one byte past `limit`; OSError as `open` raises it.

    `regular`: refuse anything but a regular file (a FIFO nobody writes would block the reader for ever,
    a device never ends) with OSError before a byte is read; the file is opened without blocking to see it.
    """
    fd = os.open(path, os.O_RDONLY | (os.O_NONBLOCK if regular else 0))
    with os.fdopen(fd, "rb") as stream:
        if regular:
            kind = os.fstat(fd).st_mode
            if not stat.S_ISREG(kind):
                raise NotRegular(str(path), "a folder" if stat.S_ISDIR(kind) else "a FIFO" if stat.S_ISFIFO(kind) else "a device or socket")
            os.set_blocking(fd, True)
        return read_stream(stream, str(path), limit, what)


class NotRegular(OSError):
    """A path that is not a regular file, where only one is read."""

    def __init__(self, path: str, kind: str) -> None:
        super().__init__(0, f"is {kind}, not a regular file")
        self.filename = path


def lines(read: Callable[[int], bytes], where: str, limit: int = LINE_LIMIT, what: str = "a line") -> Iterator[bytes]:
    """A stream's lines with their endings (`read` is a binary stream's read), each at most `limit` bytes."""
    parts: list[bytes] = []
    size = 0
    while block := read(1 << 16):
        start = 0
        while (cut := block.find(b"\n", start) + 1) > 0:
            parts.append(block[start:cut])
            yield b"".join(parts)
            parts, size, start = [], 0, cut
        if start < len(block):
            parts.append(block[start:])
            size += len(block) - start
            if size > limit:
                raise TooLarge(where, what, limit)
    if parts:
        yield b"".join(parts)
