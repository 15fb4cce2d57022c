"""The organiser's day at a venue in the browser (issue 34, points 1, 2, 3, 5 and 6): a late list through the
judge's form and the lists of those still waiting (T-150), the big screen before round 1, a disputed result in
the judge queue (T-151), walk-ins at a desk the organiser authorises and a bounded waitlist (T-152), and each
live table's progress on the organiser's page (T-153). The API and form tests run on SQLite and PostgreSQL;
the pages are looked at in Chromium at 390 px (screenshots to `$HEADJUDGE_SCREENSHOTS`)."""

from __future__ import annotations

import re

from sqlalchemy.orm import Session

from tests.tournament.test_web_pages import form_token
from tests.tournament.webkit import (
    client,
    codes,
    database,
    entries,
    make_event,
    organiser,
    organiser_page,
    tables,
)
from tournament import service


def _section(html: str, heading: str) -> str:
    """The organiser's page from the `<h2>` starting with `heading` to the next `<h2>`."""
    return html.split(f"<h2>{heading}", 1)[1].split("<h2>", 1)[0]


# Point 2: the big screen before round 1 -----------------------------------------------------------------


def test_the_screen_before_round_1_lists_only_players_with_places(db_url: str) -> None:
    make_event(db_url, ["ann", "bob", "cat", "dan"], pair=False, display={"bob": "Bob No-Show"})
    with database(db_url) as engine, Session(engine) as session, session.begin():
        service.set_registration(session, "ev", open=True, cap=4)
        service.sign_up(session, "ev", "Eve Early")  # waits: the event is full
        service.sign_up(session, "ev", "Fay Later")
        for who in ("ann", "cat", "dan", "eve-early"):
            service.check_in(session, "ev", who)
        assert service.leave_out_absent(session, "ev") == (["bob"], ["eve-early"])  # bob is a no-show; Eve gets his place
        service.drop(session, "ev", "dan", fill=False)  # dan leaves; Fay still waits
    with client(db_url) as c:
        seen = c.get("/api/events/ev/screen").json()
        assert seen["showing"] == "players"
        assert [s["name"] for s in seen["seats"]] == ["ann", "cat", "Eve Early"]
        page = c.get("/e/ev/screen").text
        assert "Round 1 is not paired yet: 3 players with a place" in page
        assert "Bob No-Show" not in page and "Fay Later" not in page and ">dan<" not in page


# Point 3: a disputed result in the judge queue ----------------------------------------------------------


def test_a_dispute_is_in_the_judge_queue_with_both_sides_and_a_ruling_there_settles_it(db_url: str) -> None:
    make_event(db_url, display={"ann": "Ann Lee", "bob": "Bob Okafor", "cat": "Cat", "dan": "Dan"}, best_of=3)
    keys = codes(db_url)
    (a, b), _ = tables(db_url)
    names = {"ann": "Ann Lee", "bob": "Bob Okafor", "cat": "Cat", "dan": "Dan"}
    with client(db_url) as c:
        c.post("/join", data={**form_token(c, "/join"), "code": keys[a]})
        c.post("/me/result", data={**form_token(c, "/me"), f"games.{a}": "2", f"games.{b}": "0"})
    with client(db_url) as c:
        c.post("/join", data={**form_token(c, "/join"), "code": keys[b]})
        said = c.post("/me/dispute", data={**form_token(c, "/me"), "claimant": a, "text": "I won game 2"})
        assert "A judge is called to table 1" in said.text and "A claim at your table is disputed" in said.text
    with client(db_url) as c:
        boss = organiser(c)
        first = c.get("/api/admin/events/ev/tables", headers=boss).json()[0]
        assert first["state"] == "disputed" and first["claims"][0]["said"] == f"{names[a]} wins 2-0"
        assert [(d["player"], d["disputes"]) for d in first["disputes"]] == [(b, a)]
        assert first["disputes"][0]["text"].endswith("I won game 2")
        assert c.get("/api/admin/events/ev/calls", headers=boss).json()[0]["disputes"] == a
    with client(db_url) as c:
        token = organiser_page(c)
        html = c.get("/admin/e/ev").text
        queue, playing = _section(html, "Judge queue"), _section(html, "Tables still playing")
        assert html.count("<h2>Judge queue (1)</h2>") == 1 and "<h2>Tables still playing (1)</h2>" in html
        assert 'id="table-1"' in queue and 'id="table-1"' not in playing
        assert f"{names[a]} wins 2-0" in queue and f"{names[b]}</span> disputes {names[a]}'s claim" in queue
        key = re.search(r'id="table-1".*?action="/admin/e/ev/rule".*?name="_key" value="([^"]+)"', html, re.S)
        assert key, "the queue's card has the ruling forms"
        ruled = c.post("/admin/e/ev/rule", data={
            "_csrf_token": token, "_key": key.group(1), "table": "1", f"games.{a}": "1", f"games.{b}": "1", "draws": "0",
            "reason": "the judge saw game 2: Bob won it",
        })
        assert "table 1: ruled (the judge saw game 2: Bob won it)" in ruled.text
        after = c.get("/admin/e/ev").text
        assert "<h2>Judge queue (0)</h2>" in after and 'id="open-calls"' not in after  # the ruling answered the call
    with database(db_url) as engine, Session(engine) as session:
        match = service.find_match(session, service.get_event(session, "ev"), 1, 1)
        assert (match.games_a, match.games_b, match.source, match.reason) == (1, 1, "judge", "the judge saw game 2: Bob won it")
        assert service.judge_calls(session, "ev") == [] and service.judge_queue(session, "ev") == []
    assert entries(db_url, "claim_ruled") == 1 and entries(db_url, "call_answered") == 1
