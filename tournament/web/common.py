"""What every route module shares: the database sessions, the JSON-or-page test, HTTP statuses."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from typing import Any

from litestar import MediaType, Request, post
from sqlalchemy import Engine
from sqlalchemy.orm import Session

from tournament import service
from tournament.storage import announce, eventlog

# HTTP status for each service refusal (the CLI's exit code goes in the body too).
STATUS = {
    service.EXIT_USAGE: 400,
    service.EXIT_NOT_FOUND: 404,
    service.EXIT_RESULTS_MISSING: 409,
    service.EXIT_WRONG_TABLE: 422,
    service.EXIT_LOG_REJECTED: 422,
    service.EXIT_CONFLICT: 409,
    service.EXIT_DATABASE: 503,
}


@dataclass(frozen=True)
class Database:
    """The app's engines. SQLite: reads go through an engine whose transactions take no lock, and writers
    queue on `lock` in this process (one worker) instead of in SQLite's busy wait, which sleeps and retries;
    with `one_writer`, work that needs no write is done before joining that queue. `snapshot` reads as one
    snapshot of the database (T-139): SQLite's reading transaction already is one; on PostgreSQL, whose
    `reader` takes no transaction (each statement sees what is committed when it runs), a REPEATABLE READ one."""

    engine: Engine
    reader: Engine
    snapshot: Engine
    lock: AbstractContextManager[Any]
    one_writer: bool

    def dispose(self) -> None:
        self.engine.dispose()
        self.reader.dispose()


def database(request: Request[Any, Any, Any]) -> Database:
    return request.app.state.database


@contextmanager
def reading(request: Request[Any, Any, Any]) -> Iterator[Session]:
    """A session for reading only."""
    with Session(database(request).reader) as session:
        yield session


@contextmanager
def viewing(request: Request[Any, Any, Any]) -> Iterator[Session]:
    """A session for reading what must hang together (a live table's head and its records): one snapshot."""
    with Session(database(request).snapshot) as session:
        yield session


@contextmanager
def writing(request: Request[Any, Any, Any]) -> Iterator[Session]:
    """One session and one transaction: committed when the block succeeds, else rolled back. Its log entries name
    who the request is signed in as (`actor`, which `auth.identity` keeps); a request of nobody's appends nothing."""
    db = database(request)
    # the event log's appends are announced to this worker's live pages after the commit (SQLite; storage/announce.py)
    info = {announce.LOCAL: request.app.state.live.hand_over, eventlog.ACTOR: actor(request)}
    with db.lock, Session(db.engine, info=info) as session, session.begin():
        yield session


def actor(request: Request[Any, Any, Any]) -> eventlog.Actor:
    """Who the request is signed in as, for the event log (`auth.identity` found them); NOBODY before that."""
    found: eventlog.Actor = request.state.get(eventlog.ACTOR, eventlog.NOBODY)
    return found


def keep_actor(request: Request[Any, Any, Any], who: service.Identity) -> None:
    request.state[eventlog.ACTOR] = who.actor


def json_post(path: str, **kwargs: Any) -> post:
    """A JSON route that changes something. It is left out of the CSRF check by route (never by the path's
    text): it takes the session only from `Authorization: Bearer`, which no other site's form can send."""
    return post(path, exclude_from_csrf=True, **kwargs)


def wants_json(request: Request[Any, Any, Any]) -> bool:
    """An API request: its session is the Bearer header (web/auth.py), its refusals JSON."""
    return request.url.path.startswith("/api/")


def answers_json(request: Request[Any, Any, Any]) -> bool:
    """Whether a refusal is the JSON `ErrorBody` (T-130): under /api, and for a client that prefers JSON to a
    page (`Accept: application/json`, as a page's script asks); a browser opening a page asks for HTML."""
    return wants_json(request) or request.accept.best_match([MediaType.HTML, MediaType.JSON], MediaType.HTML) == MediaType.JSON


def status_of(exc: service.TournamentError) -> int:
    """The HTTP status of a refusal: its own (`status`: 401 for a wrong secret, 429 for too many), else its exit code's."""
    return getattr(exc, "status", None) or STATUS.get(exc.code, 400)


def public_url(request: Request[Any, Any, Any]) -> str:
    """Where phones reach this server, for the links and QR codes it hands out (web/addresses.py): the address
    `serve` found or was given, else the one this request came to."""
    return request.app.state.public_url or str(request.base_url)


def whole_number(form: Any, name: str, default: int | None = None) -> int:
    """A form field as a whole number (`default` when empty); Usage names the field otherwise."""
    text = str(form.get(name) or "").strip()
    if not text and default is not None:
        return default
    if not (text.isascii() and text.isdigit()) or len(text) > 9:  # str.isdigit alone takes "²", which int() refuses
        raise service.Usage(f"{name}: write a whole number, not {text!r}")
    return int(text)


def whole_numbers(form: Any, prefix: str) -> dict[str, int]:
    """Form fields `PREFIX.PLAYER` as {player: whole number} (a result's games, a pod's places)."""
    return {key.partition(".")[2]: whole_number(form, key) for key in form if key.startswith(prefix + ".")}
