"""The event log's chain and its projection: `verify` finds any edit made behind the service's back."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

from sqlalchemy import Executable, delete, update
from sqlalchemy.orm import Session

from tests.tournament.tlib import cli, write_log
from tournament import service
from tournament.formats.pairing import pair_swiss
from tournament.storage.db import open_database
from tournament.storage.eventlog import GENESIS, RoundPaired, append, entry_hash
from tournament.storage.models import LogEntry, Match, Player


def played(db: str, tmp_path: Path) -> None:
    cli(db, "create", "ev", "--seed", "3")
    cli(db, "register", "ev", "ann", "bob", "cat", "dan")
    cli(db, "pair", "ev")
    for table in (1, 2):
        a, b = json.loads(cli(db, "pairings", "ev", "--json").stdout)["tables"][table - 1]["players"]
        path, _ = write_log(tmp_path, a, b, table)
        cli(db, "report", "ev", "--table", str(table), "--log", str(path))
    cli(db, "verify", "ev")


def tamper(db: str, statement: Executable) -> None:
    _, engine = open_database(db)
    with Session(engine) as session, session.begin():
        session.execute(statement)
    engine.dispose()


def test_entry_hash_is_canonical() -> None:
    at = datetime(2026, 1, 2, 3, 4, 5, 6000, tzinfo=UTC)
    same_moment = at.astimezone(timezone(timedelta(hours=2)))
    naive = at.replace(tzinfo=None)  # how SQLite hands it back
    digests = {entry_hash("ev", 1, "event_created", moment, GENESIS, b"{}") for moment in (at, same_moment, naive)}
    assert len(digests) == 1
    assert entry_hash("ev", 1, "event_created", at, GENESIS, b"{ }") not in digests
    assert entry_hash("ev", 2, "event_created", at, GENESIS, b"{}") not in digests


def test_an_edited_payload_breaks_the_chain(db_url: str, tmp_path: Path) -> None:
    played(db_url, tmp_path)
    tamper(db_url, update(LogEntry).where(LogEntry.seq == 3).values(payload=b'{"player":"zed"}'))
    result = cli(db_url, "verify", "ev", code=service.EXIT_VERIFY_FAILED)
    assert "log entry 3: its hash does not match" in result.stderr


def test_an_edited_result_disagrees_with_the_log(db_url: str, tmp_path: Path) -> None:
    played(db_url, tmp_path)
    tamper(db_url, update(Match).where(Match.number == 1).values(games_a=5))
    result = cli(db_url, "verify", "ev", "--json", code=service.EXIT_VERIFY_FAILED)
    assert "matches: " in result.stdout and '"ok":false' in result.stdout


def test_an_extra_player_row_disagrees_with_the_log(db_url: str, tmp_path: Path) -> None:
    played(db_url, tmp_path)
    tamper(db_url, update(Player).where(Player.name == "ann").values(dropped_round=1))
    assert "players: " in cli(db_url, "verify", "ev", code=service.EXIT_VERIFY_FAILED).stderr


def test_a_removed_entry_is_a_gap(db_url: str, tmp_path: Path) -> None:
    played(db_url, tmp_path)
    tamper(db_url, delete(LogEntry).where(LogEntry.seq == 4))
    assert "log entry 4 is missing" in cli(db_url, "verify", "ev", code=service.EXIT_VERIFY_FAILED).stderr


def test_a_removed_last_entry_disagrees_with_the_head(db_url: str, tmp_path: Path) -> None:
    played(db_url, tmp_path)
    tamper(db_url, delete(LogEntry).where(LogEntry.seq == 8))
    assert "events: " in cli(db_url, "verify", "ev", code=service.EXIT_VERIFY_FAILED).stderr


def test_verify_pairs_every_round_again_from_the_stored_seed(db_url: str) -> None:
    cli(db_url, "create", "ev", "--seed", "3")
    cli(db_url, "register", "ev", "ann", "bob", "cat", "dan")
    _, engine = open_database(db_url)
    with Session(engine) as session, session.begin():
        service.lock_event(session, "ev")
        right = pair_swiss(service.entrants(session, "ev"), 1, 3)
        wrong = [(right.tables[0][0], right.tables[1][0]), (right.tables[0][1], right.tables[1][1])]
        append(session, "ev", RoundPaired(1, 3, wrong, None, 0))  # a pairing made by hand, not by pair_swiss
    engine.dispose()
    found = cli(db_url, "verify", "ev", code=service.EXIT_VERIFY_FAILED)
    assert "pairing round 1 again with seed 3 gives other tables" in found.stderr
    cli(db_url, "verify", "ev", "--no-pairings")
