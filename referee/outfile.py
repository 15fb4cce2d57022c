"""Writing a command's output file (`-o FILE`, `--out FILE`) whole or not at all, for both command lines.

A regular file (or a new one) is written to a temporary file in the same
folder, then renamed over FILE, so a reader never sees half of it and a failed
write leaves FILE as it was. The temporary file has a fresh random name and is
created exclusively without following a link (`tempfile`), so nothing planted
beside FILE (a symlink at `FILE.tmp`) is followed or overwritten.

What is not a regular file is written in place, never replaced: `-` is stdout,
and a named pipe, a terminal or another device (`/dev/null`, `/dev/stdout`) is
opened and written as a shell's `>` would. A symlink at FILE is followed: the
file it points to is written (atomically, in that file's own folder) and the
link stays a link, as `cp` and a shell's `>` treat it; a link to a pipe or a
device writes to that.
"""

from __future__ import annotations

import os
import stat
import sys
import tempfile
from pathlib import Path

STDOUT = "-"


def is_stdout(target: str | Path) -> bool:
    return str(target) == STDOUT


def write_file(target: str | Path, data: bytes) -> None:
    """`data` to `target` (see the module docstring); OSError when it cannot be written, FILE then unchanged."""
    if is_stdout(target):
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return
    path = Path(os.path.realpath(target))  # through any symlinks: the file they name is the one written
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None and stat.S_ISDIR(mode):
        raise IsADirectoryError(21, os.strerror(21), str(target))
    if mode is not None and not stat.S_ISREG(mode):  # a pipe, a device, a socket: written as it is
        with open(path, "wb") as stream:
            stream.write(data)
        return
    _replace(path, data, None if mode is None else stat.S_IMODE(mode))


def _replace(path: Path, data: bytes, mode: int | None) -> None:
    """A new file at `path` from a temporary one in its folder; `mode` the permissions to keep (None: a new file's)."""
    handle, partial = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with open(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fchmod(stream.fileno(), _new_file_mode() if mode is None else mode)
            os.fsync(stream.fileno())  # on disk before it takes FILE's name: a crash leaves the old FILE or the new
        os.replace(partial, path)
    except BaseException:
        Path(partial).unlink(missing_ok=True)  # a failed write leaves nothing behind
        raise


def _new_file_mode() -> int:
    """What `open(path, "w")` would give a new file (0666 less the umask); mkstemp's own is 0600."""
    umask = os.umask(0o022)
    os.umask(umask)
    return 0o666 & ~umask
