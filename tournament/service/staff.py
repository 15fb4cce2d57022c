"""Staff members (issue 35): the people the organiser names to run events beside them, each with their own
sign-in, and the names the event log's actors are shown by.

A staff member has a name, a role (`permissions.STAFF_ROLES`) and a scope: one event, or every event on the
server (T-172). Their sign-in is a one-time code shown as a QR, exchanged for a session as a player's slip
code is (service/tokens.py); revoking them ends every code and session of theirs in the same transaction, so
their next request is refused (T-173). Staff are the server's, not an event's history: they are not in any
event log, but every entry a staff member makes names them (`staff:ID`), and a revoked member's row is kept
so the log still shows who they were.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from tournament.service.errors import Conflict, NotFound, Usage
from tournament.service.passkeys import Owner, remove_all
from tournament.service.people import clean_name, slug, unique_ids
from tournament.service.permissions import ROLE_NAMES, STAFF_ROLES
from tournament.service.persons import display_names
from tournament.service.queries import get_event
from tournament.service.tokens import end_staff_sessions, issue_staff_code
from tournament.storage.eventlog import Actor, actor_parts
from tournament.storage.models import Person, StaffMember

MAX_STAFF = 500  # staff members a server keeps, revoked ones included: a large event has a few dozen


def name_staff(session: Session, name: str, role: str, event_id: str | None = None) -> StaffMember:
    """Name a staff member: `role` one of STAFF_ROLES, for `event_id` or (None) every event. An organiser is
    always for every event (T-174). Their id is made from the name (`ann-lee`, `ann-lee-2`, ...)."""
    shown = clean_name(name)
    if role not in STAFF_ROLES:
        raise Usage(f"role must be one of {', '.join(STAFF_ROLES)}, not {role!r}")
    if role == "organiser" and event_id is not None:
        raise Usage("an organiser runs every event on the server: name them without an event")
    if event_id is not None:
        get_event(session, event_id)
    ids = set(session.scalars(select(StaffMember.id)))
    if len(ids) >= MAX_STAFF:
        raise Conflict(f"the server keeps at most {MAX_STAFF} staff members")
    [chosen] = unique_ids([slug(shown)], ids)
    member = StaffMember(id=chosen, name=shown, role=role, event_id=event_id, created_at=datetime.now(UTC), revoked_at=None)
    session.add(member)
    session.flush()
    return member


def get_staff(session: Session, staff_id: str) -> StaffMember:
    member = session.get(StaffMember, staff_id) if len(staff_id) <= 64 else None
    if member is None:
        raise NotFound(f"no staff member {staff_id!r}")
    return member


def new_code(session: Session, staff_id: str) -> tuple[StaffMember, str]:
    """A new one-time sign-in code for a staff member (their older code and sessions end); Conflict for a revoked
    member: to bring them back, name them again (T-173)."""
    member = get_staff(session, staff_id)
    if member.revoked_at is not None:
        raise Conflict(f"{member.name} was revoked; name them again to give them a sign-in")
    return member, issue_staff_code(session, staff_id)


def revoke(session: Session, staff_id: str, *, last_organiser: bool = False) -> StaffMember:
    """Revoke a staff member: every code, session and passkey of theirs ends now; their row stays for the log's sake.
    The server's last organiser only with `last_organiser` (the command line's: the organiser token then acts
    again, T-231); the web refuses it (Conflict), so no page hands the token its rights back."""
    member = get_staff(session, staff_id)
    if member.revoked_at is not None:
        raise Conflict(f"{member.name} was revoked already")
    if member.role == "organiser" and not last_organiser:
        # every organiser's row locked, in one order: of two organisers revoking each other at once, the second
        # waits for the first, then reads it revoked (PostgreSQL reads a locked row again) and is refused
        organisers = session.scalars(
            select(StaffMember.id).where(StaffMember.role == "organiser", StaffMember.revoked_at.is_(None))
            .order_by(StaffMember.id).with_for_update()
        ).all()
        if list(organisers) == [staff_id]:
            raise Conflict(
                f"{member.name} is the server's last organiser: name another organiser first "
                "(or `tournament staff revoke` on the command line, which gives the organiser token its rights back)"
            )
    member.revoked_at = datetime.now(UTC)
    end_staff_sessions(session, staff_id)
    remove_all(session, Owner("staff", staff_id))
    return member


def staff(session: Session, *, revoked: bool = False) -> list[StaffMember]:
    """The staff members, by name (`revoked`: the revoked ones too)."""
    query = select(StaffMember).order_by(StaffMember.name, StaffMember.id)
    if not revoked:
        query = query.where(StaffMember.revoked_at.is_(None))
    return list(session.scalars(query))


FIXED = {"unknown": "unknown (from before actors were kept)", "cli": "the command line", "server": "the server", "organiser": "the organiser"}


def actor_names(session: Session, event_id: str, actors: Iterable[Actor | None]) -> dict[Actor | None, str]:
    """What each actor is shown as: a player's display name, a staff member's name and role, or what else it is."""
    wanted = set(actors)
    players = display_names(session, event_id, waiting=True)
    staff_ids = [key for kind, key in map(actor_parts, wanted) if kind == "staff" and key]
    members = {m.id: m for m in session.scalars(select(StaffMember).where(StaffMember.id.in_(staff_ids)))} if staff_ids else {}
    names: dict[Actor | None, str] = {}
    for actor in wanted:
        kind, key = actor_parts(actor)
        if kind == "player" and key:
            names[actor] = players.get(key, key)
        elif kind == "staff" and key:
            member = members.get(key)
            names[actor] = f"{member.name} ({ROLE_NAMES[member.role]})" if member else key
        elif kind == "person" and key:  # a person signed in by their player card (T-181)
            person = session.get(Person, key)
            names[actor] = person.name if person else key
        else:
            names[actor] = FIXED.get(kind, kind)
    return names
