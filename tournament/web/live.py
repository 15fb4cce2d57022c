"""Live messages for `tournament serve`: publish on a channel, and every subscriber on any worker hears it.

A small generic API, so any page can follow what changes (a live table here;
an event's pages follow their event's channel, which the event log itself
publishes on at every append: storage/announce.py, web/follow.py):

- `publish(session, channel, message)` (a message holds no space): it goes out when the session's
  transaction commits, and never if it rolls back (a refused change tells nobody);
- `async with subscribe(app, channel) as queue`: a queue of the messages
  published on `channel` from then on.

Why server-sent events over websockets: the browser only listens (it records by
posting forms or JSON, which go through the same checks as every other write),
an EventSource reconnects by itself and sends `Last-Event-ID`, so a phone that
lost the network resumes from the last record it saw, and SSE is plain HTTP
through every proxy. A message says only that something changed (a table's
head); each subscriber then reads what its own seat may see from the database,
so nothing hidden ever passes through a channel.

Across workers: on PostgreSQL, `publish` is a `NOTIFY` in the writer's own
transaction (PostgreSQL delivers it at commit, to every session that LISTENs),
and each worker keeps one connection that LISTENs and hands each notification
to its own subscribers. No state lives in one process only: a worker that
starts, restarts or misses a message loses nothing, since the subscriber reads
the truth from the database. On SQLite (one worker) the message is handed to
the subscribers in-process after the commit.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session

from tournament.storage.announce import PG_CHANNEL, notify

QUEUE_SIZE = 256  # messages a slow subscriber may have waiting; past that the oldest are dropped (each says only "look")
RETRY_SECONDS = 1.0  # the listener's wait before it connects again

log = logging.getLogger("tournament.web.live")


class Hub:
    """The subscribers of one worker, by channel, and (PostgreSQL) the connection that listens for the others."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.postgres = make_url(url).get_backend_name() == "postgresql"
        self.subscribers: dict[str, set[asyncio.Queue[str]]] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        self.listener: asyncio.Task[None] | None = None
        self.listening = asyncio.Event()

    # -- publishing (from the handlers' threads) ------------------------------

    def publish(self, session: Session, channel: str, message: str) -> None:
        """Send `message` on `channel` once `session` commits."""
        if self.postgres:
            notify(session, channel, message)
            return
        event.listen(session, "after_commit", lambda _session: self.hand_over(channel, message), once=True)

    def hand_over(self, channel: str, message: str) -> None:
        """From any thread: give `message` to this worker's subscribers of `channel` (SQLite, after a commit)."""
        if self.loop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self._deliver, channel, message)

    def _deliver(self, channel: str, message: str) -> None:
        for queue in self.subscribers.get(channel, ()):
            if queue.full():
                queue.get_nowait()
            queue.put_nowait(message)

    # -- subscribing (in the event loop) ---------------------------------------

    async def start(self) -> None:
        """At the worker's start: hold its event loop, and (PostgreSQL) start listening."""
        self.loop = asyncio.get_running_loop()
        if self.postgres and self.listener is None:
            self.listener = asyncio.create_task(self._listen())

    @contextlib.asynccontextmanager
    async def subscribe(self, channel: str) -> AsyncIterator[asyncio.Queue[str]]:
        if self.loop is None:
            await self.start()
        queue: asyncio.Queue[str] = asyncio.Queue(QUEUE_SIZE)
        self.subscribers.setdefault(channel, set()).add(queue)
        try:
            if self.postgres:  # a message sent before the LISTEN would be lost; the first read covers it anyway
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.listening.wait(), 5)
            yield queue
        finally:
            found = self.subscribers.get(channel)
            if found is not None:
                found.discard(queue)
                if not found:
                    del self.subscribers[channel]

    async def _listen(self) -> None:
        """LISTEN on PostgreSQL for as long as the worker runs, connecting again after a failure."""
        import psycopg

        dsn = make_url(self.url).set(drivername="postgresql").render_as_string(hide_password=False)
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as connection:
                    await connection.execute(f"LISTEN {PG_CHANNEL}")
                    self.listening.set()
                    async for note in connection.notifies():
                        channel, _, message = note.payload.rpartition(" ")  # a message has no space; a channel may
                        self._deliver(channel, message)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the database restarted or the network dropped: listen again
                self.listening.clear()
                log.warning("live: listening failed (%s); trying again", exc)
                await asyncio.sleep(RETRY_SECONDS)

    async def close(self) -> None:
        if self.listener is not None:
            self.listener.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.listener
            self.listener = None


def hub(app: Any) -> Hub:
    found: Hub = app.state.live
    return found


def publish(app: Any, session: Session, channel: str, message: str) -> None:
    """Send `message` on `channel` when `session` commits (see the module's docstring)."""
    hub(app).publish(session, channel, message)


def subscribe(app: Any, channel: str) -> contextlib.AbstractAsyncContextManager[asyncio.Queue[str]]:
    """`async with subscribe(app, channel) as queue`: the messages published on `channel` from now on."""
    return hub(app).subscribe(channel)
