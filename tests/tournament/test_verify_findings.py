"""`verify` prints findings and nothing else, whatever was done to the log (issue 23, defects 3 and 4).

Run as a separate process: SQLAlchemy's warnings go to the real stderr there,
where an in-process runner (and pytest's own warning capture) would hide them.
"""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime

import pytest
from sqlalchemy import create_engine, text

from tests.tournament.tlib import cli
from tournament.storage.eventlog import entry_hash


def verify(db: str, event: str = "ev") -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "tournament", "verify", event, "--db", db]
    return subprocess.run(command, capture_output=True, text=True, timeout=120)


def findings_only(done: subprocess.CompletedProcess[str], event: str = "ev") -> list[str]:
    """verify's stderr: every line a finding about `event`, nothing else (no warning, no traceback)."""
    lines = done.stderr.splitlines()
    assert lines and all(line.startswith(f"{event}: ") for line in lines), done.stderr
    return lines


@pytest.fixture
def event(db_url: str) -> str:
    cli(db_url, "create", "ev", "--seed", "1")
    cli(db_url, "register", "ev", "ann", "bob", "cat")
    cli(db_url, "pair", "ev")
    cli(db_url, "standings", "ev")  # a cached view on SQLite
    cli(db_url, "pairings", "ev")
    return db_url


def test_verify_of_an_event_whose_log_rows_were_all_deleted_is_a_finding(event: str) -> None:
    # Issue 23, defect 3: exit 7 ("conflicts with a change made at the same time") and SQLAlchemy's
    # warnings, from an insert of an empty list of log rows beside the cached views (fails on b515822).
    engine = create_engine(event)
    with engine.begin() as connection:
        connection.execute(text("DELETE FROM event_log WHERE event_id = 'ev'"))
    engine.dispose()
    done = verify(event)
    assert done.returncode == 1, done.stderr
    lines = findings_only(done)
    assert lines[0] == "ev: the event has no log entries, yet the tables hold it"


def test_verify_of_a_player_registered_twice_prints_findings_only(event: str) -> None:
    # Issue 23, defect 4: a log entry registering an existing player again, with the chain redone,
    # printed SQLAlchemy's multi-line warnings among the findings (fails on b515822).
    engine = create_engine(event)
    with engine.begin() as connection:
        seq, head = connection.execute(text("SELECT last_seq, last_hash FROM events WHERE id = 'ev'")).one()
        at, payload = datetime.now(UTC), b'{"player":"ann"}'
        new = entry_hash("ev", seq + 1, "player_registered", at, head, payload)
        connection.execute(
            text("INSERT INTO event_log (event_id, seq, type, payload, at, prev, hash) VALUES ('ev', :seq, 'player_registered', :p, :at, :prev, :hash)"),
            {"seq": seq + 1, "p": payload, "at": at, "prev": head, "hash": new},
        )
        connection.execute(text("UPDATE events SET last_seq = :seq, last_hash = :hash WHERE id = 'ev'"), {"seq": seq + 1, "hash": new})
    engine.dispose()
    done = verify(event)
    assert done.returncode == 1, done.stderr
    lines = findings_only(done)
    assert any(f"log entry {seq + 1}: player_registered cannot be applied" in line for line in lines), lines


def test_verify_of_a_sound_event_says_so_in_one_line(event: str) -> None:
    done = verify(event)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert done.stdout.startswith("ev: 5 log entries, chain intact")
