"""`tournament serve` tried as an attacker would (issue 22): CSRF by route, organiser sessions, spending codes."""

from __future__ import annotations

import pytest
from sqlalchemy.orm import Session

from tests.tournament.tlib import cli
from tests.tournament.webkit import ORGANISER_TOKEN, client, codes, database, make_event, organiser
from tournament import service
from tournament.models import Player


def _organiser_page(c: object) -> str:
    """Sign the client in as the organiser through the page form; the CSRF token it was given."""
    from tests.tournament.test_web_forms import csrf

    token = csrf(c.get("/admin").text)  # type: ignore[attr-defined]
    signed_in = c.post("/admin/login", data={"token": ORGANISER_TOKEN, "_csrf_token": token})  # type: ignore[attr-defined]
    assert signed_in.status_code == 200 and "Organiser" in signed_in.text
    return token


def test_a_forged_form_to_an_event_named_api_is_refused(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The CSRF exclusion is the API's routes, not every path with `/api/` in it (an event whose id is `api`)."""
    monkeypatch.setattr(service.events, "ROUTE_WORDS", frozenset())  # an event made before such ids were refused
    make_event(db_url, event="api")
    codes(db_url, "api")
    with client(db_url) as c:
        _organiser_page(c)
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
        _organiser_page(browser)
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
