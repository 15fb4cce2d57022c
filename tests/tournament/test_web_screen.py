"""The big screen (`/e/EVENT/screen`, issue 26 item 2), its JSON twin and the organiser's notice line.

The API tests run on SQLite and PostgreSQL; the browser tests put 64 players on a 1920x1080 and a
1280x720 window in real Chromium and check there is nothing to scroll and every player is shown on
some page of the columns, which turn by themselves.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from tests.tournament.tlib import cli, cli_json
from tests.tournament.webkit import (
    caught_up,
    client,
    codes,
    database,
    make_event,
    organiser,
    organiser_page,
    serving,
)
from tournament import service
from tournament.service import verification
from tournament.storage.models import LogEntry

PLAYERS = [f"player{n:02d}" for n in range(1, 65)]


def _entries(db: str) -> int:
    with database(db) as engine, Session(engine) as session:
        return session.scalar(select(func.count()).select_from(LogEntry)) or 0


def _report_all(db: str) -> None:
    with database(db) as engine, Session(engine) as session, session.begin():
        for table in service.open_tables(session, "ev"):
            match = service.find_match(session, service.get_event(session, "ev"), table, 1)
            service.report(session, "ev", table, result=service.Tally({match.player_a: 1, match.player_b: 0}))


def test_the_screen_shows_players_then_pairings_by_name_then_standings(db_url: str) -> None:
    make_event(db_url, ["ann", "bob", "cat", "dan", "eve"], pair=False, display={"ann": "Ann Émile", "bob": "Bob"})
    with client(db_url) as c:
        before = c.get("/api/events/ev/screen").json()
        assert before["showing"] == "players" and before["round"] == 0
        assert [s["name"] for s in before["seats"]] == ["Ann Émile", "Bob", "cat", "dan", "eve"]
        assert before["link"].endswith("/e/ev")
        with database(db_url) as engine, Session(engine) as session, session.begin():
            service.pair(session, "ev")
            service.start_round(session, "ev", 40)
        during = c.get("/api/events/ev/screen").json()
        assert during["showing"] == "pairings" and during["ends_at"] is not None and during["standings"] == []
        seats = {s["name"]: s for s in during["seats"]}
        assert sorted(seats) == sorted(["Ann Émile", "Bob", "cat", "dan", "eve"])  # everyone once, the bye too
        assert sum(1 for s in seats.values() if s["table"] is None and not s["opponents"]) == 1
        for name, seat in seats.items():  # each opponent sits at the same table and names this player back
            for other in seat["opponents"]:
                assert seats[other]["table"] == seat["table"] and seats[other]["opponents"] == [name]
        _report_all(db_url)
        after = c.get("/api/events/ev/screen").json()
        assert after["showing"] == "standings" and after["seats"] == [] and after["ends_at"] is None
        assert [row["rank"] for row in after["standings"]] == sorted(row["rank"] for row in after["standings"])
        assert len(after["standings"]) == 5
        page = c.get("/e/ev/screen")  # no sign-in
        assert page.status_code == 200 and "Standings after round 1" in page.text and "log head" in page.text


def test_the_notice_is_logged_shown_and_taken_down(db_url: str) -> None:
    make_event(db_url)
    codes(db_url)
    with client(db_url) as c:
        admin = organiser(c)
        before = _entries(db_url)
        answer = c.post("/api/admin/events/ev/notice", json={"text": "  Lunch at 13:00 <b>sharp</b>  "}, headers=admin)
        assert answer.status_code == 201 and answer.json() == {"text": "Lunch at 13:00 <b>sharp</b>"}
        assert _entries(db_url) == before + 1
        assert c.get("/api/events/ev/screen").json()["notice"] == "Lunch at 13:00 <b>sharp</b>"
        assert "Lunch at 13:00 &lt;b&gt;sharp&lt;/b&gt;" in c.get("/e/ev/screen").text  # escaped, never markup
        again = c.post("/api/admin/events/ev/notice", json={"text": "Lunch at 13:00 <b>sharp</b>"}, headers=admin)
        assert again.status_code == 201 and _entries(db_url) == before + 1  # the same line writes nothing
        gone = c.post("/api/admin/events/ev/notice", json={"text": ""}, headers=admin)
        assert gone.json() == {"text": ""} and c.get("/api/events/ev/screen").json()["notice"] is None
    with database(db_url) as engine, Session(engine) as session:
        assert verification.verify(session, "ev").ok  # the replayed log sets and clears the notice as the tables did


@pytest.mark.parametrize(
    ("text", "message"),
    [("x" * 201, "notice: at most 200 characters, not 201"), ("two\nlines", "notice: one line, without control characters")],
)
def test_a_bad_notice_is_refused_with_the_clis_message_and_writes_nothing(db_url: str, text: str, message: str) -> None:
    make_event(db_url)
    codes(db_url)
    with client(db_url) as c:
        admin = organiser(c)
        before = _entries(db_url)
        answer = c.post("/api/admin/events/ev/notice", json={"text": text}, headers=admin)
        assert answer.status_code == 400 and answer.json()["error"] == message and answer.json()["exit_code"] == 2
        assert c.post("/api/admin/events/ev/notice", json={"text": "hi"}).status_code == 401  # no session
        assert _entries(db_url) == before
    assert message in cli(db_url, "notice", "ev", text, code=2).stderr


def test_the_notice_from_the_command_line(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 't.db'}"
    make_event(db)
    assert cli_json(db, "notice", "ev", "Top 8 at 17:00") == {"event": "ev", "notice": "Top 8 at 17:00"}
    assert "shows no notice" in cli(db, "notice", "ev", "").stdout


def test_the_organisers_notice_form_redirects_with_a_receipt(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 't.db'}"
    make_event(db)
    codes(db)
    with client(db) as c:
        token = organiser_page(c)
        form = c.get("/admin/e/ev").text
        key = re.search(r'action="/admin/e/ev/notice".*?name="_key" value="([^"]+)"', form, re.S)
        assert key, "the organiser's page has the notice form"
        data = {"text": "Round 2 starts at 11:30", "_key": key.group(1), "_csrf_token": token}
        answer = c.post("/admin/e/ev/notice", data=data, follow_redirects=False)
        assert answer.status_code == 303 and answer.headers["location"] == f"/admin/e/ev?r={key.group(1)}"
        assert "the big screen shows: Round 2 starts at 11:30" in c.get(answer.headers["location"]).text
        entries = _entries(db)
        assert c.post("/admin/e/ev/notice", data=data, follow_redirects=False).status_code == 303  # a resend
        assert _entries(db) == entries


@pytest.mark.parametrize("seconds", ["2", "121", "x"])
def test_the_page_time_has_a_range(tmp_path: Path, seconds: str) -> None:
    db = f"sqlite:///{tmp_path / 't.db'}"
    make_event(db)
    with client(db) as c:
        assert c.get(f"/e/ev/screen?seconds={seconds}").status_code == 400
        assert c.get("/e/nope/screen").status_code == 404


# In Chromium -------------------------------------------------------------------------------------------

LONG = "Maximiliana Wolfeschlegelsteinhausenbergerdorff-Oberhausen"


def _sixty_four(db: str) -> None:
    shown = {p: f"{LONG} {p[-2:]}" if p.endswith("7") else f"Player Number {p[-2:]}" for p in PLAYERS}
    make_event(db, PLAYERS, display=shown)
    with database(db) as engine, Session(engine) as session, session.begin():
        service.start_round(session, "ev", 50)
        service.set_notice(session, "ev", "Decklists are due at the judge station before round 2")


def _shots(tmp_path: Path) -> Path:
    """Where the screenshots go, to be looked at: HEADJUDGE_SCREENSHOTS, else the test's folder."""
    folder = Path(os.environ.get("HEADJUDGE_SCREENSHOTS") or tmp_path / "screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _pages(page: Any) -> tuple[set[str], int]:
    """Every name the screen shows, page after page, checking each page fits the window."""
    seen: set[str] = set()
    width, height = page.viewport_size["width"], page.viewport_size["height"]
    pages = 1
    for _ in range(8):
        sizes = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
        assert sizes[0] <= width and sizes[1] <= height, f"scroll bars at {width}x{height}: {sizes}"
        boxes = page.evaluate(
            "Array.from(document.querySelectorAll('.screen-list li:not([hidden])'))"
            ".map(li => { const r = li.getBoundingClientRect(); return [li.querySelector('.screen-name').textContent, r.left, r.top, r.right, r.bottom]; })"
        )
        assert boxes, "a page of the list shows nobody"
        for name, left, top, right, bottom in boxes:
            assert left >= 0 and right <= width and top >= 0 and bottom <= height, f"{name} is cut off at {width}x{height}"
        seen |= {b[0] for b in boxes}
        counter = page.locator("#screen-page").inner_text()
        if counter:
            pages = int(counter.rsplit(" ", 1)[1])
        if len(seen) == len(PLAYERS):
            break
        first = boxes[0][0]
        page.wait_for_function(
            "first => document.querySelector('.screen-list li:not([hidden]) .screen-name').textContent !== first", arg=first,
            timeout=10_000,
        )
    return seen, pages


@pytest.mark.browser
@pytest.mark.parametrize(("width", "height"), [(1920, 1080), (1280, 720)])
def test_sixty_four_players_fit_the_screen_and_page_by_themselves(browser: Any, tmp_path: Path, width: int, height: int) -> None:
    db = f"sqlite:///{tmp_path / 't.db'}"
    _sixty_four(db)
    context = browser.new_context(viewport={"width": width, "height": height})
    try:
        page = context.new_page()
        with serving(db) as base:
            page.goto(f"{base}/e/ev/screen?seconds=3")
            assert re.fullmatch(r"\d{1,2}:\d\d", page.locator(".screen-time").inner_text()), "the clock counts down in minutes"
            assert page.locator(".screen-qr svg rect").count() > 50
            assert "Decklists are due" in page.locator(".screen-notice").inner_text()
            page.screenshot(path=str(_shots(tmp_path) / f"screen-{width}x{height}.png"))
            seen, pages = _pages(page)
            assert len(seen) == len(PLAYERS) and pages >= 2, (len(seen), pages)
            font = page.evaluate("parseFloat(getComputedStyle(document.querySelector('.screen-name')).fontSize)")
            assert font >= height / 40, f"names are {font}px high on a {height}-line screen: too small across a room"
    finally:
        context.close()


@pytest.mark.browser
def test_the_screen_follows_the_event_through_two_refreshes(browser: Any, tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 't.db'}"
    _sixty_four(db)
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    try:
        page = context.new_page()
        with serving(db, poll_seconds=0.5) as base:
            page.goto(f"{base}/e/ev/screen")
            for n, text in enumerate(["Round 2 at 11:30", "Round 2 at 11:45"]):
                with database(db) as engine, Session(engine) as session, session.begin():
                    service.set_notice(session, "ev", text)
                # the screen reloads itself (T-125): read it once drawn afresh, not on its way out nor half drawn
                caught_up(page, db)
                page.wait_for_function("t => document.querySelector('.screen-notice').textContent === t", arg=text, timeout=10_000)
                assert page.evaluate("document.documentElement.scrollHeight") <= 720, n
            _report_all(db)
            caught_up(page, db)
            assert "Standings after round 1" in page.locator(".screen-what").inner_text()
            page.screenshot(path=str(_shots(tmp_path) / "screen-standings-1280x720.png"))
    finally:
        context.close()
