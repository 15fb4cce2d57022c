"""basictcg-mtg rules BT-5 to BT-7, one test (or a few) each, named by its rule id in RULES.md: attacking, blocking, the fight."""

from __future__ import annotations

from tests.basictcg_mtg.btlog import BT, board, do, end, illegal, in_play, new, summon

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


def test_bt_7_7_deathtouch_even_when_the_attacker_is_removed() -> None:
    assert fight("Viper", "Bear") == (False, False)


def test_bt_7_5_ruling_a_defending_first_striker_does_not_cancel_deathtouch() -> None:
    assert fight("Viper", "Duelist") == (False, False)
