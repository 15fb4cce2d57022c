"""What the referee says about a log: the verdict object of `referee validate --json`."""

from __future__ import annotations

from typing import Any, Literal

import msgspec

VerdictKind = Literal["complete", "ongoing", "illegal", "malformed", "tampered"]
ChainState = Literal["verified", "absent", "broken"]
# A dealt game's draws (docs/referee.md, "Dealt games"): `committed` until the seed is revealed,
# then `verified` (every chance record is the one the seed gives). Absent for other logs.
DealState = Literal["committed", "verified"]


class Result(msgspec.Struct, forbid_unknown_fields=True):
    """How a finished game ended.

    `placements` maps every player to a place (1 is best; equal places are a
    shared result). `score` is the per-player number a tournament counts as
    game score (each ruleset's RULES.md says what it is). `reason` says why
    the game ended, in a word: `life`, `concede`, `game_loss`, `time`, ...
    """

    placements: dict[str, int]
    winners: list[str]
    score: dict[str, float]
    reason: str


class Error(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """The first failure in a log: where, which rule or field, why, and what was legal there."""

    line: int
    message: str
    seq: int | None = None
    rule: str | None = None
    field: str | None = None
    legal: list[dict[str, Any]] | None = None
    legal_more: int | None = None


class Verdict(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """The referee's judgement of one log.

    Every field is always written but `deal`, which only a dealt game's verdict
    carries (so the verdict of any other log reads as it did before dealing came),
    and `unnamed_draws`, written only when some draw of the log left out its card
    (docs/referee.md, "Unnamed draws"; so every other verdict reads as before).
    """

    verdict: VerdictKind
    ruleset: str | None
    game: str | None
    records_checked: int
    chain: ChainState
    error: Error | None
    to_act: list[str]
    result: Result | None
    unchecked: int
    path: str | None
    state: dict[str, Any] | None
    deal: DealState | None = None
    unnamed_draws: int = 0


EXIT_CODES: dict[str, int] = {
    "complete": 0,
    "ongoing": 0,
    "illegal": 1,
    "malformed": 3,
    "tampered": 4,
}
EXIT_USAGE = 2
