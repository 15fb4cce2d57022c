"""Entry fees at the desk (issue 36, T-215..T-218): set, marked paid at check-in or apart, taken back, in the
export and rebuilt by `verify`; the ranges; and every role that may not mark an entry paid, refused with
nothing changed (T-216)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from tests.tournament.test_web_pages import form_token
from tests.tournament.tlib import cli, cli_json
from tests.tournament.webkit import (
    HOSTILE_PERSON,
    client,
    codes,
    database,
    looks_right,
    make_event,
    organiser,
    organiser_page,
    organiser_signs_in,
    player_page,
    serving,
    sign_in,
)
from tournament import service
from tournament.service import export, fees
from tournament.service.staff import name_staff
from tournament.storage.models import LogEntry, Player


def _log(db_url: str, event: str = "ev") -> list[tuple[int, str]]:
    with database(db_url) as engine, Session(engine) as session:
        return [(e.seq, e.type) for e in session.scalars(select(LogEntry).filter_by(event_id=event).order_by(LogEntry.seq))]


def test_fees_from_the_desk_to_the_export(db_url: str) -> None:
    cli(db_url, "create", "open", "--seed", "1", "--name", "Spring Open")
    cli(db_url, "register", "open", "ann", "bob", "cat", "dan")
    refused = cli(db_url, "paid", "open", "ann", code=service.EXIT_CONFLICT)  # no fee yet
    assert "has no entry fee yet" in refused.stderr
    for bad in (["--currency", "EURO", "--amount", "500"], ["--currency", "EUR", "--amount", "1000001"],
                ["--currency", "EUR", "--amount", "-1"], ["--currency", "€", "--amount", "5"]):
        cli(db_url, "fee", "open", *bad, code=service.EXIT_USAGE)
    cli(db_url, "fee", "open", "--currency", "eur", "--amount", "500")
    assert "5.00 EUR" in cli(db_url, "fees", "open").stdout
    cli(db_url, "checkin", "open", "ann", "--paid", "card")
    cli(db_url, "paid", "open", "bob", "--by", "cash", "--amount", "300")
    cli(db_url, "paid", "open", "cat", "--by", "cash", "--amount", "0", code=service.EXIT_USAGE)
    cli(db_url, "paid", "open", "cat", "--by", "cheque", code=service.EXIT_USAGE)
    before = _log(db_url, "open")
    assert "paid already (5.00 EUR by card)" in cli(db_url, "paid", "open", "cat", "ann", code=service.EXIT_CONFLICT).stderr
    assert _log(db_url, "open") == before, "all or none: cat was not marked either"
    assert "cannot change now" in cli(db_url, "fee", "open", "--currency", "USD", "--amount", "500", code=service.EXIT_CONFLICT).stderr
    cli(db_url, "fee", "open", "--currency", "EUR", "--amount", "600")  # the fee may change; what was paid stays
    cli(db_url, "unpaid", "open", "bob", "--reason", "", code=service.EXIT_USAGE)
    cli(db_url, "unpaid", "open", "bob", "--reason", "charged the wrong person")
    cli(db_url, "unpaid", "open", "bob", "--reason", "again", code=service.EXIT_CONFLICT)
    cli(db_url, "drop", "open", "dan")
    info = cli_json(db_url, "fees", "open")
    assert (info["currency"], info["fee"], info["total"], info["paid"], info["unpaid"]) == ("EUR", 600, 500, 1, 2)
    assert [(r["player"], r["paid"], r["paid_by"]) for r in info["players"]] == [
        ("bob", None, None), ("cat", None, None), ("ann", 500, "card"), ("dan", None, None),  # unpaid, paid, dropped
    ]
    exported = json.loads(cli(db_url, "export", "open").stdout)
    assert exported["fees"] == info
    assert {p["name"]: (p["paid"], p["paid_by"]) for p in exported["players"]}["ann"] == (500, "card")
    assert [t for _, t in _log(db_url, "open")].count("fee_paid") == 2 and "fee_undone" in [t for _, t in _log(db_url, "open")]
    cli(db_url, "verify", "open")
    with database(db_url) as engine, engine.begin() as connection:  # the tables say ann paid more than the log does
        connection.execute(update(Player).where(Player.event_id == "open", Player.name == "ann").values(paid=5000))
    failed = cli(db_url, "verify", "open", code=service.EXIT_VERIFY_FAILED)
    assert "paid=5000" in failed.stdout + failed.stderr and "paid=500," in failed.stdout + failed.stderr


def test_an_event_without_a_fee_exports_as_before(db_url: str) -> None:
    make_event(db_url, pair=False)
    with database(db_url) as engine, Session(engine) as session:
        assert export.export_event(session, "ev").fees is None
        assert fees.fees(session, "ev").unpaid == 0


def test_the_organiser_marks_paid_on_the_registration_page_and_the_api(db_url: str) -> None:
    make_event(db_url, pair=False, display={"ann": "Ann Lee"})
    codes(db_url)
    with client(db_url) as c:
        token = organiser_page(c)
        set_fee = c.post("/admin/e/ev/fee", data={**form_token(c, "/admin/e/ev/registration"), "currency": "gbp", "amount": "750"},
                         follow_redirects=False)
        assert set_fee.status_code == 303 and set_fee.headers["location"].startswith("/admin/e/ev/registration?r=")
        page = c.get("/admin/e/ev/registration").text
        assert "The fee is 7.50 GBP" in page and 'id="unpaid"' in page
        key = re.search(r'action="/admin/e/ev/checkin".*?name="_key" value="([^"]+)"', page, re.S)
        assert key
        done = c.post("/admin/e/ev/checkin", data={"_csrf_token": token, "_key": key.group(1), "player": "ann", "paid": "cash"})
        assert "Ann Lee is checked in; Ann Lee paid 7.50 GBP by cash" in done.text
        unpaid = re.search(r'<ul id="unpaid">(.*?)</ul>', done.text, re.S)
        assert unpaid and "Ann Lee" not in unpaid.group(1) and "bob" in unpaid.group(1)
        no_csrf = c.post("/admin/e/ev/paid", data={"_key": key.group(1), "player": "bob", "by": "card"})
        assert no_csrf.status_code == 403
        boss = organiser(c)
        answer = c.post("/api/admin/events/ev/paid", headers={**boss, "Idempotency-Key": "fee-key-0000000001"}, json={"player": "bob", "by": "card"})
        assert answer.status_code == 201 and answer.json()["paid"] == 2, answer.text
        again = c.post("/api/admin/events/ev/paid", headers={**boss, "Idempotency-Key": "fee-key-0000000002"}, json={"player": "bob", "by": "card"})
        assert again.status_code == 409
        big = c.post("/api/admin/events/ev/paid", headers={**boss, "Idempotency-Key": "fee-key-0000000003"}, json={"player": "cat", "by": "card", "amount": 10**7})
        assert big.status_code == 400 and "1 to 1000000" in big.json()["error"]
        listed = c.get("/api/admin/events/ev/fees", headers=boss).json()
        assert listed["total"] == 1500 and listed["unpaid"] == 2
        assert 'id="not-paid">2 not paid</a>' in c.get("/admin/e/ev").text  # the event's page points to who owes


def test_every_role_that_may_not_mark_paid_is_refused_and_nothing_changes(db_url: str) -> None:
    make_event(db_url, pair=False)
    make_event(db_url, event="other", pair=False)
    slips = codes(db_url)
    with database(db_url) as engine, Session(engine) as session, session.begin():
        fees.set_fee(session, "ev", "EUR", 500)
        service.set_registration(session, "ev", open=True)
        service.set_registration(session, "other", open=True)
    before = _log(db_url)
    with client(db_url) as c:  # nobody signed in
        assert c.post("/api/admin/events/ev/paid", json={"player": "ann", "by": "cash"}).status_code == 401
        form = form_token(c, "/e/ev/register")
        refused = c.post("/admin/e/ev/paid", data={**form, "player": "ann", "by": "cash"})
        assert refused.status_code == 401
        walk_in = c.post("/e/ev/register", data={**form_token(c, "/e/ev/register"), "name": "Walk In", "paid": "cash"})
        assert "registration desk marks an entry paid; register, then pay at the desk" in walk_in.text
    with client(db_url) as c:  # a player of the event, for themselves: the API and the page's form
        me = sign_in(c, slips["ann"])
        assert c.post("/api/admin/events/ev/paid", headers=me, json={"player": "ann", "by": "cash"}).status_code == 403
        assert c.post("/api/admin/events/ev/fee", headers=me, json={"currency": "EUR", "amount": 0}).status_code == 403
    with database(db_url) as engine, Session(engine) as session, session.begin():
        judge = service.issue_staff_code(session, name_staff(session, "Jo Judge", "judge", "ev").id)
    with client(db_url) as c:  # a judge of the event: issue 35's matrix gives fees to the desk's roles, not judges
        assert c.post("/api/admin/events/ev/paid", headers=sign_in(c, judge), json={"player": "ann", "by": "cash"}).status_code == 403
    with client(db_url) as c:
        token = player_page(c, codes(db_url)["ann"])
        assert c.post("/admin/e/ev/paid", data={"_csrf_token": token, "_key": "k" * 22, "player": "ann", "by": "cash"}).status_code == 403
        assert c.post("/admin/e/ev/unpaid", data={"_csrf_token": token, "_key": "j" * 22, "player": "ann", "reason": "x"}).status_code == 403
    with client(db_url) as c:  # another event's registration desk
        token = organiser_page(c)
        key = re.search(r'action="/admin/e/other/desk".*?name="_key" value="([^"]+)"', c.get("/admin/e/other/registration").text, re.S)
        assert key
        c.post("/admin/e/other/desk", data={"_csrf_token": token, "_key": key.group(1)}, follow_redirects=False)
        c.cookies.delete("hj_session")  # the desk device, the organiser signed out
        sent = c.post("/e/ev/register", data={**form_token(c, "/e/ev/register"), "name": "Walk In", "paid": "card"})
        assert "registration desk marks an entry paid; register, then pay at the desk" in sent.text
    assert _log(db_url) == before, "no refusal wrote anything"
    with database(db_url) as engine, Session(engine) as session:
        assert session.scalar(select(func.count()).select_from(LogEntry).filter_by(event_id="ev", type="player_registered")) == 4
        assert fees.fees(session, "ev").paid == 0
    with client(db_url) as c:  # the event's own desk may: the walk-in registers and pays in one form
        token = organiser_page(c)
        key = re.search(r'action="/admin/e/ev/desk".*?name="_key" value="([^"]+)"', c.get("/admin/e/ev/registration").text, re.S)
        assert key
        c.post("/admin/e/ev/desk", data={"_csrf_token": token, "_key": key.group(1)}, follow_redirects=False)
        c.cookies.delete("hj_session")
        assert "paid in cash" in c.get("/e/ev/register").text
        sent = c.post("/e/ev/register", data={**form_token(c, "/e/ev/register"), "name": "Walk In", "paid": "card"})
        assert "Registered Walk In: a place. Walk In paid 5.00 EUR by card." in sent.text
    with database(db_url) as engine, Session(engine) as session:
        assert [(r.player, r.paid_by) for r in fees.fees(session, "ev").players if r.paid] == [("walk-in", "card")]


@pytest.mark.browser
def test_the_desk_takes_fees_in_chromium_at_phone_width(page: Any, tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 't.db'}"
    make_event(db, pair=False, display={"ann": "Ann Lee", "bob": HOSTILE_PERSON})
    codes(db)
    with serving(db) as base:
        organiser_signs_in(page, base)
        page.goto(f"{base}/admin/e/ev/registration")
        page.fill("#fee input[name=currency]", "eur")
        page.fill("#fee input[name=amount]", "1250")
        page.click("#fee button")
        page.wait_for_url(f"{base}/admin/e/ev/registration?r=*")
        assert page.locator("[role=status]").inner_text() == "the entry fee is 12.50 EUR"
        row = page.locator("#players li", has_text="Ann Lee")
        row.locator("select[name=paid]").select_option("card")
        row.locator("button:has-text('Check in')").click()
        page.wait_for_url(f"{base}/admin/e/ev/registration?r=*")
        assert page.locator("[role=status]").inner_text() == "Ann Lee is checked in; Ann Lee paid 12.50 EUR by card"
        page.locator("#unpaid li", has_text="cat").locator("button:has-text('Paid')").click()
        page.wait_for_url(f"{base}/admin/e/ev/registration?r=*")
        assert page.locator("#unpaid li").count() == 2 and "Ann Lee: 12.50 EUR by card" in page.locator("#paid").inner_text()
        looks_right(page, tmp_path / "fees.png")
        page.goto(f"{base}/admin/e/ev")
        assert page.locator("#not-paid").inner_text() == "2 not paid"
    with database(db) as engine, Session(engine) as session:
        assert fees.fees(session, "ev").total == 2500
