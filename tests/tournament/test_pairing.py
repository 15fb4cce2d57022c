"""Swiss pairing: the rules it keeps, and that its matchings are of minimum cost.

Optimality is checked against networkx's blossom algorithm
(`max_weight_matching(maxcardinality=True)`) on the complete graph, with
weights BIG - cost and the bye as one more node, over many seeded random
histories: realistic simulated events, and awkward ones (forced rematches,
tiny score groups, odd fields where everyone already had a bye).
"""

from __future__ import annotations

import random

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournament.formats.pairing import Costs, Entrant, Pairing, blossom, pair_swiss, repair

SETTINGS = settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)


def entrant(id_: str, points: int = 0, rank: int = 1, had_bye: bool = False, met: str = "") -> Entrant:
    return Entrant(id=id_, points=points, rank=rank, had_bye=had_bye, opponents=frozenset(met.split()))


def field(*rows: tuple[str, int, str], byes: str = "") -> list[Entrant]:
    """Entrants from (id, points, opponents), ranked in the order given."""
    met: dict[str, set[str]] = {i: set(m.split()) for i, _, m in rows}
    for i, _, m in rows:
        for o in m.split():
            met.setdefault(o, set()).add(i)
    return [
        Entrant(id=i, points=p, rank=r, had_bye=i in byes.split(), opponents=frozenset(met[i]))
        for r, (i, p, _) in enumerate(rows, start=1)
    ]


def networkx_cost(entrants: list[Entrant], round_number: int, seed: int) -> int:
    costs = Costs.for_round(entrants, round_number, seed)
    ids = [e.id for e in entrants]
    nodes = ids + (["(bye)"] if len(ids) % 2 else [])
    weights = {
        (a, b): costs.bye(a) if b == "(bye)" else costs.table(a, b)
        for k, a in enumerate(nodes)
        for b in nodes[k + 1 :]
    }
    big = max(weights.values(), default=0) + 1
    graph = nx.Graph()
    graph.add_weighted_edges_from((a, b, big - w) for (a, b), w in weights.items())
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    return sum(weights[(a, b) if (a, b) in weights else (b, a)] for a, b in matching)


def check_valid(entrants: list[Entrant], pairing: Pairing, round_number: int, seed: int) -> None:
    seated = [p for table in pairing.tables for p in table]
    if pairing.bye is not None:
        seated.append(pairing.bye)
    assert sorted(seated) == sorted(e.id for e in entrants)
    assert (pairing.bye is not None) == (len(entrants) % 2 == 1)
    costs = Costs.for_round(entrants, round_number, seed)
    assert pairing.cost == costs.total(pairing.tables, pairing.bye)


def simulate(players: int, rounds: int, seed: int, draw_chance: float = 0.05) -> list[Entrant]:
    """The entrants after `rounds` rounds paired by pair_swiss with random results."""
    rng = random.Random(seed)
    ids = [f"p{i:03d}" for i in range(players)]
    points = dict.fromkeys(ids, 0)
    byes: set[str] = set()
    met: dict[str, set[str]] = {i: set() for i in ids}

    def entrants() -> list[Entrant]:
        ranked = sorted(ids, key=lambda i: (-points[i], i))
        return [
            Entrant(i, points[i], r, i in byes, frozenset(met[i]))
            for r, i in enumerate(ranked, start=1)
        ]

    for round_number in range(1, rounds + 1):
        result = pair_swiss(entrants(), round_number, seed)
        for a, b in result.tables:
            met[a].add(b)
            met[b].add(a)
            if rng.random() < draw_chance:
                points[a] += 1
                points[b] += 1
            else:
                points[rng.choice((a, b))] += 3
        if result.bye:
            points[result.bye] += 3
            byes.add(result.bye)
    return entrants()


# -- the rules --


def test_round_one_is_a_reproducible_random_permutation() -> None:
    players = [entrant(f"p{i}") for i in range(20)]
    first = pair_swiss(players, 1, seed=42)
    assert first == pair_swiss(list(reversed(players)), 1, seed=42)
    others = {tuple(pair_swiss(players, 1, seed=s).tables) for s in range(10)}
    assert len(others) == 10
    check_valid(players, first, 1, 42)
    assert first.cost == 0


def test_round_one_bye_is_random_not_by_rank() -> None:
    players = [entrant(f"p{i}", rank=i + 1) for i in range(9)]
    byes = {pair_swiss(players, 1, seed=s).bye for s in range(30)}
    assert len(byes) > 3


def test_who_meets_whom_in_a_score_group_follows_the_seed() -> None:
    players = [entrant(f"p{i}", points=3, rank=i + 1) for i in range(8)]
    assert pair_swiss(players, 2, seed=5) == pair_swiss(players, 2, seed=5)
    assert len({tuple(pair_swiss(players, 2, seed=s).tables) for s in range(10)}) > 5


def test_pairs_within_score_groups() -> None:
    players = field(("a", 6, ""), ("b", 6, ""), ("c", 3, ""), ("d", 3, ""), ("e", 0, ""), ("f", 0, ""))
    result = pair_swiss(players, 3, seed=1)
    assert result.tables == [("a", "b"), ("c", "d"), ("e", "f")]
    assert result.cost == 0


def test_avoids_a_rematch_by_pairing_down() -> None:
    # a and b already met: each floats to the 3-point group instead.
    players = field(("a", 6, "b"), ("b", 6, ""), ("c", 3, ""), ("d", 3, ""))
    result = pair_swiss(players, 3, seed=1)
    assert {frozenset(t) for t in result.tables} in (
        {frozenset("ac"), frozenset("bd")},
        {frozenset("ad"), frozenset("bc")},
    )
    costs = Costs.for_round(players, 3, 1)
    assert result.cost == 2 * costs.scale * 9


def test_rematch_only_when_unavoidable() -> None:
    # Everyone has met everyone: a rematch cannot be avoided, but it is still paired.
    players = field(("a", 3, "b c d"), ("b", 3, "c d"), ("c", 0, "d"), ("d", 0, ""))
    result = pair_swiss(players, 4, seed=1)
    costs = Costs.for_round(players, 4, 1)
    assert result.cost == 2 * costs.rematch
    assert result.tables == [("a", "b"), ("c", "d")]


def test_floating_one_player_two_groups_costs_more_than_two_players_one_group() -> None:
    players = field(("a", 6, ""), ("b", 3, ""), ("c", 3, ""), ("d", 0, ""))
    costs = Costs.for_round(players, 3, 1)
    assert costs.table("a", "d") > costs.table("a", "b") + costs.table("c", "d")
    # So a meets a 3-point player and the other 3-point player meets d.
    result = pair_swiss(players, 3, seed=1)
    assert {frozenset(t) for t in result.tables} in (
        {frozenset("ab"), frozenset("cd")},
        {frozenset("ac"), frozenset("bd")},
    )


def test_a_rematch_costs_more_than_any_pairing_down() -> None:
    players = field(("a", 9, "b"), ("b", 9, ""), ("c", 0, ""), ("d", 0, ""))
    costs = Costs.for_round(players, 4, 1)
    assert costs.table("a", "b") > costs.table("a", "c") + costs.table("b", "d")
    result = pair_swiss(players, 4, seed=1)
    assert frozenset("ab") not in {frozenset(t) for t in result.tables}


def test_bye_goes_to_the_lowest_ranked_player_without_one() -> None:
    # e is ranked last but had a bye; d is the lowest-ranked without one.
    players = field(("a", 3, ""), ("b", 3, ""), ("c", 0, ""), ("d", 0, ""), ("e", 0, ""), byes="e")
    result = pair_swiss(players, 2, seed=3)
    assert result.bye == "d"
    check_valid(players, result, 2, 3)


def test_bye_prefers_the_lowest_score_group() -> None:
    # Ranks follow points; the bye goes to the 0-point group, to its lowest rank.
    players = field(("a", 3, ""), ("b", 3, ""), ("c", 3, ""), ("d", 0, ""), ("e", 0, ""))
    assert pair_swiss(players, 2, seed=3).bye == "e"


def test_no_second_bye_while_anyone_else_can_take_it() -> None:
    # Only a has no bye yet; giving it to a forces a rematch (b-c) and floats,
    # and that is still preferred to a second bye.
    players = field(("a", 9, ""), ("b", 0, "c"), ("c", 0, ""), byes="b c")
    result = pair_swiss(players, 4, seed=3)
    assert result.bye == "a"
    assert result.tables == [("b", "c")]


def test_when_everyone_had_a_bye_the_lowest_ranked_gets_another() -> None:
    players = field(("a", 3, ""), ("b", 3, ""), ("c", 3, ""), byes="a b c")
    assert pair_swiss(players, 4, seed=3).bye == "c"


def test_tables_are_ordered_best_first() -> None:
    players = field(("e", 0, ""), ("f", 0, ""), ("a", 6, ""), ("b", 6, ""), ("c", 3, ""), ("d", 3, ""))
    result = pair_swiss(players, 3, seed=9)
    assert [t[0] for t in result.tables] == ["a", "c", "e"]


def test_empty_and_single_fields() -> None:
    assert pair_swiss([], 1, seed=0) == Pairing(tables=[], bye=None, cost=0)
    assert pair_swiss([entrant("solo")], 1, seed=0).bye == "solo"


def test_duplicate_ids_are_refused() -> None:
    with pytest.raises(ValueError, match="unique"):
        pair_swiss([entrant("a"), entrant("a")], 1, seed=0)


# -- optimality against networkx --


@SETTINGS
@given(
    players=st.integers(min_value=2, max_value=64),
    rounds=st.integers(min_value=1, max_value=8),
    seed=st.integers(min_value=0, max_value=10_000),
    draw_chance=st.sampled_from([0.0, 0.05, 0.3]),
)
def test_optimal_on_simulated_events(players: int, rounds: int, seed: int, draw_chance: float) -> None:
    entrants = simulate(players, rounds - 1, seed, draw_chance)
    result = pair_swiss(entrants, rounds, seed)
    check_valid(entrants, result, rounds, seed)
    assert result.cost == networkx_cost(entrants, rounds, seed)


@st.composite
def awkward_fields(draw: st.DrawFn) -> list[Entrant]:
    """Arbitrary histories: few or many score groups, dense or sparse meetings, byes."""
    n = draw(st.integers(min_value=1, max_value=40))
    ids = [f"q{i:02d}" for i in range(n)]
    scores = draw(st.sampled_from([[0], [0, 3], [0, 1, 3, 4, 6], [0, 3, 6, 9, 12]]))
    points = {i: draw(st.sampled_from(scores)) for i in ids}
    density = draw(st.sampled_from([0.0, 0.1, 0.5, 0.9, 1.0]))
    bye_chance = draw(st.sampled_from([0.0, 0.3, 1.0]))
    rng = random.Random(draw(st.integers(0, 2**32)))
    met: dict[str, set[str]] = {i: set() for i in ids}
    for k, a in enumerate(ids):
        for b in ids[k + 1 :]:
            if rng.random() < density:
                met[a].add(b)
                met[b].add(a)
    ranked = sorted(ids, key=lambda i: (-points[i], rng.random()))
    return [
        Entrant(i, points[i], r, rng.random() < bye_chance, frozenset(met[i]))
        for r, i in enumerate(ranked, start=1)
    ]


@SETTINGS
@given(entrants=awkward_fields(), round_number=st.integers(2, 9), seed=st.integers(0, 99))
def test_optimal_on_awkward_fields(entrants: list[Entrant], round_number: int, seed: int) -> None:
    result = pair_swiss(entrants, round_number, seed)
    check_valid(entrants, result, round_number, seed)
    assert result.cost == networkx_cost(entrants, round_number, seed)


def test_a_realistic_round_needs_no_exact_fallback(monkeypatch: pytest.MonkeyPatch) -> None:
    # The repaired matching meets the lower bound, which proves it optimal:
    # the exact fallback is never called.
    entrants = simulate(300, 6, seed=5, draw_chance=0.05)

    def no_fallback(*args: object) -> None:
        raise AssertionError("the exact fallback was used")

    monkeypatch.setattr(blossom, "exact", no_fallback)
    result = pair_swiss(entrants, 7, seed=5)
    check_valid(entrants, result, 7, 5)


def test_regions_are_optimal_when_they_prove_it(monkeypatch: pytest.MonkeyPatch) -> None:
    # Force every round through the region method (no cheap repair, no exact
    # fallback): whenever it returns, its matching must be optimal.
    histories = [
        simulate(players, rounds, seed, draw_chance)
        for players, rounds, seed, draw_chance in [
            (64, 5, 2, 0.05),
            (90, 6, 3, 0.05),
            (120, 6, 4, 0.1),
            (150, 7, 5, 0.05),
        ]
    ]

    class Fallback(Exception):
        pass

    def no_exact(*args: object) -> None:
        raise Fallback

    monkeypatch.setattr(repair, "repair_rematches", lambda *args: None)
    monkeypatch.setattr(blossom, "exact", no_exact)
    proved = 0
    for k, entrants in enumerate(histories):
        try:
            result = pair_swiss(entrants, 9, seed=k)
        except Fallback:
            continue
        proved += 1
        check_valid(entrants, result, 9, k)
        assert result.cost == networkx_cost(entrants, 9, k)
    assert proved >= len(histories) // 2
