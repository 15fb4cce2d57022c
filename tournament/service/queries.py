"""Reading the projection: the event, its players, rounds, tables and pods, and the id check."""

from __future__ import annotations

import re

from sqlalchemy import select
from sqlalchemy.orm import Session

from tournament.service.errors import (
    Conflict,
    NotFound,
    Usage,
)
from tournament.storage.models import Event, Match, Player, Pod, PodSeat, Round, RoundBye

ID_PATTERN = re.compile(r"[A-Za-z0-9_.-]{1,64}")  # the referee's player-id pattern; always fullmatch


def check_id(kind: str, value: str) -> str:
    if not ID_PATTERN.fullmatch(value):  # not match: `$` would let a final newline through
        raise Usage(f"{kind} {value!r} must be 1 to 64 letters, digits, '_', '.' or '-'")
    return value


def get_event(session: Session, event_id: str) -> Event:
    """The event, for reading; NotFound names it."""
    event = session.get(Event, event_id)
    if event is None:
        raise NotFound(f"unknown event {event_id!r}")
    return event


def event_heads(session: Session, event_ids: list[str]) -> dict[str, int]:
    """Each event's log head (`last_seq`) in one read; an event that does not exist is left out."""
    return {event_id: seq for event_id, seq in session.execute(select(Event.id, Event.last_seq).where(Event.id.in_(event_ids)))}


def lock_event(session: Session, event_id: str) -> Event:
    """The event row, locked until commit: writers to one event queue here (PostgreSQL)."""
    query = select(Event).where(Event.id == event_id).with_for_update()
    # populate_existing: what the previous writer committed, not a copy cached in this session
    event = session.scalars(query.execution_options(populate_existing=True)).one_or_none()
    if event is None:
        raise NotFound(f"unknown event {event_id!r}")
    return event


def lock_open_event(session: Session, event_id: str) -> Event:
    """`lock_event` for a change that adds rounds or players: refused once the organiser finished the event (T-104)."""
    event = lock_event(session, event_id)
    if event.finished:
        raise Conflict(f"{event_id!r} is finished: no more rounds and no more players")
    return event


def players(session: Session, event_id: str) -> list[Player]:
    return list(session.scalars(select(Player).filter_by(event_id=event_id).order_by(Player.name)))


def get_player(session: Session, event_id: str, name: str) -> Player:
    player = session.get(Player, (event_id, name))
    if player is None:
        raise NotFound(f"unknown player {name!r} in event {event_id!r}")
    return player


def open_match(session: Session, event: Event, name: str) -> Match | None:
    """The player's match of the current round, if it has no result yet."""
    query = select(Match).filter_by(event_id=event.id, round=event.rounds, games_a=None)
    return next((m for m in session.scalars(query) if name in (m.player_a, m.player_b)), None)


def matches(session: Session, event_id: str, round_number: int | None = None) -> list[Match]:
    query = select(Match).filter_by(event_id=event_id)
    if round_number is not None:
        query = query.filter_by(round=round_number)
    return list(session.scalars(query.order_by(Match.round, Match.number)))


def rounds(session: Session, event_id: str) -> list[Round]:
    return list(session.scalars(select(Round).filter_by(event_id=event_id).order_by(Round.number)))


def pod_tables(session: Session, event_id: str, round_number: int | None = None) -> list[tuple[Pod, list[PodSeat]]]:
    """The pods (of one round, or all), each with its seats in seat order."""
    query = select(Pod).filter_by(event_id=event_id)
    seats_query = select(PodSeat).filter_by(event_id=event_id)
    if round_number is not None:
        query, seats_query = query.filter_by(round=round_number), seats_query.filter_by(round=round_number)
    seats: dict[tuple[int, int], list[PodSeat]] = {}
    for seat in session.scalars(seats_query.order_by(PodSeat.seat)):
        seats.setdefault((seat.round, seat.table), []).append(seat)
    return [(pod, seats[(pod.round, pod.number)]) for pod in session.scalars(query.order_by(Pod.round, Pod.number))]


def had_bye(session: Session, event_id: str, name: str) -> int | None:
    """The round of a player's bye so far (the pairing's, a pre-assigned one, or a pods bye), if any."""
    swiss = select(Round.number).filter_by(event_id=event_id, bye=name)
    assigned = select(RoundBye.round).filter_by(event_id=event_id, player=name)
    pods = select(Pod.round).join(PodSeat, (PodSeat.event_id == Pod.event_id) & (PodSeat.round == Pod.round) & (PodSeat.table == Pod.number))
    pods = pods.where(Pod.event_id == event_id, Pod.source == "bye", PodSeat.player == name)
    return session.scalars(swiss.union_all(assigned, pods)).first()


def assigned_byes(session: Session, event_id: str, number: int) -> list[str]:
    """The pre-assigned byes granted in a round."""
    return list(session.scalars(select(RoundBye.player).filter_by(event_id=event_id, round=number).order_by(RoundBye.player)))


def round_byes(session: Session, event_id: str) -> list[tuple[int, str]]:
    """Every pre-assigned bye granted so far: (round, player)."""
    query = select(RoundBye.round, RoundBye.player).filter_by(event_id=event_id)
    return [(n, p) for n, p in session.execute(query.order_by(RoundBye.round, RoundBye.player))]


def seeded(session: Session, event_id: str) -> list[str]:
    """The seeds of the bracket or round robin, best first."""
    return [p.name for p in sorted((p for p in players(session, event_id) if p.seed is not None), key=lambda p: p.seed or 0)]


def storable(number: int) -> bool:
    """Whether a table number fits a database integer (a key larger than 64 bits is no table, not a crash)."""
    return -(2**63) <= number < 2**63


def find_match(session: Session, event: Event, table: int, round_number: int | None) -> Match:
    number = event.rounds if round_number is None else round_number
    if number < 1 or number > event.rounds:
        raise NotFound(f"event {event.id!r} has no round {number} (rounds paired: {event.rounds})")
    match = session.get(Match, (event.id, number, table)) if storable(table) else None
    if match is None:
        raise NotFound(f"round {number} of {event.id!r} has no table {table}")
    return match


def find_pod(session: Session, event: Event, table: int, round_number: int | None) -> tuple[Pod, list[PodSeat]]:
    number = event.rounds if round_number is None else round_number
    if number < 1 or number > event.rounds:
        raise NotFound(f"event {event.id!r} has no round {number} (rounds paired: {event.rounds})")
    found = [(pod, seats) for pod, seats in pod_tables(session, event.id, number) if pod.number == table]
    if not found:
        raise NotFound(f"round {number} of {event.id!r} has no table {table}")
    return found[0]

