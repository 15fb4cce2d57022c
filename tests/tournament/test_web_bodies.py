"""A JSON body the server cannot read is the client's error: 400 and one line, on every route that takes one,
and nothing in the server's log (issue 33: nesting too deep was a 500 and a 2 KB traceback, even on `/api/join`).

The routes are found from the app itself (every handler with a JSON `data` body), so a route added later is
covered too.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import pytest
from litestar import Litestar
from litestar.enums import RequestEncodingType
from litestar.routes import HTTPRoute

from .webkit import client, codes, make_event, sign_in

DEEP = b"[" * 100_000 + b"]" * 100_000
JUST_TOO_DEEP = b'{"after":0,"record":{"type":"attack","by":"ann","note":' + b"[" * 1_200 + b"]" * 1_200 + b"}}"
BODIES = {
    "deep": DEEP,
    "deep inside a field": JUST_TOO_DEEP,
    "deep objects": b'{"a":' * 50_000 + b"1" + b"}" * 50_000,
    "truncated": b'{"code": "ab',
    "not JSON": b"code=abc",
}


def json_routes(app: Litestar) -> list[str]:
    """Every path whose POST handler reads a JSON body (`data`), its parameters filled in."""
    found = []
    for route in app.routes:
        if not isinstance(route, HTTPRoute):
            continue
        handler = route.route_handler_map.get("POST")
        data = handler[0].parsed_fn_signature.parameters.get("data") if handler else None
        if data is None or getattr(data.kwarg_definition, "media_type", None) != RequestEncodingType.JSON:
            continue
        path = re.sub(r"\{event_id:str\}", "ev", route.path)
        found.append(re.sub(r"\{\w+:int\}", "1", path))
    return sorted(found)


def test_every_json_route_answers_a_body_it_cannot_read_with_400_and_one_line(db_url: str, caplog: pytest.LogCaptureFixture) -> None:
    # Fails on the code before issue 33: the deep bodies were 500s with a RecursionError's traceback logged.
    make_event(db_url, tables="paper")
    player = codes(db_url)["ann"]
    with client(db_url) as c, caplog.at_level(logging.DEBUG):
        routes = json_routes(c.app)
        assert {"/api/join", "/api/events/ev/register", "/api/events/ev/tables/1/records", "/api/admin/events"} <= set(routes)
        signed: dict[str, Any] = sign_in(c, player)
        read: dict[str, bool] = {}
        for path in routes:
            for name, body in BODIES.items():
                for headers in ({}, signed):  # anonymous, and a player signed in
                    answer = c.post(path, content=body, headers={**headers, "content-type": "application/json"})
                    where = f"{name} to {path}"
                    if not path.startswith("/api/"):  # a page's JSON route: its CSRF check answers first
                        assert answer.status_code in (400, 403), where
                        continue
                    # a role the route is not for is refused by the guard (401/403, T-175) before its body is read
                    assert answer.status_code in (400, 401, 403), (where, answer.text)
                    error = answer.json()["error"]
                    assert "\n" not in error and len(error) < 300, where
                    read[where] = answer.status_code == 400
                    if name.startswith("deep") and answer.status_code == 400:
                        assert error == "the request's JSON is nested too deep to read", where
        assert all(read[f"{name} to {path}"] for name in BODIES for path in ("/api/join", "/api/events/ev/tables/1/records"))
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR], "a refused body logged a traceback"


def test_a_body_too_long_is_refused_in_one_line_before_it_is_read(db_url: str, caplog: pytest.LogCaptureFixture) -> None:
    make_event(db_url, tables="paper")
    player = codes(db_url)["ann"]
    with client(db_url) as c, caplog.at_level(logging.DEBUG):
        signed: dict[str, Any] = sign_in(c, player)  # the table's route is a player's: the guard lets them through
        for path in ("/api/join", "/api/events/ev/register", "/api/events/ev/tables/1/records"):
            answer = c.post(path, content=b"[" + b"1," * 1_200_000 + b"1]", headers={**signed, "content-type": "application/json"})
            assert answer.status_code == 413, path
            assert "larger than the limit of 2048 KiB" in answer.json()["error"]
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
