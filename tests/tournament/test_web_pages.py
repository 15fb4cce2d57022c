"""What players and organisers read on `tournament serve` (issue 22, "What players and organisers see"),
through Litestar's test client: names and scores in words, tables a phone can hold, the words of each state."""

from __future__ import annotations

import re

from litestar.testing import TestClient
from sqlalchemy.orm import Session

from tests.tournament.tlib import game_log, winner
from tests.tournament.webkit import (
    ORGANISER_TOKEN,
    client,
    codes,
    database,
    make_event,
    organiser,
    sign_in,
    tables,
)
from tournament import service
from tournament.output import render


def cells(html: str, table_class: str) -> list[list[str]]:
    """The text of each body row of the first `<table class=table_class>`, tags stripped."""
    table = html.split(f'<table class="{table_class}"', 1)[1].split("</table>", 1)[0]
    body = table.split("<tbody>", 1)[1]
    return [
        [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", c)).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)
    ]


def test_pods_are_a_table_with_seats_and_places(db_url: str) -> None:
    make_event(db_url, ["ann", "bob", "cat", "dan", "eve", "fay"], format="pods", table_size=3, ruleset="crossover",
               display={"ann": "Ann Lee"})
    with database(db_url) as engine, Session(engine) as s, s.begin():
        _pod, seats = service.pod_tables(s, "ev", 1)[0]
        service.claim(s, "ev", seats[0].player, places={p.player: k for k, p in enumerate(reversed(seats), start=1)})
        for other in seats[1:]:
            service.confirm(s, "ev", other.player, seats[0].player)
        seated = [service.display_names(s, "ev")[p.player] for p in seats]
    with client(db_url) as c:
        page = c.get("/e/ev/pods").text
    assert "<pre" not in page
    first = cells(page, "pods")[0]
    assert first[0] == "1" and first[1] == " ".join(seated) and first[2] == " ".join(reversed(seated))
    assert cells(page, "pods")[1][2] == "not reported"


def form_token(c: TestClient, path: str) -> dict[str, str]:  # type: ignore[type-arg]
    """The CSRF token and a fresh one-time key of the first form on `path`."""
    page = c.get(path).text
    token = re.search(r'name="_csrf_token" value="([^"]+)"', page)
    key = re.search(r'name="_key" value="([^"]+)"', page)
    assert token and key, path
    return {"_csrf_token": token.group(1), "_key": key.group(1)}


def test_claims_read_in_names_and_words_and_the_form_starts_empty(db_url: str) -> None:
    make_event(db_url, display={"ann": "Hiroshi Tanaka", "bob": "Amara Okafor", "cat": "Lena Fischer", "dan": "Mateo García"},
               best_of=3)
    keys = codes(db_url)
    (a, b), _ = tables(db_url)
    names = {"ann": "Hiroshi Tanaka", "bob": "Amara Okafor", "cat": "Lena Fischer", "dan": "Mateo García"}
    with client(db_url) as c:
        c.get(f"/join#code={keys[a]}")
        c.post("/join", data={**form_token(c, "/join"), "code": keys[a]})
        mine = c.get("/me").text
        assert 'value="0"' not in mine and re.search(rf'name="games.{a}"[^>]*required', mine), "no pre-filled 0-0"
        c.post("/me/result", data={**form_token(c, "/me"), f"games.{a}": "0", f"games.{b}": "2"})
        assert f"{names[b]} wins 2-0" in c.get("/me").text
    with client(db_url) as c:
        c.post("/join", data={**form_token(c, "/join"), "code": keys[b]})
        theirs = c.get("/me").text
        assert f"Yes, {names[b]} wins 2-0" in theirs and "That's not right" in theirs
        assert f"{a} 0-2 {b}" not in theirs and f">{a}<" not in theirs, "no ids"
        assert 'action="/me/result"' not in theirs, "no competing score to type"
        said = c.post("/me/dispute", data={**form_token(c, "/me"), "claimant": a, "text": "I conceded game 2"})
        assert 'role="alert"' not in said.text and "A judge is called to table 1" in said.text
    with client(db_url) as c:
        boss = organiser(c)
        calls = c.get("/api/admin/events/ev/calls", headers=boss).json()
        assert calls[0]["text"] == f"Not right: {names[a]} says {names[b]} wins 2-0. I conceded game 2"
        tables_ = c.get("/api/admin/events/ev/tables", headers=boss).json()
        assert tables_[0]["claims"][0]["said"] == f"{names[b]} wins 2-0"


def test_score_words() -> None:
    names = {"a": "Ann Lee", "b": "Bob"}
    assert render.score_words(["a", "b"], names, {"a": 2, "b": 1}) == "Ann Lee wins 2-1"
    assert render.score_words(["a", "b"], names, {"a": 0, "b": 2}, 1) == "Bob wins 2-0 (1 drawn game)"
    assert render.score_words(["a", "b"], names, {"a": 1, "b": 1}, 1) == "Draw, 1-1 (1 drawn game)"
    assert render.score_words(["a", "b"], names, {"a": 0, "b": 0}) == "Intentional draw"
    assert render.score_words(["a", "b"], names, None, 0, {"a": 2, "b": 1}) == "1st Bob, 2nd Ann Lee"
    assert [render.ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22)] == ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd"]


def test_a_drop_asks_first_and_says_it_cannot_be_undone(db_url: str) -> None:
    make_event(db_url, display={"ann": "Hiroshi Tanaka"})
    codes(db_url)
    with client(db_url) as c:
        organiser(c)
        c.post("/admin/login", data={**form_token(c, "/admin"), "token": ORGANISER_TOKEN})
        event_page = c.get("/admin/e/ev").text
        assert re.search(r'<form method="get" action="/admin/e/ev/drop"', event_page), "the first step is a GET"
        asked = c.get("/admin/e/ev/drop", params={"player": "ann"})
        assert asked.status_code == 200 and "Drop Hiroshi Tanaka?" in asked.text and "cannot be undone" in asked.text
        assert "goes to the opponent" in asked.text
        with database(db_url) as engine, Session(engine) as s:
            assert service.get_player(s, "ev", "ann").dropped_round is None, "asking changes nothing"
        done = c.post("/admin/e/ev/drop", data={**form_token(c, "/admin/e/ev/drop?player=ann"), "player": "ann"})
        assert "Hiroshi Tanaka dropped" in done.text
        assert "has dropped already" in c.get("/admin/e/ev/drop", params={"player": "ann"}).text


def test_a_pods_drop_says_the_player_stays_in_their_pod(db_url: str) -> None:
    """T-15: a pod is not conceded; the organiser's and the player's drop pages say what happens to the table."""
    make_event(db_url, ["ann", "bob", "cat", "dan"], format="pods", table_size=4, ruleset="crossover", display={"ann": "Hiroshi Tanaka"})
    keys = codes(db_url)
    with client(db_url) as c:
        c.post("/admin/login", data={**form_token(c, "/admin"), "token": ORGANISER_TOKEN})
        asked = c.get("/admin/e/ev/drop", params={"player": "ann"}).text.replace("&#39;", "'")
        assert "Their pod at table 1 of this round has no result yet: they stay in it, nothing is conceded" in asked
        assert "goes to the opponent" not in asked
    with client(db_url) as c:
        c.post("/join", data={**form_token(c, "/join"), "code": keys["ann"]})
        assert "A pod you are playing now is not given away: you stay in it" in c.get("/me/drop").text


def test_the_bracket_page_says_bracket_once(db_url: str) -> None:
    make_event(db_url, format="single")
    with client(db_url) as c:
        page = c.get("/e/ev/bracket").text
    assert re.findall(r"<h[12]>Bracket</h[12]>", page) == ["<h1>Bracket</h1>"] and 'aria-label="Bracket"' in page


def test_public_pairings_have_four_columns_points_and_one_time_zone(db_url: str) -> None:
    make_event(db_url, ["ann", "bob", "cat", "dan", "eve"], display={"ann": "Hiroshi Tanaka"})
    with database(db_url) as engine, Session(engine) as s, s.begin():
        for m in service.matches(s, "ev", 1):
            service.report(s, "ev", m.number, result=service.Tally({m.player_a: 1, m.player_b: 0}), reason="slip")
        service.pair(s, "ev")
        service.start_round(s, "ev", 50)
    with client(db_url) as c:
        page = c.get("/e/ev").text
    assert "Result from" not in page and "Reason" not in page and ">slip<" not in page, "no internal columns"
    heads = re.findall(r"<th[^>]*>([^<]*)</th>", page.split('<table class="pairings"')[1].split("</thead>")[0])
    assert heads == ["Table", "Player", "Opponent", "Result"]
    rows = cells(page, "pairings")
    assert all(re.search(r"\d+ pts$", row[1]) for row in rows), rows
    assert page.count(render.zone_name()) == 1 and " UTC</span>" not in page


def test_standings_in_a_round_are_provisional_find_a_row_and_explain_the_columns(db_url: str) -> None:
    make_event(db_url, display={"ann": "Hiroshi Tanaka", "bob": "Amara Okafor"})
    with database(db_url) as engine, Session(engine) as s, s.begin():
        for m in service.matches(s, "ev", 1):
            service.report(s, "ev", m.number, result=service.Tally({m.player_a: 1, m.player_b: 0}))
        service.pair(s, "ev")
    with client(db_url) as c:
        page = c.get("/e/ev/standings", params={"q": "tanaka"}).text
        assert "provisional, round 2 in play" in page and "Complete after round 1" in page
        marked = re.findall(r'<tr class="mine">(.*?)</tr>', page, re.S)
        assert len(marked) == 1 and "Hiroshi Tanaka" in marked[0]
        assert "<summary>What the columns mean</summary>" in page and "<dt>omw%</dt><dd>Opponents&#39; match win %</dd>" in page
        with database(db_url) as engine, Session(engine) as s, s.begin():
            for m in service.matches(s, "ev", 2):
                service.report(s, "ev", m.number, result=service.Tally({m.player_a: 1, m.player_b: 0}))
        assert "Standings after round 2" in c.get("/e/ev/standings").text


def test_a_signed_in_player_sees_their_own_row_marked(db_url: str) -> None:
    make_event(db_url, display={"ann": "Hiroshi Tanaka"})
    keys = codes(db_url)
    with client(db_url) as c:
        c.post("/join", data={**form_token(c, "/join"), "code": keys["ann"]})
        for path in ("/e/ev/standings", "/e/ev"):
            marked = re.findall(r'<tr class="mine">(.*?)</tr>', c.get(path).text, re.S)
            assert len(marked) == 1 and "Hiroshi Tanaka" in marked[0], path


def test_events_with_one_name_are_told_apart_by_id_and_date(db_url: str) -> None:
    make_event(db_url, event="spring", name="Spring Open")
    make_event(db_url, event="spring-2", name="Spring Open")
    with client(db_url) as c:
        page = c.get("/").text
    assert "id spring<" in page and "id spring-2<" in page
    assert len(re.findall(r"\d{1,2} \w{3} \d{4}", page)) == 2


def test_a_claim_of_logs_says_the_score_the_referee_read_with_the_fingerprints_folded(db_url: str) -> None:
    make_event(db_url, ["ann", "bob"], display={"ann": "Hiroshi Tanaka", "bob": "Amara Okafor"})
    keys = codes(db_url)
    log = game_log("ann", "bob", 3)
    won = winner(log)
    assert won is not None
    with client(db_url) as c:
        ann = sign_in(c, keys["ann"])
        assert c.post("/api/me/logs", headers=ann, files=[("log", ("g1.jsonl", log))]).status_code == 201
    with client(db_url) as c:
        c.post("/join", data={**form_token(c, "/join"), "code": keys["bob"]})
        page = c.get("/me").text
    said = f"{'Hiroshi Tanaka' if won == 'ann' else 'Amara Okafor'} wins 1-0"
    assert f"Hiroshi Tanaka</b> says: <span class=\"score\">{said}</span>" in page
    hashes = page.split("<summary>No file? Type the fingerprints</summary>")
    assert len(hashes) == 2 and "game log(s) checked" not in page
