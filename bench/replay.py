"""Replay benchmark: records per second for validating bot games, beside the floor.

The floor is the least any validator must do: read the same lines, decode each
with a reused msgspec decoder, and hash each with SHA-256. The referee does
that and the rules too; the ratio says what the rules cost.

    python bench/replay.py                 # 200 bot games per ruleset
    python bench/replay.py --games 1000 --rulesets cardwars
    python bench/replay.py --profile       # where the referee's time goes
    python bench/replay.py --million       # stream one million records: time and peak memory
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import pstats
import resource
import sys
import tempfile
import time
from pathlib import Path

import msgspec

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from referee.bots import bot_header, play
from referee.engine import judge_file
from referee.logio import encode_lines
from referee.rulesets import get, ids


def corpus(ruleset_id: str, games: int, folder: Path) -> list[Path]:
    """Write `games` bot games of a ruleset (for every player count it allows) and return their paths."""
    ruleset = get(ruleset_id)
    counts = list(range(ruleset.min_players, ruleset.max_players + 1))
    paths = []
    for seed in range(games):
        header = bot_header(ruleset_id, seed, counts[seed % len(counts)])
        path = folder / f"{ruleset_id}-{seed}.jsonl"
        path.write_bytes(b"".join(line + b"\n" for line in encode_lines(header, play(header, seed))))
        paths.append(path)
    return paths


def floor(paths: list[Path]) -> float:
    """Seconds to read, decode and hash every line of every file."""
    decode = msgspec.json.Decoder().decode
    sha256 = hashlib.sha256
    start = time.perf_counter()
    for path in paths:
        with open(path, "rb") as stream:
            for raw in stream:
                line = raw[:-1]
                decode(line)
                sha256(line).hexdigest()
    return time.perf_counter() - start


def referee(paths: list[Path]) -> float:
    """Seconds for the referee to judge every file."""
    start = time.perf_counter()
    for path in paths:
        verdict = judge_file(str(path)).verdict
        if verdict.verdict != "complete":
            raise SystemExit(f"{path}: {verdict.verdict}: {verdict.error}")
    return time.perf_counter() - start


def best_of(runs: int, fn, paths):  # type: ignore[no-untyped-def]
    return min(fn(paths) for _ in range(runs))


def million() -> None:
    """Judge a legal one-million-record cardwars log from a file; report time and how much peak RSS grew."""
    from tests.core.test_engine import endless

    with tempfile.NamedTemporaryFile(suffix=".jsonl") as tmp:
        for line in endless(1_000_000):
            tmp.write(line + b"\n")
        tmp.flush()
        size = tmp.tell()
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        start = time.perf_counter()
        verdict = judge_file(tmp.name).verdict
        seconds = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"one million records ({size / 2**20:.0f} MiB): {verdict.verdict}, {verdict.records_checked:,} records "
          f"in {seconds:.2f} s ({verdict.records_checked / seconds:,.0f} records/s); "
          f"peak RSS grew by {(after - before) / 1024:.1f} MiB")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--runs", type=int, default=3, help="best of this many timings")
    parser.add_argument("--rulesets", nargs="*", default=None)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--million", action="store_true")
    args = parser.parse_args()
    if args.million:
        million()
        return
    chosen = args.rulesets or ids()
    print(f"{'ruleset':<20}{'games':>6}{'records':>10}{'floor rec/s':>14}{'referee rec/s':>15}{'ratio':>8}")
    with tempfile.TemporaryDirectory() as tmp:
        for ruleset_id in chosen:
            paths = corpus(ruleset_id, args.games, Path(tmp))
            records = sum(p.read_bytes().count(b"\n") - 1 for p in paths)
            fast, slow = best_of(args.runs, floor, paths), best_of(args.runs, referee, paths)
            print(f"{ruleset_id:<20}{len(paths):>6}{records:>10}{records / fast:>14,.0f}{records / slow:>15,.0f}{fast / slow:>8.0%}")
            if args.profile:
                profiler = cProfile.Profile()
                profiler.runcall(referee, paths)
                pstats.Stats(profiler).sort_stats("tottime").print_stats(12)


if __name__ == "__main__":
    main()
