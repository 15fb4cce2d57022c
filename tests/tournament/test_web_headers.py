"""Issue 22, defect 7: security headers on every response `tournament serve` sends.

Every route of the app is walked (each method, its path filled in), and so are
the answers no handler writes: an unknown path (404), a wrong method (405), no
session (401), too many guesses (429), a failing handler (500), a large upload
(413), redirects, static files. On main before the fix no response had any of
these headers. The browser side (no policy violation on any page, the scripts
still working under the policy) is in test_web_design.py.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import TestClient

from tests.tournament.webkit import ORGANISER_TOKEN, codes, make_event, organiser
from tournament.web import create_app

POLICY = "default-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'; object-src 'none'"
EXPECTED = {
    "content-security-policy": POLICY,
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
}
FILLED = {"event_id": "ev", "number": "1", "file_path": "headjudge.css", "path": "openapi.json", "person_id": "1", "player_id": "ann", "table": "1", "name": "export.json", "season_id": "s1", "staff_id": "1", "token": "t" * 32}


def assert_secured(answer: Any, what: str) -> None:
    for name, value in EXPECTED.items():
        assert answer.headers.get(name) == value, f"{what} ({answer.status_code}): {name} is {answer.headers.get(name)!r}"


@pytest.fixture
def db(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'tournament.db'}"
    make_event(url)
    codes(url)
    return url


def test_every_route_and_every_refusal_carries_the_security_headers(db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    app = create_app(db)
    app.state.stream_seconds = 0  # the live pages' stream (web/follow.py) sends the head and ends: the walk reads it whole
    with TestClient(app=app) as c:
        walked = set()
        for signed_in in (None, organiser(c)):  # anonymous, then as the organiser (the admin API's answers too)
            for route in app.routes:
                path = re.sub(r"\{(\w+)(?::\w+)?\}", lambda m: FILLED[m.group(1)], route.path)
                for method in sorted(route.methods):
                    body = {} if method == "POST" and path.startswith("/api/") else None
                    answer = c.request(method, path, json=body, headers=signed_in, follow_redirects=False)
                    assert_secured(answer, f"{method} {path}")
                    walked.add(answer.status_code)
        assert {200, 201, 400, 401, 403, 404} <= walked
        statuses = {}
        for what, answer in {
            "unknown page": c.get("/no/such/page"),
            "unknown api": c.get("/api/no/such"),
            "wrong method": c.delete("/e/ev"),
            "no session": c.get("/api/me"),
            "no session, page": c.post("/admin/e/ev/pair", follow_redirects=False),
            "redirect": c.get("/me", follow_redirects=False),
            # a public route: a guarded one refuses nobody (401) before it reads a body
            "too large": c.post("/api/join", content=b"x" * (3 << 20), headers={"content-type": "application/json"}),
            "static": c.get("/static/headjudge.js"),
            "missing static": c.get("/static/nothing.css"),
        }.items():
            assert_secured(answer, what)
            statuses[what] = answer.status_code
        assert statuses == {
            "unknown page": 404, "unknown api": 404, "wrong method": 405, "no session": 401, "no session, page": 403,
            "redirect": statuses["redirect"], "too large": 413, "static": 200, "missing static": 404,
        } and statuses["redirect"] in (302, 303, 307)
        for _ in range(100):  # wrong organiser tokens until the guess limit answers (bounded)
            answer = c.post("/api/admin/login", json={"code": "wrong-token-0123456789"})
            if answer.status_code == 429:
                break
        assert answer.status_code == 429
        assert_secured(answer, "too many guesses")

        def broken(*_args: Any) -> None:
            raise RuntimeError("a bug")

        monkeypatch.setattr("tournament.web.views.events", broken)
        for path in ("/", "/api/events"):
            answer = c.get(path)
            assert answer.status_code == 500, path
            assert_secured(answer, f"500 on {path}")


def test_static_files_are_versioned_by_content_and_cached(db: str) -> None:
    with TestClient(app=create_app(db)) as c:
        page = c.get("/e/ev").text
        links = re.findall(r'(?:href|src)="(/static/[^"]+)"', page)
        assert {link.split("?")[0] for link in links} == {"/static/headjudge.css", "/static/headjudge.js"}
        for link in links:
            answer = c.get(link)
            assert answer.status_code == 200
            assert "immutable" in answer.headers["cache-control"] and "max-age=31536000" in answer.headers["cache-control"]
            assert answer.headers["etag"]
            assert link.endswith("?v=" + hashlib.sha256(answer.content).hexdigest()[:16])
        assert "<script>" not in page and "<style" not in page and " style=" not in page, "nothing inline"


def test_over_https_every_cookie_is_secure_the_csrf_cookie_too(db: str) -> None:
    for base, secure in (("https://testserver.local", True), ("http://testserver.local", False)):
        with TestClient(app=create_app(db), base_url=base) as c:
            answer = c.get("/admin")
            csrf = [v for k, v in answer.headers.multi_items() if k == "set-cookie" and v.startswith("csrftoken=")]
            assert csrf and ("; secure" in csrf[0].lower()) is secure, (base, csrf)
            login = c.post("/admin/login", data={"token": ORGANISER_TOKEN, "_csrf_token": c.cookies["csrftoken"]},
                           follow_redirects=False)
            assert login.status_code == 303, login.text
            session = [v for k, v in login.headers.multi_items() if k == "set-cookie" and v.startswith("hj_session=")]
            assert session and ("; secure" in session[0].lower()) is secure, (base, session)
            assert_secured(login, "sign-in redirect")
