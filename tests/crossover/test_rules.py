"""One test (or more) per crossover rule and ruling, named by its id in RULES.md."""

from __future__ import annotations

import copy
from typing import Any

import msgspec
import pytest

from referee.logio import record_decoder
from referee.ruleset import Illegal
from referee.rulesets import get
from tests.crossover.xolog import (
    DOT,
    attack,
    done,
    draws,
    equip,
    event,
    header,
    pass_,
    rec,
    resolve,
    respond,
    run,
    summon,
)

XO = get("crossover")
DECODE = record_decoder("crossover").decode

# ann and bob (dothack, play value 1) hold events: ann a Stop!, bob a Draw.
OPEN = draws("ann", "Lead One", "M1", "M2", "Stop A", "Sword") + draws("bob", "Lead One", "M3", "M4", "Draw A", "Shield")
# Two minions each; ann's initiative 2, bob's 4: bob attacks ann.
TO_COMBAT = [*OPEN, summon("ann", "M1"), summon("bob", "M3"), summon("ann", "M2"), summon("bob", "M4"), pass_("ann"), pass_("bob")]
# The same without any events in hand, so no response window opens.
ANN_PLAIN = ("Lead One", "M1", "M2", "M5", "Sword")
BOB_PLAIN = ("Lead One", "M3", "M4", "M6", "Shield")
PLAIN = draws("ann", *ANN_PLAIN) + draws("bob", *BOB_PLAIN)


def illegal(records: list[dict[str, Any]], rule: str, head: dict[str, Any] | None = None) -> str:
    """Assert the last record breaks `rule`; return the message."""
    verdict = run(records, head).verdict
    assert verdict.verdict == "illegal", verdict
    assert verdict.error is not None
    assert (verdict.error.rule, verdict.error.seq) == (rule, len(records)), verdict.error
    return verdict.error.message


def legal(records: list[dict[str, Any]], head: dict[str, Any] | None = None) -> Any:
    """Assert every record is legal; return the final state."""
    replay = run(records, head)
    assert replay.verdict.error is None, replay.verdict.error
    return replay.state


def apply(state: Any, record: dict[str, Any]) -> None:
    """Apply one record, given as a dict, straight to a state (for states a log cannot reach)."""
    XO.apply(state, DECODE(msgspec.json.encode({"seq": 1, **record})))


def setup_illegal(head: dict[str, Any], rule: str) -> str:
    verdict = run([], head).verdict
    assert verdict.verdict == "illegal" and verdict.error is not None, verdict
    assert verdict.error.rule == rule, verdict.error
    return verdict.error.message


def card_deck(**change: Any) -> dict[str, Any]:
    """A header whose ann deck has its first monster replaced by `change`."""
    head = header()
    cards = copy.deepcopy(DOT)
    cards[4] = {"name": "Odd", **change}
    head["setup"]["decks"]["ann"]["cards"] = cards
    return head


# -- XO-1 players and decks --------------------------------------------------------


def test_xo_1_1_players_first_and_decks() -> None:
    head = header()
    head["setup"]["first"] = "cat"
    assert "not one of the players" in setup_illegal(head, "XO-1.1")
    head = header()
    del head["setup"]["decks"]["bob"]
    setup_illegal(head, "XO-1.1")
    head = header({"ann": "dothack"})
    setup_illegal(head, "XO-1.1")
    head = header({p: "dothack" for p in ("a", "b", "c", "d", "e", "f", "g")}, first="a")
    assert "2 to 6" in setup_illegal(head, "XO-1.1")


def test_xo_1_2_twenty_cards() -> None:
    head = header()
    head["setup"]["decks"]["bob"]["cards"] = DOT[:19]
    assert "19 cards" in setup_illegal(head, "XO-1.2")


def test_xo_1_3_one_copy_of_each() -> None:
    head = header()
    head["setup"]["decks"]["ann"]["cards"] = [*DOT[:19], DOT[5]]
    assert "M2 twice" in setup_illegal(head, "XO-1.3")


def test_xo_1_4_one_known_game() -> None:
    head = header()
    head["setup"]["decks"]["ann"]["game"] = "pokemon"
    assert "'pokemon'" in setup_illegal(head, "XO-1.4")


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"kind": "field", "stats": {}}, "maps no 'field' cards"),
        ({"kind": "monster", "stats": {}}, "needs its strength"),
        ({"kind": "monster", "stats": {"strenght": 2}}, "no number 'strenght'"),
        ({"kind": "monster", "stats": {"strength": -1}}, "never negative"),
    ],
)
def test_xo_1_5_every_card_translates_and_is_named(change: dict[str, Any], words: str) -> None:
    message = setup_illegal(card_deck(**change), "XO-1.5")
    assert message.startswith("ann's deck: Odd:") and words in message


def test_xo_1_6_ruling_a_deck_needs_a_leader() -> None:
    head = header()
    head["setup"]["decks"]["ann"]["cards"] = [*DOT[4:], *({"name": f"X{i}", "kind": "event"} for i in range(4))]
    assert "no leader" in setup_illegal(head, "XO-1.6")


def test_xo_1_card_fields_are_malformed_with_a_field_name() -> None:
    head = header()
    head["setup"]["decks"]["ann"]["cards"][0]["colour"] = "red"
    verdict = run([], head).verdict
    assert verdict.verdict == "malformed" and verdict.error is not None
    assert verdict.error.field == "setup.decks[...].cards[0].colour"


# -- XO-2 translations in play -------------------------------------------------------


def test_xo_2_5_ruling_star_trek_initiative_halves_each_minion() -> None:
    """Even A (cunning 7) and Even B (cunning 5) give 3 + 2 = 5, not 12 // 2 = 6."""
    head = header({"ann": "stccg1e", "bob": "dothack"})
    state = legal(
        draws("ann", "Ship One", "Even A", "Even B", "Odd F", "Kit A") + draws("bob", *BOB_PLAIN)
        + [summon("ann", "Even A"), summon("bob", "M3"), summon("ann", "Even B")],
        head,
    )
    assert state.sides["ann"].initiative() == 5


def test_xo_2_6_ruling_r2_equipment_adds_no_initiative() -> None:
    """Ruling XO-R2: the Sword has strength 1, yet M1 (strength 1) still gives ann initiative 1."""
    state = legal([*PLAIN, summon("ann", "M1"), summon("bob", "M3"), equip("ann", "Sword", "M1")])
    assert state.sides["ann"].initiative() == 1


# -- XO-3 who acts, chance -------------------------------------------------------------


def test_xo_3_1_only_the_player_asked_acts() -> None:
    assert "ann who must act" in illegal([*PLAIN, summon("bob", "M3")], "XO-3.1")
    illegal([*PLAIN, attack("ann", "M1", "M3")], "XO-3.1")
    illegal([*PLAIN[:4], summon("ann", "M1")], "XO-3.1")
    illegal([*PLAIN, rec("ann", "draw", player="ann", card="M7")], "XO-3.1")


def test_xo_3_2_draws_name_a_card_in_the_deck_of_the_player_due() -> None:
    assert "not in ann's deck" in illegal([*draws("ann", "M1", "M1")], "XO-3.2")
    assert "ann's to draw" in illegal(draws("bob", "M1"), "XO-3.2")


def test_xo_3_3_resolution_draws_are_cut_short_by_an_empty_deck() -> None:
    state = legal([*PLAIN, summon("ann", "M1"), pass_("bob")])
    state.sides["ann"].deck = {"M9"}  # as if ann's deck were nearly spent
    apply(state, pass_("ann"))
    # bob had no minions, ann won; ann holds 3 cards but only one is left to draw
    assert state.phase == "resolution" and state.actor == "ann" and state.owed == 1


def test_xo_3_4_nothing_after_the_game_is_over() -> None:
    records = [*PLAIN, rec("bob", "concede")]
    assert legal(records).phase == "over"
    assert "already over" in illegal([*records, summon("ann", "M1")], "XO-3.4")


def test_xo_3_an_illegal_record_changes_nothing() -> None:
    state = legal([*TO_COMBAT, attack("bob", "M3", "M1")])
    before = XO.describe(state)
    for bad in [respond("ann", "Stop A", "M2"), respond("bob", "Draw A", "M9"), attack("bob", "M4", "M2"), respond("ann", "Sword", "M1")]:
        with pytest.raises(Illegal):
            apply(state, bad)
        assert XO.describe(state) == before


# -- XO-4 opening ----------------------------------------------------------------------


def test_xo_4_1_ruling_players_open_in_seat_order_from_the_first() -> None:
    head = header(first="bob")
    assert "bob's to draw" in illegal(draws("ann", "Lead One"), "XO-3.2", head)
    state = legal(draws("bob", "Lead One", "M1", "M2", "M3", "M4"), head)
    assert state.actor == "ann" and state.owed == 5


def test_xo_4_2_mulligan_until_a_leader_shows() -> None:
    state = legal(draws("ann", "M1", "M2", "M3", "M4", "M5"))
    side = state.sides["ann"]
    assert not side.hand and len(side.deck) == 20 and state.owed == 5
    state = legal(draws("ann", "M1", "M2", "M3", "M4", "M5", "M1", "M2", "Lead Two", "M3", "M4"))
    assert state.sides["ann"].leader == "Lead Two" and state.actor == "bob"


def test_xo_4_3_ruling_several_leaders_mean_a_choice() -> None:
    opening = draws("ann", "Lead One", "Lead Two", "M1", "M2", "M3")
    state = legal(opening)
    assert state.waiting == "lead" and XO.to_act(state) == ("ann",)
    assert "not a leader" in illegal([*opening, rec("ann", "lead", card="M1")], "XO-4.3")
    state = legal([*opening, rec("ann", "lead", card="Lead Two")])
    assert state.sides["ann"].leader == "Lead Two" and "Lead One" in state.sides["ann"].hand


def test_xo_4_4_ruling_the_single_leader_search_is_optional() -> None:
    head = header({"ann": "stccg2e", "bob": "dothack"})
    illegal(draws("ann", "Weak A"), "XO-3.1", head)
    state = legal([rec("ann", "opening", search=True)], head)
    assert state.sides["ann"].leader == "Only Ship" and state.owed == 4
    state = legal([rec("ann", "opening", search=True), *draws("ann", "Weak A", "Weak B", "Weak C", "Weak D")], head)
    assert state.actor == "bob" and len(state.sides["ann"].hand) == 4
    state = legal([rec("ann", "opening", search=False)], head)
    assert state.sides["ann"].leader is None and state.owed == 5
    illegal([rec("bob", "opening", search=True)], "XO-3.1", head)
    illegal([*OPEN[:5], rec("ann", "opening", search=True)], "XO-3.1")


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


# -- XO-6 combat ----------------------------------------------------------------------------


def four_players(first: str = "ann") -> dict[str, Any]:
    return header({p: "dothack" for p in ("ann", "bob", "cat", "dan")}, first=first)


def four_openings(order: tuple[str, ...] = ("ann", "bob", "cat", "dan")) -> list[dict[str, Any]]:
    hands = {"ann": ["M1", "M2", "M3", "M4"], "bob": ["M5", "M6", "M7", "M8"], "cat": ["M1", "M3", "M5", "M7"], "dan": ["M2", "M4", "M6", "M8"]}
    return [r for p in order for r in draws(p, "Lead One", *hands[p])]


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


def three_players() -> dict[str, Any]:
    return header({p: "dothack" for p in ("ann", "bob", "cat")})


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

# ann M1 + M2 (Sword on M1: double attack) vs bob M3 + M4 (Shield on M3: endurance); no events in hand.
ARMED = [*PLAIN, summon("ann", "M1"), summon("bob", "M3"), summon("ann", "M2"), summon("bob", "M4"), equip("ann", "Sword", "M1"), equip("bob", "Shield", "M3"), pass_("ann"), pass_("bob")]


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
    plays = [summon("ann", "M1"), equip("ann", "Shield", "M1"), summon("bob", "M8"), summon("ann", "M2"), pass_("ann", False)]
    # ann made 2 plays (M2 then a pass is illegal); use a full turn instead
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


# -- XO-8 resolution -------------------------------------------------------------------------


def test_xo_8_1_everything_but_the_leader_is_discarded() -> None:
    state = legal([*ARMED, attack("bob", "M3", "M1")])
    # bob's M4 and ann's M2 still stand; the skirmish goes on
    state = legal([*ARMED, attack("bob", "M4", "M2"), attack("bob", "M3", "M1")])
    assert state.phase == "resolution"
    for side in state.sides.values():
        assert not side.minions and side.leader == "Lead One"


def test_xo_8_2_ruling_replace_the_leader_and_discard_to_five() -> None:
    opening = [*draws("ann", "Lead One", "M1", "M2", "Lead Two", "Draw A"), rec("ann", "lead", card="Lead One"), *draws("bob", *BOB_PLAIN)]
    plays = [summon("ann", "M1"), summon("bob", "M3"), event("ann", "Draw A", 2), *draws("ann", "M8", "M9"), pass_("bob"), pass_("ann")]
    base = [*opening, *plays, attack("bob", "M3", "M1")]  # bob 2 attacks ann 1: a tie, bob wins
    state = legal(base)
    assert state.phase == "resolution" and state.waiting == "resolve" and state.actor == "ann"
    # ann holds M2, Lead Two, M8, M9: a new leader leaves 3, so nothing is discarded
    assert "exactly 0" in illegal([*base, resolve("ann", "Lead Two", "M2")], "XO-8.3")
    assert "not a leader" in illegal([*base, resolve("ann", "M2")], "XO-8.3")
    state = legal([*base, resolve("ann", "Lead Two")])
    assert state.sides["ann"].leader == "Lead Two" and "Lead One" in state.sides["ann"].discard and state.owed == 2


def test_xo_8_3_discard_exactly_the_cards_over_five() -> None:
    opening = draws("ann", "Lead One", "M1", "Draw A", "Draw B", "M2") + draws("bob", *BOB_PLAIN)
    plays = [event("ann", "Draw A", 2), *draws("ann", "M8", "M9"), summon("bob", "M3"), event("ann", "Draw B", 2), *draws("ann", "M7", "M6"), pass_("bob"), pass_("ann")]
    base = [*opening, *plays]
    state = legal(base)  # ann has no minions: bob wins; ann holds M1 M2 M8 M9 M7 M6
    assert state.waiting == "resolve" and state.actor == "ann"
    assert "exactly 1" in illegal([*base, resolve("ann")], "XO-8.3")
    assert "twice" in illegal([*base, resolve("ann", None, "M1", "M1")], "XO-8.3")
    assert "not in ann's hand" in illegal([*base, resolve("ann", None, "M5")], "XO-8.3")
    state = legal([*base, resolve("ann", None, "M9")])
    assert len(state.sides["ann"].hand) == 5 and state.actor == "bob"


def test_xo_8_4_draws_follow_each_resolve_then_a_new_round() -> None:
    base = [*PLAIN, summon("ann", "M1"), pass_("bob"), pass_("ann")]
    state = legal(base)
    assert state.actor == "ann" and state.owed == 2
    state = legal([*base, *draws("ann", "M9", "M8")])
    assert state.actor == "bob" and state.owed == 1
    state = legal([*base, *draws("ann", "M9", "M8"), *draws("bob", "M7")])
    assert state.phase == "play" and state.round == 2 and state.actor == "ann"


# -- XO-9 winning, results -----------------------------------------------------------------


def two_wins() -> list[dict[str, Any]]:
    """ann wins two skirmishes against a bob who plays nothing."""
    round1 = [*PLAIN, summon("ann", "M1"), pass_("bob"), pass_("ann"), *draws("ann", "M9", "M8"), *draws("bob", "M7")]
    return [*round1, summon("ann", "M2"), pass_("bob"), pass_("ann")]


def test_xo_9_1_ruling_two_skirmishes_win_a_two_player_game() -> None:
    replay = run(two_wins())
    assert replay.verdict.verdict == "complete"
    result = replay.verdict.result
    assert result is not None and result.winners == ["ann"] and result.placements == {"ann": 1, "bob": 2}
    assert result.reason == "skirmishes" and result.score == {"ann": 2.0, "bob": 0.0}


def test_xo_9_1_ruling_a_combat_nobody_wins_does_not_count() -> None:
    state = legal([*PLAIN, pass_("ann"), pass_("bob")])
    assert state.phase == "resolution" and all(s.wins == 0 for s in state.sides.values())


def test_xo_9_2_players_who_win_no_skirmish_are_eliminated() -> None:
    opening = four_openings(("ann", "bob", "cat"))
    plays = [summon("ann", "M1"), summon("bob", "M5"), summon("cat", "M3"), pass_("ann"), pass_("bob"), pass_("cat"), attack("bob", "M5", "M3")]
    state = legal([*opening, *plays], three_players())
    # bob beat cat; ann sat out: cat is out, in 3rd place
    assert state.alive == ["ann", "bob"] and state.placements == {"cat": 3} and state.phase == "resolution"


def test_xo_9_3_ruling_players_out_together_share_a_place_and_none_left_is_a_draw() -> None:
    opening = four_openings(("ann", "bob", "cat"))
    replay = run([*opening, pass_("ann"), pass_("bob"), pass_("cat")], three_players())
    result = replay.verdict.result
    assert result is not None and result.placements == {"ann": 1, "bob": 1, "cat": 1} and result.winners == []


def test_xo_9_4_placements_follow_elimination() -> None:
    opening = four_openings(("ann", "bob", "cat"))
    plays = [summon("ann", "M1"), summon("bob", "M5"), summon("cat", "M3"), pass_("ann"), pass_("bob"), pass_("cat"), attack("bob", "M5", "M3")]
    after = [*opening, *plays, *draws("ann", "M9", "M8"), *draws("bob", "M9", "M1")]
    state = legal(after, three_players())
    assert state.phase == "play" and state.actor == "ann"
    replay = run([*after, summon("ann", "M2"), pass_("bob"), pass_("ann")], three_players())
    result = replay.verdict.result
    assert result is not None and result.placements == {"ann": 1, "bob": 2, "cat": 3} and result.winners == ["ann"]
    assert result.score == {"ann": 2.0, "bob": 1.0, "cat": 0.0}


def test_xo_9_6_concede_in_a_two_player_game() -> None:
    result = run([*PLAIN, rec("ann", "concede")]).verdict.result
    assert result is not None and result.winners == ["bob"] and result.reason == "concede"


def test_xo_9_6_ruling_concede_mid_skirmish_gives_the_opponent_the_skirmish() -> None:
    opening = four_openings()
    plays = [summon("ann", "M4"), summon("bob", "M8"), summon("cat", "M1"), summon("dan", "M6"), pass_("ann"), pass_("bob"), pass_("cat"), pass_("dan")]
    state = legal([*opening, *plays, rec("bob", "concede")], four_players())
    # bob (attacker vs dan) is out in 4th; dan wins that skirmish; ann attacks cat next
    assert state.placements == {"bob": 4} and "dan" in state.won and state.actor == "ann"
    assert "already out" in illegal([*opening, *plays, rec("bob", "concede"), rec("bob", "concede")], "XO-9.6", four_players())


def test_xo_9_6_ruling_concede_on_turn_passes_the_turn() -> None:
    opening = four_openings(("ann", "bob", "cat"))
    state = legal([*opening, rec("ann", "concede")], three_players())
    assert state.actor == "bob" and state.phase == "play" and state.placements == {"ann": 3}


def test_xo_9_7_game_loss_by_the_judge() -> None:
    result = run([*PLAIN, rec("judge", "game_loss", player="bob")]).verdict.result
    assert result is not None and result.winners == ["ann"] and result.reason == "game_loss"
    illegal([*PLAIN, rec("ann", "game_loss", player="bob")], "XO-3.1")
    illegal([*PLAIN, rec("judge", "game_loss", player="zed")], "XO-9.7")


def test_xo_9_8_ruling_time_places_by_skirmishes_won() -> None:
    base = [*PLAIN, summon("ann", "M1"), pass_("bob"), pass_("ann")]
    result = run([*base, rec("judge", "time")]).verdict.result
    assert result is not None and result.winners == ["ann"] and result.reason == "time"
    result = run([*PLAIN, rec("judge", "time")]).verdict.result
    assert result is not None and result.winners == [] and result.placements == {"ann": 1, "bob": 1}
    illegal([*PLAIN, rec("ann", "time")], "XO-3.1")


def test_xo_9_5_the_score_is_skirmishes_won_counting_sit_outs() -> None:
    opening = four_openings(("ann", "bob", "cat"))
    plays = [summon("ann", "M1"), summon("bob", "M5"), summon("cat", "M3"), pass_("ann"), pass_("bob"), pass_("cat"), attack("bob", "M5", "M3")]
    state = legal([*opening, *plays, rec("judge", "time")], three_players())
    assert state.outcome.score == {"ann": 1.0, "bob": 1.0, "cat": 0.0}  # ann sat out; bob beat cat
    assert state.outcome.placements == {"ann": 1, "bob": 1, "cat": 3} and state.outcome.winners == []
