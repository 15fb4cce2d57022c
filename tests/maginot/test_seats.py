"""MG-10: what each seat sees at a live table."""

from __future__ import annotations

from referee.bots import bot_header
from referee.logio import setup_decoder
from referee.ruleset import JUDGE, SPECTATOR
from referee.rulesets import get as get_ruleset
from schemas import maginot as mg
from tests.seatlog import other, seen, walk


def test_mg_10_1_hands_and_decks_stay_with_their_owner() -> None:
    for ruleset, state, _, _ in walk("maginot", 3):
        if state.turn >= 2:
            for seat in state.players:
                view = ruleset.seat_view(state, seat)["players"]
                assert view[seat]["hand"] == [c for c in view[seat]["hand"] if c in state.sides[seat].hand]
                assert set(view[seat]["deck_cards"]) == state.sides[seat].deck
                them = other(state, seat)
                assert view[them]["hand"] == [None] * len(state.sides[them].hand)
                assert view[them]["deck_cards"] == [None] * len(state.sides[them].deck)
                assert view[them]["deck"] == len(state.sides[them].deck)
            return
    raise AssertionError("the game never reached turn 2")


def test_mg_10_2_only_the_top_ace_of_a_base_is_in_its_order() -> None:
    ruleset = get_ruleset("maginot")
    header = bot_header("maginot", 1, 3)
    state = ruleset.start(header, setup_decoder("maginot").decode(header.setup))
    one = mg.Base(by="ann", aces=["AS", "AH", "AD", "AC"], seq=1)
    two = mg.Base(by="ann", aces=["AS", "AC", "AD", "AH"], seq=1)
    assert seen(ruleset, state, one, "bob") == seen(ruleset, state, two, "bob")
    assert seen(ruleset, state, one, SPECTATOR) == seen(ruleset, state, two, SPECTATOR)
    assert seen(ruleset, state, one, "ann") != seen(ruleset, state, two, "ann")
    assert seen(ruleset, state, one, JUDGE) != seen(ruleset, state, two, JUDGE)
    assert ruleset.record_view(two, "cat", state)["aces"] == ["AS", None, None, None]
    ruleset.apply(state, two)
    base = ruleset.seat_view(state, "bob")["players"]["ann"]["base"]
    assert [a["ace"] for a in base] == ["AS", "AH", "AD", "AC"]  # the top, then a fixed order
    assert ruleset.seat_view(state, "bob")["players"]["ann"]["base_order_hidden"] is True


def test_mg_10_3_a_component_built_from_hand_is_face_down_until_complete() -> None:
    for ruleset, state, records, _ in walk("maginot", 2, seed=5):
        record = records[-1]
        if isinstance(record, mg.Build) and record.card in state.sides[record.by].building:
            them = other(state, record.by)
            assert ruleset.record_view(record, them, state)["card"] is None
            assert ruleset.record_view(record, record.by, state)["card"] == record.card
            entry = ruleset.seat_view(state, them)["players"][record.by]
            assert {"card": None, "tokens": state.sides[record.by].building[record.card]} in entry["building"]
            assert {"card": record.card, "tokens": state.sides[record.by].building[record.card]} in (
                ruleset.seat_view(state, record.by)["players"][record.by]["building"]
            )
            break
    else:
        raise AssertionError("no bot game built a component from hand")
    for ruleset, state, records, _ in walk("maginot", 2, seed=5):
        record = records[-1]
        if isinstance(record, mg.Build) and record.card in state.sides[record.by].built:
            assert ruleset.record_view(record, other(state, record.by), state)["card"] == record.card
            return
    raise AssertionError("no component was completed")


def test_mg_10_4_resources_units_and_the_battle_are_in_view_and_a_draw_only_to_its_player() -> None:
    for ruleset, state, records, _ in walk("maginot", 2, seed=5):
        if state.battle is not None:
            judge, spectator = ruleset.view(state), ruleset.seat_view(state, SPECTATOR)
            assert spectator["battle"] == judge["battle"] and spectator["pool"] == judge["pool"]
            for p in state.players:
                for zone in ("resources", "units", "discard", "built"):
                    assert spectator["players"][p][zone] == judge["players"][p][zone]
            draw = next(r for r in reversed(records) if isinstance(r, mg.Draw))
            assert ruleset.record_view(draw, draw.player, state)["card"] == draw.card
            assert ruleset.record_view(draw, other(state, draw.player), state)["card"] is None
            return
    raise AssertionError("no battle")
