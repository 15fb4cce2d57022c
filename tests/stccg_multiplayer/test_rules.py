"""One test per rule and ruling of RULES.md (SG-...), each through records judged by the engine."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from referee.logio import record_to_dict
from referee.ruleset import Illegal
from referee.rulesets import get as get_ruleset
from referee.rulesets.stccg_multiplayer.grid import Grid, Loc
from referee.rulesets.stccg_multiplayer.state import counted
from schemas import stccg_multiplayer as sg
from tests.stccg_multiplayer.sglog import (
    OPENING,
    PASSES,
    STANDARD,
    STANDARD_SEEDING,
    TO_PLAY,
    draw,
    mission,
    ok,
    rec,
    rule_of,
    run,
    seed,
    setup,
)

RULES = get_ruleset("stccg-multiplayer")


def three() -> dict[str, Any]:
    missions = dict(STANDARD)
    missions["cat"] = [mission(f"C{i}") for i in range(1, 7)]
    return setup(missions)


def turn_end(player: str, card: str) -> list[dict[str, Any]]:
    """End `player`'s turn: end_turn, then the end-of-turn draw of `card`."""
    return [rec(player, "end_turn"), draw(player, card)]


VIGIL = rec("ann", "report_ship", card="Vigil", place="S1.1")


# -- SG-1 players and decks ------------------------------------------------------


def test_sg_1_1_two_to_six_players_and_a_real_first_player() -> None:
    assert rule_of(run([], players=["ann"], setup_=setup({"ann": STANDARD["ann"]}))) == "SG-1.1"
    assert rule_of(run([], setup_=setup(first="zed"))) == "SG-1.1"


def test_sg_1_2_ruling_thirty_thirty_decks() -> None:
    bad = setup()
    bad["decks"]["ann"]["draw"].pop()
    assert rule_of(run([], setup_=bad)) == "SG-1.2"
    five = setup()
    five["decks"]["bob"]["missions"].pop()
    assert rule_of(run([], setup_=five)) == "SG-1.2"


def test_sg_1_3_mission_fields_are_a_closed_vocabulary() -> None:
    bad = setup()
    bad["decks"]["ann"]["missions"][0]["quadrant"] = "Beta"
    verdict = run([], setup_=bad).verdict
    assert verdict.verdict == "malformed" and verdict.error is not None
    assert verdict.error.field is not None and verdict.error.field.endswith("missions[0].quadrant")


def test_sg_1_4_ruling_mission_names_distinct_and_no_nebula() -> None:
    twice = setup()
    twice["decks"]["bob"]["missions"][0]["name"] = "A1"
    assert rule_of(run([], setup_=twice)) == "SG-1.4"
    nebula = setup()
    nebula["decks"]["bob"]["missions"][0]["name"] = "Nebula"
    assert rule_of(run([], setup_=nebula)) == "SG-1.4"


def test_sg_1_5_the_space_is_banned() -> None:
    bad = setup()
    bad["decks"]["ann"]["missions"][0]["name"] = "The Space"
    assert rule_of(run([], setup_=bad)) == "SG-1.5"
    seeded = setup()
    seeded["decks"]["bob"]["seeds"][-1] = "The Space"
    assert rule_of(run([], setup_=seeded)) == "SG-1.5"


def test_sg_1_4_and_1_5_name_the_first_faulty_mission_in_deck_order() -> None:
    """start checks the missions as a set, then walks them only for the message: with several faults in one
    deck, the first in deck order is named, whichever rule it breaks."""

    def fault(names: dict[int, str]) -> tuple[str, str]:
        bad = setup()
        for i, name in names.items():
            bad["decks"]["bob"]["missions"][i]["name"] = name
        error = run([], setup_=bad).verdict.error
        assert error is not None and error.rule is not None
        return error.rule, error.message

    twice = "the mission {!r} appears twice (or is the Nebula)"
    space = "bob's deck holds The Space, which this format bans"
    assert fault({1: "A3", 3: "The Space", 4: "Nebula"}) == ("SG-1.4", twice.format("A3"))  # ann's deck came first
    assert fault({1: "Nebula", 2: "A3"}) == ("SG-1.4", twice.format("Nebula"))
    assert fault({2: "B1", 4: "The Space"}) == ("SG-1.4", twice.format("B1"))  # twice in bob's own deck
    assert fault({1: "The Space", 2: "B1", 3: "A1"}) == ("SG-1.5", space)
    assert fault({4: "B2", 5: "B2"}) == ("SG-1.4", twice.format("B2"))


def test_sg_1_6_owners_come_from_the_decks() -> None:
    state = ok(run(STANDARD_SEEDING)).state
    grid = RULES.describe(state)["grid"]
    assert grid["S1.1"]["owner"] == "ann" and grid["S2.1"]["owner"] == "bob" and grid["N"]["owner"] is None


# -- SG-2 the spacegrid ----------------------------------------------------------


def test_sg_2_1_places_exist_only_for_the_player_count() -> None:
    assert rule_of(run([seed("ann", "A1", "S3.1")])) == "SG-2.1"


def test_sg_2_3_ruling_the_nebula_is_alpha_at_the_centre() -> None:
    nebula = RULES.describe(ok(run([])).state)["grid"]["N"]
    assert nebula["name"] == "Nebula" and nebula["quadrant"] == "Alpha" and nebula["span"] == 2 and nebula["kind"] == "space"


def test_sg_2_4_locations_take_ships_and_seeded_cards_along() -> None:
    records = [*STANDARD_SEEDING, rec("ann", "seed_dilemmas", place="S1.1", cards=["Sensor Ghost", "Q"]), *PASSES[1:], rec("ann", "pass")]
    records += [*OPENING, VIGIL, rec("ann", "encounter", card="Q", place="S1.1"), rec("ann", "q_swap", pairs=[["S1.1", "R2.1"]])]
    state = ok(run(records)).state
    assert state.ships["Vigil"].slot == "R2.1"
    assert state.grid.slots["R2.1"].name == "A1" and state.grid.slots["R2.1"].dilemmas == [("Sensor Ghost", "ann")]


def test_sg_2_5_ruling_spokes_belong_to_no_player() -> None:
    ok(run([seed("ann", "A1", "S2.1"), seed("bob", "B1", "S1.1")]))


def test_sg_2_6_inserted_locations_sit_between_two_neighbours() -> None:
    state = ok(run([*TO_PLAY, rec("ann", "insert", card="Q's Planet", after="S1.1", before="S1.2", span=3, planet=True)])).state
    grid = state.grid
    assert sorted(grid.neighbours("X1")) == ["S1.1", "S1.2"]
    assert "S1.2" not in grid.neighbours("S1.1")


# -- SG-3 seeding missions ---------------------------------------------------------


def test_sg_3_1_missions_seeded_in_turn_one_at_a_time() -> None:
    assert rule_of(run([seed("bob", "B1", "S2.1")])) == "SG-3.1"
    assert rule_of(run([seed("ann", "B1", "S2.1")])) == "SG-3.1"
    state = ok(run(STANDARD_SEEDING)).state
    assert state.phase == "dilemmas" and state.active == "ann"


def test_sg_3_2_ruling_build_off_the_quadrant() -> None:
    assert rule_of(run([seed("ann", "A1", "R1.2")])) == "SG-3.2"
    ok(run([seed("ann", "A1", "S1.1")]))  # next to the Nebula, the first Alpha mission


def test_sg_3_3_first_mission_of_a_quadrant_anywhere() -> None:
    ok(run([seed("ann", "G1", "R2.2")]))


REGIONS = {
    "ann": [mission("A1", region="Briar"), mission("A2"), mission("A3", region="Briar"),
            mission("G1", "Gamma"), mission("A5"), mission("A6")],
    "bob": [mission("B1"), mission("D1", "Delta"), mission("B3"), mission("B4"), mission("B5"), mission("B6")],
}  # fmt: skip


def test_sg_3_4_regions_seed_together() -> None:
    records = [seed("ann", "A1", "S1.1"), seed("bob", "B1", "S2.1")]
    assert rule_of(run([*records, seed("ann", "A3", "S2.2")], setup_=setup(REGIONS))) == "SG-3.4"
    ok(run([*records, seed("ann", "A3", "S1.2")], setup_=setup(REGIONS)))


SQUEEZE = {
    "ann": [mission("A1"), mission("G1", "Gamma"), mission("A2"), mission("A3"), mission("A4"), mission("A5")],
    "bob": [mission("B1"), mission("D1", "Delta"), mission("B2"), mission("B3"), mission("B4"), mission("B5")],
}
# Alpha is boxed in: A1 S1.1, B1 S2.1, then G1 on S1.2 and D1 on S2.2 leave no empty place next to Alpha.
BOXED = [seed("ann", "A1", "S1.1"), seed("bob", "B1", "S2.1"), seed("ann", "G1", "S1.2"), seed("bob", "D1", "S2.2")]


def boxed(last: dict[str, Any], missions: dict[str, Any] | None = None) -> str | None:
    return rule_of(run([*BOXED, last], setup_=setup(missions or SQUEEZE)))


def test_sg_3_5_shift_only_when_needed_and_only_then() -> None:
    assert boxed(seed("ann", "A2", "S1.2")) == "SG-3.5"  # taken, no shift given
    assert boxed(seed("ann", "A2", "S1.3")) == "SG-3.5"  # no empty place fits: shifting is required
    assert rule_of(run([seed("ann", "A1", "S1.1"), seed("bob", "B1", "S2.1", shift=["S2.1", "S2.2"])])) == "SG-3.5"


def test_sg_3_5_shift_moves_the_line_outward() -> None:
    state = ok(run([*BOXED, seed("ann", "A2", "S1.2", shift=["S1.2", "S1.3"])], setup_=setup(SQUEEZE))).state
    assert state.grid.slots["S1.2"].name == "A2" and state.grid.slots["S1.3"].name == "G1"


def test_sg_3_6_ruling_outward_means_along_the_spoke_then_one_way_round() -> None:
    assert boxed(seed("ann", "A2", "S1.2", shift=["S1.2", "S2.3"])) == "SG-3.6"
    assert boxed(seed("ann", "A2", "S1.1", shift=["S1.1", "N"])) == "SG-3.6"


def test_sg_3_7_ruling_regional_missions_are_not_shifted() -> None:
    regional = {p: [dict(m) for m in ms] for p, ms in SQUEEZE.items()}
    regional["ann"][1]["region"] = "Sable"
    assert boxed(seed("ann", "A2", "S1.2", shift=["S1.2", "S1.3"]), regional) == "SG-3.7"


def test_sg_3_8_after_the_shift_the_mission_must_fit() -> None:
    grid = Grid(2)
    for slot, quadrant in {"N": "Alpha", "S1.1": "Alpha", "S1.2": "Gamma", "S1.3": "Gamma", "R2.2": "Delta"}.items():
        grid.slots[slot] = Loc(slot, quadrant, 2, "space")
    problem = grid.shift_problem(["S1.2", "S1.3", "R1.1"], "Delta", None)
    assert problem is not None and problem[0] == "SG-3.8"
    assert grid.shift_problem(["S1.2", "S1.3", "R1.1"], "Gamma", None) is None


def test_sg_3_9_fewest_missions_moved_ties_are_the_players_choice() -> None:
    assert boxed(seed("ann", "A2", "S1.1", shift=["S1.1", "S1.2", "S1.3"])) == "SG-3.9"
    ok(run([*BOXED, seed("ann", "A2", "S2.2", shift=["S2.2", "S2.3"])], setup_=setup(SQUEEZE)))


def test_sg_3_10_ruling_no_place_and_no_shift_means_any_empty_place() -> None:
    stuck = {p: [dict(m) for m in ms] for p, ms in SQUEEZE.items()}
    stuck["ann"][0]["region"] = "Briar"
    stuck["ann"][1]["region"] = "Sable"
    stuck["bob"][1]["region"] = "Rim"
    stuck["bob"][0]["region"] = None
    # B1 could shift outward only by pushing D1, which is in a region
    ok(run([*BOXED, seed("ann", "A2", "R1.2")], setup_=setup(stuck)))


# -- SG-4 the dilemma phase ----------------------------------------------------------


def test_sg_4_1_one_mission_or_one_card_per_turn() -> None:
    base = list(STANDARD_SEEDING)
    ok(run([*base, rec("ann", "seed_dilemmas", place="S1.1", cards=["Sensor Ghost", "Ion Squall", "Q"])]))
    assert rule_of(run([*base, rec("bob", "seed_dilemmas", place="S1.1", cards=["Q"])])) == "SG-4.1"
    assert rule_of(run([*base, rec("ann", "seed_dilemmas", place="S1.1", cards=[])])) == "SG-4.1"
    inserted = rec("ann", "insert", card="Bajoran Wormhole", after="S1.1", before="S1.2", span=1)
    assert rule_of(run([*base, inserted, rec("bob", "pass"), rec("ann", "seed_dilemmas", place="X1", cards=["Q"])])) == "SG-4.1"


def test_sg_4_2_ruling_phase_ends_when_all_pass_in_a_row() -> None:
    base = [*STANDARD_SEEDING, rec("ann", "pass"), rec("bob", "seed_card", card="Relay Station")]
    state = ok(run([*base, rec("ann", "seed_card", card="Relay Station")])).state
    assert state.phase == "dilemmas"
    assert ok(run([*base, rec("ann", "pass"), rec("bob", "pass")])).state.phase == "opening"


def test_sg_4_3_seed_cards_come_from_the_seed_deck() -> None:
    base = list(STANDARD_SEEDING)
    assert rule_of(run([*base, rec("ann", "seed_dilemmas", place="S1.1", cards=["Vigil"])])) == "SG-4.3"
    assert rule_of(run([*base, rec("ann", "seed_dilemmas", place="S1.1", cards=["Q", "Q"])])) == "SG-4.3"
    ok(run([*base, rec("ann", "seed_dilemmas", place="S1.1", cards=["Ion Squall", "Ion Squall"])]))


def test_sg_4_4_borg_outposts_seed_off_the_spaceline_in_the_delta_quadrant() -> None:
    base = list(STANDARD_SEEDING)
    assert rule_of(run([*base, rec("ann", "seed_card", card="Borg Outpost", place="R2.3")])) == "SG-4.4"
    assert ok(run([*base, rec("ann", "seed_card", card="Borg Outpost")])).state.outposts == ["ann"]
    no_delta = {p: [dict(m, quadrant="Alpha") for m in ms] for p, ms in STANDARD.items()}
    no_delta_seeding = [dict(r, place=p) for r, p in zip(STANDARD_SEEDING, ["S1.1", "S2.1", "S1.2", "S2.2", "S1.3", "S2.3", "R1.1", "R2.1", "R1.2", "R2.2", "R1.3", "R2.3"], strict=True)]
    assert rule_of(run([*no_delta_seeding, rec("ann", "seed_card", card="Borg Outpost")], setup_=setup(no_delta))) == "SG-4.4"


def test_sg_4_5_transwarp_network_gateway_at_a_spoke_end() -> None:
    base = list(STANDARD_SEEDING)
    assert rule_of(run([*base, rec("ann", "seed_card", card="Transwarp Network Gateway", place="R1.1")])) == "SG-4.5"
    assert rule_of(run([*base, rec("ann", "seed_card", card="Transwarp Network Gateway")])) == "SG-4.5"
    assert ok(run([*base, rec("ann", "seed_card", card="Transwarp Network Gateway", place="S2.3")])).state.gateways == ["S2.3"]


def test_sg_4_6_other_seed_cards_name_a_location_or_none() -> None:
    base = list(STANDARD_SEEDING)
    assert rule_of(run([*base, rec("ann", "seed_card", card="Relay Station", place="X7")])) == "SG-4.6"
    ok(run([*base, rec("ann", "seed_card", card="Relay Station", place="R2.2")]))


# -- SG-5 turns ------------------------------------------------------------------------


def test_sg_5_1_ruling_seven_card_opening_hands_in_seat_order() -> None:
    base = STANDARD_SEEDING + PASSES
    assert rule_of(run([*base, draw("bob", "Meridian")])) == "SG-5.1"
    state = ok(run(TO_PLAY)).state
    assert sum(state.seats["ann"].hand.values()) == 7 and state.phase == "main" and state.active == "ann"


def test_sg_5_2_end_step_then_the_draw_passes_the_turn() -> None:
    state = ok(run([*TO_PLAY, *turn_end("ann", "Lakanta")])).state
    assert state.active == "bob" and state.phase == "main" and state.turn == 2
    assert rule_of(run([*TO_PLAY, rec("ann", "end_turn"), rec("ann", "end_turn")])) == "SG-5.2"


def test_sg_5_2_ruling_empty_draw_deck_second_end_turn() -> None:
    replay = ok(run([*TO_PLAY, rec("ann", "end_turn")]))
    state = replay.state
    state.seats["ann"].draw = Counter()
    RULES.apply(state, sg.EndTurn(by="ann"))
    assert state.active == "bob"


def test_sg_5_3_draws_name_a_card_in_the_deck() -> None:
    assert rule_of(run([*STANDARD_SEEDING, *PASSES, draw("ann", "Meridian")])) == "SG-5.3"
    assert rule_of(run([*STANDARD_SEEDING, *PASSES, rec("ann", "draw", player="ann", card="Vigil")])) == "SG-5.3"
    replay = ok(run([*TO_PLAY, draw("bob", "Crewman 7", extra=True)]))
    assert replay.verdict.unchecked == 1 and replay.state.seats["bob"].hand["Crewman 7"] == 1
    assert rule_of(run([*STANDARD_SEEDING, *PASSES, draw("ann", "Vigil", extra=True)])) == "SG-5.3"


def test_sg_5_4_who_may_act_on_a_turn() -> None:
    assert rule_of(run([*TO_PLAY, rec("bob", "report_ship", card="Meridian", place="S2.1")])) == "SG-5.4"
    ok(run([*TO_PLAY, rec("bob", "play", card="Crewman 1")]))


def test_sg_5_5_plays_come_from_hand_unless_untracked() -> None:
    assert rule_of(run([*TO_PLAY, rec("ann", "play", card="Crewman 9")])) == "SG-5.5"
    replay = ok(run([*TO_PLAY, rec("ann", "play", card="Crewman 9", source="other")]))
    assert replay.verdict.unchecked == 1
    assert rule_of(run([*TO_PLAY, rec("ann", "play", card="Alien Probe", players=["zed"])])) == "SG-5.5"


def test_sg_5_6_ruling_one_ship_of_a_name_in_play() -> None:
    two_vigils = setup()
    two_vigils["decks"]["ann"]["draw"][-1] = "Vigil"
    records = [*TO_PLAY, VIGIL, *turn_end("ann", "Vigil")]
    records += [*turn_end("bob", "Crewman 2"), rec("ann", "report_ship", card="Vigil", place="S1.2")]
    assert rule_of(run(records, setup_=two_vigils)) == "SG-5.6"
    assert rule_of(run([*TO_PLAY, rec("ann", "report_ship", card="Vigil", place="S3.3")])) == "SG-5.6"


def test_sg_5_6_a_card_the_text_names_is_no_ship() -> None:
    illegal = run([*TO_PLAY, rec("ann", "report_ship", card="Alien Probe", place="S1.1")]).verdict.error
    assert illegal is not None and illegal.rule == "SG-5.6" and "not a ship" in illegal.message


def test_sg_9_a_reported_ship_is_taken_on_trust() -> None:
    """The referee cannot tell an unnamed card from a ship, so a report counts as unchecked."""
    assert ok(run([*TO_PLAY, VIGIL])).verdict.unchecked == 1


def test_sg_5_7_actions_and_destruction() -> None:
    assert rule_of(run([*TO_PLAY, rec("ann", "destroy", ship="Vigil")])) == "SG-5.7"
    replay = ok(run([*TO_PLAY, VIGIL, rec("bob", "destroy", ship="Vigil"), rec("ann", "action", text="attempt A1")]))
    assert "Vigil" not in replay.state.ships and replay.verdict.unchecked == 3  # the report, the destruction, the action


def test_sg_5_8_records_out_of_their_phase() -> None:
    assert rule_of(run([*TO_PLAY, seed("ann", "A1", "S1.1")])) == "SG-5.8"
    assert rule_of(run([rec("ann", "move", ship="Vigil", path=["S1.2"])])) == "SG-5.8"


# -- SG-6 locations and movement -----------------------------------------------------------


def test_sg_6_1_normal_movement_is_adjacent_steps_of_your_own_ship() -> None:
    assert rule_of(run([*TO_PLAY, VIGIL, rec("ann", "move", ship="Vigil", path=["S1.3"])])) == "SG-6.1"
    assert rule_of(run([*TO_PLAY, VIGIL, rec("ann", "move", ship="Meridian", path=["S1.2"])])) == "SG-6.1"
    state = ok(run([*TO_PLAY, VIGIL, rec("ann", "move", ship="Vigil", path=["S1.2", "S1.3", "R1.1"])])).state
    assert state.ships["Vigil"].slot == "R1.1"


def test_sg_6_2_no_normal_movement_between_quadrants() -> None:
    to_gamma = [*TO_PLAY, rec("ann", "report_ship", card="Vigil", place="R1.1")]
    assert rule_of(run([*to_gamma, rec("ann", "move", ship="Vigil", path=["R1.2"])])) == "SG-6.2"
    replay = ok(run([*to_gamma, rec("ann", "move", ship="Vigil", path=["R2.3"], card="Bajoran Wormhole")]))
    assert replay.state.ships["Vigil"].slot == "R2.3" and replay.verdict.unchecked == 2  # the report and the card's move


def test_sg_6_3_far_end_is_the_opposite_location_on_the_ring() -> None:
    # from spoke 1 the ship leaves by S1.3; opposite it, four cards round, is S2.3 (Alpha)
    base = [*TO_PLAY, VIGIL]
    wnohgb = "Where No One Has Gone Before"
    assert rule_of(run([*base, rec("ann", "relocate", card=wnohgb, ships=["Vigil"], to="R2.1")])) == "SG-6.3"
    assert ok(run([*base, rec("ann", "relocate", card=wnohgb, ships=["Vigil"], to="S2.3")])).state.ships["Vigil"].slot == "S2.3"
    # S2.3 is no planet: the closest Alpha planet to it on the ring is R2.1 (Crewman 5 stands for a farthest-planet card)
    ok(run([*base, draw("ann", "Crewman 5", extra=True), rec("ann", "relocate", card="Crewman 5", ships=["Vigil"], to="R2.1", planet=True)]))


def test_sg_6_4_ruling_inserting_joins_one_quadrant_and_shifts_nothing() -> None:
    assert rule_of(run([*TO_PLAY, rec("ann", "insert", card="Q's Planet", after="S1.1", before="S1.3", span=1)])) == "SG-6.4"
    assert rule_of(run([*TO_PLAY, rec("ann", "insert", card="Q's Planet", after="R1.1", before="R1.2", span=1)])) == "SG-6.4"
    assert rule_of(run([*TO_PLAY, rec("ann", "insert", card="Bajoran Wormhole", after="R1.2", before="R1.3", span=1)])) == "SG-5.5"
    state = ok(run([*TO_PLAY, rec("ann", "insert", card="Q's Planet", after="R1.2", before="R1.3", span=1)])).state
    assert state.grid.slots["X1"].quadrant == "Gamma" and state.grid.slots["R1.3"].name == "G1"


def test_sg_6_4_only_a_card_that_is_inserted_becomes_a_location() -> None:
    illegal = run([*TO_PLAY, rec("ann", "insert", card="Alien Probe", after="R1.2", before="R1.3", span=1)]).verdict.error
    assert illegal is not None and illegal.rule == "SG-6.4" and "Alien Probe" in illegal.message
    named = ok(run([*TO_PLAY, rec("ann", "insert", card="Q's Planet", after="R1.2", before="R1.3", span=1)]))
    assert named.verdict.unchecked == 0  # the text names Q's Planet as inserted: fully checked
    unnamed = ok(run([*TO_PLAY, rec("bob", "insert", card="Crewman 1", after="R1.2", before="R1.3", span=1)]))
    assert unnamed.verdict.unchecked == 1  # that Crewman 1 is inserted is taken on trust


def q_met() -> list[dict[str, Any]]:
    """ann seeded a Q under S1.1 and meets it on her first turn: she has one swap."""
    return [*with_seeded("Q"), rec("ann", "encounter", card="Q", place="S1.1")]


def test_sg_6_5_q_swaps_within_a_quadrant() -> None:
    assert rule_of(run([*q_met(), rec("ann", "q_swap", pairs=[["S1.1", "R1.2"]])])) == "SG-6.5"
    assert rule_of(run([*q_met(), rec("ann", "q_swap", pairs=[["S1.1", "S1.2"], ["S1.2", "S1.3"]])])) == "SG-6.5"
    replay = ok(run([*q_met(), rec("ann", "q_swap", pairs=[["S1.1", "S2.1"], ["R1.2", "R1.3"]])]))
    assert replay.state.grid.slots["S1.1"].name == "B1" and replay.state.grid.slots["R1.2"].name == "G1"
    assert replay.verdict.unchecked == 1  # only the seeding: the Q and its swap are checked


def test_sg_6_5_ruling_a_swap_needs_a_q_held() -> None:
    no_q = run([*TO_PLAY, rec("ann", "q_swap", pairs=[["S1.1", "S2.1"]])]).verdict.error
    assert no_q is not None and no_q.rule == "SG-6.5" and "no Q" in no_q.message
    swap = rec("ann", "q_swap", pairs=[["S1.1", "S2.1"]])
    assert rule_of(run([*q_met(), swap, swap])) == "SG-6.5"  # one Q met, one swap
    q_drawn = setup()
    q_drawn["decks"]["bob"]["draw"][-1] = "Q"
    from_hand = ok(run([*TO_PLAY, draw("bob", "Q", extra=True), rec("bob", "q_swap", pairs=[["S1.1", "S2.1"]])], setup_=q_drawn))
    assert "Q" not in from_hand.state.seats["bob"].hand  # a Q from hand is used up


def test_sg_6_6_relocated_ships_share_a_location() -> None:
    base = [*TO_PLAY, VIGIL, rec("ann", "report_ship", card="Lantern", place="S1.2")]
    wnohgb = "Where No One Has Gone Before"
    assert rule_of(run([*base, rec("ann", "relocate", card=wnohgb, ships=["Vigil", "Lantern"], to="S2.3")])) == "SG-6.6"
    assert rule_of(run([*base, rec("ann", "relocate", card=wnohgb, ships=["Skiff"], to="S2.3")])) == "SG-6.6"


def test_sg_6_6_the_relocating_card_is_held_and_moves_ships() -> None:
    base = [*TO_PLAY, VIGIL]
    absent = run([*base, rec("ann", "relocate", card="Tractor Hazard", ships=["Vigil"], to="S2.3")]).verdict.error
    assert absent is not None and absent.rule == "SG-6.6" and "neither in ann's hand" in absent.message
    probe = run([*base, rec("ann", "relocate", card="Alien Probe", ships=["Vigil"], to="S2.3")]).verdict.error
    assert probe is not None and probe.rule == "SG-6.6" and "does not send ships" in probe.message
    from_hand = ok(run([*base, rec("ann", "relocate", card="Where No One Has Gone Before", ships=["Vigil"], to="S2.3")]))
    assert from_hand.verdict.unchecked == 1 and "Where No One Has Gone Before" not in from_hand.state.seats["ann"].hand
    lakanta = [*base, rec("bob", "play", card="Lakanta"), rec("bob", "relocate", card="Lakanta", ships=["Vigil"], to="S2.3")]
    in_play = ok(run(lakanta))  # Lakanta works from play; that it is still there is taken on trust
    assert in_play.state.ships["Vigil"].slot == "S2.3" and in_play.verdict.unchecked == 3


# -- SG-7 the named cards ----------------------------------------------------------------------


def test_sg_7_1_alien_probe_affects_all_players() -> None:
    assert rule_of(run([*TO_PLAY, rec("ann", "play", card="Alien Probe", players=["bob"])])) == "SG-7.1"
    ok(run([*TO_PLAY, rec("ann", "play", card="Alien Probe", players=["bob", "ann"])]))


def with_seeded(card: str, place: str = "S1.1") -> list[dict[str, Any]]:
    """The standard game with ann seeding `card` under `place`, up to ann's first turn."""
    return [*STANDARD_SEEDING, rec("ann", "seed_dilemmas", place=place, cards=[card]), *PASSES[1:], rec("ann", "pass"), *OPENING]


def test_sg_7_2_borg_ship_tours_the_ring_clockwise_then_leaves() -> None:
    base = [*with_seeded("Borg Ship"), rec("ann", "encounter", card="Borg Ship", place="S1.1")]
    borg = f"Borg Ship#{len(base)}"
    tour = ["S1.2", "S1.3", "R1.1", "R1.2", "R1.3", "S2.3", "R2.1", "R2.2", "R2.3", "S1.3"]
    records = base + [rec("ann", "borg_ship_move", borg=borg, to=to) for to in tour]
    assert rule_of(run([*records[:-1], rec("ann", "borg_ship_move", borg=borg)])) == "SG-7.2"  # not round yet
    state = ok(run([*records, rec("ann", "borg_ship_move", borg=borg)])).state
    assert state.borgs == {}
    assert rule_of(run([*base, rec("ann", "borg_ship_move", borg=borg, to="S1.3")])) == "SG-7.2"


def test_sg_7_3_dial_martok_for_murder_two_personnel_of_one_player() -> None:
    bob_turn = [*TO_PLAY, *turn_end("ann", "Crewman 3")]

    def dial(*owners: str) -> dict[str, Any]:
        people = [{"card": f"Officer {i}", "owner": o} for i, o in enumerate(owners)]
        return rec("bob", "play", card="Dial Martok for Murder", personnel=people)

    assert rule_of(run([*bob_turn, dial("ann", "bob")])) == "SG-7.3"
    assert rule_of(run([*bob_turn, dial("ann")])) == "SG-7.3"
    ok(run([*bob_turn, dial("ann", "ann")]))


def test_sg_7_5_encounters_need_the_seeded_dilemma() -> None:
    assert rule_of(run([*TO_PLAY, rec("ann", "encounter", card="Q", place="S1.1")])) == "SG-7.5"
    replay = ok(run([*with_seeded("Sensor Ghost"), rec("ann", "encounter", card="Sensor Ghost", place="S1.1")]))
    assert replay.state.grid.slots["S1.1"].dilemmas == [] and replay.verdict.unchecked == 2  # seeding it, meeting it


def test_sg_7_6_plasma_fire_damages_at_the_end_of_the_owners_turn() -> None:
    base = [*TO_PLAY, VIGIL, rec("ann", "play", card="Plasma Fire", ship="Vigil")]
    damage = rec("ann", "plasma_fire_damage", ship="Vigil")
    assert rule_of(run([*base, damage])) == "SG-7.6"  # main step
    ok(run([*base, rec("ann", "end_turn"), damage]))
    assert rule_of(run([*base, rec("ann", "end_turn"), damage, damage])) == "SG-7.6"
    bob_end = [*base, *turn_end("ann", "Crewman 4"), rec("bob", "end_turn")]
    assert rule_of(run([*bob_end, rec("bob", "plasma_fire_damage", ship="Vigil")])) == "SG-7.6"
    assert rule_of(run([*TO_PLAY, rec("ann", "play", card="Plasma Fire")])) == "SG-7.6"


def test_sg_7_7_rogue_borg_mercenaries_attack_on_owner_or_affected_turns() -> None:
    base = [*with_seeded("Rogue Borg Mercenaries"), rec("ann", "encounter", card="Rogue Borg Mercenaries", place="S1.1")]
    group = f"Rogue Borg Mercenaries#{len(base)}"
    ok(run([*base, rec("ann", "mercenaries_attack", group=group)]))
    assert rule_of(run([*base, *turn_end("ann", "Crewman 5"), rec("bob", "mercenaries_attack", group=group)])) == "SG-7.7"


def test_sg_7_8_one_target_cards_name_one_player() -> None:
    assert rule_of(run([*TO_PLAY, rec("ann", "play", card="Static Warp Bubble")])) == "SG-7.8"
    assert rule_of(run([*TO_PLAY, rec("bob", "play", card="Telepathic Alien Kidnappers", players=["ann", "bob"])])) == "SG-7.8"
    ok(run([*TO_PLAY, rec("ann", "play", card="Static Warp Bubble", players=["bob"])]))


def test_sg_7_10_where_no_one_and_lakanta_go_opposite_without_planet_criterion() -> None:
    base = [*TO_PLAY, rec("ann", "report_ship", card="Vigil", place="S2.1")]
    wnohgb = "Where No One Has Gone Before"
    assert rule_of(run([*base, rec("ann", "relocate", card=wnohgb, ships=["Vigil"], to="S1.3", planet=True)])) == "SG-7.10"
    ok(run([*base, rec("ann", "relocate", card=wnohgb, ships=["Vigil"], to="S1.3")]))
    # from Gamma G2 (R1.2) the opposite, R2.2, is Delta: the far end is the closest Gamma location, R1.3
    gamma = [*TO_PLAY, rec("ann", "report_ship", card="Vigil", place="R1.2")]
    assert rule_of(run([*gamma, rec("bob", "relocate", card="Lakanta", ships=["Vigil"], to="R2.2")])) == "SG-6.3"
    ok(run([*gamma, rec("bob", "relocate", card="Lakanta", ships=["Vigil"], to="R1.3")]))


# -- SG-8 the end of the game -----------------------------------------------------------------


def test_sg_8_1_concede_and_sg_8_3_last_player_standing() -> None:
    verdict = ok(run([rec("bob", "concede")])).verdict
    assert verdict.verdict == "complete" and verdict.result is not None and verdict.result.winners == ["ann"]


def test_sg_8_1_multiplayer_concede_keeps_the_game_going_and_orders_placements() -> None:
    cat_out = [rec("cat", "concede"), seed("ann", "A1", "S1.1"), seed("bob", "B1", "S2.1"), seed("ann", "A2", "S1.2")]
    replay = ok(run(cat_out, setup_=three(), players=["ann", "bob", "cat"]))
    assert replay.verdict.verdict == "ongoing"
    result = ok(run([*cat_out, rec("bob", "concede")], setup_=three(), players=["ann", "bob", "cat"])).verdict.result
    assert result is not None and result.placements == {"ann": 1, "bob": 2, "cat": 3}


def test_sg_8_2_game_loss_is_the_judges() -> None:
    assert rule_of(run([rec("ann", "game_loss", player="bob")])) == "SG-8.2"
    result = ok(run([rec("judge", "game_loss", player="bob")])).verdict.result
    assert result is not None and result.winners == ["ann"]


def test_sg_8_4_final_scores_place_the_players() -> None:
    assert rule_of(run([*TO_PLAY, rec("judge", "final", scores={"ann": 40})])) == "SG-8.4"
    assert rule_of(run([*TO_PLAY, rec("ann", "final", scores={"ann": 40, "bob": 10})])) == "SG-8.4"
    result = ok(run([*TO_PLAY, rec("judge", "final", scores={"ann": 40, "bob": 100})])).verdict.result
    assert result is not None and result.placements == {"bob": 1, "ann": 2} and result.reason == "final"


def test_sg_8_4_a_score_past_the_ruling_s_bound_is_malformed() -> None:
    """The ruling's bound is a million points either way; a longer number once broke the result's float."""
    ok(run([*TO_PLAY, rec("judge", "final", scores={"ann": 1_000_000, "bob": -1_000_000})]))
    for score in (1_000_001, -1_000_001, 10**400):
        verdict = run([*TO_PLAY, rec("judge", "final", scores={"ann": score, "bob": 0})]).verdict
        assert verdict.verdict == "malformed" and verdict.error is not None, score
        assert verdict.error.field == "scores[...]" and "1000000" in verdict.error.message, verdict.error


def test_sg_8_5_time_is_a_draw() -> None:
    result = ok(run([*TO_PLAY, rec("judge", "time")])).verdict.result
    assert result is not None and result.winners == [] and result.placements == {"ann": 1, "bob": 1}


def test_sg_8_6_score_is_the_final_points() -> None:
    result = ok(run([*TO_PLAY, rec("judge", "final", scores={"ann": 60, "bob": 60})])).verdict.result
    assert result is not None and result.score == {"ann": 60.0, "bob": 60.0} and result.winners == ["ann", "bob"]


def test_sg_8_7_nothing_after_the_end_and_nothing_from_players_out() -> None:
    assert rule_of(run([rec("bob", "concede"), seed("ann", "A1", "S1.1")])) == "SG-8.7"
    three_players = dict(setup_=three(), players=["ann", "bob", "cat"])
    assert rule_of(run([rec("cat", "concede"), rec("cat", "concede")], **three_players)) == "SG-8.7"


# -- SG-9 what is unchecked ----------------------------------------------------------------------


def test_sg_9_unchecked_counts_opaque_records_only() -> None:
    records = [*STANDARD_SEEDING, rec("ann", "seed_dilemmas", place="S1.1", cards=["Q"]), rec("bob", "seed_card", card="Transwarp Network Gateway", place="S1.3")]
    records += [*PASSES, *OPENING, VIGIL, rec("ann", "move", ship="Vigil", path=["S1.2"]), rec("ann", "action", text="scan")]
    assert ok(run(records)).verdict.unchecked == 3  # the dilemma seeding, the ship report (is it a ship?), the action


def test_illegal_leaves_the_state_untouched() -> None:
    replay = ok(run(TO_PLAY))
    before = RULES.describe(replay.state)
    with pytest.raises(Illegal):
        RULES.apply(replay.state, sg.Insert(by="ann", card="Q's Planet", after="S1.1", before="R1.2", span=1))
    assert RULES.describe(replay.state) == before


def three_player_play() -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """A three-player game seeded by taking the first legal place each time; ann seeds Rogue Borg Mercenaries."""
    players = ["ann", "bob", "cat"]
    setup3 = three()
    records: list[dict[str, Any]] = []
    while (state := ok(run(records, setup_=setup3, players=players)).state).phase == "missions":
        records.append(record_to_dict(next(iter(RULES.legal(state)))))
    records += [rec("ann", "seed_dilemmas", place="S1.1", cards=["Rogue Borg Mercenaries"])]
    records += [rec(p, "pass") for p in ("bob", "cat", "ann")]
    records += [draw(p, card) for p in players for card in setup3["decks"][p]["draw"][:7]]
    return records, setup3


def test_sg_7_7_mercenaries_never_attack_on_a_third_players_turn() -> None:
    records, setup3 = three_player_play()
    players = ["ann", "bob", "cat"]
    records += [*turn_end("ann", "Crewman 20"), rec("bob", "encounter", card="Rogue Borg Mercenaries", place="S1.1")]
    group = f"Rogue Borg Mercenaries#{len(records)}"
    attack = [rec("bob", "mercenaries_attack", group=group)]
    records += [*attack, *turn_end("bob", "Crewman 20")]
    assert rule_of(run([*records, rec("cat", "mercenaries_attack", group=group)], setup_=setup3, players=players)) == "SG-7.7"
    records += [*turn_end("cat", "Crewman 20"), rec("ann", "mercenaries_attack", group=group)]  # the owner's turn
    assert ok(run(records, setup_=setup3, players=players)).state.groups[group].affected == "bob"


def test_a_deck_pile_is_its_names_counted_in_order_and_each_copy_is_its_own() -> None:
    """start takes piles from a memo keyed on the whole list of names: they must be what counting gives."""
    rng = random.Random(7)
    names = ["Ion Squall", "Q", "Sensor Ghost", "Vigil", "Rogue Comet"]
    for _ in range(300):
        cards = [rng.choice(names) for _ in range(rng.randint(0, 12))]
        first, again = counted(list(cards)), counted(list(cards))
        plain = dict(Counter(cards))
        assert first == again == plain and list(first) == list(again) == list(plain)
        if first:
            first.pop(next(iter(first)))  # a game taking a card changes its own pile only
            assert counted(list(cards)) == plain
