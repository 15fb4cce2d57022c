"""MG-7: event cards, jokers and the base tap; each card's effect and each way to misplay it."""

from __future__ import annotations

from tests.maginot.mglog import Table, armies, battle_ready

MEDIUM = ("5H", "5S", "5C")


def in_combat(t: Table, *draws: str) -> Table:
    """ann draws `draws`, attacks bob with 2H; bob's combat step (he reveals first on a tie) is next."""
    t.draw(*draws).finish_draws().passes(1).act("attack", target="bob", units=["2H"])
    if t.state.phase == "engage":
        t.act("engage", pairs={})
    return t


def test_mg_7_1_windows_and_event_cards_only() -> None:
    t = armies()
    t.draw("JC", "5S")
    assert t.illegal(None, "play", card="5S", target="2H").rule == "MG-7.1"  # not an event card
    assert t.illegal(None, "play", card="JC", target="2H").rule == "MG-7.1"  # combat only
    assert t.illegal("bob", "play", card="KH", target="2H").rule == "MG-2.2"  # not bob's window
    assert t.illegal(None, "play", card="KS", target="2H").rule == "MG-2.4"  # not in hand
    t.passes(1)
    assert t.illegal(None, "play", card="JC", target="2H").rule == "MG-2.2"  # no window in the battle phase


def test_mg_7_1_played_cards_go_to_the_discard_pile() -> None:
    t = in_combat(armies(), "JC").passes(1).act("play", card="JC", target="2H")
    assert "JC" in t.side("ann").discard and "JC" not in t.side("ann").hand


def test_mg_7_2_jack_of_diamonds_adds_three_tokens_to_a_tapped_resource() -> None:
    t = armies().draw("JD", "").act("tap", card="2D")
    assert t.illegal(None, "play", card="JD", target="3D").rule == "MG-7.2"  # not tapped
    assert t.illegal(None, "play", card="JD", target="9D").rule == "MG-7.2"  # not a resource
    t.act("play", card="JD", target="2D")
    assert t.state.pool == 4


def test_mg_7_2_jack_of_clubs_adds_three_attack_for_the_turn() -> None:
    t = in_combat(armies(), "JC").passes(1)
    assert t.illegal(None, "play", card="JC", target="3H").rule == "MG-7.2"
    t.act("play", card="JC", target="2H").passes(1)
    assert t.side("bob").damage["AS"] == 5
    t.passes(2).quiet_turn()
    assert t.state.attack("ann", "2H") == 2  # MG-7.10: the bonus ended with the turn


def test_mg_7_2_jack_of_spades_armors_the_defended_ace() -> None:
    t = armies().quiet_turn()
    t.draw("JS", "").passes(3)  # bob's turn: he keeps JS for defence
    t = in_combat(t)
    t.act("play", card="JS", target="AS").passes(2)
    assert t.side("bob").damage["AS"] == 0  # 2 attack - 3 armor


def test_mg_7_2_ruling_jack_of_hearts_heals_three() -> None:
    t = armies(units={"ann": [MEDIUM], "bob": [MEDIUM]}, guard=("bob",))
    t.draw("JC", "").passes(1).act("attack", target="bob", units=["5H"]).act("engage", pairs={"5H": "5H"})
    t.passes(1).act("play", card="JC", target="5H").passes(1).passes(2)  # bob's 5H: 3 wounds
    t.draw("JH", "")
    t.act("play", card="JH", target="5H")
    assert t.side("bob").units["5H"].wounds == 0
    assert t.illegal(None, "play", card="JH", target="5H").rule == "MG-2.4"


def test_mg_7_3_queens_attach_one_per_unit_and_queen_of_diamonds_triples_production() -> None:
    t = armies().draw("QS", "QD").act("play", card="QS", target="2H")
    assert t.state.armor("ann", "2H") == 4 and t.side("ann").units["2H"].queen == "QS"
    assert "QS" not in t.side("ann").discard
    t.act("play", card="QD", target="2D").act("tap", card="2D")
    assert t.state.pool == 3
    t.passes(3).quiet_turn().draw("QH", "")
    assert t.illegal(None, "play", card="QH", target="2H").rule == "MG-7.3"
    assert t.illegal(None, "play", card="QH", target="7H").rule == "MG-7.3"


def test_mg_7_3_a_queen_is_discarded_with_its_unit() -> None:
    t = armies(units={"ann": [MEDIUM]}, guard=("bob",)).quiet_turn()
    t.draw("QC", "").act("play", card="QC", target="2H").passes(3)
    battle_ready(t).act("attack", target="bob", units=["5H"]).act("engage", pairs={"2H": "5H"}).passes(2)
    assert {"2H", "2S", "2C", "QC"} <= t.side("bob").discard


def test_mg_7_4_king_of_diamonds_completes_a_component() -> None:
    t = Table(hands={"ann": ["2D", "KD", "9C"]}).finish_draws().act("resource", card="2D").act("tap", card="2D")
    assert t.illegal(None, "play", card="KD", target="9C").rule == "MG-7.4"  # still in hand
    t.act("build", card="9C", tokens=1).act("play", card="KD", target="9C")
    assert "9C" in t.side("ann").built


def test_mg_7_5_king_of_spades_negates_damage_to_a_unit_or_the_ace() -> None:
    t = armies().quiet_turn()
    t.draw("KS", "").passes(3)
    t = in_combat(t)
    assert t.illegal(None, "play", card="KS", target="AH").rule == "MG-7.5"  # not the ace attacked
    t.act("play", card="KS", target="AS").passes(2)
    assert t.side("bob").damage["AS"] == 0


def test_mg_7_5_king_of_spades_shields_the_declared_ace_not_the_top_one() -> None:
    t = armies().quiet_turn()
    t.draw("KS", "").passes(3)
    t.finish_draws().passes(1).act("attack", target="bob", units=["2H"], ace="AC")
    assert t.illegal("bob", "play", card="KS", target="AS").rule == "MG-7.5"  # on top, but not attacked
    t.act("play", card="KS", target="AC").passes(1)
    assert t.side("bob").damage["AC"] == 0


def test_mg_7_6_king_of_clubs_negates_armor_of_an_opposing_unit() -> None:
    t = armies(units={"ann": [MEDIUM]}, guard=("bob",))
    t.draw("KC", "").passes(1).act("attack", target="bob", units=["5H"]).act("engage", pairs={"2H": "5H"})
    t.passes(1)  # bob reveals first
    assert t.illegal(None, "play", card="KC", target="2H").rule == "MG-7.6"  # owner missing
    assert t.illegal(None, "play", card="KC", target="9H", owner="bob").rule == "MG-7.6"
    t.act("play", card="KC", target="2H", owner="bob")
    assert t.state.armor("bob", "2H") == 0
    assert t.illegal(None, "play", card="KH", target="2H", owner="bob").rule == "MG-2.4"  # KH not in hand
    t.passes(1)
    assert "2H" not in t.side("bob").units


def test_mg_7_7_king_of_hearts_removes_all_wounds() -> None:
    t = battle_ready(armies())
    t.side("bob").damage["AS"] = 9  # fast-forward: earlier battles
    t.passes(2).draw("KH", "")
    assert t.illegal(None, "play", card="KH", target="AH").rule == "MG-7.7"
    t.act("play", card="KH", target="AS")
    assert t.side("bob").damage["AS"] == 0


def test_mg_7_7_king_of_hearts_repairs_any_standing_ace() -> None:
    """A declared attack can damage an ace below the top (MG-6.2), so repair reaches every standing ace."""
    t = battle_ready(armies())
    t.side("bob").damage["AD"] = 9  # fast-forward: an earlier battle declared AD
    t.passes(2).draw("KH", "")
    t.act("play", card="KH", target="AD")
    assert t.side("bob").damage["AD"] == 0


def test_mg_7_8_ruling_a_joker_restores_an_ace_to_the_bottom() -> None:
    """Ruling (project 5): a revived ace goes to the bottom of the base."""
    t = battle_ready(armies())
    t.side("bob").damage["AS"] = 15  # fast-forward
    t.act("attack", target="bob", units=["2H"]).passes(2).passes(2)
    t.draw("JK1", "")
    assert t.illegal(None, "play", card="JK1", target="AH").rule == "MG-7.8"  # AH stands
    t.act("play", card="JK1", target="AS")
    assert t.side("bob").base == ["AH", "AD", "AC", "AS"] and t.side("bob").damage["AS"] == 0


def test_mg_7_8_ruling_no_joker_in_combat() -> None:
    t = armies().quiet_turn()
    t.draw("JK2", "").passes(3)
    t = in_combat(t)
    assert t.illegal(None, "play", card="JK2", target="AS").rule == "MG-7.1"


def test_mg_7_9_base_tap_by_the_top_ace() -> None:
    t = armies().finish_draws()
    assert t.illegal(None, "tap_base").rule == "MG-7.9"  # AS on top: needs a target unit
    assert t.illegal(None, "tap_base", target="2H").rule == "MG-7.9"  # spades help only in combat
    t = armies(aces={"ann": ["AD", "AS", "AH", "AC"]}).finish_draws()
    assert t.illegal(None, "tap_base", target="2H").rule == "MG-7.9"
    t.act("tap_base")
    assert t.state.pool == 2
    assert t.illegal(None, "tap_base").rule == "MG-7.9"  # already tapped


def test_mg_7_9_clubs_base_tap_adds_two_attack_in_combat() -> None:
    t = in_combat(armies(aces={"ann": ["AC", "AS", "AH", "AD"]})).passes(1).act("tap_base", target="2H").passes(1)
    assert t.side("bob").damage["AS"] == 4


def test_mg_7_9_ruling_hearts_base_tap_heals_two() -> None:
    t = armies(units={"ann": [MEDIUM], "bob": [MEDIUM]}, guard=("bob",), aces={"bob": ["AH", "AS", "AD", "AC"]})
    t.draw("JC", "").passes(1).act("attack", target="bob", units=["5H"]).act("engage", pairs={"5H": "5H"})
    t.passes(1).act("play", card="JC", target="5H").passes(1).passes(2)
    t.finish_draws().act("tap_base", target="5H")
    assert t.side("bob").units["5H"].wounds == 1


def test_mg_7_9_no_standing_ace_no_tap() -> None:
    t = armies().finish_draws()
    ann = t.side("ann")
    ann.ruins, ann.base, ann.damage = list(ann.base), [], {}  # fast-forward
    assert t.illegal(None, "tap_base").rule == "MG-7.9"


def test_mg_7_10_king_of_spades_lasts_one_battle() -> None:
    t = armies(("ann", "bob"), units={"ann": [("2H", "2S", "2C"), ("3H", "3S", "3C")]}).quiet_turn()
    t.draw("KS", "").passes(3)
    t.finish_draws().passes(1).act("attack", target="bob", units=["2H"])
    t.act("play", card="KS", target="AS").passes(2)
    t.act("attack", target="bob", units=["3H"]).passes(2)
    assert t.side("bob").damage["AS"] == 3


def test_mg_7_1_ruling_a_play_must_do_something() -> None:
    t = armies().draw("JH", "QD")
    assert t.illegal(None, "play", card="JH", target="2H").rule == "MG-7.2"  # no wounds
    assert t.illegal(None, "play", card="JH", target="AS").rule == "MG-7.2"  # no damage
    t.act("play", card="QD", target="2D")
    t.passes(3).quiet_turn().draw("", "")
    assert "QD" in t.side("ann").queens.values()


def test_mg_7_1_ruling_only_the_king_of_clubs_targets_an_opponent() -> None:
    t = armies().quiet_turn()
    t.draw("", "").passes(3)
    t.draw("KH", "")
    assert t.illegal(None, "play", card="KH", target="2H", owner="bob").rule == "MG-7.7"
