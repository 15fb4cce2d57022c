"""The maginot state: cards and their values, units, each player's side, the battle, the whole game.

The state holds only what a rule reads. Decks are unordered sets because the
log names every card drawn. A card name is only unique within one player's
cards, so every place that holds cards belongs to one `Side`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from schemas.maginot import Ace
from schemas.verdict import Result

NUMBERS = {str(n): n for n in range(2, 11)}
SUITS = ("S", "H", "D", "C")
ACES: tuple[Ace, ...] = ("AS", "AH", "AD", "AC")
JOKERS = ("JK1", "JK2")
DECK = frozenset([rank + suit for rank in ("A", *NUMBERS, "J", "Q", "K") for suit in SUITS] + list(JOKERS))
ACE_LIFE = 16
MAX_UNITS = 5
CLASS_RANK = {"light": 1, "medium": 2, "heavy": 3}
PART = {"H": "life", "S": "armor", "C": "weapon"}  # the component suits and what they give a unit


def suit(card: str) -> str:
    """A card's suit letter; jokers have none."""
    return "" if card in JOKERS else card[-1]


# Looked up rather than worked out, since nearly every record reads them.
# value(card): the number of a number card (2 to 10); None for aces, face cards and jokers (MG-5.1).
value: Callable[[str], int | None] = {card: NUMBERS.get(card[:-1]) for card in DECK if card not in JOKERS}.get
# is_resource(card): a number card of diamonds, which goes to the resource area (MG-4.1).
is_resource: Callable[[str], bool] = frozenset(c for c in DECK if suit(c) == "D" and value(c) is not None).__contains__
# is_component(card): a number card of spades, hearts or clubs, which is built, then assembled (MG-4.6).
is_component: Callable[[str], bool] = frozenset(c for c in DECK if suit(c) in PART and value(c) is not None).__contains__


def class_of(number: int) -> str:
    """The class of a component value (MG-5.2)."""
    return "light" if number <= 4 else "medium" if number <= 7 else "heavy"


_ORDER = {card: i for i, card in enumerate([r + s for s in SUITS for r in ("A", *NUMBERS, "J", "Q", "K")] + list(JOKERS))}


def sort_cards(cards: Iterable[str]) -> list[str]:
    """Cards by suit then rank: the order every listing and bot uses (sets have no stable order)."""
    return sorted(cards, key=_ORDER.__getitem__)


class Unit:
    """A unit: its life (heart), armor (spade) and weapon (club) cards, its queen, zone, tap and wounds."""

    __slots__ = ("armor", "life", "queen", "tapped", "weapon", "wounds", "zone")

    def __init__(self, life: str, armor: str, weapon: str) -> None:
        self.life, self.armor, self.weapon = life, armor, weapon
        self.queen: str | None = None
        self.zone = "patrol"
        self.tapped = False
        self.wounds = 0

    @property
    def unit_class(self) -> str:
        """All three components share one class (MG-5.3), so the life card's class is the unit's."""
        return class_of(value(self.life) or 0)

    def cards(self) -> list[str]:
        """Every card the unit is made of, its queen included."""
        return [self.life, self.armor, self.weapon] + ([self.queen] if self.queen else [])


def may_engage(guard: Unit, attacker: Unit) -> bool:
    """MG-6.3: light is engaged only by light, medium by light or medium, heavy by any."""
    return CLASS_RANK[guard.unit_class] <= CLASS_RANK[attacker.unit_class]


class Side:
    """One player's cards: deck, hand, discard, base, resources, construction and units."""

    __slots__ = (
        "base", "base_tapped", "building", "built", "damage", "deck", "discard", "hand", "initiative", "out", "queens",
        "resources", "ruins", "units",
    )

    def __init__(self) -> None:
        self.deck: set[str] = set(DECK) - set(ACES)
        self.hand: set[str] = set()
        self.discard: set[str] = set()
        self.base: list[str] = []  # standing aces, top first
        self.damage: dict[str, int] = {}  # standing ace -> damage on it
        self.ruins: list[str] = []  # destroyed aces, set aside until a joker restores one
        self.base_tapped = False
        self.resources: dict[str, bool] = {}  # resource card -> tapped
        self.initiative = 0  # the sum of the resources' numbers (MG-6.4), kept as each one comes into play
        self.queens: dict[str, str] = {}  # resource card -> the queen of diamonds attached to it
        self.building: dict[str, int] = {}  # component under construction -> tokens on it
        self.built: set[str] = set()  # complete components not yet assembled
        self.units: dict[str, Unit] = {}  # named by their life card (MG-5.4)
        self.out = False


class Battle:
    """One battle in progress: who fights, who engages whom, initiative, and the battle-long effects."""

    __slots__ = ("ace", "attacker", "defender", "exposed", "order", "pairs", "shielded", "units")

    def __init__(self, attacker: str, defender: str, units: list[str], ace: str | None) -> None:
        self.attacker, self.defender = attacker, defender
        self.units = units  # the attacking units
        self.ace = ace  # the defender's ace the battle is against (MG-6.2); None when no ace stands
        self.pairs: dict[str, str] = {}  # engaging unit -> attacking unit
        self.order: list[str] = []  # combat steps still to come, in reveal order (MG-6.6)
        self.shielded: set[tuple[str, str]] = set()  # (owner, unit or ace) under a king of spades
        self.exposed: set[tuple[str, str]] = set()  # (owner, unit) whose armor a king of clubs negates

    def fighters(self, player: str) -> list[str]:
        """`player`'s units fighting in this battle: the attackers, or the units engaging them."""
        if player == self.attacker:
            return list(self.units)
        return list(self.pairs) if player == self.defender else []

    def other(self, player: str) -> str:
        """The opposing side of `player` in this battle."""
        return self.defender if player == self.attacker else self.attacker


class State:
    """The whole game: every side, whose turn and phase it is, the token pool, the battle in progress."""

    def __init__(self, players: list[str], first: str) -> None:
        self.players = players
        self.first = first
        self.sides = {p: Side() for p in players}
        self.active = first
        self.turn = 0  # 0 until the first turn starts
        self.phase = "base"
        self.bases_due = list(players)  # players still to lay out their aces (MG-1.4)
        self.draws: list[str] = []  # one entry per card still to draw, in order
        self.pool = 0  # construction tokens not yet placed (MG-4.5)
        self.tapped_now: set[str] = set()  # the active player's resources tapped this turn (MG-7.2)
        self.bonus: dict[tuple[str, str], dict[str, int]] = {}  # (owner, card) -> this turn's armor/attack bonus
        self.moved: set[str] = set()  # units moved this consolidation phase (MG-8.1)
        self.assembled = False  # a unit was assembled this consolidation phase (MG-8.2)
        self.battle: Battle | None = None
        self.out_order: list[str] = []  # players out of the game, first out first
        self.outcome: Result | None = None
        # record type -> handler; every entry refuses once the game is over (referee.ruleset.TableRuleset, flow.finish)
        self.handlers: dict[type, Callable[[State, Any], None]] = {}

    def still_in(self) -> list[str]:
        """Players not out, in seat order."""
        return [p for p in self.players if not self.sides[p].out]

    def armor(self, owner: str, name: str) -> int:
        """Armor of `owner`'s unit or ace `name` now: 0 under a king of clubs (MG-7.6)."""
        if self.battle is not None and (owner, name) in self.battle.exposed:
            return 0
        extra = self.bonus[owner, name].get("armor", 0) if (owner, name) in self.bonus else 0
        unit = self.sides[owner].units.get(name)
        if unit is None:  # an ace: only this turn's bonuses armor it (MG-6.8)
            return extra
        return (value(unit.armor) or 0) + (2 if unit.queen == "QS" else 0) + extra

    def attack(self, owner: str, name: str) -> int:
        """Attack of `owner`'s unit `name` now (MG-5.5)."""
        unit = self.sides[owner].units[name]
        extra = self.bonus[owner, name].get("attack", 0) if (owner, name) in self.bonus else 0
        return (value(unit.weapon) or 0) + (2 if unit.queen == "QC" else 0) + extra

    def life(self, owner: str, name: str) -> int:
        """Life of `owner`'s unit `name` (MG-5.5)."""
        unit = self.sides[owner].units[name]
        return (value(unit.life) or 0) + (2 if unit.queen == "QH" else 0)
