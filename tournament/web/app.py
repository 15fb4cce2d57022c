"""The ASGI app: `create_app(db_url)` builds one Litestar app over one database.

The app owns its engine and its sessions: every request that changes an event
is one transaction around one service call (as one CLI command is), and a
refused request writes nothing. Handlers are sync and run in Litestar's
thread pool, since the service and the referee are sync code.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
from collections import Counter
from contextlib import nullcontext
from typing import Any

from litestar import Litestar, MediaType, Request, Response
from litestar.config.csrf import CSRFConfig
from litestar.exceptions import ClientException, HTTPException, ValidationException
from litestar.exceptions.http_exceptions import RequestEntityTooLarge
from litestar.openapi.config import OpenAPIConfig
from litestar.openapi.plugins import JsonRenderPlugin
from litestar.plugins.jinja import JinjaTemplateEngine
from litestar.response import Template
from litestar.template.config import TemplateConfig
from sqlalchemy import Engine
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError
from sqlalchemy.orm import Session

from schemas.web import ErrorBody
from tournament import service
from tournament.output import pages, render
from tournament.storage.db import first_line, make_engine, open_database
from tournament.web import (
    api,
    appealpages,
    assets,
    cards,
    decks,
    desk,
    downloads,
    feeds,
    follow,
    guard,
    headers,
    live,
    messages,
    organiser,
    pace,
    passkeys,
    people,
    peopleadmin,
    players,
    public,
    receipts,
    registration,
    running,
    screen,
    seasons,
    sharedpages,
    staffpages,
    tablepages,
    tables,
)
from tournament.web.common import Database, answers_json, status_of
from tournament.web.views import referee_error

MAX_UPLOAD = 2 * 1024 * 1024  # bytes a request may carry: game logs are a few kilobytes
POLL_SECONDS = 15  # how often a page whose live stream is down asks whether its event changed (T-126)


class BodyRequest(Request[Any, Any, Any]):
    """A request whose JSON body, if it cannot be read, is the client's error in one line (400), never the server's:
    msgspec refuses nesting deeper than Python's recursion allows with a RecursionError, which would be a 500
    and a traceback in the log on every JSON route, the anonymous ones included (issue 33)."""

    async def json(self) -> Any:
        try:
            return await super().json()
        except RecursionError:  # msgspec's other refusals are already a 400 with its one line (SerializationException)
            raise ClientException("the request's JSON is nested too deep to read") from None


def _refusal(request: Request[Any, Any, Any], status: int, message: str, code: int | None) -> Response[Any]:
    """A refused request: a JSON `ErrorBody` to a client that asks for JSON (T-130), else the error page."""
    if answers_json(request):
        return Response(ErrorBody(status, message, code), status_code=status, media_type=MediaType.JSON)
    return Template(
        template_name="web/error.html.j2", context={"status": status, "message": message, "event": None, "version": None}, status_code=status,
    )


def _service_error(request: Request[Any, Any, Any], exc: service.TournamentError) -> Response[Any]:
    if answers_json(request) and isinstance(exc, service.LogRejected):
        body = ErrorBody(status_of(exc), exc.message, exc.code, referee_error(exc))
        return Response(body, status_code=status_of(exc), media_type=MediaType.JSON)
    return _refusal(request, status_of(exc), exc.message, exc.code)


def _too_large(request: Request[Any, Any, Any], _exc: RequestEntityTooLarge) -> Response[Any]:
    limit = MAX_UPLOAD // 1024
    return _refusal(request, 413, f"the upload is larger than the limit of {limit} KiB; a game log is far smaller", None)


def _http_error(request: Request[Any, Any, Any], exc: HTTPException) -> Response[Any]:
    """Litestar's refusal; a request that fails validation is named by its field and why (msgspec's words), in
    words a player may read on a page (Litestar's own line names the method and the path)."""
    problems = exc.extra if isinstance(exc, ValidationException) and isinstance(exc.extra, list) else []
    where = [f"{p.get('key')}: {p['message']}" for p in problems if isinstance(p, dict) and "message" in p]
    message = f"the request could not be read: {'; '.join(where)}" if where else str(exc.detail)
    return _refusal(request, exc.status_code, message, None)


def _unexpected(request: Request[Any, Any, Any], exc: Exception) -> Response[Any]:
    """A bug: logged with its traceback on the server, one plain line for the client."""
    logging.getLogger("tournament.web").error("%s %s failed", request.method, request.url.path, exc_info=exc)
    return _refusal(request, 500, "the server failed on this request; the organiser can see why in its log", None)


def _database_error(request: Request[Any, Any, Any], exc: Exception) -> Response[Any]:
    if isinstance(exc, IntegrityError):  # lost a race, e.g. two first starts creating one secret
        return _refusal(request, 409, f"the change conflicts with one made at the same time: {first_line(exc)}", 7)
    return _refusal(request, 503, f"database error: {first_line(exc)}", service.EXIT_DATABASE)


def create_app(db_url: str | None = None, *, csrf_secret: str | None = None, send: bool = False) -> Litestar:
    """The app over the database at `db_url` (as `--db`; migrated on first use).

    `csrf_secret` signs the CSRF cookies; every worker of one deployment needs
    the same one, so `tournament serve` keeps it in the database. `send`: run
    a sender of the players' messages in this process (service/sender.py).
    """
    _load_lazy_modules()
    url, db_engine = open_database(db_url)
    secret = csrf_secret or os.environ.get("TOURNAMENT_CSRF_SECRET") or _stored_secret(db_engine)
    if make_url(url).get_backend_name() == "sqlite":
        reader = make_engine(url, writer=False)
        db = Database(db_engine, reader, reader, threading.Lock(), one_writer=True)
    else:  # PostgreSQL: writers queue on the event's row (SELECT ... FOR UPDATE), across workers. Reads take no
        # transaction (each statement reads what is committed, as READ COMMITTED's would): no BEGIN, no ROLLBACK;
        # a live table's view is one snapshot (T-139)
        snapshot = db_engine.execution_options(isolation_level="REPEATABLE READ", postgresql_readonly=True)
        db = Database(db_engine, db_engine.execution_options(isolation_level="AUTOCOMMIT"), snapshot, nullcontext(), one_writer=False)

    hub = live.Hub(url)  # live messages: web/live.py
    sending = messages.InProcess(url) if send else None
    heads = follow.Heads()  # the heads no message announced (web/follow.py)
    environment = pages.environment()
    environment.globals["static"] = assets.url
    environment.globals["words"] = render.score_words  # a result in words, with names
    environment.globals["clock"] = render.clock_text  # a time as the venue reads it (HH:MM, the event's zone)
    environment.globals["zone"] = render.zone_name
    environment.globals["result"] = render.result_text  # "2-1", "ID": a table's result in a column
    environment.globals["ranked"] = render.ranked  # a pod's places, best first
    environment.globals["passkeys_here"] = passkeys.here  # whether the page may offer passkeys (a secure context)
    environment.globals["passkeys_held"] = passkeys.holds  # whether the reader may keep passkeys (a person, staff)
    app = Litestar(
        route_handlers=[
            *public.HANDLERS, *api.HANDLERS, *players.HANDLERS, *organiser.HANDLERS, *people.HANDLERS, *peopleadmin.HANDLERS, *cards.HANDLERS, *desk.HANDLERS,
            *decks.HANDLERS, *registration.HANDLERS, *screen.HANDLERS, *tables.HANDLERS, *tablepages.HANDLERS, *follow.HANDLERS,
            *running.HANDLERS, *downloads.HANDLERS, *seasons.HANDLERS, *staffpages.HANDLERS, *appealpages.HANDLERS, *passkeys.HANDLERS,
            *messages.HANDLERS, assets.router(),
        ],
        template_config=TemplateConfig(
            engine=JinjaTemplateEngine.from_environment(environment),
            engine_callback=lambda engine: engine.register_template_callable("form_key", receipts.form_key),
        ),
        before_send=[headers.secure],
        # The JSON routes opt out of the CSRF check (`exclude_from_csrf`): they read no cookie. Never by a path's text.
        csrf_config=CSRFConfig(secret=secret, cookie_httponly=True, cookie_samesite="strict"),
        openapi_config=OpenAPIConfig(
            title="headjudge tournament", version="1", path="/api/schema", render_plugins=[JsonRenderPlugin()],
            description="The public event data (the CLI's --json Structs), players' reports and the organiser's actions.",
        ),
        exception_handlers={
            service.TournamentError: _service_error,
            RequestEntityTooLarge: _too_large,
            HTTPException: _http_error,
            OperationalError: _database_error,
            DBAPIError: _database_error,
            Exception: _unexpected,
        },
        guards=[guard.guard],  # the permission matrix, for every route that names its action (web/guard.py)
        request_max_body_size=MAX_UPLOAD,
        request_class=BodyRequest,
        on_startup=[hub.start, *([sending.start] if sending else [])],
        on_shutdown=[*([sending.stop] if sending else []), db.dispose, hub.close, heads.close],
        logging_config=None,
    )
    forgotten = guard.unguarded(app)
    if forgotten:  # a route that changes something names what it does, or the server does not start (T-175)
        raise RuntimeError(f"routes that name no action of the permission matrix: {', '.join(forgotten)}")
    app.asgi_handler = headers.AnswersHead(app.asgi_handler)
    app.state.database = db
    app.state.live = hub
    app.state.poll_seconds = POLL_SECONDS
    app.state.keepalive_seconds = follow.KEEPALIVE_SECONDS  # the pages' live stream (web/follow.py)
    app.state.stream_seconds = follow.STREAM_SECONDS
    app.state.heads = heads
    app.state.pace = pace.Pace()  # a seat's appends at a live table (T-145)
    app.state.pages = sharedpages.Kept()  # the public pages drawn for readers without a session (web/sharedpages.py)
    app.state.feeds = {}  # channel -> what its watchers on this worker share (web/feeds.py)
    app.state.streams = Counter()  # address -> live streams it holds on this worker
    app.state.streams_per_address = int(os.environ.get("TOURNAMENT_STREAMS_PER_ADDRESS") or feeds.STREAMS_PER_ADDRESS)
    app.state.watch_seconds = follow.WATCH_SECONDS
    messages.app_state(app.state, db_engine)
    # where phones reach this server: `serve` says (TOURNAMENT_PUBLIC_URL), else what `serve --public-url` stored
    app.state.public_url = os.environ.get("TOURNAMENT_PUBLIC_URL") or _stored_public_url(db_engine)
    return app


def _load_lazy_modules() -> None:
    """Load now, in one thread, the modules the command line left to load on first use (`tournament.cli.common.lazy`).

    Python 3.11's LazyLoader is not thread-safe: while one request's thread runs such a module, the others
    find it half-made (`module 'tournament.service.export' has no attribute 'round_info'`: 500s on a cold start).
    """
    for name, module in list(sys.modules.items()):
        if name.startswith("tournament."):
            _ = module.__name__  # a lazy module runs at its first attribute; a loaded one is left as it is


def _stored_public_url(db_engine: Engine) -> str | None:
    with Session(db_engine) as session:
        return service.public_url(session)


def _stored_secret(db_engine: Engine) -> str:
    with Session(db_engine) as session, session.begin():
        return service.server_secret(session, "csrf")


def from_environment() -> Litestar:
    """The factory uvicorn's workers call (`tournament serve` passes the database in TOURNAMENT_DB)."""
    return create_app(os.environ.get("TOURNAMENT_DB"), send=os.environ.get("TOURNAMENT_SEND") == "1")
