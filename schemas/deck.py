"""Decks on their own: what `referee deck check --json` says, and how a registered list differs from a game's deck."""

from __future__ import annotations

from typing import Literal

import msgspec

DeckVerdictKind = Literal["legal", "illegal", "malformed", "fixed"]
Change = Literal["added", "missing", "count", "stats"]


class DeckProblem(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """One rule the deck breaks: the rule's id, the card it is about (when one is), and why."""

    rule: str
    message: str
    card: str | None = None


class DeckError(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """Why a deck file could not be read: where (line, field) and what is wrong."""

    message: str
    line: int | None = None
    field: str | None = None


class DeckVerdict(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """The referee's judgement of one deck without a game.

    `verdict`: `legal`, `illegal` (every rule broken is in `problems`),
    `malformed` (the file could not be read: `error`), or `fixed` (the game is
    played with a standard deck, so there is no list to check: `fixed` says
    which). `cards` counts the deck's cards, and `summary` says in a line what
    the deck is (its game, leaders, quadrants or colours).
    """

    verdict: DeckVerdictKind
    ruleset: str
    path: str | None = None
    problems: list[DeckProblem] = msgspec.field(default_factory=list)
    error: DeckError | None = None
    cards: int | None = None
    summary: str | None = None
    facets: dict[str, str] = msgspec.field(default_factory=dict)
    fixed: str | None = None


class Difference(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """One card where a game's deck is not the registered list.

    `change`: `added` (in the game, not on the list), `missing` (on the list,
    not in the game), `count` (other number of copies) or `stats` (the same
    name with other numbers, type or traits). `registered` and `played` are the
    card as each side has it, in the list's own words (`2 Goblin Scout
    (monster: strength 1)`), absent on the side that lacks it.
    """

    card: str
    change: Change
    message: str
    section: str | None = None
    registered: str | None = None
    played: str | None = None


DECK_EXIT_CODES: dict[str, int] = {"legal": 0, "fixed": 0, "illegal": 1, "malformed": 3}
