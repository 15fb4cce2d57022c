"""Time Swiss pairing on realistic histories, beside networkx's blossom on the complete graph.

    python bench/pairing.py [--quick]

For each field size, earlier rounds are simulated (paired by `pair_swiss`,
each match won by either player at random, or drawn 5% of the time) and then
a middle round and the last round of a usual Swiss event (ceil(log2 n)
rounds) are paired and timed. Up to 512 players the same round is also
solved by networkx's `max_weight_matching(maxcardinality=True)` on the
complete graph with weights BIG - cost, and both costs are printed: they
must be equal.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

import networkx as nx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournament.formats.pairing import Costs, Entrant, pair_swiss

SIZES = (64, 128, 256, 512, 1000, 10_000)
QUICK_SIZES = (64, 128, 256, 1000)
NETWORKX_UP_TO = 512
DRAW_CHANCE = 0.05


def simulate(players: int, rounds: int, seed: int) -> list[Entrant]:
    """The entrants after `rounds` simulated rounds, ranked by points (ties: by id)."""
    rng = random.Random(seed)
    ids = [f"p{i:05d}" for i in range(players)]
    points = dict.fromkeys(ids, 0)
    had_bye = dict.fromkeys(ids, False)
    met: dict[str, set[str]] = {i: set() for i in ids}
    for round_number in range(1, rounds + 1):
        pairing = pair_swiss(_entrants(ids, points, had_bye, met), round_number, seed)
        for a, b in pairing.tables:
            met[a].add(b)
            met[b].add(a)
            if rng.random() < DRAW_CHANCE:
                points[a] += 1
                points[b] += 1
            else:
                points[rng.choice((a, b))] += 3
        if pairing.bye:
            points[pairing.bye] += 3
            had_bye[pairing.bye] = True
    return _entrants(ids, points, had_bye, met)


def _entrants(
    ids: list[str], points: dict[str, int], had_bye: dict[str, bool], met: dict[str, set[str]]
) -> list[Entrant]:
    ranked = sorted(ids, key=lambda i: (-points[i], i))
    return [
        Entrant(id=i, points=points[i], rank=r, had_bye=had_bye[i], opponents=frozenset(met[i]))
        for r, i in enumerate(ranked, start=1)
    ]


def networkx_cost(entrants: list[Entrant], round_number: int, seed: int) -> int:
    """The minimum cost found by networkx's blossom algorithm on the complete graph."""
    costs = Costs.for_round(entrants, round_number, seed)
    ids = [e.id for e in entrants]
    bye = "(bye)"
    nodes = ids + ([bye] if len(ids) % 2 else [])
    weights = {
        (a, b): costs.bye(a) if b == bye else costs.table(a, b)
        for k, a in enumerate(nodes)
        for b in nodes[k + 1 :]
    }
    big = max(weights.values()) + 1
    graph = nx.Graph()
    graph.add_weighted_edges_from((a, b, big - w) for (a, b), w in weights.items())
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    return sum(weights[(a, b) if (a, b) in weights else (b, a)] for a, b in matching)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer and smaller fields")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    sizes = QUICK_SIZES if args.quick else SIZES
    print(f"{'players':>8} {'round':>5} {'ours s':>8} {'ours cost':>14} {'nx s':>8} {'nx cost':>14}")
    for players in sizes:
        last = math.ceil(math.log2(players))
        for round_number in (last // 2 + 1, last):
            entrants = simulate(players, round_number - 1, args.seed)
            started = time.perf_counter()
            ours = pair_swiss(entrants, round_number, args.seed)
            ours_seconds = time.perf_counter() - started
            nx_seconds, nx_cost = "-", "-"
            if players <= NETWORKX_UP_TO:
                started = time.perf_counter()
                nx_cost = str(networkx_cost(entrants, round_number, args.seed))
                nx_seconds = f"{time.perf_counter() - started:.3f}"
            print(
                f"{players:>8} {round_number:>5} {ours_seconds:>8.3f} {ours.cost:>14} "
                f"{nx_seconds:>8} {nx_cost:>14}",
                flush=True,
            )


if __name__ == "__main__":
    main()
