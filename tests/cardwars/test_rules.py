"""One test (or more) per cardwars rule and ruling, named by its id in RULES.md."""

from __future__ import annotations

from typing import Any

import pytest

from referee.rulesets import get
from referee.rulesets.cardwars import game
from tests.cardwars.cwlog import BOARD, assign, attack, block, draw, face, joker, res, run

CW = get("cardwars")


def illegal(records: list[dict[str, Any]], rule: str, **kw: Any) -> str:
    """Assert the last record breaks `rule`; return the message."""
    verdict = run(records, **kw).verdict
    assert verdict.verdict == "illegal", verdict
    assert verdict.error is not None
    assert (verdict.error.rule, verdict.error.seq) == (rule, len(records)), verdict.error
    return verdict.error.message


def legal(records: list[dict[str, Any]], **kw: Any) -> Any:
    """Assert every record is legal; return the replay."""
    replay = run(records, **kw)
    assert replay.verdict.error is None, replay.verdict.error
    return replay


def side(replay: Any, player: str) -> Any:
    return replay.state.sides[player]


# -- CW-1 -----------------------------------------------------------------------


def test_cw_1_1_exactly_two_players() -> None:
    setup = {"first": "ann", "suits": {"ann": ["H", "D"], "bob": ["S", "C"]}}
    verdict = run([], players=["ann", "bob", "cat"], setup=setup).verdict
    assert (verdict.verdict, verdict.error.rule, verdict.error.line) == ("illegal", "CW-1.1", 1)


def test_cw_1_2_half_decks_share_no_suit() -> None:
    verdict = run([], setup={"first": "ann", "suits": {"ann": ["H", "D"], "bob": ["H", "C"]}}).verdict
    assert verdict.error.rule == "CW-1.2" and "share" in verdict.error.message


def test_cw_1_2_two_different_suits_each() -> None:
    verdict = run([], setup={"first": "ann", "suits": {"ann": ["H", "H"], "bob": ["S", "C"]}}).verdict
    assert verdict.error.rule == "CW-1.2"


def test_cw_1_2_suits_for_exactly_the_players() -> None:
    verdict = run([], setup={"first": "ann", "suits": {"ann": ["H", "D"], "zed": ["S", "C"]}}).verdict
    assert verdict.error.rule == "CW-1.2"


def test_cw_1_2_ruling_half_decks_and_jokers_by_seat() -> None:
    replay = legal([])
    ann, bob = side(replay, "ann"), side(replay, "bob")
    assert len(ann.deck) == len(bob.deck) == 27
    assert "JK1" in ann.deck and "JK2" in bob.deck
    assert {c[-1] for c in ann.deck - {"JK1"}} == {"H", "D"}


def test_cw_1_3_first_player_is_a_player() -> None:
    verdict = run([], setup={"first": "zed", "suits": {"ann": ["H", "D"], "bob": ["S", "C"]}}).verdict
    assert verdict.error.rule == "CW-1.3"


def test_cw_1_3_second_seat_may_go_first() -> None:
    replay = legal([draw("bob", "AS")], setup={"first": "bob", "suits": {"ann": ["H", "D"], "bob": ["S", "C"]}})
    assert "AS" in side(replay, "bob").hand


def test_cw_1_4_ruling_no_opening_hand_and_20_life() -> None:
    replay = legal([])
    assert replay.verdict.to_act == ["chance"]
    for player in ("ann", "bob"):
        assert side(replay, player).hand == set() and side(replay, player).life == 20


def test_cw_1_5_ruling_card_values_joker_is_ten_of_every_suit() -> None:
    # a joker (10) and a 3 of hearts pay for a queen of hearts (12)
    records = [
        draw("ann", "JK1"), res("ann", "JK1"), attack("ann"),
        draw("bob", "AS"), attack("bob"),
        draw("ann", "3H"), res("ann", "3H"), attack("ann"),
        draw("bob", "2S"), attack("bob"),
        draw("ann", "QH"), face("ann", "QH", "JK1", "3H"),
    ]  # fmt: skip
    replay = legal(records)
    assert "QH" in side(replay, "ann").field and {"JK1", "3H"} <= side(replay, "ann").grave


def test_cw_1_5_ace_is_one_and_a_resource() -> None:
    replay = legal([draw("ann", "AH"), res("ann", "AH")])
    assert "AH" in side(replay, "ann").field


def test_cw_1_6_life_at_zero_loses(board: list) -> None:
    # JH (11) attacks unblocked twice: 20 -> 9 -> -2
    records = [*board, attack("ann", "JH"), block("bob", {}),
               draw("bob", "4S"), attack("bob"),
               draw("ann", "4H"), attack("ann", "JH"), block("bob", {})]  # fmt: skip
    verdict = run(records).verdict
    assert verdict.verdict == "complete"
    assert verdict.result.winners == ["ann"] and verdict.result.reason == "life"
    assert verdict.result.placements == {"ann": 1, "bob": 2}


# -- CW-2 -----------------------------------------------------------------------


def test_cw_2_1_only_the_active_player_plays() -> None:
    assert "only the active player" in illegal([draw("ann", "7H"), res("bob", "7S")], "CW-2.1")


def test_cw_2_1_a_draw_is_a_chance_record() -> None:
    illegal([{"by": "ann", "type": "draw", "player": "ann", "card": "7H"}], "CW-2.1")


def test_cw_2_1_nothing_is_played_before_the_draw() -> None:
    assert "ann's draw is due" in illegal([res("ann", "7H")], "CW-2.1")


def test_cw_2_1_only_the_defender_blocks(board: list) -> None:
    illegal([*board, attack("ann", "JH"), block("ann", {})], "CW-2.1")


def test_cw_2_1_no_block_without_an_attack(board: list) -> None:
    illegal([*board, block("bob", {})], "CW-2.1")


def test_cw_2_1_no_assign_when_none_is_due(board: list) -> None:
    illegal([*board, assign("ann", "JH", {"10S": 11})], "CW-2.1")


def test_cw_2_1_only_the_attacker_assigns(board: list) -> None:
    illegal([*board, attack("ann", "JH"), block("bob", {"10S": "JH", "5S": "JH"}), assign("bob", "JH", {"10S": 11})], "CW-2.1")


def test_cw_2_1_turns_alternate(board: list) -> None:
    replay = legal([*board, attack("ann")])
    assert replay.state.active == "bob" and replay.verdict.to_act == ["chance"]


def test_cw_2_2_recovery_unmarks_the_active_players_cards(board: list) -> None:
    records = [*board, attack("ann", "JH"), block("bob", {})]
    assert side(legal(records), "ann").field["JH"] is True  # marked through bob's turn
    replay = legal([*records, draw("bob", "4S"), attack("bob")])
    assert side(replay, "ann").field["JH"] is False  # unmarked at ann's recovery


def test_cw_2_3_cards_enter_unmarked(board: list) -> None:
    # bob's 3S came in last turn and blocks at once
    replay = legal([*board, attack("ann", "JH"), block("bob", {"3S": "JH"})])
    assert "3S" in side(replay, "bob").grave


# -- CW-3 -----------------------------------------------------------------------


def test_cw_3_1_drawn_card_must_be_in_the_deck() -> None:
    assert "not in ann's deck" in illegal([draw("ann", "7S")], "CW-3.1")


def test_cw_3_1_draw_for_the_active_player() -> None:
    illegal([draw("bob", "7S")], "CW-3.1")


def test_cw_3_1_drawn_card_goes_to_hand() -> None:
    replay = legal([draw("ann", "7H")])
    assert "7H" in side(replay, "ann").hand and "7H" not in side(replay, "ann").deck


def test_cw_3_1_a_card_cannot_be_drawn_twice() -> None:
    illegal([draw("ann", "7H"), attack("ann"), draw("bob", "7S"), attack("bob"), draw("ann", "7H")], "CW-3.1")


def test_cw_3_2_empty_deck_takes_the_graveyard() -> None:
    replay = legal([draw("ann", "7H"), attack("ann"), draw("bob", "7S"), attack("bob")])
    ann = side(replay, "ann")
    ann.grave, ann.deck = set(ann.deck), set()  # as if ann's deck had run out into her graveyard
    replay.state.active, replay.state.defender = "bob", "ann"
    game._end_turn(replay.state)  # bob's turn ends: ann begins hers with an empty deck
    assert len(ann.deck) == 26 and ann.grave == set()
    assert replay.state.phase == "draw"


def test_cw_3_3_ruling_no_draw_when_deck_and_graveyard_are_empty() -> None:
    replay = legal([draw("ann", "7H"), attack("ann")])
    bob = side(replay, "bob")
    bob.deck = set()
    replay.state.active, replay.state.defender = "ann", "bob"
    game._end_turn(replay.state)
    assert replay.state.phase == "play" and list(CW.to_act(replay.state)) == ["bob"]
    assert not any(r.__struct_config__.tag == "draw" for r in CW.legal(replay.state))


# -- CW-4 -----------------------------------------------------------------------


def test_cw_4_1_ruling_one_resource_a_turn() -> None:
    records = [draw("ann", "7H"), res("ann", "7H"), attack("ann"), draw("bob", "7S"), attack("bob"),
               draw("ann", "8H"), attack("ann"), draw("bob", "8S"), attack("bob"),
               draw("ann", "9H"), res("ann", "9H"), res("ann", "8H")]  # fmt: skip
    assert "already played" in illegal(records, "CW-4.1")


def test_cw_4_1_one_resource_in_each_turn() -> None:
    records = [draw("ann", "7H"), res("ann", "7H"), attack("ann"), draw("bob", "7S"), attack("bob"),
               draw("ann", "8H"), res("ann", "8H")]  # fmt: skip
    assert {"7H", "8H"} <= set(side(legal(records), "ann").field)


def test_cw_4_1_a_face_card_is_not_a_resource() -> None:
    assert "face card" in illegal([draw("ann", "QH"), res("ann", "QH")], "CW-4.1")


def test_cw_4_2_card_must_be_in_hand() -> None:
    assert "not in ann's hand" in illegal([draw("ann", "7H"), res("ann", "8H")], "CW-4.2")


def test_cw_4_2_face_card_must_be_in_hand(board: list) -> None:
    illegal([*board, face("ann", "QH", "3H")], "CW-4.2")


def test_cw_4_3_number_card_is_not_played_as_a_face() -> None:
    illegal([draw("ann", "7H"), face("ann", "7H")], "CW-4.3")


def test_cw_4_4_payment_must_match_the_suit() -> None:
    records = [draw("ann", "10D"), res("ann", "10D"), attack("ann"), draw("bob", "AS"), attack("bob"),
               draw("ann", "2D"), res("ann", "2D"), attack("ann"), draw("bob", "2S"), attack("bob"),
               draw("ann", "JH"), face("ann", "JH", "10D", "2D")]  # fmt: skip
    assert "not of JH's suit" in illegal(records, "CW-4.4")


def test_cw_4_4_payment_from_the_battlefield_only() -> None:
    records = [draw("ann", "QH"), face("ann", "QH", "10H")]
    assert "not on ann's battlefield" in illegal(records, "CW-4.4")


def test_cw_4_4_face_cards_do_not_pay(board: list) -> None:
    records = [*board, res("ann", "3H"), attack("ann"), draw("bob", "4S"), attack("bob"),
               draw("ann", "QH"), face("ann", "QH", "JH", "3H")]  # fmt: skip
    assert "only resource cards pay" in illegal(records, "CW-4.4")


def test_cw_4_4_each_card_pays_once() -> None:
    records = [draw("ann", "10H"), res("ann", "10H"), attack("ann"), draw("bob", "AS"), attack("bob"),
               draw("ann", "JH"), face("ann", "JH", "10H", "10H")]  # fmt: skip
    assert "twice" in illegal(records, "CW-4.4")


def test_cw_4_5_payment_must_reach_the_value() -> None:
    records = [draw("ann", "10H"), res("ann", "10H"), attack("ann"), draw("bob", "AS"), attack("bob"),
               draw("ann", "JH"), face("ann", "JH", "10H")]  # fmt: skip
    assert "costs 11" in illegal(records, "CW-4.5")


def test_cw_4_5_ruling_overpaying_is_allowed() -> None:
    records = [draw("ann", "10H"), res("ann", "10H"), attack("ann"), draw("bob", "AS"), attack("bob"),
               draw("ann", "5H"), res("ann", "5H"), attack("ann"), draw("bob", "2S"), attack("bob"),
               draw("ann", "9H"), res("ann", "9H"), attack("ann"), draw("bob", "3S"), attack("bob"),
               draw("ann", "JH"), face("ann", "JH", "10H", "5H", "9H")]  # fmt: skip
    replay = legal(records)
    assert {"10H", "5H", "9H"} <= side(replay, "ann").grave


# -- CW-5 -----------------------------------------------------------------------


def test_cw_5_1_resources_do_not_attack(board: list) -> None:
    records = [*board, res("ann", "3H"), attack("ann", "3H")]
    assert "only face cards attack" in illegal(records, "CW-5.1")


def test_cw_5_1_attacker_must_be_on_the_battlefield(board: list) -> None:
    illegal([*board, attack("ann", "QH")], "CW-5.1")


def test_cw_5_1_attacker_named_once(board: list) -> None:
    illegal([*board, attack("ann", "JH", "JH")], "CW-5.1")


def test_cw_5_1_empty_attack_ends_the_turn(board: list) -> None:
    assert legal([*board, attack("ann")]).state.active == "bob"


def test_cw_5_2_no_attack_in_the_turn_a_card_came_in() -> None:
    records = [draw("ann", "10H"), res("ann", "10H"), attack("ann"), draw("bob", "AS"), attack("bob"),
               draw("ann", "2H"), res("ann", "2H"), attack("ann"), draw("bob", "2S"), attack("bob"),
               draw("ann", "JH"), face("ann", "JH", "10H", "2H"), attack("ann", "JH")]  # fmt: skip
    assert "came into play this turn" in illegal(records, "CW-5.2")


def test_cw_5_3_ruling_attackers_stay_marked_and_cannot_block() -> None:
    # bob plays QS on turn 6; JH attacks on ann's turn 7 and is still marked on bob's turn 8, when QS attacks
    records = [*BOARD[:15], draw("bob", "QS"), face("bob", "QS", "10S", "5S"), attack("bob"),
               draw("ann", "3H"), attack("ann", "JH"), block("bob", {}),
               draw("bob", "6S"), attack("bob", "QS"), block("ann", {"JH": "QS"})]  # fmt: skip
    assert "marked" in illegal(records, "CW-6.2")


def test_cw_5_3_attackers_are_marked(board: list) -> None:
    replay = legal([*board, attack("ann", "JH")])
    assert side(replay, "ann").field["JH"] is True


# -- CW-6 -----------------------------------------------------------------------


def joker_board() -> list[dict[str, Any]]:
    """ann's turn 9: JH attacks; bob holds JK2 in hand."""
    return [*BOARD, attack("ann"), draw("bob", "JK2"), attack("bob"), draw("ann", "4H"), attack("ann", "JH")]


def test_cw_6_1_ruling_joker_from_hand_destroys_every_attacker() -> None:
    replay = legal([*joker_board(), joker("bob", "JK2")])
    ann, bob = side(replay, "ann"), side(replay, "bob")
    assert "JH" in ann.grave and "JH" not in ann.field
    assert "JK2" in bob.grave and bob.life == 20
    assert replay.state.active == "bob"


def test_cw_6_1_ruling_joker_on_the_battlefield_cannot_defend() -> None:
    records = [*BOARD, attack("ann"), draw("bob", "JK2"), res("bob", "JK2"), attack("bob"),
               draw("ann", "4H"), attack("ann", "JH"), joker("bob", "JK2")]  # fmt: skip
    assert "on the battlefield" in illegal(records, "CW-6.1")


def test_cw_6_1_only_a_joker_defends() -> None:
    records = [*BOARD, attack("ann"), draw("bob", "9S"), attack("bob"), draw("ann", "4H"), attack("ann", "JH"), joker("bob", "9S")]
    assert "not a joker" in illegal(records, "CW-6.1")


def test_cw_6_2_blocker_must_be_on_the_battlefield(board: list) -> None:
    illegal([*board, attack("ann", "JH"), block("bob", {"9S": "JH"})], "CW-6.2")


def test_cw_6_2_blocked_card_must_be_attacking(board: list) -> None:
    assert "not attacking" in illegal([*board, attack("ann", "JH"), block("bob", {"10S": "QH"})], "CW-6.2")


def test_cw_6_2_ruling_resources_block(board: list) -> None:
    replay = legal([*board, attack("ann", "JH"), block("bob", {"10S": "JH"})])
    assert "10S" in side(replay, "bob").grave and "JH" in side(replay, "ann").field


def test_cw_6_3_ruling_assign_the_whole_value_in_whole_amounts() -> None:
    base = [*BOARD, attack("ann", "JH"), block("bob", {"10S": "JH", "5S": "JH"})]
    assert run(base).verdict.to_act == ["ann"]
    assert "11 damage in all" in illegal([*base, assign("ann", "JH", {"10S": 5, "5S": 5})], "CW-6.3")
    assert "does not block" in illegal([*base, assign("ann", "JH", {"3S": 11})], "CW-6.3")
    assert "zero or more" in illegal([*base, assign("ann", "JH", {"10S": 12, "5S": -1})], "CW-6.3")
    replay = legal([*base, assign("ann", "JH", {"10S": 6, "5S": 5})])
    assert "5S" in side(replay, "bob").grave and "10S" in side(replay, "bob").field
    assert side(replay, "bob").life == 20


def test_cw_6_3_assign_in_the_order_of_the_attack() -> None:
    # ann attacks with JH and QD; bob double-blocks both; JH was listed first
    records = [
        draw("ann", "10H"), res("ann", "10H"), attack("ann"), draw("bob", "10S"), res("bob", "10S"), attack("bob"),
        draw("ann", "2H"), res("ann", "2H"), attack("ann"), draw("bob", "5S"), res("bob", "5S"), attack("bob"),
        draw("ann", "JH"), face("ann", "JH", "10H", "2H"), attack("ann"), draw("bob", "3S"), res("bob", "3S"), attack("bob"),
        draw("ann", "10D"), res("ann", "10D"), attack("ann"), draw("bob", "4S"), res("bob", "4S"), attack("bob"),
        draw("ann", "JK1"), res("ann", "JK1"), attack("ann"), draw("bob", "6S"), res("bob", "6S"), attack("bob"),
        draw("ann", "QD"), face("ann", "QD", "10D", "JK1"), attack("ann"), draw("bob", "7S"), attack("bob"),
        draw("ann", "4H"), attack("ann", "JH", "QD"), block("bob", {"10S": "JH", "5S": "JH", "3S": "QD", "4S": "QD"}),
    ]  # fmt: skip
    assert "JH is next" in illegal([*records, assign("ann", "QD", {"3S": 6, "4S": 6})], "CW-6.3")
    replay = legal([*records, assign("ann", "JH", {"10S": 10, "5S": 1}), assign("ann", "QD", {"3S": 3, "4S": 9})])
    bob = side(replay, "bob")
    assert {"10S", "3S", "4S"} <= bob.grave and "5S" in bob.field and bob.life == 15  # 5 over 4S's value


def test_cw_6_3_blocker_left_out_gets_nothing(board: list) -> None:
    replay = legal([*board, attack("ann", "JH"), block("bob", {"10S": "JH", "5S": "JH"}), assign("ann", "JH", {"10S": 11})])
    bob = side(replay, "bob")
    assert "10S" in bob.grave and "5S" in bob.field and bob.life == 19  # 1 over 10S's value goes through


# -- CW-7 -----------------------------------------------------------------------


def test_cw_7_1_unblocked_attacker_hits_the_player(board: list) -> None:
    assert side(legal([*board, attack("ann", "JH"), block("bob", {})]), "bob").life == 9


def test_cw_7_2_ruling_excess_over_a_single_blocker_goes_through(board: list) -> None:
    replay = legal([*board, attack("ann", "JH"), block("bob", {"5S": "JH"})])
    bob = side(replay, "bob")
    assert "5S" in bob.grave and bob.life == 14


def test_cw_7_3_ruling_face_blocker_damage_beyond_the_attacker_is_lost(board: list) -> None:
    records = [*board, attack("ann"), draw("bob", "KS"), face("bob", "KS", "10S", "3S"), attack("bob"),
               draw("ann", "4H"), attack("ann", "JH"), block("bob", {"KS": "JH"})]  # fmt: skip
    # on turn 9 KS (13) is unmarked and blocks JH (11): JH is destroyed, KS survives, ann loses no life
    replay = legal(records)
    assert "JH" in side(replay, "ann").grave and side(replay, "ann").life == 20
    assert "KS" in side(replay, "bob").field and side(replay, "bob").life == 20


def test_cw_7_3_resource_blockers_deal_no_damage(board: list) -> None:
    replay = legal([*board, attack("ann", "JH"), block("bob", {"10S": "JH", "5S": "JH"}), assign("ann", "JH", {"10S": 11, "5S": 0})])
    assert "JH" in side(replay, "ann").field


def test_cw_7_4_damage_at_least_the_value_destroys(board: list) -> None:
    replay = legal([*board, attack("ann", "JH"), block("bob", {"10S": "JH", "5S": "JH"}), assign("ann", "JH", {"10S": 4, "5S": 7})])
    bob = side(replay, "bob")
    assert "10S" in bob.field and "5S" in bob.grave and bob.life == 18  # 2 over 5S's value go through


def test_cw_7_5_ruling_damage_does_not_last(board: list) -> None:
    # 10S takes 9 on turn 7 and 9 again on turn 9; it would die if damage lasted
    records = [*board, attack("ann", "JH"), block("bob", {"10S": "JH", "3S": "JH"}), assign("ann", "JH", {"10S": 9, "3S": 2}),
               draw("bob", "6S"), attack("bob"), draw("ann", "4H"), attack("ann", "JH"),
               block("bob", {"10S": "JH", "5S": "JH"}), assign("ann", "JH", {"10S": 9, "5S": 2})]  # fmt: skip
    assert "10S" in side(legal(records), "bob").field


def test_cw_7_6_turn_passes_after_damage(board: list) -> None:
    replay = legal([*board, attack("ann", "JH"), block("bob", {})])
    assert replay.state.active == "bob" and replay.state.turn == 8


# -- CW-8 -----------------------------------------------------------------------


def test_cw_8_1_concede_at_any_time(board: list) -> None:
    verdict = run([*board, attack("ann", "JH"), {"by": "ann", "type": "concede"}]).verdict
    assert verdict.verdict == "complete" and verdict.result.winners == ["bob"] and verdict.result.reason == "concede"


def test_cw_8_1_only_players_concede() -> None:
    illegal([{"by": "judge", "type": "concede"}], "CW-8.1")


def test_cw_8_2_time_is_a_draw(board: list) -> None:
    verdict = run([*board, {"by": "judge", "type": "time"}]).verdict
    assert verdict.result.winners == [] and verdict.result.placements == {"ann": 1, "bob": 1}


def test_cw_8_2_only_the_judge_calls_time() -> None:
    illegal([{"by": "ann", "type": "time"}], "CW-8.2")


def test_cw_8_3_game_loss() -> None:
    verdict = run([{"by": "judge", "type": "game_loss", "player": "ann"}]).verdict
    assert verdict.result.winners == ["bob"] and verdict.result.reason == "game_loss"


def test_cw_8_3_game_loss_names_a_player() -> None:
    illegal([{"by": "judge", "type": "game_loss", "player": "zed"}], "CW-8.3")


def test_cw_8_3_only_the_judge_gives_a_game_loss() -> None:
    illegal([{"by": "bob", "type": "game_loss", "player": "ann"}], "CW-8.3")


def test_cw_8_4_nothing_after_the_end() -> None:
    assert "already over" in illegal([{"by": "ann", "type": "concede"}, draw("ann", "7H")], "CW-8.4")


def test_cw_8_5_score_is_life_left(board: list) -> None:
    verdict = run([*board, attack("ann", "JH"), block("bob", {}), {"by": "bob", "type": "concede"}]).verdict
    assert verdict.result.score == {"ann": 20.0, "bob": 9.0}


def test_cw_3_3_a_draw_with_deck_and_graveyard_empty_says_why() -> None:
    replay = legal([draw("ann", "7H"), attack("ann")])
    bob = side(replay, "bob")
    bob.deck = set()
    replay.state.active, replay.state.defender = "ann", "bob"
    game._end_turn(replay.state)
    from referee.ruleset import Illegal
    from schemas.cardwars import Draw

    with pytest.raises(Illegal) as raised:
        CW.apply(replay.state, Draw(by="chance", player="bob", card="7S"))
    assert raised.value.rule == "CW-3.3" and "both empty" in raised.value.message


def test_cw_2_1_messages_say_who_must_act(board: list) -> None:
    assert "bob must answer ann's attack" in illegal([*board, attack("ann", "JH"), attack("ann")], "CW-2.1")
