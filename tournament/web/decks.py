"""Deck lists on `tournament serve` (issue 25): a player's list on /me, the organiser's lists, published lists,
and the metagame picture.

Before the organiser publishes the lists, a list is shown whole only to its
player and the organiser (T-116); the collection, its CSV and JSON, and the
metagame only to the organiser. After, to everyone. A player submits or
replaces their list with the form on /me (post/redirect/get, with a receipt,
as every form) or `POST /api/me/deck`, and sees the referee's verdict at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import msgspec
from litestar import MediaType, Request, Response, get, post
from litestar.concurrency import sync_to_thread
from litestar.datastructures import UploadFile
from litestar.exceptions import PermissionDeniedException
from litestar.params import FromPath, FromQuery, JSONBody
from litestar.response import Redirect, Template
from sqlalchemy.orm import Session

from schemas.tournament import DeckEntry, Metagame, TableRow
from schemas.web import DeckPolicy, DeckRuling, DeckSubmission, Done, JudgeDeck
from tournament import service
from tournament.output import metagame
from tournament.service import export
from tournament.storage.eventlog import as_utc
from tournament.storage.models import Event
from tournament.web import receipts
from tournament.web.auth import identity, organiser, player
from tournament.web.common import json_post, reading, whole_number
from tournament.web.public import page


@dataclass(frozen=True)
class MyDeck:
    """The player's list on /me, and whether the deadline has passed (a change then goes through a judge)."""

    entry: DeckEntry
    locked: bool


def my_deck(session: Session, event: Event, who: str) -> MyDeck | None:
    """The player's list for /me, or someone's still waiting for a place (T-150); None: the event's game takes
    no list."""
    try:
        service.rules_for(event)
    except service.Usage:
        return None
    found = service.statuses(session, event.id, [who])
    return MyDeck(service.entry_of(found[0], whole=True), service.list_locked(session, event, who)) if found else None


def missing_lists(session: Session, event: Event) -> list[str] | None:
    """For the organiser's page: the names of the active players without a legal list (None: the event asks for
    no lists)."""
    if event.decks_policy is None:
        return None
    return [s.name for s in service.statuses(session, event.id) if not s.dropped and s.verdict != "legal"]


def _verdict_line(entry: DeckEntry) -> str:
    if entry.verdict == "legal":
        return f"Your list is legal: {entry.summary}."
    return f"Your list is registered but illegal: {'; '.join(p.message for p in entry.problems)}. Fix it and send it again."


def _submit(session: Session, who: service.Identity, data: bytes) -> DeckEntry:
    assert who.event_id is not None and who.player is not None
    (status,) = service.register_lists(session, who.event_id, [service.Submitted("your list", who.player, data)])
    return service.entry_of(status, whole=True)


@post("/me/deck", include_in_schema=False, action="play")
async def deck_form(request: Request[Any, Any, Any]) -> Response[Any]:
    """The player's list, typed or as a file; their page then shows the verdict."""
    form = await request.form()
    upload = form.get("file")
    data = await upload.read() if isinstance(upload, UploadFile) and upload.filename else str(form.get("list", "")).encode()
    return await sync_to_thread(_deck_form, request, form, data)


def _deck_form(request: Request[Any, Any, Any], form: Any, data: bytes) -> Response[Any]:
    who = player(request)
    key = receipts.given_key(form.get("_key"), "_key")
    # a list refused as unreadable comes back as typed (`typed`): sixty lines typed on a phone are not lost to one typo
    receipts.once(request, key, receipts.owner_of(who), lambda session: receipts.Outcome(_verdict_line(_submit(session, who, data))),
                  kept=receipts.typed(form))
    return Redirect(f"/me?r={key}", status_code=303)


@get("/api/me/deck", sync_to_thread=True, tags=["players"])
def api_my_deck(request: Request[Any, Any, Any]) -> DeckEntry:
    """Your deck list and its verdict (`none`: no list yet)."""
    who = player(request)
    assert who.event_id is not None and who.player is not None
    with reading(request) as session:
        found = my_deck(session, service.get_event(session, who.event_id), who.player)
        if found is None:
            raise service.Usage(f"{who.event_id!r} plays a game with a fixed deck: there is no list")
        return found.entry


@json_post("/api/me/deck", sync_to_thread=True, tags=["players"], action="play")
def api_submit(request: Request[Any, Any, Any], data: JSONBody[DeckSubmission]) -> Response[DeckEntry]:
    """Submit or replace your deck list; the answer is its verdict (400 naming the line of a list that cannot be read)."""
    who = player(request)
    return receipts.api_change(request, receipts.owner_of(who), lambda session: _submit(session, who, data.text.encode()))


# -- who may see what ---------------------------------------------------------------------------


def _viewer(request: Request[Any, Any, Any], event_id: str) -> tuple[str | None, bool]:
    """The signed-in player of this event (or None), and whether the organiser asks."""
    who = identity(request)
    if who is None:
        return None, False
    if who.player is None:  # the organiser or staff of this event
        return None, service.allowed(who, "view", event_id)
    return (who.player if who.event_id == event_id else None), False


def _entries(request: Request[Any, Any, Any], session: Session, event: Event) -> list[DeckEntry]:
    """Every list, for the organiser or once published; PermissionDenied otherwise."""
    _, boss = _viewer(request, event.id)
    service.rules_for(event)
    if not (event.decks_published or boss):
        raise PermissionDeniedException("the deck lists are not published yet")
    return [service.entry_of(s, whole=True) for s in service.statuses(session, event.id)]


def _one(request: Request[Any, Any, Any], session: Session, event_id: str, who: str) -> tuple[Event, DeckEntry]:
    event = service.get_event(session, event_id)
    service.rules_for(event)
    viewer, boss = _viewer(request, event_id)
    service.get_player(session, event_id, who)
    if not service.may_see(event, viewer, boss, who):
        raise PermissionDeniedException("this list is not published yet: only its player and the organiser see it")
    (status,) = service.statuses(session, event_id, [who])
    return event, service.entry_of(status, whole=True)


@get("/api/events/{event_id:str}/decks", sync_to_thread=True, tags=["public"])
def api_decks(request: Request[Any, Any, Any], event_id: FromPath[str]) -> list[DeckEntry]:
    """Every player's list (the organiser's; everyone's once published: 403 before)."""
    with reading(request) as session:
        return _entries(request, session, service.get_event(session, event_id))


@get("/api/events/{event_id:str}/decks/{player_id:str}", sync_to_thread=True, tags=["public"])
def api_deck(request: Request[Any, Any, Any], event_id: FromPath[str], player_id: FromPath[str]) -> DeckEntry:
    """One player's list: to its player and the organiser, to everyone once published (403 before)."""
    with reading(request) as session:
        return _one(request, session, event_id, player_id)[1]


@get("/api/events/{event_id:str}/meta", sync_to_thread=True, tags=["public"])
def api_meta(request: Request[Any, Any, Any], event_id: FromPath[str]) -> Metagame:
    """The metagame: players and match wins by kind of deck (once the lists are published; the organiser's before)."""
    with reading(request) as session:
        _entries(request, session, service.get_event(session, event_id))
        return service.metagame(session, event_id)


@get("/e/{event_id:str}/decks", sync_to_thread=True, include_in_schema=False)
def decks_page(request: Request[Any, Any, Any], event_id: FromPath[str]) -> Template:
    with reading(request) as session:
        event = service.get_event(session, event_id)
        entries = _entries(request, session, event)
        return page(request, "decks", session, event, entries=entries)


@get("/e/{event_id:str}/decks/{player_id:str}", sync_to_thread=True, include_in_schema=False)
def deck_page(request: Request[Any, Any, Any], event_id: FromPath[str], player_id: FromPath[str]) -> Template:
    """One list, as a page: its verdict, what kind of deck it is, and its text."""
    with reading(request) as session:
        event, entry = _one(request, session, event_id, player_id)
        return page(request, "deck", session, event, entry=entry)


@get("/e/{event_id:str}/decks.csv", sync_to_thread=True, include_in_schema=False)
def decks_csv(request: Request[Any, Any, Any], event_id: FromPath[str]) -> Response[str]:
    with reading(request) as session:
        entries = _entries(request, session, service.get_event(session, event_id))
    return Response(metagame.lists_csv(entries), media_type="text/csv; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="{event_id}-decks.csv"'})  # fmt: skip


@get("/e/{event_id:str}/decks.json", sync_to_thread=True, include_in_schema=False)
def decks_json(request: Request[Any, Any, Any], event_id: FromPath[str]) -> Response[bytes]:
    with reading(request) as session:
        entries = _entries(request, session, service.get_event(session, event_id))
    return Response(msgspec.json.encode(entries), media_type=MediaType.JSON)


@get("/e/{event_id:str}/meta", sync_to_thread=True, include_in_schema=False)
def meta_page(request: Request[Any, Any, Any], event_id: FromPath[str]) -> Template:
    """The metagame picture and its table."""
    with reading(request) as session:
        event = service.get_event(session, event_id)
        _entries(request, session, event)
        found = service.metagame(session, event_id)
        return page(request, "meta", session, event, meta=found, chart=metagame.chart(found), record=metagame.record_text, standalone=False)


@get("/e/{event_id:str}/meta.svg", sync_to_thread=True, include_in_schema=False)
def meta_svg(request: Request[Any, Any, Any], event_id: FromPath[str]) -> Response[str]:
    with reading(request) as session:
        _entries(request, session, service.get_event(session, event_id))
        found = service.metagame(session, event_id)
    return Response(metagame.to_svg(found), media_type="image/svg+xml")


# -- the organiser ------------------------------------------------------------------------------


@get("/admin/e/{event_id:str}/decks", sync_to_thread=True, include_in_schema=False, action="view")
def admin_decks(request: Request[Any, Any, Any], event_id: FromPath[str], r: FromQuery[str] = "") -> Template:
    """Every player's list and its verdict, who has none or an illegal one, and the button that publishes them."""
    shown = receipts.shown(request, r, receipts.owner_of(organiser(request)))
    with reading(request) as session:
        event = service.get_event(session, event_id)
        entries = _entries(request, session, event)
        return page(request, "admin_decks", session, event, entries=entries, notice=shown.get("notice"), error=shown.get("error"),
                    typed=shown.get("typed", {}), passed=service.deadline_passed(event), policy=event.decks_policy or "unpaired",
                    deadline=as_utc(event.decks_deadline) if event.decks_deadline else None, published=event.decks_published,
                    waiting=service.registration(session, event_id).waiting)  # fmt: skip


def _judge_registers(session: Session, event_id: str, player_id: str, data: bytes, reason: str | None) -> DeckEntry:
    """A judge registers a player's list (after the deadline: with the reason, which the log keeps)."""
    (status,) = service.register_lists(session, event_id, [service.Submitted("the list", player_id, data)], reason)
    return service.entry_of(status, whole=True)


@post("/admin/e/{event_id:str}/decks/register", include_in_schema=False, action="players")
async def judge_form(request: Request[Any, Any, Any], event_id: FromPath[str]) -> Response[Any]:
    """A judge's form: a player's list, typed or as a file, and the reason (needed after the deadline); then the
    decks page, saying the verdict."""
    form = await request.form()
    upload = form.get("file")
    data = await upload.read() if isinstance(upload, UploadFile) and upload.filename else str(form.get("list", "")).encode()
    reason = str(form.get("reason") or "").strip() or None

    def change(session: Session) -> str:
        entry = _judge_registers(session, event_id, str(form.get("player", "")), data, reason)
        verdict = f"legal: {entry.summary}" if entry.verdict == "legal" else "illegal: " + "; ".join(p.message for p in entry.problems)
        return f"{entry.name}'s list is registered, {verdict}" + (f" (reason: {reason})" if reason else "")

    return await sync_to_thread(receipts.organiser_form, request, form, f"/admin/e/{event_id}/decks", change)


@json_post("/api/admin/events/{event_id:str}/decks/register", sync_to_thread=True, tags=["organiser"], action="players")
def api_judge_register(request: Request[Any, Any, Any], event_id: FromPath[str], data: JSONBody[JudgeDeck]) -> Response[DeckEntry]:
    """A judge registers a player's list (a late entry's, one still waiting for a place); after the deadline with
    a `reason`, kept in the event log. The answer is the list's verdict."""
    return receipts.api_change(
        request, receipts.owner_of(organiser(request)), lambda s: _judge_registers(s, event_id, data.player, data.text.encode(), data.reason),
    )


@post("/admin/e/{event_id:str}/decks/publish", include_in_schema=False, action="decks")
async def publish_form(request: Request[Any, Any, Any], event_id: FromPath[str]) -> Response[Any]:
    form = await request.form()
    return await sync_to_thread(_publish, request, event_id, form)


def _publish(request: Request[Any, Any, Any], event_id: str, form: Any) -> Response[Any]:
    said = {True: "The lists are public now.", False: "The lists were public already."}
    return receipts.organiser_form(request, form, f"/admin/e/{event_id}/decks", lambda session: said[service.publish(session, event_id)])


def deadline_from(form: Any) -> datetime | None:
    """The decks page's deadline: a date and time in UTC (empty: as it is)."""
    text = str(form.get("deadline") or "").strip()
    try:
        return datetime.fromisoformat(text).replace(tzinfo=UTC) if text else None
    except ValueError:
        raise service.Usage(f"deadline: write a date and time like 2026-12-05T09:00, not {text!r}") from None


@post("/admin/e/{event_id:str}/decks/policy", include_in_schema=False, action="decks")
async def policy_form(request: Request[Any, Any, Any], event_id: FromPath[str]) -> Response[Any]:
    """The policy for players without a legal list at the deadline, and the deadline (`decks --policy --deadline`)."""
    form = await request.form()
    policy = str(form.get("policy") or "").strip() or None

    def change(session: Session) -> str:
        return service.policy_said(service.set_policy(session, event_id, policy, deadline_from(form)))

    return await sync_to_thread(receipts.organiser_form, request, form, f"/admin/e/{event_id}/decks", change)


@json_post("/api/admin/events/{event_id:str}/decks/policy", sync_to_thread=True, tags=["organiser"], action="decks")
def api_policy(request: Request[Any, Any, Any], event_id: FromPath[str], data: JSONBody[DeckPolicy]) -> Response[Done]:
    """Set the policy (T-113) and the deadline with its UTC offset (T-112), before round 1; null keeps each as it is."""

    def change(session: Session) -> Done:
        event = service.set_policy(session, event_id, data.policy, data.deadline)
        return Done(service.policy_said(event), export.event_info(event))

    return receipts.api_change(request, receipts.owner_of(organiser(request)), change)


@json_post("/api/admin/events/{event_id:str}/decks/publish", sync_to_thread=True, tags=["organiser"], action="decks")
def api_publish(request: Request[Any, Any, Any], event_id: FromPath[str]) -> Response[list[DeckEntry]]:
    """Publish every list of the event (a repeat changes nothing); the answer is every list."""
    who = organiser(request)

    def change(session: Session) -> list[DeckEntry]:
        service.publish(session, event_id)
        return [service.entry_of(s, whole=True) for s in service.statuses(session, event_id)]

    return receipts.api_change(request, receipts.owner_of(who), change)


def _rule(session: Session, event_id: str, ruling: DeckRuling) -> str:
    state = service.rule_decks(session, event_id, ruling.table, reason=ruling.reason, accept=ruling.accept)
    how = "the refused logs' result stands" if ruling.accept else "the default penalty"
    return f"table {ruling.table}: ruled, {how} ({ruling.reason.strip()}); {state.state}"


@post("/admin/e/{event_id:str}/decks/rule", include_in_schema=False, action="rule")
async def rule_form(request: Request[Any, Any, Any], event_id: FromPath[str]) -> Response[Any]:
    """A judge's ruling on a table refused for its decks, from the judge queue; then the event's page."""
    form = await request.form()
    return await sync_to_thread(_rule_form, request, event_id, form)


def _rule_form(request: Request[Any, Any, Any], event_id: str, form: Any) -> Response[Any]:
    def change(session: Session) -> str:
        ruling = DeckRuling(whole_number(form, "table"), str(form.get("reason", "")), form.get("accept") == "yes")
        return _rule(session, event_id, ruling)

    return receipts.organiser_form(request, form, f"/admin/e/{event_id}", change)


@json_post("/api/admin/events/{event_id:str}/decks/rule", sync_to_thread=True, tags=["organiser"], action="rule")
def api_rule(request: Request[Any, Any, Any], event_id: FromPath[str], data: JSONBody[DeckRuling]) -> Response[TableRow]:
    """Rule on a table refused for its decks: `accept` its logs, or the default penalty (T-115); the reason is kept.
    The answer is the table's row, with its result."""
    who = organiser(request)

    def change(session: Session) -> TableRow:
        state = service.rule_decks(session, event_id, data.table, reason=data.reason, accept=data.accept)
        event = service.get_event(session, event_id)
        return next(r for r in export.round_rows(session, event, state.table.round) if r.table == data.table)

    return receipts.api_change(request, receipts.owner_of(who), change)


HANDLERS = [
    deck_form, api_my_deck, api_submit, api_decks, api_deck, api_meta, decks_page, deck_page, decks_csv, decks_json,
    meta_page, meta_svg, admin_decks, judge_form, api_judge_register, publish_form, policy_form, api_policy, api_publish, rule_form,
    api_rule,
]
