"""`tournament serve` in a real headless Chromium, against a real uvicorn server on 127.0.0.1 (SQLite).

The scenarios of issue 12: a player finds their seat; two players report and
confirm; a disagreement reaches the judge queue and the organiser settles it;
the organiser pairs the next round and the standings show it; an illegal log
upload shows the rule. A screenshot of a page with long and hostile names is
checked: not blank, nothing wider than the phone's screen.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

from tests.tournament.webkit import (
    HOSTILE,
    HOSTILE_PERSON,
    caught_up,
    codes,
    join,
    looks_right,
    make_event,
    organiser_signs_in,
    refreshed_twice,
    serving,
    tables,
)

pytestmark = pytest.mark.browser
FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "cardwars"


def report(page: Any, games: dict[str, int]) -> None:
    for player, won in games.items():
        page.fill(f'input[name="games.{player}"]', str(won))
    page.click("button:text-is('Report')")


def test_a_player_finds_their_seat(page: Any, db: str) -> None:
    make_event(db, ["ann", "bob", "cat", "dan", "eve"])
    (_a, _b), (c, d) = tables(db)
    with serving(db) as base:
        page.goto(f"{base}/e/ev")
        page.fill("#q", c[:2].upper())
        page.click("button:has-text('Find')")
        seat = page.locator(".seat").first.inner_text()
        assert seat.startswith(c) and "table 2" in seat and f"against {d}" in seat


def test_two_players_report_and_confirm(page: Any, second: Any, db: str) -> None:
    make_event(db)
    keys = codes(db)
    (a, b), _ = tables(db)
    with serving(db) as base:
        join(page, base, keys[a])
        report(page, {a: 1, b: 0})
        assert "must confirm" in page.locator("[role=status]").inner_text()
        join(second, base, keys[b])
        second.click(f"button:has-text('Yes, {a} wins 1-0')")
        assert "everyone at the table agrees" in second.locator("[role=status]").inner_text()
        caught_up(page, db)  # the reporter's page reloads itself after the confirmation
        page.goto(f"{base}/e/ev")
        first_row = page.locator("tbody tr").first.inner_text()
        assert "1-0" in first_row and "players" not in first_row, "the result, not where it came from"


def test_a_disagreement_reaches_the_judge_queue_and_the_organiser_settles_it(page: Any, second: Any, db: str) -> None:
    make_event(db)
    keys = codes(db)
    (a, b), _ = tables(db)
    with serving(db) as base:
        join(page, base, keys[a])
        report(page, {a: 1, b: 0})
        join(second, base, keys[b])
        assert second.locator("form[action='/me/result']").count() == 0, "no competing score to type"
        second.click("summary:has-text(\"That's not right\")")
        second.fill("textarea[name=text]", "I won: my opponent conceded")
        second.click("button:has-text('Call a judge')")
        assert "A judge is called to table 1" in second.locator("[role=status]").first.inner_text()
        assert second.locator("[role=alert]").count() == 0
        boss = page.context.browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        organiser_signs_in(boss, base)
        boss.click("text=Spring Open")
        calls = boss.locator("#open-calls").inner_text()
        assert f"Not right: {a} says {a} wins 1-0. I won: my opponent conceded" in calls
        queue = boss.locator("#table-1")
        assert f"{a} wins 1-0" in queue.inner_text()
        accept = queue.locator("form", has_text=f"Accept: {a} wins 1-0")
        accept.locator("input[name=reason]").fill("the slip says so")
        accept.locator("button").click()
        assert "ruled (the slip says so)" in boss.locator("[role=status]").inner_text()
        boss.context.close()


def test_the_organiser_pairs_the_next_round_and_the_standings_show_it(page: Any, db: str) -> None:
    make_event(db)
    codes(db)
    (a, _b), (_c, d) = tables(db)
    with serving(db) as base:
        organiser_signs_in(page, base)
        page.goto(f"{base}/admin/e/ev")
        for table, winner in ((1, a), (2, d)):
            form = page.locator(f"#table-{table} form", has_text="Enter this result")
            for p in ((a, _b) if table == 1 else (_c, d)):
                form.locator(f'input[name="games.{p}"]').fill("1" if p == winner else "0")
            form.locator("input[name=reason]").fill("paper slip")
            form.locator("button").click()
        page.click("button:has-text('Pair round 2')")
        assert "round 2 is paired" in page.locator("[role=status]").inner_text()
        page.goto(f"{base}/e/ev/standings")
        assert "provisional, round 2 in play" in page.locator("h1").inner_text()  # round 2 has no result yet
        rows = page.locator("tbody tr").all_inner_texts()
        assert {rows[0].split()[1], rows[1].split()[1]} == {a, d} and rows[0].split()[2] == "3"


def test_an_illegal_log_upload_shows_the_rule(page: Any, db: str) -> None:
    make_event(db, ["ann", "bob"])
    keys = codes(db)
    with serving(db) as base:
        join(page, base, keys["ann"])
        page.set_input_files("form[action='/me/logs'] input[type=file]", str(FIXTURES / "illegal-cw4.5-underpaid.jsonl"))
        page.click("text=Upload and check")
        verdict = page.locator("[role=alert]").inner_text()
        assert "CW-4.5" in verdict and "JS costs 11, but the payment is worth only 10" in verdict and "7 (line 8" in verdict


LONG = ["Maximiliana-Alexandra-von-Habsburg-Lothringen-Wittelsbach-Parma", "bob", "cat", "dan"]


def test_a_page_renders_on_a_phone_without_overflow(page: Any, db: str, tmp_path: Path) -> None:
    from PIL import Image, ImageStat

    make_event(db, LONG, name=HOSTILE + " " + "Grand Prix " * 8, display={"bob": HOSTILE_PERSON})
    with serving(db) as base:
        for path in ("/e/ev/standings", "/e/ev?by=name", "/e/ev?q=maxi"):
            page.goto(base + path)
            assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), f"{path} is wider than the phone"
            assert page.evaluate("window.__injected === undefined"), "no script ran from a name"
        shot = tmp_path / "standings.png"
        page.goto(base + "/e/ev/standings")
        page.screenshot(path=str(shot), full_page=True)
        image = Image.open(io.BytesIO(shot.read_bytes())).convert("L")
        assert max(ImageStat.Stat(image).stddev) > 20, "the page is blank"
        assert page.locator("td.name", has_text=LONG[0]).count() == 1


def test_a_signed_in_player_finds_their_own_row_in_the_standings(page: Any, db: str, tmp_path: Path) -> None:
    """Issue 22: on a phone the signed-in player's own row of the public standings is marked (bold, on the accent
    wash), and only theirs, through two refreshes."""
    make_event(db, ["ann", "bob", "cat", "dan"], display={"cat": "Hiroshi Tanaka"})
    keys = codes(db)
    with serving(db) as base:
        join(page, base, keys["cat"])
        page.goto(f"{base}/e/ev/standings")

        def marked() -> None:
            mine = page.locator("tbody tr.mine")
            assert mine.count() == 1 and "Hiroshi Tanaka" in mine.inner_text()
            looks = "r => { const s = getComputedStyle(r.querySelector('td')); return [s.backgroundColor, s.fontWeight]; }"
            others = {tuple(page.locator("tbody tr:not(.mine)").nth(n).evaluate(looks)) for n in range(3)}
            background, weight = mine.evaluate(looks)
            assert weight == "700" and all(background != theirs[0] and theirs[1] != "700" for theirs in others), (background, others)
            assert mine.is_visible()

        marked()
        refreshed_twice(page, marked)
        looks_right(page, tmp_path / "standings-mine.png")
