"""Deferred patterns (referee/patterns.py): a value that breaks one is refused with msgspec's own error,
also when the rest of its collection was seen before (the quick check of known values must not let it by)."""

from __future__ import annotations

import msgspec
import pytest

from referee.patterns import Decoder
from schemas import crossover as xo

CARD = {"name": "Goblin Raider", "kind": "creature", "stats": {"power": 2, "toughness": 1}, "traits": ["red", "goblin"]}


def setup(*cards: dict) -> bytes:
    return msgspec.json.encode({"first": "p1", "decks": {"p1": {"game": "mtg", "cards": list(cards)}}})


@pytest.mark.parametrize(
    ("changed", "where"),
    [
        ({"name": " Goblin"}, "at `$.decks[...].cards[2].name`"),
        ({"kind": "Creature"}, "at `$.decks[...].cards[2].kind`"),
        ({"stats": {"power": 2, "Tough!": 1}}, "at `key` in `$.decks[...].cards[2].stats`"),
        ({"traits": ["red", "goblin", "two  words!"]}, "at `$.decks[...].cards[2].traits[2]`"),
    ],
)
def test_a_bad_value_among_known_ones_gets_msgspecs_error(changed: dict, where: str) -> None:
    decoder = Decoder(xo.Setup)
    assert decoder.decode(setup(CARD, CARD, CARD)).decks["p1"].cards[2].name == "Goblin Raider"  # now all known
    with pytest.raises(msgspec.ValidationError) as error:
        decoder.decode(setup(CARD, CARD, {**CARD, **changed}))
    assert "matching regex" in str(error.value)
    assert str(error.value).endswith(f"- {where}")


def test_a_bad_game_word_is_refused() -> None:
    decoder = Decoder(xo.Setup)
    decoder.decode(setup(CARD))
    with pytest.raises(msgspec.ValidationError, match=r"matching regex .* at `\$\.decks\[\.\.\.\]\.game`"):
        decoder.decode(setup(CARD).replace(b'"mtg"', b'"MTG"'))


def test_new_good_values_pass_after_known_ones() -> None:
    decoder = Decoder(xo.Setup)
    decoder.decode(setup(CARD))
    other = {"name": "Elvish Mystic", "kind": "creature", "stats": {"mana": 1}, "traits": ["green"]}
    assert [c.name for c in decoder.decode(setup(CARD, other)).decks["p1"].cards] == ["Goblin Raider", "Elvish Mystic"]
