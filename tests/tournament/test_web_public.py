"""`tournament serve`'s public pages and JSON, through Litestar's test client, on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import re

from sqlalchemy.orm import Session

from tests.tournament.tlib import cli
from tests.tournament.webkit import HOSTILE, HOSTILE_PERSON, client, database, make_event
from tournament import service


def test_the_api_gives_what_the_cli_json_gives(db_url: str) -> None:
    make_event(db_url)
    with client(db_url) as c:
        assert c.get("/api/events/ev/standings").json() == json.loads(cli(db_url, "standings", "ev", "--json").stdout)
        assert c.get("/api/events/ev/round").json() == json.loads(cli(db_url, "pairings", "ev", "--json").stdout)
        assert c.get("/api/events/ev/rounds/1").json() == c.get("/api/events/ev/round").json()
        listed = c.get("/api/events").json()
        assert listed == json.loads(cli(db_url, "events", "--json").stdout)


def test_unknown_things_are_404_with_a_json_error_and_an_html_page(db_url: str) -> None:
    make_event(db_url)
    with client(db_url) as c:
        answer = c.get("/api/events/nope/round")
        assert answer.status_code == 404
        assert answer.json() == {"status": 404, "error": "unknown event 'nope'", "exit_code": service.EXIT_NOT_FOUND, "referee": None}
        assert c.get("/api/events/ev/rounds/5").status_code == 404
        assert c.get("/api/events/ev/bracket").json()["error"] == "'ev' has no bracket (yet)"
        page = c.get("/e/nope")
        assert page.status_code == 404 and "unknown event" in page.text and page.headers["content-type"].startswith("text/html")


def test_find_your_seat_names_the_table_and_the_opponent(db_url: str) -> None:
    make_event(db_url, ["ann", "bob", "cat", "dan", "eve"])
    with client(db_url) as c:
        tables = c.get("/api/events/ev/round").json()["tables"]
        ann_table = next(t for t in tables if "ann" in t["players"])
        opponent = next(p for p in ann_table["players"] if p != "ann")
        seats = c.get("/api/events/ev/seats", params={"q": "NN"}).json()
        assert [s["player"] for s in seats] == ["ann"]
        assert seats[0]["table"]["table"] == ann_table["table"] and not seats[0]["bye"]
        bye = c.get("/api/events/ev/round").json()["bye"]
        assert c.get("/api/events/ev/seats", params={"q": bye}).json()[0]["bye"] is True
        page = c.get("/e/ev", params={"q": "ann"}).text
        assert f'<span class="big">{ann_table["table"]}</span>' in page and f"against {opponent}" in page
        assert "Nobody in round 1 matches" in c.get("/e/ev", params={"q": "zzz"}).text
        # zero-width characters typed into the box do not stop a match
        assert [s["player"] for s in c.get("/api/events/ev/seats", params={"q": "a\u200bnn"}).json()] == ["ann"]


def test_find_your_seat_ignores_accents_and_case(db_url: str) -> None:
    make_event(db_url, display={"bob": "José Ramírez", "cat": "ÅSA Öberg"})
    with client(db_url) as c:
        assert [s["name"] for s in c.get("/api/events/ev/seats", params={"q": "jose ram"}).json()] == ["José Ramírez"]
        assert [s["player"] for s in c.get("/api/events/ev/seats", params={"q": "asa ob"}).json()] == ["cat"]


def test_every_page_renders_and_pairings_come_by_table_and_by_name(db_url: str) -> None:
    make_event(db_url)
    with client(db_url) as c:
        for path in ("/", "/e/ev", "/e/ev?by=name", "/e/ev/round/1", "/e/ev/standings", "/e/ev/bracket", "/e/ev/pods"):
            answer = c.get(path)
            assert answer.status_code == 200, path
            assert "https://" not in answer.text and "<script>" not in answer.text, "no external assets, nothing inline"
            assert set(re.findall(r'<script src="([^"?]+)', answer.text)) == {"/static/headjudge.js"}
        by_name = re.findall(r'<tr><td class="name">(\w+)</td>', c.get("/e/ev?by=name").text)
        assert by_name == ["ann", "bob", "cat", "dan"]
        for path in ("/e/ev", "/e/ev?by=name"):  # headings in words, as on the printed pages
            headings = re.findall(r"<th[^>]*>([^<]*)</th>", c.get(path).text)
            assert "Opponent" in headings and not {"player_a", "player_b", "opponent"} & set(headings), path


def test_hostile_names_are_escaped_everywhere(db_url: str) -> None:
    make_event(db_url, name=HOSTILE, display={"ann": HOSTILE_PERSON})
    with client(db_url) as c:
        for path in ("/", "/e/ev", "/e/ev?by=name", "/e/ev?q=brien", "/e/ev/standings"):
            text = c.get(path).text
            assert "<script>window" not in text and "<img src=x" not in text, path
        page = c.get("/e/ev").text
        assert "&lt;script&gt;window.__injected=1&lt;/script&gt; \u202eevil O&#39;Brien\u200b &#34;quoted&#34;" in page
        assert "&lt;img src=x onerror=&#34;window.__injected=1&#34;&gt; &#34;O&#39;Brien&#34; שלום &amp; co" in page
        assert "&lt;img src=x" in c.get("/e/ev", params={"q": "brien"}).text, "find-your-seat matches display names"
        assert c.get("/api/events/ev").json()["name"] == HOSTILE
        assert c.get("/api/events/ev/seats", params={"q": "שלום"}).json()[0]["name"] == HOSTILE_PERSON


def test_the_version_moves_when_the_event_changes(db_url: str) -> None:
    make_event(db_url)
    with client(db_url) as c:
        before = c.get("/api/events/ev/version").json()
        with database(db_url) as engine, Session(engine) as session, session.begin():
            match = service.matches(session, "ev", 1)[0]
            service.report(session, "ev", 1, result=service.Tally({match.player_a: 1, match.player_b: 0}), reason="slip")
        after = c.get("/api/events/ev/version").json()
        assert after["seq"] == before["seq"] + 1 and after["rounds"] == 1


def test_the_openapi_document_lists_the_api(db_url: str) -> None:
    make_event(db_url)
    with client(db_url) as c:
        document = c.get("/api/schema/openapi.json").json()
        assert {"/api/events", "/api/events/{event_id}/standings", "/api/events/{event_id}/seats"} <= set(document["paths"])
        assert "StandingRow" in document["components"]["schemas"]


def test_after_a_top_cut_the_standings_page_shows_the_swiss_at_the_cut_and_the_places_apart(db_url: str) -> None:
    make_event(db_url)  # four players, round 1 paired
    with database(db_url) as engine, Session(engine) as session, session.begin():
        for match in service.matches(session, "ev", 1):
            service.report(session, "ev", match.number, result=service.Tally({match.player_a: 1, match.player_b: 0}))
        service.cut(session, "ev", 2)
    with client(db_url) as c:
        text = c.get("/e/ev/standings").text
    assert "Top cut: places" in text and "Swiss standings at the cut, after round 1" in text
