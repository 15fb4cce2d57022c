"""Messages on `tournament serve` (issue 36): a player asks to be told by e-mail or Web Push; the installable web
app (its manifest and service worker); the sender in the server's process.

Forms post under `/me/messages/...` (CSRF token and one-time key, answered by a redirect to `/me`). Push is
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
from litestar.params import FromPath, JSONBody
from litestar.response import Redirect
from sqlalchemy.orm import Session

from schemas.web import MessagesRequest, MessagesWay
from tournament import service
from tournament.service import sender as outbox
from tournament.web import receipts
from tournament.web.auth import player
from tournament.web.common import json_post, reading, whole_number

STATIC = Path(__file__).resolve().parents[1] / "output" / "static"
LOOPBACK = ("localhost", "127.0.0.1", "[::1]", "::1")


@dataclass(frozen=True)
class Offer:
    """What the page offers a signed-in player: e-mail (the server has an SMTP server), push (None: offered;
    else why not, in words), the VAPID public key for the browser, and their subscriptions."""

    email: bool
    push_refused: str | None
    vapid: str | None
    subscriptions: list[tuple[int, str, str]]  # id, channel, what the page shows


def secure_context(request: Request[Any, Any, Any]) -> bool:
    """Would a browser call this page a secure context: HTTPS (behind a proxy: its X-Forwarded-Proto, which
    uvicorn reads), or this machine itself."""
    return request.url.scheme == "https" or (request.url.hostname or "") in LOOPBACK


def offer(request: Request[Any, Any, Any], session: Session, event_id: str, player_id: str) -> Offer:
    state = request.app.state
    refused = state.push_missing
    if refused is None and not secure_context(request):
        refused = (
            "This page comes over plain http://, and phones allow push messages only from a secure (https://) site. "
            + ("Get your messages by e-mail below, or keep this page open: it follows the event by itself."
               if state.smtp else "Keep this page open: it follows the event by itself.")
        )
    vapid = state.vapid if refused is None else None
    shown = [(s.id, s.channel, s.address if s.channel == "email" else _device(s.address)) for s in service.subscriptions(session, event_id, player_id)]
    return Offer(bool(state.smtp), refused, vapid, shown)


def _device(endpoint: str) -> str:
    from urllib.parse import urlsplit

    return f"a browser (push by {urlsplit(endpoint).hostname})"


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
    state = request.app.state
    if data.channel == "email" and not state.smtp:
        raise service.Conflict("this server sends no e-mail (the organiser gave it no SMTP server)")
    if data.channel == "push" and state.push_missing is not None:
        raise service.Conflict(f"push messages are not offered: {state.push_missing}")
    row = service.subscribe(session, event_id, player_id, data.channel, data.address, p256dh=data.p256dh, auth=data.auth)
    return MessagesWay(row.id, row.channel, row.address)


def _ways(session: Session, event_id: str, player_id: str) -> list[MessagesWay]:
    return [MessagesWay(s.id, s.channel, s.address) for s in service.subscriptions(session, event_id, player_id)]


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


HANDLERS = [email_form, push_form, stop_form, api_ways, api_subscribe, api_stop, manifest, service_worker]


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
