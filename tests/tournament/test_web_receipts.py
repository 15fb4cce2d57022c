"""Post/redirect/get with one-time keys (issue 22, defect 1), on SQLite and PostgreSQL.

Every form answers with a redirect to a page fetched by GET, and a repeated
POST with the same key (a double tap, a browser's resend) applies nothing and
is answered with the first answer. The API takes an `Idempotency-Key`.
"""

from __future__ import annotations

import re
import threading
from datetime import timedelta

import httpx
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from tests.tournament.webkit import (
    ORGANISER_TOKEN,
    client,
    codes,
    database,
    head,
    make_event,
    organiser,
    organiser_page,
    player_page,
    serving,
    sign_in,
    tables,
)
from tournament.storage.models import Receipt
from tournament.web import receipts


def form_fields(page: str, action: str) -> dict[str, str]:
    """The hidden fields (CSRF token, one-time key) of the first form posting to `action`."""
    form = re.search(rf'<form method="post" action="{re.escape(action)}"[^>]*>(.*?)</form>', page, re.S)
    assert form, f"a form posting to {action}"
    return dict(re.findall(r'<input type="hidden" name="(_csrf_token|_key)" value="([^"]+)">', form.group(1)))


def test_a_form_sent_twice_with_its_key_is_applied_once_and_answered_alike(db_url: str) -> None:
    make_event(db_url)
    keys = codes(db_url)
    (a, b), _ = tables(db_url)
    with client(db_url) as c:
        organiser_page(c)
        c.post("/api/admin/events/ev/clock", headers=organiser(c), json={"minutes": 40})
        page = c.get("/admin/e/ev").text
        fields = form_fields(page, "/admin/e/ev/extend")
        before = head(db_url)
        answers = [c.post("/admin/e/ev/extend", data={"table": "1", "minutes": "5", "reason": "deck check", **fields}) for _ in range(3)]
        assert head(db_url) == before + 1, "one tap, one extension"
        assert {str(r.url) for r in answers} == {f"http://testserver.local/admin/e/ev?r={fields['_key']}"}
        assert all(r.history[0].status_code == 303 and "table 1: 5 more minutes" in r.text for r in answers)
        assert c.get("/api/events/ev/round").json()["tables"][0]["extra_minutes"] == 5
    with client(db_url) as c:  # a player's report, double-tapped
        player_page(c, keys[a])
        fields = form_fields(c.get("/me").text, "/me/result")
        before = head(db_url)
        for _ in range(2):
            done = c.post("/me/result", data={f"games.{a}": "1", f"games.{b}": "0", **fields})
            assert done.url.path == "/me" and "must confirm" in done.text
        assert head(db_url) == before + 1


def test_a_refused_form_redirects_with_its_refusal_and_writes_nothing_else(db_url: str) -> None:
    make_event(db_url)
    codes(db_url)
    with client(db_url) as c:
        organiser_page(c)
        fields = form_fields(c.get("/admin/e/ev").text, "/admin/e/ev/pair")
        before = head(db_url)
        refused = c.post("/admin/e/ev/pair", data=fields)
        assert refused.history[0].status_code == 303 and refused.url.path == "/admin/e/ev"
        assert "tables 1, 2" in refused.text and 'role="alert"' in refused.text
        assert head(db_url) == before
        assert c.get(str(refused.url)).text.count("tables 1, 2") == 1, "the page, fetched again, says it again"
    with client(db_url) as c:
        wrong = c.post("/admin/login", data={"token": "not-it", **form_fields(c.get("/admin").text, "/admin/login")})
        assert wrong.history[0].status_code == 303, "even a refused sign-in is a redirect"
        assert wrong.url.path == "/admin" and "that is not the organiser token" in wrong.text


def test_a_new_code_is_shown_once_on_the_page_the_form_leads_to(db_url: str) -> None:
    make_event(db_url)
    codes(db_url)
    with client(db_url) as c:
        organiser_page(c)
        fields = form_fields(c.get("/admin/e/ev").text, "/admin/e/ev/code")
        shown = c.post("/admin/e/ev/code", data={"player": "ann", **fields})
        code = re.search(r"<p><code>([^<]+)</code></p>", shown.text)
        assert code and "<svg" in shown.text
        again = c.get(str(shown.url))
        assert code.group(1) not in again.text and "shown once" in again.text, "a reload does not show it again"
        assert c.post("/api/join", json={"code": code.group(1)}).status_code == 201
    with database(db_url) as engine, Session(engine) as session:
        assert session.scalar(select(func.count()).select_from(Receipt).where(Receipt.secret.is_not(None))) == 0


def test_the_api_answers_a_repeated_idempotency_key_with_the_first_answer(db_url: str) -> None:
    make_event(db_url)
    keys = codes(db_url)
    (a, b), _ = tables(db_url)
    with client(db_url) as c:
        ha = sign_in(c, keys[a])
        key = {"Idempotency-Key": "claim-ann-0123456789"}
        before = head(db_url)
        first = c.post("/api/me/claim", headers=ha | key, json={"games": {a: 1, b: 0}})
        again = c.post("/api/me/claim", headers=ha | key, json={"games": {a: 1, b: 0}})
        assert first.status_code == again.status_code == 201 and first.json() == again.json()
        assert head(db_url) == before + 1
        other = c.post("/api/me/claim", headers=sign_in(c, keys[b]) | key, json={"games": {a: 1, b: 0}})
        assert other.status_code == 409, "a key is its sender's"
        bad = c.post("/api/me/claim", headers=ha | {"Idempotency-Key": "short"}, json={"games": {a: 1, b: 0}})
        assert bad.status_code == 400 and "Idempotency-Key" in bad.json()["error"]
        boss = organiser(c) | {"Idempotency-Key": "pair-round-2-0123456789"}
        refused = [c.post("/api/admin/events/ev/pair", headers=boss) for _ in range(2)]
        assert [r.status_code for r in refused] == [409, 409] and refused[0].json() == refused[1].json()
        made = c.post("/api/admin/events/ev/codes", headers=boss | {"Idempotency-Key": "code-for-ann-0123456789"}, json={"player": a})
        repeat = c.post("/api/admin/events/ev/codes", headers=boss | {"Idempotency-Key": "code-for-ann-0123456789"}, json={"player": a})
        assert made.status_code == 201 and repeat.status_code == 409 and made.json()["code"] not in repeat.text, "a code is given once"


def test_one_key_sent_at_once_from_many_threads_is_applied_once(db_url: str) -> None:
    """On PostgreSQL the twins queue on the receipt's primary key: one applies, the others read its receipt."""
    make_event(db_url)
    codes(db_url)
    with serving(db_url) as base:
        boss = httpx.post(f"{base}/api/admin/login", json={"code": ORGANISER_TOKEN}).json()["session"]
        headers = {"Authorization": f"Bearer {boss}"}
        httpx.post(f"{base}/api/admin/events/ev/clock", headers=headers, json={"minutes": 40})
        before = head(db_url)
        start, answers = threading.Barrier(8), []

        def extend() -> None:
            start.wait()
            answer = httpx.post(
                f"{base}/api/admin/events/ev/extend", headers=headers | {"Idempotency-Key": "extend-1-at-once-0123"},
                json={"table": 1, "minutes": 5, "reason": "judge call"}, timeout=60,
            )
            answers.append((answer.status_code, answer.text))

        threads = [threading.Thread(target=extend) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=60)
        assert len(answers) == 8 and len(set(answers)) == 1 and answers[0][0] == 201
        assert head(db_url) == before + 1
        assert httpx.get(f"{base}/api/events/ev/round").json()["tables"][0]["extra_minutes"] == 5


def test_receipts_expire(db_url: str) -> None:
    make_event(db_url)
    keys = codes(db_url)
    with client(db_url) as c:
        ha = sign_in(c, keys["ann"])
        with database(db_url) as engine, Session(engine) as session, session.begin():
            assert session.scalar(select(func.count()).select_from(Receipt)) == 1
            for row in session.scalars(select(Receipt)):
                row.created_at -= receipts.LIFETIME + timedelta(seconds=1)
        c.post("/api/me/claim", headers=ha, json={"games": {"ann": 1, "bob": 0}})
    with database(db_url) as engine, Session(engine) as session:
        assert session.scalar(select(func.count()).select_from(Receipt)) == 1, "the old receipt went as a new one came"
