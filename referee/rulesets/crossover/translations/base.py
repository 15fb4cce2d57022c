"""What a translation produces, and the checks every translation shares."""

from __future__ import annotations

from typing import Literal

import msgspec

from schemas.crossover import Card

CardType = Literal["leader", "minion", "equipment", "event"]
EventKind = Literal["stop", "draw"]


class Untranslatable(Exception):
    """A card its translation cannot map; the message says why, naming the card."""


class Mapped(msgspec.Struct, frozen=True):
    """A card as crossover sees it (XO-2). Fields that do not apply to its type stay at their defaults."""

    type: CardType
    play_value: int = 0  # leader
    initiative: int = 0  # minion
    double_attack: bool = False  # minion, or granted by equipment
    endurance: bool = False  # minion, or granted by equipment
    half_hits: bool = False  # minion: Star Trek 2E even strength (XO-7.5)
    dies_together: bool = False  # minion: Star Trek 1E even integrity (XO-7.9)
    event: EventKind | None = None  # event


def numbers(card: Card, game: str, reads: tuple[str, ...], ignores: tuple[str, ...] = ()) -> dict[str, int]:
    """The numbers `reads` of `card`, after checking none is missing, unknown or negative (XO-1.5)."""
    for stat, value in card.stats.items():
        if stat not in reads and stat not in ignores:
            known = ", ".join((*reads, *ignores)) or "none"
            raise Untranslatable(f"{card.name}: a {game} {card.kind} has no number {stat!r} (known: {known})")
        if value < 0:
            raise Untranslatable(f"{card.name}: {stat} is {value}, but native numbers are never negative")
    missing = [stat for stat in reads if stat not in card.stats]
    if missing:
        raise Untranslatable(f"{card.name}: a {game} {card.kind} needs its {', '.join(missing)}")
    return {stat: card.stats[stat] for stat in reads}


def unknown_kind(card: Card, game: str, kinds: tuple[str, ...]) -> Untranslatable:
    """The error for a native type the translation does not map."""
    return Untranslatable(f"{card.name}: the {game} translation maps no {card.kind!r} cards (only {', '.join(kinds)})")
