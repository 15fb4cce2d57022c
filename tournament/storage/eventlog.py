"""The event log: append-only, hash-chained rows, and the projection built from them.

Every change to an event is one `LogEntry` whose payload is a msgspec-encoded
Struct below. `append` writes the entry and applies it to the current tables
(`project`) in the caller's transaction, so the two never disagree;
`tournament.service.verification.verify` replays the log into a scratch database and compares.

An entry's hash is the SHA-256 of a canonical encoding of
(event id, seq, type, time, previous hash[, actor]) as a JSON array, a newline,
then the payload bytes exactly as stored. The first entry's previous hash is 64
zeros. The actor (who made the change: `Actor`) is in the array only when the
entry names one: entries written before actors were kept have none (NULL) and
hash as they always did (T-171).

Every entry names its actor. `append` takes it, or reads the one the caller's
transaction is bound to (`bind`): `tournament serve` binds each request's session
to who is signed in (web/common.py `writing`), the CLI its sessions to the
command line; a session bound to nobody signed in (`NOBODY`) cannot append.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any, Literal, Protocol, TypeVar

import msgspec
from sqlalchemy import delete, select
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from schemas.deck import DeckProblem, Difference
from schemas.log import FINGERPRINT_SCHEME
from schemas.tournament import Source
from tournament.storage import announce, desklog
from tournament.storage.desklog import DESK_PAYLOADS, DeskPayload
from tournament.storage.models import (
    Appeal,
    Claim,
    DeckCheck,
    DeckList,
    Event,
    GameLog,
    LogEntry,
    LogText,
    Match,
    Player,
    Pod,
    PodSeat,
    Round,
    RoundBye,
)

GENESIS = "0" * 64

# Who made a change (T-171): the command line, the server on its own, the organiser token's session, a player of the
# event (`player:ID`), a staff member (`staff:ID`) or a person signed in by their card (`person:ID`, T-181). A log row
# keeps it as this text; NULL: from before actors were kept.
Actor = str
CLI: Actor = "cli"
SERVER: Actor = "server"
ORGANISER: Actor = "organiser"
MAX_ACTOR = 80  # the column's width: a kind, a colon and an id of at most 64 characters
ACTOR = "actor"  # the key in `Session.info` an actor is bound to
NOBODY = "nobody"  # a web request nobody signed in to: it may answer, never append (a sign-in, a refusal)


def player_actor(player: str) -> Actor:
    return f"player:{player}"


def staff_actor(staff: str) -> Actor:
    return f"staff:{staff}"


def person_actor(person: str) -> Actor:
    """A person signed in by their player card (T-181): their one-tap registrations and claims."""
    return f"person:{person}"


def actor_parts(actor: Actor | None) -> tuple[str, str | None]:
    """An actor's kind (`cli`, `server`, `organiser`, `player`, `staff`; `unknown` for None) and id (players', staff's)."""
    if actor is None:
        return "unknown", None
    kind, _, key = actor.partition(":")
    return kind, key or None


def bind(session: Session, actor: Actor) -> Session:
    """Make `actor` the author of every entry `session` appends from now on (unless an append names its own)."""
    session.info[ACTOR] = actor
    return session


def acting(session: Session) -> Actor:
    """Who the session's changes are by: the actor it is bound to, else the command line (any session not opened by
    `tournament serve`: the CLI, a script, a test). A session of a request nobody signed in to is refused."""
    actor: Actor = session.info.get(ACTOR, CLI)
    if actor == NOBODY:
        raise AssertionError("a change by nobody: a web route that appends must be one a signed-in role may take")
    return actor


class EventCreated(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    name: str
    ruleset: str
    profile: str
    best_of: int
    seed: int  # the pairing seed of every round, so pairings can be reproduced
    format: str = "swiss"  # these three are left out of Swiss events' payloads, which read as before
    table_size: int = 2
    points: str = "3,1"  # pods: pods.Points as text
    # A late entry's missed rounds: "loss" or "none". Events from before the field was run as "none";
    # `create` writes the MTR's "loss" unless told otherwise.
    late_entry: str = "none"
    require_chain: bool = False  # game logs must be hash-chained (`prev`); events before it did not ask
    rated: bool = False  # its matches count for the ratings (`create --rated`)
    tables: str = "off"  # live tables: off, paper or digital (`create --tables`)


class PlayerRegistered(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """`player` is the id; `name` the display name (None: the id), `rating` higher is stronger; `person` who
    they are across events (`people.id`; None in entries written before people were kept)."""

    player: str
    name: str | None = None
    rating: int | None = None
    person: str | None = None


class PlayerLinked(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """The player is `person` (an organiser's fix: `tournament link`); `reason` says why."""

    player: str
    person: str
    reason: str | None = None


class PlayerRenamed(msgspec.Struct, forbid_unknown_fields=True):
    player: str
    name: str


class PlayerPaused(msgspec.Struct, forbid_unknown_fields=True):
    """The player sits out the rounds paired from now on (no points, not paired) until resumed."""

    player: str


class PlayerResumed(msgspec.Struct, forbid_unknown_fields=True):
    player: str


class ByeAssigned(msgspec.Struct, forbid_unknown_fields=True):
    """A pre-assigned bye for round `round` (None: the assignment is taken back)."""

    player: str
    round: int | None


class PlayerDropped(msgspec.Struct, forbid_unknown_fields=True):
    player: str
    conceded: int | None = None  # the table of the current round they left unfinished, now lost
    own: bool = False  # the player dropped themselves from their page (T-93); not conceding, so `conceded` is None


class RoundPaired(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    round: int
    seed: int
    tables: list[tuple[str, str]]
    bye: str | None
    cost: int
    byes: list[str] = msgspec.field(default_factory=list)  # the pre-assigned byes granted this round


class RoundUnpaired(msgspec.Struct, forbid_unknown_fields=True):
    """The current round is taken back before any result; `pair` pairs it again."""

    round: int
    reason: str | None = None


class PlayersSwapped(msgspec.Struct, forbid_unknown_fields=True):
    """A judge exchanges two players' seats in a round before its results (either may hold the bye)."""

    round: int
    players: tuple[str, str]
    reason: str


class RoundStarted(msgspec.Struct, forbid_unknown_fields=True):
    """The round's clock starts at the entry's time and runs `minutes`."""

    round: int
    minutes: int


class TimeExtended(msgspec.Struct, forbid_unknown_fields=True):
    """A judge gives a table extra minutes (they add up)."""

    round: int
    table: int
    minutes: int
    reason: str | None = None


class EventFinished(msgspec.Struct, forbid_unknown_fields=True):
    """The organiser finished the event: no more rounds and no more players (T-104)."""


class NoticeSet(msgspec.Struct, forbid_unknown_fields=True):
    """The line the big screen shows under the round (`/e/EVENT/screen`); null takes it down."""

    text: str | None


class BracketSeeded(msgspec.Struct, forbid_unknown_fields=True):
    """The bracket or round robin is seeded (after Swiss: the top cut); it starts at `round`."""

    round: int
    seeds: list[str]  # best first


class PodsPaired(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """A Swiss pods round: tables in seat order, byes, and the repeat meetings it could not avoid."""

    round: int
    seed: int
    tables: list[list[str]]
    byes: list[str]
    repeats: int
    proven: bool | None = None  # the repeats are proven the fewest (pods.PodPairing.proven); None: not kept then
    # CP-SAT took part (pods.PodPairing.exact, T-168): False for a field past its size or an install without
    # OR-Tools; None: from before this was kept, when OR-Tools was always installed (and so took part up to 64)
    exact: bool | None = None


class GameRecord(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """One game's referee log: its SHA-256, who won, and its bytes. An entry stores only the hash: the bytes are
    kept once in `log_texts` (`keep_texts`), however often the log is claimed or reported, and put back in place
    when the entry is read (`with_texts`). Entries from before keep the bytes inline (base64), and read as ever."""

    sha256: str
    winner: str | None
    data: bytes | None = None
    fingerprint: str | None = None  # referee.logio.game_fingerprint; None in logs reported before it
    # The fingerprint's scheme (schemas.log.FINGERPRINT_SCHEME); absent in entries from before scheme 2 (T-45). Only a
    # fingerprint of the current scheme is kept in the tables; an older one stays in its entry, as history.
    scheme: int = 1

    @property
    def current_fingerprint(self) -> str | None:
        """The fingerprint if made the way the referee makes one now, else None (the check then reads the log)."""
        return self.fingerprint if self.scheme == FINGERPRINT_SCHEME else None

    @property
    def text(self) -> bytes:
        """The log's bytes: a record from the referee has them, one read from its entry gets them by `with_texts`."""
        assert self.data is not None, "the record's bytes were put in place (with_texts)"
        return self.data


class ResultReported(msgspec.Struct, forbid_unknown_fields=True):
    round: int
    table: int
    games: dict[str, int]
    draws: int
    source: Literal["log", "judge", "slip", "players"]  # slip: a paper result; players: confirmed by both
    reason: str | None = None
    logs: list[GameRecord] = msgspec.field(default_factory=list)


class ResultCorrected(ResultReported, forbid_unknown_fields=True):
    """A judge changes a reported result; `reason` is required by the service."""


class PodReported(msgspec.Struct, forbid_unknown_fields=True):
    """A pod's result: each player's place (1 = best; equal places share), from the game's log or a judge."""

    round: int
    table: int
    places: dict[str, int]
    source: Literal["log", "judge", "slip", "players"]
    reason: str | None = None
    log: GameRecord | None = None


class PodCorrected(PodReported, forbid_unknown_fields=True):
    """A judge changes a pod's result; `reason` is required by the service."""


class ResultClaimed(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """A player's claim of their table's result (`tournament serve`): games won and drawn, a pod's places, or the
    game logs they uploaded (checked by the referee; `last_lines` is the SHA-256 of each log's last line, which
    the other players must give to confirm). It replaces that player's earlier claim on the table."""

    round: int
    table: int
    player: str
    games: dict[str, int] | None = None
    draws: int = 0
    places: dict[str, int] | None = None
    logs: list[GameRecord] = msgspec.field(default_factory=list)
    last_lines: list[str] = msgspec.field(default_factory=list)


class ClaimConfirmed(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """`player` confirms `claimant`'s claim at their table (for logs: by the hash of each log's last line)."""

    round: int
    table: int
    player: str
    claimant: str
    last_lines: list[str] = msgspec.field(default_factory=list)


class ClaimRuled(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """The organiser settles a disputed table: `accepted` names the claim taken (None: a result of the judge's
    own). The result itself follows as a `result_reported` or `pod_reported` entry with the same reason."""

    round: int
    table: int
    reason: str
    accepted: str | None = None


class DeckRegistered(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """A player's deck list, registered or replaced: its text, its SHA-256 (of the text's UTF-8) and the referee's
    verdict on it then (`legal` or `illegal`, with every problem; a list that cannot be read is never registered).
    `reason`: why a judge let it change after the deadline (T-112)."""

    player: str
    sha256: str
    text: str
    verdict: Literal["legal", "illegal"]
    summary: str
    facets: dict[str, str] = msgspec.field(default_factory=dict)
    problems: list[DeckProblem] = msgspec.field(default_factory=list)
    reason: str | None = None


class DeckPolicySet(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """The organiser's deck rules: what befalls a player without a legal list at the deadline (`unpaired` or
    `dropped`, T-113), and the deadline's time (None: round 1's pairing)."""

    policy: Literal["unpaired", "dropped"]
    deadline: datetime | None = None


class DecksPublished(msgspec.Struct, forbid_unknown_fields=True):
    """Every list of the event is public from now on."""


class DecksDiffer(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """Game logs refused at a table because a deck played in them is not its player's registered list: the
    differences card by card, by player, and the refused logs (so a judge may accept them, T-115)."""

    round: int
    table: int
    differences: dict[str, list[Difference]]
    logs: list[GameRecord] = msgspec.field(default_factory=list)


class DeckRuled(msgspec.Struct, forbid_unknown_fields=True):
    """A judge's ruling on a table refused for its decks (the `DecksDiffer` entry `check`); the table's result
    follows as its own entry with the same reason."""

    round: int
    table: int
    check: int
    reason: str


class RulingAppealed(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """A player appeals a judge's ruling on their table to the head judge (T-178): `ruling` is the ruling's entry,
    `judge` its actor as that entry names it (None: a ruling from before actors were kept)."""

    round: int
    table: int
    player: str
    ruling: int
    text: str
    judge: str | None = None


class AppealRuled(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """The head judge decides appeal `appeal` (its entry) of ruling `ruling` by `judge` (the first ruling's actor): the
    ruling is `upheld`, or `overturned` and the new result follows as its own correction entry with the same reason.
    This entry's own actor is the head judge, so it names both judges."""

    appeal: int
    ruling: int
    decision: Literal["upheld", "overturned"]
    reason: str
    judge: str | None = None


Payload = (
    EventCreated | PlayerRegistered | PlayerDropped | BracketSeeded | RoundPaired | ResultReported | ResultCorrected
    | PodsPaired | PodReported | PodCorrected | ResultClaimed | ClaimConfirmed | ClaimRuled
    | PlayerRenamed | PlayerPaused | PlayerResumed | ByeAssigned | RoundUnpaired | PlayersSwapped | RoundStarted | TimeExtended
    | PlayerLinked | DeckRegistered | DeckPolicySet | DecksPublished | DecksDiffer | DeckRuled | DeskPayload | NoticeSet | EventFinished
    | RulingAppealed | AppealRuled
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
    "result_claimed": ResultClaimed,
    "claim_confirmed": ClaimConfirmed,
    "claim_ruled": ClaimRuled,
    "player_renamed": PlayerRenamed,
    "player_paused": PlayerPaused,
    "player_resumed": PlayerResumed,
    "bye_assigned": ByeAssigned,
    "round_unpaired": RoundUnpaired,
    "players_swapped": PlayersSwapped,
    "round_started": RoundStarted,
    "time_extended": TimeExtended,
    "player_linked": PlayerLinked,
    "notice_set": NoticeSet,
    "event_finished": EventFinished,
    "deck_registered": DeckRegistered,
    "deck_policy_set": DeckPolicySet,
    "decks_published": DecksPublished,
    "decks_differ": DecksDiffer,
    "deck_ruled": DeckRuled,
    "ruling_appealed": RulingAppealed,
    "appeal_ruled": AppealRuled,
    **DESK_PAYLOADS,  # registration, the waitlist, check-in, judge calls
}
TYPES = {cls: name for name, cls in PAYLOADS.items()}
P = TypeVar("P", bound=Payload)
ENCODER = msgspec.json.Encoder()


class Entry(Protocol):
    """What `decode` and `project` read of a log entry: a `LogEntry` row, or `verify`'s plain copy of one."""

    @property
    def event_id(self) -> str: ...
    @property
    def seq(self) -> int: ...
    @property
    def type(self) -> str: ...
    @property
    def payload(self) -> bytes: ...
    @property
    def at(self) -> datetime: ...
    @property
    def hash(self) -> str: ...
    @property
    def actor(self) -> str | None: ...


def as_utc(moment: datetime) -> datetime:
    """A database time as an aware UTC datetime (SQLite hands back naive ones)."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def entry_hash(event_id: str, seq: int, type_: str, at: datetime, prev: str, payload: bytes, actor: Actor | None = None) -> str:
    """The hash a log entry carries (see the module docstring): its actor is hashed when it names one."""
    stamp = as_utc(at).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    head = ENCODER.encode([event_id, seq, type_, stamp, prev] if actor is None else [event_id, seq, type_, stamp, prev, actor])
    return hashlib.sha256(head + b"\n" + payload).hexdigest()


def decode(entry: Entry) -> Any:
    """An entry's payload as its Struct."""
    return msgspec.json.decode(entry.payload, type=PAYLOADS[entry.type])


def append(session: Session, event_id: str, payload: Payload, actor: Actor | None = None) -> LogEntry:
    """Append one change to an event's log and apply it to the current tables; `actor` made it (None: the one
    the session is bound to, `acting`).

    The caller holds the event row locked (`service.lock_event`) unless the
    payload creates the event, whose primary key then guards against twins.
    """
    return append_many(session, event_id, [payload], actor)[-1]


def append_many(session: Session, event_id: str, payloads: Sequence[Payload], actor: Actor | None = None) -> list[LogEntry]:
    """Append several changes in order, chained, with one flush at the end (bulk imports); by `actor` as `append`."""
    actor = actor if actor is not None else acting(session)
    assert 0 < len(actor) <= MAX_ACTOR, "an actor fits its column"
    entries = []
    for payload in payloads:
        event = None if isinstance(payload, EventCreated) else session.get(Event, event_id)
        seq, prev = (event.last_seq + 1, event.last_hash) if event else (1, GENESIS)
        data = ENCODER.encode(keep_texts(session, payload))
        type_ = TYPES[type(payload)]
        at = datetime.now(UTC)
        entry = LogEntry(event_id=event_id, seq=seq, type=type_, payload=data, at=at, prev=prev, actor=actor)
        entry.hash = entry_hash(event_id, seq, type_, at, prev, data, actor)
        project(session, entry, payload)
        if event is None:
            session.flush()  # the event row exists before its first log row references it
        session.add(entry)
        entries.append(entry)
    session.flush()
    if entries:
        announce.moved(session, event_id, entries[-1].seq)  # every change, from this one place (pages follow it)
    return entries


def game_records(payload: Payload) -> list[GameRecord]:
    """The game logs a payload carries (a match's, a pod's, or a player's claim)."""
    if isinstance(payload, ResultReported | ResultClaimed | DecksDiffer):
        return payload.logs
    if isinstance(payload, PodReported):
        return [payload.log] if payload.log else []
    return []


def _records_replaced(payload: P, records: list[GameRecord]) -> P:
    if isinstance(payload, PodReported):
        return msgspec.structs.replace(payload, log=records[0])
    return msgspec.structs.replace(payload, logs=records)


def keep_texts(session: Session, payload: P) -> P:
    """The payload as its entry stores it: each game log's bytes kept once in `log_texts` by SHA-256 (a text
    already there is not written again, even by a transaction at the same moment), the entry naming the hash."""
    records = game_records(payload)
    if not any(r.data is not None for r in records):
        return payload
    stored = []
    for record in records:
        if record.data is not None:
            assert hashlib.sha256(record.data).hexdigest() == record.sha256, "a game record's hash is its bytes'"
            insert = sqlite_insert if session.get_bind().dialect.name == "sqlite" else postgresql_insert
            session.execute(insert(LogText).values(sha256=record.sha256, data=record.data).on_conflict_do_nothing())
        stored.append(msgspec.structs.replace(record, data=None))
    return _records_replaced(payload, stored)


def with_texts(payload: P, text: Callable[[str], bytes | None]) -> P:
    """The payload with each game log's bytes in place, from `text(sha256)` (the `log_texts` row); a missing
    text, or one whose SHA-256 is not its name, is a LookupError naming it."""
    records = game_records(payload)
    if all(r.data is not None for r in records):
        return payload
    whole = []
    for record in records:
        data = record.data if record.data is not None else text(record.sha256)
        if not isinstance(data, bytes) or hashlib.sha256(data).hexdigest() != record.sha256:
            raise LookupError(f"the game log {record.sha256} is {'missing' if data is None else 'not the text its hash names'}")
        whole.append(msgspec.structs.replace(record, data=data))
    return _records_replaced(payload, whole)


def stored_text(session: Session) -> Callable[[str], bytes | None]:
    """A game log's bytes by SHA-256, from `log_texts` (for `with_texts`)."""
    return lambda sha256: session.scalar(select(LogText.data).where(LogText.sha256 == sha256))


def project(session: Session, entry: Entry, payload: Payload) -> None:
    """Apply one log entry to the current tables (the only code that writes them)."""
    if isinstance(payload, EventCreated):
        session.add(
            Event(
                id=entry.event_id, name=payload.name, ruleset=payload.ruleset, profile=payload.profile,
                best_of=payload.best_of, format=payload.format, table_size=payload.table_size, points=payload.points,
                seed=payload.seed, created_at=entry.at, rounds=0, late_entry=payload.late_entry,
                require_chain=payload.require_chain, rated=payload.rated, finished=False, registration_open=False,
                tables=payload.tables,
                registration_waitlist=True,
                last_seq=entry.seq, last_hash=entry.hash,
            )
        )
        return
    event = session.get(Event, entry.event_id)
    assert event is not None, "an event's first entry creates it"
    event.last_seq, event.last_hash = entry.seq, entry.hash
    key = entry.event_id
    if isinstance(payload, DeskPayload):
        desklog.project(session, event, entry.at, payload)
    elif isinstance(payload, PlayerRegistered):
        session.add(
            Player(
                event_id=key, name=payload.player, display_name=payload.name or payload.player, rating=payload.rating,
                registered_round=event.rounds, paused=False, person=payload.person, checked_in=False,
            )
        )
    elif isinstance(payload, PlayerRenamed | PlayerPaused | PlayerResumed | ByeAssigned | PlayerLinked):
        person = session.get(Player, (key, payload.player))
        assert person is not None
        if isinstance(payload, PlayerLinked):
            person.person = payload.person
        elif isinstance(payload, PlayerRenamed):
            person.display_name = payload.name
        elif isinstance(payload, ByeAssigned):
            person.bye_round = payload.round
        else:
            person.paused = isinstance(payload, PlayerPaused)
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
            session.add(Match(event_id=key, round=payload.round, number=number, player_a=a, player_b=b, extra_minutes=0))
        for name in payload.byes:
            session.add(RoundBye(event_id=key, round=payload.round, player=name))
    elif isinstance(payload, RoundUnpaired):
        _unpair(session, event, payload.round)
    elif isinstance(payload, PlayersSwapped):
        _swap(session, key, payload.round, *payload.players)
    elif isinstance(payload, RoundStarted):
        paired = session.get(Round, (key, payload.round))
        assert paired is not None
        paired.started_at, paired.minutes = entry.at, payload.minutes
    elif isinstance(payload, EventFinished):
        event.finished = True
    elif isinstance(payload, NoticeSet):
        event.notice = payload.text
    elif isinstance(payload, TimeExtended):
        table: Pod | Match | None = (
            session.get(Pod, (key, payload.round, payload.table)) if event.format == "pods"
            else session.get(Match, (key, payload.round, payload.table))
        )
        assert table is not None
        table.extra_minutes += payload.minutes
    elif isinstance(payload, PodsPaired):
        event.rounds = payload.round
        session.add(Round(event_id=key, number=payload.round, seed=payload.seed, bye=None, cost=payload.repeats))
        session.flush()  # pods reference their round
        # A bye is a table of one after the real tables, placed first at once.
        seated: list[tuple[list[str], int | None]] = [(t, None) for t in payload.tables] + [([p], 1) for p in payload.byes]
        for number, (_names, place) in enumerate(seated, start=1):
            session.add(
                Pod(event_id=key, round=payload.round, number=number, source="bye" if place else None,
                    reported_seq=entry.seq if place else None, extra_minutes=0)
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
        pod.fingerprint = payload.log.current_fingerprint if payload.log else None
        for chair in range(1, len(payload.places) + 1):  # by key: no query when the seats are loaded already
            taken = session.get(PodSeat, (key, payload.round, payload.table, chair))
            assert taken is not None
            taken.place = payload.places[taken.player]
    elif isinstance(payload, ResultClaimed | ClaimConfirmed):
        _project_claim(session, entry, payload)
    elif isinstance(payload, DeckRegistered | DeckPolicySet | DecksPublished | DecksDiffer | DeckRuled):
        _project_deck(session, event, entry, payload)
    elif isinstance(payload, RulingAppealed):
        session.add(
            Appeal(event_id=key, seq=entry.seq, ruling=payload.ruling, round=payload.round, table=payload.table,
                   player=payload.player, judge=payload.judge, text=payload.text)
        )
    elif isinstance(payload, AppealRuled):
        appeal = session.get(Appeal, (key, payload.appeal))
        assert appeal is not None, "a decision names the appeal it decides"
        appeal.decided_seq, appeal.decision, appeal.reason = entry.seq, payload.decision, payload.reason
    elif isinstance(payload, ResultReported):  # and ResultCorrected, its subclass
        match = session.get(Match, (key, payload.round, payload.table))
        assert match is not None
        if match.games_a is not None:  # a table without a result has no logs to replace
            for old in session.scalars(select(GameLog).filter_by(event_id=key, round=payload.round, table=payload.table)):
                session.delete(old)
            session.flush()  # a correction may reuse the game numbers just deleted
        _set_result(match, payload.games, payload.draws, payload.source, payload.reason, entry.seq)
        for game, record in enumerate(payload.logs, start=1):
            session.add(
                GameLog(
                    event_id=key, round=payload.round, table=payload.table, game=game,
                    sha256=record.sha256, winner=record.winner, data=record.data, fingerprint=record.current_fingerprint,
                )
            )


def _unpair(session: Session, event: Event, number: int) -> None:
    """Take a round back: its tables go, and who entered or dropped after it was paired did so before it."""
    key = event.id
    for model in (Claim, PodSeat, Pod, RoundBye, Match):
        session.execute(delete(model).where(model.event_id == key, model.round == number))
    session.execute(delete(Round).where(Round.event_id == key, Round.number == number))
    event.rounds = number - 1
    for person in session.scalars(select(Player).filter_by(event_id=key)):
        if person.registered_round >= number:
            person.registered_round = number - 1
        if person.dropped_round is not None and person.dropped_round >= number:
            person.dropped_round = number - 1


def _swap(session: Session, key: str, number: int, a: str, b: str) -> None:
    """Exchange two players' places in a round: at tables, pods or its bye."""
    other = {a: b, b: a}
    for match in session.scalars(select(Match).filter_by(event_id=key, round=number)):
        match.player_a, match.player_b = other.get(match.player_a, match.player_a), other.get(match.player_b, match.player_b)
    for seat in session.scalars(select(PodSeat).filter_by(event_id=key, round=number)):
        seat.player = other.get(seat.player, seat.player)
    paired = session.get(Round, (key, number))
    assert paired is not None
    if paired.bye in other:
        paired.bye = other[paired.bye]


def claim_key(payload: ResultClaimed) -> tuple[str, str, str]:
    """A claim's kind, the text two claims must share to agree, and the claim for people."""
    if payload.logs:
        return "logs", "logs " + " ".join(payload.last_lines), f"{len(payload.logs)} game log(s) checked by the referee"
    if payload.places is not None:
        places = payload.places
        ordered = sorted(places, key=lambda p: (places[p], p))
        return "places", "places " + " ".join(f"{p}={places[p]}" for p in sorted(places)), ", ".join(f"{p} {places[p]}" for p in ordered)
    games = payload.games or {}
    a, b = sorted(games)
    draws = f"-{payload.draws}" if payload.draws else ""
    key = f"result {a}={games[a]} {b}={games[b]} draws={payload.draws}"
    return "result", key, f"{a} {games[a]}-{games[b]}{draws} {b}"


def _project_claim(session: Session, entry: Entry, payload: ResultClaimed | ClaimConfirmed) -> None:
    if isinstance(payload, ResultClaimed):
        (kind, key, text), confirms = claim_key(payload), None
    else:
        theirs = session.get(Claim, (entry.event_id, payload.round, payload.table, payload.claimant))
        assert theirs is not None, "a confirmation follows the claim it confirms"
        kind, key, text, confirms = theirs.kind, theirs.key, theirs.text, payload.claimant
    row = session.get(Claim, (entry.event_id, payload.round, payload.table, payload.player))
    if row is None:
        row = Claim(event_id=entry.event_id, round=payload.round, table=payload.table, player=payload.player)
        session.add(row)
    row.kind, row.key, row.text, row.confirms = kind, key, text, confirms
    row.last_lines, row.seq = " ".join(payload.last_lines), entry.seq


def _project_deck(
    session: Session, event: Event, entry: Entry, payload: DeckRegistered | DeckPolicySet | DecksPublished | DecksDiffer | DeckRuled
) -> None:
    if isinstance(payload, DeckPolicySet):
        event.decks_policy, event.decks_deadline = payload.policy, as_utc(payload.deadline) if payload.deadline else None
    elif isinstance(payload, DecksPublished):
        event.decks_published = True
    elif isinstance(payload, DeckRegistered):
        if event.decks_policy is None:  # the first list makes the event one that asks for lists (T-110)
            event.decks_policy = "unpaired"
        row = session.get(DeckList, (entry.event_id, payload.player))
        if row is None:
            row = DeckList(event_id=entry.event_id, player=payload.player)
            session.add(row)
        row.sha256, row.text, row.verdict, row.summary = payload.sha256, payload.text, payload.verdict, payload.summary
        row.facets, row.problems = ENCODER.encode(payload.facets), ENCODER.encode(payload.problems)
        row.seq, row.reason = entry.seq, payload.reason
    elif isinstance(payload, DecksDiffer):
        session.add(
            DeckCheck(event_id=entry.event_id, seq=entry.seq, round=payload.round, table=payload.table,
                      players=" ".join(sorted(payload.differences)), differences=ENCODER.encode(payload.differences))
        )
    else:
        check = session.get(DeckCheck, (entry.event_id, payload.check))
        assert check is not None, "a ruling names the refusal it settles"
        check.ruled_seq, check.ruling = entry.seq, payload.reason


def _set_result(match: Match, games: dict[str, int], draws: int, source: Source, reason: str | None, seq: int) -> None:
    match.games_a, match.games_b = games[match.player_a], games[match.player_b]
    match.draws, match.source, match.reason, match.reported_seq = draws, source, reason, seq
