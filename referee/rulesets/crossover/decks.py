"""Decks: the checks every declared deck passes (XO-1.2 to XO-1.6), and the built-in decks bots play.

A declared deck is translated card by card, once per deck (a player brings
the same deck to every round). Every built-in card name is invented.
"""

from __future__ import annotations

import random

from referee.ruleset import Illegal
from referee.rulesets.crossover.state import Roster, Side
from referee.rulesets.crossover.translations import Mapped, Untranslatable, games, translator
from schemas import crossover as xo
from schemas.crossover import Card, Deck

DECK_SIZE = 20


def check(player: str, deck: xo.Deck) -> Side:
    """XO-1.2 to XO-1.6: one player's deck, translated card by card (once per deck: one seen before passed)."""
    seen = _seen.get(id(deck))
    if seen is None:
        roster = _roster(player, deck)
        if len(_seen) >= SEEN_LIMIT:
            del _seen[next(iter(_seen))]  # the oldest
        seen = _seen[id(deck)] = (deck, roster)
    return Side(deck.game, seen[1])


def _roster(player: str, deck: xo.Deck) -> Roster:
    """A deck not seen before, checked in rule order and translated."""
    if deck.game not in _GAMES:
        raise Illegal("XO-1.4", f"{player}'s deck is of {deck.game!r}, which has no translation (known: {', '.join(games())})")
    if len(deck.cards) != DECK_SIZE:
        raise Illegal("XO-1.2", f"{player}'s deck holds {len(deck.cards)} cards; a deck holds exactly {DECK_SIZE}")
    try:
        roster = Roster(_translated(deck))
    except Illegal as exc:
        raise Illegal(exc.rule, f"{player}'s deck{exc.message}") from None
    if not roster.groups["leader"]:
        raise Illegal("XO-1.6", f"{player}'s deck holds no leader")
    return roster


# A player brings one deck to every round of an event, and the decoder hands every
# game the same Deck object for the same text (schemas.log.remembered), so a deck
# seen before is not checked or translated again: id(Deck) -> (that Deck, its Roster). The
# entry holds the Deck, so its id cannot pass to another object while remembered;
# Deck and Card are frozen (schemas/crossover.py), so the Deck cannot change either
# (but for a card's `stats` dict, which nothing may write to).
_seen: dict[int, tuple[Deck, Roster]] = {}
SEEN_LIMIT = 256  # as many decks as the decoder remembers (referee/patterns.py REMEMBERED_LIMIT)
_GAMES = frozenset(games())


def _translated(deck: xo.Deck) -> dict[str, Mapped]:
    """The deck's cards by name with their translations. Errors carry the message's end; the caller names the player."""
    translate = translator(deck.game)
    cards: dict[str, Mapped] = {}
    for card in deck.cards:
        if card.name in cards:
            raise Illegal("XO-1.3", f" holds {card.name} twice; one copy of each card is allowed")
        try:
            cards[card.name] = translate(card)
        except Untranslatable as exc:
            raise Illegal("XO-1.5", f": {exc}") from None
    return cards


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
