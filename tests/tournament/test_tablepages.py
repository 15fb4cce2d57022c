"""The live table's pages through Litestar's test client, on both databases (the browser walks: test_web_tablepages.py).

The recorder's screens reach every legal record and nothing else; the page's routes take the page's session
with its CSRF token in a header and nothing without it (T-86); a refusal answers in JSON; each seat's page shows
that seat only.
"""

from __future__ import annotations

import json
import re
from typing import Any

from sqlalchemy.orm import Session

from referee.ruleset import JUDGE
from tests.tournament.tablelib import live_event, look
from tests.tournament.test_web_tables import live_event as api_event
from tests.tournament.webkit import ORGANISER_TOKEN, client, database, sign_in
from tournament import service
from tournament.output import recorder
from tournament.service import livetable
from tournament.web.app import MAX_UPLOAD

PAGE = "/e/ev/tables/1"


def reachable(screens: list[recorder.Screen], number: int = 0, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], Any]]:
    """Every record a tap walk reaches from screen `number`, with the labels tapped to reach it."""
    found = []
    for choice in screens[number].choices:
        if choice.opens is not None:
            found += reachable(screens, choice.opens, (*path, choice.label))
        else:
            found.append(((*path, choice.label), json.loads(choice.record or "null")))
    return found


def test_the_screens_reach_every_legal_record_once(db_url: str) -> None:
    for mode, ruleset in (("paper", "cardwars"), ("digital", "crossover")):
        engine = live_event(db_url, mode=mode, ruleset=ruleset, event=f"ev-{mode}")
        for seat in ("ann", "bob", JUDGE):
            legal = look(engine, seat, event=f"ev-{mode}").legal
            walked = reachable(recorder.screens(legal, {"ann": "Ann Ålvik", "bob": "Bob"}))
            assert sorted(json.dumps(r, sort_keys=True) for _, r in walked) == sorted(
                {json.dumps(r, sort_keys=True) for r in legal}
            ), f"{mode} {seat}"
            assert all(len(path) <= 4 for path, _ in walked), "a record is a few taps away"
            assert all("ann" not in " ".join(path) for path, _ in walked), "names, not ids"
        engine.dispose()
    paper = recorder.screens(look(live_event(db_url, event="ev-3"), "ann", event="ev-3").legal, {})
    # the draw is the one kind of record to make: "a card, not named" then its 27 cards on the first screen, one
    # tap each (T-202, T-206)
    assert paper[0].path[0] == "draw" and len(paper[0].choices) == 28 and all(c.record for c in paper[0].choices)
    assert paper[0].choices[0].label == "a card, not named"


def page_session(c: Any, heads: dict[str, str]) -> str:
    """The Bearer session as the page's cookie; the page's CSRF token (its script sends it in a header)."""
    c.cookies.set("hj_session", heads["Authorization"].split()[1])
    found = re.search(r'data-csrf="([^"]+)"', c.get(PAGE).text)
    assert found
    return found.group(1)


def test_the_page_records_with_its_csrf_token_only(db_url: str) -> None:
    codes = api_event(db_url)
    with client(db_url) as c:
        ann = sign_in(c, codes["ann"])
        token = page_session(c, ann)
        view = c.get("/api/events/ev/tables/1", headers=ann).json()
        record = view["legal"][0]
        forged = c.post(f"{PAGE}/records", json={"after": view["seq"], "record": record})
        assert forged.status_code == 403  # no token: a cross-site post carries none
        made = c.post(f"{PAGE}/records", json={"after": view["seq"], "record": record}, headers={"X-CSRFToken": token})
        assert made.status_code == 201 and made.json()["seq"] == view["seq"] + 1
        bad = c.post(f"{PAGE}/records", json={"after": made.json()["seq"], "record": {"type": "draw", "by": "chance", "player": 7}},
                     headers={"X-CSRFToken": token})
        assert bad.status_code == 400 and "player" in bad.json()["error"]  # a one-line error naming the field, as JSON
        refused = c.post(f"{PAGE}/records", json={"after": made.json()["seq"], "record": {"type": "play_resource", "card": "KH", "by": "ann"}},
                         headers={"X-CSRFToken": token})
        assert refused.status_code == 422 and refused.json()["rule"].startswith("CW-") and refused.json()["legal"]
        assert c.get(f"{PAGE}/panel").text.count('data-seq="1"') == 1  # nothing written by the refusals
        seen = c.post(f"{PAGE}/seen", json={"game": 1, "seq": 1}, headers={"X-CSRFToken": token})
        assert seen.status_code == 201 and seen.json() == {"seen": 1}


def test_each_reader_sees_their_own_seat(db_url: str) -> None:
    codes = api_event(db_url)
    with client(db_url) as c:
        anyone = c.get(PAGE)
        assert anyone.status_code == 200 and "data-record" not in anyone.text and "Type a record" not in anyone.text
        assert c.get(f"{PAGE}/judge").status_code == 401  # the judge's page is the organiser's
        page_session(c, sign_in(c, codes["ann"]))
        assert c.get("/e/ev/table", follow_redirects=False).headers["location"] == PAGE
        mine = c.get(PAGE).text
        assert "data-record" in mine and "<h2>draw › player" in mine
        c.cookies.set("hj_session", c.post("/api/admin/login", json={"code": ORGANISER_TOKEN}).json()["session"])
        judged = c.get(f"{PAGE}/judge").text
        assert "the judge's view" in judged and ">game loss · player " in judged and "&#34;type&#34;:&#34;draw&#34;" not in judged
        assert f'href="{PAGE}/judge"' in c.get("/admin/e/ev").text  # from the organiser's round
        with database(db_url) as engine, Session(engine) as session, session.begin():
            service.call_judge(session, "ev", "bob", "the log is not right")
        assert f'href="{PAGE}/judge"' in c.get("/admin/e/ev/calls").text  # and from the open call


def test_a_game_of_a_best_of_three_waits_for_its_confirmation_while_the_next_is_played(db_url: str) -> None:
    codes = api_event(db_url, best_of=3)
    with client(db_url) as c:
        ann = sign_in(c, codes["ann"])
        token = page_session(c, ann)
        with database(db_url) as engine, Session(engine) as session, session.begin():
            livetable.append(session, "ev", 1, JUDGE, {"type": "game_loss", "by": JUDGE, "player": "bob"}, 0)
        panel = c.get(f"{PAGE}/panel").text
        assert 'data-game="2"' in panel and 'data-game="1" data-seq="1"' in panel, "game 2 is played; game 1 waits for ann"
        assert "Yes: confirm game 1" in panel and "the judge: game loss (player bob)" in panel
        confirmed = c.post(f"{PAGE}/confirm", json={"game": 1, "seq": 1}, headers={"X-CSRFToken": token})
        assert confirmed.status_code == 201 and confirmed.json() == {"reported": False}
        assert "confirm game 1" not in c.get(f"{PAGE}/panel").text


def test_a_refusal_is_json_when_the_script_asks_for_json_and_a_page_otherwise(db_url: str) -> None:
    """T-130: a body the page's routes refuse before their handler runs (validation, the CSRF check, the size
    limit, no such route) answers the API's `ErrorBody` when the request asks for JSON (`Accept`, as the
    page's script does), naming the field in one line; a request that asks for a page gets the error page."""
    codes = api_event(db_url)
    with client(db_url) as c:
        token = page_session(c, sign_in(c, codes["ann"]))
        asks = {"X-CSRFToken": token, "Accept": "application/json"}
        for path, body, field in (("records", {"after": "x", "record": {}}, "after"),
                                  ("seen", {"game": 1}, "seq"), ("confirm", {"seq": 1, "game": 1, "x": 2}, "x")):
            answer = c.post(f"{PAGE}/{path}", json=body, headers=asks)
            assert answer.status_code == 400 and answer.headers["content-type"] == "application/json", path
            error = answer.json()
            assert error["status"] == 400 and re.search(rf"\b{field}\b", error["error"]) and "\n" not in error["error"], error
            assert error["error"].startswith("the request could not be read: ") and "POST" not in error["error"], error
        refused = {
            403: c.post(f"{PAGE}/records", json={"after": 0, "record": {}}, headers={"Accept": "application/json"}),
            404: c.post(f"{PAGE}/nothing", json={}, headers=asks),
            413: c.post(f"{PAGE}/records", content=b" " * (MAX_UPLOAD + 1), headers=asks | {"Content-Type": "application/json"}),
        }
        for status, answer in refused.items():
            assert answer.status_code == status and answer.json()["status"] == status and answer.json()["error"], status
        assert "CSRF" in refused[403].json()["error"]
        assert c.get(f"{PAGE}/panel").text.count('data-seq="0"') == 1, "nothing written"
        # a browser's own request (it prefers HTML) and a client that accepts anything get the page
        browser = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}
        for answer in (c.get("/e/ev/tables/9", headers=browser), c.get("/e/ev/tables/9"),
                       c.post(f"{PAGE}/seen", json={"game": 1}, headers={"X-CSRFToken": token} | browser)):
            assert answer.status_code in (400, 404) and answer.headers["content-type"].startswith("text/html"), answer.text
            assert "<!DOCTYPE html>" in answer.text or "<!doctype html>" in answer.text.lower()
