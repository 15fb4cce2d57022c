"""Registering and dropping players."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy.orm import Session

from referee.ruleset import CHANCE, JUDGE
from tournament.eventlog import (
    PlayerDropped,
    PlayerRegistered,
    append,
)
from tournament.models import Match, Player
from tournament.service.errors import (
    Conflict,
    Usage,
)
from tournament.service.events import FORMATS
from tournament.service.queries import (
    check_id,
    get_player,
    lock_event,
    open_match,
)


def register(session: Session, event_id: str, names: Sequence[str]) -> list[str]:
    """Register players; after round 1 is paired they are late entries joining the next round."""
    event = lock_event(session, event_id)
    for name in names:
        check_id("player", name)
        if name in (CHANCE, JUDGE):
            raise Usage(f"{name!r} is reserved in game logs and cannot be a player id")
    if len(set(names)) != len(names):
        raise Usage("a player is named twice")
    if event.bracket_round is not None:
        raise Conflict(f"{event_id!r} has seeded its {FORMATS[event.format] if event.format != 'swiss' else 'top cut'}; no more entries")
    for name in names:
        if session.get(Player, (event_id, name)) is not None:
            raise Conflict(f"{name!r} is already registered in {event_id!r}")
    for name in names:
        append(session, event.id, PlayerRegistered(name))
    return list(names)


def drop(session: Session, event_id: str, name: str) -> Match | None:
    """Drop a player. Mid-round, their unfinished match is conceded; return it then."""
    event = lock_event(session, event_id)
    player = get_player(session, event_id, name)
    if player.dropped_round is not None:
        raise Conflict(f"{name!r} already dropped (after round {player.dropped_round})")
    match = open_match(session, event, name)
    append(session, event.id, PlayerDropped(name, match.number if match else None))
    return match

