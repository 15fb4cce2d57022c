"""MG-6: battles (attack, engagement, initiative, the KD window, combat steps, the outcome)."""

from __future__ import annotations

from pathlib import Path

from referee.show import read_lines, show_page
from tests.maginot.mglog import armies, battle_ready

MEDIUM = ("5H", "5S", "5C")
LIGHT2 = ("3H", "3S", "3C")


def test_mg_6_1_attack_needs_an_opponent_and_untapped_patrol_units() -> None:
    t = battle_ready(armies())
    assert t.illegal(None, "attack", target="ann", units=["2H"]).rule == "MG-6.1"
    assert t.illegal(None, "attack", target="zed", units=["2H"]).rule == "MG-6.1"
    assert t.illegal(None, "attack", target="bob", units=[]).rule == "MG-6.1"
    assert t.illegal(None, "attack", target="bob", units=["2H", "2H"]).rule == "MG-2.4"
    t.act("attack", target="bob", units=["2H"]).passes(2)
    assert t.state.phase == "battle" and t.side("ann").units["2H"].tapped  # Ruling (project 2)
    assert t.illegal(None, "attack", target="bob", units=["2H"]).rule == "MG-6.1"


def test_mg_6_1_guardian_units_do_not_attack() -> None:
    t = armies(guard=("bob",)).quiet_turn()  # ann's turn; now bob's
    battle_ready(t)
    assert t.illegal(None, "attack", target="ann", units=["2H"]).rule == "MG-6.1"


def test_mg_6_1_ruling_any_number_of_battles_a_turn() -> None:
    t = battle_ready(armies(("ann", "bob", "cat"), units={"ann": [("2H", "2S", "2C"), LIGHT2]}))
    t.act("attack", target="bob", units=["2H"]).passes(2)
    t.act("attack", target="cat", units=["3H"]).passes(2)
    assert t.side("bob").damage["AS"] == 2 and t.side("cat").damage["AS"] == 3


def test_mg_6_2_ruling_an_attack_naming_no_ace_is_against_the_top_ace() -> None:
    """Ruling MG-R1: no ace named means the top ace, the one in view."""
    t = battle_ready(armies())
    t.act("attack", target="bob", units=["2H"])
    assert t.state.phase == "combat"  # bob has no guardian: no engagement step (MG-6.3)
    t.passes(2)
    assert t.side("bob").damage == {"AS": 2, "AH": 0, "AD": 0, "AC": 0}


def test_mg_6_2_the_attacker_declares_which_ace() -> None:
    t = battle_ready(armies())
    t.act("attack", target="bob", units=["2H"], ace="AC").passes(2)
    assert t.side("bob").damage == {"AS": 0, "AH": 0, "AD": 0, "AC": 2}


def test_mg_6_2_a_lower_ace_destroyed_leaves_the_top_ace_on_top() -> None:
    t = battle_ready(armies())
    t.side("bob").damage["AD"] = 14  # fast-forward: earlier battles on AD
    t.act("attack", target="bob", units=["2H"], ace="AD").passes(2)
    assert t.side("bob").base == ["AS", "AH", "AC"] and t.side("bob").ruins == ["AD"]


def test_mg_6_2_only_a_standing_ace_can_be_declared() -> None:
    t = battle_ready(armies())
    bob = t.side("bob")
    bob.base.remove("AH")
    bob.ruins.append("AH")
    del bob.damage["AH"]  # fast-forward: AH destroyed earlier
    illegal = t.illegal(None, "attack", target="bob", units=["2H"], ace="AH")
    assert illegal.rule == "MG-6.2" and "AH" in illegal.message


def test_mg_6_3_ruling_speed_classes_limit_engagement() -> None:
    """Ruling (project 3): light only by light, medium by light or medium, heavy by any."""
    t = battle_ready(armies(units={"bob": [MEDIUM]}, guard=("bob",)))
    t.act("attack", target="bob", units=["2H"])
    assert t.state.phase == "engage" and t.actor == "bob"
    assert t.illegal(None, "engage", pairs={"5H": "2H"}).rule == "MG-6.3"  # medium cannot catch light
    t.act("engage", pairs={})
    t = battle_ready(armies(units={"ann": [MEDIUM]}, guard=("bob",)))
    t.act("attack", target="bob", units=["5H"]).act("engage", pairs={"2H": "5H"})
    assert t.state.battle is not None and t.state.battle.pairs == {"2H": "5H"}


def test_mg_6_3_ruling_one_engager_per_attacker_and_only_untapped_guards() -> None:
    t = battle_ready(armies(units={"ann": [("2H", "2S", "2C")], "bob": [LIGHT2, ("4H", "4S", "4C")]}, guard=("bob",)))
    t.act("attack", target="bob", units=["2H"])
    assert t.illegal(None, "engage", pairs={"3H": "2H", "4H": "2H"}).rule == "MG-6.3"
    assert t.illegal(None, "engage", pairs={"3H": "9H"}).rule == "MG-6.3"
    assert t.illegal(None, "engage", pairs={"2H": "2H"}).rule == "MG-2.4"  # bob has no unit 2H
    t.side("bob").units["4H"].tapped = True  # fast-forward: 4H attacked and then moved to guard
    assert t.illegal(None, "engage", pairs={"4H": "2H"}).rule == "MG-6.3"
    t.act("engage", pairs={"3H": "2H"})
    assert not t.side("bob").units["3H"].tapped  # Ruling: engaging does not tap


def test_mg_6_4_initiative_lower_reveals_first_ties_to_the_attacker() -> None:
    t = battle_ready(armies())
    t.act("attack", target="bob", units=["2H"])
    assert t.state.battle is not None and t.state.battle.order == ["bob", "ann"]  # 20 against 20
    t.passes(2).passes(2).quiet_turn()
    t.draw("9D", "").act("resource", card="9D").passes(1)  # ann 29 against bob 20
    t.act("attack", target="bob", units=["2H"])
    assert t.state.battle is not None and t.state.battle.order == ["bob", "ann"]
    t.passes(2).passes(2)
    t.draw("10D", "8D").act("resource", card="10D").act("resource", card="8D").passes(1)  # bob 38
    t.act("attack", target="ann", units=["2H"])
    assert t.state.battle is not None and t.state.battle.order == ["ann", "bob"]  # bob (38) reveals last


def test_mg_6_5_ruling_the_kd_window_lets_the_side_without_initiative_take_it() -> None:
    t = armies().quiet_turn()
    t.draw("KD", "").passes(1).act("attack", target="ann", units=["2H"])
    assert t.state.phase == "combat" and t.actor == "ann"  # bob holds KD but has the initiative already
    t.passes(2).passes(2)
    t.draw("", "").passes(1).act("attack", target="bob", units=["2H"])
    assert t.state.phase == "kd" and t.actor == "bob"
    assert t.illegal("bob", "play", card="KD", target="2H").rule == "MG-7.4"
    assert t.illegal("bob", "tap_base").rule == "MG-2.2"
    t.act("play", card="KD")
    assert t.state.battle is not None and t.state.battle.order == ["ann", "bob"]
    assert "KD" in t.side("bob").discard


def test_mg_6_6_combat_steps_in_reveal_order() -> None:
    t = battle_ready(armies())
    t.act("attack", target="bob", units=["2H"])
    assert t.actor == "bob"
    assert t.illegal("ann", "pass").rule == "MG-2.2"
    t.passes(1)
    assert t.actor == "ann" and t.side("bob").damage["AS"] == 0  # nothing happens until both have shown
    t.passes(1)
    assert t.side("bob").damage["AS"] == 2


def test_mg_6_7_armor_absorbs_and_a_unit_dies_at_its_life() -> None:
    t = battle_ready(armies(units={"ann": [MEDIUM]}, guard=("bob",)))
    t.act("attack", target="bob", units=["5H"]).act("engage", pairs={"2H": "5H"}).passes(2)
    assert "2H" not in t.side("bob").units  # 5 attack - 2 armor = 3 wounds >= 2 life
    assert {"2H", "2S", "2C"} <= t.side("bob").discard
    assert t.side("ann").units["5H"].wounds == 0  # 2 attack - 5 armor
    assert t.side("bob").damage["AS"] == 0  # the engaged attacker does not reach the base


def test_mg_6_7_ruling_wounds_equal_to_life_destroy() -> None:
    """Ruling MG-R2: the outcome's "equal to or greater" decides, not the hearts line's "greater than"."""
    t = battle_ready(armies(units={"ann": [("4H", "4S", "4C")]}, guard=("bob",)))
    t.act("attack", target="bob", units=["4H"]).act("engage", pairs={"2H": "4H"}).passes(2)
    assert "2H" not in t.side("bob").units  # 4 attack - 2 armor = 2 wounds = 2 life


def test_mg_6_7_ruling_wounds_stay() -> None:
    """Ruling (project 4): wounds stay on a unit from one turn to the next."""
    t = armies(units={"ann": [MEDIUM], "bob": [MEDIUM]}, guard=("bob",))
    t.draw("JC", "").passes(1).act("attack", target="bob", units=["5H"]).act("engage", pairs={"5H": "5H"})
    t.passes(1).act("play", card="JC", target="5H").passes(1)
    assert t.side("bob").units["5H"].wounds == 3  # 8 attack - 5 armor, below 5 life
    t.passes(2).quiet_turn()
    assert t.side("bob").units["5H"].wounds == 3


def test_mg_6_8_ruling_an_ace_has_16_life_and_damage_does_not_carry() -> None:
    """Ruling (project 4): the ace takes what destroys it; the rest is lost, the next ace is untouched."""
    t = battle_ready(armies())
    t.side("bob").damage["AS"] = 15  # fast-forward: earlier battles left AS one short of destroyed
    t.act("attack", target="bob", units=["2H"]).passes(2)
    assert t.side("bob").base == ["AH", "AD", "AC"] and t.side("bob").ruins == ["AS"]
    assert t.side("bob").damage["AH"] == 0


def test_mg_6_8_ruling_an_ace_falls_at_exactly_16() -> None:
    """Ruling MG-R2 for aces: damage equal to the ace's 16 life destroys it."""
    t = battle_ready(armies())
    t.side("bob").damage["AS"] = 14
    t.act("attack", target="bob", units=["2H"]).passes(2)
    assert t.side("bob").ruins == ["AS"]


def test_mg_6_8_a_base_without_a_standing_ace_takes_no_damage() -> None:
    t = battle_ready(armies())
    bob = t.side("bob")
    bob.ruins, bob.base, bob.damage = list(bob.base), [], {}  # fast-forward: every ace destroyed
    t.act("attack", target="bob", units=["2H"]).passes(2)
    assert bob.base == [] and t.state.phase == "battle"


def test_mg_6_9_after_the_outcome_the_battle_phase_goes_on() -> None:
    t = battle_ready(armies())
    t.act("attack", target="bob", units=["2H"]).passes(2)
    assert t.state.phase == "battle" and t.state.battle is None
    t.passes(1)
    assert t.state.phase == "consolidation"


def test_mg_6_4_ruling_queens_of_diamonds_do_not_count_for_initiative() -> None:
    t = armies().quiet_turn()
    t.draw("QD", "").act("play", card="QD", target="2D").passes(3)  # bob: still 20
    assert t.side("bob").initiative == t.side("ann").initiative == 20
    battle_ready(t).act("attack", target="bob", units=["2H"])
    assert t.state.battle is not None and t.state.battle.order == ["bob", "ann"]  # the tie still goes to ann


def test_mg_6_1_ruling_a_third_player_takes_no_part() -> None:
    t = battle_ready(armies(("ann", "bob", "cat")))
    t.act("attack", target="bob", units=["2H"])
    assert t.illegal("cat", "pass").rule == "MG-2.2"
    assert t.illegal("cat", "tap_base", target="2H").rule == "MG-2.2"


def test_mg_6_2_a_judge_sees_the_declared_ace() -> None:
    """The judge's view names the ace under attack and rings it, not the top one."""
    path = Path(__file__).resolve().parents[2] / "fixtures" / "maginot" / "legal-attack-declares-a-lower-ace.jsonl"
    page = show_page(read_lines(str(path)), str(path), at=74)
    assert "attacks <b>bob</b>'s <b>AC</b>" in page
    assert '<b class="c sC hot" data-card="AC">A</b>' in page and 'class="c sS hot"' not in page  # AC ringed, AS (top) not
