"""`tournament serve`: migrate, make the organiser token and the shared keys once, then run uvicorn."""

from __future__ import annotations

import os
from typing import Annotated

import typer

from referee import console
from referee.console import say


def serve(
    host: Annotated[str, typer.Option("--host", help="The address to listen on (0.0.0.0: every interface).")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=1, max=65535, help="The port.")] = 8000,
    workers: Annotated[int, typer.Option("--workers", min=1, max=64, help="uvicorn worker processes (PostgreSQL only).")] = 1,
    db: Annotated[
        str | None,
        typer.Option("--db", envvar="TOURNAMENT_DB", show_envvar=True, help="A SQLite file (default: ./tournament.db), or a postgresql+psycopg:// URL."),
    ] = None,
) -> None:
    """Serve the events on the web: public pages and JSON, players' reports, the organiser's view."""
    import uvicorn
    from sqlalchemy.engine import make_url
    from sqlalchemy.orm import Session

    from tournament import service
    from tournament.storage.db import DatabaseUnavailable, open_database, shown

    try:
        url, engine = open_database(db)
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
    except service.TournamentError as exc:
        console.fail("tournament", exc.message, exc.code)
    finally:
        engine.dispose()
    shown_host = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    if made:
        say("the organiser token (shown this once; kept only as a hash; TOURNAMENT_ADMIN_TOKEN sets your own):")
        say(f"  {made}")
        say(f"  sign in at http://{shown_host}:{port}/admin")
    say(f"serving {shown(url)} at http://{shown_host}:{port}/ ({workers} worker{'s' if workers > 1 else ''}; Ctrl+C stops)")
    os.environ["TOURNAMENT_DB"] = url  # the workers build the app from it
    uvicorn.run(
        "tournament.web.app:from_environment", factory=True, host=host, port=port, workers=workers,
        proxy_headers=True, forwarded_allow_ips="127.0.0.1", log_level="warning",
        timeout_keep_alive=30,  # phones keep their connection between a page and its next poll
    )
