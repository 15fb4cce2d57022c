"""Live pages (issue 26 item 6): an event's pages follow it over `/api/events/EVENT/live` (web/follow.py).

The stream is read with httpx (its headers, the head at once and at each change, a refused change telling
nobody, `Last-Event-ID`, its end after its lifetime); then in real Chromium a public pairings page and a
player's `/me` show a result reported elsewhere within seconds, with no poll (the fallback poll is never
asked), on SQLite and on PostgreSQL behind two workers where the change comes through another connection
(any worker) and from the CLI (another process's NOTIFY); and a page whose stream fails falls back to it.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from sqlalchemy.orm import Session

from tests.tournament.test_web_tables import Watchers, wait_for
from tests.tournament.tlib import cli
from tests.tournament.webkit import (
    ORGANISER_TOKEN,
    bearer,
    codes,
    database,
    head,
    make_event,
    reload,
    served_by_workers,
    serving,
    tables,
)
from tournament import service

LIVE = "/api/events/ev/live"
SOON = 5.0  # seconds a change may take to show on a page (a second's settling, the reload, a busy test machine)


@pytest.fixture
def watchers() -> Iterator[Watchers]:
    """Readers of live streams (test_web_tables.py's), closed at the end."""
    found = Watchers()
    yield found
    found.close()


def _event(db: str) -> None:
    """Four players, round 1 paired, and the organiser's token (as `serve`'s first start makes it)."""
    make_event(db)
    with database(db) as engine, Session(engine) as session, session.begin():
        service.ensure_organiser(session, ORGANISER_TOKEN)


def _organiser(http: httpx.Client) -> dict[str, str]:
    answer = http.post("/api/admin/login", json={"code": ORGANISER_TOKEN})
    assert answer.status_code == 201, answer.text
    return bearer(answer.json()["session"])


def _report(base: str, table: int, score: str, reason: str | None = None) -> None:
    """The organiser enters (or corrects) one table's result through the API, on a connection of its own (any
    worker may take it)."""
    with httpx.Client(base_url=base, timeout=20) as http:
        sent = {"scores": {str(table): score}, "reason": reason}
        made = http.post("/api/admin/events/ev/results", json=sent, headers=_organiser(http))
        assert made.status_code == 201, made.text


def _heads(events: list[dict[str, Any]]) -> list[int]:
    return [e["view"] for e in events]


def test_the_stream_sends_the_head_at_once_and_each_change_and_nothing_for_a_refused_one(tmp_path: Any, watchers: Watchers) -> None:
    db = f"sqlite:///{tmp_path / 'tournament.db'}"
    _event(db)
    start = head(db)
    with serving(db, watch_seconds=600) as base, httpx.Client(base_url=base, timeout=20) as http:  # only the message
        with http.stream("GET", LIVE) as answer:
            assert answer.status_code == 200
            kind, cache = answer.headers["content-type"], answer.headers["cache-control"]
            assert kind.startswith("text/event-stream") and cache == "no-store", (kind, cache)
            assert "frame-ancestors 'none'" in answer.headers["content-security-policy"]
            assert answer.headers["x-content-type-options"] == "nosniff"
        missing = http.get("/api/events/nope/live")
        assert missing.status_code == 404 and "nope" in missing.json()["error"]

        events = watchers.watch(f"{base}{LIVE}", {})
        resumed = watchers.watch(f"{base}{LIVE}", {}, str(start))  # a browser reconnecting that has the head
        wait_for(events, 1)
        assert _heads(events) == [start] and events[0]["id"] == str(start) and events[0]["event"] == "head"
        refused = http.post("/api/admin/events/ev/results", json={"scores": {"9": "1-0"}}, headers=_organiser(http))
        assert refused.status_code == 404
        sent = time.monotonic()
        _report(base, 1, "1-0")
        wait_for(events, 2)
        assert events[1]["at"] - sent < 1.0, "the change came late"
        wait_for(resumed, 1)
        assert _heads(events) == [start, start + 1], "the refused change told someone"
        assert _heads(resumed) == [start + 1], "a browser that had the head was sent it again"
        assert head(db) == start + 1


def test_a_stream_ends_by_itself_and_passes_on_a_change_another_process_made(tmp_path: Any, watchers: Watchers) -> None:
    db = f"sqlite:///{tmp_path / 'tournament.db'}"
    _event(db)
    start = head(db)
    with serving(db, keepalive_seconds=0.3, stream_seconds=3, watch_seconds=0.5) as base:
        events = watchers.watch(f"{base}{LIVE}", {})
        wait_for(events, 3)  # the head at once, then again while quiet
        assert set(_heads(events)) == {start}, events
        cli(db, "notice", "ev", "Lunch at one")  # as the CLI beside `serve` on SQLite: no message; the worker's read finds it
        deadline = time.monotonic() + 5
        while start + 1 not in _heads(events) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert start + 1 in _heads(events), "the worker's read did not pass the change on"
        reader = watchers.threads[-1]
        reader.join(timeout=10)
        assert not reader.is_alive(), "the stream did not end by itself"
        assert _heads(events)[-1] == start + 1 == head(db), events


def _watch_page(page: Any, url: str, polls: list[str]) -> list[str]:
    """Open `url`, keeping in `polls` the fallback poll's requests (none while the stream is up)."""
    page.on("request", lambda r: polls.append(r.url) if r.url.endswith("/version") else None)
    page.goto(url)
    return polls


def _shows(page: Any, seq: int, text: str) -> None:
    """The page reloads itself at head `seq` within SOON seconds of the change, and then shows `text`."""
    page.wait_for_selector(f"body[data-seq='{seq}']", state="attached", timeout=SOON * 1000)
    assert text in page.locator("main").inner_text()


def _follow_changes(db: str, base: str, page: Any, second: Any, change: Iterator[tuple[int, str]]) -> None:
    """A public pairings page and a player's /me follow each change `change` makes, through two refreshes."""
    keys = codes(db)
    (a, _b), _ = tables(db)
    polls = _watch_page(page, f"{base}/e/ev", [])
    second.goto(f"{base}/join#code={keys[a]}")
    second.wait_for_url(f"{base}/me")
    _watch_page(second, f"{base}/me", polls)
    for _ in range(2):  # pages left open through two refreshes still follow the event
        reload(page)
        reload(second)
    for table, shown in change:
        seq = head(db)
        _shows(page, seq, shown)
        if table == 1:
            _shows(second, seq, shown)
    assert polls == [], "the pages asked the poll: the stream did not deliver"


def test_pages_show_a_result_within_seconds_without_polling(tmp_path: Any, page: Any, second: Any) -> None:
    db = f"sqlite:///{tmp_path / 'tournament.db'}"
    _event(db)
    with serving(db, poll_seconds=600, watch_seconds=600) as base:  # neither the poll nor the worker's read: the message

        def change() -> Iterator[tuple[int, str]]:
            _report(base, 1, "1-0")
            yield 1, "1-0"
            _report(base, 2, "0-0")
            yield 2, "ID"
            _report(base, 1, "0-1", "wrong slip")
            yield 1, "0-1"

        _follow_changes(db, base, page, second, change())


@pytest.mark.pg
def test_pages_behind_two_workers_follow_changes_made_through_another(pg_url: str, page: Any, second: Any) -> None:
    _event(pg_url)
    with served_by_workers(pg_url, 2) as base:

        def change() -> Iterator[tuple[int, str]]:
            _report(base, 1, "1-0")
            yield 1, "1-0"
            cli(pg_url, "report", "ev", "--table", "2", "0-0")  # another process: its NOTIFY reaches both workers
            yield 2, "ID"

        _follow_changes(pg_url, base, page, second, change())


def test_a_page_whose_stream_fails_falls_back_to_the_poll(tmp_path: Any, page: Any) -> None:
    db = f"sqlite:///{tmp_path / 'tournament.db'}"
    _event(db)
    with serving(db, poll_seconds=0.5) as base:
        page.route("**/live", lambda route: route.abort())
        polls = _watch_page(page, f"{base}/e/ev", [])
        _report(base, 1, "1-0")
        _shows(page, head(db), "1-0")
        assert polls, "the page never polled"
