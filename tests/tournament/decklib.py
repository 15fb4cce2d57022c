"""Crossover games and lists for the deck tests: each player brings one built-in deck, its list written by the referee."""

from __future__ import annotations

import random
from pathlib import Path

import msgspec

from referee.bots import play
from referee.decks import write_text
from referee.logio import encode_lines
from referee.rulesets.crossover.decks import DECKS, RULES
from schemas.crossover import Card, Deck, Setup
from schemas.log import LOG_FORMAT, Event, Header

GAMES = sorted(DECKS)


def deck_of(player: str) -> Deck:
    """The player's deck: a built-in one, chosen by the player's id."""
    game = GAMES[sum(map(ord, player)) % len(GAMES)]
    return Deck(game=game, cards=DECKS[game])


def list_text(deck: Deck) -> str:
    return write_text(RULES, deck)


def write_lists(folder: Path, players: list[str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for player in players:
        (folder / f"{player}.txt").write_text(list_text(deck_of(player)))
    return folder


def swapped(deck: Deck) -> Deck:
    """The deck with one number of its last card with numbers raised by one (a card with other stats), as a
    player who changed a card after registering would bring it."""
    at = max(n for n, card in enumerate(deck.cards) if card.stats)
    card = deck.cards[at]
    stat = sorted(card.stats)[0]
    changed = Card(card.name, card.kind, dict(card.stats) | {stat: card.stats[stat] + 1}, card.traits)
    return Deck(game=deck.game, cards=(*deck.cards[:at], changed, *deck.cards[at + 1:]))


def crossover_log(a: str, b: str, seed: int, *, event: Event | None = None, decks: dict[str, Deck] | None = None) -> bytes:
    """A whole bot game of crossover between a and b with their own decks (or `decks`)."""
    return table_log([a, b], seed, event=event, decks=decks)


def table_log(players: list[str], seed: int, *, event: Event | None = None, decks: dict[str, Deck] | None = None) -> bytes:
    """A whole bot game of crossover at a table of `players` (seat order; seat one first) with their own decks (or `decks`)."""
    chosen = {p: deck_of(p) for p in players} | (decks or {})
    first = players[0] if len(players) > 2 else random.Random(seed).choice(players)
    setup = Setup(first=first, decks=chosen)
    header = Header(
        log=LOG_FORMAT, ruleset="crossover", game=f"test-{seed}", players=players,
        setup=msgspec.Raw(msgspec.json.encode(setup)), event=event,
    )
    return b"".join(line + b"\n" for line in encode_lines(header, play(header, seed)))
