"""An event's public pages are drawn once a change for every reader without a session (T-142, issue 33)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from sqlalchemy.orm import Session

from tournament import service
from tournament.web import sharedpages

from .test_web_pages import form_token
from .webkit import client, codes, database, make_event


def test_readers_without_a_session_share_one_drawing_a_change_and_a_signed_in_reader_gets_their_own(db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    make_event(db, ["ann", "bob", "cat", "dan"], display={"ann": "Ann Archer"})
    found = codes(db)
    drawn: list[str] = []
    render = sharedpages._render

    def counted(request: Any, template: Any) -> str:
        drawn.append(request.url.path)
        return render(request, template)

    monkeypatch.setattr(sharedpages, "_render", counted)
    with client(db) as crowd:
        first = [crowd.get(path) for path in ("/e/ev", "/e/ev/standings", "/e/ev", "/e/ev/standings", "/e/ev/standings")]
        assert all(r.status_code == 200 for r in first) and first[0].text == first[2].text
        assert drawn == ["/e/ev", "/e/ev/standings"], "each page drawn once for five readers"
        assert "Ann Archer" in first[1].text and sharedpages.CSRF_MARK not in first[0].text
        with database(db) as engine, Session(engine) as session, session.begin():
            service.set_notice(session, "ev", "Round 1 ends at noon")  # a change: the log's head moves
        again = crowd.get("/e/ev/standings")
        assert drawn[-1] == "/e/ev/standings" and len(drawn) == 3 and again.text != first[1].text
        assert crowd.get("/e/nope").status_code == 404
    with client(db) as phone:
        phone.post("/join", data={**form_token(phone, "/join"), "code": found["ann"]})
        marked = re.findall(r'<tr class="mine">(.*?)</tr>', phone.get("/e/ev/standings").text, re.S)
        assert len(marked) == 1 and "Ann Archer" in marked[0]
        assert len(drawn) == 3, "a signed-in reader's page is drawn for them, not taken from the crowd's"
