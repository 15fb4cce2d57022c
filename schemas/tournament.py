"""What the tournament service exports: standings, pairings, and a whole event.

`tournament standings --format json` prints a list of `StandingRow`,
`tournament pairings --format json` a list of `TableRow`, and
`tournament export` one `Export`. JSON Schema files are generated from these
Structs into `schemas/json/` (`referee schema`).
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

import msgspec

from schemas.deck import DeckProblem
from schemas.log import Hash

EXPORT_FORMAT: Literal["tournament-export/1"] = "tournament-export/1"
Source = Literal["log", "judge", "slip", "players", "drop", "bye"]


class StandingRow(msgspec.Struct, forbid_unknown_fields=True):
    """One line of the standings.

    `points`: the profile's points (3/1/0 a match; chess 1/0.5/0, so it may
    be a half). `tiebreakers`: name -> value in the event's profile order;
    fractions 0..1 for the TCG ones (`omw`, `gw`, `ogw`, `owp`, `oowp`),
    chess points for the chess ones (`buchholz`, `buchholz_cut1`,
    `sonneborn_berger`); null where the player has nothing it measures
    (T-162): `gw` without a game played, `omw`, `ogw`, `owp`, `oowp`
    without an opponent met (a bye, a no-show).
    """

    rank: int
    player: str
    points: int | float
    game_points: int
    wins: int
    losses: int
    draws: int
    byes: int
    tiebreakers: dict[str, float | None]
    dropped: bool
    name: str = ""  # the display name (`player` is the id)
    person: str | None = None  # who they are across events (T-90); null: no one yet


class GameRef(msgspec.Struct, forbid_unknown_fields=True):
    """One game's stored referee log: its SHA-256 and who won it (null: drawn)."""

    game: int
    sha256: Hash
    winner: str | None


class TableRow(msgspec.Struct, forbid_unknown_fields=True):
    """One table of one round. `games` and `draws` are null until a result is reported.

    A Swiss pods table lists its `players` in seat order and reports `places`
    (1 = best; equal places share) instead of `games`; a bye is a table of one
    with `source` `bye`.

    `source`: `log` (referee-checked game logs), `slip` (a paper result as
    the players signed it, entered by a scorekeeper), `judge` (a judge's
    ruling, with `reason`), `players` (entered by a player and confirmed by
    the others on `tournament serve`; `reason` says who), or `drop`
    (conceded when a player dropped mid-round). Games 0-0 with no drawn game
    is an intentional draw.

    `names`: the display names, in the order of `players` (the ids).
    `ends_at`: when the table's time is up (the round's clock plus the
    table's `extra_minutes`); null before `round start`.
    """

    round: int
    table: int
    players: list[str]
    games: dict[str, int] | None
    draws: int | None
    source: Source | None
    reason: str | None
    logs: list[GameRef]
    places: dict[str, int] | None = None
    names: list[str] = msgspec.field(default_factory=list)
    extra_minutes: int = 0
    ends_at: datetime | None = None


class RoundInfo(msgspec.Struct, forbid_unknown_fields=True):
    """`bye`: the Swiss or round-robin bye. `advanced`: in a single-elimination bracket round, the
    players who go through without playing (byes to the top seeds, or an opponent who dropped).
    `byes`: pre-assigned byes granted this round. `started_at` and `minutes`: the round's clock
    (`round start`); null before it starts. `names`: display names by id for everyone listed.
    `repeats`: a pods round's repeat meetings (pairs at one table who had met), and `proven` whether
    no grouping has fewer (null for other formats, and `proven` for rounds paired before it was kept)."""

    number: int
    seed: int
    bye: str | None
    tables: list[TableRow]
    advanced: list[str] = msgspec.field(default_factory=list)
    byes: list[str] = msgspec.field(default_factory=list)
    started_at: datetime | None = None
    minutes: int | None = None
    names: dict[str, str] = msgspec.field(default_factory=dict)
    repeats: int | None = None
    proven: bool | None = None


class PlayerInfo(msgspec.Struct, forbid_unknown_fields=True):
    """`name` is the player id, `display_name` what people read. `registered_round`: rounds already
    paired when they entered (0: before round 1). `paused`: sitting out until resumed. `bye_round`:
    a pre-assigned bye. `rating`: from registration (higher is stronger)."""

    name: str
    registered_round: int
    dropped_round: int | None
    display_name: str = ""
    rating: int | None = None
    paused: bool = False
    bye_round: int | None = None
    person: str | None = None  # who they are across events (`tournament person`); null before people were kept
    paid: int | None = None  # the entry fee paid at the desk, in the event's currency's minor units; null: not paid
    paid_by: Literal["cash", "card"] | None = None


class EventInfo(msgspec.Struct, forbid_unknown_fields=True):
    """`format`: `swiss`, `single` (elimination), `roundrobin` or `pods`. `bracket_round`: the first
    round of the bracket or round robin (for a Swiss event, of its top cut); null before it is seeded.
    `table_size`: players a table (pods: 3 to 6). `points`: a pods event's points for a sole win, a
    shared win, then 2nd, 3rd... place. `late_entry`: a late entry's missed rounds count as
    losses (`loss`) or not at all (`none`). `require_chain`: the event accepts only hash-chained
    game logs. `head`: the head of the event's log when this was made (`EVENT@SEQ:HASH`, the last entry's
    number and the first 16 hex digits of its hash), for people to keep and `tournament verify --against`
    to check; empty in exports from before. `tables`: the event's live tables (`off`, `paper`: players record
    their physical cards, `digital`: the server deals)."""

    id: str
    name: str
    ruleset: str
    profile: str
    best_of: int
    seed: int
    created_at: datetime
    rounds: int
    format: str = "swiss"
    bracket_round: int | None = None
    table_size: int = 2
    points: str = "3,1"
    late_entry: str = "none"
    require_chain: bool = False  # game logs must be hash-chained; `create` sets it unless --no-require-chain (False: exports from before)
    head: str = ""
    rated: bool = False  # its matches count for the ratings (`create --rated`)
    tables: str = "off"  # live tables (`create --tables`): off, paper or digital


class BracketPair(msgspec.Struct, forbid_unknown_fields=True):
    """Two places of a bracket round, top first: a player, or null for an empty place (the other
    player goes through without playing). `table`: the match's table in that round, if it is played."""

    players: list[str | None]
    table: int | None
    winner: str | None
    node: str | None = None  # double elimination: W<round>-<n>, L<round>-<n>, GF or GF2 (the reset)
    games: list[int] | None = None  # games won by each player, in the order of `players`, once reported


class BracketRound(msgspec.Struct, forbid_unknown_fields=True):
    """One bracket round; `round` is the event's round number it is (or will be) played as."""

    round: int
    pairs: list[BracketPair]


class BracketInfo(msgspec.Struct, forbid_unknown_fields=True):
    """A single-elimination bracket (or a top cut): seeds best first, the rounds known so far.

    A double elimination (`double`) lists each event round's matches, winners' and losers'
    side together, each with its `node`; the last round may be one not yet paired.
    """

    seeds: list[str]
    rounds: list[BracketRound]
    champion: str | None
    double: bool = False
    names: dict[str, str] = msgspec.field(default_factory=dict)  # display names by id (ids where missing)


class LogEntryInfo(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """One event-log entry: `hash` covers (event, seq, type, at, prev[, actor]) and the payload. `actor`: who made
    the change (`cli`, `server`, `organiser`, `player:ID`, `staff:ID`); absent for an entry from before actors were
    kept, whose hash does not cover one."""

    seq: int
    type: str
    at: datetime
    prev: Hash
    hash: Hash
    actor: str | None = None


class FeeRow(msgspec.Struct, forbid_unknown_fields=True):
    """One player's entry fee: `paid` in minor units and `paid_by` (cash or card), both null while unpaid."""

    player: str
    name: str
    paid: int | None
    paid_by: Literal["cash", "card"] | None
    checked_in: bool
    dropped: bool


class Fees(msgspec.Struct, forbid_unknown_fields=True):
    """An event's entry fees (`tournament fees --json`, T-215): its fee and currency (null until set), what was
    taken (`total`, in minor units: 1250 EUR is 12.50), and every player, the unpaid first."""

    event: str
    currency: str | None
    fee: int | None
    total: int
    paid: int  # how many paid
    unpaid: int  # how many still playing (not dropped) have not
    players: list[FeeRow]


class Export(msgspec.Struct, forbid_unknown_fields=True):
    """A whole event: settings, players, every round and result, standings, and the log's chain."""

    format: Literal["tournament-export/1"]
    event: EventInfo
    players: list[PlayerInfo]
    rounds: list[RoundInfo]
    standings: list[StandingRow]
    log: list[LogEntryInfo]
    bracket: BracketInfo | None = None
    fees: Fees | None = None  # null until the event has a fee (`tournament fee`)


Rating = Literal["glicko2", "openskill"]
Outcome = Literal["win", "loss", "draw", "bye"]


class RatingRow(msgspec.Struct, forbid_unknown_fields=True):
    """One person's rating in one pool: a ruleset's two-player events (`glicko2`) or its pods (`openskill`).

    Glicko-2: `rating` is r (1500 to start), `deviation` its RD, `volatility` sigma. OpenSkill: `rating`
    is mu (25 to start), `deviation` sigma, no volatility. `low` is what the leaderboard ranks by:
    r - 2 RD, or mu - 3 sigma (OpenSkill's ordinal). `events` and `games` (matches or pods) counted.
    """

    rank: int
    person: str
    name: str
    ruleset: str
    system: Rating
    rating: float
    deviation: float
    volatility: float | None
    low: float
    events: int
    games: int
    label: str | None = None  # as `PersonRow.label`


class PersonRow(msgspec.Struct, forbid_unknown_fields=True):
    """Someone on this database: `id` (the person's), `name`, an optional `external_id`, events played."""

    id: str
    name: str
    external_id: str | None
    events: int
    last_event: str | None = None
    label: str | None = None  # what tells them from someone of the same name (their first event: T-185); null for a name no one else has


class PersonEvent(msgspec.Struct, forbid_unknown_fields=True):
    """One event a person played: under which player id and name, and where they finished (so far)."""

    event: str
    event_name: str
    ruleset: str
    format: str
    rated: bool
    player: str
    name: str
    rank: int | None
    points: int | float | None
    wins: int
    losses: int
    draws: int
    dropped: bool


class PersonMatch(msgspec.Struct, forbid_unknown_fields=True):
    """One table a person sat at. `outcome` from their side: `win`, `loss`, `draw`, `bye`, or null before
    a result. Two players: `games` (theirs, the opponent's) and `draws`; pods: `place` of `seats`."""

    event: str
    round: int
    table: int | None
    opponents: list[str]
    opponent_names: list[str]
    outcome: Outcome | None
    games: list[int] | None = None
    draws: int | None = None
    place: int | None = None
    seats: int | None = None
    source: Source | None = None


class SeasonInfo(msgspec.Struct, forbid_unknown_fields=True):
    """A season: a series of events of one game, and the rule its standings go by (T-212): points for a match
    won (a bye too), drawn, lost and for each event played; `best` N events counted (null: all); `tiebreakers`
    in order (`wins`, `place`, `events`); `rule`, the same in words."""

    id: str
    name: str
    ruleset: str
    win: int
    draw: int
    loss: int
    attend: int
    best: int | None
    tiebreakers: list[str]
    rule: str


class SeasonEvent(msgspec.Struct, forbid_unknown_fields=True):
    """An event of a season, in season order; only a finished one counts (T-213)."""

    event: str
    name: str
    finished: bool
    created_at: datetime


class SeasonRow(msgspec.Struct, forbid_unknown_fields=True):
    """One person's season: `points` over the counted events; `results`, each finished event's points by event id
    (events they did not play are absent); `counted`, the events that count; `wins` in those, their best
    `place` in one event, `played` events."""

    rank: int
    person: str
    name: str
    points: int
    results: dict[str, int]
    counted: list[str]
    wins: int
    place: int
    played: int


class SeasonStandings(msgspec.Struct, forbid_unknown_fields=True):
    """`tournament season standings --json`: the season, its events, its standings by person. `unlinked`: players
    of its finished events linked to no person (events from before people were kept), who cannot count until
    `tournament link` says who they are."""

    season: SeasonInfo
    events: list[SeasonEvent]
    standings: list[SeasonRow]
    unlinked: int = 0


class PersonSeason(msgspec.Struct, forbid_unknown_fields=True):
    """A season a person has played in: their rank of how many, and points."""

    season: str
    name: str
    rank: int
    of: int
    points: int
    played: int
    events: int  # the season's finished events


class RatingPoint(msgspec.Struct, forbid_unknown_fields=True):
    """A person's rating in one pool (`ruleset`, `system`) right after one rated event they played, at full
    precision (as `RatingRow.rating`)."""

    ruleset: str
    system: Rating
    event: str
    event_name: str
    rating: float


class PersonInfo(msgspec.Struct, forbid_unknown_fields=True):
    """A person's events (oldest first), matches (in play order), ratings and seasons; `history`: their rating after
    each rated event, oldest first, pool by pool."""

    id: str
    name: str
    external_id: str | None
    events: list[PersonEvent]
    matches: list[PersonMatch]
    ratings: list[RatingRow]
    seasons: list[PersonSeason] = msgspec.field(default_factory=list)
    history: list[RatingPoint] = msgspec.field(default_factory=list)
    label: str | None = None  # as `PersonRow.label`


class RejudgedGame(msgspec.Struct, forbid_unknown_fields=True):
    """One game whose stored log today's referee judges otherwise (`tournament rejudge`, T-70)."""

    game: int | None  # its number in the match; None: a pod's one log
    sha256: str
    verdict: str  # today's verdict: complete, illegal, malformed, tampered or ongoing
    rule: str | None  # the rule a refused log breaks (or the field a malformed one gets wrong)
    recorded: str  # what the event recorded: "Ann won", "a draw", a pod's places
    now: str  # the same from today's referee, or "refused"


class RejudgedTable(msgspec.Struct, forbid_unknown_fields=True):
    """A table whose result today's referee would change: what was recorded, what it would be, and the games why."""

    round: int
    table: int
    players: list[str]
    recorded: str
    now: str
    games: list[RejudgedGame]


class DeckEntry(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """A player's deck list in an event (`tournament decks --json`, `/api/.../decks`): `verdict` is `legal`,
    `illegal` (every rule it breaks in `problems`) or `none` (no list yet). `kind` is the deck's main facet's
    value (crossover: its game), `facets` all of them. `text` (the list) and `sha256` are shown only to
    whoever may see the list: its player, the organiser, or everyone once the lists are published."""

    player: str
    name: str
    verdict: Literal["legal", "illegal", "none"]
    summary: str = ""
    kind: str | None = None
    facets: dict[str, str] = msgspec.field(default_factory=dict)
    problems: list[DeckProblem] = msgspec.field(default_factory=list)
    sha256: Hash | None = None
    text: str | None = None
    dropped: bool = False


class DeckKind(msgspec.Struct, forbid_unknown_fields=True):
    """One kind of deck in an event's metagame: how many players brought it (and how many of them made the
    top cut), its match record against other kinds (mirror matches left out) and its win rate (None: no
    such match yet), and what else its decks show (`details`: e.g. crossover's leaders, most common first)."""

    kind: str
    players: int
    top_cut: int
    wins: int
    losses: int
    draws: int
    win_rate: float | None
    details: list[str] = msgspec.field(default_factory=list)


class Metagame(msgspec.Struct, forbid_unknown_fields=True):
    """What an event's players brought (`tournament meta --json`): the kinds of deck by the game's main facet
    (`facet`, e.g. `game`), most played first; `unknown` counts the players without a legal list."""

    event: str
    name: str
    ruleset: str
    facet: str
    players: int
    unknown: int
    top_cut: int
    kinds: list[DeckKind]


class JudgeCallRow(msgspec.Struct, forbid_unknown_fields=True):
    """A player's call for a judge (`tournament calls --json`): `number` in the event, their table of `round`,
    their line of text (may be empty); `answered_at` null while open; `disputes`: the player whose claim the
    caller says is not right ("That's not right": the table is in the judge queue), null for a plain call."""

    number: int
    round: int
    table: int
    player: str
    name: str
    text: str
    called_at: datetime
    answered_at: datetime | None
    disputes: str | None = None


class WaitingRow(msgspec.Struct, forbid_unknown_fields=True):
    """Someone on a full event's waitlist: `place` 1 is next."""

    player: str
    name: str
    place: int
    checked_in: bool


class Registration(msgspec.Struct, forbid_unknown_fields=True):
    """An event's public registration (`tournament registration --json`): the settings (`cap` and `closes_at`
    null: none), the players with a place and how many checked in, and the waitlist in order; `waitlist_limit`
    as the organiser set it (null: the default) and `waitlist_bound`, how many may wait (T-152)."""

    event: str
    open: bool
    cap: int | None
    closes_at: datetime | None
    waitlist: bool
    registered: int
    checked_in: int
    waiting: list[WaitingRow]
    waitlist_limit: int | None = None
    waitlist_bound: int = 64


class LeftOut(msgspec.Struct, forbid_unknown_fields=True):
    """The organiser's check-in close before round 1 (`tournament absent`, T-96): the players dropped for not
    checking in, and those on the waitlist who had checked in and got their places, in order."""

    dropped: list[str]
    promoted: list[str]


class FailedMessage(msgspec.Struct, forbid_unknown_fields=True):
    """A message given up after its retries, or at once on a refusal no retry mends (`tournament send --failed
    --json`, `/admin/messages`): what it was, to whom (names as it said them; the address while its subscription
    lasts), how often it was tried, when it was given up and why."""

    id: str
    event: str | None  # the event's id; null for an address's confirmation (of no event)
    event_name: str
    player: str  # the display name the message was written to
    kind: str
    channel: str
    address: str | None  # null once the subscription is gone
    attempts: int
    given_up_at: datetime
    reason: str
