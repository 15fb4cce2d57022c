"""Players help themselves (issue 26): drop from the event, call a judge, check in, their own tables; and the
organiser's side of it: the open judge calls, answered. Thin handlers over `service.calls` and `service.signup`.

Pages post forms under `/me/...` and `/admin/e/EVENT/calls/...` (CSRF token and one-time key, answered by a
redirect: `web/receipts.py`); the JSON twins are `/api/me/...` and `/api/admin/events/EVENT/calls...`.
A player acts only as themselves: who they are comes from their session, never from the request.
"""

from __future__ import annotations

from typing import Any

from litestar import Request, Response, get, post
from litestar.concurrency import sync_to_thread
from litestar.params import FromPath, FromQuery, JSONBody
from litestar.response import Redirect, Template
from sqlalchemy.orm import Session

from schemas.tournament import JudgeCallRow
from schemas.web import CallRequest, Leave, MyEvent
from tournament import service
from tournament.service import history
from tournament.web import receipts
from tournament.web.auth import identity, organiser, player
from tournament.web.common import json_post, reading, whole_number
from tournament.web.public import page


def my_event(session: Session, event_id: str, player_id: str, message: str = "") -> MyEvent:
    """Where a signed-in player stands: a place, the waitlist or dropped; their open call; their tables."""
    place = service.waitlist_place(session, event_id, player_id)
    if place is not None:
        waiting = service.registration(session, event_id).waiting[place - 1]
        return MyEvent(event_id, player_id, waiting.name, "waiting", place, False, waiting.checked_in, None, None, [], message)
    if player_id not in service.display_names(session, event_id):  # off the waitlist, never given a place
        return MyEvent(event_id, player_id, player_id, "left", None, False, False, None, None, [], message)
    me = service.get_player(session, event_id, player_id)
    call = next((c for c in service.judge_calls(session, event_id) if c.player == player_id), None)
    return MyEvent(
        event_id, player_id, me.display_name, "registered" if me.dropped_round is None else "dropped", None,
        service.promoted(session, event_id, player_id), me.checked_in, me.dropped_round,
        call, history.event_tables(session, event_id, player_id), message,
    )


def signed_in_player(request: Request[Any, Any, Any]) -> tuple[service.Identity, str, str]:
    who = player(request)
    assert who.event_id is not None and who.player is not None
    return who, who.event_id, who.player


def player_form(request: Request[Any, Any, Any], form: Any, action: Any) -> Response[Any]:
    """A player's form, once for its key; then their page, saying what happened (or why not)."""
    who = player(request)
    key = receipts.given_key(form.get("_key"), "_key")
    receipts.once(request, key, receipts.owner_of(who), lambda session: receipts.Outcome(action(session)))
    return Redirect(f"/me?r={key}", status_code=303)


def _leave(session: Session, event_id: str, player_id: str, confirmed: bool) -> str:
    if not confirmed:
        raise service.Usage("confirm: dropping takes a second step; send confirm true (the page's \"Yes, drop me\")")
    return service.leave(session, event_id, player_id)


def _call(session: Session, event_id: str, player_id: str, text: str) -> str:
    call = service.call_judge(session, event_id, player_id, text)
    return f"A judge is called to table {call.table} (call {call.number})."


def _check_in(session: Session, event_id: str, player_id: str) -> str:
    service.check_in(session, event_id, player_id, own=True)
    return "You are checked in."


@get("/me/drop", include_in_schema=False)
async def drop_page(request: Request[Any, Any, Any]) -> Response[Any]:
    """The second step of dropping: what it means, and the button that does it."""
    # async, with its own thread: Litestar 2.25 wraps a sync_to_thread handler twice when a POST shares its path
    return await sync_to_thread(_drop_page, request)


def _drop_page(request: Request[Any, Any, Any]) -> Response[Any]:
    who = identity(request)
    if who is None or who.role != "player":
        return Redirect("/join")
    assert who.event_id is not None and who.player is not None
    with reading(request) as session:
        event = service.get_event(session, who.event_id)
        return page(request, "me_drop", session, event, my=my_event(session, who.event_id, who.player))


@post("/me/drop", include_in_schema=False, action="play")
async def drop_form(request: Request[Any, Any, Any]) -> Response[Any]:
    form = await request.form()
    _who, event_id, player_id = await sync_to_thread(signed_in_player, request)
    confirmed = form.get("confirm") == "yes"
    return await sync_to_thread(player_form, request, form, lambda s: _leave(s, event_id, player_id, confirmed))


@post("/me/call", include_in_schema=False, action="play")
async def call_form(request: Request[Any, Any, Any]) -> Response[Any]:
    form = await request.form()
    _who, event_id, player_id = await sync_to_thread(signed_in_player, request)
    text = str(form.get("text", ""))
    return await sync_to_thread(player_form, request, form, lambda s: _call(s, event_id, player_id, text))


@post("/me/checkin", include_in_schema=False, action="play")
async def checkin_form(request: Request[Any, Any, Any]) -> Response[Any]:
    form = await request.form()
    _who, event_id, player_id = await sync_to_thread(signed_in_player, request)
    return await sync_to_thread(player_form, request, form, lambda s: _check_in(s, event_id, player_id))


# The players' JSON twins (an `Idempotency-Key` header makes a repeat get the first answer) ------------


@get("/api/me/event", sync_to_thread=True, tags=["players"])
def api_my_event(request: Request[Any, Any, Any]) -> MyEvent:
    """Where the signed-in player stands in the event, their open judge call, and every table they sat at."""
    _who, event_id, player_id = signed_in_player(request)
    with reading(request) as session:
        return my_event(session, event_id, player_id)


def _api(request: Request[Any, Any, Any], action: Any) -> Response[Any]:
    who, event_id, player_id = signed_in_player(request)
    return receipts.api_change(request, receipts.owner_of(who), lambda s: my_event(s, event_id, player_id, action(s)))


@json_post("/api/me/drop", sync_to_thread=True, tags=["players"], action="play")
def api_drop(request: Request[Any, Any, Any], data: JSONBody[Leave]) -> Response[MyEvent]:
    """Drop from the event, or leave its waitlist (`confirm: true`). Mid-round, your table still needs its
    result (T-93); 409 once the event's last round is paired."""
    _who, event_id, player_id = signed_in_player(request)
    return _api(request, lambda s: _leave(s, event_id, player_id, data.confirm))


@json_post("/api/me/call", sync_to_thread=True, tags=["players"], action="play")
def api_call(request: Request[Any, Any, Any], data: JSONBody[CallRequest]) -> Response[MyEvent]:
    """Call a judge to your table of the current round (422 at no table; 409 while your last call is open)."""
    _who, event_id, player_id = signed_in_player(request)
    return _api(request, lambda s: _call(s, event_id, player_id, data.text))


@json_post("/api/me/checkin", sync_to_thread=True, tags=["players"], action="play")
def api_checkin(request: Request[Any, Any, Any]) -> Response[MyEvent]:
    """Check yourself in before round 1 (409 a second time, or once round 1 is paired)."""
    _who, event_id, player_id = signed_in_player(request)
    return _api(request, lambda s: _check_in(s, event_id, player_id))


# The organiser's open judge calls ------------------------------------------------------------------


@get("/admin/e/{event_id:str}/calls", sync_to_thread=True, include_in_schema=False, action="view")
def calls_page(request: Request[Any, Any, Any], event_id: FromPath[str], r: FromQuery[str] = "") -> Template:
    """Every judge call of the event, the open ones first, newest first."""
    shown = receipts.shown(request, r, receipts.owner_of(organiser(request)))
    with reading(request) as session:
        event = service.get_event(session, event_id)
        every = service.judge_calls(session, event_id, answered=True)
        return page(
            request, "calls", session, event, calls=[c for c in every if c.answered_at is None],
            answered=[c for c in every if c.answered_at is not None], notice=shown.get("notice"), error=shown.get("error"),
        )


@post("/admin/e/{event_id:str}/calls/answer", include_in_schema=False, action="rule")
async def answer_form(request: Request[Any, Any, Any], event_id: FromPath[str]) -> Response[Any]:
    """Mark a call answered; back to the page the form was on (the event's or the calls')."""
    form = await request.form()
    back = f"/admin/e/{event_id}" + ("" if form.get("back") == "event" else "/calls")

    def answered(session: Session) -> str:
        call = service.answer_call(session, event_id, whole_number(form, "number"))
        return f"call {call.number} (table {call.table}) answered"

    return await sync_to_thread(receipts.organiser_form, request, form, back, answered)


@get("/api/admin/events/{event_id:str}/calls", sync_to_thread=True, tags=["organiser"], action="view")
def api_calls(request: Request[Any, Any, Any], event_id: FromPath[str], all: FromQuery[bool] = False) -> list[JudgeCallRow]:
    """The open judge calls, newest first (`all=true`: the answered ones too), as `tournament calls --json`."""
    organiser(request)
    with reading(request) as session:
        return service.judge_calls(session, event_id, answered=all)


@json_post("/api/admin/events/{event_id:str}/calls/{number:int}/answer", sync_to_thread=True, tags=["organiser"], action="rule")
def api_answer(request: Request[Any, Any, Any], event_id: FromPath[str], number: FromPath[int]) -> Response[list[JudgeCallRow]]:
    """Mark judge call `number` answered (404 unknown, 409 answered already): the calls still open."""

    def change(session: Session) -> list[JudgeCallRow]:
        service.answer_call(session, event_id, number)
        return service.judge_calls(session, event_id)

    return receipts.api_change(request, receipts.owner_of(organiser(request)), change)


HANDLERS = [
    drop_page, drop_form, call_form, checkin_form, api_my_event, api_drop, api_call, api_checkin,
    calls_page, answer_form, api_calls, api_answer,
]
