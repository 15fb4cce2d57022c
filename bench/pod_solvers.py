"""CP-SAT against HiGHS on the pods model: time to prove each round's fewest repeats, the same instances for both.

    python bench/pod_solvers.py [--limit 20] [--players 13 20 21 40 64]

Why tournament/formats/podsolver.py uses OR-Tools CP-SAT and not a MIP on HiGHS:
this bench builds the one model (tournament/formats/podsolver.py's docstring) for
both solvers, on the rounds of simulated events (the bench in bench/pods.py,
5 rounds, tables of 4), without the search's grouping as a hint, so each
solver proves the minimum from scratch. Two objectives: `repeats` alone (what
the proof needs) and `repeats+spread` (repeats first, then the points spread,
weighted so repeats always count more), one thread each, `--limit` seconds of
wall clock each. Columns: seconds, and the proven fewest repeats ("?" when the
limit came first). HiGHS needs `pip install highspy` (in the `bench` extra).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournament.formats import podsolver
from tournament.formats.pods import PodEntrant, pair_pods, table_sizes, tally_seats


def rounds(players: int, size: int, count: int, seed: int) -> list[tuple[list[int], list[tuple[int, int]], list[int]]]:
    """Each round's points (Swiss order), pairs who have met, table sizes; winners at random."""
    rng = random.Random(seed)
    ids = [f"p{i:03d}" for i in range(players)]
    points = dict.fromkeys(ids, 0)
    met: dict[str, set[str]] = {p: set() for p in ids}
    seated: list[list[str]] = []
    out = []
    for number in range(1, count + 1):
        seats = tally_seats(seated, size)
        ranked = sorted(ids, key=lambda p: -points[p])
        index = {p: k for k, p in enumerate(ranked)}
        pairs = sorted({(index[p], index[q]) for p in ids for q in met[p] if index[p] < index[q]})
        out.append(([points[p] for p in ranked], pairs, table_sizes(players, size)[0]))
        entrants = [PodEntrant(p, points[p], index[p] + 1, False, frozenset(met[p]), seats.get(p, ())) for p in ids]
        paired = pair_pods(entrants, number, seed, size)
        seated += paired.tables
        for table in paired.tables:
            points[rng.choice(table)] += 3
            for p in table:
                met[p].update(q for q in table if q != p)
    return out


def cpsat(points: list[int], pairs: list[tuple[int, int]], sizes: list[int], spread: bool, limit: float) -> tuple[float, str]:
    from ortools.sat.python import cp_model

    model, x, y = podsolver.repeat_model(len(points), pairs, sizes)
    weight = len(sizes) * (max(points) - min(points)) + 1 if spread else 1
    model.minimize(weight * sum(y) + (podsolver.spread(model, x, points) if spread and weight > 1 else 0))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = limit
    started = time.perf_counter()
    status = solver.solve(model)
    elapsed = time.perf_counter() - started
    proven = status == cp_model.OPTIMAL
    return elapsed, str(round(solver.objective_value) // weight) if proven else "?"


def highs(points: list[int], pairs: list[tuple[int, int]], sizes: list[int], spread: bool, limit: float) -> tuple[float, str]:
    import highspy

    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("threads", 1)
    h.setOptionValue("time_limit", float(limit))
    n, count = len(points), len(sizes)
    x = [[h.addBinary() for _ in range(count)] for _ in range(n)]
    for p in range(n):
        h.addConstr(sum(x[p]) == 1)
    for t, size in enumerate(sizes):
        h.addConstr(sum(x[p][t] for p in range(n)) == size)
        if t and sizes[t - 1] == size:
            for p in range(n):
                h.addConstr(x[p][t] - sum(x[q][t - 1] for q in range(p)) <= 0)
    y = []
    for p, q in pairs:
        y.append(h.addBinary())
        for t in range(count):
            h.addConstr(x[p][t] + x[q][t] - y[-1] <= 1)
    low, high = min(points), max(points)
    weight = count * (high - low) + 1 if spread else 1
    objective: Any = weight * sum(y)
    if spread and high > low:
        for t in range(count):
            top, bottom = h.addVariable(lb=low, ub=high), h.addVariable(lb=low, ub=high)
            for p in range(n):  # top >= points[p] and bottom <= points[p] when p sits at t
                h.addConstr(top - (points[p] - low) * x[p][t] >= low)
                h.addConstr(bottom + (high - points[p]) * x[p][t] <= high)
            objective += top - bottom
    started = time.perf_counter()
    h.minimize(objective)
    elapsed = time.perf_counter() - started
    proven = h.getModelStatus() == highspy.HighsModelStatus.kOptimal
    return elapsed, str(round(h.getInfo().objective_function_value) // weight) if proven else "?"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=float, default=20.0, help="seconds per solve")
    parser.add_argument("--players", type=int, nargs="*", default=[13, 20, 21, 40, 64])
    parser.add_argument("--seed", type=int, default=2)
    args = parser.parse_args()
    print(f"{'players':>7} {'round':>5} | {'repeats: cp-sat':>16} {'highs':>12} | {'repeats+spread: cp-sat':>23} {'highs':>12}")
    totals = {"cpsat": 0.0, "highs": 0.0}
    for players in args.players:
        for number, (points, pairs, sizes) in enumerate(rounds(players, 4, 5, args.seed), start=1):
            cells = []
            for spread in (False, True):
                for name, solve in (("cpsat", cpsat), ("highs", highs)):
                    elapsed, fewest = solve(points, pairs, sizes, spread, args.limit)
                    totals[name] += elapsed
                    cells.append(f"{elapsed:7.2f}s {fewest:>3}")
            print(f"{players:>7} {number:>5} | {cells[0]:>16} {cells[1]:>12} | {cells[2]:>23} {cells[3]:>12}", flush=True)
    print(f"total seconds: cp-sat {totals['cpsat']:.1f}, highs {totals['highs']:.1f}")


if __name__ == "__main__":
    main()
