"""Registration before the day (issue 26): the public form `/e/EVENT/register`, and the organiser's settings,
check-in and the one action that leaves out who has not come (`/admin/e/EVENT/registration`). Thin handlers
over `service.signup`; a player checks themselves in from `/me` (`web/desk.py`).

A registration is a change made by nobody signed in: its receipt is its address's (`receipts.registrant`), so
an address may register as often as a player may write (receipts.WRITES a minute). It answers with the
player's session (a cookie; the API's `session`) and a one-time code for another phone, shown once.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import msgspec
from litestar import Request, Response, get, post
from litestar.concurrency import sync_to_thread
from litestar.datastructures import Cookie
from litestar.params import FromPath, FromQuery, JSONBody
from litestar.response import Redirect, Template
from sqlalchemy.orm import Session

from schemas.tournament import Fees, LeftOut, Registration
from schemas.web import (
    FeeRequest,
    PaidRequest,
    PlayerRef,
    RegistrationSettings,
    SignedUp,
    SignUp,
    UnpaidRequest,
)
from tournament import service
from tournament.formats.fees import money
from tournament.output import seasons as season_text
from tournament.service import fees, history
from tournament.storage import eventlog
from tournament.web import receipts, views
from tournament.web.auth import client, keep, organiser
from tournament.web.common import json_post, public_url, reading, whole_number
from tournament.web.public import page

DESK_COOKIE = "hj_desk"  # a registration desk's secret (T-152), beside whoever's session the device has


def desk_of(request: Request[Any, Any, Any], event_id: str) -> bool:
    """Whether the request comes from a registration desk the organiser authorised for this event."""
    secret = request.cookies.get(DESK_COOKIE)
    if not secret:
        return False
    with reading(request) as session:
        return service.desk_event(session, secret) == event_id


def _owner(request: Request[Any, Any, Any], event_id: str, desk: bool) -> str:
    """Whose receipt a registration is: the event's desk (no per-address limit), else its address's."""
    return f"desk {event_id}" if desk else receipts.registrant(client(request))


def _sign_up(
    request: Request[Any, Any, Any], key: str, event_id: str, name: str, player_id: str | None, *, api: bool, desk: bool = False,
    paid_by: str = "",
    email: str = "",
) -> receipts.Answer:
    def change(session: Session) -> receipts.Outcome:
        if paid_by and not desk:  # only the desk takes money: anyone else saying they paid is refused whole
            raise fees.NotTheDesk("only the event's registration desk marks an entry paid; register, then pay at the desk")
        done = service.sign_up(session, event_id, name, player_id)
        if email.strip():  # in the registration's transaction: the e-mail saying so is written with it (T-220)
            if not request.app.state.smtp:
                raise service.Conflict("this server sends no e-mail (the organiser gave it no SMTP server): leave the address out")
            service.subscribe(session, event_id, done.player, "email", email)
        code, secret = service.enrol(session, event_id, done.player)
        took = ""
        if paid_by and done.position is None:
            took = f" {_paid(session, event_id, done.player, paid_by, None)}."
        elif paid_by:
            took = " Not marked paid: someone waiting pays once they have a place."
        if api:
            return receipts.Outcome("", private=msgspec.json.encode(SignedUp(event_id, done.player, secret, code, done.position)))
        who = service.display_names(session, event_id, waiting=True)[done.player]  # a namesake told apart, never by id
        if desk:  # the walk-in signs in on their own phone; the desk stays the desk
            where = "a place" if done.position is None else f"number {done.position} on the waitlist"
            return receipts.Outcome(f"Registered {who}: {where}.{took}", secret=code)
        where = "you have a place" if done.position is None else f"the event is full: you are number {done.position} on the waitlist"
        return receipts.Outcome(f"Registered as {who}: {where}.", secret=code, private=secret)

    # a registration from the public page or a desk is the server's, by the event's rules: nobody signed in made it
    request.state[eventlog.ACTOR] = eventlog.SERVER
    return receipts.once(request, key, _owner(request, event_id, desk), change)


@get("/e/{event_id:str}/register", include_in_schema=False)
async def register_page(request: Request[Any, Any, Any], event_id: FromPath[str], r: FromQuery[str] = "") -> Template:
    """The public registration form, with where registration stands, and the answer to the last one (`?r=KEY`)."""
    # async, with its own thread: Litestar 2.25 wraps a sync_to_thread handler twice when a POST shares its path
    return await sync_to_thread(_register_page, request, event_id, r)


def _register_page(request: Request[Any, Any, Any], event_id: str, r: str) -> Template:
    desk = desk_of(request, event_id)
    shown = receipts.shown(request, r, _owner(request, event_id, desk))
    code = shown.get("secret")
    link = views.join_link(public_url(request), code) if code else None
    with reading(request) as session:
        event = service.get_event(session, event_id)
        return page(
            request, "register", session, event, registration=service.registration(session, event_id),
            notice=shown.get("notice"), error=shown.get("error"), code=code, hold=code is not None, now=datetime.now(UTC),
            desk=desk, link=link, qr=views.qr(link) if desk and link else None, email=bool(request.app.state.smtp),
            fee=money(event.fee, event.fee_currency) if event.fee and event.fee_currency else None,
        )


@post("/e/{event_id:str}/register", include_in_schema=False, action="public")
async def register_form(request: Request[Any, Any, Any], event_id: FromPath[str]) -> Response[Any]:
    form = await request.form()
    key = receipts.given_key(form.get("_key"), "_key")
    player_id = str(form.get("id", "")).strip() or None
    desk = await sync_to_thread(desk_of, request, event_id)
    name, paid_by, email = str(form.get("name", "")), str(form.get("paid") or ""), str(form.get("email", ""))
    answer = await sync_to_thread(_sign_up, request, key, event_id, name, player_id, api=False, desk=desk, paid_by=paid_by, email=email)
    done = Redirect(f"/e/{event_id}/register?r={key}", status_code=303)
    return keep(done, request, answer.private, "player") if answer.private else done


def _open_desk(request: Request[Any, Any, Any], event_id: str, form: Any) -> Response[Any]:
    """The organiser makes this device the event's registration desk: a desk secret in its own cookie."""
    who = organiser(request)
    key = receipts.given_key(form.get("_key"), "_key")

    def change(session: Session) -> receipts.Outcome:
        event = service.get_event(session, event_id)
        secret = service.open_desk(session, event_id)
        return receipts.Outcome(f"This device is the registration desk of {event.name} for 24 hours.", private=secret)

    answer = receipts.once(request, key, receipts.owner_of(who), change)
    if not answer.private:
        return Redirect(f"/admin/e/{event_id}/registration?r={key}", status_code=303)
    done = Redirect(f"/e/{event_id}/register", status_code=303)
    done.set_cookie(Cookie(
        key=DESK_COOKIE, value=answer.private, httponly=True, samesite="lax", secure=request.url.scheme == "https",
        max_age=int(service.DESK_SESSION.total_seconds()), path=f"/e/{event_id}/register",
    ))
    return done


@post("/admin/e/{event_id:str}/desk", include_in_schema=False, action="players")
async def desk_form(request: Request[Any, Any, Any], event_id: FromPath[str]) -> Response[Any]:
    """Make this device a registration desk (T-152): it registers walk-ins without the per-address limit."""
    form = await request.form()
    return await sync_to_thread(_open_desk, request, event_id, form)


@post("/admin/e/{event_id:str}/desk/close", include_in_schema=False, action="players")
async def desk_close_form(request: Request[Any, Any, Any], event_id: FromPath[str]) -> Response[Any]:
    """End every registration desk of the event (a lost tablet, the end of the day)."""
    form = await request.form()

    def change(session: Session) -> str:
        service.get_event(session, event_id)
        ended = service.close_desks(session, event_id)
        return f"{ended} registration desk{'' if ended == 1 else 's'} ended"

    return await sync_to_thread(_acting, request, event_id, form, change)


@json_post("/api/events/{event_id:str}/register", sync_to_thread=True, tags=["public"], action="public")
def api_register(request: Request[Any, Any, Any], event_id: FromPath[str], data: JSONBody[SignUp]) -> Response[SignedUp]:
    """Register for the event: a place, or the waitlist once it is full (`place`); 409 when registration is not
    open, has closed or the event is full without a waitlist. The session and code are given once."""
    key = receipts.given_key(request.headers.get("idempotency-key"), "Idempotency-Key")
    return receipts.api_answer(_sign_up(request, key, event_id, data.name, data.id, api=True))


# The organiser's side -----------------------------------------------------------------------------


def settings_from(form: Any) -> RegistrationSettings:
    """The settings form: a cap (empty: none), a closing time in UTC (empty: none), two checkboxes."""
    cap = whole_number(form, "cap") if str(form.get("cap") or "").strip() else None
    closes = str(form.get("closes") or "").strip()
    try:
        closes_at = datetime.fromisoformat(closes).replace(tzinfo=UTC) if closes else None
    except ValueError:
        raise service.Usage(f"closes: write a date and time like 2026-12-05T09:00, not {closes!r}") from None
    limit = whole_number(form, "waitlist_limit") if str(form.get("waitlist_limit") or "").strip() else None
    return RegistrationSettings(form.get("open") == "yes", cap, closes_at, form.get("waitlist") == "yes", limit)


def _settle(session: Session, event_id: str, wanted: RegistrationSettings) -> Registration:
    return service.set_registration(
        session, event_id, open=wanted.open, cap=wanted.cap, closes_at=wanted.closes_at, waitlist=wanted.waitlist,
        waitlist_limit=wanted.waitlist_limit,
    )


def _named(session: Session, event_id: str, ids: list[str]) -> str:
    """Players (and people waiting) by the names people read."""
    names = service.display_names(session, event_id, waiting=True)
    return ", ".join(names.get(i, i) for i in ids) or "nobody"


def _check_in(session: Session, event_id: str, player: str, paid_by: str = "", amount: int | None = None) -> str:
    service.check_in(session, event_id, player)
    if not paid_by:
        return f"{_named(session, event_id, [player])} is checked in"
    return f"{_named(session, event_id, [player])} is checked in; {_paid(session, event_id, player, paid_by, amount)}"


def _amount(form: Any) -> int | None:
    """The form's amount in minor units (empty: the event's fee)."""
    return whole_number(form, "amount") if str(form.get("amount") or "").strip() else None


def _paid(session: Session, event_id: str, player: str, by: str, amount: int | None) -> str:
    row = fees.mark_paid(session, event_id, player, by, amount)
    currency = service.get_event(session, event_id).fee_currency
    return f"{_named(session, event_id, [player])} paid {season_text.paid_text(row.paid, row.paid_by, currency)}"


def _set_fee(session: Session, event_id: str, currency: str, amount: int) -> str:
    event = fees.set_fee(session, event_id, currency, amount)
    assert event.fee is not None and event.fee_currency is not None
    return f"the entry fee is {money(event.fee, event.fee_currency)}"


def _undo(session: Session, event_id: str, player: str, reason: str) -> str:
    fees.undo_paid(session, event_id, player, reason)
    return f"{_named(session, event_id, [player])}: payment taken back ({reason.strip()})"


def _absent(session: Session, event_id: str) -> LeftOut:
    dropped, promoted = service.leave_out_absent(session, event_id)
    return LeftOut(dropped, promoted)


def _said(session: Session, event_id: str, left: LeftOut) -> str:
    return (f"left out of round 1 (not checked in): {_named(session, event_id, left.dropped)}; "
            f"from the waitlist: {_named(session, event_id, left.promoted)}")


@get("/admin/e/{event_id:str}/registration", include_in_schema=False, action="view")
async def registration_page(request: Request[Any, Any, Any], event_id: FromPath[str], r: FromQuery[str] = "") -> Template:
    """The settings, every player with a place and whether they checked in, the waitlist, the one action."""
    return await sync_to_thread(_registration_page, request, event_id, r)  # async: as `register_page`


def _registration_page(request: Request[Any, Any, Any], event_id: str, r: str) -> Template:
    shown = receipts.shown(request, r, receipts.owner_of(organiser(request)))
    with reading(request) as session:
        event = service.get_event(session, event_id)
        everyone = [p for p in service.players(session, event_id) if p.dropped_round is None]
        return page(
            request, "registration", session, event, registration=service.registration(session, event_id), players=everyone,
            notice=shown.get("notice"), error=shown.get("error"), writes=receipts.WRITES, fees=fees.fees(session, event_id),
            fee_text=season_text.paid_text, money=money, namesakes=service.namesakes(session, everyone),
            texts=history.person_texts(session), names=service.display_names(session, event_id),
        )


def _acting(request: Request[Any, Any, Any], event_id: str, form: Any, action: Any) -> Response[Any]:
    return receipts.organiser_form(request, form, f"/admin/e/{event_id}/registration", action)


@post("/admin/e/{event_id:str}/registration", include_in_schema=False, action="players")
async def settings_form(request: Request[Any, Any, Any], event_id: FromPath[str]) -> Response[Any]:
    form = await request.form()

    def settle(session: Session) -> str:
        done = _settle(session, event_id, settings_from(form))
        return f"registration is {'open' if done.open else 'closed'}"

    return await sync_to_thread(_acting, request, event_id, form, settle)


@post("/admin/e/{event_id:str}/checkin", include_in_schema=False, action="players")
async def checkin_form(request: Request[Any, Any, Any], event_id: FromPath[str]) -> Response[Any]:
    form = await request.form()
    player, paid_by, amount = str(form.get("player", "")), str(form.get("paid") or ""), _amount(form)
    return await sync_to_thread(_acting, request, event_id, form, lambda s: _check_in(s, event_id, player, paid_by, amount))


@post("/admin/e/{event_id:str}/fee", include_in_schema=False, action="players")
async def fee_form(request: Request[Any, Any, Any], event_id: FromPath[str]) -> Response[Any]:
    """The event's entry fee: currency and amount in minor units."""
    form = await request.form()
    currency, amount = str(form.get("currency", "")), whole_number(form, "amount")
    return await sync_to_thread(_acting, request, event_id, form, lambda s: _set_fee(s, event_id, currency, amount))


@post("/admin/e/{event_id:str}/paid", include_in_schema=False, action="players")
async def paid_form(request: Request[Any, Any, Any], event_id: FromPath[str]) -> Response[Any]:
    """A player paid at the desk (cash or card; the amount defaults to the fee)."""
    form = await request.form()
    player, by, amount = str(form.get("player", "")), str(form.get("by", "")), _amount(form)
    return await sync_to_thread(_acting, request, event_id, form, lambda s: _paid(s, event_id, player, by, amount))


@post("/admin/e/{event_id:str}/unpaid", include_in_schema=False, action="players")
async def unpaid_form(request: Request[Any, Any, Any], event_id: FromPath[str]) -> Response[Any]:
    """Take a payment back (a mistake, money handed back), with the reason."""
    form = await request.form()
    player, reason = str(form.get("player", "")), str(form.get("reason", ""))
    return await sync_to_thread(_acting, request, event_id, form, lambda s: _undo(s, event_id, player, reason))


@post("/admin/e/{event_id:str}/absent", include_in_schema=False, action="players")
async def absent_form(request: Request[Any, Any, Any], event_id: FromPath[str]) -> Response[Any]:
    form = await request.form()
    return await sync_to_thread(_acting, request, event_id, form, lambda s: _said(s, event_id, _absent(s, event_id)))


@get("/api/admin/events/{event_id:str}/registration", sync_to_thread=True, tags=["organiser"], action="view")
def api_registration(request: Request[Any, Any, Any], event_id: FromPath[str]) -> Registration:
    """The registration settings, the players with a place and checked in, the waitlist in order."""
    organiser(request)
    with reading(request) as session:
        return service.registration(session, event_id)


def _change(request: Request[Any, Any, Any], change: Any) -> Response[Any]:
    return receipts.api_change(request, receipts.owner_of(organiser(request)), change)


@json_post("/api/admin/events/{event_id:str}/registration", sync_to_thread=True, tags=["organiser"], action="players")
def api_settings(request: Request[Any, Any, Any], event_id: FromPath[str], data: JSONBody[RegistrationSettings]) -> Response[Registration]:
    """Open or close public registration, with a cap, a closing time and a waitlist (a higher cap promotes)."""
    return _change(request, lambda s: _settle(s, event_id, data))


@json_post("/api/admin/events/{event_id:str}/checkin", sync_to_thread=True, tags=["organiser"], action="players")
def api_checkin(request: Request[Any, Any, Any], event_id: FromPath[str], data: JSONBody[PlayerRef]) -> Response[Registration]:
    """Check a player (or someone waiting) in before round 1 (409 a second time)."""

    def change(session: Session) -> Registration:
        service.check_in(session, event_id, data.player)
        return service.registration(session, event_id)

    return _change(request, change)


def _then_fees(session: Session, event_id: str, action: Callable[[], object]) -> Fees:
    action()
    return fees.fees(session, event_id)


@get("/api/admin/events/{event_id:str}/fees", sync_to_thread=True, tags=["organiser"], action="view")
def api_fees(request: Request[Any, Any, Any], event_id: FromPath[str]) -> Fees:
    """Who paid the entry fee and who has not, and the total taken (as `tournament fees --json`)."""
    organiser(request)
    with reading(request) as session:
        return fees.fees(session, event_id)


@json_post("/api/admin/events/{event_id:str}/fee", sync_to_thread=True, tags=["organiser"], action="players")
def api_fee(request: Request[Any, Any, Any], event_id: FromPath[str], data: JSONBody[FeeRequest]) -> Response[Fees]:
    """Set the entry fee (409 changing the currency once someone paid)."""
    return _change(request, lambda s: _then_fees(s, event_id, lambda: fees.set_fee(s, event_id, data.currency, data.amount)))


@json_post("/api/admin/events/{event_id:str}/paid", sync_to_thread=True, tags=["organiser"], action="players")
def api_paid(request: Request[Any, Any, Any], event_id: FromPath[str], data: JSONBody[PaidRequest]) -> Response[Fees]:
    """Mark a player paid at the desk (409 a second time, or before the event has a fee)."""
    return _change(request, lambda s: _then_fees(s, event_id, lambda: fees.mark_paid(s, event_id, data.player, data.by, data.amount)))


@json_post("/api/admin/events/{event_id:str}/unpaid", sync_to_thread=True, tags=["organiser"], action="players")
def api_unpaid(request: Request[Any, Any, Any], event_id: FromPath[str], data: JSONBody[UnpaidRequest]) -> Response[Fees]:
    """Take a payment back, with the reason (409 when the player has not paid)."""
    return _change(request, lambda s: _then_fees(s, event_id, lambda: fees.undo_paid(s, event_id, data.player, data.reason)))


@json_post("/api/admin/events/{event_id:str}/absent", sync_to_thread=True, tags=["organiser"], action="players")
def api_absent(request: Request[Any, Any, Any], event_id: FromPath[str]) -> Response[LeftOut]:
    """T-96: drop who has not checked in, and give their places to the waitlist's checked-in, in order."""
    return _change(request, lambda s: _absent(s, event_id))


HANDLERS = [
    register_page, register_form, desk_form, desk_close_form, api_register, registration_page, settings_form, checkin_form, absent_form,
    api_registration, api_settings, api_checkin, api_absent, fee_form, paid_form, unpaid_form, api_fees, api_fee, api_paid, api_unpaid,
]
