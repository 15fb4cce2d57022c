"""The crossover vocabulary: decks declared card by card, and the game's records.

A card is given with its own game's attributes; the referee's translations
(referee/rulesets/crossover/translations/) read them. Which native types,
numbers and traits each game has is the translation's business, so they are
open strings here and checked when the game starts.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from schemas.log import Int64, PlayerId, Record, deferred, remembered, whole

CardName = Annotated[str, deferred(whole(r"\S(.*\S)?"), min_length=1, max_length=64)]
Word = Annotated[str, deferred(whole(r"[a-z0-9][a-z0-9 _-]*"), min_length=1, max_length=32)]


# Decks and cards are frozen, with tuples for their lists: the decoder hands every game the same Deck
# for the same text (`remembered`), and the referee works each deck out once per Deck object
# (referee/rulesets/crossover/decks.py). Only `stats` stays a dict (msgspec decodes no read-only
# mapping); nothing may write to it. The JSON Schema and error messages are those of lists.
class Card(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True, frozen=True):
    """One card as its own game prints it: name, native type, numbers and traits."""

    name: CardName
    kind: Word
    stats: dict[Word, Int64] = msgspec.field(default_factory=dict)
    traits: tuple[Word, ...] = ()


class Deck(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """A player's 20 cards, all from the game `game` (a translation's id)."""

    game: Word
    cards: tuple[Card, ...]


class Setup(msgspec.Struct, forbid_unknown_fields=True):
    """Who goes first, and each player's deck."""

    first: PlayerId
    decks: dict[PlayerId, Annotated[Deck, remembered]]  # a player brings one deck to every round: decoded once


class Draw(Record, tag="draw"):
    """Chance: `player` draws `card` from their deck; without `card` at a paper table (an unknown card, XO-3.5)."""

    player: str
    card: CardName | None = None


class Opening(Record, tag="opening"):
    """A player with a single-leader deck says whether they search for it (XO-4.4)."""

    search: bool


class Lead(Record, tag="lead"):
    """A player whose opening hand shows several leaders puts `card` into play."""

    card: CardName


class Summon(Record, tag="summon"):
    """Play phase: a minion from hand comes into play."""

    card: CardName


class Equip(Record, tag="equip"):
    """Play phase: equipment `card` from hand goes onto the player's `minion`."""

    card: CardName
    minion: CardName


class PlayEvent(Record, tag="event"):
    """Play phase: an event from hand; a Draw event then draws `draw` cards."""

    card: CardName
    draw: Literal[0, 1, 2] = 0


class Pass(Record, tag="pass"):
    """Play phase: the player passes, drawing a card if `draw`."""

    draw: bool = False


class Attack(Record, tag="attack"):
    """Skirmish: the attacker's `minion` attacks the defender's `targets`."""

    minion: CardName
    targets: list[CardName]


class Respond(Record, tag="respond"):
    """Response window: a Stop! saving target `minion`, or a Draw keeping only target `minion`."""

    card: CardName
    minion: CardName


class Done(Record, tag="done"):
    """Response window: the player plays nothing (more) on this attack."""


class Resolve(Record, tag="resolve"):
    """Resolution: an optional new leader from hand, and the cards discarded down to 5."""

    leader: CardName | None = None
    discard: list[CardName] = msgspec.field(default_factory=list)


RECORDS: tuple[type[Record], ...] = (Draw, Opening, Lead, Summon, Equip, PlayEvent, Pass, Attack, Respond, Done, Resolve)
