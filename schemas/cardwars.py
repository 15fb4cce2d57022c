"""The cardwars vocabulary (fixed by DESIGN.md): its setup and its records."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import msgspec

from schemas.log import PlayerId, Record

# On the wire a card or suit is one of a closed set, so a typo is "malformed" with its field
# named; game code handles them as plain strings, which is what the type checker is shown.
if TYPE_CHECKING:
    Suit = str
    Card = str
else:
    Suit = Literal["S", "H", "D", "C"]
    Card = Literal[
        "AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS",
        "AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH", "KH",
        "AD", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "10D", "JD", "QD", "KD",
        "AC", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "JC", "QC", "KC",
        "JK1", "JK2",
    ]  # fmt: skip


class Setup(msgspec.Struct, forbid_unknown_fields=True):
    """Who goes first, and which two suits make each player's half deck."""

    first: PlayerId
    suits: dict[PlayerId, list[Suit]]


class Draw(Record, tag="draw"):
    """Chance: `player` draws `card` in their draw phase."""

    player: str
    card: Card


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
    damage: dict[Card, int]


RECORDS: tuple[type[Record], ...] = (Draw, PlayResource, PlayFace, Attack, JokerDefense, Block, Assign)
