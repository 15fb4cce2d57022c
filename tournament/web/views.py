"""What the public pages and their `/api/...` twins show, built once from the database as the CLI's Structs."""

from __future__ import annotations

import unicodedata

from sqlalchemy import select
from sqlalchemy.orm import Session

from schemas.tournament import EventInfo, RoundInfo, TableRow
from schemas.web import Seat, Version
from tournament import export, service
from tournament.models import Event

MAX_SEATS = 20  # find-your-seat answers at most this many players


def events(session: Session) -> list[EventInfo]:
    return [export.event_info(e) for e in session.scalars(select(Event).order_by(Event.created_at.desc()))]


def version(event: Event) -> Version:
    return Version(event.id, event.last_seq, event.rounds)


def names(session: Session, event_id: str) -> dict[str, str]:
    """Each player's id -> the name people read."""
    return {p.name: p.name for p in service.players(session, event_id)}


def current_round(session: Session, event: Event) -> RoundInfo | None:
    return export.round_info(session, event.id, event.rounds) if event.rounds else None


def _folded(text: str) -> str:
    """For matching what someone types: compatibility forms, no zero-width or format characters, no case."""
    text = unicodedata.normalize("NFKC", text)
    return "".join(c for c in text if unicodedata.category(c) != "Cf").casefold().strip()


def seats(session: Session, event: Event, query: str) -> list[Seat]:
    """Find your seat: players of the current round whose id or name contains `query`, with their table."""
    wanted = _folded(query)
    if not wanted or not event.rounds:
        return []
    shown = names(session, event.id)
    info = current_round(session, event)
    assert info is not None
    tables: dict[str, TableRow] = {p: row for row in info.tables for p in row.players}
    resting = {*([info.bye] if info.bye else []), *info.advanced}
    found = []
    for player, name in sorted(shown.items(), key=lambda item: _folded(item[1])):
        if wanted in _folded(player) or wanted in _folded(name):
            found.append(Seat(player, name, tables.get(player), bye=player in resting))
    return found[:MAX_SEATS]


def by_name(info: RoundInfo, shown: dict[str, str]) -> list[tuple[str, str, str]]:
    """Pairings by name: (player, table, opponents), alphabetically by the name people read."""
    rows = []
    for row in info.tables:
        for player in row.players:
            others = ", ".join(shown.get(p, p) for p in row.players if p != player)
            label = "bye" if row.source == "bye" else str(row.table)
            rows.append((shown.get(player, player), label, others))
    rows += [(shown.get(p, p), "bye", "") for p in [*([info.bye] if info.bye else []), *info.advanced]]
    return sorted(rows, key=lambda r: _folded(r[0]))
