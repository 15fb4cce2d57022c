"""Telling whoever listens that an event's log moved: one message an event a transaction, sent at its commit.

`eventlog.append_many` calls `moved` for every change, so no handler or command
has to remember to; the message is the event's new head (`last_seq`) on the
channel `event EVENT` (`tournament serve`'s live pages follow it: web/live.py).

- PostgreSQL: a `NOTIFY` in the writer's own transaction, whoever writes (a
  worker, another worker, the CLI): PostgreSQL delivers it at commit to every
  session that LISTENs, and never for a transaction rolled back.
- SQLite: the session's `info[LOCAL]` (set by the web app's writing sessions)
  is called after the commit, in this process; a CLI command writing to the
  same file tells nobody (the pages' stream reads the head again at each
  keepalive, tournament/README.md T-126).

A transaction that appends many entries (a pairing, an import) sends one
message for each event it touched, with the last head: a burst of entries is
one change to those who listen.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import event, text
from sqlalchemy.orm import Session

PG_CHANNEL = "headjudge_live"  # the one PostgreSQL channel; each message starts with the channel of ours it is on
LOCAL = "live_hand_over"  # session.info key: (channel, message) -> None, called after the commit (SQLite)
_PENDING = "live_pending"  # session.info key: {event id: head} appended in this transaction
_SENT = "live_sent"  # the same, committed on SQLite, handed over after the commit

HandOver = Callable[[str, str], None]


def event_channel(event_id: str) -> str:
    return f"event {event_id}"


def moved(session: Session, event_id: str, seq: int) -> None:
    """The event's log now ends at `seq` in this transaction; say so when it commits."""
    session.info.setdefault(_PENDING, {})[event_id] = seq


def notify(session: Session, channel: str, message: str) -> None:
    """PostgreSQL: `message` on `channel` to every listener, at this transaction's commit."""
    session.execute(text("SELECT pg_notify(:c, :m)"), {"c": PG_CHANNEL, "m": f"{channel} {message}"})


@event.listens_for(Session, "before_commit")
def _before_commit(session: Session) -> None:
    pending: dict[str, int] = session.info.pop(_PENDING, {})
    if not pending:
        return
    if session.get_bind().dialect.name == "postgresql":
        for event_id, seq in pending.items():
            notify(session, event_channel(event_id), str(seq))
    elif LOCAL in session.info:
        session.info[_SENT] = pending


@event.listens_for(Session, "after_commit")
def _after_commit(session: Session) -> None:
    sent: dict[str, int] = session.info.pop(_SENT, {})
    hand_over: HandOver | None = session.info.get(LOCAL)
    if hand_over is not None:
        for event_id, seq in sent.items():
            hand_over(event_channel(event_id), str(seq))


@event.listens_for(Session, "after_rollback")
def _after_rollback(session: Session) -> None:
    """A refused change tells nobody."""
    session.info.pop(_PENDING, None)
    session.info.pop(_SENT, None)
