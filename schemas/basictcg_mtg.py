"""The basictcg-mtg vocabulary: the setup (declared Magic cards, decks, scenario) and its records.

RULES.md in referee/rulesets/basictcg_mtg/ documents every field (BT-...).
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from schemas.log import PlayerId, Record, deferred, remembered, whole

CardId = Annotated[str, deferred(whole(r"[A-Za-z0-9_.-]{1,64}"))]
CardName = Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
ManaCost = Annotated[str, deferred(whole(r"(\{([0-9]{1,2}|[WUBRGCSX]|[WUBRG2]/[WUBRGP])\})*"))]
Terrain = Annotated[str, deferred(whole(r"[A-Za-z][A-Za-z -]{0,31}"))]
Colour = Literal["white", "blue", "black", "red", "green"]
CardType = Literal["creature", "land", "artifact", "enchantment", "instant", "sorcery", "planeswalker", "battle"]
Keyword = Literal["first_strike", "flying", "reach", "poison", "deathtouch", "defender", "regeneration"]
Stat = Annotated[int, msgspec.Meta(ge=0, le=99)]
Amount = Annotated[int, msgspec.Meta(ge=1, le=99)]


class CardSpec(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """One Magic card as Basic TCG reads it (BT-1.2); `text` is for people, no rule reads it."""

    cost: ManaCost
    types: Annotated[list[CardType], msgspec.Meta(min_length=1)]
    power: Stat | None = None
    stamina: Stat | None = None
    colours: list[Colour] = msgspec.field(default_factory=list)
    keywords: list[Keyword] = msgspec.field(default_factory=list)
    walk: list[Terrain] = msgspec.field(default_factory=list)
    protection: list[Colour] = msgspec.field(default_factory=list)
    terrain: list[Terrain] = msgspec.field(default_factory=list)
    text: str = ""


class Setup(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """Who goes first, the cards, each player's deck (card id -> name), the scenario and the opening hand."""

    first: PlayerId
    cards: Annotated[dict[CardName, CardSpec], remembered]  # the same pool in game after game: decoded once
    decks: dict[PlayerId, dict[CardId, CardName]]
    scenario: Literal["act_threshold"] = "act_threshold"
    threshold: Annotated[int, msgspec.Meta(ge=1, le=999)] = 15
    hand: Annotated[int, msgspec.Meta(ge=0, le=60)] = 5


class PlayerDeck(msgspec.Struct, forbid_unknown_fields=True):
    """One player's deck on its own (`referee deck`): the declarations of its cards, and the deck (card id -> name) as the setup gives it."""

    cards: dict[CardName, CardSpec]
    deck: dict[CardId, CardName]


class Draw(Record, tag="draw"):
    """Chance: `player` draws `card` from their deck (BT-3); without `card` at a paper table (an unknown card, BT-3.4)."""

    player: str
    card: CardId | None = None


class Material(Record, tag="material"):
    """The active player plays `card` face down as a level-1 material: the turn's free play (BT-4.3)."""

    card: CardId


class Summon(Record, tag="summon"):
    """The active player summons `card` face up, sacrificing the cards in `sacrifice` (BT-4.4)."""

    card: CardId
    sacrifice: list[CardId] = msgspec.field(default_factory=list)


class Attack(Record, tag="attack"):
    """The active player's `attacker` attacks `target`, a creature of another player (BT-5)."""

    attacker: CardId
    target: CardId


class Block(Record, tag="block"):
    """The defending player blocks with `blocker`, or null for no block (BT-6)."""

    blocker: CardId | None


class Regenerate(Record, tag="regenerate"):
    """`creature`'s controller discards `discard` from hand to keep it in play, or null to let it go (BT-9)."""

    creature: CardId
    discard: CardId | None


class Effect(Record, tag="effect"):
    """Card text the referee does not know: accepted, counted as unchecked, its consequences checked (BT-10)."""

    source: CardId
    text: Annotated[str, msgspec.Meta(min_length=1, max_length=500)]
    targets: list[CardId] = msgspec.field(default_factory=list)
    tokens: dict[CardId, Amount] = msgspec.field(default_factory=dict)
    boost: dict[CardId, Amount] = msgspec.field(default_factory=dict)
    damage: dict[CardId, Amount] = msgspec.field(default_factory=dict)
    destroy: list[CardId] = msgspec.field(default_factory=list)
    discard: list[CardId] = msgspec.field(default_factory=list)


class EndTurn(Record, tag="end_turn"):
    """The active player ends the turn (BT-11)."""


RECORDS: tuple[type[Record], ...] = (Draw, Material, Summon, Attack, Block, Regenerate, Effect, EndTurn)
