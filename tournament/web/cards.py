"""Player cards (T-181, T-182): a person's own sign-in that outlives an event.

A card is a long-lived secret (`service.new_card`) drawn as a QR code whose link carries it after `#`
(`/card#code=...`, never sent to a server, as a slip's code): scanning it on any phone at any event of this
server signs its person in (`service.card_sign_in`), over plain HTTP at a venue as well as anywhere. Renewing
ends the old card and every session it opened. Who gives a card (T-182): the organiser prints one from the
person's organiser page; a person signed in by their card renews their own; a player signed in by their slip's
code makes their person's first card (never a second: that would take over a card someone else holds).
"""

from __future__ import annotations

from typing import Any

import msgspec
from litestar import Request, Response, get, post
from litestar.concurrency import sync_to_thread
from litestar.params import FromPath, FromQuery, JSONBody
from litestar.response import Redirect, Template
from sqlalchemy import select
from sqlalchemy.orm import Session

from schemas.web import Joined, SignIn
from tournament import service
from tournament.service import persons
from tournament.storage.models import Player
from tournament.web import receipts, views
from tournament.web.auth import client, identity, keep, organiser
from tournament.web.common import json_post, public_url, reading, writing
from tournament.web.players import page_plain
from tournament.web.public import page


def card_link(base_url: str, card: str) -> str:
    """A card's link: the secret after `#`, as a slip's (`views.join_link`)."""
    return f"{base_url.rstrip('/')}/card#code={card}"


def _sign_in(request: Request[Any, Any, Any], key: str, card: str, *, api: bool) -> receipts.Answer:
    def change(session: Session) -> receipts.Outcome:
        who, secret = service.card_sign_in(session, card, client(request))
        joined = Joined(None, None, secret, "person", person=who.person)
        return receipts.Outcome("", private=msgspec.json.encode(joined) if api else secret)

    return receipts.once(request, key, "", change)


@get("/card", include_in_schema=False)
async def card_page(request: Request[Any, Any, Any], r: FromQuery[str] = "") -> Template:
    """Sign in with a player card: the scanned link fills the form from after `#` and sends it."""
    # async, with its own thread: Litestar 2.25 wraps a sync_to_thread handler twice when a POST shares its path
    return page_plain("card_signin", **await sync_to_thread(receipts.shown, request, r, ""))


@post("/card", include_in_schema=False, action="public")
async def card_form(request: Request[Any, Any, Any]) -> Response[Any]:
    form = await request.form()
    key = receipts.given_key(form.get("_key"), "_key")
    answer = await sync_to_thread(_sign_in, request, key, str(form.get("code", "")), api=False)
    return receipts.signed_in(request, answer, key, "/card", "/me", "person")


@json_post("/api/card", sync_to_thread=True, tags=["people"], action="public")
def api_card(request: Request[Any, Any, Any], data: JSONBody[SignIn]) -> Response[Any]:
    """Sign in with a player card for a person's session (401 for a wrong or renewed card; 429 after too many)."""
    key = receipts.given_key(request.headers.get("idempotency-key"), "Idempotency-Key")
    return receipts.api_answer(_sign_in(request, key, data.code, api=True))


def _whose(session: Session, who: service.Identity | None) -> str:
    """The person a signed-in person or player may make a card for; NotAuthorized-like refusals otherwise."""
    if who is not None and who.role == "person" and who.person is not None:
        return who.person
    if who is not None and who.role == "player" and who.event_id is not None and who.player is not None:
        person = session.scalar(select(Player.person).filter_by(event_id=who.event_id, name=who.player))
        if person is None:
            raise service.NotFound("your entry is no one's yet: ask the organiser to link it to you")
        if service.has_card(session, person):  # T-182: a slip's code proves the entry, not who holds the card
            raise service.Conflict("you have a player card already: sign in with it to renew it, or ask the organiser")
        return person
    raise service.Denied("sign in with your player card, or your slip's code, first")


@post("/me/card", include_in_schema=False, action="self")
async def my_card_form(request: Request[Any, Any, Any]) -> Response[Any]:
    """Make (or renew) my player card; the page it leads to shows it once."""
    form = await request.form()
    return await sync_to_thread(_my_card, request, form)


def _my_card(request: Request[Any, Any, Any], form: Any) -> Response[Any]:
    who = identity(request)
    key = receipts.given_key(form.get("_key"), "_key")

    def change(session: Session) -> receipts.Outcome:
        person = _whose(session, who)
        card = service.new_card(session, person)
        renewed = who is not None and who.role == "person"
        return receipts.Outcome("Your new player card is below; any card you had before no longer works.", secret=card, private=renewed or None)

    answer = receipts.once(request, key, receipts.owner_of(who), change)
    done = Redirect(f"/me/card?r={key}", status_code=303)
    # a person renewing ends the session they sent this with: the new card signs this phone in again
    if answer.private and who is not None and who.person is not None:
        with writing(request) as session:
            return keep(done, request, service.person_session(session, who.person), "person")
    return done


@get("/me/card", include_in_schema=False)
async def my_card_page(request: Request[Any, Any, Any], r: FromQuery[str] = "") -> Response[Any]:
    """My player card: made or renewed here (the new one shown once, to print or keep as a picture)."""
    # async, with its own thread: Litestar 2.25 wraps a sync_to_thread handler twice when a POST shares its path
    return await sync_to_thread(_my_card_page, request, r)


def _my_card_page(request: Request[Any, Any, Any], r: str) -> Response[Any]:
    who = identity(request)
    if who is None or who.role not in ("person", "player"):
        return Redirect("/card")
    shown = receipts.shown(request, r, receipts.owner_of(who))
    with reading(request) as session:
        person_id = who.person if who.role == "person" else session.scalar(
            select(Player.person).filter_by(event_id=who.event_id, name=who.player)
        )
        person = persons.get_person(session, person_id) if person_id else None
        has = service.has_card(session, person.id) if person else False
    return _card(request, shown, person, has, who.role, "/me/card", "/me")


def _card(
    request: Request[Any, Any, Any], shown: dict[str, Any], person: Any, has: bool, role: str, action: str, back: str,
) -> Template:
    card = shown.get("secret")
    link = card_link(public_url(request), card) if card else None
    return page(
        request, "card", person=person, card=card, link=link, qr=views.qr(link) if link else None, has_card=has,
        role=role, action=action, back=back, notice=shown.get("notice"), error=shown.get("error"),
    )


@get("/admin/people/{person_id:str}/card", include_in_schema=False, action="people")
async def admin_card_page(request: Request[Any, Any, Any], person_id: FromPath[str], r: FromQuery[str] = "") -> Template:
    """The organiser prints a person's card (T-182): the new one shown once, on a page fit for paper or a phone."""
    return await sync_to_thread(_admin_card_page, request, person_id, r)  # async: as `my_card_page`


def _admin_card_page(request: Request[Any, Any, Any], person_id: str, r: str) -> Template:
    organiser(request)
    shown = receipts.shown(request, r, "organiser")
    with reading(request) as session:
        person = persons.get_person(session, person_id)
        has = service.has_card(session, person.id)
    return _card(request, shown, person, has, "organiser", f"/admin/people/{person_id}/card", f"/admin/people/{person_id}")


@post("/admin/people/{person_id:str}/card", include_in_schema=False, action="people")
async def admin_card_form(request: Request[Any, Any, Any], person_id: FromPath[str]) -> Response[Any]:
    """A new card for the person: the old one, and every session it opened, end."""
    form = await request.form()

    def change(session: Session) -> receipts.Outcome:
        person = persons.get_person(session, person_id)
        card = service.new_card(session, person.id)
        return receipts.Outcome(f"A new player card for {person.name}; any card they had before no longer works.", secret=card)

    return await sync_to_thread(receipts.organiser_form, request, form, f"/admin/people/{person_id}/card", change)


HANDLERS = [card_page, card_form, api_card, my_card_form, my_card_page, admin_card_page, admin_card_form]
