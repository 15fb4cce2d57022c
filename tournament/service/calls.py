"""Judge calls (issue 26): a player calls a judge to their table from their phone; the organiser answers.

Each call and each answer is an entry of the event's log (`judge_called`,
`call_answered`). A player has one open call at a time (T-94); a call comes
from a table of the current round, never from a bye or between rounds.
"""

from __future__ import annotations

import unicodedata

from sqlalchemy import select
from sqlalchemy.orm import Session

from schemas.tournament import JudgeCallRow
from tournament.service.claims import seat_of
from tournament.service.errors import Conflict, NotFound, Usage, WrongTable
from tournament.service.persons import display_names
from tournament.service.queries import get_event, lock_event, storable
from tournament.storage.desklog import CallAnswered, JudgeCalled
from tournament.storage.eventlog import append, as_utc
from tournament.storage.models import JudgeCall

MAX_TEXT = 200  # characters of the player's line (the column's width)


def call_judge(
    session: Session, event_id: str, player: str, text: str = "", table: int | None = None, *, disputes: str | None = None,
) -> JudgeCall:
    """Call a judge to `player`'s table of the current round (`table`, when given, must be it), with a line of
    text for the judge; `disputes`: another player at the table whose claim `player` says is not right, which
    puts the table in the judge queue (T-151). Refused: a player at no table (WrongTable), a second call while
    one is open (T-94), a dispute of someone not at the table."""
    event = lock_event(session, event_id)
    line = _clean(text)
    seat = seat_of(session, event, player) if event.rounds else None
    if seat is None:
        where = f"round {event.rounds} (a bye, or not paired)" if event.rounds else "no round yet"
        raise WrongTable(f"{player!r} is not at a table: {where}; a judge comes to a table")
    if table is not None and table != seat.number:
        raise WrongTable(f"{player!r} plays at table {seat.number} of round {event.rounds}, not table {table}")
    if disputes is not None and (disputes == player or disputes not in seat.players):
        raise NotFound(f"{disputes!r} has no claim at table {seat.number} for {player!r} to dispute")
    waiting = open_call(session, event_id, player)
    if waiting is not None:
        raise Conflict(f"your call {waiting.number} (table {waiting.table}) is still open: a judge is on the way")
    append(session, event_id, JudgeCalled(event.rounds, seat.number, player, line, disputes))
    call = open_call(session, event_id, player)
    assert call is not None
    return call


def answer_call(session: Session, event_id: str, number: int) -> JudgeCall:
    """Mark call `number` answered (a judge went to the table)."""
    lock_event(session, event_id)
    call = session.get(JudgeCall, (event_id, number)) if storable(number) else None
    if call is None:
        raise NotFound(f"{event_id!r} has no judge call {number}")
    if call.answered_at is not None:
        raise Conflict(f"call {number} (table {call.table}) was answered already")
    append(session, event_id, CallAnswered(number))
    return call


def open_call(session: Session, event_id: str, player: str) -> JudgeCall | None:
    query = select(JudgeCall).filter_by(event_id=event_id, player=player, answered_at=None)
    return session.scalars(query).first()


def judge_calls(session: Session, event_id: str, *, answered: bool = False) -> list[JudgeCallRow]:
    """The event's open judge calls, newest first (`answered`: every call, open or not)."""
    get_event(session, event_id)
    query = select(JudgeCall).filter_by(event_id=event_id).order_by(JudgeCall.number.desc())
    if not answered:
        query = query.filter_by(answered_at=None)
    names = display_names(session, event_id)
    return [row(call, names.get(call.player, call.player)) for call in session.scalars(query)]


def row(call: JudgeCall, name: str) -> JudgeCallRow:
    answered = as_utc(call.answered_at) if call.answered_at else None
    return JudgeCallRow(call.number, call.round, call.table, call.player, name, call.text, as_utc(call.called_at), answered, call.disputes)


def _clean(text: str) -> str:
    line = unicodedata.normalize("NFC", text).strip()
    if len(line) > MAX_TEXT:
        raise Usage(f"text: at most {MAX_TEXT} characters for the judge, not {len(line)}")
    if any(unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") for c in line):
        raise Usage("text: one line, without control characters")
    return line
