"""An event's pages follow it live: `GET /api/events/EVENT/live`, server-sent events of the event log's head.

The event log announces every append itself (storage/announce.py: one message
an event a transaction, at its commit, never for a refused change); this
stream passes the head on. It carries only a number, so it is public: a page
that sees the head move past its own reloads itself and reads what its reader
may see (static/headjudge.js; tournament/README.md, "Live pages", T-125..T-127).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from typing import Any

from litestar import Request, get
from litestar.concurrency import sync_to_thread
from litestar.params import FromPath
from litestar.response import ServerSentEvent, ServerSentEventMessage
from sqlalchemy.orm import Session

from tournament import service
from tournament.storage.announce import event_channel
from tournament.web import feeds, live
from tournament.web.common import reading

KEEPALIVE_SECONDS = 15.0  # a quiet stream sends the head again this often (the page's sign of life; see `_stream`)
STREAM_SECONDS = 600.0  # a stream ends after this long (a worker holds no stream for ever); the browser reconnects
RETRY_MS = 2000  # how long the browser waits before it reconnects after a stream ends or drops
WATCH_SECONDS = 2.0  # how often a worker reads the heads of the events its streams follow (`Heads`; T-126)

log = logging.getLogger("tournament.web.follow")


class Heads:
    """One reader a worker, for what no message says: every `WATCH_SECONDS` (`app.state.watch_seconds`) it reads
    the heads of the events this worker's streams follow, and a head that moved is sent on the event's channel
    like a message. On SQLite a CLI command (another process) announces nothing; on PostgreSQL a notification
    is lost while a worker's listener reconnects. Its cost is one read of a few rows every two seconds a
    worker, however many phones."""

    def __init__(self) -> None:
        self.following: Counter[str] = Counter()
        self.known: dict[str, int] = {}
        self.task: asyncio.Task[None] | None = None

    @contextlib.contextmanager
    def follow(self, app: Any, event_id: str, head: int) -> Iterator[None]:
        self.following[event_id] += 1
        self.known.setdefault(event_id, head)
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self._watch(app))
        try:
            yield
        finally:
            self.following[event_id] -= 1
            if self.following[event_id] <= 0:
                del self.following[event_id], self.known[event_id]

    async def _watch(self, app: Any) -> None:
        while self.following:
            await asyncio.sleep(app.state.watch_seconds)
            try:
                heads = await sync_to_thread(_heads, app, list(self.following))
            except Exception as exc:  # the database restarted: the streams still have their messages; read again later
                log.warning("live pages: reading the heads failed (%s)", exc)
                continue
            for event_id, head in heads.items():
                if event_id in self.known and head != self.known[event_id]:
                    self.known[event_id] = head
                    live.hub(app).hand_over(event_channel(event_id), str(head))

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task


def _heads(app: Any, event_ids: list[str]) -> dict[str, int]:
    with Session(app.state.database.reader) as session:
        return service.event_heads(session, event_ids)


def _head(request: Request[Any, Any, Any], event_id: str) -> int:
    with reading(request) as session:
        return service.get_event(session, event_id).last_seq


def _last_seen(header: str | None) -> int | None:
    """`Last-Event-ID` (a head this stream sent) as a number; None when absent or odd."""
    return int(header) if header and header.isascii() and header.isdigit() and len(header) < 10 else None


def _message(head: int) -> ServerSentEventMessage:
    return ServerSentEventMessage(data=str(head), event="head", id=str(head), retry=RETRY_MS)


async def _stream(request: Request[Any, Any, Any], event_id: str, seen: int | None, address: str) -> AsyncIterator[ServerSentEventMessage]:
    """The head at once (unless the reconnecting browser has it), then each new head as it commits (or as the
    worker's `Heads` finds it); every `keepalive` seconds of quiet the head again, the page's sign of life."""
    state = request.app.state
    ends = time.monotonic() + state.stream_seconds
    with feeds.open_stream(request.app, address):
        async with live.subscribe(request.app, event_channel(event_id)) as queue:
            head = await sync_to_thread(_head, request, event_id)  # read after subscribing: no change falls between
            if head != seen:
                yield _message(head)
            with state.heads.follow(request.app, event_id, head):
                while (left := ends - time.monotonic()) > 0:
                    try:
                        moved = [await asyncio.wait_for(queue.get(), min(state.keepalive_seconds, left))]
                    except TimeoutError:
                        if time.monotonic() < ends:
                            yield _message(head)
                        continue
                    while not queue.empty():  # a burst already waiting is one change
                        moved.append(queue.get_nowait())
                    newest = max((int(m) for m in moved if m.isdigit()), default=head)
                    if newest > head:
                        head = newest
                        yield _message(head)


@get("/api/events/{event_id:str}/live", tags=["public"])
async def event_live(request: Request[Any, Any, Any], event_id: FromPath[str]) -> ServerSentEvent:
    """Server-sent events `head` (the event log's last seq): at once, then within a second of each change's commit
    (two seconds for a change no message announced), and every 15 s of quiet; `Last-Event-ID` (a head) skips the first when it is still the head. The stream ends
    after 10 minutes and the browser reconnects by itself. 404 for an event that does not exist."""
    address = feeds.admit(request)  # 429 past the streams one address may hold (T-140)
    await sync_to_thread(_head, request, event_id)  # refused here, before the stream starts
    stream = _stream(request, event_id, _last_seen(request.headers.get("last-event-id")), address)
    return ServerSentEvent(stream, headers={"Cache-Control": "no-store"})


HANDLERS = [event_live]
