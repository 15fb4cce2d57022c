"""The `pokemon` and `chess` tiebreakers, against figures worked out by hand from their rulebooks.

Every expected value is computed in the comments (exact fractions), never by
calling the project's code. Sources (see tournament/README.md, "Standings and
tiebreakers", for how each was checked):

- POKEMON: the Play! Pokémon tiebreakers, from the Tournament Operation
  Procedures (TOP) "Determining Tiebreakers" (opponents' win percentage:
  byes taken out of the opponent's record, a dropped opponent over the
  rounds they played, at least 25%, at most 75% for one who left early;
  its worked records 4-3 with a bye, 1-3 then drop, 8-0 / 6-2 / 3-5) and
  "Late Player Registration" (missed rounds are losses), now in the Play!
  Pokémon Tournament Rules Handbook; RK9's 2021 explanation of resistance
  (a tie counts half a win: 3-1-1 is 70%, 2-1 with a bye 50%); Pokémon's
  2019 TOM 1.53 notice (tardiness, OWP, OOWP, head-to-head). Rulings T-41,
  T-50 to T-52.
- FIDE: FIDE Handbook C.07, Play-Off and Tie-Break Regulations (in force from
  1 March 2026): 8.1 Buchholz, 9.1 Sonneborn-Berger, 14.1 Cut-1, and 16
  "Unplayed Rounds Management in Swiss Tournaments" (16.2 categories, 16.3 the
  opponents' adjusted score, 16.4 the dummy opponent, 16.5 the Cut-1
  exception); FIDE's tie-break exercise (Arbiters' Commission, IA Mario Held,
  2024) for a published crosstable. Rulings T-42, T-53.
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from tests.tournament.tlib import cli, cli_json, tables
from tournament.formats.standings import Match, Standing, pairing_points, standings


def game(round_: int, winner: str, loser: str) -> Match:
    """`winner` beat `loser` 1-0 over the table."""
    return Match(round_, (winner, loser), {winner: 1, loser: 0})


def drawn(round_: int, a: str, b: str) -> Match:
    return Match(round_, (a, b), {a: 0, b: 0}, draws=1)


def bye(round_: int, player: str) -> Match:
    return Match(round_, (player,), {player: 2})


def conceded(round_: int, winner: str, dropper: str) -> Match:
    """`dropper` left mid-round: the match is conceded, not played (a forfeit)."""
    return Match(round_, (winner, dropper), {winner: 2, dropper: 0}, played=False)


def fillers(player: str, outcomes: str, first_round: int) -> list[Match]:
    """`player`'s results (W, L, D, or B for a bye) from `first_round` on, each against a fresh unranked filler."""
    matches = []
    for k, outcome in enumerate(outcomes):
        r, other = first_round + k, f"{player}-filler{first_round + k}"
        matches.append(
            bye(r, player) if outcome == "B"
            else drawn(r, player, other) if outcome == "D"
            else game(r, player, other) if outcome == "W"
            else game(r, other, player)
        )
    return matches


def by_player(rows: list[Standing]) -> dict[str, Standing]:
    return {row.player: row for row in rows}


def as_fractions(rows: dict[str, Standing], name: str, players: str) -> list[F]:
    # Every value here is a fraction with a small denominator: limit_denominator recovers it exactly.
    return [F(rows[p].tiebreakers[name]).limit_denominator(1000) for p in players]


# -- pokemon: one opponent seen through a "witness" who met only them --
# The witness met `opp` in one round and had byes (which are not opponents) in
# any other, so the witness's OWP is exactly opp's win percentage as the rules count it.


def witness_owp(matches: list[Match], **kwargs: dict[str, int]) -> float:
    rows = by_player(standings(["witness", "opp"], matches, "pokemon", **kwargs))  # type: ignore[arg-type]
    return rows["witness"].tiebreakers["owp"]


def test_pokemon_a_tie_counts_half_a_win() -> None:
    # Issue 11: an opponent at 3-1-1. (3 + 1/2) / 5 = 3.5 / 5 = 70% (not 10/15 = 66.67%).
    matches = [game(1, "opp", "witness"), *fillers("opp", "WWLD", 2)]
    assert witness_owp(matches) == pytest.approx(0.70)


def test_pokemon_byes_are_taken_out_of_the_opponents_record() -> None:
    # Issue 11: an opponent at 2-1 with a bye: the bye's round and win are
    # left out, 1-1 over 2 rounds = 50% (not 2/3 = 66.67%).
    matches = [bye(1, "opp"), game(2, "opp", "witness"), *fillers("opp", "L", 3)]
    assert witness_owp(matches) == pytest.approx(0.50)


def test_pokemon_published_example_4_3_with_a_bye() -> None:
    # TOP 3.1.4.1: 4-3 in 7 rounds with a bye counts as 3-3 in 6 rounds: 3/6 = 50%.
    matches = [bye(1, "opp"), game(2, "opp", "witness"), *fillers("opp", "WWLLL", 3)]
    assert witness_owp(matches) == pytest.approx(0.50)


def test_pokemon_published_example_1_3_then_drop() -> None:
    # TOP 3.1.4.1: 1-3 and a drop in a 6-round event counts over the 4 rounds
    # played: 1/4 = 25% (not 1/6). The event goes on: the witness has byes in rounds 5-6.
    matches = [game(1, "opp", "witness"), *fillers("opp", "LLL", 2), *fillers("witness", "BB", 5)]
    assert witness_owp(matches, dropped={"opp": 4}) == pytest.approx(0.25)


@pytest.mark.parametrize(("outcomes", "expected"), [("WWWWWWW", 1.0), ("WWWWWLL", 0.75), ("WWLLLLL", 0.375)])
def test_pokemon_published_examples_8_0_6_2_3_5(outcomes: str, expected: float) -> None:
    # TOP 3.1.4.1: in 8 rounds, 8-0 is 8/8 = 100%, 6-2 is 6/8 = 75%, 3-5 is 3/8 = 37.5%.
    matches = [game(1, "opp", "witness"), *fillers("opp", outcomes, 2)]
    assert witness_owp(matches) == pytest.approx(expected)


def test_pokemon_floor_of_25_percent() -> None:
    # 0-3: 0/3 = 0%, raised to the 25% floor.
    matches = [game(1, "witness", "opp"), *fillers("opp", "LL", 2)]
    assert witness_owp(matches) == pytest.approx(0.25)


def test_pokemon_a_dropped_opponent_counts_at_most_75_percent() -> None:
    # TOP 3.1.4.1: 4-0 then a drop in a 6-round event: 4/4 = 100%, capped at 75%.
    matches = [game(1, "opp", "witness"), *fillers("opp", "WWW", 2), *fillers("witness", "BB", 5)]
    assert witness_owp(matches, dropped={"opp": 4}) == pytest.approx(0.75)


def test_pokemon_a_late_entrys_missed_rounds_are_losses() -> None:
    # TOP 3.1.3: opp entered in round 3 of 5 (missed rounds 1 and 2, each a
    # loss), then went 2-1: 2 wins over 5 rounds = 40% (not 2/3).
    matches = [*fillers("witness", "BB", 1), game(3, "opp", "witness"), *fillers("opp", "WL", 4)]
    assert witness_owp(matches, joined={"opp": 3}) == pytest.approx(0.40)
    rows = by_player(standings(["witness", "opp"], matches, "pokemon", joined={"opp": 3}))
    assert (rows["opp"].wins, rows["opp"].losses, rows["opp"].points) == (2, 3, 6)


def test_pokemon_the_75_percent_cap_is_for_a_player_who_left_early() -> None:
    # T-50. A four-round event. opp wins rounds 1-4 and drops after round 4
    # (e.g. declining the top cut): a complete record, 4/4 = 100%, not capped.
    complete = [game(1, "opp", "witness"), *fillers("opp", "WWW", 2), *fillers("witness", "BBB", 2)]
    assert witness_owp(complete, dropped={"opp": 4}) == pytest.approx(1.0)
    # The same opp leaving after round 3 of the 4: 3/3 = 100%, capped at 75%.
    early = [game(1, "opp", "witness"), *fillers("opp", "WW", 2), *fillers("witness", "BBB", 2)]
    assert witness_owp(early, dropped={"opp": 3}) == pytest.approx(0.75)


def test_pokemon_a_late_entry_ranks_below_everyone_on_the_same_points() -> None:
    # T-51 (tardiness before OWP). Three rounds. ann enters in round 2 (round 1
    # a loss) and beats g2 and g3; bob beats f1, loses to f2, beats f3. Both on 6.
    # g2: beat h1, lost to ann, beat h3: 2/3. g3: beat h2, beat h4, lost to ann: 2/3.
    # ann's OWP (2/3 + 2/3)/2 = 2/3. bob's: f1 0/1 -> 1/4, f2 1/1 = 1, f3 -> 1/4: 1/2.
    # On OWP ann would lead; as a late entry she ranks below bob.
    matches = [
        game(1, "g2", "h1"), game(1, "g3", "h2"), game(1, "bob", "f1"),
        game(2, "ann", "g2"), game(2, "g3", "h4"), game(2, "f2", "bob"),
        game(3, "ann", "g3"), game(3, "g2", "h3"), game(3, "bob", "f3"),
    ]
    rows = standings(["ann", "bob"], matches, "pokemon", joined={"ann": 2})
    assert [(r.player, r.points) for r in rows] == [("bob", 6), ("ann", 6)]
    assert as_fractions(by_player(rows), "owp", ["ann", "bob"]) == [F(2, 3), F(1, 2)]


def test_pokemon_head_to_head_breaks_a_tie_between_two_players() -> None:
    # T-52. zed beat amy in round 1; each then has one more result, and every
    # record around them is one win and one loss, so all win percentages are 1/2:
    # R2 x beats zed, amy beats y; R3 h1 beats x, y beats h2; R4 k1 beats h1, h2 beats k2.
    # zed and amy: 3 points, OWP (1/2 + 1/2)/2 = 1/2, OOWP 1/2 (x's and y's OWP are
    # 1/2 as well). By id amy would come first; zed won their match.
    matches = [
        game(1, "zed", "amy"),
        game(2, "x", "zed"), game(2, "amy", "y"),
        game(3, "h1", "x"), game(3, "y", "h2"),
        game(4, "k1", "h1"), game(4, "h2", "k2"),
    ]
    rows = standings(["amy", "zed"], matches, "pokemon")
    assert [r.player for r in rows] == ["zed", "amy"]
    assert as_fractions(by_player(rows), "owp", ["amy", "zed"]) == [F(1, 2), F(1, 2)]
    assert as_fractions(by_player(rows), "oowp", ["amy", "zed"]) == [F(1, 2), F(1, 2)]


# A five-player, three-round pokemon event with ties and byes (3/1/0 match points):
# R1: a beats b, c ties d, e bye.  R2: a beats c, e beats b, d bye.  R3: a ties e, b beats d, c bye.
POKEMON_EVENT = [
    game(1, "a", "b"), drawn(1, "c", "d"), bye(1, "e"),
    game(2, "a", "c"), game(2, "e", "b"), bye(2, "d"),
    drawn(3, "a", "e"), game(3, "b", "d"), bye(3, "c"),
]


def test_pokemon_owp_and_oowp_on_a_small_event() -> None:
    # Win percentages (byes out, a tie is half): a 2-0-1: 2.5/3 = 5/6;
    # b 1-2-0: 1/3; c (tie, loss) 0.5/2 = 1/4; d (tie, loss) 0.5/2 = 1/4;
    # e (win, tie) 1.5/2 = 3/4.
    # OWP: a (b, c, e) = (1/3 + 1/4 + 3/4)/3 = (4 + 3 + 9)/12/3 = 16/36 = 4/9
    #      b (a, e, d) = (5/6 + 3/4 + 1/4)/3 = (10 + 9 + 3)/12/3 = 22/36 = 11/18
    #      c (d, a)    = (1/4 + 5/6)/2 = (3 + 10)/12/2 = 13/24
    #      d (c, b)    = (1/4 + 1/3)/2 = (3 + 4)/12/2 = 7/24
    #      e (b, a)    = (1/3 + 5/6)/2 = (4 + 10)/12/2 = 14/24 = 7/12
    # OOWP: a (b, c, e) = (44 + 39 + 42)/72/3 = 125/216
    #       b (a, e, d) = (32 + 42 + 21)/72/3 = 95/216
    #       c (d, a)    = (21 + 32)/72/2 = 53/144
    #       d (c, b)    = (39 + 44)/72/2 = 83/144
    #       e (b, a)    = (11/18 + 8/18)/2 = 19/36
    rows = by_player(standings("abcde", POKEMON_EVENT, "pokemon"))
    assert as_fractions(rows, "owp", "abcde") == [F(4, 9), F(11, 18), F(13, 24), F(7, 24), F(7, 12)]
    assert as_fractions(rows, "oowp", "abcde") == [F(125, 216), F(95, 216), F(53, 144), F(83, 144), F(19, 36)]
    # Points: a 3+3+1 = 7, b 3, c 1+3 = 4, d 1+3 = 4, e 3+3+1 = 7. Ties on
    # points go to OWP: e (7/12) before a (4/9), c (13/24) before d (7/24).
    assert [rows[p].points for p in "abcde"] == [7, 3, 4, 4, 7]
    assert [r.player for r in standings("abcde", POKEMON_EVENT, "pokemon")] == ["e", "a", "c", "d", "b"]


# -- chess: FIDE C.07. Points 1 / 1/2 / 0; a bye is a full point (16.2.1) --


def chess(players: str, matches: list[Match], **kwargs: dict[str, int]) -> dict[str, Standing]:
    return by_player(standings(list(players), matches, "chess", **kwargs))  # type: ignore[arg-type]


def chess_figures(rows: dict[str, Standing], players: str) -> list[tuple[F, F, F, F]]:
    points = [F(rows[p].points).limit_denominator(1000) for p in players]
    columns = [as_fractions(rows, name, players) for name in ("buchholz", "buchholz_cut1", "sonneborn_berger")]
    return list(zip(points, *columns, strict=True))


def test_chess_every_game_played() -> None:
    # C.07 8.1, 9.1, 14.1. R1: a beats b, c draws d. R2: a draws c, b beats d.
    # R3: a beats d, b draws c.
    # Points: a 1 + 1/2 + 1 = 2.5; b 0 + 1 + 1/2 = 1.5; c 1/2 * 3 = 1.5; d 1/2 + 0 + 0 = 0.5.
    # Buchholz: a b 1.5 + c 1.5 + d 0.5 = 3.5; b a 2.5 + d 0.5 + c 1.5 = 4.5;
    #           c d 0.5 + a 2.5 + b 1.5 = 4.5; d c 1.5 + b 1.5 + a 2.5 = 5.5.
    # Cut-1, the lowest opponent out: a 3.5 - 0.5 = 3; b 4.5 - 0.5 = 4; c 4.5 - 0.5 = 4; d 5.5 - 1.5 = 4.
    # SB: a 1*1.5 + 1/2*1.5 + 1*0.5 = 2.75; b 1*0.5 + 1/2*1.5 = 1.25;
    #     c 1/2*0.5 + 1/2*2.5 + 1/2*1.5 = 2.25; d 1/2*1.5 = 0.75.
    matches = [game(1, "a", "b"), drawn(1, "c", "d"), drawn(2, "a", "c"), game(2, "b", "d"),
               game(3, "a", "d"), drawn(3, "b", "c")]
    assert chess_figures(chess("abcd", matches), "abcd") == [
        (F(5, 2), F(7, 2), F(3), F(11, 4)),
        (F(3, 2), F(9, 2), F(4), F(5, 4)),
        (F(3, 2), F(9, 2), F(4), F(9, 4)),
        (F(1, 2), F(11, 2), F(4), F(3, 4)),
    ]


def test_chess_pairing_allocated_byes() -> None:
    # C.07 16.2.1, 16.3.1, 16.4.2. Three rounds, so the dummy's cap is 1/2 * 3 = 1.5.
    # R1: a-b 1-0, c-d 1-0, e bye. R2: a-c 1-0, e-b 1-0, d bye. R3: a-e draw, d-b 1-0, c bye.
    # Points: a 2.5; b 0; c 1 + 0 + 1 = 2; d 0 + 1 + 1 = 2; e 1 + 1 + 1/2 = 2.5.
    # A bye is a game against a dummy scoring the player's own points, at most
    # 1.5 (16.4.2): c min(2, 1.5) = 1.5, d 1.5, e min(2.5, 1.5) = 1.5.
    # Buchholz: a b 0 + c 2 + e 2.5 = 4.5; b a 2.5 + e 2.5 + d 2 = 7;
    #           c d 2 + a 2.5 + dummy 1.5 = 6; d c 2 + dummy 1.5 + b 0 = 3.5;
    #           e dummy 1.5 + b 0 + a 2.5 = 4.
    # Cut-1 (no voluntary unplayed rounds: the lowest value): a 4.5 - 0 = 4.5;
    #           b 7 - 2 = 5; c 6 - 1.5 = 4.5; d 3.5 - 0 = 3.5; e 4 - 0 = 4.
    # SB: a 1*0 + 1*2 + 1/2*2.5 = 3.25; b 0; c 1*2 + 0 + 1*1.5 = 3.5;
    #     d 0 + 1*1.5 + 1*0 = 1.5; e 1*1.5 + 1*0 + 1/2*2.5 = 2.75.
    matches = [game(1, "a", "b"), game(1, "c", "d"), bye(1, "e"),
               game(2, "a", "c"), game(2, "e", "b"), bye(2, "d"),
               drawn(3, "a", "e"), game(3, "d", "b"), bye(3, "c")]
    rows = chess("abcde", matches)
    assert chess_figures(rows, "abcde") == [
        (F(5, 2), F(9, 2), F(9, 2), F(13, 4)),
        (F(0), F(7), F(5), F(0)),
        (F(2), F(6), F(9, 2), F(7, 2)),
        (F(2), F(7, 2), F(7, 2), F(3, 2)),
        (F(5, 2), F(4), F(4), F(11, 4)),
    ]
    # a and e tie on 2.5: Buchholz 4.5 > 4. c and d on 2: 6 > 3.5.
    assert [r.player for r in standings(list("abcde"), matches, "chess")] == ["a", "e", "c", "d", "b"]


def test_chess_a_withdrawn_opponent() -> None:
    # C.07 16.1.1 (a round after a withdrawal is a zero-point bye), 16.2.5 and
    # 16.3.2 (such a bye, followed by nothing but unplayed rounds, counts as a
    # draw for the opponents), 16.4 and 16.5.
    # R1: a-b 1-0, c-d 1-0. R2: a-c 1-0, b-d 1-0; d withdraws. R3: b-c 1-0, a bye.
    # Points: a 3; b 2; c 1; d 0. d's adjusted score: 0 + 1/2 (round 3) = 0.5.
    # Buchholz (cap 1.5): a b 2 + c 1 + dummy min(3, 1.5) = 4.5; b a 3 + d 0.5 + c 1 = 4.5;
    #           c d 0.5 + a 3 + b 2 = 5.5; d c 1 + b 2 + dummy min(0, 1.5) = 3.
    # Cut-1: a 4.5 - 1 = 3.5; b 4.5 - 0.5 = 4; c 5.5 - 0.5 = 5; d (a VUR in
    #        round 3) cuts that round's 0: 3.
    # SB: a 1*2 + 1*1 + 1*1.5 = 4.5; b 0 + 1*0.5 + 1*1 = 1.5; c 1*0.5 = 0.5; d 0.
    matches = [game(1, "a", "b"), game(1, "c", "d"), game(2, "a", "c"), game(2, "b", "d"),
               game(3, "b", "c"), bye(3, "a")]
    rows = chess("abcd", matches, dropped={"d": 2})
    assert chess_figures(rows, "abcd") == [
        (F(3), F(9, 2), F(7, 2), F(9, 2)),
        (F(2), F(9, 2), F(4), F(3, 2)),
        (F(1), F(11, 2), F(5), F(1, 2)),
        (F(0), F(3), F(3), F(0)),
    ]


def test_chess_a_forfeit_when_a_player_drops_mid_round() -> None:
    # C.07 16.2.2 / 16.2.4 (forfeit win and loss), 16.4.1 (the dummy of a
    # forfeit is at most the scheduled opponent's adjusted score), 16.5.
    # R1: a-b 1-0, c-d 1-0. R2: a-c 1-0; d drops mid-round, conceding to b.
    # R3: b-c draw, a bye.
    # Points: a 3; b 0 + 1 + 1/2 = 1.5; c 1 + 0 + 1/2 = 1.5; d 0.
    # d's adjusted score: the forfeit loss counts as scored (0), round 3 (a
    # zero-point bye after the withdrawal, 16.2.5) as a draw: 0.5.
    # Buchholz: a b 1.5 + c 1.5 + dummy min(3, 1.5) = 4.5;
    #           b a 3 + forfeit dummy min(1.5, d's 0.5) = 0.5 + c 1.5 = 5;
    #           c d 0.5 + a 3 + b 1.5 = 5; d c 1.5 + 0 + 0 = 1.5.
    # Cut-1: a 4.5 - 1.5 = 3; b 5 - 0.5 = 4.5 (a forfeit win is not voluntary);
    #        c 5 - 0.5 = 4.5; d cuts a VUR's 0: 1.5.
    # SB: a 1.5 + 1.5 + 1.5 = 4.5; b 0 + 1*0.5 + 1/2*1.5 = 1.25; c 1*0.5 + 0 + 1/2*1.5 = 1.25; d 0.
    matches = [game(1, "a", "b"), game(1, "c", "d"), game(2, "a", "c"), conceded(2, "b", "d"),
               drawn(3, "b", "c"), bye(3, "a")]
    rows = chess("abcd", matches, dropped={"d": 2})
    assert chess_figures(rows, "abcd") == [
        (F(3), F(9, 2), F(3), F(9, 2)),
        (F(3, 2), F(5), F(9, 2), F(5, 4)),
        (F(3, 2), F(5), F(9, 2), F(5, 4)),
        (F(0), F(3, 2), F(3, 2), F(0)),
    ]


def test_chess_a_late_entry_and_the_cut_1_exception() -> None:
    # C.07 16.2.3 (a zero-point bye followed by a played round counts as a
    # loss for the opponents), 16.4.2 and 16.5.1 (cut the lowest value from a
    # voluntary unplayed round, even when another value is lower).
    # e enters in round 2. R1: a-b 1-0, d-c 1-0. R2: e-a 1-0, b-c 1-0, d bye.
    # R3: e-c 1-0, a-d 1-0, b bye.
    # Points: a 2; b 2; c 0; d 2; e 0 + 1 + 1 = 2.
    # Buchholz (cap 1.5): a b 2 + e 2 + d 2 = 6; b a 2 + c 0 + dummy 1.5 = 3.5;
    #           c d 2 + b 2 + e 2 = 6; d c 0 + dummy 1.5 + a 2 = 3.5;
    #           e dummy min(2, 1.5) + a 2 + c 0 = 3.5.
    # Cut-1: a 6 - 2 = 4; b 3.5 - 0 = 3.5; c 6 - 2 = 4; d 3.5 - 0 = 3.5;
    #        e cuts its round-1 value 1.5, not c's 0: 3.5 - 1.5 = 2.
    # SB: a 1*2 + 0 + 1*2 = 4; b 0 + 1*0 + 1*1.5 = 1.5; c 0; d 0 + 1.5 + 0 = 1.5;
    #     e 0*1.5 + 1*2 + 1*0 = 2.
    matches = [game(1, "a", "b"), game(1, "d", "c"), game(2, "e", "a"), game(2, "b", "c"), bye(2, "d"),
               game(3, "e", "c"), game(3, "a", "d"), bye(3, "b")]
    rows = chess("abcde", matches, joined={"e": 2})
    assert chess_figures(rows, "abcde") == [
        (F(2), F(6), F(4), F(4)),
        (F(2), F(7, 2), F(7, 2), F(3, 2)),
        (F(0), F(6), F(4), F(0)),
        (F(2), F(7, 2), F(7, 2), F(3, 2)),
        (F(2), F(7, 2), F(2), F(2)),
    ]
    # a first on Buchholz; b, d and e tie on it, e drops out on cut-1; b and d tie on everything: by id.
    assert [r.player for r in standings(list("abcde"), matches, "chess", joined={"e": 2})] == ["a", "b", "d", "e", "c"]


# The crosstable of the FIDE exercise (FIDE Arbiters' Commission, "Exercises in
# Tie-Breaking", IA Mario Held, arbiters.fide.com news 9119, also on tec.fide.com
# 2024-03-18; it follows C.07 as approved on 1 August 2023). Each row is a
# player's rounds 1-5: "+W9" beat 9 with White, "=B13" drew 13 with Black,
# "-F11" lost to 11 by forfeit, "+BYE" a pairing-allocated bye, "=BYE" a
# half-point bye, "--" absent (a zero-point bye, 16.2.5).
FIDE_EXERCISE = {
    "1": "+W9 =B13 =W2 +B15 =W4", "2": "+B10 +W7 =B1 +W16 =B3", "3": "=W11 +B6 +W8 =B4 =W2",
    "4": "+B12 =BYE +W13 =W3 =B1", "5": "-W13 -B15 +W11 =B7 +W10", "6": "-B14 -W3 +BYE +W10 +B8",
    "7": "+W15 -B2 -B16 =W5 -B11", "8": "=B16 +W14 -B3 +W13 -W6", "9": "-B1 -W10 =BYE -F11 +BYE",
    "10": "-W2 +B9 -W15 -B6 -B5", "11": "=B3 -W16 -B5 +F9 +W7", "12": "-W4 +BYE +F14 -- --",
    "13": "+B5 =W1 -B4 -B8 -W14", "14": "+W6 -B8 -F12 -- +B13", "15": "-B7 +W5 +B10 -W1 -B16",
    "16": "=W8 +B11 +W7 -B2 +W15",
}


def crosstable_matches(rows: dict[str, str]) -> list[Match]:
    """The crosstable as matches, each game once. The project has no half-point
    bye, so "=BYE" is a draw against an unranked stand-in: the player's points
    stay right (and so every other player's figures), only their own figures differ."""
    matches, seen = [], set()
    for player, row in rows.items():
        for r, cell in enumerate(row.split(), start=1):
            if cell == "--" or (r, frozenset((player, cell[2:]))) in seen:
                continue
            if cell[1:] == "BYE":
                matches.append(bye(r, player) if cell[0] == "+" else drawn(r, player, f"{player}-half-bye"))
                continue
            other = cell[2:]
            seen.add((r, frozenset((player, other))))
            winner, loser = (player, other) if cell[0] == "+" else (other, player)
            if cell[1] == "F":
                matches.append(conceded(r, winner, loser))
            else:
                matches.append(drawn(r, player, other) if cell[0] == "=" else game(r, winner, loser))
    return matches


def test_chess_the_fide_tie_break_exercise() -> None:
    # Points (1, 1/2, 0; a pairing-allocated bye 1): 1 3.5, 2 4, 3 3.5, 4 3.5,
    # 5 2.5, 6 3, 7 1.5, 8 2.5, 9 1.5, 10 1, 11 2.5, 12 2, 13 1.5, 14 2, 15 2, 16 3.5.
    # Opponents' adjusted scores (16.3): only 12 ends on zero-point byes (rounds 4-5,
    # after the forfeit win of round 3), each counted as a draw: 2 + 1/2 + 1/2 = 3.
    # Own unplayed rounds (16.4, the 2026 edition): a bye or absence against a dummy
    # scoring min(own points, 1/2 * 5 = 2.5); a forfeit min(own points, the
    # scheduled opponent's adjusted score).
    #  1: 9 1.5 + 13 1.5 + 2 4 + 15 2 + 4 3.5 = 12.5 (exercise: 12.5); cut 1.5 -> 11
    #     SB 1.5 + 0.75 + 2 + 2 + 1.75 = 8
    #  2: 10 1 + 7 1.5 + 1 3.5 + 16 3.5 + 3 3.5 = 13 (exercise: 13); cut 1 -> 12
    #     SB 1 + 1.5 + 1.75 + 3.5 + 1.75 = 9.5
    #  3: 11 2.5 + 6 3 + 8 2.5 + 4 3.5 + 2 4 = 15.5 (exercise: 15.5); cut 2.5 -> 13
    #     SB 1.25 + 3 + 2.5 + 1.75 + 2 = 10.5
    #  5: 13 1.5 + 15 2 + 11 2.5 + 7 1.5 + 10 1 = 8.5 (exercise: 8.5); cut 1 -> 7.5 (exercise: 7.5)
    #     SB 0 + 0 + 2.5 + 0.75 + 1 = 4.25
    #  6: 14 2 + 3 3.5 + bye min(3, 2.5) = 2.5 + 10 1 + 8 2.5 = 11.5; cut 1 -> 10.5
    #     SB 0 + 0 + 2.5 + 1 + 2.5 = 6
    #  7: 15 2 + 2 4 + 16 3.5 + 5 2.5 + 11 2.5 = 14.5; cut 2 -> 12.5; SB 2 + 1.25 = 3.25
    #  8: 16 3.5 + 14 2 + 3 3.5 + 13 1.5 + 6 3 = 13.5 (exercise: 13.5); cut 1.5 -> 12 (exercise: 12)
    #     SB 1.75 + 2 + 1.5 = 5.25
    # 10: 2 4 + 9 1.5 + 15 2 + 6 3 + 5 2.5 = 13; cut 1.5 -> 11.5; SB 1.5
    # 11: 3 3.5 + 16 3.5 + 5 2.5 + forfeit win min(2.5, 9's 1.5) = 1.5 + 7 1.5 = 12.5;
    #     cut 1.5 -> 11; SB 1.75 + 1.5 + 1.5 = 4.75. The exercise gives 13.5 and 12,
    #     counting the forfeit at 11's own 2.5 as the 2023 text did; the 2026 edition
    #     caps it at the opponent's score (16.4.1).
    # 12: 4 3.5 + bye min(2, 2.5) = 2 + forfeit win min(2, 14's 2) = 2 + absent 2 + absent 2
    #     = 11.5; with voluntary unplayed rounds (4, 5) the cut takes one of them: 9.5;
    #     SB 0 + 2 + 2 + 0 + 0 = 4
    # 13: 5 2.5 + 1 3.5 + 4 3.5 + 8 2.5 + 14 2 = 14; cut 2 -> 12; SB 2.5 + 1.75 = 4.25
    # 14: 6 3 + 8 2.5 + forfeit loss min(2, 12's 3) = 2 + absent min(2, 2.5) = 2 + 13 1.5
    #     = 11; the cut takes a voluntary unplayed round's 2, not 13's 1.5 (16.5): 9;
    #     SB 3 + 1.5 = 4.5
    # 15: 7 1.5 + 5 2.5 + 10 1 + 1 3.5 + 16 3.5 = 12; cut 1 -> 11; SB 2.5 + 1 = 3.5
    # 16: 8 2.5 + 11 2.5 + 7 1.5 + 2 4 + 15 2 = 12.5 (exercise: 12.5); cut 1.5 -> 11
    #     SB 1.25 + 2.5 + 1.5 + 2 = 7.25
    # 4 and 9 had half-point byes (see crosstable_matches): their own figures are left out.
    rows = chess(list(FIDE_EXERCISE), crosstable_matches(FIDE_EXERCISE), rounds=5)  # type: ignore[arg-type]
    checked = [p for p in FIDE_EXERCISE if p not in ("4", "9")]
    assert dict(zip(checked, chess_figures(rows, checked), strict=True)) == {
        "1": (F(7, 2), F(25, 2), F(11), F(8)),
        "2": (F(4), F(13), F(12), F(19, 2)),
        "3": (F(7, 2), F(31, 2), F(13), F(21, 2)),
        "5": (F(5, 2), F(17, 2), F(15, 2), F(17, 4)),
        "6": (F(3), F(23, 2), F(21, 2), F(6)),
        "7": (F(3, 2), F(29, 2), F(25, 2), F(13, 4)),
        "8": (F(5, 2), F(27, 2), F(12), F(21, 4)),
        "10": (F(1), F(13), F(23, 2), F(3, 2)),
        "11": (F(5, 2), F(25, 2), F(11), F(19, 4)),
        "12": (F(2), F(23, 2), F(19, 2), F(4)),
        "13": (F(3, 2), F(14), F(12), F(17, 4)),
        "14": (F(2), F(11), F(9), F(9, 2)),
        "15": (F(2), F(12), F(11), F(7, 2)),
        "16": (F(7, 2), F(25, 2), F(11), F(29, 4)),
    }
    assert (rows["4"].points, rows["9"].points) == (3.5, 1.5)


def test_chess_points_are_paired_in_half_point_steps() -> None:
    # 2.5 chess points are 5 half-points for the pairing; mtg points stay as they are.
    assert (pairing_points("chess", 2.5), pairing_points("chess", 1), pairing_points("mtg", 7)) == (5, 2, 7)


# -- through the service, on both databases --


def test_chess_event_standings_count_half_points_and_a_drop_as_a_forfeit(db_url: str) -> None:
    # FIDE C.07 16.2.2 / 16.2.4 / 16.4.1 and 16.5 through `tournament`: four
    # players; round 1's winners x and z meet in round 2, where z drops
    # mid-round (x wins by forfeit) and y beats w.
    # Points: x 2, y 1, z 1, w 0. z's adjusted score is 1 (a forfeit loss counts as scored).
    # Buchholz: x y 1 + dummy min(2, z's 1) = 2; y x 2 + w 0 = 2; z w 0 + dummy
    #           min(1, x's 2) = 1 (x's 2 if the forfeit had been played); w z 1 + y 1 = 2.
    # Cut-1: x 2 - 1 = 1; y 2 - 0 = 2; z cuts the forfeit's 1: 0; w 2 - 1 = 1.
    # SB: x 1*1 + 1*1 = 2; y 0*2 + 1*0 = 0; z 1*0 + 0*1 = 0; w 0.
    cli(db_url, "create", "ch", "--ruleset", "cardwars", "--profile", "chess", "--seed", "5")
    cli(db_url, "register", "ch", "p1", "p2", "p3", "p4")
    cli(db_url, "pair", "ch")
    (x, y), (z, w) = (t["players"] for t in tables(db_url, "ch"))
    for table, (a, b) in enumerate(((x, y), (z, w)), start=1):
        cli(db_url, "report", "ch", "--table", str(table), "--result", f"{a}=1,{b}=0", "--reason", "slip")
    cli(db_url, "pair", "ch")
    paired = {tuple(sorted(t["players"])): t["table"] for t in tables(db_url, "ch")}
    assert set(paired) == {tuple(sorted((x, z))), tuple(sorted((y, w)))}
    cli(db_url, "report", "ch", "--table", str(paired[tuple(sorted((y, w)))]), "--result", f"{y}=1,{w}=0",
        "--reason", "slip")
    cli(db_url, "drop", "ch", z)
    rows = {r["player"]: r for r in cli_json(db_url, "standings", "ch")}
    figures = {p: (rows[p]["points"], *rows[p]["tiebreakers"].values()) for p in (x, y, z, w)}
    assert figures == {x: (2, 2, 1, 2), y: (1, 2, 2, 0), z: (1, 1, 0, 0), w: (0, 2, 1, 0)}
    cli(db_url, "verify", "ch")
