"""Cards as the rules read their declarations (levels from Magic mana costs, BT-1.3), and the built-in cards bots play with.

The built-in cards are invented for the project; their names and texts are
not real Magic cards.
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Mapping

import msgspec

from schemas import basictcg_mtg as bt

_SYMBOL = re.compile(r"\{([^}]*)\}")
ONE_SHOT = frozenset({"instant", "sorcery"})
_ENCODER = msgspec.json.Encoder()
_SPECS = msgspec.json.Decoder(dict[str, bt.CardSpec])  # only for declarations already checked and encoded here


class Card(msgspec.Struct, frozen=True):
    """What a card's declaration says, as the rules read it: every copy of one name shares one Card.

    Who owns a copy is `State.owner`, by card id.
    """

    name: str
    level: int
    creature: bool
    one_shot: bool
    power: int | None
    stamina: int | None
    colours: frozenset[str]
    keywords: frozenset[str]
    walk: frozenset[str]
    protection: frozenset[str]
    terrain: frozenset[str]

    def protected_from(self, source: Card) -> bool:
        """BT-7.8 / BT-10.3: whether `source` shares a colour this card is protected from."""
        return bool(self.protection & source.colours)


def card(name: str, spec: bt.CardSpec) -> Card:
    """What the rules read from the declaration of `name`."""
    return Card(
        name,
        level_of(spec.cost),
        "creature" in spec.types,
        bool(ONE_SHOT & set(spec.types)) and "creature" not in spec.types,
        spec.power,
        spec.stamina,
        frozenset(spec.colours),
        frozenset(spec.keywords),
        frozenset(spec.walk),
        frozenset(spec.protection),
        frozenset(spec.terrain),
    )


def declared(specs: dict[str, bt.CardSpec]) -> Mapping[str, Card]:
    """The Card of each declared name (BT-1.2).

    Setups repeat their declarations (every bot game, every round of an event),
    so the Cards are worked out once per exact declaration: the cache is keyed
    on the declarations' canonical JSON, from which it decodes them again.
    It saves about 8% of a replay (bench/replay.py --rulesets basictcg-mtg, alternating runs:
    513,000-562,000 records/s with it, 464,000-513,000 without); without it the Cards are worked out afresh.
    """
    return _declared(_ENCODER.encode(specs))


@functools.lru_cache(maxsize=64)
def _declared(encoded: bytes) -> Mapping[str, Card]:
    """declared(), from the encoded declarations (shared by every caller: a Mapping, never changed)."""
    return {name: card(name, spec) for name, spec in _SPECS.decode(encoded).items()}


def level_of(cost: str) -> int:
    """BT-1.3: generic mana counts its number, every other symbol 1, {X} 0 (ruling)."""
    total = 0
    for symbol in _SYMBOL.findall(cost):
        if symbol.isdigit():
            total += int(symbol)
        elif symbol != "X":
            total += 1
    return total


def _creature(cost: str, power: int, stamina: int, colours: list[bt.Colour], **extra: object) -> bt.CardSpec:
    """A built-in creature's declaration."""
    return bt.CardSpec(cost=cost, types=["creature"], power=power, stamina=stamina, colours=colours, **extra)  # type: ignore[arg-type]


BUILT_IN: dict[str, bt.CardSpec] = {
    "Cinder Whelp": _creature("{1}{R}", 2, 1, ["red"], keywords=["flying"]),
    "Thornback Boar": _creature("{2}{G}", 3, 3, ["green"], walk=["Forest"]),
    "Gloom Adder": _creature("{B}", 1, 1, ["black"], keywords=["poison", "deathtouch"]),
    "Dawn Sentinel": _creature("{1}{W}", 1, 4, ["white"], keywords=["defender"], protection=["black"]),
    "Reef Strider": _creature("{U}", 1, 2, ["blue"], walk=["Island"]),
    "Bramble Warden": _creature("{1}{G}", 2, 2, ["green"], keywords=["reach", "regeneration"]),
    "Skylance Knight": _creature("{2}{W}{W}", 3, 3, ["white"], keywords=["flying", "first_strike"]),
    "Bog Golem": bt.CardSpec(cost="{3}", types=["artifact", "creature"], power=2, stamina=4, keywords=["regeneration"]),
    "Mire Lurker": _creature("{X}{B}", 2, 2, ["black"]),
    "Moss Hollow": bt.CardSpec(cost="", types=["land"], terrain=["Forest"]),
    "Tide Pool": bt.CardSpec(cost="", types=["land"], terrain=["Island"]),
    "Stonehide Totem": bt.CardSpec(cost="{1}", types=["artifact"]),
    "Sap Blessing": bt.CardSpec(
        cost="{G}", types=["instant"], colours=["green"], text="Put a +1/+1 token on target creature you control."
    ),
    "Spark Jolt": bt.CardSpec(cost="{R}", types=["instant"], colours=["red"], text="Deal 1 damage to target creature."),
    "Stone Skin": bt.CardSpec(
        cost="{W}", types=["instant"], colours=["white"], text="Target creature you control gets +2 stamina until end of turn."
    ),
}

# What each built-in text does, for bots that log it as an effect: (field, amount, whose card it aims at).
BOT_EFFECTS: dict[str, tuple[str, int, str]] = {
    "Sap Blessing": ("tokens", 1, "own"),
    "Spark Jolt": ("damage", 1, "enemy"),
    "Stone Skin": ("boost", 2, "own"),
}

BOT_DECK_SIZE = 24
BOT_THRESHOLD = 10


def built_in_setup(players: list[str], rng: random.Random) -> bt.Setup:
    """A random bot setup: a random first player and 24 random built-in cards a player."""
    names = sorted(BUILT_IN)
    decks = {p: {f"{p}-{n:02d}": rng.choice(names) for n in range(1, BOT_DECK_SIZE + 1)} for p in players}
    return bt.Setup(first=rng.choice(players), cards=dict(BUILT_IN), decks=decks, threshold=BOT_THRESHOLD)
