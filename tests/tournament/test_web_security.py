"""`tournament serve` tried as an attacker would (issue 22): CSRF by route, organiser sessions, spending codes."""

from __future__ import annotations

import pytest
from sqlalchemy.orm import Session

from tests.tournament.tlib import cli
from tests.tournament.webkit import (
    ORGANISER_TOKEN,
    client,
    codes,
    csrf,
    database,
    make_event,
    organiser,
    organiser_page,
    served_by_workers,
    serving,
    sign_in,
)
from tournament import service
from tournament.storage.models import Player


def test_a_forged_form_to_an_event_named_api_is_refused(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The CSRF exclusion is the API's routes, not every path with `/api/` in it (an event whose id is `api`)."""
    monkeypatch.setattr(service.events, "ROUTE_WORDS", frozenset())  # an event made before such ids were refused
    make_event(db_url, event="api")
    codes(db_url, "api")
    with client(db_url) as c:
        organiser_page(c)
        # the cookie is the organiser's; a form from another site carries no CSRF token
        forged = c.post("/admin/e/api/drop", data={"player": "ann"})
        assert forged.status_code == 403
        assert "Judge queue" in c.get("/admin/e/api").text, "the event keeps working"
    with database(db_url) as engine, Session(engine) as session:
        assert session.get(Player, ("api", "ann")).dropped_round is None  # type: ignore[union-attr]


def test_event_ids_that_are_route_words_are_refused_at_create(tmp_path: object) -> None:
    db = f"sqlite:///{tmp_path}/t.db"
    for word in ("api", "admin", "e", "join", "me", "static", "signout", "API", ".", ".."):
        refused = cli(db, "create", word, code=2)
        assert f"event id {word!r}" in refused.stderr and "route" in refused.stderr
    cli(db, "create", "apis")


def test_a_new_organiser_token_ends_every_organiser_session(db_url: str) -> None:
    make_event(db_url)
    codes(db_url)  # sets ORGANISER_TOKEN
    with client(db_url) as c, client(db_url) as browser:
        boss = organiser(c)
        organiser_page(browser)
        assert c.get("/api/admin/events/ev/tables", headers=boss).status_code == 200
        with database(db_url) as engine, Session(engine) as session, session.begin():
            service.ensure_organiser(session, ORGANISER_TOKEN)  # a restart with the same token ends nothing
        assert c.get("/api/admin/events/ev/tables", headers=boss).status_code == 200
        with database(db_url) as engine, Session(engine) as session, session.begin():
            service.ensure_organiser(session, "a-new-organiser-token-0123456789")  # TOURNAMENT_ADMIN_TOKEN changed
        assert c.get("/api/admin/events/ev/tables", headers=boss).status_code == 401
        assert "Organiser sign-in" in browser.get("/admin").text
        assert c.post("/api/admin/login", json={"code": ORGANISER_TOKEN}).status_code == 401
        assert c.post("/api/admin/login", json={"code": "a-new-organiser-token-0123456789"}).status_code == 201


SPENT_TWICE = 100  # codes, each sent twice at once


def test_a_code_sent_twice_at_once_makes_one_session(db_url: str) -> None:
    """On PostgreSQL two transactions read the code unspent at once; the spending is one conditional UPDATE."""
    _spend_each_code_twice_at_once(db_url, workers=1)


@pytest.mark.pg
def test_a_code_sent_twice_at_once_to_two_workers_makes_one_session(pg_url: str) -> None:
    """`serve --workers 2` on PostgreSQL, where issue 22 found 35 codes of 200 with two sessions."""
    _spend_each_code_twice_at_once(pg_url, workers=2)


def _spend_each_code_twice_at_once(db_url: str, workers: int) -> None:
    """Every player's code sent twice at once: one 201 and one 401 each, and one session each in the database."""
    import asyncio
    import threading

    import httpx
    from sqlalchemy import func, select

    from tournament.storage.models import Credential

    make_event(db_url, [f"p{n:03}" for n in range(SPENT_TWICE)], pair=False)
    keys = codes(db_url)
    with serving(db_url) if workers == 1 else served_by_workers(db_url, workers) as base:

        async def spend_all() -> list[tuple[str, int]]:
            limits = httpx.Limits(max_connections=2 * SPENT_TWICE)
            async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as c:

                async def spend(code: str) -> tuple[str, int]:
                    return code, (await c.post("/api/join", json={"code": code})).status_code

                return await asyncio.gather(*(spend(code) for code in keys.values() for _twice in range(2)))

        done: list[list[tuple[str, int]]] = []  # its own thread: a Playwright test may have left a loop running in this one
        runner = threading.Thread(target=lambda: done.append(asyncio.run(spend_all())))
        runner.start()
        runner.join(timeout=300)
        [answers] = done
    made = {code: sorted(status for c, status in answers if c == code) for code in keys.values()}
    assert all(statuses == [201, 401] for statuses in made.values()), {c: s for c, s in made.items() if s != [201, 401]}
    with database(db_url) as engine, Session(engine) as session:
        sessions = session.execute(select(Credential.player, func.count()).where(Credential.kind == "session").group_by(Credential.player))
        assert dict(sessions.all()) == dict.fromkeys(keys, 1)


def _guessed(db_url: str) -> dict[str, int]:
    from sqlalchemy import func, select

    from tournament.storage.models import FailedGuess

    with database(db_url) as engine, Session(engine) as session:
        return dict(session.execute(select(FailedGuess.client, func.count()).group_by(FailedGuess.client)).all())  # type: ignore[arg-type]


def test_wrong_guesses_from_a_venue_address_lock_out_neither_its_players_nor_the_organiser(db_url: str) -> None:
    """One address (a venue's) guessing codes nobody was given is slowed; codes, tokens and sessions that are right
    still work from it, and the wait ends after a short window."""
    from sqlalchemy import select

    from tournament.storage.models import FailedGuess

    make_event(db_url)
    keys = codes(db_url)
    limit = service.tokens.ADDRESS_LIMIT
    with client(db_url) as c:
        ann = sign_in(c, keys["ann"])
        answers = [c.post("/api/join", json={"code": f"guess{n}.wrong"}).status_code for n in range(limit + 2)]
        assert answers == [401] * limit + [429, 429]
        assert c.post("/api/admin/login", json={"code": "not-the-organiser-token"}).status_code == 429
        assert c.post("/api/join", json={"code": keys["bob"]}).status_code == 201, "a right code is never refused for others' guesses"
        assert c.post("/api/admin/login", json={"code": ORGANISER_TOKEN}).status_code == 201, "nor the organiser token"
        assert c.get("/api/me", headers=ann).status_code == 200, "nor a session"
        with database(db_url) as engine, Session(engine) as session, session.begin():  # the window passes
            for row in session.scalars(select(FailedGuess)):
                row.at -= service.tokens.ADDRESS_WINDOW
        assert c.post("/api/join", json={"code": "guess-again.wrong"}).status_code == 401
    assert _guessed(db_url) == {"testclient": limit + 1}, "past the ceiling nothing more is written"


def test_a_code_typed_wrong_too_often_is_locked_and_no_other(db_url: str) -> None:
    make_event(db_url)
    keys = codes(db_url)
    selector = keys["ann"].split(".")[0]
    with client(db_url) as c:
        for n in range(service.tokens.CODE_LIMIT):
            assert c.post("/api/join", json={"code": f"{selector}.wrong{n}"}).status_code == 401
        locked = c.post("/api/join", json={"code": keys["ann"]})
        assert locked.status_code == 429 and "ask the organiser for a new one" in locked.json()["error"]
        assert c.post("/api/join", json={"code": keys["bob"]}).status_code == 201
        fresh = c.post("/api/admin/events/ev/codes", headers=organiser(c), json={"player": "ann"}).json()["code"]
        assert c.post("/api/join", json={"code": fresh}).status_code == 201, "the organiser's new code works"


def test_a_signed_in_player_opening_their_own_link_again_sees_their_page(db_url: str) -> None:
    make_event(db_url)
    keys = codes(db_url)
    with client(db_url) as c:
        token = csrf(c.get("/join").text)
        assert c.post("/join", data={"code": keys["ann"], "_csrf_token": token}).url.path == "/me"
        again = c.post("/join", data={"code": keys["ann"], "_csrf_token": token})  # the slip scanned again
        assert again.status_code == 200 and again.url.path == "/me" and "<h1>ann</h1>" in again.text
        with client(db_url) as other:  # someone else with ann's used slip is told so
            refused = other.post("/join", data={"code": keys["ann"], "_csrf_token": csrf(other.get("/join").text)})
            assert "already used" in refused.text
    assert _guessed(db_url) == {}, "the right code, used, is no guess"


def test_a_new_organiser_token_ends_the_registration_desks_the_old_one_opened(db_url: str) -> None:
    """A desk is opened by an organiser session: a new token (a lost or leaked one replaced) ends it too, or
    whoever held the old token keeps a device that registers past the per-address limit."""
    make_event(db_url)
    with database(db_url) as engine, Session(engine) as session, session.begin():
        service.ensure_organiser(session, ORGANISER_TOKEN)
        desk = service.open_desk(session, "ev")
    with database(db_url) as engine, Session(engine) as session, session.begin():
        service.ensure_organiser(session, ORGANISER_TOKEN)
        assert service.desk_event(session, desk) == "ev", "a restart with the same token ends nothing"
        service.new_organiser_token(session)  # `tournament organiser-token --new`
    with database(db_url) as engine, Session(engine) as session:
        assert service.desk_event(session, desk) is None
