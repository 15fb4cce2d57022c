"""BT-1.7: the same game (its fingerprint, T-45)."""

from __future__ import annotations

import random

from referee.logio import game_fingerprint
from tests.core.test_fingerprint import bot_game, chained, judged, lines_of


def test_bt_1_7_defaults_card_lists_text_and_seats_round_the_circle_are_the_same_game() -> None:
    data = bot_game("basictcg-mtg", 2, 3)
    header, records = lines_of(data)
    header["setup"] |= {"scenario": "act_threshold", "hand": 5}
    for card in header["setup"]["cards"].values():
        card["types"] = card["types"][::-1]
        card["text"] = "read by no rule"
    header["players"] = header["players"][2:] + header["players"][:2]
    for record in records:
        if record["type"] == "effect":
            record["text"] = "said otherwise"
    same = chained(header, records, random.Random(1))
    assert judged(same) == judged(data) and game_fingerprint(same) == game_fingerprint(data)
    header["setup"]["hand"] = 6
    assert game_fingerprint(chained(header, records, random.Random(1))) != game_fingerprint(data)
