"""`tournament serve`: the event on every player's phone (Litestar on uvicorn).

`create_app(db_url)` builds the ASGI app; the pages and `/api/...` call the
same `tournament.service` functions as the CLI, one transaction per change.
Modules: `app` (the factory, sessions, errors), `public` (pages), `api`
(their JSON), `views` (what both show), `players` and `organiser` (sign-in,
claims, the organiser's actions), `receipts` (every change sent once:
post/redirect/get with one-time keys), `auth` (sessions), `addresses`
(where phones reach the server), `assets` and `headers` (the static files,
the security headers), `live` and `follow` (live messages; the pages' stream
of their event's head). The command that starts it is `tournament.cli.serve`.
May import `service`, `output`, `storage` and `formats`; not `cli`.
"""

from __future__ import annotations

from typing import Any

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    """`create_app` on first use: a command that prints sign-in slips (`tournament.web.slips`) never loads Litestar."""
    if name == "create_app":
        from tournament.web.app import create_app

        return create_app
    raise AttributeError(name)
