"""The public JSON under `/api/...`: what every page shows, as the CLI's `--json` Structs."""

from __future__ import annotations

from typing import Any

from litestar import Request, get
from litestar.params import FromPath, FromQuery

from schemas.tournament import BracketInfo, EventInfo, RoundInfo, StandingRow
from schemas.web import Seat, Version
from tournament import service
from tournament.service import export
from tournament.web import views
from tournament.web.common import reading


@get("/api/events", sync_to_thread=True, tags=["public"])
def list_events(request: Request[Any, Any, Any]) -> list[EventInfo]:
    """Every event, newest first."""
    with reading(request) as session:
        return views.events(session)


@get("/api/events/{event_id:str}", sync_to_thread=True, tags=["public"])
def event(request: Request[Any, Any, Any], event_id: FromPath[str]) -> EventInfo:
    """One event's settings (as `tournament create --json`)."""
    with reading(request) as session:
        return export.event_info(service.get_event(session, event_id))


@get("/api/events/{event_id:str}/version", sync_to_thread=True, tags=["public"])
def version(request: Request[Any, Any, Any], event_id: FromPath[str]) -> Version:
    """The event log's head; pages poll it and reload when `seq` moves."""
    with reading(request) as session:
        return views.version(service.get_event(session, event_id))


@get("/api/events/{event_id:str}/round", sync_to_thread=True, tags=["public"])
def current_round(request: Request[Any, Any, Any], event_id: FromPath[str]) -> RoundInfo:
    """The current round (as `tournament pairings --json`); 404 before round 1 is paired."""
    with reading(request) as session:
        info = views.current_round(session, service.get_event(session, event_id))
        if info is None:
            raise service.NotFound(f"event {event_id!r} has no round paired yet")
        return info


@get("/api/events/{event_id:str}/rounds/{number:int}", sync_to_thread=True, tags=["public"])
def round_number(request: Request[Any, Any, Any], event_id: FromPath[str], number: FromPath[int]) -> RoundInfo:
    """One round's tables, bye and results (as `tournament pairings --round N --json`)."""
    with reading(request) as session:
        return export.round_info(session, event_id, number)


@get("/api/events/{event_id:str}/seats", sync_to_thread=True, tags=["public"])
def seats(request: Request[Any, Any, Any], event_id: FromPath[str], q: FromQuery[str] = "") -> list[Seat]:
    """Find your seat: the current round's players whose id or name contains `q`, with their table."""
    with reading(request) as session:
        return views.seats(session, service.get_event(session, event_id), q)


@get("/api/events/{event_id:str}/standings", sync_to_thread=True, tags=["public"])
def standings(request: Request[Any, Any, Any], event_id: FromPath[str]) -> list[StandingRow]:
    """The standings with the event's tiebreakers (as `tournament standings --json`)."""
    with reading(request) as session:
        return export.standing_rows(session, event_id)


@get("/api/events/{event_id:str}/bracket", sync_to_thread=True, tags=["public"])
def bracket(request: Request[Any, Any, Any], event_id: FromPath[str]) -> BracketInfo:
    """The bracket (as `tournament bracket --json`); 404 for an event without one."""
    with reading(request) as session:
        info = export.bracket_info(session, event_id)
        if info is None:
            raise service.NotFound(f"{event_id!r} has no bracket (yet)")
        return info


HANDLERS = [list_events, event, version, current_round, round_number, seats, standings, bracket]
