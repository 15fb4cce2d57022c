"""Player cards (T-181, T-182): a person's own sign-in that outlives an event, and its attackers."""

from __future__ import annotations

import re

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from tests.tournament.webkit import (
    ORGANISER_TOKEN,
    bearer,
    client,
    codes,
    csrf,
    database,
    make_event,
    organiser_page,
    player_page,
)
from tournament import service
from tournament.service import tokens
from tournament.storage.models import Credential, FailedGuess


def card_for(db_url: str, person: str) -> str:
    with database(db_url) as engine, Session(engine) as session, session.begin():
        return service.new_card(session, person)


def card_page(c: object, card: str) -> str:
    """Sign the test client in with a card through the page form: the CSRF token of the page it lands on."""
    token = csrf(c.get("/card").text)  # type: ignore[attr-defined]
    answer = c.post("/card", data={"code": card, "_csrf_token": token})  # type: ignore[attr-defined]
    assert answer.status_code == 200, answer.text
    return csrf(answer.text)


def test_a_card_signs_its_person_in_as_a_person_on_the_page_and_the_api(db_url: str) -> None:
    make_event(db_url, pair=False)
    card = card_for(db_url, "ann")
    with client(db_url) as c:
        joined = c.post("/api/card", json={"code": card})
        assert joined.status_code == 201 and joined.json()["role"] == "person" and joined.json()["person"] == "ann"
        mine = c.get("/api/me/person", headers=bearer(joined.json()["session"]))
        assert mine.status_code == 200 and mine.json()["id"] == "ann" and [e["event"] for e in mine.json()["events"]] == ["ev"]
        again = c.post("/api/card", json={"code": card})  # a card is kept, not spent: every phone of its person
        assert again.status_code == 201 and again.json()["session"] != joined.json()["session"]
    with client(db_url) as c:
        card_page(c, card)
        page = c.get("/me")
        assert page.status_code == 200 and "<h1>ann</h1>" in page.text and "Spring Open" in page.text
    with database(db_url) as engine, Session(engine) as session:
        who = service.identify(session, joined.json()["session"])
        assert who == service.Identity("person", None, None, "ann")


def test_a_wrong_card_is_a_counted_guess_and_too_many_lock_it(db_url: str) -> None:
    make_event(db_url, pair=False)
    card = card_for(db_url, "ann")
    selector = card.partition(".")[0]
    with client(db_url) as c:
        for _ in range(tokens.CODE_LIMIT):
            wrong = c.post("/api/card", json={"code": f"{selector}.{'x' * 32}"})
            assert wrong.status_code == 401 and "not valid" in wrong.json()["error"]
        locked = c.post("/api/card", json={"code": card})  # the right card too, once its selector was guessed at
        assert locked.status_code == 429 and "locked" in locked.json()["error"]
        made_up = c.post("/api/card", json={"code": "nobody.nothing"})
        assert made_up.status_code == 401
    with database(db_url) as engine, Session(engine) as session:
        assert session.scalar(select(func.count()).select_from(FailedGuess).where(FailedGuess.client == f"code {selector}")) == tokens.CODE_LIMIT
        assert session.scalar(select(func.count()).select_from(Credential).filter_by(kind="person_session")) == 0


def test_a_renewed_card_ends_the_old_card_and_every_session_it_opened(db_url: str) -> None:
    make_event(db_url, pair=False)
    old = card_for(db_url, "ann")
    with client(db_url) as c:
        phone = c.post("/api/card", json={"code": old}).json()["session"]
        token = card_page(c, old)
        renewed = c.post("/me/card", data={"_csrf_token": token})  # the person renews it from their page
        assert renewed.status_code == 200 and "Your new player card" in renewed.text
        new = re.search(r'<code class="card-code">([^<]+)</code>', renewed.text)
        assert new is not None and new.group(1) != old
        assert c.get("/me").status_code == 200 and "<h1>ann</h1>" in c.get("/me").text, "this phone is signed in again"
        assert c.get("/api/me/person", headers=bearer(phone)).status_code == 401, "the other phone's session ended"
        assert c.post("/api/card", json={"code": old}).status_code == 401, "the old card is refused"
        assert c.post("/api/card", json={"code": new.group(1)}).status_code == 201
        assert "card-code" not in c.get(renewed.url).text, "a card is shown once"


def test_a_replayed_card_form_gives_no_second_session(db_url: str) -> None:
    make_event(db_url, pair=False)
    card = card_for(db_url, "ann")
    with client(db_url) as c:
        token = csrf(c.get("/card").text)
        first = c.post("/card", data={"code": card, "_csrf_token": token, "_key": "k" * 22}, follow_redirects=False)
        assert first.status_code == 303 and "hj_session=" in first.headers.get("set-cookie", "")
    with client(db_url) as thief:  # the same request sent again (a captured form): its answer carried a session, given once
        token = csrf(thief.get("/card").text)
        replay = thief.post("/card", data={"code": card, "_csrf_token": token, "_key": "k" * 22}, follow_redirects=False)
        assert replay.status_code == 303 and "hj_session=" not in replay.headers.get("set-cookie", "")


def test_a_slip_code_makes_the_first_card_but_never_a_second(db_url: str) -> None:
    make_event(db_url, pair=False)
    slips = codes(db_url)
    with client(db_url) as c:
        token = player_page(c, slips["ann"])
        made = c.post("/me/card", data={"_csrf_token": token})
        assert made.status_code == 200 and 'class="card-code"' in made.text and "<svg" in made.text
        again = c.post("/me/card", data={"_csrf_token": token})
        assert "you have a player card already" in again.text and 'class="card-code"' not in again.text


def test_the_organiser_prints_a_card_from_the_persons_page(db_url: str) -> None:
    make_event(db_url, pair=False)
    with client(db_url) as c:
        codes(db_url)
        token = organiser_page(c)
        printed = c.post("/admin/people/bob/card", data={"_csrf_token": token})
        assert printed.status_code == 200 and "A new player card for bob" in printed.text
        card = re.search(r'<code class="card-code">([^<]+)</code>', printed.text)
        assert card is not None and c.post("/api/card", json={"code": card.group(1)}).json()["person"] == "bob"
    with client(db_url) as c:
        assert c.get("/admin/people/bob/card").status_code == 401
    assert ORGANISER_TOKEN


def test_every_new_form_refuses_a_request_without_its_csrf_token(db_url: str) -> None:
    make_event(db_url, pair=False)
    card = card_for(db_url, "ann")
    with client(db_url) as c:
        codes(db_url)
        organiser_page(c)
        card_page(c, card)
        for path in ("/card", "/me/card", "/me/register/ev", "/me/claim", "/admin/people/bob/card"):
            forged = c.post(path, data={"code": card}, follow_redirects=False)
            assert forged.status_code == 403, path
