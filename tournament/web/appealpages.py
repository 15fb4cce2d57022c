"""Appeals (issue 35): a player appeals a judge's ruling on their table from `/me`; the head judge's queue
(`/admin/e/EVENT/appeals`) shows each appeal with the first ruling and who made it, and decides it: the
ruling upheld, or overturned with the new result. JSON twins under `/api/me/appeal` and
`/api/admin/events/EVENT/appeals`."""

from __future__ import annotations

from typing import Any

from litestar import Request, Response, get, post
from litestar.concurrency import sync_to_thread
from litestar.params import FromPath, FromQuery, JSONBody
from litestar.response import Template
from sqlalchemy.orm import Session

from schemas.web import AppealDecision, Appealed
from tournament import service
from tournament.web import receipts, views
from tournament.web.auth import organiser
from tournament.web.common import json_post, reading, whole_number, whole_numbers
from tournament.web.desk import player_form, signed_in_player
from tournament.web.public import page


def _appealed(session: Session, event_id: str, player_id: str, ruling: int, text: str) -> str:
    service.appeal(session, event_id, player_id, ruling, text)
    return "Your appeal is with the head judge: they will come to you, and their decision shows here."


@post("/me/appeal", include_in_schema=False, action="appeal")
async def appeal_form(request: Request[Any, Any, Any]) -> Response[Any]:
    """Appeal a ruling on your table to the head judge, saying why."""
    form = await request.form()
    _who, event_id, player_id = await sync_to_thread(signed_in_player, request)
    text = str(form.get("text", ""))
    return await sync_to_thread(player_form, request, form, lambda s: _appealed(s, event_id, player_id, whole_number(form, "ruling"), text))


@json_post("/api/me/appeal", sync_to_thread=True, tags=["players"], action="appeal")
def api_appeal(request: Request[Any, Any, Any], data: JSONBody[Appealed]) -> Response[list[service.AppealRow]]:
    """Appeal ruling `ruling` (its log entry's seq) on your table: your appeals as they stand."""
    who, event_id, player_id = signed_in_player(request)

    def change(session: Session) -> list[service.AppealRow]:
        service.appeal(session, event_id, player_id, data.ruling, data.text)
        return service.appeals(session, event_id, player=player_id)

    return receipts.api_change(request, receipts.owner_of(who), change)


def my_appeals(session: Session, event_id: str, player_id: str) -> dict[str, Any]:
    """What `/me` shows: the rulings on the player's tables they may still appeal, and their appeals."""
    mine = service.appeals(session, event_id, player=player_id)
    return {"rulings": service.appealable(session, event_id, player_id), "appeals": mine, "ruling_kinds": service.RULING_WORDS}


@get("/admin/e/{event_id:str}/appeals", sync_to_thread=True, include_in_schema=False, action="view")
def appeals_page(request: Request[Any, Any, Any], event_id: FromPath[str], r: FromQuery[str] = "") -> Template:
    """The head judge's queue: every appeal, open ones first, each with the ruling it appeals and who made it."""
    who = organiser(request)
    shown = receipts.shown(request, r, receipts.owner_of(who))
    with reading(request) as session:
        event = service.get_event(session, event_id)
        every = service.appeals(session, event_id)
        return page(
            request, "appeals", session, event, appeals=every, names=views.names(session, event_id),
            seats={a.seq: sorted(_players(session, event, a)) for a in every if a.decision is None},
            may_decide=service.allowed(who, "appeal-rule", event_id), ruling_kinds=service.RULING_WORDS,
            notice=shown.get("notice"), error=shown.get("error"),
        )


def _players(session: Session, event: Any, found: service.AppealRow) -> list[str]:
    if event.format == "pods":
        _pod, seated = service.find_pod(session, event, found.ruling.table, found.ruling.round)
        return [seat.player for seat in seated]
    match = service.find_match(session, event, found.ruling.table, found.ruling.round)
    return [match.player_a, match.player_b]


def decide(session: Session, event_id: str, number: int, decision: AppealDecision) -> str:
    result = service.Tally(decision.games, decision.draws) if decision.games else None
    service.decide_appeal(session, event_id, number, uphold=decision.uphold, reason=decision.reason, result=result, places=decision.places)
    return f"appeal {number}: the ruling is {'upheld' if decision.uphold else 'overturned'} ({decision.reason.strip()})"


@post("/admin/e/{event_id:str}/appeals/decide", include_in_schema=False, action="appeal-rule")
async def decide_form(request: Request[Any, Any, Any], event_id: FromPath[str]) -> Response[Any]:
    form = await request.form()
    decision = AppealDecision(
        form.get("uphold") == "yes", str(form.get("reason", "")), whole_numbers(form, "games") or None, whole_number(form, "draws", 0),
        whole_numbers(form, "place") or None,
    )
    return await sync_to_thread(
        receipts.organiser_form, request, form, f"/admin/e/{event_id}/appeals",
        lambda s: decide(s, event_id, whole_number(form, "appeal"), decision),
    )


@get("/api/admin/events/{event_id:str}/appeals", sync_to_thread=True, tags=["organiser"], action="view")
def api_appeals(request: Request[Any, Any, Any], event_id: FromPath[str]) -> list[service.AppealRow]:
    """Every appeal of the event with the ruling it appeals, open ones first."""
    with reading(request) as session:
        return service.appeals(session, event_id)


@json_post("/api/admin/events/{event_id:str}/appeals/{number:int}", sync_to_thread=True, tags=["organiser"], action="appeal-rule")
def api_decide(request: Request[Any, Any, Any], event_id: FromPath[str], number: FromPath[int], data: JSONBody[AppealDecision]) -> Response[Any]:
    """Decide an appeal: uphold the ruling, or overturn it with the new result; the log names both judges."""

    def change(session: Session) -> list[service.AppealRow]:
        decide(session, event_id, number, data)
        return service.appeals(session, event_id)

    return receipts.api_change(request, receipts.owner_of(organiser(request)), change)


HANDLERS = [appeal_form, api_appeal, appeals_page, decide_form, api_appeals, api_decide]
