"""The organiser's view, behind the organiser token: tables still playing, the judge queue, rulings,
corrections, drops, pairing the next round, players' sign-in codes. Pages under `/admin`, JSON under
`/api/admin` (with `Authorization: Bearer` and the session `POST /api/admin/login` gives)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import msgspec
from litestar import Request, Response, get, post
from litestar.concurrency import sync_to_thread
from litestar.params import FromPath, FromQuery, JSONBody
from litestar.response import Template
from sqlalchemy.orm import Session

from schemas.tournament import RoundInfo
from schemas.web import ClockStart, Code, Extension, Joined, PlayerRef, Ruling, SignIn, TableClaims
from tournament import service
from tournament.service import export, fees, livetable
from tournament.web import dayview, decks, receipts, staffpages, views
from tournament.web.auth import client, identity, organiser
from tournament.web.common import json_post, public_url, reading, whole_number, whole_numbers
from tournament.web.public import page


def _login(request: Request[Any, Any, Any], key: str, token: str, *, api: bool) -> receipts.Answer:
    def change(session: Session) -> receipts.Outcome:
        secret = service.organiser_login(session, token, client(request))
        return receipts.Outcome("", private=msgspec.json.encode(Joined(None, None, secret, "organiser")) if api else secret)

    return receipts.once(request, key, "", change)


@get("/admin", sync_to_thread=True, include_in_schema=False)
def admin(request: Request[Any, Any, Any], r: FromQuery[str] = "") -> Template:
    """The sign-in form (with why the last try was refused), or the events to run."""
    who = identity(request)
    if who is not None and who.role == service.RETIRED:  # the token, once an organiser exists (T-230): told so, and
        shown = receipts.shown(request, r, receipts.owner_of(who))  # the first organiser's code it just made, shown once
        with reading(request) as session:
            code = staffpages.shown_code(request, session, shown)
        return page(request, "admin_login", notice=shown.get("notice"), error=service.TOKEN_RETIRED, code=code)
    if who is None or who.role not in service.STAFF_ROLES:
        return page(request, "admin_login", **receipts.shown(request, r, ""))
    shown = receipts.shown(request, r, receipts.owner_of(who))
    with reading(request) as session:
        return page(
            request, "admin", events=views.events(session), notice=shown.get("notice"), error=shown.get("error"),
            can={action for action in service.MATRIX if service.allowed(who, action, None)}, who=who, roles=service.ROLE_NAMES,
            typed=shown.get("typed", {}), **dayview.new_event_context(),
        )


@post("/admin/login", include_in_schema=False, action="public")
async def admin_login(request: Request[Any, Any, Any]) -> Response[Any]:
    form = await request.form()
    key = receipts.given_key(form.get("_key"), "_key")
    answer = await sync_to_thread(_login, request, key, str(form.get("token", "")), api=False)
    return receipts.signed_in(request, answer, key, "/admin", "/admin", "organiser")


@get("/admin/e/{event_id:str}", sync_to_thread=True, include_in_schema=False, action="view")
def admin_event(request: Request[Any, Any, Any], event_id: FromPath[str], r: FromQuery[str] = "") -> Template:
    """The event's tables, queue and actions, and the answer to the organiser's last form (`?r=KEY`); the forms shown
    are those the reader's role may send (`can`: the matrix's actions)."""
    who = organiser(request)
    shown = receipts.shown(request, r, receipts.owner_of(who))
    with reading(request) as session:
        event = service.get_event(session, event_id)
        everyone = service.players(session, event_id)
        code = None
        if shown.get("secret") and shown.get("detail"):
            player_id = msgspec.json.decode(shown["detail"], type=str)
            code = Code(event_id, player_id, shown["secret"], views.join_link(public_url(request), shown["secret"]))
        return page(
            request, "admin_event", session, event, tables=_claims(session, event_id), names=views.names(session, event_id),
            active=[p.name for p in everyone if p.dropped_round is None], everyone=[p.name for p in everyone],
            notice=shown.get("notice"), error=shown.get("error"), typed=shown.get("typed", {}), code=code,
            qr=views.qr(code.link) if code else None, ends_at=service.round_ends(session, event_id, event.rounds) if event.rounds else None,
            hold=code is not None, screen_notice=event.notice, **dayview.day_context(session, event),  # no reload while a code is on screen: it is shown once
            decks=decks.missing_lists(session, event),
            calls=service.judge_calls(session, event_id),
            decided=service.decided(session, event),
            can={action for action in service.MATRIX if service.allowed(who, action, event_id)},
            rulings=service.rulings(session, event_id), ruling_kinds=service.RULING_WORDS, open_appeals=len(service.appeals(session, event_id, open_only=True)),
            fees=fees.fees(session, event_id),
        )


def acting(request: Request[Any, Any, Any], event_id: str, form: Any, action: Callable[[Session], str | Code]) -> Response[Any]:
    """One organiser form, once for its key, in one transaction; then the event's page, saying what happened."""

    def change(session: Session) -> str | receipts.Outcome:
        done = action(session)
        if isinstance(done, Code):  # the code waits in the receipt until the page shows it, once
            return receipts.Outcome(f"{done.player}: a new sign-in code, shown once", msgspec.json.encode(done.player), secret=done.code)
        return done

    return receipts.organiser_form(request, form, f"/admin/e/{event_id}", change)


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
    name = views.names(session, event_id).get(player, player)
    return f"{name} dropped" + (f"; table {conceded.number} goes to the opponent" if conceded else "")


def new_code(request: Request[Any, Any, Any], session: Session, event_id: str, player: str) -> Code:
    code = service.issue_code(session, event_id, player)
    return Code(event_id, player, code, views.join_link(public_url(request), code))


@post("/admin/e/{event_id:str}/rule", include_in_schema=False, action="rule")
async def rule_form(request: Request[Any, Any, Any], event_id: FromPath[str]) -> Response[Any]:
    form = await request.form()
    return await sync_to_thread(acting, request, event_id, form, lambda s: settle(s, event_id, _form_ruling(form)))


@post("/admin/e/{event_id:str}/pair", include_in_schema=False, action="rounds")
async def pair_form(request: Request[Any, Any, Any], event_id: FromPath[str]) -> Response[Any]:
    form = await request.form()
    return await sync_to_thread(acting, request, event_id, form, lambda s: pair_next(s, event_id))


@post("/admin/e/{event_id:str}/clock", include_in_schema=False, action="rounds")
async def clock_form(request: Request[Any, Any, Any], event_id: FromPath[str]) -> Response[Any]:
    form = await request.form()
    return await sync_to_thread(acting, request, event_id, form, lambda s: start_clock(s, event_id, whole_number(form, "minutes")))


@post("/admin/e/{event_id:str}/extend", include_in_schema=False, action="rule")
async def extend_form(request: Request[Any, Any, Any], event_id: FromPath[str]) -> Response[Any]:
    form = await request.form()
    reason = str(form.get("reason", "")).strip() or None
    return await sync_to_thread(
        acting, request, event_id, form, lambda s: extend_table(s, event_id, whole_number(form, "table"), whole_number(form, "minutes"), reason)
    )


@get("/admin/e/{event_id:str}/drop", include_in_schema=False, action="players")  # the drop's first step: for who may drop
async def drop_page(request: Request[Any, Any, Any], event_id: FromPath[str], player: FromQuery[str] = "") -> Template:
    """The second step of a drop: what it does to the player's table, and that it cannot be undone (T-73)."""
    # async, with its own thread: a sync_to_thread GET sharing its path with a POST is wrapped twice (players.join_page)
    return await sync_to_thread(_drop_page, request, event_id, player)


def _drop_page(request: Request[Any, Any, Any], event_id: str, player: str) -> Template:
    organiser(request)
    with reading(request) as session:
        event = service.get_event(session, event_id)
        found = service.get_player(session, event_id, player)
        seat = service.seat_of(session, event, player) if event.rounds and found.dropped_round is None else None
        playing = seat.number if seat and not seat.done else None  # a table of this round without its result
        return page(request, "admin_drop", session, event, player=player, shown=views.names(session, event_id).get(player, player),
                    dropped=found.dropped_round is not None, table=playing, pod=seat is not None and seat.pod, hold=True)


@post("/admin/e/{event_id:str}/drop", include_in_schema=False, action="players")
async def drop_form(request: Request[Any, Any, Any], event_id: FromPath[str]) -> Response[Any]:
    form = await request.form()
    return await sync_to_thread(acting, request, event_id, form, lambda s: drop_player(s, event_id, str(form.get("player", ""))))


@post("/admin/e/{event_id:str}/code", include_in_schema=False, action="players")
async def code_form(request: Request[Any, Any, Any], event_id: FromPath[str]) -> Response[Any]:
    form = await request.form()
    return await sync_to_thread(acting, request, event_id, form, lambda s: new_code(request, s, event_id, str(form.get("player", ""))))


# The JSON twins (an `Idempotency-Key` header makes a repeat get the first answer) -------------------


@json_post("/api/admin/login", sync_to_thread=True, tags=["organiser"], action="public")
def api_login(request: Request[Any, Any, Any], data: JSONBody[SignIn]) -> Response[Joined]:
    """The organiser token (in `code`) for a session (401 if wrong; 429 after too many wrong guesses)."""
    key = receipts.given_key(request.headers.get("idempotency-key"), "Idempotency-Key")
    return receipts.api_answer(_login(request, key, data.code, api=True))


def _claims(session: Session, event_id: str) -> list[TableClaims]:
    """The current round's tables with their claims, and each unfinished live table's progress (T-153)."""
    event = service.get_event(session, event_id)
    states = service.tables(session, event_id)
    going = livetable.progress(session, event, [s.table.number for s in states if not s.table.done], datetime.now(UTC))
    return [msgspec.structs.replace(views.table_claims(session, event, s), live=going.get(s.table.number)) for s in states]


@get("/api/admin/events/{event_id:str}/tables", sync_to_thread=True, tags=["organiser"], action="view")
def api_tables(request: Request[Any, Any, Any], event_id: FromPath[str]) -> list[TableClaims]:
    """The current round's tables with their claims; `state` `disputed` is the judge queue."""
    organiser(request)
    with reading(request) as session:
        return _claims(session, event_id)


def _change(request: Request[Any, Any, Any], change: Callable[[Session], Any], *, private: bool = False) -> Response[Any]:
    return receipts.api_change(request, receipts.owner_of(organiser(request)), change, private=private)


def _then_tables(event_id: str, action: Callable[[Session], object]) -> Callable[[Session], list[TableClaims]]:
    def change(session: Session) -> list[TableClaims]:
        action(session)
        return _claims(session, event_id)

    return change


@json_post("/api/admin/events/{event_id:str}/rule", sync_to_thread=True, tags=["organiser"], action="rule")
def api_rule(request: Request[Any, Any, Any], event_id: FromPath[str], data: JSONBody[Ruling]) -> Response[list[TableClaims]]:
    """Settle an open table (accept a claim, or give the result) or correct one; the reason is kept."""
    return _change(request, _then_tables(event_id, lambda s: settle(s, event_id, data)))


@json_post("/api/admin/events/{event_id:str}/pair", sync_to_thread=True, tags=["organiser"], action="rounds")
def api_pair(request: Request[Any, Any, Any], event_id: FromPath[str]) -> Response[RoundInfo]:
    """Pair the next round (409 naming the tables without a result)."""
    return _change(request, lambda s: export.round_info(s, event_id, service.pair(s, event_id).number))


@json_post("/api/admin/events/{event_id:str}/drop", sync_to_thread=True, tags=["organiser"], action="players")
def api_drop(request: Request[Any, Any, Any], event_id: FromPath[str], data: JSONBody[PlayerRef]) -> Response[list[TableClaims]]:
    """Drop a player (mid-round, their open match goes to the opponent)."""
    return _change(request, _then_tables(event_id, lambda s: drop_player(s, event_id, data.player)))


@json_post("/api/admin/events/{event_id:str}/clock", sync_to_thread=True, tags=["organiser"], action="rounds")
def api_clock(request: Request[Any, Any, Any], event_id: FromPath[str], data: JSONBody[ClockStart]) -> Response[RoundInfo]:
    """Start the current round's clock now (409 once started: extend tables instead)."""
    return _change(request, lambda s: export.round_info(s, event_id, service.start_round(s, event_id, data.minutes).number))


@json_post("/api/admin/events/{event_id:str}/extend", sync_to_thread=True, tags=["organiser"], action="rule")
def api_extend(request: Request[Any, Any, Any], event_id: FromPath[str], data: JSONBody[Extension]) -> Response[list[TableClaims]]:
    """Give a table of the current round extra minutes, with a reason."""
    return _change(request, _then_tables(event_id, lambda s: extend_table(s, event_id, data.table, data.minutes, data.reason)))


@json_post("/api/admin/events/{event_id:str}/codes", sync_to_thread=True, tags=["organiser"], action="players")
def api_code(request: Request[Any, Any, Any], event_id: FromPath[str], data: JSONBody[PlayerRef]) -> Response[Code]:
    """A new one-time sign-in code for a player (their older codes and sessions stop working)."""
    return _change(request, lambda s: new_code(request, s, event_id, data.player), private=True)


HANDLERS = [
    admin, admin_login, admin_event, drop_page, rule_form, pair_form, clock_form, extend_form, drop_form, code_form,
    api_login, api_tables, api_rule, api_pair, api_clock, api_extend, api_drop, api_code,
]
