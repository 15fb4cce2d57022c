"""Time Swiss pods pairing (`tournament.pods.pair_pods`) on simulated events, tables of four.

    python bench/pods.py [--quick] [--size 4]

(The issue asked for this in bench/pairing.py; that file belongs to the Swiss
pairing work, so pods have their own bench.) For each field size, a whole
event of ceil(log2 n) rounds is simulated: each round is paired by
`pair_pods`, timed, and every table is won by one of its players at random
(a shared first place 5% of the time). The table gives the seconds of the
slowest round and of the whole event, the repeat meetings the pairings
could not avoid (pairs of players at one table who had met before), and the
share of tables whose players did not all have the same points (paired down).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournament.pods import PodEntrant, Points, pair_pods

SIZES = (64, 256, 1000, 10_000)
QUICK_SIZES = (64, 256, 1000)
SHARED_CHANCE = 0.05


def run_event(players: int, size: int, seed: int) -> tuple[int, float, float, int, float]:
    """Rounds, slowest round (s), whole event (s), repeat meetings, share of mixed-score tables."""
    rng = random.Random(seed)
    ids = [f"p{i:05d}" for i in range(players)]
    points = dict.fromkeys(ids, 0)
    met: dict[str, set[str]] = {p: set() for p in ids}
    had_bye: set[str] = set()
    firsts = dict.fromkeys(ids, 0)
    scheme = Points()
    rounds = math.ceil(math.log2(players))
    slowest = total = 0.0
    repeats = mixed = tables = 0
    for number in range(1, rounds + 1):
        ranked = sorted(ids, key=lambda p: (-points[p], p))
        rank = {p: k for k, p in enumerate(ranked, start=1)}
        entrants = [PodEntrant(p, points[p], rank[p], p in had_bye, frozenset(met[p]), firsts[p]) for p in ids]
        started = time.perf_counter()
        paired = pair_pods(entrants, number, seed, size)
        elapsed = time.perf_counter() - started
        slowest, total, repeats = max(slowest, elapsed), total + elapsed, repeats + paired.repeats
        tables += len(paired.tables)
        mixed += sum(1 for table in paired.tables if len({points[p] for p in table}) > 1)
        for table in paired.tables:
            firsts[table[0]] += 1
            winners = rng.sample(table, 2 if rng.random() < SHARED_CHANCE else 1)
            placements = {p: 1 if p in winners else 2 for p in table}
            for p, scored in scheme.scored(placements).items():
                points[p] += scored
            for p in table:
                met[p].update(q for q in table if q != p)
        for p in paired.byes:
            had_bye.add(p)
            points[p] += scheme.win
    return rounds, slowest, total, repeats, mixed / tables


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="skip 10,000 players")
    parser.add_argument("--size", type=int, default=4, help="players a table (3 to 6)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{'players':>8} {'table':>5} {'rounds':>6} {'slowest round s':>16} {'event s':>8} {'repeats':>8} {'mixed':>6}")
    for players in QUICK_SIZES if args.quick else SIZES:
        rounds, slowest, total, repeats, mixed = run_event(players, args.size, args.seed)
        print(f"{players:>8} {args.size:>5} {rounds:>6} {slowest:>16.3f} {total:>8.2f} {repeats:>8} {mixed:>6.1%}")


if __name__ == "__main__":
    main()
