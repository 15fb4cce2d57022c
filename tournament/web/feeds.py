"""What the watchers of one channel on a worker share: each view read once a change, each message encoded once.

A thousand spectators of one table would otherwise each read the table from
the database and encode it again at every record (issue 33: 300 streams took
a record's server CPU from 13.5 ms to 702 ms). Here a worker keeps one `Feed`
a channel while anyone follows it: the feed alone subscribes to the channel
(web/live.py) and marks each change; a stream asks the feed for what it
needs by a key (a table's view for a kind of reader, the message for a place
in the log), and the first stream to ask after a change computes it while
the others await the same answer (`shared`). So a change costs one read a
kind of reader (spectators, the judge, each seated player) and one encoding
a place in the log, however many streams watch; a spectator costs only the
bytes sent to it. What is shared is still read from the database after the
change, so nothing hidden passes through a channel, and a worker that missed
a message loses nothing: the next change reads the truth again.

Open streams are counted per address on each worker (`admit`): past
`app.state.streams_per_address` a new one is refused with 429 and one line
(tournament/README.md, "Tables", T-140).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable
from typing import Any, TypeVar

from litestar import Request
from litestar.response import ServerSentEventMessage

from tournament import service
from tournament.web import live
from tournament.web.auth import client

T = TypeVar("T")

STREAMS_PER_ADDRESS = 100  # open live streams one address may hold on a worker (T-140)


class Feed:
    """One channel's watchers on this worker: its changes counted, and what they read at the newest one."""

    def __init__(self, app: Any, channel: str) -> None:
        self.app, self.channel = app, channel
        self.watchers = 0
        self.changed = asyncio.Event()  # set (and replaced) at each change
        self.memo: dict[Hashable, asyncio.Future[Any]] = {}  # since the last change: what was read
        self.made: dict[Hashable, Any] = {}  # ... and what is encoded
        self.ready = asyncio.Event()
        self.task = asyncio.create_task(self._listen())

    async def _listen(self) -> None:
        async with live.subscribe(self.app, self.channel) as queue:
            self.ready.set()
            while True:
                await queue.get()
                while not queue.empty():  # a burst already waiting is one change
                    queue.get_nowait()
                self.memo, self.made = {}, {}  # what was read before this change is stale; those awaiting it still get it
                changed, self.changed = self.changed, asyncio.Event()
                changed.set()

    async def shared(self, key: Hashable, make: Callable[[], Awaitable[T]]) -> T:
        """`make()`'s answer since the last change: computed by the first stream that asks, awaited by the others."""
        found = self.memo.get(key)
        if found is None:
            found = self.memo[key] = asyncio.ensure_future(make())
            found.add_done_callback(_quiet)
        if found.done():  # the usual case for all but the first stream: no wait, no future made
            done: T = found.result()
            return done
        result: T = await asyncio.shield(found)  # a stream that leaves does not cancel what others await
        return result


    def once(self, key: Hashable, make: Callable[[], T]) -> T:
        """`make()`'s value since the last change, made by the first stream that asks (an encoding: no wait)."""
        if key not in self.made:
            self.made[key] = make()
        found: T = self.made[key]
        return found


def _quiet(future: asyncio.Future[Any]) -> None:
    """A failed read is raised to the streams that await it; never again as "exception was never retrieved"."""
    if not future.cancelled():
        future.exception()


@contextlib.asynccontextmanager
async def feed(app: Any, channel: str) -> AsyncIterator[Feed]:
    """The worker's feed of `channel`, subscribed before this returns; ended once its last watcher leaves."""
    feeds: dict[str, Feed] = app.state.feeds
    found = feeds.get(channel)
    if found is None:
        found = feeds[channel] = Feed(app, channel)
    found.watchers += 1
    try:
        await found.ready.wait()
        yield found
    finally:
        found.watchers -= 1
        if found.watchers <= 0:
            del feeds[channel]
            found.task.cancel()


async def follow(app: Any, channel: str, address: str, seconds: float, keepalive: float) -> AsyncIterator[Feed | None]:
    """A stream's life of `seconds` on `channel`, counted against `address`: the feed at once and after each
    change (read what is needed from it then: a change during the read is not missed), None after `keepalive`
    seconds of quiet (send a keepalive)."""
    ends = time.monotonic() + seconds
    with open_stream(app, address):
        async with feed(app, channel) as found:
            while time.monotonic() < ends:
                changed = found.changed
                yield found
                try:
                    async with asyncio.timeout(min(keepalive, max(0.0, ends - time.monotonic()))):  # no task a wait
                        await changed.wait()
                except TimeoutError:
                    yield None


class Encoded(ServerSentEventMessage):
    """A server-sent event encoded once and sent as the same bytes to every stream that shares it."""

    def __init__(self, data: str, event: str, ident: str, retry: int | None = None) -> None:
        super().__init__(data=data, event=event, id=ident, retry=retry)
        self.bytes = super().encode()

    def encode(self) -> bytes:
        return self.bytes


class TooManyStreams(service.TournamentError):
    """An address already holds as many live streams on this worker as one address may."""

    status = 429


def admit(request: Request[Any, Any, Any]) -> str:
    """Before a stream starts: its address, or TooManyStreams (429) if that address has its fill. The stream
    counts itself with `open_stream` once it runs."""
    address = client(request)
    most = request.app.state.streams_per_address
    if request.app.state.streams[address] >= most:
        raise TooManyStreams(f"too many live streams from {address}: {most} at most; close a page or wait for one to end")
    return address


@contextlib.contextmanager
def open_stream(app: Any, address: str) -> Any:
    streams: Counter[str] = app.state.streams
    streams[address] += 1
    try:
        yield
    finally:
        streams[address] -= 1
        if streams[address] <= 0:
            del streams[address]
