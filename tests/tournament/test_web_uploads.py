"""Uploads do not grow the log for ever (issue 22, defect 9), on SQLite and PostgreSQL.

A claim that repeats the standing claim adds no entry; a game log's text is
kept once, by its SHA-256, however often it is claimed or reported; and a
player's writes are limited (429 with a JSON body).
"""

from __future__ import annotations

import pytest
from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from tests.tournament.tlib import cli, game_log, winner
from tests.tournament.webkit import client, codes, database, make_event, sign_in
from tournament.service.verification import verify
from tournament.storage import eventlog
from tournament.storage.models import LogEntry, LogText
from tournament.web import receipts

UPLOADS = 200


def kept(db_url: str) -> tuple[int, int]:
    """The event log's entries, and the bytes it keeps: every payload and every log text."""
    with database(db_url) as engine, Session(engine) as session:
        entries = session.scalar(select(func.count()).select_from(LogEntry)) or 0
        payloads = session.scalar(select(func.sum(func.length(LogEntry.payload)))) or 0
        texts = session.scalar(select(func.sum(func.length(LogText.data)))) or 0
        return entries, payloads + texts


def verified(db_url: str) -> list[str]:
    with database(db_url) as engine, Session(engine) as session:
        return verify(session, "ev").problems


def test_two_hundred_uploads_of_the_same_logs_keep_no_more_than_the_first(db_url: str) -> None:
    make_event(db_url, ["ann", "bob"], best_of=3)
    keys = codes(db_url)
    logs, wins = [], {"ann": 0, "bob": 0, None: 0}
    for seed in range(3, 10):  # the games of a finished best of 3
        logs.append(game_log("ann", "bob", seed))
        wins[winner(logs[-1])] += 1
        if max(wins["ann"], wins["bob"]) == 2 or len(logs) == 3:
            break
    files = [("log", (f"g{n}.jsonl", data)) for n, data in enumerate(logs, start=1)]
    with client(db_url) as c:
        ann = sign_in(c, keys["ann"])
        first = c.post("/api/me/logs", headers=ann, files=files)
        assert first.status_code == 201, first.text
        once = kept(db_url)
        answers = [c.post("/api/me/logs", headers=ann, files=files) for _ in range(UPLOADS - 1)]
        assert kept(db_url) == once, "200 uploads keep what the first kept"
        statuses = [a.status_code for a in answers]
        assert statuses == [201] * (receipts.WRITES - 1) + [429] * (UPLOADS - receipts.WRITES)
        assert answers[0].json() == first.json(), "the same claim again is answered as the first"
        limited = answers[-1].json()
        assert limited["status"] == 429 and f"at most {receipts.WRITES} a minute" in limited["error"]
        entries, size = once
        bob = c.post("/api/me/logs", headers=sign_in(c, keys["bob"]), files=files)
        assert bob.status_code == 201 and bob.json()["state"] == "done"
        grown = kept(db_url)
        assert grown[1] - size < 4096, "bob's claim and the result name the logs, not repeat them"
        assert grown[0] == entries + 2  # bob's claim, and the result it settles
        assert c.get("/api/events/ev/round").json()["tables"][0]["source"] == "log"
    assert cli(db_url, "game-log", "ev", "--table", "1").stdout.encode() == logs[0], "the stored log is the upload"
    assert verified(db_url) == []


def test_entries_that_carry_their_logs_inline_stay_readable(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Entries written before texts were kept apart hold each log's bytes themselves; they read, settle and verify."""
    make_event(db_url, ["ann", "bob"])
    keys = codes(db_url)
    log = game_log("ann", "bob", 3)
    with client(db_url) as c:
        with monkeypatch.context() as old:
            old.setattr(eventlog, "keep_texts", lambda _session, payload: payload)  # as entries were written before
            assert c.post("/api/me/logs", headers=sign_in(c, keys["ann"]), files={"log": ("g.jsonl", log)}).status_code == 201
        with database(db_url) as engine, Session(engine) as session:
            assert session.scalar(select(func.count()).select_from(LogText)) == 0
        done = c.post("/api/me/confirm", headers=sign_in(c, keys["bob"]), json={"claimant": "ann", "last_lines": [eventlog.hashlib.sha256(log.rstrip(b"\n").rsplit(b"\n", 1)[-1]).hexdigest()]})
        assert done.status_code == 201 and done.json()["state"] == "done"
    assert verified(db_url) == []


def test_verify_finds_a_log_text_missing_or_changed(db_url: str) -> None:
    make_event(db_url, ["ann", "bob"])
    keys = codes(db_url)
    with client(db_url) as c:
        c.post("/api/me/logs", headers=sign_in(c, keys["ann"]), files={"log": ("g.jsonl", game_log("ann", "bob", 3))})
    assert verified(db_url) == []
    with database(db_url) as engine, Session(engine) as session, session.begin():
        for row in session.scalars(select(LogText)):
            row.data += b" "
    [problem] = verified(db_url)
    assert problem.startswith("log entry 5: the game log ") and "not the text its hash names" in problem
    with database(db_url) as engine, Session(engine) as session, session.begin():
        session.execute(delete(LogText))
    assert [p.split(": ", 1)[1].endswith("is missing") for p in verified(db_url)] == [True]
