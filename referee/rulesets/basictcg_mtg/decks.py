"""Decks: the checks of BT-1.2 to BT-1.4 that `start` makes of each deck, and a deck as a list.

On its own a deck is `PlayerDeck`: the declarations of its cards (BT-1.2)
and the deck, card id -> name, as the setup gives it (BT-1.4). As a list it
is one line a card name, with its count and its declaration in words
(`4 Cinder Whelp ({1}{R}, creature, 2/1, red, flying)`); a built-in card may
be written by name alone (RULES.md, "Deck lists").
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Mapping
from typing import get_args

import msgspec

from referee.decks import DeckList, DeckMalformed, DeckRules, Entry, card_of
from referee.ruleset import Illegal
from referee.rulesets.basictcg_mtg.cards import BUILT_IN, level_of
from schemas import basictcg_mtg as bt

TYPES: tuple[str, ...] = get_args(bt.CardType)
COLOURS: tuple[str, ...] = get_args(bt.Colour)
KEYWORDS: tuple[str, ...] = get_args(bt.Keyword)
STAT_LIMIT = 99
_COST = re.compile(r"(\{([0-9]{1,2}|[WUBRGCSX]|[WUBRG2]/[WUBRGP])\})+")
_POWER = re.compile(r"(?P<power>[0-9]+|-)\s*/\s*(?P<stamina>[0-9]+|-)")
_TERRAIN = re.compile(r"[A-Za-z][A-Za-z -]{0,31}")
_NAMED = {"walk": "walk", "protection from": "protection", "protection": "protection", "terrain": "terrain"}


def problems(cards: Mapping[str, bt.CardSpec], deck: Mapping[str, str], whose: str = "the",
             taken: set[str] | None = None) -> Iterator[Illegal]:  # fmt: skip
    """Every rule of BT-1.4 the deck breaks, card by card in deck order: a name `cards` does not declare, or a
    card id already in `taken` (the ids of the decks before it in the same game; this deck's ids are added)."""
    taken = set() if taken is None else taken
    for card_id, name in deck.items():
        if name not in cards:
            yield Illegal("BT-1.4", f"{whose} card {card_id} is {name!r}, which the setup does not declare", name)
        if card_id in taken:
            yield Illegal("BT-1.4", f"card id {card_id} is in two decks; ids must be unique", name)
        taken.add(card_id)


class BasicTcgDecks(DeckRules[bt.PlayerDeck]):
    """basictcg-mtg's deck rules (BT-1.4: no size, no limit on copies), and its decks as lists."""

    deck_type = bt.PlayerDeck

    def deck_of(self, setup: bt.Setup, player: str) -> bt.PlayerDeck:
        deck = setup.decks[player]
        names = set(deck.values())
        return bt.PlayerDeck({name: spec for name, spec in setup.cards.items() if name in names}, dict(deck))

    def with_deck(self, setup: bt.Setup, player: str, deck: bt.PlayerDeck) -> bt.Setup:
        """The player's deck under ids of their own (`PLAYER-1`, ...: an id is in one deck only, BT-1.4)."""
        ids = {f"{player}-{n}": name for n, name in enumerate(deck.deck.values(), start=1)}
        return msgspec.structs.replace(setup, cards=setup.cards | deck.cards, decks=setup.decks | {player: ids})

    def problems(self, deck: bt.PlayerDeck, whose: str = "the") -> Iterator[Illegal]:
        return problems(deck.cards, deck.deck, whose)

    def from_list(self, listed: DeckList) -> bt.PlayerDeck:
        cards: dict[str, bt.CardSpec] = {}
        where: dict[str, int] = {}
        deck: dict[str, str] = {}
        for entry in listed.entries:
            spec = card_of(entry, _spec, BUILT_IN, "the built-in cards", "{1}{R}, creature, 2/1, red")
            if entry.name in cards and _details(cards[entry.name]) != _details(spec):
                raise DeckMalformed(f"{entry.name} is declared twice, differently (lines {where[entry.name]} and {entry.line})",
                                    entry.line, "details")  # fmt: skip
            cards[entry.name], where[entry.name] = spec, entry.line
            for _ in range(entry.count):
                deck[f"c{len(deck) + 1}"] = entry.name
        return bt.PlayerDeck(cards, deck)

    def to_list(self, deck: bt.PlayerDeck) -> DeckList:
        counts = Counter(deck.deck.values())
        return DeckList({}, [Entry(name, n, _details(deck.cards[name]) if name in deck.cards else "") for name, n in counts.items()])

    def facets(self, deck: bt.PlayerDeck) -> dict[str, str]:
        colours = {c for name in set(deck.deck.values()) if name in deck.cards for c in deck.cards[name].colours}
        return {"colours": " + ".join(c for c in COLOURS if c in colours) or "colourless"}

    def summary(self, deck: bt.PlayerDeck) -> str:
        """The facets, and the total level of the deck's cards (BT-1.3)."""
        level = sum(level_of(deck.cards[name].cost) for name in deck.deck.values() if name in deck.cards)
        return f"{super().summary(deck)}; total level {level}"

    def size(self, deck: bt.PlayerDeck) -> int:
        return len(deck.deck)


def _details(spec: bt.CardSpec) -> str:
    """A declaration in words: cost, types, power/stamina, colours, keywords, walk, protection, terrain (not the text)."""
    items = [spec.cost] if spec.cost else []
    items += spec.types
    if spec.power is not None or spec.stamina is not None:
        items.append(f"{'-' if spec.power is None else spec.power}/{'-' if spec.stamina is None else spec.stamina}")
    items += spec.colours
    items += spec.keywords
    items += [f"walk {t}" for t in spec.walk] + [f"protection from {c}" for c in spec.protection] + [f"terrain {t}" for t in spec.terrain]
    return ", ".join(items)


def _spec(entry: Entry) -> bt.CardSpec:
    """The declaration a line's details give (words in any order; types, colours and keywords in any case)."""
    cost, power, stamina = "", None, None
    found: dict[str, list[str]] = {"types": [], "colours": [], "keywords": [], "walk": [], "protection": [], "terrain": []}

    def bad(message: str) -> DeckMalformed:
        return DeckMalformed(f"{entry.name}: {message}", entry.line, "details")

    for item in filter(None, (part.strip() for part in entry.details.split(","))):
        word = item.lower().replace(" ", "_")
        named = next((key for key in _NAMED if item.lower().startswith(key + " ")), None)
        if item.startswith("{"):
            if not _COST.fullmatch(item):
                raise bad(f"{item!r} is not a Magic mana cost such as {{2}}{{G}}{{G}}")
            cost = item
        elif match := _POWER.fullmatch(item):
            power, stamina = (None if v == "-" else int(v) for v in (match.group("power"), match.group("stamina")))
            if max(power or 0, stamina or 0) > STAT_LIMIT:
                raise bad(f"power and stamina are 0 to {STAT_LIMIT}")
        elif word in TYPES:
            found["types"].append(word)
        elif word in COLOURS:
            found["colours"].append(word)
        elif word in KEYWORDS:
            found["keywords"].append(word)
        elif named is not None:
            value = item[len(named) :].strip()
            key = _NAMED[named]
            if key == "protection":
                value = value.lower()
                if value not in COLOURS:
                    raise bad(f"protection is from a colour ({', '.join(COLOURS)}), not {value!r}")
            elif not _TERRAIN.fullmatch(value):
                raise bad(f"{value!r} is not a terrain (letters, spaces and -, at most 32)")
            found[key].append(value)
        else:
            raise bad(f"{item!r} is not a cost, a type, power/stamina (2/1), a colour, a keyword, "
                      "`walk TERRAIN`, `protection from COLOUR` or `terrain TERRAIN`")  # fmt: skip
    if not found["types"]:
        raise bad(f"a card needs a type ({', '.join(TYPES)})")
    return bt.CardSpec(cost, found["types"], power, stamina, **{k: v for k, v in found.items() if k != "types"})  # type: ignore[arg-type]


RULES = BasicTcgDecks()
