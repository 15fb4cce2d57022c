"""People across events on the web: everyone, one person's events and tables, the leaderboards (no sign-in);
a person's own page, signed in by their player card (T-181): every event they played, their table now, their
rating after each rated event drawn as a line chart, the open events they register for in one tap, and their
messages for every entry of theirs (T-239).

Each public page has an `/api/...` twin with the Structs `tournament people`,
`person` and `ratings` print with `--json`. External ids (a federation's
number) are the organiser's: the CLI shows them, the web does not.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import msgspec
from litestar import Request, Response, get, post
from litestar.concurrency import sync_to_thread
from litestar.params import FromPath, FromQuery
from litestar.response import Template
from sqlalchemy.orm import Session

from schemas.tournament import PersonInfo, PersonRow, RatingPoint, RatingRow
from tournament import service
from tournament.output import people as people_text
from tournament.service import history
from tournament.web import messages, receipts, views
from tournament.web.auth import client, person
from tournament.web.common import reading
from tournament.web.public import page


def _system(system: str) -> str | None:
    if system not in ("", "glicko2", "openskill"):
        raise service.Usage(f"system must be glicko2 or openskill, not {system!r}")
    return system or None


def _public_people(rows: list[PersonRow]) -> list[PersonRow]:
    return [msgspec.structs.replace(r, external_id=None) for r in rows]


def _public_person(info: PersonInfo) -> PersonInfo:
    return msgspec.structs.replace(info, external_id=None)


@get("/api/people", sync_to_thread=True, tags=["people"])
def people_api(request: Request[Any, Any, Any]) -> list[PersonRow]:
    """Everyone who has played on this database, by name (as `tournament people --json`, without external ids)."""
    with reading(request) as session:
        return _public_people(history.people_rows(session))


@get("/api/people/{person_id:str}", sync_to_thread=True, tags=["people"])
def person_api(request: Request[Any, Any, Any], person_id: FromPath[str]) -> PersonInfo:
    """One person's events, tables and ratings (as `tournament person --json`, without the external id)."""
    with reading(request) as session:
        return _public_person(history.person_info(session, person_id))


@get("/api/ratings", sync_to_thread=True, tags=["people"])
def ratings_api(request: Request[Any, Any, Any], ruleset: FromQuery[str] = "", system: FromQuery[str] = "") -> list[RatingRow]:
    """The leaderboards (as `tournament ratings --json`): `ruleset` and `system` (glicko2, openskill) narrow them."""
    with reading(request) as session:
        return history.leaderboard(session, ruleset or None, _system(system))


@get("/people", sync_to_thread=True, include_in_schema=False)
def people_page(request: Request[Any, Any, Any]) -> Template:
    with reading(request) as session:
        names = {e.id: e.name for e in views.events(session)}
        return page(request, "people", people=history.people_rows(session), event_names=names)


@get("/people/{person_id:str}", sync_to_thread=True, include_in_schema=False)
def person_page(request: Request[Any, Any, Any], person_id: FromPath[str]) -> Template:
    with reading(request) as session:
        info = history.person_info(session, person_id)
        names = {e.event: e.event_name for e in info.events}
        return page(
            request, "person", person=info, event_names=names, result=people_text.match_text, systems=people_text.SYSTEMS,
            rating=people_text.rating_text,
        )


@get("/ratings", sync_to_thread=True, include_in_schema=False)
def ratings_page(request: Request[Any, Any, Any], ruleset: FromQuery[str] = "", system: FromQuery[str] = "") -> Template:
    with reading(request) as session:
        rows = history.leaderboard(session, ruleset or None, _system(system))
    pools: dict[tuple[str, str], list[RatingRow]] = {}
    for row in rows:
        pools.setdefault((row.ruleset, row.system), []).append(row)
    return page(request, "ratings", pools=pools, systems=people_text.SYSTEMS, rating=people_text.rating_text)


# A person's own page (signed in by their player card) ----------------------------------------------------


@dataclass(frozen=True)
class Line:
    """One pool's ratings on the chart: its name, its points (x, y in the drawing) and what each says."""

    name: str
    points: list[tuple[float, float, str]]

    @property
    def path(self) -> str:
        return " ".join(f"{x:.1f},{y:.1f}" for x, y, _ in self.points)


@dataclass(frozen=True)
class Chart:
    """A line chart of a person's rating after each rated event (`person_chart.html.j2` draws it)."""

    width: int
    height: int
    lines: list[Line]
    ticks: list[tuple[float, str]]  # y in the drawing, the rating written there
    events: list[tuple[float, str]]  # x in the drawing, the event's name


WIDTH, HEIGHT, LEFT, RIGHT, TOP, BOTTOM = 360, 200, 44, 12, 12, 28  # fits a 390-px phone's page


def chart(points: list[RatingPoint], systems: dict[str, str]) -> Chart | None:
    """The person's rating after each rated event, one line a pool, events along x in the order played; None
    before any rated event. Each pool's own scale would need two axes: Glicko-2 (1500) and OpenSkill (25) are
    told apart by their lines' names, and share the y axis from the lowest rating to the highest."""
    if not points:
        return None
    order = list(dict.fromkeys(p.event for p in points))
    names = {p.event: p.event_name for p in points}
    low, high = min(p.rating for p in points), max(p.rating for p in points)
    if high - low < 1e-9:
        low, high = low - 1, high + 1
    span_x, span_y = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(event: str) -> float:
        return LEFT + (span_x * order.index(event) / (len(order) - 1) if len(order) > 1 else span_x / 2)

    def y(rating: float) -> float:
        return TOP + span_y * (high - rating) / (high - low)

    pools: dict[tuple[str, str], list[RatingPoint]] = {}
    for p in points:
        pools.setdefault((p.ruleset, p.system), []).append(p)
    lines = [
        Line(f"{ruleset}, {systems[system]}", [(x(p.event), y(p.rating), f"{names[p.event]}: {p.rating:.1f}") for p in pool])
        for (ruleset, system), pool in pools.items()
    ]
    ticks = [(y(v), f"{v:.0f}") for v in (high, (high + low) / 2, low)]
    return Chart(WIDTH, HEIGHT, lines, ticks, [(x(e), names[e]) for e in order])


@dataclass(frozen=True)
class Now:
    """Where the person plays right now: an event under way, its round, and their table (None: a bye, or not paired)."""

    event: str
    event_name: str
    round: int
    table: int | None
    bye: bool
    others: list[str]


def _now(session: Session, info: PersonInfo) -> list[Now]:
    found = []
    for played in info.events:
        event = service.get_event(session, played.event)
        if event.finished or not event.rounds or played.dropped:
            continue
        view = views.match_view(session, event.id, played.player)
        if view.table is not None and view.table.state == "done":
            continue  # played: the next round is not paired yet
        row = view.table.table if view.table is not None else None
        names = views.names(session, event.id)
        others = [names.get(p, p) for p in row.players if p != played.player] if row is not None else []
        found.append(Now(event.id, event.name, view.round, row.table if row is not None else None, view.bye, others))
    return found


def _open(session: Session, info: PersonInfo) -> list[Any]:
    """The events whose public registration is open now and that the person is not in (nor waiting for)."""
    mine = {e.event for e in info.events} | service.waiting_events(session, info.id)
    now = datetime.now(UTC)
    found = []
    for event in views.events(session):
        if event.id in mine or event.rounds or event.bracket_round is not None:
            continue
        stands = service.registration(session, event.id)
        if stands.open and (stands.closes_at is None or stands.closes_at > now):
            found.append(event)
    return found


def home(request: Request[Any, Any, Any], who: service.Identity, r: str) -> Template:
    """The page of a person signed in by their player card."""
    assert who.person is not None
    shown = receipts.shown(request, r, receipts.owner_of(who))
    with reading(request) as session:
        info = history.person_info(session, who.person)
        waiting = sorted(service.get_event(session, e).name for e in service.waiting_events(session, info.id))
        return page(
            request, "me_person", person=info, now=_now(session, info), open=_open(session, info), waiting=waiting,
            chart=chart(info.history, people_text.SYSTEMS), systems=people_text.SYSTEMS, notice=shown.get("notice"),
            error=shown.get("error"), messages=messages.offer_person(request, session, info.id),
        )


@get("/api/me/person", sync_to_thread=True, tags=["people"])
def api_my_person(request: Request[Any, Any, Any]) -> PersonInfo:
    """The signed-in person's events, tables, ratings and rating after each rated event (full precision)."""
    who = person(request)
    assert who.person is not None
    with reading(request) as session:
        return history.person_info(session, who.person)


def _register(session: Session, who: service.Identity, event_id: str) -> str:
    assert who.person is not None
    me = service.get_person(session, who.person)
    done = service.sign_up(session, event_id, me.name, person=me.id)
    event = service.get_event(session, event_id)
    if done.position is None:
        return f"You are registered for {event.name}."
    return f"{event.name} is full: you are number {done.position} on its waitlist."


@post("/me/register/{event_id:str}", include_in_schema=False, action="self")
async def register_form(request: Request[Any, Any, Any], event_id: FromPath[str]) -> Response[Any]:
    """One tap: the signed-in person registers for an open event as themselves (no name, no namesake question)."""
    form = await request.form()
    return await sync_to_thread(receipts.person_form, request, form, lambda s, who: _register(s, who, event_id))


def _claim(request: Request[Any, Any, Any], session: Session, who: service.Identity, code: str) -> str:
    assert who.person is not None
    row = service.claim_entry(session, who.person, code, client(request), who.actor)
    return f"Your entry in {service.get_event(session, row.event_id).name} ({row.display_name}) is yours now."


@post("/me/claim", include_in_schema=False, action="self")
async def claim_form(request: Request[Any, Any, Any]) -> Response[Any]:
    """A person claims an entry the organiser, a CSV or a slip made (T-183): its slip code proves the entry."""
    form = await request.form()
    code = str(form.get("code", ""))
    return await sync_to_thread(receipts.person_form, request, form, lambda s, who: _claim(request, s, who, code))


HANDLERS = [people_api, person_api, ratings_api, people_page, person_page, ratings_page, api_my_person, register_form, claim_form]
