"""The organiser's view, behind the organiser token: tables still playing, the judge queue, rulings,
corrections, drops, pairing the next round, players' sign-in codes. Pages under `/admin`, JSON under
`/api/admin` (with `Authorization: Bearer` and the session `POST /api/admin/login` gives)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from litestar import Request, Response, get, post
from litestar.concurrency import sync_to_thread
from litestar.params import FromPath, JSONBody
from litestar.response import Redirect, Template
from sqlalchemy.orm import Session

from schemas.tournament import RoundInfo
from schemas.web import ClockStart, Code, Extension, Joined, PlayerRef, Ruling, SignIn, TableClaims
from tournament import service
from tournament.service import export
from tournament.web import views
from tournament.web.auth import guarded, identity, keep, organiser
from tournament.web.common import reading, status_of, whole_number, whole_numbers, writing
from tournament.web.public import page


def _login(request: Request[Any, Any, Any], token: str) -> str:
    return guarded(request, lambda session: service.organiser_login(session, token), write=True)


@get("/admin", sync_to_thread=True, include_in_schema=False)
def admin(request: Request[Any, Any, Any]) -> Template:
    """The sign-in form, or the events to run."""
    who = identity(request)
    with reading(request) as session:
        if who is None or who.role != "organiser":
            return page(request, "admin_login")
        return page(request, "admin", events=views.events(session))


@post("/admin/login", include_in_schema=False)
async def admin_login(request: Request[Any, Any, Any]) -> Response[Any]:
    form = await request.form()
    secret = await sync_to_thread(_login, request, str(form.get("token", "")))
    return keep(Redirect("/admin", status_code=303), request, secret, "organiser")


def _event_page(request: Request[Any, Any, Any], event_id: str, status: int = 200, **notices: Any) -> Template:
    with reading(request) as session:
        event = service.get_event(session, event_id)
        everyone = service.players(session, event_id)
        answer = page(
            request, "admin_event", session, event, tables=_claims(session, event_id), names=views.names(session, event_id),
            active=[p.name for p in everyone if p.dropped_round is None], everyone=[p.name for p in everyone],
            notice=notices.get("notice"), error=notices.get("error"), code=notices.get("code"),
            qr=views.qr(notices["code"].link) if notices.get("code") else None,
            ends_at=service.round_ends(session, event_id, event.rounds) if event.rounds else None,
            hold=bool(notices.get("code")),  # no reload while a code is on screen: it is shown once
        )
    answer.status_code = status
    return answer


@get("/admin/e/{event_id:str}", sync_to_thread=True, include_in_schema=False)
def admin_event(request: Request[Any, Any, Any], event_id: FromPath[str]) -> Template:
    organiser(request)
    return _event_page(request, event_id)


def _acting(request: Request[Any, Any, Any], event_id: str, action: Callable[[Session], str | Code]) -> Template:
    """Run one organiser action in one transaction; the event's page again, saying what happened."""
    organiser(request)
    try:
        with writing(request) as session:
            done = action(session)
    except service.TournamentError as exc:
        return _event_page(request, event_id, status_of(exc), error=exc.message)
    if isinstance(done, Code):
        return _event_page(request, event_id, code=done)
    return _event_page(request, event_id, notice=done)


def _form_ruling(form: Any) -> Ruling:
    return Ruling(
        whole_number(form, "table"), str(form.get("reason", "")), str(form.get("accept") or "") or None,
        whole_numbers(form, "games") or None, whole_number(form, "draws", 0), whole_numbers(form, "place") or None,
        form.get("correct") == "yes",
    )


def settle(session: Session, event_id: str, ruling: Ruling) -> str:
    """A ruling on an open table (accept a claim or give the result), or a correction of a reported one."""
    if not ruling.correct:
        service.rule(
            session, event_id, ruling.table, reason=ruling.reason, accept=ruling.accept,
            result=service.Tally(ruling.games, ruling.draws) if ruling.games else None, places=ruling.places,
        )
        return f"table {ruling.table}: ruled ({ruling.reason})"
    if service.get_event(session, event_id).format == "pods":
        service.report_pod(session, event_id, ruling.table, places=ruling.places, reason=ruling.reason, correction=True)
    else:
        result = service.Tally(ruling.games or {}, ruling.draws)
        service.report(session, event_id, ruling.table, result=result, reason=ruling.reason, correction=True)
    return f"table {ruling.table}: corrected ({ruling.reason})"


def start_clock(session: Session, event_id: str, minutes: int) -> str:
    started = service.start_round(session, event_id, minutes)
    return f"round {started.number}: the clock runs {minutes} minutes from now"


def extend_table(session: Session, event_id: str, table: int, minutes: int, reason: str | None) -> str:
    ends = service.extend(session, event_id, table, minutes, reason)
    return f"table {table}: {minutes} more minutes (time is up at {ends:%H:%M} UTC)"


def pair_next(session: Session, event_id: str) -> str:
    return f"round {service.pair(session, event_id).number} is paired"


def drop_player(session: Session, event_id: str, player: str) -> str:
    conceded = service.drop(session, event_id, player)
    return f"{player} dropped" + (f"; table {conceded.number} goes to the opponent" if conceded else "")


def new_code(request: Request[Any, Any, Any], session: Session, event_id: str, player: str) -> Code:
    code = service.issue_code(session, event_id, player)
    return Code(event_id, player, code, views.join_link(str(request.base_url), code))


@post("/admin/e/{event_id:str}/rule", include_in_schema=False)
async def rule_form(request: Request[Any, Any, Any], event_id: FromPath[str]) -> Template:
    form = await request.form()
    try:
        ruling = _form_ruling(form)
    except service.Usage as exc:
        return await sync_to_thread(_event_page, request, event_id, 400, error=exc.message)
    return await sync_to_thread(_acting, request, event_id, lambda s: settle(s, event_id, ruling))


@post("/admin/e/{event_id:str}/pair", include_in_schema=False)
async def pair_form(request: Request[Any, Any, Any], event_id: FromPath[str]) -> Template:
    return await sync_to_thread(_acting, request, event_id, lambda s: pair_next(s, event_id))


@post("/admin/e/{event_id:str}/clock", include_in_schema=False)
async def clock_form(request: Request[Any, Any, Any], event_id: FromPath[str]) -> Template:
    form = await request.form()
    return await sync_to_thread(_acting, request, event_id, lambda s: start_clock(s, event_id, whole_number(form, "minutes")))


@post("/admin/e/{event_id:str}/extend", include_in_schema=False)
async def extend_form(request: Request[Any, Any, Any], event_id: FromPath[str]) -> Template:
    form = await request.form()
    reason = str(form.get("reason", "")).strip() or None
    return await sync_to_thread(
        _acting, request, event_id, lambda s: extend_table(s, event_id, whole_number(form, "table"), whole_number(form, "minutes"), reason)
    )


@post("/admin/e/{event_id:str}/drop", include_in_schema=False)
async def drop_form(request: Request[Any, Any, Any], event_id: FromPath[str]) -> Template:
    player = str((await request.form()).get("player", ""))
    return await sync_to_thread(_acting, request, event_id, lambda s: drop_player(s, event_id, player))


@post("/admin/e/{event_id:str}/code", include_in_schema=False)
async def code_form(request: Request[Any, Any, Any], event_id: FromPath[str]) -> Template:
    player = str((await request.form()).get("player", ""))
    return await sync_to_thread(_acting, request, event_id, lambda s: new_code(request, s, event_id, player))


# The JSON twins --------------------------------------------------------------


@post("/api/admin/login", sync_to_thread=True, tags=["organiser"])
def api_login(request: Request[Any, Any, Any], data: JSONBody[SignIn]) -> Joined:
    """The organiser token (in `code`) for a session (401 if wrong; 429 after too many wrong guesses)."""
    return Joined(None, None, _login(request, data.code), "organiser")


def _claims(session: Session, event_id: str) -> list[TableClaims]:
    event = service.get_event(session, event_id)
    return [views.table_claims(session, event, s) for s in service.tables(session, event_id)]


def _tables(request: Request[Any, Any, Any], event_id: str) -> list[TableClaims]:
    with reading(request) as session:  # never inside another session: SQLite's transactions queue on one lock
        return _claims(session, event_id)


@get("/api/admin/events/{event_id:str}/tables", sync_to_thread=True, tags=["organiser"])
def api_tables(request: Request[Any, Any, Any], event_id: FromPath[str]) -> list[TableClaims]:
    """The current round's tables with their claims; `state` `disputed` is the judge queue."""
    organiser(request)
    return _tables(request, event_id)


@post("/api/admin/events/{event_id:str}/rule", sync_to_thread=True, tags=["organiser"])
def api_rule(request: Request[Any, Any, Any], event_id: FromPath[str], data: JSONBody[Ruling]) -> list[TableClaims]:
    """Settle an open table (accept a claim, or give the result) or correct one; the reason is kept."""
    organiser(request)
    with writing(request) as session:
        settle(session, event_id, data)
    return _tables(request, event_id)


@post("/api/admin/events/{event_id:str}/pair", sync_to_thread=True, tags=["organiser"])
def api_pair(request: Request[Any, Any, Any], event_id: FromPath[str]) -> RoundInfo:
    """Pair the next round (409 naming the tables without a result)."""
    organiser(request)
    with writing(request) as session:
        number = service.pair(session, event_id).number
        return export.round_info(session, event_id, number)


@post("/api/admin/events/{event_id:str}/drop", sync_to_thread=True, tags=["organiser"])
def api_drop(request: Request[Any, Any, Any], event_id: FromPath[str], data: JSONBody[PlayerRef]) -> list[TableClaims]:
    """Drop a player (mid-round, their open match goes to the opponent)."""
    organiser(request)
    with writing(request) as session:
        drop_player(session, event_id, data.player)
    return _tables(request, event_id)


@post("/api/admin/events/{event_id:str}/clock", sync_to_thread=True, tags=["organiser"])
def api_clock(request: Request[Any, Any, Any], event_id: FromPath[str], data: JSONBody[ClockStart]) -> RoundInfo:
    """Start the current round's clock now (409 once started: extend tables instead)."""
    organiser(request)
    with writing(request) as session:
        number = service.start_round(session, event_id, data.minutes).number
        return export.round_info(session, event_id, number)


@post("/api/admin/events/{event_id:str}/extend", sync_to_thread=True, tags=["organiser"])
def api_extend(request: Request[Any, Any, Any], event_id: FromPath[str], data: JSONBody[Extension]) -> list[TableClaims]:
    """Give a table of the current round extra minutes, with a reason."""
    organiser(request)
    with writing(request) as session:
        extend_table(session, event_id, data.table, data.minutes, data.reason)
    return _tables(request, event_id)


@post("/api/admin/events/{event_id:str}/codes", sync_to_thread=True, tags=["organiser"])
def api_code(request: Request[Any, Any, Any], event_id: FromPath[str], data: JSONBody[PlayerRef]) -> Code:
    """A new one-time sign-in code for a player (their older codes and sessions stop working)."""
    organiser(request)
    with writing(request) as session:
        return new_code(request, session, event_id, data.player)


HANDLERS = [
    admin, admin_login, admin_event, rule_form, pair_form, clock_form, extend_form, drop_form, code_form,
    api_login, api_tables, api_rule, api_pair, api_clock, api_extend, api_drop, api_code,
]
