"""Crossover rules XO-5, one test (or more) each, named by its id in RULES.md: the play phase."""

from __future__ import annotations

import pytest

from referee.ruleset import Illegal
from tests.crossover.xolog import (
    ANN_PLAIN,
    BOB_PLAIN,
    OPEN,
    PLAIN,
    TO_COMBAT,
    XO,
    apply,
    attack,
    draws,
    equip,
    event,
    header,
    illegal,
    legal,
    pass_,
    rec,
    summon,
)

# -- XO-5 play phase ---------------------------------------------------------------------


def test_xo_5_1_ruling_each_play_phase_starts_with_the_first_player() -> None:
    records = [*PLAIN, summon("ann", "M1"), pass_("bob"), pass_("ann"), *draws("ann", "M7", "M9"), *draws("bob", "M8")]
    state = legal(records)
    assert state.phase == "play" and state.round == 2 and state.actor == "ann"


def test_xo_5_2_ruling_exactly_the_play_value_or_a_pass() -> None:
    two = draws("ann", "Lead Two", "M1", "M2", "M5", "Sword") + draws("bob", *BOB_PLAIN)
    state = legal([*two, summon("ann", "M1")])
    assert state.actor == "ann" and state.plays == 1
    assert "cannot pass" in illegal([*two, summon("ann", "M1"), pass_("ann")], "XO-5.2")
    state = legal([*two, summon("ann", "M1"), equip("ann", "Sword", "M1")])
    assert state.actor == "bob"
    zero = draws("ann", "Lead Zero", "M1", "M2", "M5", "Sword") + draws("bob", *BOB_PLAIN)
    assert "only pass" in illegal([*zero, summon("ann", "M1")], "XO-5.2")
    assert legal([*zero, pass_("ann")]).actor == "bob"


def test_xo_5_3_ruling_a_turn_starts_only_if_it_can_be_finished() -> None:
    three = draws("ann", "Lead Three", "M1", "Sword", "Shield", "Relic") + draws("bob", *BOB_PLAIN)
    assert legal([*three, summon("ann", "M1"), equip("ann", "Sword", "M1"), equip("ann", "Shield", "M1")]).actor == "bob"
    # without a minion the three items are not playable: one event is not enough for three plays
    short = draws("ann", "Lead Three", "Sword", "Shield", "Relic", "Draw A") + draws("bob", *BOB_PLAIN)
    assert "must pass" in illegal([*short, event("ann", "Draw A")], "XO-5.3")


def test_xo_5_4_cards_from_hand_of_the_right_type() -> None:
    assert "not in ann's hand" in illegal([*PLAIN, summon("ann", "M9")], "XO-5.4")
    assert "equipment, not a minion" in illegal([*PLAIN, summon("ann", "Sword")], "XO-5.4")
    with_leader = [*draws("ann", "Lead One", "M1", "M2", "Lead Two", "Sword"), rec("ann", "lead", card="Lead One"), *draws("bob", *BOB_PLAIN)]
    assert "leader, not a minion" in illegal([*with_leader, summon("ann", "Lead Two")], "XO-5.4")
    assert "not a minion ann has" in illegal([*PLAIN, equip("ann", "Sword", "M1")], "XO-5.4")
    records = [*PLAIN, summon("ann", "M1"), summon("bob", "M3")]
    assert "not a minion ann has" in illegal([*records, equip("ann", "Sword", "M3")], "XO-5.4")
    assert "minion, not an event" in illegal([*PLAIN, event("ann", "M1")], "XO-5.4")


def test_xo_5_4_ruling_r1_equipment_only_on_your_own_minions() -> None:
    """Ruling XO-R1: bob's M3 is in play, but ann cannot put her Sword on it."""
    records = [*PLAIN, summon("ann", "M1"), summon("bob", "M3")]
    message = illegal([*records, equip("ann", "Sword", "M3")], "XO-5.4")
    assert "M3 is not a minion ann has in play" in message
    assert legal([*records, equip("ann", "Sword", "M1")]).sides["ann"].minions["M1"].equipment == ["Sword"]


def test_xo_5_5_draw_event_draws_up_to_two() -> None:
    state = legal([*TO_COMBAT[:10], summon("ann", "M1"), event("bob", "Draw A", 2)])
    assert state.owed == 2 and XO.to_act(state) == ("chance",)
    state = legal([*TO_COMBAT[:10], summon("ann", "M1"), event("bob", "Draw A", 2), *draws("bob", "M9", "M8")])
    assert {"M9", "M8"} <= state.sides["bob"].hand and state.actor == "ann"
    assert "only a Draw event" in illegal([*TO_COMBAT[:10], event("ann", "Stop A", 1)], "XO-5.5")


def test_xo_5_5_ruling_no_more_draws_than_the_deck_holds() -> None:
    state = legal([*TO_COMBAT[:10], summon("ann", "M1")])
    state.sides["bob"].deck = {"M9"}
    with pytest.raises(Illegal) as exc:
        apply(state, event("bob", "Draw A", 2))
    assert exc.value.rule == "XO-5.5" and "only 1 card" in exc.value.message


def test_xo_5_6_stop_ends_the_phase_when_the_turn_comes_back() -> None:
    state = legal([*OPEN, event("ann", "Stop A"), summon("bob", "M3")])
    # combat came at once; ann has no minions and lost the skirmish to bob
    assert state.skirmishes == [("bob", "ann")] and state.sides["bob"].wins == 1


def test_xo_5_7_ruling_a_pass_may_draw() -> None:
    state = legal([*PLAIN, pass_("ann", draw=True)])
    assert state.owed == 1 and state.actor == "ann"
    state = legal([*PLAIN, pass_("ann", draw=True), *draws("ann", "M9"), summon("bob", "M3")])
    assert "M9" in state.sides["ann"].hand and state.actor == "ann"
    state = legal([*PLAIN, summon("ann", "M1")])
    state.sides["bob"].deck = set()
    with pytest.raises(Illegal) as exc:
        apply(state, pass_("bob", draw=True))
    assert exc.value.rule == "XO-5.7"


def test_xo_5_8_the_phase_ends_when_all_pass_in_succession() -> None:
    state = legal([*PLAIN, pass_("ann"), summon("bob", "M3"), pass_("ann")])
    assert state.phase == "play" and state.actor == "bob"
    state = legal([*PLAIN, pass_("ann"), summon("bob", "M3"), pass_("ann"), pass_("bob")])
    assert state.phase != "play"


def test_xo_5_9_ruling_a_play_phase_event_has_no_other_effect() -> None:
    state = legal([*TO_COMBAT[:10], summon("ann", "M1"), event("bob", "Draw A", 0)])
    assert "Draw A" in state.sides["bob"].discard and state.actor == "ann"


def test_xo_5_1_ruling_the_next_player_starts_when_the_first_is_out() -> None:
    head = header({p: "dothack" for p in ("ann", "bob", "cat")}, first="bob")
    opening = draws("bob", *BOB_PLAIN) + draws("cat", *ANN_PLAIN) + draws("ann", "Lead One", "M5", "M7", "M8", "Relic")
    plays = [summon("bob", "M3"), summon("cat", "M1"), summon("ann", "M5"), pass_("bob"), pass_("cat"), pass_("ann")]
    combat = [attack("ann", "M5", "M3")]  # ann 3 attacks bob 2; cat sits out with M1 and wins
    state = legal([*opening, *plays, *combat], head)
    assert state.placements == {"bob": 3} and state.actor == "cat"
    state = legal([*opening, *plays, *combat, *draws("cat", "M7", "M8"), *draws("ann", "M1", "M2")], head)
    assert state.phase == "play" and state.actor == "cat"
