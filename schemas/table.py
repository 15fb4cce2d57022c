"""A live table on the wire (`tournament serve`, `tournament table --json`): what one seat may see of a game
being played, what a client sends to record, and what it gets back.

The state and the records are each game's own shapes (`Ruleset.seat_view`, `Ruleset.record_view`): plain
JSON here, since only the game knows them. Nothing in a `TableView` is hidden from the seat it was made for.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

import msgspec

# A record number: a log of more records than this is no game (the longest bot games run to about 1,200).
Seq = Annotated[int, msgspec.Meta(ge=0, le=1_000_000)]


class GameSummary(msgspec.Struct, forbid_unknown_fields=True):
    """One game of the table's match: its number, where its log stands, and how it ended (null while played)."""

    game: int
    seq: int
    over: bool
    winners: list[str] | None = None
    reason: str | None = None


class WitnessRow(msgspec.Struct, forbid_unknown_fields=True):
    """What a player's device acknowledged of the game shown: the last record it saw, and whether the player
    confirmed the game's last line."""

    player: str
    seen: int
    confirmed: bool


class Counted(msgspec.Struct, forbid_unknown_fields=True):
    """The result the standings count for a table's match, once it is reported by any path: games won by each
    player and drawn games (a pod: each player's place), where it came from (`source`: `log`, `players`, `judge`,
    `slip`), and whether it is this table's own log, reported by itself once the players confirmed it
    (`from_table`). A result from anywhere else outranks the games played at the table (T-133)."""

    source: str
    from_table: bool
    games: dict[str, int] | None = None
    draws: int = 0
    places: dict[str, int] | None = None


class TableProgress(msgspec.Struct, forbid_unknown_fields=True):
    """How a live table of the current round is going, for the organiser (T-153): the game being played (null:
    the table is not opened yet), the records made in the match so far, who is to act in it (player ids;
    `chance` at a paper table: a draw to record), whether that game is over, the last record's time, and
    `idle` when nothing happened for the threshold (`idle_minutes` long)."""

    table: int
    game: int | None
    records: int
    to_act: list[str]
    game_over: bool
    last_at: datetime | None
    idle: bool
    idle_minutes: int = 0


class TableView(msgspec.Struct, forbid_unknown_fields=True):
    """A live table as `seat` may see it (`seat`: a player, `judge`, or null for a spectator).

    `seq` is the head of the game shown (an append names it as `after`); `records` are those after `since`
    (all of them from 0), each as the seat may see it. `legal`: the records this seat may make now, at most
    200, with `legal_more` counting the rest (up to 1,000) (then the recorder's form takes a record typed in);
    in a digital game a draw is offered once per kind, and the server deals its card. `match_over`: the
    match is decided; `reported`: its result went to the standings, and `counted` says which result that is.
    `take_backs`: the take-back records this seat may make now (TB-R1, TB-R2: ask for its own last record back,
    or agree to the take-back asked of it); `withdrawn`: the records taken back or withdrawn so far, which the
    game is judged without; `keeper`: the page that records for every seat (a player's id, or `judge`), if the
    judge let one (T-200). `unseen`: at a paper table where this seat holds unknown cards (draws recorded unnamed,
    UD-1), the records it may make with one of them, each with the card it would be (`{"card", "record"}`): its
    own cards still unseen by the log, at most 200; never in another seat's view."""

    event: str
    round: int
    table: int
    mode: Literal["paper", "digital"]
    ruleset: str
    players: list[str]
    seat: str | None
    game: int
    seq: int
    since: int
    over: bool
    to_act: list[str]
    result: dict[str, Any] | None
    state: dict[str, Any]
    records: list[dict[str, Any]]
    legal: list[dict[str, Any]]
    legal_more: int
    games: list[GameSummary]
    witness: list[WitnessRow]
    bots: list[str]
    match_over: bool
    reported: bool
    counted: Counted | None = None
    take_backs: list[dict[str, Any]] = msgspec.field(default_factory=list)
    withdrawn: list[int] = msgspec.field(default_factory=list)
    keeper: str | None = None
    unseen: list[dict[str, Any]] = msgspec.field(default_factory=list)


class RecordSent(msgspec.Struct, forbid_unknown_fields=True):
    """A record a seat makes, built on the head it saw (`after`: that head's seq). `seq` and `prev` are the
    server's to fill; a paper game's draw names its card, a digital game's is dealt by the server."""

    after: Seq
    record: dict[str, Any]


class Appended(msgspec.Struct, forbid_unknown_fields=True):
    """An accepted record: the game's new head (`seq`) and the records written (the seat's own, then any the
    server made after it: dealt cards, a bot's moves, the seed's reveal), as the seat may see them."""

    game: int
    seq: int
    records: list[dict[str, Any]]
    over: bool
    next_game: int | None


class Refusal(msgspec.Struct, forbid_unknown_fields=True):
    """A refused record (nothing written): the referee's rule (or the table's, `T-8x`), why, and what this seat
    may record instead; `seq` is the head now (a stale `after` is refused with the head it missed)."""

    status: int
    error: str
    rule: str | None
    seq: int
    legal: list[dict[str, Any]]
    legal_more: int = 0
    exit_code: int | None = None


class Seen(msgspec.Struct, forbid_unknown_fields=True):
    """A device's acknowledgement: it holds game `game`'s records up to `seq`."""

    game: int
    seq: Seq


class LastLine(msgspec.Struct, forbid_unknown_fields=True):
    """A player confirms that game `game` ended at record `seq` (its last line, as their device shows it)."""

    game: int
    seq: Seq


class BotSeat(msgspec.Struct, forbid_unknown_fields=True):
    """The organiser seats the server's bot for `player` at a casual digital table (`rated`: also in a rated
    event, which the organiser must say)."""

    player: str
    rated: bool = False
