"""Players help themselves, in real headless Chromium at phone width (390 px) against a real server (issue 26):
a judge call reaches the organiser's page and is answered; a drop takes a confirmation. Each page stays right
through two refreshes after its form (nothing is sent twice), and each is screenshot-checked."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.tournament.webkit import (
    HOSTILE_PERSON,
    caught_up,
    codes,
    entries,
    join,
    looks_right,
    make_event,
    organiser_signs_in,
    refreshed_twice,
    serving,
    tables,
)

pytestmark = pytest.mark.browser


def test_a_judge_call_reaches_the_organiser_who_answers_it(page: Any, second: Any, db: str, tmp_path: Path) -> None:
    make_event(db, display={"ann": HOSTILE_PERSON})
    keys = codes(db)
    (a, _b), _ = tables(db)
    with serving(db, poll_seconds=0.5) as base:
        organiser_signs_in(second, base)
        second.goto(f"{base}/admin/e/ev")  # open before the call: the call reaches it by itself
        assert second.locator("#open-calls").count() == 0
        join(page, base, keys[a])
        page.fill("#call input[name=text]", "my opponent's deck has 41 cards")
        page.click("button:has-text('Call a judge to table 1')")
        page.wait_for_url(f"{base}/me?r=*")
        assert page.locator("[role=status]").first.inner_text() == "A judge is called to table 1 (call 1)."

        def open_on_my_page() -> None:
            assert "is open: a judge is on the way" in page.locator("#my-call").inner_text()
            assert page.locator("#call").count() == 0, "no second call while one is open"

        refreshed_twice(page, open_on_my_page)
        assert entries(db, "judge_called") == 1
        looks_right(page, tmp_path / "me-call.png")

        second.wait_for_selector("#open-calls", timeout=15_000)  # the page's poll saw the log move and reloaded
        caught_up(second, db)  # and has done loading: nothing below meets it on its way out
        alert = second.locator("#open-calls")
        assert alert.get_attribute("role") == "alert"
        colours = alert.evaluate("e => [getComputedStyle(e).borderLeftColor, getComputedStyle(e).backgroundColor]")
        assert colours == ["rgb(220, 38, 38)", "rgb(254, 242, 242)"], "the alert is red (the stylesheet's --bad-line and --bad-wash)"
        assert "1 open judge call" in alert.inner_text() and "41 cards" in alert.inner_text()
        looks_right(second, tmp_path / "admin-call.png")
        alert.locator("button:has-text('Answered')").click()
        second.wait_for_url(f"{base}/admin/e/ev?r=*")
        assert second.locator("[role=status]").first.inner_text() == "call 1 (table 1) answered"
        refreshed_twice(second, lambda: second.locator("#open-calls").count() == 0 or pytest.fail("the call is answered"))
        assert entries(db, "call_answered") == 1
        second.click("text=Judge calls")
        assert "41 cards" in second.locator("main ul").last.inner_text()
        looks_right(second, tmp_path / "calls.png")

        # The player's page, open all along, learns by itself that the call is answered (T-125), and stays so.
        page.locator("#my-call").wait_for(state="detached", timeout=15_000)
        caught_up(page, db)  # the reload it made by itself is over before ours begin

        def answered_on_my_page() -> None:
            assert page.locator("#my-call").count() == 0 and page.locator("#call").count() == 1

        refreshed_twice(page, answered_on_my_page)


def test_a_player_drops_after_a_confirmation(page: Any, db: str, tmp_path: Path) -> None:
    make_event(db)
    keys = codes(db)
    (a, b), _ = tables(db)
    with serving(db) as base:
        join(page, base, keys[a])
        page.click("#drop-link")
        assert page.locator("h1").inner_text() == "Drop from the event?"
        assert "still needs its result" in page.locator(".box").inner_text()
        looks_right(page, tmp_path / "drop-confirm.png")
        page.click("text=No, back to my page")
        assert page.url == f"{base}/me" and entries(db, "player_dropped") == 0
        page.click("#drop-link")
        page.click("button:has-text('Yes, drop me')")
        page.wait_for_url(f"{base}/me?r=*")

        def dropped() -> None:
            assert page.locator("[role=status]").first.inner_text().startswith("You are dropped after round 1")
            assert "You dropped after round 1" in page.locator("#standing").inner_text()
            assert page.locator("#drop-link").count() == 0

        dropped()
        refreshed_twice(page, dropped)
        assert entries(db, "player_dropped") == 1
        rows = page.locator("#my-tables tbody tr").all_inner_texts()
        assert rows == [f"1\t1\tplaying against {b}"]
        looks_right(page, tmp_path / "me-dropped.png")
