"""`tournament` commands for the front desk (issue 26): judge calls and their answers; public registration,
check-in and leaving out who has not come. The players' side is on `tournament serve` (`/me`)."""

from __future__ import annotations

from typing import Annotated

import typer

from referee.console import INT32_MAX, emit_json, out, say
from tournament.cli.common import DbOpt, EventArg, JsonOpt, reading, service, transaction

app = typer.Typer()
PANEL = "Front desk"


@app.command(rich_help_panel=PANEL)
def calls(
    event: EventArg,
    every: Annotated[bool, typer.Option("--all", help="The answered calls too.")] = False,
    db: DbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """The open judge calls, newest first: table, player and their line (`--all`: the answered ones too)."""
    with reading(db) as session:
        rows = service.judge_calls(session, event, answered=every)
    if as_json:
        emit_json(rows)
        return
    if not rows:
        say(f"no {'' if every else 'open '}judge call in {event}")
    for c in rows:
        state = f"answered {c.answered_at:%H:%M}" if c.answered_at else "OPEN"
        text = f": {c.text}" if c.text else ""
        out.print(f"{c.number}. round {c.round}, table {c.table}, {c.name} ({c.player}) at {c.called_at:%H:%M} UTC, {state}{text}", markup=False, highlight=False)


@app.command(rich_help_panel=PANEL)
def answer(
    event: EventArg,
    number: Annotated[int, typer.Argument(min=1, max=INT32_MAX, help="The call's number (`tournament calls`).", metavar="CALL")],
    db: DbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Mark a judge call answered (a judge went to the table)."""
    with transaction(db) as session:
        call = service.answer_call(session, event, number)
        table = call.table
        left = service.judge_calls(session, event)
    if as_json:
        emit_json(left)
    else:
        say(f"call {number} (table {table}) answered; {len(left)} still open")
