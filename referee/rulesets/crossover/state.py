"""The crossover state: each player's side, and where the game stands.

Decks are unordered sets: the log names every card drawn. Every card is kept
by name (names are unique within a deck, XO-1.3) with its translation, so the
rules only ever read `Mapped` values.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from itertools import pairwise
from typing import Any, Literal, get_args

import msgspec

from referee.rulesets.crossover.translations import Mapped
from referee.rulesets.crossover.translations.base import CardType, EventKind
from schemas.verdict import Result

Phase = Literal["opening", "play", "combat", "resolution", "over"]
# What the player in `State.actor` is asked for, once any draws owed are made.
Waiting = Literal["opening", "deal", "searched", "lead", "turn", "attack", "resolve", "refill", ""]

FULL_HIT = 2  # hits are counted in halves (XO-7.5)
HAND_SIZE = 5  # the hand a player draws and keeps (XO-4.1, XO-8.2)
Group = CardType | EventKind  # what Side.of_type looks for: cards of a crossover type, or events of a kind


# Minion and AttackInProgress are msgspec Structs, not plain classes: one comes with nearly every
# play and every attack, and a Struct is built in C, without a Python __init__ call.
class Minion(msgspec.Struct):
    """A minion in play: the equipment on it, and the half hits it has taken this skirmish."""

    equipment: list[str] = msgspec.field(default_factory=list)
    damage: int = 0


class Roster:
    """A translated deck: its cards in declared order, and who is what (never changed).

    Worked out once per distinct deck and shared by every game that plays it
    (decks.py), so the rules ask "which of these cards are events?" as one set
    intersection instead of a loop over the cards.
    """

    __slots__ = ("abilities", "cards", "groups", "initiatives", "names", "rank")

    def __init__(self, cards: dict[str, Mapped]) -> None:
        self.cards = cards
        self.names = frozenset(cards)  # a set copies from a set quicker than from a dict's keys
        self.rank = {name: i for i, name in enumerate(cards)}
        # crossover type, and event kind, -> the names of those cards (plain str keys: a quick lookup)
        groups: dict[Group, set[str]] = {kind: set() for kind in (*get_args(CardType), *get_args(EventKind))}
        for name, card in cards.items():
            groups[card.type].add(name)
            if card.type == "event" and card.event is not None:
                groups[card.event].add(name)
        self.groups: dict[Group, frozenset[str]] = {key: frozenset(names) for key, names in groups.items()}
        self.initiatives = {name: card.initiative for name, card in cards.items()}
        self.abilities = {
            ability: frozenset(n for n, card in cards.items() if getattr(card, ability)) for ability in ("double_attack", "endurance")
        }


class Side:
    """One player's deck, hand, cards in play, discard pile and skirmishes won."""

    def __init__(self, game: str, roster: Roster) -> None:
        self.game = game
        self.cards = roster.cards  # every card of the deck, in the order it was declared
        self.rank = roster.rank
        self.groups = roster.groups  # every card of the deck of each crossover type, and every event of each kind
        self.abilities = roster.abilities
        self.initiatives = roster.initiatives
        self.deck: set[str] = set(roster.names)
        self.hand: set[str] = set()
        self.leader: str | None = None
        self.play_value = 0  # the play value of the leader in play (XO-5.2), kept by `lead`
        self.minions: dict[str, Minion] = {}  # changed only by `summon`, `kill` and `discard_minions`
        self.initiative = 0  # the sum of the minions' contributions (XO-2.6), kept as they come and go
        self.discard: set[str] = set()
        self.wins = 0

    def order(self, names: Iterable[str]) -> list[str]:
        """`names` in the order the deck declared them: the order of every listing."""
        return sorted(names, key=self.rank.__getitem__)

    def of_type(self, names: Iterable[str], kind: Group) -> list[str]:
        """The cards among `names` (distinct) of crossover type `kind`, or events of kind `kind`, in order."""
        return self.order(self.groups[kind].intersection(names))

    def holds(self, names: Iterable[str], kind: Group) -> bool:
        """Whether `of_type` would find any, without ordering them."""
        return not self.groups[kind].isdisjoint(names)

    def lead(self, leader: str) -> None:
        """`leader` is the leader in play from now on; its play value is how many plays a turn takes (XO-5.2)."""
        self.leader = leader
        self.play_value = self.cards[leader].play_value

    def summon(self, minion: str) -> None:
        """`minion` comes into play, with no equipment and no damage."""
        self.minions[minion] = Minion()
        self.initiative += self.initiatives[minion]

    def has(self, minion: str, ability: Literal["double_attack", "endurance"]) -> bool:
        """Whether `minion` has `ability`, from its own card or any equipment on it (XO-7.4: no stacking)."""
        having = self.abilities[ability]
        return minion in having or not having.isdisjoint(self.minions[minion].equipment)

    def hits(self, minion: str) -> int:
        """How many targets `minion` hits when it attacks (XO-7.2)."""
        return 2 if self.has(minion, "double_attack") else 1

    def hit(self, minion: str) -> int:
        """The half hits `minion` deals to each target (XO-7.5)."""
        return FULL_HIT // 2 if self.cards[minion].half_hits else FULL_HIT

    def toughness(self, minion: str) -> int:
        """The half hits that kill `minion` (XO-7.4)."""
        return 2 * FULL_HIT if self.has(minion, "endurance") else FULL_HIT

    def playable(self, unknown: int = 0) -> int:
        """How many cards in hand could be played this turn, one after another (XO-5.3), `unknown` of them
        unknown cards (XO-3.5: each a minion or an equipment, so each counted: the benefit of the doubt)."""
        # Every card is a leader, minion, equipment or event (Roster): all but leaders, and equipment
        # only with a minion to go on, in play or in hand.
        hand, groups = self.hand, self.groups
        count = len(hand) - len(groups["leader"] & hand) + unknown
        if not self.minions and not unknown and groups["minion"].isdisjoint(hand):
            count -= len(groups["equipment"] & hand)
        return count

    def kill(self, minion: str) -> None:
        """`minion` and its equipment go to the discard pile (XO-7.10)."""
        self.discard.update([minion, *self.minions.pop(minion).equipment])
        self.initiative -= self.initiatives[minion]

    def discard_minions(self) -> None:
        """Every minion and its equipment go to the discard pile (XO-8.1): `kill` for each, in one pass."""
        discard = self.discard
        discard.update(self.minions)
        for minion in self.minions.values():
            discard.update(minion.equipment)
        self.minions.clear()
        self.initiative = 0


class AttackInProgress(msgspec.Struct):
    """One attack of a skirmish and its response window (XO-7.6)."""

    minion: str
    targets: list[str]
    draw: bool = False  # the attacker answered with a Draw event (XO-7.8)
    stopped: set[str] = msgspec.field(default_factory=set)  # targets saved by Stop! (XO-7.7)
    done: set[str] = msgspec.field(default_factory=set)  # players who said `done` since the last response


class State:
    """The whole game."""

    def __init__(self, players: list[str], first: str, sides: dict[str, Side]) -> None:
        self.players = players
        self.first = first
        self.sides = sides
        self.alive = list(players)  # players still in, in seat order; changed only by `leave`
        start = players.index(first)
        self.clockwise = players[start:] + players[:start]  # every seat, clockwise from the first player
        self._seat()
        self.phase: Phase = "opening"
        self.round = 0
        self.actor = first  # whose opening, turn, attack or resolution it is
        self.waiting: Waiting = ""
        self.owed = 0  # cards chance must still draw for `actor`
        self.queue: list[str] = []  # players still to open or to resolve, in order
        # play phase
        self.plays = 0  # plays made this turn
        self.turn_over = False
        self.passes = 0  # passes in succession
        self.stops: set[str] = set()  # players who played Stop! this play phase (XO-5.6)
        # combat phase
        self.skirmishes: list[tuple[str, str]] = []  # (attacker, defender), in order
        self.skirmish = -1  # index of the skirmish being fought
        self.defender = ""  # its defender (its attacker is `actor`), set as the fight begins (flow.next_skirmish)
        self.won: set[str] = set()  # who won a skirmish this combat
        self.attack: AttackInProgress | None = None
        # the end
        self.placements: dict[str, int] = {}
        self.outcome: Result | None = None
        # record type -> handler; every entry refuses once the game is over (referee.ruleset.TableRuleset, flow.finish)
        self.handlers: dict[type, Callable[[State, Any], None]] = {}

    def leave(self, players: Iterable[str]) -> None:
        """`players` are out of the game from now on (together: the seats are worked out once)."""
        for player in players:
            self.alive.remove(player)
        self._seat()

    def _seat(self) -> None:
        """The seat order of the players still in, and who follows each of them (for a player out, that is
        worked out as it is asked)."""
        alive = self.alive
        self.seats = [p for p in self.clockwise if p in alive]  # read, never changed: seat_order() copies it
        # each seat and the next, the last followed by the first (zip with `strict=`, a keyword call, costs more)
        self.following: dict[str, str] = dict(pairwise(self.seats + self.seats[:1]))

    def seat_order(self) -> list[str]:
        """The players still in, clockwise from the first player (or the next one still in)."""
        return list(self.seats)

    def next_after(self, player: str) -> str:
        """The next player still in, clockwise after `player` (who may be out)."""
        following = self.following.get(player)
        if following is None:
            following = self.following[player] = self._clockwise_after(player)
        return following

    def _clockwise_after(self, player: str) -> str:
        seat = self.players.index(player)
        for step in range(1, len(self.players) + 1):
            candidate = self.players[(seat + step) % len(self.players)]
            if candidate in self.alive:
                return candidate
        raise AssertionError("no player is left")

    def asked(self) -> list[str]:
        """XO-7.6: the players the response window of the attack in progress still waits for."""
        attack = self.attack
        assert attack is not None
        attacker, defender = self.actor, self.defender
        asked = []
        if not attack.draw and attacker not in attack.done:
            side = self.sides[attacker]
            if side.holds(side.hand, "draw"):
                asked.append(attacker)
        if defender not in attack.done and not attack.stopped.issuperset(attack.targets):
            side = self.sides[defender]
            if side.holds(side.hand, "stop"):
                asked.append(defender)
        return asked
