"""`tournament send`: deliver the outbox's messages (e-mail, Web Push) as a process of its own, beside or
instead of the sender in `tournament serve` (tournament/README.md, "Messages")."""

from __future__ import annotations

import signal
import threading
from datetime import timedelta
from typing import Annotated, Any

import typer

from referee import console
from referee.console import say

SmtpOpt = Annotated[
    str | None,
    typer.Option(
        "--smtp", metavar="URL", envvar="TOURNAMENT_SMTP", show_envvar=True,
        help="The SMTP server e-mail goes through: smtp://[user:password@]host[:port][?from=ADDRESS&starttls=1], or smtps://. Without it no e-mail is sent.",
    ),
]


def send(
    smtp: SmtpOpt = None,
    once: Annotated[bool, typer.Option("--once", help="Deliver what is due now, then stop (else: until Ctrl+C or SIGTERM).")] = False,
    lease: Annotated[
        int, typer.Option("--lease", min=1, max=3600, help="Seconds a claimed message is held before another sender may take it over (a sender killed mid-send).")
    ] = 60,
    failed: Annotated[bool, typer.Option("--failed", help="List the messages given up after their retries (or refused at once), newest first, and stop.")] = False,
    json_out: Annotated[bool, typer.Option("--json", help="Print JSON instead of text (with --once or --failed).")] = False,
    db: Annotated[
        str | None,
        typer.Option("--db", envvar="TOURNAMENT_DB", show_envvar=True, help="A SQLite file (default: ./tournament.db), or a postgresql+psycopg:// URL."),
    ] = None,
) -> None:
    """Deliver the players' messages: pairings, results to confirm, judges' answers, places, reminders (`--failed`: list those given up)."""
    from sqlalchemy.orm import Session

    from tournament import service
    from tournament.service import sender as outbox
    from tournament.storage.db import DatabaseUnavailable, open_database

    try:
        _url, engine = open_database(db, create=False)
    except DatabaseUnavailable as exc:
        console.fail("tournament", str(exc), service.EXIT_DATABASE)
    if failed:
        with Session(engine) as session:
            rows = outbox.given_up(session)
        engine.dispose()
        _list_failed(rows, json_out)
        return
    try:
        with Session(engine) as session, session.begin():
            channels = outbox.channels_for(session, smtp)
    except service.TournamentError as exc:
        engine.dispose()
        console.fail("tournament", exc.message, exc.code)
    if not channels:
        engine.dispose()
        console.fail("tournament", f"nothing to send with: give --smtp URL for e-mail, and {outbox.push_missing()} for Web Push", service.EXIT_USAGE)
    names = ", ".join(c.name for c in channels)
    runner = outbox.Sender(engine, channels, lease=timedelta(seconds=lease))
    if once:
        claimed = 0
        while (done := runner.once()) > 0:
            claimed += done
        with Session(engine) as session:
            left = outbox.pending(session)
        engine.dispose()
        if json_out:
            import msgspec

            typer.echo(msgspec.json.encode({"channels": [c.name for c in channels], "claimed": claimed, "pending": left}).decode())
        else:
            say(f"sent by {names}: {claimed} claimed; {left} not yet sent (retried later, or on a channel not given here)")
        return
    stop = threading.Event()

    def _stop(_signum: int, _frame: Any) -> None:
        stop.set()

    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)
    console.err.print(f"sending by {names} (Ctrl+C stops)", markup=False)
    runner.run(stop)
    engine.dispose()


def _list_failed(rows: list[Any], json_out: bool) -> None:
    """The messages given up: JSON (`schemas.tournament.FailedMessage` each), or a line each."""
    import msgspec

    if json_out:
        typer.echo(msgspec.json.encode({"failed": rows}).decode())
        return
    for m in rows:
        where = f" in {m.event_name}" if m.event_name else ""
        to = m.address or "a subscription since stopped"
        typer.echo(f"{m.given_up_at:%Y-%m-%d %H:%M} UTC  {m.kind} to {m.player}{where} by {m.channel} ({to}), {m.attempts} tries: {m.reason}")
    say(f"{len(rows)} message{'s' if len(rows) != 1 else ''} given up")
