"""The pages' forms (CSRF, cookies, hostile names) and the organiser's clock, through Litestar's test client."""

from __future__ import annotations

from typing import Any

from tests.tournament.webkit import (
    HOSTILE_PERSON,
    client,
    codes,
    csrf,
    make_event,
    organiser,
    organiser_page,
    player_page,
    sign_in,
    tables,
)


def test_forms_need_the_csrf_token(db_url: str) -> None:
    make_event(db_url)
    keys = codes(db_url)
    (a, b), _ = tables(db_url)
    with client(db_url) as c:
        assert c.post("/join", data={"code": keys[a]}).status_code == 403
        token = csrf(c.get("/join").text)
        signed_in = c.post("/join", data={"code": keys[a], "_csrf_token": token})
        assert signed_in.status_code == 200 and signed_in.url.path == "/me"
        cookie = next(h for h in signed_in.history[0].headers.get_list("set-cookie") if h.startswith("hj_session="))
        assert "HttpOnly" in cookie and "SameSite=lax" in cookie
        assert c.post("/me/result", data={f"games.{a}": "1", f"games.{b}": "0"}).status_code == 403
        done = c.post("/me/result", data={f"games.{a}": "1", f"games.{b}": "0", "_csrf_token": token})
        assert done.status_code == 200 and "must confirm" in done.text
        assert c.get("/api/me").status_code == 401, "the API never reads the page cookie"


def test_hostile_names_are_escaped_on_the_player_and_organiser_pages(db_url: str) -> None:
    make_event(db_url, display={"ann": HOSTILE_PERSON, "bob": HOSTILE_PERSON + " 2", "cat": HOSTILE_PERSON + " 3", "dan": HOSTILE_PERSON + " 4"})
    keys = codes(db_url)
    (a, b), _ = tables(db_url)
    with client(db_url) as c:
        token = player_page(c, keys[a])
        page = c.post("/me/result", data={f"games.{a}": "1", f"games.{b}": "0", "_csrf_token": token}).text
        assert "<img src=x" not in page and "&lt;img src=x onerror=&#34;window.__injected=1&#34;&gt;" in page
    with client(db_url) as c:
        token = organiser_page(c)
        page = c.get("/admin/e/ev").text
        assert "Judge queue (0)" in page and "<img src=x" not in page and "&lt;img src=x" in page


def test_a_wrong_organiser_token_is_refused_and_players_cannot_act_as_organiser(db_url: str) -> None:
    make_event(db_url)
    keys = codes(db_url)
    with client(db_url) as c:
        assert c.post("/api/admin/login", json={"code": "not-the-token"}).status_code == 401
        player = c.post("/api/join", json={"code": next(iter(keys.values()))}).json()["session"]
        answer = c.post("/api/admin/events/ev/pair", headers={"Authorization": f"Bearer {player}"})
        assert answer.status_code == 403


def test_a_number_field_that_is_not_plain_digits_is_refused_naming_the_field(db_url: str) -> None:
    """A refused form is answered like any other: a redirect to its page, which says why (nothing is written)."""
    make_event(db_url)
    keys = codes(db_url)
    (a, b), _ = tables(db_url)
    with client(db_url) as c:
        token = player_page(c, keys[a])
        for odd in ("\u00b2", "x", "-1"):  # a superscript two passes str.isdigit, not int()
            page = c.post("/me/result", data={f"games.{a}": odd, f"games.{b}": "0", "_csrf_token": token})
            assert [r.status_code for r in page.history] == [303] and page.url.path == "/me"
            assert "write a whole number" in page.text and f"games.{a}" in page.text and 'role="alert"' in page.text
    with client(db_url) as c:
        token = organiser_page(c)
        page = c.post("/admin/e/ev/rule", data={"table": "\u00b2", "reason": "slip", "_csrf_token": token})
        assert page.history[0].status_code == 303 and "table: write a whole number" in page.text
        assert c.get("/api/events/ev/version").json()["seq"] == 6, "nothing was written after the pairing"


def test_a_table_number_too_large_for_the_database_is_no_table(db_url: str) -> None:
    make_event(db_url)
    codes(db_url)
    with client(db_url) as c:
        boss = organiser(c)
        c.post("/api/admin/events/ev/clock", headers=boss, json={"minutes": 40})
        for action, body in (("rule", {"table": 10**30, "reason": "slip"}), ("extend", {"table": 2**63, "minutes": 5})):
            answer = c.post(f"/api/admin/events/ev/{action}", headers=boss, json=body)
            assert answer.status_code == 404 and f"no table {body['table']}" in answer.json()["error"]


def test_a_body_of_the_wrong_shape_is_a_400_naming_the_field(db_url: str) -> None:
    make_event(db_url)
    codes(db_url)
    with client(db_url) as c:
        answer = c.post("/api/join", json={"code": 5})
        assert answer.status_code == 400 and answer.json()["error"].endswith("code: Expected `str`, got `int`")
        answer = c.post("/api/admin/events/ev/rule", headers=organiser(c), json={"table": "one", "reason": "slip"})
        assert answer.status_code == 400 and "table: Expected `int`, got `str`" in answer.json()["error"]
        answer = c.post("/api/join", content=b"\xff{", headers={"Content-Type": "application/json"})
        assert answer.status_code == 400 and answer.json()["error"].startswith("JSON is malformed")


def test_the_organiser_starts_the_clock_and_gives_a_table_extra_time(db_url: str) -> None:
    make_event(db_url)
    keys = codes(db_url)
    _, (c_, _d) = tables(db_url)
    with client(db_url) as c:
        boss = organiser(c)
        started = c.post("/api/admin/events/ev/clock", headers=boss, json={"minutes": 40}).json()
        assert started["minutes"] == 40 and started["started_at"]
        again = c.post("/api/admin/events/ev/clock", headers=boss, json={"minutes": 40})
        assert again.status_code == 409
        tables_now = c.post("/api/admin/events/ev/extend", headers=boss, json={"table": 2, "minutes": 5, "reason": "judge call"}).json()
        assert [t["table"]["extra_minutes"] for t in tables_now] == [0, 5]
        mine = c.get("/api/me", headers=sign_in(c, keys[c_])).json()["table"]["table"]
        assert mine["extra_minutes"] == 5 and mine["ends_at"] > started["started_at"]
        assert "Time:" in c.get("/e/ev").text and "data-ends=" in c.get("/e/ev").text
        pairing = c.post("/api/admin/events/ev/pair", headers=boss)
        assert pairing.status_code == 409 and "tables 1, 2" in pairing.json()["error"]


def test_a_large_upload_is_refused_on_the_page_and_the_api_even_as_it_streams_in(db_url: str) -> None:
    make_event(db_url, ["ann", "bob"])
    keys = codes(db_url)
    with client(db_url) as c:
        token = player_page(c, keys["ann"])
        big = b"x" * (3 * 1024 * 1024)
        page = c.post("/me/logs", data={"_csrf_token": token}, files={"log": ("huge.jsonl", big)})
        assert page.status_code == 413 and "larger than the limit of 2048 KiB" in page.text
        hb = sign_in(c, keys["bob"])
        answer = c.post("/api/me/logs", headers=hb, files={"log": ("huge.jsonl", big)})
        assert answer.status_code == 413
        assert answer.json()["error"].startswith("the upload is larger than the limit of 2048 KiB")

        def chunks() -> Any:  # no Content-Length: the server counts what arrives
            for _ in range(48):
                yield b"y" * 65536

        boundary = "b0undary"
        streamed = c.post(
            "/api/me/logs", content=chunks(), headers={"Content-Type": f"multipart/form-data; boundary={boundary}", **hb},
        )
        assert streamed.status_code == 413
