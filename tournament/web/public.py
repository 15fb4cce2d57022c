"""The public pages (no sign-in): events, a round with find-your-seat, standings, the bracket, pods.

Each page follows its event's live stream (`/api/events/{id}/live`, web/follow.py) and reloads when the
event log moves; it polls `/api/events/{id}/version` only while the stream is down (tournament/README.md, T-126).
An event's page is drawn once a change for all its readers without a session (web/sharedpages.py, T-142).
"""

from __future__ import annotations

from typing import Any

from litestar import Request, Response, get
from litestar.params import FromPath, FromQuery
from litestar.response import Template
from sqlalchemy.orm import Session

from tournament import service
from tournament.output import pictures, render
from tournament.service import export
from tournament.storage.models import Event
from tournament.web import views
from tournament.web.auth import identity
from tournament.web.common import reading
from tournament.web.sharedpages import shared_page


def page(request: Request[Any, Any, Any], name: str, session: Session | None = None, event: Event | None = None, **context: Any) -> Template:
    """A page from `templates/web/`; an event's page gets what the layout needs to follow it."""
    if event is not None:
        assert session is not None
        context |= {"event": export.event_info(event), "version": views.version(event)}
    context.setdefault("event", None)
    context.setdefault("version", None)
    state = request.app.state
    return Template(template_name=f"web/{name}.html.j2", context={"poll_seconds": state.poll_seconds, "keepalive_seconds": state.keepalive_seconds, **context})


def signed_in(request: Request[Any, Any, Any], event_id: str) -> str | None:
    """The player reading the page, when they are signed in to this event (their row is marked)."""
    who = identity(request)
    return who.player if who is not None and who.role == "player" and who.event_id == event_id else None


@get("/", sync_to_thread=True, include_in_schema=False)
def home(request: Request[Any, Any, Any]) -> Template:
    with reading(request) as session:
        return page(request, "events", events=views.events(session))


def _round_page(request: Request[Any, Any, Any], event_id: str, number: int | None, by: str, q: str) -> Template:
    with reading(request) as session:
        event = service.get_event(session, event_id)
        number = event.rounds if number is None else number
        info = export.round_info(session, event_id, number) if number else None
        shown = views.names(session, event_id)
        header, cells = render.pairing_cells(info.tables, info.bye, event.format == "pods", info.advanced, info.names) if info else ([], [])
        return page(
            request, "round", session, event, info=info, number=number, current=number == event.rounds,
            header=header, cells=cells, text_columns=render.TEXT_COLUMNS, headings=render.HEADINGS, by_name=views.by_name(info, shown) if info else [],
            by="name" if by == "name" else "table", q=q, seats=views.seats(session, event, q) if q and number == event.rounds else [],
            names=shown, ends_at=service.round_ends(session, event_id, number) if number else None,
            points={r.player: r.points for r in export.standing_rows(session, event_id)} if info and event.format != "pods" else {},
            resting=[*([info.bye] if info and info.bye else []), *(info.advanced if info else [])], me=signed_in(request, event_id),
        )


@get("/e/{event_id:str}", sync_to_thread=True, include_in_schema=False)
def current_round(request: Request[Any, Any, Any], event_id: FromPath[str], by: FromQuery[str] = "table", q: FromQuery[str] = "") -> Response[Any]:
    """The current round: find-your-seat, then the pairings by table or by name."""
    return shared_page(request, event_id, lambda: _round_page(request, event_id, None, by, q))


@get("/e/{event_id:str}/round/{number:int}", sync_to_thread=True, include_in_schema=False)
def round_page(request: Request[Any, Any, Any], event_id: FromPath[str], number: FromPath[int], by: FromQuery[str] = "table") -> Response[Any]:
    return shared_page(request, event_id, lambda: _round_page(request, event_id, number, by, ""))


@get("/e/{event_id:str}/standings", sync_to_thread=True, include_in_schema=False)
def standings(request: Request[Any, Any, Any], event_id: FromPath[str], q: FromQuery[str] = "") -> Response[Any]:
    """The standings: provisional while a round is played; the reader's own row, or the rows `q` finds, marked."""
    return shared_page(request, event_id, lambda: _standings(request, event_id, q))


def _standings(request: Request[Any, Any, Any], event_id: str, q: str) -> Template:
    with reading(request) as session:
        event = service.get_event(session, event_id)
        drawn = export.bracket_info(session, event_id)
        # After a top cut: the Swiss standings as they were at the cut, and the bracket's places apart (T-48).
        cut = event.format == "swiss" and event.bracket_round is not None and drawn is not None
        rows = export.standing_rows(session, event_id, swiss_only=cut)
        header, cells = render.standing_cells(rows)
        me, wanted = signed_in(request, event_id), views.folded(q)
        marked = [k for k, r in enumerate(rows) if r.player == me or (wanted and wanted in views.folded(r.name or r.player))]
        playing = event.rounds > 0 and not event.finished and any(not t.done for t in service.current_tables(session, event))
        return page(
            request, "standings", session, event, header=header, cells=cells, text_columns=render.TEXT_COLUMNS, short=render.SHORT,
            headings=render.HEADINGS, places=render.place_cells(drawn) if cut and drawn else None,
            provisional=playing and not cut, q=q, marked=marked,
        )


@get("/e/{event_id:str}/bracket", sync_to_thread=True, include_in_schema=False)
def bracket(request: Request[Any, Any, Any], event_id: FromPath[str]) -> Response[Any]:
    return shared_page(request, event_id, lambda: _bracket(request, event_id))


def _bracket(request: Request[Any, Any, Any], event_id: str) -> Template:
    with reading(request) as session:
        event = service.get_event(session, event_id)
        info = export.bracket_info(session, event_id)
        drawn = [pictures.bracket_picture(info)] if info else []
        return page(request, "pictures", session, event, heading="Bracket", pictures=drawn,
                    empty="This event has no bracket (yet).")


@get("/e/{event_id:str}/pods", sync_to_thread=True, include_in_schema=False)
def pods(request: Request[Any, Any, Any], event_id: FromPath[str]) -> Response[Any]:
    """Every pods round's tables, seats in order (seat 1 plays first), with places once reported."""
    return shared_page(request, event_id, lambda: _pods(request, event_id))


def _pods(request: Request[Any, Any, Any], event_id: str) -> Template:
    with reading(request) as session:
        event = service.get_event(session, event_id)
        rounds = [] if event.format != "pods" else [
            (n, export.pairing_rows(session, event_id, n)) for n in range(event.rounds, 0, -1)
        ]
        return page(request, "pods", session, event, rounds=rounds,
                    empty="This event does not play pods." if event.format != "pods" else "No round paired yet.")


HANDLERS = [home, current_round, round_page, standings, bracket, pods]
