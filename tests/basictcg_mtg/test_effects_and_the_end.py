"""basictcg-mtg rules BT-10 to BT-12, one test (or a few) each, named by its rule id in RULES.md: card text, the end of a turn, the end of the game."""

from __future__ import annotations

import msgspec

from referee.engine import judge
from tests.basictcg_mtg.btlog import BT, board, do, end, illegal, in_play, new, setup, start, summon

# -- BT-10 effects ---------------------------------------------------------------


def test_bt_10_1_effects_are_accepted_and_counted_unchecked() -> None:
    state = board(["Bear"], ["Ox"], ann_hand=["Bolt"])
    do(state, "ann", "effect", source="a-bolt", text="scry 2")
    do(state, "ann", "effect", source="a-bear", text="roar")
    assert BT.unchecked(state) == 2


def test_bt_10_1_effects_by_the_player_to_act_from_their_own_card() -> None:
    state = board(["Bear"], ["Ox"], ann_hand=["Bolt"], bob_hand=["Bolt"])
    illegal(state, "BT-2.1", "bob", "effect", source="b-bolt", text="x")
    illegal(state, "BT-10.1", "ann", "effect", source="b-bolt", text="x")
    do(state, "ann", "attack", attacker="a-bear", target="b-ox")
    do(state, "bob", "effect", source="b-bolt", text="an instant", boost={"b-ox": 1})
    state = start(setup({"ann": ["Bolt"], "bob": ["Ox"]}, hand=0))
    illegal(state, "BT-10.1", "ann", "effect", source="a-bolt", text="x")


def test_bt_10_2_consequences_name_cards_where_they_are() -> None:
    state = board(["Bear"], ["Ox"], ann_hand=["Bolt"])
    illegal(state, "BT-10.2", "ann", "effect", source="a-bolt", text="x", damage={"a-bolt": 1})
    illegal(state, "BT-10.2", "ann", "effect", source="a-bolt", text="x", discard=["a-bear"])
    do(state, "ann", "effect", source="a-bolt", text="discard it", discard=["a-bolt"], destroy=["b-ox"])
    assert "a-bolt" in state.sides["ann"].discard and not in_play(state, "b-ox")


def test_bt_10_3_protection_against_the_source_colour() -> None:
    state = board(["Bear"], ["Paladin"], ann_hand=["Hex"])
    for field in ({"damage": {"b-paladin": 1}}, {"destroy": ["b-paladin"]}, {"targets": ["b-paladin"]}):
        illegal(state, "BT-10.3", "ann", "effect", source="a-hex", text="x", **field)


def test_bt_10_3_ruling_protection_stops_tokens_and_bonuses_too() -> None:
    """Ruling (RULINGS basictcg-mtg 5): nothing from a source of that colour reaches the card, helpful or not."""
    state = board(["Bear"], ["Paladin"], bob_hand=["Hex", "Bolt"])
    end(state)
    assert state.active == "bob" and state.phase == "main"
    for field in ({"tokens": {"b-paladin": 1}}, {"boost": {"b-paladin": 2}}):
        illegal(state, "BT-10.3", "bob", "effect", source="b-hex", text="x", **field)  # black, even on bob's own
    do(state, "bob", "effect", source="b-bolt", text="x", tokens={"b-paladin": 1})  # red reaches it


def test_bt_10_4_damage_is_checked_after_the_whole_effect() -> None:
    state = board(["Bear"], ["Ox"], ann_hand=["Bolt"])
    do(state, "ann", "effect", source="a-bolt", text="x", tokens={"a-bear": 1}, damage={"a-bear": 1})
    assert not in_play(state, "a-bear")  # level 0 + 1 token: 1 damage reaches it
    state = board(["Bear"], ["Ox"], ann_hand=["Bolt"])
    do(state, "ann", "effect", source="a-bolt", text="x", tokens={"a-bear": 2}, damage={"a-bear": 1})
    assert in_play(state, "a-bear")


def test_unchecked_count_reaches_the_verdict() -> None:
    header = {"log": "referee-log/1", "ruleset": "basictcg-mtg", "game": "t", "players": ["ann", "bob"],
              "setup": setup({"ann": ["Bear"], "bob": ["Ox"]}, hand=0)}  # fmt: skip
    records = [
        {"by": "chance", "type": "draw", "player": "ann", "card": "a-bear"},
        {"by": "ann", "type": "effect", "source": "a-bear", "text": "a war cry"},
        {"by": "ann", "type": "concede"},
    ]
    lines = [msgspec.json.encode(header)] + [msgspec.json.encode({"seq": i, **r}) for i, r in enumerate(records, 1)]
    verdict = judge(lines).verdict
    assert verdict.verdict == "complete" and verdict.unchecked == 1
    assert judge(lines[:2]).verdict.unchecked == 0


def test_bt_10_1_an_effect_before_a_block_returns_to_the_block() -> None:
    state = board(["Shade", "Troll"], ["Bear"], bob_hand=["Bolt"], ann_hand=["Ox"])
    do(state, "ann", "attack", attacker="a-shade", target="b-bear")
    do(state, "bob", "effect", source="b-bolt", text="destroy", destroy=["a-troll"])
    assert BT.to_act(state) == ("ann",) and state.phase == "regen"
    do(state, "ann", "regenerate", creature="a-troll", discard="a-ox")
    assert state.phase == "block" and BT.to_act(state) == ("bob",)
    do(state, "bob", "block", blocker=None)
    assert not in_play(state, "b-bear")


# -- BT-11 end of turn and the Act Threshold --------------------------------------


def test_bt_11_1_end_turn_passes_the_turn() -> None:
    state = board(["Bear"], ["Ox"])
    end(state)
    assert state.active == "bob" and state.turn == 4


def test_bt_11_3_threshold_is_checked_at_the_end_of_a_turn() -> None:
    state = new({"ann": ["Sage", "Sage"], "bob": ["Ox"]}, threshold=1)
    summon(state, "a-sage")
    assert BT.result(state) is None
    end(state)
    result = BT.result(state)
    assert result is not None and result.winners == ["ann"] and result.reason == "threshold"
    assert result.score == {"ann": 1.0, "bob": 0.0}


def test_bt_11_3_ruling_every_player_checked_highest_total_wins() -> None:
    state = new({"ann": ["Sage"], "bob": ["Sage", "Sage"]}, threshold=1)
    end(state)
    summon(state, "b-sage")
    do(state, "bob", "effect", source="b-sage", text="grow", tokens={"b-sage": 1})
    end(state)
    result = BT.result(state)
    assert result is not None and result.winners == ["bob"]
    state = new({"ann": ["Sage", "Sage"], "bob": ["Sage"]}, threshold=1)
    summon(state, "a-sage")
    end(state)
    result = BT.result(state)
    assert result is not None  # ann's Sage (level 1) reaches the threshold of 1; bob has nothing in play
    assert result.winners == ["ann"] and result.reason == "threshold"


def test_bt_11_3_ruling_equal_highest_totals_share_the_win() -> None:
    state = new({"ann": ["Sage"], "bob": ["Sage"]}, threshold=2)
    summon(state, "a-sage")
    end(state)
    summon(state, "b-sage")
    end(state)
    assert BT.result(state) is None
    do(state, "ann", "effect", source="a-sage", text="grow", tokens={"a-sage": 1, "b-sage": 1})
    end(state)
    result = BT.result(state)
    assert result is not None and result.winners == ["ann", "bob"] and result.placements == {"ann": 1, "bob": 1}


def test_bt_11_4_next_player_clockwise_still_in_the_game() -> None:
    state = new({"ann": ["Bear"], "bob": ["Bear"], "cat": ["Bear"]})
    do(state, "cat", "concede")
    end(state)
    assert state.active == "bob"
    end(state)
    assert state.active == "ann"


def test_bt_11_2_regeneration_at_the_end_of_the_turn_then_the_turn_passes() -> None:
    state = board(["Troll"], ["Ox"], ann_hand=["Bolt", "Bear"])
    do(state, "ann", "effect", source="a-bolt", text="+2 stamina", boost={"a-troll": 2})
    do(state, "ann", "effect", source="a-bolt", text="1 damage", damage={"a-troll": 1})
    assert in_play(state, "a-troll")
    end(state)
    assert state.phase == "regen" and BT.to_act(state) == ("ann",)
    do(state, "ann", "regenerate", creature="a-troll", discard="a-bear")
    assert in_play(state, "a-troll") and state.active == "bob" and state.phase == "main"


# -- BT-12 the end of the game ---------------------------------------------------


def test_bt_12_1_concede_in_two_player_game() -> None:
    state = board(["Bear"], ["Ox"])
    do(state, "bob", "concede")
    result = BT.result(state)
    assert result is not None and result.winners == ["ann"] and result.reason == "concede"


def test_bt_12_1_ruling_three_players_play_on_and_leavers_are_placed_last() -> None:
    state = new({"ann": ["Bear"], "bob": ["Sage"], "cat": ["Bear"]}, threshold=1)
    summon(state, "a-bear")
    do(state, "judge", "game_loss", player="cat")
    illegal(state, "BT-12.1", "cat", "concede")
    do(state, "ann", "concede")  # the active player leaves: bob's turn begins
    result = BT.result(state)
    assert result is not None and result.winners == ["bob"]
    assert result.placements == {"bob": 1, "ann": 2, "cat": 3}


def test_bt_12_1_ruling_an_attack_on_a_leaver_is_dropped() -> None:
    state = new({"ann": ["Bear"], "bob": ["Ox"], "cat": ["Ox"]})
    summon(state, "a-bear")
    end(state)
    summon(state, "b-ox")
    end(state)
    end(state)
    do(state, "ann", "attack", attacker="a-bear", target="b-ox")
    do(state, "bob", "concede")
    assert state.phase == "main" and BT.to_act(state) == ("ann",) and state.attack is None


def test_bt_12_2_ruling_time_is_a_draw() -> None:
    state = board(["Bear"], ["Ox"])
    illegal(state, "BT-2.1", "ann", "time")
    do(state, "judge", "time")
    result = BT.result(state)
    assert result is not None and result.winners == [] and result.placements == {"ann": 1, "bob": 1}


def test_bt_12_3_placements_by_total_and_score_is_the_total() -> None:
    state = new({"ann": ["Sage", "Sage"], "bob": ["Sage"], "cat": ["Bear"]}, threshold=2)
    summon(state, "a-sage")
    do(state, "ann", "effect", source="a-sage", text="grow", tokens={"a-sage": 1})
    end(state)
    result = BT.result(state)
    assert result is not None
    assert result.placements == {"ann": 1, "bob": 2, "cat": 2} and result.score["ann"] == 2.0


def test_bt_12_4_nothing_after_the_end() -> None:
    state = board(["Bear"], ["Ox"])
    do(state, "judge", "time")
    illegal(state, "BT-12.4", "ann", "end_turn")


def test_bt_12_1_ruling_first_player_leaving_during_opening_hands_keeps_the_others_draws() -> None:
    state = start(setup({"ann": ["Bear"] * 2, "bob": ["Ox"] * 2, "cat": ["Ox"] * 2}, hand=1))
    do(state, "ann", "concede")
    assert state.draws == ["bob", "cat", "bob"] and state.active == "bob"
