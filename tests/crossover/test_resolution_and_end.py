"""Crossover rules XO-8 and XO-9, one test (or more) each, named by its id in RULES.md: resolution, winning, results."""

from __future__ import annotations

from typing import Any

from tests.crossover.xolog import (
    ARMED,
    BOB_PLAIN,
    PLAIN,
    attack,
    draws,
    event,
    four_openings,
    four_players,
    illegal,
    legal,
    pass_,
    rec,
    resolve,
    run,
    summon,
    three_players,
)

# -- XO-8 resolution -------------------------------------------------------------------------


def test_xo_8_1_everything_but_the_leader_is_discarded() -> None:
    state = legal([*ARMED, attack("bob", "M3", "M1")])
    # bob's M4 and ann's M2 still stand; the skirmish goes on
    state = legal([*ARMED, attack("bob", "M4", "M2"), attack("bob", "M3", "M1")])
    assert state.phase == "resolution"
    for side in state.sides.values():
        assert not side.minions and side.leader == "Lead One"


def test_xo_8_2_ruling_replace_the_leader_and_discard_to_five() -> None:
    opening = [*draws("ann", "Lead One", "M1", "M2", "Lead Two", "Draw A"), rec("ann", "lead", card="Lead One"), *draws("bob", *BOB_PLAIN)]
    plays = [summon("ann", "M1"), summon("bob", "M3"), event("ann", "Draw A", 2), *draws("ann", "M8", "M9"), pass_("bob"), pass_("ann")]
    base = [*opening, *plays, attack("bob", "M3", "M1")]  # bob 2 attacks ann 1: a tie, bob wins
    state = legal(base)
    assert state.phase == "resolution" and state.waiting == "resolve" and state.actor == "ann"
    # ann holds M2, Lead Two, M8, M9: a new leader leaves 3, so nothing is discarded
    assert "exactly 0" in illegal([*base, resolve("ann", "Lead Two", "M2")], "XO-8.3")
    assert "not a leader" in illegal([*base, resolve("ann", "M2")], "XO-8.3")
    state = legal([*base, resolve("ann", "Lead Two")])
    assert state.sides["ann"].leader == "Lead Two" and "Lead One" in state.sides["ann"].discard and state.owed == 2


def test_xo_8_3_discard_exactly_the_cards_over_five() -> None:
    opening = draws("ann", "Lead One", "M1", "Draw A", "Draw B", "M2") + draws("bob", *BOB_PLAIN)
    plays = [event("ann", "Draw A", 2), *draws("ann", "M8", "M9"), summon("bob", "M3"), event("ann", "Draw B", 2), *draws("ann", "M7", "M6"), pass_("bob"), pass_("ann")]
    base = [*opening, *plays]
    state = legal(base)  # ann has no minions: bob wins; ann holds M1 M2 M8 M9 M7 M6
    assert state.waiting == "resolve" and state.actor == "ann"
    assert "exactly 1" in illegal([*base, resolve("ann")], "XO-8.3")
    assert "twice" in illegal([*base, resolve("ann", None, "M1", "M1")], "XO-8.3")
    assert "not in ann's hand" in illegal([*base, resolve("ann", None, "M5")], "XO-8.3")
    state = legal([*base, resolve("ann", None, "M9")])
    assert len(state.sides["ann"].hand) == 5 and state.actor == "bob"


def test_xo_8_4_draws_follow_each_resolve_then_a_new_round() -> None:
    base = [*PLAIN, summon("ann", "M1"), pass_("bob"), pass_("ann")]
    state = legal(base)
    assert state.actor == "ann" and state.owed == 2
    state = legal([*base, *draws("ann", "M9", "M8")])
    assert state.actor == "bob" and state.owed == 1
    state = legal([*base, *draws("ann", "M9", "M8"), *draws("bob", "M7")])
    assert state.phase == "play" and state.round == 2 and state.actor == "ann"


# -- XO-9 winning, results -----------------------------------------------------------------


def two_wins() -> list[dict[str, Any]]:
    """ann wins two skirmishes against a bob who plays nothing."""
    round1 = [*PLAIN, summon("ann", "M1"), pass_("bob"), pass_("ann"), *draws("ann", "M9", "M8"), *draws("bob", "M7")]
    return [*round1, summon("ann", "M2"), pass_("bob"), pass_("ann")]


def test_xo_9_1_ruling_two_skirmishes_win_a_two_player_game() -> None:
    replay = run(two_wins())
    assert replay.verdict.verdict == "complete"
    result = replay.verdict.result
    assert result is not None and result.winners == ["ann"] and result.placements == {"ann": 1, "bob": 2}
    assert result.reason == "skirmishes" and result.score == {"ann": 2.0, "bob": 0.0}


def test_xo_9_1_ruling_a_combat_nobody_wins_does_not_count() -> None:
    state = legal([*PLAIN, pass_("ann"), pass_("bob")])
    assert state.phase == "resolution" and all(s.wins == 0 for s in state.sides.values())


def test_xo_9_2_players_who_win_no_skirmish_are_eliminated() -> None:
    opening = four_openings(("ann", "bob", "cat"))
    plays = [summon("ann", "M1"), summon("bob", "M5"), summon("cat", "M3"), pass_("ann"), pass_("bob"), pass_("cat"), attack("bob", "M5", "M3")]
    state = legal([*opening, *plays], three_players())
    # bob beat cat; ann sat out: cat is out, in 3rd place
    assert state.alive == ["ann", "bob"] and state.placements == {"cat": 3} and state.phase == "resolution"


def test_xo_9_3_ruling_players_out_together_share_a_place_and_none_left_is_a_draw() -> None:
    opening = four_openings(("ann", "bob", "cat"))
    replay = run([*opening, pass_("ann"), pass_("bob"), pass_("cat")], three_players())
    result = replay.verdict.result
    assert result is not None and result.placements == {"ann": 1, "bob": 1, "cat": 1} and result.winners == []


def test_xo_9_4_placements_follow_elimination() -> None:
    opening = four_openings(("ann", "bob", "cat"))
    plays = [summon("ann", "M1"), summon("bob", "M5"), summon("cat", "M3"), pass_("ann"), pass_("bob"), pass_("cat"), attack("bob", "M5", "M3")]
    after = [*opening, *plays, *draws("ann", "M9", "M8"), *draws("bob", "M9", "M1")]
    state = legal(after, three_players())
    assert state.phase == "play" and state.actor == "ann"
    replay = run([*after, summon("ann", "M2"), pass_("bob"), pass_("ann")], three_players())
    result = replay.verdict.result
    assert result is not None and result.placements == {"ann": 1, "bob": 2, "cat": 3} and result.winners == ["ann"]
    assert result.score == {"ann": 2.0, "bob": 1.0, "cat": 0.0}


def test_xo_9_6_concede_in_a_two_player_game() -> None:
    result = run([*PLAIN, rec("ann", "concede")]).verdict.result
    assert result is not None and result.winners == ["bob"] and result.reason == "concede"


def test_xo_9_6_ruling_concede_mid_skirmish_gives_the_opponent_the_skirmish() -> None:
    opening = four_openings()
    plays = [summon("ann", "M4"), summon("bob", "M8"), summon("cat", "M1"), summon("dan", "M6"), pass_("ann"), pass_("bob"), pass_("cat"), pass_("dan")]
    state = legal([*opening, *plays, rec("bob", "concede")], four_players())
    # bob (attacker vs dan) is out in 4th; dan wins that skirmish; ann attacks cat next
    assert state.placements == {"bob": 4} and "dan" in state.won and state.actor == "ann"
    assert "already out" in illegal([*opening, *plays, rec("bob", "concede"), rec("bob", "concede")], "XO-9.6", four_players())


def test_xo_9_6_ruling_concede_on_turn_passes_the_turn() -> None:
    opening = four_openings(("ann", "bob", "cat"))
    state = legal([*opening, rec("ann", "concede")], three_players())
    assert state.actor == "bob" and state.phase == "play" and state.placements == {"ann": 3}


def test_xo_9_7_game_loss_by_the_judge() -> None:
    result = run([*PLAIN, rec("judge", "game_loss", player="bob")]).verdict.result
    assert result is not None and result.winners == ["ann"] and result.reason == "game_loss"
    illegal([*PLAIN, rec("ann", "game_loss", player="bob")], "XO-3.1")
    illegal([*PLAIN, rec("judge", "game_loss", player="zed")], "XO-9.7")


def test_xo_9_8_ruling_time_places_by_skirmishes_won() -> None:
    base = [*PLAIN, summon("ann", "M1"), pass_("bob"), pass_("ann")]
    result = run([*base, rec("judge", "time")]).verdict.result
    assert result is not None and result.winners == ["ann"] and result.reason == "time"
    result = run([*PLAIN, rec("judge", "time")]).verdict.result
    assert result is not None and result.winners == [] and result.placements == {"ann": 1, "bob": 1}
    illegal([*PLAIN, rec("ann", "time")], "XO-3.1")


def test_xo_9_5_the_score_is_skirmishes_won_counting_sit_outs() -> None:
    opening = four_openings(("ann", "bob", "cat"))
    plays = [summon("ann", "M1"), summon("bob", "M5"), summon("cat", "M3"), pass_("ann"), pass_("bob"), pass_("cat"), attack("bob", "M5", "M3")]
    state = legal([*opening, *plays, rec("judge", "time")], three_players())
    assert state.outcome.score == {"ann": 1.0, "bob": 1.0, "cat": 0.0}  # ann sat out; bob beat cat
    assert state.outcome.placements == {"ann": 1, "bob": 1, "cat": 3} and state.outcome.winners == []
