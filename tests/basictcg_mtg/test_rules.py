"""One test (or a few) per rule and ruling of basictcg-mtg; names carry the rule ids of RULES.md."""

from __future__ import annotations

import re
from pathlib import Path

import msgspec
import pytest

from referee.engine import judge
from referee.logio import setup_decoder
from referee.ruleset import Illegal
from referee.rulesets.basictcg_mtg.cards import level_of
from referee.rulesets.basictcg_mtg.game import State
from tests.basictcg_mtg.btlog import BT, board, do, end, illegal, in_play, new, setup, start, summon

RULES = Path(__file__).resolve().parents[2] / "referee" / "rulesets" / "basictcg_mtg" / "RULES.md"
GAME = RULES.with_name("game.py")


def test_every_rule_cited_in_the_code_exists_in_rules_md() -> None:
    defined = set(re.findall(r"\*\*(BT-\d+\.\d+)\*\*", RULES.read_text()))
    cited = set(re.findall(r'"(BT-\d+\.\d+)"', GAME.read_text()))
    assert cited and cited <= defined, cited - defined


# -- BT-1 setup ------------------------------------------------------------------


def test_bt_1_1_two_to_four_players() -> None:
    with pytest.raises(Illegal) as caught:
        start(setup({"ann": ["Bear"]}))
    assert caught.value.rule == "BT-1.1"
    five = {p: ["Bear"] for p in ("ann", "bob", "cat", "dan", "eve")}
    with pytest.raises(Illegal, match="2 to 4"):
        start(setup(five))
    assert start(setup({p: ["Bear"] for p in ("ann", "bob", "cat", "dan")})).active == "ann"


def test_bt_1_1_first_player_must_be_seated() -> None:
    with pytest.raises(Illegal) as caught:
        start(setup({"ann": ["Bear"], "bob": ["Bear"]}) | {"first": "zed"})
    assert caught.value.rule == "BT-1.1"


def test_bt_1_2_cards_are_declared_with_their_magic_facts() -> None:
    state = start(setup({"ann": ["Strider", "Paladin", "Golem"], "bob": ["Bolt"]}))
    strider, paladin, golem, bolt = (state.cards[c] for c in ("a-strider", "a-paladin", "a-golem", "b-bolt"))
    assert strider.creature and strider.walk == {"Forest"} and strider.level == 0
    assert paladin.protection == {"black"} and paladin.colours == {"white"}
    assert golem.power is None and golem.level == 2
    assert bolt.one_shot and not bolt.creature and bolt.colours == {"red"}
    with pytest.raises(msgspec.ValidationError, match="keywords"):
        setup_decoder("basictcg-mtg").decode(msgspec.json.encode(setup({"ann": ["Bear"]}) | {"cards": {"Bear": {"cost": "", "types": ["creature"], "keywords": ["trample"]}}}))


def test_every_rule_has_a_test() -> None:
    rules = re.findall(r"\*\*BT-(\d+)\.(\d+)\*\*", RULES.read_text())
    tested = set(re.findall(r"def test_bt_(\d+)_(\d+)_", Path(__file__).read_text()))
    assert [r for r in rules if r not in tested] == []


def test_bt_1_3_level_is_symbols_plus_generic_mana() -> None:
    assert level_of("{3}{G}{G}") == 5
    assert level_of("{W/U}{2/B}{G/P}") == 3
    assert level_of("") == 0
    assert level_of("{10}") == 10


def test_bt_1_3_ruling_x_counts_zero() -> None:
    assert level_of("{X}{X}{R}") == 1


def test_bt_1_4_names_must_be_declared_and_ids_unique() -> None:
    data = setup({"ann": ["Bear"], "bob": ["Bear"]})
    data["decks"]["bob"] = {"b-x": "Nonesuch"}
    with pytest.raises(Illegal, match="does not declare") as caught:
        start(data)
    assert caught.value.rule == "BT-1.4"
    data["decks"]["bob"] = {"a-bear": "Bear"}
    with pytest.raises(Illegal, match="two decks"):
        start(data)
    data["decks"] = {"ann": {"a-bear": "Bear"}}
    with pytest.raises(Illegal, match="deck to each player"):
        start(data, players=["ann", "bob"])


def test_bt_1_5_ruling_threshold_defaults_to_15() -> None:
    data = setup({"ann": ["Bear"], "bob": ["Bear"]})
    assert setup_decoder("basictcg-mtg").decode(msgspec.json.encode(data)).threshold == 15
    assert start(data).threshold == 15


def test_bt_1_6_ruling_opening_hands_first_player_first_then_turn_draw() -> None:
    state = start(setup({"ann": ["Bear"] * 3, "bob": ["Ox"] * 3}, hand=2))
    assert state.draws == ["ann", "ann", "bob", "bob", "ann"]
    assert BT.to_act(state) == ("chance",)
    illegal(state, "BT-3.2", "chance", "draw", player="bob", card="b-ox")


# -- BT-2 / BT-3 turns and draws -------------------------------------------------


def test_bt_2_1_only_the_player_to_act_and_the_right_moment() -> None:
    state = board(["Bear"], ["Ox"])
    illegal(state, "BT-2.1", "bob", "end_turn")
    illegal(state, "BT-2.1", "bob", "block", blocker=None)
    illegal(state, "BT-2.1", "chance", "draw", player="ann", card="a-bear")
    illegal(state, "BT-2.1", "ann", "regenerate", creature="a-bear", discard=None)


def test_bt_3_1_first_player_draws_on_turn_one() -> None:
    state = start(setup({"ann": ["Bear", "Ox"], "bob": ["Ox"]}, hand=0))
    assert state.draws == ["ann"]
    do(state, "chance", "draw", player="ann", card="a-ox")
    assert state.phase == "main" and state.sides["ann"].hand == {"a-ox"}


def test_bt_3_2_the_card_must_be_in_the_deck() -> None:
    state = start(setup({"ann": ["Bear"], "bob": ["Ox"]}, hand=0))
    illegal(state, "BT-3.2", "chance", "draw", player="ann", card="b-ox")


def test_bt_3_3_ruling_empty_deck_means_no_draw() -> None:
    state = board(["Bear"], ["Ox"])
    assert state.turn == 3 and state.phase == "main" and not state.sides["ann"].deck


# -- BT-4 playing cards ----------------------------------------------------------


def test_bt_4_1_cards_come_from_your_own_hand() -> None:
    state = new({"ann": ["Bear"], "bob": ["Ox"]})
    illegal(state, "BT-4.1", "ann", "summon", card="b-ox", sacrifice=[])
    illegal(state, "BT-4.1", "ann", "material", card="nope")


def test_bt_4_2_one_free_play_a_turn() -> None:
    state = new({"ann": ["Sage", "Sage", "Totem"], "bob": ["Ox"]})
    summon(state, "a-sage")
    illegal(state, "BT-4.2", "ann", "material", card="a-totem")
    illegal(state, "BT-4.2", "ann", "summon", card="a-sage2", sacrifice=[])
    summon(state, "a-sage2", "a-sage")  # paid with a sacrifice instead
    assert state.sides["ann"].discard == {"a-sage"}


def test_bt_4_3_material_is_level_one_and_cannot_change() -> None:
    state = new({"ann": ["Giant", "Bolt"], "bob": ["Ox"]})
    do(state, "ann", "material", card="a-giant")
    assert BT.describe(state)["players"]["ann"]["total"] == 1
    illegal(state, "BT-4.3", "ann", "effect", source="a-bolt", text="token", tokens={"a-giant": 1})


def test_bt_4_3_ruling_material_uses_the_free_play() -> None:
    state = new({"ann": ["Bear", "Ox"], "bob": ["Ox"]})
    do(state, "ann", "material", card="a-bear")
    illegal(state, "BT-4.2", "ann", "material", card="a-ox")


def test_bt_4_4_ruling_sacrificed_levels_must_reach_the_level() -> None:
    state = new({"ann": ["Sage", "Knight", "Giant"], "bob": ["Ox"]})
    summon(state, "a-sage")
    illegal(state, "BT-4.4", "ann", "summon", card="a-knight", sacrifice=["a-sage"])
    illegal(state, "BT-4.4", "ann", "summon", card="a-knight", sacrifice=["a-sage", "a-sage"])
    illegal(state, "BT-4.4", "ann", "summon", card="a-knight", sacrifice=["b-ox"])
    end(state)
    end(state)
    do(state, "ann", "effect", source="a-giant", text="grow", tokens={"a-sage": 1})
    summon(state, "a-knight", "a-sage")  # level 1 + a token = 2
    assert in_play(state, "a-knight") and "a-sage" in state.sides["ann"].discard


def test_bt_4_5_level_zero_is_free_and_higher_needs_a_sacrifice() -> None:
    state = new({"ann": ["Bear", "Ox", "Knight"], "bob": ["Ox"]})
    summon(state, "a-bear")
    summon(state, "a-ox")
    assert not state.free_used
    illegal(state, "BT-4.5", "ann", "summon", card="a-knight", sacrifice=[])


def test_bt_4_6_ruling_instants_and_sorceries_go_to_the_discard_pile() -> None:
    state = new({"ann": ["Bolt", "Hex", "Totem"], "bob": ["Ox"]})
    summon(state, "a-bolt")
    assert "a-bolt" in state.sides["ann"].discard and not state.sides["ann"].field


# -- BT-5 attacking --------------------------------------------------------------


def test_bt_5_1_attack_with_your_creature_at_another_players_creature() -> None:
    state = board(["Bear", "Grove"], ["Ox", "Grove"])
    illegal(state, "BT-5.1", "ann", "attack", attacker="a-grove", target="b-ox")
    illegal(state, "BT-5.1", "ann", "attack", attacker="b-ox", target="a-bear")
    illegal(state, "BT-5.1", "ann", "attack", attacker="a-bear", target="a-grove")
    illegal(state, "BT-5.1", "ann", "attack", attacker="a-bear", target="b-grove")


def test_bt_5_1_a_material_is_not_a_creature() -> None:
    state = new({"ann": ["Bear"], "bob": ["Ox", "Bear"]})
    summon(state, "a-bear")
    end(state)
    do(state, "bob", "material", card="b-ox")
    end(state)
    illegal(state, "BT-5.1", "ann", "attack", attacker="a-bear", target="b-ox")


def test_bt_5_2_ruling_no_attack_the_turn_it_came_and_once_a_turn() -> None:
    state = board(["Bear"], ["Wall"], ann_hand=["Bear"])
    summon(state, "a-bear2")
    illegal(state, "BT-5.2", "ann", "attack", attacker="a-bear2", target="b-wall")
    do(state, "ann", "attack", attacker="a-bear", target="b-wall")
    do(state, "bob", "block", blocker=None)
    illegal(state, "BT-5.2", "ann", "attack", attacker="a-bear", target="b-wall")


def test_bt_5_3_defender_cannot_attack() -> None:
    state = board(["Wall"], ["Ox"])
    illegal(state, "BT-5.3", "ann", "attack", attacker="a-wall", target="b-ox")


def test_bt_5_4_protection_cannot_be_targeted_by_that_colour() -> None:
    state = board(["Shade", "Bear"], ["Paladin"])
    illegal(state, "BT-5.4", "ann", "attack", attacker="a-shade", target="b-paladin")
    do(state, "ann", "attack", attacker="a-bear", target="b-paladin")


def test_bt_5_5_the_defender_answers_the_attack() -> None:
    state = board(["Bear"], ["Ox"])
    do(state, "ann", "attack", attacker="a-bear", target="b-ox")
    assert BT.to_act(state) == ("bob",)
    illegal(state, "BT-2.1", "ann", "end_turn")


# -- BT-6 blocking ---------------------------------------------------------------


def test_bt_6_1_block_with_a_different_creature_of_yours() -> None:
    state = board(["Bear"], ["Ox", "Grove"])
    do(state, "ann", "attack", attacker="a-bear", target="b-ox")
    illegal(state, "BT-6.1", "bob", "block", blocker="b-ox")
    illegal(state, "BT-6.1", "bob", "block", blocker="b-grove")
    illegal(state, "BT-6.1", "bob", "block", blocker="a-bear")


def test_bt_6_1_ruling_no_block_is_logged_as_null() -> None:
    state = board(["Bear"], ["Ox"])
    do(state, "ann", "attack", attacker="a-bear", target="b-ox")
    assert [r.blocker for r in BT.legal(state)] == [None]
    do(state, "bob", "block", blocker=None)
    assert state.phase == "main"


def test_bt_6_2_ruling_a_creature_may_block_again() -> None:
    state = board(["Bear", "Bear"], ["Bear", "Wall"])
    for attacker in ("a-bear", "a-bear2"):
        do(state, "ann", "attack", attacker=attacker, target="b-bear")
        do(state, "bob", "block", blocker="b-wall")
    assert in_play(state, "b-wall") and in_play(state, "a-bear")


def test_bt_6_3_flying_is_blocked_only_by_flying_or_reach() -> None:
    state = board(["Hawk", "Hawk"], ["Bear", "Ox", "Spider"])
    do(state, "ann", "attack", attacker="a-hawk", target="b-bear")
    illegal(state, "BT-6.3", "bob", "block", blocker="b-ox")
    do(state, "bob", "block", blocker="b-spider")
    assert not in_play(state, "a-hawk")


def test_bt_6_4_landwalk_cannot_be_blocked_when_the_defender_has_the_terrain() -> None:
    state = board(["Strider"], ["Bear", "Ox", "Grove"])
    do(state, "ann", "attack", attacker="a-strider", target="b-bear")
    illegal(state, "BT-6.4", "bob", "block", blocker="b-ox")
    state = board(["Strider"], ["Bear", "Ox"], ann_hand=["Grove"])
    summon(state, "a-grove")  # ann's own Forest does not matter
    do(state, "ann", "attack", attacker="a-strider", target="b-bear")
    do(state, "bob", "block", blocker="b-ox")


# -- BT-7 the fight --------------------------------------------------------------


def fight(attacker: str, defender: str, blocker: str | None = None) -> tuple[bool, bool]:
    """ann's `attacker` attacks bob's `defender` (bob blocks with `blocker`): who is still in play."""
    state = board([attacker], [defender] + ([blocker] if blocker else []))
    a, d = f"a-{attacker.lower()}", f"b-{(blocker or defender).lower()}"
    d = d + "2" if blocker == defender else d
    do(state, "ann", "attack", attacker=a, target=f"b-{defender.lower()}")
    do(state, "bob", "block", blocker=d if blocker else None)
    return in_play(state, a), in_play(state, d)


def test_bt_7_1_the_attacker_fights_the_blocker() -> None:
    state = board(["Shade"], ["Bear", "Spider"])
    do(state, "ann", "attack", attacker="a-shade", target="b-bear")
    do(state, "bob", "block", blocker="b-spider")
    assert in_play(state, "b-bear") and not in_play(state, "b-spider")


def test_bt_7_1_ruling_no_fight_when_one_has_left_play() -> None:
    state = board(["Shade"], ["Bear"], bob_hand=["Bolt"])
    do(state, "ann", "attack", attacker="a-shade", target="b-bear")
    do(state, "bob", "effect", source="b-bolt", text="destroy the attacker", destroy=["a-shade"])
    assert BT.to_act(state) == ("bob",)
    do(state, "bob", "block", blocker=None)
    assert in_play(state, "b-bear") and state.phase == "main"


def test_bt_7_2_power_and_stamina_fall_back_to_level() -> None:
    state = new({"ann": ["Sage", "Sage", "Golem"], "bob": ["Ox", "Bear"]})
    summon(state, "a-sage")
    end(state)
    summon(state, "b-bear")
    end(state)
    do(state, "ann", "material", card="a-sage2")
    summon(state, "a-golem", "a-sage", "a-sage2")
    desc = BT.describe(state)["players"]["ann"]["in_play"]
    assert desc == [{"card": "a-golem", "name": "Golem", "level": 2, "tokens": 0, "power": 2, "stamina": 2,
                     "boost": 0, "fresh": True, "attacked": False, "damage": 0}]  # fmt: skip


def test_bt_7_3_ruling_equal_power_removes_both_ways() -> None:
    assert fight("Bear", "Bear") == (False, False)
    assert fight("Bear", "Ox") == (True, True)
    assert fight("Shade", "Bear") == (True, False)


def test_bt_7_4_ruling_damage_does_not_lower_stamina_in_a_fight() -> None:
    state = board(["Shade"], ["Sage"], ann_hand=["Bolt"])
    do(state, "ann", "effect", source="a-bolt", text="x", tokens={"a-shade": 3, "b-sage": 2}, damage={"b-sage": 2})
    do(state, "ann", "attack", attacker="a-shade", target="b-sage")  # power 6 against stamina 7 (2 damage)
    do(state, "bob", "block", blocker=None)
    assert in_play(state, "b-sage")


def test_bt_7_5_first_strike_attacker_is_not_checked_back() -> None:
    assert fight("Duelist", "Bear") == (True, False)


def test_bt_7_5_ruling_a_defending_first_striker_does_not_save_itself() -> None:
    """Ruling (RULINGS basictcg-mtg 3): first strike is the attacker's; an attacked or blocking first-striker is checked as usual."""
    assert fight("Bear", "Duelist") == (False, False)
    assert fight("Bear", "Ox", blocker="Duelist") == (False, False)


def test_bt_7_5_ruling_a_defending_first_striker_does_not_cancel_poison() -> None:
    assert fight("Adder", "Duelist") == (False, False)  # 1 poison damage reaches the level-0 Duelist


def test_bt_7_5_both_first_strike_both_checked() -> None:
    assert fight("Duelist", "Duelist") == (False, False)


def test_bt_7_6_ruling_poison_deals_damage_equal_to_power() -> None:
    state = board(["Adder"], ["Sage"])  # bob's Sage: level 1, stamina 5
    do(state, "ann", "attack", attacker="a-adder", target="b-sage")
    do(state, "bob", "block", blocker=None)
    assert not in_play(state, "b-sage")  # 1 power is far below stamina 5, but 1 poison damage reaches level 1


def test_bt_7_6_ruling_only_an_attacker_poisons() -> None:
    state = board(["Bear"], ["Sage", "Adder"])
    do(state, "ann", "attack", attacker="a-bear", target="b-sage")
    do(state, "bob", "block", blocker="b-adder")
    assert in_play(state, "a-bear") and not in_play(state, "b-adder")  # a level-0 Bear would die of any poison


def test_bt_7_7_deathtouch_sacrifices_the_creature_it_fights() -> None:
    assert fight("Asp", "Ox") == (True, False)
    assert fight("Asp", "Ox", blocker="Bear") == (True, False)


def test_bt_7_7_ruling_deathtouch_sacrifice_cannot_be_regenerated() -> None:
    state = board(["Asp"], ["Troll"], bob_hand=["Bear"])
    do(state, "ann", "attack", attacker="a-asp", target="b-troll")
    do(state, "bob", "block", blocker=None)
    assert state.phase == "main" and "b-troll" in state.sides["bob"].discard


def test_bt_7_8_protection_stops_removal_by_that_colour() -> None:
    state = board(["Shade"], ["Bear", "Paladin"])
    do(state, "ann", "attack", attacker="a-shade", target="b-bear")
    do(state, "bob", "block", blocker="b-paladin")  # ruling: protection does not stop blocking
    assert in_play(state, "b-paladin") and in_play(state, "a-shade")


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
    assert BT.result(state) is not None


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


def test_bt_12_1_ruling_first_player_leaving_during_opening_hands_keeps_the_others_draws() -> None:
    state = start(setup({"ann": ["Bear"] * 2, "bob": ["Ox"] * 2, "cat": ["Ox"] * 2}, hand=1))
    do(state, "ann", "concede")
    assert state.draws == ["bob", "cat", "bob"] and state.active == "bob"


def test_bt_1_5_the_scenario_is_the_act_threshold() -> None:
    data = setup({"ann": ["Bear"], "bob": ["Bear"]})
    assert setup_decoder("basictcg-mtg").decode(msgspec.json.encode(data)).scenario == "act_threshold"
    with pytest.raises(msgspec.ValidationError):
        setup_decoder("basictcg-mtg").decode(msgspec.json.encode(data | {"scenario": "last_one_standing"}))


def test_bt_2_2_a_turn_is_draw_main_end() -> None:
    state = start(setup({"ann": ["Bear", "Bear"], "bob": ["Ox", "Ox"]}, hand=0))
    assert BT.to_act(state) == ("chance",)
    do(state, "chance", "draw", player="ann", card="a-bear")
    assert state.phase == "main" and BT.to_act(state) == ("ann",)
    end(state)
    assert state.active == "bob" and BT.to_act(state) == ("chance",) and state.draws == ["bob"]


def test_bt_7_7_deathtouch_even_when_the_attacker_is_removed() -> None:
    assert fight("Viper", "Bear") == (False, False)


def test_bt_7_5_ruling_a_defending_first_striker_does_not_cancel_deathtouch() -> None:
    assert fight("Viper", "Duelist") == (False, False)


def test_bt_9_1_several_regenerations_are_asked_in_card_id_order() -> None:
    state = board(["Bear"], ["Troll", "Troll"], ann_hand=["Bolt"], bob_hand=["Ox", "Ox"])
    do(state, "ann", "effect", source="a-bolt", text="destroy both", destroy=["b-troll2", "b-troll"])
    assert state.doomed == ["b-troll", "b-troll2"] and BT.to_act(state) == ("bob",)
    illegal(state, "BT-9.1", "bob", "regenerate", creature="b-troll2", discard="b-ox")
    do(state, "bob", "regenerate", creature="b-troll", discard="b-ox")
    do(state, "bob", "regenerate", creature="b-troll2", discard=None)
    assert in_play(state, "b-troll") and not in_play(state, "b-troll2") and state.phase == "main"


def test_bt_11_2_regeneration_at_the_end_of_the_turn_then_the_turn_passes() -> None:
    state = board(["Troll"], ["Ox"], ann_hand=["Bolt", "Bear"])
    do(state, "ann", "effect", source="a-bolt", text="+2 stamina", boost={"a-troll": 2})
    do(state, "ann", "effect", source="a-bolt", text="1 damage", damage={"a-troll": 1})
    assert in_play(state, "a-troll")
    end(state)
    assert state.phase == "regen" and BT.to_act(state) == ("ann",)
    do(state, "ann", "regenerate", creature="a-troll", discard="a-bear")
    assert in_play(state, "a-troll") and state.active == "bob" and state.phase == "main"


def test_bt_10_1_an_effect_before_a_block_returns_to_the_block() -> None:
    state = board(["Shade", "Troll"], ["Bear"], bob_hand=["Bolt"], ann_hand=["Ox"])
    do(state, "ann", "attack", attacker="a-shade", target="b-bear")
    do(state, "bob", "effect", source="b-bolt", text="destroy", destroy=["a-troll"])
    assert BT.to_act(state) == ("ann",) and state.phase == "regen"
    do(state, "ann", "regenerate", creature="a-troll", discard="a-ox")
    assert state.phase == "block" and BT.to_act(state) == ("bob",)
    do(state, "bob", "block", blocker=None)
    assert not in_play(state, "b-bear")
