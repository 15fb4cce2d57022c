"""The cardwars vocabulary (fixed by the log format's contract, docs/referee.md): its setup and its records."""

from __future__ import annotations

import msgspec

from schemas.cards import Card, Suit
from schemas.log import Int64, PlayerId, Record


class Setup(msgspec.Struct, forbid_unknown_fields=True):
    """Who goes first, and which two suits make each player's half deck."""

    first: PlayerId
    suits: dict[PlayerId, list[Suit]]


class Draw(Record, tag="draw"):
    """Chance: `player` draws `card` in their draw phase; without `card` at a paper table (an unknown card, CW-3.4)."""

    player: str
    card: Card | None = None


class PlayResource(Record, tag="play_resource"):
    """The active player puts a number card or a joker from hand onto the battlefield."""

    card: Card


class PlayFace(Record, tag="play_face"):
    """The active player plays a face card, destroying the resource cards in `pay`."""

    card: Card
    pay: list[Card]


class Attack(Record, tag="attack"):
    """The active player attacks with `attackers`; an empty list ends the turn."""

    attackers: list[Card]


class JokerDefense(Record, tag="joker_defense"):
    """The defender plays a joker from hand: every attacker is destroyed."""

    card: Card


class Block(Record, tag="block"):
    """The defender declares blockers: blocker -> the attacker it blocks."""

    blocks: dict[Card, Card]


class Assign(Record, tag="assign"):
    """The attacker splits `attacker`'s damage among its blockers."""

    attacker: Card
    damage: dict[Card, Int64]


RECORDS: tuple[type[Record], ...] = (Draw, PlayResource, PlayFace, Attack, JokerDefense, Block, Assign)
