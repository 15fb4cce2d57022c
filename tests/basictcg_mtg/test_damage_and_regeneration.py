"""basictcg-mtg rules BT-8 and BT-9, one test (or a few) each, named by its rule id in RULES.md: tokens, bonuses, damage, regeneration."""

from __future__ import annotations

from referee.rulesets.basictcg_mtg.game import State
from tests.basictcg_mtg.btlog import BT, board, do, end, illegal, in_play, new, summon

# -- BT-8 tokens, bonuses, damage -----------------------------------------------


def test_bt_8_1_token_adds_to_power_stamina_and_level() -> None:
    state = board(["Bear"], ["Bear"], ann_hand=["Bolt"])
    do(state, "ann", "effect", source="a-bolt", text="+1/+1", tokens={"a-bear": 1})
    assert BT.describe(state)["players"]["ann"]["total"] == 1
    do(state, "ann", "attack", attacker="a-bear", target="b-bear")
    do(state, "bob", "block", blocker=None)
    assert in_play(state, "a-bear") and not in_play(state, "b-bear")


def test_bt_8_2_stamina_bonus_counts_in_fights_and_against_damage_until_the_end_of_turn() -> None:
    state = board(["Bear"], ["Bear"], ann_hand=["Bolt"])
    do(state, "ann", "effect", source="a-bolt", text="a bonus", boost={"a-bear": 1})
    do(state, "ann", "attack", attacker="a-bear", target="b-bear")  # 2 power against 3 stamina, 2 against 2
    do(state, "bob", "block", blocker=None)
    assert in_play(state, "a-bear") and not in_play(state, "b-bear")
    end(state)
    assert state.sides["ann"].field["a-bear"].boost == 0


def test_bt_8_2_the_seeds_case_removed_when_the_bonus_ends() -> None:
    state = new({"ann": ["Sage", "Sage", "Knight", "Bolt"], "bob": ["Ox"]})
    summon(state, "a-sage")
    end(state)
    end(state)
    do(state, "ann", "material", card="a-sage2")
    summon(state, "a-knight", "a-sage", "a-sage2")  # level 2, 3/3
    do(state, "ann", "effect", source="a-bolt", text="+2 stamina", boost={"a-knight": 2})
    do(state, "ann", "effect", source="a-bolt", text="2 damage", damage={"a-knight": 2})
    assert in_play(state, "a-knight")  # 2 damage < level 2 + bonus 2
    end(state)
    assert not in_play(state, "a-knight")  # the bonus ended, 2 damage reaches level 2


def test_bt_8_2_only_creatures_take_a_bonus() -> None:
    state = board(["Bear", "Grove"], ["Ox"], ann_hand=["Bolt"])
    illegal(state, "BT-8.2", "ann", "effect", source="a-bolt", text="x", boost={"a-grove": 1})


def test_bt_8_3_damage_reaching_level_removes_and_tokens_keep_it() -> None:
    state = new({"ann": ["Sage", "Sage", "Knight", "Knight", "Bolt"], "bob": ["Ox"]})
    summon(state, "a-sage")
    do(state, "ann", "effect", source="a-bolt", text="1 damage", damage={"a-sage": 1})
    assert not in_play(state, "a-sage")
    end(state)
    end(state)
    summon(state, "a-sage2")
    do(state, "ann", "effect", source="a-bolt", text="token", tokens={"a-sage2": 1})
    do(state, "ann", "effect", source="a-bolt", text="1 damage", damage={"a-sage2": 1})
    assert in_play(state, "a-sage2")


def test_bt_8_3_ruling_damage_is_removed_at_the_end_of_the_turn() -> None:
    state = new({"ann": ["Sage", "Bolt"], "bob": ["Ox"]})
    summon(state, "a-sage")
    do(state, "ann", "effect", source="a-bolt", text="token", tokens={"a-sage": 1})
    do(state, "ann", "effect", source="a-bolt", text="1 damage", damage={"a-sage": 1})
    end(state)
    assert state.sides["ann"].field["a-sage"].damage == 0
    end(state)
    do(state, "ann", "effect", source="a-bolt", text="1 damage", damage={"a-sage": 1})
    assert in_play(state, "a-sage")


# -- BT-9 regeneration -----------------------------------------------------------


def doomed_troll() -> State:
    state = board(["Shade"], ["Troll"], bob_hand=["Ox", "Bear"])
    do(state, "ann", "attack", attacker="a-shade", target="b-troll")
    do(state, "bob", "block", blocker=None)
    return state


def test_bt_9_1_regeneration_discards_a_card_to_stay() -> None:
    state = doomed_troll()
    assert BT.to_act(state) == ("bob",) and state.phase == "regen"
    illegal(state, "BT-9.1", "bob", "regenerate", creature="a-shade", discard="b-ox")
    illegal(state, "BT-9.1", "bob", "regenerate", creature="b-troll", discard="a-shade")
    illegal(state, "BT-2.1", "ann", "regenerate", creature="b-troll", discard=None)
    do(state, "bob", "regenerate", creature="b-troll", discard="b-ox")
    assert in_play(state, "b-troll") and "b-ox" in state.sides["bob"].discard
    assert state.phase == "main"


def test_bt_9_1_letting_it_go_and_no_window_without_a_hand() -> None:
    state = doomed_troll()
    do(state, "bob", "regenerate", creature="b-troll", discard=None)
    assert not in_play(state, "b-troll")
    state = board(["Shade"], ["Troll"])
    do(state, "ann", "attack", attacker="a-shade", target="b-troll")
    do(state, "bob", "block", blocker=None)
    assert state.phase == "main" and not in_play(state, "b-troll")


def test_bt_9_2_ruling_regeneration_removes_damage() -> None:
    state = board(["Bear"], ["Troll"], ann_hand=["Bolt"], bob_hand=["Ox"])
    do(state, "ann", "effect", source="a-bolt", text="3 damage", damage={"b-troll": 3})
    do(state, "bob", "regenerate", creature="b-troll", discard="b-ox")
    assert state.sides["bob"].field["b-troll"].damage == 0 and state.phase == "main"


def test_bt_9_1_several_regenerations_are_asked_in_card_id_order() -> None:
    state = board(["Bear"], ["Troll", "Troll"], ann_hand=["Bolt"], bob_hand=["Ox", "Ox"])
    do(state, "ann", "effect", source="a-bolt", text="destroy both", destroy=["b-troll2", "b-troll"])
    assert state.doomed == ["b-troll", "b-troll2"] and BT.to_act(state) == ("bob",)
    illegal(state, "BT-9.1", "bob", "regenerate", creature="b-troll2", discard="b-ox")
    do(state, "bob", "regenerate", creature="b-troll", discard="b-ox")
    do(state, "bob", "regenerate", creature="b-troll2", discard=None)
    assert in_play(state, "b-troll") and not in_play(state, "b-troll2") and state.phase == "main"
