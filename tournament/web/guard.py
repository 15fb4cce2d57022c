"""The permission matrix at the door: every state-changing route names its action, and one guard checks it.

A route handler names the action it takes (`action=` in its decorator: a key of `service.MATRIX`); the app's
one guard reads who is signed in and asks `service.check` before the handler runs, so a refusal (401 to
nobody, 403 to the wrong role or another event's staff) has changed nothing. `unguarded` lists the routes
that change something and name no action: the app refuses to start with any (T-175), so a new route cannot
be forgotten. Reads of the organiser's pages name the action `view`, which scopes a staff member to their event.
"""

from __future__ import annotations

from typing import Any

from litestar import Litestar
from litestar.concurrency import sync_to_thread
from litestar.connection import ASGIConnection
from litestar.handlers.base import BaseRouteHandler
from litestar.routes import HTTPRoute

from tournament import service
from tournament.web.auth import identity

ACTION = "action"  # the key of a handler's `opt` that names its action
READS = frozenset(("GET", "HEAD", "OPTIONS"))


def _check(connection: ASGIConnection[Any, Any, Any, Any], action: str) -> None:
    if action == service.PUBLIC:
        return
    who = identity(connection)  # type: ignore[arg-type]  # reads headers, cookies and the app: what a connection has
    event_id = connection.path_params.get("event_id")
    service.check(who, action, event_id if isinstance(event_id, str) else None)


async def guard(connection: ASGIConnection[Any, Any, Any, Any], handler: BaseRouteHandler) -> None:
    """The app's one permission check: the route's action against who is signed in (in a thread: it reads the database)."""
    action = handler.opt.get(ACTION)
    if action is not None:
        await sync_to_thread(_check, connection, action)


def changing_routes(app: Litestar) -> list[tuple[str, str, Any]]:
    """Every (method, path, handler) of the app that may change something: each method but GET, HEAD and OPTIONS."""
    found = []
    for route in app.routes:
        if isinstance(route, HTTPRoute):
            for method, handler in route.route_handler_map.items():
                if method not in READS:
                    found.append((method, route.path, handler[0] if isinstance(handler, tuple) else handler))
    return sorted(found, key=lambda r: (r[1], r[0]))


def unguarded(app: Litestar) -> list[str]:
    """The state-changing routes that name no action of the matrix (the app refuses to start with any)."""
    return [
        f"{method} {path}" for method, path, handler in changing_routes(app) if handler.opt.get(ACTION) not in service.MATRIX
    ]
