"""The round clock: a round's start and length, a judge's extensions, and the time left.

Times come from the log entries' `at` (`round_started` sets the start), so
`verify` rebuilds the same clock and every reader agrees on it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from tournament.service.errors import Conflict, NotFound, Usage
from tournament.service.queries import get_event, lock_event, storable
from tournament.storage.eventlog import RoundStarted, TimeExtended, append, as_utc
from tournament.storage.models import Event, Match, Pod, Round

DEFAULT_MINUTES = 50  # a Swiss round of Magic, as the MTR sets it
MOST_MINUTES = 24 * 60


def _minutes(value: int, what: str) -> int:
    if not 1 <= value <= MOST_MINUTES:
        raise Usage(f"{what} must be 1 to {MOST_MINUTES} minutes, not {value}")
    return value


def _running(session: Session, event_id: str, refused: str) -> Event:
    event = lock_event(session, event_id)
    if event.finished:
        raise Conflict(f"{event_id!r} is finished: {refused}")
    return event


def start_round(session: Session, event_id: str, minutes: int = DEFAULT_MINUTES) -> Round:
    """Start the current round's clock now; refused once started (a judge extends tables instead), and once the
    event is finished (T-167)."""
    event = _running(session, event_id, "its clock does not start")
    _minutes(minutes, "a round")
    paired = session.get(Round, (event_id, event.rounds)) if event.rounds else None
    if paired is None:
        raise Conflict(f"{event_id!r} has no round paired to start")
    if paired.started_at is not None:
        raise Conflict(f"round {paired.number} of {event_id!r} started at {as_utc(paired.started_at):%H:%M:%S} UTC already")
    append(session, event_id, RoundStarted(paired.number, minutes))
    return paired


def extend(session: Session, event_id: str, table: int, minutes: int, reason: str | None = None) -> datetime:
    """A judge gives a table of the current round extra minutes; return its new end (not once finished, T-167)."""
    event = _running(session, event_id, "no table takes extra time")
    _minutes(minutes, "an extension")
    ends = round_ends(session, event_id, event.rounds)
    if ends is None:
        raise Conflict(f"round {event.rounds} of {event_id!r} has not started; `tournament round start` first")
    key = (event_id, event.rounds, table)
    found: Pod | Match | None = None
    if storable(table):
        found = session.get(Pod, key) if event.format == "pods" else session.get(Match, key)
    if found is None or (isinstance(found, Pod) and found.source == "bye"):
        raise NotFound(f"round {event.rounds} of {event_id!r} has no table {table}")
    append(session, event_id, TimeExtended(event.rounds, table, minutes, reason))
    return ends + timedelta(minutes=found.extra_minutes)


def round_ends(session: Session, event_id: str, number: int) -> datetime | None:
    """When a round's time is up (before any extension), or None before its clock starts."""
    paired = session.get(Round, (event_id, number))
    if paired is None or paired.started_at is None or paired.minutes is None:
        return None
    return as_utc(paired.started_at) + timedelta(minutes=paired.minutes)


@dataclass(frozen=True)
class TableTime:
    table: int
    ends_at: datetime
    seconds_left: int  # negative once time is up


@dataclass(frozen=True)
class Clock:
    round: int
    started_at: datetime | None  # None: not started
    minutes: int | None
    ends_at: datetime | None
    seconds_left: int | None
    tables: list[TableTime]  # the unfinished tables with extra time, latest end first


def clock(session: Session, event_id: str, now: datetime) -> Clock:
    """The current round's time left at `now`, and the tables with extensions still playing."""
    event = get_event(session, event_id)
    ends = round_ends(session, event_id, event.rounds)
    paired = session.get(Round, (event_id, event.rounds)) if event.rounds else None
    if ends is None or paired is None:
        return Clock(event.rounds, None, None, None, None, [])
    model = Pod if event.format == "pods" else Match
    unfinished = Pod.source.is_(None) if model is Pod else Match.games_a.is_(None)
    query = select(model.number, model.extra_minutes).filter_by(event_id=event_id, round=event.rounds)
    extended = list(session.execute(query.where(unfinished, model.extra_minutes > 0)))
    tables = sorted(
        (TableTime(n, ends + timedelta(minutes=m), _left(ends + timedelta(minutes=m), now)) for n, m in extended),
        key=lambda t: (-t.seconds_left, t.table),
    )
    return Clock(event.rounds, as_utc(paired.started_at) if paired.started_at else None, paired.minutes, ends, _left(ends, now), tables)


def _left(ends: datetime, now: datetime) -> int:
    return int((ends - now).total_seconds() // 1)
