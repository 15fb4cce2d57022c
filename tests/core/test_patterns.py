"""Deferred patterns (referee/patterns.py): a value that breaks one is refused with msgspec's own error,
also when the rest of its collection was seen before (the quick check of known values must not let it by)."""

from __future__ import annotations

from typing import Annotated

import msgspec
import pytest

from referee.patterns import Decoder
from schemas import crossover as xo
from schemas.log import PlayerId, remembered

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


class RememberedSetup(msgspec.Struct, forbid_unknown_fields=True):
    """crossover's Setup with its decks marked `remembered`."""

    first: PlayerId
    decks: dict[PlayerId, Annotated[xo.Deck, remembered]]


def test_a_remembered_deck_is_decoded_once_and_shared() -> None:
    decoder, plain = Decoder(RememberedSetup), Decoder(xo.Setup)
    other = {"name": "Elvish Mystic", "kind": "creature", "stats": {"mana": 1}, "traits": ["green"]}
    one = msgspec.json.encode({"first": "p2", "decks": {"p1": {"game": "mtg", "cards": [CARD]}, "p2": {"game": "mtg", "cards": [other]}}})
    two = msgspec.json.encode({"first": "p1", "decks": {"p3": {"game": "mtg", "cards": [other]}, "p1": {"game": "mtg", "cards": [CARD]}}})
    first, second = decoder.decode(one), decoder.decode(two)
    assert type(first) is RememberedSetup
    assert msgspec.to_builtins(first) == msgspec.to_builtins(plain.decode(one))
    assert msgspec.to_builtins(second) == msgspec.to_builtins(plain.decode(two))
    assert list(second.decks) == ["p3", "p1"]
    assert second.decks["p1"] is first.decks["p1"] and second.decks["p3"] is first.decks["p2"]
    assert msgspec.json.schema(RememberedSetup)["$defs"]["RememberedSetup"]["properties"] == (
        msgspec.json.schema(xo.Setup)["$defs"]["Setup"]["properties"]
    )


@pytest.mark.parametrize(
    "bad",
    [
        {"first": "p 1"},  # a pattern outside the decks
        {"decks": {"p 1": {"game": "mtg", "cards": [CARD]}}},  # a key's pattern
        {"decks": {"p1": {"game": "mtg", "cards": [{**CARD, "kind": "Creature"}]}}},  # a pattern in a deck
        {"decks": {"p1": {"game": "mtg", "cards": [CARD], "extra": 1}}},  # a field in a deck
        {"decks": {"p1": None}},
        {"decks": [1]},
        {"first": 1},
    ],
)
def test_a_remembered_deck_fails_as_the_ordinary_decode_does(bad: dict) -> None:
    decoder, plain = Decoder(RememberedSetup), Decoder(xo.Setup)
    good = {"first": "p1", "decks": {"p1": {"game": "mtg", "cards": [CARD]}}}
    decoder.decode(msgspec.json.encode(good))  # its deck is now remembered
    fails_alike(decoder, plain, msgspec.json.encode({**good, **bad}))


def fails_alike(decoder: Decoder, plain: Decoder, line: bytes) -> None:
    """`line` fails with a remembering decoder exactly as with the plain one."""
    with pytest.raises(msgspec.ValidationError) as plain_error:
        plain.decode(line)
    with pytest.raises(msgspec.ValidationError) as error:
        decoder.decode(line)
    assert str(error.value) == str(plain_error.value)


class RememberedPool(msgspec.Struct, forbid_unknown_fields=True):
    """A whole field remembered (basictcg's shared card pool would be one)."""

    pool: Annotated[list[xo.Card], remembered]
    name: PlayerId = "p1"


def test_a_remembered_field_is_decoded_once_and_fails_as_the_ordinary_decode_does() -> None:
    class Pool(msgspec.Struct, forbid_unknown_fields=True):
        pool: list[xo.Card]
        name: PlayerId = "p1"

    decoder, plain = Decoder(RememberedPool), Decoder(Pool)
    first, second = decoder.decode(b'{"pool":[%s]}' % msgspec.json.encode(CARD)), decoder.decode(
        b'{"name":"p2","pool":[%s]}' % msgspec.json.encode(CARD)
    )
    assert second.pool is first.pool and second.name == "p2" and first.name == "p1"
    for bad in (b'{"pool":[%s],"name":"p 2"}', b'{"pool":[%s,{"name":"x"}]}', b'{"name":"p3"}', b'{"pool":[%s],"x":1}'):
        fails_alike(decoder, plain, bad.replace(b"%s", msgspec.json.encode(CARD)))


class NestedDeck(msgspec.Struct, forbid_unknown_fields=True):
    game: str
    cards: Annotated[list[xo.Card], remembered]


class NestedSetup(msgspec.Struct, forbid_unknown_fields=True):
    """A remembered field inside each dict value (stccg's shared draw decks would be one)."""

    decks: dict[PlayerId, NestedDeck]


def test_a_remembered_field_inside_dict_values_is_shared() -> None:
    decoder = Decoder(NestedSetup)
    line = msgspec.json.encode({"decks": {"p1": {"game": "a", "cards": [CARD]}, "p2": {"game": "b", "cards": [CARD]}}})
    setup = decoder.decode(line)
    assert type(setup.decks["p1"]) is NestedDeck and setup.decks["p2"].game == "b"
    assert setup.decks["p1"].cards is setup.decks["p2"].cards
    assert msgspec.json.encode(setup) == line  # the same JSON (xo.Card keeps traits as a tuple)
    with pytest.raises(msgspec.ValidationError, match=r"at `\$\.decks\[\.\.\.\]\.cards\[0\]\.kind`"):
        decoder.decode(line.replace(b'"creature"', b'"Creature"'))


def test_a_remembered_part_keeps_its_other_constraints() -> None:
    class Kept(msgspec.Struct):
        pool: Annotated[list[xo.Card], msgspec.Meta(min_length=1), remembered]

    decoder = Decoder(Kept)
    assert decoder.decode(b'{"pool":[%s]}' % msgspec.json.encode(CARD)).pool[0].name == "Goblin Raider"
    with pytest.raises(msgspec.ValidationError, match=r"Expected `array` of length >= 1 - at `\$\.pool`"):
        decoder.decode(b'{"pool":[]}')
