"""Round management before results: taking a round back (`unpair`) and a judge's seat swap."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from tournament.service.errors import Conflict, NotFound, Usage
from tournament.service.queries import assigned_byes, get_player, lock_event, matches, pod_tables
from tournament.storage.eventlog import PlayersSwapped, RoundUnpaired, append
from tournament.storage.models import Claim, Event, Round


def _current(session: Session, event: Event) -> Round:
    paired = session.get(Round, (event.id, event.rounds)) if event.rounds else None
    if paired is None:
        raise Conflict(f"{event.id!r} has no round paired yet")
    return paired


def _reported_tables(session: Session, event: Event) -> list[int]:
    """The current round's tables that have a result (a pods bye is not one)."""
    done = [m.number for m in matches(session, event.id, event.rounds) if m.games_a is not None]
    return done + [pod.number for pod, _ in pod_tables(session, event.id, event.rounds) if pod.source not in (None, "bye")]


def unpair(session: Session, event_id: str, reason: str | None = None) -> int:
    """Take back the current round while no table has a result; return its number (`pair` pairs it again)."""
    event = lock_event(session, event_id)
    paired = _current(session, event)
    done = _reported_tables(session, event)
    if done:
        tables = ", ".join(map(str, done))
        raise Conflict(f"round {paired.number} of {event_id!r} has results at table(s) {tables}; a round is unpaired before any")
    append(session, event_id, RoundUnpaired(paired.number, reason.strip() if reason and reason.strip() else None))
    return paired.number


def swap(session: Session, event_id: str, a: str, b: str, reason: str) -> int:
    """A judge exchanges two players' seats in the current round, before either table has a result; return the round."""
    event = lock_event(session, event_id)
    paired = _current(session, event)
    if not reason.strip():
        raise Usage("a swap is a judge's fix: give --reason")
    if a == b:
        raise Usage("name two different players")
    if event.bracket_round is not None and event.bracket_round <= paired.number:
        raise Usage(f"round {paired.number} of {event_id!r} is a bracket or round-robin round; its pairings follow from the seeds")
    for name in (a, b):
        get_player(session, event_id, name)
    if {a, b} & set(assigned_byes(session, event_id, paired.number)):
        raise Conflict("a pre-assigned bye stays with its player; unpair the round and change the bye instead")
    where: dict[str, tuple[int, bool]] = {}  # player -> (table, has a result); table 0 is the bye
    for m in matches(session, event_id, paired.number):
        for name in (m.player_a, m.player_b):
            where[name] = (m.number, m.games_a is not None)
    for pod, seats in pod_tables(session, event_id, paired.number):
        for seat in seats:
            where[seat.player] = (pod.number, pod.source is not None)
    if paired.bye:
        where[paired.bye] = (0, False)
    for name in (a, b):
        if name not in where:
            raise NotFound(f"{name!r} is not in round {paired.number} of {event_id!r}")
        table, done = where[name]
        if done:
            raise Conflict(f"table {table} of round {paired.number} has a result; a swap comes before results")
    if where[a][0] == where[b][0]:
        raise Usage(f"{a!r} and {b!r} sit at the same table already")
    claimed = session.scalars(
        select(Claim.table).filter_by(event_id=event_id, round=paired.number).where(Claim.table.in_([where[a][0], where[b][0]]))
    ).first()
    if claimed is not None:
        raise Conflict(f"a player at table {claimed} has claimed a result on the web; a judge rules on it before any swap")
    append(session, event_id, PlayersSwapped(paired.number, (a, b), reason.strip()))
    return paired.number
