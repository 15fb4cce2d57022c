"""Messages on `tournament serve` (issue 36): a player, or a person for every entry of theirs (T-239), asks to be
told by e-mail or Web Push; the link in every message that stops it, and confirms a person's address (T-241);
the installable web app (its manifest and service worker); the sender in the server's process.

Forms post under `/me/messages/...` (a player), `/me/person/messages/...` (a person) and `/messages/TOKEN/...`
(whoever holds a message's link), each with a CSRF token and a one-time key, answered by a redirect. Push is
offered only where a browser allows it, a secure context (HTTPS, or this machine), and only by an install
with the `push` extra; a page at a plain-HTTP venue says so, and what is offered instead (T-226).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from litestar import Request, Response, get, post
from litestar.concurrency import sync_to_thread
from litestar.params import FromPath, FromQuery, JSONBody
from litestar.response import Redirect, Template
from sqlalchemy.orm import Session

from schemas.web import MessagesRequest, MessagesWay
from tournament import service
from tournament.service import sender as outbox
from tournament.storage.models import Subscription
from tournament.web import receipts
from tournament.web.auth import organiser, person, player
from tournament.web.common import json_post, reading, whole_number
from tournament.web.public import page

STATIC = Path(__file__).resolve().parents[1] / "output" / "static"
LOOPBACK = ("localhost", "127.0.0.1", "[::1]", "::1")


@dataclass(frozen=True)
class Offer:
    """What the page offers a signed-in player or person: e-mail (the server has an SMTP server), push (None:
    offered; else why not, in words), the VAPID public key for the browser, their subscriptions, and where the
    forms post (`/me/messages` or `/me/person/messages`)."""

    email: bool
    push_refused: str | None
    vapid: str | None
    subscriptions: list[tuple[int, str, str, bool]]  # id, channel, what the page shows, confirmed
    forms: str


def secure_context(request: Request[Any, Any, Any]) -> bool:
    """Would a browser call this page a secure context: HTTPS (behind a proxy: its X-Forwarded-Proto, which
    uvicorn reads), or this machine itself."""
    return request.url.scheme == "https" or (request.url.hostname or "") in LOOPBACK


def offer(request: Request[Any, Any, Any], session: Session, event_id: str, player_id: str) -> Offer:
    return _offer(request, service.subscriptions(session, event_id, player_id), "/me/messages")


def offer_person(request: Request[Any, Any, Any], session: Session, person_id: str) -> Offer:
    return _offer(request, service.person_subscriptions(session, person_id), "/me/person/messages")


def _offer(request: Request[Any, Any, Any], mine: list[Subscription], forms: str) -> Offer:
    state = request.app.state
    refused = state.push_missing
    if refused is None and not secure_context(request):
        refused = (
            "This page comes over plain http://, and phones allow push messages only from a secure (https://) site. "
            + ("Get your messages by e-mail below, or keep this page open: it follows the event by itself."
               if state.smtp else "Keep this page open: it follows the event by itself.")
        )
    vapid = state.vapid if refused is None else None
    return Offer(bool(state.smtp), refused, vapid, [(s.id, s.channel, _shown(s), s.confirmed_at is not None) for s in mine], forms)


def _shown(row: Subscription) -> str:
    return service.described(row.channel, row.address)


def _form(request: Request[Any, Any, Any], form: Any, action: Any) -> Response[Any]:
    who = player(request)
    assert who.event_id is not None and who.player is not None
    event_id, player_id = who.event_id, who.player
    key = receipts.given_key(form.get("_key"), "_key")
    receipts.once(request, key, receipts.owner_of(who), lambda session: receipts.Outcome(action(session, event_id, player_id)))
    return Redirect(f"/me?r={key}", status_code=303)


@post("/me/messages/email", include_in_schema=False, action="play")
async def email_form(request: Request[Any, Any, Any]) -> Response[Any]:
    """Be told by e-mail at the address given (the server must have an SMTP server: `serve --smtp`)."""
    form = await request.form()
    address = str(form.get("email", ""))

    def action(session: Session, event_id: str, player_id: str) -> str:
        _subscribe(request, session, event_id, player_id, MessagesRequest("email", address))
        return f"Your pairings and results will come to {address.strip()}."

    return await sync_to_thread(_form, request, form, action)


@post("/me/messages/push", include_in_schema=False, action="play")
async def push_form(request: Request[Any, Any, Any]) -> Response[Any]:
    """Be told by Web Push: the subscription the page's script got from the browser (its endpoint and keys)."""
    form = await request.form()
    endpoint, p256dh, auth = (str(form.get(k, "")) for k in ("endpoint", "p256dh", "auth"))

    def action(session: Session, event_id: str, player_id: str) -> str:
        _subscribe(request, session, event_id, player_id, MessagesRequest("push", endpoint, p256dh, auth))
        return "This browser will be told of your pairings and results, even with the page closed."

    return await sync_to_thread(_form, request, form, action)


@post("/me/messages/stop", include_in_schema=False, action="play")
async def stop_form(request: Request[Any, Any, Any]) -> Response[Any]:
    """Stop one way of being told (messages not yet sent to it are dropped)."""
    form = await request.form()
    number = whole_number(form, "subscription")

    def action(session: Session, event_id: str, player_id: str) -> str:
        gone = service.unsubscribe(session, event_id, player_id, number)
        return f"No more messages to {gone.address if gone.channel == 'email' else 'that browser'}."

    return await sync_to_thread(_form, request, form, action)


def _subscribe(request: Request[Any, Any, Any], session: Session, event_id: str, player_id: str, data: MessagesRequest) -> MessagesWay:
    """A player's wish to be told, where this server can: e-mail with an SMTP server, push with the extra."""
    _offered(request, data.channel)
    row = service.subscribe(session, event_id, player_id, data.channel, data.address, p256dh=data.p256dh, auth=data.auth)
    return _listed([row])[0]


def _offered(request: Request[Any, Any, Any], channel: str) -> None:
    """Refused (409) where this server cannot send on `channel`: e-mail without an SMTP server, push without the extra."""
    state = request.app.state
    if channel == "email" and not state.smtp:
        raise service.Conflict("this server sends no e-mail (the organiser gave it no SMTP server)")
    if channel == "push" and state.push_missing is not None:
        raise service.Conflict(f"push messages are not offered: {state.push_missing}")


def _ways(session: Session, event_id: str, player_id: str) -> list[MessagesWay]:
    return _listed(service.subscriptions(session, event_id, player_id))


def _listed(rows: list[Subscription]) -> list[MessagesWay]:
    return [MessagesWay(s.id, s.channel, s.address, s.confirmed_at is not None) for s in rows]


@get("/api/me/messages", sync_to_thread=True, tags=["players"])
def api_ways(request: Request[Any, Any, Any]) -> list[MessagesWay]:
    """The ways the signed-in player is told of their pairings and results."""
    who = player(request)
    assert who.event_id is not None and who.player is not None
    with reading(request) as session:
        return _ways(session, who.event_id, who.player)


@json_post("/api/me/messages", sync_to_thread=True, tags=["players"], action="play")
def api_subscribe(request: Request[Any, Any, Any], data: JSONBody[MessagesRequest]) -> Response[MessagesWay]:
    """Be told by e-mail or Web Push (409 where this server offers neither)."""
    who = player(request)
    assert who.event_id is not None and who.player is not None
    event_id, player_id = who.event_id, who.player
    return receipts.api_change(request, receipts.owner_of(who), lambda session: _subscribe(request, session, event_id, player_id, data))


@json_post("/api/me/messages/{number:int}/stop", sync_to_thread=True, tags=["players"], action="play")
def api_stop(request: Request[Any, Any, Any], number: FromPath[int]) -> Response[list[MessagesWay]]:
    """Stop one way of being told; the ways left."""
    who = player(request)
    assert who.event_id is not None and who.player is not None
    event_id, player_id = who.event_id, who.player

    def change(session: Session) -> list[MessagesWay]:
        service.unsubscribe(session, event_id, player_id, number)
        return _ways(session, event_id, player_id)

    return receipts.api_change(request, receipts.owner_of(who), change)


# A person, for every entry of theirs (T-239) ------------------------------------------------------------------


def _subscribe_person(request: Request[Any, Any, Any], session: Session, person_id: str, data: MessagesRequest) -> MessagesWay:
    _offered(request, data.channel)
    row = service.subscribe_person(session, person_id, data.channel, data.address, p256dh=data.p256dh, auth=data.auth)
    return _listed([row])[0]


def _whom(who: service.Identity) -> str:
    assert who.person is not None  # a person's session names them
    return who.person


@post("/me/person/messages/email", include_in_schema=False, action="self")
async def person_email_form(request: Request[Any, Any, Any]) -> Response[Any]:
    """Be told by e-mail of every entry of mine, once the address is confirmed by the link sent to it (T-241)."""
    form = await request.form()
    address = str(form.get("email", ""))

    def action(session: Session, who: service.Identity) -> str:
        way = _subscribe_person(request, session, _whom(who), MessagesRequest("email", address))
        if way.confirmed:
            return f"Your pairings and results in every event will come to {way.address}."
        return f"We sent a link to {way.address}: open it to confirm the address, and your messages will come there."

    return await sync_to_thread(receipts.person_form, request, form, action)


@post("/me/person/messages/push", include_in_schema=False, action="self")
async def person_push_form(request: Request[Any, Any, Any]) -> Response[Any]:
    """Be told by Web Push of every entry of mine: the browser's subscription (its endpoint and keys)."""
    form = await request.form()
    endpoint, p256dh, auth = (str(form.get(k, "")) for k in ("endpoint", "p256dh", "auth"))

    def action(session: Session, who: service.Identity) -> str:
        _subscribe_person(request, session, _whom(who), MessagesRequest("push", endpoint, p256dh, auth))
        return "This browser will be told of your pairings and results in every event you play, even with the page closed."

    return await sync_to_thread(receipts.person_form, request, form, action)


@post("/me/person/messages/stop", include_in_schema=False, action="self")
async def person_stop_form(request: Request[Any, Any, Any]) -> Response[Any]:
    """Stop one way of being told of every entry of mine."""
    form = await request.form()
    number = whole_number(form, "subscription")

    def action(session: Session, who: service.Identity) -> str:
        gone = service.unsubscribe_person(session, _whom(who), number)
        return f"No more messages to {_shown(gone) if gone.channel == 'email' else 'that browser'}."

    return await sync_to_thread(receipts.person_form, request, form, action)


@get("/api/me/person/messages", sync_to_thread=True, tags=["people"])
def api_person_ways(request: Request[Any, Any, Any]) -> list[MessagesWay]:
    """The ways the signed-in person is told of every entry of theirs."""
    who = person(request)
    assert who.person is not None
    with reading(request) as session:
        return _listed(service.person_subscriptions(session, who.person))


@json_post("/api/me/person/messages", sync_to_thread=True, tags=["people"], action="self")
def api_person_subscribe(request: Request[Any, Any, Any], data: JSONBody[MessagesRequest]) -> Response[MessagesWay]:
    """Be told of every entry of mine by e-mail (`confirmed` false until the link sent to it is opened) or Web Push."""
    who = person(request)
    assert who.person is not None
    person_id = who.person
    return receipts.api_change(request, receipts.owner_of(who), lambda session: _subscribe_person(request, session, person_id, data))


@json_post("/api/me/person/messages/{number:int}/stop", sync_to_thread=True, tags=["people"], action="self")
def api_person_stop(request: Request[Any, Any, Any], number: FromPath[int]) -> Response[list[MessagesWay]]:
    """Stop one way of being told of every entry of mine; the ways left."""
    who = person(request)
    assert who.person is not None
    person_id = who.person

    def change(session: Session) -> list[MessagesWay]:
        service.unsubscribe_person(session, person_id, number)
        return _listed(service.person_subscriptions(session, person_id))

    return receipts.api_change(request, receipts.owner_of(who), change)


# The link in every message: stop it (and confirm a person's address), no sign-in needed ------------------------


@get("/messages/{token:str}", include_in_schema=False)
async def link_page(request: Request[Any, Any, Any], token: FromPath[str], r: FromQuery[str] = "") -> Template:
    """What a message's link leads to: where these messages go, a button to confirm (a person's address not yet
    confirmed) and one to stop them. A GET changes nothing: mail scanners open links."""
    # async, with its own thread: Litestar wraps a sync_to_thread handler twice when a POST shares its path's start

    def read() -> Template:
        shown = receipts.shown(request, r, "")
        with reading(request) as session:
            try:
                row: Subscription | None = service.subscription_by_token(session, token)
            except service.NotFound:
                row = None
            whose = _whose(session, row) if row is not None else ""
            return page(request, "messages_link", token=token, way=row, shown=_shown(row) if row else "", whose=whose,
                        notice=shown.get("notice"), error=shown.get("error"))

    return await sync_to_thread(read)


def _whose(session: Session, row: Subscription) -> str:
    """Whose messages, in words: a person's name (every event of theirs), or an entry's name and event."""
    if row.person is not None:
        return f"{service.get_person(session, row.person).name}, in every event"
    assert row.event_id is not None and row.player is not None
    names = service.display_names(session, row.event_id)
    return f"{names.get(row.player, row.player)}, in {service.get_event(session, row.event_id).name}"


def _link_form(request: Request[Any, Any, Any], form: Any, token: str, action: Any) -> Response[Any]:
    key = receipts.given_key(form.get("_key"), "_key")
    receipts.once(request, key, "", lambda session: receipts.Outcome(action(session)))
    return Redirect(f"/messages/{token}?r={key}", status_code=303)


@post("/messages/{token:str}/confirm", include_in_schema=False, action="public")
async def confirm_form(request: Request[Any, Any, Any], token: FromPath[str]) -> Response[Any]:
    """The address is mine: tell me there (T-241)."""
    form = await request.form()

    def action(session: Session) -> str:
        row = service.confirm_address(session, token)
        return f"Confirmed: your pairings and results will come to {_shown(row)}."

    return await sync_to_thread(_link_form, request, form, token, action)


@post("/messages/{token:str}/stop", include_in_schema=False, action="public")
async def link_stop_form(request: Request[Any, Any, Any], token: FromPath[str]) -> Response[Any]:
    """Stop these messages (whoever holds the link: the message it came in)."""
    form = await request.form()

    def action(session: Session) -> str:
        row = service.stop_by_token(session, token)
        return f"Stopped: no more messages to {_shown(row)}."

    return await sync_to_thread(_link_form, request, form, token, action)


@get("/admin/messages", sync_to_thread=True, include_in_schema=False, action="view")
def failed_page(request: Request[Any, Any, Any]) -> Template:
    """The organiser's list of messages given up (T-243): to whom, by what, how often tried, why (as
    `tournament send --failed`)."""
    organiser(request)
    with reading(request) as session:
        return page(request, "admin_messages", failed=outbox.given_up(session), pending=outbox.pending(session))


def _file(name: str, media_type: str, **headers: str) -> Response[bytes]:
    return Response((STATIC / name).read_bytes(), media_type=media_type, headers={"cache-control": "no-cache", **headers})


@get("/manifest.webmanifest", include_in_schema=False, sync_to_thread=False)
def manifest() -> Response[bytes]:
    """The web app's manifest: a phone may keep the site on its home screen."""
    return _file("manifest.webmanifest", "application/manifest+json")


@get("/sw.js", include_in_schema=False, sync_to_thread=False)
def service_worker() -> Response[bytes]:
    """The service worker, at the root so it serves the whole site: it shows the push messages. Never cached
    for long, so a new version reaches every phone (browsers check it at least daily)."""
    return _file("sw.js", "text/javascript")


HANDLERS = [
    email_form, push_form, stop_form, api_ways, api_subscribe, api_stop, person_email_form, person_push_form, person_stop_form,
    api_person_ways, api_person_subscribe, api_person_stop, link_page, confirm_form, link_stop_form, failed_page, manifest,
    service_worker,
]


def app_state(state: Any, engine: Any) -> None:
    """What the pages need to know of the messages: the SMTP server (TOURNAMENT_SMTP), why push cannot be
    offered by this install (None: it can), and the VAPID public key (the key pair made on first start)."""
    state.smtp = os.environ.get("TOURNAMENT_SMTP") or None
    state.push_missing = outbox.push_missing()
    state.vapid = None
    if state.push_missing is None:
        with Session(engine) as session, session.begin():
            state.vapid = outbox.vapid_public(outbox.vapid_private(session))


class InProcess:
    """The sender `tournament serve` runs in each worker: a thread with its own engine, started with the app."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.halt: Any = None
        self.engine: Any = None

    def start(self) -> None:
        from tournament.storage.db import make_engine

        self.engine = make_engine(self.url)
        with Session(self.engine) as session, session.begin():
            channels = outbox.channels_for(session, os.environ.get("TOURNAMENT_SMTP") or None)
        if channels:
            self.halt = outbox.start_thread(outbox.Sender(self.engine, channels))

    def stop(self) -> None:
        if self.halt is not None:
            self.halt()
        if self.engine is not None:
            self.engine.dispose()
