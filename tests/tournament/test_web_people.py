"""People across events on the web: `/people`, `/people/ID`, `/ratings` and their `/api/...` twins."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import msgspec
import pytest
from sqlalchemy.orm import Session

from schemas.tournament import PersonMatch
from tests.tournament.webkit import HOSTILE_PERSON, client, database, reload, serving
from tournament import service
from tournament.output import people as people_text


def two_rated_events(db_url: str) -> None:
    """`spring` and `summer`, both rated, with the same four people: at each table the first player wins 2-0,
    but a table where cat plays in spring is drawn 1-1-1."""
    with database(db_url) as engine, Session(engine) as session, session.begin():
        for event in ("spring", "summer"):
            service.create_event(
                session, event, name=event.title() + " Open", ruleset="cardwars", profile="mtg", best_of=3, seed=1, rated=True,
            )
        people = [
            service.Person("Ann Lee", "ann", external_id="FED-1"), service.Person(HOSTILE_PERSON, "bob"),
            service.Person("Cat", "cat"), service.Person("Dan", "dan"),
        ]
        service.register_people(session, "spring", people)
        service.register_people(session, "summer", [service.Person("", person=p) for p in ("ann", "bob", "cat", "dan")])
        for event in ("spring", "summer"):
            service.pair(session, event)
            for m in service.matches(session, event, 1):
                drawn = event == "spring" and "cat" in (m.player_a, m.player_b)
                games = {m.player_a: 1, m.player_b: 1} if drawn else {m.player_a: 2, m.player_b: 0}
                service.report(session, event, m.number, result=service.Tally(games, 1 if drawn else 0))


def test_the_people_api(db_url: str) -> None:
    two_rated_events(db_url)
    with client(db_url) as c:
        people = c.get("/api/people").json()
        assert [p["name"] for p in people] == ["Ann Lee", "Cat", "Dan", HOSTILE_PERSON]  # by the letters: "img src x..."
        assert {p["external_id"] for p in people} == {None}  # the organiser's, not the public's
        ann = c.get("/api/people/ann").json()
        assert [e["event"] for e in ann["events"]] == ["spring", "summer"] and ann["external_id"] is None
        assert len(ann["matches"]) == 2 and {m["outcome"] for m in ann["matches"]} <= {"win", "loss", "draw"}
        board = c.get("/api/ratings", params={"system": "glicko2"}).json()
        assert {r["person"] for r in board} >= {"ann", "bob", "cat"} and [r["rank"] for r in board] == list(range(1, len(board) + 1))
        assert c.get("/api/ratings", params={"ruleset": "maginot"}).json() == []
        refused = c.get("/api/ratings", params={"system": "elo"})
        assert refused.status_code == 400 and refused.json()["exit_code"] == service.EXIT_USAGE
        missing = c.get("/api/people/nobody")
        assert missing.status_code == 404 and "unknown person 'nobody'" in missing.json()["error"]


@pytest.mark.browser
def test_the_leaderboard_and_a_person_page_in_chromium(page: Any, tmp_path: Path) -> None:
    from PIL import Image, ImageStat

    db = f"sqlite:///{tmp_path / 'tournament.db'}"
    two_rated_events(db)
    with client(db) as c:
        ann = c.get("/api/people/ann").json()
    with serving(db) as base:
        page.goto(base + "/")
        page.click("nav >> text=Ratings")
        caption = page.locator("caption").first.inner_text()
        assert caption == "cardwars, two players a table (Glicko-2)"
        rows = page.locator("tbody tr").all_inner_texts()
        assert rows[0].split()[0] == "1" and "±" in rows[0]
        page.click("text=Ann Lee")
        assert page.locator("h1").inner_text() == "Ann Lee"
        tables = page.locator("table").nth(2).locator("tbody tr").all_inner_texts()
        for row, (event, match) in zip(tables, zip(("Spring Open", "Summer Open"), ann["matches"], strict=True), strict=True):
            words = people_text.match_text(msgspec.convert(match, PersonMatch))
            assert row.split("\t") == [f"{event}, round 1", f"{words} against {match['opponent_names'][0]}"]
            assert words in ("won 2-0", "lost 0-2", "drew 1-1-1")
        assert "FED-1" not in page.content()
        for _ in range(2):  # the page stays right through two refreshes
            reload(page)
            assert page.locator("h1").inner_text() == "Ann Lee"
        for path in ("/people", "/ratings", "/people/bob"):
            page.goto(base + path)
            assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), f"{path} is wider than the phone"
            assert page.evaluate("window.__injected === undefined"), "no script ran from a name"
        assert page.locator("h1").inner_text() == HOSTILE_PERSON
        page.click("text=Spring Open")
        assert page.url.endswith("/e/spring/standings")
        for path, name in (("/people/ann", "person.png"), ("/ratings", "ratings.png"), ("/people", "people.png")):
            page.goto(base + path)
            shot = tmp_path / name  # one file a page, kept to be looked at
            page.screenshot(path=str(shot), full_page=True)
            image = Image.open(io.BytesIO(shot.read_bytes())).convert("L")
            assert image.width == 390 and max(ImageStat.Stat(image).stddev) > 20, f"{path} is blank or not phone-wide"


VENUE = "venue.test"  # a name, not localhost: Chromium treats plain HTTP there as not a secure context


@pytest.fixture
def venue_phone(browser: Any) -> Any:
    """A phone-sized page in a Chromium of its own (launched by the session's Playwright) that resolves `venue.test`
    to 127.0.0.1, as a venue's address (a LAN name or IP) reached over plain HTTP."""
    from tests.conftest import CHROMIUM_ARGS, chromium_path

    venue = browser.browser_type.launch(
        executable_path=chromium_path(), args=[*CHROMIUM_ARGS, f"--host-resolver-rules=MAP {VENUE} 127.0.0.1"], headless=True,
    )
    try:
        yield venue.new_context(viewport={"width": 390, "height": 844}).new_page()
    finally:
        venue.close()


def _play(db_url: str, event: str, *, pair: bool = True) -> None:
    """Pair round 1 (unless it is) and report every table (the first player wins 2-0)."""
    with database(db_url) as engine, Session(engine) as session, session.begin():
        if pair:
            service.pair(session, event)
        for m in service.matches(session, event, 1):
            service.report(session, event, m.number, result=service.Tally({m.player_a: 2, m.player_b: 0}, 0))


@pytest.mark.browser
def test_a_person_plays_two_events_with_a_player_card_at_a_venue(venue_phone: Any, page: Any, tmp_path: Path) -> None:
    from tests.tournament.webkit import ORGANISER_TOKEN, looks_right, organiser_signs_in, serving

    db = f"sqlite:///{tmp_path / 'tournament.db'}"
    with database(db) as engine, Session(engine) as session, session.begin():
        service.ensure_organiser(session, ORGANISER_TOKEN)
        for event, name in (("spring", "Spring Open"), ("summer", "Summer Open")):
            service.create_event(session, event, name=name, ruleset="cardwars", profile="mtg", best_of=3, seed=1, rated=True)
        service.register_people(session, "spring", [service.Person(n) for n in ("Zoë Ångström", "Ann Lee", "Bob", "Cat")])
        service.set_registration(session, "summer", open=True)
        service.register_people(session, "summer", [service.Person("", person=p) for p in ("bob", "cat")])
        card = service.new_card(session, "zoe-angstrom")
    _play(db, "spring")
    with serving(db) as base:
        venue = base.replace("127.0.0.1", VENUE)
        phone = venue_phone
        phone.goto(f"{venue}/card#code={card}")  # the card's QR link
        phone.wait_for_url(f"{venue}/me")
        assert phone.evaluate("window.isSecureContext") is False, "plain HTTP at a venue's address"
        assert phone.locator("h1").inner_text() == "Zoë Ångström"
        assert phone.locator("#my-events").inner_text().count("Spring Open") == 1
        phone.click("#register-summer")  # one tap
        assert "You are registered for Summer Open" in phone.locator("[role=status]").inner_text()
        assert phone.locator("#register-summer").count() == 0
        # Ann comes back and registers by name on the public form: a new person, flagged to the organiser
        page.goto(f"{base}/e/summer/register")
        page.fill("input[name=name]", "ann lee")
        page.click("#register button[type=submit]")
        page.wait_for_selector("#code")
        organiser = page.context.browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        organiser_signs_in(organiser, base)
        organiser.goto(f"{base}/admin/e/summer/registration")
        flagged = organiser.locator("#namesakes")
        assert "ann lee may be Ann Lee (Spring Open)" in flagged.inner_text()
        looks_right(organiser, tmp_path / "people-namesake.png")
        flagged.locator("button", has_text="Link ann lee").click()
        assert "is Ann Lee now" in organiser.locator("[role=status]").first.inner_text()
        assert organiser.locator("#namesakes").count() == 0
        with database(db) as engine, Session(engine) as session:
            players = {p.name: p.person for p in service.players(session, "summer")}
            assert players == {"zoe-angstrom": "zoe-angstrom", "bob": "bob", "cat": "cat", "ann-lee": "ann-lee"}
        with database(db) as engine, Session(engine) as session, session.begin():
            service.pair(session, "summer")
            table = next(m.number for m in service.matches(session, "summer", 1) if "zoe-angstrom" in (m.player_a, m.player_b))
        phone.reload()
        assert f"Summer Open, round 1: table {table}" in " ".join(phone.locator("#now-summer").inner_text().split())
        looks_right(phone, tmp_path / "people-now.png")
        _play(db, "summer", pair=False)
        phone.reload()
        assert phone.locator("#now-summer").count() == 0, "played: no table now"
        history = phone.locator("#rating-history tbody tr").all_inner_texts()
        assert [row.split("\t")[0] for row in history] == ["Spring Open", "Summer Open"]
        assert phone.locator("#rating-chart circle").count() == 2
        looks_right(phone, tmp_path / "people-me.png")
        phone.goto(f"{venue}/me/card")
        looks_right(phone, tmp_path / "people-card.png")
        organiser.close()
