"""Brackets and round robins as pure functions: seeding order, byes, drops, the circle method."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournament.formats.brackets import (
    DoubleBracket,
    bracket_size,
    double_elimination,
    double_elimination_nodes,
    knocked_out,
    round_robin,
    round_robin_rounds,
    seed_order,
    single_elimination,
    stage,
)


def names(n: int) -> list[str]:
    return [f"s{i}" for i in range(1, n + 1)]


def test_seed_order_is_the_standard_one() -> None:
    assert seed_order(2) == [1, 2]
    assert seed_order(4) == [1, 4, 2, 3]
    assert seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert seed_order(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]
    with pytest.raises(ValueError):
        seed_order(6)


@pytest.mark.parametrize("size", [2, 4, 8, 16, 32, 64])
def test_top_seeds_meet_only_late(size: int) -> None:
    """Seeds 1..2^k are in different quarters/halves: in each block of size/2^k places, one of them."""
    order = seed_order(size)
    block = size
    while block >= 2:
        best = size // block  # this many top seeds, one per block
        for start in range(0, size, block):
            assert sum(1 for s in order[start : start + block] if s <= best) == 1
        block //= 2
    # Each first-round pair adds up to size + 1.
    assert all(a + b == size + 1 for a, b in zip(order[::2], order[1::2], strict=True))


def test_byes_go_to_the_top_seeds() -> None:
    bracket = single_elimination(names(6), {})
    first = bracket.rounds[0]
    assert first.advanced == ["s1", "s2"]
    assert first.tables == [("s4", "s5"), ("s3", "s6")]
    assert bracket_size(6) == 8 and bracket_size(2) == 2 and bracket_size(9) == 16


def test_a_whole_bracket_to_the_champion() -> None:
    seeds = names(5)
    winners: dict[frozenset[str], str] = {}
    bracket = single_elimination(seeds, winners)
    assert bracket.rounds[-1].tables == [("s4", "s5")]
    winners[frozenset(("s4", "s5"))] = "s5"  # the lower seed wins
    bracket = single_elimination(seeds, winners)
    assert bracket.rounds[-1].tables == [("s1", "s5"), ("s2", "s3")]
    winners[frozenset(("s1", "s5"))] = "s1"
    winners[frozenset(("s2", "s3"))] = "s3"
    assert single_elimination(seeds, winners).rounds[-1].tables == [("s1", "s3")]
    winners[frozenset(("s1", "s3"))] = "s3"
    done = single_elimination(seeds, winners)
    assert done.finished and done.champion == "s3"
    assert done.reached() == {"s3": 4, "s1": 3, "s2": 2, "s5": 2, "s4": 1}


def test_a_drop_between_rounds_advances_the_next_opponent() -> None:
    seeds = names(4)
    winners = {frozenset(("s1", "s4")): "s1", frozenset(("s2", "s3")): "s2"}
    bracket = single_elimination(seeds, winners, absent_from={"s2": 2})
    final = bracket.rounds[1]
    assert final.tables == [] and final.advanced == ["s1"]
    assert bracket.champion == "s1"


def test_a_drop_before_the_bracket_gives_the_highest_remaining_seed_the_bye() -> None:
    bracket = single_elimination(names(8), {}, absent_from={"s3": 1})
    first = bracket.rounds[0]
    assert first.advanced == ["s1"]  # seven players: the top seed has the bye
    assert first.tables == [("s5", "s6"), ("s2", "s8"), ("s4", "s7")]  # s4..s8 move up one seed each


@given(st.integers(min_value=2, max_value=21))
def test_round_robin_meets_everyone_once(n: int) -> None:
    players = names(n)
    met: list[frozenset[str]] = []
    idle: list[str] = []
    for number in range(1, round_robin_rounds(n) + 1):
        tables, bye = round_robin(players, number)
        seated = [p for t in tables for p in t]
        assert len(seated) == len(set(seated)) == n - (bye is not None)
        met.extend(frozenset(t) for t in tables)
        if bye:
            idle.append(bye)
    assert sorted(met, key=sorted) == sorted((frozenset(p) for p in itertools.combinations(players, 2)), key=sorted)
    assert sorted(idle) == (sorted(players) if n % 2 else [])
    with pytest.raises(ValueError):
        round_robin(players, round_robin_rounds(n) + 1)


def test_round_robin_first_seat_alternates_and_drops_skip_tables() -> None:
    players = names(4)
    firsts = [round_robin(players, r)[0][0] for r in (1, 2, 3)]
    assert [t[0] == "s1" for t in firsts] == [True, False, True]
    tables, bye = round_robin(names(5), 1, absent=frozenset({"s1"}))
    assert all("s1" not in t for t in tables) and bye is None  # s1 was due the bye


def play_double(n: int, seed: int, pick: Callable[[str, str, str], str] | None = None) -> tuple[DoubleBracket, list[list[tuple[str, str, str]]]]:
    """A whole double elimination of n seeds, each match won at random (or by `pick(node, a, b)`)."""
    rng = random.Random(seed)
    seeds = names(n)
    played: list[list[tuple[str, str, str | None]]] = []
    while not (state := double_elimination(seeds, played)).finished:
        assert state.ready, "a round with nothing to play before the end"
        played.append([(a, b, pick(node, a, b) if pick else rng.choice((a, b))) for node, a, b in state.ready])
    return state, played  # type: ignore[return-value]


@pytest.mark.parametrize("n", range(2, 20))
def test_double_elimination_everyone_but_the_champion_loses_twice(n: int) -> None:
    for seed in range(8):
        state, played = play_double(n, seed)
        losses: dict[str, int] = {}
        for round_ in played:
            for a, b, winner in round_:
                loser = b if winner == a else a
                losses[loser] = losses.get(loser, 0) + 1
        assert state.champion is not None and losses.get(state.champion, 0) <= 1
        assert all(losses[p] == 2 for p in names(n) if p != state.champion)
        assert set(knocked_out(state)) == set(names(n)) - {state.champion}


def test_double_elimination_losers_drop_in_away_from_their_part_of_the_bracket() -> None:
    nodes = {n.id: n.inputs for n in double_elimination_nodes(8)}
    assert nodes["L1-1"] == (("lose", "W1-1"), ("lose", "W1-2"))
    assert nodes["L2-1"] == (("win", "L1-1"), ("lose", "W2-2"))  # reversed: W2-1's loser goes to the other half
    assert nodes["L2-2"] == (("win", "L1-2"), ("lose", "W2-1"))
    assert nodes["L4-1"] == (("win", "L3-1"), ("lose", "W3-1"))
    assert nodes["GF"] == (("win", "W3-1"), ("win", "L4-1"))
    # In the first two losers' rounds nobody's first losers' match is a rematch (later ones may be).
    for n in (8, 16, 32):
        for seed in range(20):
            state, played = play_double(n, seed)
            met: set[frozenset[str]] = set()
            met_in_losers: set[str] = set()  # players who have played a losers' match
            losses: dict[str, int] = {}
            for nodes, round_ in zip(state.rounds, played, strict=True):
                for node, (a, b, winner) in zip(nodes, round_, strict=True):
                    if node.startswith("L") and stage(node) <= 2:
                        first = [p for p in (a, b) if losses.get(p) == 1 and p not in met_in_losers]
                        assert not first or frozenset((a, b)) not in met, (n, seed, node, a, b)
                    met.add(frozenset((a, b)))
                    loser = b if winner == a else a
                    losses[loser] = losses.get(loser, 0) + 1
                    if node.startswith("L"):
                        met_in_losers.update((a, b))


def test_grand_final_reset_only_when_the_losers_side_wins() -> None:
    # s1 wins every winners' match; s2 comes through the losers' side.
    def favourite(node: str, a: str, b: str) -> str:
        return "s1" if "s1" in (a, b) and node != "GF" else "s2" if "s2" in (a, b) else min(a, b)

    state, _ = play_double(4, 0, favourite)
    finals = [node for r in state.rounds for node in r if node.startswith("GF")]
    assert finals == ["GF", "GF2"] and state.champion == "s1"  # s2 won GF, s1 the reset
    state, _ = play_double(4, 0, lambda node, a, b: "s1" if "s1" in (a, b) else min(a, b))
    assert [n for r in state.rounds for n in r if n.startswith("GF")] == ["GF"] and state.champion == "s1"
    assert not state.decided["GF2"].played
