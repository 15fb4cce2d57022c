"""Registration before the day in real headless Chromium at phone width (390 px) against a real server
(issue 26): a cap and a waitlist whose first gets the place a player gives up, and check-in by the player and by
the organiser, then the organiser's one action (T-96). Each page stays right through two refreshes after its
form (nothing is sent twice), and each is screenshot-checked."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.orm import Session

from tests.tournament.webkit import (
    HOSTILE_PERSON,
    ORGANISER_TOKEN,
    caught_up,
    codes,
    database,
    entries,
    join,
    looks_right,
    make_event,
    organiser_signs_in,
    refreshed_twice,
    reload,
    serving,
)
from tournament import service

pytestmark = pytest.mark.browser


def opened(db: str, cap: int, players: tuple[str, ...] = ()) -> None:
    make_event(db, players=players, pair=False)
    with database(db) as engine, Session(engine) as session, session.begin():
        service.set_registration(session, "ev", open=True, cap=cap)
        service.ensure_organiser(session, ORGANISER_TOKEN)


def registers(page: Any, base: str, name: str, button: str) -> None:
    page.goto(f"{base}/e/ev/register")
    page.fill("#register input[name=name]", name)
    page.click(f"#register button:text-is('{button}')")
    page.wait_for_url(f"{base}/e/ev/register?r=*")


def test_a_cap_and_a_waitlist_in_chromium(page: Any, second: Any, db: str, tmp_path: Path) -> None:
    opened(db, cap=1)
    with serving(db) as base:
        registers(page, base, "Ann Lee", "Register")
        assert page.locator("[role=status]").inner_text() == "Registered as Ann Lee: you have a place."
        assert page.locator("#code code").inner_text().count(".") == 1, "the code for another phone"
        looks_right(page, tmp_path / "registered.png")

        def kept() -> None:
            assert page.locator("[role=status]").inner_text() == "Registered as Ann Lee: you have a place."
            assert page.locator("#code").count() == 0, "the code is shown once"
            assert page.locator("#places").inner_text() == "1 of 1 places taken."

        refreshed_twice(page, kept)
        assert entries(db, "player_registered") == 1

        registers(second, base, HOSTILE_PERSON, "Join the waitlist")
        assert second.locator("[role=status]").inner_text().endswith("the event is full: you are number 1 on the waitlist.")
        second.click("#code >> text=see your page")
        assert "You are on the waitlist: number 1" in second.locator("#standing").inner_text()
        looks_right(second, tmp_path / "waiting.png")

        # the register page holds still only while it shows the code (a reload would lose it); once the code is
        # wiped it follows the event again: the other registration moved it
        caught_up(page, db)
        page.goto(f"{base}/me")
        page.click("#drop-link")
        assert "before round 1" in page.locator(".box").inner_text()
        page.click("button:has-text('Yes, drop me')")
        page.wait_for_url(f"{base}/me?r=*")
        assert page.locator("[role=status]").inner_text() == "You left the event before round 1."
        refreshed_twice(page, lambda: "You dropped before round 1" in page.locator("#standing").inner_text() or pytest.fail("dropped"))

        caught_up(second, db)  # the player's page, open all along, reloads itself after the drop and the promotion
        reload(second)
        assert second.locator("#standing").inner_text() == "You have a place: it came to you from the waitlist."
        refreshed_twice(second, lambda: second.locator("#checked-in, form[action='/me/checkin']").count() == 1 or pytest.fail("check-in"))
        looks_right(second, tmp_path / "promoted.png")
        assert (entries(db, "waitlist_joined"), entries(db, "waitlist_promoted"), entries(db, "player_dropped")) == (1, 1, 1)


def test_check_in_and_leaving_out_who_has_not_come_in_chromium(page: Any, second: Any, db: str, tmp_path: Path) -> None:
    opened(db, cap=2, players=("ann", "bob"))
    keys = codes(db)
    with database(db) as engine, Session(engine) as session, session.begin():
        assert service.sign_up(session, "ev", "Cat").position == 1
    with serving(db) as base:
        join(page, base, keys["ann"])
        page.click("form[action='/me/checkin'] button")
        page.wait_for_url(f"{base}/me?r=*")
        assert page.locator("[role=status]").inner_text() == "You are checked in."
        refreshed_twice(page, lambda: page.locator("#checked-in").count() == 1 or pytest.fail("checked in"))
        assert entries(db, "checked_in") == 1

        organiser_signs_in(second, base)
        second.goto(f"{base}/admin/e/ev")
        second.click("text=Registration and check-in")
        second.locator("#waitlist li", has_text="Cat").locator("button:has-text('Check in')").click()
        second.wait_for_url(f"{base}/admin/e/ev/registration?r=*")
        assert second.locator("[role=status]").inner_text() == "Cat is checked in"
        refreshed_twice(second, lambda: "checked in" in second.locator("#waitlist").inner_text() or pytest.fail("cat"))
        assert entries(db, "checked_in") == 2
        looks_right(second, tmp_path / "registration.png")

        second.click("#absent button")
        second.wait_for_url(f"{base}/admin/e/ev/registration?r=*")
        said = "left out of round 1 (not checked in): bob; from the waitlist: Cat"
        assert second.locator("[role=status]").inner_text() == said

        def after() -> None:
            assert second.locator("[role=status]").inner_text() == said
            assert second.locator("#players").inner_text().splitlines() == ["ann: checked in", "Cat: checked in"]
            assert second.locator("#waitlist").count() == 0

        refreshed_twice(second, after)
        assert (entries(db, "player_dropped"), entries(db, "waitlist_promoted")) == (1, 1)
        looks_right(second, tmp_path / "after-absent.png")
