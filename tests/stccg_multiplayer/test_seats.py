"""SG-11: what each seat sees at a live table."""

from __future__ import annotations

from collections import Counter

from referee.ruleset import JUDGE, SPECTATOR
from schemas import stccg_multiplayer as sg
from tests.seatlog import other, walk


def test_sg_11_1_hands_decks_and_missions_to_seed_stay_with_their_owner() -> None:
    for ruleset, state, _, _ in walk("stccg-multiplayer", 3, seed=2):
        if state.phase == "missions" and state.turn == 0 and sum(len(s.missions) for s in state.seats.values()) < 15:
            for seat in state.players:
                view = ruleset.seat_view(state, seat)["players"]
                assert sorted(view[seat]["missions_to_seed"]) == sorted(state.seats[seat].missions)
                assert Counter(view[seat]["seed_cards"]) == Counter(state.seats[seat].seeds)
                them = other(state, seat)
                assert view[them]["missions_to_seed"] == [None] * len(state.seats[them].missions)
                assert view[them]["seed_cards"] == [None] * sum(state.seats[them].seeds.values())
                assert view[them]["draw_cards"] == [None] * sum(state.seats[them].draw.values())
            return
    raise AssertionError("no point in the mission phase")


def test_sg_11_2_seeded_dilemmas_are_the_seeders_until_met() -> None:
    for ruleset, state, records, _ in walk("stccg-multiplayer", 3, seed=2):
        record = records[-1]
        if isinstance(record, sg.SeedDilemmas):
            them = other(state, record.by)
            assert ruleset.record_view(record, them, state)["cards"] == [None] * len(record.cards)
            assert ruleset.record_view(record, record.by, state)["cards"] == record.cards
            assert ruleset.record_view(record, JUDGE, state)["cards"] == record.cards
            under = ruleset.seat_view(state, them)["grid"][record.place]["dilemmas"]
            assert {"card": None, "by": record.by} in under
            assert {"card": record.cards[0], "by": record.by} in ruleset.seat_view(state, record.by)["grid"][record.place]["dilemmas"]
            assert ruleset.seat_view(state, SPECTATOR)["grid"][record.place]["seeded_under"] == len(under)
            return
    raise AssertionError("no dilemma seeded")


def test_sg_11_3_no_encounter_offered_names_a_dilemma_another_player_seeded() -> None:
    withheld = 0
    for ruleset, state, _, _ in walk("stccg-multiplayer", 3, seed=2):
        if state.phase == "main":
            seat = state.active
            everything = [r for r in ruleset.legal(state) if isinstance(r, sg.Encounter)]
            mine = [r for r in ruleset.seat_legal(state, seat) if isinstance(r, sg.Encounter)]
            for record in mine:
                assert (record.card, seat) in state.grid.slots[record.place].dilemmas
            withheld += len(everything) - len(mine)
    assert withheld > 0


def test_sg_11_4_a_draw_shows_its_card_only_to_its_player_and_the_judge() -> None:
    for ruleset, state, records, _ in walk("stccg-multiplayer", 2, seed=2):
        record = records[-1]
        if isinstance(record, sg.Draw):
            assert ruleset.record_view(record, record.player, state)["card"] == record.card
            assert ruleset.record_view(record, JUDGE, state)["card"] == record.card
            assert ruleset.record_view(record, other(state, record.player), state)["card"] is None
            assert ruleset.record_view(record, SPECTATOR, state)["card"] is None
            return
    raise AssertionError("no draw")
