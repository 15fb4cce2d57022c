"""Helpers for the tournament tests: run the CLI in-process, and write bot game logs."""

from __future__ import annotations

import io
import json
import random
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import msgspec
from sqlalchemy import Connection, inspect, text
from typer.testing import CliRunner, Result

from referee import dealing
from referee.bots import play
from referee.engine import judge
from referee.logio import encode_lines
from referee.rulesets import get as get_ruleset
from schemas.log import LOG_FORMAT, Event, Header
from tournament.cli.app import app
from tournament.storage.eventlog import GENESIS, as_utc, entry_hash

runner = CliRunner()


def cli(db: str, *args: str, code: int = 0) -> Result:
    """Run `tournament ARGS --db DB` and check its exit code."""
    result = runner.invoke(app, [*args, "--db", db])
    assert result.exit_code == code, f"exit {result.exit_code}\nstdout: {result.stdout}\nstderr: {result.stderr}"
    return result


def cli_json(db: str, *args: str) -> Any:
    return json.loads(cli(db, *args, "--json").stdout)


def game_log(a: str, b: str, seed: int, *, event: Event | None = None, ruleset: str = "cardwars", deal: str | None = None) -> bytes:
    """A whole legal bot game between a and b, as chained log bytes; with `deal` (a dealing seed, 64 hex digits),
    a dealt game: its draws dealt from that seed, committed in the header and revealed at the end."""
    setup = get_ruleset(ruleset).default_setup([a, b], random.Random(seed))
    header = Header(
        log=LOG_FORMAT, ruleset=ruleset, game=f"test-{seed}", players=[a, b],
        setup=msgspec.Raw(msgspec.json.encode(setup)), event=event,
        deal=dealing.header_deal(deal) if deal is not None else None,
    )
    return b"".join(line + b"\n" for line in encode_lines(header, play(header, seed, deal)))


def winner(data: bytes) -> str | None:
    result = judge(io.BytesIO(data)).verdict.result
    assert result is not None
    return result.winners[0] if len(result.winners) == 1 else None


def write_log(directory: Path, a: str, b: str, seed: int, **kwargs: Any) -> tuple[Path, str | None]:
    """A bot game written to a file: its path and who won it."""
    data = game_log(a, b, seed, **kwargs)
    path = directory / f"{a}-{b}-{seed}.jsonl"
    path.write_bytes(data)
    return path, winner(data)


def tables(db: str, event: str) -> list[dict[str, Any]]:
    """The current round's tables, as `pairings --json` gives them."""
    tables: list[dict[str, Any]] = cli_json(db, "pairings", event)["tables"]
    return tables


def downgrade(connection: Connection, revision: str) -> None:
    """`alembic downgrade REVISION`, leaving the database as that revision's code wrote it: below 0016 no entry names
    an actor and every hash is the one that code made (0016's own downgrade refuses while an entry names one, whose
    hash covers it: T-171; a test's log is rewritten as that code would have written it)."""
    from alembic import command

    from tournament.storage.dbinfo import alembic_config

    if (revision == "base" or revision < "0016") and "actor" in {c["name"] for c in inspect(connection).get_columns("event_log")}:
        connection.execute(text("UPDATE event_log SET actor = NULL"))
        for (event,) in connection.execute(text("SELECT id FROM events")).all():
            rewrite_log(connection, event, lambda _seq, _kind, _payload: None)
    config = alembic_config()
    config.attributes["connection"] = connection
    command.downgrade(config, revision)


def rewrite_log(connection: Connection, event: str, change: Callable[[int, str, dict[str, Any]], dict[str, Any] | None]) -> None:
    """Rewrite an event's log as someone with the database could: `change(seq, type, payload)` gives an entry's new
    payload (None: as it is), and every hash from there on is computed again, the event's head with it."""
    # the actor is hashed when an entry names one (T-171); a database of the schema before 0016 has no such column
    actor = "actor" if "actor" in {c["name"] for c in inspect(connection).get_columns("event_log")} else "NULL"
    query = text(f"SELECT seq, type, payload, at, {actor} FROM event_log WHERE event_id = :e ORDER BY seq")
    prev = GENESIS
    for seq, kind, stored, at, by in connection.execute(query, {"e": event}).all():
        payload = bytes(stored)
        changed = change(seq, kind, json.loads(payload))
        if changed is not None:
            payload = json.dumps(changed, separators=(",", ":")).encode()
        moment = as_utc(datetime.fromisoformat(at) if isinstance(at, str) else at)  # SQLite keeps times as text
        digest = entry_hash(event, seq, kind, moment, prev, payload, by)
        connection.execute(
            text("UPDATE event_log SET payload = :p, prev = :prev, hash = :h WHERE event_id = :e AND seq = :seq"),
            {"p": payload, "prev": prev, "h": digest, "e": event, "seq": seq},
        )
        prev = digest
    connection.execute(text("UPDATE events SET last_hash = :h WHERE id = :e"), {"h": prev, "e": event})
    connection.execute(text("DELETE FROM view_cache WHERE event_id = :e"), {"e": event})
