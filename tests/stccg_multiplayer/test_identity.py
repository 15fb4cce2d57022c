"""SG-1.7: the same game (its fingerprint, T-45)."""

from __future__ import annotations

import random

from referee.logio import game_fingerprint
from tests.core.test_fingerprint import bot_game, chained, check_read_as_a_set, judged, lines_of


def test_sg_1_7_seats_round_the_circle_deck_piles_and_action_text_are_the_same_game() -> None:
    data = bot_game("stccg-multiplayer", 1, 3)
    header, records = lines_of(data)
    header["players"] = header["players"][1:] + header["players"][:1]
    for deck in header["setup"]["decks"].values():
        for pile in ("missions", "seeds", "draw"):
            deck[pile].reverse()
    for record in records:
        if record["type"] == "action":
            record["text"] = "said otherwise"
    same = chained(header, records, random.Random(1))
    assert judged(same) == judged(data) and game_fingerprint(same) == game_fingerprint(data)


def test_sg_4_7_dilemmas_seeded_in_another_order_are_the_same_game() -> None:
    # Issue 33: fails before SG-4.7 (`seed_dilemmas.cards` was fingerprinted in order).
    check_read_as_a_set("stccg-multiplayer", "seed_dilemmas", "cards")


def test_sg_7_11_a_plays_personnel_in_another_order_are_the_same_game() -> None:
    # Issue 33: fails before SG-7.11 (`play.personnel` was fingerprinted in order).
    check_read_as_a_set("stccg-multiplayer", "play", "personnel")
