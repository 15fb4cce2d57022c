"""The tables: the event log (the truth) and its projection (what the commands read).

`LogEntry` rows are only ever appended. Every other table is rebuilt from the
log by `eventlog.project`, in the same transaction as the append, and can be
rebuilt from scratch by `tournament verify`. Models hold no engine or session:
the CLI layer owns those.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    DateTime,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Text,
    false,
    true,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from schemas.tournament import Source

# Stable constraint names, so alembic's batch mode (SQLite) can find and alter them.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

ID = String(64)  # event and player ids: [A-Za-z0-9_.-]{1,64}, as in referee logs
DISPLAY_NAME = 100  # the longest display name, in characters
HASH = String(64)  # hex SHA-256


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class Event(Base):
    """One tournament. `last_seq`/`last_hash` are the head of its log; appends lock this row."""

    __tablename__ = "events"

    id: Mapped[str] = mapped_column(ID, primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    ruleset: Mapped[str] = mapped_column(String(64))
    profile: Mapped[str] = mapped_column(String(32))
    best_of: Mapped[int] = mapped_column(Integer)
    format: Mapped[str] = mapped_column(String(16), server_default="swiss")  # service.FORMATS
    table_size: Mapped[int] = mapped_column(Integer, server_default="2")  # players a table (pods: 3 to 6)
    points: Mapped[str] = mapped_column(String(64), server_default="3,1")  # pods: pods.Points, as text
    # Game logs must be hash-chained; events created before migration 0005 did not ask for it.
    require_chain: Mapped[bool] = mapped_column(Boolean, server_default=false())
    seed: Mapped[int] = mapped_column(BigInteger)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    rounds: Mapped[int] = mapped_column(Integer)  # rounds paired so far
    # The first round of the bracket or round robin (its seeds are players.seed); None while Swiss.
    bracket_round: Mapped[int | None] = mapped_column(Integer)
    # A late entry's missed rounds: "loss" (a match loss each, as the MTR) or "none" (not counted).
    late_entry: Mapped[str] = mapped_column(String(8), server_default="none")
    rated: Mapped[bool] = mapped_column(Boolean, server_default=false())  # its matches count for ratings (`create --rated`)
    finished: Mapped[bool] = mapped_column(Boolean, server_default=false())  # the organiser finished it: no more changes to rounds
    notice: Mapped[str | None] = mapped_column(String(200))  # the line the big screen shows under the round
    # Public registration (`/e/EVENT/register`): open or not, at most `registration_cap` players, until the closing time.
    registration_open: Mapped[bool] = mapped_column(Boolean, server_default=false())
    registration_cap: Mapped[int | None] = mapped_column(Integer)
    registration_closes_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    registration_waitlist: Mapped[bool] = mapped_column(Boolean, server_default=true())  # a full event keeps a waitlist
    registration_waitlist_limit: Mapped[int | None] = mapped_column(Integer)  # how many may wait (None: the default, T-152)
    # Live tables (`create --tables`): "off" (results reported as before), "paper" (players record their own
    # physical cards) or "digital" (the server deals from a committed seed). Service: tournament/service/livetable.py.
    tables: Mapped[str] = mapped_column(String(8), server_default="off")
    # Deck lists (T-110): None while the event asks for none, else what befalls a player without a legal list at the
    # deadline ("unpaired" or "dropped"); the deadline is round 1's pairing, or this time if it comes first.
    decks_policy: Mapped[str | None] = mapped_column(String(16))
    decks_deadline: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    decks_published: Mapped[bool] = mapped_column(Boolean, server_default=false())  # everyone may see every list
    # Entry fees at the desk (T-215): the event's currency (ISO 4217 letters) and its fee in that currency's minor
    # units (cents); None until `tournament fee` sets them.
    fee_currency: Mapped[str | None] = mapped_column(String(3))
    fee: Mapped[int | None] = mapped_column(Integer)
    last_seq: Mapped[int] = mapped_column(Integer)
    last_hash: Mapped[str] = mapped_column(HASH)


class LogEntry(Base):
    """One change to an event: append-only, numbered 1, 2, 3... and chained by hash."""

    __tablename__ = "event_log"

    event_id: Mapped[str] = mapped_column(ID, ForeignKey("events.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    type: Mapped[str] = mapped_column(String(32))
    payload: Mapped[bytes] = mapped_column(LargeBinary)  # msgspec JSON of eventlog.PAYLOADS[type]
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    prev: Mapped[str] = mapped_column(HASH)
    hash: Mapped[str] = mapped_column(HASH)
    # who made the change (eventlog.Actor: `cli`, `organiser`, `player:ID`, `staff:ID`, ...); NULL: from before it was kept
    actor: Mapped[str | None] = mapped_column(String(80))


class Player(Base):
    """A person in an event: `name` is their stable id (as in game logs), `display_name` what people read."""

    __tablename__ = "players"

    event_id: Mapped[str] = mapped_column(ID, ForeignKey("events.id"), primary_key=True)
    name: Mapped[str] = mapped_column(ID, primary_key=True)  # the player id
    display_name: Mapped[str] = mapped_column(String(DISPLAY_NAME))
    rating: Mapped[int | None] = mapped_column(Integer)  # from registration; higher is stronger (seeds a bracket)
    paused: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())  # sits out the rounds paired until `resume`
    bye_round: Mapped[int | None] = mapped_column(Integer)  # a pre-assigned bye: the round it is for
    registered_round: Mapped[int] = mapped_column(Integer)  # rounds paired when they entered (0: on time)
    dropped_round: Mapped[int | None] = mapped_column(Integer)  # rounds paired when they dropped
    seed: Mapped[int | None] = mapped_column(Integer)  # 1 = top seed of the bracket or round robin; None if not in it
    person: Mapped[str | None] = mapped_column(ID, ForeignKey("people.id"))  # who they are across events; None before 0011
    checked_in: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())  # present before round 1
    paid: Mapped[int | None] = mapped_column(Integer)  # the entry fee paid at the desk, in minor units; None: not paid
    paid_by: Mapped[str | None] = mapped_column(String(8))  # cash or card


class Person(Base):
    """Someone who may play many events on one database: each event's `Player` rows name them (`Player.person`).

    Not part of any one event's history: a registration makes or finds the
    person, and the event's log names the person each of its players is.
    `external_id`: a number someone brings from elsewhere (a federation's), unique when given.
    """

    __tablename__ = "people"

    id: Mapped[str] = mapped_column(ID, primary_key=True)
    name: Mapped[str] = mapped_column(String(DISPLAY_NAME))
    external_id: Mapped[str | None] = mapped_column(ID, unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class Season(Base):
    """A series of events of one game (a store's weekly night): standings over its events by the rule it
    writes down (`formats.season.Rule`). Not any one event's history, so not in an event log (T-211)."""

    __tablename__ = "seasons"

    id: Mapped[str] = mapped_column(ID, primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    ruleset: Mapped[str] = mapped_column(String(64))
    win: Mapped[int] = mapped_column(Integer)
    draw: Mapped[int] = mapped_column(Integer)
    loss: Mapped[int] = mapped_column(Integer)
    attend: Mapped[int] = mapped_column(Integer)
    best: Mapped[int | None] = mapped_column(Integer)  # the best N events count; None: all
    tiebreakers: Mapped[str] = mapped_column(String(64))  # comma-separated, in order
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class SeasonEvent(Base):
    """An event of a season; the season's events are in the order their events were created."""

    __tablename__ = "season_events"

    season: Mapped[str] = mapped_column(ID, ForeignKey("seasons.id"), primary_key=True)
    event_id: Mapped[str] = mapped_column(ID, ForeignKey("events.id"), primary_key=True)


class Waiting(Base):
    """Someone on a full event's waitlist (public registration), in order of `position`, until promoted or gone."""

    __tablename__ = "waitlist"

    event_id: Mapped[str] = mapped_column(ID, ForeignKey("events.id"), primary_key=True)
    player: Mapped[str] = mapped_column(ID, primary_key=True)  # the id they will play under
    display_name: Mapped[str] = mapped_column(String(DISPLAY_NAME))
    person: Mapped[str | None] = mapped_column(ID, ForeignKey("people.id"))
    position: Mapped[int] = mapped_column(Integer)  # the order they joined in (gaps once some leave)
    checked_in: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class JudgeCall(Base):
    """A player's call for a judge at their table (`/me`), open until the organiser marks it answered."""

    __tablename__ = "judge_calls"

    event_id: Mapped[str] = mapped_column(ID, ForeignKey("events.id"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)  # 1, 2, 3, ... in the event
    round: Mapped[int] = mapped_column(Integer)
    table: Mapped[int] = mapped_column(Integer)
    player: Mapped[str] = mapped_column(ID)
    text: Mapped[str] = mapped_column(String(200))  # the player's line; may be empty
    disputes: Mapped[str | None] = mapped_column(ID)  # "That's not right": whose claim the caller disputes (T-151)
    called_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    answered_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class DeckList(Base):
    """A player's registered deck list: its text as registered (`sha256` of its UTF-8), and the referee's verdict
    then (`legal` or `illegal`; `problems` and `facets` as msgspec JSON). `seq`: the entry that registered it."""

    __tablename__ = "deck_lists"

    event_id: Mapped[str] = mapped_column(ID, ForeignKey("events.id"), primary_key=True)
    player: Mapped[str] = mapped_column(ID, primary_key=True)
    sha256: Mapped[str] = mapped_column(HASH)
    text: Mapped[str] = mapped_column(Text)
    verdict: Mapped[str] = mapped_column(String(16))
    summary: Mapped[str] = mapped_column(Text)
    facets: Mapped[bytes] = mapped_column(LargeBinary)  # {facet: value}, the first the deck's kind
    problems: Mapped[bytes] = mapped_column(LargeBinary)  # [schemas.deck.DeckProblem]
    seq: Mapped[int] = mapped_column(Integer)
    reason: Mapped[str | None] = mapped_column(String(500))  # a change after the deadline: the judge's reason


class DeckCheck(Base):
    """Game logs refused because a deck in them is not its player's registered list: the table waits in the judge
    queue until a judge rules (`ruled_seq`, `ruling`). `differences`: {player: [schemas.deck.Difference]}, JSON."""

    __tablename__ = "deck_checks"

    event_id: Mapped[str] = mapped_column(ID, ForeignKey("events.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)  # the entry that refused the logs
    round: Mapped[int] = mapped_column(Integer)
    table: Mapped[int] = mapped_column(Integer)
    players: Mapped[str] = mapped_column(Text)  # whose decks differ, space-separated
    differences: Mapped[bytes] = mapped_column(LargeBinary)
    ruled_seq: Mapped[int | None] = mapped_column(Integer)
    ruling: Mapped[str | None] = mapped_column(String(500))


class Appeal(Base):
    """A player's appeal of a judge's ruling to the head judge (T-178): open until decided (`decided_seq`).
    `judge`: the appealed ruling's actor (eventlog.Actor; None for a ruling from before actors were kept)."""

    __tablename__ = "appeals"

    event_id: Mapped[str] = mapped_column(ID, ForeignKey("events.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)  # the appeal's entry
    ruling: Mapped[int] = mapped_column(Integer)  # the appealed ruling's entry
    round: Mapped[int] = mapped_column(Integer)
    table: Mapped[int] = mapped_column(Integer)
    player: Mapped[str] = mapped_column(ID)
    judge: Mapped[str | None] = mapped_column(String(80))
    text: Mapped[str] = mapped_column(String(500))
    decided_seq: Mapped[int | None] = mapped_column(Integer)
    decision: Mapped[str | None] = mapped_column(String(16))  # upheld or overturned
    reason: Mapped[str | None] = mapped_column(String(500))


class Round(Base):
    __tablename__ = "rounds"

    event_id: Mapped[str] = mapped_column(ID, ForeignKey("events.id"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    seed: Mapped[int] = mapped_column(BigInteger)
    bye: Mapped[str | None] = mapped_column(ID)
    cost: Mapped[int] = mapped_column(Integer)
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))  # the clock: `round start`
    minutes: Mapped[int | None] = mapped_column(Integer)  # the round's length


class RoundBye(Base):
    """A pre-assigned bye granted in a round (`tournament bye`), besides the pairing's own `Round.bye`."""

    __tablename__ = "round_byes"
    __table_args__ = (ForeignKeyConstraint(["event_id", "round"], ["rounds.event_id", "rounds.number"]),)

    event_id: Mapped[str] = mapped_column(ID, primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    player: Mapped[str] = mapped_column(ID, primary_key=True)


class Match(Base):
    """One table of one round; the result columns stay NULL until it is reported."""

    __tablename__ = "matches"
    __table_args__ = (ForeignKeyConstraint(["event_id", "round"], ["rounds.event_id", "rounds.number"]),)

    event_id: Mapped[str] = mapped_column(ID, primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_a: Mapped[str] = mapped_column(ID)
    player_b: Mapped[str] = mapped_column(ID)
    games_a: Mapped[int | None] = mapped_column(Integer)
    games_b: Mapped[int | None] = mapped_column(Integer)
    draws: Mapped[int | None] = mapped_column(Integer)
    source: Mapped[Source | None] = mapped_column(String(16))
    reason: Mapped[str | None] = mapped_column(String(500))
    reported_seq: Mapped[int | None] = mapped_column(Integer)  # the log entry that set the result
    extra_minutes: Mapped[int] = mapped_column(Integer, default=0, server_default="0")  # time extensions a judge gave


class GameLog(Base):
    """A referee log that decided one game of a match, stored whole with its hash."""

    __tablename__ = "game_logs"
    __table_args__ = (
        ForeignKeyConstraint(["event_id", "round", "table"], ["matches.event_id", "matches.round", "matches.number"]),
    )

    event_id: Mapped[str] = mapped_column(ID, primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    table: Mapped[int] = mapped_column(Integer, primary_key=True)
    game: Mapped[int] = mapped_column(Integer, primary_key=True)
    sha256: Mapped[str] = mapped_column(HASH)
    winner: Mapped[str | None] = mapped_column(ID)  # None: a drawn game
    data: Mapped[bytes] = mapped_column(LargeBinary)
    fingerprint: Mapped[str | None] = mapped_column(HASH)  # the game itself (logio.game_fingerprint); None before 0005


class Pod(Base):
    """One table of a Swiss pods round; a bye is a table of one. The game's referee log is kept whole."""

    __tablename__ = "pods"
    __table_args__ = (ForeignKeyConstraint(["event_id", "round"], ["rounds.event_id", "rounds.number"]),)

    event_id: Mapped[str] = mapped_column(ID, primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    source: Mapped[str | None] = mapped_column(String(16))  # log, judge or bye; None until reported
    reason: Mapped[str | None] = mapped_column(String(500))
    reported_seq: Mapped[int | None] = mapped_column(Integer)
    sha256: Mapped[str | None] = mapped_column(HASH)
    log: Mapped[bytes | None] = mapped_column(LargeBinary)
    extra_minutes: Mapped[int] = mapped_column(Integer, default=0, server_default="0")  # time extensions a judge gave
    fingerprint: Mapped[str | None] = mapped_column(HASH)  # the game itself (logio.game_fingerprint)


class PodSeat(Base):
    """A player at a pod, in seat order (seat 1 plays first); `place` once the pod is reported."""

    __tablename__ = "pod_seats"
    __table_args__ = (ForeignKeyConstraint(["event_id", "round", "table"], ["pods.event_id", "pods.round", "pods.number"]),)

    event_id: Mapped[str] = mapped_column(ID, primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    table: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player: Mapped[str] = mapped_column(ID)
    place: Mapped[int | None] = mapped_column(Integer)


class Claim(Base):
    """A player's word on their table of a round (`tournament serve`): a result, places or game logs they
    report, or their confirmation of another player's claim (`confirms`). Claims agree when `key` is equal."""

    __tablename__ = "claims"
    __table_args__ = (ForeignKeyConstraint(["event_id", "round"], ["rounds.event_id", "rounds.number"]),)

    event_id: Mapped[str] = mapped_column(ID, primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    table: Mapped[int] = mapped_column(Integer, primary_key=True)
    player: Mapped[str] = mapped_column(ID, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))  # result, places or logs
    key: Mapped[str] = mapped_column(Text)  # what must be equal for two claims to agree
    text: Mapped[str] = mapped_column(Text)  # the claim for people: "ann 2-1 bob"
    confirms: Mapped[str | None] = mapped_column(ID)  # whose claim this confirms; None: the player's own
    last_lines: Mapped[str] = mapped_column(Text, server_default="")  # SHA-256 of each log's last line, space-separated
    seq: Mapped[int] = mapped_column(Integer)  # the log entry that made it


PROJECTION: tuple[type[Base], ...] = (
    Event, Player, Round, RoundBye, Match, GameLog, Pod, PodSeat, Claim, Waiting, JudgeCall, DeckList, DeckCheck, Appeal,
)
"""The tables rebuilt from the log, in the order rows must be written."""


# Live tables (tournament/service/tables.py): each game being played, line by line. Not the event's history: a
# finished game's log goes into the event log when its result is reported (source `log`); until then these rows
# are the game log itself, chained by the referee's own `prev` hashes.


class LiveGame(Base):
    """One game of a table being played live: the head of its log (`seq`, `head`), guarded by a conditional update so
    two appends built on one head cannot both land. `seed`: a digital table's secret, revealed in the log's last record."""

    __tablename__ = "live_games"

    event_id: Mapped[str] = mapped_column(ID, ForeignKey("events.id"), primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    table: Mapped[int] = mapped_column(Integer, primary_key=True)
    game: Mapped[int] = mapped_column(Integer, primary_key=True)  # 1, 2, 3 within a match
    mode: Mapped[str] = mapped_column(String(8))  # paper or digital
    seed: Mapped[str | None] = mapped_column(String(64))
    seq: Mapped[int] = mapped_column(Integer)  # the last record's seq; 0: the header alone
    head: Mapped[str] = mapped_column(HASH)  # SHA-256 of the last line
    over: Mapped[bool] = mapped_column(Boolean, server_default=false())  # ended by the rules (and revealed, if dealt)
    reported: Mapped[bool] = mapped_column(Boolean, server_default=false())  # its match's result went to the event log
    bots: Mapped[str] = mapped_column(String(200), server_default="")  # seats the server's bot plays, space-separated
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class LiveLine(Base):
    """One line of a live game's log (seq 0 is the header); the key makes a second line at one seq impossible."""

    __tablename__ = "live_lines"
    __table_args__ = (
        ForeignKeyConstraint(
            ["event_id", "round", "table", "game"],
            ["live_games.event_id", "live_games.round", "live_games.table", "live_games.game"],
        ),
    )

    event_id: Mapped[str] = mapped_column(ID, primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    table: Mapped[int] = mapped_column(Integer, primary_key=True)
    game: Mapped[int] = mapped_column(Integer, primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    line: Mapped[bytes] = mapped_column(LargeBinary)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class LiveWitness(Base):
    """What a seat's device has acknowledged of a live game: the head it saw, and its confirmation of the last line."""

    __tablename__ = "live_witness"
    __table_args__ = (
        ForeignKeyConstraint(
            ["event_id", "round", "table", "game"],
            ["live_games.event_id", "live_games.round", "live_games.table", "live_games.game"],
        ),
    )

    event_id: Mapped[str] = mapped_column(ID, primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    table: Mapped[int] = mapped_column(Integer, primary_key=True)
    game: Mapped[int] = mapped_column(Integer, primary_key=True)
    player: Mapped[str] = mapped_column(ID, primary_key=True)
    seen: Mapped[int] = mapped_column(Integer)  # the seq of the last record acknowledged
    confirmed: Mapped[str | None] = mapped_column(HASH)  # the last line's SHA-256 the player confirmed; None until then


# Sign-in secrets (`tournament serve`): not part of an event's history, so not in the event log.


class StaffMember(Base):
    """Someone the organiser named to run events (T-172): a name people read, a role (`permissions.ROLES`), one
    event or the whole server (`event_id` None), their own sign-in (`Credential.staff`). Revoked: kept (the log
    names them as the actor of what they did), never signed in again. Not in any event's log: like credentials,
    staff are the server's, not an event's history."""

    __tablename__ = "staff"

    id: Mapped[str] = mapped_column(ID, primary_key=True)
    name: Mapped[str] = mapped_column(String(DISPLAY_NAME))
    role: Mapped[str] = mapped_column(String(16))
    event_id: Mapped[str | None] = mapped_column(ID, ForeignKey("events.id"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class Credential(Base):
    """A secret someone signs in with, `selector.verifier`: the selector finds the row, the verifier is kept only
    as its SHA-256 and compared in constant time. `kind`: `code` (a player's one-time sign-in code), `session`
    (a player's), `organiser` (the organiser token), `organiser_session`, `desk`, a staff member's `code` and `session`
    (`staff` names them; `player` is then None), `card` (a person's player card, T-181) or `person_session` (signed in
    by one); the last two name a `person`, not an event's player."""

    __tablename__ = "credentials"

    selector: Mapped[str] = mapped_column(String(32), primary_key=True)
    kind: Mapped[str] = mapped_column(String(24))
    event_id: Mapped[str | None] = mapped_column(ID, ForeignKey("events.id"))
    player: Mapped[str | None] = mapped_column(ID)
    staff: Mapped[str | None] = mapped_column(ID, ForeignKey("staff.id"))
    hash: Mapped[str] = mapped_column(HASH)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))  # a code, once exchanged
    person: Mapped[str | None] = mapped_column(ID, ForeignKey("people.id"), index=True)  # a card's or a person session's


class PersonChange(Base):
    """One link, merge, split or claim of people (T-184): who made it, when and why. The players it moved are in
    their events' logs (`player_linked`, each with the same actor and reason); this row ties one change across
    events together, and keeps a merge's or split's people, which no single event's log names. Appended, never
    changed; not rebuilt from the event logs (people are the server's directory, as credentials are)."""

    __tablename__ = "person_changes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    action: Mapped[str] = mapped_column(String(16))  # link, claim, merge or split
    person: Mapped[str] = mapped_column(ID, index=True)  # who the players are now
    other: Mapped[str | None] = mapped_column(ID, index=True)  # who they were (a merge's person, gone; a link's old)
    players: Mapped[str] = mapped_column(Text)  # the players moved, "EVENT/PLAYER" separated by spaces
    actor: Mapped[str] = mapped_column(String(120))  # who made it, as the event log names actors: "organiser", "person:ID", "cli"
    reason: Mapped[str | None] = mapped_column(String(200))


class Passkey(Base):
    """A WebAuthn credential (`service/passkeys.py`): its owner signs in with it where the server is a secure
    context. Owned by a person or a staff member, exactly one of the two. `id`: the SHA-256 of the credential's
    id (a fixed-width key for an id of up to 1023 bytes, kept whole in `credential`); `user_handle`: the random
    handle the authenticator keeps for its owner (one for all their passkeys), never a name."""

    __tablename__ = "passkeys"
    __table_args__ = (CheckConstraint("(person IS NULL) <> (staff IS NULL)", name="one_owner"),)

    id: Mapped[str] = mapped_column(HASH, primary_key=True)
    credential: Mapped[bytes] = mapped_column(LargeBinary)
    public_key: Mapped[bytes] = mapped_column(LargeBinary)  # COSE, as the authenticator gave it
    sign_count: Mapped[int] = mapped_column(BigInteger)  # the authenticator's counter (32 bits unsigned), last seen
    user_handle: Mapped[str] = mapped_column(String(64), index=True)  # base64url of 32 random bytes
    person: Mapped[str | None] = mapped_column(ID, ForeignKey("people.id"), index=True)
    staff: Mapped[str | None] = mapped_column(ID, ForeignKey("staff.id"), index=True)
    name: Mapped[str] = mapped_column(String(60))  # what its owner reads in their list
    transports: Mapped[str] = mapped_column(String(100))  # how the browser reached it (usb, internal, ...), space-separated
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    last_used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class PasskeyChallenge(Base):
    """A WebAuthn ceremony's challenge, good once and for a few minutes (`service/passkeys.py`): kept in the
    database so any worker can finish what another began. `id`: the SHA-256 of the challenge. A registration's
    row names its owner and the user handle it offered; a sign-in's names nobody."""

    __tablename__ = "passkey_challenges"

    id: Mapped[str] = mapped_column(HASH, primary_key=True)
    purpose: Mapped[str] = mapped_column(String(8))  # register or sign_in
    person: Mapped[str | None] = mapped_column(ID)
    staff: Mapped[str | None] = mapped_column(ID)
    user_handle: Mapped[str | None] = mapped_column(String(64))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class FailedGuess(Base):
    """A wrong code or token, counted against `client`: the client's address, or `code SELECTOR` for a wrong
    verifier of a code that exists (service/tokens.py: too many in a window and that address or code waits)."""

    __tablename__ = "failed_guesses"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    client: Mapped[str] = mapped_column(String(64), index=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ServerSecret(Base):
    """What every worker of one deployment shares: keys (the CSRF cookies' signing key, made on first start)
    and the public address phones open (`public_url`, from `serve --public-url`)."""

    __tablename__ = "server_secrets"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(String(128))


class Receipt(Base):
    """The outcome of one request that changed (or tried to change) something on `tournament serve`, by its
    one-time key (post/redirect/get, `web/receipts.py`): a repeat of the key applies nothing and is answered
    from here. Not history (not in the event log) and not kept: receipts expire."""

    __tablename__ = "receipts"
    __table_args__ = (Index("ix_receipts_owner_created_at", "owner", "created_at"),)

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    owner: Mapped[str] = mapped_column(String(160))  # "organiser", "player EVENT PLAYER", or "" before sign-in
    request: Mapped[str] = mapped_column(String(300))  # method and path: a key is good for one request
    status: Mapped[int] = mapped_column(Integer)  # the HTTP status of the outcome
    message: Mapped[str] = mapped_column(Text)  # the notice or the refusal, as the page shows it
    detail: Mapped[bytes | None] = mapped_column(LargeBinary)  # the API's answer, or the page's extra (msgspec JSON)
    secret: Mapped[str | None] = mapped_column(Text)  # a new sign-in code for a page to show once; wiped when shown
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class LogText(Base):
    """A game log's bytes, kept once by their SHA-256: log entries name the hash (`eventlog.GameRecord`), so a log
    claimed again and again is stored once. Part of the log, not of its projection: `verify` checks each hash."""

    __tablename__ = "log_texts"

    sha256: Mapped[str] = mapped_column(HASH, primary_key=True)
    data: Mapped[bytes] = mapped_column(LargeBinary)


class CachedView(Base):
    """A read command's view of an event (`tournament.storage.viewcache`, T-66): derived, never part of its history.

    Current while `head` is the event's `last_hash` and `code` the fingerprint
    of the code that reads it; `tournament verify` checks current ones against the log.
    """

    __tablename__ = "view_cache"

    event_id: Mapped[str] = mapped_column(ID, ForeignKey("events.id"), primary_key=True)
    kind: Mapped[str] = mapped_column(String(16), primary_key=True)  # standings or pairings
    args: Mapped[str] = mapped_column(String(64), primary_key=True)  # e.g. the round asked for; "" for none
    head: Mapped[str] = mapped_column(HASH)
    code: Mapped[str] = mapped_column(HASH)
    data: Mapped[bytes] = mapped_column(LargeBinary)  # the view, msgspec JSON


# Messages (tournament/service/messages.py, T-220): who asked to be told, and what is to be told them. Not an
# event's history: a subscription is a player's wish, a message a delivery to make.


class Subscription(Base):
    """Someone asked to be told: `channel` `email` (`address` the e-mail address) or `push` (`address` the push
    service's endpoint URL, `p256dh` and `auth` the browser's keys for RFC 8291). Per entry (`player` in
    `event_id`: signed in with their slip's code, or at registration) or per person (`person`: every entry linked
    to them, in every event, T-239); exactly one of the two. `token`: the secret of the link every message carries
    to stop it (and, for a person's e-mail address, to confirm it). Told only once `confirmed_at` is set (T-241)."""

    __tablename__ = "subscriptions"
    __table_args__ = (
        Index("ix_subscriptions_event_id_player", "event_id", "player"),
        CheckConstraint("(person IS NULL) <> (event_id IS NULL)", name="entry_or_person"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    event_id: Mapped[str | None] = mapped_column(ID, ForeignKey("events.id"))
    player: Mapped[str | None] = mapped_column(ID)
    person: Mapped[str | None] = mapped_column(ID, ForeignKey("people.id"), index=True)
    channel: Mapped[str] = mapped_column(String(8))  # email or push
    address: Mapped[str] = mapped_column(String(1000))
    p256dh: Mapped[str | None] = mapped_column(String(128))  # push only: the browser's public key, base64url
    auth: Mapped[str | None] = mapped_column(String(64))  # push only: the browser's auth secret, base64url
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    confirmed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))  # None: a person's address not yet confirmed
    token: Mapped[str] = mapped_column(String(43), unique=True)


class Message(Base):
    """The transactional outbox: one message to one subscription, written in the transaction of the change that
    causes it, delivered by a sender (`tournament send`, or the one in `tournament serve`) at least once.

    `id` is deterministic (the cause and the subscription): a cause written twice (a reminder two senders both
    saw due) makes one row, and the id travels with the message (Message-ID, the push payload's `id`) so a
    receiver recognises a repeat. `claimed_until`: a sender holds it until then; a sender killed mid-send lets
    the claim lapse and another sends it again."""

    __tablename__ = "outbox"
    __table_args__ = (Index("ix_outbox_sent_at_due_at", "sent_at", "due_at"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    event_id: Mapped[str | None] = mapped_column(ID, ForeignKey("events.id"))  # None: of no event (an address's confirmation)
    player: Mapped[str | None] = mapped_column(ID)
    subscription: Mapped[int | None] = mapped_column(Integer)  # None once the subscription is gone (not sent then)
    channel: Mapped[str] = mapped_column(String(8))
    kind: Mapped[str] = mapped_column(String(24))  # paired, confirm, answered, place, clock, deadline, final, registered, address
    facts: Mapped[bytes] = mapped_column(LargeBinary)  # msgspec JSON: what the words say (output/messages.py)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    due_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))  # the next try, no earlier
    attempts: Mapped[int] = mapped_column(Integer, server_default="0")
    claimed_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    sent_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    failed: Mapped[str | None] = mapped_column(String(500))  # the last failure; given up once `sent_at` is set with it
