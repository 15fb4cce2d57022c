"""Built-in decks for bot games, one per translation. Every card name is invented."""

from __future__ import annotations

import random

from schemas.crossover import Card, Deck


def _card(name: str, kind: str, *traits: str, **stats: int) -> Card:
    return Card(name=name, kind=kind, stats=stats, traits=list(traits))


DECKS: dict[str, list[Card]] = {
    "dothack": [
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
    ],
    "stccg1e": [
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
    ],
    "stccg2e": [
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
    ],
    "mtg": [
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
    ],
}


def deal(players: list[str], rng: random.Random) -> dict[str, Deck]:
    """A built-in deck for each player: the four games in a random order, repeating past four seats."""
    order = sorted(DECKS)
    rng.shuffle(order)
    return {p: Deck(game=order[i % len(order)], cards=list(DECKS[order[i % len(order)]])) for i, p in enumerate(players)}
