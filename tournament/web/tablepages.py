"""The live table's pages (issue 24, steps 3 and 7): the recorder on a player's phone, the judge's watch.

A page of `/e/EVENT/tables/T` shows the table as its reader's seat may see it
(web/tables.py's `seat_of`: the player's own seat at their table, the judge's
for the organiser, else a spectator's), drawn by the game's own `view.html.j2`
(as `referee show` draws it), with the seat's legal records as screens of big
buttons (output/recorder.py). Its script (static/table.js) follows the table's
live stream and records through the routes below, which run the JSON API's own
handlers (web/tables.py) on the page's session (T-86).
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from functools import partial
from typing import Any

from litestar import MediaType, Request, Response, get, post
from litestar.concurrency import sync_to_thread
from litestar.params import FromPath, JSONBody
from litestar.response import Redirect, ServerSentEvent, ServerSentEventMessage, Template
from markupsafe import Markup

from referee import pages
from referee.ruleset import JUDGE, Seat
from referee.rulesets import get as get_ruleset
from schemas.table import LastLine, RecordSent, Seen, TableView
from tournament import service
from tournament.output import recorder
from tournament.service import livetable
from tournament.web import feeds, tables, views
from tournament.web.auth import organiser, player
from tournament.web.common import reading
from tournament.web.public import page

RECENT = 12  # records listed under the drawing, newest first


@get("/e/{event_id:str}/table", sync_to_thread=True, include_in_schema=False)
def my_table(request: Request[Any, Any, Any], event_id: FromPath[str]) -> Redirect:
    """The signed-in player's live table of the current round."""
    who = player(request)
    with reading(request) as session:
        mine = views.match_view(session, event_id, who.player or "") if who.event_id == event_id else None
    if mine is None or mine.table is None:
        raise service.NotFound(f"you have no table in {event_id!r} this round")
    return Redirect(f"/e/{event_id}/tables/{mine.table.table.table}", status_code=303)


@get("/e/{event_id:str}/tables/{table:int}", sync_to_thread=True, include_in_schema=False)
def table_page(request: Request[Any, Any, Any], event_id: FromPath[str], table: FromPath[int]) -> Template:
    """The table as the reader's seat may see it: a player records here, anyone else watches."""
    return _page(request, event_id, table, tables.seat_of(request, event_id))


@get("/e/{event_id:str}/tables/{table:int}/judge", sync_to_thread=True, include_in_schema=False, action="table")
def judge_page(request: Request[Any, Any, Any], event_id: FromPath[str], table: FromPath[int]) -> Template:
    """A judge watches the table in the judge's view (everything) and may add judge records (a scorekeeper may not: 403)."""
    organiser(request)
    return _page(request, event_id, table, JUDGE)


def _page(request: Request[Any, Any, Any], event_id: str, table: int, seat: str | None) -> Template:
    context = panel(request, event_id, table, seat)
    with reading(request) as session:
        event = service.get_event(session, event_id)
        return page(request, "live_table", session, event, hold=True, **context)


PANEL = "web/live_table_panel.html.j2"


@get("/e/{event_id:str}/tables/{table:int}/panel", include_in_schema=False)
async def panel_part(request: Request[Any, Any, Any], event_id: FromPath[str], table: FromPath[int]) -> Response[Any]:
    """The page's changing part (the state, the choices, the records), fetched by its script after each change. A
    spectator's is the one this worker's table feed last read, drawn once a change for every spectator (T-143)."""
    tables.check_numbers(table, 0, None)
    seat, where = await sync_to_thread(_seat_and_channel, request, event_id, table)
    feed = request.app.state.feeds.get(where) if seat is None else None
    if feed is None:
        return await sync_to_thread(lambda: Template(template_name=PANEL, context=panel(request, event_id, table, seat)))
    view = await tables.shared_view(request, feed, event_id, table, None, None)
    drawn = await feed.shared(("panel", tables.mark(view)), partial(sync_to_thread, _drawn_panel, request, view))
    return Response(drawn, media_type=MediaType.HTML)


def _seat_and_channel(request: Request[Any, Any, Any], event_id: str, table: int) -> tuple[Seat, str]:
    """Who reads the panel, and the channel of the table in the round being played: the feed of the same table
    number in an earlier round (a screen still on it) hears nothing of this round, so its view is not this one."""
    with reading(request) as session:
        seat = tables.seat_of(request, event_id, session)
        return seat, tables.channel(event_id, livetable.seating(session, event_id, table).round, table)


def _drawn_panel(request: Request[Any, Any, Any], view: TableView) -> str:
    return _render(request, PANEL, panel_of(request, view))


def _render(request: Request[Any, Any, Any], name: str, context: dict[str, Any]) -> str:
    """A template drawn here rather than as a response: once, for many readers."""
    engine = request.app.template_engine
    assert engine is not None, "the app has its templates"
    drawn: str = engine.get_template(name).render(**context)
    return drawn


def panel(request: Request[Any, Any, Any], event_id: str, table: int, seat: str | None) -> dict[str, Any]:
    """What the table's page draws for `seat`: its view, the game's drawing, the choices, the games to confirm."""
    tables.check_numbers(table, 0, None)
    return panel_of(request, tables.read_view(request, event_id, table, seat, 0, None))


def panel_of(request: Request[Any, Any, Any], view: TableView) -> dict[str, Any]:
    """`panel` for a view already read (its seat's)."""
    event_id, table = view.event, view.table
    with reading(request) as session:
        names = views.names(session, event_id)
        setup = livetable.setup_data(session, event_id, view.round, table, view.game)
    shown = names | {JUDGE: "the judge"}
    mine = view.seat if view.seat not in (None, JUDGE) else None
    keeping = view.keeper is not None and view.keeper == view.seat  # this page records for every seat (T-200)
    seats = tuple(view.players) if keeping else (mine,) if mine else ()
    digital = view.mode == "digital"
    by_seq = {r.get("seq"): r for r in view.records}
    faces = get_ruleset(view.ruleset)
    return {
        "v": view, "names": names, "me": mine, "judge": view.seat == JUDGE, "keeping": keeping,
        "drawing": drawing(view.ruleset, recorder.named(view.state, names), recorder.named(setup, names)),
        "screens": recorder.screens(view.legal, shown, faces, view.records, seats, view.unseen),
        "searched": recorder.SEARCHED,
        "labels": recorder.card_labels(view.state, faces),
        "take_backs": [(r, recorder.record_text(by_seq.get(r["record"], {}), shown, digital, faces)) for r in view.take_backs],
        "asked": _asked(view, seats, shown),
        "recent": [(r.get("seq"), recorder.record_text(r, shown, digital, faces), r.get("seq") in view.withdrawn)
                   for r in reversed(view.records[-RECENT:])],
        "to_confirm": _to_confirm(request, view, mine, shown),
        "counted": livetable.counted_words(view.players, view.counted, names) if view.counted else None,
        "typed": recorder.typed_example(view.legal, mine or JUDGE),
    }


def _asked(view: TableView, seats: tuple[str | None, ...], names: dict[str, str]) -> str | None:
    """The take-back this page asked for that waits for the next seat's agreement, in words; None if none."""
    last = view.records[-1] if view.records else None
    if last is None or last.get("type") != "take_back" or last.get("by") not in seats or view.over:
        return None
    asked = next((r for r in view.records if r.get("seq") == last.get("record")), {})
    return recorder.record_text(asked, names, view.mode == "digital", get_ruleset(view.ruleset))


INLINE_STYLE = re.compile(r'\sstyle="[^"]*"')  # autoescaped output: an attribute's value holds no raw quote


def drawing(ruleset: str, state: dict[str, Any], setup: Any) -> Markup:
    """The game's own drawing of `state`, by the referee's page environment (as `referee show` draws it), without
    its inline styles (a card's colour band): this site's policy allows none, and the drawing reads without them."""
    return Markup(INLINE_STYLE.sub("", pages.render(pages.game_view(ruleset), state=state, setup=setup)))


def _to_confirm(request: Request[Any, Any, Any], view: TableView, mine: str | None, names: dict[str, str]) -> list[tuple[int, int, str, str]]:
    """The finished games whose last line `mine` has not confirmed: (game, its last seq, how it ended in words, that
    line for people: a digital game's is the seed's reveal, kept as a detail). None once the match is reported."""
    if mine is None or view.reported:
        return []
    found = []
    for summary in view.games:
        if not summary.over:
            continue
        game = view if summary.game == view.game else tables.read_view(request, view.event, view.table, mine, summary.seq - 1, summary.game)
        if not any(w.player == mine and w.confirmed for w in game.witness) and game.records and game.result:
            ending = recorder.ending_text(game.result, view.players, names)
            found.append((summary.game, summary.seq, ending, recorder.record_text(game.records[-1], names, view.mode == "digital", get_ruleset(view.ruleset))))
    return found


# The page's script records through the JSON API's own handlers, on the page's session (the cookie) and with the
# page's CSRF token in a header (T-86). Every answer is JSON, a refusal too (Litestar's own, such as a body
# that fails validation, because the script asks for JSON: T-130).


def _json(call: Any) -> Response[Any]:
    try:
        answer = call()
    except service.TournamentError as exc:
        return tables.refusal(exc)
    return answer if isinstance(answer, Response) else Response(answer, media_type=MediaType.JSON)


@post("/e/{event_id:str}/tables/{table:int}/records", sync_to_thread=True, include_in_schema=False, status_code=201, action="table")
def page_record(request: Request[Any, Any, Any], event_id: FromPath[str], table: FromPath[int], data: JSONBody[RecordSent]) -> Response[Any]:
    return _json(lambda: tables.append_record.fn(request, event_id, table, data))


@post("/e/{event_id:str}/tables/{table:int}/seen", sync_to_thread=True, include_in_schema=False, action="table")
def page_seen(request: Request[Any, Any, Any], event_id: FromPath[str], table: FromPath[int], data: JSONBody[Seen]) -> Response[Any]:
    return _json(lambda: tables.seen.fn(request, event_id, table, data))


@post("/e/{event_id:str}/tables/{table:int}/confirm", sync_to_thread=True, include_in_schema=False, action="table")
def page_confirm(request: Request[Any, Any, Any], event_id: FromPath[str], table: FromPath[int], data: JSONBody[LastLine]) -> Response[Any]:
    return _json(lambda: tables.confirm.fn(request, event_id, table, data))


@get("/e/{event_id:str}/tables/{table:int}/live", include_in_schema=False)
async def page_live(request: Request[Any, Any, Any], event_id: FromPath[str], table: FromPath[int]) -> ServerSentEvent:
    """The table's live stream on the page's session: what `/api/.../live` sends (an EventSource sends no Bearer)."""
    return await tables.table_live.fn(request, event_id, table)


# -- the broadcast: a table for the room's big screen ---------------------------------------------------------

@get("/e/{event_id:str}/tables/{table:int}/broadcast", sync_to_thread=True, include_in_schema=False)
def broadcast_page(request: Request[Any, Any, Any], event_id: FromPath[str], table: FromPath[int]) -> Template:
    """The table for a big screen (no sign-in; T-141): the public view by name, the match's score; it follows the
    table by its broadcast stream."""
    tables.check_numbers(table, 0, None)
    context = broadcast_context(request, tables.read_view(request, event_id, table, None, 0, None))
    with reading(request) as session:
        return page(request, "broadcast", session, service.get_event(session, event_id), hold=True, **context)


def broadcast_context(request: Request[Any, Any, Any], view: TableView) -> dict[str, Any]:
    """What the broadcast's panel draws of a spectator's `view`: the table page's panel, and the games each has won."""
    wins = dict.fromkeys(view.players, 0)
    for played in view.games:
        if played.over and played.winners and len(played.winners) == 1:
            wins[played.winners[0]] += 1
    return panel_of(request, view) | {"wins": wins}


def _broadcast_message(request: Request[Any, Any, Any], view: TableView) -> feeds.Encoded:
    drawn = _render(request, "web/broadcast_panel.html.j2", broadcast_context(request, view))
    return feeds.Encoded(drawn, "panel", f"{view.game}:{view.seq}")


async def _broadcast(request: Request[Any, Any, Any], event_id: str, placed: livetable.Seating, address: str) -> AsyncIterator[ServerSentEventMessage]:
    """The broadcast's panel at once and after each change: read and drawn once a change for every screen on this
    worker (web/feeds.py), the spectators' view shared with the table's other spectators."""
    shown: tuple[Any, ...] = ()
    where = tables.channel(event_id, placed.round, placed.table)
    async for feed in feeds.follow(request.app, where, address, tables.STREAM_SECONDS, tables.KEEPALIVE_SECONDS):
        if feed is None:
            if await tables.moved_on(request, event_id, placed.table, placed.round):
                return  # the screen's script reconnects to the table of the round being played
            yield ServerSentEventMessage(comment="keepalive")
            continue
        now = await tables.shared_view(request, feed, event_id, placed.table, None, None)
        if tables.mark(now) != shown:
            shown = tables.mark(now)
            yield await feed.shared(("broadcast", shown), partial(sync_to_thread, _broadcast_message, request, now))


@get("/e/{event_id:str}/tables/{table:int}/broadcast/live", include_in_schema=False)
async def broadcast_live(request: Request[Any, Any, Any], event_id: FromPath[str], table: FromPath[int]) -> ServerSentEvent:
    """Server-sent events `panel`: the broadcast's panel as HTML, at once and after each change; 429 past the
    streams an address may hold."""
    tables.check_numbers(table, 0, None)
    address = feeds.admit(request)
    placed = await sync_to_thread(tables.placed_table, request, event_id, table)  # refused here, before the stream starts
    return ServerSentEvent(_broadcast(request, event_id, placed, address))


HANDLERS = [broadcast_page, broadcast_live, my_table, table_page, judge_page, panel_part, page_record, page_seen, page_confirm, page_live]
