"""CW-1.7: the same game (its fingerprint, T-45)."""

from __future__ import annotations

import random

from referee.logio import game_fingerprint
from tests.core.test_fingerprint import bot_game, chained, judged, lines_of


def test_cw_1_7_suits_in_either_order_are_the_same_game_and_swapped_seats_another() -> None:
    data = bot_game("cardwars", 2, 2)
    header, records = lines_of(data)
    header["setup"]["suits"] = {p: s[::-1] for p, s in header["setup"]["suits"].items()}
    turned = chained(header, records, random.Random(1))
    assert judged(turned) == judged(data) and game_fingerprint(turned) == game_fingerprint(data)
    header["players"].reverse()  # the first seat's half deck holds JK1: the jokers change hands
    swapped = chained(header, records, random.Random(1))
    assert game_fingerprint(swapped) != game_fingerprint(data)
