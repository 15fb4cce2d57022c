"""Mutated-log bench: any bytes get a verdict or a one-line error, never a traceback.

Mutates bot games of all five rulesets (bytes that are not UTF-8, nesting
100,000 deep, random bytes inserted, replaced or deleted, huge numbers, long
strings, broken line endings, lines moved, truncation, a byte-order mark; one
to three at a time, see tests/mutations.py), hands each log to the referee as
`referee validate` and `dispute` would, and counts the tracebacks. The count
must be 0. Case N is the same on every machine, so a failure is replayed with
`--start N --count 1`.

    python bench/mutate.py                  # 100,000 logs
    python bench/mutate.py --count 2000 --start 5000
"""

from __future__ import annotations

import argparse
import collections
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.mutations import cases, crash


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100_000, help="How many mutated logs.")
    parser.add_argument("--start", type=int, default=0, help="The first case number.")
    args = parser.parse_args()
    began = time.perf_counter()
    crashes: collections.Counter[str] = collections.Counter()
    examples: dict[str, str] = {}
    kinds: collections.Counter[str] = collections.Counter()
    verdicts = 0
    for n, case in enumerate(cases(args.count, args.start), start=1):
        kinds.update(case.mutations)
        why = crash(case)
        if why is None:
            verdicts += 1
        else:
            where = why.split(": ", 1)[0]
            crashes[where] += 1
            examples.setdefault(where, f"{case}: {why}")
        if n % 10_000 == 0:
            print(f"  {n} logs, {sum(crashes.values())} tracebacks, {time.perf_counter() - began:.0f} s", file=sys.stderr)
    wall = time.perf_counter() - began
    print(f"inputs: {args.count} mutated logs (cases {args.start}..{args.start + args.count - 1}), all five rulesets")
    print("mutations: " + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items())))
    print(f"answered: {verdicts}")
    print(f"tracebacks: {sum(crashes.values())}")
    for where, count in crashes.most_common():
        print(f"  {count} x {examples[where]}")
    print(f"wall time: {wall:.0f} s ({args.count / wall:.0f} logs/s)")
    return 1 if crashes else 0


if __name__ == "__main__":
    sys.exit(main())
