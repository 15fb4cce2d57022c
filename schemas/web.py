"""What `tournament serve` sends and takes as JSON beyond the CLI's Structs (schemas/tournament.py).

The public `/api/...` routes answer with the CLI's own Structs (`EventInfo`,
`RoundInfo`, `StandingRow`, `BracketInfo`); these are the rest: errors, the
page-refresh probe, a player's match, claims and the judge queue, sessions.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

import msgspec

from schemas.deck import Difference
from schemas.table import TableProgress
from schemas.tournament import EventInfo, JudgeCallRow, PersonMatch, StandingRow, TableRow


class ErrorBody(msgspec.Struct, forbid_unknown_fields=True):
    """Every refused `/api/...` request: the HTTP status, the CLI's exit code for the same refusal
    (null when the CLI has none, e.g. a bad token), and one line saying why; for a game log the referee
    refused, what it said (`referee`)."""

    status: int
    error: str
    exit_code: int | None = None
    referee: RefereeError | None = None


class Version(msgspec.Struct, forbid_unknown_fields=True):
    """An event's log head: pages poll it and reload when `seq` moves."""

    event: str
    seq: int
    rounds: int


class Seat(msgspec.Struct, forbid_unknown_fields=True):
    """Find your seat: a player of the current round and their table (null: bye or not paired)."""

    player: str
    name: str
    table: TableRow | None
    bye: bool = False


class RefereeError(msgspec.Struct, forbid_unknown_fields=True):
    """Why the referee refused an uploaded log, as `referee validate` says it."""

    file: str
    verdict: str
    rule: str | None
    message: str
    record: int | None
    line: int | None


class Claim(msgspec.Struct, forbid_unknown_fields=True):
    """One player's word on their table: a result they entered or logs they uploaded, or a confirmation of
    another's claim (`confirms`). `text` says it for people; claims agree when their `key` is equal."""

    player: str
    text: str
    key: str
    kind: Literal["result", "places", "logs"]
    confirms: str | None = None
    last_lines: list[str] = msgspec.field(default_factory=list)  # SHA-256 of each uploaded log's last line
    said: str = ""  # the claimed score in words, with names ("Hiroshi Tanaka wins 2-1"); for logs, what the referee read


class TableClaims(msgspec.Struct, forbid_unknown_fields=True):
    """A table of the current round with what its players said: `state` is `waiting` (no claim, or not
    everyone has confirmed), `disputed` (two claims differ: the judge decides), `decks` (game logs refused
    because a deck in them is not its player's registered list: `decks` holds the differences by player; a
    judge rules) or `done` (it has a result). A player's "That's not right" (`disputes`, each naming whose claim
    it disputes) makes the table `disputed` too, until a judge rules or answers it."""

    table: TableRow
    state: Literal["waiting", "disputed", "decks", "done"]
    claims: list[Claim]
    decks: dict[str, list[Difference]] = msgspec.field(default_factory=dict)
    disputes: list[JudgeCallRow] = msgspec.field(default_factory=list)
    live: TableProgress | None = None  # a live table's progress, on the organiser's view only (T-153)


class MatchView(msgspec.Struct, forbid_unknown_fields=True):
    """A signed-in player's view: their event, themselves, and their table of the current round. `state` as
    `MyEvent`'s: `waiting` at `place` on the waitlist (no table), `left` the waitlist; `promoted` from it."""

    event: str
    player: str
    round: int
    table: TableClaims | None
    bye: bool = False
    state: Literal["registered", "waiting", "dropped", "left"] = "registered"
    place: int | None = None
    promoted: bool = False


class Joined(msgspec.Struct, forbid_unknown_fields=True):
    """A one-time code (or the organiser token, or a player card) exchanged for a session: send `session` as
    `Authorization: Bearer ...` with every later `/api/...` request. `person`: a player card's person."""

    event: str | None
    player: str | None
    session: str
    role: Literal["player", "organiser", "head-judge", "judge", "scorekeeper", "person"]
    staff: str | None = None  # a staff member's id (their role is `role`; `event` None: every event)
    person: str | None = None  # a player card's person (role `person`)


class Code(msgspec.Struct, forbid_unknown_fields=True):
    """A player's new one-time sign-in code and the link that carries it (shown once, stored hashed)."""

    event: str
    player: str
    code: str
    link: str


StaffRole = Literal["organiser", "head-judge", "judge", "scorekeeper"]


class NewStaff(msgspec.Struct, forbid_unknown_fields=True):
    """`POST /api/admin/staff`: a staff member to name, for one event (`event`) or every event (null)."""

    name: str
    role: StaffRole
    event: str | None = None


class StaffMember(msgspec.Struct, forbid_unknown_fields=True):
    """A staff member: `id`, the name people read, the role, their event (null: every event), when revoked (null: not)."""

    id: str
    name: str
    role: StaffRole
    event: str | None
    revoked_at: datetime | None


class StaffCode(msgspec.Struct, forbid_unknown_fields=True):
    """A staff member's new one-time sign-in code and the link that carries it (shown once, stored hashed)."""

    staff: StaffMember
    code: str
    link: str


class Appealed(msgspec.Struct, forbid_unknown_fields=True):
    """`POST /api/me/appeal`: appeal ruling `ruling` (its log entry's seq) on your table, saying why."""

    ruling: int
    text: str


class AppealDecision(msgspec.Struct, forbid_unknown_fields=True):
    """`POST /api/admin/events/EVENT/appeals/N`: uphold the ruling, or overturn it with the new result (`games` and
    `draws`, or a pod's `places`); the reason is kept in the log."""

    uphold: bool
    reason: str
    games: dict[str, int] | None = None
    draws: int = 0
    places: dict[str, int] | None = None


class SignIn(msgspec.Struct, forbid_unknown_fields=True):
    """`POST /api/join` (a player's one-time code) and `POST /api/admin/login` (the organiser token)."""

    code: str


class ResultClaim(msgspec.Struct, forbid_unknown_fields=True):
    """A player's typed claim: games won by each player at the table and drawn games, or a pod's places."""

    games: dict[str, int] | None = None
    draws: int = 0
    places: dict[str, int] | None = None


class Confirmation(msgspec.Struct, forbid_unknown_fields=True):
    """Confirm `claimant`'s claim; for uploaded logs, give the SHA-256 of each log's last line, in order."""

    claimant: str
    last_lines: list[str] = msgspec.field(default_factory=list)


class Ruling(msgspec.Struct, forbid_unknown_fields=True):
    """The organiser settles an open table of the current round, or corrects one (`correct`): accept a
    player's claim (`accept`), or give the result (`games` and `draws`, or a pod's `places`); `reason` is kept."""

    table: int
    reason: str
    accept: str | None = None
    games: dict[str, int] | None = None
    draws: int = 0
    places: dict[str, int] | None = None
    correct: bool = False


class PlayerRef(msgspec.Struct, forbid_unknown_fields=True):
    """One player of the event, by id."""

    player: str


class ClockStart(msgspec.Struct, forbid_unknown_fields=True):
    """Start the current round's clock now, for `minutes`."""

    minutes: int = 50


class Extension(msgspec.Struct, forbid_unknown_fields=True):
    """Give a table of the current round extra minutes (they add up); `reason` is kept."""

    table: int
    minutes: int
    reason: str | None = None


class DeckSubmission(msgspec.Struct, forbid_unknown_fields=True):
    """`POST /api/me/deck`: the player's deck list, as text (`4 Name` lines) or as one player's deck in JSON."""

    text: str


class JudgeDeck(msgspec.Struct, forbid_unknown_fields=True):
    """`POST /api/admin/events/EVENT/decks/register`: a judge registers `player`'s list (a late entry's, a list
    handed in at the desk), with the `reason` the deadline asks for once it has passed (kept in the log)."""

    player: str
    text: str
    reason: str | None = None


class Leave(msgspec.Struct, forbid_unknown_fields=True):
    """A player drops from the event (or leaves its waitlist): `confirm` must be true (the page's second step)."""

    confirm: bool = False


class CallRequest(msgspec.Struct, forbid_unknown_fields=True):
    """A judge to the player's table, with an optional line for the judge (at most 200 characters)."""

    text: str = ""


class Notice(msgspec.Struct, forbid_unknown_fields=True):
    """The big screen's notice line: one line of at most 200 characters; empty takes it down."""

    text: str = ""


class MyEvent(msgspec.Struct, forbid_unknown_fields=True):
    """A signed-in player's place in the event: `state` `registered`, `waiting` (at `place` on the waitlist) or
    `dropped` (`left`: off the waitlist, never given a place); `promoted` from the waitlist; checked in; their
    open judge call; every table they sat at."""

    event: str
    player: str
    name: str
    state: Literal["registered", "waiting", "dropped", "left"]
    place: int | None
    promoted: bool
    checked_in: bool
    dropped_round: int | None
    call: JudgeCallRow | None
    matches: list[PersonMatch]
    message: str = ""  # what the last change did, in words (answers to POSTs)


class SignUp(msgspec.Struct, forbid_unknown_fields=True):
    """Public registration: a display name, and optionally the player id wanted."""

    name: str
    id: str | None = None


class SignedUp(msgspec.Struct, forbid_unknown_fields=True):
    """A registration's answer: the session (as `/api/join` gives) and a one-time code to sign in on another
    device (both shown once); `place` on the waitlist, or null with a place in the event."""

    event: str
    player: str
    session: str
    code: str
    place: int | None


class RegistrationSettings(msgspec.Struct, forbid_unknown_fields=True):
    """The organiser's public registration settings: `cap` players at most (null: none), `closes_at` with its
    UTC offset (null: open until round 1 is paired), a waitlist once full or not, and how many may wait on it
    (`waitlist_limit`; null: the default, 64)."""

    open: bool
    cap: int | None = None
    closes_at: datetime | None = None
    waitlist: bool = True
    waitlist_limit: int | None = None


class ScreenSeat(msgspec.Struct, forbid_unknown_fields=True):
    """A line of the big screen's pairings, by the player's name: their table (null for a bye, or before
    round 1) and their opponents' names."""

    name: str
    table: int | None
    opponents: list[str]


class ExtraTime(msgspec.Struct, forbid_unknown_fields=True):
    """A table still playing on extra time, and when its time is up."""

    table: int
    ends_at: datetime


class Screen(msgspec.Struct, forbid_unknown_fields=True):
    """What the big screen shows (`/e/EVENT/screen`). `showing`: `players` before round 1 (who is
    registered), `pairings` while the current round has a table without a result, `standings` once every
    table has one (between rounds, and at the end). `ends_at`: the round's time is up (null before its clock
    starts); `extra`: unfinished tables with extra time. `link`: the event's page, which the QR code opens."""

    event: EventInfo
    round: int
    showing: Literal["players", "pairings", "standings"]
    seats: list[ScreenSeat]
    standings: list[StandingRow]
    ends_at: datetime | None
    extra: list[ExtraTime]
    notice: str | None
    link: str
    finished: bool = False


class DeckPolicy(msgspec.Struct, forbid_unknown_fields=True):
    """`POST /api/admin/events/{id}/decks/policy` (`decks --policy --deadline`): a player without a legal list at
    the deadline is `unpaired` or `dropped` (T-113); the `deadline` with its UTC offset (T-112). Null: as it is."""

    policy: str | None = None
    deadline: datetime | None = None


class DeckRuling(msgspec.Struct, forbid_unknown_fields=True):
    """`POST /api/admin/events/{id}/decks/rule`: a judge's ruling on a table refused for its decks, with its
    `reason`: `accept` the refused logs' result, or (false) the default penalty (T-115). A result of the judge's
    own goes through `/rule`, as for any open table."""

    table: Annotated[int, msgspec.Meta(ge=1, le=2_147_483_647)]
    reason: str
    accept: bool = False


class NewEvent(msgspec.Struct, forbid_unknown_fields=True):
    """`tournament create`'s options: a new event (`seed` null: a random one, kept in the log)."""

    id: str
    name: str = ""
    ruleset: str = "cardwars"
    format: str = "swiss"
    best_of: int = 1
    profile: str = "mtg"
    seed: int | None = None
    table_size: int | None = None
    points: str = "3,1"
    late_entry: str = "loss"
    require_chain: bool = True
    rated: bool = False
    tables: str = "off"
    registration: RegistrationSettings | None = None  # public registration (`tournament registration`); null: closed


class NewPlayer(msgspec.Struct, forbid_unknown_fields=True):
    """A player to register (as `register NAME [--id ID] [--rating N]`)."""

    name: str
    id: str | None = None
    rating: int | None = None


class NewPlayers(msgspec.Struct, forbid_unknown_fields=True):
    """Players to register, all or none: `players`, or `csv`, a file's text as `register --from` reads it."""

    players: list[NewPlayer] = msgspec.field(default_factory=list)
    csv: str | None = None


class Rename(msgspec.Struct, forbid_unknown_fields=True):
    player: str
    name: str


class Pause(msgspec.Struct, forbid_unknown_fields=True):
    """Pause a player (`paused` true) or resume them."""

    player: str
    paused: bool = True


class Bye(msgspec.Struct, forbid_unknown_fields=True):
    """A pre-assigned bye in a round not yet paired; `round` null takes it back."""

    player: str
    round: int | None


class Swap(msgspec.Struct, forbid_unknown_fields=True):
    players: tuple[str, str]
    reason: str


class Reason(msgspec.Struct, forbid_unknown_fields=True):
    reason: str | None = None


class Pairing(msgspec.Struct, forbid_unknown_fields=True):
    """Pair the current round again (`reason` kept); `reseed`: with a new random seed (kept in the round's entry)."""

    reason: str | None = None
    reseed: bool = False


class RoundResults(msgspec.Struct, forbid_unknown_fields=True):
    """A round's slips at once (`scores`: table number -> `2-1`, `1-1-1`, `0-0`; a pod `1-3-2-4`), all or none;
    a table that has a result already is corrected, with `reason`."""

    scores: dict[int, str]
    reason: str | None = None


class Cut(msgspec.Struct, forbid_unknown_fields=True):
    size: int


class Done(msgspec.Struct, forbid_unknown_fields=True):
    """An organiser's change: what it did, in words (as the page says), and the event after it."""

    message: str
    event: EventInfo


class MessagesRequest(msgspec.Struct, forbid_unknown_fields=True):
    """`POST /api/me/messages`: be told of your pairings and results by `email` (`address`: the e-mail address) or
    by `push` (`address`: the push service's endpoint URL; `p256dh` and `auth`: the browser's keys, base64url)."""

    channel: str
    address: str
    p256dh: str | None = None
    auth: str | None = None


class MessagesWay(msgspec.Struct):
    """One way a signed-in player or person is told (`GET /api/me/messages`, `GET /api/me/person/messages`): its
    number (to stop it), channel and address; `confirmed` false while a person's e-mail address waits for its
    link to be opened (nothing is sent to it until then)."""

    id: int
    channel: str
    address: str
    confirmed: bool = True


class FeeRequest(msgspec.Struct, forbid_unknown_fields=True):
    """The event's entry fee: ISO 4217 letters and an amount in minor units (cents), 0 to 1,000,000."""

    currency: str
    amount: int


class PaidRequest(msgspec.Struct, forbid_unknown_fields=True):
    """A player paid at the desk, by `by` (cash or card); `amount` in minor units, default the event's fee."""

    player: str
    by: str
    amount: int | None = None


class UnpaidRequest(msgspec.Struct, forbid_unknown_fields=True):
    """A payment taken back, and why."""

    player: str
    reason: str
