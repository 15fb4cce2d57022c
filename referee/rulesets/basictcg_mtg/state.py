"""The basictcg-mtg state: what lies on each card in play, each player's zones, the whole game.

Also the numbers the rules read off a card in play: whether it is a creature,
its level, power and stamina, whether damage removes it, and a player's total.
Decks are unordered sets of card ids, because the log names every card drawn.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

import msgspec

from referee.rulesets.basictcg_mtg.cards import Card
from schemas.verdict import Result


class InPlay(msgspec.Struct, gc=False):
    """A card on the table and what lies on it: tokens, this turn's bonus and damage, and in which turns
    it came into play and last attacked (BT-5.2: `fresh` and `attacked` compare them with the turn, so a
    new turn need not reset them).

    A Struct because cards come into play on most turns: it is made in C, three times faster than a
    class with __init__ (gc=False: it holds only numbers, so it is in no reference cycle).
    """

    face_down: bool
    since: int  # the turn it came into play
    tokens: int = 0
    boost: int = 0
    damage: int = 0
    attacked_in: int = 0  # the last turn it attacked in (turns count from 1)


class Side:
    """One player's zones. `field` maps each card id in play to what lies on it."""

    __slots__ = ("deck", "discard", "field", "hand", "levels")

    def __init__(self, deck: set[str]) -> None:
        self.deck = deck
        self.hand: set[str] = set()
        self.field: dict[str, InPlay] = {}
        self.discard: set[str] = set()
        # BT-11.3: the levels of the cards in `field`, kept as cards come, go and take tokens, because
        # every turn's end reads it (cards are added and tokens put only in game.py; removed in to_discard)
        self.levels = 0


class State:
    """The whole game: every card, every side, whose turn and moment it is, and what waits."""

    def __init__(
        self, players: list[str], first: str, cards: dict[str, Card], owner: dict[str, str], decks: Mapping[str, Iterable[str]], threshold: int
    ) -> None:
        self.players = players
        self.cards = cards  # card id -> its declaration's Card, shared by the copies of one name
        self.owner = owner  # card id -> the player whose deck holds it
        self.sides = {p: Side(set(decks[p])) for p in players}
        self.threshold = threshold
        # Whether a total may have reached the threshold since a turn's end last found none there (BT-11.3):
        # set wherever a total grows to it (game.py: material, summon; any tokens), so that most turns'
        # ends need not look at every player
        self.reached = threshold <= 0
        self.active = first
        self.turn = 1
        self.phase = "draw"  # draw, main, block, regen, over
        self.draws: list[str] = []  # players owed a draw, in order
        self.free_used = False
        self.attack: tuple[str, str] | None = None  # attacker, target
        self.defender = ""
        self.doomed: list[str] = []  # regenerating creatures waiting for their controller's answer
        self.resume = "main"  # where play goes once `doomed` is empty: main, block or end
        self.left: list[str] = []  # players who left, in order
        self.effects = 0
        self.outcome: Result | None = None
        # Every card in play that may carry a bonus or damage, with what lies on it: the turn's end looks
        # only at these, not at the whole table, and most turns it is empty (added wherever game.py or
        # fight sets either; cards that left play since may stay in it, and never return)
        self.marked: dict[str, InPlay] = {}
        self.next_seat = seats_after(players, [])  # seat -> the next player clockwise still in the game
        # record type -> handler; every entry refuses once the game is over (referee.ruleset.TableRuleset, flow.finish)
        self.handlers: dict[type, Callable[[State, Any], None]] = {}

    def in_game(self) -> list[str]:
        """Players still in the game, in seat order."""
        return [p for p in self.players if p not in self.left]


def seats_after(players: list[str], left: list[str]) -> dict[str, str]:
    """Each seat's next player clockwise who has not left (BT-11.4); the player themselves when alone."""
    after = {}
    for at, player in enumerate(players):
        after[player] = player
        for other in players[at + 1 :] + players[:at]:
            if other not in left:
                after[player] = other
                break
    return after


def on_table(state: State, card: str) -> InPlay:
    """What lies on `card`, which is in play."""
    return state.sides[state.owner[card]].field[card]


def fresh(state: State, on: InPlay) -> bool:
    """BT-5.2: the card came into play this turn."""
    return on.since == state.turn


def attacked(state: State, on: InPlay) -> bool:
    """BT-5.2: the card has attacked this turn."""
    return on.attacked_in == state.turn


def is_creature(state: State, card: str, on: InPlay) -> bool:
    """BT-5.1: a face-up card whose types include creature."""
    return not on.face_down and state.cards[card].creature


def card_level(state: State, card: str) -> int:
    """The level of `card`, which is in play (below)."""
    return level(state.cards[card], on_table(state, card))


def level(card: Card, on: InPlay) -> int:
    """BT-4.3/BT-8.1: a material is level 1; a face-up card its level plus its tokens."""
    return 1 if on.face_down else card.level + on.tokens


def power(card: Card, on: InPlay) -> int:
    """BT-7.2: power (level when there is none) plus tokens."""
    return (card.level if card.power is None else card.power) + on.tokens


def stamina(card: Card, on: InPlay) -> int:
    """BT-7.2: stamina (level when there is none) plus tokens and this turn's bonus."""
    return (card.level if card.stamina is None else card.stamina) + on.tokens + on.boost


def overdamaged(state: State, cards: Iterable[str]) -> list[str]:
    """BT-8.3: the cards among `cards` whose damage reaches their level, tokens and bonus."""
    out = []
    for card in cards:
        on = on_table(state, card)
        if on.damage and on.damage >= (1 if on.face_down else state.cards[card].level + on.tokens + on.boost):
            out.append(card)
    return out


def to_discard(state: State, card: str) -> None:
    """A card in play goes to its owner's discard pile, face up."""
    side = state.sides[state.owner[card]]
    on = side.field.pop(card)
    side.levels -= level(state.cards[card], on)
    side.discard.add(card)


def total(state: State, player: str) -> int:
    """BT-11.3: the sum of the levels of a player's cards in play."""
    return state.sides[player].levels
