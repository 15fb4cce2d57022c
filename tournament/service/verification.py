"""`tournament verify`: check an event's log chain, rebuild its tables from the log, and compare.

Its job is to catch a tampered database, so it trusts nothing it reads: rows
are read raw (no column type conversion that could fail on an edited value),
every field of a log row is checked for its type before use, and a log entry
that cannot be decoded, re-paired or applied is a finding, not a crash. Each
finding is one line; none means the event is sound.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from datetime import datetime
from typing import Any

import msgspec
from sqlalchemy import column, create_engine, insert, select, table
from sqlalchemy import event as sa_event
from sqlalchemy.exc import SAWarning
from sqlalchemy.orm import Session
from sqlalchemy.types import Boolean, DateTime, LargeBinary

from tournament.service import export
from tournament.storage import viewcache
from tournament.storage.eventlog import (
    GENESIS,
    Entry,
    Payload,
    as_utc,
    decode,
    entry_hash,
    project,
    with_texts,
)
from tournament.storage.models import PROJECTION, Base, CachedView, Event, LogEntry, LogText


@dataclass
class Verification:
    """What `verify` found: how many entries, and every problem (none means the event is sound)."""

    entries: int = 0
    problems: list[str] = field(default_factory=list)
    exists: bool = True  # False: neither a log nor an events row for this id

    @property
    def ok(self) -> bool:
        return not self.problems


Check = Callable[[Session, Entry, Payload], str | None]


@dataclass(frozen=True, slots=True)
class _Entry:
    """A log row as read: what the replay hands to `project` (an ORM `LogEntry` costs ten times as much to make)."""

    event_id: str
    seq: int
    type: str
    payload: bytes
    at: datetime
    prev: str
    hash: str
    actor: str | None

    def row(self) -> dict[str, Any]:
        """Its columns by name (not `dataclasses.asdict`, which deep-copies every value: half of `check_views`)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


def verify(session: Session, event_id: str, check: Check | None = None) -> Verification:
    """Check the chain, then rebuild the projection from the log and compare it with the tables.

    `check`, when given, sees the rebuilt tables just before each entry is
    applied, and may name a problem with that entry.
    """
    with warnings.catch_warnings():
        # A tampered log makes SQLAlchemy warn (a row added twice, ...) while the replay finds the
        # fault; the finding is what verify reports, in one line, and the warning is left out.
        warnings.simplefilter("ignore", SAWarning)
        return _verify(session, event_id, check)


def _verify(session: Session, event_id: str, check: Check | None) -> Verification:
    report = Verification()
    entries = _read_log(session, event_id, report)
    if entries is None:
        return report
    if not entries:
        if not _raw_rows(session, Event, event_id):
            report.exists = False
        else:  # the replay of nothing then shows every row of the tables as one the log does not give
            report.problems.append("the event has no log entries, yet the tables hold it")
    payloads = []
    texts = _log_texts(session)
    for entry in entries:
        try:
            payload = decode(entry)
        except Exception as exc:  # any undecodable payload is a finding
            # the type is quoted: a tampered one may hold a line break, and a problem is one line
            report.problems.append(f"log entry {entry.seq}: unreadable {entry.type!r} payload: {_brief(exc)}")
            return report
        try:  # a game log's bytes are kept once, apart from the entries naming them (`log_texts`)
            payloads.append(with_texts(payload, texts))
        except LookupError as exc:
            report.problems.append(f"log entry {entry.seq}: {exc}")
            return report
    # First the whole log with one flush; only a log that fails somewhere is replayed again
    # entry by entry, flushing each, to name the entry (a flush per entry: 40 s for 10,000 players).
    for careful in (False, True):
        scratch = create_engine("sqlite://")
        Base.metadata.create_all(scratch)
        try:
            with Session(scratch) as rebuilt:
                found = Verification(entries=report.entries)
                applied = _replay(rebuilt, entries, payloads, check, found, careful)
                if applied is None:
                    continue
                report.problems += found.problems
                if applied:
                    rebuilt.flush()
                    _compare(session, rebuilt, event_id, report)
                    report.problems += check_views(session, rebuilt, event_id, entries)
                return report
        finally:
            scratch.dispose()
    raise AssertionError("a careful replay always finishes")


def _log_texts(session: Session) -> Callable[[str], bytes | None]:
    """A game log's bytes by SHA-256, read as stored (anything but bytes is None: not the text)."""

    def text(sha256: str) -> bytes | None:
        rows = _raw_rows_where(session, LogText, "sha256", sha256)
        data = rows[0]["data"] if len(rows) == 1 else None
        return _plain(data, LogText.__table__.c.data.type) if data is not None else None

    return text


def _read_log(session: Session, event_id: str, report: Verification) -> list[_Entry] | None:
    """The event's log rows, checked field by field and along the chain; None when it cannot be replayed."""
    rows = _plain_rows(session, LogEntry, event_id)
    report.entries = len(rows)
    for row in rows:
        if not isinstance(row["seq"], int) or isinstance(row["seq"], bool):
            report.problems.append(f"a log row has seq {row['seq']!r:.40}, not a whole number")
            return None
    entries, prev = [], GENESIS
    for expected, row in enumerate(sorted(rows, key=lambda r: int(r["seq"])), start=1):
        seq = row["seq"]
        if seq != expected:
            report.problems.append(f"log entry {expected} is missing (the next one is {seq})")
            return None
        where = f"log entry {seq}"
        payload, at = row["payload"], row["at"]
        if isinstance(payload, str):
            report.problems.append(f"{where}: its payload is stored as text, not bytes")
            payload = payload.encode()
        wrong = [name for name in ("type", "prev", "hash") if not isinstance(row[name], str)]
        wrong += [] if isinstance(payload, bytes) else ["payload"]
        wrong += [] if isinstance(at, datetime) else ["at"]
        wrong += [] if row["actor"] is None or isinstance(row["actor"], str) else ["actor"]
        if wrong:
            report.problems.append(f"{where}: unreadable {', '.join(wrong)} ({_brief_row(row)})")
            return None
        if row["prev"] != prev:
            report.problems.append(f"{where}: prev does not match the hash of entry {seq - 1}")
        if entry_hash(event_id, seq, row["type"], at, row["prev"], payload, row["actor"]) != row["hash"]:
            report.problems.append(f"{where}: its hash does not match its contents")
        prev = row["hash"]
        entries.append(_Entry(event_id, seq, row["type"], payload, at, row["prev"], row["hash"], row["actor"]))
    return entries


def _replay(
    rebuilt: Session, entries: list[_Entry], payloads: list[Any], check: Check | None, report: Verification, careful: bool
) -> bool | None:
    """Apply the log to the scratch tables; False (with the finding) when an entry cannot be applied.

    Not `careful`: one flush at the end, and None (nothing reported) at the first error, for a careful replay to name it.
    """
    # The session forgets rows nothing refers to; keeping every rebuilt row lets `project` find the
    # event and its tables in memory instead of a SELECT for each entry.
    kept: list[Any] = []
    sa_event.listen(rebuilt, "pending_to_persistent", lambda _session, row: kept.append(row))
    try:
        for entry, payload in zip(entries, payloads, strict=True):
            if check:
                try:
                    problem = check(rebuilt, entry, payload)
                except Exception as exc:  # a log that breaks the re-pairing is a finding
                    if not careful:
                        raise
                    problem = f"log entry {entry.seq}: its round cannot be paired again from the log: {_brief(exc)}"
                if problem:
                    report.problems.append(problem)
            try:
                project(rebuilt, entry, payload)
                if careful:
                    rebuilt.flush()
            except Exception as exc:  # an entry that contradicts the log before it is a finding
                if not careful:
                    raise
                report.problems.append(f"log entry {entry.seq}: {entry.type} cannot be applied to the log before it: {_brief(exc)}")
                return False
        rebuilt.flush()
    except Exception:
        if careful:
            raise
        return None
    return True


def _compare(session: Session, rebuilt: Session, event_id: str, report: Verification) -> None:
    for model in PROJECTION:
        have, want = _comparable(session, model, event_id), _comparable(rebuilt, model, event_id)
        for row in sorted(have ^ want, key=repr)[:5]:
            where = "the tables have" if row in have else "the log gives"
            report.problems.append(f"{model.__tablename__}: {where} {_show(model, row)}, the other side does not")


def check_views(session: Session, rebuilt: Session, event_id: str, entries: list[_Entry]) -> list[str]:
    """Each cached view a read would show now (its stamps match the event's head and this code, and it decodes)
    that is not what the `rebuilt` tables and the log `entries` give: a finding each."""
    events = _raw_rows(session, Event, event_id)
    head = events[0]["last_hash"] if len(events) == 1 else None
    shown = []
    for row in _raw_rows(session, CachedView, event_id):
        kind, args, data = row["kind"], row["args"], _plain(row["data"], CachedView.__table__.c.data.type)
        stamped = row["head"] == head and row["code"] == viewcache.code()
        if not stamped or kind not in viewcache.KINDS or not isinstance(args, str) or not isinstance(data, bytes):
            continue  # stale or unreadable (a read asks for text args): a read computes the view afresh
        try:
            shown.append((kind, args, msgspec.json.decode(data, type=viewcache.KINDS[kind])))
        except msgspec.DecodeError:
            continue
    if not shown:
        return []
    # Some views read the log itself (a pods round's repeats); the rows are read back as the database gives them.
    # on the connection, not the session: a plain insert, without the ORM's bulk path (0.17 s against 0.26-0.39 s for 25,000 rows)
    if entries:  # an insert of no rows is no insert to SQLAlchemy: a row of defaults
        rebuilt.connection().execute(insert(LogEntry), [entry.row() for entry in entries])
    rebuilt.expire_all()
    problems = []
    for kind, args, view in shown:
        where = f"view_cache: the cached {kind}" + (f" (args {args!r:.20})" if args else "")
        try:
            if view != export.fresh_view(rebuilt, kind, event_id, args):
                problems.append(f"{where} differ from what the log gives")
        except Exception as exc:  # a view of something the log does not have (a round never paired)
            problems.append(f"{where} show what the log does not give: {_brief(exc)}")
    return problems


def log_hashes(session: Session, event_id: str) -> dict[int, str]:
    """Each log entry's hash by its seq, as stored (a row of another type is left out, as `verify` names it)."""
    rows = _raw_rows(session, LogEntry, event_id)
    return {r["seq"]: r["hash"] for r in rows if type(r["seq"]) is int and isinstance(r["hash"], str)}


def _raw_rows(session: Session, model: type[Base], event_id: str) -> list[dict[str, Any]]:
    """One event's rows of a table as the database stores them: columns untyped, so no value can fail to convert."""
    return _raw_rows_where(session, model, "id" if model is Event else "event_id", event_id)


def _raw_rows_where(session: Session, model: type[Base], key: str, value: str) -> list[dict[str, Any]]:
    names = [c.name for c in model.__table__.columns]
    untyped = table(model.__tablename__, *(column(name) for name in names))
    return [dict(zip(names, row, strict=True)) for row in session.execute(select(untyped).where(untyped.c[key] == value))]


def _plain_rows(session: Session, model: type[Base], event_id: str) -> list[dict[str, Any]]:
    """`_raw_rows` with times in UTC, binary as bytes and SQLite's 0 and 1 as booleans (only those columns are touched)."""
    kinds = {c.name: c.type for c in model.__table__.columns if isinstance(c.type, LargeBinary | Boolean | DateTime)}
    rows = _raw_rows(session, model, event_id)
    for row in rows:
        for name, kind in kinds.items():
            row[name] = _plain(row[name], kind)
    return rows


def _comparable(session: Session, model: type[Base], event_id: str) -> set[tuple[tuple[Any, ...], tuple[type, ...]]]:
    """Rows as (values, their types), so a changed type is a difference."""
    rows = (tuple(row.values()) for row in _plain_rows(session, model, event_id))
    return {(values, tuple(map(type, values))) for values in rows}


def _plain(value: Any, kind: Any) -> Any:
    if isinstance(value, memoryview) and isinstance(kind, LargeBinary):
        return bytes(value)
    if isinstance(kind, Boolean) and type(value) is int and value in (0, 1):  # SQLite keeps booleans as 0 and 1
        return bool(value)
    if isinstance(kind, DateTime) and isinstance(value, str):  # SQLite keeps times as text
        try:
            return as_utc(datetime.fromisoformat(value))
        except ValueError:
            return value
    return as_utc(value) if isinstance(value, datetime) else value


def _show(model: type[Base], row: tuple[tuple[Any, ...], tuple[type, ...]]) -> str:
    columns = [c.name for c in model.__table__.columns]
    return "(" + ", ".join(f"{c}={v!r:.40}" for c, v in zip(columns, row[0], strict=True)) + ")"


def _brief_row(row: dict[str, Any]) -> str:
    return ", ".join(f"{name}={value!r:.24}" for name, value in row.items() if name != "payload")


def _brief(exc: BaseException) -> str:
    """An exception as one short line (a database error as the driver's message, without SQLAlchemy's statement)."""
    source = getattr(exc, "orig", None) or exc
    text = " ".join(str(source).split())
    return f"{type(exc).__name__}: {text}"[:200]
