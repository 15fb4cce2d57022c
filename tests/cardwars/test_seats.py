"""CW-9: what each seat sees at a live table."""

from __future__ import annotations

from referee.ruleset import JUDGE, SPECTATOR
from schemas import cardwars as cw
from tests.seatlog import dump, other, walk


def test_cw_9_1_hands_and_decks_are_counted_for_the_others_and_whole_for_their_owner() -> None:
    for ruleset, state, _, _ in walk("cardwars", 2):
        if all(side.hand for side in state.sides.values()):
            for seat in state.players:
                mine, theirs = (ruleset.seat_view(state, seat)["players"][p] for p in (seat, other(state, seat)))
                opponent = state.sides[other(state, seat)]
                assert mine["hand"] == sorted(state.sides[seat].hand, key=mine["hand"].index)
                assert set(mine["deck"]) == state.sides[seat].deck  # CW-9.1's ruling: their own deck, as a set
                assert theirs["hand"] == [None] * len(opponent.hand) and theirs["deck"] == [None] * len(opponent.deck)
            spectator = ruleset.seat_view(state, SPECTATOR)["players"]
            assert all(set(side["hand"]) == {None} for side in spectator.values())
            assert ruleset.seat_view(state, JUDGE) == ruleset.view(state)
            return
    raise AssertionError("no point where both hands held cards")


def test_cw_9_2_the_battlefield_graveyards_and_combat_are_in_view_and_a_draw_only_to_its_player() -> None:
    for ruleset, state, records, _ in walk("cardwars", 2):
        if state.attackers and any(side.grave for side in state.sides.values()):
            judge = ruleset.view(state)
            spectator = ruleset.seat_view(state, SPECTATOR)
            for key in ("attackers", "blocks", "turn", "phase"):
                assert spectator[key] == judge[key]
            for p in state.players:
                for zone in ("battlefield", "graveyard", "life"):
                    assert spectator["players"][p][zone] == judge["players"][p][zone]
            draw = next(r for r in reversed(records) if isinstance(r, cw.Draw))
            assert ruleset.record_view(draw, draw.player, state)["card"] == draw.card
            assert ruleset.record_view(draw, JUDGE, state)["card"] == draw.card
            assert ruleset.record_view(draw, other(state, draw.player), state)["card"] is None
            assert dump(draw.card) not in dump(ruleset.record_view(draw, SPECTATOR, state))
            return
    raise AssertionError("no attack after a card reached a graveyard")
