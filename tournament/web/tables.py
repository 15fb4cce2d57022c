"""Live tables on `tournament serve` (service/livetable.py, service/witness.py): the JSON API and the live stream.

Who is asking decides what is sent: a player at the table gets their seat's
view (the public state and their own hidden cards), the organiser the judge's
(everything), anyone else the spectator's (the public state). A player acts
only for their own seat at their own table, the organiser only as the judge.

An append is not a receipt's change (web/receipts.py): its `after`, the head it
was built on, already makes a repeat harmless (the repeat is refused with the
head, where the client finds its record), and a game needs hundreds of records,
far past a player's limit of changes a minute (T-85).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import AsyncIterator
from typing import Any

import msgspec
from litestar import MediaType, Request, Response, get
from litestar.concurrency import sync_to_thread
from litestar.exceptions import NotAuthorizedException, PermissionDeniedException
from litestar.params import FromPath, FromQuery, JSONBody
from litestar.response import ServerSentEvent, ServerSentEventMessage
from sqlalchemy.orm import Session

from referee.ruleset import JUDGE, Seat
from schemas.table import Appended, BotSeat, LastLine, RecordSent, Refusal, Seen, TableView
from tournament import service
from tournament.service import livetable, witness
from tournament.storage.models import LiveGame
from tournament.web import feeds, live
from tournament.web.auth import identity, organiser, read_again
from tournament.web.common import database, json_post, reading, status_of, viewing, writing

KEEPALIVE_SECONDS = 15  # a comment line this often keeps proxies from closing a quiet stream
STREAM_SECONDS = 600  # a stream ends after this long; the browser reconnects with Last-Event-ID at once


def channel(event_id: str, round_number: int, table: int) -> str:
    return f"table {event_id} {round_number} {table}"


def seat_of(request: Request[Any, Any, Any], event_id: str, session: Session | None = None) -> Seat:
    """The seat the request may see: the player's own (their event), the judge's (the organiser), else a spectator's."""
    who = identity(request, session)
    if who is None:
        return None
    if who.player is None:  # staff: the judge's seat, for the roles that may record as the judge
        return JUDGE if service.allowed(who, "table", event_id) else None
    return who.player if who.event_id == event_id else None


def read_view(request: Request[Any, Any, Any], event_id: str, table: int, seat: Seat, since: int, game: int | None) -> TableView:
    """The table as `seat` sees it; a table nobody opened is opened (its first game started) first."""
    try:
        with viewing(request) as session:  # a player sees their own seat only at their own table; elsewhere a spectator's
            return livetable.view(session, event_id, table, seat, since=since, game_number=game, elsewhere_spectator=True)
    except livetable.NotStarted:  # its opening (the header, a digital game's first deal) is made beside the readers
        with reading(request) as session:
            opening = livetable.table_opening(session, event_id, table)
        if opening is not None:
            with writing(request) as session:
                livetable.store_table_opening(session, opening)
        with viewing(request) as session:
            return livetable.view(session, event_id, table, seat, since=since, game_number=game, elsewhere_spectator=True)


@get("/api/events/{event_id:str}/tables/{table:int}", sync_to_thread=True, tags=["tables"])
def table_view(
    request: Request[Any, Any, Any], event_id: FromPath[str], table: FromPath[int], since: FromQuery[int] = 0, game: FromQuery[int | None] = None,
) -> TableView:
    """A live table as the asker may see it: the game being played (or `game`), its records after `since`."""
    check_numbers(table, since, game)
    with viewing(request) as session:  # who asks and what they see: one session (one snapshot), as a phone asks this every record
        seat = seat_of(request, event_id, session)
        with contextlib.suppress(livetable.NotStarted):
            return livetable.view(session, event_id, table, seat, since=since, game_number=game, elsewhere_spectator=True)
    return read_view(request, event_id, table, seat, since, game)


def check_numbers(table: int, since: int, game: int | None) -> None:
    if not 1 <= table <= 1_000_000 or not 0 <= since <= 1_000_000 or (game is not None and not 1 <= game <= 1_000):
        raise service.Usage("table is 1 to 1,000,000, since 0 to 1,000,000, game 1 to 1,000")


def refusal(exc: service.TournamentError) -> Response[Refusal]:
    if isinstance(exc, livetable.Refused):
        body = Refusal(status_of(exc), exc.message, exc.rule, exc.seq, exc.legal, exc.more, exc.code)
    else:
        body = Refusal(status_of(exc), exc.message, None, getattr(exc, "seq", 0), [], 0, exc.code)
    return Response(body, status_code=body.status, media_type=MediaType.JSON)


def _acting_seat(request: Request[Any, Any, Any], event_id: str, session: Session | None = None) -> str:
    """The seat a write comes from: the signed-in player's (of this event) or, for the organiser, the judge's."""
    seat = seat_of(request, event_id, session)
    if seat is None:
        organiser(request, session)  # no session: 401; a player of another event: 403
        raise service.NotFound(f"you play no table of {event_id!r}")
    return seat


@json_post("/api/events/{event_id:str}/tables/{table:int}/records", sync_to_thread=True, tags=["tables"], status_code=201, action="table")
def append_record(
    request: Request[Any, Any, Any], event_id: FromPath[str], table: FromPath[int], data: JSONBody[RecordSent]
) -> Response[Any]:
    """Record for your seat (or, as the organiser, the judge's records), on the head you saw (`after`). Refused:
    422 with the rule, why and what you may record instead; 409 with the head when someone recorded first."""
    check_numbers(table, 0, None)
    seat = None
    try:
        if database(request).one_writer:  # SQLite: judged beside the other readers, so that the one writer's queue
            judged = None  # holds only the head's move and the new lines (T-129)
            with reading(request) as session, contextlib.suppress(livetable.NotStarted):
                seat = _paced(request, event_id, table, session)
                judged = livetable.judge_record(session, event_id, table, seat, data.record, data.after)
            if judged is not None:
                with writing(request) as session:
                    return _appended(request, session, event_id, table, *livetable.write(session, judged))
        with writing(request) as session:  # PostgreSQL (writers wait only for their own table's row), or a table
            seat = seat or _paced(request, event_id, table, session)  # nobody opened yet: opened, judged and written at once
            return _appended(request, session, event_id, table, *livetable.append(session, event_id, table, seat, data.record, data.after))
    except (livetable.Refused, livetable.Stale) as exc:
        return refusal(exc)


def _paced(request: Request[Any, Any, Any], event_id: str, table: int, session: Session) -> str:
    """The seat an append comes from, once it is in its pace (web/pace.py: 429 when it records too fast)."""
    seat = _acting_seat(request, event_id, session)
    request.app.state.pace.take(event_id, table, seat)
    return seat


def _appended(request: Request[Any, Any, Any], session: Session, event_id: str, table: int, game: LiveGame, done: Appended) -> Response[Any]:
    """The answer to an append written in `session`, its watchers told once it commits."""
    _announce(request, session, channel(event_id, game.round, table), done)
    return Response(done, status_code=201, media_type=MediaType.JSON)


def _announce(request: Request[Any, Any, Any], session: Session, where: str, done: Appended) -> None:
    """Tell the table's watchers (channel `where`), when `session` commits, where its head is now (and that a next
    game began)."""
    live.publish(request.app, session, where, f"{done.game}:{done.seq}")
    if done.next_game is not None:
        live.publish(request.app, session, where, f"{done.next_game}:0")


class SeenAnswer(msgspec.Struct):
    seen: int


class Confirmed(msgspec.Struct):
    reported: bool


@json_post("/api/events/{event_id:str}/tables/{table:int}/seen", sync_to_thread=True, tags=["tables"], action="table")
def seen(request: Request[Any, Any, Any], event_id: FromPath[str], table: FromPath[int], data: JSONBody[Seen]) -> SeenAnswer:
    """Your device holds game `game` up to record `seq` (the witness)."""
    check_numbers(table, data.seq, data.game)
    seat = _acting_seat(request, event_id)
    with writing(request) as session:
        return SeenAnswer(witness.acknowledge(session, event_id, table, seat, data.game, data.seq))


@json_post("/api/events/{event_id:str}/tables/{table:int}/confirm", sync_to_thread=True, tags=["tables"], action="table")
def confirm(request: Request[Any, Any, Any], event_id: FromPath[str], table: FromPath[int], data: JSONBody[LastLine]) -> Confirmed:
    """You confirm that game `game` ended at record `seq`; once every player confirmed every game of a decided
    match, its result is reported (`reported`)."""
    check_numbers(table, data.seq, data.game)
    seat = _acting_seat(request, event_id)
    with writing(request) as session:
        reported = witness.confirm(session, event_id, table, seat, data.game, data.seq)
        game = livetable.current_game(session, livetable.seating(session, event_id, table))
        live.publish(request.app, session, channel(event_id, game.round, table), f"{game.game}:{game.seq}")
    return Confirmed(reported)


@json_post("/api/admin/events/{event_id:str}/tables/{table:int}/bot", sync_to_thread=True, tags=["tables"], action="decks")
def seat_bot(request: Request[Any, Any, Any], event_id: FromPath[str], table: FromPath[int], data: JSONBody[BotSeat]) -> list[str]:
    """The organiser seats the server's bot for a player at a digital table (T-84): the seats the bot plays."""
    check_numbers(table, 0, None)
    organiser(request)
    with writing(request) as session:
        bots = witness.seat_bot(session, event_id, table, data.player, rated=data.rated)
        game = livetable.current_game(session, livetable.seating(session, event_id, table))
        live.publish(request.app, session, channel(event_id, game.round, table), f"{game.game}:{game.seq}")
    return bots


def last_seen(header: str | None) -> tuple[int, int]:
    """`Last-Event-ID` (`GAME:SEQ`, as this stream numbers its events) as (game, seq); (0, 0) when absent or odd."""
    game, _, seq = (header or "").partition(":")
    if game.isdigit() and seq.isdigit() and len(game) < 7 and len(seq) < 8:
        return int(game), int(seq)
    return 0, 0


async def shared_view(request: Request[Any, Any, Any], feed: feeds.Feed, event_id: str, table: int, seat: Seat, game: int | None) -> TableView:
    """The table as `seat` sees it (the game being played, or `game`), all its records: read once a change for
    every stream of this worker that watches the table with that seat (web/feeds.py)."""
    return await feed.shared(("view", seat, game), lambda: sync_to_thread(read_view, request, event_id, table, seat, 0, game))


def mark(view: TableView) -> tuple[Any, ...]:
    """What a watcher is shown anew for: a new record, or a confirmation or the report (the head stays where it was)."""
    return view.game, view.seq, view.reported, tuple(w.confirmed for w in view.witness)


def _message(feed: feeds.Feed, view: TableView, since: int) -> feeds.Encoded:
    """The event that sends `view`'s records after `since`, encoded once for every stream at that place."""
    since = max(0, min(since, view.seq))

    def make() -> feeds.Encoded:
        sent = msgspec.structs.replace(view, since=since, records=view.records[since:])
        return feeds.Encoded(msgspec.json.encode(sent).decode(), "table", f"{view.game}:{view.seq}")

    return feed.once(("message", view.seat, view.game, view.seq, since), make)


async def _stream(
    request: Request[Any, Any, Any], event_id: str, round_number: int, table: int, seat: Seat, game: int, seq: int, address: str,
) -> AsyncIterator[ServerSentEventMessage]:
    """The table from (`game`, `seq`) on: at once, then after each change, the records the stream has not sent,
    every game's in order (T-138: a game that ended since is sent to its last record before the next game's
    first); a keepalive comment while nothing changes."""
    shown: tuple[Any, ...] = ()
    async for feed in feeds.follow(request.app, channel(event_id, round_number, table), address, STREAM_SECONDS, KEEPALIVE_SECONDS):
        if not await still_seated(request, event_id, seat):
            return  # a revoked judge or an ended session sees no more hidden cards; a reconnect is seated anew
        if feed is None:
            if await moved_on(request, event_id, table, round_number):
                return
            yield ServerSentEventMessage(comment="keepalive")
            continue
        now = await shared_view(request, feed, event_id, table, seat, None)
        if 0 < game < now.game:  # the games that ended since this stream's place, from that place on
            for number in range(game, now.game):
                ended = await shared_view(request, feed, event_id, table, seat, number)
                since = seq if number == game else 0
                if ended.seq > since:
                    yield _message(feed, ended, since)
            game, seq, shown = now.game, 0, ()
        elif game != now.game:  # a new stream, or a place in no game of this table: the game being played
            game, seq, shown = now.game, 0, ()
        if mark(now) != shown:
            yield _message(feed, now, seq)
            seq, shown = now.seq, mark(now)


async def still_seated(request: Request[Any, Any, Any], event_id: str, seat: Seat) -> bool:
    """Whether a seated stream's session still gives it its seat, read again before each change and keepalive:
    the seat was settled when the stream opened, and a judge revoked (or a player's session ended by a new code)
    must not go on receiving a seat's hidden cards. A spectator's stream shows nothing hidden: not read again."""
    if seat is None:
        return True
    read_again(request)
    try:
        return await sync_to_thread(seat_of, request, event_id) == seat
    except (NotAuthorizedException, PermissionDeniedException):  # the session is gone or no longer the event's
        return False


async def moved_on(request: Request[Any, Any, Any], event_id: str, table: int, round_number: int) -> bool:
    """Asked by a stream of the table in `round_number` at each keepalive: whether the event has moved to another
    round. The stream's channel hears nothing of the new round's table, so the stream then ends and the browser
    reconnects to the table being played (a screen left on table 1 would show round 1's until its 10 minutes
    were up). Read once a keepalive for all the streams of the channel on this worker."""
    feed: feeds.Feed = request.app.state.feeds[channel(event_id, round_number, table)]  # the asking stream's own
    tick = int(time.monotonic() // KEEPALIVE_SECONDS)
    now = await feed.shared(("round", tick), lambda: sync_to_thread(_round_of, request, event_id, table))
    return now != round_number


def _round_of(request: Request[Any, Any, Any], event_id: str, table: int) -> int | None:
    """The round whose table `table` is played now; None when the event has no such table now."""
    try:
        return placed_table(request, event_id, table).round
    except service.TournamentError:
        return None


def placed_table(request: Request[Any, Any, Any], event_id: str, table: int) -> livetable.Seating:
    with reading(request) as session:
        return livetable.seating(session, event_id, table)


@get("/api/events/{event_id:str}/tables/{table:int}/live", tags=["tables"])
async def table_live(request: Request[Any, Any, Any], event_id: FromPath[str], table: FromPath[int]) -> ServerSentEvent:
    """Server-sent events: the table as the asker may see it, then each change within a second of its commit.
    Reconnecting with `Last-Event-ID` (`GAME:SEQ`) sends only what came after it, across games. 429 when the
    asker's address holds too many streams already."""
    check_numbers(table, 0, None)
    address = feeds.admit(request)
    seat = await sync_to_thread(seat_of, request, event_id)
    game, seq = last_seen(request.headers.get("last-event-id"))
    placed = await sync_to_thread(placed_table, request, event_id, table)  # refused here, before the stream starts
    if seat not in (JUDGE, None) and seat not in placed.players:
        seat = None  # a player of another table watches as a spectator (and shares the spectators' reads)
    return ServerSentEvent(_stream(request, event_id, placed.round, table, seat, game, seq, address))


HANDLERS = [table_view, append_record, seen, confirm, seat_bot, table_live]
