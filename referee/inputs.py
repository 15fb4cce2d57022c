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


def blocks(read: Callable[[int], bytes], where: str, limit: int = LINE_LIMIT, what: str = "a line", size: int = 1 << 16) -> Iterator[bytes]:
    """A stream's bytes (`read` is a binary stream's read) a block at a time, each cut after its last `\n` (only
    the last block may end without one); a line longer than `limit` raises TooLarge. The bound costs a block,
    never a line: the engine reads every log through it (referee.logio)."""
    pending: list[bytes] = []
    waiting = 0  # bytes of pending: a line not yet ended
    while block := read(size):
        cut = block.rfind(b"\n") + 1
        if not cut:  # a line longer than a block
            pending.append(block)
            waiting += len(block)
            if waiting > limit:  # /dev/zero has no end of line
                raise TooLarge(where, what, limit)
            continue
        pending.append(block[:cut])
        yield b"".join(pending)
        pending = [block[cut:]] if cut < len(block) else []
        waiting = len(block) - cut
    if pending:
        yield b"".join(pending)


def lines(read: Callable[[int], bytes], where: str, limit: int = LINE_LIMIT, what: str = "a line") -> Iterator[bytes]:
    """A stream's lines with their endings, each at most `limit` bytes."""
    for block in blocks(read, where, limit, what):
        start = 0
        while cut := block.find(b"\n", start) + 1:
            yield block[start:cut]
            start = cut
        if start < len(block):
            yield block[start:]
