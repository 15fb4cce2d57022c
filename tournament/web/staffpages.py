"""The organiser names and revokes staff (issue 35): `/admin/staff`, and its JSON twins under `/api/admin/staff`.

Each staff member's sign-in code is shown once, as a QR code and a link (the code after `#`, as a player's slip
code: `/join` signs them in), and kept only as a hash; a new code ends their older code and sessions, and
revoking them ends every session at once. Only the organiser's roles may reach these routes (the matrix's
`staff` action).
"""

from __future__ import annotations

from typing import Any

import msgspec
from litestar import Request, Response, get, post
from litestar.concurrency import sync_to_thread
from litestar.params import FromPath, FromQuery, JSONBody
from litestar.response import Template
from sqlalchemy.orm import Session

from schemas.web import NewStaff, StaffCode, StaffMember
from tournament import service
from tournament.storage import models
from tournament.web import receipts, views
from tournament.web.auth import identity, organiser
from tournament.web.common import json_post, public_url, reading
from tournament.web.public import page

BACK = "/admin/staff"


def member(row: models.StaffMember) -> StaffMember:
    return StaffMember(row.id, row.name, row.role, row.event_id, row.revoked_at)  # type: ignore[arg-type]


def _code(request: Request[Any, Any, Any], session: Session, staff_id: str) -> StaffCode:
    row, code = service.new_code(session, staff_id)
    return StaffCode(member(row), code, views.join_link(public_url(request), code))


def _named(request: Request[Any, Any, Any], session: Session, wanted: NewStaff) -> StaffCode:
    row = service.name_staff(session, wanted.name, wanted.role, wanted.event)
    return _code(request, session, row.id)


def _shown(done: StaffCode, said: str) -> receipts.Outcome:
    """The code waits in the receipt until the page shows it, once (as a player's new code does)."""
    return receipts.Outcome(said, msgspec.json.encode(done.staff.id), secret=done.code)


@get(BACK, include_in_schema=False, action="staff")
async def staff_page(request: Request[Any, Any, Any], r: FromQuery[str] = "") -> Template:
    """Every staff member (the revoked ones too), the form to name one, and a code just made, shown once."""
    # async, with its own thread: a sync_to_thread GET sharing its path with a POST is wrapped twice (players.join_page)
    return await sync_to_thread(_staff_page, request, r)


def shown_code(request: Request[Any, Any, Any], session: Session, shown: dict[str, Any]) -> dict[str, Any] | None:
    """The sign-in code a staff form's receipt carries (`receipts.shown`), for the page to show once: None without one."""
    if not (shown.get("secret") and shown.get("detail")):
        return None
    staff_id = msgspec.json.decode(shown["detail"], type=str)
    link = views.join_link(public_url(request), shown["secret"])
    return {"name": service.get_staff(session, staff_id).name, "code": shown["secret"], "link": link, "qr": views.qr(link)}


def _staff_page(request: Request[Any, Any, Any], r: str) -> Template:
    shown = receipts.shown(request, r, receipts.owner_of(organiser(request)))
    with reading(request) as session:
        everyone = service.staff(session, revoked=True)
        events = {e.id: e.name for e in session.query(models.Event)}
        code = shown_code(request, session, shown)
        return page(
            request, "staff", staff=everyone, events=events, roles=service.ROLE_NAMES, staff_roles=service.STAFF_ROLES,
            code=code, hold=code is not None, notice=shown.get("notice"), error=shown.get("error"), typed=shown.get("typed", {}),
        )


def _form(request: Request[Any, Any, Any], form: Any, change: Any, back: str = BACK) -> Response[Any]:
    return receipts.organiser_form(request, form, back, change)


@post(BACK, include_in_schema=False, action="staff")
async def add_form(request: Request[Any, Any, Any]) -> Response[Any]:
    form = await request.form()
    wanted = NewStaff(str(form.get("name", "")), str(form.get("role", "")), str(form.get("event") or "") or None)  # type: ignore[arg-type]

    def change(session: Session) -> receipts.Outcome:
        done = _named(request, session, wanted)
        return _shown(done, f"{done.staff.name} is {service.ROLE_NAMES[done.staff.role]}: their sign-in code, shown once")

    # the token naming the first organiser is retired by it (T-230): the code is shown on the sign-in page, which it may read
    first = wanted.role == "organiser" and receipts.owner_of(identity(request)) == "organiser"
    return await sync_to_thread(_form, request, form, change, "/admin" if first else BACK)


@post(f"{BACK}/code", include_in_schema=False, action="staff")
async def code_form(request: Request[Any, Any, Any]) -> Response[Any]:
    form = await request.form()

    def change(session: Session) -> receipts.Outcome:
        done = _code(request, session, str(form.get("staff", "")))
        return _shown(done, f"{done.staff.name}: a new sign-in code, shown once (the old one and their sessions ended)")

    return await sync_to_thread(_form, request, form, change)


@post(f"{BACK}/revoke", include_in_schema=False, action="staff")
async def revoke_form(request: Request[Any, Any, Any]) -> Response[Any]:
    form = await request.form()
    return await sync_to_thread(
        _form, request, form, lambda s: f"{service.revoke(s, str(form.get('staff', ''))).name} is revoked: signed out everywhere"
    )


# The JSON twins ----------------------------------------------------------------------------------------------


@get("/api/admin/staff", tags=["organiser"], action="staff")
async def api_staff(request: Request[Any, Any, Any]) -> list[StaffMember]:
    """Every staff member, the revoked ones too."""
    return await sync_to_thread(_api_staff, request)  # async: as `staff_page`, a GET beside a POST of its path


def _api_staff(request: Request[Any, Any, Any]) -> list[StaffMember]:
    with reading(request) as session:
        return [member(m) for m in service.staff(session, revoked=True)]


def _change(request: Request[Any, Any, Any], change: Any, *, private: bool = False) -> Response[Any]:
    return receipts.api_change(request, receipts.owner_of(organiser(request)), change, private=private)


@json_post("/api/admin/staff", sync_to_thread=True, tags=["organiser"], action="staff")
def api_add(request: Request[Any, Any, Any], data: JSONBody[NewStaff]) -> Response[StaffCode]:
    """Name a staff member: their one-time sign-in code and its link, given once."""
    return _change(request, lambda s: _named(request, s, data), private=True)


@json_post("/api/admin/staff/{staff_id:str}/code", sync_to_thread=True, tags=["organiser"], action="staff")
def api_code(request: Request[Any, Any, Any], staff_id: FromPath[str]) -> Response[StaffCode]:
    """A new one-time sign-in code for a staff member (their older code and sessions end)."""
    return _change(request, lambda s: _code(request, s, staff_id), private=True)


@json_post("/api/admin/staff/{staff_id:str}/revoke", sync_to_thread=True, tags=["organiser"], action="staff")
def api_revoke(request: Request[Any, Any, Any], staff_id: FromPath[str]) -> Response[StaffMember]:
    """Revoke a staff member: every session of theirs ends now."""
    return _change(request, lambda s: member(service.revoke(s, staff_id)))


HANDLERS = [staff_page, add_form, code_form, revoke_form, api_staff, api_add, api_code, api_revoke]
