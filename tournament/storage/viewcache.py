"""Cached views: what `standings` and `pairings` show, kept per event for the next read (T-66).

A view is the data a read command renders (Structs of schemas/tournament.py),
stored msgspec-encoded in the `view_cache` table, keyed by the event, the
kind of view and its arguments, and stamped with the head of the event's log
and the fingerprint of the code that computed it. A read on a SQLite file
first looks here with the standard library's `sqlite3` (`dbinfo.reading_uri`):
if the database is at the newest schema and the stamps match the event's
head and this code, it renders the cached view without importing SQLAlchemy
(a fifth of a second). Anything else (no such row, another head, a row that
does not decode, PostgreSQL) takes the full path, which computes the view in
`tournament.service.export` and stores it. Nothing here writes: a read of a missing
file creates nothing. `tournament verify` checks each cached view against
the log (`verification.check_views`).
"""

from __future__ import annotations

import hashlib
import sqlite3
from contextlib import closing
from functools import cache
from pathlib import Path
from typing import TypeVar

import msgspec

import schemas
from schemas.tournament import BracketInfo, EventInfo, RoundInfo, StandingRow, TableRow
from tournament.storage.dbinfo import database_url, newest_revisions, reading_uri, sqlite_file

TABLE = "view_cache"


class Standings(msgspec.Struct, forbid_unknown_fields=True, tag="standings"):
    """What `tournament standings` shows: the rows, and what its pages draw beside them."""

    event: EventInfo
    rows: list[StandingRow]
    bracket: BracketInfo | None  # the bracket, or a Swiss event's top cut
    swiss: list[StandingRow] | None  # after a top cut: the Swiss standings as they were at the cut
    pods: list[list[TableRow]]  # a pods event: each round's tables, for its page


class Pairings(msgspec.Struct, forbid_unknown_fields=True, tag="pairings"):
    """What `tournament pairings` shows: one round (args: its number, or "" for the current one)."""

    event: EventInfo
    round: RoundInfo


View = Standings | Pairings
V = TypeVar("V", Standings, Pairings)
KINDS: dict[str, type[View]] = {"standings": Standings, "pairings": Pairings}


def kind(view: type[View] | View) -> str:
    """The view's tag: `standings` or `pairings`."""
    return str(view.__struct_config__.tag)


def encode(view: View) -> bytes:
    return msgspec.json.encode(view)


@cache
def code() -> str:
    """The SHA-256 of the source that computes views (the `tournament` and `schemas` packages).

    Any change to it, an upgrade or an edit, makes every cached view stale,
    so no one has to remember to bump a version (about 2 ms a read).
    """
    digest = hashlib.sha256()
    for package in (Path(__file__).parents[1], Path(schemas.__file__).parent):
        for path in sorted(package.rglob("*.py")):
            digest.update(f"{path.relative_to(package.parent)}\n".encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def cached(db: str | None, wanted: type[V], event: str, args: str = "") -> V | None:
    """The view of `event` kept in the SQLite file `db`, if it is current; None sends the caller to the full path."""
    path = sqlite_file(database_url(db))
    if path is None or not path.is_file():
        return None
    try:
        connection = sqlite3.connect(reading_uri(path), uri=True)  # leaves no -wal or -shm file behind
        with closing(connection):
            at = connection.execute("SELECT version_num FROM alembic_version").fetchall()
            if {revision for (revision,) in at} != newest_revisions():
                return None  # an older schema: the full path migrates it
            found = connection.execute(
                f"SELECT c.data FROM {TABLE} c JOIN events e ON e.id = c.event_id "
                "WHERE c.event_id = ? AND c.kind = ? AND c.args = ? AND c.code = ? AND c.head = e.last_hash",
                (event, kind(wanted), args, code()),
            ).fetchone()
    except sqlite3.Error:
        return None
    if found is None or not isinstance(found[0], bytes):
        return None
    try:
        return msgspec.json.decode(found[0], type=wanted)
    except msgspec.DecodeError:
        return None
