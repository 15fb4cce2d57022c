"""basictcg-mtg rules BT-1 to BT-4, one test (or a few) each, named by its rule id in RULES.md: setup, turns and draws, playing cards."""

from __future__ import annotations

import msgspec
import pytest

from referee.logio import setup_decoder
from referee.ruleset import Illegal
from referee.rulesets.basictcg_mtg.cards import level_of
from tests.basictcg_mtg.btlog import BT, board, do, end, illegal, in_play, new, setup, start, summon

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


def test_bt_1_5_the_scenario_is_the_act_threshold() -> None:
    data = setup({"ann": ["Bear"], "bob": ["Bear"]})
    assert setup_decoder("basictcg-mtg").decode(msgspec.json.encode(data)).scenario == "act_threshold"
    with pytest.raises(msgspec.ValidationError):
        setup_decoder("basictcg-mtg").decode(msgspec.json.encode(data | {"scenario": "last_one_standing"}))


# -- BT-2 / BT-3 turns and draws -------------------------------------------------


def test_bt_2_1_only_the_player_to_act_and_the_right_moment() -> None:
    state = board(["Bear"], ["Ox"])
    illegal(state, "BT-2.1", "bob", "end_turn")
    illegal(state, "BT-2.1", "bob", "block", blocker=None)
    illegal(state, "BT-2.1", "chance", "draw", player="ann", card="a-bear")
    illegal(state, "BT-2.1", "ann", "regenerate", creature="a-bear", discard=None)


def test_bt_2_2_a_turn_is_draw_main_end() -> None:
    state = start(setup({"ann": ["Bear", "Bear"], "bob": ["Ox", "Ox"]}, hand=0))
    assert BT.to_act(state) == ("chance",)
    do(state, "chance", "draw", player="ann", card="a-bear")
    assert state.phase == "main" and BT.to_act(state) == ("ann",)
    end(state)
    assert state.active == "bob" and BT.to_act(state) == ("chance",) and state.draws == ["bob"]


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
