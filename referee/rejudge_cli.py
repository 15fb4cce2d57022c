"""`referee rejudge`: judge a folder tree of logs again, and print each log whose outcome is not the recorded one.

Output: one JSON line per such log on stdout (`Change`: log, before, after,
log_changed), a summary on stderr. Exit 0 when every outcome is the recorded
one (or none was recorded: no `--against`), 1 when some differ (like `diff`), 2 for a usage error (an unreadable or
malformed `--against` file: its line and field named), 5 when the cluster
cannot be reached or a batch fails on it.
"""

from __future__ import annotations

import os
import sys
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, BinaryIO, NoReturn

import msgspec
import typer

from referee import console
from referee.console import err
from schemas.verdict import EXIT_USAGE

if TYPE_CHECKING:
    from referee.rejudge import Judged

EXIT_DIFFER = 1
EXIT_CLUSTER = 5


def fail(message: str, code: int = EXIT_USAGE) -> NoReturn:
    console.fail("referee", message, code)


def rejudge(
    paths: Annotated[list[str], typer.Argument(help="Folders (their *.jsonl files, at any depth) and log files.", metavar="PATH...")],
    against: Annotated[
        Path | None, typer.Option("--against", help="The outcomes recorded before: a previous run's --save file.")
    ] = None,
    save: Annotated[
        Path | None, typer.Option("--save", help="Write every log's outcome here (JSON Lines), for a later --against.")
    ] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1, max=256, help="Worker processes on this machine.")] = 1,
    cluster: Annotated[
        str | None, typer.Option("--cluster", help="A Dask scheduler's address (tcp://HOST:8786): judge on its workers.", metavar="ADDRESS")
    ] = None,
    shared: Annotated[
        bool, typer.Option("--shared-files", help="The cluster's workers see these files at these paths: send the paths, not the bytes.")
    ] = False,
    batch: Annotated[
        int, typer.Option("--batch", min=1, max=100_000, help="Logs per task on a cluster.")
    ] = 1000,
) -> None:
    """Judge logs again with today's referee; print each whose verdict, rule or result is not the recorded one."""
    from referee import rejudge as rj

    if cluster is not None and jobs > 1:
        fail("--jobs and --cluster do not go together: a cluster's workers are its own")
    if cluster is not None and not rj.dask_installed():
        fail(rj.NO_DASK)
    for path in paths:
        if not Path(path).exists():
            fail(f"{path}: no such file or folder")
    recorded = _recorded(against) if against is not None else {}
    items = rj.tree(paths)
    started = time.perf_counter()
    kinds: Counter[tuple[str | None, str | None]] = Counter()
    judged = 0
    partial = save.with_name(save.name + ".tmp") if save is not None else None
    try:
        saving = open(partial, "wb") if partial is not None else None  # noqa: SIM115 - closed below, renamed when whole
    except OSError as exc:
        fail(f"{save}: {exc.strerror}")
    write = sys.stdout.buffer.write
    encode = msgspec.json.Encoder().encode

    def counted(stream: Iterable[Judged]) -> Iterator[Judged]:
        nonlocal judged
        for one in stream:
            judged += 1
            if saving is not None:
                saving.write(encode(one) + b"\n")
            yield one

    try:
        for change in rj.changes(counted(rj.outcomes(items, jobs=jobs, cluster=cluster, batch=batch, shared=shared)), recorded):
            kinds[(change.before.verdict if change.before else None, change.after.verdict if change.after else None)] += 1
            write(encode(change) + b"\n")
    except rj.ClusterError as exc:
        _discard(saving, partial)
        fail(str(exc), EXIT_CLUSTER)
    except BaseException:
        _discard(saving, partial)
        raise
    if saving is not None and partial is not None and save is not None:
        saving.close()
        os.replace(partial, save)
    sys.stdout.flush()
    seconds = time.perf_counter() - started
    differ = sum(kinds.values())
    where = f"on {cluster}" if cluster else f"in {jobs} processes" if jobs > 1 else "in this process"
    note(f"rejudged {judged:,} logs {where} in {seconds:.1f} s ({judged / max(seconds, 1e-9):,.0f} logs/s): "
        f"{differ:,} differ from the record" + ("" if against else " (no --against: nothing was recorded)"))
    for (before, after), count in sorted(kinds.items(), key=lambda kv: -kv[1]):
        note(f"  {before or 'not recorded'} -> {after or 'no such log now'}: {count:,}")
    if save is not None:
        note(f"wrote {save} ({judged:,} outcomes)")
    raise typer.Exit(EXIT_DIFFER if differ and against is not None else 0)  # no record: nothing can differ from it (T-159)


def note(message: str) -> None:
    """The summary, on stderr: stdout holds only the JSON lines."""
    err.print(message, markup=False)


def _recorded(path: Path) -> dict[str, Judged]:
    """A --save file's outcomes by log; a line that is not one stops the run, naming its line and field."""
    from referee.inputs import lines
    from referee.rejudge import Judged

    decode = msgspec.json.Decoder(Judged).decode
    recorded: dict[str, Judged] = {}
    try:
        with path.open("rb") as stream:  # a line at a time, each bounded: the file may be as long as an archive
            for number, line in enumerate(lines(stream.read, str(path), what="a line of a --save file"), start=1):
                if not line.strip():
                    continue
                try:
                    one = decode(line)
                except msgspec.DecodeError as exc:  # ValidationError too: it names the field (`$.outcome.verdict`)
                    fail(f"{path}: line {number}: not an outcome of `referee rejudge --save`: {exc}")
                recorded[one.log] = one
    except OSError as exc:
        fail(f"{path}: {exc.strerror}")
    return recorded


def _discard(saving: BinaryIO | None, partial: Path | None) -> None:
    """A run that stops leaves no half-written --save file."""
    if saving is not None:
        saving.close()
    if partial is not None:
        partial.unlink(missing_ok=True)
