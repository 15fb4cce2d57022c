"""XO-10: what each seat sees at a live table."""

from __future__ import annotations

from referee.ruleset import JUDGE, SPECTATOR
from schemas import crossover as xo
from tests.seatlog import dump, other, walk


def test_xo_10_1_hands_and_decks_stay_with_their_owner() -> None:
    for ruleset, state, _, _ in walk("crossover", 3):
        if state.phase == "play" and all(side.hand for side in state.sides.values()):
            for seat in state.players:
                view = ruleset.seat_view(state, seat)["players"]
                assert set(view[seat]["hand"]) == state.sides[seat].hand
                assert set(view[seat]["deck"]) == state.sides[seat].deck
                for them in state.players:
                    if them != seat:
                        assert view[them]["hand"] == [None] * len(state.sides[them].hand)
                        assert view[them]["deck"] == [None] * len(state.sides[them].deck)
            return
    raise AssertionError("the game never reached a play phase with every hand full")


def test_xo_10_2_leaders_minions_and_discards_are_in_view_a_draw_only_to_its_player() -> None:
    for ruleset, state, records, _ in walk("crossover", 2, seed=4):
        if any(side.minions for side in state.sides.values()) and any(side.discard for side in state.sides.values()):
            judge, spectator = ruleset.view(state), ruleset.seat_view(state, SPECTATOR)
            for p in state.players:
                for key in ("leader", "minions", "discard", "wins", "play_value"):
                    assert spectator["players"][p][key] == judge["players"][p][key]
            draw = next(r for r in reversed(records) if isinstance(r, xo.Draw))
            assert ruleset.record_view(draw, draw.player, state)["card"] == draw.card
            assert ruleset.record_view(draw, JUDGE, state)["card"] == draw.card
            assert ruleset.record_view(draw, other(state, draw.player), state)["card"] is None
            assert dump(ruleset.record_view(draw, SPECTATOR, state)) == dump(ruleset.record_view(draw, other(state, draw.player), state))
            return
    raise AssertionError("no minion in play beside a discard")
