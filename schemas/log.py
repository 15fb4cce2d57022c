"""The `referee-log/1` envelope: the header line, the record base and the common records."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Final, Literal

import msgspec

LOG_FORMAT: Final = "referee-log/1"
# How `referee.logio.game_fingerprint` takes a game's identity; stored beside every fingerprint a tournament keeps.
FINGERPRINT_SCHEME: Final = 3


def whole(pattern: str) -> str:
    """`pattern` matched against the whole string.

    msgspec searches with Python's `re`, where `$` also matches before a final
    newline (`ann\\n` would pass as `ann`); `(?!\\n)` closes that, and stays a
    valid JSON Schema (ECMA-262) pattern.
    """
    return rf"^(?:{pattern})$(?!\n)"


DEFERRED: Final = "deferred_pattern"


def deferred(pattern: str, **constraints: Any) -> msgspec.Meta:
    """String constraints whose `pattern` the JSON Schema states but decoding leaves to the referee.

    msgspec runs Python's `re` on every value it checks, which costs more than
    decoding the rest of the line; referee/patterns.py checks each distinct value
    once, right after decoding, and gives msgspec's own error when one fails.
    """
    return msgspec.Meta(**constraints, extra_json_schema={"pattern": pattern}, extra={DEFERRED: pattern})


REMEMBERED: Final = "remembered"
# On a setup part that recurs from game to game (a player's deck, as in
# `dict[PlayerId, Annotated[Deck, remembered]]`): referee/patterns.py decodes
# each distinct text of it once and hands every game the same object, which
# the ruleset must treat as read-only. The JSON Schema does not change.
remembered: Final = msgspec.Meta(extra={REMEMBERED: True})

# Every integer of the format fits in 64 bits (docs/referee.md): a larger one is malformed, named by its field.
# A game's own integers carry tighter bounds where its rules give them; tests/core/test_integers.py walks them all.
INT64_MIN: Final = -(2**63)
INT64_MAX: Final = 2**63 - 1
Int64 = Annotated[int, msgspec.Meta(ge=INT64_MIN, le=INT64_MAX)]

PLAYER_ID: Final = r"[A-Za-z0-9_.-]{1,64}"  # a player id (not anchored: `whole` or `re.fullmatch` anchors it)
PlayerId = Annotated[str, deferred(whole(PLAYER_ID))]
HASH_PATTERN: Final = whole(r"[0-9a-f]{64}")
Hash = Annotated[str, msgspec.Meta(pattern=HASH_PATTERN)]
# A record's `prev`: the same pattern in the JSON Schema, but not checked while decoding.
# The engine compares `prev` with the hash it computes, so only a `prev` that is
# wrong anyway needs the pattern (engine.py checks it then, as a Hash); checking it
# on every line made the typed decode about three times slower.
ChainHash = Annotated[str, msgspec.Meta(extra_json_schema={"pattern": HASH_PATTERN})]


class Event(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """Where a game belongs in a tournament."""

    tournament: str
    round: Int64 | None = None
    table: Int64 | str | None = None


DEAL_SCHEME: Final = "hmac-sha256/1"


class Deal(msgspec.Struct, forbid_unknown_fields=True):
    """A dealt game's commitment: `commit` is the hex SHA-256 of the secret seed whose draws the log holds.

    `scheme` names the procedure by which each chance record follows from the
    seed (docs/referee.md, "Dealt games"; referee/dealing.py).
    """

    scheme: Literal["hmac-sha256/1"]
    commit: Hash


class Header(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """Line 1 of every log. `setup` is decoded by the ruleset's own setup Struct."""

    log: Literal["referee-log/1"]
    ruleset: str
    game: str
    players: list[PlayerId]
    setup: msgspec.Raw
    event: Event | None = None
    started_at: datetime | None = None
    deal: Deal | None = None


class Record(
    msgspec.Struct,
    tag_field="type",
    forbid_unknown_fields=True,
    omit_defaults=True,
    kw_only=True,
    gc=False,
):
    """Fields every record carries; each ruleset subclasses it once per record type.

    `gc=False`: a record holds only plain data (strings, numbers, and lists, dicts
    and Structs of them), so it can be in no reference cycle; leaving it to
    reference counting makes decoding a batch about a tenth faster.
    """

    seq: Int64 = 0
    by: str
    prev: ChainHash | None = None
    at: datetime | None = None
    note: str | None = None


class Concede(Record, tag="concede"):
    """A player leaves the game and loses it; allowed at any time."""


class Time(Record, tag="time"):
    """The judge calls time; the ruleset says what result follows."""


class GameLoss(Record, tag="game_loss"):
    """The judge gives `player` a game loss."""

    player: str


class Reveal(Record, tag="reveal"):
    """Chance reveals the seed its header's `deal` committed to; no record may follow (DL-1 to DL-3)."""

    seed: Annotated[str, msgspec.Meta(pattern=HASH_PATTERN)]


class TakeBack(Record, tag="take_back"):
    """A player asks to take back `record`, their own last record (TB-R1); nothing changes until the next seat
    agrees."""

    record: Annotated[int, msgspec.Meta(ge=1, le=INT64_MAX)]


class AgreeTakeBack(Record, tag="agree_take_back"):
    """The next seat agrees to the take-back asked just before (TB-R2): the game goes on as if `record` had not
    been made."""

    record: Annotated[int, msgspec.Meta(ge=1, le=INT64_MAX)]


class Withdraw(Record, tag="withdraw"):
    """The judge withdraws `record`, for `reason` (TB-R3): the game goes on as if it had not been made."""

    record: Annotated[int, msgspec.Meta(ge=1, le=INT64_MAX)]
    reason: Annotated[str, msgspec.Meta(min_length=1)]


class Keeper(Record, tag="keeper"):
    """The judge lets one device, `device` (a name people read), record for every seat from here on; null: each
    seat records for itself again (KP-1)."""

    device: Annotated[str, msgspec.Meta(min_length=1, max_length=64)] | None = None


COMMON_RECORDS: tuple[type[Record], ...] = (Concede, Time, GameLoss)
# The records the referee's core judges for every game, which the game never sees: take-backs and the keeper
# (referee/takeback.py), and the reveal.
REFEREE_RECORDS: tuple[type[Record], ...] = (TakeBack, AgreeTakeBack, Withdraw, Keeper)
# Every log's records beside the game's own: the common ones, which the game judges, and the referee's own.
SHARED_RECORDS: tuple[type[Record], ...] = (*COMMON_RECORDS, Reveal, *REFEREE_RECORDS)
