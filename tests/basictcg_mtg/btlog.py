"""Helpers for basictcg-mtg tests: test cards, games built by applying real records, and assertions."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from referee.logio import record_decoder, setup_decoder
from referee.ruleset import Illegal
from referee.rulesets import get
from referee.rulesets.basictcg_mtg.game import State
from schemas.log import Header

BT = get("basictcg-mtg")
DECODE = record_decoder("basictcg-mtg").decode


def creature(cost: str, power: int | None, stamina: int | None, *keywords: str, **extra: Any) -> dict[str, Any]:
    card: dict[str, Any] = {"cost": cost, "types": ["creature"], "keywords": list(keywords), **extra}
    if power is not None:
        card |= {"power": power, "stamina": stamina}
    return card


# Level-0 creatures (cost "") can be summoned any number of times a turn, which keeps tests short.
CARDS: dict[str, dict[str, Any]] = {
    "Bear": creature("", 2, 2, colours=["green"]),
    "Ox": creature("", 1, 4),
    "Hawk": creature("", 1, 1, "flying"),
    "Spider": creature("", 1, 3, "reach"),
    "Wall": creature("", 0, 5, "defender"),
    "Duelist": creature("", 2, 2, "first_strike"),
    "Adder": creature("", 1, 1, "poison"),
    "Asp": creature("", 1, 5, "deathtouch"),
    "Viper": creature("", 1, 1, "deathtouch"),
    "Troll": creature("", 2, 2, "regeneration"),
    "Paladin": creature("", 2, 2, colours=["white"], protection=["black"]),
    "Shade": creature("", 3, 3, colours=["black"]),
    "Strider": creature("", 2, 2, walk=["Forest"]),
    "Sage": creature("{U}", 1, 5, colours=["blue"]),
    "Knight": creature("{1}{W}", 3, 3, colours=["white"]),
    "Golem": creature("{2}", None, None),
    "Giant": creature("{3}{G}", 4, 4, colours=["green"]),
    "Grove": {"cost": "", "types": ["land"], "terrain": ["Forest"]},
    "Totem": {"cost": "{1}", "types": ["artifact"]},
    "Bolt": {"cost": "{R}", "types": ["instant"], "colours": ["red"], "text": "Deal 2 damage to target creature."},
    "Hex": {"cost": "{B}", "types": ["sorcery"], "colours": ["black"]},
}


def ids(player: str, names: list[str]) -> dict[str, str]:
    """Card ids for `player`'s cards: `a-bear`, `a-bear2`, ... (first letter of the player)."""
    deck: dict[str, str] = {}
    for name in names:
        base = f"{player[0]}-{name.lower()}"
        card_id, n = base, 1
        while card_id in deck:
            n += 1
            card_id = f"{base}{n}"
        deck[card_id] = name
    return deck


def setup(decks: dict[str, list[str]], **options: Any) -> dict[str, Any]:
    return {"first": next(iter(decks)), "cards": CARDS, "decks": {p: ids(p, names) for p, names in decks.items()}, **options}


def start(setup_data: dict[str, Any], players: list[str] | None = None) -> State:
    """The first state of a game (raises Illegal for a bad setup)."""
    players = players or list(setup_data["decks"])
    header = Header(log="referee-log/1", ruleset="basictcg-mtg", game="t", players=players, setup=msgspec.Raw(b"{}"))
    return BT.start(header, setup_decoder("basictcg-mtg").decode(msgspec.json.encode(setup_data)))


def new(decks: dict[str, list[str]], **options: Any) -> State:
    """A game whose opening hands are the whole decks (hand = deck size), dealt in legal order."""
    options.setdefault("hand", max(len(d) for d in decks.values()))
    state = start(setup(decks, **options))
    while state.phase == "draw":
        do(state, "chance", "draw", player=state.draws[0], card=sorted(state.sides[state.draws[0]].deck)[0])
    return state


def record(by: str, type_: str, **fields: Any) -> Any:
    return DECODE(msgspec.json.encode({"type": type_, "by": by, **fields}))


def do(state: State, by: str, type_: str, **fields: Any) -> None:
    BT.apply(state, record(by, type_, **fields))


def illegal(state: State, rule: str, by: str, type_: str, **fields: Any) -> Illegal:
    """Assert the record breaks `rule` and leaves the state as it was."""
    before = BT.describe(state)
    with pytest.raises(Illegal) as caught:
        do(state, by, type_, **fields)
    assert caught.value.rule == rule, caught.value
    assert BT.describe(state) == before
    return caught.value


def summon(state: State, card: str, *sacrifice: str) -> None:
    do(state, state.active, "summon", card=card, sacrifice=list(sacrifice))


def end(state: State) -> None:
    do(state, state.active, "end_turn")


def board(ann: list[str], bob: list[str], ann_hand: list[str] | None = None, bob_hand: list[str] | None = None, **options: Any) -> State:
    """ann summons `ann` (level-0 cards), bob summons `bob`; then it is ann's turn 3, main phase."""
    state = new({"ann": [*ann, *(ann_hand or [])], "bob": [*bob, *(bob_hand or [])]}, **options)
    for player, names in (("ann", ann), ("bob", bob)):
        for card in ids(player, names):
            summon(state, card)
        end(state)
    return state


def in_play(state: State, card: str) -> bool:
    return any(card in side.field for side in state.sides.values())
