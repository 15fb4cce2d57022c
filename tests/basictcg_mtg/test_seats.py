"""BT-13: what each seat sees at a live table."""

from __future__ import annotations

from referee.ruleset import JUDGE, SPECTATOR
from schemas import basictcg_mtg as bt
from tests.seatlog import other, walk


def test_bt_13_1_hands_decks_and_the_card_of_a_material_stay_with_their_owner() -> None:
    for ruleset, state, _, _ in walk("basictcg-mtg", 2, seed=2):
        materials = [(p, c) for p, side in state.sides.items() for c, on in side.field.items() if on.face_down]
        if materials and all(side.hand for side in state.sides.values()):
            owner, card = materials[0]
            them = other(state, owner)
            theirs = ruleset.seat_view(state, them)["players"][owner]
            mine = ruleset.seat_view(state, owner)["players"][owner]
            material = next(e for e in theirs["in_play"] if e["card"] == card)
            assert "name" not in material and material["material"] is True  # its id is a handle, in view
            assert next(e for e in mine["in_play"] if e["card"] == card)["name"] == state.cards[card].name
            assert theirs["hand"] == [None] * len(state.sides[owner].hand)
            assert theirs["deck_cards"] == [None] * len(state.sides[owner].deck)
            assert set(mine["hand"]) == state.sides[owner].hand and set(mine["deck_cards"]) == state.sides[owner].deck
            judge = ruleset.seat_view(state, JUDGE)["players"][owner]
            assert next(e for e in judge["in_play"] if e["card"] == card)["name"] == state.cards[card].name
            return
    raise AssertionError("no material in play")


def test_bt_13_2_cards_in_play_discards_and_totals_are_in_view_a_draw_only_to_its_player() -> None:
    for ruleset, state, records, _ in walk("basictcg-mtg", 2, seed=2):
        if any(side.discard for side in state.sides.values()) and state.turn > 3:
            judge, spectator = ruleset.view(state), ruleset.seat_view(state, SPECTATOR)
            for p in state.players:
                assert spectator["players"][p]["discard"] == judge["players"][p]["discard"]
                assert spectator["players"][p]["total"] == judge["players"][p]["total"]
                assert spectator["players"][p]["in_play"] == judge["players"][p]["in_play"]
            draw = next(r for r in reversed(records) if isinstance(r, bt.Draw))
            assert ruleset.record_view(draw, draw.player, state)["card"] == draw.card
            assert ruleset.record_view(draw, other(state, draw.player), state)["card"] is None
            return
    raise AssertionError("no discard by turn 4")
