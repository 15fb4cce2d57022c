"""Writing a command's output file (`-o FILE`, `--out FILE`) whole or not at all, for both command lines.

A regular file (or a new one) is written to a temporary file in the same
folder, then renamed over FILE, so a reader never sees half of it and a failed
write leaves FILE as it was. The temporary file has a fresh random name and is
created exclusively without following a link (`tempfile`), so nothing planted
beside FILE (a symlink at `FILE.tmp`) is followed or overwritten.

A file replaced keeps its permissions, and its owner and group where the
writer may give them (root may; anyone may keep a group they belong to):
the renamed file would otherwise belong to whoever wrote it, and a file
root rewrote for someone (`sudo tournament standings -o theirs.csv`) would
then be theirs no more. Where the owner cannot be kept, the file is the
writer's, as `cp` over a file in a folder one may write also leaves it.

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
        found: os.stat_result | None = os.stat(path)
    except FileNotFoundError:
        found = None
    mode = None if found is None else found.st_mode
    if mode is not None and stat.S_ISDIR(mode):
        raise IsADirectoryError(21, os.strerror(21), str(target))
    if mode is not None and not stat.S_ISREG(mode):  # a pipe, a device, a socket: written as it is
        with open(path, "wb") as stream:
            stream.write(data)
        return
    _replace(path, data, found)


def _replace(path: Path, data: bytes, old: os.stat_result | None) -> None:
    """A new file at `path` from a temporary one in its folder; `old`: the file it replaces, whose permissions,
    owner and group it keeps (None: a new file's)."""
    handle, partial = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with open(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            if old is not None:
                _keep_owner(stream.fileno(), old)
            # after the owner: a chown may clear the set-id bits the mode then sets again
            os.fchmod(stream.fileno(), _new_file_mode() if old is None else stat.S_IMODE(old.st_mode))
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


def _keep_owner(fd: int, old: os.stat_result) -> None:
    """The replaced file's owner and group where allowed; else its group alone; else the writer's."""
    for uid, gid in ((old.st_uid, old.st_gid), (-1, old.st_gid)):
        try:
            os.fchown(fd, uid, gid)
            return
        except PermissionError:
            continue
