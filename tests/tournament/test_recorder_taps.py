"""The recorder's shortcuts (issue 37, T-202): draws as a hand, the likeliest records first, one kind opens at once."""

from __future__ import annotations

import json

from referee.rulesets import get as get_ruleset
from tournament.output import recorder

NAMES = {"ann": "Ann Ålvik", "bob": "Bob Okafor"}
DECK = ["KD", "7S", "10H", "JK1", "AS", "2C", "QH"]


def draws(player: str = "ann") -> list[dict[str, object]]:
    return [{"type": "draw", "by": "chance", "player": player, "card": card} for card in DECK]


def test_a_draw_lists_the_cards_as_a_hand_with_short_labels_on_the_first_screen() -> None:
    made = recorder.screens([*draws(), {"type": "concede", "by": "ann"}], NAMES, get_ruleset("cardwars"))
    first = made[0]
    assert first.path == ["draw", "player Ann Ålvik"], "what every draw shares, said once"
    labels = [c.label for c in first.choices]
    assert labels == ["A♠", "7♠", "10♥", "Q♥", "K♦", "2♣", "Joker 1", "concede"], "by suit, then value, in one tap"
    assert [json.loads(c.record or "{}").get("card") for c in first.choices[:2]] == ["AS", "7S"]
    assert first.choices[0].find == "AS", "the search box finds a card by its name too"
    # a game that says nothing of its cards lists them by name
    plain = recorder.screens(draws(), NAMES)[0]
    assert [c.label for c in plain.choices] == sorted(DECK)


def test_records_made_before_in_the_same_place_come_first_and_nothing_is_hidden() -> None:
    legal = [{"type": "play_resource", "by": "ann", "card": "7S"}, {"type": "play_resource", "by": "ann", "card": "QH"},
             {"type": "attack", "by": "ann", "attackers": []}, {"type": "attack", "by": "ann", "attackers": ["KD"]}]
    log = [{"type": "draw", "by": "chance", "player": "ann", "card": "2C", "seq": 1},
           {"type": "attack", "by": "ann", "attackers": [], "seq": 2},
           {"type": "draw", "by": "chance", "player": "bob", "card": None, "seq": 3},
           {"type": "attack", "by": "bob", "attackers": [], "seq": 4},
           {"type": "draw", "by": "chance", "player": "ann", "card": "KD", "seq": 5}]
    first = recorder.screens(legal, NAMES, get_ruleset("cardwars"), log, ("ann",))[0]
    assert first.choices[0].label == "again: Ann Ålvik: attack (attackers –)"
    assert json.loads(first.choices[0].record or "{}") == {"type": "attack", "by": "ann", "attackers": []}
    # the type made there first; a type of few records has them on the first screen, one tap each
    assert [c.label for c in first.choices[1:]] == ["attack · attackers –", "attack · attackers KD", "play resource · 7♠",
                                                    "play resource · Q♥"]
    reached = {c.record for s in recorder.screens(legal, NAMES, None, log, ("ann",)) for c in s.choices if c.record}
    assert {json.dumps(r, separators=(",", ":"), ensure_ascii=False) for r in legal} <= reached
    # bob's own history is not ann's
    assert not recorder.likely(log, legal, ("bob",)).most


def test_a_record_in_words_names_its_card_as_the_buttons_do() -> None:
    """The last records and a take-back's button say `Joker 2` and `8♠`, as the buttons that made them, not the ids."""
    cardwars = get_ruleset("cardwars")
    drawn = {"type": "draw", "by": "chance", "player": "bob", "card": "JK2", "seq": 3}
    assert recorder.record_text(drawn, NAMES, faces=cardwars) == "chance: draw (player Bob Okafor, card Joker 2)"
    played = {"type": "play_resource", "by": "ann", "card": "8S", "seq": 4}
    assert recorder.record_text(played, NAMES, faces=cardwars) == "Ann Ålvik: play resource (card 8♠)"
    assert recorder.record_text({**drawn, "card": None}, NAMES, faces=cardwars).endswith("a hidden card)")


def unseen(kind: str, cards: list[str], **fields: object) -> list[dict[str, object]]:
    return [{"card": card, "record": {"type": kind, "by": "ann", "card": card, **fields}} for card in cards]


class Long:
    """A game that names its cards in words: too long for a small button."""

    def card_order(self, card: str) -> tuple[str]:
        return (card,)

    def card_label(self, card: str) -> str:
        return f"The card called {card}"


def test_cards_drawn_unnamed_are_a_row_of_small_buttons_on_the_first_screen() -> None:
    """T-248: the cards a kind of record may be made with from those drawn unnamed are a row on the first screen,
    sorted as a hand; a card with one record is that record (one tap), one with several opens them."""
    faces = get_ruleset("cardwars")
    offered = [*unseen("play_resource", ["7S", "AS", "JK1"]), *unseen("play_face", ["KD"], pay=["7S"]),
               *unseen("play_face", ["KD"], pay=["AS"])]
    made = recorder.screens([{"type": "attack", "by": "ann", "attackers": []}], NAMES, faces, unseen=offered)
    first = made[0]
    assert [h.label for h in first.hands] == [f"play resource · {recorder.FROM_HAND}", f"play face · {recorder.FROM_HAND}"]
    resources, face = first.hands
    assert [c.label for c in resources.choices] == ["A♠", "7♠", "Joker 1"], "by suit, then value"
    assert json.loads(resources.choices[1].record or "{}") == {"type": "play_resource", "by": "ann", "card": "7S"}
    (king,) = face.choices
    assert king.label.startswith("K♦") and king.record is None and king.opens is not None
    assert {json.loads(c.record or "{}")["pay"][0] for c in made[king.opens].choices} == {"7S", "AS"}
    assert not any(recorder.FROM_HAND in c.label for c in first.choices), "no button besides the row"


def test_cards_with_long_names_or_too_many_go_behind_their_kinds_button() -> None:
    """Past SMALL characters a label, or ROW cards, the row would fill the screen: a button opens the cards on a
    screen of their own (a search box past SEARCHED)."""
    many = [f"c{n}" for n in range(recorder.ROW + 1)]
    for faces, cards in ((Long(), ["a", "b"]), (recorder.Named(), many)):
        made = recorder.screens([], NAMES, faces, unseen=unseen("play_resource", cards))
        assert not made[0].hands
        (button,) = [c for c in made[0].choices if recorder.FROM_HAND in c.label]
        assert button.opens is not None and len(made[button.opens].choices) == len(cards)
    assert recorder.screens([], NAMES, recorder.Named(), unseen=unseen("play_resource", many[:-1]))[0].hands, "ROW cards fit"
