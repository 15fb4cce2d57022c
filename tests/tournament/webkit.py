"""Helpers for the web tests: an event built through the service, a Litestar test client over it, a real server,
and what the Chromium tests do on every page (sign in, refresh, look)."""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from litestar.testing import TestClient
from sqlalchemy import Engine, MetaData, func, select
from sqlalchemy.orm import Session

from tournament import service
from tournament.storage.db import open_database
from tournament.storage.models import LogEntry
from tournament.web import create_app, serverlog

# An event name may carry anything; a display name anything but control and format characters.
HOSTILE = '<script>window.__injected=1</script> \u202eevil O\'Brien\u200b "quoted"'
HOSTILE_PERSON = '<img src=x onerror="window.__injected=1"> "O\'Brien" שלום & co'


@contextmanager
def database(db_url: str) -> Iterator[Engine]:
    _url, engine = open_database(db_url)
    try:
        yield engine
    finally:
        engine.dispose()


def make_event(
    db_url: str, players: Sequence[str] = ("ann", "bob", "cat", "dan"), *, event: str = "ev", name: str = "Spring Open",
    format: str = "swiss", table_size: int | None = None, ruleset: str = "cardwars", best_of: int = 1, pair: bool = True,
    display: dict[str, str] | None = None, tables: str = "off",
) -> None:
    """An event with its players (ids; `display` gives some a display name) and, with `pair`, round 1 paired;
    `tables`: its live tables (`create --tables`)."""
    with database(db_url) as engine, Session(engine) as session, session.begin():
        service.create_event(
            session, event, name=name, ruleset=ruleset, profile="mtg", best_of=best_of, seed=7, format=format,
            table_size=table_size, tables=tables,
        )
        shown = display or {}
        service.register_people(session, event, [service.Person(shown.get(p, p), p) for p in players])
        if pair:
            service.pair(session, event)


@contextmanager
def client(db_url: str) -> Iterator[TestClient]:  # type: ignore[type-arg]
    with TestClient(app=create_app(db_url)) as test_client:
        yield test_client


ORGANISER_TOKEN = "organiser-token-for-tests-0123456789"


def codes(db_url: str, event: str = "ev") -> dict[str, str]:
    """A one-time sign-in code for every player of the event, and the organiser token set."""
    with database(db_url) as engine, Session(engine) as session, session.begin():
        service.ensure_organiser(session, ORGANISER_TOKEN)
        return {p.name: service.issue_code(session, event, p.name) for p in service.players(session, event)}


def everything(db_url: str) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, in order: the event log and the tables, the credentials and the receipts (a
    refused request must leave all of them as they were)."""
    with database(db_url) as engine, Session(engine) as session:
        meta = MetaData()
        meta.reflect(engine)
        return {name: sorted(map(tuple, session.execute(select(table))), key=repr) for name, table in meta.tables.items()}


def tables(db_url: str, event: str = "ev") -> list[list[str]]:
    """The current round's tables (players in seat order)."""
    with database(db_url) as engine, Session(engine) as session:
        return [t.players for t in service.current_tables(session, service.get_event(session, event))]


def bearer(session: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {session}"}


def sign_in(c: TestClient, code: str) -> dict[str, str]:  # type: ignore[type-arg]
    """Spend a code through the API: the Bearer header for the session."""
    answer = c.post("/api/join", json={"code": code})
    assert answer.status_code == 201, answer.text
    return bearer(answer.json()["session"])


def organiser(c: TestClient) -> dict[str, str]:  # type: ignore[type-arg]
    answer = c.post("/api/admin/login", json={"code": ORGANISER_TOKEN})
    assert answer.status_code == 201, answer.text
    return bearer(answer.json()["session"])


def csrf(page: str) -> str:
    """The CSRF token a page's forms carry."""
    found = re.search(r'name="_csrf_token" value="([^"]+)"', page)
    assert found, "the form carries a CSRF token"
    return found.group(1)


def organiser_page(c: Any) -> str:
    """Sign the test client in as the organiser through the page form: the CSRF token for its forms."""
    token = csrf(c.get("/admin").text)
    signed_in = c.post("/admin/login", data={"token": ORGANISER_TOKEN, "_csrf_token": token})
    assert signed_in.status_code == 200 and "Organiser" in signed_in.text
    return token


def player_page(c: Any, code: str) -> str:
    """Sign the test client in as a player through the page form (`/join`): the CSRF token for its forms."""
    token = csrf(c.get("/join").text)
    c.post("/join", data={"code": code, "_csrf_token": token})
    return token


def entries(db_url: str, kind: str, event: str = "ev") -> int:
    """How many entries of one type the event's log has."""
    with database(db_url) as engine, Session(engine) as session:
        return session.scalar(select(func.count()).select_from(LogEntry).filter_by(event_id=event, type=kind)) or 0


# In Chromium (a Playwright page) ---------------------------------------------------------------------


def join(page: Any, base: str, code: str) -> None:
    """Open the slip's link (code after `#`): the page signs in by itself and lands on the player's page."""
    page.goto(f"{base}/join#code={code}")
    page.wait_for_url(f"{base}/me")


def organiser_signs_in(page: Any, base: str) -> None:
    page.goto(f"{base}/admin")
    page.fill("#token", ORGANISER_TOKEN)
    page.click("button:has-text('Sign in')")


def looks_right(page: Any, shot: Path) -> None:
    """Nothing wider than the phone, no script from a name ran, and the screenshot is not blank."""
    from PIL import Image, ImageStat

    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), f"{page.url} is wider than the phone"
    assert page.evaluate("window.__injected === undefined"), "no script ran from a name"
    page.screenshot(path=str(shot), full_page=True)
    image = Image.open(io.BytesIO(shot.read_bytes())).convert("L")
    assert image.width == 390 and max(ImageStat.Stat(image).stddev) > 20, f"{shot.name} is blank"


def _through_own_reload(page: Any, act: Callable[[], Any], cut_short: str) -> Any:
    """`act()` on a live page that may be reloading itself just then (T-125: the event moved). The reload cuts the
    act short (Playwright's error names `cut_short`); the reader sees the page drawn afresh all the same: wait for
    it to load and act again (twice at most)."""
    from playwright.sync_api import Error

    for _attempt in range(2):
        try:
            return act()
        except Error as error:
            if cut_short not in str(error):
                raise
            page.wait_for_load_state("load")
    return act()


def reload(page: Any) -> None:
    """Refresh the page as its reader would (through a reload of its own: ERR_ABORTED)."""
    _through_own_reload(page, page.reload, "ERR_ABORTED")


def evaluate(page: Any, expression: str) -> Any:
    """`page.evaluate(expression)` on the page as drawn now (through a reload of its own: the old page's script gone)."""
    return _through_own_reload(page, lambda: page.evaluate(expression), "Execution context was destroyed")


def head(db_url: str, event: str = "ev") -> int:
    """How many entries the event log has (its head's seq)."""
    with database(db_url) as engine, Session(engine) as session:
        return session.scalar(select(func.count()).select_from(LogEntry).where(LogEntry.event_id == event)) or 0


def caught_up(page: Any, db_url: str, event: str = "ev") -> None:
    """Wait until a live page open on `event` (T-125) shows the event as it stands: after a change made elsewhere
    (another browser, the service, the CLI) it reloads itself, and a click or a read made meanwhile would meet
    the page on its way out."""
    page.wait_for_selector(f"body[data-seq='{head(db_url, event)}']", state="attached", timeout=15_000)
    page.wait_for_load_state("load")


def refreshed_twice(page: Any, check: Callable[[], Any]) -> None:
    """The page left open through two refreshes stays right (`check` after each)."""
    for _ in range(2):
        reload(page)
        check()


@contextmanager
def serving(db_url: str, *, poll_seconds: float | None = None, **state: float) -> Iterator[str]:
    """A real uvicorn server on 127.0.0.1 (a free port) in a thread: its base URL, stopped afterwards.
    `poll_seconds`: how often its pages ask whether the event changed while their live stream is down (a test
    waits through refreshes); `state`: other settings of the app (`keepalive_seconds`, `stream_seconds`)."""
    import socket
    import threading
    import time

    import uvicorn

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = int(sock.getsockname()[1])
    app = create_app(db_url)
    if poll_seconds is not None:
        app.state.poll_seconds = poll_seconds
    for name, value in state.items():
        setattr(app.state, name, value)
    # pages still open hold their live stream: cut them at the end rather than wait for them (every browser test
    # has some: half a second, not `serve`'s five, test_web_serve.py tries those)
    server = uvicorn.Server(uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="warning", log_config=serverlog.log_config(), timeout_graceful_shutdown=0.5))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=15)


@contextmanager
def served_by_workers(db_url: str, workers: int) -> Iterator[str]:
    """`tournament serve --workers N` as an organiser starts it (PostgreSQL), on 127.0.0.1: its base URL, then stopped."""
    import os
    import socket
    import subprocess
    import sys
    import time

    import httpx

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = int(sock.getsockname()[1])
    env = dict(os.environ, TOURNAMENT_ADMIN_TOKEN=ORGANISER_TOKEN)
    command = [sys.executable, "-m", "tournament", "serve", "--db", db_url, "--port", str(port), "--workers", str(workers)]
    server = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert server.poll() is None, server.stderr.read().decode() if server.stderr else "the server stopped"
            assert time.monotonic() < deadline, "the server did not answer within 60 s"
            try:
                if httpx.get(f"{base}/api/events", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
        yield base
    finally:
        server.terminate()
        server.wait(timeout=30)
