"""`tournament staff ...`: the server's staff from the command line (issue 35, T-232): name one and print their
sign-in code, list them, revoke one, give one a new code.

The command line has the database, so it is the way back in when every organiser's code is lost (T-230): it
may name an organiser while the organiser token is retired, and revoke the last organiser (the token then acts
again, T-231), which no page may.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from referee.console import emit_json, out, say
from tournament.cli.common import DbOpt, JsonOpt, reading, service, transaction

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from schemas.web import StaffMember
    from tournament.storage import models

app = typer.Typer(help="Staff: organisers, head judges, judges and scorekeepers, each with their own sign-in code.", no_args_is_help=True)
PANEL = "Staff"

StaffArg = Annotated[str, typer.Argument(help="The staff member's id (`tournament staff list`).", metavar="ID")]


def _member(row: models.StaffMember) -> StaffMember:
    """A staff member as `GET /api/admin/staff` gives them."""
    from schemas.web import StaffMember

    return StaffMember(row.id, row.name, row.role, row.event_id, row.revoked_at)  # type: ignore[arg-type]


def _code(session: Session, row: models.StaffMember, code: str, as_json: bool, said: str) -> None:
    """A new one-time code, printed once with its link (at the address `serve` stored, else the server's own /join)."""
    from schemas.web import StaffCode
    from tournament.web.views import join_link  # the link's one format; loaded only here

    link = join_link(service.public_url(session) or service.published_url(session) or "", code)
    if as_json:
        emit_json(StaffCode(_member(row), code, link))
        return
    say(said)
    out.print(f"  code: {code}\n  link: {link}", markup=False, highlight=False)


@app.command("add", rich_help_panel=PANEL)
def add(
    name: Annotated[str, typer.Argument(help="The name people read: \"Jo Judge\".", metavar="NAME")],
    role: Annotated[str, typer.Option("--role", help="organiser, head-judge, judge or scorekeeper.")],
    event: Annotated[str | None, typer.Option("--event", help="Their one event (default: every event; an organiser is for every event).")] = None,
    db: DbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Name a staff member and print their one-time sign-in code (shown this once; kept only as a hash)."""
    with transaction(db) as session:
        row = service.name_staff(session, name, role, event)
        row, code = service.new_code(session, row.id)
        scope = f"of event {event}" if event else "of every event"
        _code(session, row, code, as_json, f"{row.name} ({row.id}) is {service.ROLE_NAMES[row.role]} {scope}; their sign-in code, shown once:")


@app.command("list", rich_help_panel=PANEL)
def list_staff(db: DbOpt = None, as_json: JsonOpt = False) -> None:
    """Every staff member, by name, the revoked ones too."""
    from rich.table import Table

    with reading(db) as session:
        rows = [_member(m) for m in service.staff(session, revoked=True)]
        retired = service.has_organiser(session)
    if as_json:
        emit_json(rows)
        return
    table = Table(title="staff")
    for column in ("id", "name", "role", "event", "revoked"):
        table.add_column(column, overflow="fold")
    for r in rows:
        revoked = f"{r.revoked_at:%Y-%m-%d %H:%M} UTC" if r.revoked_at else ""
        table.add_row(r.id, r.name, service.ROLE_NAMES[r.role], r.event or "every event", revoked)
    out.print(table)
    say("the organiser token is retired: the organisers sign in with their own codes (T-230)" if retired
        else "no organiser yet: the organiser token acts as the organiser (T-230)")


@app.command("revoke", rich_help_panel=PANEL)
def revoke(staff_id: StaffArg, db: DbOpt = None, as_json: JsonOpt = False) -> None:
    """Revoke a staff member: every code, session and passkey of theirs ends at once (their name stays in the log)."""
    with transaction(db) as session:
        row = service.revoke(session, staff_id, last_organiser=True)
        back = row.role == "organiser" and not service.has_organiser(session)
        shown = _member(row)
    if as_json:
        emit_json(shown)
        return
    say(f"{shown.name} ({shown.id}) is revoked: signed out everywhere")
    if back:
        say("that was the last organiser: the organiser token acts as the organiser again (T-231)")


@app.command("new-code", rich_help_panel=PANEL)
def new_code(staff_id: StaffArg, db: DbOpt = None, as_json: JsonOpt = False) -> None:
    """A new one-time sign-in code for a staff member: their old code and every session of theirs end."""
    with transaction(db) as session:
        row, code = service.new_code(session, staff_id)
        _code(session, row, code, as_json, f"{row.name} ({row.id}): a new sign-in code, shown once (the old one and their sessions ended):")
