"""The big screen, `/e/EVENT/screen` (no sign-in): the round's pairings by name or the standings, the clock,
a QR code to the event's page and the organiser's notice line, in columns that page by themselves
(`static/screen.js`); its JSON twin is `/api/events/EVENT/screen`. The organiser sets the notice on the
organiser's page (`/admin/e/EVENT/notice`) or with `tournament notice`."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Literal

from litestar import Request, Response, get, post
from litestar.concurrency import sync_to_thread
from litestar.params import FromPath, FromQuery, JSONBody
from litestar.response import Template
from sqlalchemy.orm import Session

from schemas.web import ExtraTime, Notice, Screen, ScreenSeat
from tournament import service
from tournament.service import export
from tournament.web import receipts, views
from tournament.web.auth import organiser
from tournament.web.common import json_post, public_url, reading
from tournament.web.organiser import acting
from tournament.web.public import page

PAGE_SECONDS = (3, 120)  # how long the screen shows each page of its columns: `?seconds=N`, default 10


def screen(session: Session, event_id: str, link: str, now: datetime) -> Screen:
    """What the screen shows now: players before round 1, the pairings while a table plays, else the standings."""
    event = service.get_event(session, event_id)
    shown = views.names(session, event_id)
    clock = service.clock(session, event_id, now)
    extra = [ExtraTime(t.table, t.ends_at) for t in clock.tables]
    seats: list[ScreenSeat] = []
    standings = []
    showing: Literal["players", "pairings", "standings"]
    if event.rounds == 0:  # those with a place: not the dropped, nor no-shows left out, nor the waitlist
        showing = "players"
        placed = [shown.get(p.name, p.name) for p in service.players(session, event_id) if p.dropped_round is None]
        seats = [ScreenSeat(name, None, []) for name in sorted(placed, key=views.folded)]
    elif service.open_tables(session, event_id) and not event.finished:
        showing = "pairings"
        info = views.current_round(session, event)
        assert info is not None
        seats = [ScreenSeat(name, table, others) for name, table, others in views.seated(info, shown)]
    else:
        showing = "standings"
        standings = export.standing_rows(session, event_id)
    return Screen(
        export.event_info(event), event.rounds, showing, seats, standings, clock.ends_at if showing == "pairings" else None,
        extra if showing == "pairings" else [], event.notice, link, event.finished,
    )


def _link(request: Request[Any, Any, Any], event_id: str) -> str:
    return f"{public_url(request).rstrip('/')}/e/{event_id}"


@get("/e/{event_id:str}/screen", sync_to_thread=True, include_in_schema=False)
def screen_page(request: Request[Any, Any, Any], event_id: FromPath[str], seconds: FromQuery[int] = 10) -> Template:
    """The big screen; `?seconds=N` (3 to 120) is how long each page of its columns stays up."""
    low, high = PAGE_SECONDS
    if not low <= seconds <= high:
        raise service.Usage(f"seconds: {low} to {high}, not {seconds}")
    with reading(request) as session:
        event = service.get_event(session, event_id)
        view = screen(session, event_id, _link(request, event_id), datetime.now(UTC))
        return page(request, "screen", session, event, screen=view, qr=views.qr(view.link), seconds=seconds)


@get("/api/events/{event_id:str}/screen", sync_to_thread=True, tags=["public"])
def api_screen(request: Request[Any, Any, Any], event_id: FromPath[str]) -> Screen:
    """What the big screen shows: players, pairings by name or standings, the clock, the notice, the QR link."""
    with reading(request) as session:
        return screen(session, event_id, _link(request, event_id), datetime.now(UTC))


def set_notice(session: Session, event_id: str, text: str) -> str:
    shown = service.set_notice(session, event_id, text)
    return f"the big screen shows: {shown}" if shown else "the big screen shows no notice"


@post("/admin/e/{event_id:str}/notice", include_in_schema=False, action="rounds")
async def notice_form(request: Request[Any, Any, Any], event_id: FromPath[str]) -> Response[Any]:
    form = await request.form()
    return await sync_to_thread(acting, request, event_id, form, lambda s: set_notice(s, event_id, str(form.get("text", ""))))


@json_post("/api/admin/events/{event_id:str}/notice", sync_to_thread=True, tags=["organiser"], action="rounds")
def api_notice(request: Request[Any, Any, Any], event_id: FromPath[str], data: JSONBody[Notice]) -> Response[Notice]:
    """Set the big screen's notice line (`text` empty takes it down)."""
    return receipts.api_change(
        request, receipts.owner_of(organiser(request)), lambda s: Notice(service.set_notice(s, event_id, data.text) or ""),
    )


HANDLERS = [screen_page, api_screen, notice_form, api_notice]
