"""Passkeys on the web: a person or a staff member adds, lists and removes theirs (`/passkeys`), and signs in
with one (`/passkeys/sign-in`, and the form every sign-in page includes).

The ceremonies run in the page's script (static/passkeys.js): it asks for options (`POST .../options`, JSON,
the page's CSRF token in a header), hands them to `navigator.credentials`, and sends the authenticator's
answer in an ordinary form, answered by a redirect with its receipt like every form (web/receipts.py). The
RP id and origin are the request's own (`service.passkeys.site`); where the page is no secure context (plain
HTTP at a venue address) the pages say so and offer the player card or slip code, and the options are refused.
There is no `/api` twin: a passkey needs a browser.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from litestar import MediaType, Request, Response, get, post
from litestar.concurrency import sync_to_thread
from litestar.params import FromQuery
from litestar.response import Redirect, Template
from sqlalchemy.orm import Session

from tournament import service
from tournament.service import passkeys
from tournament.service.passkeys import Owner
from tournament.web import receipts
from tournament.web.auth import identity, keep
from tournament.web.common import reading, writing
from tournament.web.public import page

SIGN_IN = "/passkeys/sign-in"


def here(request: Request[Any, Any, Any]) -> bool:
    """Whether a browser offers passkeys at this request's address (a Jinja global: `passkeys_here(request)`)."""
    return passkeys.secure(request.url.scheme, request.url.hostname or "")


def holds(request: Request[Any, Any, Any]) -> bool:
    """Whether the request's session may keep passkeys (a Jinja global: a page links `/passkeys` for them)."""
    return owner_of(identity(request)) is not None


def _site(request: Request[Any, Any, Any]) -> passkeys.Site:
    return passkeys.site(request.url.scheme, request.url.hostname or "", request.url.port)


def owner_of(who: service.Identity | None) -> Owner | None:
    """The owner a session may keep passkeys for: a person (signed in by their card or a passkey) or a staff member."""
    if who is not None and who.person is not None:
        return Owner("person", who.person)
    if who is not None and who.staff is not None:
        return Owner("staff", who.staff)
    return None


def _owner(request: Request[Any, Any, Any]) -> tuple[service.Identity, Owner]:
    who = identity(request)
    mine = owner_of(who)
    if who is None or mine is None:
        raise service.Denied("sign in with your player card or staff code first, then add a passkey")
    return who, mine


def _json(body: str) -> Response[Any]:
    return Response(body, media_type=MediaType.JSON, status_code=200)


@post("/passkeys/options", sync_to_thread=True, include_in_schema=False, action="passkeys")
def add_options(request: Request[Any, Any, Any]) -> Response[Any]:
    """Options for `navigator.credentials.create`: a challenge for the signed-in person or staff member."""
    _who, mine = _owner(request)
    where = _site(request)
    with writing(request) as session:
        return _json(passkeys.registration_options(session, mine, passkeys.owner_name(session, mine), where))


@post("/passkeys/add", include_in_schema=False, action="passkeys")
async def add(request: Request[Any, Any, Any]) -> Response[Any]:
    form = await request.form()

    def change(session: Session, mine: Owner) -> str:
        kept = passkeys.register(session, mine, _site(request), str(form.get("credential", "")), str(form.get("name", "")))
        return f"Passkey “{kept.name}” added: it signs you in on this server from now on."

    return await sync_to_thread(_mine_form, request, form, change)


@post("/passkeys/remove", include_in_schema=False, action="passkeys")
async def remove(request: Request[Any, Any, Any]) -> Response[Any]:
    form = await request.form()

    def change(session: Session, mine: Owner) -> str:
        return f"Passkey “{passkeys.remove(session, mine, str(form.get('passkey', '')))}” removed: it signs nobody in any more."

    return await sync_to_thread(_mine_form, request, form, change)


def _mine_form(request: Request[Any, Any, Any], form: Any, change: Callable[[Session, Owner], str]) -> Response[Any]:
    """A form on the signed-in owner's passkeys, once for its key; then their passkeys, saying what happened (or why not)."""
    who, mine = _owner(request)
    key = receipts.given_key(form.get("_key"), "_key")
    receipts.once(request, key, receipts.owner_of(who), lambda session: receipts.Outcome(change(session, mine)))
    return Redirect(f"/passkeys?r={key}", status_code=303)


@get("/passkeys", sync_to_thread=True, include_in_schema=False)
def mine_page(request: Request[Any, Any, Any], r: FromQuery[str] = "") -> Response[Any]:
    """The signed-in person's or staff member's passkeys, and the form that adds one."""
    who = identity(request)
    mine = owner_of(who)
    if mine is None:
        return Redirect(SIGN_IN)
    shown = receipts.shown(request, r, receipts.owner_of(who))
    with reading(request) as session:
        return page(
            request, "passkeys", keys=passkeys.passkeys_of(session, mine), shown_name=passkeys.owner_name(session, mine),
            staff=mine.kind == "staff", notice=shown.get("notice"), error=shown.get("error"),
        )


@get(SIGN_IN, include_in_schema=False)
async def sign_in_page(request: Request[Any, Any, Any], r: FromQuery[str] = "") -> Template:
    # async with its own thread, as /join: a sync handler sharing its path with a POST is wrapped twice (Litestar 2.25)
    shown = await sync_to_thread(receipts.shown, request, r, "")
    return page(request, "passkey_signin", error=shown.get("error"))


@post("/passkeys/sign-in/options", sync_to_thread=True, include_in_schema=False, action="public")
def sign_in_options(request: Request[Any, Any, Any]) -> Response[Any]:
    """Options for `navigator.credentials.get`: a challenge, good once for a few minutes."""
    where = _site(request)
    with writing(request) as session:
        return _json(passkeys.sign_in_options(session, where))


@post(SIGN_IN, include_in_schema=False, action="public")
async def sign_in(request: Request[Any, Any, Any]) -> Response[Any]:
    form = await request.form()
    return await sync_to_thread(_sign_in, request, form)


def _session(session: Session, owner: Owner) -> tuple[service.Identity, str]:
    """A session for the owner a passkey proved: who they are, and the session's secret."""
    if owner.kind == "person":
        return service.Identity("person", None, None, person=owner.id), service.person_session(session, owner.id)
    return service.staff_session(session, owner.id)


def _sign_in(request: Request[Any, Any, Any], form: Any) -> Response[Any]:
    """The authenticator's answer for a session of its owner; the page they land on, or the sign-in page with why not."""
    key = receipts.given_key(form.get("_key"), "_key")

    def change(session: Session) -> receipts.Outcome:
        who, secret = _session(session, passkeys.sign_in(session, _site(request), str(form.get("credential", ""))))
        return receipts.Outcome("", private=(who, secret))

    answer = receipts.once(request, key, "", change)
    if not answer.ok or answer.private is None:
        return Redirect(f"{SIGN_IN}?r={key}", status_code=303)
    who, secret = answer.private
    return keep(Redirect("/me" if who.person is not None else "/admin", status_code=303), request, secret, who.role)


HANDLERS = [add_options, add, remove, mine_page, sign_in_page, sign_in_options, sign_in]
