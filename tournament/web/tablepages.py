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
from typing import Any

from litestar import MediaType, Request, Response, get, post
from litestar.params import FromPath, JSONBody
from litestar.response import Redirect, ServerSentEvent, Template
from markupsafe import Markup

from referee import pages
from referee.ruleset import JUDGE
from schemas.table import LastLine, RecordSent, Seen, TableView
from tournament import service
from tournament.output import recorder
from tournament.service import livetable
from tournament.web import tables, views
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


@get("/e/{event_id:str}/tables/{table:int}/judge", sync_to_thread=True, include_in_schema=False)
def judge_page(request: Request[Any, Any, Any], event_id: FromPath[str], table: FromPath[int]) -> Template:
    """The organiser watches the table in the judge's view (everything) and may add judge records."""
    organiser(request)
    return _page(request, event_id, table, JUDGE)


def _page(request: Request[Any, Any, Any], event_id: str, table: int, seat: str | None) -> Template:
    context = panel(request, event_id, table, seat)
    with reading(request) as session:
        event = service.get_event(session, event_id)
        return page(request, "live_table", session, event, hold=True, **context)


@get("/e/{event_id:str}/tables/{table:int}/panel", sync_to_thread=True, include_in_schema=False)
def panel_part(request: Request[Any, Any, Any], event_id: FromPath[str], table: FromPath[int]) -> Template:
    """The page's changing part (the state, the choices, the records), fetched by its script after each change."""
    return Template(template_name="web/live_table_panel.html.j2", context=panel(request, event_id, table, tables.seat_of(request, event_id)))


def panel(request: Request[Any, Any, Any], event_id: str, table: int, seat: str | None) -> dict[str, Any]:
    """What the table's page draws for `seat`: its view, the game's drawing, the choices, the games to confirm."""
    tables.check_numbers(table, 0, None)
    view = tables.read_view(request, event_id, table, seat, 0, None)
    with reading(request) as session:
        names = views.names(session, event_id)
        setup = livetable.setup_data(session, event_id, view.round, table, view.game)
    shown = names | {JUDGE: "the judge"}
    mine = view.seat if view.seat not in (None, JUDGE) else None
    return {
        "v": view, "names": names, "me": mine, "judge": view.seat == JUDGE,
        "drawing": drawing(view.ruleset, recorder.named(view.state, names), recorder.named(setup, names)),
        "screens": recorder.screens(view.legal, shown),
        "recent": [(r.get("seq"), recorder.record_text(r, shown)) for r in reversed(view.records[-RECENT:])],
        "to_confirm": _to_confirm(request, view, mine, shown),
        "counted": livetable.counted_words(view.players, view.counted, names) if view.counted else None,
        "typed": recorder.typed_example(view.legal, mine or JUDGE),
    }


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
            found.append((summary.game, summary.seq, ending, recorder.record_text(game.records[-1], names)))
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


@post("/e/{event_id:str}/tables/{table:int}/records", sync_to_thread=True, include_in_schema=False, status_code=201)
def page_record(request: Request[Any, Any, Any], event_id: FromPath[str], table: FromPath[int], data: JSONBody[RecordSent]) -> Response[Any]:
    return _json(lambda: tables.append_record.fn(request, event_id, table, data))


@post("/e/{event_id:str}/tables/{table:int}/seen", sync_to_thread=True, include_in_schema=False)
def page_seen(request: Request[Any, Any, Any], event_id: FromPath[str], table: FromPath[int], data: JSONBody[Seen]) -> Response[Any]:
    return _json(lambda: tables.seen.fn(request, event_id, table, data))


@post("/e/{event_id:str}/tables/{table:int}/confirm", sync_to_thread=True, include_in_schema=False)
def page_confirm(request: Request[Any, Any, Any], event_id: FromPath[str], table: FromPath[int], data: JSONBody[LastLine]) -> Response[Any]:
    return _json(lambda: tables.confirm.fn(request, event_id, table, data))


@get("/e/{event_id:str}/tables/{table:int}/live", include_in_schema=False)
async def page_live(request: Request[Any, Any, Any], event_id: FromPath[str], table: FromPath[int]) -> ServerSentEvent:
    """The table's live stream on the page's session: what `/api/.../live` sends (an EventSource sends no Bearer)."""
    return await tables.table_live.fn(request, event_id, table)


HANDLERS = [my_table, table_page, judge_page, panel_part, page_record, page_seen, page_confirm, page_live]
