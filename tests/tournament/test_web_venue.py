"""The organiser's day at a venue in the browser (issue 34, points 1, 2, 3, 5 and 6): a late list through the
judge's form and the lists of those still waiting (T-150), the big screen before round 1, a disputed result in
the judge queue (T-151), walk-ins at a desk the organiser authorises and a bounded waitlist (T-152), and each
live table's progress on the organiser's page (T-153). The API and form tests run on SQLite and PostgreSQL;
the pages are looked at in Chromium at 390 px (screenshots to `$HEADJUDGE_SCREENSHOTS`)."""

from __future__ import annotations

import os
import random
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, update
from sqlalchemy.orm import Session

from referee.ruleset import JUDGE
from tests.tournament.decklib import deck_of, list_text
from tests.tournament.tablelib import live_event, look
from tests.tournament.test_web_pages import form_token
from tests.tournament.tlib import cli, cli_json
from tests.tournament.webkit import (
    bearer,
    client,
    codes,
    database,
    entries,
    looks_right,
    make_event,
    organiser,
    organiser_page,
    organiser_signs_in,
    serving,
    tables,
)
from tournament import service
from tournament.service import livetable, verification
from tournament.storage.eventlog import DeckRegistered, decode
from tournament.storage.models import LiveLine, LogEntry, Round


def _section(html: str, heading: str) -> str:
    """The organiser's page from the `<h2>` starting with `heading` to the next `<h2>`."""
    return html.split(f"<h2>{heading}", 1)[1].split("<h2>", 1)[0]


# Point 1: late lists, lists from the waitlist, the grace of a late place (T-150) -----------------------------


def _report_round(db_url: str) -> list[set[str]]:
    """Report every table of the current round (the first player wins); each table's players."""
    with database(db_url) as engine, Session(engine) as session, session.begin():
        event = service.get_event(session, "ev")
        seated = []
        for table in service.open_tables(session, "ev"):
            match = service.find_match(session, event, table, event.rounds)
            service.report(session, "ev", table, result=service.Tally({match.player_a: 1, match.player_b: 0}))
            seated.append({match.player_a, match.player_b})
        return seated


def _pair(db_url: str) -> list[set[str]]:
    """Pair the next round: each table's players."""
    with database(db_url) as engine, Session(engine) as session, session.begin():
        number = service.pair(session, "ev").number
        return [{m.player_a, m.player_b} for m in service.matches(session, "ev", number)]


def test_a_late_entry_whose_list_a_judge_registers_on_the_web_is_paired_in_rounds_2_and_3(db_url: str) -> None:
    players = ["ann", "bob", "cat", "dan", "fay"]
    make_event(db_url, players, ruleset="crossover", pair=False)
    with database(db_url) as engine, Session(engine) as session, session.begin():
        service.register_lists(session, "ev", [service.Submitted(p, p, list_text(deck_of(p)).encode()) for p in players])
        service.pair(session, "ev")  # the deadline passes
        service.register_people(session, "ev", [service.Person("Eve Late", "eve")])  # a late entry, from round 2
    codes(db_url)
    with client(db_url) as c:
        token = organiser_page(c)
        page = c.get("/admin/e/ev/decks").text
        key = re.search(r'id="judge-list".*?name="_key" value="([^"]+)"', page, re.S)
        assert key and '<option value="eve">Eve Late (no list)</option>' in page, "the decks page has the judge's form"
        bob = {"_csrf_token": token, "_key": key.group(1), "player": "bob", "list": list_text(deck_of("ann"))}
        refused = c.post("/admin/e/ev/decks/register", data=bob)  # an on-time player's change after the deadline
        assert "a list changes now only with a judge" in refused.text and "reason" in refused.text
        key = re.search(r'id="judge-list".*?name="_key" value="([^"]+)"', refused.text, re.S)
        assert key
        form = {**bob, "_key": key.group(1), "player": "eve", "list": list_text(deck_of("eve")), "reason": "handed in at the desk"}
        done = c.post("/admin/e/ev/decks/register", data=form)
        assert "Eve Late's list is registered, legal" in done.text.replace("&#39;", "'")
    with database(db_url) as engine, Session(engine) as session:
        rows = session.query(LogEntry).filter_by(event_id="ev", type="deck_registered").order_by(LogEntry.seq).all()
        last: DeckRegistered = decode(rows[-1])
        assert (last.player, last.verdict, last.reason) == ("eve", "legal", "handed in at the desk")
    _report_round(db_url)
    assert any("eve" in table for table in _pair(db_url)), "round 2 pairs the late entry"
    _report_round(db_url)
    assert any("eve" in table for table in _pair(db_url)), "round 3 pairs the late entry"


def _waiting(db_url: str, policy: str) -> dict[str, str]:
    """A crossover event with four players' lists, full at 4 with Eve and Fay waiting: their sessions."""
    players = ["ann", "bob", "cat", "dan"]
    make_event(db_url, players, ruleset="crossover", pair=False)
    with database(db_url) as engine, Session(engine) as session, session.begin():
        service.register_lists(session, "ev", [service.Submitted(p, p, list_text(deck_of(p)).encode()) for p in players])
        service.set_policy(session, "ev", policy, None)
        service.set_registration(session, "ev", open=True, cap=4)
        service.sign_up(session, "ev", "Eve", "eve")
        service.sign_up(session, "ev", "Fay", "fay")
        return {who: service.enrol(session, "ev", who)[1] for who in ("eve", "fay")}


def test_people_on_the_waitlist_send_their_lists_while_they_wait(db_url: str) -> None:
    sessions = _waiting(db_url, "unpaired")
    with client(db_url) as c:
        sent = c.post("/api/me/deck", headers=bearer(sessions["eve"]), json={"text": list_text(deck_of("eve"))})
        assert sent.status_code == 201 and sent.json()["verdict"] == "legal", sent.text
        assert c.get("/api/me/deck", headers=bearer(sessions["eve"])).json()["verdict"] == "legal"
        c.cookies.set("hj_session", sessions["fay"])
        assert 'action="/me/deck"' in c.get("/me").text  # Fay's page has the list's form while she waits
    with database(db_url) as engine, Session(engine) as session, session.begin():
        assert [s.player for s in service.statuses(session, "ev")] == ["ann", "bob", "cat", "dan"]  # only players count
        service.drop(session, "ev", "ann")  # Eve gets the place, with her list
        assert service.statuses(session, "ev", ["eve"])[0].verdict == "legal"
        service.pair(session, "ev")
        assert "eve" in {p for m in service.matches(session, "ev", 1) for p in (m.player_a, m.player_b)}


def test_a_place_given_at_the_last_moment_has_its_grace_under_the_dropped_policy(db_url: str) -> None:
    sessions = _waiting(db_url, "dropped")
    with database(db_url) as engine, Session(engine) as session, session.begin():
        for who in ("bob", "cat", "eve", "fay"):
            service.check_in(session, "ev", who)
        assert service.leave_out_absent(session, "ev") == (["ann", "dan"], ["eve", "fay"])  # places at the last moment
        service.pair(session, "ev")
        for who in ("eve", "fay"):
            assert service.get_player(session, "ev", who).dropped_round is None, "the policy spares a last-moment place (T-150)"
        paired = {p for m in service.matches(session, "ev", 1) for p in (m.player_a, m.player_b)}
        assert paired == {"bob", "cat"}, "without a list, not paired"
    with client(db_url) as c:
        for who in ("eve", "fay"):
            late = c.post("/api/me/deck", headers=bearer(sessions[who]), json={"text": list_text(deck_of(who))})
            assert late.status_code == 201 and late.json()["verdict"] == "legal", late.text  # their own lists, no judge
        bob = c.post("/api/me/deck", headers=bearer(_session(db_url, "bob")), json={"text": list_text(deck_of("ann"))})
        assert bob.status_code == 409 and "only with a judge's --reason" in bob.json()["error"]  # on time: no grace
    _report_round(db_url)
    assert {"eve", "fay"} <= set().union(*_pair(db_url)), "round 2 pairs them"
    with client(db_url) as c:
        changed = c.post("/api/me/deck", headers=bearer(sessions["fay"]), json={"text": list_text(deck_of("ann"))})
        assert changed.status_code == 409 and "only with a judge's --reason" in changed.json()["error"]  # she has played


def _session(db_url: str, player: str) -> str:
    with database(db_url) as engine, Session(engine) as session, session.begin():
        return service.enrol(session, "ev", player)[1]


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
        assert verification.verify(session, "ev").ok  # the log rebuilds the dispute and its answer
    assert entries(db_url, "claim_ruled") == 1 and entries(db_url, "call_answered") == 1


# Point 5: registration at a venue -----------------------------------------------------------------------


def test_a_desk_the_organiser_authorises_registers_walk_ins_past_the_limit_of_one_network(db_url: str) -> None:
    make_event(db_url, ["ann"], pair=False)
    codes(db_url)
    with database(db_url) as engine, Session(engine) as session, session.begin():
        service.set_registration(session, "ev", open=True)
    with client(db_url) as c:
        token = organiser_page(c)
        page = c.get("/admin/e/ev/registration").text
        key = re.search(r'action="/admin/e/ev/desk".*?name="_key" value="([^"]+)"', page, re.S)
        assert key, "the registration page makes a desk"
        made = c.post("/admin/e/ev/desk", data={"_csrf_token": token, "_key": key.group(1)}, follow_redirects=False)
        assert made.status_code == 303 and made.headers["location"] == "/e/ev/register" and "hj_desk" in made.headers["set-cookie"]
        for n in range(15):  # more than one network may send in a minute
            sent = c.post("/e/ev/register", data={**form_token(c, "/e/ev/register"), "name": f"Walk In {n}"})
            assert sent.status_code == 200 and f"Registered Walk In {n}: a place." in sent.text, sent.text[-600:]
            assert "Their one-time sign-in code" in sent.text and "<svg" in sent.text and "Register the next person" in sent.text
        assert "Spring Open: round 0</h1>" in c.get("/admin/e/ev").text, "the desk is still the organiser's browser: nobody signed in over it"
        ended = c.post("/admin/e/ev/desk/close", data=form_token(c, "/admin/e/ev/registration"))
        assert "1 registration desk ended" in ended.text
    with client(db_url) as c:  # a phone on the venue's network (the same address), not a desk
        for n in range(12):
            assert c.post("/e/ev/register", data={**form_token(c, "/e/ev/register"), "name": f"Phone {n}"}).status_code == 200
        refused = c.post("/e/ev/register", data={**form_token(c, "/e/ev/register"), "name": "Phone 12"})
        assert refused.status_code == 429 and "look at your page" not in refused.text
        assert "nothing was registered. Wait a minute and send the form again, or register at the organiser" in refused.text
    with database(db_url) as engine, Session(engine) as session:
        assert len(service.players(session, "ev")) == 1 + 15 + 12


def test_the_waitlist_has_a_bound_the_organiser_sets_and_past_it_registration_is_refused_in_words(db_url: str) -> None:
    make_event(db_url, ["ann", "bob", "cat"], pair=False)
    codes(db_url)
    with database(db_url) as engine, Session(engine) as session, session.begin():
        service.set_registration(session, "ev", open=True, cap=3)  # full
        assert service.registration(session, "ev").waitlist_bound == 64  # the default (T-152)
        service.set_registration(session, "ev", open=True, cap=3, waitlist_limit=3)
        for n in range(3):
            service.sign_up(session, "ev", f"Waiting {n}")
    with client(db_url) as c:
        page = c.get("/e/ev/register").text
        assert "Its waitlist is full too (3 waiting): no more names are taken." in page
        refused = c.post("/e/ev/register", data={**form_token(c, "/e/ev/register"), "name": "One Too Many"})
        assert "Spring Open is full (3 players) and so is its waitlist (3 waiting): no more names are taken" in refused.text
        api = c.post("/api/events/ev/register", json={"name": "One Too Many"})
        assert api.status_code == 409 and "so is its waitlist (3 waiting)" in api.json()["error"]
        token = organiser_page(c)
        form = c.get("/admin/e/ev/registration").text
        key = re.search(r'id="settings".*?name="_key" value="([^"]+)"', form, re.S)
        assert key and 'name="waitlist_limit"' in form
        c.post("/admin/e/ev/registration", data={
            "_csrf_token": token, "_key": key.group(1), "open": "yes", "cap": "3", "waitlist": "yes", "waitlist_limit": "4",
        })
        boss = organiser(c)
        assert c.get("/api/admin/events/ev/registration", headers=boss).json()["waitlist_bound"] == 4
        assert c.post("/api/events/ev/register", json={"name": "Fourth"}).status_code == 201
        assert c.post("/api/events/ev/register", json={"name": "Fifth"}).status_code == 409
        bad = c.post("/api/admin/events/ev/registration", headers=boss, json={"open": True, "cap": 3, "waitlist_limit": 0})
        assert bad.status_code == 400 and bad.json()["error"] == "waitlist limit: write a number of people from 1 to 10000, not 0"
    with database(db_url) as engine, Session(engine) as session:
        assert len(service.registration(session, "ev").waiting) == 4
        assert verification.verify(session, "ev").ok  # the bound is rebuilt from the log
    said = cli(db_url, "registration", "ev", "--waitlist-limit", "5").stdout
    assert "a waitlist of at most 5; 3 registered" in said, said
    assert cli_json(db_url, "registration", "ev")["waitlist_bound"] == 5


# Point 6: each live table's progress on the organiser's page --------------------------------------------


def _records(engine: Engine, table: int, count: int) -> None:
    """`count` records at a live table, each by someone the game lets act."""
    rng = random.Random(table)
    for _ in range(count):
        judge_view = look(engine, JUDGE, table=table)
        actors = [p for p in judge_view.players if p in judge_view.to_act] or judge_view.players
        mine = [v for v in (look(engine, p, table=table) for p in actors) if v.legal]
        seat_view = rng.choice(mine)
        with Session(engine) as session, session.begin():
            livetable.append(session, "ev", table, seat_view.seat, rng.choice(seat_view.legal), seat_view.seq)


def test_the_organisers_page_shows_each_live_tables_progress_and_flags_idle_ones(db_url: str) -> None:
    engine = live_event(db_url, mode="paper", players=6)
    try:
        _records(engine, 1, 5)
        look(engine, JUDGE, table=2)  # opened, then nothing for a quarter of an hour
        with Session(engine) as session, session.begin():
            service.start_round(session, "ev", 50)
            earlier = datetime.now(UTC) - timedelta(minutes=15)
            session.execute(update(LiveLine).where(LiveLine.event_id == "ev", LiveLine.table == 2).values(at=earlier))
            session.execute(update(Round).where(Round.event_id == "ev").values(started_at=earlier - timedelta(minutes=5)))
            seated = {t.number: t.players for t in service.current_tables(session, service.get_event(session, "ev"))}
        first = look(engine, JUDGE, table=1)
    finally:
        engine.dispose()
    codes(db_url)
    with client(db_url) as c:
        live = {t["table"]["table"]: t["live"] for t in c.get("/api/admin/events/ev/tables", headers=organiser(c)).json()}
        assert live[1]["game"] == 1 and live[1]["records"] == first.seq == 5 and not live[1]["idle"]
        assert live[1]["to_act"] == first.to_act and set(first.to_act) <= {*seated[1], "chance"}
        assert live[2]["game"] == 1 and live[2]["idle"] and live[2]["idle_minutes"] >= 15
        assert live[3]["game"] is None and live[3]["idle"] and live[3]["idle_minutes"] >= 20  # never opened since the clock started
        organiser_page(c)
        html = c.get("/admin/e/ev").text
        assert "<h2>Tables still playing (3, 2 idle)</h2>" in html
        card = html.split('id="table-1"', 1)[1].split('id="table-2"', 1)[0]
        acting = ", ".join(p if p != "chance" else "a draw to record" for p in first.to_act)
        assert f"Game 1: 5 records so far; to act: {acting}; last record at" in card and "Idle" not in card
        assert "<b>Idle for 15 min.</b> Game 1: 0 records so far" in html.split('id="table-2"', 1)[1]
        assert "<b>Idle for 20 min.</b> Not opened yet." in html.split('id="table-3"', 1)[1]


# In Chromium, at 390 px ---------------------------------------------------------------------------------


def _venue(db: str) -> None:
    """Four events at once: `ev` with a disputed table, `lv` with live tables being played, `dk` asking for lists
    with a late entry, `rg` open for registration."""
    make_event(db, display={"ann": "Ann Lee", "bob": "Bob Okafor", "cat": "Cat Ng", "dan": "Dan Roy"}, best_of=3)
    with database(db) as engine, Session(engine) as session, session.begin():
        (a, b) = next(iter(service.current_tables(session, service.get_event(session, "ev")))).players
        service.claim(session, "ev", a, result=service.Tally({a: 2, b: 0}))
        service.call_judge(session, "ev", b, "Not right: I won game 2", disputes=a)
    engine = live_event(db, mode="paper", players=4, event="lv")
    try:
        rng = random.Random(3)
        for _ in range(4):
            judge_view = look(engine, JUDGE, event="lv")
            actors = [p for p in judge_view.players if p in judge_view.to_act] or judge_view.players
            seat_view = next(v for v in (look(engine, p, event="lv") for p in actors) if v.legal)
            with Session(engine) as session, session.begin():
                livetable.append(session, "lv", 1, seat_view.seat, rng.choice(seat_view.legal), seat_view.seq)
    finally:
        engine.dispose()
    players = ["ann", "bob", "cat", "dan"]
    make_event(db, players, event="dk", name="Crossover Cup", ruleset="crossover", pair=False)
    make_event(db, ["ann"], event="rg", name="Sunday League", pair=False)
    with database(db) as engine, Session(engine) as session, session.begin():
        service.register_lists(session, "dk", [service.Submitted(p, p, list_text(deck_of(p)).encode()) for p in players])
        service.pair(session, "dk")
        service.register_people(session, "dk", [service.Person("Eve Sánchez-Late", "eve")])
        service.set_registration(session, "rg", open=True, cap=30)
    codes(db)


@pytest.mark.browser
def test_the_organisers_venue_pages_in_chromium_at_390_px(page: Any, db: str, tmp_path: Path) -> None:
    _venue(db)
    shots = Path(os.environ.get("HEADJUDGE_SCREENSHOTS") or tmp_path / "screenshots")
    shots.mkdir(parents=True, exist_ok=True)
    with serving(db) as base:
        organiser_signs_in(page, base)
        page.goto(f"{base}/admin/e/ev")
        queue = page.locator("#table-1")
        assert "disputes Ann Lee's claim" in queue.inner_text() and "I won game 2" in queue.inner_text()
        assert page.locator("h2", has_text="Judge queue (1)").count() == 1
        looks_right(page, shots / "venue-dispute-390.png")
        ruling = queue.locator("form[action='/admin/e/ev/rule']").first
        ruling.locator("input[name=reason]").fill("the judge watched the replay")
        ruling.locator("button").click()
        page.wait_for_url(f"{base}/admin/e/ev?r=*")
        assert "table 1: ruled (the judge watched the replay)" in page.locator("[role=status]").inner_text()
        assert page.locator("h2", has_text="Judge queue (0)").count() == 1 and page.locator("#open-calls").count() == 0

        page.goto(f"{base}/admin/e/lv")
        progress = page.locator("#table-1 .live-progress").inner_text()
        assert progress.startswith("Game 1: 4 records so far; to act: ") and "last record at" in progress
        assert page.locator("#table-2 .live-progress").inner_text() == "Not opened yet."
        looks_right(page, shots / "venue-live-tables-390.png")

        page.goto(f"{base}/admin/e/dk/decks")
        form = page.locator("#judge-list")
        form.locator("select[name=player]").select_option("eve")
        form.locator("textarea[name=list]").fill(list_text(deck_of("eve")))
        form.locator("input[name=reason]").fill("handed in at the desk")
        looks_right(page, shots / "venue-judge-list-390.png")
        form.locator("button").click()
        page.wait_for_url(f"{base}/admin/e/dk/decks?r=*")
        assert page.locator("[role=status]").inner_text().startswith("Eve Sánchez-Late's list is registered, legal")

        page.goto(f"{base}/admin/e/rg/registration")
        looks_right(page, shots / "venue-registration-390.png")
        page.click("button:has-text('Make this device a registration desk')")
        page.wait_for_url(f"{base}/e/rg/register")
        assert "Registration desk" in page.locator("#desk").inner_text()
        page.fill("#register input[name=name]", "Walk-in Wanjiru")
        page.click("#register button")
        page.wait_for_url(f"{base}/e/rg/register?r=*")
        assert page.locator("[role=status]").inner_text() == "Registered Walk-in Wanjiru: a place."
        assert page.locator("#code svg").count() == 1 and page.locator("#code code").inner_text().count(".") == 1
        looks_right(page, shots / "venue-desk-390.png")
        page.click("text=Register the next person")
        assert page.locator("#register input[name=name]").count() == 1 and page.locator("#code").count() == 0
