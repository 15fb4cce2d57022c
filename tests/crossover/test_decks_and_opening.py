"""Crossover rules XO-1 to XO-4, one test (or more) each, named by its id in RULES.md: decks, translations in play, who acts, the opening."""

from __future__ import annotations

from typing import Any

import pytest

from referee.ruleset import Illegal
from tests.crossover.xolog import (
    BOB_PLAIN,
    DOT,
    OPEN,
    PLAIN,
    TO_COMBAT,
    XO,
    apply,
    attack,
    card_deck,
    draws,
    equip,
    header,
    illegal,
    legal,
    pass_,
    rec,
    respond,
    run,
    setup_illegal,
    summon,
)

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
    assert state.sides["ann"].initiative == 5


def test_xo_2_6_ruling_r2_equipment_adds_no_initiative() -> None:
    """Ruling XO-R2: the Sword has strength 1, yet M1 (strength 1) still gives ann initiative 1."""
    state = legal([*PLAIN, summon("ann", "M1"), summon("bob", "M3"), equip("ann", "Sword", "M1")])
    assert state.sides["ann"].initiative == 1


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
