"""The stccg-multiplayer vocabulary: its setup and its records (RULES.md SG-10)."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from schemas.log import PlayerId, Record, deferred, whole

Quadrant = Literal["Alpha", "Gamma", "Delta", "Mirror"]
Kind = Literal["planet", "space", "dual"]
Span = Annotated[int, msgspec.Meta(ge=1, le=9)]
# N, Si.k / Ri.k (spoke or ring i from 1 to 6, k from 1 to 3), or Xn (an inserted location)
Place = Annotated[str, deferred(whole(r"N|[SR][1-6]\.[1-3]|X[1-9][0-9]*"))]
CardName = Annotated[str, msgspec.Meta(min_length=1, max_length=100)]
Points = Annotated[int, msgspec.Meta(ge=-1_000_000, le=1_000_000)]  # SG-8.4's ruling


class Mission(msgspec.Struct, forbid_unknown_fields=True):
    """A mission card: where it belongs and what kind of location it is."""

    name: CardName
    quadrant: Quadrant
    span: Span
    kind: Kind
    region: CardName | None = None


class Deck(msgspec.Struct, forbid_unknown_fields=True):
    """A 30-30 deck: six missions and 24 other seed cards, and a 30-card draw deck."""

    missions: list[Mission]
    seeds: list[CardName]
    draw: list[CardName]


class Setup(msgspec.Struct, forbid_unknown_fields=True):
    """Who seeds and plays first, and every player's deck."""

    first: PlayerId
    decks: dict[PlayerId, Deck]


class SeedMission(Record, tag="seed_mission"):
    """A player seeds `mission` on `place`, shifting the missions along `shift` first if given."""

    mission: CardName
    place: Place
    shift: list[Place] | None = None


class SeedDilemmas(Record, tag="seed_dilemmas"):
    """A player seeds `cards` (one or more) under the mission at `place`."""

    place: Place
    cards: list[CardName]


class SeedCard(Record, tag="seed_card"):
    """A player seeds one other card, at `place` or off the spaceline."""

    card: CardName
    place: Place | None = None


class Insert(Record, tag="insert"):
    """A player inserts `card` into the spaceline between two adjacent locations."""

    card: CardName
    after: Place
    before: Place
    span: Span
    planet: bool = False


class Pass(Record, tag="pass"):
    """A player seeds nothing this turn of the dilemma phase."""


class Draw(Record, tag="draw"):
    """Chance: `player` draws `card`; `extra` when a card's text grants the draw; without `card` at a paper table
    (an unknown card, SG-5.9)."""

    player: str
    card: CardName | None = None
    extra: bool = False


class ReportShip(Record, tag="report_ship"):
    """The active player puts the ship `card` from hand into play at `place`."""

    card: CardName
    place: Place


class Personnel(msgspec.Struct, forbid_unknown_fields=True):
    """A personnel card in play and the player it belongs to."""

    card: CardName
    owner: PlayerId


class Play(Record, tag="play"):
    """A player plays `card`; the targets are given for the cards whose targets a rule reads."""

    card: CardName
    source: Literal["hand", "other"] = "hand"
    players: list[str] | None = None
    ship: CardName | None = None
    personnel: list[Personnel] | None = None


class Action(Record, tag="action"):
    """Any other Star Trek play, as free text the referee does not read."""

    text: str


class Move(Record, tag="move"):
    """The active player moves `ship` along `path`; `card` names a card allowing travel between quadrants."""

    ship: CardName
    path: list[Place]
    card: CardName | None = None


class Relocate(Record, tag="relocate"):
    """`card` sends `ships` (all at one location) to the far end `to`; `planet` for a farthest planet."""

    card: CardName
    ships: list[CardName]
    to: Place
    planet: bool = False


class QSwap(Record, tag="q_swap"):
    """Q swaps each pair of locations."""

    pairs: list[tuple[Place, Place]]


class Encounter(Record, tag="encounter"):
    """The active player encounters the dilemma `card` seeded at `place`, aimed at `ship` if it needs one."""

    card: CardName
    place: Place
    ship: CardName | None = None


class BorgShipMove(Record, tag="borg_ship_move"):
    """The Borg Ship `borg` moves on to `to`, or leaves play when `to` is omitted."""

    borg: str
    to: Place | None = None


class MercenariesAttack(Record, tag="mercenaries_attack"):
    """The Rogue Borg Mercenaries `group` attack."""

    group: str


class PlasmaFireDamage(Record, tag="plasma_fire_damage"):
    """Plasma Fire damages `ship` at the end of its owner's turn."""

    ship: CardName


class Destroy(Record, tag="destroy"):
    """`ship` leaves play."""

    ship: CardName


class EndTurn(Record, tag="end_turn"):
    """The active player ends the main step, or, with an empty draw deck, the turn."""


class Final(Record, tag="final"):
    """The judge ends the game with the points of every player still in."""

    scores: dict[str, Points]


RECORDS: tuple[type[Record], ...] = (
    SeedMission, SeedDilemmas, SeedCard, Insert, Pass, Draw, ReportShip, Play, Action, Move,
    Relocate, QSwap, Encounter, BorgShipMove, MercenariesAttack, PlasmaFireDamage, Destroy, EndTurn, Final,
)  # fmt: skip
