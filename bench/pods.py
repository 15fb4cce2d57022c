"""Pods pairing (`tournament.formats.pods.pair_pods`) on simulated events: time, repeats against the proven fewest, seat balance.

    python bench/pods.py [--quick] [--size 4] [--rounds 5] [--seed 2]

For each field, an event of `--rounds` rounds at tables of `--size` is
simulated: each round is paired by `pair_pods` (the search, then for fields
up to 64 the CP-SAT proof), timed, and every table is won by one of its
players at random (a shared first place 5% of the time). The same round is
also paired by the search alone (`exact=False`), so the bench shows what the
search finds against the proven fewest where both run. One line a round:

- `search s`, `paired s`: seconds for the search alone, and for the whole pairing;
- `search`: repeat meetings the search alone leaves (pairs at one table who had met);
- `repeats`: what the pairing leaves; `fewest`: the proven minimum ("?" when
  the solver hit its work limit or the field is above 64 and the search left repeats);
- `balance`: the event's seat balance after the round (over players, the most
  rounds in one position minus the fewest in another; after r rounds at
  tables of k, 0 is possible when k divides r, else 1 at best);
- `uneven`: how many players are above the best balance the tables they sat
  at allow (`pods.best_balance`: a table one short has no second-to-last seat);
- `misfits`: players the round seats in a position they have had more often
  than their least one (T-12); `least`: a lower bound on them (CP-SAT, all
  regroupings that keep every table's points, repeats ignored; "~" before it
  when the solver stopped at its time limit with the bound below its best);
- `mixed`: the share of tables whose players did not all have the same points.

Timings are CPU seconds of the process (CP-SAT runs one worker), so other
work on a loaded machine sways them less than the clock; still compare
columns of the same run.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournament.formats.pods import (
    PodEntrant,
    Points,
    best_balance,
    pair_pods,
    position,
    seat_balance,
    tally_seats,
)

SIZES = (13, 20, 21, 40, 64, 1000, 10_000)
QUICK_SIZES = (13, 20, 21, 40, 64, 1000)
SHARED_CHANCE = 0.05
BOUND_SECONDS = 60.0


def misfits(tables: Sequence[Sequence[str]], need: Mapping[str, tuple[int, ...]], size: int) -> int:
    return sum(1 for t in tables for k, p in enumerate(t) if need[p][position(k, len(t), size)])


def least_misfits(tables: Sequence[Sequence[str]], points: Mapping[str, int], need: Mapping[str, tuple[int, ...]], size: int) -> str:
    """A lower bound on the round's misfits over every regrouping in which each table keeps its points.

    Repeats are ignored, so players with the same points and needs are alike:
    the model chooses, seat by seat, which kind of player sits there.
    """
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    kinds = Counter((points[p], need[p]) for t in tables for p in t)
    placed: dict[tuple[int, tuple[int, ...]], list] = {kind: [] for kind in kinds}
    cost = []
    for table in tables:
        held = Counter(points[p] for p in table)
        by_points: dict[int, list] = {v: [] for v in held}
        for k in range(len(table)):
            here = {kind: model.new_bool_var("") for kind in kinds if kind[0] in held}
            model.add_exactly_one(here.values())
            for kind, var in here.items():
                placed[kind].append(var)
                by_points[kind[0]].append(var)
                if kind[1][position(k, len(table), size)]:
                    cost.append(var)
        for v, count in held.items():
            model.add(sum(by_points[v]) == count)
    for kind, count in kinds.items():
        model.add(sum(placed[kind]) == count)
    model.minimize(sum(cost))
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = BOUND_SECONDS
    status = solver.solve(model)
    bound = -int(-solver.best_objective_bound // 1)  # rounded up: misfits are whole
    return str(bound) if status == cp_model.OPTIMAL or bound >= solver.objective_value else f"~{bound}"


def run_event(players: int, size: int, rounds: int, seed: int) -> None:
    rng = random.Random(seed)
    ids = [f"p{i:05d}" for i in range(players)]
    points = dict.fromkeys(ids, 0)
    met: dict[str, set[str]] = {p: set() for p in ids}
    had_bye: set[str] = set()
    seated: list[list[str]] = []
    sat_at: dict[str, list[int]] = {p: [] for p in ids}  # the sizes of the tables each player sat at
    scheme = Points()
    for number in range(1, rounds + 1):
        ranked = sorted(ids, key=lambda p: (-points[p], p))
        rank = {p: k for k, p in enumerate(ranked, start=1)}
        seats = tally_seats(seated, size)
        entrants = [PodEntrant(p, points[p], rank[p], p in had_bye, frozenset(met[p]), seats.get(p, ())) for p in ids]
        need = {p: tuple(c - min(seats.get(p, (0,) * size)) for c in seats.get(p, (0,) * size)) for p in ids}
        started = time.process_time()
        search = pair_pods(entrants, number, seed, size, exact=False)
        search_time = time.process_time() - started
        started = time.process_time()
        paired = pair_pods(entrants, number, seed, size)
        paired_time = time.process_time() - started
        seated += paired.tables
        for table in paired.tables:
            for p in table:
                sat_at[p].append(len(table))
        mixed = sum(1 for table in paired.tables if len({points[p] for p in table}) > 1) / len(paired.tables)
        counts = tally_seats(seated, size)
        balance = seat_balance(counts, size)
        uneven = sum(1 for p, c in counts.items() if max(c) - min(c) > best_balance(tuple(sorted(sat_at[p])), size))
        fewest = str(paired.repeats) if paired.proven else "?"
        found = misfits(paired.tables, need, size)
        least = least_misfits(paired.tables, points, need, size) if found else "0"
        print(
            f"{players:>8} {number:>5} {search_time:>9.3f} {paired_time:>9.3f} {search.repeats:>7} {paired.repeats:>8}"
            f" {fewest:>7} {balance:>8} {uneven:>7} {found:>8} {least:>6} {mixed:>6.1%}",
            flush=True,
        )
        for table in paired.tables:
            winners = rng.sample(table, 2 if rng.random() < SHARED_CHANCE else 1)
            placements = {p: 1 if p in winners else 2 for p in table}
            for p, scored in scheme.scored(placements).items():
                points[p] += scored
            for p in table:
                met[p].update(q for q in table if q != p)
        for p in paired.byes:
            had_bye.add(p)
            points[p] += scheme.win


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="skip 10,000 players")
    parser.add_argument("--size", type=int, default=4, help="players a table (3 to 6)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--players", type=int, nargs="*", help="field sizes (default: 13 20 21 40 64 1000 10000)")
    args = parser.parse_args()
    print(f"{'players':>8} {'round':>5} {'search s':>9} {'paired s':>9} {'search':>7} {'repeats':>8} {'fewest':>7} {'balance':>8} {'uneven':>7} {'misfits':>8} {'least':>6} {'mixed':>6}")
    for players in args.players or (QUICK_SIZES if args.quick else SIZES):
        run_event(players, args.size, args.rounds, args.seed)


if __name__ == "__main__":
    main()
