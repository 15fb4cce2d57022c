"""Players on `tournament serve`: sign in with the slip's one-time code, see their table, report, confirm.

Pages (`/join`, `/me`, forms posting under `/me/...` with a CSRF token and a
one-time key, each answered by a redirect: `web/receipts.py`) and their JSON
twins (`/api/join`, `/api/me...`, with `Authorization: Bearer`).
A player only ever acts on their own table of the current round: the table
comes from their session, never from the request.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec
from litestar import Request, Response, get, post
from litestar.concurrency import sync_to_thread
from litestar.datastructures import UploadFile
from litestar.params import FromQuery, JSONBody, MultipartBody
from litestar.response import Redirect, Template
from sqlalchemy.orm import Session

from schemas.web import Confirmation, Joined, MatchView, ResultClaim, SignIn, TableClaims
from tournament import service
from tournament.output import people as people_text
from tournament.web import appealpages, decks, desk, messages, people, receipts, views
from tournament.web.auth import COOKIE, client, forget, identity, player
from tournament.web.common import json_post, reading, whole_number, whole_numbers, writing
from tournament.web.public import page

Logs = list[tuple[str, bytes]]


@get("/join", include_in_schema=False)
async def join_page(request: Request[Any, Any, Any], r: FromQuery[str] = "") -> Template:
    """The sign-in form (with why the last try was refused); the slip's QR link carries the code after `#`,
    which a browser never sends to a server."""
    # async, with its own thread: Litestar 2.25 wraps a sync_to_thread handler twice when another handler
    # (POST /join) shares its path, and the second wrapper hands back an un-awaited coroutine
    return page_plain("join", **await sync_to_thread(receipts.shown, request, r, ""))


def page_plain(name: str, **context: Any) -> Template:
    return Template(template_name=f"web/{name}.html.j2", context={"event": None, "version": None, **context})


def _sign_in(request: Request[Any, Any, Any], key: str, code: str, mine: service.Identity | None, *, api: bool) -> receipts.Answer:
    """Spend a code once for `key` (a page's form or the API). A signed-in player's own used code again
    is no refusal: they are simply shown their page."""

    def change(session: Session) -> receipts.Outcome:
        try:
            who, secret = service.exchange_code(session, code, client(request))
        except service.Spent as exc:
            if not api and mine == exc.identity:
                return receipts.Outcome("")
            raise
        joined = Joined(who.event_id, who.player, secret, who.role, who.staff)  # type: ignore[arg-type]
        return receipts.Outcome("", private=msgspec.json.encode(joined) if api else secret)

    return receipts.once(request, key, "", change)


@post("/join", include_in_schema=False, action="public")
async def join(request: Request[Any, Any, Any]) -> Response[Any]:
    form = await request.form()
    key = receipts.given_key(form.get("_key"), "_key")
    mine = await sync_to_thread(identity, request)
    answer = await sync_to_thread(_sign_in, request, key, str(form.get("code", "")), mine, api=False)
    return receipts.signed_in(request, answer, key, "/join", "/me", "player")


@post("/signout", include_in_schema=False, action="public")
async def sign_out(request: Request[Any, Any, Any]) -> Response[Any]:
    """Sign out (a repeat changes nothing: the session is gone already)."""
    secret = request.cookies.get(COOKIE)
    if secret:
        await sync_to_thread(_forget_session, request, secret)
    return forget(Redirect("/", status_code=303))


def _forget_session(request: Request[Any, Any, Any], secret: str) -> None:
    with writing(request) as session:
        service.sign_out(session, secret)


@get("/me", sync_to_thread=True, include_in_schema=False)
def me(request: Request[Any, Any, Any], r: FromQuery[str] = "") -> Response[Any]:
    """The signed-in player's table of the current round, its claims, what they can do, and the answer to
    their last form (`?r=KEY`)."""
    who = identity(request)
    if who is None:
        return Redirect("/join")
    if who.role == "person":
        return people.home(request, who, r)
    if who.player is None:  # the organiser or a staff member
        return Redirect("/admin")
    assert who.event_id is not None
    shown = receipts.shown(request, r, receipts.owner_of(who))
    with reading(request) as session:
        event = service.get_event(session, who.event_id)
        mine = desk.my_event(session, who.event_id, who.player)
        view = None if mine.state in ("waiting", "left") else views.match_view(session, who.event_id, who.player)
        return page(request, "me", session, event, view=view, my=mine, names=views.names(session, who.event_id), result=people_text.match_text,
                    notice=shown.get("notice"), error=shown.get("error"), refused=shown.get("refused"), typed=shown.get("typed", {}),
                    deck=decks.my_deck(session, event, who.player), messages=messages.offer(request, session, who.event_id, who.player),
                    **appealpages.my_appeals(session, who.event_id, who.player))


def _run(session: Session, who: service.Identity, action: str, **kwargs: Any) -> service.TableState:
    assert who.event_id is not None and who.player is not None
    if action == "claim":
        return service.claim(session, who.event_id, who.player, **kwargs)
    return service.confirm(session, who.event_id, who.player, **kwargs)


def _said(state: str) -> str:
    return "The result is in: everyone at the table agrees." if state == "done" else (
        "A deck in the game logs is not its player's registered list: a judge will rule." if state == "decks" else
        "The claims at your table differ: a judge will decide." if state == "disputed" else
        "Saved. The other player(s) at your table must confirm it."
    )


def _act(request: Request[Any, Any, Any], form: Any, action: str, arguments: Callable[[], dict[str, Any]]) -> Response[Any]:
    """A player's form: their action on their own table, once for the form's key; then their page, which
    says what happened (or why not)."""
    who = player(request)
    key = receipts.given_key(form.get("_key"), "_key")
    receipts.once(request, key, receipts.owner_of(who), lambda session: receipts.Outcome(_said(_run(session, who, action, **arguments()).state)))
    return Redirect(f"/me?r={key}", status_code=303)


async def _logs(form: Any) -> Logs:
    files = [f for f in form.getall("log", []) if isinstance(f, UploadFile) and f.filename]
    return [(f.filename, await f.read()) for f in files]


def _typed(form: Any) -> dict[str, Any]:
    """Games won (and drawn games), or a pod's places, as the player typed them."""
    places = whole_numbers(form, "place")
    return {"places": places} if places else {"result": service.Tally(whole_numbers(form, "games"), whole_number(form, "draws", 0))}


@post("/me/result", include_in_schema=False, action="play")
async def report_form(request: Request[Any, Any, Any]) -> Response[Any]:
    """Games won (and drawn games), or a pod's places, as the player typed them."""
    form = await request.form()
    return await sync_to_thread(_act, request, form, "claim", lambda: _typed(form))


@post("/me/logs", include_in_schema=False, action="play")
async def upload_form(request: Request[Any, Any, Any]) -> Response[Any]:
    """Upload the game logs; the referee's verdict shows on the page it leads to."""
    form = await request.form()
    logs = await _logs(form)
    return await sync_to_thread(_act, request, form, "claim", lambda: {"logs": logs})


@post("/me/confirm", include_in_schema=False, action="play")
async def confirm_form(request: Request[Any, Any, Any]) -> Response[Any]:
    """Confirm another player's claim: for logs, by your own copies (their last lines) or the hashes typed in."""
    form = await request.form()
    copies = await _logs(form)
    lines = [service.last_line_hash(data) for _name, data in copies] or str(form.get("last_lines", "")).split()
    return await sync_to_thread(_act, request, form, "confirm", lambda: {"claimant": str(form.get("claimant", "")), "last_lines": lines})


def _dispute(session: Session, who: service.Identity, claimant: str, text: str) -> str:
    """"That's not right": the player's words, with the claim they dispute, go to the judge as a judge call
    (T-72), instead of a competing score."""
    assert who.event_id is not None and who.player is not None
    view = views.match_view(session, who.event_id, who.player)
    claim = next((c for c in view.table.claims if c.player == claimant and not c.confirms), None) if view.table else None
    if claim is None:
        raise service.NotFound(f"{claimant} has no claim at your table")
    said = f"Not right: {views.names(session, who.event_id).get(claimant, claimant)} says {claim.said}. {' '.join(text.split())}"
    limit = service.MAX_CALL_TEXT
    call = service.call_judge(
        session, who.event_id, who.player, said if len(said) <= limit else said[: limit - 1] + "…", disputes=claimant,
    )
    return f"A judge is called to table {call.table} with what you wrote."


@post("/me/dispute", include_in_schema=False, action="play")
async def dispute_form(request: Request[Any, Any, Any]) -> Response[Any]:
    """A player disagrees with another's claim: what happened, in their words, goes to the judge queue."""
    form = await request.form()
    claimant, text = str(form.get("claimant", "")), str(form.get("text", ""))
    who = await sync_to_thread(player, request)
    key = receipts.given_key(form.get("_key"), "_key")
    await sync_to_thread(receipts.once, request, key, receipts.owner_of(who),
                         lambda session: receipts.Outcome(_dispute(session, who, claimant, text)))
    return Redirect(f"/me?r={key}", status_code=303)


# The JSON twins (an `Idempotency-Key` header makes a repeat get the first answer) -------------------


@json_post("/api/join", sync_to_thread=True, tags=["players"], action="public")
def api_join(request: Request[Any, Any, Any], data: JSONBody[SignIn]) -> Response[Any]:
    """Spend a one-time sign-in code for a session (401 for a wrong or used code; 429 after too many)."""
    key = receipts.given_key(request.headers.get("idempotency-key"), "Idempotency-Key")
    return receipts.api_answer(_sign_in(request, key, data.code, None, api=True))


@get("/api/me", sync_to_thread=True, tags=["players"])
def api_me(request: Request[Any, Any, Any]) -> MatchView:
    """The signed-in player's table of the current round and its claims."""
    who = player(request)
    assert who.event_id is not None and who.player is not None
    with reading(request) as session:
        return views.match_view(session, who.event_id, who.player)


def _answer(request: Request[Any, Any, Any], action: str, **kwargs: Any) -> Response[Any]:
    who = player(request)
    assert who.event_id is not None
    event_id = who.event_id

    def change(session: Session) -> TableClaims:
        return views.table_claims(session, service.get_event(session, event_id), _run(session, who, action, **kwargs), who.player)

    return receipts.api_change(request, receipts.owner_of(who), change)


@json_post("/api/me/claim", sync_to_thread=True, tags=["players"], action="play")
def api_claim(request: Request[Any, Any, Any], data: JSONBody[ResultClaim]) -> Response[TableClaims]:
    """Claim your table's result: `games` (and `draws`), or a pod's `places`."""
    kwargs: dict[str, Any] = {"places": data.places} if data.places is not None else {
        "result": service.Tally(data.games or {}, data.draws)
    }
    return _answer(request, "claim", **kwargs)


@json_post("/api/me/logs", tags=["players"], action="play")
async def api_logs(
    request: Request[Any, Any, Any],
    data: MultipartBody[dict[str, Any]],
) -> Response[TableClaims]:
    """Upload your table's game logs (form field `log`, once per game, in order); 422 with the referee's verdict."""
    form = await request.form()
    return await sync_to_thread(_answer, request, "claim", logs=await _logs(form))


@json_post("/api/me/confirm", sync_to_thread=True, tags=["players"], action="play")
def api_confirm(request: Request[Any, Any, Any], data: JSONBody[Confirmation]) -> Response[TableClaims]:
    """Confirm another player's claim at your table (logs: each one's last-line SHA-256, in order)."""
    return _answer(request, "confirm", claimant=data.claimant, last_lines=data.last_lines)


HANDLERS = [join_page, join, sign_out, me, report_form, upload_form, confirm_form, dispute_form, api_join, api_me, api_claim, api_logs, api_confirm]
