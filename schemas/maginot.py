"""The maginot vocabulary: its setup and its records (documented in referee/rulesets/maginot/RULES.md).

A card in a record is the acting player's own card unless a field says whose
it is (`draw.player`, the values of `engage.pairs`, `play.owner`).
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from schemas.cards import Card
from schemas.log import INT64_MAX, PlayerId, Record

Ace = Literal["AS", "AH", "AD", "AC"]
Zone = Literal["patrol", "guardian"]
Tokens = Annotated[int, msgspec.Meta(ge=1, le=INT64_MAX)]  # the pool bounds it (MG-4.3); beyond 64 bits malformed


class Setup(msgspec.Struct, forbid_unknown_fields=True):
    """Who takes the first turn."""

    first: PlayerId


class Base(Record, tag="base"):
    """A player lays out their four aces, top first."""

    aces: list[Ace]


class Draw(Record, tag="draw"):
    """Chance: `player` draws `card` from their deck; without `card` at a paper table (an unknown card, MG-3.4)."""

    player: PlayerId
    card: Card | None = None


class Resource(Record, tag="resource"):
    """The active player puts a number card of diamonds from hand into their resource area."""

    card: Card


class Tap(Record, tag="tap"):
    """The active player taps a resource card for construction tokens."""

    card: Card


class Build(Record, tag="build"):
    """The active player puts `tokens` tokens from the pool on a component (from hand or under construction)."""

    card: Card
    tokens: Tokens


class Attack(Record, tag="attack"):
    """The active player declares a battle against `target`'s base with `units` (named by their heart cards).

    `ace` is the ace of that base the battle is against; without it, the top ace.
    """

    target: PlayerId
    units: list[Card]
    ace: Ace | None = None


class Engage(Record, tag="engage"):
    """The defender engages attackers: own guardian unit -> the attacking unit it engages."""

    pairs: dict[Card, Card]


class Play(Record, tag="play"):
    """A player plays an event card or a joker; `target` is a card of `owner` (default: the player)."""

    card: Card
    target: Card | None = None
    owner: PlayerId | None = None


class TapBase(Record, tag="tap_base"):
    """A player taps their base for +2 of the top ace's suit, on `target` where the suit needs one."""

    target: Card | None = None


class Move(Record, tag="move"):
    """The active player moves a unit to the other zone."""

    unit: Card
    zone: Zone


class Assemble(Record, tag="assemble"):
    """The active player makes a unit from three complete components of one class."""

    life: Card
    armor: Card
    weapon: Card


class Pass(Record, tag="pass"):
    """The acting player ends their current step."""


RECORDS: tuple[type[Record], ...] = (Base, Draw, Resource, Tap, Build, Attack, Engage, Play, TapBase, Move, Assemble, Pass)
