"""The exact side of pods pairing: OR-Tools CP-SAT proves the fewest repeat meetings a round allows.

The model: `x[p, t]` is player p at table t; every player at one table, every
table at its size; `y[p, q]` is 1 when two players who have met share a table
(for each table, `not x[p, t] or not x[q, t] or y[p, q]`). Tables of one size
are interchangeable, so among them table t's first player (in the Swiss order)
comes before table t + 1's: each table's players need an earlier one at the
table before. Two solves, both from the search's grouping as a hint:

1. minimise the repeats; the solver's bound proves the minimum;
2. when it found fewer repeats than the search, keep that count and minimise
   the spread of points at the tables (the sum over tables of the highest
   minus the lowest points), so tables stay within score groups.

Seats then have a model of their own (`fewest_misfits`): players with the
same points change places among the tables (each table keeps its points,
the round no more repeats) for the least seat cost (pods.py, T-12).

Each solve is bounded by CP-SAT's deterministic work limit, with one worker
and a fixed seed: the same round always gives the same tables, whatever the
machine's load, so `verify` can pair it again and compare. At the limit the
best grouping found so far is kept (never worse than the search's) and the
round is reported as not proven.
"""

from __future__ import annotations

import importlib.util
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

EXACT_PLAYERS = 64  # fields up to this size get the proof; larger ones only the search
REPEAT_WORK = 2.0  # CP-SAT deterministic time to find and prove the fewest repeats (1 to 4 s of wall clock here)
SPREAD_WORK = 1.0  # and to group by score once the repeats are fixed
SEAT_WORK = 1.0  # and to balance the seats once the tables' points are fixed
SEED = 1
EXTRA = "headjudge[pods]"  # the install that brings OR-Tools (T-168: not in the default install)


def available() -> bool:
    """Whether OR-Tools is installed: without it a round has the search's grouping, proven only with no repeat."""
    return importlib.util.find_spec("ortools") is not None


@dataclass(frozen=True)
class Exact:
    tables: list[list[str]]  # table t has `sizes[t]` players
    repeats: int
    proven: bool  # the solver's bound shows no grouping has fewer repeats


def fewest_repeats(
    players: Sequence[str],
    met: Mapping[str, frozenset[str]],
    points: Mapping[str, int],
    sizes: Sequence[int],
    hint: Sequence[Sequence[str]],
) -> Exact:
    """The grouping with the fewest repeats (then the least score spread) that CP-SAT finds within its limits.

    `players` in Swiss order (best first); `hint` a grouping of them into
    tables of `sizes`, in order, which the answer never does worse than.
    """
    # Imported here, not at the top: it takes half a second, and only small fields need it.
    from ortools.sat.python import cp_model

    index = {p: k for k, p in enumerate(players)}
    pairs = sorted({(index[p], index[q]) for p in players for q in met[p] if q in index and index[p] < index[q]})
    model, x, y = repeat_model(len(players), pairs, sizes)
    n = len(players)
    ordered = _canonical([[index[p] for p in table] for table in hint], sizes)
    for t, table in enumerate(ordered):
        for p in range(n):
            model.add_hint(x[p][t], p in table)
    hinted = sum(1 for p, q in pairs if any(p in table and q in table for table in ordered))

    repeats = sum(y)
    model.minimize(repeats)
    solver = _solver(REPEAT_WORK)
    status = solver.solve(model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE) or solver.objective_value >= hinted:
        proven = status == cp_model.OPTIMAL or solver.best_objective_bound >= hinted
        return Exact([list(t) for t in hint], hinted, proven)
    found = round(solver.objective_value)
    proven = status == cp_model.OPTIMAL
    grouping = _grouping(solver, x)

    # Second solve: as few repeats as found, then tables within score groups.
    model.clear_objective()
    model.clear_hints()
    model.add(repeats == found)
    for t, table in enumerate(grouping):
        for p in range(n):
            model.add_hint(x[p][t], p in table)
    model.minimize(spread(model, x, [points[p] for p in players]))
    solver = _solver(SPREAD_WORK)
    if solver.solve(model) in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        grouping = _grouping(solver, x)
    return Exact([[players[p] for p in table] for table in grouping], found, proven)


def repeat_model(n: int, pairs: Sequence[tuple[int, int]], sizes: Sequence[int]) -> tuple[Any, list[list[Any]], list[Any]]:
    """The CP-SAT model of the module docstring for players 0..n-1, `pairs` who have met: model, x, y."""
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    x = [[model.new_bool_var(f"x{p}_{t}") for t in range(len(sizes))] for p in range(n)]
    for p in range(n):
        model.add_exactly_one(x[p])
    for t, size in enumerate(sizes):
        model.add(sum(x[p][t] for p in range(n)) == size)
        if t and sizes[t - 1] == size:  # interchangeable tables: ordered by their first player
            for p in range(n):
                model.add(x[p][t] <= sum(x[q][t - 1] for q in range(p)))
    y = []
    for p, q in pairs:
        repeat = model.new_bool_var(f"y{p}_{q}")
        y.append(repeat)
        for t in range(len(sizes)):
            model.add_bool_or([~x[p][t], ~x[q][t], repeat])
    return model, x, y


def spread(model: Any, x: list[list[Any]], points: Sequence[int]) -> Any:
    """The sum over tables of the highest points minus the lowest (player p has `points[p]`)."""
    low, high = min(points), max(points)
    total = 0
    for t in range(len(x[0])):
        top, bottom = model.new_int_var(low, high, f"top{t}"), model.new_int_var(low, high, f"bottom{t}")
        for p, row in enumerate(x):
            model.add(top >= points[p]).only_enforce_if(row[t])
            model.add(bottom <= points[p]).only_enforce_if(row[t])
        total += top - bottom
    return total


def _solver(work: float) -> Any:
    from ortools.sat.python import cp_model

    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1  # one worker and a work limit (not a clock): the same answer every time
    solver.parameters.random_seed = SEED
    solver.parameters.max_deterministic_time = work
    return solver


def _grouping(solver: Any, x: list[list[Any]]) -> list[list[int]]:
    tables: list[list[int]] = [[] for _ in x[0]]
    for p, row in enumerate(x):
        tables[next(t for t, var in enumerate(row) if solver.boolean_value(var))].append(p)
    return tables


def _canonical(tables: list[list[int]], sizes: Sequence[int]) -> list[list[int]]:
    """The same grouping with interchangeable tables (one size, side by side) ordered by their first player."""
    ordered: list[list[int]] = []
    start = 0
    while start < len(sizes):
        end = start
        while end < len(sizes) and sizes[end] == sizes[start]:
            end += 1
        ordered += sorted((sorted(t) for t in tables[start:end]), key=min)
        start = end
    return ordered


def fewest_misfits(
    tables: Sequence[Sequence[str]],
    met: Mapping[str, frozenset[str]],
    points: Mapping[str, int],
    costs: Mapping[str, Sequence[int]],
    slots: Mapping[int, Sequence[int]],
    repeats: int,
) -> list[list[str]]:
    """The regrouping of `tables` of least seat cost where every table keeps its points and the round has at most
    `repeats` repeats, as CP-SAT finds it within `SEAT_WORK` (never worse than `tables`, which it starts from).

    `costs[p][position]` is what seating p there costs; `slots[m]` the positions of a table of m (in seat order).
    """
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    # x[p][t, k]: p sits in seat k of table t; only at tables that hold someone with p's points, as many as now.
    holds: dict[int, Counter[int]] = {}
    for t, table in enumerate(tables):
        for p in table:
            holds.setdefault(points[p], Counter())[t] += 1
    x = {
        p: {(t, k): model.new_bool_var(f"x{p}_{t}_{k}") for t in holds[points[p]] for k in range(len(tables[t]))}
        for table in tables for p in table
    }
    for t, table in enumerate(tables):
        for k in range(len(table)):
            model.add_exactly_one(x[p][t, k] for p in x if (t, k) in x[p])
    for held, count in holds.items():
        for t, n in count.items():
            model.add(sum(var for p in x if points[p] == held for (u, _), var in x[p].items() if u == t) == n)
    at = {}
    for p, seats in x.items():
        model.add_exactly_one(seats.values())
        for t in {t for t, _ in seats}:
            at[p, t] = model.new_bool_var(f"at{p}_{t}")
            model.add(at[p, t] == sum(var for (u, _), var in seats.items() if u == t))
    met_pairs = []
    for p in x:
        for q in met[p]:
            common = [t for t in range(len(tables)) if (p, t) in at and (q, t) in at]
            if p < q and q in x and common:
                repeat = model.new_bool_var(f"y{p}_{q}")
                met_pairs.append(repeat)
                for t in common:
                    model.add_bool_or([~at[p, t], ~at[q, t], repeat])
    model.add(sum(met_pairs) <= repeats)
    model.minimize(sum(costs[p][slots[len(tables[t])][k]] * var for p, seats in x.items() for (t, k), var in seats.items()))
    for t, table in enumerate(tables):
        for k, p in enumerate(table):
            model.add_hint(x[p][t, k], True)
    solver = _solver(SEAT_WORK)
    if solver.solve(model) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return [list(t) for t in tables]
    seated: list[list[str]] = [[""] * len(t) for t in tables]
    for p, seats in x.items():
        t, k = next(key for key, var in seats.items() if solver.boolean_value(var))
        seated[t][k] = p
    return seated
