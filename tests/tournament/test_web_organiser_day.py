"""A whole 16-player Swiss event with a top cut, run by the organiser in real Chromium with no CLI
command after `serve` (issue 26 item 1), on SQLite and PostgreSQL: create the event, register from a CSV
file and one by one, rename, pause and resume, a bye given and taken back, pair, start the clock, extend
a table, swap, take the round back and pair it again, every round's results typed at the keyboard (Tab,
Enter) with a correction, the top cut, the bracket, the end, and every download. Pages are left open
through two refreshes after forms; screenshots at 390 and 1366 px."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from tests.tournament.webkit import ORGANISER_TOKEN, database, reload, serving
from tournament import service
from tournament.service import verification
from tournament.storage.models import LogEntry

pytestmark = pytest.mark.browser


def _types(db: str) -> list[str]:
    with database(db) as engine, Session(engine) as session:
        return list(session.scalars(select(LogEntry.type).order_by(LogEntry.seq)))


def _said(page: Any) -> str:
    found = page.locator("[role=status], [role=alert]")
    return found.first.inner_text() if found.count() else ""


def _refresh_twice(page: Any, db: str) -> None:
    """A refresh of the page a form led to repeats nothing, and keeps saying what the form did."""
    before, said = _types(db), _said(page)
    for _ in range(2):
        reload(page)
        assert _said(page) == said
    assert _types(db) == before


def _submit(page: Any, button: Any) -> None:
    """Press a form's button and wait for the page its redirect leads to."""
    with page.expect_navigation():
        button.click()


def _form(page: Any, action: str) -> Any:
    return page.locator(f"form[action$='/{action}']")


def _type_round(page: Any, score: str = "1-0") -> int:
    """Every open table's score at the keyboard: the first box has the focus, Tab goes on, Enter sends them all."""
    boxes = page.locator("form.results input[name^='score.']")
    count = boxes.count()
    # the browser applies `autofocus` at a rendering step after the load, not at it
    page.wait_for_function("() => (document.activeElement.name || '').startsWith('score.')", timeout=10_000)
    assert page.evaluate("document.activeElement.name").startswith("score."), "the first open table has the focus"
    for n in range(count):
        page.keyboard.type(score)
        if n < count - 1:
            page.keyboard.press("Tab")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    return count


def _day(page: Any, db: str, tmp_path: Path, shots: Path) -> None:
    with database(db) as engine, Session(engine) as session, session.begin():
        service.ensure_organiser(session, ORGANISER_TOKEN)  # what `tournament serve` does on its first start
    with serving(db) as base:
        page.goto(f"{base}/admin")
        page.fill("#token", ORGANISER_TOKEN)
        page.click("button:has-text('Sign in')")
        new = page.locator("form[action='/admin/events']")
        new.locator("[name=id]").fill("cup")
        new.locator("[name=name]").fill("Saturday Cup")
        new.locator("[name=seed]").fill("11")
        new.locator("[name=rated]").check()
        page.screenshot(path=str(shots / f"new-event-{page.viewport_size['width']}.png"), full_page=True)
        _submit(page, new.locator("button"))
        assert _said(page).startswith("created cup: Swiss rounds")
        _refresh_twice(page, db)

        csv = tmp_path / "players.csv"
        csv.write_text("name,id\n" + "".join(f"Player {n:02d},p{n:02d}\n" for n in range(1, 13)), encoding="utf-8")
        upload = page.locator("form[action$='/register'][enctype='multipart/form-data']")
        upload.locator("input[type=file]").set_input_files(str(csv))
        _submit(page, upload.locator("button"))
        assert _said(page) == "registered 12 players"
        for name in ("Zoë Quinn", "Ana Lima", "Bo Chen", "Cy Maximiliana Wolfeschlegelsteinhausenbergerdorff"):
            one = page.locator("form[action$='/register']:not([enctype])")
            one.locator("[name=name]").fill(name)
            _submit(page, one.locator("button"))
            assert _said(page) == f"registered {name}"
        _refresh_twice(page, db)

        rename = _form(page, "rename")
        rename.locator("select").select_option("p01")
        rename.locator("[name=name]").fill("Ann Player")
        _submit(page, rename.locator("button"))
        assert _said(page) == "p01 is now shown as Ann Player"
        pause = _form(page, "pause")
        pause.locator("select").select_option("p02")
        _submit(page, pause.locator("button[value=yes]"))
        _form(page, "pause").locator("select").select_option("p02")
        _submit(page, _form(page, "pause").locator("button[value=no]"))
        assert "back" in _said(page)
        bye = _form(page, "bye")
        bye.locator("select").select_option("p03")
        bye.locator("[name=round]").fill("2")
        _submit(page, bye.locator("button:not([name])"))
        assert _said(page) == "p03: a bye in round 2"
        _form(page, "bye").locator("select").select_option("p03")
        _submit(page, _form(page, "bye").locator("button[name=cancel]"))
        assert "taken back" in _said(page)

        _submit(page, _form(page, "pair").locator("button"))
        assert _said(page) == "round 1 is paired"
        _submit(page, _form(page, "clock").locator("button"))
        assert "the clock runs 50 minutes" in _said(page)
        _form(page, "extend").locator("[name=reason]").fill("a judge call")
        _submit(page, _form(page, "extend").locator("button"))
        assert "5 more minutes" in _said(page)
        swap = _form(page, "swap")
        swap.locator("[name=a]").select_option("p04")
        swap.locator("[name=b]").select_option("p05")
        swap.locator("[name=reason]").fill("sat at each other's seats")
        _submit(page, swap.locator("button"))
        assert _said(page) == "swapped p04 and p05 in round 1"
        _form(page, "unpair").locator("[name=reason]").fill("a player arrived late")
        _submit(page, _form(page, "unpair").locator("button"))
        assert _said(page) == "round 1 is taken back; pair it again"
        _submit(page, _form(page, "pair").locator("button"))
        page.screenshot(path=str(shots / f"organiser-round-{page.viewport_size['width']}.png"), full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), "the organiser's page is wider than the window"

        with page.expect_download() as slips:
            page.click("a[href$='/files/slips.html']")
        assert "Saturday Cup" in Path(slips.value.path()).read_text()
        reload(page)  # the download's link took the focus; a page drawn afresh gives it to the first open table

        for number in (1, 2, 3):
            assert _type_round(page) == 8
            assert _said(page) == f"round {number}: 8 result(s) entered, 0 corrected; every table has a result"
            _refresh_twice(page, db)
            if number == 1:  # a misread slip, corrected in the same form with a reason; a typo refused
                page.fill("input[name='score.2']", "0-1")
                with page.expect_navigation():
                    page.keyboard.press("Enter")
                assert _said(page) == "reason: correcting table 2 needs a reason (kept in the log)"
                page.fill("input[name='score.2']", "x-1")
                page.fill("input[name=reason]", "the slip was misread")
                with page.expect_navigation():
                    page.keyboard.press("Enter")
                assert _said(page).startswith("table 2, field result: 'x-1' is not a score")
                page.fill("input[name='score.2']", "0-1")
                page.fill("input[name=reason]", "the slip was misread")
                with page.expect_navigation():
                    page.keyboard.press("Enter")
                assert _said(page) == "round 1: 0 result(s) entered, 1 corrected; every table has a result"
            if number < 3:
                _submit(page, _form(page, "pair").locator("button"))
        _form(page, "cut").locator("select").select_option("4")
        _submit(page, _form(page, "cut").locator("button"))
        assert _said(page).startswith("top 4: ")
        for tables in (2, 1):  # the semifinals, then the final
            _submit(page, _form(page, "pair").locator("button"))
            assert _type_round(page) == tables
        _submit(page, _form(page, "finish").locator("button"))
        assert _said(page) == "cup is finished after round 5"
        _refresh_twice(page, db)
        page.screenshot(path=str(shots / f"organiser-finished-{page.viewport_size['width']}.png"), full_page=True)

        got = {}
        for name in ("export.json", "standings.csv", "standings.json", "standings.html", "round.csv", "round.json", "round.html"):
            with page.expect_download() as download:
                page.click(f"a[href$='/files/{name}']")
            got[name] = Path(download.value.path()).read_text(encoding="utf-8")
        assert json.loads(got["export.json"])["event"]["id"] == "cup"
        assert len(json.loads(got["standings.json"])) == 16 and "Ann Player" in got["standings.csv"]
        assert json.loads(got["round.json"])["number"] == 5 and "<table" in got["round.html"]

        page.goto(f"{base}/e/cup/standings")
        assert "Ann Player" in page.content()
    types = _types(db)
    assert types.count("round_paired") == 6 and types.count("round_unpaired") == 1 and types[-1] == "event_finished"
    for wanted in ("player_renamed", "player_paused", "player_resumed", "bye_assigned", "round_started", "time_extended",
                   "players_swapped", "result_corrected", "bracket_seeded"):
        assert wanted in types, wanted
    with database(db) as engine, Session(engine) as session:
        assert verification.verify(session, "cup").ok


def _shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("HEADJUDGE_SCREENSHOTS") or tmp_path / "screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.mark.parametrize("width", [390, 1366])
def test_a_whole_event_from_the_browser_on_sqlite(browser: Any, tmp_path: Path, width: int) -> None:
    context = browser.new_context(viewport={"width": width, "height": 900}, accept_downloads=True)
    try:
        _day(context.new_page(), f"sqlite:///{tmp_path / 't.db'}", tmp_path, _shots(tmp_path))
    finally:
        context.close()


@pytest.mark.pg
def test_a_whole_event_from_the_browser_on_postgresql(browser: Any, tmp_path: Path, pg_url: str) -> None:
    context = browser.new_context(viewport={"width": 1366, "height": 900}, accept_downloads=True)
    try:
        _day(context.new_page(), pg_url, tmp_path, _shots(tmp_path))
    finally:
        context.close()
