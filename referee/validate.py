"""Judging many logs: in this process, or in worker processes that share the work.

The parent's part is kept small, because it is what caps the speed-up (Amdahl):
the workers start once, take the paths in batches, open and judge the files
themselves, and send back each verdict already rendered (text or JSON bytes)
with its kind, so the parent only writes bytes, in the order of the paths.
Batches shrink as the paths run out (guided scheduling): large ones while there
is much to do keep messages few, small ones at the end let the workers finish
together, so no worker sits idle while another judges a last long batch.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, NamedTuple, TypeVar

import msgspec

from referee.engine import judge_file
from schemas.verdict import Error, Verdict

Render = Callable[[Verdict], bytes]
T = TypeVar("T")
R = TypeVar("R")
# Paths per message at most: large enough to make messages rare (each costs the parent CPU
# time), small enough to keep results flowing (64 bot logs are judged in about 50 ms).
BATCH_MOST = 64
# A batch takes 1 / (jobs x BATCHES_AHEAD) of the paths left.
BATCHES_AHEAD = 2


class Judged(NamedTuple):
    """What the parent needs of one verdict: its kind, whether it has an error, and its output."""

    kind: str
    failed: bool
    output: bytes


def verdict_of(path: str) -> Verdict:
    """The verdict of one file; a file that cannot be read is malformed."""
    try:
        return judge_file(path).verdict
    except OSError as exc:
        return Verdict("malformed", None, None, 0, "absent", Error(0, f"cannot read: {exc.strerror}"), [], None, 0, path, None)


def as_json(verdict: Verdict) -> bytes:
    """A verdict as one JSON object."""
    return msgspec.json.encode(verdict)


_render: Render = as_json  # set in each worker by _setup


def _setup(render: Render) -> None:
    """Set how this process renders a verdict (run once in each worker as it starts)."""
    global _render
    _render = render


def _judge_one(path: str) -> Judged:
    """One path's verdict, rendered."""
    verdict = verdict_of(path)
    return Judged(verdict.verdict, verdict.error is not None, _render(verdict))


def _judge_batch(paths: list[str]) -> list[Judged]:
    """A batch's verdicts, rendered, in its order: one message back to the parent."""
    return [_judge_one(path) for path in paths]


def batches(paths: Sequence[T], jobs: int) -> Iterator[list[T]]:
    """The paths in order, in batches of a share of what is left: at most BATCH_MOST, at least one."""
    start, total = 0, len(paths)
    while start < total:
        size = max(1, min(BATCH_MOST, (total - start) // (jobs * BATCHES_AHEAD)))
        yield list(paths[start : start + size])
        start += size


def judge_many(paths: Sequence[str], jobs: int, render: Render) -> Iterator[Judged]:
    """Each path's verdict, rendered, in the order of `paths`, as soon as it and those before it are ready.

    With `jobs` > 1, that many worker processes share the paths (stdin, `-`, is
    only read here).
    """
    if jobs <= 1 or len(paths) < 2 or "-" in paths:
        _setup(render)
        yield from map(_judge_one, paths)
        return
    yield from in_processes(_judge_batch, batches(paths, jobs), min(jobs, len(paths)), _setup, (render,))


def in_processes(
    work: Callable[[list[T]], list[R]], parts: Iterable[list[T]], jobs: int, initializer: Callable[..., None] | None = None,
    initargs: tuple[Any, ...] = (),
) -> Iterator[R]:
    """`work` on each part in `jobs` worker processes, the results in the parts' order (`validate --jobs`, `rejudge --jobs`)."""
    # imported here, not above: validating one log does not wait for them (about 12 ms)
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    # fork: the workers start with the rulesets already imported (forkserver or spawn would import them again)
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    # the objects the workers inherit leave the collector's view, so a collection in a worker does not
    # write to (and copy) every page of the parent's heap; the parent takes them back when done
    gc.freeze()
    # concurrent.futures, not multiprocessing.Pool: the Pool's worker-handler thread also waits on the
    # result pipe, and spins while a result there is not yet read (about 20 ms of the parent's CPU over
    # 1,000 logs on 2 cores, most of the parent's part)
    pool = ProcessPoolExecutor(jobs, mp_context=context, initializer=initializer, initargs=initargs)
    try:
        futures = [pool.submit(work, part) for part in parts]
        for future in futures:
            yield from future.result()
    finally:
        pool.shutdown(cancel_futures=True)  # a reader that stops early waits for no batch not yet begun
        gc.unfreeze()
