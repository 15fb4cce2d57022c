"""MG-1.7: the same game (its fingerprint, T-45)."""

from __future__ import annotations

import random

from referee.logio import game_fingerprint
from tests.core.test_fingerprint import bot_game, chained, check_read_as_a_set, judged, lines_of


def test_mg_1_7_the_seats_as_listed_decide_the_game() -> None:
    data = bot_game("maginot", 1, 3)
    header, records = lines_of(data)
    header["players"] = header["players"][1:] + header["players"][:1]  # `first` kept: bases go in another order
    turned = chained(header, records, random.Random(1))
    assert judged(turned) != judged(data)
    assert game_fingerprint(turned) != game_fingerprint(data)


def test_mg_r3_the_attacking_units_in_another_order_are_the_same_game() -> None:
    # Issue 33: fails before MG-R3 (`attack.units` was fingerprinted in order).
    check_read_as_a_set("maginot", "attack", "units")
