"""Standings and tiebreakers.

The `mtg` examples are the worked examples of the Magic Tournament Rules,
appendix C ("Tiebreaker Explanation"): the three match-win percentages of an
8-round event (5-2-1; 1-3-0 then withdraws; 3-2-0 with a first-round bye then
withdraws), the two game-win percentages (2-0, 2-1, 1-2, 2-0 and 1-2, 1-2,
0-2, 1-2), and the opponents' match-win percentage of a 6-2-0 player, without
and with a first-round bye. Each expected value is worked out by hand in the
comments, not by calling the code. The pokemon and chess profiles are tested
in test_tiebreakers.py.
"""

from __future__ import annotations

import pytest

from tournament.formats.standings import Match, Standing, standings

MTG_FLOOR = 0.33


def result(round_: int, a: str, b: str, outcome: str, games: tuple[int, int] | None = None) -> Match:
    """a's result against b: W (2-0), L (0-2), D (1-1), or the given games."""
    won = games or {"W": (2, 0), "L": (0, 2), "D": (1, 1)}[outcome]
    return Match(round=round_, players=(a, b), games={a: won[0], b: won[1]})


def against_fillers(player: str, outcomes: str, first_round: int = 1) -> list[Match]:
    """`player`'s results (W, L, D, or B for a bye) in consecutive rounds, each
    against a fresh filler player who is not ranked."""
    matches = []
    for k, outcome in enumerate(outcomes):
        round_ = first_round + k
        if outcome == "B":
            matches.append(Match(round=round_, players=(player,), games={player: 2}))
        else:
            matches.append(result(round_, player, f"{player}-filler{round_}", outcome))
    return matches


def by_player(rows: list[Standing]) -> dict[str, Standing]:
    return {row.player: row for row in rows}


# -- match-win percentage (MTR appendix C): seen through an opponent's OMW% --
# A "witness" lost to the player in round 1 and played nothing else, so the
# witness's OMW% is exactly the player's match-win percentage.


def test_match_win_5_2_1_over_eight_rounds() -> None:
    # 5-2-1: 5*3 + 1 = 16 match points over 8 rounds: 16 / (8*3) = 0.667.
    matches = [result(1, "ann", "witness", "W"), *against_fillers("ann", "WWWWLLD", 2)]
    rows = by_player(standings(["ann", "witness"], matches))
    assert rows["ann"].points == 16
    assert (rows["ann"].wins, rows["ann"].losses, rows["ann"].draws) == (5, 2, 1)
    assert rows["witness"].tiebreakers["omw"] == pytest.approx(16 / 24)


def test_match_win_1_3_0_then_withdraws_uses_the_floor() -> None:
    # 1-3-0, then withdraws after round 4: 3 / (4*3) = 0.25, below 0.33, so 0.33.
    matches = [result(1, "bea", "witness", "W"), *against_fillers("bea", "LLL", 2)]
    rows = by_player(standings(["bea", "witness"], matches, dropped={"bea": 4}))
    assert rows["bea"].dropped and not rows["witness"].dropped
    assert rows["witness"].tiebreakers["omw"] == pytest.approx(MTG_FLOOR)


def test_match_win_3_2_0_with_a_bye_then_withdraws() -> None:
    # Round-1 bye, then 2-2: 3 wins (the bye is one) = 9 points over the
    # 5 rounds played, not the event's 8: 9 / (5*3) = 0.60.
    matches = [
        Match(round=1, players=("cid",), games={"cid": 2}),
        result(2, "cid", "witness", "W"),
        *against_fillers("cid", "LWL", 3),
    ]
    rows = by_player(standings(["cid", "witness"], matches, dropped={"cid": 5}))
    assert rows["cid"].points == 9 and rows["cid"].byes == 1
    assert rows["witness"].tiebreakers["omw"] == pytest.approx(0.60)


def test_a_dropped_players_later_matches_are_left_out_of_their_record() -> None:
    # cid dropped after round 2, but a round-3 loss was recorded: it does not
    # count for cid (1 win over 2 rounds: 3/6 = 0.5 seen by the witness).
    matches = [*against_fillers("cid", "L"), result(2, "cid", "witness", "W")]
    matches.append(result(3, "cid", "late", "L"))
    rows = by_player(standings(["cid", "witness"], matches, dropped={"cid": 2}))
    assert rows["cid"].points == 3 and rows["cid"].losses == 1
    assert rows["witness"].tiebreakers["omw"] == pytest.approx(0.5)


# -- game-win percentage (MTR appendix C) --


def test_game_win_percentage() -> None:
    # Games 2-0, 2-1, 1-2, 2-0: 6 + 6 + 3 + 6 = 21 game points over 10 games:
    # 21 / (10*3) = 0.70.
    scores = [(2, 0), (2, 1), (1, 2), (2, 0)]
    matches = [result(r, "ann", f"o{r}", "", g) for r, g in enumerate(scores, start=1)]
    (row,) = [s for s in standings(["ann"], matches) if s.player == "ann"]
    assert row.game_points == 21
    assert row.tiebreakers["gw"] == pytest.approx(0.70)


def test_game_win_percentage_floor() -> None:
    # Games 1-2, 1-2, 0-2, 1-2: 3 + 3 + 0 + 3 = 9 game points over 11 games:
    # 9 / (11*3) = 0.27, below 0.33, so 0.33.
    scores = [(1, 2), (1, 2), (0, 2), (1, 2)]
    matches = [result(r, "bea", f"o{r}", "", g) for r, g in enumerate(scores, start=1)]
    (row,) = standings(["bea"], matches)
    assert row.game_points == 9
    assert row.tiebreakers["gw"] == pytest.approx(MTG_FLOOR)


def test_drawn_games_score_one_game_point() -> None:
    # MTR: a 2-0-1 win earns 7 game points, the loser 1.
    matches = [Match(round=1, players=("ann", "bob"), games={"ann": 2, "bob": 0}, draws=1)]
    rows = by_player(standings(["ann", "bob"], matches))
    assert (rows["ann"].game_points, rows["bob"].game_points) == (7, 1)
    assert (rows["ann"].points, rows["bob"].points) == (3, 0)
    # 7 / (3 games * 3) and 1 / 9 = 0.11, floored to 0.33.
    assert rows["ann"].tiebreakers["gw"] == pytest.approx(7 / 9)
    assert rows["bob"].tiebreakers["gw"] == pytest.approx(MTG_FLOOR)


# -- opponents' match-win percentage (MTR appendix C) --

# The 6-2-0 player's eight opponents and their final records (W-L-D); the
# 1-3-1 and 3-3-1 players withdrew, after 5 and 7 rounds.
OPPONENTS = {
    "o440": "WWWWLLL",  # + a loss to the player: 4-4-0, 12/24 = 0.5
    "o710": "WWWWWWL",  # + a win over the player: 7-1-0, 21/24 = 0.875
    "o131": "WLLD",  # + a loss to the player: 1-3-1 in 5 rounds, 4/15 = 0.267 -> 0.33
    "o331": "WWWLLD",  # + a loss to the player: 3-3-1 in 7 rounds, 10/21 = 0.476
    "o620": "WWWWWWL",  # + a loss to the player: 6-2-0, 18/24 = 0.75
    "o521": "WWWWWLD",  # + a loss to the player: 5-2-1, 16/24 = 0.667
    "o431": "WWWWLLD",  # + a loss to the player: 4-3-1, 13/24 = 0.542
    "o611": "WWWWWLD",  # + a win over the player: 6-1-1, 19/24 = 0.792
}
BEAT_THE_PLAYER = {"o710", "o611"}


def omw_event(with_bye: bool) -> list[Match]:
    matches = []
    for round_, (opponent, others) in enumerate(OPPONENTS.items(), start=1):
        if with_bye and round_ == 1:
            # The player had a bye in round 1 instead of meeting o440.
            matches.append(Match(round=1, players=("player",), games={"player": 2}))
            continue
        outcome = "L" if opponent in BEAT_THE_PLAYER else "W"
        matches.append(result(round_, "player", opponent, outcome))
        # The opponent's other rounds, numbered after the event's 8 so they never clash.
        matches += against_fillers(opponent, others, first_round=9)
    return matches


def test_opponents_match_win_percentage() -> None:
    # (12/24 + 21/24 + 0.33 + 10/21 + 18/24 + 16/24 + 13/24 + 19/24) / 8
    # = (0.5 + 0.875 + 0.33 + 0.4762 + 0.75 + 0.6667 + 0.5417 + 0.7917) / 8
    # = 4.9312 / 8 = 0.6164 (MTR: about 0.62)
    rows = by_player(standings(["player", *OPPONENTS], omw_event(with_bye=False)))
    assert rows["player"].points == 18
    assert rows["player"].tiebreakers["omw"] == pytest.approx(
        (12 / 24 + 21 / 24 + 0.33 + 10 / 21 + 18 / 24 + 16 / 24 + 13 / 24 + 19 / 24) / 8
    )
    assert rows["player"].tiebreakers["omw"] == pytest.approx(0.6164, abs=1e-4)
    assert rows["o131"].points == 4 and rows["o331"].points == 10


def test_byes_are_left_out_of_opponents_match_win_percentage() -> None:
    # The same player with a round-1 bye instead of the 4-4-0 opponent: still
    # 6-2-0, but only seven opponents are averaged:
    # (4.9312 - 0.5) / 7 = 4.4312 / 7 = 0.6330
    rows = by_player(standings(["player", *OPPONENTS], omw_event(with_bye=True)))
    assert (rows["player"].points, rows["player"].byes) == (18, 1)
    assert rows["player"].tiebreakers["omw"] == pytest.approx(0.6330, abs=1e-4)


def test_byes_are_left_out_of_opponents_game_win_percentage() -> None:
    # ann: a bye, then beat bob 2-1. bob won 1 game of 3: 3 game points over
    # 3 games = 3/9 = 0.333 (above the 0.33 floor). ann's OGW% averages bob
    # alone: 0.333; the bye (a 2-0) would have counted as 1.0.
    matches = [
        Match(round=1, players=("ann",), games={"ann": 2}),
        result(2, "ann", "bob", "", (2, 1)),
    ]
    rows = by_player(standings(["ann", "bob"], matches))
    assert rows["ann"].tiebreakers["ogw"] == pytest.approx(1 / 3)
    # ann's own GW% keeps the bye (2-0, 6 points): (6 + 6) / (5 games * 3) = 0.8
    assert rows["ann"].tiebreakers["gw"] == pytest.approx(0.8)


# -- a small round robin (its pokemon and chess figures are in test_tiebreakers.py) --
# Round 1: a beats b, c draws d. Round 2: a draws c, b beats d.
# Round 3: a beats d, b draws c. One game a match.
# Match points: a W D W = 7, b L W D = 4, c D D D = 3, d D L L = 1.


def round_robin() -> list[Match]:
    def game(round_: int, x: str, y: str, outcome: str) -> Match:
        if outcome == "D":
            return Match(round=round_, players=(x, y), games={x: 0, y: 0}, draws=1)
        return Match(round=round_, players=(x, y), games={x: 1, y: 0})

    return [
        game(1, "a", "b", "W"),
        game(1, "c", "d", "D"),
        game(2, "a", "c", "D"),
        game(2, "b", "d", "W"),
        game(3, "a", "d", "W"),
        game(3, "b", "c", "D"),
    ]


def test_mtg_game_percentages_on_the_round_robin() -> None:
    # Game points (one game a match, a drawn game is 1): a 3+1+3 = 7 of 9;
    # b 0+3+1 = 4 of 9; c 1+1+1 = 3 of 9 = 0.333 (above 0.33); d 1 of 9 -> 0.33.
    # a's OGW% = (4/9 + 1/3 + 0.33) / 3
    rows = by_player(standings("abcd", round_robin()))
    assert [rows[p].tiebreakers["gw"] for p in "abcd"] == pytest.approx([7 / 9, 4 / 9, 1 / 3, 0.33])
    assert rows["a"].tiebreakers["ogw"] == pytest.approx((4 / 9 + 1 / 3 + 0.33) / 3)


# -- ordering --


def test_sorted_by_points_then_tiebreakers_then_player_id() -> None:
    # Chess points: a 2.5, b 1.5, c 1.5, d 0.5 (test_tiebreakers.py works them
    # out); zed and amy only had a round-1 bye: 1 point each and the same
    # tiebreakers, so amy (the smaller id) is ranked first. b and c tie on
    # points, Buchholz (4.5) and cut-1 (4); Sonneborn-Berger puts c (2.25)
    # before b (1.25).
    matches = [
        *round_robin(),
        Match(round=1, players=("zed",), games={"zed": 2}),
        Match(round=1, players=("amy",), games={"amy": 2}),
    ]
    rows = standings(["zed", "d", "c", "b", "a", "amy"], matches, profile="chess")
    assert [r.player for r in rows] == ["a", "c", "b", "amy", "zed", "d"]
    assert [r.rank for r in rows] == [1, 2, 3, 4, 5, 6]


def test_a_tiebreaker_decides_before_the_player_id() -> None:
    # bob and zoe are both 1-0. zoe beat a 1-1 player: OMW% 3/6 = 0.5; bob
    # beat a 0-2 player: 0/6 -> 0.33. So zoe is first, though "bob" < "zoe".
    matches = [
        result(1, "bob", "weak", "W"),
        result(2, "weak", "x", "L"),
        result(1, "zoe", "mid", "W"),
        result(2, "mid", "y", "W"),
    ]
    rows = standings(["bob", "zoe"], matches)
    assert [r.player for r in rows] == ["zoe", "bob"]
    assert rows[0].tiebreakers["omw"] == pytest.approx(0.5)
    assert rows[1].tiebreakers["omw"] == pytest.approx(0.33)


def test_a_player_with_no_matches() -> None:
    (row,) = standings(["new"], [])
    assert (row.rank, row.points, row.game_points) == (1, 0, 0)
    assert row.tiebreakers == {"omw": None, "gw": None, "ogw": None}  # nothing to measure (T-162); ranked by the floor


def test_unknown_profile() -> None:
    with pytest.raises(ValueError, match="unknown tiebreaker profile"):
        standings([], [], profile="go")
