"""Judging stored logs again with today's referee: what each log's outcome is now, and what it was.

A ruling changes what the referee says of a log in three ways only: the kind of
verdict, the rule (or, for a malformed log, the field) its error names, and the
result. That triple is a log's `Outcome`. `outcomes` judges many logs and gives
each one's outcome with the SHA-256 of its bytes, in one of three places:

- here, one log after another (the serial run, and the reference of the others);
- in worker processes on this machine (`jobs`, the pool `validate --jobs` uses),
  which read the files themselves;
- on a Dask distributed cluster (`cluster`, a scheduler's address such as
  `tcp://HOST:8786`): the logs go to the workers in batches of about a thousand,
  as bytes (the workers' machines need not see these files), and a batch whose
  worker dies is given to another by the scheduler, so each log is judged and
  reported once however many workers come and go.

`changes` pairs the outcomes with those recorded (a previous run's `--save` file,
docs/referee.md "Rejudging") and yields every log whose outcome differs.
"""

from __future__ import annotations

import hashlib
import io
import itertools
import logging
import warnings
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import msgspec

from referee.engine import judge
from referee.inputs import LOG_LIMIT, TooLarge, read_file
from referee.validate import batches, in_processes
from schemas.verdict import DealState, Result, Verdict

# Logs per cluster task: about a second of a worker's time for bot logs, so the
# messages (and the scheduler's bookkeeping, one task each) stay a small share.
CLUSTER_BATCH = 1000
# Batches sent ahead per worker: one being judged, one waiting, so no worker idles between two.
AHEAD = 2

# A log to judge: its name in the reports, and its path (read where it is judged) or its bytes.
Item = tuple[str, str | bytes]


class Outcome(msgspec.Struct, forbid_unknown_fields=True):
    """What a ruling can change of a log's verdict."""

    verdict: str  # complete, ongoing, illegal, malformed or tampered
    rule: str | None  # the rule an illegal log broke, or the field a malformed one got wrong
    result: Result | None  # how a finished game ended


class Judged(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """One log's outcome as judged now: a line of `rejudge --save`, and of the file `--against` reads."""

    log: str  # the path under the folder given (or as given, for a file), or the caller's name for it
    sha256: str  # of the log's bytes ("" when it could not be read)
    outcome: Outcome
    # A dealt log's `deal` (committed or verified): a fact of its bytes, not a ruling, so it is kept beside the
    # outcome and never compared; a tournament counts a dealt game only once it is verified (DL-R1).
    deal: DealState | None = None


class Change(msgspec.Struct, forbid_unknown_fields=True):
    """A log whose outcome differs from the recorded one: a line of `rejudge`'s output."""

    log: str
    before: Outcome | None  # None: nothing recorded for this log
    after: Outcome | None  # None: recorded, but no such log now
    log_changed: bool  # its bytes are not those recorded: the file changed, not (only) the referee


def outcome_of(verdict: Verdict) -> Outcome:
    error = verdict.error
    return Outcome(verdict.verdict, (error.rule or error.field) if error else None, verdict.result)


def judge_item(item: Item) -> Judged:
    """One log's outcome; a file that cannot be read is malformed, as `validate` says."""
    name, source = item
    if isinstance(source, str):
        try:
            source = read_file(source, LOG_LIMIT, "a log")
        except OSError:
            return Judged(name, "", Outcome("malformed", None, None))
    verdict = judge(io.BytesIO(source), name).verdict
    return Judged(name, hashlib.sha256(source).hexdigest(), outcome_of(verdict), verdict.deal)


def judge_batch(items: list[Item]) -> list[Judged]:
    """A batch's outcomes, in its order: one task of a worker."""
    return [judge_item(item) for item in items]


def outcomes(
    items: Sequence[Item], *, jobs: int = 1, cluster: str | None = None, batch: int = CLUSTER_BATCH, shared: bool = False
) -> Iterator[Judged]:
    """Each item's outcome: in order here and with `jobs`; as batches finish on a `cluster`.

    `shared`: the cluster's workers see these files at the same paths (one machine, or a shared file
    system), so they are sent the paths and read the files themselves, not sent the files' bytes.
    """
    if cluster is not None:
        yield from _on_cluster(items, cluster, batch, shared)
    elif jobs > 1 and len(items) > 1:
        yield from in_processes(judge_batch, batches(items, jobs), jobs)
    else:
        yield from map(judge_item, items)


class ClusterError(Exception):
    """The scheduler cannot be reached, or a batch failed on every worker it was given to."""


NO_DASK = "--cluster needs Dask distributed, which is the `cluster` extra: pip install 'headjudge[cluster]' (the same version on every machine)"


def dask_installed() -> bool:
    """Whether `--cluster` can run here: Dask distributed is an extra, not in every install."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        return False
    return True


def _on_cluster(items: Sequence[Item], address: str, batch: int, shared: bool) -> Iterator[Judged]:
    # imported here: only a run on a cluster pays for dask (about a second of imports)
    from distributed import Client, as_completed

    with _dask_quiet():
        try:
            client = Client(address, timeout="10s", set_as_default=False)
        except (OSError, TimeoutError) as exc:
            raise ClusterError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
        done = 0
        try:
            load = list if shared else _loaded  # reading the files here is most of this process's part (bench/rejudge.py)
            chunks: Iterator[list[Item]] = (load(items[start : start + batch]) for start in range(0, len(items), batch))
            workers = max(1, len(client.scheduler_info().get("workers", {})))
            running = as_completed([_submit(client, chunk) for chunk in itertools.islice(chunks, AHEAD * workers)], loop=client.loop)
            for future in running:
                try:
                    judged = future.result()
                except TooLarge:  # a log past its bound (--shared-files: read by the worker): exit 9, as without --cluster
                    raise
                except Exception as exc:  # KilledWorker: the batch killed every worker it was given to
                    raise _failed(client, address, exc, done, len(items)) from None
                future.release()
                done += len(judged)
                yield from judged
                following = next(chunks, None)
                if following is not None:
                    running.add(_submit(client, following))
        except (ClusterError, TooLarge):  # TooLarge: a log read here for a batch is past its bound, no fault of the cluster's
            raise
        except Exception as exc:  # the client closed under a submit or a wait: the scheduler is gone
            raise _failed(client, address, exc, done, len(items)) from None
        finally:
            client.close()


def _failed(client: Any, address: str, exc: Exception, done: int, total: int) -> ClusterError:
    """A failed batch in one line: the scheduler lost mid-run, or the batch's own failure (Dask's text, one line)."""
    from distributed.comm.core import CommClosedError

    # the scheduler gone: a closed connection while waiting, or futures Dask cancelled for it, or a closed client
    if isinstance(exc, CommClosedError | OSError) or "connection-lost" in str(exc) or client.status != "running":
        return ClusterError(f"lost the Dask scheduler at {address} mid-run, after {done:,} of {total:,} logs; run again once it is back")
    return ClusterError(f"a batch failed on the cluster: {type(exc).__name__}: {' '.join(str(exc).split())}")


_DASK_LOGGERS = frozenset(("distributed", "tornado", "asyncio"))


@contextmanager
def _dask_quiet() -> Iterator[None]:
    """Dask logs a lost scheduler as pages of tracebacks on stderr (37 lines for one lost connection); the run
    says what failed in one line (ClusterError), so Dask's own log records (and those of the event loop its
    client runs on) are dropped while it runs; any other logger's still pass."""

    def drop(record: logging.LogRecord) -> bool:
        return record.name.partition(".")[0] not in _DASK_LOGGERS

    handlers = [h for name in ("distributed", "") for h in logging.getLogger(name).handlers]
    for handler in handlers:
        handler.addFilter(drop)
    try:
        yield
    finally:
        for handler in handlers:
            handler.removeFilter(drop)


def _submit(client: Any, chunk: list[Item]) -> Any:
    """A batch as one task, its logs inside it: the scheduler keeps the task, so it can give it to another
    worker when its own dies (data scattered to a worker would die with it). About ten megabytes of bot
    logs a thousand, so Dask's warning about a large graph is expected and silenced."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "Sending large graph", UserWarning)
        return client.submit(judge_batch, chunk, pure=False)


def _loaded(chunk: Iterable[Item]) -> list[Item]:
    """A batch with its files read: a worker on another machine sees only what it is sent."""
    return [(name, _read(source)) for name, source in chunk]


def _read(source: str | bytes) -> str | bytes:
    if isinstance(source, bytes):
        return source
    try:
        return read_file(source, LOG_LIMIT, "a log")
    except OSError:
        return source  # the worker finds it unreadable too, and says so as `validate` would


def changes(judged: Iterable[Judged], recorded: Mapping[str, Judged]) -> Iterator[Change]:
    """Every judged log whose outcome is not the recorded one, then every recorded log not judged."""
    seen = set()
    for now in judged:
        seen.add(now.log)
        before = recorded.get(now.log)
        if before is None or before.outcome != now.outcome:
            yield Change(now.log, before.outcome if before else None, now.outcome, before is not None and before.sha256 != now.sha256)
    for name in sorted(recorded.keys() - seen):
        yield Change(name, recorded[name].outcome, None, False)


def read_record(data: bytes) -> dict[str, Judged]:
    """A `--save` file's outcomes by log (msgspec's errors for a line that is not one)."""
    return {judged.log: judged for judged in msgspec.json.Decoder(Judged).decode_lines(data)}


def tree(paths: Sequence[str]) -> list[Item]:
    """The logs under each path (a folder: its *.jsonl files, named by their path under it; a file: as given)."""
    items: list[Item] = []
    for given in paths:
        root = Path(given)
        if root.is_dir():
            items += [(str(path.relative_to(root)), str(path)) for path in sorted(root.rglob("*.jsonl")) if path.is_file()]
        else:
            items.append((given, given))
    return items
