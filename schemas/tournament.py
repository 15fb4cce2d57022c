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

from schemas.log import Hash

EXPORT_FORMAT: Literal["tournament-export/1"] = "tournament-export/1"
Source = Literal["log", "judge", "drop", "bye"]


class StandingRow(msgspec.Struct, forbid_unknown_fields=True):
    """One line of the standings.

    `points`: the profile's points (3/1/0 a match; chess 1/0.5/0, so it may
    be a half). `tiebreakers`: name -> value in the event's profile order;
    fractions 0..1 for the TCG ones (`omw`, `gw`, `ogw`, `owp`, `oowp`),
    chess points for the chess ones (`buchholz`, `buchholz_cut1`,
    `sonneborn_berger`).
    """

    rank: int
    player: str
    points: int | float
    game_points: int
    wins: int
    losses: int
    draws: int
    byes: int
    tiebreakers: dict[str, float]
    dropped: bool


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

    `source`: `log` (referee-checked game logs), `judge` (entered by a judge,
    with `reason`), or `drop` (conceded when a player dropped mid-round).
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


class RoundInfo(msgspec.Struct, forbid_unknown_fields=True):
    """`bye`: the Swiss or round-robin bye. `advanced`: in a single-elimination bracket round, the
    players who go through without playing (byes to the top seeds, or an opponent who dropped)."""

    number: int
    seed: int
    bye: str | None
    tables: list[TableRow]
    advanced: list[str] = msgspec.field(default_factory=list)


class PlayerInfo(msgspec.Struct, forbid_unknown_fields=True):
    """`registered_round`: rounds already paired when they entered (0: before round 1)."""

    name: str
    registered_round: int
    dropped_round: int | None


class EventInfo(msgspec.Struct, forbid_unknown_fields=True):
    """`format`: `swiss`, `single` (elimination), `roundrobin` or `pods`. `bracket_round`: the first
    round of the bracket or round robin (for a Swiss event, of its top cut); null before it is seeded.
    `table_size`: players a table (pods: 3 to 6). `points`: a pods event's points for a sole win, a
    shared win, then 2nd, 3rd... place. `require_chain`: the event accepts only hash-chained game logs."""

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
    require_chain: bool = False  # game logs must be hash-chained (`create --require-chain`, the default)


class BracketPair(msgspec.Struct, forbid_unknown_fields=True):
    """Two places of a bracket round, top first: a player, or null for an empty place (the other
    player goes through without playing). `table`: the match's table in that round, if it is played."""

    players: list[str | None]
    table: int | None
    winner: str | None
    node: str | None = None  # double elimination: W<round>-<n>, L<round>-<n>, GF or GF2 (the reset)


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


class LogEntryInfo(msgspec.Struct, forbid_unknown_fields=True):
    """One event-log entry: `hash` covers (event, seq, type, at, prev) and the payload."""

    seq: int
    type: str
    at: datetime
    prev: Hash
    hash: Hash


class Export(msgspec.Struct, forbid_unknown_fields=True):
    """A whole event: settings, players, every round and result, standings, and the log's chain."""

    format: Literal["tournament-export/1"]
    event: EventInfo
    players: list[PlayerInfo]
    rounds: list[RoundInfo]
    standings: list[StandingRow]
    log: list[LogEntryInfo]
    bracket: BracketInfo | None = None
