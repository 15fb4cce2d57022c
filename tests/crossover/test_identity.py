"""XO-1.7: the same game (its fingerprint, T-45)."""

from __future__ import annotations

import random

from referee.logio import game_fingerprint
from tests.core.test_fingerprint import bot_game, chained, check_read_as_a_set, judged, lines_of


def test_xo_1_7_seats_round_the_circle_and_deck_orders_are_the_same_game() -> None:
    data = bot_game("crossover", 3, 4)
    header, records = lines_of(data)
    header["players"] = header["players"][1:] + header["players"][:1]  # the same circle, listed from the next seat
    for deck in header["setup"]["decks"].values():
        deck["cards"].reverse()
        for card in deck["cards"]:
            card["traits"] = sorted(card.get("traits", []), reverse=True)
            card.setdefault("stats", {})
    same = chained(header, records, random.Random(1))
    assert judged(same) == judged(data) and game_fingerprint(same) == game_fingerprint(data)


def test_xo_1_7_another_circle_is_another_game() -> None:
    data = bot_game("crossover", 3, 4)
    header, records = lines_of(data)
    header["players"][1], header["players"][2] = header["players"][2], header["players"][1]
    assert game_fingerprint(chained(header, records, random.Random(1))) != game_fingerprint(data)


def test_xo_r4_an_attacks_targets_in_another_order_are_the_same_game() -> None:
    # Issue 33: fails before XO-R4 (`attack.targets` was fingerprinted in order).
    check_read_as_a_set("crossover", "attack", "targets")
