"""Registration before the day (issue 26): public sign-up with a cap, a waitlist and a closing time, check-in and
the organiser's one action (T-95..T-98); the API and the CLI on SQLite and PostgreSQL, and two registrations
for the last place at once on PostgreSQL. Every refusal answers with a status and the message, and writes nothing."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from sqlalchemy.orm import Session

from tests.tournament.test_desk import head, kinds, refused, verified
from tests.tournament.tlib import cli, cli_json
from tests.tournament.webkit import bearer, client, codes, database, make_event, organiser, serving
from tournament import service


def opened(db_url: str, *, cap: int | None = 2, waitlist: bool = True, players: tuple[str, ...] = ()) -> None:
    make_event(db_url, players=players, pair=False)
    with database(db_url) as engine, Session(engine) as session, session.begin():
        service.set_registration(session, "ev", open=True, cap=cap, waitlist=waitlist)
        service.ensure_organiser(session, "organiser-token-for-tests-0123456789")


def register(c: Any, name: str, **extra: Any) -> Any:
    return c.post("/api/events/ev/register", json={"name": name, **extra})


def test_a_cap_and_a_waitlist_promoted_in_order(db_url: str) -> None:
    opened(db_url)
    with client(db_url) as c:
        ann = register(c, "Ann Lee")
        assert ann.status_code == 201, ann.text
        assert (ann.json()["player"], ann.json()["place"]) == ("ann-lee", None)
        assert register(c, "Bob", id="bob").json()["place"] is None
        cat, dan = register(c, "Cat").json(), register(c, "Dan").json()
        assert (cat["place"], dan["place"]) == (1, 2)
        refused(register(c, "Eve", id="cat"), 409, "'cat' is already registered in 'ev'", service.EXIT_CONFLICT)
        dan_in = bearer(dan["session"])
        assert c.get("/api/me/event", headers=dan_in).json()["state"] == "waiting"
        table = c.get("/api/me", headers=dan_in)  # the player's table: none, and why (not a 404)
        assert table.status_code == 200, table.text
        assert (table.json()["state"], table.json()["place"], table.json()["table"]) == ("waiting", 2, None)
        boss = organiser(c)
        state = c.get("/api/admin/events/ev/registration", headers=boss).json()
        assert (state["registered"], [w["player"] for w in state["waiting"]]) == (2, ["cat", "dan"])
        # Ann leaves: the first waiting gets her place, the second moves up
        left = c.post("/api/me/drop", headers=bearer(ann.json()["session"]), json={"confirm": True}).json()
        assert left["message"] == "You left the event before round 1."
        promoted = c.get("/api/me/event", headers=bearer(cat["session"])).json()
        assert (promoted["state"], promoted["promoted"]) == ("registered", True)
        assert {k: c.get("/api/me", headers=bearer(cat["session"])).json()[k] for k in ("state", "place", "promoted")} == {
            "state": "registered", "place": None, "promoted": True}
        assert c.get("/api/me/event", headers=dan_in).json()["place"] == 1
        # a waiting player may leave the waitlist too
        gone = c.post("/api/me/drop", headers=dan_in, json={"confirm": True}).json()
        assert gone["message"] == "You left the waitlist."
        assert c.get("/api/me", headers=dan_in).json()["state"] == "left"
        # a higher cap promotes at once
        assert register(c, "Fay").json()["place"] == 1
        raised = c.post("/api/admin/events/ev/registration", headers=boss, json={"open": True, "cap": 3})
        assert raised.status_code == 201 and raised.json()["waiting"] == [] and raised.json()["registered"] == 3
        # the code given at registration signs in on another phone
        joined = c.post("/api/join", json={"code": ann.json()["code"]})
        assert joined.status_code == 201 and joined.json()["player"] == "ann-lee"
    assert kinds(db_url).count("waitlist_promoted") == 2 and "waitlist_left" in kinds(db_url)
    verified(db_url)


def test_a_full_event_a_closed_registration_and_round_one_refuse(db_url: str) -> None:
    opened(db_url, cap=1, waitlist=False)
    with client(db_url) as c:
        assert register(c, "Ann").status_code == 201
        before = head(db_url)
        refused(register(c, "Bob"), 409, "Spring Open is full (1 players) and keeps no waitlist", service.EXIT_CONFLICT)
        refused(register(c, ""), 400, "a display name cannot be empty", service.EXIT_USAGE)
        refused(register(c, "Bob", id="bad id"), 400, "must be 1 to 64 letters", service.EXIT_USAGE)
        assert head(db_url) == before
        boss = organiser(c)
        past = (datetime.now(UTC) - timedelta(minutes=1)).isoformat()
        assert c.post("/api/admin/events/ev/registration", headers=boss, json={"open": True, "closes_at": past}).status_code == 201
        before = head(db_url)
        refused(register(c, "Bob"), 409, "registration for Spring Open closed at", service.EXIT_CONFLICT)
        assert c.post("/api/admin/events/ev/registration", headers=boss, json={"open": False}).status_code == 201
        refused(register(c, "Bob"), 409, "registration for Spring Open is not open", service.EXIT_CONFLICT)
        refused(
            c.post("/api/admin/events/ev/registration", headers=boss, json={"open": True, "cap": 0}), 400,
            "cap: write a number of players from 1 to 10000, not 0", service.EXIT_USAGE,
        )
        refused(
            c.post("/api/admin/events/ev/registration", headers=boss, json={"open": True, "closes_at": "2026-12-05T09:00:00"}), 400,
            "closes: give the time with its offset", service.EXIT_USAGE,
        )
        refused(register(c, "Bob", surname="x"), 400, "Object contains unknown field", None)  # type: ignore[arg-type]
    make_event(db_url, event="later")
    with database(db_url) as engine, Session(engine) as session, session.begin():
        try:
            service.set_registration(session, "later", open=True)
        except service.Conflict as exc:
            assert exc.message == "registration for 'later' ended when round 1 was paired"
        else:
            raise AssertionError("registration opened after round 1")


def test_check_in_by_the_organiser_or_the_player_and_only_once(db_url: str) -> None:
    opened(db_url, cap=None, players=("ann", "bob"))
    keys = codes(db_url)
    with client(db_url) as c:
        boss = organiser(c)
        ann = sign_in_body(c, keys["ann"])
        done = c.post("/api/me/checkin", headers=ann, json={})
        assert done.status_code == 201 and done.json()["checked_in"] and done.json()["message"] == "You are checked in."
        before = head(db_url)
        refused(c.post("/api/me/checkin", headers=ann, json={}), 409, "'ann' is already checked in", service.EXIT_CONFLICT)
        refused(c.post("/api/admin/events/ev/checkin", headers=boss, json={"player": "ann"}), 409, "already checked in", service.EXIT_CONFLICT)
        refused(c.post("/api/admin/events/ev/checkin", headers=boss, json={"player": "zed"}), 404, "unknown player 'zed'", service.EXIT_NOT_FOUND)
        assert head(db_url) == before
        assert c.post("/api/admin/events/ev/checkin", headers=boss, json={"player": "bob"}).json()["checked_in"] == 2
    assert [k for k in kinds(db_url) if k == "checked_in"] == ["checked_in", "checked_in"]
    assert "already checked in" in cli(db_url, "checkin", "ev", "bob", code=service.EXIT_CONFLICT).stderr
    verified(db_url)


def sign_in_body(c: Any, code: str) -> dict[str, str]:
    answer = c.post("/api/join", json={"code": code})
    assert answer.status_code == 201, answer.text
    return bearer(answer.json()["session"])


def test_who_has_not_checked_in_is_left_out_of_round_one(db_url: str) -> None:
    """T-96: not checked in, dropped before round 1; the waitlist's checked-in get the places, in order."""
    opened(db_url, cap=3, players=("ann", "bob", "cat"))
    with client(db_url) as c:
        dan, eve, fay = (register(c, n).json() for n in ("Dan", "Eve", "Fay"))
        assert [x["place"] for x in (dan, eve, fay)] == [1, 2, 3]
        boss = organiser(c)
        refused(c.post("/api/admin/events/ev/absent", headers=boss), 409, "nobody has checked in to 'ev' yet", service.EXIT_CONFLICT)
        for who in ("ann", "fay", "dan"):
            assert c.post("/api/admin/events/ev/checkin", headers=boss, json={"player": who}).status_code == 201
        left = c.post("/api/admin/events/ev/absent", headers=boss)
        assert left.status_code == 201 and left.json() == {"dropped": ["bob", "cat"], "promoted": ["dan", "fay"]}
        eve_now = c.get("/api/me/event", headers=bearer(eve["session"])).json()
        assert (eve_now["state"], eve_now["place"]) == ("waiting", 1)  # not checked in: still waiting, and nothing more
        fay_now = c.get("/api/me/event", headers=bearer(fay["session"])).json()
        assert (fay_now["state"], fay_now["checked_in"], fay_now["promoted"]) == ("registered", True, True)
        paired = c.post("/api/admin/events/ev/pair", headers=boss).json()
        assert sorted(p for t in paired["tables"] for p in t["players"]) == ["ann", "dan"] and paired["bye"] == "fay"
        refused(c.post("/api/me/checkin", headers=bearer(eve["session"]), json={}), 409, "check-in for 'ev' ended when round 1 was paired", service.EXIT_CONFLICT)
        refused(register(c, "Gus"), 409, "registration for 'ev' ended when round 1 was paired", service.EXIT_CONFLICT)
        standings = {r["player"] for r in c.get("/api/events/ev/standings").json()}
        assert {"ann", "dan", "fay"} <= standings
    verified(db_url)


def test_the_registration_commands(db_url: str) -> None:
    make_event(db_url, players=("ann", "bob"), pair=False)
    info = cli_json(db_url, "registration", "ev", "--open", "--cap", "3", "--closes", "2099-01-02T09:00+01:00")
    assert (info["open"], info["cap"], info["closes_at"], info["registered"]) == (True, 3, "2099-01-02T08:00:00Z", 2)
    assert "--closes" in cli(db_url, "registration", "ev", "--closes", "soon", code=service.EXIT_USAGE).stderr
    assert "offset" in cli(db_url, "registration", "ev", "--closes", "2099-01-02T09:00", code=service.EXIT_USAGE).stderr
    assert cli_json(db_url, "checkin", "ev", "ann")["checked_in"] == 1
    assert cli_json(db_url, "absent", "ev") == {"dropped": ["bob"], "promoted": []}
    assert cli_json(db_url, "registration", "ev", "--no-cap")["cap"] is None
    assert "registration for ev is open: no cap" in cli(db_url, "registration", "ev").stderr + cli(db_url, "registration", "ev").stdout


@pytest.mark.pg
def test_two_registrations_for_the_last_place_at_once(pg_url: str) -> None:
    """On PostgreSQL, through a real server: both wait on the event's row; one gets the place, one the waitlist."""
    opened(pg_url, cap=3, players=("ann", "bob"))
    barrier = threading.Barrier(2)
    answers: list[Any] = []

    def one(base: str, name: str) -> None:
        with httpx.Client(base_url=base, timeout=30) as h:
            barrier.wait(timeout=30)
            answers.append(h.post("/api/events/ev/register", json={"name": name}))

    for _ in range(3):  # a few rounds, each a fresh race for the last place
        answers.clear()
        with serving(pg_url) as base:
            threads = [threading.Thread(target=one, args=(base, n)) for n in ("Cat", "Dan")]
            for t in threads:
                t.start()
            for t in threads:
                t.join(timeout=60)
        assert sorted(a.status_code for a in answers) == [201, 201]
        assert sorted(str(a.json()["place"]) for a in answers) == ["1", "None"]
        with database(pg_url) as engine, Session(engine) as session:
            state = service.registration(session, "ev")
            assert (state.registered, len(state.waiting)) == (3, 1)
        with database(pg_url) as engine, Session(engine) as session, session.begin():  # both leave: the race again
            for a in sorted(answers, key=lambda a: a.json()["place"] is None):  # the waiting one first
                service.leave(session, "ev", a.json()["player"])
        barrier.reset()
    verified(pg_url)


@pytest.mark.pg
def test_two_registrations_for_the_last_place_on_the_waitlist_at_once(pg_url: str) -> None:
    """On PostgreSQL, past the waitlist's bound (T-152), two registrations at once: the count of those waiting is
    read after the event's row is locked, so one waits and the other is refused; never both on the list."""
    opened(pg_url, cap=2, players=("ann", "bob"))
    with database(pg_url) as engine:
        with Session(engine) as session, session.begin():
            service.set_registration(session, "ev", open=True, cap=2, waitlist_limit=1)
        barrier = threading.Barrier(2)
        answers: list[Any] = []

        def one(name: str) -> None:
            with Session(engine) as session, session.begin():
                barrier.wait(timeout=30)
                try:
                    answers.append(service.sign_up(session, "ev", name).position)
                except service.Conflict as exc:
                    answers.append(exc.message)

        for _ in range(3):  # a few rounds, each a fresh race for the last place in the queue
            answers.clear()
            barrier.reset()
            threads = [threading.Thread(target=one, args=(n,)) for n in ("Cat", "Dan")]
            for t in threads:
                t.start()
            for t in threads:
                t.join(timeout=60)
            assert sorted(answers, key=str) == [1, "Spring Open is full (2 players) and so is its waitlist (1 waiting): "
                                                   "no more names are taken; ask the organiser"], answers
            with Session(engine) as session, session.begin():
                [waiting] = service.registration(session, "ev").waiting
                service.leave(session, "ev", waiting.player)


def test_registrations_are_limited_by_address_and_the_form_needs_its_csrf_token(db_url: str) -> None:
    opened(db_url, cap=None)
    with client(db_url) as c:
        for n in range(12):
            assert register(c, f"Player {n}").status_code == 201
        before = head(db_url)
        refused(register(c, "One too many"), 429, "too many registrations from this network in a minute (at most 12)", service.EXIT_USAGE)
        assert head(db_url) == before
        page = c.get("/e/ev/register")
        assert page.status_code == 200 and 'name="_csrf_token"' in page.text
        forged = c.post("/e/ev/register", data={"name": "Mallory"}, follow_redirects=False)
        assert forged.status_code == 403 and head(db_url) == before


def test_create_sets_public_registration_on_the_cli_the_api_and_the_organisers_form(db_url: str) -> None:
    """Every option of `create` at creation, on both doors: registration's cap, closing time and waitlist (T-98)
    with the other settings; a bad one refused with the CLI's message and nothing written."""
    made = cli_json(db_url, "create", "cli", "--registration", "--cap", "8", "--closes", "2099-01-02T09:00+01:00", "--no-waitlist",
                    "--tables", "paper")
    assert made["tables"] == "paper"
    info = cli_json(db_url, "registration", "cli")
    assert (info["open"], info["cap"], info["closes_at"], info["waitlist"]) == (True, 8, "2099-01-02T08:00:00Z", False)
    assert kinds(db_url, "cli") == ["event_created", "registration_set"]
    cli_json(db_url, "create", "plain")
    assert kinds(db_url, "plain") == ["event_created"], "closed registration needs no entry"
    assert "offset" in cli(db_url, "create", "bad", "--closes", "2099-01-02T09:00", code=service.EXIT_USAGE).stderr
    assert "cap" in cli(db_url, "create", "bad", "--cap", "0", code=service.EXIT_USAGE).stderr
    with database(db_url) as engine, Session(engine) as session, session.begin():
        service.ensure_organiser(session, "organiser-token-for-tests-0123456789")
    with client(db_url) as c:
        admin = organiser(c)
        body = {"id": "api", "tables": "digital", "registration": {"open": True, "cap": 2, "closes_at": "2099-01-02T09:00:00+01:00"}}
        refused(c.post("/api/admin/events", json=body, headers=admin), 400, "event id 'api' is a word", service.EXIT_USAGE)
        answer = c.post("/api/admin/events", json={**body, "id": "web"}, headers=admin)
        assert answer.status_code == 201, answer.text
        assert answer.json()["message"].endswith("public registration open") and answer.json()["event"]["tables"] == "digital"
        got = c.get("/api/admin/events/web/registration", headers=admin).json()
        assert (got["open"], got["cap"], got["closes_at"], got["waitlist"]) == (True, 2, "2099-01-02T08:00:00Z", True)
        refused(c.post("/api/admin/events", json={"id": "big", "registration": {"open": True, "cap": 10_001}}, headers=admin),
                400, "cap: write a number of players from 1 to 10000, not 10001", service.EXIT_USAGE)
        c.get("/admin")
        token = str(c.cookies["csrftoken"])
        c.post("/admin/login", data={"token": "organiser-token-for-tests-0123456789", "_csrf_token": token})
        form = {"_csrf_token": token, "id": "form", "open": "yes", "cap": "3", "closes": "2099-01-02T08:00", "waitlist": "yes",
                "tables": "paper", "require_chain": "yes"}
        done = c.post("/admin/events", data={**form, "_key": "k" * 22}, follow_redirects=False)
        assert done.status_code == 303 and done.headers["location"].startswith("/admin/e/form?r=")
        assert "public registration open" in c.get(done.headers["location"]).text
        got = c.get("/api/admin/events/form/registration", headers=admin).json()
        assert (got["open"], got["cap"], got["closes_at"], got["waitlist"]) == (True, 3, "2099-01-02T08:00:00Z", True)
        assert c.get("/api/events/form").json()["tables"] == "paper"
        assert "form" in c.get("/admin").text and 'name="cap"' in c.get("/admin").text
        bad = c.post("/admin/events", data={**form, "id": "bad", "cap": "0", "_key": "b" * 22}, follow_redirects=False)
        assert bad.status_code == 303 and "cap: write a number of players from 1 to 10000, not 0" in c.get(bad.headers["location"]).text
        assert c.get("/api/events/bad").status_code == 404, "a refused form wrote nothing"
    assert kinds(db_url, "web") == kinds(db_url, "form") == ["event_created", "registration_set"]
