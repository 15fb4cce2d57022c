"""The organiser's day through the JSON API (issue 26 item 1), on SQLite and PostgreSQL: each action is the
CLI's service call, one log entry (or a few), and a refusal is the CLI's message with an HTTP status and
nothing written. The same day in Chromium is test_web_organiser_day.py."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from tests.tournament.tlib import cli
from tests.tournament.webkit import (
    ORGANISER_TOKEN,
    client,
    database,
    make_event,
    organiser,
    organiser_page,
)
from tournament import service
from tournament.service import verification
from tournament.storage.models import LogEntry


def _empty(db: str) -> None:
    """A database as `tournament serve` leaves it on first start: migrated, with the organiser token."""
    with database(db) as engine, Session(engine) as session, session.begin():
        service.ensure_organiser(session, ORGANISER_TOKEN)


def _entries(db: str) -> list[str]:
    with database(db) as engine, Session(engine) as session:
        return list(session.scalars(select(LogEntry.type).order_by(LogEntry.event_id, LogEntry.seq)))


def _refused(c: Any, admin: dict[str, str], path: str, body: Any, status: int, message: str, db: str) -> None:
    before = _entries(db)
    answer = c.post(path, json=body, headers=admin)
    assert answer.status_code == status, answer.text
    assert answer.json()["error"] == message
    assert _entries(db) == before, "a refused request wrote nothing"


def test_a_whole_day_through_the_api(db_url: str) -> None:
    _empty(db_url)
    with client(db_url) as c:
        admin = organiser(c)
        made = c.post("/api/admin/events", json={"id": "cup", "name": "The Cup", "seed": 7, "rated": True}, headers=admin)
        assert made.status_code == 201 and made.json()["event"]["rated"] is True and made.json()["event"]["seed"] == 7
        text = "name,id,rating\n" + "".join(f"Player {n},p{n:02d},{1500 + n}\n" for n in range(1, 8))
        assert "registered Player 1" in c.post("/api/admin/events/cup/players", json={"csv": text}, headers=admin).json()["message"]
        one = c.post("/api/admin/events/cup/players", json={"players": [{"name": "José Ramírez"}]}, headers=admin).json()
        assert one["message"] == "registered José Ramírez"
        assert c.post("/api/admin/events/cup/rename", json={"player": "p01", "name": "Ann"}, headers=admin).json()["message"] == "p01 is now shown as Ann"
        assert c.post("/api/admin/events/cup/pause", json={"player": "p02"}, headers=admin).status_code == 201
        assert c.post("/api/admin/events/cup/pause", json={"player": "p02", "paused": False}, headers=admin).status_code == 201
        assert c.post("/api/admin/events/cup/bye", json={"player": "p03", "round": 2}, headers=admin).status_code == 201
        assert "taken back" in c.post("/api/admin/events/cup/bye", json={"player": "p03", "round": None}, headers=admin).json()["message"]
        assert c.post("/api/admin/events/cup/pair", headers=admin).status_code == 201
        first = c.get("/api/events/cup/round").json()["tables"]
        assert c.post("/api/admin/events/cup/swap", json={"players": [first[0]["players"][0], first[1]["players"][0]], "reason": "seated wrongly"}, headers=admin).status_code == 201
        again = c.post("/api/admin/events/cup/repair", json={"reason": "a late entry", "reseed": True}, headers=admin).json()
        assert again["message"] == "round 1 is paired again with a new seed" and again["event"]["rounds"] == 1
        tables = c.get("/api/events/cup/round").json()["tables"]
        entered = c.post("/api/admin/events/cup/results", json={"scores": {t["table"]: "1-0" for t in tables}}, headers=admin).json()
        assert entered["message"] == f"round 1: {len(tables)} result(s) entered, 0 corrected; every table has a result"
        fixed = c.post("/api/admin/events/cup/results", json={"scores": {"1": "0-1"}, "reason": "slip misread"}, headers=admin).json()
        assert "0 result(s) entered, 1 corrected" in fixed["message"]
        assert c.get("/api/events/cup/round").json()["tables"][0]["reason"] == "slip misread"
        for _ in range(2):
            c.post("/api/admin/events/cup/pair", headers=admin)
            tables = c.get("/api/events/cup/round").json()["tables"]
            c.post("/api/admin/events/cup/results", json={"scores": {t["table"]: "1-0" for t in tables}}, headers=admin)
        cut = c.post("/api/admin/events/cup/cut", json={"size": 4}, headers=admin).json()
        assert cut["message"].startswith("top 4: ") and cut["event"]["bracket_round"] == 4
        for _ in range(2):  # the semifinals, the final
            c.post("/api/admin/events/cup/pair", headers=admin)
            tables = c.get("/api/events/cup/round").json()["tables"]
            c.post("/api/admin/events/cup/results", json={"scores": {t["table"]: "1-0" for t in tables}}, headers=admin)
        done = c.post("/api/admin/events/cup/finish", headers=admin).json()
        assert done["message"] == "cup is finished after round 5"
        _refused(c, admin, "/api/admin/events/cup/players", {"players": [{"name": "Late"}]}, 409, "'cup' is finished: no more rounds and no more players", db_url)
        assert c.get("/api/events/cup/screen").json()["finished"] is True
    types = _entries(db_url)
    for wanted in ("event_created", "player_renamed", "player_paused", "player_resumed", "bye_assigned", "players_swapped",
                   "round_unpaired", "result_corrected", "bracket_seeded", "event_finished"):
        assert wanted in types, wanted
    with database(db_url) as engine, Session(engine) as session:
        assert verification.verify(session, "cup").ok


@pytest.mark.parametrize(
    ("path", "body", "status", "message"),
    [
        ("/api/admin/events", {"id": "x", "format": "league"}, 400,
         "unknown format 'league' (known: swiss, single, double, roundrobin, pods)"),
        ("/api/admin/events", {"id": "ev", "name": "again"}, 409, None),
        ("/api/admin/events", {"id": "y", "best_of": 0}, 400, "best_of: 1 to 2147483647, not 0"),
        ("/api/admin/events/ev/players", {"csv": "name,id\nAnn,ann\n"}, 409, "csv line 2, field id: 'ann' is already registered in 'ev'"),
        ("/api/admin/events/ev/rename", {"player": "nobody", "name": "X"}, 404, None),
        ("/api/admin/events/ev/results", {"scores": {"1": "3-x"}}, 400, None),
        ("/api/admin/events/ev/results", {"scores": {"9": "1-0"}}, 404, None),
        ("/api/admin/events/ev/swap", {"players": ["ann", "ann"], "reason": "x"}, 400, None),
        ("/api/admin/events/ev/cut", {"size": 5}, 400, None),
        ("/api/admin/events/ev/finish", None, 409, None),
    ],
)
def test_bad_input_gets_the_clis_message_and_writes_nothing(tmp_path: Any, path: str, body: Any, status: int, message: str | None) -> None:
    db = f"sqlite:///{tmp_path / 't.db'}"
    _empty(db)
    with client(db) as c:
        admin = organiser(c)
        c.post("/api/admin/events", json={"id": "ev", "seed": 1}, headers=admin)
        c.post("/api/admin/events/ev/players", json={"players": [{"name": n} for n in ("ann", "bob", "cat", "dan")]}, headers=admin)
        c.post("/api/admin/events/ev/pair", headers=admin)
        before = _entries(db)
        answer = c.post(path, json=body, headers=admin)
        assert answer.status_code == status, answer.text
        error = answer.json()["error"]
        assert error and "Traceback" not in error
        if message is not None:
            assert error == message
        assert _entries(db) == before
    if path.endswith("/results") and body["scores"].get("1") == "3-x":  # the CLI says the same words
        (tmp_path / "r.csv").write_text("table,result\n1,3-x\n")
        assert "'3-x' is not a score" in cli(db, "results", "ev", "--from", str(tmp_path / "r.csv"), code=2).stderr
        assert "'3-x' is not a score" in error


def test_the_organisers_routes_need_the_organiser(tmp_path: Any) -> None:
    db = f"sqlite:///{tmp_path / 't.db'}"
    _empty(db)
    with client(db) as c:
        assert c.post("/api/admin/events", json={"id": "ev"}).status_code == 401
        assert c.get("/admin/e/ev/files/export.json").status_code == 401
        admin = organiser(c)
        c.post("/api/admin/events", json={"id": "ev"}, headers=admin)
        c.get("/admin")  # the session cookie is the page's; the files are behind it too
        assert c.get("/admin/e/ev/files/secrets.txt", headers=admin).status_code in (401, 404)


def test_finish_from_the_command_line(tmp_path: Any) -> None:
    db = f"sqlite:///{tmp_path / 't.db'}"
    cli(db, "create", "ev", "--seed", "1")
    cli(db, "register", "ev", "ann", "bob")
    assert "has played no round" in cli(db, "finish", "ev", code=7).stderr
    cli(db, "pair", "ev")
    assert "report it before finishing the event" in cli(db, "finish", "ev", code=4).stderr
    cli(db, "report", "ev", "--table", "1", "1-0")
    assert "ev is finished after round 1" in cli(db, "finish", "ev").stdout
    assert "is finished" in cli(db, "pair", "ev", code=7).stderr
    assert "is finished" in cli(db, "register", "ev", "cat", code=7).stderr
    cli(db, "correct", "ev", "--table", "1", "--reason", "misread", "0-1")  # a mistake found later is still put right
    cli(db, "verify", "ev")


def test_a_refused_round_comes_back_as_typed_with_the_clis_message(tmp_path: Any) -> None:
    """The results form (a round at a time), refused, shows the form again with every box as typed and the
    CLI's message, and writes nothing; so does the new-event form."""
    import html

    db = f"sqlite:///{tmp_path / 't.db'}"
    make_event(db, players=[f"p{n}" for n in range(1, 7)])
    _empty(db)
    with client(db) as c:
        token = organiser_page(c)
        before = _entries(db)
        typed = {"score.1": "1-0", "score.2": "3-x", "score.3": "0-1", "reason": "slips"}
        sent = c.post("/admin/e/ev/results", data={**typed, "_csrf_token": token, "_key": "r" * 22}, follow_redirects=False)
        assert sent.status_code == 303 and sent.headers["location"] == f"/admin/e/ev?r={'r' * 22}"
        page = html.unescape(c.get(sent.headers["location"]).text)
        assert "table 2, field result: '3-x' is not a score" in page
        for table, score in (1, "1-0"), (2, "3-x"), (3, "0-1"):
            assert f'name="score.{table}" value="{score}"' in page, f"table {table} as typed"
        assert 'name="reason" maxlength="200" value="slips"' in page
        assert _entries(db) == before, "a refused round wrote nothing"
        assert 'name="score.2" value=""' in html.unescape(c.get("/admin/e/ev").text), "the page without the receipt is as stored"
        bad = {"id": "cup", "name": "Cup", "best_of": "2", "seed": "5", "cap": "12", "open": "yes", "tables": "paper"}
        sent = c.post("/admin/events", data={**bad, "_csrf_token": token, "_key": "n" * 22}, follow_redirects=False)
        page = html.unescape(c.get(sent.headers["location"]).text)
        assert "--best-of must be an odd number of games, not 2" in page
        for name, value in ("id", "cup"), ("name", "Cup"), ("best_of", "2"), ("seed", "5"), ("cap", "12"):
            assert f'value="{value}"' in page.split(f'name="{name}"')[1].split(">")[0], name
        assert '<option value="paper" selected>' in page and 'name="open" value="yes" checked' in page
        assert _entries(db) == before
