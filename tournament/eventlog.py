"""The event log: append-only, hash-chained rows, and the projection built from them.

Every change to an event is one `LogEntry` whose payload is a msgspec-encoded
Struct below. `append` writes the entry and applies it to the current tables
(`project`) in the caller's transaction, so the two never disagree;
`verification.verify` replays the log into a scratch database and compares.

An entry's hash is the SHA-256 of a canonical encoding of
(event id, seq, type, time, previous hash) as a JSON array, a newline, then
the payload bytes exactly as stored. The first entry's previous hash is 64
zeros.
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from typing import Any, Literal

import msgspec
from sqlalchemy import select
from sqlalchemy.orm import Session

from schemas.tournament import Source
from tournament.models import (
    Event,
    GameLog,
    LogEntry,
    Match,
    Player,
    Pod,
    PodSeat,
    Round,
)

GENESIS = "0" * 64


class EventCreated(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    name: str
    ruleset: str
    profile: str
    best_of: int
    seed: int  # the pairing seed of every round, so pairings can be reproduced
    format: str = "swiss"  # these three are left out of Swiss events' payloads, which read as before
    table_size: int = 2
    points: str = "3,1"  # pods: pods.Points as text
    require_chain: bool = False  # game logs must be hash-chained (`prev`); events before it did not ask


class PlayerRegistered(msgspec.Struct, forbid_unknown_fields=True):
    player: str


class PlayerDropped(msgspec.Struct, forbid_unknown_fields=True):
    player: str
    conceded: int | None = None  # the table of the current round they left unfinished, now lost


class RoundPaired(msgspec.Struct, forbid_unknown_fields=True):
    round: int
    seed: int
    tables: list[tuple[str, str]]
    bye: str | None
    cost: int


class BracketSeeded(msgspec.Struct, forbid_unknown_fields=True):
    """The bracket or round robin is seeded (after Swiss: the top cut); it starts at `round`."""

    round: int
    seeds: list[str]  # best first


class PodsPaired(msgspec.Struct, forbid_unknown_fields=True):
    """A Swiss pods round: tables in seat order, byes, and the repeat meetings it could not avoid."""

    round: int
    seed: int
    tables: list[list[str]]
    byes: list[str]
    repeats: int


class GameRecord(msgspec.Struct, forbid_unknown_fields=True):
    """One game's referee log, whole (bytes are base64 in the JSON payload)."""

    sha256: str
    winner: str | None
    data: bytes
    fingerprint: str | None = None  # referee.logio.game_fingerprint; None in logs reported before it


class ResultReported(msgspec.Struct, forbid_unknown_fields=True):
    round: int
    table: int
    games: dict[str, int]
    draws: int
    source: Literal["log", "judge"]
    reason: str | None = None
    logs: list[GameRecord] = msgspec.field(default_factory=list)


class ResultCorrected(ResultReported, forbid_unknown_fields=True):
    """A judge changes a reported result; `reason` is required by the service."""


class PodReported(msgspec.Struct, forbid_unknown_fields=True):
    """A pod's result: each player's place (1 = best; equal places share), from the game's log or a judge."""

    round: int
    table: int
    places: dict[str, int]
    source: Literal["log", "judge"]
    reason: str | None = None
    log: GameRecord | None = None


class PodCorrected(PodReported, forbid_unknown_fields=True):
    """A judge changes a pod's result; `reason` is required by the service."""


Payload = (
    EventCreated | PlayerRegistered | PlayerDropped | BracketSeeded | RoundPaired | ResultReported | ResultCorrected
    | PodsPaired | PodReported | PodCorrected
)

PAYLOADS: dict[str, type[Any]] = {
    "event_created": EventCreated,
    "player_registered": PlayerRegistered,
    "player_dropped": PlayerDropped,
    "bracket_seeded": BracketSeeded,
    "round_paired": RoundPaired,
    "result_reported": ResultReported,
    "result_corrected": ResultCorrected,
    "pods_paired": PodsPaired,
    "pod_reported": PodReported,
    "pod_corrected": PodCorrected,
}
TYPES = {cls: name for name, cls in PAYLOADS.items()}
ENCODER = msgspec.json.Encoder()


def as_utc(moment: datetime) -> datetime:
    """A database time as an aware UTC datetime (SQLite hands back naive ones)."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def entry_hash(event_id: str, seq: int, type_: str, at: datetime, prev: str, payload: bytes) -> str:
    """The hash a log entry carries (see the module docstring)."""
    stamp = as_utc(at).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    head = ENCODER.encode([event_id, seq, type_, stamp, prev])
    return hashlib.sha256(head + b"\n" + payload).hexdigest()


def decode(entry: LogEntry) -> Any:
    """An entry's payload as its Struct."""
    return msgspec.json.decode(entry.payload, type=PAYLOADS[entry.type])


def append(session: Session, event_id: str, payload: Payload) -> LogEntry:
    """Append one change to an event's log and apply it to the current tables.

    The caller holds the event row locked (`service.lock_event`) unless the
    payload creates the event, whose primary key then guards against twins.
    """
    event = None if isinstance(payload, EventCreated) else session.get(Event, event_id)
    seq, prev = (event.last_seq + 1, event.last_hash) if event else (1, GENESIS)
    data = ENCODER.encode(payload)
    type_ = TYPES[type(payload)]
    at = datetime.now(UTC)
    entry = LogEntry(event_id=event_id, seq=seq, type=type_, payload=data, at=at, prev=prev)
    entry.hash = entry_hash(event_id, seq, type_, at, prev, data)
    project(session, entry, payload)
    session.flush()  # the event row exists before its first log row references it
    session.add(entry)
    session.flush()
    return entry


def project(session: Session, entry: LogEntry, payload: Payload) -> None:
    """Apply one log entry to the current tables (the only code that writes them)."""
    if isinstance(payload, EventCreated):
        session.add(
            Event(
                id=entry.event_id, name=payload.name, ruleset=payload.ruleset, profile=payload.profile,
                best_of=payload.best_of, format=payload.format, table_size=payload.table_size, points=payload.points,
                require_chain=payload.require_chain,
                seed=payload.seed, created_at=entry.at, rounds=0,
                last_seq=entry.seq, last_hash=entry.hash,
            )
        )
        return
    event = session.get(Event, entry.event_id)
    assert event is not None, "an event's first entry creates it"
    event.last_seq, event.last_hash = entry.seq, entry.hash
    key = entry.event_id
    if isinstance(payload, PlayerRegistered):
        session.add(Player(event_id=key, name=payload.player, registered_round=event.rounds))
    elif isinstance(payload, PlayerDropped):
        player = session.get(Player, (key, payload.player))
        assert player is not None
        player.dropped_round = event.rounds
        if payload.conceded is not None:
            match = session.get(Match, (key, event.rounds, payload.conceded))
            assert match is not None
            winner = match.player_b if match.player_a == payload.player else match.player_a
            wins = {winner: event.best_of // 2 + 1, payload.player: 0}
            _set_result(match, wins, 0, "drop", f"{payload.player} dropped", entry.seq)
    elif isinstance(payload, BracketSeeded):
        event.bracket_round = payload.round
        for seed, name in enumerate(payload.seeds, start=1):
            seeded = session.get(Player, (key, name))
            assert seeded is not None
            seeded.seed = seed
    elif isinstance(payload, RoundPaired):
        event.rounds = payload.round
        session.add(Round(event_id=key, number=payload.round, seed=payload.seed, bye=payload.bye, cost=payload.cost))
        session.flush()  # matches reference their round
        for number, (a, b) in enumerate(payload.tables, start=1):
            session.add(Match(event_id=key, round=payload.round, number=number, player_a=a, player_b=b))
    elif isinstance(payload, PodsPaired):
        event.rounds = payload.round
        session.add(Round(event_id=key, number=payload.round, seed=payload.seed, bye=None, cost=payload.repeats))
        session.flush()  # pods reference their round
        # A bye is a table of one after the real tables, placed first at once.
        seated: list[tuple[list[str], int | None]] = [(t, None) for t in payload.tables] + [([p], 1) for p in payload.byes]
        for number, (_names, place) in enumerate(seated, start=1):
            session.add(
                Pod(event_id=key, round=payload.round, number=number, source="bye" if place else None,
                    reported_seq=entry.seq if place else None)
            )
        session.flush()  # seats reference their pod
        for number, (names, place) in enumerate(seated, start=1):
            for chair, name in enumerate(names, start=1):
                session.add(PodSeat(event_id=key, round=payload.round, table=number, seat=chair, player=name, place=place))
    elif isinstance(payload, PodReported):  # and PodCorrected
        pod = session.get(Pod, (key, payload.round, payload.table))
        assert pod is not None
        pod.source, pod.reason, pod.reported_seq = payload.source, payload.reason, entry.seq
        pod.sha256, pod.log = (payload.log.sha256, payload.log.data) if payload.log else (None, None)
        pod.fingerprint = payload.log.fingerprint if payload.log else None
        for taken in session.scalars(select(PodSeat).filter_by(event_id=key, round=payload.round, table=payload.table)):
            taken.place = payload.places[taken.player]
    elif isinstance(payload, ResultReported):  # and ResultCorrected, its subclass
        match = session.get(Match, (key, payload.round, payload.table))
        assert match is not None
        _set_result(match, payload.games, payload.draws, payload.source, payload.reason, entry.seq)
        for old in session.scalars(select(GameLog).filter_by(event_id=key, round=payload.round, table=payload.table)):
            session.delete(old)
        session.flush()  # a correction may reuse the game numbers just deleted
        for game, record in enumerate(payload.logs, start=1):
            session.add(
                GameLog(
                    event_id=key, round=payload.round, table=payload.table, game=game,
                    sha256=record.sha256, winner=record.winner, data=record.data, fingerprint=record.fingerprint,
                )
            )


def _set_result(match: Match, games: dict[str, int], draws: int, source: Source, reason: str | None, seq: int) -> None:
    match.games_a, match.games_b = games[match.player_a], games[match.player_b]
    match.draws, match.source, match.reason, match.reported_seq = draws, source, reason, seq
