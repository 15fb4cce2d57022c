"""MG-1 to MG-5: setup, the turn, draws, construction and components; one test (or more) per rule."""

from __future__ import annotations

import pytest

from referee.ruleset import Illegal
from referee.rulesets.maginot.state import State, Unit
from schemas import maginot as mg
from tests.maginot.mglog import RULESET, Table, armies, rec


def bare(players: tuple[str, ...] = ("ann", "bob"), first: str = "ann") -> State:
    """A state straight after `start`: bases not laid out yet."""
    t = Table(players, first)
    state: State = RULESET.start(t.header, mg.Setup(first=first))
    return state


# -- MG-1 setup -------------------------------------------------------------------


def test_mg_1_1_two_to_six_players() -> None:
    for count, ok in ((1, False), (2, True), (6, True), (7, False)):
        names = tuple(f"p{i}" for i in range(count))
        if ok:
            assert Table(names).state.phase == "draw"
            continue
        t = Table(("a", "b"))
        t.header.players = list(names)
        with pytest.raises(Illegal) as caught:
            RULESET.start(t.header, mg.Setup(first=names[0]))
        assert caught.value.rule == "MG-1.1"


def test_mg_1_1_ruling_free_for_all_last_player_wins_alone() -> None:
    """Ruling (project 6): no teams; with three players the game goes on until one is left."""
    t = Table(("ann", "bob", "cat"))
    t.do("bob", "concede")
    assert RULESET.result(t.state) is None
    t.do("cat", "concede")
    result = RULESET.result(t.state)
    assert result is not None and result.winners == ["ann"]


def test_mg_1_2_every_player_has_a_full_deck_and_card_names_are_per_player() -> None:
    t = Table(hands={"ann": ["2D", "JK1"], "bob": ["2D", "JK2"]})
    assert "2D" in t.side("ann").hand and "2D" in t.side("bob").hand
    assert len(t.side("ann").deck) == 54 - 4 - 5  # aces in the base, five in hand


def test_mg_1_3_first_player_must_be_seated() -> None:
    t = Table()
    with pytest.raises(Illegal) as caught:
        RULESET.start(t.header, mg.Setup(first="zed"))
    assert caught.value.rule == "MG-1.3"


def test_mg_1_4_base_is_the_four_aces_in_the_chosen_order() -> None:
    state = bare()
    for aces in (["AS", "AH", "AD"], ["AS", "AS", "AD", "AC"]):
        with pytest.raises(Illegal) as caught:
            RULESET.apply(state, rec("ann", "base", aces=aces))
        assert caught.value.rule == "MG-1.4"
    with pytest.raises(Illegal) as caught:
        RULESET.apply(state, rec("bob", "base", aces=["AS", "AH", "AD", "AC"]))
    assert caught.value.rule == "MG-2.2"  # seat order: ann first
    RULESET.apply(state, rec("ann", "base", aces=["AC", "AS", "AH", "AD"]))
    assert state.sides["ann"].base[0] == "AC"


def test_mg_1_5_five_cards_each_in_seat_order() -> None:
    state = bare()
    RULESET.apply(state, rec("ann", "base", aces=["AS", "AH", "AD", "AC"]))
    RULESET.apply(state, rec("bob", "base", aces=["AS", "AH", "AD", "AC"]))
    assert RULESET.to_act(state) == ("chance",)
    assert state.draws == ["ann"] * 5 + ["bob"] * 5
    with pytest.raises(Illegal) as caught:
        RULESET.apply(state, rec("chance", "draw", player="bob", card="2S"))
    assert caught.value.rule == "MG-3.2"


# -- MG-2 the turn ------------------------------------------------------------------


def test_mg_2_1_turns_go_clockwise_from_the_first_player() -> None:
    t = Table(("ann", "bob", "cat"), first="bob")
    seen = []
    for _ in range(4):
        t.finish_draws()
        seen.append(t.state.active)
        t.passes(3)
    assert seen == ["bob", "cat", "ann", "bob"]


def test_mg_2_2_a_record_must_be_due() -> None:
    t = Table(hands={"ann": ["2D"], "bob": ["2D"]}).finish_draws()
    assert t.illegal("bob", "resource", card="2D").rule == "MG-2.2"
    assert t.illegal("ann", "draw", player="ann", card="3S").rule == "MG-2.2"
    assert t.illegal("ann", "engage", pairs={}).rule == "MG-2.2"
    t.passes(1)  # battle phase now
    assert t.illegal("ann", "resource", card="2D").rule == "MG-2.2"


def test_mg_2_3_pass_ends_each_phase_in_order() -> None:
    t = Table().finish_draws()
    phases = [t.state.phase]
    for _ in range(3):
        t.passes(1)
        phases.append(t.state.phase)
    assert phases == ["construction", "battle", "consolidation", "draw"]
    assert t.state.active == "bob"


def test_mg_2_4_cards_must_be_where_the_record_says() -> None:
    t = Table(hands={"ann": ["2D"]}).finish_draws()
    assert t.illegal(None, "resource", card="3D").rule == "MG-2.4"
    assert t.illegal(None, "tap", card="2D").rule == "MG-2.4"  # in hand, not in the resource area
    assert t.illegal(None, "build", card="2S", tokens=1).rule == "MG-2.4"


# -- MG-3 draw and untap --------------------------------------------------------------


def test_mg_3_1_everything_untaps_at_the_start_of_the_turn() -> None:
    t = armies()
    t.finish_draws().resources_and_tap().passes(1).act("attack", target="bob", units=["2H"])
    t.passes(2)  # combat steps (tie: bob reveals first)
    assert t.side("ann").units["2H"].tapped and all(t.side("ann").resources.values())
    t.passes(2).quiet_turn()  # ann's battle and consolidation end; bob's whole turn
    assert t.state.active == "ann"
    assert not t.side("ann").units["2H"].tapped and not any(t.side("ann").resources.values())


def test_mg_3_2_two_draws_a_turn_from_the_own_deck() -> None:
    t = Table()
    assert t.state.draws == ["ann", "ann"]
    assert t.illegal("chance", "draw", player="ann", card="AS").rule == "MG-3.2"  # aces are in the base
    t.draw("5S")
    assert t.illegal("chance", "draw", player="ann", card="5S").rule == "MG-3.2"  # already drawn
    assert t.illegal("chance", "draw", player="bob", card="5S").rule == "MG-3.2"  # ann draws
    t.draw("")
    assert t.state.phase == "construction"


def test_mg_3_3_an_empty_deck_takes_the_discard_pile() -> None:
    t = Table().quiet_turn()
    bob = t.side("bob")
    # Fast-forward: bob's deck is used up and two cards lie in his discard pile.
    bob.discard = set(bob.deck) - {"7S", "7C"}
    bob.deck = {"7S", "7C"}
    t.draw("7S", "7C")
    t.passes(3).quiet_turn()
    assert t.state.active == "bob" and t.state.phase == "draw"
    assert len(bob.deck) > 2 and not bob.discard


def test_mg_3_3_ruling_nothing_to_draw_skips_the_draw() -> None:
    t = Table().quiet_turn()
    bob = t.side("bob")
    bob.discard, bob.deck = set(), {"7S"}  # fast-forward: one card left anywhere
    t.draw("7S")
    assert t.state.phase == "construction" and t.state.active == "bob"


# -- MG-4 construction -----------------------------------------------------------------


def test_mg_4_1_diamonds_are_free_resources_any_number_a_turn() -> None:
    t = Table(hands={"ann": ["2D", "3D", "4D", "2S", "JD"]}).finish_draws()
    for card in ("2D", "3D", "4D"):
        t.act("resource", card=card)
    assert set(t.side("ann").resources) == {"2D", "3D", "4D"}
    assert t.illegal(None, "resource", card="2S").rule == "MG-4.1"
    assert t.illegal(None, "resource", card="JD").rule == "MG-4.1"


def test_mg_4_2_a_resource_taps_once_for_one_token() -> None:
    t = Table(hands={"ann": ["2D", "9D"]}).finish_draws()
    t.act("resource", card="2D").act("resource", card="9D").act("tap", card="9D")
    assert t.state.pool == 1  # the number does not count
    assert t.illegal(None, "tap", card="9D").rule == "MG-4.2"
    t.passes(1)
    assert t.illegal(None, "tap", card="2D").rule == "MG-2.2"  # only in construction


def test_mg_4_3_tokens_come_from_the_pool() -> None:
    t = Table(hands={"ann": [*["2D", "3D", "4D"], "2S", "7C"]}).finish_draws().resources_and_tap()
    assert t.illegal(None, "build", card="7C", tokens=4).rule == "MG-4.3"  # pool is 3
    t.act("build", card="7C", tokens=3)
    assert t.side("ann").building == {"7C": 3} and "7C" not in t.side("ann").hand


def test_mg_4_3_three_tapped_resources_may_all_go_on_a_two() -> None:
    """The text completes a card at tokens "equal to or greater than" its value: surplus is allowed."""
    t = Table(hands={"ann": [*["2D", "3D", "4D"], "2H"]}).finish_draws().resources_and_tap()
    assert t.state.pool == 3
    assert any(r == rec("ann", "build", card="2H", tokens=3) for r in RULESET.legal(t.state))
    t.act("build", card="2H", tokens=3)
    assert "2H" in t.side("ann").built and t.state.pool == 0


def test_mg_4_3_surplus_on_a_card_already_begun_completes_it() -> None:
    t = Table(hands={"ann": ["2D", "3D", "4D", "5D", "7C"]}).finish_draws().resources_and_tap()
    t.act("build", card="7C", tokens=4).passes(3).quiet_turn().finish_draws().resources_and_tap()
    t.act("build", card="7C", tokens=4)  # needs 3, gets 4
    assert "7C" in t.side("ann").built and "7C" not in t.side("ann").building


def test_mg_4_4_construction_over_several_turns_completes_at_the_value() -> None:
    t = Table(hands={"ann": ["2D", "3D", "4D", "5D", "7C"]}).finish_draws().resources_and_tap()
    t.act("build", card="7C", tokens=4).passes(3).quiet_turn().finish_draws().resources_and_tap()
    t.act("build", card="7C", tokens=3)
    assert "7C" in t.side("ann").built and "7C" not in t.side("ann").building
    assert t.illegal(None, "build", card="7C", tokens=1).rule == "MG-4.4"


def test_mg_4_5_ruling_unused_tokens_are_lost() -> None:
    t = Table(hands={"ann": ["2D", "3D"]}).finish_draws().resources_and_tap()
    assert t.state.pool == 2
    t.passes(1)
    assert t.state.pool == 0


def test_mg_4_6_only_number_cards_of_spades_hearts_clubs_are_built() -> None:
    t = Table(hands={"ann": ["2D", "KS", "5D"]}).finish_draws().act("resource", card="2D").act("tap", card="2D")
    assert t.illegal(None, "build", card="KS", tokens=1).rule == "MG-4.6"
    assert t.illegal(None, "build", card="5D", tokens=1).rule == "MG-4.6"


# -- MG-5 components and units -----------------------------------------------------------


def test_mg_5_1_ruling_a_component_is_worth_its_number() -> None:
    """Ruling (project 1): a 6 of clubs gives 6 attack, not 2."""
    t = armies(units={"ann": [("6H", "6S", "6C")]})
    assert t.state.attack("ann", "6H") == 6
    assert t.state.armor("ann", "6H") == 6 and t.state.life("ann", "6H") == 6


def test_mg_5_3_a_unit_is_one_class_mg_5_2() -> None:
    t = Table(hands={"ann": ["2D", "3D", "4D", "5D", "6D"]}).draw("2H", "2S").resources_and_tap()
    t.act("build", card="2H", tokens=2).act("build", card="2S", tokens=2).passes(3).quiet_turn()
    t.draw("5C", "").resources_and_tap().act("build", card="5C", tokens=5).passes(2)
    assert t.illegal(None, "assemble", life="2H", armor="2S", weapon="5C").rule == "MG-5.3"


def test_mg_5_4_ruling_a_unit_is_named_by_its_heart() -> None:
    t = armies()
    t.finish_draws().passes(1)
    assert t.illegal(None, "attack", target="bob", units=["2S"]).rule == "MG-2.4"
    t.act("attack", target="bob", units=["2H"])


def test_mg_5_5_queens_add_two_to_their_stat() -> None:
    t = armies()
    t.draw("QC", "").act("play", card="QC", target="2H")
    assert t.state.attack("ann", "2H") == 4 and t.state.armor("ann", "2H") == 2


def test_mg_5_6_new_units_are_untapped_in_patrol() -> None:
    t = armies()
    unit: Unit = t.side("ann").units["2H"]
    assert (unit.zone, unit.tapped, unit.wounds) == ("patrol", False, 0)


def test_mg_1_6_ruling_no_hand_limit() -> None:
    t = Table()
    for _ in range(6):
        t.quiet_turn()
    assert len(t.side("ann").hand) == 5 + 2 * 3 and not t.side("ann").discard
