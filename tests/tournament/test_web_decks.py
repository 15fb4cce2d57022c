"""Deck lists on `tournament serve` (issue 25): a player's form on /me and its API twin, privacy before
publication with each role's session (T-116), publication, a web upload refused for its decks, the metagame."""

from __future__ import annotations

import html
import json
import re

from sqlalchemy.orm import Session

from schemas.log import Event
from tests.tournament.decklib import crossover_log, deck_of, list_text, swapped
from tests.tournament.test_desk import kinds
from tests.tournament.tlib import cli
from tests.tournament.webkit import (
    bearer,
    client,
    codes,
    csrf,
    database,
    make_event,
    organiser,
    organiser_page,
    player_page,
    sign_in,
    tables,
)
from tournament import service
from tournament.service.verification import verify

PLAYERS = ("ann", "bob", "cat", "dan")


def verified(db_url: str) -> None:
    with database(db_url) as engine, Session(engine) as session:
        found = verify(session, "ev")
        assert found.ok, found.problems


def test_t116_a_list_is_seen_by_its_player_and_the_organiser_until_published(db_url: str) -> None:
    make_event(db_url, PLAYERS, ruleset="crossover", pair=False)
    keys = codes(db_url)
    with client(db_url) as c:
        ann, bob, boss = sign_in(c, keys["ann"]), sign_in(c, keys["bob"]), organiser(c)
        assert c.get("/api/me/deck", headers=ann).json()["verdict"] == "none"
        sent = c.post("/api/me/deck", headers=ann, json={"text": list_text(deck_of("ann"))})
        assert sent.status_code == 201 and sent.json()["verdict"] == "legal", sent.text
        bad = c.post("/api/me/deck", headers=bob, json={"text": "game: dothack\nNobody Knows Me\n"})
        assert bad.status_code == 400 and "your list line 2, field card: unknown card 'Nobody Knows Me'" in bad.json()["error"]
        illegal = c.post("/api/me/deck", headers=bob, json={"text": list_text(deck_of("bob")).replace("game: ", "game: x")})
        assert illegal.json()["verdict"] == "illegal" and illegal.json()["problems"][0]["rule"] == "XO-1.4"
        text = list_text(deck_of("ann"))
        for who, status in ((ann, 200), (boss, 200), (bob, 403), ({}, 403)):
            answer = c.get("/api/events/ev/decks/ann", headers=who)
            assert answer.status_code == status, (who, answer.text)
            if status == 200:
                assert answer.json()["text"] == text
            else:
                assert text not in answer.text
        for path in ("/api/events/ev/decks", "/api/events/ev/meta"):
            assert c.get(path, headers=ann).status_code == 403 and c.get(path).status_code == 403
            assert c.get(path, headers=boss).status_code == 200
        assert [e["verdict"] for e in c.get("/api/events/ev/decks", headers=boss).json()] == ["legal", "illegal", "none", "none"]
        assert c.get("/e/ev/decks.csv").status_code == 403 and c.get("/e/ev/decks/ann").status_code == 403
        assert c.post("/api/admin/events/ev/decks/publish", headers=ann).status_code == 403
        assert c.post("/api/admin/events/ev/decks/publish", headers=boss).status_code == 201
        assert c.get("/api/events/ev/decks/ann").json()["text"] == text
        assert c.get("/api/events/ev/decks").json()[0]["kind"] == c.get("/api/events/ev/decks/ann").json()["facets"]["game"]
        assert text.split("\n")[1] in c.get("/e/ev/decks/ann").text
        assert c.get("/e/ev/decks.csv").text.startswith("player,name,verdict,kind,summary,sha256,list")
        assert json.loads(c.get("/e/ev/decks.json").text)[0]["text"] == text
    verified(db_url)


def textarea(page: str) -> str:
    """The deck form's list as the page fills it in."""
    found = re.search(r'<textarea name="list"[^>]*>(.*?)</textarea>', page, re.S)
    assert found, "the page has the deck form"
    return html.unescape(found.group(1))


def test_the_form_on_me_shows_the_verdict_at_once_and_after_the_deadline_refuses(db_url: str) -> None:
    make_event(db_url, PLAYERS, ruleset="crossover", pair=False)
    keys = codes(db_url)
    with client(db_url) as c:
        token = player_page(c, keys["ann"])
        page = c.get("/me").text
        assert "My deck list" in page and "no list registered yet" in page
        done = c.post("/me/deck", data={"list": list_text(deck_of("ann")), "_csrf_token": token, "_key": "k" * 22})
        assert done.status_code == 200 and done.url.query.decode() == "r=" + "k" * 22
        assert "Your list is legal" in done.text and "Legal: 20 cards" in done.text
        again = c.post("/me/deck", data={"list": "junk (", "_csrf_token": token, "_key": "k" * 22})
        assert "Your list is legal" in again.text, "a used key answers with its receipt, applying nothing"
        refused = c.post("/me/deck", files={"file": ("a.txt", b"game: dothack\n(\n")}, data={"_csrf_token": csrf(c.get("/me").text)})
        assert "parenthesis is not closed" in refused.text
        typo = list_text(deck_of("ann")) + "Nobody Knows Me (\n"  # a list typed on the phone, one line unreadable
        kept = c.post("/me/deck", data={"list": typo, "_csrf_token": csrf(c.get("/me").text)})
        assert "parenthesis is not closed" in kept.text and textarea(kept.text) == typo, "the typed list comes back as typed"
        assert textarea(c.get("/me").text) == list_text(deck_of("ann")), "the registered list is unchanged"
    with database(db_url) as engine, Session(engine) as session, session.begin():
        service.register_lists(session, "ev", [service.Submitted(p, p, list_text(deck_of(p)).encode()) for p in PLAYERS[1:]])
        service.pair(session, "ev")
    with client(db_url) as c:
        token = player_page(c, codes(db_url)["ann"])
        assert "only through a judge" in c.get("/me").text, "past the deadline the page shows the list, not the form"
        late = c.post("/me/deck", data={"list": list_text(deck_of("bob")), "_csrf_token": token})
        assert "deadline" in late.text and "judge" in late.text


def test_an_upload_whose_deck_differs_waits_for_a_judge(db_url: str) -> None:
    make_event(db_url, PLAYERS, ruleset="crossover", pair=False)
    keys = codes(db_url)
    with database(db_url) as engine, Session(engine) as session, session.begin():
        service.register_lists(session, "ev", [service.Submitted(p, p, list_text(deck_of(p)).encode()) for p in PLAYERS])
        service.pair(session, "ev")
    (a, b), _ = tables(db_url)
    cheat = crossover_log(a, b, 9, event=Event(tournament="ev", round=1, table=1), decks={a: swapped(deck_of(a))})
    with client(db_url) as c:
        ha, boss = sign_in(c, keys[a]), organiser(c)
        answer = c.post("/api/me/logs", headers=ha, files={"log": ("g1.jsonl", cheat)})
        assert answer.status_code == 201 and answer.json()["state"] == "decks", answer.text
        assert [d["change"] for d in answer.json()["decks"][a]] == ["stats"]
        hb = sign_in(c, keys[b])
        assert c.get("/api/me", headers=hb).json()["table"]["decks"] == {}, "b does not see a's registered cards (T-116)"
        assert list(c.get("/api/me", headers=ha).json()["table"]["decks"]) == [a]
        queue = [t for t in c.get("/api/admin/events/ev/tables", headers=boss).json() if t["state"] == "decks"]
        assert [t["table"]["table"] for t in queue] == [1]
        ruled = c.post("/api/admin/events/ev/rule", headers=boss, json={"table": 1, "reason": "deck problem", "games": {a: 0, b: 1}})
        assert ruled.status_code == 201
        assert c.get("/api/events/ev/round").json()["tables"][0]["games"] == {a: 0, b: 1}
    verified(db_url)
    with database(db_url) as engine, Session(engine) as session:
        assert service.open_checks(session, "ev") == []


def test_the_same_list_sent_at_once_from_many_requests_is_registered_once(db_url: str) -> None:
    import threading

    import httpx

    from tests.tournament.webkit import serving

    make_event(db_url, PLAYERS, ruleset="crossover", pair=False)
    keys = codes(db_url)
    text = list_text(deck_of("ann"))
    with serving(db_url) as base, httpx.Client(base_url=base, timeout=60) as http:
        session = http.post("/api/join", json={"code": keys["ann"]}).json()["session"]
        answers: list[int] = []

        def send() -> None:
            with httpx.Client(base_url=base, timeout=60) as own:
                answers.append(own.post("/api/me/deck", headers={"Authorization": f"Bearer {session}"}, json={"text": text}).status_code)

        threads = [threading.Thread(target=send) for _ in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
    assert answers == [201] * 6
    with database(db_url) as engine, Session(engine) as s:
        from tournament.storage.models import LogEntry

        assert s.query(LogEntry).filter_by(event_id="ev", type="deck_registered").count() == 1
    verified(db_url)


def test_the_organisers_pages_name_who_has_no_legal_list_and_publish(db_url: str) -> None:
    make_event(db_url, PLAYERS, ruleset="crossover", pair=False, display={"bob": "Bob <b>Ray</b>"})
    codes(db_url)
    with database(db_url) as engine, Session(engine) as session, session.begin():
        service.register_lists(session, "ev", [service.Submitted(p, p, list_text(deck_of(p)).encode()) for p in ("ann", "cat")])
    with client(db_url) as c:
        organiser_page(c)
        event_page = c.get("/admin/e/ev").text
        assert "2 without a legal list (Bob &lt;b&gt;Ray&lt;/b&gt;, dan)" in event_page
        lists = c.get("/admin/e/ev/decks").text
        assert "2 without a legal list" in lists and "Publish every list" in lists and "<b>Ray</b>" not in lists
        published = c.post("/admin/e/ev/decks/publish", data={"_csrf_token": csrf(lists), "_key": "p" * 22})
        assert published.status_code == 200 and "The lists are public now." in published.text
        assert published.url.path == "/admin/e/ev/decks"
    with client(db_url) as anonymous:
        assert anonymous.get("/e/ev/decks").status_code == 200 and anonymous.get("/e/ev/meta").status_code == 200


def test_the_organiser_rules_on_a_refused_table_from_the_web(db_url: str) -> None:
    make_event(db_url, PLAYERS, ruleset="crossover", pair=False)
    keys = codes(db_url)
    with database(db_url) as engine, Session(engine) as session, session.begin():
        service.register_lists(session, "ev", [service.Submitted(p, p, list_text(deck_of(p)).encode()) for p in PLAYERS])
        service.pair(session, "ev")
    (a, b), (c_, d) = tables(db_url)
    with client(db_url) as c:
        ha, hc, boss = sign_in(c, keys[a]), sign_in(c, keys[c_]), organiser(c)
        c.post("/api/me/logs", headers=ha, files={"log": ("g.jsonl", crossover_log(a, b, 3, decks={b: swapped(deck_of(b))}))})
        c.post("/api/me/logs", headers=hc, files={"log": ("g.jsonl", crossover_log(c_, d, 4, decks={c_: swapped(deck_of(c_))}))})
        assert c.post("/api/admin/events/ev/decks/rule", headers=ha, json={"table": 1, "reason": "x"}).status_code == 403
        assert c.post("/api/admin/events/ev/decks/rule", headers=boss, json={"table": 0, "reason": "x"}).status_code == 400
        ruled = c.post("/api/admin/events/ev/decks/rule", headers=boss, json={"table": 1, "reason": "deck problem"})
        assert ruled.status_code == 201 and ruled.json()["games"] == {a: 1, b: 0} and ruled.json()["source"] == "judge"
    with client(db_url) as c:
        organiser_page(c)
        page = c.get("/admin/e/ev").text
        assert "Let the refused logs&#39; result stand" in page or "Let the refused logs' result stand" in page
        done = c.post("/admin/e/ev/decks/rule", data={"table": "2", "reason": "a typo in the list", "accept": "yes", "_csrf_token": csrf(page)})
        assert done.status_code == 200 and "the refused logs' result stands" in done.text.replace("&#39;", "'")
        row = c.get("/api/events/ev/round").json()["tables"][1]
        assert row["source"] == "log" and row["reason"] == "a typo in the list"
    verified(db_url)


def test_the_deck_policy_and_deadline_from_the_organisers_decks_page(db_url: str) -> None:
    """`decks --policy --deadline` on the organiser's decks page and its API twin: the same service call and
    words, post/redirect/get, a bad deadline or policy refused naming the field with nothing written."""
    make_event(db_url, PLAYERS, ruleset="crossover", pair=False)
    codes(db_url)
    said = "ev: a player without a legal list at the deadline is dropped; the deadline is 2099-01-02 08:00 UTC, or round 1's pairing if it comes first"
    with client(db_url) as c:
        token = organiser_page(c)
        page = c.get("/admin/e/ev/decks").text
        assert 'action="/admin/e/ev/decks/policy"' in page and '<option value="unpaired" selected>' in page
        sent = c.post("/admin/e/ev/decks/policy", data={"policy": "dropped", "deadline": "2099-01-02T08:00", "_csrf_token": token,
                                                        "_key": "d" * 22}, follow_redirects=False)
        assert sent.status_code == 303 and sent.headers["location"] == f"/admin/e/ev/decks?r={'d' * 22}"
        page = c.get(sent.headers["location"]).text.replace("&#39;", "'")
        assert said in page and '<option value="dropped" selected>' in page and 'value="2099-01-02T08:00"' in page
        again = c.post("/admin/e/ev/decks/policy", data={"policy": "dropped", "_csrf_token": token, "_key": "d" * 22})
        assert again.status_code == 200 and kinds(db_url).count("deck_policy_set") == 1, "a resend applies nothing"
        before = kinds(db_url)
        for field, value, words in (("deadline", "soon", "deadline: write a date and time like 2026-12-05T09:00, not 'soon'"),
                                    ("policy", "kicked", "--policy must be one of unpaired, dropped, not 'kicked'")):
            bad = c.post("/admin/e/ev/decks/policy", data={field: value, "_csrf_token": token}, follow_redirects=False)
            shown = c.get(bad.headers["location"]).text.replace("&#39;", "'")
            assert words in shown, words
            if field == "deadline":
                assert 'name="deadline" value="soon"' in shown, "the form comes back as typed"
        assert kinds(db_url) == before, "a refused form wrote nothing"
        boss = organiser(c)
        api = c.post("/api/admin/events/ev/decks/policy", headers=boss, json={"policy": "unpaired", "deadline": "2099-01-02T09:00:00+01:00"})
        assert api.status_code == 201 and api.json()["message"] == said.replace("dropped", "unpaired")
        refused = c.post("/api/admin/events/ev/decks/policy", headers=boss, json={"deadline": "2099-01-02T09:00:00"})
        assert refused.status_code == 400 and refused.json()["error"] == "--deadline needs its time zone (2026-12-05T09:30+01:00, or ...Z for UTC)"
    assert cli(db_url, "decks", "ev", "--policy", "dropped").stdout.strip().startswith("ev: a player without a legal list at the deadline is dropped")
    assert kinds(db_url).count("deck_policy_set") == 3
    verified(db_url)


def test_a_player_on_the_waitlist_of_an_event_with_lists_sees_their_page(db_url: str) -> None:
    """Someone waiting sees where they stand (it was a 500), and may send their list while they wait (T-150)."""
    make_event(db_url, ("ann",), ruleset="crossover", pair=False)
    with database(db_url) as engine, Session(engine) as session, session.begin():
        service.set_registration(session, "ev", open=True, cap=1)
        service.sign_up(session, "ev", "Bob Ray")
        code, secret = service.enrol(session, "ev", "bob-ray")
    with client(db_url) as c:
        player_page(c, code)
        page = c.get("/me")
        assert page.status_code == 200 and "You are on the waitlist: <b>number 1</b>" in page.text
        answer = c.get("/api/me/deck", headers=bearer(secret))
        assert answer.status_code == 200 and answer.json()["verdict"] == "none" and 'action="/me/deck"' in page.text
