"""Staff and appeals in Chromium on a phone-sized page (issue 35): the organiser names a judge and a head judge,
each signs in on their own phone from the QR code's link, a judge's ruling is appealed from the player's phone,
and the head judge decides it from the queue page."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.tournament.webkit import (
    caught_up,
    codes,
    join,
    looks_right,
    make_event,
    organiser_signs_in,
    serving,
    tables,
)

pytestmark = pytest.mark.browser


def name_staff(page: Any, base: str, name: str, role: str) -> str:
    """Name a staff member on the staff page: the sign-in link its QR code carries."""
    page.goto(f"{base}/admin/staff")
    page.fill('input[name="name"]', name)
    page.select_option('select[name="role"]', role)
    page.click("button:has-text('Name and make a sign-in code')")
    link = re.search(r"http\S+/join#code=\S+", page.locator("#staff-code").inner_text())
    assert link and page.locator("#staff-code svg").count() == 1
    return link.group(0)


def test_staff_sign_in_from_their_qr_and_an_appeal_reaches_the_head_judge(page: Any, second: Any, db: str, tmp_path: Path) -> None:
    make_event(db, ["ann", "bob"])
    slip = codes(db)
    (a, b), = tables(db)
    with serving(db) as base:
        organiser_signs_in(page, base)
        judge_link = name_staff(page, base, "Jo Judge", "judge")
        looks_right(page, tmp_path / "staff.png")
        head_link = name_staff(page, base, "Hal Head", "head-judge")
        page.context.clear_cookies()

        page.goto(judge_link)  # the judge's phone opens the QR's link: signed in, on the organiser's pages
        page.wait_for_url(f"{base}/admin")
        assert "Signed in as staff: judge" in page.content()
        join(second, base, slip[a])
        second.fill(f'input[name="games.{a}"]', "1")
        second.fill(f'input[name="games.{b}"]', "0")
        second.click("button:text-is('Report')")
        page.goto(f"{base}/admin/e/ev")
        page.fill("#table-1 form:has(input[name='accept']) input[name='reason']", "I watched the last turn")
        page.click("#table-1 button:has-text('Accept')")
        assert "table 1: ruled" in page.locator("[role=status]").inner_text()

        second.context.clear_cookies()
        join(second, base, slip[b])  # the player who lost appeals from their phone
        second.click("#rulings summary")
        second.fill("#rulings textarea", "my opponent drew an extra card")
        second.click("#rulings button:has-text('Appeal')")
        assert "with the head judge" in second.locator("[role=status]").inner_text()
        looks_right(second, tmp_path / "appealed.png")

        page.context.clear_cookies()
        page.goto(head_link)
        page.wait_for_url(f"{base}/admin")
        page.goto(f"{base}/admin/e/ev/appeals")
        queue = page.locator("main").inner_text()
        assert "Jo Judge (judge) ruled on the table" in queue and "my opponent drew an extra card" in queue
        looks_right(page, tmp_path / "appeals.png")
        page.fill("form:has(input[name='uphold']) input[name='reason']", "the judge saw it")
        page.click("button:has-text('Uphold the ruling')")
        assert "upheld" in page.locator("[role=status]").inner_text()
        caught_up(second, db)  # the player's page follows the event: it reloads itself with the decision
        assert "The head judge upheld it" in second.locator("#my-appeals").inner_text()
