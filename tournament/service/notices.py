"""The big screen's notice line (`/e/EVENT/screen`, `tournament notice`): one short line the organiser sets."""

from __future__ import annotations

import unicodedata

from sqlalchemy.orm import Session

from tournament.service.errors import Usage
from tournament.service.queries import lock_event
from tournament.storage.eventlog import NoticeSet, append

NOTICE = 200  # characters: one line a room reads at a glance (events.notice holds as many)


def set_notice(session: Session, event_id: str, text: str | None) -> str | None:
    """Show `text` under the round on the big screen (empty or None takes it down); return it as stored."""
    event = lock_event(session, event_id)
    line = unicodedata.normalize("NFC", text or "").strip() or None
    if line is not None:
        if len(line) > NOTICE:
            raise Usage(f"notice: at most {NOTICE} characters, not {len(line)}")
        if any(unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") for c in line):
            raise Usage("notice: one line, without control characters")
    if line != event.notice:  # the same line again changes nothing and writes nothing
        append(session, event_id, NoticeSet(line))
    return line
