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
