"""Players on `tournament serve`: sign in with the slip's one-time code, see their table, report, confirm.

Pages (`/join`, `/me`, forms posting under `/me/...` with a CSRF token) and
their JSON twins (`/api/join`, `/api/me...`, with `Authorization: Bearer`).
A player only ever acts on their own table of the current round: the table
comes from their session, never from the request.
"""

from __future__ import annotations

from typing import Any

from litestar import Request, Response, get, post
from litestar.concurrency import sync_to_thread
from litestar.datastructures import UploadFile
from litestar.params import JSONBody, MultipartBody
from litestar.response import Redirect, Template

from schemas.web import Confirmation, Joined, MatchView, ResultClaim, SignIn, TableClaims
from tournament import service
from tournament.web import views
from tournament.web.auth import forget, guarded, identity, keep, player
from tournament.web.common import (
    json_post,
    reading,
    status_of,
    whole_number,
    whole_numbers,
    writing,
)
from tournament.web.public import page

Logs = list[tuple[str, bytes]]


def _exchange(request: Request[Any, Any, Any], code: str) -> tuple[service.Identity, str]:
    return guarded(request, lambda session, where: service.exchange_code(session, code, where))


@get("/join", sync_to_thread=False, include_in_schema=False)
def join_page() -> Template:
    """The sign-in form; the slip's QR link carries the code after `#`, which a browser never sends to a server."""
    return page_plain("join")


def page_plain(name: str, **context: Any) -> Template:
    return Template(template_name=f"web/{name}.html.j2", context={"event": None, "version": None, **context})


@post("/join", include_in_schema=False)
async def join(request: Request[Any, Any, Any]) -> Response[Any]:
    form = await request.form()
    try:
        _who, secret = await sync_to_thread(_exchange, request, str(form.get("code", "")))
    except service.Spent as exc:
        if await sync_to_thread(identity, request) == exc.identity:  # their own slip again, while signed in
            return Redirect("/me", status_code=303)
        raise
    return keep(Redirect("/me", status_code=303), request, secret, "player")


@post("/signout", include_in_schema=False)
async def sign_out(request: Request[Any, Any, Any]) -> Response[Any]:
    secret = request.cookies.get("hj_session")
    if secret:
        await sync_to_thread(_forget_session, request, secret)
    return forget(Redirect("/", status_code=303))


def _forget_session(request: Request[Any, Any, Any], secret: str) -> None:
    with writing(request) as session:
        service.sign_out(session, secret)


def _me_page(request: Request[Any, Any, Any], who: service.Identity, status: int = 200, **notices: Any) -> Template:
    assert who.event_id is not None and who.player is not None
    with reading(request) as session:
        event = service.get_event(session, who.event_id)
        view = views.match_view(session, who.event_id, who.player)
        shown = views.names(session, who.event_id)
        answer = page(request, "me", session, event, view=view, names=shown, notice=notices.get("notice"),
                      error=notices.get("error"), refused=notices.get("refused"))
    answer.status_code = status
    return answer


@get("/me", sync_to_thread=True, include_in_schema=False)
def me(request: Request[Any, Any, Any]) -> Response[Any]:
    """The signed-in player's table of the current round, its claims, and what they can do."""
    who = identity(request)
    if who is None:
        return Redirect("/join")
    if who.role == "organiser":
        return Redirect("/admin")
    return _me_page(request, who)


def _act(request: Request[Any, Any, Any], action: str, **kwargs: Any) -> Template:
    """Run a player's action on their own table; the page again, with what happened (or why not)."""
    who = player(request)
    try:
        with writing(request) as session:
            state = _run(session, who, action, **kwargs).state
    except service.TournamentError as exc:
        refused = views.referee_error(exc) if isinstance(exc, service.LogRejected) else None
        return _me_page(request, who, status_of(exc), error=exc.message, refused=refused)
    done = "The result is in: everyone at the table agrees." if state == "done" else (
        "The claims at your table differ: a judge will decide." if state == "disputed" else
        "Saved. The other player(s) at your table must confirm it."
    )
    return _me_page(request, who, notice=done)


def _run(session: Any, who: service.Identity, action: str, **kwargs: Any) -> service.TableState:
    assert who.event_id is not None and who.player is not None
    if action == "claim":
        return service.claim(session, who.event_id, who.player, **kwargs)
    return service.confirm(session, who.event_id, who.player, **kwargs)


async def _logs(form: Any) -> Logs:
    files = [f for f in form.getall("log", []) if isinstance(f, UploadFile) and f.filename]
    return [(f.filename, await f.read()) for f in files]


@post("/me/result", include_in_schema=False)
async def report_form(request: Request[Any, Any, Any]) -> Template:
    """Games won (and drawn games), or a pod's places, as the player typed them."""
    form = await request.form()
    try:
        places = whole_numbers(form, "place")
        kwargs: dict[str, Any] = {"places": places} if places else {
            "result": service.Tally(whole_numbers(form, "games"), whole_number(form, "draws", 0))
        }
    except service.Usage as exc:
        who = await sync_to_thread(player, request)
        return await sync_to_thread(_me_page, request, who, 400, error=exc.message)
    return await sync_to_thread(_act, request, "claim", **kwargs)


@post("/me/logs", include_in_schema=False)
async def upload_form(request: Request[Any, Any, Any]) -> Template:
    """Upload the game logs; the referee's verdict shows at once."""
    form = await request.form()
    return await sync_to_thread(_act, request, "claim", logs=await _logs(form))


@post("/me/confirm", include_in_schema=False)
async def confirm_form(request: Request[Any, Any, Any]) -> Template:
    """Confirm another player's claim: for logs, by your own copies (their last lines) or the hashes typed in."""
    form = await request.form()
    copies = await _logs(form)
    lines = [service.last_line_hash(data) for _name, data in copies] or str(form.get("last_lines", "")).split()
    return await sync_to_thread(_act, request, "confirm", claimant=str(form.get("claimant", "")), last_lines=lines)


# The JSON twins --------------------------------------------------------------


@json_post("/api/join", sync_to_thread=True, tags=["players"])
def api_join(request: Request[Any, Any, Any], data: JSONBody[SignIn]) -> Joined:
    """Spend a one-time sign-in code for a session (401 for a wrong or used code; 429 after too many)."""
    who, secret = _exchange(request, data.code)
    return Joined(who.event_id, who.player, secret, "player")


@get("/api/me", sync_to_thread=True, tags=["players"])
def api_me(request: Request[Any, Any, Any]) -> MatchView:
    """The signed-in player's table of the current round and its claims."""
    who = player(request)
    assert who.event_id is not None and who.player is not None
    with reading(request) as session:
        return views.match_view(session, who.event_id, who.player)


def _answer(request: Request[Any, Any, Any], action: str, **kwargs: Any) -> TableClaims:
    who = player(request)
    assert who.event_id is not None
    with writing(request) as session:
        state = _run(session, who, action, **kwargs)
        return views.table_claims(session, service.get_event(session, who.event_id), state)


@json_post("/api/me/claim", sync_to_thread=True, tags=["players"])
def api_claim(request: Request[Any, Any, Any], data: JSONBody[ResultClaim]) -> TableClaims:
    """Claim your table's result: `games` (and `draws`), or a pod's `places`."""
    kwargs: dict[str, Any] = {"places": data.places} if data.places is not None else {
        "result": service.Tally(data.games or {}, data.draws)
    }
    return _answer(request, "claim", **kwargs)


@json_post("/api/me/logs", tags=["players"])
async def api_logs(
    request: Request[Any, Any, Any],
    data: MultipartBody[dict[str, Any]],
) -> TableClaims:
    """Upload your table's game logs (form field `log`, once per game, in order); 422 with the referee's verdict."""
    form = await request.form()
    return await sync_to_thread(_answer, request, "claim", logs=await _logs(form))


@json_post("/api/me/confirm", sync_to_thread=True, tags=["players"])
def api_confirm(request: Request[Any, Any, Any], data: JSONBody[Confirmation]) -> TableClaims:
    """Confirm another player's claim at your table (logs: each one's last-line SHA-256, in order)."""
    return _answer(request, "confirm", claimant=data.claimant, last_lines=data.last_lines)


HANDLERS = [join_page, join, sign_out, me, report_form, upload_form, confirm_form, api_join, api_me, api_claim, api_logs, api_confirm]
