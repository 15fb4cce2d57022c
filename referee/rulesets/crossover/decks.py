"""Decks: the checks every declared deck passes (XO-1.2 to XO-1.6), the deck as a list, and the built-in decks bots play.

A declared deck is translated card by card, once per deck (a player brings
the same deck to every round). `start` and `referee deck check` run the same
checks (`problems`). Every built-in card name is invented.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

import msgspec

from referee.confusable import skeleton
from referee.decks import DeckList, DeckMalformed, DeckRules, Entry, card_of
from referee.ruleset import Illegal
from referee.rulesets.crossover.state import Roster, Side
from referee.rulesets.crossover.translations import Mapped, Untranslatable, games, title, translator
from schemas import crossover as xo
from schemas.crossover import Card, Deck

DECK_SIZE = 20


def check(player: str, deck: xo.Deck) -> Side:
    """XO-1.2 to XO-1.6: one player's deck, translated card by card (once per deck: one seen before passed)."""
    key = _ENCODE(deck)
    roster = _seen.get(key)
    if roster is None:
        roster = _roster(player, deck)
        if len(_seen) >= SEEN_LIMIT:
            del _seen[next(iter(_seen))]  # the oldest
        _seen[key] = roster
    return Side(deck.game, roster)


def _roster(player: str, deck: xo.Deck) -> Roster:
    """A deck not seen before, checked in rule order (the first problem is raised) and translated."""
    cards: dict[str, Mapped] = {}
    for problem in problems(deck, f"{player}'s", cards):
        raise problem
    return Roster(cards)


def problems(deck: xo.Deck, whose: str = "the", translated: dict[str, Mapped] | None = None) -> Iterator[Illegal]:
    """Every rule of XO-1.2 to XO-1.6 the deck breaks, in the order the rules are checked.

    Each card that translates is added to `translated` (by name), so a caller
    that finds no problem has the whole translated deck.
    """
    if deck.game not in _GAMES:
        yield Illegal("XO-1.4", f"{whose} deck is of {deck.game!r}, which has no translation (known: {', '.join(games())})")
        return
    if len(deck.cards) != DECK_SIZE:
        yield Illegal("XO-1.2", f"{whose} deck holds {len(deck.cards)} cards; a deck holds exactly {DECK_SIZE}")
    translate = translator(deck.game)
    cards = {} if translated is None else translated
    looks: dict[str, str] = {}  # each name's skeleton (T-164): a copy that only looks the same is the same card
    for card in deck.cards:
        first = looks.setdefault(skeleton(card.name), card.name)
        if card.name in cards or first != card.name:
            alike = "" if first == card.name else f" ({card.name!r} looks like {first!r})"
            yield Illegal("XO-1.3", f"{whose} deck holds {first} twice{alike}; one copy of each card is allowed", card.name)
            continue
        try:
            cards[card.name] = translate(card)
        except Untranslatable as exc:
            yield Illegal("XO-1.5", f"{whose} deck: {exc}", card.name)
    if not any(mapped.type == "leader" for mapped in cards.values()):
        yield Illegal("XO-1.6", f"{whose} deck holds no leader")


# A player brings one deck to every round of an event, so a deck that passed is not checked or
# translated again: its canonical JSON -> its Roster (a Roster is never changed; a game copies what
# it alters). Keyed by the deck's value, not the object: encoding a deck costs about 6 us, its
# checks and translation about 120 us: without this memo crossover replays at about two thirds of
# the speed (bench/replay.py --rulesets crossover: 210,000-229,000 records/s against 317,000-371,000);
# nothing else depends on it: without it each deck is checked and translated afresh.
_seen: dict[bytes, Roster] = {}
_ENCODE = msgspec.json.Encoder().encode
SEEN_LIMIT = 256  # as many decks as the decoder remembers (referee/patterns.py REMEMBERED_LIMIT)
_GAMES = frozenset(games())
_WORD = re.compile(r"[a-z0-9][a-z0-9 _-]{0,31}")
_STAT = re.compile(r"(?P<name>.+?)\s+(?P<value>-?[0-9]{1,9})")


class CrossoverDecks(DeckRules[xo.Deck]):
    """Crossover's deck rules, and its decks as lists: a `game:` line, then one card a line with its type and numbers.

    A card line is `Name (kind: stat N, stat N; trait, trait)`; a built-in card
    of the deck's game may be written by name alone (RULES.md, "Deck lists").
    """

    copies = False
    fields = ("game",)
    deck_type = xo.Deck

    def deck_of(self, setup: xo.Setup, player: str) -> xo.Deck:
        return setup.decks[player]

    def with_deck(self, setup: xo.Setup, player: str, deck: xo.Deck) -> xo.Setup:
        return msgspec.structs.replace(setup, decks=setup.decks | {player: deck})

    def problems(self, deck: xo.Deck, whose: str = "the") -> Iterator[Illegal]:
        return problems(deck, whose)

    def from_list(self, listed: DeckList) -> xo.Deck:
        game = listed.fields.get("game")
        if game is None:
            raise DeckMalformed(f"the list must name its game on a line such as `game: dothack` (games: {', '.join(games())})", None, "game")
        if not _WORD.fullmatch(game):
            raise DeckMalformed(f"{game!r} is not a game's id (games: {', '.join(games())})", listed.lines["game"], "game")
        built_in = {card.name: card for card in DECKS.get(game, ())}
        cards: list[Card] = []
        for entry in listed.entries:
            card = card_of(entry, _card_of, built_in, f"the built-in {game} cards", "monster: strength 2")
            cards += [card] * entry.count
        return xo.Deck(game=game, cards=tuple(cards))

    def to_list(self, deck: xo.Deck) -> DeckList:
        return DeckList({"game": deck.game}, [Entry(card.name, 1, _details(card)) for card in deck.cards])

    def facets(self, deck: xo.Deck) -> dict[str, str]:
        leaders = [card.name for card in deck.cards if _is_leader(deck.game, card)]
        return {"game": title(deck.game) if deck.game in _GAMES else deck.game, "leaders": ", ".join(leaders) or "none"}

    def size(self, deck: xo.Deck) -> int:
        return len(deck.cards)


def _is_leader(game: str, card: Card) -> bool:
    """Whether `card` translates to a leader (False for a card that does not translate)."""
    if game not in _GAMES:
        return False
    try:
        return translator(game)(card).type == "leader"
    except Untranslatable:
        return False


def _details(card: Card) -> str:
    """`kind: stat N, ...; trait, ...` (numbers and traits sorted, so equal cards read alike)."""
    text = card.kind
    if card.stats:
        text += ": " + ", ".join(f"{name} {value}" for name, value in sorted(card.stats.items()))
    if card.traits:
        text += "; " + ", ".join(sorted(card.traits))
    return text


def _card_of(entry: Entry) -> Card:
    """The card a line's details describe (case does not matter in them)."""
    head, _, traits_text = entry.details.partition(";")
    kind, _, stats_text = head.partition(":")

    def word(text: str, what: str) -> str:
        text = " ".join(text.lower().split())
        if not _WORD.fullmatch(text):
            raise DeckMalformed(f"{entry.name}: {what} {text!r} is not a word of lower-case letters, digits, spaces, _ or -", entry.line, "details")
        return text

    stats: dict[str, int] = {}
    for item in filter(None, (part.strip() for part in stats_text.split(","))):
        found = _STAT.fullmatch(item)
        if found is None:
            raise DeckMalformed(f"{entry.name}: {item!r} is not a number with its name, as in `strength 2`", entry.line, "details")
        name = word(found.group("name"), "the number's name")
        if name in stats:
            raise DeckMalformed(f"{entry.name}: {name} is given twice", entry.line, "details")
        stats[name] = int(found.group("value"))
    traits = tuple(word(t, "the trait") for t in traits_text.split(",") if t.strip())
    return Card(name=entry.name, kind=word(kind, "the type"), stats=stats, traits=traits)


RULES = CrossoverDecks()


def _card(name: str, kind: str, *traits: str, **stats: int) -> Card:
    return Card(name=name, kind=kind, stats=stats, traits=traits)


DECKS: dict[str, tuple[Card, ...]] = {
    "dothack": (
        _card("Wavemaster Ilse", "pc", destiny=2, level=3),
        _card("Heavy Blade Corvin", "pc", destiny=3),
        _card("Lance Knight Mireya", "pc", destiny=1),
        *(_card(n, "monster", strength=s) for n, s in [
            ("Goblin Scout", 1), ("Bone Serpent", 3), ("Ashen Wolf", 2), ("Marsh Lurker", 2), ("Crystal Golem", 4),
            ("Rust Beetle", 1), ("Cinder Imp", 2), ("Hollow Sentry", 3), ("Glass Moth", 1),
        ]),
        _card("Ember Gauntlet", "item", strength=2, endurance=0),
        _card("Oak Buckler", "item", strength=0, endurance=2),
        _card("Runed Halberd", "item", strength=1, endurance=1),
        _card("Plain Charm", "item", strength=0, endurance=0),
        _card("Parry Stance", "action"),
        _card("Smoke Veil", "action"),
        _card("Server Festival", "event"),
        _card("Data Bloom", "event"),
    ),
    "stccg1e": (
        _card("USS Meridian", "ship", staffing=2),
        _card("Scout Vessel Tarn", "ship", staffing=1),
        _card("Cargo Hauler Venn", "ship", staffing=3),
        *(_card(n, "personnel", integrity=i, cunning=c) for n, i, c in [
            ("Lt. Adaya Roe", 6, 7), ("Ensign Pell", 5, 4), ("Dr. Halvorsen", 8, 8), ("Chief Okafor", 7, 6),
            ("Cmdr. Vasq", 6, 9), ("Sgt. Brannock", 5, 5), ("Counselor Ythe", 9, 7), ("Officer Dree", 4, 6),
            ("Engineer Lomax", 7, 5),
        ]),
        *(_card(n, "equipment") for n in ("Phase Rifle Mk2", "Tricorder Kit", "Medical Satchel", "Thermal Suit")),
        _card("Subspace Relay", "event"),
        _card("Shore Leave", "event"),
        _card("Emergency Transport", "interrupt"),
        _card("Red Alert Call", "interrupt"),
    ),
    "stccg2e": (
        _card("USS Halcyon", "ship", range=8, weapons=7, shields=8),
        *(_card(n, "personnel", strength=s, cunning=c) for n, s, c in [
            ("Ensign Tamsin", 5, 5), ("Lt. Gorev", 6, 6), ("Dr. Ilari", 4, 7), ("Cadet Birn", 3, 4),
            ("Capt. Osterman", 6, 8), ("Specialist Quen", 7, 5), ("Security Chief Raal", 8, 4),
            ("Pilot Jessa Moor", 5, 6), ("Attache Venn-Ro", 4, 7), ("Yeoman Castell", 5, 3), ("Medic Arlo", 3, 6),
        ]),
        *(_card(n, "equipment") for n in ("Phaser Array Type-3", "Combat Visor", "Field Kit")),
        _card("Long-Range Scan", "event"),
        _card("Diplomatic Pouch", "event"),
        _card("Evasive Pattern", "interrupt"),
        _card("Cover Fire", "interrupt"),
        _card("Hail Frequency", "interrupt"),
    ),
    "mtg": (
        _card("Grand Marshal Orra", "creature", "legendary", "white", power=2, toughness=3),
        _card("Vexa, Ember Queen", "creature", "legendary", "red", power=3, toughness=2),
        *(_card(n, "creature", *t, power=p) for n, t, p in [
            ("Hill Skirmisher", (), 2), ("Thornback Boar", (), 3), ("Stone Bulwark", ("wall",), 0),
            ("Dawn Lancer", ("first strike",), 2), ("Marsh Tender", (), 1), ("Sky Courier", ("flying",), 1),
            ("Iron Sentinel", ("wall",), 1), ("Blade Dancer", ("first strike",), 3), ("Wild Yearling", (), 2),
        ]),
        _card("Fury Mantle", "aura", "red"),
        _card("Warden's Ward", "aura", "white"),
        _card("Dual Standard", "aura", "red", "white"),
        _card("Verdant Cloak", "aura", "green"),
        _card("Ponder the Deep", "instant", "blue"),
        _card("Arcane Insight", "instant", "blue"),
        _card("Flash Volley", "instant", "red"),
        _card("Sudden Rebuff", "instant", "red"),
        _card("Molten Parry", "instant", "red"),
    ),
}


def deal(players: list[str], rng: random.Random) -> dict[str, Deck]:
    """A built-in deck for each player: the four games in a random order, repeating past four seats."""
    order = sorted(DECKS)
    rng.shuffle(order)
    return {p: Deck(game=order[i % len(order)], cards=DECKS[order[i % len(order)]]) for i, p in enumerate(players)}
