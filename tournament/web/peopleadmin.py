"""The organiser's people (issue 35): namesakes flagged at registration, and link, merge and split in the browser,
each with a reason, each recorded with who made it (T-184). Thin handlers over `service.persons`.

`/admin/people` lists everyone (namesakes told apart, T-185); `/admin/people/PERSON` is one person's page:
their entries, their player card (`web/cards.py`), merging another person into them, splitting entries off,
and the record of every change that touched them. `/admin/e/EVENT/link` links one player of an event to a
person, from the namesake warning on the event's registration page.
"""

from __future__ import annotations

from typing import Any

from litestar import Request, Response, get, post
from litestar.concurrency import sync_to_thread
from litestar.params import FromPath, FromQuery
from litestar.response import Template
from sqlalchemy.orm import Session

from tournament import service
from tournament.service import history, persons
from tournament.storage import eventlog
from tournament.storage.models import Event, PersonChange
from tournament.web import receipts
from tournament.web.auth import organiser
from tournament.web.common import reading
from tournament.web.public import page

ACTOR = eventlog.ORGANISER  # who makes these changes (the organiser's pages are the organiser token's), as logs name them


@get("/admin/people", sync_to_thread=True, include_in_schema=False, action="people")
def people_page(request: Request[Any, Any, Any], r: FromQuery[str] = "") -> Template:
    """Everyone, namesakes told apart, each a link to their organiser's page."""
    organiser(request)
    shown = receipts.shown(request, r, "organiser")
    with reading(request) as session:
        return page(request, "admin_people", people=history.people_rows(session), notice=shown.get("notice"), error=shown.get("error"))


@get("/admin/people/{person_id:str}", sync_to_thread=True, include_in_schema=False, action="people")
def person_page(request: Request[Any, Any, Any], person_id: FromPath[str], r: FromQuery[str] = "") -> Template:
    organiser(request)
    shown = receipts.shown(request, r, "organiser")
    with reading(request) as session:
        info = history.person_info(session, person_id)
        others = [p for p in history.people_rows(session) if p.id != person_id]
        texts = history.person_texts(session)
        return page(
            request, "admin_person", person=info, others=others, changes=_said(session, persons.person_changes(session, person_id), texts),
            has_card=service.has_card(session, person_id), texts=texts, notice=shown.get("notice"), error=shown.get("error"),
            typed=shown.get("typed", {}),
        )


def _said(session: Session, changes: list[PersonChange], texts: dict[str, str]) -> list[tuple[PersonChange, str, str]]:
    """Recorded changes as people read them: the entries moved (event and name, not ids) and who made each; each
    event's names read once, however many changes and entries name it."""
    events: dict[str, tuple[str, dict[str, str]]] = {}

    def entry(text: str) -> str:
        event_id, _, player = text.partition("/")
        if event_id not in events:
            event = session.get(Event, event_id)
            events[event_id] = (event.name if event else event_id, service.display_names(session, event_id))
        name, names = events[event_id]
        return f"{name}: {names.get(player, player)}"

    said = []
    for change in changes:
        kind, _, whose = change.actor.partition(":")
        said.append((change, ", ".join(map(entry, change.players.split())), texts.get(whose, whose) if kind == "person" else change.actor))
    return said


def _back(person_id: str) -> str:
    return f"/admin/people/{person_id}"


@post("/admin/people/{person_id:str}/merge", include_in_schema=False, action="people")
async def merge_form(request: Request[Any, Any, Any], person_id: FromPath[str]) -> Response[Any]:
    """Merge another person (`other`) into this one, with a reason."""
    form = await request.form()
    other, reason = str(form.get("other", "")), str(form.get("reason", ""))

    def change(session: Session) -> str:
        gone = service.get_person(session, other)
        kept = service.merge(session, person_id, other, reason, ACTOR)
        return f"{gone.name} is {kept.name} now: every entry of theirs is {kept.name}'s."

    return await sync_to_thread(receipts.organiser_form, request, form, _back(person_id), change)


@post("/admin/people/{person_id:str}/split", include_in_schema=False, action="people")
async def split_form(request: Request[Any, Any, Any], person_id: FromPath[str]) -> Response[Any]:
    """Split the ticked entries (`entry`: EVENT/PLAYER) off into a new person called `name`, with a reason."""
    form = await request.form()
    chosen = [tuple(str(e).split("/", 1)) for e in form.getall("entry", []) if "/" in str(e)]
    name, reason = str(form.get("name", "")), str(form.get("reason", ""))

    def change(session: Session) -> receipts.Outcome:
        made = service.split(session, person_id, [(e, p) for e, p in chosen], name, reason, ACTOR)
        return receipts.Outcome(f"{len(chosen)} entr{'y' if len(chosen) == 1 else 'ies'} split off: they are {made.name} now.")

    return await sync_to_thread(receipts.organiser_form, request, form, _back(person_id), change)


@post("/admin/e/{event_id:str}/link", include_in_schema=False, action="people")
async def link_form(request: Request[Any, Any, Any], event_id: FromPath[str]) -> Response[Any]:
    """Link a player of the event to a person (a namesake flagged at registration), with a reason."""
    form = await request.form()
    player, person, reason = str(form.get("player", "")), str(form.get("person", "")), str(form.get("reason", ""))
    back = str(form.get("back", ""))

    def change(session: Session) -> str:
        row = service.link(session, event_id, player, person, reason, actor=ACTOR)
        return f"{row.display_name} in this event is {history.person_texts(session)[person]} now."

    where = back if back in (f"/admin/e/{event_id}/registration", f"/admin/e/{event_id}") else f"/admin/e/{event_id}/registration"
    return await sync_to_thread(receipts.organiser_form, request, form, where, change)


HANDLERS = [people_page, person_page, merge_form, split_form, link_form]
