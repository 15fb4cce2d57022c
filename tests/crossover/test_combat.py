"""Crossover rules XO-6 and XO-7, one test (or more) each, named by its id in RULES.md: combat and skirmishes."""

from __future__ import annotations

from tests.crossover.xolog import (
    ARMED,
    PLAIN,
    TO_COMBAT,
    XO,
    attack,
    done,
    draws,
    equip,
    four_openings,
    four_players,
    header,
    illegal,
    legal,
    pass_,
    rec,
    respond,
    summon,
    three_players,
)

# -- XO-6 combat ----------------------------------------------------------------------------


def test_xo_6_1_initiative_order_with_ties_broken_by_seat() -> None:
    """ann M1 (1), bob M5 (3), cat M3 (2), dan M2 (1): bob, cat, then ann before dan by seat."""
    plays = [summon("ann", "M1"), summon("bob", "M5"), summon("cat", "M3"), summon("dan", "M2")]
    state = legal([*four_openings(), *plays, pass_("ann"), pass_("bob"), pass_("cat"), pass_("dan")], four_players())
    assert state.skirmishes == [("bob", "cat"), ("ann", "dan")]


def test_xo_6_1_ruling_ties_follow_seats_from_the_first_player() -> None:
    """With cat first: bob M5 (3), then cat, dan and ann at 1 each, in seat order from cat."""
    plays = [summon("cat", "M1"), summon("dan", "M2"), summon("ann", "M1"), summon("bob", "M5")]
    passes = [pass_("cat"), pass_("dan"), pass_("ann"), pass_("bob")]
    state = legal([*four_openings(("cat", "dan", "ann", "bob")), *plays, *passes], four_players("cat"))
    assert state.skirmishes == [("bob", "cat"), ("dan", "ann")]


def test_xo_6_2_skirmishes_pair_the_order_off() -> None:
    plays = [summon("ann", "M4"), summon("bob", "M8"), summon("cat", "M1"), summon("dan", "M6")]
    state = legal([*four_openings(), *plays, pass_("ann"), pass_("bob"), pass_("cat"), pass_("dan")], four_players())
    assert state.skirmishes == [("bob", "dan"), ("ann", "cat")]
    assert XO.to_act(state) == ("bob",) and state.waiting == "attack"


def test_xo_6_3_the_odd_player_out_sits_out_and_wins() -> None:
    opening = four_openings(("ann", "bob", "cat"))
    state = legal([*opening, summon("ann", "M1"), summon("bob", "M5"), summon("cat", "M3"), pass_("ann"), pass_("bob"), pass_("cat")], three_players())
    assert state.skirmishes == [("bob", "cat")] and "ann" in state.won and state.sides["ann"].wins == 1


def test_xo_6_4_ruling_no_minions_loses_and_nobody_wins_a_skirmish_of_empty_sides() -> None:
    state = legal([*PLAIN, summon("ann", "M1"), pass_("bob"), pass_("ann")])
    assert state.sides["ann"].wins == 1 and state.sides["bob"].wins == 0
    state = legal([*PLAIN, pass_("ann"), pass_("bob")])
    assert state.phase == "resolution" and state.sides["ann"].wins == state.sides["bob"].wins == 0
    # the odd player out without minions does not win
    opening = four_openings(("ann", "bob", "cat"))
    state = legal([*opening, summon("ann", "M1"), summon("bob", "M5"), pass_("cat"), pass_("ann"), pass_("bob")], three_players())
    assert state.skirmishes == [("bob", "ann")] and "cat" not in state.won


# -- XO-7 skirmishes --------------------------------------------------------------------------

def test_xo_7_1_ruling_only_the_attacker_attacks() -> None:
    state = legal(ARMED)
    assert state.skirmishes == [("bob", "ann")]
    illegal([*ARMED, attack("ann", "M1", "M3")], "XO-3.1")


def test_xo_7_2_targets() -> None:
    assert "not a minion bob has" in illegal([*ARMED, attack("bob", "M1", "M2")], "XO-7.2")
    assert "not a minion ann has" in illegal([*ARMED, attack("bob", "M3", "M3")], "XO-7.2")
    assert "must name 1 target" in illegal([*ARMED, attack("bob", "M3", "M1", "M2")], "XO-7.2")
    assert "must name 1 target" in illegal([*ARMED, attack("bob", "M3")], "XO-7.2")


def test_xo_7_2_ruling_double_attack_hits_two_different_minions() -> None:
    """ann's M1 (Sword) must name both of bob's minions once bob attacked and lost M4."""
    after = [*ARMED, attack("bob", "M4", "M2")]  # M4 and M2 die
    state = legal(after)
    assert state.sides["ann"].minions.keys() == {"M1"} and state.sides["bob"].minions.keys() == {"M3"}
    # now bob's M3 (endurance) attacks ann's M1: both die, ann has none, bob keeps none: tie to bob
    state = legal([*after, attack("bob", "M3", "M1")])
    assert state.sides["bob"].wins == 1


def test_xo_7_3_the_attacker_always_dies() -> None:
    state = legal([*ARMED, attack("bob", "M3", "M1")])
    assert "M3" not in state.sides["bob"].minions and "Shield" in state.sides["bob"].discard


def test_xo_7_4_endurance_needs_two_hits_and_abilities_do_not_stack() -> None:
    opening = draws("ann", "Lead Two", "M1", "M2", "Sword", "Relic") + draws("bob", "Lead Two", "M8", "M9", "Shield", "Relic")
    plays = [summon("ann", "M1"), equip("ann", "Sword", "M1"), summon("bob", "M8"), summon("bob", "M9"),
             equip("ann", "Relic", "M1"), summon("ann", "M2"), equip("bob", "Shield", "M8"), equip("bob", "Relic", "M8"),
             pass_("ann"), pass_("bob")]  # fmt: skip
    state = legal([*opening, *plays])
    assert state.skirmishes == [("bob", "ann")]
    bob, ann = state.sides["bob"], state.sides["ann"]
    assert bob.toughness("M8") == 4 and bob.hits("M8") == 2  # Shield and Relic: still two hits needed
    assert ann.hits("M1") == 2  # Sword and Relic: still two targets
    state = legal([*opening, *plays, attack("bob", "M9", "M1")])
    assert state.sides["ann"].minions["M1"].damage == 2  # one of the two hits M1 (Relic) needs
    state = legal([*opening, *plays, attack("bob", "M9", "M1"), attack("bob", "M8", "M1", "M2")])
    assert {"M1", "M2"} <= state.sides["ann"].discard and state.sides["bob"].wins == 1


def test_xo_7_5_ruling_half_hits_need_two_attacks() -> None:
    head = header({"ann": "dothack", "bob": "stccg2e"})
    opening = [*draws("ann", "Lead One", "M1", "M2", "M5", "Sword"), rec("bob", "opening", search=True), *draws("bob", "Strong A", "Strong B", "Weak A", "Weak B")]
    plays = [summon("ann", "M1"), summon("bob", "Strong A"), summon("bob", "Strong B"), pass_("ann"), pass_("bob")]
    state = legal([*opening, *plays], head)
    assert state.skirmishes == [("bob", "ann")]  # bob 2 + 3 = 5 > ann 1
    state = legal([*opening, *plays, attack("bob", "Strong A", "M1")], head)
    assert state.sides["ann"].minions["M1"].damage == 1 and "Strong A" in state.sides["bob"].discard
    state = legal([*opening, *plays, attack("bob", "Strong A", "M1"), attack("bob", "Strong B", "M1")], head)
    assert state.sides["bob"].wins == 1 and not state.sides["ann"].minions


def test_xo_7_6_the_window_asks_both_and_a_response_reopens_it() -> None:
    base = [*TO_COMBAT, attack("bob", "M3", "M1")]
    state = legal(base)
    assert XO.to_act(state) == ("bob", "ann")
    state = legal([*base, done("ann")])
    assert XO.to_act(state) == ("bob",)
    assert "not asking ann" in illegal([*base, done("ann"), done("ann")], "XO-7.6")
    # bob's Draw re-opens the window for ann, who may answer it with her Stop!
    state = legal([*base, done("ann"), respond("bob", "Draw A", "M1")])
    assert XO.to_act(state) == ("ann",)
    state = legal([*base, done("ann"), respond("bob", "Draw A", "M1"), respond("ann", "Stop A", "M1")])
    assert "M1" in state.sides["ann"].minions and "M3" not in state.sides["bob"].minions
    illegal([*TO_COMBAT, done("bob")], "XO-7.6")
    assert "not a target" in illegal([*base, respond("ann", "Stop A", "M2")], "XO-7.6")
    assert "not an event" in illegal([*base, respond("ann", "Sword", "M1")], "XO-7.6")


def test_xo_7_6_ruling_nobody_is_asked_who_holds_nothing_to_play() -> None:
    state = legal([*ARMED, attack("bob", "M3", "M1")])
    assert state.attack is None and state.waiting == "attack"  # resolved at once


def test_xo_7_7_stop_saves_the_target() -> None:
    state = legal([*TO_COMBAT, attack("bob", "M3", "M1"), respond("ann", "Stop A", "M1"), done("bob")])
    assert "M1" in state.sides["ann"].minions and "Stop A" in state.sides["ann"].discard


def test_xo_7_7_only_the_defender_plays_stop() -> None:
    opening = draws("ann", "Lead One", "M1", "M2", "Draw A", "Stop B") + draws("bob", "Lead One", "M3", "M4", "Stop A", "Draw B")
    plays = [summon("ann", "M1"), summon("bob", "M3"), summon("ann", "M2"), summon("bob", "M4"), pass_("ann"), pass_("bob")]
    base = [*opening, *plays, attack("bob", "M3", "M1")]
    assert legal(base).attack is not None
    assert "may only answer with a Draw" in illegal([*base, respond("bob", "Stop A", "M1")], "XO-7.8")
    assert "may only answer with a Stop!" in illegal([*base, respond("ann", "Draw A", "M1")], "XO-7.7")


def test_xo_7_7_stop_on_endurance_counts_the_hit_but_cannot_kill() -> None:
    opening = draws("ann", "Lead Two", "M1", "M2", "Shield", "Stop A") + draws("bob", "Lead One", "M8", "M9", "M7", "Sword")
    plays = [summon("ann", "M1"), equip("ann", "Shield", "M1"), summon("bob", "M8"), pass_("ann"), summon("bob", "M9"), pass_("ann"), pass_("bob")]
    base = [*opening, *plays]
    state = legal(base)
    assert state.skirmishes == [("bob", "ann")]
    state = legal([*base, attack("bob", "M8", "M1"), respond("ann", "Stop A", "M1")])
    assert state.sides["ann"].minions["M1"].damage == 2  # one hit of the two it needs
    state = legal([*base, attack("bob", "M8", "M1"), respond("ann", "Stop A", "M1"), attack("bob", "M9", "M1")])
    assert not state.sides["ann"].minions and state.sides["bob"].wins == 1


def test_xo_7_7_ruling_r3_a_stopped_half_hit_stops_half_a_hit_short() -> None:
    """Ruling XO-R3: ann's M1 (Shield: endurance, four halves) takes a full hit and a half hit (three halves);
    a stopped half hit leaves it at three, and the next hit kills it."""
    head = header({"ann": "dothack", "bob": "stccg2e"})
    opening = [*draws("ann", "Lead One", "M1", "Shield", "Stop A", "M2"), rec("bob", "opening", search=True)]
    opening += draws("bob", "Weak A", "Strong A", "Strong B", "Weak B")
    plays = [summon("ann", "M1"), summon("bob", "Weak A"), summon("bob", "Strong A"), equip("ann", "Shield", "M1"),
             summon("bob", "Strong B"), summon("bob", "Weak B"), pass_("ann"), pass_("bob")]  # fmt: skip
    base = [*opening, *plays, attack("bob", "Weak A", "M1"), done("ann"), attack("bob", "Strong A", "M1"), done("ann")]
    assert legal(base, head).sides["ann"].minions["M1"].damage == 3  # a full hit and a half hit
    stopped = [*base, attack("bob", "Strong B", "M1"), respond("ann", "Stop A", "M1")]
    assert legal(stopped, head).sides["ann"].minions["M1"].damage == 3  # the half hit counted, but capped short of death
    state = legal([*stopped, attack("bob", "Weak B", "M1")], head)
    assert "M1" in state.sides["ann"].discard and state.sides["bob"].wins == 1


def test_xo_7_7_a_minion_saved_twice_is_refused() -> None:
    opening = draws("ann", "Lead One", "M1", "M2", "Stop A", "Stop B") + draws("bob", "Lead Two", "M3", "M4", "Sword", "M6")
    plays = [summon("ann", "M1"), summon("bob", "M3"), equip("bob", "Sword", "M3"), summon("ann", "M2"),
             summon("bob", "M4"), summon("bob", "M6"), pass_("ann"), pass_("bob")]  # fmt: skip
    base = [*opening, *plays, attack("bob", "M3", "M1", "M2"), respond("ann", "Stop A", "M1")]
    assert XO.to_act(legal(base)) == ("ann",)  # M2 is still unprotected
    assert "already saved" in illegal([*base, respond("ann", "Stop B", "M1")], "XO-7.7")
    state = legal([*base, respond("ann", "Stop B", "M2")])
    assert set(state.sides["ann"].minions) == {"M1", "M2"} and "M3" in state.sides["bob"].discard


def test_xo_7_8_draw_keeps_one_target() -> None:
    opening = draws("ann", "Lead One", "M1", "M2", "M3", "M4") + draws("bob", "Lead One", "M8", "Sword", "Draw A", "M9")
    plays = [summon("ann", "M1"), summon("bob", "M8"), summon("ann", "M2"), equip("bob", "Sword", "M8"), pass_("ann"), summon("bob", "M9"), pass_("ann"), pass_("bob")]
    base = [*opening, *plays, attack("bob", "M8", "M1", "M2")]
    assert XO.to_act(legal(base)) == ("bob",)
    state = legal([*base, respond("bob", "Draw A", "M2")])
    ann = state.sides["ann"]
    assert "M1" in ann.minions and "M2" in ann.discard


def test_xo_7_8_draw_kills_through_endurance() -> None:
    opening = draws("ann", "Lead Two", "M1", "Shield", "Sword", "Relic") + draws("bob", "Lead One", "M8", "M9", "Draw A", "M7")
    plays = [summon("ann", "M1"), equip("ann", "Shield", "M1"), summon("bob", "M8"), pass_("ann"), summon("bob", "M9"), pass_("ann"), pass_("bob")]
    base = [*opening, *plays, attack("bob", "M8", "M1")]
    state = legal([*base, done("bob")])
    assert state.sides["ann"].minions["M1"].damage == 2
    state = legal([*base, respond("bob", "Draw A", "M1")])
    assert "M1" in state.sides["ann"].discard and state.sides["bob"].wins == 1


def test_xo_7_9_even_integrity_dies_together_but_not_when_attacking() -> None:
    head = header({"ann": "stccg1e", "bob": "dothack"})
    opening = draws("ann", "Ship Two", "Even A", "Even B", "Even C", "Odd A") + draws("bob", "Lead Three", "M8", "M9", "M7", "M6")
    plays = [summon("ann", "Even A"), summon("ann", "Even B"), summon("bob", "M8"),
             summon("bob", "M9"), summon("bob", "M7"), summon("ann", "Even C"), summon("ann", "Odd A"), pass_("bob"), pass_("ann")]  # fmt: skip
    state = legal([*opening, *plays], head)
    # ann 3+2+1+2 = 8; bob 5+6+4 = 15: bob attacks
    assert state.skirmishes == [("bob", "ann")]
    state = legal([*opening, *plays, attack("bob", "M8", "Even B")], head)
    ann = state.sides["ann"]
    assert set(ann.minions) == {"Odd A"} and {"Even A", "Even B", "Even C"} <= ann.discard


def test_xo_7_9_dying_while_attacking_does_not_take_the_others() -> None:
    head = header({"ann": "stccg1e", "bob": "dothack"})
    opening = draws("ann", "Ship Two", "Even A", "Even B", "Odd B", "Odd D") + draws("bob", "Lead One", "M1", "M2", "M3", "Sword")
    plays = [summon("ann", "Even A"), summon("ann", "Even B"), summon("bob", "M1"), summon("ann", "Odd B"), summon("ann", "Odd D"),
             summon("bob", "M2"), pass_("ann"), summon("bob", "M3"), pass_("ann"), pass_("bob")]  # fmt: skip
    state = legal([*opening, *plays], head)
    assert state.skirmishes == [("ann", "bob")]
    state = legal([*opening, *plays, attack("ann", "Even A", "M1", "M2")], head)
    ann = state.sides["ann"]
    assert "Even A" in ann.discard and set(ann.minions) == {"Even B", "Odd B", "Odd D"}


def test_xo_7_10_ruling_a_tie_goes_to_the_attacker() -> None:
    state = legal([*ARMED, attack("bob", "M4", "M2"), attack("bob", "M3", "M1")])
    assert state.sides["bob"].wins == 1 and state.sides["ann"].wins == 0


def test_xo_7_10_the_defender_wins_when_the_attacker_runs_out() -> None:
    opening = draws("ann", "Lead One", "M1", "M2", "M5", "Sword") + draws("bob", "Lead One", "M8", "M3", "M4", "Shield")
    plays = [summon("ann", "M1"), summon("bob", "M8"), summon("ann", "M2"), pass_("bob"), pass_("ann")]
    state = legal([*opening, *plays, attack("bob", "M8", "M1")])
    assert state.sides["ann"].wins == 1
