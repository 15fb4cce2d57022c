"""`tournament serve`: migrate (`--init`: make the database), make the organiser token and the shared keys once,
then run uvicorn; `tournament organiser-token --new` replaces a lost token."""

from __future__ import annotations

import os
from typing import Annotated

import typer

from referee import console
from referee.console import say
from tournament.cli.send import SmtpOpt


def serve(
    host: Annotated[str, typer.Option("--host", help="The address to listen on (0.0.0.0: every interface).")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=1, max=65535, help="The port.")] = 8000,
    workers: Annotated[int, typer.Option("--workers", min=1, max=64, help="uvicorn worker processes (PostgreSQL only).")] = 1,
    public_url: Annotated[
        str | None,
        typer.Option(
            "--public-url", metavar="URL",
            help="The address phones open (http://192.168.1.20:8000, https://cup.example.org): every sign-in link and QR code uses it. Kept in the database for every worker and `slips --tokens`.",
        ),
    ] = None,
    streams_per_address: Annotated[
        int | None,
        typer.Option(
            "--streams-per-address", min=1, max=100_000, envvar="TOURNAMENT_STREAMS_PER_ADDRESS", show_envvar=True,
            help="Live streams one address may hold open on each worker (default 100); past that a new one is refused (429). Raise it when a venue's phones share one address (NAT, a proxy).",
        ),
    ] = None,
    db: Annotated[
        str | None,
        typer.Option("--db", envvar="TOURNAMENT_DB", show_envvar=True, help="A SQLite file (default: ./tournament.db), or a postgresql+psycopg:// URL."),
    ] = None,
    smtp: SmtpOpt = None,
    send: Annotated[
        bool, typer.Option("--send/--no-send", help="Deliver the players' messages from this server (--no-send: `tournament send` does, as its own process).")
    ] = True,
    init: Annotated[
        bool,
        typer.Option("--init", help="Make the database when there is none yet (empty, migrated), to run events from the browser."),
    ] = False,
) -> None:
    """Serve the events on the web: public pages and JSON, players' reports, the organiser's view."""
    import uvicorn
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError
    from sqlalchemy.orm import Session

    from tournament import service
    from tournament.storage.db import (
        DatabaseUnavailable,
        NoTournament,
        missing_sqlite_file,
        open_database,
        shown,
    )
    from tournament.storage.dbinfo import database_url
    from tournament.web import addresses, serverlog

    if smtp is not None:  # a wrong URL is said before anything starts
        from tournament.service.sender import smtp_settings

        try:
            smtp_settings(smtp)
        except service.TournamentError as exc:
            console.fail("tournament", exc.message, exc.code)
    try:
        missing = missing_sqlite_file(database_url(db))
    except (ArgumentError, ValueError):  # not a URL: open_database says why
        missing = None
    if missing is not None and not init:  # never an empty database made in the wrong folder unasked
        _no_database(f"no database at {missing}", "makes an empty one here")
    try:
        url, engine = open_database(db, create=init)
    except NoTournament as exc:  # an empty PostgreSQL database (or SQLite file): --init is the way, as for no file
        _no_database(f"{exc.where} holds no tournament database", "makes its tables there")
    except DatabaseUnavailable as exc:
        console.fail("tournament", str(exc), service.EXIT_DATABASE)
    sqlite = make_url(url).get_backend_name() == "sqlite"
    if sqlite and workers > 1:
        engine.dispose()
        console.fail("tournament", "SQLite serves one worker; for --workers N use PostgreSQL (tournament/README.md)", service.EXIT_USAGE)
    try:
        with Session(engine) as session, session.begin():
            made = service.ensure_organiser(session, os.environ.get("TOURNAMENT_ADMIN_TOKEN"))
            service.server_secret(session, "csrf")
            stored = service.keep_public_url(session, public_url) if public_url is not None else service.public_url(session)
            phones, warning = addresses.for_phones(host, port, stored)
            service.keep_published_url(session, phones)  # `slips --tokens` links to where this server is (T-163)
    except service.TournamentError as exc:
        console.fail("tournament", exc.message, exc.code)
    finally:
        engine.dispose()
    if made:
        say("the organiser token (shown this once; kept only as a hash; TOURNAMENT_ADMIN_TOKEN sets your own):")
        say(f"  {made}")
        say(f"  sign in at {phones}/admin")
    elif not os.environ.get("TOURNAMENT_ADMIN_TOKEN"):
        again = f" --db {shown(url)}" if db is not None and "TOURNAMENT_DB" not in os.environ else ""
        say(f"the organiser signs in at {phones}/admin with the token the first start printed; lost it? "
            f"`tournament organiser-token --new{again}` makes a new one (and signs every organiser out)")
    say(f"serving {shown(url)} at {phones}/ ({workers} worker{'s' if workers > 1 else ''}; Ctrl+C stops)")
    if host in addresses.ALL:
        for other in addresses.lan_addresses():
            if f"//{other}:" not in phones:
                say(f"  also at http://{other}:{port}/")
    if warning:
        console.err.print(f"tournament: warning: {warning}", markup=False)
    os.environ["TOURNAMENT_DB"] = url  # the workers build the app from these
    os.environ["TOURNAMENT_PUBLIC_URL"] = phones
    if smtp is not None:
        os.environ["TOURNAMENT_SMTP"] = smtp
    os.environ["TOURNAMENT_SEND"] = "1" if send else "0"
    if streams_per_address is not None:
        os.environ["TOURNAMENT_STREAMS_PER_ADDRESS"] = str(streams_per_address)
    uvicorn.run(
        "tournament.web.app:from_environment", factory=True, host=host, port=port, workers=workers,
        proxy_headers=True, forwarded_allow_ips="127.0.0.1", log_level="warning", log_config=serverlog.log_config(),
        timeout_keep_alive=30,  # phones keep their connection between a page and the next
        timeout_graceful_shutdown=5,  # on Ctrl+C the pages' live streams (held open for minutes) are cut after 5 s
    )


def _no_database(what: str, init: str) -> None:
    from tournament import service

    console.fail(
        "tournament", f"{what}: `tournament serve --init` {init} (events are then created on the "
        "organiser's page), or give --db (a SQLite file or a postgresql+psycopg:// URL), or try `tournament demo` first",
        service.EXIT_DATABASE,
    )


def organiser_token(
    new: Annotated[bool, typer.Option("--new", help="Make a new organiser token: the old one stops working, every organiser session and registration desk ends.")] = False,
    db: Annotated[
        str | None,
        typer.Option("--db", envvar="TOURNAMENT_DB", show_envvar=True, help="A SQLite file (default: ./tournament.db), or a postgresql+psycopg:// URL."),
    ] = None,
) -> None:
    """A new organiser token for `tournament serve`'s /admin (the old one is kept only as a hash, so it cannot be shown)."""
    from sqlalchemy.orm import Session

    from tournament import service
    from tournament.storage.db import DatabaseUnavailable, open_database

    if not new:
        console.fail("tournament", "the organiser token is kept only as a hash and cannot be shown again: "
                     "`tournament organiser-token --new` makes a new one and signs every organiser out", service.EXIT_USAGE)
    if os.environ.get("TOURNAMENT_ADMIN_TOKEN"):
        console.fail("tournament", "TOURNAMENT_ADMIN_TOKEN is set, and `tournament serve` puts it back at its next start: "
                     "change it there (and restart) instead", service.EXIT_USAGE)
    try:
        _url, engine = open_database(db, create=False)
    except DatabaseUnavailable as exc:
        console.fail("tournament", str(exc), service.EXIT_DATABASE)
    try:
        with Session(engine) as session, session.begin():
            token = service.new_organiser_token(session)
            stored = service.published_url(session)  # where the last `serve` said it was (T-163)
            retired = service.has_organiser(session)
    finally:
        engine.dispose()
    say("a new organiser token (shown this once; the old one, every organiser session and every registration desk have ended):")
    say(f"  {token}")
    if retired:  # T-230: a new token is no way past the organisers; the staff commands are
        say("  but the server has organisers, so the token does nothing: `tournament staff new-code ID` gives one a new code")
    else:
        say(f"  sign in at {stored}/admin" if stored else "  sign in at the server's /admin page")
