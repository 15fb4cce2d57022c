"""Pods pairing (`tournament.pods.pair_pods`) on simulated events: time, repeats against the proven fewest, seat balance.

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
- `mixed`: the share of tables whose players did not all have the same points.

Timings are wall clock: on a loaded machine they are noisy; compare
columns of the same run.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournament.pods import PodEntrant, Points, best_balance, pair_pods, seat_balance, tally_seats

SIZES = (13, 20, 21, 40, 64, 1000, 10_000)
QUICK_SIZES = (13, 20, 21, 40, 64, 1000)
SHARED_CHANCE = 0.05


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
        started = time.perf_counter()
        search = pair_pods(entrants, number, seed, size, exact=False)
        search_time = time.perf_counter() - started
        started = time.perf_counter()
        paired = pair_pods(entrants, number, seed, size)
        paired_time = time.perf_counter() - started
        seated += paired.tables
        for table in paired.tables:
            for p in table:
                sat_at[p].append(len(table))
        mixed = sum(1 for table in paired.tables if len({points[p] for p in table}) > 1) / len(paired.tables)
        counts = tally_seats(seated, size)
        balance = seat_balance(counts, size)
        uneven = sum(1 for p, c in counts.items() if max(c) - min(c) > best_balance(tuple(sorted(sat_at[p])), size))
        fewest = str(paired.repeats) if paired.proven else "?"
        print(
            f"{players:>8} {number:>5} {search_time:>9.3f} {paired_time:>9.3f} {search.repeats:>7} {paired.repeats:>8}"
            f" {fewest:>7} {balance:>8} {uneven:>7} {mixed:>6.1%}",
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
    print(f"{'players':>8} {'round':>5} {'search s':>9} {'paired s':>9} {'search':>7} {'repeats':>8} {'fewest':>7} {'balance':>8} {'uneven':>7} {'mixed':>6}")
    for players in args.players or (QUICK_SIZES if args.quick else SIZES):
        run_event(players, args.size, args.rounds, args.seed)


if __name__ == "__main__":
    main()
